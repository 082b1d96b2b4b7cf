"""What pbem makes is readable by the referee alone: it holds every game's secret seed and
every seat's code (the database, its backups, the mail folders and the mails in them).

Every command runs under the umask 0077, so whatever it creates is its owner's alone
(the public archive sets its own modes: it is meant to be read by all). On start, a
database, settings file or mail folder that others may read (copied in by hand, made by
an older pbem, restored with a plain ``cp``) is made private, and the referee told once.
"""

import logging
import os
from pathlib import Path
import stat

log = logging.getLogger(__name__)

UMASK = 0o077
OPEN = stat.S_IRWXG | stat.S_IRWXO  # the bits that let others in


def umask() -> int:
    """Make every file and folder created from now on private; the umask it had before."""
    return os.umask(UMASK)


def close_up(config) -> None:
    """Make the database (and its -wal and -shm), the settings file and the mail folders
    private where others may read them, saying so in one line."""
    db = config.path("db")
    files = [db, Path(f"{db}-wal"), Path(f"{db}-shm")]
    if config.source:
        files.append(Path(config.source))
    changed = [said for path in files if (said := shut(path))]
    for key in ("inbox", "outbox"):
        changed += shut_folder(config.path("mail", key))
    if changed:
        log.warning("others could read these, now only pbem's user can: %s", ", ".join(changed))


def shut(path: Path) -> str | None:
    """Take the others' bits off one file or folder; what was done, or None."""
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
        if not mode & OPEN:
            return None
        path.chmod(mode & ~OPEN)
    except OSError:  # gone meanwhile, or not ours: the command says what it cannot open
        return None
    return f"{path} (was {mode:04o})"


def shut_folder(folder: Path) -> list[str]:
    """A mail folder made private with everything in it, when it was open to others."""
    said = shut(folder)
    if said is None:
        return []
    for inside, folders, files in os.walk(folder):
        for name in folders + files:
            shut(Path(inside) / name)
    return [said + " and what is in it"]
