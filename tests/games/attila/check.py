"""Expectations of Attila rule cases.

    [expect]
    pawns = {Pannonia = {goths = 3}}    # every pawn on the board; exact
    pacified = {Pannonia = "IV"}         # every pacified province and its peace tile; exact
    influence = {goths = {ann = 1}}      # the listed peoples' tracks; exact per people
    scores = {ann = 5}                   # the listed seats' points
    hands = {ann = ["goths", "huns"]}    # the listed seats' hands (any order)
    hand_sizes = {bob = 5}               # the listed seats' number of cards
    tiles = {ann = ["double"]}           # the listed seats' unused action tiles
    active = "bob"                       # whose turn it is
    turn = 2                             # the turn's number
    stage = "bid"                        # turn, bid or confirm
    conflict = "Pannonia"                # the conflict being bid on
    asked = ["ann", "bob"]               # the seats the open phase asks
    deck = 3                             # cards in the draw pile
    discards = 4                         # cards in the discard pile
    winners = ["ann"]                    # omit while the game goes on
    reason = "reached 22"                # a piece of the result's reason

Errors, orders said back and events are checked by the runner
(tests/test_rule_cases.py) for every game.
"""

from pbem.games.attila.material import PEOPLES, people_of
from pbem.i18n import said


def check(state, expect) -> list[str]:
    """Differences between the game state and the expectations."""
    game = state["game"]
    problems = []
    problems += board_problems(game, expect)
    problems += seat_problems(game, expect)
    problems += turn_problems(state, expect)
    problems += result_problems(game, expect)
    return problems


def board_problems(game, expect) -> list[str]:
    """Pawns, pacified provinces, influence, piles."""
    problems = []
    if "pawns" in expect:
        want = {province: {people_of(p): n for p, n in row.items() if n}
                for province, row in expect["pawns"].items()}
        want = {k: v for k, v in want.items() if v}
        if game["pawns"] != want:
            problems.append(f"pawns: expected {want}, got {game['pawns']}")
    if "pacified" in expect and game["pacified"] != expect["pacified"]:
        problems.append(f"pacified: expected {expect['pacified']}, got {game['pacified']}")
    for name, row in expect.get("influence", {}).items():
        got = game["influence"][people_of(name)]
        if got != row:
            problems.append(f"influence over {name}: expected {row}, got {got}")
    for key in ("deck", "discards"):
        if key in expect and len(game[key]) != expect[key]:
            problems.append(f"{key}: expected {expect[key]} cards, got {len(game[key])}")
    return problems


def seat_problems(game, expect) -> list[str]:
    """Scores, hands, tiles of the listed seats."""
    problems = []
    for seat, points in expect.get("scores", {}).items():
        if game["scores"][seat] != points:
            problems.append(f"score of {seat}: expected {points}, got {game['scores'][seat]}")
    for seat, cards in expect.get("hands", {}).items():
        want = sorted((people_of(c) for c in cards), key=PEOPLES.index)
        if game["hands"][seat] != want:
            problems.append(f"hand of {seat}: expected {want}, got {game['hands'][seat]}")
    for seat, size in expect.get("hand_sizes", {}).items():
        if len(game["hands"][seat]) != size:
            problems.append(f"{seat} holds {len(game['hands'][seat])} cards, expected {size}")
    for seat, tiles in expect.get("tiles", {}).items():
        if sorted(game["tiles"][seat]) != sorted(tiles):
            problems.append(f"tiles of {seat}: expected {sorted(tiles)}, got {game['tiles'][seat]}")
    return problems


def turn_problems(state, expect) -> list[str]:
    """Whose turn, which stage, which conflict, who is asked."""
    turn = state["game"]["turn"]
    problems = []
    got = {"active": turn["seat"], "turn": turn["number"], "stage": turn["stage"],
           "conflict": turn["conflicts"][0] if turn["conflicts"] else None}
    for key, value in got.items():
        if key in expect and value != expect[key]:
            problems.append(f"{key}: expected {expect[key]!r}, got {value!r}")
    if "asked" in expect and sorted(state["engine"]["requests"]) != sorted(expect["asked"]):
        problems.append(f"asked: expected {sorted(expect['asked'])}, "
                        f"got {sorted(state['engine']['requests'])}")
    return problems


def result_problems(game, expect) -> list[str]:
    """The end of the game, or that it goes on."""
    result = game["result"]
    if "winners" not in expect:
        return [f"the game ended unexpectedly: {result}"] if result else []
    if result is None:
        return [f"the game should be over with winners {expect['winners']}, but it goes on"]
    problems = []
    if sorted(result["winners"]) != sorted(expect["winners"]):
        problems.append(f"winners: expected {sorted(expect['winners'])}, got {result}")
    reason = said(result["reason"])
    if expect.get("reason", "") not in reason:
        problems.append(f"reason: expected {expect['reason']!r} in {reason!r}")
    return problems

