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

A mail is read within fixed bounds, whatever it holds, so no mail can crash
pbem or cost more than its size. The headers are read one by one from the raw
bytes (the standard library's ``compat32`` parser, which interprets nothing);
a header value reaches the structured parser only when it is at most
FIELD_CHARS long, and one that parser cannot read is kept as plain text. The
body is parsed only when the headers are of a sane size, with at most
MAX_PARTS MIME parts nested at most MAX_DEPTH deep. A mail past these bounds,
or one the parser cannot take, gets a ``problem`` saying why, and no text.
Every pass over the text is linear in its size.
"""

import codecs
from dataclasses import dataclass, field
from email import errors, policy
from email.headerregistry import HeaderRegistry
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import collapse_rfc2231_value, getaddresses, parseaddr
from functools import lru_cache
import re
import warnings

from ..identity import valid_address

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


MAX_HEADER_FIELDS = 1000        # header lines of a mail's own header
MAX_HEADER_CHARS = 256_000      # and their size
MAX_PARTS = 200                 # MIME parts in one mail
MAX_DEPTH = 30                  # MIME parts nested in one another
FIELD_CHARS = 4000              # of one header value read by the structured parser
ADDRESS_CHARS = 64_000          # of one address header searched for recipients
MAX_REFERENCES = 100            # Message-IDs kept from References and In-Reply-To
# A Message-ID safe to echo: printable ASCII inside angle brackets, no spaces.
MSG_ID = re.compile(r"<[!-;=?-~]{1,250}>")
CHARSET_LABEL = re.compile(r"^[a-z0-9][a-z0-9._:+-]{0,39}$")
# Text codecs that are no charset a mail may be written in.
NOT_CHARSETS = {"idna", "punycode", "raw_unicode_escape", "unicode_escape", "undefined"}
# Control characters a mail's text may not carry (tab and line ends stay).
CONTROL = dict.fromkeys([*range(0, 9), 11, 12, *range(14, 32), *range(127, 160)], None)
# What a string from a mail may not carry on a terminal or in one line of a listing:
# every control character, and the marks that reorder text on screen.
HIDDEN_MARKS = {**CONTROL, **dict.fromkeys(
    [9, 10, 13, 0x61C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)], None)}
# Header defects that leave more than one reading of an address header (others are
# about decoding a name's text, not about which address it is).
AMBIGUOUS = (errors.InvalidHeaderDefect, errors.HeaderMissingRequiredValue,
             errors.NonPrintableDefect)


class Unreadable(Exception):
    """A mail past the bounds pbem reads mail within."""


@dataclass
class Incoming:
    """What pbem needs to know about one mail.

    `sender` is empty and `sender_problem` says why when the From header does
    not name exactly one address; `problem` says why the body could not be
    read (then `text` is empty).
    """

    message_id: str
    sender: str
    subject: str
    recipients: list = field(default_factory=list)
    references: list = field(default_factory=list)
    automatic: str | None = None
    bounced: list = field(default_factory=list)
    text: str = ""
    return_path: str | None = None
    sender_problem: str | None = None
    from_header: str = ""
    alternates: list = field(default_factory=list)
    problem: str | None = None
    quoted_ids: list = field(default_factory=list)

    sender_name: str = ""

class PlainHeader(str):
    """A header kept as its plain text: one the structured parser cannot, or need not, read."""

    defects = ()

    def __new__(cls, name: str, value: str):
        self = super().__new__(cls, readable(value))
        self.name = name
        return self

    @property
    def content_disposition(self) -> str | None:
        """What a Content-Disposition says (inline, attachment), as the parsed header has it."""
        return self.partition(";")[0].strip().lower() or None


class TolerantHeaders(HeaderRegistry):
    """The standard header registry, except that a header it cannot parse, or one too
    long to parse in time proportional to its size, is kept as plain text."""

    def __call__(self, name, value):
        if len(value) > FIELD_CHARS:
            return PlainHeader(name, value)
        return self.parsed(name, value)

    # The parser asks for a part's Content-Type line after line: the lines of the mail
    # being read are what is worth keeping (a parsed header holds its parse tree, ~3 kB).
    @lru_cache(maxsize=256)
    def parsed(self, name, value):
        """The header object for one short header line (the same object for the same line)."""
        try:
            return super().__call__(name, value)
        except Exception:  # a defect of this header alone: keep its text
            return PlainHeader(name, value)


POLICY = policy.default.clone(header_factory=TolerantHeaders())


class Fields:
    """A mail's own header fields, read from its raw bytes without interpreting them."""

    def __init__(self, raw: bytes):
        ends = [end for end in (raw.find(b"\n\n"), raw.find(b"\n\r\n")) if end >= 0]
        head = raw[:min(ends) + 1] if ends else raw  # the body is no business of the headers'
        try:
            self.message = BytesParser(policy=policy.compat32).parsebytes(head, headersonly=True)
            self.items = [(name.lower(), unfold(value))
                          for name, value in self.message.raw_items()]
        except Exception:  # bytes that are no header at all: a mail without headers
            self.message = EmailMessage(policy=policy.compat32)
            self.items = []

    def all(self, name: str) -> list[str]:
        """Every value of a header, in order."""
        name = name.lower()
        return [value for key, value in self.items if key == name]

    def first(self, name: str) -> str:
        """The first value of a header; empty when missing."""
        found = self.all(name)
        return found[0] if found else ""

    def text(self, name: str) -> str:
        """The first value of a header, decoded, on one line."""
        value = self.first(name)
        return one_line(str(POLICY.header_factory(name, value))) if value else ""

    def too_large(self) -> str | None:
        """Why these headers are past what pbem reads, or None."""
        size = sum(len(name) + len(value) for name, value in self.items)
        if len(self.items) > MAX_HEADER_FIELDS:
            return f"it has {len(self.items)} header lines, over {MAX_HEADER_FIELDS}"
        if size > MAX_HEADER_CHARS:
            return f"its headers are {size} characters long, over {MAX_HEADER_CHARS}"
        return None

    def content_type(self) -> str:
        """The mail's own content type (text/plain when it says none, or nonsense)."""
        try:
            return self.message.get_content_type()
        except Exception:  # a Content-Type beyond reading reads as the default
            return "text/plain"


def message_from_bytes(raw: bytes, headers_only: bool = False):
    """A parsed EmailMessage, tolerant of the defects real mail has.

    With `headers_only`, the body is left unparsed (cheap on a huge mail).
    """
    return BytesParser(policy=POLICY).parsebytes(raw, headersonly=headers_only)


def read(raw: bytes, headers_only: bool = False) -> Incoming:
    """Everything pbem uses from a raw RFC 822 message; never raises, whatever the bytes.

    With `headers_only`, the body is not parsed: no text, no bounced recipients.
    """
    fields = Fields(raw)
    sender, sender_problem = sender_of(fields.all("From"))
    recipients = []
    for name in ("To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To"):
        for value in fields.all(name):
            recipients += addresses(value)
    return_path = one_line(fields.first("Return-Path")) if fields.all("Return-Path") else None
    incoming = Incoming(
        message_id=exact(fields.first("Message-ID")),
        sender=sender,
        sender_problem=sender_problem,
        from_header=readable(one_line(fields.first("From"))),
        alternates=alternates(fields, return_path),
        subject=fields.text("Subject"),
        recipients=recipients,
        references=message_ids(fields.first("References") + " " + fields.first("In-Reply-To")),
        return_path=return_path,
        problem=fields.too_large(),
        sender_name=name_of(fields.text("From")),
    )
    if not headers_only and incoming.problem is None:
        incoming.problem = read_body(raw, incoming)
    incoming.automatic = automatic(fields, incoming)
    return incoming


def read_body(raw: bytes, incoming: Incoming) -> str | None:
    """Read the body into `incoming` (text, bounced recipients); why it cannot be, or None."""
    try:
        msg = BytesParser(_class=counted_parts(), policy=POLICY).parsebytes(raw)
        deepest = depth(msg)
        if deepest > MAX_DEPTH:
            return f"its MIME parts are nested {deepest} deep, over {MAX_DEPTH}"
        incoming.bounced = bounced_recipients(msg)
        if incoming.bounced:
            incoming.quoted_ids = quoted_ids(msg)
        incoming.text = new_text(body(msg))
    except Unreadable as problem:
        return str(problem)
    except Exception as problem:  # whatever the parser cannot take: set aside, with why
        return f"it cannot be parsed ({type(problem).__name__}: {shorten(str(problem))})"
    return None


def files(raw: bytes, most: int = 10) -> list[tuple[str, str, bytes]]:
    """The files a mail brings (a photo of the table, inline or attached): (file name,
    content type, bytes), at most `most`, read within the same bounds as :func:`read`;
    [] when it brings none or cannot be read. Its text and HTML bodies are no files."""
    if Fields(raw).too_large():
        return []
    try:
        msg = BytesParser(_class=counted_parts(), policy=POLICY).parsebytes(raw)
        if depth(msg) > MAX_DEPTH:
            return []
        found = []
        for part in msg.walk():
            kind = part.get_content_type()
            if part.is_multipart() or kind.startswith("message/") or (
                    kind.startswith("text/") and part.get_content_disposition() != "attachment"):
                continue
            data = part.get_payload(decode=True)
            if data:
                name = part.get_filename() or f"file-{len(found) + 1}.{kind.partition('/')[2]}"
                found.append((visible(name)[:80], kind, data))
            if len(found) >= most:
                break
        return found
    except Exception:  # whatever the parser cannot take brings no file
        return []


def counted_parts():
    """A message factory for the parser that refuses to make more than MAX_PARTS parts."""
    made = -1  # the parser makes one part to try the factory out

    def part(policy):
        nonlocal made
        made += 1
        if made > MAX_PARTS:
            raise Unreadable(f"it has more than {MAX_PARTS} MIME parts")
        return EmailMessage(policy=policy)
    return part


def depth(msg) -> int:
    """How deep a message's parts are nested (1: a single part), without recursion."""
    deepest, stack = 0, [(msg, 1)]
    while stack:
        part, level = stack.pop()
        deepest = max(deepest, level)
        if part.is_multipart():
            stack.extend((sub, level + 1) for sub in part.get_payload())
    return deepest


def header(msg, name: str) -> str:
    """A header of a parsed part as text; empty when missing or undecodable."""
    try:
        value = msg.get(name)
        return str(value) if value is not None else ""
    except Exception:  # a header beyond reading reads as missing
        return ""


def unfold(value: str) -> str:
    """A raw header value with its folding line breaks taken out."""
    return value.replace("\r", "").replace("\n", "")


def one_line(value: str) -> str:
    """A header value on one line, its whitespace runs made single spaces."""
    return " ".join(value.split())


def readable(value: str) -> str:
    """Raw header text as Unicode: undecodable bytes become replacement characters."""
    return value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def exact(value: str) -> str:
    """Raw header text as Unicode, kept whole: undecodable bytes become \\x escapes."""
    return value.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace").strip()


def visible(text: str) -> str:
    """Text from a mail made safe to show on one line: no control characters, no
    terminal escapes, no marks that reorder what a reader sees."""
    return text.translate(HIDDEN_MARKS)


def shorten(text: str, limit: int = 200) -> str:
    """Text cut to `limit` characters, with an ellipsis when cut."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def message_ids(value: str) -> list[str]:
    """The well-formed Message-IDs in a References or In-Reply-To value (the first and
    the latest ones when there are too many)."""
    found = MSG_ID.findall(value)
    if len(found) > MAX_REFERENCES:
        found = found[:1] + found[-(MAX_REFERENCES - 1):]
    return found


def addresses(value: str) -> list[str]:
    """The lower-cased addresses in an address header (empty on garbage)."""
    try:
        pairs = getaddresses([value[:ADDRESS_CHARS]])
    except Exception:  # nested comments and other garbage: no address to be found
        return []
    return [addr.lower() for _, addr in pairs if valid_address(addr.lower())]


def sender_of(values: list[str]) -> tuple[str, str | None]:
    """The one address a mail's From headers name, lower-cased, and why there is none.

    A From counts only when every reader finds the same single address in it:
    the standard library's strict parser, without a defect, and its lenient
    one, which reads as mail servers do. No From at all is ("", None).
    """
    if not values:
        return "", None
    if len(values) > 1:
        return "", f"it has {len(values)} From headers"
    parsed = POLICY.header_factory("From", values[0])
    if isinstance(parsed, PlainHeader):
        return "", "its From header cannot be read"
    if any(isinstance(defect, AMBIGUOUS) for defect in parsed.defects):
        return "", "its From header is malformed"
    strict = [address.addr_spec for address in parsed.addresses]
    if len(strict) != 1:
        return "", f"its From header names {len(strict) or 'no'} address" + \
            ("es" if strict else "")
    lenient = addresses(values[0])
    addr = strict[0].lower()
    if lenient != [addr] or not valid_address(addr):
        return "", "its From header can be read as another address"
    return addr, None


def alternates(fields: Fields, return_path: str | None) -> list[str]:
    """The addresses of a mail's Sender header and of its Return-Path, when plain."""
    found = [sender_of(fields.all("Sender"))[0]]
    if return_path:
        found += addresses(return_path)[:1]
    return [addr for addr in dict.fromkeys(found) if addr]


def name_of(value: str) -> str:
    """The display name of a From header ("Marie Dupont"); empty when there is none."""
    try:
        return one_line(parseaddr(value)[0])
    except Exception:  # nested comments and other garbage: no name
        return ""


def automatic(fields: Fields, incoming: Incoming) -> str | None:
    """Why this mail must not be answered (RFC 3834 and common practice), or None."""
    auto = fields.text("Auto-Submitted").lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    precedence = fields.text("Precedence").lower()
    if precedence in ("bulk", "junk", "list", "auto_reply"):
        return f"Precedence: {precedence}"
    if fields.first("List-Id"):
        return "mailing list (List-Id)"
    for name in ("X-Autoreply", "X-Autorespond", "X-Autogenerated"):
        if fields.first(name):
            return f"auto-reply ({name})"
    if incoming.return_path is not None and incoming.return_path in ("<>", ""):
        return "empty return path"
    if not incoming.sender and incoming.sender_problem is None:
        return "sender (none)"
    if incoming.sender.partition("@")[0] in ("mailer-daemon", "postmaster"):
        return f"sender {incoming.sender}"
    if incoming.bounced or fields.content_type() == "multipart/report":
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


def quoted_ids(report) -> list[str]:
    """The Message-IDs a delivery report quotes: the returned message's headers, its text."""
    found = []
    for part in report.walk():
        if part is not report:
            found += MSG_ID.findall(header(part, "Message-ID"))
        if part.get_content_maintype() == "text":
            found += MSG_ID.findall(decoded(part))
    return list(dict.fromkeys(found))[:MAX_REFERENCES]


def body(msg) -> str:
    """The readable text of a mail: its text/plain part, else its HTML as text."""
    part = msg.get_body(preferencelist=("plain", "html"))
    if part is None:
        return ""
    content = decoded(part)
    if part.get_content_type() == "text/html":
        return html_text(content)
    if param(part, "format") == "flowed":
        return unflow(content, param(part, "delsp") == "yes")
    return content


def param(part, name: str) -> str:
    """A Content-Type parameter of a part, lower-cased; empty when missing or unreadable."""
    try:
        return str(collapse_rfc2231_value(part.get_param(name, ""))).strip().lower()
    except Exception:  # a parameter in a charset no codec reads
        return ""


def decoded(part) -> str:
    """A text part's content as str, whatever its transfer encoding and charset."""
    try:
        payload = part.get_payload(decode=True) or b""
    except Exception:  # a transfer encoding beyond repair: no text
        payload = b""
    if isinstance(payload, str):
        return payload
    label = charset(part)
    if label in ASCII_LABELS:
        candidates = ("utf-8", "cp1252")
    else:
        candidates = ("cp1252" if label in LATIN1_LABELS else label, "utf-8")
    for name in candidates:
        try:
            return payload.decode(name)
        except (LookupError, ValueError):  # ValueError: UnicodeError and its kin
            continue
    return payload.decode("cp1252", errors="replace")


def charset(part) -> str:
    """A part's charset label, lower-cased; empty unless it names a charset for text."""
    try:
        label = (part.get_content_charset() or "").lower()
        if CHARSET_LABEL.match(label) and \
                codecs.lookup(label).name.replace("-", "_") not in NOT_CHARSETS:
            return label
    except Exception:  # no such codec, or a label past decoding
        pass
    return ""


def unflow(text: str, delsp: bool) -> str:
    """Plain text with RFC 3676 soft line breaks (format=flowed) joined again."""
    out, pending, pieces = [], None, []  # pieces: the soft-broken lines of one paragraph
    for line in text.replace("\r\n", "\n").split("\n"):
        level = len(line) - len(line.lstrip(">"))
        content = line[level:]
        if content.startswith(" ") and (level or pending is None):
            content = content[1:]
        if pending is not None and pending != level:
            out.append(">" * pending + (" " if pending else "") + "".join(pieces))
            pieces = []
        pending = None
        if content.endswith(" ") and content != "-- ":
            pending = level
            pieces.append(content[:-1] if delsp else content)
            continue
        out.append(">" * level + (" " if level else "") + "".join(pieces) + content)
        pieces = []
    if pending is not None:
        out.append(">" * pending + (" " if pending else "") + "".join(pieces))
    return "\n".join(out)


def html_text(html: str) -> str:
    """The visible text of an HTML mail, without the quoted history clients add.

    Whitespace is collapsed as a browser does; line breaks come from <br> and
    block elements only. The tree is walked once, without recursion, so deeply
    nested or huge HTML costs time in proportion to its size. BeautifulSoup
    and lxml are loaded here, on the first HTML mail, not with the module.
    """
    from bs4 import BeautifulSoup, NavigableString, XMLParsedAsHTMLWarning
    from bs4.element import PreformattedString
    out, pre = [], 0
    with warnings.catch_warnings():  # an HTML part that starts like XML is still read as HTML
        warnings.simplefilter("ignore", XMLParsedAsHTMLWarning)
        stack = list(reversed(BeautifulSoup(html, "lxml").contents))
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
    text = re.sub(rf"(^|\n){BLOCK}", r"\1", blocks("".join(out))).replace(BLOCK, "\n")
    return "\n".join(line.strip() for line in text.replace("\xa0", " ").splitlines())


def blocks(text: str) -> str:
    """Each run of block boundaries, spaces and tabs around a boundary made one boundary."""
    pieces = text.split(BLOCK)
    if len(pieces) == 1:
        return text
    inner = [piece.strip(" \t") for piece in pieces[1:-1]]
    return BLOCK.join([pieces[0].rstrip(" \t"), *[p for p in inner if p],
                       pieces[-1].lstrip(" \t")])


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
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.translate(INVISIBLE).translate(CONTROL).replace("\xa0", " ").split("\n")
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
    kept, written = [], []  # written: where the kept lines that are not blank are
    looked = None  # len(kept) when the lines above a quote were last looked at
    for line in lines:
        if not line.lstrip().startswith(">"):
            if line.strip():
                written.append(len(kept))
            kept.append(line)
        elif looked != len(kept):  # once per quoted block: the lines above it are the same
            end = written[-1] + 1 if written else 0
            size = attribution_end(kept[max(0, end - 3):end])
            if size:
                del kept[end - size:]
                while written and written[-1] >= len(kept):
                    written.pop()
            looked = len(kept)
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
