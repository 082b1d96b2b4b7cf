"""What players see of a campaign: views, the text map, the SVG map, narration.

Under fog of war a seat's view holds only what it controls (and its
vassals'), what the public knows (the factions and their homelands, chosen
in the open at signup; whose turn it is), what it learned (each fact with
the turn it was learned, stale once that turn is past), and the battle it
fights, if any. Nothing else of the state reaches it: the leak test
(tests/test_saga_leaks.py) changes everything else and checks that the view
stays the same. The referee (seat "referee") and, without fog, everybody
see everything.
"""

import textwrap

from pbem.adjudicator.contract import REFEREE
from pbem.i18n import _, ngettext, reader

from .army import points
from .board import shipped_french, shown
from .choices import choices
from .orders import reads
from .examples import examples
from .material import (POINT_COST, UNIT_TYPES, UPKEEP, ZONE_INCOME, army_name, effect_name,
                       faction_name, points_text, scenario_name, unit_count, unit_name,
                       units_text)
from .moves import captives, ransom_of
from .rules import END_REASONS, controller, pending
from .state import armies_in, board_of, owner_of, vassals_of, zones_of

GREY = "#d0d0d0"
ZONE_RADIUS = 26      # a zone's circle on the map
WIDTH = 78


# ---------------------------------------------------------------- views

def view(state, seat=None) -> dict:
    """The campaign as a seat (None: the public; "referee": everything) may see it."""
    board = board_of(state)
    everything = seat == REFEREE or not state["fog"]
    viewer = seat if seat in state["seats"] else None
    turn = state["turn"]
    number = turn["number"] if turn else 0
    out = {
        "game": "saga",
        "board": {"name": board.name, "title": board.title, "width": board.width,
                  "height": board.height, "land": [list(x) for x in board.links("land")],
                  "sea": [list(x) for x in board.links("sea")], "french": dict(board.french)},
        "fog": state["fog"],
        "everything": everything,
        "seats": list(state["seats"]),
        "factions": [{"seat": s, "key": state["factions"][s], "name": faction_name(
            state["factions"][s]), "colour": board.colour[state["factions"][s]],
            "homeland": state["homelands"][s]} for s in state["seats"] if s in state["factions"]],
        "stage": "over" if state["stage"] == "over" else state["stage"],
        "signup_seat": state["seats"][state["signup"]] if state["stage"] == "signup" else None,
        "round": state["round"], "turn": number, "active": turn["seat"] if turn else None,
        "order": list(state["order"]),
        "zones_to_win": state["zones_to_win"], "rounds": state["rounds"],
        "zones": [zone_view(state, board, z, viewer, everything, number) for z in board.order],
        "result": result_view(state),
    }
    if everything:
        out["realms"] = [realm(state, s) for s in state["seats"] if s in state["factions"]]
    if viewer is not None:
        out["you"] = own_view(state, viewer)
    return out


def result_view(state) -> dict | None:
    """The end of the campaign, in words."""
    result = state["result"]
    if result is None:
        return None
    return {"winners": list(result["winners"]), "zones": dict(result["zones"]),
            "reason": reason_text(result)}


def reason_text(result) -> str:
    """Why the campaign ended, in the current language."""
    reason = END_REASONS[result["reason"]]
    return _(reason).format(**result["values"])


def zone_view(state, board, zone, viewer, everything, number) -> dict:
    """One zone as the viewer knows it."""
    x, y = board.xy[zone]
    out = {"name": zone, "number": board.number[zone], "x": x, "y": y, "owner": None,
           "colour": GREY, "status": "unknown", "armies": None, "homeland": None,
           "turn": None, "stale": False}
    holder = owner_of(state, zone)
    realm_of = {viewer} | set(vassals_of(state, viewer)) if viewer else set()
    if everything or (holder is not None and holder in realm_of):
        out.update(status="own" if holder == viewer else ("open" if everything else "vassal"),
                   owner=holder, homeland=holder is not None and
                   state["homelands"].get(holder) == zone,
                   armies=[army_view(a, s, n) for s, n, a in armies_in(state, zone)
                           if everything or s in realm_of])
    else:
        fact = known(state, viewer, zone)
        if fact is not None:
            out.update(status="known", owner=fact["fact"]["owner"],
                       armies=fact["fact"]["armies"], homeland=fact["fact"]["homeland"],
                       turn=fact["turn"], stale=fact["turn"] < number)
        mine = [army_view(a, s, n) for s, n, a in armies_in(state, zone) if s in realm_of]
        if mine:    # its own armies there (come to fight, say): always on its own map,
            # first, apart from what it learned (`own` of them; `learned`: None, unknown)
            out.update(status="known" if fact is not None else "present", own=len(mine),
                       learned=out["armies"], armies=mine + list(out["armies"] or []))
    if out["owner"] in state["factions"]:
        out["colour"] = board.colour[state["factions"][out["owner"]]]
    return out


