"""A retreat phase: each dislodged unit retreats to one of its places, or is disbanded.

The places were fixed when the unit was dislodged (movement.py): next to it,
empty, not left empty by a standoff, and not where its attacker came from
unless the attacker was convoyed. Two or more units retreating to one
province are all disbanded; a unit given no order is disbanded.
"""

from .board import Board, province_of
from .orders import Refused, check_retreat
from .position import next_phase, place_of, unit_record


def resolve(board: Board, position: dict, orders: dict) -> dict:
    """Resolve a retreat phase: orders = {power: [order, ...]}. Returns {"position": the
    next phase's position, "results": [...], "disbanded": [provinces whose unit went]}."""
    dislodged = position["dislodged"]
    chosen = {}
    for power in sorted(orders):
        for order in orders[power]:
            try:
                order = check_retreat(board, position, power, order)
            except (Refused, KeyError):
                continue
            chosen.setdefault(province_of(order["at"]), []).append(order)
    played, defaults = {}, set()
    for province, unit in sorted(dislodged.items()):
        given = chosen.get(province, [])
        if len(given) == 1:
            played[province] = given[0]
        else:
            defaults.add(province)
            played[province] = {"type": "disband", "unit": unit["type"],
                                "at": place_of(province, unit)}
    arrivals = {}
    for province, order in played.items():
        if order["type"] == "retreat":
            arrivals.setdefault(province_of(order["to"]), []).append(province)
    units, results, disbanded = dict(position["units"]), [], []
    for province, order in sorted(played.items()):
        unit = dislodged[province]
        result = {"power": unit["power"], "order": order, "result": "succeeded"}
        if province in defaults:
            result["default"] = True
        if order["type"] == "retreat" and len(arrivals[province_of(order["to"])]) == 1:
            units[province_of(order["to"])] = unit_record(unit["power"], unit["type"],
                                                          order["to"])
        else:
            disbanded.append(province)
            if order["type"] == "retreat":
                result["result"] = "bounced"
        results.append(result)
    after = {**position, "units": dict(sorted(units.items()))}
    return {"position": next_phase(board, after), "results": results, "disbanded": disbanded}
