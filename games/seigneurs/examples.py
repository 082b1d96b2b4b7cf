"""The orders a seat's HELP offers: candidates from its own position, in its words.

Each row of the open stage's HELP is an order kind with the lines that
could illustrate it, best first, built from the seat's own position (its
warriors, farms, claims, fights, stock, the cards left) in the reader's
language, each with what it says. orders.help_rows keeps, for each row, the
first line the parser reads in that position, and leaves a row out when
none does: a seat is never shown an order it could not send now. Candidates
are tried in tile order, then seat order, so the same position always gives
the same examples.
"""

from pbem.i18n import _, ngettext

from . import development, economy, war
from .flow import revolt_choices
from .founding import nearest_open, village_pairs
from .material import BUILDINGS, RESOURCES, building_name, card_name, good_name
from .rules import (at_war, free_farms, goods_at, hostile, lord_farms, neighbours, place_owner,
                    places, stock, village_of, warriors_at)


def candidates(state, seat) -> list[tuple[str, list]]:
    """[(order kind, [(line, what it says), ...])] for the HELP of the open stage."""
    builder = BUILDERS.get(state["stage"])
    rows = builder(state, seat) if builder else []
    if state["stage"] not in ("revolt", "judgement"):
        rows.append(("pass", [(_("pass"), "")]))
    return rows


def others(state, seat) -> list[str]:
    """The other seats, in seat order."""
    return [s for s in state["seats"] if s != seat]


def goods_words(goods: dict, most: int = 2) -> str:
    """'wood 2 food 1' in the reader's words: at most two goods, at most `most` of each."""
    held = [g for g in RESOURCES if goods.get(g)][:2]
    return " ".join(f"{good_name(g)} {min(goods[g], most)}" for g in held)


# ---------------------------------------------------------------- one builder per stage

def villages(state, seat) -> list:
    return [("village", [(_("village {first} {second}").format(first=a, second=b),
                          _("your two adjoining village tiles"))
                         for a, b in village_pairs(state)])]


def farms(state, seat) -> list:
    rows = [("farm", [(_("farm {tile} wood food").format(tile=t),
                       _("a farm on {tile}; wood and food go into the bag").format(tile=t))
                      for t in nearest_open(state, village_of(state, seat))])]
    if seat != state["barbarian"]:
        rows.append(("farm", [(_("farm village food"),
                               _("a farm in your village; you get a food"))]))
    return rows


def taxation(state, seat) -> list:
    home = village_of(state, seat)
    return [
        ("produce", [(_("produce stone stone food"), _("your domain's three resources"))]),
        ("tax", [(_("tax {place} {goods}").format(place=p, goods=goods_words(goods_at(state, p))),
                  _("your collector takes these from {place}").format(place=p))
                 for p in tax_places(state, seat) if goods_at(state, p)]),
        ("tax", [(_("tax village all"), _("...or everything, here on your village"))]
         if home and goods_at(state, home) else []),
        ("oath", [(_("oath {place}").format(place=p),
                   _("collector and a warrior swear a free farm to you"))
                  for p in free_farms(state)]),
    ]


def tax_places(state, seat) -> list[str]:
    """Places a collector of this seat could tax: its own farms first, then the others'."""
    own = lord_farms(state, seat)
    return own + [p for p in places(state) if p not in own and place_owner(state, p)
                  and p != village_of(state, seat)]


def opposition(state, seat) -> list:
    """Oppose a claim, or support one: first the seat's own claim that others oppose."""
    rows = []
    claims = economy.open_claims(state)
    mine_first = sorted(claims, key=lambda c: not (c["sides"].get(seat) == "collector"
                                                    and economy.side_seats(state, c, "opposer")))
    for side, most, verb, says in (
            ("oppose", 2, _("oppose {place} {number}"),
             lambda n: ngettext("{number} warrior blocks the claim on {place}",
                                "{number} warriors block the claim on {place}", n)),
            ("support", 1, _("support {place} {number}"),
             lambda n: ngettext("{number} warrior backs the collector on {place}",
                                "{number} warriors back the collector on {place}", n))):
        rows.append((side, [(verb.format(place=c["place"], number=n),
                             says(n).format(place=c["place"], number=n))
                            for c in (mine_first if side == "support" else claims)
                            for n in [min(most, len(free_to_send(state, seat, c["place"])))]
                            if n]))
    return rows


def free_to_send(state, seat, place) -> list:
    """The seat's warriors that could still be sent to a claim on this place."""
    return [w for w in economy.available(state, seat, place)
            if str(w["id"]) not in state["engaged"]]


def parley(state, seat) -> list:
    mine = [c["place"] for c in economy.contested(state) if seat in economy.parties(state, c)]
    return [("agree", [(_("agree {place}").format(place=p) + " " + _("your terms"),
                        _("settle: the claim is withdrawn, your words kept")) for p in mine]),
            ("fight", [(_("fight {place}").format(place=p), _("fight it out with dice"))
                       for p in mine])]


def combat(state, seat) -> list:
    mine = [p for p in sorted(state["fights"], key=places(state).index)
            if seat in war.fighters(state, p)]
    return [("hit", [hit_line(state, p, s) for p in mine
                     if state["fights"][p]["hits"].get(seat)
                     for s in war.fighters(state, p) if hostile(state, p, seat, s)]),
            ("kill", [(_("kill {place}").format(place=p),
                       _("if you win, the enemies lying there die")) for p in mine]),
            ("stop", [(_("stop {place}").format(place=p),
                       _("stop (the fight stops when all stop)")) for p in mine])]


