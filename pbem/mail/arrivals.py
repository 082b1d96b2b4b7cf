"""Where `pbem run` takes its mail from: an IMAP folder, pbem's SMTP server, or a Maildir.

Each source stores every mail as it arrives, exactly as `pbem poll` and
`pbem smtpd` do (stored first, then moved or answered 250), on a database
connection and in a thread of its own, and calls `arrived` after each mail
it stored, so the referee handles it at once. A failure that only new
settings can cure (a refused login, an address it cannot listen on) is kept
in `problem`, and `arrived` is called so that the referee sees it.
"""

from contextlib import ExitStack
import logging
import sqlite3
import threading

from ..config import SOURCES, ConfigError
from ..errors import PbemError, disk_full
from ..timeutil import iso

log = logging.getLogger(__name__)


def source_for(config, name: str, clock, listen: str | None = None):
    """The source called `name` (empty: IMAP when [imap] host is set, else the Maildir)."""
    name = name or ("imap" if config["imap"]["host"] else "maildir")
    if name == "imap":
        if not config["imap"]["host"]:
            raise ConfigError("[imap] host is not set: pbem run --source imap reads mail "
                              "from an IMAP server")
        return ImapSource(config, clock)
    if name == "smtpd":
        return SmtpdSource(config, clock, listen or config["smtpd"]["listen"])
    if name == "maildir":
        return MaildirSource(config, clock)
    raise ConfigError(f"[run] source = {name!r}: use {', '.join(SOURCES)} (or leave it empty)")


class Watcher:
    """A source that runs in a thread of its own until `stop`."""

    def __init__(self, config, clock):
        self.config = config
        self.clock = clock
        self.problem: Exception | None = None
        self.stopping = threading.Event()
        self.thread = None

    def start(self, arrived) -> None:
        """Start receiving; `arrived` is called after each mail stored."""
        self.thread = threading.Thread(target=self.guarded, args=(arrived,),
                                       name=f"pbem-{type(self).__name__}", daemon=True)
        self.thread.start()

    def guarded(self, arrived) -> None:
        """Receive until stopped; keep the failure that ends it, and say so."""
        try:
            self.receive(arrived)
        except (PbemError, ConfigError) as problem:
            self.problem = problem
        except Exception as problem:  # reported by the referee's loop, which then stops
            self.problem = PbemError(f"{self.describe()}: {type(problem).__name__}: "
                                     f"{problem}")
        finally:
            if not self.stopping.is_set():
                arrived()

    def referee(self):
        """A Referee on a connection of this thread's own."""
        from ..app import Referee
        from ..store import Store
        return Referee(Store(self.config.path("db")), self.config)

    def now(self) -> str:
        """The time recorded as a mail's arrival."""
        return iso(self.clock())

    def receive(self, arrived) -> None:
        """Store mail as it arrives until `stopping` is set (in the source's thread)."""
        raise NotImplementedError

    def stop(self) -> None:
        """Stop receiving; a mail being stored is stored first."""
        self.stopping.set()
        if self.thread is not None:
            self.thread.join(timeout=30)


class ImapSource(Watcher):
    """The IMAP folder, watched with IDLE (pbem/mail/imap.py), reconnecting after failures."""

    def __init__(self, config, clock):
        super().__init__(config, clock)
        self.poller = None
        self.ready = threading.Event()

    def describe(self) -> str:
        """Where the mail comes from, for the log."""
        part = self.config["imap"]
        return f"IMAP {part['user']}@{part['host']}/{part['folder']}"

    def receive(self, arrived) -> None:
        from .imap import Poller
        try:
            self.poller = Poller(self.referee(), self.now)
        finally:
            self.ready.set()
        self.poller.watch(self.stopping, arrived)

    def stop(self) -> None:
        self.ready.wait(timeout=30)
        if self.poller is not None:
            self.poller.interrupt()
        super().stop()


class MaildirSource(Watcher):
    """The local Maildir, looked at every ``[run] maildir_seconds``."""

    def describe(self) -> str:
        """Where the mail comes from, for the log."""
        return f"the Maildir {self.config.path('mail', 'inbox')}"

    def receive(self, arrived) -> None:
        from .fetch import poll_maildir
        referee = self.referee()
        while not self.stopping.is_set():
            try:
                if poll_maildir(referee, self.now()):
                    arrived()
            except (OSError, sqlite3.OperationalError) as problem:  # a full disk, a long lock
                log.warning("%s: %s; looking again", self.describe(),
                            disk_full(problem, referee.store.path) or problem)
            self.stopping.wait(self.config["run"]["maildir_seconds"])


class SmtpdSource:
    """pbem's own SMTP server (pbem/mail/smtpd.py), which stores each mail before its 250."""

    problem = None  # a server that cannot listen fails at start

    def __init__(self, config, clock, listen: str):
        self.config = config
        self.clock = clock
        self.listen = listen
        self.server = ExitStack()

    def describe(self) -> str:
        """Where the mail comes from, for the log."""
        return f"SMTP on {self.listen}"

    def start(self, arrived) -> None:
        """Listen; PbemError when the address cannot be listened on."""
        from . import smtpd
        smtpd.server_log()
        try:
            self.server.enter_context(smtpd.running(self.config, self.listen,
                                                    lambda: iso(self.clock()), arrived))
        except OSError as problem:
            raise PbemError(f"cannot listen on {self.listen}: {problem}") from None

    def stop(self) -> None:
        """Stop listening (a mail being stored is stored, and answered, first)."""
        self.server.close()
