"""What resolving a long Diplomacy game costs, phase by phase, against the floor of folding
its log.

Builds one game of seven bots, a hundred years long unless a power wins
first, straight through the engine and the store (every bot's mail read by
the real parser, every phase resolved by the real adjudicator, the events
recorded with their hashes), then times, interleaved and repeated:

- the floor: read the log and fold it with the engine's `fold` (the game's
  `apply`, the state kept in canonical key order after each event, as every
  load of a game does): no adjudication;
- pbem's resolution: the game's `resolve` on each phase's recorded orders,
  from the state before it (what a tick does when a phase is due);
- pbem: `replay(..., verify=True)`, which checks the hash chain, the state
  hash after every event, and re-derives every event from the orders.

    python benchmarks/diplomacy_game.py [--years 100] [--repeat 3]
"""

import argparse
from pathlib import Path
import statistics
import sys
import tempfile
import time

import pbem.games
from pbem.adjudicator import engine
from pbem.adjudicator.contract import plain_copy
from pbem.replay import replay
from pbem.store import row_event

from replay import SEED, build

PHASES = 10_000  # far more than a hundred years' phases: the game ends by its own rules


def phases_of(referee) -> list[tuple]:
    """(the state before each phase was resolved, its recorded orders, its stream's phase)."""
    game = pbem.games.load("diplomacy")
    state, out = engine.new_state(), []
    for row in referee.store.event_rows("g"):
        event = row_event(row)
        if event.type == "orders_set":
            out.append((plain_copy(state), event.payload["orders"]))
        state, _hash = engine.step(game, state, event)
    return out


def fold_floor(referee) -> tuple[float, int]:
    """Seconds to read the log and fold it, and how many events."""
    game = pbem.games.load("diplomacy")
    started = time.perf_counter()
    events = [row_event(r) for r in referee.store.event_rows("g")]
    engine.fold(game, events)
    return time.perf_counter() - started, len(events)


def resolutions(phases: list) -> float:
    """Seconds to resolve every phase again from its state and orders."""
    game = pbem.games.load("diplomacy")
    started = time.perf_counter()
    for state, orders in phases:
        game.resolve(plain_copy(state["game"]), orders, engine.phase_rng(SEED, state))
    return time.perf_counter() - started


def main(argv=None) -> int:
    """Build the game, then time the floor, the resolutions and pbem's replay, interleaved."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--years", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        referee = build(Path(folder), PHASES, "diplomacy", {"years": str(args.years)},
                        playing=1)
        phases = phases_of(referee)
        position = referee.table("g").state["game"]["position"]
        floors, resolved, replays = [], [], []
        for _ in range(args.repeat):
            seconds, count = fold_floor(referee)
            floors.append(seconds)
            resolved.append(resolutions(phases))
            started = time.perf_counter()
            verdict = replay(referee.store, "g", verify=True)
            replays.append(time.perf_counter() - started)
            assert verdict.ok, verdict.problems[:3]
        base, ours, whole = (statistics.median(floors), statistics.median(resolved),
                             statistics.median(replays))
        each = 1000 / len(phases)
        print(f"game: {len(phases)} phases to {position['season']} {position['year']}, "
              f"{count} events")
        print(f"floor (read and fold the log):   {base * each:.2f} ms per phase")
        print(f"pbem resolve, phase by phase:    {ours * each:.2f} ms per phase "
              f"({ours / base:.1f}x floor)")
        print(f"pbem replay --verify:            {whole * each:.2f} ms per phase "
              f"({whole / base:.1f}x floor)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
