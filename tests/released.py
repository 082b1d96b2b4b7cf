"""Games played by earlier releases, kept as fixtures: their logs must replay, byte for byte,
and the games must go on under this release's code (see docs/architecture.md, "Rules that
change").

A fixture is ``tests/released/<release>/<game>-<seed>.jsonl.gz``: JSON lines, the first the
game (its row, its seats, the release that played it and the hash of its last event), then
one line per event as the release recorded it (seq, type, payload, visible_to, at and the
state hash after it). The chain hashes are not kept: ``load`` makes them again from the
events, and the last one must be the hash the release recorded.

Each release adds a few demo games of every game it plays (some seeds, enough turns for
what its rules do that a later edition may change), made with that release's own pbem and
exported with this file, which needs only the standard library to export, so the
release's own Python runs it:

    pbem demo saga --seed a4 --turns 24 --dir /tmp/d
    python tests/released.py /tmp/d/demo.db demo 0.1.0 tests/released/0.1.0/saga-a4.jsonl.gz

0.1.0's: ``pbem demo`` of Auguste (seeds c1, c2, 10 turns), Attila (c1, c2, 2: games in
progress), SAGA (a4: a vassal's battle, disputed; a8: disputes with points; 24 turns) and
Seigneurs (b1, 6: famine on a village, village farms freed), and a Seigneurs game from a
position (p1: taxation of a village, an oven, growth from a village, a revolt freeing
village farms, a silent judge), played through the release's ``pbem submit`` path: a few
orders scripted, then its bots.
"""

import gzip
import json
from pathlib import Path
import sqlite3
import sys

HERE = Path(__file__).parent / "released"


def export(db: str, game_id: str, release: str, out: str) -> None:
    """Write one game of a database as a fixture."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    game = dict(conn.execute("SELECT id, ruleset, seed, created_at, last_hash FROM games "
                             "WHERE id = ?", [game_id]).fetchone())
    seats = [{key: row[key] for key in ("name", "email", "tz", "lang") if key in row.keys()}
             for row in conn.execute("SELECT * FROM seats WHERE game = ? ORDER BY position",
                                     [game_id])]
    lines = [{"release": release, "game": {k: game[k] for k in ("id", "ruleset", "seed",
                                                                "created_at")},
              "seats": seats, "last_hash": game["last_hash"]}]
    for row in conn.execute("SELECT seq, type, payload, visible_to, at, state_hash FROM events "
                            "WHERE game = ? ORDER BY seq", [game_id]):
        lines.append({"seq": row["seq"], "type": row["type"],
                      "payload": json.loads(row["payload"]),
                      "visible_to": json.loads(row["visible_to"]), "at": row["at"],
                      "state_hash": row["state_hash"]})
    text = "".join(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n"
                   for line in lines)
    with open(out, "wb") as f, gzip.GzipFile(fileobj=f, mode="wb", mtime=0) as packed:
        packed.write(text.encode("utf-8"))


def fixtures() -> list[Path]:
    """Every released game kept, oldest release first."""
    return sorted(HERE.glob("*/*.jsonl.gz"))


def read(path: Path) -> tuple[dict, list[dict]]:
    """(the game's head line, its events) of a fixture."""
    with gzip.open(path, "rt", encoding="utf-8") as f:
        lines = [json.loads(line) for line in f]
    return lines[0], lines[1:]


def load(referee, path: Path, upto: int | None = None) -> str:
    """Put a released game into a referee's database as its release left it, its events up
    to seq `upto` (all by default: a game in progress then, its phase open); its id.

    The events keep the state hashes the release recorded. No snapshot is saved: the next
    load folds the whole log with this release's code (an upgraded database loads the
    release's own snapshot, the same state).
    """
    from pbem.adjudicator import engine
    from pbem.adjudicator.contract import Event
    from pbem.identity import new_token
    import pbem.games

    head, rows = read(path)
    game_id, store = head["game"]["id"], referee.store
    events = [r for r in rows if upto is None or r["seq"] <= upto]
    with store.transaction():
        store.insert("games", head["game"])
        for position, seat in enumerate(head["seats"]):
            store.insert("seats", {**seat, "game": game_id, "position": position,
                                   "token": new_token(),
                                   "thread_id": f"<{game_id}.{seat['name']}@released.example>"})
        for at, group in at_once(events):
            store.append_events(game_id, [Event(r["type"], r["payload"], r["visible_to"])
                                          for r in group], [r["state_hash"] for r in group], at)
        row = store.game(game_id)
        if upto is None and row["last_hash"] != head["last_hash"]:
            raise ValueError(f"{path.name}: the chain does not end at the release's last hash")
        state = engine.fold(pbem.games.load(row["ruleset"]), [
            Event(r["type"], r["payload"], r["visible_to"]) for r in events])["engine"]
        store.update("games", {"id": game_id}, {
            "status": "over" if state["over"] else "running", "phase": state["phase"],
            "deadline": state["deadline"], "remind_at": state["remind_at"]})
        store.execute("UPDATE seats SET reported_seq = ? WHERE game = ?",
                      [row["last_seq"], game_id])
    return game_id


def at_once(rows: list[dict]):
    """The events in runs recorded at the same time: (at, [rows])."""
    runs = []
    for row in rows:
        if runs and runs[-1][0] == row["at"]:
            runs[-1][1].append(row)
        else:
            runs.append((row["at"], [row]))
    return runs


if __name__ == "__main__":
    export(*sys.argv[1:5])
