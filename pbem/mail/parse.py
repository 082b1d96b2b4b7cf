"""Reading a raw mail: who sent it, to whom, is it automatic, and the new text in it.

MIME, headers and charsets are the standard library's ``email`` package.
HTML-only mail is turned into text with BeautifulSoup after dropping the
elements mail clients wrap quoted history in. In plain text, '>' quotes and
their attribution line are removed wherever they are (so bottom-posted and
inline replies keep their text), and everything from the first unquoted
history start (our "reply above this line" marker, an "Original Message"
separator, a quoted header block, an attribution line) is cut, then the
signature.
"""

from dataclasses import dataclass, field
import email
from email import policy
from email.utils import getaddresses, parseaddr
import re

from bs4 import BeautifulSoup

REPLY_MARKER = "## pbem: write your reply above this line ##"

HTML_QUOTES = [
    "blockquote", "div.gmail_quote", "div.gmail_extra", "div#appendonsend",
    "div#divRplyFwdMsg", "div.moz-cite-prefix", "div.yahoo_quoted", "div#mail-editor-reference-message-container",
    "div.OutlookMessageHeader", "div#Signature", "div.gmail_signature", "div.moz-signature",
]
MARKER = re.compile(re.escape(REPLY_MARKER.strip("# ")), re.IGNORECASE)
SEPARATOR = re.compile(
    r"^(-{2,}\s*(original message|message d'origine|ursprüngliche nachricht|"
    r"forwarded message|message transféré|messaggio originale|mensaje original)\s*-{2,}"
    r"|_{10,})\s*$", re.IGNORECASE)
ATTRIBUTION_START = re.compile(r"^(on|le|am|el|il|op|den|dnia|w dniu)\b", re.IGNORECASE)
ATTRIBUTION = re.compile(
    r"(wrote|a écrit|schrieb|escribió|ha scritto|schreef|skrev|napisał)\s*:\s*$", re.IGNORECASE)
ATTRIBUTION_FULL = re.compile(
    r"^(on|le|am|el|il|op|den|dnia|w dniu)\b.{0,300}(wrote|a écrit|schrieb|escribió|"
    r"ha scritto|schreef|skrev|napisał)\s*:", re.IGNORECASE)
HEADER_FROM = re.compile(r"^\*?(from|de|von|da|van|od|fra|från)\s*:\*?\s", re.IGNORECASE)
HEADER_NEXT = re.compile(
    r"\b(sent|date|envoyé|to|à|objet|subject|gesendet|an|datum|betreff|inviato|oggetto)\s*:")
SIGNATURE = re.compile(
    r"^(--|-- |sent from my .*|envoyé de mon .*|envoyé depuis .*|get outlook for .*|"
    r"obtenir outlook pour .*|von meinem .* gesendet)$", re.IGNORECASE)


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


def message_from_bytes(raw: bytes):
    """A parsed EmailMessage, tolerant of the defects real mail has."""
    return email.message_from_bytes(raw, policy=policy.default)


def read(raw: bytes, headers_only: bool = False) -> Incoming:
    """Everything pbem uses from a raw RFC 822 message; never raises on bad mail."""
    msg = message_from_bytes(raw)
    sender = parseaddr(header(msg, "From"))[1].lower()
    recipients = [addr.lower() for _, addr in getaddresses(
        [header(msg, h) for h in ("To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To")
         if header(msg, h)]) if addr]
    incoming = Incoming(
        message_id=header(msg, "Message-ID").strip(),
        sender=sender,
        subject=" ".join(header(msg, "Subject").split()),
        recipients=recipients,
        references=(header(msg, "References") + " " + header(msg, "In-Reply-To")).split(),
        return_path=header(msg, "Return-Path").strip() if "Return-Path" in msg else None,
    )
    incoming.bounced = bounced_recipients(msg)
    incoming.automatic = automatic(msg, incoming)
    if not headers_only:
        incoming.text = new_text(body(msg))
    return incoming


def header(msg, name: str) -> str:
    """A header as text; empty when missing or undecodable."""
    try:
        value = msg.get(name)
    except (ValueError, IndexError, AttributeError):
        return ""
    return str(value) if value is not None else ""


