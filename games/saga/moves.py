"""The active player's steps: each one checked against the state, then turned into events.

A step is plain data, as orders.py reads it from a mail:

    {"do": "move", "army", "to"}                 inside the player's lands, or the one move out
    {"do": "merge", "army", "other"}             ARMY A+B
    {"do": "split", "army", "units", "lord", "new"}   SPLIT A 2 [units...] [NAME]
    {"do": "disband", "army", "units", "lord"}   DISBAND A 1 levies
    {"do": "scout", "zone", "army"}              SCOUT Z [A]
    {"do": "recruit", "type", "place"}           RECRUIT warriors [ZONE|ARMY], at upkeep
    {"do": "ransom"}                             RANSOM: 10 gold for a captured Lord
    {"do": "release", "seat"}                    RELEASE bob: free bob's Lord
    {"do": "stay"}                               STAY, after a scouting

The same functions check a mail's steps on a sketch (orders.py) and carry
them out (turn.py), so what a player is told is what happens.
"""

from pbem.i18n import _

from .army import has, points, valid_name
from .material import MAX_ARMY, UNIT_TYPES, units_text
from .rules import enterable, internal_moves, may_leave, outward_targets
from .state import board_of, largest_army, owner_of, room, told, zones_of

def army_problem(state, seat, name) -> str | None:
    """Why a name is not one of the seat's armies, or None."""
    armies = state["armies"][seat]
    if name in armies:
        return None
    known = ", ".join(sorted(armies)) or _("none")
    return _("you have no army called {army} (your armies: {names})").format(army=name,
                                                                             names=known)


def is_outward(state, seat, step) -> bool:
    """Is this step the turn's one move out of the player's lands (or the scouting before it)?"""
    return step["do"] == "scout" or (step["do"] == "move" and
                                     owner_of(state, step["to"]) != seat)


def problem(state, seat, step) -> str | None:
    """Why this step cannot be carried out now, or None."""
    kind = step["do"]
    if kind in ("move", "merge", "split", "disband"):
        trouble = army_problem(state, seat, step["army"])
        if trouble:
            return trouble
    return CHECKS[kind](state, seat, step)


def move_problem(state, seat, step, scouted=False) -> str | None:
    """MOVE: one move per army, to an adjacent zone (controlled, with room; or the move out)."""
    name, zone = step["army"], step["to"]
    army = state["armies"][seat][name]
    board = board_of(state)
    if name in state["turn"]["moved"]:
        return _("{army} has moved already this turn").format(army=name)
    if not board.adjacent(army["zone"], zone):
        return _("{zone} is not next to {where}, where {army} stands").format(
            zone=board.label(zone), where=board.label(army["zone"]), army=name)
    if owner_of(state, zone) == seat:
        if zone not in internal_moves(state, seat, name):
            return _("{zone} has no room for {army}: a zone holds at most 8 points").format(
                zone=board.label(zone), army=name)
        return None
    if not enterable(state, seat, zone):
        return _("{zone} belongs to a seat of your own fealty; you never attack it").format(
            zone=board.label(zone))
    if state["turn"]["contact"] or (state["turn"]["scout"] and not scouted):
        return _("only one army may move into a zone you do not control each turn")
    return may_leave(state, seat, name)


def problem_after_scouting(state, seat, step) -> str | None:
    """Why a MOVE after a scouting cannot be made: it goes into the scouted zone."""
    trouble = army_problem(state, seat, step["army"]) or \
        move_problem(state, seat, step, scouted=True)
    if trouble is None and step["to"] != state["turn"]["scout"]["zone"]:
        return _("after a scouting, the move goes into the scouted zone")
    return trouble


def merge_problem(state, seat, step) -> str | None:
    """ARMY A+B: two armies in the same zone, at most 8 points together."""
    trouble = army_problem(state, seat, step["other"])
    if trouble:
        return trouble
    first, second = state["armies"][seat][step["army"]], state["armies"][seat][step["other"]]
    if step["army"] == step["other"]:
        return _("name two different armies to merge")
    if first["zone"] != second["zone"]:
        return _("{a} is in {za} and {b} in {zb}: only armies in the same zone merge").format(
            a=step["army"], za=first["zone"], b=step["other"], zb=second["zone"])
    if points(first) + points(second) > MAX_ARMY:
        return _("{a} and {b} together would have {num} points; an army holds at most 8").format(
            a=step["army"], b=step["other"], num=points(first) + points(second))
    return None


