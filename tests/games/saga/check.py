"""Expectations of SAGA campaign rule cases.

    [expect]
    owner = {Mercia = "ann", Jorvik = ""}   # the listed zones' holders ("" : nobody)
    armies.ann.host = {zone = "Mercia", hearthguards = 1, warriors = 2, levies = 1, lord = true}
                                            # the listed armies, exactly (lord/main default false)
    gone = {bob = ["reserve"]}              # armies that must not exist
    army_count = {bob = 1}                  # how many armies a seat has
    gold = {ann = 5}                        # the listed seats' treasuries
    lords = {bob = "captured"}              # army, captured or waiting
    captor = {bob = "ann"}
    wounded = ["bob"]                       # exactly the seats whose Lord is wounded
    tricks = ["bob"]                        # exactly the seats holding a dirty trick
    vassals = {bob = "ann"}                 # exactly the vassals and their overlords
    factions = {ann = "vikings"}            # the listed seats' factions
    homelands = {ann = "Man"}
    stage = "battle"                        # the turn's stage (or "signup", "over")
    active = "bob"                          # whose turn it is
    turn = 2                                # the turn's number
    round = 1
    order = ["bob", "ann"]                  # this round's order of play
    asked = ["ann", "bob"]                  # the seats the open phase asks ("referee" too)
    dice = {scouting = 5, setup = [3, 4], scenario = 2, winner = 6, loser = 1, lord = 2}
                                            # the dice rolled (the last roll on each table)
    scenario = "bridge"                     # the battle's scenario (while it lasts)
    view.bob.Mercia = {status = "known", owner = "ann", points = [5], turn = 1, stale = false}
                                            # what a seat's view shows of a zone ("public":
                                            # the public view); points: each army's points;
                                            # "NONE": not known
    winners = ["ann"]                       # omit while the campaign goes on
    reason = "held 10 zones"                # a piece of the result's reason

Errors, orders said back, events and what each seat's log says are checked
by the runner (tests/test_rule_cases.py).
"""

from pbem.games import saga
from pbem.games.saga.material import UNIT_TYPES
from pbem.i18n import said


def check(state, expect, events) -> list[str]:
    """Differences between the campaign and the expectations."""
    game = state["game"]
    return (map_problems(game, expect) + army_problems(game, expect) +
            seat_problems(game, expect) + turn_problems(state, expect) +
            dice_problems(events, expect) + view_problems(game, expect) +
            result_problems(game, expect))


def map_problems(game, expect) -> list[str]:
    """Who holds the listed zones."""
    problems = []
    for zone, seat in expect.get("owner", {}).items():
        got = game["owner"].get(zone)
        if got != (seat or None):
            problems.append(f"{zone}: expected held by {seat or 'nobody'}, got {got}")
    return problems


def army_problems(game, expect) -> list[str]:
    """The listed armies, exactly; the armies that must be gone; how many."""
    problems = []
    for seat, armies in expect.get("armies", {}).items():
        for name, want in armies.items():
            got = game["armies"][seat].get(name)
            if got is None:
                problems.append(f"{seat} has no army {name}; armies: {game['armies'][seat]}")
                continue
            wanted = {"zone": want["zone"], "units": {t: want.get(t, 0) for t in UNIT_TYPES},
                      "lord": want.get("lord", False), "main": want.get("main", got["main"])}
            if got != wanted:
                problems.append(f"{seat}'s {name}: expected {wanted}, got {got}")
    for seat, names in expect.get("gone", {}).items():
        for name in names:
            if name in game["armies"][seat]:
                problems.append(f"{seat}'s {name} should be gone: {game['armies'][seat][name]}")
    for seat, count in expect.get("army_count", {}).items():
        if len(game["armies"][seat]) != count:
            problems.append(f"{seat} has {len(game['armies'][seat])} armies, expected {count}: "
                            f"{sorted(game['armies'][seat])}")
    return problems


