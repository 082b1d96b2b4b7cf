"""Building the mails pbem sends: multipart/alternative, threaded, with a fixed Message-ID.

Mails are built with the standard library's compat32 MIME classes, which
take each part as it is given and encode it once: a turn report costs a
third of what the structured-header API costs. Each text part's transfer
encoding is chosen once, from its own lines.

A part several mails share (a board image, the rules attachment) is left
out of a mail's bytes and stored once: `compose` returns a `Draft`, the
mail's bytes with a hole where each shared part's body goes (see
pbem/mail/stored.py, which fills them when the mail is sent or read).
"""

import base64
import binascii
import hashlib
import hmac
from dataclasses import dataclass
from email.charset import QP, Charset
from email.generator import BytesGenerator
from email.message import Message
from email.mime.base import MIMEBase
from email.mime.multipart import MIMEMultipart
from email.policy import Compat32
from email.utils import format_datetime, formataddr
import io
import re
import secrets

from ..timeutil import parse_time
from .parse import MSG_ID

ECHOED_REFERENCES = 10  # the thread's first Message-ID and the latest ones


class Policy(Compat32):
    """compat32, but a short plain ASCII header is written as it is.

    compat32 builds a Header object to fold every header, most of which fit
    on their line already: written directly they come out the same, at a
    fraction of the cost.
    """

    def _fold(self, name, value, sanitize):
        if isinstance(value, str) and value.isascii() and "\n" not in value \
                and "\r" not in value and len(name) + 2 + len(value) <= self.max_line_length:
            return f"{name}: {value}{self.linesep}"
        return super()._fold(name, value, sanitize)


class Generator(BytesGenerator):
    """The standard generator, but a part whose lines already end as the mail's do is
    written in one piece rather than line by line (pbem's own parts always are)."""

    def _write_lines(self, lines):
        if self._NL != "\n" or "\r" in lines:
            super()._write_lines(lines)
        else:
            self.write(lines)


POLICY = Policy(mangle_from_=False, max_line_length=78)
NEWLINES = re.compile(rb"\r\n|\r")
TEXT_COLUMNS = 78  # a text part whose lines fit is sent as it is (7bit or 8bit)


@dataclass(frozen=True)
class Board:
    """A board image shared by mails: its SVG, drawn as a PNG when the mail is sent."""

    svg: str


@dataclass(frozen=True)
class CloseUp:
    """A part of a board image shared by mails: the board's SVG, drawn at `zoom` times its
    size and cut to `window` (left, top, right, bottom pixels) when the mail is sent."""

    svg: str
    zoom: float
    window: tuple


@dataclass(frozen=True)
class Shared:
    """A part's encoded body (bytes, as the mail carries it), stored once for every mail."""

    body: bytes


@dataclass(frozen=True)
class Draft:
    """A composed mail: its bytes, and the shared parts to put in at these offsets."""

    data: bytes
    parts: tuple  # ((offset, Board, CloseUp or Shared), ...) in order


def message_id(domain: str, prefix: str | None, key: str, what) -> str:
    """The Message-ID of a mail (begun by `prefix`: its game), fixed by what the mail is
    (`what`: its kind, its reader, the game's last event, the mail it answers...) under a
    secret `key` (the game's seed): the same mail written again, after a backup is
    restored, has the same Message-ID, and the reader's mail client takes the two for one;
    no one without the key can tell it in advance."""
    said = "\0".join(str(part) for part in what).encode()
    digest = hmac.new(key.encode(), said, hashlib.sha256).hexdigest()[:24]
    return f"<{prefix or 'pbem'}.{digest}@{domain}>"


def threading(in_reply_to: str | None, references) -> tuple[str | None, list[str]]:
    """The In-Reply-To and References to write: well-formed Message-IDs only, few of them.

    What a mail we answer says of itself is echoed only when it is a plain
    Message-ID, and at most ECHOED_REFERENCES of them, so a hostile header
    never grows or breaks our answer.
    """
    refs = [r for r in dict.fromkeys(references) if r and MSG_ID.fullmatch(r)]
    if len(refs) > ECHOED_REFERENCES:
        refs = refs[:1] + refs[-(ECHOED_REFERENCES - 1):]
    if in_reply_to and not MSG_ID.fullmatch(in_reply_to):
        in_reply_to = None
    return in_reply_to, refs


def boundary() -> str:
    """A new multipart boundary that no part can contain: "=_" never occurs in
    quoted-printable or base64, and the random rest not in a plain text part.

    Given, rather than left to the generator, which would search every part's
    text for the one it draws; 64 random bits keep a multipart's Content-Type
    header within one line.
    """
    return f"=_pbem_{secrets.token_hex(8)}"


class Utf8(Charset):
    """UTF-8, its quoted-printable bodies encoded by binascii (in C) rather than by
    email.quoprimime (in Python): the same encoding, a quarter of the time."""

    def __init__(self):
        super().__init__("utf-8")

    def body_encode(self, string):
        if self.body_encoding is QP and string:
            if isinstance(string, str):
                string = string.encode(self.output_charset)
            return binascii.b2a_qp(string, istext=True).decode("ascii")
        return super().body_encode(string)


def charset_for(text: str, html: bool = False) -> Charset:
    """UTF-8, sent as it is when every line fits (7bit or 8bit), else quoted-printable.

    HTML is always quoted-printable: its lines are long.
    """
    charset = Utf8()
    fits = not html and all(len(line) <= TEXT_COLUMNS for line in text.split("\n"))
    charset.body_encoding = None if fits else QP
    return charset