def known(state, viewer, zone) -> dict | None:
    """What the viewer knows of a zone it does not hold: its latest fact, or the homelands."""
    if viewer is not None:
        entry = state["knowledge"].get(viewer, {}).get(zone)
        if entry is not None:
            return entry
    for seat, home in state["homelands"].items():
        if home == zone:
            return {"turn": 0, "fact": {"owner": seat, "armies": None, "homeland": True}}
    return None


def army_view(army, seat, name) -> dict:
    """An army shown in full."""
    return {"seat": seat, "name": name, "points": points(army), "units": dict(army["units"]),
            "lord": army["lord"], "main": army["main"],
            "text": units_text(army["units"], army["lord"])}


def army_lines(army, zone: str) -> list[str]:
    """An army in a seat's mail: name, zone (as its reader reads it), points, units (folded
    within 78 columns)."""
    main = " " + _("(Main Host)") if army["main"] else ""
    return indent(_("{army} in {zone}, {points}{main}: {units}").format(
        army=army_name(army["name"]), zone=zone, points=points_text(army["points"]),
        main=main, units=army["text"]))


def realm(state, seat) -> dict:
    """A seat's realm in full: gold, zones, armies, its Lord."""
    board = board_of(state)
    return {"seat": seat, "faction": faction_name(state["factions"][seat]),
            "homeland": state["homelands"][seat], "gold": state["gold"][seat],
            "zones": zones_of(state, seat), "homeland_label": board.label(state["homelands"][seat]),
            "zone_labels": board.labels(zones_of(state, seat)),
            "armies": [{**army_view(a, seat, n), "zone": a["zone"],
                        "lines": army_lines(army_view(a, seat, n), board.label(a["zone"]))}
                       for n, a in sorted(state["armies"][seat].items())],
            "lord": lord_text(state, seat), "trick": bool(state["tricks"].get(seat)),
            "overlord": state["overlord"].get(seat), "vassals": vassals_of(state, seat),
            "captives": captives(state, seat)}


def lord_text(state, seat) -> str:
    """Where a seat's Lord is, in words."""
    lord = state["lords"][seat]
    wound = " " + _("(grievously wounded: he sits out the next battle)") if lord["wounded"] \
        else ""
    if lord["status"] == "captured":
        return _("captive of {seat} (ransom {gold} gold)").format(
            seat=lord["captor"], gold=ransom_of(state, seat)) + wound
    if lord["status"] == "waiting":
        return _("waiting for an army to lead") + wound
    army = next(n for n, a in sorted(state["armies"][seat].items()) if a["lord"])
    return _("with {army}").format(army=army_name(army)) + wound


def own_view(state, seat) -> dict:
    """What this seat alone sees: its realm, its vassals', what it may order, its battle."""
    if seat not in state["factions"]:
        yours = {"seat": seat, "faction": None, "vassals": [], "zones": [], "armies": [],
                 "overlord": None}
    else:
        yours = realm(state, seat)
    yours["vassal_realms"] = [realm(state, v) for v in vassals_of(state, seat)]
    asked = {s: r.kind for s, r in pending(state).items()
             if (controller(state, s) or s) == seat}
    yours["asked"] = asked
    chosen = {s: options(state, s, kind) for s, kind in asked.items()}
    yours["options"] = {s: [line for c in found for line in c["text"]]
                        for s, found in chosen.items()}
    yours["option_orders"] = {s: [o for c in found for o in c["orders"]]
                              for s, found in chosen.items()}
    yours["battle"] = battle_view(state, seat)
    yours["focus"] = state["turn"]["battle"]["zone"] if yours["battle"] else focus(state, asked)
    yours["examples"] = examples(state, seat)
    income = ZONE_INCOME * len(yours["zones"])
    upkeep = UPKEEP * sum(a["points"] for a in yours["armies"])
    yours["upkeep"] = {"income": income, "upkeep": upkeep, "zone_income": ZONE_INCOME,
                       "cost": POINT_COST}
    return yours


