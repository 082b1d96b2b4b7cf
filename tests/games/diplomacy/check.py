"""Expectations of Diplomacy rule cases played through the referee (tests/test_rule_cases.py).

The [position] of a case is a position file (docs/positions.md): phase,
units and centres by power, and optionally who plays which power.

    [expect]
    units = {france = ["A PAR", "F BRE"]}  # every unit on the board, by power; exact
    centres = {france = ["BRE", "PAR"]}    # the owned supply centres of these powers; exact
    phase = "fall 1901 movement"           # the phase the game is in now
    dislodged = {austria = ["F TRI"]}      # the units waiting to retreat; exact
    asked = ["bob"]                        # the seats the open phase asks; exact
    winners = ["ann"]                      # the seats that won, when the game is over
    reason = "solo"                        # why it is over: solo, years or nobody

(The DATC's own cases are tests/games/diplomacy/datc_*.toml, run by tests/test_datc.py.)
"""


def by_power(units: dict) -> dict:
    """A position's units as cases write them: {power: sorted ["F STP/SC", ...]}."""
    out = {}
    for province, unit in units.items():
        place = f"{province}/{unit['coast']}" if unit.get("coast") else province
        out.setdefault(unit["power"], []).append(f"{unit['type']} {place}")
    return {power: sorted(texts) for power, texts in sorted(out.items())}


def check(state, expect) -> list[str]:
    """Differences between the game after the case and its expectations."""
    game, problems = state["game"], []
    position = game["position"]
    if "units" in expect:
        want = {power: sorted(units) for power, units in expect["units"].items() if units}
        if by_power(position["units"]) != want:
            problems.append(f"units: expected {want}, got {by_power(position['units'])}")
    for power, wanted in expect.get("centres", {}).items():
        got = sorted(c for c, owner in position["centres"].items() if owner == power)
        if got != sorted(wanted):
            problems.append(f"centres of {power}: expected {sorted(wanted)}, got {got}")
    phase = f"{position['season']} {position['year']} {position['phase']}"
    if "phase" in expect and phase != expect["phase"]:
        problems.append(f"phase: expected {expect['phase']}, got {phase}")
    if "dislodged" in expect and by_power(position.get("dislodged", {})) != expect["dislodged"]:
        problems.append(f"dislodged: expected {expect['dislodged']}, "
                        f"got {by_power(position.get('dislodged', {}))}")
    if "asked" in expect and sorted(state["engine"]["requests"]) != sorted(expect["asked"]):
        problems.append(f"asked: expected {sorted(expect['asked'])}, "
                        f"got {sorted(state['engine']['requests'])}")
    result = state["engine"]["result"]
    if "winners" in expect:
        if result is None or result["winners"] != expect["winners"]:
            problems.append(f"winners: expected {expect['winners']}, got {result}")
        elif "reason" in expect and result["reason"] != expect["reason"]:
            problems.append(f"reason: expected {expect['reason']}, got {result['reason']}")
    elif result is not None:
        problems.append(f"the game ended unexpectedly: {result}")
    return problems
