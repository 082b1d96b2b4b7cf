"""What `pbem replay --verify` costs, against the floor of folding the log with `apply` alone.

Builds one long Auguste game (bots move now and then, the legions mostly
hold, so the game lasts) straight through the engine and the store, then
times, interleaved and repeated:

- the floor: read the log and fold it with the engine's `fold` (the game's
  `apply`, the state kept in canonical key order after each event, as every
  load of a game does): no hashing, no re-resolution;
- pbem: `replay(..., verify=True)`, which also checks the hash chain, the
  state hash after every event, and re-derives every event from the
  recorded orders.

    python benchmarks/replay.py [--turns 1000] [--repeat 3]
"""

import argparse
from pathlib import Path
import statistics
import sys
import tempfile
import time

import pbem.games
from pbem.adjudicator import engine
from pbem.adjudicator.rng import PhaseRng
from pbem.app import Referee, SeatSpec
from pbem.config import load
from pbem.replay import replay
from pbem.store import Store, row_event
from pbem.timeutil import later

START = "2030-01-01T00:00:00Z"
SEED = "bench"


def build(folder: Path, turns: int, ruleset: str = "auguste", options: dict | None = None,
          playing: int = 40) -> Referee:
    """A database holding one game "g" of bots, its phases resolved straight through the
    engine and the store, `turns` of them (or fewer, if it ends). By default Auguste for
    four (options: max_turns), where a seat sends orders one phase in `playing`: the
    legions mostly hold, so the game lasts."""
    (folder / "pbem.toml").write_text('db = "bench.db"\n', encoding="utf-8")
    config = load(str(folder / "pbem.toml"), env={})
    referee = Referee(Store(config.path("db")), config)
    game = pbem.games.load(ruleset)
    seats = [SeatSpec(n, f"{n}@bench.example") for n in game.DEMO_SEATS]
    referee.new_game(ruleset, "g", seats, START,
                     {"max_turns": turns} if options is None else options, seed=SEED)
    now = START
    for phase in range(turns):
        with referee.store.transaction():
            table = referee.table("g")
            if table.state["engine"]["over"]:
                break
            given = {}
            for seat in sorted(table.state["engine"]["requests"]):
                rng = PhaseRng(SEED, f"bot:{seat}", phase)
                if rng.below(playing) == 0:
                    text = game.bot_orders(table.state["game"], seat, rng)
                    given[seat], _ = game.parse(table.state["game"], seat, text)
            now = later(now, 1)
            events = engine.close_phase(game, table.state, given, SEED)
            table = referee.record(table, events, now)
            referee.record(table, engine.after_resolution(game, table.state, now, SEED), now)
    return referee


def fold_floor(referee) -> tuple[float, int]:
    """Seconds to read the log and fold it (the engine's fold: apply, each state made
    canonical), and how many events."""
    game = pbem.games.load("auguste")
    started = time.perf_counter()
    events = [row_event(r) for r in referee.store.event_rows("g")]
    engine.fold(game, events)
    return time.perf_counter() - started, len(events)


def main(argv=None) -> int:
    """Build the game, then time the floor and pbem's replay, interleaved."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        referee = build(Path(folder), args.turns)
        turns = referee.table("g").state["game"]["turn"] - 1
        floors, pbems = [], []
        for _ in range(args.repeat):
            seconds, count = fold_floor(referee)
            floors.append(seconds)
            started = time.perf_counter()
            verdict = replay(referee.store, "g", verify=True)
            pbems.append(time.perf_counter() - started)
            assert verdict.ok, verdict.problems[:3]
        base, ours = statistics.median(floors), statistics.median(pbems)
        print(f"game: {turns} turns, {count} events")
        print(f"floor (read and fold the log):  {base * 1000:.0f} ms")
        print(f"pbem replay --verify:           {ours * 1000:.0f} ms ({ours / base:.1f}x floor)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
