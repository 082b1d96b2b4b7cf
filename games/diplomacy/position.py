"""Diplomacy's pure core: the data a game is made of, and the turn's order.

Everything here is plain JSON data, so a game's state can hold it and be
folded from events; nothing reads a clock or draws a die. Provinces are the
map's three-letter keys (games/diplomacy/map.toml, read by board.py); a
*place* is a province key or, for a fleet on a province with two coasts,
the key and the coast: "SPA/NC".

Position (what the board looks like at the start of a phase)::

    {"year": 1901, "season": "spring",          # spring | fall | winter
     "phase": "movement",                       # movement | retreat | adjustment
     "units": {"LON": {"power": "england", "type": "F"},
               "STP": {"power": "russia", "type": "F", "coast": "SC"}},
     "centres": {"LON": "england", ...},        # owned supply centres only
     "dislodged": {"ANK": {"power": "turkey", "type": "F", "from": "BLA",
                           "convoyed": false,       # was the attacker convoyed?
                           "retreats": ["ARM", "SMY"]}}}   # retreat phase only

Order (one unit's order, as orders.py reads it from a line)::

    {"type": "hold", "unit": "A", "at": "MUN"}
    {"type": "move", "unit": "F", "at": "SPA/SC", "to": "MAO"}       # + "via": true
    {"type": "support", "unit": "A", "at": "TYR", "of": "VEN", "of_unit": "A"}
    {"type": "support", "unit": "F", "at": "LON", "of": "WAL", "of_unit": "F",
     "to": "ENG"}                                   # "to" may name a coast
    {"type": "convoy", "unit": "F", "at": "NTH", "of": "LON", "of_unit": "A", "to": "BEL"}
    {"type": "retreat", "unit": "A", "at": "BUR", "to": "PAR"}
    {"type": "disband", "unit": "A", "at": "BUR"}
    {"type": "build", "unit": "F", "at": "STP/NC"}
    {"type": "remove", "unit": "A", "at": "BER"}
    {"type": "waive"}

"at" and "of" are where the unit really stands (its coast included);
"unit" and "of_unit" are its real type, whatever the player wrote.

Result (what became of one order, as a judge reports it)::

    {"power": "england", "order": {...}, "result": "bounced"}
    # + "why": "unmatched" | "overland" for a void support or convoy,
    # + "default": true for an order nobody wrote (a silent unit's hold,
    #   a civil-disorder removal, an unordered retreat's disband)

A result is one of: succeeded, bounced, cut, dislodged, void, no convoy
(movement); succeeded, or bounced when two units retreat to one province
and both are disbanded (retreats); succeeded (adjustments). "dislodged" wins
over everything else the order did.

The phase functions (``resolve`` in movement.py, retreats.py and
adjustments.py) each take (board, position, {power: [order, ...]}) and give
{"position": the next phase's position, "results": [...]} plus what the
report needs: "dislodged" (each with its "retreats"), "contested" and
"disbanded" after a movement, "disbanded" after retreats, "removed" after
a winter. ``next_phase`` and ``winner`` below chain the phases.
"""

from .board import ARMY, Board, coast_of, province_of


def start(board: Board) -> dict:
    """The position of Spring 1901: every power's units on its home centres."""
    units, centres = {}, {}
    for power in board.powers.values():
        for text in power.units:
            unit, place = text.split()
            units[province_of(place)] = unit_record(power.key, unit, place)
        for province in power.home:
            centres[province] = power.key
    return {"year": 1901, "season": "spring", "phase": "movement",
            "units": dict(sorted(units.items())), "centres": dict(sorted(centres.items()))}


def unit_record(power: str, unit: str, place: str) -> dict:
    """A unit as the position keeps it under its province's key."""
    record = {"power": power, "type": unit}
    if coast_of(place):
        record["coast"] = coast_of(place)
    return record


def place_of(province: str, record: dict) -> str:
    """Where a unit of the position stands: its province, with its coast if it has one."""
    return f"{province}/{record['coast']}" if record.get("coast") else province


def unit_text(province: str, record: dict) -> str:
    """A unit as a judge writes it: "F STP/SC"."""
    return f"{record['type']} {place_of(province, record)}"


def retreat_places(board: Board, province: str, unit: dict, units: dict,
                   contested) -> list:
    """Where a unit dislodged from a province may retreat, sorted: a place next to it that
    no unit holds, that no standoff left empty (`contested`), and that is not the
    province its attacker came from, unless the attacker was convoyed."""
    if unit["type"] == ARMY:
        targets = board.army[province]
    else:
        targets = board.fleet[place_of(province, unit)]
    return sorted(t for t in targets
                  if province_of(t) not in units and province_of(t) not in contested and
                  (province_of(t) != unit["from"] or unit["convoyed"]))


def powers_units(position: dict, power: str) -> list:
    """The provinces where a power has units, sorted."""
    return [p for p, u in sorted(position["units"].items()) if u["power"] == power]


def centre_count(position: dict, power: str) -> int:
    """How many supply centres a power owns."""
    return sum(1 for owner in position["centres"].values() if owner == power)


def adjustment(position: dict, power: str) -> int:
    """Builds (> 0) or removals (< 0) a power has this winter: centres minus units."""
    return centre_count(position, power) - len(powers_units(position, power))


def next_phase(board: Board, position: dict) -> dict:
    """The phase after one that is over (its dislodged units gone): the next season's
    movement, or after Fall the centres change hands and Winter comes if anyone adjusts."""
    season = position["season"]
    following = {k: v for k, v in position.items() if k != "dislodged"}
    if season == "spring":
        return {**following, "season": "fall", "phase": "movement"}
    if season == "fall":
        centres = dict(position["centres"])
        for province, unit in position["units"].items():
            if board.provinces[province].centre:
                centres[province] = unit["power"]
        following["centres"] = dict(sorted(centres.items()))
        if any(adjustment(following, power) for power in board.powers):
            return {**following, "season": "winter", "phase": "adjustment"}
    return {**following, "year": position["year"] + 1, "season": "spring", "phase": "movement"}


def winner(board: Board, position: dict) -> str | None:
    """The power that owns enough supply centres to win (18 on the standard map), or None."""
    for power in board.powers:
        if centre_count(position, power) >= board.victory:
            return power
    return None
