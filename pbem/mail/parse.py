"""Reading a raw mail: who sent it, to whom, is it automatic, and the new text in it.

MIME, headers and transfer encodings are the standard library's ``email``
package. A body declared as Latin-1 is decoded as Windows-1252, its superset,
as browsers do (mail clients mislabel it often); one with no charset, ASCII
or an unknown one is tried as UTF-8, then Windows-1252. ``format=flowed`` text is unwrapped
(RFC 3676). HTML-only mail is turned into text with BeautifulSoup after
dropping the elements mail clients wrap quoted history and signatures in.

In the text, '>' quotes and the attribution line just above them ("On ...
wrote:") are removed wherever they are, so bottom-posted and inline replies
keep their own text. Then everything from the first unquoted start of history
is cut: pbem's own "reply above this line" marker, an "Original Message" or
"Forwarded message" separator, an attribution line, a block of quoted headers
(From/Sent/To/Subject in the common languages). Last, the signature goes
("-- ", "Sent from my iPhone", "Envoyé de mon iPhone", ...). Lines that start
with "-" are text (orders may be written as a list), only a line that is
exactly "--" or "-- " starts a signature.
"""

from dataclasses import dataclass, field
from email import policy
from email.parser import BytesParser
from email.utils import getaddresses, parseaddr
import re

from bs4 import BeautifulSoup, NavigableString
from bs4.element import PreformattedString

REPLY_MARKER = "## pbem: write your reply above this line ##"
# The marker as each language's mails write it; any of them ends a reply.
REPLY_MARKERS = {"en": REPLY_MARKER, "fr": "## pbem : écrivez votre réponse au-dessus ##"}

# Elements that wrap exactly the quoted history or a signature: left out, text after them stays.
QUOTE_CLASSES = {"gmail_quote", "gmail_extra", "gmail_signature", "moz-cite-prefix",
                 "moz-forward-container", "moz-signature", "protonmail_quote", "zmail_extra"}
QUOTE_IDS = {"mail-editor-reference-message-container", "OLK_SRC_BODY_SECTION", "Signature"}
HIDDEN = {"style", "script", "head", "title", "template", "blockquote"}
# Elements after which everything is history (Outlook puts the original after them).
HISTORY_IDS = {"divRplyFwdMsg", "appendonsend", "stopSpelling"}
HISTORY_CLASSES = {"OutlookMessageHeader"}
BLOCK = "\x1e"  # stands for a block boundary: a line break unless one is there already
HTML_BLOCKS = ["p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table",
               "ul", "ol", "blockquote", "hr", "address", "dl", "dt", "dd", "section"]

MARKER = re.compile("|".join(re.escape(m.strip("# ")) for m in REPLY_MARKERS.values()),
                    re.IGNORECASE)
SEPARATOR = re.compile(
    r"^[-_=*\s]{0,10}-{2,40}\s*(original message|message d'origine|ursprüngliche nachricht|"
    r"oprindelig (meddelelse|besked)|originalmeddelande|opprinnelig melding|"
    r"oorspronkelijk bericht|messaggio originale|mensaje original|mensagem original|"
    r"wiadomość oryginalna|исходное сообщение|forwarded message|message transféré|"
    r"weitergeleitete nachricht|mensaje reenviado|messaggio inoltrato|"
    r"doorgestuurd bericht|пересылаемое сообщение)\s*-{2,40}[-_=*\s]{0,10}$"
    r"|^_{10,}\s*$"
    r"|^(begin forwarded message|début du message réexpédié|anfang der weitergeleiteten "
    r"nachricht|inizio messaggio inoltrato)\s*:\s*$",
    re.IGNORECASE)
VERB = (r"(wrote|writes|a écrit|écrit|schrieb|schreibt|escribió|escreveu|ha scritto|scrisse|"
        r"schreef|skrev|skriver|napisał|napisała|napisal|написал|написала|пишет|kirjoitti|"
        r"írta|yazdı|έγραψε|כתב|كتب|写道|寫道|wrote the following)")
