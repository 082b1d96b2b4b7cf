"""Armies as plain data, and what can be done to one: count, merge, split, lose units.

An army is ``{"zone": name, "units": {"hearthguards": n, "warriors": n,
"levies": n}, "lord": bool, "main": bool}``: one point per unit, the Lord
worth none; ``main`` marks the Main Host (the only army that may leave its
owner's lands on the first turn).
"""

import re

from .material import LOSS_ORDER, UNIT_TYPES

NAME = re.compile(r"^[a-z][a-z0-9_-]{0,15}$")


def new_army(zone: str, units: dict | None = None, lord: bool = False, main: bool = False):
    """An army in a zone."""
    counts = {t: int((units or {}).get(t, 0)) for t in UNIT_TYPES}
    return {"zone": zone, "units": counts, "lord": lord, "main": main}


def points(army: dict) -> int:
    """An army's points: one per unit, none for the Lord."""
    return sum(army["units"].values())


def unit_count(army: dict) -> int:
    """An army's units, the Lord counted as one (for the winner's and loser's tables)."""
    return points(army) + (1 if army["lord"] else 0)


def merged(first: dict, second: dict) -> dict:
    """Two armies as one (in the first one's zone)."""
    units = {t: first["units"][t] + second["units"][t] for t in UNIT_TYPES}
    return {"zone": first["zone"], "units": units, "lord": first["lord"] or second["lord"],
            "main": first["main"] or second["main"]}


def take(army: dict, units: dict, lord: bool = False) -> tuple[dict, dict]:
    """(what is left, what is taken): units (and the Lord) taken out of an army."""
    left = {t: army["units"][t] - units.get(t, 0) for t in UNIT_TYPES}
    rest = {**army, "units": left, "lord": army["lord"] and not lord}
    part = new_army(army["zone"], units, lord=lord)
    return rest, part


def has(army: dict, units: dict, lord: bool = False) -> bool:
    """Does the army hold these units (and the Lord)?"""
    return all(army["units"][t] >= units.get(t, 0) for t in UNIT_TYPES) and \
        (army["lord"] or not lord)


def cheapest(army: dict, count: int) -> tuple[dict, bool]:
    """(units, lord): the `count` units lost first: Levies, Warriors, Hearthguards, then
    the Lord."""
    taken = {t: 0 for t in UNIT_TYPES}
    for kind in LOSS_ORDER:
        step = min(count, army["units"][kind])
        taken[kind] = step
        count -= step
    return taken, bool(count > 0 and army["lord"])


def valid_name(name: str) -> bool:
    """Is this a usable army name (lower case letters, digits, - and _; 16 at most)?"""
    return bool(NAME.match(name))
