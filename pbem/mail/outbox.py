"""Sending the outbox: to an outgoing Maildir (the embedded default) or by SMTP.

A mail's bytes, Message-ID included, are fixed when it is queued (and put
together from how the database keeps them, pbem/mail/stored.py, the same
every time), so a crash between sending and marking it sent can at worst
send the very same mail twice, never two different ones. Into a Maildir it
is delivered exactly once: its file name is fixed by its Message-ID, and a
mail already there is not written again; so mails delivered there are
marked sent in batches, one transaction (and one sync of the folder) for up
to ``MAILDIR_BATCH`` of them.
By SMTP it is delivered at least once: a crash after the server took it and
before it is marked sent sends it again on the next run, so each is marked
sent as soon as the server took it.

What a failure does depends on whose it is:

- the mail's (a 4xx reply to it, or the connection dropping while it is
  sent): it is tried again later, after an exponential backoff, until
  ``smtp.max_attempts``; a 5xx reply marks it failed at once;
- the server's (it cannot be reached): the run stops and every mail stays
  queued as it is, to be tried on the next run (TryLater);
- the settings' (login or token refused, certificate not trusted, no
  STARTTLS, our address refused as sender, a password or token program that
  fails): the run stops (Misconfigured), every mail left stays queued.

Either way each mail left keeps the reason as its ``last_error``, for
``pbem outbox``, and the tick says it on standard error.

At most ``smtp.per_run`` mails go out per run, for providers that limit volume.
"""

from dataclasses import dataclass, field
from datetime import timedelta
import logging
import re
import smtplib
import ssl

from . import maildir
from ..config import ConfigError
from ..errors import Misconfigured, PbemError, ServerDown, TryLater, plainly
from ..timeutil import iso, parse_time

log = logging.getLogger(__name__)

BACKOFF_MINUTES = 5
MAILDIR_BATCH = 500  # mails delivered into a Maildir, then marked sent in one transaction
PORTS = {"ssl": 465, "starttls": 587, "none": 25}
BARE_LF = re.compile(rb"(?<!\r)\n")


class Temporary(Exception):
    """This mail could not be sent now; try it again later."""


class Permanent(Exception):
    """This mail will never be accepted as it is."""


class Unreachable(Exception):
    """The server cannot be reached now; leave the whole queue for the next run."""


@dataclass
class Sending:
    """What one run of the outbox did."""

    sent: int = 0
    failed: int = 0                     # given up for good
    later: int = 0                      # refused for now, to be tried again
    problems: list = field(default_factory=list)   # one line for each mail not sent
    stopped: PbemError | None = None    # why the run stopped before its end

    def counts(self) -> tuple[int, int]:
        """(mails sent, mails given up for good)."""
        return self.sent, self.failed


class MaildirSender:
    """Delivers into a local Maildir folder."""

    limit = -1  # no cap: nothing limits how much a local folder takes
    where = "the outgoing Maildir"

    def __init__(self, config):
        self.path = config.path("mail", "outbox")
        self.batch = None
        self.taken = 0

    def send(self, row, raw: bytes) -> None:
        """Write one outbox row's mail for the batch that commit() delivers (but a mail a
        run cut short delivered already)."""
        if self.batch is None:
            self.batch = maildir.Delivery(self.path)
        self.batch.add(maildir.key_for(row["id"], row["message_id"]), raw)
        self.taken += 1

    def full(self) -> bool:
        """Is the batch big enough to deliver? (Delivering again is harmless, so mails
        are marked sent in batches.)"""
        return self.taken >= MAILDIR_BATCH

    def commit(self) -> None:
        """Deliver the batch."""
        if self.batch is not None:
            self.batch.finish()
        self.batch, self.taken = None, 0

    def close(self) -> None:
        """Nothing to close."""


