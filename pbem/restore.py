"""`pbem restore BACKUP`: put a backup in the database's place, then read again the mail
received since the copy, so that the games go on as they went.

The copy is written into the database file by SQLite's backup (the file keeps its name,
its locks and its mode), after the database as it was is kept beside it. Then each mail
received since the copy that the mailbox still holds (the IMAP folder and its Processed
folder, or the local Maildir) is stored again, in the order it arrived, and handled at
its arrival time, after what fell due before it (a deadline, a reminder), as it was the
first time. Nothing is sent here: the
next tick or `pbem run` sends what these rounds wrote, each mail with the Message-ID it
had the first time (pbem/letters.py, `fixed_id`), which players' mail clients take for
the mail they have.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
import os
from pathlib import Path
import sqlite3

from .errors import PbemError
from .mail import intake
from .mail.parse import read
from .store import Store
from .timeutil import iso, parse_time

LOOK_BACK = timedelta(days=2)  # IMAP's SINCE counts whole days, in the server's zone


@dataclass
class Restored:
    """What a restore did."""

    kept: Path | None      # the database as it was, kept beside it (None: it held nothing)
    read_again: int        # mails received since the copy, stored and handled again
    source: str            # where they were read from


def put_back(path: Path, backup: Path) -> Path | None:
    """Copy `backup` into the database at `path` (PbemError when it is no pbem database);
    the database as it was is kept as PATH.before-restore first, unless it holds no game
    and no mail (a new server's). Returns that copy, or None."""
    try:
        copy = sqlite3.connect(f"file:{backup}?mode=ro", uri=True)
        copy.execute("SELECT name FROM _migrations LIMIT 1").fetchall()
    except sqlite3.Error as problem:
        raise PbemError(f"{backup} is no pbem database ({problem})") from None
    kept = Path(f"{path}.before-restore") if holds_anything(path) else None
    if kept:
        Store(path).backup(kept)
    target = sqlite3.connect(str(path), isolation_level=None)
    try:
        copy.backup(target)
    finally:
        target.close()
        copy.close()
    return kept


def holds_anything(path: Path) -> bool:
    """Does the database at `path` hold a game or a mail?"""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return any(db.execute(f"SELECT 1 FROM {table} LIMIT 1").fetchone()
                   for table in ("games", "inbox"))
    finally:
        db.close()


def last_arrival(backup: Path) -> str | None:
    """When the latest mail a backup holds arrived (None when it holds none)."""
    copy = sqlite3.connect(f"file:{backup}?mode=ro", uri=True)
    try:
        return copy.execute("SELECT max(received_at) FROM inbox").fetchone()[0]
    except sqlite3.Error as problem:
        raise PbemError(f"{backup} is no pbem database ({problem})") from None
    finally:
        copy.close()


def mailbox(referee, since: str | None) -> tuple[str, list]:
    """(where from, [(arrival time, Maildir key or None, raw mail)]) of the mails the
    mailbox holds that arrived from a little before `since` on, oldest first (many the
    database has already: `new_to`)."""
    if referee.config["imap"]["host"]:
        return imap_mails(referee, since)
    if (referee.config["run"]["source"] or "maildir") != "maildir":
        return "nowhere: pbem's own SMTP server keeps mail in the database alone", []
    folder = referee.config.path("mail", "inbox") / "cur"
    found = []
    for entry in (os.scandir(folder) if folder.is_dir() else []):
        if not entry.name.startswith("."):
            arrival = datetime.fromtimestamp(entry.stat().st_mtime, timezone.utc)
            found.append((iso(arrival), entry.name.split(":", 1)[0],
                          Path(entry.path).read_bytes()))
    return f"the Maildir {folder.parent}", sorted(found)


def imap_mails(referee, since: str | None) -> tuple[str, list]:
    """The mails of the IMAP folder and of its Processed folder, from a little before
    `since` on (IMAP's SINCE counts whole days)."""
    from .mail.imap import Poller
    from .timeutil import system_now
    part = referee.config["imap"]
    folders = list(dict.fromkeys(f for f in (part["processed"], part["folder"]) if f))
    found = []
    with Poller(referee, system_now).connect() as client:
        client.normalise_times = False
        for name in folders:
            if not client.folder_exists(name):
                continue
            client.select_folder(name, readonly=True)
            uids = sorted(client.search(["SINCE", (parse_time(since) - LOOK_BACK).date()]
                                        if since else ["ALL"]))
            for start in range(0, len(uids), 20):
                fetched = client.fetch(uids[start:start + 20], ["BODY.PEEK[]", "INTERNALDATE"])
                for uid in sorted(fetched):
                    at = fetched[uid][b"INTERNALDATE"].astimezone(timezone.utc)
                    found.append((iso(at), None, fetched[uid][b"BODY[]"]))
    return f"IMAP {part['host']} ({', '.join(folders)})", sorted(found, key=lambda m: m[0])


def new_to(referee, mails: list) -> list:
    """The mails the (restored) database does not have."""
    from .mail.imap import Poller
    from .timeutil import system_now
    store = referee.store
    poller = Poller(referee, system_now) if referee.config["imap"]["host"] else None
    fresh = []
    for at, key, raw in mails:
        if key is not None:
            known = store.one("SELECT 1 FROM inbox WHERE source = 'maildir' AND source_key = ?",
                              [key]) is not None
        else:
            known = poller.known(None, None, raw, read(raw, headers_only=True).message_id)
        if not known:
            fresh.append((at, key, raw))
    return fresh


def catch_up(referee, mails) -> None:
    """Each mail, in the order they arrived, as it went the first time: a round at its
    arrival time does what fell due before it, then it is stored and handled at that
    time. Nothing is sent."""
    store = referee.store
    for at, key, raw in mails:
        referee.round(at, send=False)
        with store.transaction():
            if key is not None:
                intake.store_raw(store, raw, "maildir", at, source_key=key)
            else:
                intake.store_raw(store, raw, "imap", at, head=read(raw, headers_only=True))
        referee.round(at, send=False)


def restore(referee, backup: Path) -> Restored:
    """Put `backup` in the database's place and read again the mail received since it was
    taken (the caller holds the run, tick and poll locks). The mailbox is read first, so a
    server that cannot be reached changes nothing."""
    where, mails = mailbox(referee, last_arrival(backup))
    path = Path(referee.store.path)
    kept = put_back(path, backup)
    from .app import Referee
    again = Referee(Store(path), referee.config)  # an older copy is upgraded here
    fresh = new_to(again, mails)
    catch_up(again, fresh)
    return Restored(kept, len(fresh), where)