def focus(state, asked: dict) -> str | None:
    """The zone what a seat that fights no battle is asked is about, if any: the one its
    army is asked to retreat from, the one it scouted."""
    turn = state["turn"]
    if not asked or not turn:
        return None
    if turn["stage"] == "retreat":
        return turn["contact"]["zone"]
    if turn["stage"] == "move" and turn["scout"]:
        return turn["scout"]["zone"]
    return None


def options(state, seat, kind) -> list[dict]:
    """The choices of a seat asked `kind` now (choices.py), each with its lines of mail
    (folded within 78 columns)."""
    return [{**choice, "text": indent(choice["line"] + (f"   {choice['note']}"
                                                       if choice["note"] else ""))}
            for choice in choices(state, seat, kind, reads)]


def indent(line, first="  ", rest="      ") -> list[str]:
    """A line folded within the text width, its continuation indented."""
    return textwrap.wrap(line, WIDTH, initial_indent=first, subsequent_indent=rest,
                         break_long_words=False, break_on_hyphens=False)


def battle_view(state, seat) -> dict | None:
    """The battle this seat fights now, as its two players see it (not even an overlord
    sees its vassal's)."""
    turn = state["turn"]
    battle = turn["battle"] if turn else None
    if not battle or turn["stage"] not in ("setup", "battle", "dispute", "aftermath"):
        return None
    if seat not in (battle["attacker"], battle["defender"]):
        return None
    out = {"zone": board_of(state).label(battle["zone"]), "attacker": battle["attacker"],
           "defender": battle["defender"], "homeland": battle["homeland"],
           "dice": battle["dice"], "chooser": battle["chooser"],
           "scenario": battle.get("scenario"),
           "scenario_name": scenario_name(battle["scenario"]) if battle.get("scenario") else None,
           "points_rule": bool(battle.get("points_rule")), "bonus": battle["bonus"],
           "stage": turn["stage"], "forces": None, "winner": battle.get("winner"),
           "rolls": None}
    if battle.get("forces"):
        out["forces"] = [{"seat": s, "role": role, **battle["forces"][s],
                          "lines": indent(_("{role} {seat}: {force}").format(
                              role=label, seat=s, force=force_text(battle["forces"][s])))}
                         for role, label, s in (
                             ("attacker", _("ATTACKER"), battle["attacker"]),
                             ("defender", _("DEFENDER"), battle["defender"]))]
    if battle.get("rolls"):
        out["rolls"] = [line for t in ("winner", "loser", "lord") if t in battle["rolls"]
                        for line in indent(table_text({**battle["rolls"][t], "table": t}))]
    return out


# ---------------------------------------------------------------- the map as text

def board_text(view) -> str:
    """The map as monospace text, one zone a line, within 78 columns."""
    lines = [headline(view), ""]
    lines.append("{:<17}{:<21}{}".format(_("Zone"), _("Held by"), _("Armies")))
    for zone in view["zones"]:
        lines.append(zone_line(view, zone))
    lines.append("")
    lines += legend(view)
    return "\n".join(line.rstrip() for line in lines)


def label(view, zone: str) -> str:
    """A zone of the view's map as its reader reads it."""
    return shown(view["board"]["french"], zone)


def headline(view) -> str:
    """The campaign's state in one line."""
    title = _("SAGA campaign")
    if view["result"]:
        return _("{title}: over ({winners} won)").format(
            title=title, winners=", ".join(view["result"]["winners"]))
    if view["stage"] == "signup":
        return _("{title}: signup, {seat} chooses").format(title=title, seat=view["signup_seat"])
    return _("{title}, round {round}, turn {turn}: {seat} plays").format(
        title=title, round=view["round"], turn=view["turn"], seat=view["active"])


def holder_text(view, owner) -> str:
    """'ann (Vikings)' or '-'."""
    if owner is None:
        return _("nobody")
    faction = next((f["name"] for f in view["factions"] if f["seat"] == owner), "")
    return f"{owner} ({faction})" if faction else owner