START = (r"(?:(?:on|le|am|el|il|op|den|dnia|w dniu|in data|em|på|pe|dne|às|el día|"
         r"mon|tue|wed|thu|fri|sat|sun|lun|mar|mer|jeu|ven|sam|dim)\b|\d)")
# What may follow the verb up to the colon: a name and an address, not a sentence's end.
TAIL = r"(?:[^.!?]|[.!?](?=\S))"
# An attribution: "On <date>, <name> <address> wrote:" in one to three lines.
ATTRIBUTION_VERB = re.compile(
    rf"^[\s>*\"']*{START}.{{0,300}}\b{VERB}\b{TAIL}{{0,120}}:\s*$", re.IGNORECASE)
ATTRIBUTION_NAMED = re.compile(
    rf"^(?=[^@<]{{0,300}}[@<]).{{0,300}}\b{VERB}\b{TAIL}{{0,40}}:\s*$", re.IGNORECASE)
ATTRIBUTION_DATED = re.compile(rf"^[\s*\"']*{START}.{{0,300}}@\S{{1,100}}\s*:\s*$",
                               re.IGNORECASE)
ATTRIBUTION_LONGEST = 500
HAS_VERB = re.compile(rf"\b{VERB}\b", re.IGNORECASE)
STARTS = re.compile(rf"^[\s*\"']*{START}", re.IGNORECASE)
DASHED_ATTRIBUTION = re.compile(rf"^-{{2,40}}\s*{START}.{{0,300}}\b{VERB}\s*-{{2,}}\s*$",
                                re.IGNORECASE)
HEADER = re.compile(
    r"^[*\s]*(from|de|von|van|da|od|fra|från|от|от кого|sent|date|envoyé|gesendet|datum|"
    r"data|verzonden|skickat|sendt|wysłano|inviato|enviado|отправлено|дата|to|à|an|a|aan|"
    r"till|til|do|para|кому|cc|subject|objet|betreff|onderwerp|ämne|emne|temat|oggetto|"
    r"asunto|assunto|тема)[*\s]*:[*]*(\s|$)",
    re.IGNORECASE)
SENDER_HEADER = re.compile(r"^[*\s]*(from|de|von|van|da|od|fra|från|от|от кого|date|sent|"
                           r"envoyé|datum|data)[*\s]*:", re.IGNORECASE)
SIGNATURE = re.compile(
    r"^(--|-- |sent from my .{1,60}|sent from \S+.{0,60}|sent with .{1,60}|sent via .{1,60}|"
    r"envoyé de mon .{1,60}|envoyé depuis .{1,60}|envoyé à partir de .{1,60}|"
    r"get outlook for .{1,60}|obtenir outlook pour .{1,60}|von meinem .{1,60}|"
    r"enviado desde mi .{1,60}|enviado do meu .{1,60}|inviato da .{1,60}|"
    r"verstuurd vanaf mijn .{1,60}|skickat från min .{1,60}|wysłane z .{1,60}|"
    r"отправлено с .{1,60})$",
    re.IGNORECASE)
INVISIBLE = dict.fromkeys(map(ord, "\ufeff\u200b\u200c\u200d\u200e\u200f\u2060\u00ad"), None)
LATIN1_LABELS = {"iso-8859-1", "iso8859-1", "latin-1", "latin1", "l1"}
ASCII_LABELS = {"", "us-ascii", "ascii"}


@dataclass
class Incoming:
    """What pbem needs to know about one mail."""

    message_id: str
    sender: str
    subject: str
    recipients: list = field(default_factory=list)
    references: list = field(default_factory=list)
    automatic: str | None = None
    bounced: list = field(default_factory=list)
    text: str = ""
    return_path: str | None = None
    sender_name: str = ""


def message_from_bytes(raw: bytes, headers_only: bool = False):
    """A parsed EmailMessage, tolerant of the defects real mail has.

    With `headers_only`, the body is left unparsed (cheap on a huge mail).
    """
    return BytesParser(policy=policy.default).parsebytes(raw, headersonly=headers_only)


