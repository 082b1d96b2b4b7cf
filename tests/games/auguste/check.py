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
    errors = {ann = ["not next to"]}      # for each seat, substrings of its error lines, in order
    understood = {ann = ["red: pass"]}    # for each seat, its orders as said back to it; exact
    events = ["collided"]                 # event types that must have happened
    no_events = ["pincered"]              # event types that must not have happened
"""


def check(state, expect, answers, events) -> list[str]:
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
    for seat, wanted in expect.get("errors", {}).items():
        got = answers.get(seat, {}).get("errors", [])
        if len(got) != len(wanted) or any(w not in g for w, g in zip(wanted, got)):
            problems.append(f"errors of {seat}: expected {wanted}, got {got}")
    for seat, answer in answers.items():
        if seat not in expect.get("errors", {}) and answer["errors"]:
            problems.append(f"{seat} had unexpected errors: {answer['errors']}")
    for seat, wanted in expect.get("understood", {}).items():
        got = answers.get(seat, {}).get("understood", [])
        if got != wanted:
            problems.append(f"{seat}'s orders were said back as {got}, expected {wanted}")
    happened = {e["type"] for e in events}
    for kind in expect.get("events", []):
        if kind not in happened:
            problems.append(f"no {kind} event happened (got {sorted(happened)})")
    for kind in expect.get("no_events", []):
        if kind in happened:
            problems.append(f"a {kind} event happened, and must not have")
    return problems
