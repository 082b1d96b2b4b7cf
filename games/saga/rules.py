"""What the rules allow now: moves, targets, retreats, and who is asked what.

Everything here reads the state and changes nothing. The phases:

    signup      one seat at a time, in seat order: faction, homeland, armies
    orders      the active player's turn (reorganise, one move out or a scouting)
    move        after a scouting: MOVE into the scouted zone, or STAY
    retreat     the defender's small armies give way
    setup       before a battle: the defender's withdrawal, the scenario
    battle      both players report the result
    dispute     the referee rules on reports that disagree (or are missing)
    aftermath   after a battle: losses of the player's choice, fall-back, promotion
    disband     upkeep the active player cannot pay
"""

from pbem.adjudicator.contract import ALL, REFEREE, Request
from pbem.adjudicator.editions import edition
from pbem.adjudicator.rulings import ruling_request
from pbem.i18n import N_, Said, _

from .army import points, unit_count
from .material import MIN_FIGHT, points_text
from .state import (armies_in, board_of, friends, kept_between, owner_of, room, total_points,
                    vassals_of, zones_of)


# The words of the referee's ruling on a disputed battle, as seats read them.
RULING_WORDS = {"winner": N_("winner")}
END_REASONS = {"goal": N_("held {zones} zones"),
               "rounds": N_("most zones after {rounds} rounds"),
               "fealty": N_("every other player is {seat}'s vassal")}


# ---------------------------------------------------------------- moves

def internal_moves(state, seat: str, name: str) -> list[str]:
    """Zones an army may move to inside its owner's lands: adjacent, controlled, with room."""
    army = state["armies"][seat][name]
    return [z for z in board_of(state).neighbours[army["zone"]]
            if owner_of(state, z) == seat and room(state, z, points(army))]


def may_leave(state, seat: str, name: str) -> str | None:
    """Why this army may not make the move out of its owner's lands, or None."""
    army = state["armies"][seat][name]
    if name in state["turn"]["moved"]:
        return _("{army} has moved already this turn").format(army=name)
    if points(army) < MIN_FIGHT:
        return _("{army} has {points}; only an army of at least {least} points may move "
                 "into a zone you do not control").format(army=name,
                                                          points=points_text(points(army)),
                                                          least=MIN_FIGHT)
    if state["played"].get(seat, 0) == 0 and not army["main"]:
        return _("on your first turn only the Main Host may move into a zone you do not "
                 "control, and {army} is not the Main Host").format(army=name)
    return None


def outward_targets(state, seat: str, name: str) -> list[str]:
    """Zones this army may move into that its owner does not control (none if it may not)."""
    if may_leave(state, seat, name):
        return []
    army = state["armies"][seat][name]
    return [z for z in board_of(state).neighbours[army["zone"]] if enterable(state, seat, z)]


def enterable(state, seat: str, zone: str) -> bool:
    """Is this zone one the seat does not control, and not held by a friend (overlord, vassal)?"""
    holder = owner_of(state, zone)
    return holder != seat and (holder is None or not friends(state, seat, holder))


def movers(state, seat: str) -> list[str]:
    """The seat's armies that may make the move out, by name."""
    return [name for name in sorted(state["armies"][seat]) if outward_targets(state, seat, name)]


def scout_targets(state, seat: str) -> list[str]:
    """Zones the seat may scout: any zone one of its armies may move into, in map order."""
    if not state["fog"]:
        return []
    wanted = {z for name in movers(state, seat) for z in outward_targets(state, seat, name)}
    return [z for z in board_of(state).order if z in wanted]


def scouting_army(state, seat: str, zone: str) -> str | None:
    """The army that scouts a zone when none is named: the strongest that may move there."""
    able = [n for n in movers(state, seat) if zone in outward_targets(state, seat, n)]
    armies = state["armies"][seat]
    return sorted(able, key=lambda n: (-points(armies[n]), n))[0] if able else None