def read(raw: bytes, headers_only: bool = False) -> Incoming:
    """Everything pbem uses from a raw RFC 822 message; never raises on bad mail.

    With `headers_only`, the body is not parsed: no text, no bounced recipients.
    """
    msg = message_from_bytes(raw, headers_only)
    sender = address_of(header(msg, "From"))
    recipients = []
    for name in ("To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To"):
        recipients += addresses(header(msg, name))
    incoming = Incoming(
        message_id=one_line(header(msg, "Message-ID")),
        sender=sender,
        subject=one_line(header(msg, "Subject")),
        recipients=recipients,
        references=(header(msg, "References") + " " + header(msg, "In-Reply-To")).split(),
        return_path=one_line(header(msg, "Return-Path")) if "Return-Path" in msg else None,
        sender_name=name_of(header(msg, "From")),
    )
    if not headers_only:
        incoming.bounced = bounced_recipients(msg)
        incoming.text = new_text(body(msg))
    incoming.automatic = automatic(msg, incoming)
    return incoming


def header(msg, name: str) -> str:
    """A header as text; empty when missing or undecodable."""
    try:
        value = msg.get(name)
        return str(value) if value is not None else ""
    except (ValueError, IndexError, AttributeError, TypeError, LookupError):
        return ""


def one_line(value: str) -> str:
    """A header value on one line, its whitespace runs made single spaces."""
    return " ".join(value.split())


def addresses(value: str) -> list[str]:
    """The lower-cased addresses in an address header (empty on garbage)."""
    try:
        pairs = getaddresses([value])
    except (ValueError, IndexError, TypeError):
        return []
    return [addr.lower() for _, addr in pairs if "@" in addr and not any(
        c.isspace() for c in addr)]


def address_of(value: str) -> str:
    """The one address of a From header, lower-cased; empty when there is none."""
    try:
        addr = parseaddr(value)[1].lower()
    except (ValueError, IndexError, TypeError):
        return ""
    return addr if addr.count("@") == 1 and not any(c.isspace() for c in addr) else ""


def name_of(value: str) -> str:
    """The display name of a From header ("Marie Dupont"); empty when there is none."""
    try:
        return one_line(parseaddr(value)[0])
    except (ValueError, IndexError, TypeError):
        return ""


def automatic(msg, incoming: Incoming) -> str | None:
    """Why this mail must not be answered (RFC 3834 and common practice), or None."""
    auto = header(msg, "Auto-Submitted").strip().lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    precedence = header(msg, "Precedence").strip().lower()
    if precedence in ("bulk", "junk", "list", "auto_reply"):
        return f"Precedence: {precedence}"
    if header(msg, "List-Id"):
        return "mailing list (List-Id)"
    for name in ("X-Autoreply", "X-Autorespond", "X-Autogenerated"):
        if header(msg, name):
            return f"auto-reply ({name})"
    if incoming.return_path is not None and incoming.return_path in ("<>", ""):
        return "empty return path"
    local = incoming.sender.partition("@")[0]
    if not incoming.sender or local in ("mailer-daemon", "postmaster"):
        return f"sender {incoming.sender or '(none)'}"
    if incoming.bounced or msg.get_content_type() == "multipart/report":
        return "delivery status report"
    return None


def bounced_recipients(msg) -> list[str]:
    """The failed recipients of a delivery failure report (multipart/report)."""
    if msg.get_content_type() != "multipart/report":
        return []
    failed = []
    for part in msg.walk():
        if part.get_content_type() != "message/delivery-status" or not part.is_multipart():
            continue
        for block in part.get_payload():
            action = header(block, "Action").lower()
            recipient = header(block, "Final-Recipient") or header(block, "Original-Recipient")
            if action.startswith("failed") and ";" in recipient:
                failed += addresses(recipient.split(";", 1)[1])
    return sorted(set(failed))


