"""`pbem poll` over IMAP: store each new message, then move it to the Processed folder.

The order of things is what makes a dropped connection or a killed process
harmless. Each message is fetched with ``BODY.PEEK[]`` (it stays unread) and
stored in the inbox table in the same transaction that records its UID as the
folder's last UID; only then is it moved. So:

- a message whose UID is above the last UID has not been stored: store it;
- a message still in the folder at or below the last UID was stored by a run
  that stopped before moving it: move it, without storing it again;
- a UIDVALIDITY change (the server renumbered the folder) starts the folder
  over at UID 0; a message already stored under the same Message-ID with the
  same body (or, when it has none, with the same bytes) is moved without
  being stored again.

The folder's state is kept under ``user@host/folder`` in the ``imap_folders``
table (and in the ``folder`` column of the inbox), so pointing pbem at another
account or server is a resync too, never a reason to skip a message.

``watch`` mode waits with IDLE (re-issued every ``idle_seconds``), or sleeps
``poll_seconds`` on servers without IDLE, and reconnects with an exponential
backoff when the connection drops; `pbem run` watches in a thread of its own
and ends the watch with ``interrupt``.
"""

import contextlib
import imaplib
import logging
import re
import socket
import sqlite3
import ssl
import threading

from imapclient import IMAPClient
from imapclient.exceptions import CapabilityError, LoginError

from . import intake
from ..config import ConfigError
from .. import outages
from ..errors import Misconfigured, PbemError, ServerDown, TryLater, disk_full, plainly
from ..i18n import counted
from ..store import body_digest, raw_digest
from ..timeutil import system_now
from .parse import read

log = logging.getLogger(__name__)

BATCH = 20                          # messages fetched per FETCH command
BACKOFF_FIRST, BACKOFF_MAX = 1, 300   # seconds between reconnection attempts
PORTS = {"ssl": 993, "starttls": 143, "none": 143}
# Failures that a new connection, later, can cure; and a password or token command that
# failed (TryLater), and a database busy with another writer.
PASSING = (OSError, imaplib.IMAP4.error, TryLater, sqlite3.OperationalError)
# Failures no retry will cure: the settings must change...
FATAL = (LoginError, CapabilityError, ssl.SSLCertVerificationError, ConfigError)
# ...unless the server says it cannot now (RFC 5530 response codes): a login refused with
# [UNAVAILABLE] while its authentication backend is down is tried again later.
FOR_NOW = re.compile(r"\[(UNAVAILABLE|TRYAGAIN|INUSE|LIMIT|SERVERBUG)\b")


def cut_short(problem: Exception) -> bool:
    """Was a refusal the connection dropping under it (a LOGIN whose socket closed while the
    server went down), not the server's answer? Only a later try can tell."""
    cause = problem.__cause__ or problem.__context__
    return isinstance(cause, (imaplib.IMAP4.abort, OSError))


def poll(referee, now: str | None, watch: bool = False) -> int:
    """Store every new message of the IMAP folder; return how many were stored.

    Once (for cron) unless `watch`: then it keeps waiting for mail until the
    process is stopped, which is safe at any moment. `now` is the time
    recorded as each mail's arrival; None means the real time of each.
    """
    poller = Poller(referee, (lambda: now) if now else system_now)
    return poller.watch() if watch else poller.once()