def zone_line(view, zone) -> str:
    """One zone: number, name, holder, armies; with the turn a fact was learned."""
    name = f"{zone['number']:>2} {label(view, zone['name'])}"
    if zone["status"] == "unknown":
        return f"{name:<17}?"
    holder = "?" if zone["status"] == "present" else holder_text(view, zone["owner"])
    if zone["homeland"]:
        holder += " *"
    armies = armies_text(zone["armies"])
    when = ""
    if zone["status"] == "known":
        when = " " + learned_when(zone)
        if zone.get("own"):
            armies = armies_text(zone["armies"][:zone["own"]]) + "; " + \
                armies_text(zone["learned"])
    text = f"{name:<17}{holder:<20} {armies}{when}"
    if len(text) > WIDTH:
        text = f"{name:<17}{holder}\n{'':<19}{armies}{when}"
    return text


def learned_when(zone) -> str:
    """When the viewer learned what it knows of a zone: "(turn 3)", "(turn 3, may have
    changed)"; "(setup, ...)" for a homeland known since the signup."""
    if not zone["turn"]:
        return _("(setup, may have changed)") if zone["stale"] else _("(setup)")
    return (_("(turn {turn}, may have changed)") if zone["stale"]
            else _("(turn {turn})")).format(turn=zone["turn"])


def armies_text(armies) -> str:
    """The armies of a zone as the viewer knows them."""
    if armies is None:
        return "?"
    if not armies:
        return _("no army")
    parts = []
    for army in armies:
        if army.get("points") is None:
            parts.append(_("an army"))
            continue
        label = army_name(army["name"]) if army.get("name") else _("army")
        text = f"{label} {army['points']}"
        if army.get("units"):
            short = "/".join(str(army["units"].get(t, 0)) for t in UNIT_TYPES)
            text += f" ({short}{' +L' if army.get('lord') else ''})"
        parts.append(text)
    return ", ".join(parts)


def legend(view) -> list[str]:
    """How to read the map."""
    lines = wrap(_("* a homeland. Armies: name points (hearthguards/warriors/levies, "
                   "+L the Lord).")) + \
        wrap(_("? not known. A zone you do not hold shows what you learned, and when."))
    factions = ", ".join(f"{f['seat']} {f['name']} ({label(view, f['homeland'])})"
                         for f in view["factions"])
    if factions:
        lines += wrap(_("Factions: {list}.").format(list=factions))
    goal = view["zones_to_win"]
    lines += wrap(_("The first to hold {num} zones wins.").format(num=goal) if goal else
                  _("After round {num}, most zones wins.").format(num=view["rounds"]))
    return lines


def wrap(text) -> list[str]:
    """A long line folded within the text width."""
    return textwrap.wrap(text, WIDTH, subsequent_indent="  ")


# ---------------------------------------------------------------- the map as SVG

def svg_context(view) -> dict:
    """Zones, links, armies and the legend for board.svg.j2: each zone as zone.svg.j2
    draws it, each link as link.svg.j2 does."""
    where = {z["name"]: (z["x"], z["y"]) for z in view["zones"]}
    return {
        "zones": [zone_drawing(view, zone) for zone in view["zones"]],
        "links": [link(where, a, b, sea=kind == "sea") for kind in ("land", "sea")
                  for a, b in view["board"][kind]],
        "legend": [{"name": f"{f['seat']}: {f['name']}", "fill": f["colour"], "x": 14,
                    "y": view["board"]["height"] - 16 - 16 * i}
                   for i, f in enumerate(reversed(view["factions"]))],
        "width": view["board"]["width"], "height": view["board"]["height"],
        "title": headline(view),
    }


def own_area(view) -> list:
    """The zone what the viewing seat is asked is about (its battle's, see `focus`); else
    the zones it holds or has armies in (its homeland, when none); in the board's SVG
    units: what its close-up shows."""
    you = view.get("you")
    if not you:
        return []
    if you.get("focus"):
        return [(z["x"], z["y"]) for z in view["zones"] if z["name"] == you["focus"]]
    mine = [(z["x"], z["y"]) for z in view["zones"] if z["owner"] == you["seat"]
            or any(army.get("seat") == you["seat"] for army in z["armies"] or ())]
    return mine or [(z["x"], z["y"]) for z in view["zones"] if z["name"] == you.get("homeland")]


