"""Reading real mail: the orders a player wrote, whatever client and charset sent them.

Each test writes a raw mail the way a common client writes it (headers, MIME
structure, charset, transfer encoding, quoting style) and checks the exact
text pbem extracts as the player's new words.
"""

from email.message import EmailMessage
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText

from hypothesis import given, settings, strategies as st
import pytest

from pbem.mail.parse import REPLY_MARKER, files, read, reply_text

REPORT = f"""{REPLY_MARKER}

Auguste rome: orders received

Your orders as I understood them:
  red: move BAK DOR
"""
QUOTED_REPORT = "\n".join("> " + line if line else ">" for line in REPORT.splitlines())
ORDERS = "red: move BAK DOR\nblue: hold"


def mail(body, *, subtype="plain", charset="utf-8", cte=None, headers=None,
         sender="Ann <ann@players.example>") -> bytes:
    """A single-part mail from Ann with the given body."""
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "pbem+rome.abcd2345@referee.example"
    msg["Subject"] = "Re: [pbem rome #abcd2345] your turn"
    msg["Message-ID"] = "<m1@players.example>"
    for name, value in (headers or {}).items():
        msg[name] = value
    msg.set_content(body, subtype=subtype, charset=charset, cte=cte)
    return msg.as_bytes()


def alternative(text: str, html: str) -> bytes:
    """A multipart/alternative mail, as Gmail, Apple Mail and Outlook send."""
    msg = EmailMessage()
    msg["From"] = "Ann <ann@players.example>"
    msg["To"] = "pbem+rome.abcd2345@referee.example"
    msg["Subject"] = "Re: [pbem rome #abcd2345] your turn"
    msg["Message-ID"] = "<m2@players.example>"
    msg.set_content(text)
    msg.add_alternative(html, subtype="html")
    return msg.as_bytes()


# ------------------------------------------------------------------ clients


def test_gmail_plain_and_html_reply():
    text = (f"{ORDERS}\n\nOn Tue, Dec 1, 2026 at 1:00 PM pbem referee <pbem@referee.example> "
            f"wrote:\n\n{QUOTED_REPORT}\n")
    html = ('<div dir="ltr">red: move BAK DOR<div>blue: hold</div></div><br>'
            '<div class="gmail_quote"><div dir="ltr" class="gmail_attr">On Tue, Dec 1, 2026 at '
            '1:00 PM pbem referee &lt;<a href="mailto:pbem@referee.example">'
            'pbem@referee.example</a>&gt; wrote:<br></div><blockquote class="gmail_quote">'
            f'<p>{REPLY_MARKER}</p><p>red: move BAK DOR</p></blockquote></div>')
    raw = alternative(text, html)
    assert read(raw).text == ORDERS
    assert reply_text(html, html=True) == ORDERS


def test_gmail_wraps_a_long_attribution_over_two_lines():
    body = (f"{ORDERS}\n\nOn Tue, Dec 1, 2026 at 1:00 PM pbem referee at the example club <\n"
            f"pbem@referee.example> wrote:\n\n{QUOTED_REPORT}\n")
    assert read(mail(body)).text == ORDERS


def test_outlook_desktop_french_header_block():
    body = ("red: move BAK DOR\r\n\r\nDe : pbem referee <pbem@referee.example>\r\n"
            "Envoyé : mardi 1 décembre 2026 13:00\r\nÀ : ann@players.example\r\n"
            "Objet : [pbem rome #abcd2345] your turn\r\n\r\n" + REPORT)
    assert read(mail(body, cte="quoted-printable")).text == "red: move BAK DOR"


def test_outlook_original_message_separator():
    body = (f"{ORDERS}\n\n-----Original Message-----\nFrom: pbem referee "
            f"[mailto:pbem@referee.example]\nSent: Tuesday, December 1, 2026 1:00 PM\n"
            f"To: Ann\nSubject: [pbem rome #abcd2345] your turn\n\n{REPORT}")
    assert read(mail(body)).text == ORDERS


def test_outlook_web_html_reply_cuts_at_the_reply_header():
    html = ('<div>red: move BAK DOR</div><div>blue: hold</div><hr style="display:inline-block">'
            '<div id="divRplyFwdMsg"><b>From:</b> pbem referee<br><b>Sent:</b> Tuesday</div>'
            f'<div><p>{REPLY_MARKER}</p><p>green: move ALE CAS</p></div>')
    assert reply_text(html, html=True) == ORDERS


