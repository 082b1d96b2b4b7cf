"""Writing the mails players send, the way their mail clients write them."""

from email.message import EmailMessage
from email.utils import format_datetime

from pbem.timeutil import parse_time


def plain(sender: str, to: str, subject: str, body: str, *, message_id: str,
          date: str = "2026-12-01T13:00:00Z", charset: str = "utf-8", headers=None) -> bytes:
    """A text/plain mail."""
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = format_datetime(parse_time(date))
    msg["Message-ID"] = message_id
    for name, value in (headers or {}).items():
        msg[name] = value
    msg.set_content(body, charset=charset)
    return msg.as_bytes()

