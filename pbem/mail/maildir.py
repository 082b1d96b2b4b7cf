"""The embedded default: Maildir folders on local disk (the standard library's mailbox)."""

import hashlib
import mailbox
import os
from pathlib import Path
import re

from ..files import MAIL_BYTES


def folder(path: Path) -> mailbox.Maildir:
    """A Maildir at path, created (with tmp/, new/ and cur/) if missing."""
    for sub in ("tmp", "new", "cur"):
        (path / sub).mkdir(parents=True, exist_ok=True)
    return mailbox.Maildir(str(path), factory=None, create=False)


def new_messages(path: Path):
    """(key, raw bytes) of every message still in new/, oldest first.

    Oldest by the time the file was written, then by name: delivery agents'
    names do not sort in arrival order (their microseconds are not padded).
    A message gone meanwhile (another reader took it) is passed over. Of a
    message larger than MAIL_BYTES, only so much and one byte more is read: it
    is stored, and answered as too large, like any mail over [mail] max_bytes.
    """
    folder(path)
    for name in arrivals(path / "new"):
        try:
            with open(path / "new" / name, "rb") as handle:
                raw = handle.read(MAIL_BYTES + 1)
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


class Delivery:
    """A batch of mails put into a Maildir's new/ folder, but those there already.

    Each mail is written to tmp/ as it comes (the batch holds none in
    memory) and synced; `finish` links each into new/, as Maildir wants, then
    syncs new/ once: a reader never sees half a message, and a crash leaves
    each message whole or absent. What a killed run left in tmp/ is removed
    when the next batch starts (see `sweep`).
    """

    def __init__(self, path: Path):
        folder(path)
        self.path = path
        self.there = delivered(path)
        self.written = []
        sweep(path / "tmp")

    def add(self, key: str, raw: bytes) -> None:
        """Write one mail, to be put into new/ under `key` when the batch is finished."""
        if key in self.there:
            return
        temporary = self.path / "tmp" / f"{key}.{os.getpid()}"
        self.written.append((key, temporary))
        with open(temporary, "wb") as handle:
            handle.write(raw)
            handle.flush()
            os.fsync(handle.fileno())

    def finish(self) -> int:
        """Put each mail of the batch into new/ and sync the folder; return how many were
        put."""
        written, self.written = self.written, []
        try:
            put = 0
            for key, temporary in written:
                try:
                    os.link(temporary, self.path / "new" / key)
                    put += 1
                except FileExistsError:
                    pass
            if written:
                sync_folder(self.path / "new")
            return put
        finally:
            for _key, temporary in written:
                temporary.unlink(missing_ok=True)


def sync_folder(path: Path) -> None:
    """Make the names in a folder last (fsync of the folder itself)."""
    handle = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


# What Delivery writes in tmp/: a key (see key_for), then the writer's process id.
LEFTOVER = re.compile(r"^\d{12}\.[0-9a-f]{24}\.pbem\.(\d+)$")


def sweep(tmp: Path) -> int:
    """Remove the files a killed delivery left in tmp/; return how many.

    Only pbem's own files go, and only those of a process that is gone (or
    of this one: a process id used again): a mail another living process is
    writing stays. Their mails are still queued, so they are written again.
    """
    removed = 0
    with os.scandir(tmp) as entries:
        for entry in entries:
            found = LEFTOVER.match(entry.name)
            if found and not running_elsewhere(int(found.group(1))):
                try:
                    os.unlink(entry.path)
                    removed += 1
                except FileNotFoundError:
                    pass
    return removed


def running_elsewhere(pid: int) -> bool:
    """Is `pid` a living process other than this one? (Signal 0 only asks.)"""
    if pid == os.getpid() or not 0 < pid < 2 ** 31:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's
        return True
    return True