def hit_line(state, place, enemy) -> tuple:
    """Naming an enemy's warriors as victims: its armed ones first when it has some."""
    if any(w["armed"] and w["seat"] == enemy for w in warriors_at(state, place, fit=True)):
        return (_("hit {place} {seat} armed").format(place=place, seat=enemy),
                _("your hits take {seat}'s armed warriors first").format(seat=enemy))
    return (_("hit {place} {seat}").format(place=place, seat=enemy),
            _("your hits take {seat}'s warriors").format(seat=enemy))


def event(state, seat) -> list:
    return [("card", [(_("card {card}").format(card=card_name(c)),
                       _("the card of this turn, one of your deck:")) for c in state["deck"]])]


def market(state, seat) -> list:
    held = stock(state, seat)
    merchants = state["merchants"] or {"goods": []}
    return [
        ("offer", [(_("offer {seat} give {give} take {take}").format(
            seat=s, give=f"{good_name(g)} 1", take=f"{good_name(t)} 1"), "")
            for s in others(state, seat) for g in RESOURCES if held.get(g)
            for t in RESOURCES if t != g]),
        ("accept", [(_("accept {number} / refuse {number}").format(number=o["id"]),
                     _("answer an offer made to you")) for o in state["offers"]
                    if o["to"] == seat and o["status"] == "open"]),
        ("buy", [(_("buy {good} 1").format(good=good_name(g)),
                  _("buy from the merchants")) for g in merchants["goods"]]),
        ("sell", [(_("sell {good} 1").format(good=good_name(g)), _("sell to the merchants"))
                  for g in merchants["goods"] if held.get(g)]),
        ("peace", peace(state, seat)),
    ]


def peace(state, seat) -> list:
    """Peace offered to each enemy at war with this seat: first to those who offered it to
    this seat (sending it back makes the peace)."""
    offered = [p["from"] for p in state["proposals"]
               if p["kind"] == "peace" and p["to"] == seat]
    enemies = [s for s in others(state, seat) if at_war(state, seat, s)]
    return [(_("peace {seat}").format(seat=s) + " " + _("your terms"),
             _("make the peace {seat} offers").format(seat=s) if s in offered else
             _("offer peace")) for s in sorted(enemies, key=lambda s: s not in offered)]


def construction(state, seat) -> list:
    owing = [b for b in BUILDINGS if not development.done_building(state, seat, b)]
    started = [b for b in owing if b in state["buildings"].get(seat, {})]
    held = stock(state, seat)
    return [
        ("build", [(_("build {building} {goods}").format(
            building=building_name(b), goods=f"{good_name(g)} 1"),
            _("pay on a building (or just: build {building})").format(
                building=building_name(b)))
            for b in started + [b for b in owing if b not in started]
            for g in development.still_owed(state, seat, b) if held.get(g)]),
        ("forge", [(_("forge"), _("your forge makes a weapon of 1 metal and 1 wood"))]),
        ("raise", [(_("raise"), _("your warrior house raises a warrior for 2 food"))]),
        ("arm", [(_("arm 1"), _("a weapon to a warrior at home"))]),
        ("donate", [(_("donate {goods}").format(goods=goods_words(held, 1)),
                     _("a gift to your church"))]),
    ]


def movement(state, seat) -> list:
    rows = [("move", [(_("move {source} {target} {number}").format(
        source=p, target=t, number=min(fit, 2)), ngettext(
            "{number} warrior one tile (all, without a number)",
            "{number} warriors one tile (all, without a number)",
            min(fit, 2)).format(number=min(fit, 2)))
        for p in places(state) for fit in [len(war.movable(state, seat, p))] if fit
        for t in neighbours(state, p)]),
        ("war", [(_("war {seat}").format(seat=s), _("declare war"))
                 for s in state["lords"] if s != seat and not at_war(state, seat, s)]),
        ("peace", peace(state, seat))]
    if seat == state["barbarian"]:
        rows += [("leave", [(_("leave {place}").format(place=p),
                             _("your warriors there leave the valley with their loot"))
                            for p in places(state)]),
                 ("recruit", [(_("recruit"), _("a warrior for 4 resources you carried off"))])]
    return rows


def aftermath(state, seat) -> list:
    options = war.pillage_options(state, seat)
    return [("pillage", [(_("pillage {place}").format(place=p),
                          _("carry the resources off")) for p in options]),
            ("raze", [(_("raze {place}").format(place=p), _("destroy them"))
                      for p in options]),
            ("peace", peace(state, seat))]


def growth(state, seat) -> list:
    sources = economy.growth_sources(state, seat)
    return [("found", [(_("found {source} {tile} wood food").format(source=s, tile=t),
                        _("{source} discards 4 and founds a farm on {tile}").format(
                            source=s, tile=t))
                       for s in sources for t in nearest_open(state, s)[:6]]),
            ("found", [(_("found {source} village food").format(source=s),
                        _("...or in your village")) for s in sources])]


def revolt(state, seat) -> list:
    said, used = [_("ruling")], set()
    for key, words in sorted(revolt_choices(state).items()):
        farm = next((w for w in words if w not in used), words[0] if words else "")
        used.add(farm)
        said += [key, farm]
    return [("ruling", [(" ".join(said), _("the farms that turn free, each by its key"))])]


def judgement(state, seat) -> list:
    numbers = " ".join(str(a["id"]) for a in state["agreements"][:2])
    says = _("the winner; {broken} {numbers} names the agreements you find broken").format(
        broken=_("broken"), numbers=numbers) if numbers else _("the winner")
    return [("ruling", [(" ".join([_("ruling"), _("winner"), lord, _("your reasons")]), says)
                        for lord in state["lords"]])]


BUILDERS = {
    "villages": villages, "farms": farms, "taxation": taxation, "opposition": opposition,
    "parley": parley, "combat": combat, "event": event, "market": market,
    "construction": construction, "movement": movement, "aftermath": aftermath,
    "growth": growth, "revolt": revolt, "judgement": judgement,
}