def give_way(state, seat: str, zone: str, size: int, avoid=()) -> list[str]:
    """Adjacent zones a seat controls with room for `size` points: where its army may go."""
    return [z for z in board_of(state).neighbours[zone]
            if owner_of(state, z) == seat and z not in avoid and room(state, z, size)]


def withdraw_options(state) -> dict:
    """{army: [zones]} the defender may withdraw to before the battle (none when it may not)."""
    battle = state["turn"]["battle"]
    seat, zone = battle["defender"], battle["zone"]
    mine = [(name, army) for s, name, army in armies_in(state, zone) if s == seat]
    if len(mine) < 2:
        return {}
    options = {}
    for name, army in mine:
        rest = sum(points(a) for n, a in mine if n != name)
        if battle["homeland"] or rest >= MIN_FIGHT:
            where = give_way(state, seat, zone, points(army))
            if where:
                options[name] = where
    return options


def scenario_chooser(state) -> str | None:
    """The seat that picks the battle's scenario, or None when the die picks (or picked)."""
    battle = state["turn"]["battle"]
    if battle.get("scenario") or battle["chooser"] == "random":
        return None
    return battle[battle["chooser"]]


def fall_back_options(state) -> list[str]:
    """Where the loser's army may fall back after the battle."""
    battle = state["turn"]["battle"]
    loser = battle["loser"]
    force = battle["forces"][loser]
    army = state["armies"][loser].get(force["army"])
    if army is None:
        return []
    zone = battle["zone"]
    return give_way(state, loser, zone, points(army), avoid=[zone])


def aftermath_asks(state) -> dict:
    """{seat: [what]} the seats asked after a battle: "losses", "fall_back", "promote"."""
    battle = state["turn"]["battle"]
    asks = {}
    rolls = battle.get("rolls", {})
    loser, winner = battle["loser"], battle["winner"]
    lost = rolls.get("loser", {})
    army = state["armies"][loser].get(battle["forces"][loser]["army"])
    units = unit_count(army) if army else 0
    if lost.get("choice") and 0 < lost["lose"] < units:
        asks.setdefault(loser, []).append("losses")
    if lost.get("lose", 0) < units and len(fall_back_options(state)) > 1:
        asks.setdefault(loser, []).append("fall_back")
    won = state["armies"][winner].get(battle["forces"][winner]["army"])
    if rolls.get("winner", {}).get("promote") and won and \
            (won["units"]["warriors"] or won["units"]["levies"]):
        asks.setdefault(winner, []).append("promote")
    return asks


# ---------------------------------------------------------------- phases

PROMPTS = {
    "signup": lambda: _("Choose your faction, homeland and armies"),
    "orders": lambda: _("Your turn: send your orders"),
    "move": lambda: _("Scouting answered: MOVE or STAY"),
    "retreat": lambda: _("An enemy army enters your zone: where do your small armies retreat?"),
    "setup": lambda: _("A battle is coming: your choices before it"),
    "battle": lambda: _("Report the result of your battle"),
    "aftermath": lambda: _("After the battle: your choices"),
    "disband": lambda: _("Upkeep: disband the units you cannot pay"),
}


def pending(state) -> dict:
    """Who must answer now, and what."""
    if state["stage"] == "over":
        return {}
    if state["stage"] == "signup":
        return {state["seats"][state["signup"]]: Request("signup", PROMPTS["signup"]())}
    turn = state["turn"]
    stage, seat = turn["stage"], turn["seat"]
    battle = turn["battle"]
    if stage in ("orders", "move", "disband"):
        return {seat: Request(stage, PROMPTS[stage]())}
    if stage == "retreat":
        return {turn["contact"]["defender"]: Request("retreat", PROMPTS["retreat"]())}
    if stage == "setup":
        return {s: Request("setup", PROMPTS["setup"]()) for s in setup_asks(state)}
    if stage == "battle":
        return {s: Request("result", PROMPTS["battle"](), hours=state["battle_hours"])
                for s in (battle["attacker"], battle["defender"])}
    if stage == "dispute":
        parties = [battle["attacker"], battle["defender"]]
        told = kept_between(state, *parties)
        return {REFEREE: ruling_request(
            _("The reports of a battle disagree: who won?"), {"winner": parties},
            concerns=None if told == ALL else told,
            facts=dispute_facts(battle) if edition(state) >= 2 else None)}
    return {s: Request("aftermath", PROMPTS["aftermath"]()) for s in aftermath_asks(state)}