def text_part(text: str, subtype: str = "plain") -> Message:
    """A text/plain or text/html part in UTF-8: what MIMEText makes of it, its headers
    written directly (MIMEText parses its own Content-Type again to add each parameter,
    a third of the cost of composing a mail)."""
    charset = charset_for(text, html=subtype == "html")
    part = Message(policy=POLICY)
    part["Content-Type"] = f'text/{subtype}; charset="utf-8"'
    part["MIME-Version"] = "1.0"
    if charset.body_encoding is QP:
        part["Content-Transfer-Encoding"] = "quoted-printable"
        part.set_payload(charset.body_encode(text))
    else:
        part["Content-Transfer-Encoding"] = "7bit" if text.isascii() else "8bit"
        part.set_payload(text.encode("utf-8").decode("ascii", "surrogateescape"))
    return part


class Holes:
    """Shared parts in a mail: each body a unique mark while the mail is built or changed."""

    def __init__(self):
        self.marks = {}

    def hollow(self, part, shared) -> None:
        """Put a mark in place of a part's body, which is `shared` (a Board, CloseUp or
        Shared)."""
        mark = f"pbem-part-{secrets.token_hex(16)}"
        self.marks[mark] = shared
        part.set_payload(mark)

    def put(self, data: bytes, parts) -> bytes:
        """The bytes with a new mark at each (offset, what) of `parts`."""
        out, start = bytearray(), 0
        for offset, what in parts:
            mark = f"pbem-part-{secrets.token_hex(16)}"
            self.marks[mark] = what
            out += data[start:offset] + mark.encode()
            start = offset
        return bytes(out + data[start:])

    def cut(self, flat: bytes) -> tuple[bytes, tuple]:
        """The flattened mail with each mark taken out, and (offset, what) of each."""
        found = sorted((flat.index(mark.encode()), mark) for mark in self.marks)
        out, parts, start = bytearray(), [], 0
        for at, mark in found:
            out += flat[start:at]
            parts.append((len(out), self.marks[mark]))
            start = at + len(mark)
        out += flat[start:]
        return bytes(out), tuple(parts)


def compose(*, sender: tuple, to: str, subject: str, text: str, html: str | None,
            msg_id: str, date: str, reply_to: str | None = None,
            in_reply_to: str | None = None, references=(), images=None,
            attachments=()) -> Draft:
    """One outgoing mail (text, plus HTML as an alternative), its shared parts left out.

    `images` ({Content-ID: Board}) make the HTML part multipart/related, with
    each image inline, shown by the HTML as cid:. `attachments` ((file name,
    text) pairs) follow as text/plain attachments, and files ((file name,
    content type, bytes)) as they came.
    """
    replying = bool(in_reply_to)
    in_reply_to, refs = threading(in_reply_to, references)
    holes = Holes()
    body = text_part(text)
    if html is not None:
        html_part = text_part(html, "html")
        if images:
            html_part = MIMEMultipart("related", boundary(), [html_part], policy=POLICY)
            for cid, board in sorted(images.items()):
                image = MIMEBase("image", "png", policy=POLICY)
                image["Content-Transfer-Encoding"] = "base64"
                image["Content-ID"] = cid
                image.add_header("Content-Disposition", "inline",
                                 filename=cid.strip("<>").partition("@")[0] + ".png")
                holes.hollow(image, board)
                html_part.attach(image)
        body = MIMEMultipart("alternative", boundary(), [body, html_part],
                             policy=POLICY)
    if attachments:
        body = MIMEMultipart("mixed", boundary(), [body], policy=POLICY)
        for filename, *content in attachments:
            if len(content) == 2:  # a file: as it came, not shared with other mails
                maintype, _, subtype = content[0].partition("/")
                attached = MIMEBase(maintype, subtype, policy=POLICY)
                attached.set_payload(base64.encodebytes(content[1]).decode("ascii"))
                attached["Content-Transfer-Encoding"] = "base64"
                attached.add_header("Content-Disposition", "attachment", filename=filename)
                body.attach(attached)
                continue
            attached = text_part(content[0])
            attached.add_header("Content-Disposition", "attachment", filename=filename)
            holes.hollow(attached, Shared(NEWLINES.sub(b"\n", encoded_body(attached))))
            body.attach(attached)
    for part in body.walk():
        if part is not body:
            del part["MIME-Version"]
    content_type = body["Content-Type"]
    del body["Content-Type"], body["MIME-Version"]
    for name, value in headers(sender, to, subject, date, msg_id, reply_to, in_reply_to, refs,
                               replying):
        body[name] = value
    body["MIME-Version"] = "1.0"
    body["Content-Type"] = content_type
    out = io.BytesIO()
    Generator(out, policy=POLICY).flatten(body)
    data, parts = holes.cut(out.getvalue())
    return Draft(data, parts)


def encoded_body(part) -> bytes:
    """A text part's body as the mail carries it (encoded, if it is)."""
    if part["Content-Transfer-Encoding"] in ("7bit", "8bit"):
        return part.get_payload(decode=True)
    return part.get_payload().encode("ascii")


def headers(sender, to, subject, date, msg_id, reply_to, in_reply_to, refs, replying):
    """The top headers of a mail, in order."""
    yield "From", formataddr(sender)
    yield "To", to
    yield "Subject", subject
    yield "Date", format_datetime(parse_time(date))
    yield "Message-ID", msg_id
    if reply_to:
        yield "Reply-To", reply_to
    if in_reply_to:
        yield "In-Reply-To", in_reply_to
    if refs:
        yield "References", " ".join(refs)
    yield "Auto-Submitted", "auto-replied" if replying else "auto-generated"
    yield "X-Auto-Response-Suppress", "All"
