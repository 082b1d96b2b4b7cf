"""Building the mails pbem sends: multipart/alternative, threaded, with a fixed Message-ID."""

from email.message import EmailMessage
from email.utils import format_datetime, formataddr
import secrets

from ..timeutil import parse_time
from .parse import MSG_ID

ECHOED_REFERENCES = 10  # the thread's first Message-ID and the latest ones


def message_id(domain: str, game: str | None) -> str:
    """A new, unique Message-ID, fixed when the mail is rendered."""
    return f"<{game or 'pbem'}.{secrets.token_hex(12)}@{domain}>"


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


def compose(*, sender: tuple, to: str, subject: str, text: str, html: str | None,
            msg_id: str, date: str, reply_to: str | None = None,
            in_reply_to: str | None = None, references=(), images=None,
            attachments=()) -> bytes:
    """The raw bytes of one outgoing mail (text, plus HTML as an alternative).

    `images` ({Content-ID: PNG bytes}) make the HTML part multipart/related,
    with each image inline, shown by the HTML as cid:. `attachments`
    ((file name, text) pairs) follow as text/plain attachments.
    """
    replying = bool(in_reply_to)
    in_reply_to, refs = threading(in_reply_to, references)
    msg = EmailMessage()
    msg["From"] = formataddr(sender)
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = format_datetime(parse_time(date))
    msg["Message-ID"] = msg_id
    if reply_to:
        msg["Reply-To"] = reply_to
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
    if refs:
        msg["References"] = " ".join(refs)
    msg["Auto-Submitted"] = "auto-replied" if replying else "auto-generated"
    msg["X-Auto-Response-Suppress"] = "All"
    msg.set_content(text)
    if html is not None:
        msg.add_alternative(html, subtype="html")
        html_part = msg.get_payload()[-1]
        for cid, png in sorted((images or {}).items()):
            html_part.add_related(png, maintype="image", subtype="png", cid=cid,
                                  disposition="inline",
                                  filename=cid.strip("<>").partition("@")[0] + ".png")
    for filename, text in attachments:
        msg.add_attachment(text, subtype="plain", filename=filename)
    return msg.as_bytes()
