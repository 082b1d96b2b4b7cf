"""How long a whole `pbem tick` process takes when nothing is due, over many games.

Builds N running games (copies of one real Auguste game, deadlines in the
future), then times, interleaved, the real command as cron runs it
(`python -m pbem tick`) and the floor: a Python process that opens the same
database and asks the due-games query. Prints the medians, the ratio, and the
tick's peak RSS. The target: the whole process within 0.2 s for 10,000 games.

    python benchmarks/idle_tick.py [--games 10000] [--ticks 5]
"""

import argparse
from pathlib import Path
import sys
import tempfile

from copies import build, median, pbem, prepare, timed

NOW = "2030-01-01T01:00:00Z"
FLOOR = f"""
import sqlite3
conn = sqlite3.connect("bench.db", isolation_level=None)
conn.execute("PRAGMA journal_mode=WAL")
due = conn.execute(
    "SELECT id FROM games WHERE status = 'running' AND deadline <= ? "
    "UNION SELECT id FROM games WHERE status = 'running' AND dirty = 1 "
    "UNION SELECT id FROM games WHERE status = 'running' AND remind_at <= ? "
    "AND reminded_phase < phase ORDER BY id", ["{NOW}", "{NOW}"]).fetchall()
assert not due
"""


def main(argv=None) -> int:
    """Build the database, then time idle ticks beside the floor."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--ticks", type=int, default=5)
    parser.add_argument("--prepare", metavar="FOLDER", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.prepare:
        build(Path(args.prepare), args.games)
        return 0
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        prepare(__file__, name, "--games", str(args.games))
        ticks, floors, peak = [], [], 0.0
        for _ in range(args.ticks):
            floors.append(timed([sys.executable, "-c", FLOOR], folder)[0])
            seconds, rss = timed(pbem("tick", "--now", NOW), folder)
            ticks.append(seconds)
            peak = max(peak, rss)
        tick, base = median(ticks), median(floors)
        print(f"idle tick over {args.games} games, median of {args.ticks} processes:")
        print(f"  pbem tick {tick * 1000:.0f} ms, floor {base * 1000:.0f} ms, "
              f"ratio {tick / base:.1f}x, peak RSS {peak:.0f} MB (target: tick <= 200 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
