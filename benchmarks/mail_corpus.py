"""How much of a real-world mail corpus pbem's parser reads right.

Usage: python benchmarks/mail_corpus.py DIR

DIR holds one folder per public mail-parsing project, each with that
project's fixture files (raw messages, plain-text bodies, HTML bodies). Every
file goes through pbem's own parser: ``read()`` for raw messages,
``reply_text()`` for bodies. The parser must never raise. A file passes when
the text pbem extracts as "what the sender just wrote" meets the expectation
that project's own tests set for it, encoded below as short phrases:

- a body with an entry in EXPECT passes when the extracted text contains
  every phrase of its first element and none of its second;
- crisp's fixtures that open with "Fusce bibendum" expect exactly their first
  paragraph (crisp-oss/email-reply-parser test/test.js);
- talon's standard replies expect exactly "Hello" unless a ``*_reply_text``
  file says otherwise (talon tests/text_quotations_test.py); talon's HTML
  replies expect exactly "Hi. I am fine. Thanks, Alex" (whitespace aside);
- raw messages with no reply expectation (flanker, cpython, mail-parser) pass
  when ``read()`` returns a sensible sender and subject.

Comparisons ignore differences in whitespace. The script prints the share of
passing files per source and overall, and the files that failed.
"""

from collections import defaultdict
from pathlib import Path
import re
import sys
import time

from pbem.mail.parse import read, reply_text