class Poller:
    """One referee's IMAP folder: connect, sweep, wait for more."""

    def __init__(self, referee, clock):
        self.referee = referee
        self.store = referee.store
        self.config = referee.config
        self.part = referee.config["imap"]
        self.clock = clock
        self.stored = 0
        self.stop = threading.Event()
        self.client = None  # the connection a watch waits on
        if self.part["security"] not in PORTS:
            raise ConfigError(f"[imap] security = {self.part['security']!r}: "
                              "use \"ssl\", \"starttls\" or \"none\"")
        if not self.part["user"]:
            raise ConfigError("[imap] user is not set")
        self.port = self.part["port"] or PORTS[self.part["security"]]
        self.key = f"{self.part['user']}@{self.part['host']}/{self.part['folder']}"
        warning = referee.config.clear_text_warning("imap")
        if warning:
            log.warning(warning)

    def once(self) -> int:
        """Sweep the folder once; on failure (after keeping what was stored) TryLater when
        a new attempt may work, Misconfigured when only new settings can."""
        try:
            with self.connect() as client:
                self.sweep(client)
        except FATAL + PASSING as problem:
            error = self.trouble(problem)
            if isinstance(error, TryLater):
                kept = (f"{error}. {counted(self.stored, 'mail')} "
                        f"{'was' if self.stored == 1 else 'were'} stored before that; the next "
                        "poll goes on from there.")
                error = ServerDown(kept, "IMAP", error.where) \
                    if isinstance(error, ServerDown) else TryLater(kept)
            raise error from None
        return self.stored

    def watch(self, stop: threading.Event | None = None, arrived=None) -> int:
        """Sweep, wait for new mail, sweep again, until `stop` is set (without one, for
        ever); reconnect after failures. `arrived` is called after each sweep that stored
        mail. Returns how many mails were stored."""
        self.stop = stop or threading.Event()
        delay = BACKOFF_FIRST
        while not self.stop.is_set():
            connected = False
            try:
                with self.connect() as client:
                    connected = True
                    self.working()
                    self.client = client
                    while not self.stop.is_set():
                        before = self.stored
                        self.sweep(client)
                        if self.stored > before:
                            log.info("IMAP %s: %s stored", self.key,
                                     counted(self.stored - before, "new mail"))
                            if arrived:
                                arrived()
                        delay = BACKOFF_FIRST
                        self.wait(client)
            except FATAL + PASSING as problem:
                error = self.trouble(problem)
                if isinstance(error, Misconfigured):
                    raise error from None
                if self.stop.is_set():
                    break
                log.warning("%s; reconnecting in %s s", error, delay)
                if isinstance(error, ServerDown) and not connected:  # a drop is no outage
                    self.failing(error)
                self.stop.wait(delay)
                delay = min(delay * 2, BACKOFF_MAX)
            finally:
                self.client = None
        return self.stored

    def failing(self, error: ServerDown) -> None:
        """A watch cannot connect: tell the referee by mail when the outage begins, and once
        a day while it lasts."""
        now = self.clock()
        if outages.failing(self.store, "IMAP", str(error), now):
            outages.mail_referee(self.referee, f"{error.where} fails",
                                 outages.begun_line(str(error), outages.since(self.store, "IMAP")
                                                    or now, now), now)

    def working(self) -> None:
        """A watch is connected: tell the referee by mail when that ends an outage."""
        now = self.clock()
        ended = outages.working(self.store, "IMAP")
        if ended is not None:
            where = f"IMAP {self.part['host']}:{self.port}"
            line = outages.over_line("IMAP", where, ended, now)
            log.warning(line)
            outages.mail_referee(self.referee, f"{where} works again", line, now)

    def interrupt(self) -> None:
        """End a watch from another thread: set its stop, and cut the connection it waits on
        (a mail being stored is stored first: the connection is not the database)."""
        self.stop.set()
        client = self.client
        if client is not None:
            with contextlib.suppress(OSError):
                client.socket().shutdown(socket.SHUT_RDWR)

    def trouble(self, problem: Exception) -> PbemError:
        """The error a failure is: Misconfigured when only new settings can cure it, else
        ServerDown (the server or its password program: an outage) or TryLater (the
        database), in words that say where it is."""
        if isinstance(problem, sqlite3.OperationalError):
            return disk_full(problem, self.store.path) or TryLater(
                f"the database {self.store.path} could not store the mail: {plainly(problem)}")
        where = f"IMAP {self.part['host']}:{self.port}"
        if isinstance(problem, TryLater):  # a password or token command's failure
            return ServerDown(str(problem), "IMAP", where)
        if isinstance(problem, PbemError):
            return problem
        if isinstance(problem, ConfigError):
            return Misconfigured(f"{where}: {problem}")
        if isinstance(problem, FATAL) and not FOR_NOW.search(plainly(problem)) and \
                not cut_short(problem):
            hint = self.config.token_hint("imap") if isinstance(problem, LoginError) else ""
            return Misconfigured(f"{where}: {plainly(problem)} (check the [imap] settings"
                                 f"{hint})")
        return ServerDown(f"{where}: {plainly(problem)}", "IMAP", where)

    def connect(self) -> IMAPClient:
        """A logged-in connection, over verified TLS unless the settings say security = "none"."""
        security = self.part["security"]
        context = self.config.client_tls("imap")
        client = IMAPClient(self.part["host"], self.port, ssl=security == "ssl",
                            ssl_context=context, timeout=self.part["timeout"])
        try:
            if security == "starttls":
                client.starttls(context)
            self.log_in(client)
            if self.part["processed"] and not client.folder_exists(self.part["processed"]):
                client.create_folder(self.part["processed"])
        except BaseException:
            with contextlib.suppress(OSError):
                client.shutdown()
            raise
        return client

    def log_in(self, client: IMAPClient) -> None:
        """Log in with an OAuth2 token when token_command is set (XOAUTH2, or OAUTHBEARER
        when the server offers only that), else the password."""
        token = self.config.token("imap")
        if token is not None and bearer_only(client):
            client.oauthbearer_login(self.part["user"], token)
        elif token is not None:
            client.oauth2_login(self.part["user"], token)
        else:
            client.login(self.part["user"], self.config.secret("imap"))

    def sweep(self, client: IMAPClient) -> None:
        """Store the folder's new messages and move every stored one out of it."""
        folder = self.part["folder"]
        validity = client.select_folder(folder)[b"UIDVALIDITY"]
        last = self.last_uid(validity)
        if self.part["processed"]:
            uids = sorted(client.search("ALL"))
            self.move(client, [uid for uid in uids if uid <= last])
        else:
            uids = sorted(client.search(["UID", f"{last + 1}:*"]))
        fresh = [uid for uid in uids if uid > last]
        for start in range(0, len(fresh), BATCH):
            batch = fresh[start:start + BATCH]
            found = client.fetch(batch, ["BODY.PEEK[]"])
            done = [uid for uid in batch if uid in found]  # others were expunged meanwhile
            for uid in done:
                self.keep(validity, uid, found[uid][b"BODY[]"])
            self.move(client, done)

    def last_uid(self, validity: int) -> int:
        """The folder's last stored UID; 0 (and a resync) when the UIDVALIDITY changed."""
        row = self.store.one("SELECT * FROM imap_folders WHERE folder = ?", [self.key])
        if row is not None and row["uidvalidity"] == validity:
            return row["last_uid"]
        if row is not None:
            log.warning("IMAP %s: UIDVALIDITY changed from %s to %s; resyncing by Message-ID "
                        "and content", self.key, row["uidvalidity"], validity)
        with self.store.transaction():
            self.remember(validity, 0)
        return 0

    def keep(self, validity: int, uid: int, raw: bytes) -> None:
        """Store one message and record its UID as the last one, in one transaction."""
        with self.store.transaction():
            head = read(raw, headers_only=True)
            if not self.known(validity, uid, raw, head.message_id):
                intake.store_raw(self.store, raw, "imap", self.clock(), head=head,
                                  folder=self.key, uidvalidity=validity, uid=uid)
                self.stored += 1
            self.remember(validity, uid)

    def known(self, validity: int, uid: int, raw: bytes, message_id: str) -> bool:
        """Is this message stored already, under this UID, its Message-ID or its bytes?

        The Message-ID check (with the body, so a different mail reusing an id
        is still stored) is what makes a resync after a UIDVALIDITY change
        (even one interrupted halfway) store nothing twice; a message without
        a Message-ID is recognised by the digest of its bytes, which the
        delivering server's Received header makes unique to one delivery.
        """
        if self.store.one("SELECT id FROM inbox WHERE folder = ? AND uidvalidity = ? AND uid = ?",
                          [self.key, validity, uid]):
            return True
        if message_id:
            return self.store.one("SELECT id FROM inbox WHERE message_id = ? AND body_digest = ?",
                                  [message_id, body_digest(raw)]) is not None
        return self.store.one("SELECT id FROM inbox WHERE folder = ? AND digest = ?",
                              [self.key, raw_digest(raw)]) is not None

    def remember(self, validity: int, uid: int) -> None:
        """Record the folder's UIDVALIDITY and last UID (inside the caller's transaction)."""
        self.store.execute(
            "INSERT INTO imap_folders (folder, uidvalidity, last_uid) VALUES (?, ?, ?) "
            "ON CONFLICT (folder) DO UPDATE SET uidvalidity = excluded.uidvalidity, "
            "last_uid = excluded.last_uid", [self.key, validity, uid])

    def move(self, client: IMAPClient, uids: list[int]) -> None:
        """Move stored messages to the Processed folder (kept in place when it is "")."""
        if uids and self.part["processed"]:
            move(client, uids, self.part["processed"])

    def wait(self, client: IMAPClient) -> None:
        """Until new mail may be there: IDLE for at most idle_seconds, else a plain sleep."""
        if not client.has_capability("IDLE"):
            self.stop.wait(self.part["poll_seconds"])
            return
        client.idle()
        try:
            client.idle_check(timeout=self.part["idle_seconds"])
        finally:
            client.idle_done()


def bearer_only(client: IMAPClient) -> bool:
    """Does the server take OAUTHBEARER (RFC 7628) and not XOAUTH2?"""
    return client.has_capability("AUTH=OAUTHBEARER") and \
        not client.has_capability("AUTH=XOAUTH2")


def move(client: IMAPClient, uids: list[int], target: str) -> None:
    """MOVE messages, or COPY, flag \\Deleted and expunge them where MOVE is missing."""
    if client.has_capability("MOVE"):
        client.move(uids, target)
        return
    client.copy(uids, target)
    client.add_flags(uids, [b"\\Deleted"], silent=True)
    if client.has_capability("UIDPLUS"):
        client.uid_expunge(uids)
    else:
        client.expunge()

