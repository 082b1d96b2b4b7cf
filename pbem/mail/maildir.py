"""The embedded default: Maildir folders on local disk (the standard library's mailbox)."""

import mailbox
import os
from pathlib import Path


def folder(path: Path) -> mailbox.Maildir:
    """A Maildir at path, created (with tmp/, new/ and cur/) if missing."""
    for sub in ("tmp", "new", "cur"):
        (path / sub).mkdir(parents=True, exist_ok=True)
    return mailbox.Maildir(str(path), factory=None, create=False)


def new_messages(path: Path):
    """(key, raw bytes) of every message still in new/, in file name order."""
    box = folder(path)
    for name in sorted(os.listdir(path / "new")):
        if not name.startswith("."):
            yield name, box.get_bytes(name.split(":", 1)[0])


def mark_read(path: Path, name: str) -> None:
    """Move a message from new/ to cur/ (flagged seen) once it is safely stored."""
    os.replace(path / "new" / name, path / "cur" / (name.split(":", 1)[0] + ":2,S"))


def deliver(path: Path, raw: bytes) -> str:
    """Put a raw message into a Maildir's new/ folder; return its key."""
    return folder(path).add(raw)