def zone_drawing(view, zone) -> dict:
    """A zone's circle as zone.svg.j2 draws it: its holder's colour, its armies' points
    and, for what the viewer only remembers, the turn it saw it."""
    return {"name": zone["name"], "caption": label(view, zone["name"]), "number": zone["number"],
            "x": zone["x"], "y": zone["y"],
            "radius": ZONE_RADIUS, "colour": zone["colour"], "homeland": zone["homeland"],
            "stale": zone["stale"],
            "dashed": zone["status"] in ("unknown", "present") or zone["stale"],
            "label": "?" if zone["status"] == "unknown" else armies_badge(zone["armies"]),
            "mark": f"t{zone['turn']}" if zone["status"] == "known" and zone["turn"] else "",
            "title": zone_title(view, zone)}


def armies_badge(armies) -> str:
    """A zone's armies on the map: their points, or '?'."""
    if armies is None:
        return ""
    if not armies:
        return "0"
    return "+".join("?" if a.get("points") is None else str(a["points"]) for a in armies)


def zone_title(view, zone) -> str:
    """A zone's tooltip."""
    if zone["status"] == "unknown":
        return f"{label(view, zone['name'])}: " + _("not known")
    holder = "?" if zone["status"] == "present" else holder_text(view, zone["owner"])
    text = f"{label(view, zone['name'])}: {holder}, {armies_text(zone['armies'])}"
    if zone["status"] == "known":
        text += " " + _("(turn {turn})").format(turn=zone["turn"])
    return text


def link(where, a, b, sea: bool) -> dict:
    """A link between two zones, drawn between their circles (dashed across the sea)."""
    (x1, y1), (x2, y2) = where[a], where[b]
    dx, dy = x2 - x1, y2 - y1
    length = max((dx * dx + dy * dy) ** 0.5, 1)
    cut = min(28 / length, 0.45)
    return {"x1": round(x1 + dx * cut, 1), "y1": round(y1 + dy * cut, 1),
            "x2": round(x2 - dx * cut, 1), "y2": round(y2 - dy * cut, 1), "sea": sea}


# ---------------------------------------------------------------- narration

def briefing(state, seat) -> dict:
    """What a seat must know to play, for its welcome: how to win, its zones, its rivals.

    {"text": short paragraphs in the current language, "allies": []}: every
    other player is a rival (a beaten one may become a vassal).
    """
    goal = state["zones_to_win"]
    lines = [
        _("How to win: be the first to hold {num} zones.").format(num=goal) if goal else
        _("How to win: hold the most zones when round {num} ends (then the most army "
          "points, then the most gold).").format(num=state["rounds"]),
        _("A player whose every rival is its vassal wins at once."),
    ]
    held = zones_of(state, seat)
    if held:
        lines.append(ngettext("You hold {num} zone now: {zones}.",
                              "You hold {num} zones now: {zones}.", len(held)).format(
            num=len(held), zones=", ".join(board_of(state).labels(held))))
    lines.append(_("Take zones by moving an army of 4 points or more into a zone you do not "
                   "control. A stronger army, or a homeland, means a battle: you play it "
                   "on your table with its owner, and both of you mail the result."))
    return {"text": "\n".join(lines), "allies": []}


def disputed_text(p) -> str:
    """A battle whose reports do not agree, with what each side said."""
    said = []
    for seat, winner in sorted((p.get("claims") or {}).items()):
        points = (p.get("points") or {}).get(seat)
        if winner is None:
            said.append(_("{seat} sent no report").format(seat=seat))
        elif points is None:
            said.append(_("{seat} says {winner} won").format(seat=seat, winner=winner))
        else:
            said.append(_("{seat} says {winner} won, {num} points left on the field").format(
                seat=seat, winner=winner, num=points))
    return _("the battle of {zone} goes to the referee: {reports}").format(
        zone=p["zone"], reports=_("; ").join(said))


# The fields of an event that name an army (narrated by the army's name in the reader's
# words: 'ost' in French), and those that name a zone (by its name in the reader's words).
ARMY_KEYS = ("army", "other", "new")
ZONE_KEYS = ("zone", "from", "to", "homeland", "scouted")


