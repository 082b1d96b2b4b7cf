"""The embedded default: Maildir folders on local disk (the standard library's mailbox)."""

import hashlib
import mailbox
import os
from pathlib import Path


def folder(path: Path) -> mailbox.Maildir:
    """A Maildir at path, created (with tmp/, new/ and cur/) if missing."""
    for sub in ("tmp", "new", "cur"):
        (path / sub).mkdir(parents=True, exist_ok=True)
    return mailbox.Maildir(str(path), factory=None, create=False)


def new_messages(path: Path):
    """(key, raw bytes) of every message still in new/, oldest first.

    Oldest by the time the file was written, then by name: delivery agents'
    names do not sort in arrival order (their microseconds are not padded).
    A message gone meanwhile (another reader took it) is passed over.
    """
    folder(path)
    for name in arrivals(path / "new"):
        try:
            raw = (path / "new" / name).read_bytes()
        except FileNotFoundError:
            continue
        yield name, raw


def arrivals(new: Path) -> list[str]:
    """The names of the messages in a new/ folder, oldest first (hidden files left out)."""
    found = []
    with os.scandir(new) as entries:
        for entry in entries:
            if entry.name.startswith("."):
                continue
            try:
                found.append((entry.stat().st_mtime_ns, entry.name))
            except FileNotFoundError:
                continue
    return [name for _, name in sorted(found)]


def mark_read(path: Path, name: str) -> None:
    """Move a message from new/ to cur/ (flagged seen) once it is safely stored.

    One already moved (by another reader) is left where it is.
    """
    try:
        os.replace(path / "new" / name, path / "cur" / (name.split(":", 1)[0] + ":2,S"))
    except FileNotFoundError:
        pass


def deliver(path: Path, raw: bytes) -> str:
    """Put a raw message into a Maildir's new/ folder; return its key."""
    return folder(path).add(raw)


def key_for(number: int, message_id: str) -> str:
    """The fixed Maildir key of an outgoing mail: its queue number, then its Message-ID's hash.

    Keys sort in the order the mails were queued.
    """
    return f"{number:012d}.{hashlib.sha256(message_id.encode()).hexdigest()[:24]}.pbem"


def delivered(path: Path) -> set[str]:
    """The keys of the messages in a Maildir, unread (new/) or read (cur/)."""
    return set(os.listdir(path / "new")) | \
        {name.split(":", 1)[0] for name in os.listdir(path / "cur")}


def deliver_all(path: Path, mails) -> int:
    """Put each (key, raw message) into new/, unless it is there already; return how
    many were put.

    Each is written to tmp/, synced, then linked into new/, as Maildir wants: a
    reader never sees half a message, and a crash leaves each message whole or
    absent. The whole batch is written, then synced at once (one sync of the
    disks rather than one per file), then linked.
    """
    folder(path)
    there = delivered(path)
    written = []
    try:
        for key, raw in mails:
            if key in there:
                continue
            temporary = path / "tmp" / f"{key}.{os.getpid()}"
            handle = open(temporary, "wb")
            written.append((key, temporary, handle))
            handle.write(raw)
            handle.flush()
        if written:
            os.sync()
        put = 0
        for key, temporary, _handle in written:
            try:
                os.link(temporary, path / "new" / key)
                put += 1
            except FileExistsError:
                pass
        return put
    finally:
        for _key, temporary, handle in written:
            handle.close()
            temporary.unlink(missing_ok=True)
