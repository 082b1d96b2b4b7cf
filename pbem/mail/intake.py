"""Storing a mail in the inbox, as it arrives, before anything else happens to it.

What receives mail (the Maildir and IMAP polls, pbem's SMTP server, `pbem
ingest`) stores it here whatever its bytes are; the tick reads and handles
it later (pbem/inbound.py). Storing loads nothing of what answers mail.
"""

from ..store import Store, body_digest, raw_digest
from .parse import Incoming


def ingest(store: Store, raw: bytes, source: str, now: str, **where) -> int:
    """Store a raw mail in the inbox, before anything else happens to it; return its id."""
    with store.transaction():
        return store_raw(store, raw, source, now, **where)


def store_raw(store: Store, raw: bytes, source: str, now: str, head: Incoming | None = None,
              **where) -> int:
    """Insert one inbox row inside the caller's transaction (whatever the bytes are).

    The mail is not read here: the tick reads it once, whole, and records its
    Message-ID and sender then. A caller that has read the headers already
    (IMAP, to recognise a message it stored before) gives them as `head`.
    """
    return store.insert("inbox", {
        "message_id": (head.message_id or None) if head else None, "source": source,
        "received_at": now, "raw": raw, "size": len(raw), "digest": raw_digest(raw),
        "body_digest": body_digest(raw), "sender": (head.sender or None) if head else None,
        "status": "new", **where,
    })