class SmtpSender:
    """Sends through an SMTP server, over one connection per run (reopened when it drops)."""

    def __init__(self, config):
        self.config = config
        self.part = config["smtp"]
        self.limit = self.part["per_run"]
        if self.part["security"] not in PORTS:
            raise ConfigError(f"[smtp] security = {self.part['security']!r}: "
                              "use \"starttls\", \"ssl\" or \"none\"")
        self.port = self.part["port"] or PORTS[self.part["security"]]
        self.where = f"SMTP {self.part['host']}:{self.port}"
        self.conn = None
        warning = config.clear_text_warning("smtp")
        if warning:
            log.warning(warning)

    def full(self) -> bool:
        """Always: a mail the server took is marked sent at once."""
        return True

    def commit(self) -> None:
        """Nothing to do: the server took each mail as it was sent."""

    def connect(self) -> smtplib.SMTP:
        """The open connection, opened (TLS, login) on first use."""
        if self.conn is None:
            self.conn = self.open()
        return self.conn

    def open(self) -> smtplib.SMTP:
        """A new connection: Unreachable if the server is not there, PbemError if refused."""
        part, security, where = self.part, self.part["security"], self.where
        context = self.config.client_tls("smtp")
        token = self.config.token("smtp") if part["user"] else None
        password = self.config.secret("smtp") if part["user"] and token is None else None
        conn = None
        try:
            if security == "ssl":
                conn = smtplib.SMTP_SSL(part["host"], self.port, timeout=part["timeout"],
                                        context=context)
            else:
                conn = smtplib.SMTP(part["host"], self.port, timeout=part["timeout"])
                if security == "starttls":
                    conn.starttls(context=context)
            if token is not None:
                conn.ehlo_or_helo_if_needed()
                if bearer_only(conn):
                    conn.auth("OAUTHBEARER", oauthbearer(part["user"], part["host"],
                                                         self.port, token))
                else:
                    conn.auth("XOAUTH2", xoauth2(part["user"], token))
            elif part["user"]:
                conn.login(part["user"], password)
            return conn
        except smtplib.SMTPAuthenticationError as problem:
            hang_up(conn)
            if problem.smtp_code < 500:
                raise Unreachable(f"{where}: login failed for now: {reply(problem)}") from None
            secret = "token_command" if token is not None else "password"
            raise Misconfigured(f"{where}: login refused: {reply(problem)} "
                                f"(check [smtp] user and {secret}"
                                f"{self.config.token_hint('smtp')})") from None
        except (ssl.SSLError, smtplib.SMTPNotSupportedError) as problem:
            hang_up(conn)
            raise Misconfigured(f"{where}: {plainly(problem)} (check [smtp] security and "
                                "port)") from None
        except (OSError, smtplib.SMTPException) as problem:
            hang_up(conn)
            raise Unreachable(f"{where}: {plainly(problem)}") from None

    def send(self, row, raw: bytes) -> None:
        """Send one outbox row's mail; Temporary or Permanent when the server will not take
        it."""
        conn = self.connect()
        try:
            conn.sendmail(self.config["address"], [row["to_addr"]], crlf(raw))
        except smtplib.SMTPRecipientsRefused as problem:
            code, text = next(iter(problem.recipients.values()))
            raise verdict(code, f"{code} {text.decode(errors='replace')}") from None
        except smtplib.SMTPSenderRefused as problem:
            raise self.refused_sender(problem) from None
        except smtplib.SMTPResponseException as problem:
            if problem.smtp_code == 421:  # the server is closing the connection
                self.drop()
            raise verdict(problem.smtp_code, reply(problem)) from None
        except (OSError, smtplib.SMTPException) as problem:
            self.drop()
            raise Temporary(plainly(problem)) from None

    def refused_sender(self, problem: smtplib.SMTPSenderRefused) -> Exception:
        """MAIL FROM refused: the mail's fault only when it is too big (552)."""
        if problem.smtp_code == 552:
            return Permanent(reply(problem))
        if problem.smtp_code >= 500:
            return Misconfigured(f"{self.where} refuses to send as {self.config['address']}: "
                                 f"{reply(problem)} (check address and [smtp] user)")
        return Unreachable(f"{self.where}: not sending for now: {reply(problem)}")

    def drop(self) -> None:
        """Forget a connection that failed (the next mail opens a new one)."""
        hang_up(self.conn)
        self.conn = None

    def close(self) -> None:
        """Say goodbye to the server."""
        if self.conn is not None:
            try:
                self.conn.quit()
            except (OSError, smtplib.SMTPException):
                hang_up(self.conn)
            self.conn = None


