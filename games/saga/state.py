"""The campaign's state, its reducer, and the questions the rules ask of it.

The state is plain data:

    board, tables     the map (built-in name or inline data) and the dice tables
    fog               fog of war (default on)
    zones_to_win, rounds, battle_hours   the campaign's options
    seats             the players, in seat order
    stage             "signup", "campaign" or "over"
    signup            the index of the seat choosing its faction now
    factions, homelands   {seat: faction}, {seat: zone}; public
    owner             {zone: seat}: who controls each zone (absent: nobody)
    armies            {seat: {name: army}} (see army.py)
    gold              {seat: treasury}
    lords             {seat: {"status": "army"|"captured"|"waiting", "captor", "wounded"}}
    tricks            {seat: True} while a seat holds a dirty trick
    overlord          {vassal: overlord}
    knowledge         {seat: {zone: {"turn": t, "fact": {...}}}} (pbem knowledge.py)
    round, order      the round under way and its order of play
    turn              the turn under way (see new_turn)
    played            {seat: turns played}: the first turn moves only the Main Host
    names             {seat: n}: how many armies pbem has named for a seat
    result            None, or {"winners", "reason", "zones"} once the campaign is over
    edition           the edition of the rules the campaign was set up under, when not the
                      first (pbem/adjudicator/editions.py; docs/rules/saga.md, "Editions")

A zone fact (what a seat knows of a zone it does not control) is
``{"owner": seat|None, "armies": None|[{"points", "units", "lord"}], "homeland": bool|None}``;
None means not learned.
"""

import copy

from pbem.adjudicator.contract import ALL, Event
from pbem.adjudicator.editions import edition, recorded
from pbem.adjudicator.knowledge import learn

from . import board as boards
from .army import merged, new_army, points, take
from .material import MAX_ZONE, UNIT_TYPES


def blank_state(p: dict) -> dict:
    """The state before anyone has signed up."""
    return {
        "board": p["board"], "tables": p["tables"], "fog": p["fog"],
        "zones_to_win": p["zones_to_win"], "rounds": p["rounds"],
        "battle_hours": p["battle_hours"], "seats": list(p["seats"]),
        "stage": "signup", "signup": 0, "factions": {}, "homelands": {}, "owner": {},
        "armies": {s: {} for s in p["seats"]}, "gold": {s: 0 for s in p["seats"]},
        "lords": {s: {"status": "army", "captor": None, "wounded": False} for s in p["seats"]},
        "tricks": {}, "overlord": {}, "knowledge": {}, "round": 0, "order": [],
        "turn": None, "played": {s: 0 for s in p["seats"]}, "names": {},
        "result": None, **recorded(edition(p)),
    }


def new_turn(number: int, round_: int, seat: str) -> dict:
    """A turn at its start.

    stage: "orders" (the active player's mail), "move" (MOVE or STAY after a
    scouting), "retreat" (small armies give way), "setup" (the defender's
    withdrawal, the scenario), "battle" (both players report), "dispute"
    (the referee rules), "aftermath" (losses, fall-back, promotion),
    "disband" (upkeep the player cannot pay). moved: armies that moved this
    turn; scout: the scouting, if any; recruits: the RECRUIT orders, applied
    at upkeep; contact: the one move into a zone the player does not
    control; retreats: armies asked where they retreat; battle: the battle
    under way; short: the points to disband at upkeep.
    """
    return {"number": number, "round": round_, "seat": seat, "stage": "orders", "moved": [],
            "scout": None, "recruits": [], "contact": None, "retreats": [], "battle": None,
            "short": 0}


# ---------------------------------------------------------------- questions of the state

def board_of(state) -> boards.Board:
    """The map this campaign is played on."""
    return boards.load(state["board"])


def owner_of(state, zone: str) -> str | None:
    """Who controls a zone, or None."""
    return state["owner"].get(zone)


def zones_of(state, seat: str) -> list[str]:
    """The zones a seat controls, in map order."""
    return [z for z in board_of(state).order if state["owner"].get(z) == seat]


def armies_in(state, zone: str) -> list[tuple[str, str, dict]]:
    """(seat, name, army) for every army in a zone, by seat then name."""
    return [(seat, name, army) for seat in state["seats"]
            for name, army in sorted(state["armies"][seat].items()) if army["zone"] == zone]


