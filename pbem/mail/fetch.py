"""`pbem poll`: bring new mail into the inbox, from the local Maildir or from IMAP."""

from ..errors import PbemError
from . import intake, maildir


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
    """Store each new Maildir message, then move it to cur/ (a re-run never stores it twice).

    Messages are stored in batches, one transaction (one sync) each, and moved
    only once their batch is committed; a message already stored by a run that
    stopped before moving it is not stored again.
    """
    path = referee.config.path("mail", "inbox")
    stored = 0
    batch, size = [], 0
    for name, raw in maildir.new_messages(path):
        batch.append((name, raw))
        size += len(raw)
        if len(batch) >= BATCH_MAILS or size >= BATCH_BYTES:
            stored += store_batch(referee, path, batch, now)
            batch, size = [], 0
    return stored + store_batch(referee, path, batch, now)


# A batch of the Maildir poll: at most this many messages, or about this many bytes.
BATCH_MAILS = 200
BATCH_BYTES = 8_000_000


def store_batch(referee, path, batch: list[tuple[str, bytes]], now: str) -> int:
    """Store a batch of (name, raw) in one transaction, then move each to cur/; return how
    many were new to the inbox."""
    store, stored = referee.store, 0
    if batch:
        with store.transaction():
            for name, raw in batch:
                if store.one("SELECT 1 FROM inbox WHERE source = 'maildir' AND source_key = ?",
                             [name]) is None:
                    intake.store_raw(store, raw, "maildir", now, source_key=name)
                    stored += 1
    for name, _raw in batch:
        maildir.mark_read(path, name)
    return stored
