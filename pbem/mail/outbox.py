"""Sending the outbox: to an outgoing Maildir (the embedded default) or by SMTP.

A mail's bytes, Message-ID included, are fixed when it is queued, so a crash
between sending and marking it sent can at worst send the very same mail
twice, never two different ones. Temporary failures are retried with an
exponential backoff; permanent ones mark the mail failed.
"""

from datetime import timedelta
import smtplib
import ssl

from . import maildir
from ..timeutil import iso, parse_time

BACKOFF_MINUTES = 5


class Temporary(Exception):
    """The mail could not be sent now; try again later."""


class Permanent(Exception):
    """The mail will never be accepted as it is."""


class MaildirSender:
    """Delivers into a local Maildir folder."""

    def __init__(self, config):
        self.path = config.path("mail", "outbox")

    def send(self, row) -> None:
        """Deliver one outbox row."""
        maildir.deliver(self.path, row["raw"])

    def close(self) -> None:
        """Nothing to close."""


class SmtpSender:
    """Sends through an SMTP server, over one connection per run."""

    def __init__(self, config):
        self.config = config
        self.part = config["smtp"]
        self.conn = None

    def connect(self):
        """Open (and authenticate) the connection on first use."""
        if self.conn is not None:
            return self.conn
        part = self.part
        security = part["security"]
        port = part["port"] or {"ssl": 465, "starttls": 587}.get(security, 25)
        context = ssl.create_default_context()
        try:
            if security == "ssl":
                conn = smtplib.SMTP_SSL(part["host"], port, timeout=part["timeout"],
                                        context=context)
            else:
                conn = smtplib.SMTP(part["host"], port, timeout=part["timeout"])
                if security == "starttls":
                    conn.starttls(context=context)
            if part["user"]:
                conn.login(part["user"], self.config.secret("smtp"))
        except smtplib.SMTPAuthenticationError as problem:
            raise Permanent(f"SMTP login refused: {problem}") from None
        except (OSError, smtplib.SMTPException) as problem:
            raise Temporary(f"cannot reach {part['host']}:{port}: {problem}") from None
        self.conn = conn
        return conn

    def send(self, row) -> None:
        """Send one outbox row; Temporary or Permanent on failure."""
        conn = self.connect()
        try:
            conn.sendmail(self.config["address"], [row["to_addr"]], row["raw"])
        except smtplib.SMTPRecipientsRefused as problem:
            codes = [code for code, _ in problem.recipients.values()]
            raise (Permanent if all(c >= 500 for c in codes) else Temporary)(str(problem)) from None
        except smtplib.SMTPResponseException as problem:
            self.drop()
            raise (Permanent if problem.smtp_code >= 500 else Temporary)(str(problem)) from None
        except (OSError, smtplib.SMTPException) as problem:
            self.drop()
            raise Temporary(str(problem)) from None

    def drop(self) -> None:
        """Forget a connection that failed."""
        try:
            if self.conn is not None:
                self.conn.close()
        finally:
            self.conn = None

    def close(self) -> None:
        """Say goodbye to the server."""
        if self.conn is not None:
            try:
                self.conn.quit()
            except (OSError, smtplib.SMTPException):
                pass
            self.conn = None


def sender_for(config):
    """SMTP when a host is configured, else the outgoing Maildir."""
    return SmtpSender(config) if config["smtp"]["host"] else MaildirSender(config)


def flush(referee, now: str) -> tuple[int, int]:
    """Send what is due in the outbox (at most smtp.per_run mails); return (sent, failed)."""
    store, config = referee.store, referee.config
    transport = sender_for(config)
    limit = config["smtp"]["per_run"]
    rows = store.all("SELECT id FROM outbox WHERE status = 'pending' AND next_attempt <= ? "
                     "ORDER BY id LIMIT ?", [now, limit])
    sent = failed = 0
    try:
        for ref in rows:
            row = store.one("SELECT * FROM outbox WHERE id = ?", [ref["id"]])
            try:
                transport.send(row)
            except Temporary as problem:
                failed += retry_later(store, config, row, str(problem), now)
                if isinstance(transport, SmtpSender) and transport.conn is None:
                    break
                continue
            except Permanent as problem:
                mark(store, row, "failed", now, str(problem))
                failed += 1
                continue
            mark(store, row, "sent", now)
            sent += 1
    finally:
        transport.close()
    return sent, failed


def mark(store, row, status: str, now: str, error: str | None = None) -> None:
    """Record a mail's new status."""
    with store.transaction():
        store.update("outbox", {"id": row["id"]}, {
            "status": status, "attempts": row["attempts"] + 1, "last_error": error,
            "sent_at": now if status == "sent" else None})


def retry_later(store, config, row, error: str, now: str) -> int:
    """Schedule another attempt with backoff; return 1 if the mail is now given up."""
    attempts = row["attempts"] + 1
    if attempts >= config["smtp"]["max_attempts"]:
        mark(store, row, "failed", now, error)
        return 1
    wait = timedelta(minutes=BACKOFF_MINUTES * 2 ** (attempts - 1))
    with store.transaction():
        store.update("outbox", {"id": row["id"]}, {
            "attempts": attempts, "last_error": error,
            "next_attempt": iso(parse_time(now) + wait)})
    return 0