# file -> (phrases the reply must contain, phrases it must not contain).
# Phrases paraphrase the upstream assertions: zapier test/test_email_reply_parser.py,
# github test/email_reply_parser_test.rb, alfonsrv/mail-parser-reply
# test/test_email_reply_parser.py, crisp test/test.js, talon tests/html_quotations_test.py,
# quotequail tests/test_unwrap_html.py. Where a file has no upstream assertion on its
# reply (marked "own reading"), the phrases say what a reader sees as its new text.
EXPECT = {
    # zapier/email-reply-parser
    "zapier-email-reply-parser/correct_sig.txt": (["correct -- signature"], ["rick"]),
    "zapier-email-reply-parser/email_1_1.txt": (["Hi folks", "Java HTTP API"],
                                                ["riak-users mailing list"]),
    "zapier-email-reply-parser/email_1_2.txt": (["Hi,", "You can list the keys for the bucket",
                                                 "delete them all individually"],
                                                ["I am currently using", "mailing list"]),
    "zapier-email-reply-parser/email_1_3.txt": (["Having the function would be great"],
                                                ["Russell Brown", "You can list the keys"]),
    "zapier-email-reply-parser/email_1_4.txt": (["Awesome! I haven't had another problem"],
                                                ["Loader"]),
    "zapier-email-reply-parser/email_1_5.txt": (["fourth bullet point", "And another one",
                                                 "for a while."], []),
    "zapier-email-reply-parser/email_1_6.txt": (["I get proper rendering as well"],
                                                ["Was this caching related"]),
    "zapier-email-reply-parser/email_1_7.txt": ([":+1:"], ["Steps 0-2"]),
    "zapier-email-reply-parser/email_1_8.txt": (["I will reply under this one", "and under this."],
                                                ["some stuff I can write", "this is my signature"]),
    "zapier-email-reply-parser/email_2_1.txt": (["Outlook with a reply"], ["Google Apps Sync"]),
    "zapier-email-reply-parser/email_2_2.txt": (["Outlook with a reply directly above line"],
                                                ["CRM Comments", "new comment"]),
    "zapier-email-reply-parser/email_2_3.txt": (["using unusual format"],
                                                ["Kim via Site", "Ei tale aliquam"]),
    "zapier-email-reply-parser/email_BlackBerry.txt": (["Here is another email"],
                                                       ["Sent from my BlackBerry"]),
    "zapier-email-reply-parser/email_bullets.txt": (["retain this formatting", "- and another"],
                                                    ["Give us an example", "Joe Smith"]),
    "zapier-email-reply-parser/email_gmail.txt": (["This is a test for inbox replying"],
                                                  ["Steven Scott", "outdated"]),
    "zapier-email-reply-parser/email_headers_no_delimiter.txt": (["And another reply!"],
                                                                 ["Dan Watson", "second line"]),
    "zapier-email-reply-parser/email_iPhone.txt": (["Here is another email"],
                                                   ["Sent from my iPhone"]),
    "zapier-email-reply-parser/email_multi_word_sent_from_my_mobile_device.txt": (
        ["Here is another email"], ["Verizon"]),
    "zapier-email-reply-parser/email_one_is_not_on.txt": (["One outstanding question",
                                                           "when I run..."],
                                                          ["Dave Tapley", "good news"]),
    "zapier-email-reply-parser/email_partial_quote_header.txt": (
        ["On your remote host you can run:", "telnet 127.0.0.1 52698",
         "This should connect to TextMate"], ["odd issue"]),
    "zapier-email-reply-parser/email_sent_from_my_not_signature.txt": (
        ["Here is another email"], []),
    "zapier-email-reply-parser/email_sig_delimiter_in_middle_of_line.txt": (
        ["this is not a signature", "kthxbai"], []),
    "zapier-email-reply-parser/greedy_on.txt": (["On your remote host", "tunnel is not working"],
                                                ["George Plymale", "odd issue"]),
    "zapier-email-reply-parser/pathological.txt": (["get back to a computer"],
                                                   ["John Sullivan", "Influenza"]),
    # github/email_reply_parser (own reading: the upstream module has no reply assertion)
    "github-email_reply_parser/email_2_3.txt": (["Outlook with a reply directly above line"],
                                                ["CRM Comments", "new comment"]),
    "github-email_reply_parser/email_long_quote.txt": (["clear a Riak bucket", "Java HTTP API"],
                                                       ["mailing list"]),
    # alfonsrv/mail-parser-reply
    "mail-parser-reply/begins_with_signature.txt": (["sent an invite for 10:30am"],
                                                    ["10.30 AM pacific is good"]),
    "mail-parser-reply/caution.txt": (["still not available"], []),  # own reading
    "mail-parser-reply/caution2.txt": (["My order is time sensitive"], []),  # own reading
    "mail-parser-reply/email_3_1.txt": (["First reply", "nothing too hard here"],
                                        ["second test reply", "Veeam"]),
    "mail-parser-reply/email_danish_1.txt": (["Hej Peter,", "Det lyder godt"],
                                             ["Hvordan går det"]),
    "mail-parser-reply/email_nl_1_1.txt": (["Java HTTP API"], ["riak-gebruikers mailing list"]),
    "mail-parser-reply/email_pl_1_1.txt": (["Czesc Anno", "Jak się masz"], []),
    "mail-parser-reply/email_swedish_1.txt": (["Ursäkta mitt sena svar!"],
                                              ["Jag har försökt få tag"]),
    "mail-parser-reply/forward.txt": (["Arrival Notice without PU#"], []),  # own reading
    "mail-parser-reply/multi_header.txt": (["start a new order"],  # own reading
                                           ["unable to add items", "replacement order"]),
    "mail-parser-reply/multiline_on.txt": ([], ["wrote:", "asd", "On this day"]),
    "mail-parser-reply/multiline_on_de.txt": (["Am heutigen Tage"], ["schrieb"]),  # own reading
    "mail-parser-reply/outlook.txt": (["My number is"], ["Get Outlook for iOS"]),  # own reading
    # crisp-oss/email-reply-parser (the "Fusce bibendum" files are checked by rule)
    "crisp-email-reply-parser/email_emoji.txt": (["🎉"], []),
    "crisp-email-reply-parser/email_not_a_signature.txt": (
        ["Registration Jun 27, 2018 github.com", "Super Domain Name Manager"], []),
    "crisp-email-reply-parser/email_not_a_signature_2.txt": (
        ["-- first point", "-- and also third point", "I hope you can check it"], []),
    "crisp-email-reply-parser/email_reply_header.txt": (["On the other hand, it could happen"],
                                                        ["Mister Example", "Hey, Stranger"]),
    "crisp-email-reply-parser/email_sent_from.txt": (["in between words or paragraphs."],
                                                     ["Valerian", "Can you send this text"]),
    "crisp-email-reply-parser/email_thread.txt": (["This is new email reply in thread"],
                                                  ["Ok. Thanks.", "John Doe"]),
    "crisp-email-reply-parser/email_tricky_11_double_signature.txt": (
        ["Thanks for your help!"], ["Senior Developer"]),
    "crisp-email-reply-parser/email_tricky_13_timestamp_variations.txt": (
        ["Jan 15, 2024 at 14:30", "not quote headers"], []),
    "crisp-email-reply-parser/email_tricky_16_unicode_signatures.txt": (
        ["Thanks for the update!"], []),
    "crisp-email-reply-parser/email_tricky_17_forward_header.txt": (
        ["See the forwarded message below."], ["forwarded content"]),
    "crisp-email-reply-parser/email_tricky_18_inline_reply.txt": (
        ["option A is great", "Option B has some drawbacks", "Option C is not suitable"],
        ["What's your opinion", "Jane Doe"]),
    "crisp-email-reply-parser/email_tricky_19_quote_without_header.txt": (
        ["I wanted to respond", "My response to the quoted text", "And my final thoughts"],
        ["without a proper quote header"]),
    "crisp-email-reply-parser/email_tricky_1_on_false_positive.txt": (
        ["On the surface", "On average", "performance is great"], []),
    "crisp-email-reply-parser/email_tricky_20_html_entities.txt": (
        ["&gt; 100 and &lt; 200", "&amp; symbols"], ["Previous message"]),
    "crisp-email-reply-parser/email_tricky_2_url_with_wrote.txt": (
        ["Check out this article", "https://example.com/blog/on-date-someone-wrote",
         "contain patterns like"], []),
    "crisp-email-reply-parser/email_tricky_3_code_block.txt": (
        ["function sendEmail", "signature-like patterns"], []),
    "crisp-email-reply-parser/email_tricky_4_from_in_body.txt": (
        ["come from: john@example.com", "actual message content"], []),
    "crisp-email-reply-parser/email_tricky_6_regards_in_sentence.txt": (
        ["with regards to the payment", "should be visible"], []),
    "crisp-email-reply-parser/email_tricky_7_multiple_dashes.txt": (
        ["Key Points", "markdown formatting", "just separators"], []),
    "crisp-email-reply-parser/email_tricky_8_sent_from_in_content.txt": (
        ["sent from my iPhone app", "sent from the main server"], []),
    "crisp-email-reply-parser/email_tricky_9_nested_quotes.txt": (
        ["I agree with the points below."], ["Thanks for forwarding", "option A"]),
    "crisp-email-reply-parser/email_unquoted_reply.txt": (["This is my reply."],
                                                          ["This is my quote."]),
    "crisp-email-reply-parser/email_with_regards.txt": (["I still have the same problem",
                                                         "Can you help?"], []),
    "crisp-email-reply-parser/email_zoho.txt": (["clear a Riak bucket", "running a test?"],
                                                ["Java sucks"]),
    "crisp-email-reply-parser/sig_no_empty_line.txt": (["with no empty line above."], ["rick"]),
    # talon fixtures outside the two rule-checked folders
    "talon/OLK_SRC_BODY_SECTION.html": (["Reply"], ["From:", "Hello"]),
    "talon/reply-separated-by-hr.html": (["Hi", "there"], ["bob@example.com", "Hello"]),
    "talon/reply-quotations-share-block.eml": (["Sounds great"], ["From", "Booking Inquiry"]),
    # closeio/quotequail: the reply is unwrap_html's html_top, empty for a bare forward
    "quotequail/apple_forward.html": (["test", "blah"], ["Text of the original email"]),
    "quotequail/apple_reply.html": (["Foo", "Bar"], ["important", "John Doe"]),
    "quotequail/gmail_forward.html": (["test", "blah"], ["Some text"]),
    "quotequail/gmail_reply.html": (["foo", "bar"], ["This is the reply", "Senior Director"]),
    "quotequail/ios_mail_reply_unescaped_address.html": (["Sounds good, I'll be there at 2."],
                                                         ["reschedule", "Sent from my iPhone"]),
    "quotequail/mailru_forward.html": ([], ["Это тест", "Иван"]),
    "quotequail/mailru_forward_unwrapped.html": (["Это тест!"], []),
    "quotequail/outlook_forward.html": (["Original message", "More text"], ["How are you doing"]),
    "quotequail/outlook_forward_unwrapped.html": (["Hi Foo,", "How are you doing?"], []),
    "quotequail/outlook_forward_unwrapped_top.html": (["Original message", "More text"], []),
    "quotequail/thunderbird_forward.html": ([], ["This is a test", "Dear John"]),
    # own reading: quotequail's output keeps Thunderbird's forward container, which is history
    "quotequail/thunderbird_forward_unwrapped.html": ([], ["This is a test."]),
    "quotequail/yahoo_reply_unescaped_address.html": (["ship it before Friday?"],
                                                      ["Track lights", "Jane Roe"]),
}
FUSCE_LINES = 5  # crisp's COMMON_FIRST_FRAGMENT is the first five lines of those files
TALON_HTML_REPLY = "Hi. I am fine. Thanks, Alex"
SKIPPED = re.compile(r"^(LICENSE|NOTICE|.*\.md$|.*_reply_text$)", re.IGNORECASE)
RAW_SOURCES = {"flanker", "cpython-test_email", "mail-parser"}


