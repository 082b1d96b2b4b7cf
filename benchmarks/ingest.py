"""What `pbem poll && pbem tick` costs on a batch of order mails, against a floor.

The floor: one Python process that parses each mail with the standard
library's email package and commits one SQLite row for it (one fsync per
mail). pbem: the real commands as cron runs them, `pbem poll` from the local
Maildir, then `pbem tick` (identity, orders recorded, acknowledgements
queued, due turns resolved and reported, the outbox delivered). Two scenarios:

- spread: one order mail to each of N four-seat games, so no turn is due;
- turns: four order mails to each of N/4 four-seat games, so every game's
  turn resolves and every seat gets its report. The games are copies of one
  game and every seat passes, so all their boards are alike and the board's
  PNG is drawn once in the run; each distinct board costs what
  benchmarks/boards.py prints for drawing one.

Each runs 3 times, interleaved with the floor, on fresh copies of the same
folder; the medians, their ratio and pbem's peak RSS are printed. Targets:
spread within 2x the floor, turns within 3x, peak RSS under 60 MB.

    python benchmarks/ingest.py [--mails 1000] [--runs 3] [--scenario spread|turns|both]
"""

import argparse
from pathlib import Path
import shutil
import sqlite3
import sys
import tempfile

from copies import SEATS, build, median, pbem, prepare, timed

NOW = "2030-01-01T01:00:00Z"
TARGETS = {"spread": 2.0, "turns": 3.0}
FLOOR = """
import email, os, sqlite3, sys
from email import policy
new = os.path.join(sys.argv[1], "new")
conn = sqlite3.connect(sys.argv[2], isolation_level=None)
conn.execute("PRAGMA journal_mode=WAL")
conn.execute("CREATE TABLE inbox (id INTEGER PRIMARY KEY, message_id TEXT, raw BLOB)")
for name in sorted(os.listdir(new)):
    with open(os.path.join(new, name), "rb") as handle:
        raw = handle.read()
    msg = email.message_from_bytes(raw, policy=policy.default)
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("INSERT INTO inbox (message_id, raw) VALUES (?, ?)", [msg["Message-ID"], raw])
    conn.execute("COMMIT")
"""


def order_mail(game: str, seat: dict, number: int) -> bytes:
    """A player's reply carrying orders, as a mail client writes it."""
    from pbem.identity import reply_address, subject_tag
    return (f"From: {seat['name']} <{seat['email']}>\r\n"
            f"To: {reply_address('pbem@bench.example', game, seat['token'])}\r\n"
            f"Subject: Re: {subject_tag(game, seat['token'])} Orders for turn 1.\r\n"
            f"Message-ID: <m{number}@players.example>\r\n"
            "Date: Tue, 01 Jan 2030 00:30:00 +0000\r\n"
            "Content-Type: text/plain; charset=utf-8\r\n\r\n"
            "pass\r\n\r\nOn Tue, pbem wrote:\r\n> ## pbem: write your reply above this line ##\r\n"
            + "> the last report, quoted\r\n" * 40).encode()


def games_for(scenario: str, mails: int) -> int:
    """How many games a scenario spreads its mails over."""
    return mails if scenario == "spread" else max(1, mails // len(SEATS))


def build_folder(folder: Path, scenario: str, mails: int) -> None:
    """The games, and the mails waiting in the Maildir inbox: mail i goes to game i
    (spread) or to seat i % 4 of game i // 4 (turns)."""
    referee = build(folder, games_for(scenario, mails))
    seats = referee.store.seats("g0")
    new = folder / "mail" / "inbox" / "new"
    for sub in ("tmp", "new", "cur"):
        (new.parent / sub).mkdir(parents=True, exist_ok=True)
    for i in range(mails):
        game = f"g{i}" if scenario == "spread" else f"g{i // len(SEATS)}"
        (new / f"{i:06d}.bench").write_bytes(order_mail(game, seats[i % len(SEATS)], i))


def counts(folder: Path) -> dict:
    """What the run left in the database: inbox rows by status, turns, mails delivered."""
    conn = sqlite3.connect(folder / "bench.db")
    inbox = dict(conn.execute("SELECT status, count(*) FROM inbox GROUP BY status"))
    turns = conn.execute("SELECT count(*) FROM games WHERE phase > 1").fetchone()[0]
    sent = conn.execute("SELECT count(*) FROM outbox WHERE status = 'sent' "
                        "AND sent_at = ?", [NOW]).fetchone()[0]
    conn.close()
    return {"inbox": inbox, "turns": turns, "sent": sent}


def run(scenario: str, mails: int, runs: int, root: Path) -> None:
    """Time pbem and the floor on fresh copies of one prepared folder, interleaved."""
    template = root / scenario
    prepare(__file__, str(template), "--scenario", scenario, "--mails", str(mails))
    times, floors, peak, seen = [], [], 0.0, None
    for n in range(runs):
        copy = root / f"{scenario}-{n}"
        shutil.copytree(template, copy)
        floor_db = root / f"floor-{scenario}-{n}.db"
        floors.append(timed([sys.executable, "-c", FLOOR, str(copy / "mail" / "inbox"),
                             str(floor_db)], root)[0])
        polled, rss_poll = timed(pbem("poll", "--now", NOW), copy)
        ticked, rss_tick = timed(pbem("tick", "--now", NOW), copy)
        times.append(polled + ticked)
        peak = max(peak, rss_poll, rss_tick)
        seen = counts(copy)
        assert seen["inbox"] == {"done": mails}, seen
        shutil.rmtree(copy)
    pbem_s, floor_s = median(times), median(floors)
    games = games_for(scenario, mails)
    print(f"{scenario}: {mails} mails to {games} games, {seen['turns']} turns resolved, "
          f"{seen['sent']} mails sent; median of {runs}:")
    print(f"  pbem poll && pbem tick {pbem_s:.2f} s, floor {floor_s:.2f} s, "
          f"ratio {pbem_s / floor_s:.1f}x (target <= {TARGETS[scenario]:g}x), "
          f"peak RSS {peak:.0f} MB")


def main(argv=None) -> int:
    """Prepare each scenario, then time it beside the floor."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mails", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--scenario", choices=("spread", "turns", "both"), default="both")
    parser.add_argument("--prepare", metavar="FOLDER", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.prepare:
        build_folder(Path(args.prepare), args.scenario, args.mails)
        return 0
    scenarios = ("spread", "turns") if args.scenario == "both" else (args.scenario,)
    with tempfile.TemporaryDirectory() as name:
        for scenario in scenarios:
            run(scenario, args.mails, args.runs, Path(name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