def zone_points(state, zone: str) -> int:
    """The points of every army in a zone together."""
    return sum(points(army) for _, _, army in armies_in(state, zone))


def room(state, zone: str, extra: int) -> bool:
    """May `extra` more points stand in a zone?"""
    return zone_points(state, zone) + extra <= MAX_ZONE


def vassals_of(state, seat: str) -> list[str]:
    """The seats that are this seat's vassals, in seat order."""
    return [s for s in state["seats"] if state["overlord"].get(s) == seat]


def liege(state, seat: str) -> str:
    """The head of a seat's fealty: its overlord, or itself."""
    return state["overlord"].get(seat, seat)


def friends(state, a: str, b: str) -> bool:
    """Do two seats never fight each other (the same seat, or under the same overlord)?"""
    return liege(state, a) == liege(state, b)


def total_points(state, seat: str) -> int:
    """Every army point a seat has."""
    return sum(points(army) for army in state["armies"][seat].values())


def seen_by(state, *seats) -> object:
    """Who sees an event about these seats: everyone without fog; else they and their overlords."""
    if not state["fog"]:
        return ALL
    shown = {s for s in seats if s}
    shown |= {state["overlord"][s] for s in list(shown) if s in state["overlord"]}
    return sorted(shown)


def told(state, seats, type_: str, **payload) -> Event:
    """An event about these seats, seen by them and their overlords (by everyone without fog)."""
    return Event(type_, payload, seen_by(state, *seats))


def between(state, seats, type_: str, **payload) -> Event:
    """An event the rules keep between these seats alone (a battle's two players)."""
    return Event(type_, payload, kept_between(state, *seats))


def kept_between(state, *seats) -> object:
    """Who is told what the rules keep between these seats: under fog they alone, not even
    their overlords (everybody without fog). A campaign of the first edition told their
    overlords too (docs/rules/saga.md, "Editions")."""
    if edition(state) < 2:
        return seen_by(state, *seats)
    return ALL if not state["fog"] else sorted({s for s in seats if s})


def largest_army(state, seat: str) -> str | None:
    """The name of a seat's army with the most points (ties: the first name), or None."""
    armies = state["armies"][seat]
    if not armies:
        return None
    return sorted(armies, key=lambda name: (-points(armies[name]), name))[0]


# ---------------------------------------------------------------- reducer

def apply(state: dict, event) -> dict:
    """Fold one campaign event into the state."""
    handler = REDUCERS.get(event.type)
    if event.type == "setup":
        return blank_state(event.payload)
    if event.type == "realm_set":
        return copy.deepcopy(event.payload["state"])
    if handler:
        handler(state, event.payload)
    teach(state, event)
    return state


def teach(state, event) -> None:
    """What the seats who see an event learn from it (fog of war only)."""
    fact = event.payload.get("fact")
    if fact is None or event.visible_to == ALL or not state["fog"]:
        return
    turn = state["turn"]["number"] if state["turn"] else 0
    for seat in event.visible_to:
        if seat in state["seats"]:
            state["knowledge"] = learn(state["knowledge"], seat, event.payload["zone"], fact, turn)


def _army(state, p) -> dict:
    return state["armies"][p["seat"]][p["army"]]


def _faction_chosen(state, p):
    state["factions"][p["seat"]] = p["faction"]
    state["homelands"][p["seat"]] = p["homeland"]
    state["owner"][p["homeland"]] = p["seat"]
    state["signup"] += 1


def _armies_raised(state, p):
    state["armies"][p["seat"]] = copy.deepcopy(p["armies"])


def _campaign_began(state, p):
    state["stage"] = "campaign"


def _round_began(state, p):
    state["round"] = p["round"]
    state["order"] = list(p["order"])


def _turn_began(state, p):
    state["turn"] = new_turn(p["number"], p["round"], p["seat"])


def _army_moved(state, p):
    _army(state, p)["zone"] = p["to"]
    state["turn"]["moved"] = sorted(set(state["turn"]["moved"]) | {p["army"]})


def _armies_merged(state, p):
    armies = state["armies"][p["seat"]]
    armies[p["army"]] = merged(armies[p["army"]], armies.pop(p["other"]))
    _moved_with(state, p["seat"], p["other"], p["army"])


