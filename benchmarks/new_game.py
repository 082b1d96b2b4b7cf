"""What creating one 4-seat Auguste game costs, in time and in database bytes.

pbem: `Referee.new_game` (the seats, the creation events, the snapshot, a
welcome mail to each seat with the board and the rules in short), in a
process that has created one game already (templates compiled), each game
with its own seed. The floor, measured in the same run and interleaved:
inserting the same seats and events rows with sqlite3 in one transaction.
Medians; the target is 50 ms and 60 kB.

    python benchmarks/new_game.py [--games 7]
"""

import argparse
from pathlib import Path
import sqlite3
import statistics
import sys
import tempfile
import time

from pbem.app import Referee, SeatSpec
from pbem.config import load
from pbem.store import Store

START = "2030-01-01T00:00:00Z"
SEATS = [SeatSpec(n, f"{n}@bench.example") for n in ("ann", "bob", "cat", "dan")]


def used(conn) -> int:
    """Bytes of the database's pages in use (the WAL folded in first)."""
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    free = conn.execute("PRAGMA freelist_count").fetchone()[0]
    return (pages - free) * conn.execute("PRAGMA page_size").fetchone()[0]


def pbem_game(referee: Referee, game_id: str) -> tuple[float, int]:
    """Seconds and database bytes to create one game."""
    before = used(referee.store.db.conn)
    started = time.perf_counter()
    referee.new_game("auguste", game_id, SEATS, START, seed=game_id)
    seconds = time.perf_counter() - started
    return seconds, used(referee.store.db.conn) - before


def floor_game(conn, referee: Referee, game_id: str) -> tuple[float, int]:
    """Seconds and bytes to insert the same seats and events rows in one transaction."""
    seats = referee.store.seats(game_id)
    events = referee.store.all("SELECT * FROM events WHERE game = ? ORDER BY seq", [game_id])
    before = used(conn)
    started = time.perf_counter()
    conn.execute("BEGIN")
    conn.executemany("INSERT INTO seats VALUES (:game, :name, :email, :token, :thread_id)",
                     seats)
    conn.executemany("INSERT INTO events VALUES (:game, :seq, :type, :payload, :visible_to, "
                     ":at, :hash)", events)
    conn.execute("COMMIT")
    return time.perf_counter() - started, used(conn) - before


def main(argv=None) -> int:
    """Create the games, pbem's and the floor's interleaved; print the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=7)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        (folder / "pbem.toml").write_text('db = "bench.db"\naddress = "pbem@bench.example"\n',
                                          encoding="utf-8")
        config = load(str(folder / "pbem.toml"), env={})
        referee = Referee(Store(config.path("db")), config)
        first, _ = pbem_game(referee, "warm")
        conn = sqlite3.connect(folder / "floor.db", isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("CREATE TABLE seats (game TEXT, name TEXT, email TEXT, token TEXT, "
                     "thread_id TEXT, PRIMARY KEY (game, name))")
        conn.execute("CREATE TABLE events (game TEXT, seq INTEGER, type TEXT, payload TEXT, "
                     "visible_to TEXT, at TEXT, hash TEXT, PRIMARY KEY (game, seq))")
        ours, base = [], []
        for number in range(args.games):
            ours.append(pbem_game(referee, f"g{number}"))
            base.append(floor_game(conn, referee, f"g{number}"))
        seconds, size = (statistics.median(x) for x in zip(*ours))
        floor_seconds, floor_size = (statistics.median(x) for x in zip(*base))
        print(f"4-seat Auguste, median of {args.games} games "
              f"(the first game of the process: {first * 1000:.0f} ms)")
        print(f"floor (seats + events rows, one transaction): {floor_seconds * 1000:.1f} ms, "
              f"{floor_size / 1000:.1f} kB")
        print(f"pbem new game:                                {seconds * 1000:.1f} ms, "
              f"{size / 1000:.1f} kB ({seconds / floor_seconds:.0f}x, "
              f"{size / floor_size:.1f}x floor; target 50 ms, 60 kB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