def body(msg) -> str:
    """The readable text of a mail: its text/plain part, else its HTML as text."""
    try:
        part = msg.get_body(preferencelist=("plain", "html"))
    except (KeyError, AttributeError, ValueError, TypeError, IndexError):
        part = None
    if part is None:
        return ""
    content = decoded(part)
    if part.get_content_type() == "text/html":
        return html_text(content)
    if header(part, "Content-Type") and part.get_param("format", "").lower() == "flowed":
        return unflow(content, part.get_param("delsp", "").lower() == "yes")
    return content


def decoded(part) -> str:
    """A text part's content as str, whatever its transfer encoding and charset."""
    try:
        payload = part.get_payload(decode=True) or b""
    except (ValueError, TypeError, LookupError, AssertionError):
        payload = b""
    if isinstance(payload, str):
        return payload
    label = (part.get_content_charset() or "").lower()
    if label in ASCII_LABELS:
        candidates = ("utf-8", "cp1252")
    else:
        candidates = ("cp1252" if label in LATIN1_LABELS else label, "utf-8")
    for charset in candidates:
        try:
            return payload.decode(charset)
        except (LookupError, UnicodeDecodeError):
            continue
    return payload.decode("cp1252", errors="replace")


def unflow(text: str, delsp: bool) -> str:
    """Plain text with RFC 3676 soft line breaks (format=flowed) joined again."""
    out, pending = [], None
    for line in text.replace("\r\n", "\n").split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        content = line[depth:]
        if content.startswith(" ") and (depth or pending is None):
            content = content[1:]
        if pending is not None and pending[0] == depth:
            content = pending[1] + content
        elif pending is not None:
            out.append(">" * pending[0] + (" " if pending[0] else "") + pending[1])
        pending = None
        if content.endswith(" ") and content != "-- ":
            pending = (depth, content[:-1] if delsp else content)
            continue
        out.append(">" * depth + (" " if depth else "") + content)
    if pending is not None:
        out.append(">" * pending[0] + (" " if pending[0] else "") + pending[1])
    return "\n".join(out)


def html_text(html: str) -> str:
    """The visible text of an HTML mail, without the quoted history clients add.

    Whitespace is collapsed as a browser does; line breaks come from <br> and
    block elements only. The tree is walked once, without recursion, so deeply
    nested or huge HTML costs time in proportion to its size.
    """
    out, pre = [], 0
    stack = list(reversed(BeautifulSoup(html, "html.parser").contents))
    while stack:
        node = stack.pop()
        if isinstance(node, tuple):
            pre += node[1]
            out.append(node[0])
        elif isinstance(node, PreformattedString):
            continue  # comments, doctypes, processing instructions
        elif isinstance(node, NavigableString):
            out.append(str(node) if pre else re.sub(r"\s+", " ", str(node)))
        elif history(node):
            break
        elif node.name == "br":
            out.append("\n")
        elif not quoted(node):
            block = BLOCK if node.name in HTML_BLOCKS else ""
            out.append(block)
            stack.append((block, -1 if node.name == "pre" else 0))
            pre += node.name == "pre"
            stack.extend(reversed(node.contents))
    text = re.sub(rf"[ \t]*{BLOCK}[{BLOCK} \t]*", BLOCK, "".join(out))
    text = re.sub(rf"(^|\n){BLOCK}", r"\1", text).replace(BLOCK, "\n")
    return "\n".join(line.strip() for line in text.replace("\xa0", " ").splitlines())


def history(tag) -> bool:
    """Does everything from this element on belong to the quoted history?"""
    return tag.get("id") in HISTORY_IDS or bool(HISTORY_CLASSES.intersection(
        tag.get_attribute_list("class")))


def quoted(tag) -> bool:
    """Is this element hidden, or a wrapper of quoted history or of a signature?"""
    classes = [c for c in tag.get_attribute_list("class") if c]
    return (tag.name in HIDDEN or tag.get("id") in QUOTE_IDS
            or bool(QUOTE_CLASSES.intersection(classes))
            or any("yahoo_quoted" in c for c in classes))