def xoauth2(user: str, token: str):
    """The XOAUTH2 answer for smtplib's auth(): the user and the bearer token; after a
    refusal (a 334 with the reason) an empty answer, so the server says 535."""
    def answer(challenge=None) -> str:
        return "" if challenge else f"user={user}\x01auth=Bearer {token}\x01\x01"
    return answer


def oauthbearer(user: str, host: str, port: int, token: str):
    """The OAUTHBEARER answer (RFC 7628) for smtplib's auth(); after a refusal (a 334 with
    the reason) the lone ^A the RFC asks for, so the server says 535."""
    name = user.replace("=", "=3D").replace(",", "=2C")

    def answer(challenge=None) -> str:
        return "\x01" if challenge else \
            f"n,a={name},\x01host={host}\x01port={port}\x01auth=Bearer {token}\x01\x01"
    return answer


def bearer_only(conn: smtplib.SMTP) -> bool:
    """Does the server take OAUTHBEARER and not XOAUTH2?"""
    offered = conn.esmtp_features.get("auth", "").upper().split()
    return "OAUTHBEARER" in offered and "XOAUTH2" not in offered


def crlf(raw: bytes) -> bytes:
    """The stored bytes with CRLF line ends, as SMTP wants them (smtplib sends bytes as is)."""
    return BARE_LF.sub(b"\r\n", raw)


def hang_up(conn) -> None:
    """Close a connection that may be half open, ignoring errors."""
    if conn is not None:
        try:
            conn.close()
        except OSError:
            pass


def reply(problem: smtplib.SMTPResponseException) -> str:
    """An SMTP error reply as '550 text'."""
    text = problem.smtp_error
    if isinstance(text, bytes):
        text = text.decode(errors="replace")
    return f"{problem.smtp_code} {text}"


def verdict(code: int, text: str) -> Exception:
    """Permanent for a 5xx reply, Temporary otherwise."""
    return Permanent(text) if code >= 500 else Temporary(text)


def sender_for(config):
    """SMTP when a host is configured, else the outgoing Maildir."""
    return SmtpSender(config) if config["smtp"]["host"] else MaildirSender(config)


def flush(referee, now: str, done: Sending | None = None, stopping=None) -> Sending:
    """Send what is due in the outbox; return what was sent, and what was not and why.

    A run stopped before its end (TryLater: the server cannot be reached;
    Misconfigured: the settings must change) raises, after every mail left
    has recorded why, with `done` (when given) telling what went out before.
    Once `stopping` (a function) says True, the mail being sent is finished and the
    others wait in the queue.
    """
    store, config = referee.store, referee.config
    done = Sending() if done is None else done
    try:
        transport = sender_for(config)
    except ConfigError as problem:
        raise stop(store, Misconfigured(str(problem)), now) from None
    due = store.all("SELECT id FROM outbox WHERE status = 'pending' AND next_attempt <= ? "
                    "ORDER BY id LIMIT ?", [now, transport.limit])
    delivered = []
    try:
        for ref in due:
            if stopping is not None and stopping():
                break
            row = store.one("SELECT * FROM outbox WHERE id = ? AND status = 'pending'",
                            [ref["id"]])
            if row is None:
                continue
            try:
                transport.send(row, store.outbox_mail(row))
            except Unreachable as problem:
                done.stopped = ServerDown(f"{problem}; the mails left wait for the next run",
                                          "SMTP", transport.where)
                break
            except ConfigError as problem:
                done.stopped = Misconfigured(str(problem))
                break
            except TryLater as problem:  # the password or token program failed
                done.stopped = ServerDown(f"{problem}; the mails left wait for the next run",
                                          "SMTP", transport.where)
                break
            except PbemError as problem:
                done.stopped = problem
                break
            except Temporary as problem:
                given_up = retry_later(store, config, row, str(problem), now)
                done.failed += given_up
                done.later += 1 - given_up
                done.problems.append(unsent(row, problem, given_up))
                continue
            except Permanent as problem:
                mark_failed(store, row, now, str(problem))
                done.failed += 1
                done.problems.append(unsent(row, problem, True))
                continue
            delivered.append({"id": row["id"], "attempts": row["attempts"]})  # not its mail
            if transport.full():
                transport.commit()
                batch, delivered = delivered, []
                done.sent += mark_sent(store, batch, now)
    finally:
        try:
            transport.commit()
            done.sent += mark_sent(store, delivered, now)
        finally:
            transport.close()
    if done.stopped is not None:
        raise stop(store, done.stopped, now)
    return done