def automatic(msg, incoming: Incoming) -> str | None:
    """Why this mail must not be answered (RFC 3834), or None."""
    auto = header(msg, "Auto-Submitted").strip().lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    precedence = header(msg, "Precedence").strip().lower()
    if precedence in ("bulk", "junk", "list"):
        return f"Precedence: {precedence}"
    if header(msg, "List-Id"):
        return "mailing list (List-Id)"
    if incoming.return_path is not None and incoming.return_path in ("<>", ""):
        return "empty return path"
    local = incoming.sender.partition("@")[0]
    if local in ("mailer-daemon", "postmaster") or not incoming.sender:
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
        if part.get_content_type() != "message/delivery-status":
            continue
        for block in part.get_payload() if part.is_multipart() else []:
            action = str(block.get("Action", "")).lower()
            recipient = str(block.get("Final-Recipient") or block.get("Original-Recipient") or "")
            if action.startswith("failed") and ";" in recipient:
                failed.append(recipient.split(";", 1)[1].strip().lower())
    return sorted(set(failed))


def body(msg) -> str:
    """The readable text of a mail: its text/plain part, else its HTML as text."""
    try:
        part = msg.get_body(preferencelist=("plain", "html"))
    except (KeyError, AttributeError, ValueError):
        part = None
    if part is None:
        return ""
    try:
        content = part.get_content()
    except (LookupError, ValueError, AssertionError):
        payload = part.get_payload(decode=True) or b""
        content = payload.decode("latin-1")
    if isinstance(content, bytes):
        content = content.decode("latin-1")
    if part.get_content_type() == "text/html":
        return html_text(content)
    return content


def html_text(html: str) -> str:
    """The visible new text of an HTML mail, without the quoted history clients add."""
    soup = BeautifulSoup(html, "html.parser")
    for selector in HTML_QUOTES:
        for element in soup.select(selector):
            element.decompose()
    for element in soup(["style", "script", "head", "title"]):
        element.decompose()
    for br in soup.find_all("br"):
        br.replace_with("\n")
    for block in soup.find_all(["p", "div", "li", "tr", "h1", "h2", "h3", "pre"]):
        block.insert_before("\n")
        block.insert_after("\n")
    text = soup.get_text()
    return "\n".join(line.strip() for line in text.replace("\xa0", " ").splitlines())


def new_text(text: str) -> str:
    """The part of a mail's text the sender just wrote: no quoted history, no signature."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    lines = cut_history(drop_quoted(lines))
    kept = []
    for line in lines:
        if SIGNATURE.match(line.strip()):
            break
        kept.append(line.rstrip())
    return "\n".join(kept).strip("\n")


def drop_quoted(lines: list[str]) -> list[str]:
    """Remove '>' quoted lines and the attribution line ('On ... wrote:') just above them.

    Text written below or between quotes (bottom-posting, inline replies) is kept.
    """
    kept = []
    for line in lines:
        if line.lstrip().startswith(">"):
            while kept and not kept[-1].strip():
                kept.pop()
            if kept and ATTRIBUTION.search(kept[-1].strip()):
                kept.pop()
                if len(kept) > 0 and ATTRIBUTION_START.match(kept[-1].strip()):
                    kept.pop()
            continue
        kept.append(line)
    return kept


def cut_history(lines: list[str]) -> list[str]:
    """Lines up to the first unquoted line that starts quoted history."""
    for index, line in enumerate(lines):
        stripped = line.strip()
        if MARKER.search(stripped) or SEPARATOR.match(stripped):
            return lines[:index]
        if ATTRIBUTION_START.match(stripped):
            joined = " ".join(x.strip() for x in lines[index:index + 3])
            if ATTRIBUTION.search(stripped) or ATTRIBUTION_FULL.match(joined):
                return lines[:index]
        if HEADER_FROM.match(stripped) and header_block(lines, index):
            return lines[:index]
    return lines


def header_block(lines: list[str], index: int) -> bool:
    """Does a 'From:' line start a block of quoted headers (Sent/Date/To/Subject follow)?"""
    following = " ".join(line.strip().lower() for line in lines[index + 1:index + 5])
    return bool(HEADER_NEXT.search(following))