def reply_text(content: str, html: bool = False) -> str:
    """The new text of a mail body (plain text, or HTML when `html`)."""
    return new_text(html_text(content) if html else content)


def new_text(text: str) -> str:
    """The part of a mail's text the sender just wrote: no quoted history, no signature."""
    text = text.translate(INVISIBLE).replace("\xa0", " ")
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    lines = cut_history(drop_quoted(lines))
    kept = []
    for line in lines:
        if SIGNATURE.match(line.strip()):
            break
        line = line.rstrip()
        if line or (kept and kept[-1]):
            kept.append(line)
    return "\n".join(kept).strip("\n")


def drop_quoted(lines: list[str]) -> list[str]:
    """Remove '>' quoted lines and the attribution ("On ... wrote:") just above them.

    Text written below or between quotes (bottom-posting, inline replies) is kept.
    """
    kept = []
    for line in lines:
        if line.lstrip().startswith(">"):
            end = len(kept)
            while end and not kept[end - 1].strip():
                end -= 1
            size = attribution_end(kept[max(0, end - 3):end])
            if size:
                del kept[end - size:]
            continue
        kept.append(line)
    return kept


def attribution(lines: list[str]) -> bool:
    """Do these one to three lines make a reply's attribution ("On ..., X wrote:")?"""
    if not lines or not lines[-1].rstrip().endswith(":") or any(not line.strip() for line in lines) or (len(lines) > 1 and not STARTS.match(lines[0])):
        return False
    joined = " ".join(line.strip() for line in lines)
    if len(joined) > ATTRIBUTION_LONGEST or ("@" not in joined and not HAS_VERB.search(joined)):
        return False
    return bool(ATTRIBUTION_VERB.match(joined) or ATTRIBUTION_NAMED.match(joined)
                or ATTRIBUTION_DATED.match(joined))


def attribution_end(lines: list[str]) -> int:
    """How many of these last lines make the attribution that ends them (0: none).

    A longer span wins unless its tail is itself a whole attribution, so a line
    of text just above a wrapped attribution is not taken with it.
    """
    best = 0
    for size in range(1, len(lines) + 1):
        tail = lines[len(lines) - size + 1:]
        if attribution(lines[-size:]) and not (tail and STARTS.match(tail[0])
                                                and attribution(tail)):
            best = size
    return best


def attribution_at(lines: list[str], index: int) -> bool:
    """Does an attribution start at this line (and not on the next one, wrapped into it)?"""
    for size in (1, 2, 3):
        if attribution(lines[index:index + size]):
            return size == 1 or not attribution(lines[index + 1:index + size])
    return False


def cut_history(lines: list[str]) -> list[str]:
    """Lines up to the first unquoted line that starts quoted history.

    A block of headers at the very top is the mail's own (a forward with no
    comment, or headers pasted by the client): it is skipped, not cut at.
    """
    start = 0
    while start < len(lines) and not lines[start].strip():
        start += 1
    if start < len(lines) and header_block(lines, start):
        start = skip_headers(lines, start)
    for index in range(start, len(lines)):
        stripped = lines[index].strip()
        if not stripped:
            continue
        if MARKER.search(stripped) or SEPARATOR.match(stripped) \
                or DASHED_ATTRIBUTION.match(stripped):
            return lines[start:index]
        if attribution_at(lines, index):
            return lines[start:index]
        if header_block(lines, index):
            return lines[start:index]
    return lines[start:]


def header_block(lines: list[str], index: int) -> bool:
    """Does a From/Date/Sent line start a block of quoted headers (another header follows)?"""
    if not SENDER_HEADER.match(lines[index]):
        return False
    following = [line for line in lines[index + 1:index + 8] if line.strip()][:5]
    return any(HEADER.match(line) for line in following)


def skip_headers(lines: list[str], index: int) -> int:
    """The index of the first line after a block of headers starting at `index`."""
    while index < len(lines) and lines[index].strip():
        index += 1
    return index
