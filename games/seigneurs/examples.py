"""The order examples a seat's HELP shows: orders it could really send now, in its words.

Each example that names a place, a seat or a number of warriors is built from
the seat's own position (its warriors, farms, claims, fights, stock) in the
reader's language, and kept only if the game's parser reads it in that
position without an error. When the seat has nothing that fits, the fixed
example of the syntax is shown instead. Candidates are tried in tile order,
then seat order, so the same position always gives the same examples.
"""

from pbem.i18n import _, ngettext

from . import economy, war
from .flow import revolt_choices
from .founding import nearest_open, village_pairs
from .material import RESOURCES, card_name, good_name
from .orders import parse
from .rules import (at_war, free_farms, goods_at, hostile, lord_farms, neighbours, place_owner,
                    places, stock, village_of)


def examples(state, seat) -> dict:
    """{row: text} for the HELP of the open stage: each order and what it says.

    Rows the stage's HELP does not name are left out; every value is a
    string in the current language.
    """
    builder = BUILDERS.get(state["stage"])
    return builder(state, seat) if builder else {}


def reads(state, seat, line: str) -> bool:
    """Does the game's parser read this line from this seat now, without an error?"""
    return not parse(state, seat, line)[1]


def first(state, seat, candidates):
    """The first candidate (a dict with its "line") the parser reads, or None."""
    return next((c for c in candidates if reads(state, seat, c["line"])), None)


def others(state, seat) -> list[str]:
    """The other seats, in seat order."""
    return [s for s in state["seats"] if s != seat]


def goods_words(goods: dict, most: int = 2) -> str:
    """'wood 2 food 1' in the reader's words: at most two goods, at most `most` of each."""
    held = [g for g in RESOURCES if goods.get(g)][:2]
    return " ".join(f"{good_name(g)} {min(goods[g], most)}" for g in held)


# ---------------------------------------------------------------- one builder per stage

def villages(state, seat) -> dict:
    found = first(state, seat, ({"line": _("village {first} {second}").format(
        first=a, second=b)} for a, b in village_pairs(state)))
    return {"village": found["line"] if found else _("village E2 E3")}


def farms(state, seat) -> dict:
    found = first(state, seat, ({"line": _("farm {tile} wood food").format(tile=t), "tile": t}
                                for t in nearest_open(state, village_of(state, seat))))
    if not found:
        return {"farm": _("farm C3 wood food"),
                "farm_text": _("a farm on C3; wood and food go into the bag")}
    return {"farm": found["line"], "farm_text": _(
        "a farm on {tile}; wood and food go into the bag").format(tile=found["tile"])}


def taxation(state, seat) -> dict:
    out = {"tax": _("tax C3 wood 2 food 1"),
           "tax_text": _("your collector takes these from C3"), "oath": _("oath C3")}
    taxed = first(state, seat, ({"line": _("tax {place} {goods}").format(
        place=p, goods=goods_words(goods_at(state, p))), "place": p}
        for p in tax_places(state, seat) if goods_at(state, p)))
    if taxed:
        out.update(tax=taxed["line"], tax_text=_(
            "your collector takes these from {place}").format(place=taxed["place"]))
    sworn = first(state, seat, ({"line": _("oath {place}").format(place=p)}
                                for p in free_farms(state)))
    if sworn:
        out["oath"] = sworn["line"]
    return out


def tax_places(state, seat) -> list[str]:
    """Places a collector of this seat could tax: its own farms first, then the others'."""
    own = lord_farms(state, seat)
    return own + [p for p in places(state) if p not in own and place_owner(state, p)
                  and p != village_of(state, seat)]


def opposition(state, seat) -> dict:
    out = {"oppose": _("oppose C3 2"), "oppose_text": _("two warriors block the claim on C3"),
           "support": _("support C3 1"),
           "support_text": _("one warrior backs the collector on C3")}
    for side, most, verb, text in (
            ("oppose", 2, _("oppose {place} {number}"),
             lambda n: ngettext("{number} warrior blocks the claim on {place}",
                                "{number} warriors block the claim on {place}", n)),
            ("support", 1, _("support {place} {number}"),
             lambda n: ngettext("{number} warrior backs the collector on {place}",
                                "{number} warriors back the collector on {place}", n))):
        found = first(state, seat, (
            {"line": verb.format(place=c["place"], number=number), "place": c["place"],
             "number": number}
            for c in economy.open_claims(state)
            for number in [min(most, len(free_to_send(state, seat, c["place"])))] if number))
        if found:
            out[side] = found["line"]
            out[f"{side}_text"] = text(found["number"]).format(**found)
    return out


def free_to_send(state, seat, place) -> list:
    """The seat's warriors that could still be sent to a claim on this place."""
    return [w for w in economy.available(state, seat, place)
            if str(w["id"]) not in state["engaged"]]


def parley(state, seat) -> dict:
    mine = [c["place"] for c in economy.contested(state)
            if seat in economy.parties(state, c)]
    place = next((p for p in mine if reads(state, seat, _("fight {place}").format(place=p))),
                 None)
    if place is None:
        return {"agree": _("agree C3"), "fight": _("fight C3")}
    return {"agree": _("agree {place}").format(place=place),
            "fight": _("fight {place}").format(place=place)}