def narrate(event, state=None) -> str | None:
    """One event as a sentence for a report; None for events players need not read. Its
    zones read as the campaign's map names them (`state`: the game's state; without it, a
    zone of a shipped map reads its French name, any other its name)."""
    if event.type == "turn_began" and reader() is None:
        return public_turn(event.payload, state)
    handler = NARRATIONS.get(event.type)
    if not handler:
        return None
    french = board_of(state).french if state else shipped_french()
    p = event.payload
    told = {**p, **{key: army_name(p[key]) for key in ARMY_KEYS if isinstance(p.get(key), str)},
            **{key: shown(french, p[key]) for key in ZONE_KEYS if isinstance(p.get(key), str)}}
    if "recruits" in p:
        told["recruits"] = [{**r, "place": r["place"] and shown(french, r["place"])}
                            for r in p["recruits"]]
    return handler(told)


def public_turn(p, state) -> str:
    """Whose turn begins, as the public reads it (a seat reads its own turn's mail)."""
    if state is not None and state["fog"]:
        return _("{seat} plays turn {number}: under fog of war, what its armies do is known "
                 "only to the seats they meet.").format(seat=p["seat"], number=p["number"])
    return _("{seat} plays turn {number}.").format(seat=p["seat"], number=p["number"])


def force_text(force) -> str:
    """One side of a battle in full."""
    text = units_text(force["units"], force["lord"])
    if force.get("lord_sits_out"):
        text += " " + _("(the Lord, wounded, sits this battle out)")
    return _("{army}, {points}: {units}").format(army=army_name(force["army"]),
                                                 points=points_text(force["points"]),
                                                 units=text)


def _from(p):
    return p["from"]


def scouted_text(p) -> str:
    """A scouting's answer."""
    head = _("scouting {zone}: die {die}, {name}").format(
        zone=p["zone"], die=p["die"], name=effect_name(p["effect"]))
    fact = p.get("fact")
    if not fact:
        return _("{scouting}: {seen}").format(scouting=head,
                                              seen=_("your scouts learned nothing"))
    holder = fact["owner"] or _("nobody")
    if not fact["armies"]:
        seen = _("held by {seat}, no army there").format(seat=holder)
    else:
        seen = _("held by {seat}: {armies}").format(seat=holder,
                                                    armies=armies_text(fact["armies"]))
    if fact.get("homeland"):
        seen += ", " + _("their homeland")
    elif fact.get("homeland") is False and fact["owner"]:
        seen += ", " + _("not a homeland")
    if p["bonus"]:
        seen += ". " + _("If you attack it this turn, the defender starts the battle with at "
                         "most 3 points; the rest arrives on the third battle turn from your "
                         "edge")
    return _("{scouting}: {seen}").format(scouting=head, seen=seen)


def table_text(p) -> str:
    """A roll on the winner's, the loser's or the Lord's table."""
    name = effect_name(p["effect"])
    again = " " + _("(a dirty trick rerolled a 1)") if p.get("rerolled") else ""
    if p["table"] == "lord":
        return _("{seat}'s Lord rolls {die} on the Lord's table: {name}").format(
            seat=p["seat"], die=p["die"], name=name) + again
    lost = ngettext("{num} unit lost", "{num} units lost", p["lose"]).format(num=p["lose"]) \
        if p["lose"] else _("no loss")
    return _("{seat} rolls {die}: {name}, {lost}").format(seat=p["seat"], die=p["die"],
                                                          name=name, lost=lost) + again


REFUSALS = {"twice": lambda: _("one unit of each type per turn"),
            "gold": lambda: _("not enough gold"),
            "army_full": lambda: _("that army holds 8 points already"),
            "zone_full": lambda: _("that zone holds 8 points already"),
            "not_yours": lambda: _("that zone is not yours any more")}

