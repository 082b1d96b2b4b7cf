"""Expectations of Auguste rule cases.

    [expect]
    units = {BAK = "red", DOR = "blue+"}  # every legionary after the turn ("+" = shield); exact
    laurel = "MOC"                        # where the crown stands
    shields = ["SAK"]                     # shields lying on the board; exact
    walls = ["BAK", "DOR"]                # walled cells; exact
    winners = ["Caesar"]                  # teams that won ([] = draw); omit if the game goes on
    stage = "seer"                        # the stage the game is in (orders or seer)
    out = ["Crassus"]                     # teams knocked out; exact
    cards = {wall = ["Caesar"]}           # who still holds each card named; exact per card

Errors, orders said back and events are checked by the runner
(tests/test_rule_cases.py) for every game.
"""


def check(state, expect) -> list[str]:
    """Differences between the game state and the expectations."""
    game = state["game"]
    problems = []
    if "units" in expect:
        got = {cell: u["legion"] + ("+" if u["shield"] else "") for cell, u in game["units"].items()}
        want = {cell.upper(): v for cell, v in expect["units"].items()}
        if got != want:
            missing = {c: v for c, v in want.items() if got.get(c) != v}
            extra = {c: v for c, v in got.items() if want.get(c) != v}
            problems.append(f"units: expected but not found {missing}; found but not expected {extra}")
    for key in ("laurel", "stage"):
        if key in expect and game[key] != expect[key]:
            problems.append(f"{key}: expected {expect[key]!r}, got {game[key]!r}")
    for key in ("shields", "walls", "out"):
        if key in expect and sorted(game[key]) != sorted(expect[key]):
            problems.append(f"{key}: expected {sorted(expect[key])}, got {sorted(game[key])}")
    for card, holders in expect.get("cards", {}).items():
        if sorted(game["cards"][card]) != sorted(holders):
            problems.append(f"{card} cards: expected {sorted(holders)}, got {game['cards'][card]}")
    if "winners" in expect:
        result = game["result"]
        got = None if result is None else sorted(result["winners"])
        if got != sorted(expect["winners"]):
            problems.append(f"winners: expected {sorted(expect['winners'])}, got {got} ({result})")
    elif game["result"] is not None:
        problems.append(f"the game ended unexpectedly: {game['result']}")
    return problems