def _army_split(state, p):
    armies = state["armies"][p["seat"]]
    armies[p["army"]], armies[p["new"]] = take(armies[p["army"]], p["units"], p["lord"])
    _named(state, p)
    _moved_with(state, p["seat"], p["army"], p["new"])


def _moved_with(state, seat, source, target) -> None:
    """An army made from one that moved this turn has moved too (the active seat's only)."""
    turn = state["turn"]
    if turn and turn["seat"] == seat and source in turn["moved"]:
        turn["moved"] = sorted(set(turn["moved"]) | {target})


def _named(state, p) -> None:
    """Count an army name pbem gave (its next one is different)."""
    if p.get("named"):
        state["names"][p["seat"]] = state["names"].get(p["seat"], 0) + 1


def _units_removed(state, p):
    armies = state["armies"][p["seat"]]
    army = armies[p["army"]]
    for kind in UNIT_TYPES:
        army["units"][kind] -= p["units"].get(kind, 0)
    if p.get("lord"):
        army["lord"] = False
    if not points(army) and not army["lord"]:
        del armies[p["army"]]


def _army_removed(state, p):
    army = state["armies"][p["seat"]].pop(p["army"])
    if army["lord"]:
        state["lords"][p["seat"]]["status"] = "waiting"


def _lord_joined(state, p):
    _army(state, p)["lord"] = True
    state["lords"][p["seat"]].update(status="army", captor=None)


def _lord_waits(state, p):
    state["lords"][p["seat"]].update(status="waiting", captor=None)


def _ransom_paid(state, p):
    state["gold"][p["seat"]] -= p["gold"]
    state["gold"][p["captor"]] += p["gold"]
    state["lords"][p["seat"]].update(status="waiting", captor=None)


def _lord_released(state, p):
    state["lords"][p["lord_of"]].update(status="waiting", captor=None)


def _scouted(state, p):
    state["turn"]["scout"] = {"zone": p["zone"], "army": p["army"], "reveal": p["reveal"],
                              "bonus": p["bonus"]}
    state["turn"]["stage"] = "move"


def _trick_used(state, p):
    state["tricks"].pop(p["seat"], None)


def _moved_out(state, p):
    _army(state, p)["zone"] = p["to"]
    state["turn"]["contact"] = {"army": p["army"], "from": p["from"], "zone": p["to"],
                                "defender": p["defender"]}
    state["turn"]["moved"] = sorted(set(state["turn"]["moved"]) | {p["army"]})


def _zone_taken(state, p):
    state["owner"][p["zone"]] = p["seat"]


def _retreat_asked(state, p):
    state["turn"]["stage"] = "retreat"
    state["turn"]["retreats"] = list(p["armies"])


def _army_retreated(state, p):
    _army(state, p)["zone"] = p["to"]


def _vassal_sworn(state, p):
    for seat in [p["vassal"]] + list(p["with"]):
        state["overlord"][seat] = p["overlord"]
    state["overlord"].pop(p["overlord"], None)
    state["gold"][p["overlord"]] += p["gold"]
    state["gold"][p["vassal"]] -= p["gold"]


def _battle_joined(state, p):
    state["turn"]["battle"] = {k: copy.deepcopy(v) for k, v in p.items() if k != "fact"}
    state["turn"]["stage"] = "setup"


def _scenario_chosen(state, p):
    state["turn"]["battle"]["scenario"] = p["scenario"]
    state["turn"]["battle"]["points_rule"] = p["points_rule"]


def _battle_set(state, p):
    armies = state["armies"][p["defender"]]
    for other in p["merged"]:
        armies[p["defender_army"]] = merged(armies[p["defender_army"]], armies.pop(other))
    battle = state["turn"]["battle"]
    battle.update(forces=copy.deepcopy(p["forces"]), defender_army=p["defender_army"])
    state["turn"]["stage"] = "battle"


def _battle_disputed(state, p):
    state["turn"]["battle"]["claims"] = copy.deepcopy(p["claims"])
    if edition(state) >= 2:  # what the referee is told (see rules.dispute_facts)
        state["turn"]["battle"]["points"] = copy.deepcopy(p["points"])
    state["turn"]["stage"] = "dispute"


