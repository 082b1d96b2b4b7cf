"""A simple Diplomacy player, for demos and tests: legal, varied orders from the phase's dice.

In a movement phase it sends most units towards supply centres it does not
own, has others support those moves or hold, and now and then carries an
army across the sea by convoy. It retreats where it can, builds in every
free home centre it may (now and then waiving one), and removes the units
farthest from home. Every line it writes is read back by the real reader
first, so the mail it sends is free of errors.
"""

from .board import ARMY, FLEET, board, province_of
from .hints import accepted, builds, targets
from .orders import read_orders
from .position import adjustment, powers_units, unit_text
from .rules import seat_powers
from .adjustments import disorder_removals


def bot_orders(state: dict, seat: str, rng) -> str:
    """A mail body with orders for every power of the seat that has something to order."""
    position = state["position"]
    mine = seat_powers(state, seat)
    lines = []
    for power in mine:
        if position["phase"] == "movement":
            lines += movement(position, power, rng)
        elif position["phase"] == "retreat":
            lines += retreats(position, power, rng)
        else:
            lines += winter(position, power, rng, named=len(mine) > 1)
    checked = [line for line in lines if accepted(position, mine, line)]
    orders, errors = read_orders(board(), position, mine, "\n".join(checked))
    assert not errors, errors
    return "\n".join(checked) + "\n"


def movement(position: dict, power: str, rng) -> list[str]:
    """Moves towards centres not yet the power's, supports of them, holds, a convoy."""
    the_board = board()
    units = {p: position["units"][p] for p in powers_units(position, power)}
    orders, moves = convoy(position, power, units, rng)
    going = {province_of(to) for to in moves.values()}
    for province in rng.shuffle(sorted(units)):
        if province in orders:
            continue
        unit = units[province]
        where = [t for t in targets(position, province, unit) if province_of(t) not in going]
        wanted = [t for t in where if the_board.provinces[province_of(t)].centre
                  and position["centres"].get(province_of(t)) != power]
        if where and rng.below(10) < 6:
            moves[province] = rng.choice(wanted) if wanted and rng.below(4) else rng.choice(where)
            orders[province] = f"{unit_text(province, unit)} - {moves[province]}"
            going.add(province_of(moves[province]))
    for province in sorted(units):
        if province not in orders:
            orders[province] = support(position, province, units[province], moves, rng)
    return [orders[p] for p in sorted(orders)]


def support(position: dict, province: str, unit: dict, moves: dict, rng) -> str:
    """A unit that does not move: it supports a move of its power it can reach, or a
    neighbour of its power where it stands, or holds."""
    the_board = board()
    text = unit_text(province, unit)
    place = text.split()[1]
    helped = [(origin, to) for origin, to in sorted(moves.items())
              if province_of(to) != province
              and the_board.reaches(unit["type"], place, province_of(to))]
    if helped and rng.below(3):
        origin, to = rng.choice(helped)
        return f"{text} S {unit_text(origin, position['units'][origin])} - {province_of(to)}"
    friends = [p for p, u in sorted(position["units"].items())
               if u["power"] == unit["power"] and p != province and p not in moves
               and the_board.reaches(unit["type"], place, p)]
    if friends and rng.below(2):
        other = rng.choice(friends)
        return f"{text} S {unit_text(other, position['units'][other])}"
    return f"{text} H"


def convoy(position: dict, power: str, units: dict, rng) -> tuple:
    """Now and then, a fleet of the power at sea carries one of its armies to a coast
    across that sea: ({province: line} for the fleet and the army, {army: destination}),
    or nothing."""
    the_board = board()
    if rng.below(3):
        return {}, {}
    found = []
    for sea, fleet in sorted(units.items()):
        if fleet["type"] != FLEET or not the_board.is_sea(sea):
            continue
        for start, army in sorted(units.items()):
            if army["type"] != ARMY or sea not in the_board.neighbours[start]:
                continue
            found += [(sea, start, end) for end in sorted(the_board.neighbours[sea])
                      if end != start and not the_board.is_sea(end)
                      and end not in the_board.army[start]]
    if not found:
        return {}, {}
    sea, start, end = rng.choice(found)
    lines = {sea: f"F {sea} C A {start} - {end}", start: f"A {start} - {end} VIA CONVOY"}
    if all(accepted(position, [power], line) for line in lines.values()):
        return lines, {start: end}
    return {}, {}


def retreats(position: dict, power: str, rng) -> list[str]:
    """Each dislodged unit retreats to one of its places, or (rarely) disbands."""
    lines = []
    for province, unit in sorted(position["dislodged"].items()):
        if unit["power"] != power or not unit["retreats"]:
            continue
        if rng.below(8):
            lines.append(f"{unit_text(province, unit)} - {rng.choice(unit['retreats'])}")
        else:
            lines.append(f"{unit_text(province, unit)} DISBAND")
    return lines


def winter(position: dict, power: str, rng, named: bool) -> list[str]:
    """Builds in free home centres (an army or a fleet), now and then a waive; or the
    removals of the units farthest from home."""
    owed = adjustment(position, power)
    if owed < 0:
        removed = disorder_removals(board(), position, power, -owed)
        return [f"REMOVE {unit_text(p, position['units'][p])}" for p in removed]
    by_centre = {}
    for build in builds(position, power):
        by_centre.setdefault(province_of(build.split()[-1]), []).append(build)
    lines = [rng.choice(by_centre[c]) for c in rng.shuffle(sorted(by_centre))[:owed]]
    if lines and rng.below(8) == 0:
        lines[-1] = "WAIVE" + (f" {power.upper()}" if named else "")
    return lines
