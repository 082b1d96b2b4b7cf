"""What resolving a Diplomacy movement phase of 34 units costs, against a floor.

Builds seeded random positions of 34 units (every supply centre's worth),
each unit ordered at random among the orders it can give (about half move,
most others support a move or a hold), then times, interleaved and
repeated:

- the floor: check every order against the position and write the next
  position's units, as any referee must, with no adjudication;
- pbem: `movement.resolve`, the whole DATC resolution (guesses, paradox
  rules, results, dislodgements, standoffs and retreats).

    python benchmarks/diplomacy_resolution.py [--phases 100] [--repeat 5]
"""

import argparse
import random
import statistics
import time

from pbem.adjudicator.contract import plain_copy
from pbem.games.diplomacy import movement
from pbem.games.diplomacy.board import board
from pbem.games.diplomacy.orders import Refused, check_movement, read
from pbem.games.diplomacy.position import place_of, start

UNITS = 34


def position(rng: random.Random, map_) -> dict:
    """34 units of random powers on random provinces, each of a type that can stand there."""
    units = {}
    for province in rng.sample(sorted(map_.provinces), UNITS):
        kind = map_.provinces[province].kind
        unit = {"power": rng.choice(sorted(map_.powers)),
                "type": "A" if kind == "land" else "F" if kind == "sea" else rng.choice("AF")}
        if unit["type"] == "F" and map_.provinces[province].coasts:
            unit["coast"] = rng.choice(map_.provinces[province].coasts)
        units[province] = unit
    return {**start(map_), "units": dict(sorted(units.items()))}


def orders(rng: random.Random, map_, where: dict) -> dict:
    """Each unit's order as its power would write it, read back by the real reader."""
    units = where["units"]
    moves, lines = {}, {}
    for province, unit in units.items():
        place = place_of(province, unit)
        targets = sorted(map_.army[province] if unit["type"] == "A" else map_.fleet[place])
        if targets and rng.random() < 0.5:
            moves[province] = rng.choice(targets)
    for province, unit in units.items():
        place = place_of(province, unit)
        if province in moves:
            line = f"{unit['type']} {place} - {moves[province]}"
        else:
            helped = [(o, t) for o, t in moves.items()
                      if map_.reaches(unit["type"], place, t.partition("/")[0])
                      and t.partition("/")[0] != province]
            held = [o for o in units if o != province and o not in moves
                    and map_.reaches(unit["type"], place, o)]
            if helped and rng.random() < 0.7:
                o, t = rng.choice(helped)
                line = f"{unit['type']} {place} S {units[o]['type']} {o} - {t}"
            elif held:
                line = f"{unit['type']} {place} S {rng.choice(held)}"
            else:
                line = f"{unit['type']} {place} H"
        lines.setdefault(unit["power"], []).append(line)
    return {power: read(map_, where, power, "\n".join(text))[0] for power, text in lines.items()}


def floor(map_, where: dict, given: dict) -> dict:
    """Check every order and write a next board: what any referee does before adjudicating."""
    checked = []
    for power, mine in sorted(given.items()):
        for order in mine:
            try:
                checked.append(check_movement(map_, where, power, order))
            except Refused:
                pass
    units = plain_copy(where["units"])
    return {"results": [{"order": o, "result": "succeeded"} for o in checked], "units": units}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phases", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    map_ = board()
    rng = random.Random(1901)
    phases = []
    for _ in range(args.phases):
        where = position(rng, map_)
        phases.append((where, orders(rng, map_, where)))
    given = sum(len(o) for _, g in phases for o in g.values())
    times = {"floor": [], "pbem": []}
    for _ in range(args.repeat):
        for name, run in (("floor", floor), ("pbem", movement.resolve)):
            began = time.perf_counter()
            for where, mine in phases:
                run(map_, where, mine)
            times[name].append((time.perf_counter() - began) / len(phases))
    best = {name: statistics.median(runs) * 1000 for name, runs in times.items()}
    print(f"{len(phases)} movement phases of {UNITS} units, {given / len(phases):.1f} "
          f"orders read per phase")
    print(f"floor (check orders, write the board): {best['floor']:.3f} ms per phase")
    print(f"pbem movement.resolve:                 {best['pbem']:.3f} ms per phase")
    print(f"ratio: {best['pbem'] / best['floor']:.1f} x floor")


if __name__ == "__main__":
    main()
