"""Players at their mail clients: real RFC 822 replies to a game, and the mails they get back."""

import email
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime
import itertools

from pbem import inbound
from pbem.mail import intake
from pbem.mail.parse import REPLY_MARKER
from pbem.timeutil import parse_time

NUMBERS = itertools.count(1)


def reply(referee, game: str, seat: str, body: str, now: str, *, answering=None,
          sender=None, thread=(), files=()) -> dict:
    """The seat replies to its game (to the mail `answering`, an outbox row, if given,
    after the earlier mails of its `thread`, as References names them), with `files`
    ((file name, content type, bytes)) attached: the mail is stored and handled as pbem
    handles mail. Returns its inbox row."""
    row = referee.store.seat(game, seat)
    msg = EmailMessage()
    msg["From"] = sender or f"{seat.title()} <{row['email']}>"
    msg["To"] = f"pbem+{game}.{row['token']}@referee.example"
    msg["Subject"] = f"Re: [pbem {game} #{row['token']}] your turn"
    msg["Date"] = format_datetime(parse_time(now))
    msg["Message-ID"] = f"<{seat}.{next(NUMBERS)}@players.example>"
    if answering is not None:
        msg["In-Reply-To"] = answering["message_id"]
        msg["References"] = " ".join([*(m["message_id"] for m in thread),
                                      answering["message_id"]])
        quoted = "\n".join("> " + line for line in text_of(answering).splitlines())
        body += f"\n\nOn Tue, pbem wrote:\n{quoted}\n"
    msg.set_content(body)
    for name, kind, data in files:
        maintype, _, subtype = kind.partition("/")
        msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=name)
    row_id = intake.ingest(referee.store, msg.as_bytes(), "test", now)
    inbound.process_inbox(referee, now)
    return referee.store.one("SELECT * FROM inbox WHERE id = ?", [row_id])


def outbox(referee, **where) -> list[dict]:
    """Outbox rows (all, or those matching every column given), oldest first."""
    sql = "SELECT * FROM outbox" + (" WHERE " + " AND ".join(f"[{k}] = ?" for k in where)
                                    if where else "")
    return [dict(r, raw=referee.store.outbox_mail(r))
            for r in referee.store.all(sql + " ORDER BY id", list(where.values()))]


def parsed(row: dict) -> email.message.EmailMessage:
    """An outbox row as a mail."""
    return email.message_from_bytes(row["raw"], policy=policy.default)


def text_of(row: dict) -> str:
    """The text part of an outbox row's mail."""
    return parsed(row).get_body(preferencelist=("plain",)).get_content()


def flat(row: dict) -> str:
    """The text part on one line (paragraphs wrapped at 78 columns joined again)."""
    return " ".join(text_of(row).split())


def answer_to(referee, row: dict) -> dict:
    """The outbox row answering an inbox row's mail."""
    wanted = email.message_from_bytes(row["raw"], policy=policy.default)["Message-ID"]
    [found] = [r for r in outbox(referee) if f"In-Reply-To: {wanted}".encode() in r["raw"]]
    return found


def answered(referee, game: str, seat: str, body: str, now: str, **how) -> tuple[dict, str]:
    """The seat replies (see :func:`reply`): its inbox row, and pbem's answer on one line."""
    row = reply(referee, game, seat, body, now, **how)
    return row, flat(answer_to(referee, row))


__all__ = ["reply", "answered", "outbox", "parsed", "text_of", "flat", "answer_to",
           "REPLY_MARKER"]