def test_apple_mail_french_attribution_and_quotes():
    body = (f"{ORDERS}\n\n> Le 1 déc. 2026 à 13:00, pbem referee <pbem@referee.example> "
            f"a écrit :\n> \n{QUOTED_REPORT}\n")
    assert read(mail(body)).text == ORDERS


def test_apple_mail_attribution_outside_the_quote():
    body = (f"{ORDERS}\n\nLe 1 déc. 2026 à 13:00, pbem referee <pbem@referee.example> a écrit :"
            f"\n\n{QUOTED_REPORT}\n")
    assert read(mail(body)).text == ORDERS


def test_iphone_signature_in_french_and_english():
    french = f"{ORDERS}\n\nEnvoyé de mon iPhone\n\n{QUOTED_REPORT}\n"
    english = f"{ORDERS}\n\nSent from my iPhone\n\n{QUOTED_REPORT}\n"
    assert read(mail(french)).text == ORDERS
    assert read(mail(english)).text == ORDERS


def test_android_signature():
    body = f"{ORDERS}\n\nSent from my Galaxy\n"
    assert read(mail(body)).text == ORDERS


def test_thunderbird_html_reply_with_cite_prefix():
    html = ('<html><body><p>red: move BAK DOR<br>blue: hold<br></p>'
            '<div class="moz-cite-prefix">On 01/12/2026 13:00, pbem referee wrote:<br></div>'
            f'<blockquote type="cite" cite="mid:x@referee.example"><p>{REPLY_MARKER}</p>'
            '<p>green: move ALE CAS</p></blockquote></body></html>')
    assert read(mail(html, subtype="html")).text == ORDERS


def test_thunderbird_format_flowed_is_unwrapped():
    raw = ("From: Ann <ann@players.example>\r\nTo: pbem@referee.example\r\n"
           "Subject: Re: [pbem rome #abcd2345] your turn\r\nMIME-Version: 1.0\r\n"
           "Content-Type: text/plain; charset=UTF-8; format=flowed\r\n"
           "Content-Transfer-Encoding: 8bit\r\n\r\n"
           "red: move BAK DOR \r\nthen hold\r\nblue: hold\r\n\r\n"
           "On 01/12/2026 13:00, pbem referee wrote:\r\n> a long quoted line \r\n"
           "> wrapped\r\n").encode()
    assert read(raw).text == "red: move BAK DOR then hold\nblue: hold"


def test_html_only_mail_keeps_lines_and_collapses_source_whitespace():
    html = ("<html><head><style>p {color: red}</style></head><body>"
            "<p>red:   move\n   BAK DOR</p><div>blue: hold</div>"
            "<div>--<br>Ann</div></body></html>")
    assert read(mail(html, subtype="html")).text == ORDERS


def test_html_markup_in_a_player_mail_is_text_not_markup():
    html = "<p>red: move BAK DOR &lt;script&gt;</p>"
    assert reply_text(html, html=True) == "red: move BAK DOR <script>"


# ------------------------------------------------------------------ charsets and encodings


def test_latin1_body():
    raw = mail("rouge : déplace BAK DOR\nà bientôt", charset="iso-8859-1", cte="8bit")
    assert b"d\xe9place" in raw
    assert read(raw).text == "rouge : déplace BAK DOR\nà bientôt"


def test_windows_1252_body_and_its_latin1_mislabel():
    words = "red: move BAK DOR \u2019cause it\u2019s 5\u20ac"
    labelled = mail(words, charset="windows-1252", cte="8bit")
    mislabelled = labelled.replace(b"charset=\"windows-1252\"", b"charset=\"iso-8859-1\"")
    assert b"charset=\"iso-8859-1\"" in mislabelled
    assert read(labelled).text == words
    assert read(mislabelled).text == words


def test_quoted_printable_body():
    raw = mail("rouge : déplace BAK DOR " + "x" * 90, cte="quoted-printable")
    assert b"=C3=A9" in raw and b"=\n" in raw
    assert read(raw).text == "rouge : déplace BAK DOR " + "x" * 90


def test_base64_body():
    raw = mail("rouge : déplace BAK DOR", cte="base64")
    assert b"Content-Transfer-Encoding: base64" in raw
    assert read(raw).text == "rouge : déplace BAK DOR"


