"""`pbem poll`: bring new mail into the inbox, from the local Maildir or from IMAP."""

import sqlite3

from .. import inbound
from . import maildir


def poll(referee, now: str, watch: bool = False) -> int:
    """Store every new message; return how many were stored."""
    if referee.config["imap"]["host"]:
        from . import imap
        return imap.poll(referee, now, watch=watch)
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
