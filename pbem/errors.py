"""The errors pbem reports to the referee in plain words, each with the exit code it calls
for (see pbem/console.py)."""

import os


class PbemError(ValueError):
    """Something the referee asked for cannot be done; the message says why."""

    exit_code = 1


class TryLater(PbemError):
    """A failure that running the same command later may cure: a server down (exit 75)."""

    exit_code = os.EX_TEMPFAIL


class ServerDown(TryLater):
    """A mail server that fails for now (or its password or token program): an outage, said
    when it begins, once a day, and when it ends (pbem/outages.py)."""

    def __init__(self, message: str, server: str, where: str):
        super().__init__(message)
        self.server = server  # IMAP or SMTP
        self.where = where    # "IMAP imap.example.org:993"


class Misconfigured(PbemError):
    """A failure only new settings can cure: a login refused, a certificate not trusted
    (exit 78)."""

    exit_code = os.EX_CONFIG


def plainly(problem: BaseException) -> str:
    """What went wrong, in the words of the error itself: no class name, no bytes repr
    (``[AUTHENTICATIONFAILED] Authentication failed.``, ``Connection refused``)."""
    import re
    import socket
    if isinstance(problem, (socket.timeout, TimeoutError)) and not getattr(problem, "strerror",
                                                                            None):
        return "no answer in time"
    if isinstance(problem, OSError) and problem.strerror:
        text = problem.strerror
    else:
        parts = [arg.decode("utf-8", "replace") if isinstance(arg, bytes) else str(arg)
                 for arg in problem.args] or [str(problem)]
        text = " ".join(part for part in parts if part) if problem.args else str(problem)
    text = re.sub(r"\s*\(_ssl\.c:\d+\)", "", " ".join(text.split()))
    quoted = re.fullmatch(r"b(['\"])(.*)\1", text)  # str() of bytes, as imapclient gives it
    return (quoted.group(2) if quoted else text) or "the connection closed"


def disk_full(problem: BaseException, path) -> "TryLater | None":
    """The error for a failure to write `path` because its disk is full (SQLite says 'disk
    is full', or 'disk I/O error' when it could not even make its -wal or -shm file; the
    system says ENOSPC), or None when that is not why."""
    import errno
    import sqlite3
    if isinstance(problem, OSError):
        full = problem.errno in (errno.ENOSPC, errno.EDQUOT)
    elif isinstance(problem, sqlite3.Error):
        full = "is full" in str(problem) or ("I/O error" in str(problem) and no_room(path))
    else:
        full = False
    if not full:
        return None
    return TryLater(f"disk full: cannot write {path}; free some space, and the next run "
                    "goes on from where this one stopped")


def no_room(path) -> bool:
    """Is the disk that holds `path` full?"""
    from pathlib import Path
    try:
        found = os.statvfs(Path(path).parent)
    except OSError:
        return False
    return found.f_bavail * found.f_frsize < 64 * 1024
