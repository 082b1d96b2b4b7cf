"""One job (tick, poll, publish) at a time on a database file, whatever name reaches it.

Each job's lock is one byte of the database file itself, far past the bytes
SQLite locks (from 1 GiB on), taken as an open file description lock
(Linux's F_OFD_SETLK): the lock belongs to the file, so every path to it
shares it (symbolic links, hard links, another mount of the folder), and a
process that asks twice is refused the second time, like any other.

A descriptor of the database file is never closed while the process lives:
closing any descriptor of a file drops every POSIX lock the process holds on
it, SQLite's own included. The descriptors are kept and used again.

Where the system has no such locks, each job locks a file beside the real
database file (symbolic links resolved), which every path but a hard link
shares.
"""

from contextlib import contextmanager
import errno
import fcntl
import os
import struct

from .errors import TryLater

JOB_BYTES = {"tick": 2 ** 62, "poll": 2 ** 62 + 1, "publish": 2 ** 62 + 2}
# struct flock: l_type, l_whence, l_start, l_len, l_pid, as the C compiler lays it out.
FLOCK = struct.Struct("hhqqi")
PADDING = b"\0" * (-FLOCK.size % struct.calcsize("q"))
BUSY = (errno.EAGAIN, errno.EACCES)
_idle: dict[tuple[int, int], list[int]] = {}  # (st_dev, st_ino): descriptors not in use


@contextmanager
def job_lock(db_path: str, job: str):
    """Hold `job`'s lock on the database file at `db_path` while the block runs.

    A second holder, through any path, stops at once with TryLater (exit 75: cron's next
    run will do).
    """
    real = os.path.realpath(db_path)
    if not hasattr(fcntl, "F_OFD_SETLK"):
        with beside(real, job):
            yield
        return
    identity, handle = descriptor(real)
    try:
        byte_lock(handle, fcntl.F_WRLCK, JOB_BYTES[job])
    except OSError as problem:
        _idle.setdefault(identity, []).append(handle)
        if problem.errno in BUSY:
            raise TryLater(f"another pbem {job} is running on this database ({real})") \
                from None
        raise
    try:
        yield
    finally:
        byte_lock(handle, fcntl.F_UNLCK, JOB_BYTES[job])
        _idle.setdefault(identity, []).append(handle)


def descriptor(path: str) -> tuple[tuple[int, int], int]:
    """(the file's identity, a descriptor of it no lock of this process uses now)."""
    found = os.stat(path)
    identity = (found.st_dev, found.st_ino)
    if _idle.get(identity):
        return identity, _idle[identity].pop()
    handle = os.open(path, os.O_RDWR | os.O_CLOEXEC)
    found = os.fstat(handle)  # the file opened, should the name have moved meanwhile
    return (found.st_dev, found.st_ino), handle


def byte_lock(handle: int, kind: int, byte: int) -> None:
    """Take (F_WRLCK) or drop (F_UNLCK) an open file description lock on one byte, at once."""
    fcntl.fcntl(handle, fcntl.F_OFD_SETLK,
                FLOCK.pack(kind, os.SEEK_SET, byte, 1, 0) + PADDING)


@contextmanager
def beside(real: str, job: str):
    """The lock of a file beside the database file, for systems without byte locks."""
    with open(f"{real}.{job}-lock", "a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise TryLater(f"another pbem {job} is running on this database ({real})") \
                from None
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