def combat(state, seat) -> dict:
    out = {"hit": _("hit C3 bob armed"), "hit_text": _("your hits take bob's armed warriors "
                                                      "first"),
           "kill": _("kill C3"), "stop": _("stop C3")}
    mine = [p for p in sorted(state["fights"], key=places(state).index)
            if seat in war.fighters(state, p)]
    hit = first(state, seat, ({"line": _("hit {place} {seat} armed").format(place=p, seat=s),
                               "seat": s} for p in mine for s in war.fighters(state, p)
                              if hostile(state, p, seat, s)))
    if hit:
        out.update(hit=hit["line"], hit_text=_(
            "your hits take {seat}'s armed warriors first").format(seat=hit["seat"]))
    place = next((p for p in mine if reads(state, seat, _("stop {place}").format(place=p))),
                 None)
    if place:
        out.update(kill=_("kill {place}").format(place=place),
                   stop=_("stop {place}").format(place=place))
    return out


def event(state, seat) -> dict:
    found = first(state, seat, ({"line": _("card {card}").format(card=card_name(c))}
                                for c in state["deck"]))
    return {"card": found["line"] if found else _("card horde")}


def market(state, seat) -> dict:
    out = {"offer": _("offer bob give wood 2 take metal 1"),
           "answer": _("accept 3 / refuse 3"), "peace": _("peace bob")}
    held = stock(state, seat)
    offered = first(state, seat, ({"line": _("offer {seat} give {give} take {take}").format(
        seat=s, give=f"{good_name(g)} 1", take=f"{good_name(t)} 1")}
        for s in others(state, seat) for g in RESOURCES if held.get(g)
        for t in RESOURCES if t != g))
    if offered:
        out["offer"] = offered["line"]
    answered = first(state, seat, ({"line": _("accept {number}").format(number=o["id"]),
                                    "number": o["id"]} for o in state["offers"]))
    if answered:
        out["answer"] = _("accept {number} / refuse {number}").format(number=answered["number"])
    out["peace"] = peace(state, seat) or out["peace"]
    return out


def peace(state, seat) -> str | None:
    """A peace this seat may offer now (to an enemy at war with it), or None."""
    found = first(state, seat, ({"line": _("peace {seat}").format(seat=s)}
                                for s in others(state, seat) if at_war(state, seat, s)))
    return found["line"] if found else None


def movement(state, seat) -> dict:
    out = {"move": _("move C3 D4 2"),
           "move_text": _("two warriors one tile (all, without a number)"),
           "war": _("war bob / peace bob"), "leave": _("leave A3 / recruit")}
    moved = first(state, seat, (
        {"line": _("move {source} {target} {number}").format(source=p, target=t,
                                                             number=min(fit, 2)),
         "number": min(fit, 2)}
        for p in places(state) for fit in [len(war.movable(state, seat, p))] if fit
        for t in neighbours(state, p)))
    if moved:
        out.update(move=moved["line"], move_text=ngettext(
            "{number} warrior one tile (all, without a number)",
            "{number} warriors one tile (all, without a number)",
            moved["number"]).format(number=moved["number"]))
    enemy = first(state, seat, ({"line": _("war {seat}").format(seat=s)}
                                for s in state["lords"] if s != seat
                                and not at_war(state, seat, s)))
    said = [enemy["line"] if enemy else None, peace(state, seat)]
    if any(said):
        out["war"] = " / ".join(s for s in said if s)
    if seat == state["barbarian"]:
        left = first(state, seat, ({"line": _("leave {place}").format(place=p)}
                                   for p in places(state)))
        if left:
            recruit = _("recruit")
            out["leave"] = f"{left['line']} / {recruit}" if reads(state, seat, recruit) \
                else left["line"]
    return out


def aftermath(state, seat) -> dict:
    found = first(state, seat, ({"line": _("pillage {place}").format(place=p), "place": p}
                                for p in war.pillage_options(state, seat)))
    out = {"loot": _("pillage C3 / raze C3"), "peace": peace(state, seat) or _("peace bob")}
    if found:
        out["loot"] = _("pillage {place} / raze {place}").format(place=found["place"])
    return out


def growth(state, seat) -> dict:
    out = {"found": _("found C3 D4 wood food"),
           "found_text": _("C3 discards 4 and founds a farm on D4"),
           "village": _("found C3 village food")}
    sources = economy.growth_sources(state, seat)
    found = first(state, seat, ({"line": _("found {source} {tile} wood food").format(
        source=s, tile=t), "source": s, "tile": t}
        for s in sources for t in nearest_open(state, s)[:6]))
    if found:
        out.update(found=found["line"], found_text=_(
            "{source} discards 4 and founds a farm on {tile}").format(
                source=found["source"], tile=found["tile"]))
    home = first(state, seat, ({"line": _("found {source} village food").format(source=s)}
                               for s in sources))
    if home:
        out["village"] = home["line"]
    return out


def revolt(state, seat) -> dict:
    ruling = _("ruling")
    choices = sorted(revolt_choices(state).items())
    found = first(state, seat, ({"line": f"{ruling} {key} {words[0]}"}
                                for key, words in choices if words))
    return {"ruling": found["line"] if found else f"{ruling} ann-1 c3"}


def judgement(state, seat) -> dict:
    lord = state["lords"][0] if state["lords"] else "ann"
    said = [_("ruling"), _("winner"), lord, _("your reasons")]
    return {"ruling": " ".join(said)}


BUILDERS = {
    "villages": villages, "farms": farms, "taxation": taxation, "opposition": opposition,
    "parley": parley, "combat": combat, "event": event, "market": market,
    "movement": movement,
    "aftermath": aftermath, "growth": growth, "revolt": revolt, "judgement": judgement,
}
