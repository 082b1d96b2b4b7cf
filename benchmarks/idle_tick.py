"""How long an idle `pbem tick` takes over many running games.

Creates one real Auguste game, copies its rows to make N games (all with
future deadlines), then times ticks at a moment when nothing is due. The
design target is a fraction of a second for 10,000 games: the due-games
index answers without loading any game.

    python benchmarks/idle_tick.py [--games 10000] [--ticks 5]
"""

import argparse
from pathlib import Path
import sys
import tempfile
import time

from pbem.app import Referee, SeatSpec
from pbem.config import load
from pbem.store import Store


def build(folder: Path, games: int) -> Referee:
    """A database with `games` copies of one fresh Auguste game."""
    (folder / "pbem.toml").write_text('db = "bench.db"\n', encoding="utf-8")
    config = load(str(folder / "pbem.toml"), env={})
    referee = Referee(Store(config.path("db")), config)
    seats = [SeatSpec(n, f"{n}@bench.example") for n in ("ann", "bob", "cat", "dan")]
    referee.new_game("auguste", "g0", seats, "2030-01-01T00:00:00Z", seed="bench")
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
    return referee


def main(argv=None) -> int:
    """Build the database and time idle ticks."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--ticks", type=int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        referee = build(Path(folder), args.games)
        print(f"built {args.games} games in {time.perf_counter() - started:.1f} s")
        times = []
        for _ in range(args.ticks):
            started = time.perf_counter()
            report = referee.tick("2030-01-01T01:00:00Z")
            times.append(time.perf_counter() - started)
            assert not report.phases and not report.sent, "the benchmark tick was not idle"
        print(f"idle tick over {args.games} games: best {min(times) * 1000:.1f} ms, "
              f"worst {max(times) * 1000:.1f} ms ({args.ticks} ticks)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