NARRATIONS = {
    "setup": lambda p: _("a SAGA campaign with {seats}; fog of war {fog}").format(
        seats=", ".join(p["seats"]), fog=_("on") if p["fog"] else _("off")),
    "faction_chosen": lambda p: _("{seat} leads the {faction}, homeland {zone}").format(
        seat=p["seat"], faction=faction_name(p["faction"]), zone=p["homeland"]),
    "armies_raised": lambda p: _("{seat}'s armies: {armies}").format(
        seat=p["seat"], armies=_("; ").join(
            f"{army_name(n)} {units_text(a['units'], a['lord'])}"
            for n, a in sorted(p["armies"].items()))),
    "campaign_began": lambda p: _("the campaign begins"),
    "round_began": lambda p: _("round {round}: order of play {order}").format(
        round=p["round"], order=", ".join(p["order"])),
    "army_moved": lambda p: _("{army} moved from {a} to {b}").format(army=p["army"],
                                                                     a=_from(p), b=p["to"]),
    "armies_merged": lambda p: _("{other} joined {army} in {zone}").format(**p),
    "army_split": lambda p: _("{new} left {army} in {zone} with {units}").format(
        new=p["new"], army=p["army"], zone=p["zone"], units=units_text(p["units"], p["lord"])),
    "units_disbanded": lambda p: _("{seat} disbanded {units} of {army}").format(
        seat=p["seat"], army=p["army"], units=units_text(p["units"])),
    "ransom_paid": lambda p: _("{seat} paid {gold} gold to {captor}: its Lord is free").format(
        **p),
    "lord_released": lambda p: _("{seat} freed the Lord of {lord_of}").format(**p),
    "lord_joined": lambda p: (_("a new Lord of {seat} is named and leads {army}") if p["new"]
                              else _("the Lord of {seat} leads {army}")).format(**p),
    "lord_waits": lambda p: _("the Lord of {seat} waits for an army to lead").format(**p),
    "scouted": scouted_text,
    "trick_used": lambda p: _("{seat} played its dirty trick: the 1 on the {table} table is "
                              "rerolled, {die}").format(**p),
    "stayed": lambda p: (_("{seat} scouted {scouted} and stayed: its army of {points} "
                           "was seen in {zone}").format(seat=p["seat"], scouted=p["scouted"],
                                                        points=points_text(p["points"]),
                                                        zone=p["zone"])
                         if p["zone"] else _("{seat} stayed").format(seat=p["seat"])),
    "moved_out": lambda p: _("{army} marched from {a} into {b}").format(army=p["army"],
                                                                        a=_from(p), b=p["to"]),
    "zone_taken": lambda p: (_("{seat} took {zone} from {previous} with an army of {num} "
                               "points").format(seat=p["seat"], zone=p["zone"],
                                                previous=p["previous"], num=p["points"])
                             if p["previous"] else
                             _("{seat} took {zone}").format(seat=p["seat"], zone=p["zone"])),
    "armies_met": lambda p: _("{seat}'s army of {num} points entered {zone}, held by {owner} "
                              "with armies under 4 points: they give way").format(
        seat=p["seat"], num=p["attacker_points"], zone=p["zone"], owner=p["owner"]),
    "retreat_asked": lambda p: _("{seat} is asked where its armies in {zone} retreat").format(
        **p),
    "army_retreated": lambda p: _("{army} retreated from {a} to {b}").format(
        army=p["army"], a=_from(p), b=p["to"]),
    "army_destroyed": lambda p: _("{seat}'s army {army} ({points}) had nowhere to go and "
                                  "was destroyed in {zone}").format(
        seat=p["seat"], army=p["army"], points=points_text(p["points"]), zone=p["zone"]),
    "vassal_sworn": lambda p: _("{vassal} lost its homeland and is now the vassal of "
                                "{overlord}, who takes its {gold} gold").format(**p),
    "battle_joined": lambda p: battle_joined_text(p),
    "army_withdrawn": lambda p: _("{army} withdrew from {a} to {b} before the battle").format(
        army=p["army"], a=_from(p), b=p["to"]),
    "scenario_chosen": lambda p: (
        _("no choice came: the die picks the scenario, {name}") if p["by"] == "die" else
        _("{seat} chose the scenario: {name}")).format(seat=p["seat"],
                                                      name=scenario_name(p["scenario"])),
    "battle_set": lambda p: battle_set_text(p),
    "battle_disputed": lambda p: disputed_text(p),
    # A ruled battle: the engine's ruling sentence just before says who ruled and why.
    "battle_won": lambda p: _("{winner} won the battle of {zone} against {loser}").format(**p),
    "table_rolled": table_text,
    "units_lost": lambda p: _("{seat} lost {units} from {army}").format(
        seat=p["seat"], army=p["army"], units=units_text(p["units"], p["lord"])),
    "unit_promoted": lambda p: _("in {army}, one unit of {a} became {b}").format(
        army=p["army"], a=unit_name(_from(p)), b=unit_name(p["to"])),
    "lord_slain": lambda p: _("the Lord of {seat} is slain").format(**p),
    "lord_captured": lambda p: _("the Lord of {seat} is the captive of {captor} until "
                                 "ransomed for {ransom} gold").format(**p),
    "lord_wounded": lambda p: _("the Lord of {seat} is grievously wounded: he sits out the "
                                "next battle").format(**p),
    "lord_healed": lambda p: _("the Lord of {seat} has healed").format(**p),
    "trick_gained": lambda p: _("the Lord of {seat} escapes with a dirty trick: a 1 on a later "
                                "campaign die will be rerolled, once").format(**p),
    "army_fell_back": lambda p: _("{army} fell back from {a} to {b}").format(
        army=p["army"], a=_from(p), b=p["to"]),
    "army_lost": lambda p: _("{seat}'s army {army} had nowhere to fall back and is "
                             "lost").format(**p),
    "battle_over": lambda p: _("{owner} holds {zone}").format(**p),
    "recruits_set": lambda p: _("recruits for upkeep: {list}").format(list=", ".join(
        unit_name(r["type"]) + (f" ({r['place']})" if r["place"] else "")
        for r in p["recruits"])),
    "disband_asked": lambda p: ngettext(
        "{seat} cannot pay upkeep: {num} point to disband",
        "{seat} cannot pay upkeep: {num} points to disband", p["short"]).format(
        seat=p["seat"], num=p["short"]),
    "upkeep_paid": lambda p: ngettext(
        "upkeep of {seat}: {zones} zone brings {income} gold, the armies cost {upkeep}; "
        "treasury {before} -> {after}",
        "upkeep of {seat}: {zones} zones bring {income} gold, the armies cost {upkeep}; "
        "treasury {before} -> {after}", p["zones"]).format(**p),
    "unit_recruited": lambda p: _("{seat} recruited {units} into {army} in {zone}").format(
        seat=p["seat"], units=unit_count(p["type"], 1), army=p["army"], zone=p["zone"]),
    "recruit_refused": lambda p: _("no {unit} recruited: {why}").format(
        unit=unit_name(p["type"]), why=REFUSALS[p["why"]]()),
    "order_skipped": lambda p: _("an order could not be carried out: {why}").format(**p),
    "campaign_won": lambda p: ngettext(
        "the campaign is over: {winners} won ({reason})",
        "the campaign is over: {winners} won ({reason})", len(p["winners"])).format(
            winners=_(" and ").join(p["winners"]), reason=reason_text(p) + tie_text(p)),
}