def dispute_facts(battle) -> list[str]:
    """What the referee is told of a disputed battle: where, and what each side reported
    (in English, as the referee reads pbem)."""
    claims, points = battle.get("claims", {}), battle.get("points") or {}
    facts = [f"The battle of {battle['zone']}: {battle['attacker']} attacked, "
             f"{battle['defender']} defended" + (" (won on points left on the field)."
                                                  if battle.get("points_rule") else ".")]
    for seat in (battle["attacker"], battle["defender"]):
        claimed = claims.get(seat)
        if claimed is None:
            facts.append(f"{seat} sent no report.")
            continue
        said = "won" if claimed == seat else "lost"
        left = f", {points[seat]} points left on the field" if points.get(seat) is not None \
            else ""
        facts.append(f"{seat} reported: {said}{left}.")
    return facts


def setup_asks(state) -> list[str]:
    """The seats asked before a battle: the defender if it may withdraw, the scenario's chooser."""
    battle = state["turn"]["battle"]
    asked = set()
    if withdraw_options(state):
        asked.add(battle["defender"])
    chooser = scenario_chooser(state)
    if chooser:
        asked.add(chooser)
    return sorted(asked)


def default_orders(state, seat) -> dict | None:
    """A silent seat: the first free pick; no orders (stays); the defaults of each question."""
    if seat == REFEREE:
        battle = state["turn"]["battle"]
        return {"set": {"winner": battle["defender"]}, "text": "", "by": "default"}
    stage = state["stage"] if state["stage"] == "signup" else state["turn"]["stage"]
    if stage == "battle":
        return None
    return {"default": True}


BATTLE_STAGES = ("setup", "battle", "dispute", "aftermath")


def controller(state, seat) -> str | None:
    """The overlord whose mails give a vassal's orders; a vassal answers for its own battle
    (the rules keep a battle between its two players)."""
    overlord = state["overlord"].get(seat)
    turn = state["turn"]
    if overlord and turn and turn["stage"] in BATTLE_STAGES:
        battle = turn["battle"]
        if seat in (battle["attacker"], battle["defender"]):
            return None
    return overlord


def private_requests(state) -> bool:
    """Under fog, who is asked what is known only to the seats asked (a battle's two players)."""
    return state["fog"]


def outcome(state) -> dict | None:
    """Who won, once the campaign is over."""
    result = state["result"]
    if result is None:
        return None
    why = END_REASONS[result["reason"]]    # said in each reader's language
    return {"winners": list(result["winners"]),
            "reason": Said(why, **result["values"]).stored() if edition(state) >= 2
            else why.format(**result["values"]),  # the first edition's, in English
            "scores": dict(result["zones"])}


# ---------------------------------------------------------------- the end

def zone_counts(state) -> dict:
    """{seat: zones controlled}."""
    return {seat: len(zones_of(state, seat)) for seat in state["seats"]}


def standing(state, seat: str) -> tuple:
    """How a seat ranks at the end of the rounds: zones, then army points, then gold."""
    return (len(zones_of(state, seat)), total_points(state, seat), state["gold"][seat])


def overlord_of_all(state) -> str | None:
    """A seat with every other seat as its vassal, or None."""
    for seat in state["seats"]:
        if len(vassals_of(state, seat)) == len(state["seats"]) - 1:
            return seat
    return None
