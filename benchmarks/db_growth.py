"""How much the database grows per game-turn: a 4-seat Auguste game played by bots.

Each turn every seat asked sends the bot's orders (as the referee would type
them in, so each is answered), then a tick resolves the turn and queues the
reports. pbem's figure: the bytes of database pages in use, after the game
is created and after the last turn, per turn. The floor, measured in the
same run: the same events, and one plain text report per seat and turn (the
text part of pbem's own report), stored as rows of a bare SQLite file. The
target is 25 kB a turn.

    python benchmarks/db_growth.py [--turns 20]
"""

import argparse
import email
from email import policy
from pathlib import Path
import sqlite3
import sys
import tempfile

import pbem.games
from pbem import inbound
from pbem.adjudicator.rng import PhaseRng
from pbem.app import Referee, SeatSpec
from pbem.config import load
from pbem.store import Store
from pbem.timeutil import later

START = "2030-01-01T00:00:00Z"
SEATS = ("ann", "bob", "cat", "dan")


def used(conn) -> int:
    """Bytes of the database's pages in use (the WAL folded in first)."""
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    free = conn.execute("PRAGMA freelist_count").fetchone()[0]
    return (pages - free) * conn.execute("PRAGMA page_size").fetchone()[0]


def play(folder: Path, turns: int) -> tuple[Referee, int, int]:
    """A game played `turns` turns; (referee, bytes after creating it, after the turns)."""
    (folder / "pbem.toml").write_text('db = "bench.db"\naddress = "pbem@bench.example"\n',
                                      encoding="utf-8")
    config = load(str(folder / "pbem.toml"), env={})
    referee = Referee(Store(config.path("db")), config)
    referee.new_game("auguste", "g", [SeatSpec(n, f"{n}@bench.example") for n in SEATS],
                     START, {"max_turns": turns + 1}, seed="bench")
    created = used(referee.store.db.conn)
    game, now = pbem.games.load("auguste"), START
    for turn in range(turns):
        table = referee.table("g")
        for seat in sorted(table.state["engine"]["requests"]):
            rng = PhaseRng("bench", f"bot:{seat}", turn)
            inbound.submit(referee, "g", seat, game.bot_orders(table.state["game"], seat, rng),
                           now)
        now = later(now, 1)
        referee.tick(now, send=False)
    return referee, created, used(referee.store.db.conn)


def floor(folder: Path, referee: Referee) -> tuple[int, int]:
    """The bare file: (bytes with the creation's events, bytes with every turn's events and
    one text report per seat and turn)."""
    conn = sqlite3.connect(folder / "floor.db", isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE events (game TEXT, seq INTEGER, type TEXT, payload TEXT, "
                 "visible_to TEXT, PRIMARY KEY (game, seq))")
    conn.execute("CREATE TABLE reports (id INTEGER PRIMARY KEY, seat TEXT, text TEXT)")
    store = referee.store
    first = store.one("SELECT MIN(seq) AS seq FROM events WHERE type = 'orders_set'")["seq"]
    events = store.all("SELECT game, seq, type, payload, visible_to FROM events ORDER BY seq")
    insert = "INSERT INTO events VALUES (:game, :seq, :type, :payload, :visible_to)"
    conn.execute("BEGIN")
    conn.executemany(insert, [e for e in events if e["seq"] < first])
    conn.execute("COMMIT")
    created = used(conn)
    conn.execute("BEGIN")
    conn.executemany(insert, [e for e in events if e["seq"] >= first])
    for row in store.all("SELECT * FROM outbox WHERE kind = 'report' ORDER BY id"):
        msg = email.message_from_bytes(store.outbox_mail(row), policy=policy.default)
        conn.execute("INSERT INTO reports (seat, text) VALUES (?, ?)",
                     [row["seat"], msg.get_body(preferencelist=("plain",)).get_content()])
    conn.execute("COMMIT")
    return created, used(conn)


def main(argv=None) -> int:
    """Play the game, store the floor, print both growths per turn."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=20)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        referee, created, played = play(folder, args.turns)
        turns = referee.table("g").state["game"]["turn"] - 1
        base_created, base_played = floor(folder, referee)
        ours, base = (played - created) / turns, (base_played - base_created) / turns
        print(f"game: 4-seat Auguste, {turns} turns played by bots")
        print(f"floor (events + one text report per seat): {base / 1000:.1f} kB/turn")
        print(f"pbem database growth:                      {ours / 1000:.1f} kB/turn "
              f"({ours / base:.1f}x floor; target 25 kB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