def tie_text(p) -> str:
    """After the last round, the seats with as many zones as the winners, when the army
    points (then the gold) decided between them: '; as many zones as bea: ...'."""
    if p["reason"] != "rounds" or "zones" not in p:
        return ""
    best = p["zones"][p["winners"][0]]
    tied = [seat for seat, count in sorted(p["zones"].items())
            if count == best and seat not in p["winners"]]
    if not tied:
        return ""
    return _("; as many zones as {seats}: the most army points, then the most gold, "
             "decide").format(seats=_(" and ").join(tied))


def battle_joined_text(p) -> str:
    """The setup dice."""
    head = _("{attacker} attacks {defender} in {zone}").format(**p)
    if p["homeland"]:
        head += ", " + _("their homeland: the defender picks the scenario")
    else:
        picks = {"attacker": p["attacker"], "defender": p["defender"]}.get(p["chooser"])
        head += ", " + _("setup dice {a}+{d}: {picked}").format(
            a=p["dice"][0], d=p["dice"][1], picked=_("{seat} picks the scenario").format(
                seat=picks) if picks else _("the scenario is random, die {die}: {name}").format(
                    die=p["scenario_die"], name=scenario_name(p["scenario"])))
    return head


def battle_set_text(p) -> str:
    """The battle mail's heart: the scenario, both forces in full, the scouting bonus."""
    parts = [_("battle of {zone}: {name}").format(zone=p["zone"],
                                                  name=scenario_name(p["scenario"]))]
    for role, seat in ((_("attacker"), p["attacker"]), (_("defender"), p["defender"])):
        parts.append(_("{role} {seat}: {force}").format(role=role, seat=seat,
                                                        force=force_text(p["forces"][seat])))
    if p["bonus"]:
        parts.append(_("scouting bonus: the defender starts with at most 3 points, the rest "
                       "arrives on the third battle turn from the attacker's edge"))
    return _("; ").join(parts)

