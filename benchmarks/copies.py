"""Shared by the benchmarks: a database of many copies of one real game, and timed processes.

A real Auguste game is created once with `Referee.new_game`; its rows (game,
seats, events, snapshot) are copied under new ids, so building 10,000 games
takes seconds, and every copy is a game pbem reads exactly as the original.

The timing process imports nothing of pbem: what it measures runs in child
processes (a child's peak RSS starts from its parent's, so a parent that had
built the database would inflate it). `prepare` runs a builder in a child.
"""

from pathlib import Path
import os
import subprocess
import sys
import time

START = "2030-01-01T00:00:00Z"
SEATS = ("ann", "bob", "cat", "dan")
SETTINGS = ('db = "bench.db"\naddress = "pbem@bench.example"\n'
            '[mail]\nrate_per_hour = 1000000\n')


def build(folder: Path, games: int):
    """A pbem folder whose database holds games g0..g{games-1}, all at their first turn,
    every welcome mail already sent."""
    from pbem.app import Referee, SeatSpec
    from pbem.config import load
    from pbem.store import Store
    compile_like_an_install()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pbem.toml").write_text(SETTINGS, encoding="utf-8")
    config = load(str(folder / "pbem.toml"), env={})
    referee = Referee(Store(config.path("db")), config)
    seats = [SeatSpec(n, f"{n}@players.example") for n in SEATS]
    referee.new_game("auguste", "g0", seats, START, seed="bench")
    db = referee.store.db
    with referee.store.transaction():
        for table in ("games", "seats", "events", "snapshots"):
            key = "id" if table == "games" else "game"
            columns = [c.name for c in db[table].columns]
            chosen = ", ".join(f"? || substr({c}, 3)" if c == key else c for c in columns)
            for n in range(1, games):
                db.execute(f"INSERT INTO {table} ({', '.join(columns)}) "
                           f"SELECT {chosen} FROM {table} WHERE {key} = 'g0'", [f"g{n}"])
        db.execute("UPDATE outbox SET status = 'sent'")
    referee.store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return referee


def compile_like_an_install() -> None:
    """Byte-compile pbem and its games, as installing a copy of pbem does.

    An editable install (or a process told not to write bytecode) would
    otherwise compile every module in every process the benchmark times,
    which the floor, using only the standard library, never pays.
    """
    import compileall
    import pbem
    import pbem.games
    for package in (pbem, pbem.games):
        for folder in package.__path__:
            compileall.compile_dir(folder, quiet=2)


def timed(command: list[str], cwd: Path) -> tuple[float, float]:
    """Run a process to its end; return (wall seconds, its peak RSS in MB)."""
    return measured(command, cwd)[:2]


def measured(command: list[str], cwd: Path) -> tuple[float, float, float]:
    """Run a process to its end; return (wall seconds, its peak RSS in MB, its processor
    seconds, user and system)."""
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    _pid, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    out, err = process.stdout.read().decode(), process.stderr.read().decode()
    process.stdout.close()
    process.stderr.close()
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{out}{err}")
    return seconds, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime


def pbem(*args: str) -> list[str]:
    """The command line of a pbem command, as cron runs it."""
    return [sys.executable, "-m", "pbem", *args]


def median(values: list[float]) -> float:
    """The middle value (of an odd number of runs)."""
    return sorted(values)[len(values) // 2]


def prepare(script: str, *args: str) -> None:
    """Run `script --prepare ARGS` in a child process (the builder side of a benchmark)."""
    done = subprocess.run([sys.executable, script, "--prepare", *args], capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"preparing failed:\n{done.stdout}{done.stderr}")