def seat_problems(game, expect) -> list[str]:
    """Gold, Lords, tricks, vassals, factions, homelands."""
    problems = []
    for seat, gold in expect.get("gold", {}).items():
        if game["gold"][seat] != gold:
            problems.append(f"gold of {seat}: expected {gold}, got {game['gold'][seat]}")
    for seat, status in expect.get("lords", {}).items():
        if game["lords"][seat]["status"] != status:
            problems.append(f"Lord of {seat}: expected {status}, got {game['lords'][seat]}")
    for seat, captor in expect.get("captor", {}).items():
        if game["lords"][seat]["captor"] != captor:
            problems.append(f"captor of {seat}'s Lord: expected {captor}, "
                            f"got {game['lords'][seat]['captor']}")
    if "wounded" in expect:
        got = sorted(s for s in game["seats"] if game["lords"][s]["wounded"])
        if got != sorted(expect["wounded"]):
            problems.append(f"wounded Lords: expected {expect['wounded']}, got {got}")
    if "tricks" in expect and sorted(game["tricks"]) != sorted(expect["tricks"]):
        problems.append(f"tricks: expected {expect['tricks']}, got {sorted(game['tricks'])}")
    if "vassals" in expect and game["overlord"] != expect["vassals"]:
        problems.append(f"vassals: expected {expect['vassals']}, got {game['overlord']}")
    for key in ("factions", "homelands"):
        for seat, value in expect.get(key, {}).items():
            if game[key].get(seat) != value:
                problems.append(f"{key} of {seat}: expected {value}, got {game[key].get(seat)}")
    return problems


def turn_problems(state, expect) -> list[str]:
    """Whose turn, which stage, who is asked, the scenario."""
    game = state["game"]
    turn = game["turn"] or {}
    battle = turn.get("battle") or {}
    got = {"stage": game["stage"] if game["stage"] != "campaign" else turn.get("stage"),
           "active": turn.get("seat"), "turn": turn.get("number"), "round": game["round"],
           "order": game["order"], "scenario": battle.get("scenario")}
    problems = [f"{key}: expected {expect[key]!r}, got {value!r}"
                for key, value in got.items() if key in expect and value != expect[key]]
    if "asked" in expect and sorted(state["engine"]["requests"]) != sorted(expect["asked"]):
        problems.append(f"asked: expected {sorted(expect['asked'])}, "
                        f"got {sorted(state['engine']['requests'])}")
    return problems


def dice_problems(events, expect) -> list[str]:
    """The dice rolled, as the events record them (the last roll on each table)."""
    rolled = {}
    for event in events:
        p = event["payload"]
        if event["type"] == "scouted":
            rolled["scouting"] = p["die"]
        elif event["type"] == "battle_joined":
            rolled["setup"] = p["dice"]
            if p["scenario_die"]:
                rolled["scenario"] = p["scenario_die"]
        elif event["type"] == "table_rolled":
            rolled[p["table"]] = p["die"]
    return [f"dice: the {table} die is {rolled.get(table)}, expected {die}"
            for table, die in expect.get("dice", {}).items() if rolled.get(table) != die]


def view_problems(game, expect) -> list[str]:
    """What a seat's view (or the public's) shows of the listed zones."""
    problems = []
    for seat, zones in expect.get("view", {}).items():
        shown = saga.view(game, None if seat == "public" else seat)
        by_name = {z["name"]: z for z in shown["zones"]}
        for zone, want in zones.items():
            got = by_name[zone]
            points = None if got["armies"] is None else [a.get("points") for a in got["armies"]]
            seen = {"status": got["status"], "owner": got["owner"], "points": points,
                    "turn": got["turn"], "stale": got["stale"], "homeland": got["homeland"]}
            for key, value in want.items():
                value = none_for(value)
                if seen[key] != value:
                    problems.append(f"{seat} sees {zone} with {key} {seen[key]!r}, "
                                    f"expected {value!r}: {got}")
    return problems


def none_for(value):
    """TOML has no null: "NONE" stands for None (nothing learned), in lists too."""
    if isinstance(value, list):
        return [none_for(v) for v in value]
    return None if value == "NONE" else value


def result_problems(game, expect) -> list[str]:
    """The end of the campaign, or that it goes on."""
    result = saga.outcome(game)
    if "winners" not in expect:
        return [f"the campaign ended unexpectedly: {result}"] if result else []
    if result is None:
        return [f"the campaign should be over with winners {expect['winners']}, but it goes on"]
    problems = []
    if sorted(result["winners"]) != sorted(expect["winners"]):
        problems.append(f"winners: expected {sorted(expect['winners'])}, got {result}")
    if expect.get("reason", "") not in said(result["reason"]):
        problems.append(f"reason: expected {expect['reason']!r} in {said(result['reason'])!r}")
    return problems
