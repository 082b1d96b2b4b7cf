"""`pbem poll`: bring new mail into the inbox, from the local Maildir or from IMAP."""

import sqlite3

from .. import inbound
from ..errors import PbemError
from . import maildir


def poll(referee, now: str | None, watch: bool = False) -> int:
    """Store every new message; return how many were stored.

    With `watch`, keep waiting for mail (IMAP only) until the process is
    stopped. `now` is the arrival time recorded for each mail; None means the
    real time of each.
    """
    if referee.config["imap"]["host"]:
        from . import imap
        return imap.poll(referee, now, watch=watch)
    if watch:
        raise PbemError("--watch needs an IMAP server ([imap] host); with the local Maildir, "
                        "run pbem poll from cron")
    return poll_maildir(referee, now)


def poll_maildir(referee, now: str) -> int:
    """Store each new Maildir message, then move it to cur/ (a re-run never stores it twice)."""
    path = referee.config.path("mail", "inbox")
    stored = 0
    for name, raw in maildir.new_messages(path):
        try:
            inbound.ingest(referee.store, raw, "maildir", now, source_key=name)
            stored += 1
        except sqlite3.IntegrityError:
            pass  # stored by an earlier run that stopped before moving the file
        maildir.mark_read(path, name)
    return stored
