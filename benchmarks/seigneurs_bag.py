"""Seigneurs' resource bag in bot games: how full it is after each production, and which
farms it feeds.

Plays bot games of Seigneurs straight through the engine (every bot's mail read
by the game's parser, every phase resolved by the game's rules, one bot answer
in pbem demo's SILENCE never sent, as in `pbem demo`), tables of 3 to 6 seats
in turn (2 to 5 lords and the barbarian), and prints for each production the
bag left and the farms fed in full; then, turn by turn over every game, the
share of farms fed in full (and fed at all) and the productions that emptied the bag; over the
productions the bag could not serve, how often the first third of the farms in
tile order was fed against the last third, and how often a game left out the
same farms two turns in a row. A farm is fed in full when it drew its whole
share (2 for a plain farm, 1 for a village farm).

The floor is folding each game's events with the game's `apply` alone (no
bot, no parsing, no resolution), timed in the same run.

Exits with status 1 if a farm went short before turn 5.

    python benchmarks/seigneurs_bag.py [--games 20] [--turns 10]
"""

import argparse
from collections import defaultdict
import sys
import time

import pbem.games
from pbem.adjudicator import engine
from pbem.adjudicator.contract import REFEREE
from pbem.adjudicator.rng import PhaseRng
from pbem.demo import SILENCE
from pbem.games.seigneurs.economy import producing_farms
from pbem.timeutil import later

START = "2030-01-01T00:00:00Z"
LORDS = ["ann", "bob", "cat", "dan", "eve"]
RESOURCES = ("wood", "stone", "food", "metal")
GUARANTEED = 5   # no farm goes short in a turn before this one
PHASES = 5000    # far more than any game of Seigneurs needs


def play(game, seed: str, lords: int, turns: int) -> list:
    """The events of one bot game, to its end."""
    seats = LORDS[:lords] + ["zed"]
    events = engine.creation_events(game, "g", "seigneurs",
                                    {"judge": "zed", "turns": str(turns)}, seats, seed)
    state = engine.fold(game, events)
    now = START
    for _ in range(PHASES):
        opened = engine.open_phase(game, state, now)
        state, _hash = engine.step(game, state, opened)
        given = {}
        for seat in sorted(state["engine"]["requests"]):
            rng = PhaseRng(seed, f"bot:{seat}", state["engine"]["phase"])
            if seat == REFEREE or rng.below(SILENCE) == 0:
                continue
            text = game.bot_orders(state["game"], seat, rng)
            given[seat], _errors = game.parse(state["game"], seat, text)
        now = later(now, 1)
        closed = engine.close_phase(game, state, given, seed)
        for event in closed:
            state, _hash = engine.step(game, state, event)
        events += [opened] + closed
        if game.outcome(state["game"]) is not None:
            return events
    raise RuntimeError(f"game {seed} did not end in {PHASES} phases")


def productions(game, events) -> list[dict]:
    """Each production of a game: its turn, the bag after it, every farm's share."""
    out, state = [], engine.new_state()
    for event in events:
        state, _hash = engine.step(game, state, event)
        if event.type != "produced":
            continue
        farms = [(place, farm) for place, farm, _due in producing_farms(state["game"])]
        short = {(f["place"], f.get("farm")): f["got"] for f in event.payload.get("short", [])}
        out.append({"turn": state["game"]["turn"], "bag": dict(state["game"]["bag"]),
                    "farms": farms, "short": short})
    return out


def bag_text(bag: dict) -> str:
    """'wood 12, stone 9, food 3, metal 7 = 31'."""
    return ", ".join(f"{g} {bag.get(g, 0)}" for g in RESOURCES) + f" = {sum(bag.values())}"


def main(argv=None) -> int:
    """Play the games, print the bag after each production, then the summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--turns", type=int, default=10)
    args = parser.parse_args(argv)
    game = pbem.games.load("seigneurs")
    fed, any_, farms_in = defaultdict(int), defaultdict(int), defaultdict(int)
    emptied = defaultdict(int)
    thirds = {"first": [0, 0], "last": [0, 0]}
    repeated = dry_pairs = early = 0
    played = folded = 0.0
    cpu = time.process_time()
    for number in range(args.games):
        lords = 2 + number % 4
        started = time.perf_counter()
        events = play(game, f"bag-{number}", lords, args.turns)
        played += time.perf_counter() - started
        started = time.perf_counter()
        engine.fold(game, events)
        folded += time.perf_counter() - started
        left_out = None
        for made in productions(game, events):
            turn, farms, short = made["turn"], made["farms"], made["short"]
            full = len(farms) - len(short)
            fed[turn] += full
            any_[turn] += len(farms) - sum(1 for got in short.values() if not got)
            farms_in[turn] += len(farms)
            emptied[turn] += not sum(made["bag"].values())
            early += len(short) if turn < GUARANTEED else 0
            print(f"game {number:2} ({lords} lords) turn {turn:2}: bag {bag_text(made['bag'])}; "
                  f"fed in full {full}/{len(farms)}")
            if short:
                third = max(1, len(farms) // 3)
                for name, part in (("first", farms[:third]), ("last", farms[-third:])):
                    thirds[name][0] += sum(1 for f in part if f not in short)
                    thirds[name][1] += len(part)
                now_out = sorted(f for f, got in short.items() if not got)
                if left_out is not None and now_out:
                    dry_pairs += 1
                    repeated += now_out == left_out
                left_out = now_out or None
            else:
                left_out = None
    cpu = time.process_time() - cpu
    print()
    print("turn  farms fed in full   fed at all  productions that emptied the bag")
    for turn in sorted(farms_in):
        print(f"{turn:4}  {fed[turn]:5}/{farms_in[turn]:<5} {fed[turn] / farms_in[turn]:5.0%}"
              f"  {any_[turn] / farms_in[turn]:10.0%}  {emptied[turn]:3} of {args.games}")
    for name, (got, of) in thirds.items():
        if of:
            print(f"dry productions: the {name} third of the farms in tile order fed in full "
                  f"{got}/{of} ({got / of:.0%})")
    print(f"dry turns in a row leaving out the same farms: {repeated} of {dry_pairs}")
    print(f"farms short before turn {GUARANTEED}: {early}")
    print(f"{args.games} games of {args.turns} turns: wall {played:.1f} s, CPU {cpu:.1f} s; "
          f"floor (folding their events) {folded:.2f} s; ratio {played / folded:.0f}x floor")
    return 1 if early else 0


if __name__ == "__main__":
    sys.exit(main())