def split_problem(state, seat, step) -> str | None:
    """SPLIT: units the army has, into a new army with a name nobody uses yet."""
    army = state["armies"][seat][step["army"]]
    new = step.get("new")
    if new is not None and (not valid_name(new) or new in state["armies"][seat]):
        return _("{name} cannot name the new army: use a new name of letters and digits").format(
            name=new)
    if not has(army, step["units"], step["lord"]):
        return _("{army} holds {units}; it cannot give {wanted}").format(
            army=step["army"], units=units_text(army["units"], army["lord"]),
            wanted=units_text(step["units"], step["lord"]))
    if not sum(step["units"].values()) and not step["lord"]:
        return _("say what the new army takes: SPLIT host 2 (the cheapest units) or "
                 "SPLIT host 1 warriors 1 levies")
    rest = {t: army["units"][t] - step["units"].get(t, 0) for t in UNIT_TYPES}
    if not sum(rest.values()) and not (army["lord"] and not step["lord"]):
        return _("{army} would be left empty; keep at least one unit in it").format(
            army=step["army"])
    return None


def disband_problem(state, seat, step) -> str | None:
    """DISBAND: units the army has (never the Lord)."""
    army = state["armies"][seat][step["army"]]
    if not has(army, step["units"]):
        return _("{army} holds {units}; it cannot disband {wanted}").format(
            army=step["army"], units=units_text(army["units"]),
            wanted=units_text(step["units"]))
    return None


def scout_problem(state, seat, step) -> str | None:
    """SCOUT: fog of war only, a zone one of the player's armies may move into."""
    if not state["fog"]:
        return _("there is no scouting without fog of war: everything is in sight")
    if state["turn"]["contact"] or state["turn"]["scout"]:
        return _("only one scouting (or one move out) each turn")
    name, zone = step.get("army"), step["zone"]
    label = board_of(state).label(zone)
    if name is not None:
        trouble = army_problem(state, seat, name)
        if trouble:
            return trouble
        if zone not in outward_targets(state, seat, name):
            return may_leave(state, seat, name) or _(
                "{army} cannot move into {zone}, so it cannot scout it").format(
                    army=name, zone=label)
        return None
    if owner_of(state, zone) == seat:
        return _("{zone} is yours: scout a zone you might move into").format(zone=label)
    if not any(zone in outward_targets(state, seat, n) for n in state["armies"][seat]):
        return _("none of your armies may move into {zone}, so none can scout it").format(
            zone=label)
    return None


def recruit_problem(state, seat, step) -> str | None:
    """RECRUIT: where the unit would go must be the seat's (checked again at upkeep); a
    seat with no zone and no army has nowhere to raise one, and nothing to pay with."""
    if not zones_of(state, seat) and not state["armies"][seat]:
        return _("you hold no zone and have no army: a new unit has nowhere to go")
    place = step.get("place")
    if place is None:
        return None
    if place in state["armies"][seat]:
        return None
    if owner_of(state, place) != seat:
        return _("{zone} is not yours: new units go to a zone you control").format(
            zone=board_of(state).label(place))
    return None


def ransom_problem(state, seat, step) -> str | None:
    """RANSOM: a captured Lord, and the gold in the treasury."""
    lord = state["lords"][seat]
    if lord["status"] != "captured":
        return _("your Lord is not a captive")
    if state["gold"][seat] < ransom_of(state, seat):
        return _("the ransom is {gold} gold and your treasury holds {have}").format(
            gold=ransom_of(state, seat), have=state["gold"][seat])
    return None


def release_problem(state, seat, step) -> str | None:
    """RELEASE: a Lord this seat holds captive."""
    held = captives(state, seat)
    if step["seat"] not in held:
        return _("you hold no captive Lord of {seat} (your captives: {held})").format(
            seat=step["seat"], held=", ".join(held) or _("none"))
    return None


def captives(state, seat) -> list[str]:
    """The seats whose Lord this seat holds."""
    return [s for s in state["seats"] if state["lords"][s]["status"] == "captured"
            and state["lords"][s]["captor"] == seat]


