"""Winter adjustments: builds in owned, empty home centres, and removals.

Each power has as many units as it owns supply centres: it builds the
difference (or waives builds), or removes the excess. Orders count one by
one in the order given (orders.Adjustments). A power that removes too few
units is in civil disorder for the rest (DATC 4.D.8, the 2023 rules): the
unit farthest from the power's owned supply centres goes first, counting
steps over land and sea alike whatever the unit; between units as far, a
fleet before an army, then the province whose English name comes first.
"""

from .board import FLEET, Board, province_of
from .orders import Adjustments, Refused
from .position import adjustment, next_phase, place_of, powers_units, unit_record


def disorder_removals(board: Board, position: dict, power: str, count: int,
                      spared=()) -> list:
    """The provinces of the `count` units a power in civil disorder loses, in order."""
    owned = [p for p, owner in position["centres"].items() if owner == power]
    steps = board.distances(owned)
    units = [p for p in powers_units(position, power) if p not in spared]

    def farthest(province):
        unit = position["units"][province]
        return (-steps.get(province, len(board.provinces)), unit["type"] != FLEET,
                board.provinces[province].name)

    return sorted(units, key=farthest)[:count]


def resolve(board: Board, position: dict, orders: dict) -> dict:
    """Resolve a winter: orders = {power: [order, ...]}. Orders that cannot be given are
    left out. Returns {"position": next Spring's, "results": [...], "removed": [provinces
    whose unit was removed, by order or by civil disorder]}."""
    units = dict(position["units"])
    results, removed = [], []
    for power in sorted(board.powers):
        checker = Adjustments(board, position, power)
        played = []
        for order in orders.get(power, []):
            try:
                played.append(checker.check(order))
            except (Refused, KeyError):
                continue
        taken = [province_of(o["at"]) for o in played if o["type"] == "remove"]
        missing = -adjustment(position, power) - len(taken)
        for province in disorder_removals(board, position, power, max(missing, 0), taken):
            unit = position["units"][province]
            played.append({"type": "remove", "unit": unit["type"],
                           "at": place_of(province, unit), "default": True})
        for order in played:
            default = order.pop("default", False)
            result = {"power": power, "order": order, "result": "succeeded"}
            if default:
                result["default"] = True
            results.append(result)
            if order["type"] == "build":
                units[province_of(order["at"])] = unit_record(power, order["unit"], order["at"])
            elif order["type"] == "remove":
                del units[province_of(order["at"])]
                removed.append(province_of(order["at"]))
    after = {**position, "units": dict(sorted(units.items()))}
    return {"position": next_phase(board, after), "results": results, "removed": sorted(removed)}