def test_unknown_charset_falls_back_without_raising():
    raw = mail("red: move BAK DOR", cte="8bit").replace(b"utf-8", b"x-no-such-charset")
    assert read(raw).text == "red: move BAK DOR"


def test_encoded_subject_and_sender():
    msg = MIMEMultipart()
    msg["From"] = "=?utf-8?q?Ann=C3=A9e?= <ANN@Players.Example>"
    msg["Subject"] = "=?utf-8?q?Re:_=5Bpbem_rome_#abcd2345=5D_d=C3=A9j=C3=A0?="
    msg["Cc"] = "Bob <bob@players.example>"
    msg.attach(MIMEText("red: hold", "plain", "utf-8"))
    incoming = read(msg.as_bytes())
    assert incoming.sender == "ann@players.example"
    assert incoming.subject == "Re: [pbem rome #abcd2345] déjà"
    assert incoming.recipients == ["bob@players.example"]
    assert incoming.text == "red: hold"


# ------------------------------------------------------------------ where the new text is


def test_bottom_posted_reply_keeps_its_text():
    body = (f"On Tue, Dec 1, 2026 at 1:00 PM pbem referee <pbem@referee.example> wrote:\n"
            f"{QUOTED_REPORT}\n\n{ORDERS}\n")
    assert read(mail(body)).text == ORDERS


def test_inline_reply_keeps_every_own_line():
    body = ("> red legion: where to?\nred: move BAK DOR\n\n> blue legion?\n"
            "blue: hold\n> -- \n> pbem\n")
    assert read(mail(body)).text == "red: move BAK DOR\n\nblue: hold"


def test_order_lines_starting_with_a_dash_are_kept():
    body = "- red: move BAK DOR\n-blue move DOR BAK\n-- green hold\n\n-- \nAnn\n"
    assert read(mail(body)).text == "- red: move BAK DOR\n-blue move DOR BAK\n-- green hold"


def test_our_report_quoted_without_angle_brackets_is_never_orders():
    body = f"red: hold\n\n{REPORT}"
    assert read(mail(body)).text == "red: hold"


def test_a_bare_quote_of_our_report_has_no_orders():
    assert read(mail(QUOTED_REPORT)).text == ""
    assert read(mail(REPORT)).text == ""


def test_a_sentence_ending_in_wrote_is_text():
    body = "Here is what I wrote:\nred: move BAK DOR"
    assert read(mail(body)).text == body


# ------------------------------------------------------------------ never raises


@pytest.mark.parametrize("raw", [
    b"",
    b"\x00\xff\xfe garbage",
    b"From: \nSubject: =?utf-8?b?!!!?=\n\n",
    b"Content-Type: multipart/mixed; boundary=x\n\n--x\nContent-Type: text/plain\n\nhi",
    b"Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n@@@==",
    b"Content-Type: text/html\n\n<html><p>unclosed <b>tags <blockquote>quoted",
    b"From: a@b\nContent-Type: multipart/report; report-type=delivery-status\n\n",
])
def test_malformed_mail_never_raises(raw):
    incoming = read(raw)
    assert isinstance(incoming.text, str) and "\n" not in incoming.subject
    assert isinstance(files(raw), list)


def test_the_files_a_mail_brings_are_its_photos_and_attachments_not_its_text():
    msg = EmailMessage()
    msg["From"] = "ann@players.example"
    msg.set_content("result won\nthe photo is attached")
    msg.add_alternative("<p>result won</p>", subtype="html")
    msg.add_attachment(b"\xff\xd8 a photo", maintype="image", subtype="jpeg",
                       filename="table.jpg")
    msg.add_attachment("my notes", filename="notes.txt")
    msg.add_attachment(b"\x89PNG no name", maintype="image", subtype="png")
    assert files(msg.as_bytes()) == [("table.jpg", "image/jpeg", b"\xff\xd8 a photo"),
                                      ("notes.txt", "text/plain", b"my notes\n"),
                                      ("file-3.png", "image/png", b"\x89PNG no name")]
    assert files(msg.as_bytes(), most=1) == [("table.jpg", "image/jpeg", b"\xff\xd8 a photo")]
    plain = EmailMessage()
    plain.set_content("result won")
    assert files(plain.as_bytes()) == []


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2000))
def test_any_bytes_never_raise(raw):
    assert isinstance(read(raw).text, str)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=500), st.sampled_from(["plain", "html"]))
def test_any_body_text_never_raises(text, subtype):
    assert isinstance(reply_text(text, html=subtype == "html"), str)