def _battle_won(state, p):
    battle = state["turn"]["battle"]
    battle.update(winner=p["winner"], loser=p["loser"], reported=p.get("points"))
    state["turn"]["stage"] = "aftermath"


def _table_rolled(state, p):
    state["turn"]["battle"].setdefault("rolls", {})[p["table"]] = {
        "seat": p["seat"], "die": p["die"], "effect": p["effect"], "lose": p.get("lose", 0),
        "choice": p.get("choice", False), "promote": p.get("promote", False),
        "ransom": p.get("ransom", 0)}


def _unit_promoted(state, p):
    units = _army(state, p)["units"]
    units[p["from"]] -= 1
    units[p["to"]] += 1


def _lord_slain(state, p):
    _lord_off(state, p)
    state["lords"][p["seat"]].update(status="waiting", wounded=False)


def _lord_captured(state, p):
    _lord_off(state, p)
    state["lords"][p["seat"]].update(status="captured", captor=p["captor"], wounded=False,
                                    ransom=p["ransom"])


def _lord_off(state, p):
    for army in state["armies"][p["seat"]].values():
        army["lord"] = False
    armies = state["armies"][p["seat"]]
    for name in [n for n, a in armies.items() if not points(a) and not a["lord"]]:
        del armies[name]


def _lord_wounded(state, p):
    state["lords"][p["seat"]]["wounded"] = True


def _lord_healed(state, p):
    state["lords"][p["seat"]]["wounded"] = False


def _trick_gained(state, p):
    state["tricks"][p["seat"]] = True


def _battle_over(state, p):
    state["owner"][p["zone"]] = p["owner"]


def _gold_changed(state, p):
    state["gold"][p["seat"]] = p["after"]


def _disband_asked(state, p):
    state["turn"]["stage"] = "disband"
    state["turn"]["short"] = p["short"]


def _unit_recruited(state, p):
    armies = state["armies"][p["seat"]]
    if p["army"] not in armies:
        armies[p["army"]] = new_army(p["zone"])
    armies[p["army"]]["units"][p["type"]] += 1
    state["gold"][p["seat"]] -= p["cost"]
    _named(state, p)


def _recruits_set(state, p):
    state["turn"]["recruits"] = copy.deepcopy(p["recruits"])


def _turn_ended(state, p):
    state["played"][p["seat"]] = state["played"].get(p["seat"], 0) + 1


def _campaign_won(state, p):
    state["stage"] = "over"
    state["result"] = {"winners": list(p["winners"]), "reason": p["reason"],
                       "values": dict(p["values"]), "zones": dict(p["zones"])}


REDUCERS = {
    "faction_chosen": _faction_chosen, "armies_raised": _armies_raised,
    "campaign_began": _campaign_began, "round_began": _round_began,
    "turn_began": _turn_began, "army_moved": _army_moved, "armies_merged": _armies_merged,
    "army_split": _army_split, "units_disbanded": _units_removed, "units_lost": _units_removed,
    "army_destroyed": _army_removed, "army_lost": _army_removed,
    "lord_joined": _lord_joined, "lord_waits": _lord_waits, "ransom_paid": _ransom_paid,
    "lord_released": _lord_released, "scouted": _scouted, "trick_used": _trick_used,
    "moved_out": _moved_out, "zone_taken": _zone_taken, "retreat_asked": _retreat_asked,
    "army_retreated": _army_retreated, "army_withdrawn": _army_retreated,
    "army_fell_back": _army_retreated, "vassal_sworn": _vassal_sworn,
    "battle_joined": _battle_joined, "scenario_chosen": _scenario_chosen,
    "battle_set": _battle_set, "battle_disputed": _battle_disputed,
    "battle_won": _battle_won, "table_rolled": _table_rolled,
    "unit_promoted": _unit_promoted, "lord_slain": _lord_slain,
    "lord_captured": _lord_captured, "lord_wounded": _lord_wounded,
    "lord_healed": _lord_healed, "trick_gained": _trick_gained, "battle_over": _battle_over,
    "upkeep_paid": _gold_changed, "disband_asked": _disband_asked,
    "unit_recruited": _unit_recruited, "recruits_set": _recruits_set,
    "turn_ended": _turn_ended, "campaign_won": _campaign_won,
}