def flat(text: str) -> str:
    """Text with every run of whitespace made one space."""
    return " ".join(text.split())


def judge(root: Path, path: Path) -> tuple[bool, str]:
    """(passed, what pbem extracted or why it failed) for one corpus file."""
    key = path.relative_to(root).as_posix()
    source = key.split("/", 1)[0]
    data = path.read_bytes()
    if source in RAW_SOURCES or path.suffix == ".eml":
        incoming = read(data)
        if key in EXPECT or "standard_replies/" in key:
            return expected_reply(key, path, incoming.text)
        return sensible(incoming), f"sender={incoming.sender!r} subject={incoming.subject[:40]!r}"
    text = reply_text(data.decode("utf-8", "replace"), html=path.suffix == ".html")
    return expected_reply(key, path, text)


def expected_reply(key: str, path: Path, text: str) -> tuple[bool, str]:
    """Does the extracted text meet the upstream expectation for this file?"""
    got = flat(text)
    if key in EXPECT:
        must, must_not = EXPECT[key]
        ok = all(flat(p) in got for p in must) and not any(flat(p) in got for p in must_not)
        return ok, got
    if "html_replies/" in key:
        return got == TALON_HTML_REPLY, got
    if "standard_replies/" in key:
        answer = path.with_name(path.stem + "_reply_text")
        wanted = {"Hello"}
        if answer.exists():
            full = answer.read_text(encoding="utf-8")
            # pbem drops signatures on purpose: the text above the signature also counts.
            wanted = {flat(full), flat(re.split(r"\n(?:-- ?\n|Sent from my )", full)[0])}
        return got in wanted, got
    raw = path.read_text(encoding="utf-8", errors="replace")
    if key.startswith("crisp-email-reply-parser/") and raw.startswith("Fusce bibendum"):
        return got == flat("\n".join(raw.splitlines()[:FUSCE_LINES])), got
    return False, "no expectation for this file"