def unsent(row: dict, problem: Exception, given_up: bool) -> str:
    """One line about a mail the server would not take."""
    fate = "given up (pbem outbox --retry queues it again)" if given_up else \
        "it will be tried again"
    return f"mail {row['id']} to {row['to_addr']} not sent: {problem}; {fate}"


def stop(store, problem: PbemError, now: str) -> PbemError:
    """The error that stopped a run, once every mail due keeps it as its last error."""
    with store.transaction():
        store.execute("UPDATE outbox SET last_error = ? WHERE status = 'pending' "
                      "AND next_attempt <= ?", [str(problem), now])
    return problem


def mark_sent(store, rows, now: str) -> int:
    """Record mails as sent, in one transaction; return how many."""
    if rows:
        with store.transaction():
            for row in rows:
                store.update("outbox", {"id": row["id"]}, {
                    "status": "sent", "attempts": row["attempts"] + 1, "last_error": None,
                    "sent_at": now})
    return len(rows)


def mark_failed(store, row, now: str, error: str) -> None:
    """Record that a mail is given up, and why."""
    with store.transaction():
        store.update("outbox", {"id": row["id"]}, {
            "status": "failed", "attempts": row["attempts"] + 1, "last_error": error})


def retry_later(store, config, row, error: str, now: str) -> int:
    """Schedule another attempt with backoff; return 1 if the mail is now given up."""
    attempts = row["attempts"] + 1
    if attempts >= config["smtp"]["max_attempts"]:
        mark_failed(store, row, now, error)
        return 1
    wait = timedelta(minutes=BACKOFF_MINUTES * 2 ** (attempts - 1))
    with store.transaction():
        store.update("outbox", {"id": row["id"]}, {
            "attempts": attempts, "last_error": error,
            "next_attempt": iso(parse_time(now) + wait)})
    return 0


def waiting(store, every: bool = False) -> list[dict]:
    """Outbox mails not sent (failed, then pending), or every mail (sent last) with `every`."""
    where = "" if every else "WHERE status != 'sent'"
    return store.all(
        "SELECT id, game, seat, kind, to_addr, subject, message_id, status, attempts, "
        f"next_attempt, last_error, created_at, sent_at FROM outbox {where} "
        "ORDER BY CASE status WHEN 'failed' THEN 0 WHEN 'pending' THEN 1 ELSE 2 END, id")


def retry(store, ids, now: str) -> int:
    """Queue failed mails again, due now, with their attempts reset; return how many."""
    count = 0
    with store.transaction():
        for mail_id in ids:
            count += store.execute(
                "UPDATE outbox SET status = 'pending', attempts = 0, next_attempt = ?, "
                "last_error = NULL WHERE id = ? AND status = 'failed'", [now, mail_id]).rowcount
    return count
