"""`pbem run`: one long-running process that referees each mail as it arrives.

A source (pbem/mail/arrivals.py: IMAP IDLE, pbem's SMTP server, or the local
Maildir) stores each mail in a thread of its own and rings; the main thread
then does what a tick does, in the same short transactions: handle the mail,
resolve the turns it completes, send the answers. Between mails it sleeps
until the next due time the store's indexes give (a deadline, a reminder, a
mail to retry, the referee's digest), and every few seconds reads SQLite's
change counter, so what another process did (`pbem new`, `pbem extend`) is
acted on at once too. Work that stays due after a round (a mail server that
cannot be reached, a game that fails) is tried again after a growing pause.

It holds the database's tick and poll locks while it runs: a second `pbem
run`, or a tick or poll from cron, says so and stops. SIGTERM or Ctrl-C: the
mail in hand is finished (and the mail being sent), what else was queued
waits for the next start, and it exits.
"""

from datetime import datetime, timezone
import importlib
import logging
import os
import select
import signal
import time

from .app import poll_lock, tick_lock
from .errors import disk_full
from .locks import job_lock
from .timeutil import iso, parse_time

log = logging.getLogger(__name__)

LOOK_SECONDS = 2.0     # how often the database's change counter is read
LATE_SECONDS = 0.01    # wake this long after a due time, never just before it
PAUSE_FIRST, PAUSE_MAX = 1.0, 300.0  # seconds before work that stayed due is tried again
WARM = ("pbem.inbound", "pbem.letters", "pbem.mail.outbox")


def real_time() -> datetime:
    """The current UTC time."""
    return datetime.now(timezone.utc)


class Bell:
    """What the main thread sleeps on: a pipe that sources and signals write a byte to."""

    def __init__(self):
        self.inside, self.outside = os.pipe()
        os.set_blocking(self.inside, False)
        os.set_blocking(self.outside, False)

    def ring(self) -> None:
        """Wake the sleeper (from any thread, or a signal handler)."""
        try:
            os.write(self.outside, b".")
        except BlockingIOError:
            pass  # rung many times already: one wake-up is enough

    def sleep(self, seconds: float) -> bool:
        """Sleep until rung or for `seconds`; True when rung."""
        rung, _, _ = select.select([self.inside], [], [], max(0.0, seconds))
        if rung:
            try:
                while os.read(self.inside, 512):
                    pass
            except BlockingIOError:
                pass
        return bool(rung)

    def close(self) -> None:
        """Close the pipe."""
        os.close(self.inside)
        os.close(self.outside)


class Service:
    """A referee's database, served until a signal: its mail source and its rounds."""

    def __init__(self, referee, source, clock=real_time):
        self.referee = referee
        self.source = source
        self.clock = clock
        self.bell = Bell()
        self.stopping = False
        self.pause = 0.0
        self.resume_at = 0.0  # time.monotonic() before which work that stayed due waits

    def run(self) -> None:
        """Serve until SIGTERM or SIGINT; TryLater when another pbem holds the database,
        the source's own error (Misconfigured, PbemError) when it fails for good."""
        path = self.referee.store.path
        with job_lock(path, "run"), tick_lock(path), poll_lock(path):
            warm_up()
            handlers = {number: signal.signal(number, self.on_signal)
                        for number in (signal.SIGTERM, signal.SIGINT)}
            try:
                self.source.start(self.bell.ring)
                log.info("pbem run: mail from %s, database %s", self.source.describe(), path)
                try:
                    self.serve()
                finally:
                    self.source.stop()
            finally:
                for number, handler in handlers.items():
                    signal.signal(number, handler)
                self.bell.close()

    def on_signal(self, number, frame) -> None:
        """SIGTERM, SIGINT: finish the mail in hand, then stop (the queue waits)."""
        self.stopping = True
        self.bell.ring()

    def serve(self) -> None:
        """A round, then rest until the next one, until stopped."""
        while not self.stopping:
            if self.source.problem is not None:
                raise self.source.problem
            self.round()
            self.rest()

    def round(self) -> None:
        """Do what a tick does, now; a failure is logged and tried again later."""
        try:
            report = self.referee.round(iso(self.clock()), stop=lambda: self.stopping)
        except Exception as problem:  # one game or one server never stops the others' turns
            log.error("this round stopped: %s", disk_full(problem, self.referee.store.path)
                      or f"{type(problem).__name__}: {problem}")
            log.debug("the round's failure", exc_info=True)
            return
        for line in report.trouble():
            log.warning(line)
        if report.down is not None or report.recovered:  # no one reads the log: mail it
            self.tell_referee(report)
        if report.mails_read or report.started or report.phases or report.reminders \
                or report.sent or report.failed or report.published:
            log.info("; ".join(line for line in report.lines() if not line.endswith(": 0")))

    def tell_referee(self, report) -> None:
        """Mail the referee that the SMTP server fails (when the outage begins, and once a
        day), or works again; the mail goes out when the server takes mail again."""
        from . import outages
        now = iso(self.clock())
        if report.down is not None:
            line = outages.begun_line(str(report.down),
                                      outages.since(self.referee.store, "SMTP") or now, now)
            outages.mail_referee(self.referee, f"{report.down.where} fails", line, now)
        else:
            outages.mail_referee(self.referee, f"{self.referee.sending_to()} works again",
                                 report.recovered, now)

    def rest(self) -> None:
        """Sleep until mail arrives, the next due time comes, or another process changes the
        database in a way that makes something due."""
        seen = self.changes()
        wake = self.next_wake()
        while not self.stopping:
            left = wake - time.monotonic()
            if left <= 0 or self.bell.sleep(min(left, LOOK_SECONDS)):
                return
            if self.changes() != seen:
                seen = self.changes()
                wake = min(wake, self.next_wake(settled=False))

    def next_wake(self, settled: bool = True) -> float:
        """The time.monotonic() of the next round: the next due time, or, when something
        stayed due through the round just done (`settled`), a pause that grows each time."""
        now = self.clock()
        due = self.referee.next_due(iso(now))
        if due is not None and due <= iso(now):
            if settled:
                self.pause = min(self.pause * 2, PAUSE_MAX) if self.pause else PAUSE_FIRST
                self.resume_at = time.monotonic() + self.pause
            return self.resume_at
        if settled:
            self.pause = 0.0
        if due is None:
            return float("inf")
        wait = (parse_time(due) - now).total_seconds() + LATE_SECONDS
        return max(time.monotonic() + wait, self.resume_at)

    def changes(self) -> int:
        """SQLite's change counter: it moves when another connection commits."""
        return self.referee.store.execute("PRAGMA data_version").fetchone()[0]


def warm_up() -> None:
    """Load what answering mail needs before the first mail comes, not while it waits."""
    for name in WARM:
        importlib.import_module(name)