def sensible(incoming) -> bool:
    """A sender that is one address or nothing, a one-line subject."""
    sender_ok = incoming.sender == "" or (
        incoming.sender.count("@") == 1 and not any(c.isspace() for c in incoming.sender))
    return sender_ok and "\n" not in incoming.subject and "\r" not in incoming.subject


def main(argv: list[str]) -> int:
    """Run every corpus file through the parser and print the pass rates."""
    if len(argv) != 2 or not Path(argv[1]).is_dir():
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    root = Path(argv[1])
    results = defaultdict(list)
    started = time.perf_counter()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        if SKIPPED.match(path.name):
            continue
        source = path.relative_to(root).parts[0]
        try:
            ok, detail = judge(root, path)
        except Exception as problem:  # the parser must never raise: count it and go on
            ok, detail = False, f"RAISED {type(problem).__name__}: {problem}"
        results[source].append((path.relative_to(root).as_posix(), ok, detail))
    elapsed = time.perf_counter() - started
    report(results, elapsed)
    return 0


def report(results: dict, elapsed: float) -> None:
    """Print the failures, then the share of passing files per source and overall."""
    for source in sorted(results):
        for name, ok, detail in results[source]:
            if not ok:
                print(f"FAIL {name}: {detail[:160]}")
    total = passed = 0
    print(f"\n{'source':32} {'passed':>7} {'files':>6} {'share':>7}")
    for source in sorted(results):
        rows = results[source]
        good = sum(ok for _, ok, _ in rows)
        total, passed = total + len(rows), passed + good
        print(f"{source:32} {good:7} {len(rows):6} {good / len(rows):7.1%}")
    print(f"{'overall':32} {passed:7} {total:6} {passed / max(total, 1):7.1%}"
          f"   ({elapsed:.2f}s)")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