def ransom_of(state, seat) -> int:
    """What a captive Lord costs (the Lord's table said it)."""
    return state["lords"][seat].get("ransom", 10)


CHECKS = {"move": move_problem, "merge": merge_problem, "split": split_problem,
          "disband": disband_problem, "scout": scout_problem, "recruit": recruit_problem,
          "ransom": ransom_problem, "release": release_problem,
          "stay": lambda state, seat, step: None}


# ---------------------------------------------------------------- carrying steps out

def events(state, seat, step) -> list:
    """The events of a step done at once (moves in the player's lands, merges, splits...)."""
    kind = step["do"]
    if kind == "move":
        army = state["armies"][seat][step["army"]]
        return [told(state, [seat], "army_moved", seat=seat, army=step["army"],
                     **{"from": army["zone"]}, to=step["to"])]
    if kind == "merge":
        return [told(state, [seat], "armies_merged", seat=seat, army=step["army"],
                     other=step["other"], zone=state["armies"][seat][step["army"]]["zone"])]
    if kind == "split":
        new, named = step.get("new"), False
        if new is None:
            new, named = next_name(state, seat), True
        return [told(state, [seat], "army_split", seat=seat, army=step["army"], new=new,
                     units=step["units"], lord=step["lord"], named=named,
                     zone=state["armies"][seat][step["army"]]["zone"])]
    if kind == "disband":
        return [told(state, [seat], "units_disbanded", seat=seat, army=step["army"],
                     units=step["units"], lord=False)]
    if kind == "ransom":
        captor = state["lords"][seat]["captor"]
        return [told(state, [seat, captor], "ransom_paid", seat=seat, captor=captor,
                     gold=ransom_of(state, seat)), lord_home(state, seat)]
    if kind == "release":
        return [told(state, [seat, step["seat"]], "lord_released", seat=seat,
                     lord_of=step["seat"]), lord_home(state, step["seat"])]
    return []


def next_name(state, seat) -> str:
    """A name for an army pbem makes (a split or a recruit): band2, band3..."""
    count = state["names"].get(seat, 0) + 2
    while f"band{count}" in state["armies"][seat]:
        count += 1
    return f"band{count}"


def lord_home(state, seat, new=False):
    """A free Lord (ransomed, released, escaped, or newly named) joins the largest army."""
    name = largest_army(state, seat)
    if name is None:
        return told(state, [seat], "lord_waits", seat=seat, new=new)
    return told(state, [seat], "lord_joined", seat=seat, army=name, new=new,
                zone=state["armies"][seat][name]["zone"])


def default_place(state, seat) -> str | None:
    """Where a recruit goes when the order names no place: the homeland, else the largest
    army's zone, else the first zone the seat holds."""
    home = state["homelands"].get(seat)
    if owner_of(state, home) == seat:
        return home
    name = largest_army(state, seat)
    if name is not None:
        return state["armies"][seat][name]["zone"]
    held = [z for z in board_of(state).order if owner_of(state, z) == seat]
    return held[0] if held else None


def default_where(state, seat) -> str:
    """Where a recruit that names no place goes, in words: "your homeland", or the zone
    (a seat that lost its homeland)."""
    place = default_place(state, seat)
    return _("your homeland") if place in (None, state["homelands"].get(seat)) \
        else board_of(state).label(place)


def recruit_place(state, seat, step) -> tuple[str | None, str | None, str | None]:
    """(army, zone, why not) for a recruit now: the army named, or one in the zone, or a new one.

    Why not: "army_full", "zone_full" or "not_yours".
    """
    place = step.get("place") or default_place(state, seat)
    armies = state["armies"][seat]
    if place in armies:
        army = armies[place]
        if points(army) + 1 > MAX_ARMY:
            return None, None, "army_full"
        if not room(state, army["zone"], 1):
            return None, None, "zone_full"
        return place, army["zone"], None
    if place is None or owner_of(state, place) != seat:
        return None, None, "not_yours"
    if not room(state, place, 1):
        return None, None, "zone_full"
    here = [n for n in sorted(armies) if armies[n]["zone"] == place
            and points(armies[n]) < MAX_ARMY]
    return (here[0] if here else None), place, None
