"""Seigneurs: the state, the reducer, and the questions the rules ask of a valley.

The state is plain data:

    data           the valley, material numbers, building table and event deck
    seats, lords   every seat in seat order; the lords (every seat but the barbarian)
    barbarian      the barbarian's seat, also the game's judge
    turn, turns    the turn under way and the last one
    stage, round   the phase under way (see flow.py) and its round, if it has rounds
    kinds          {tile: "forest" | "fields" | "village"}
    villages       {lord: [tile, tile]}; a village is one place, named by its first tile
    farms          {tile: lord, or None for a free farm}: the plain farms
    village_farms  {lord: [{"goods": {resource: n}, "famine": bool}]}: the farms of its
                   village, each holding its own resources (famine: emptied this turn);
                   in a valley that pools them (see pooled), {lord: how many farms}
    goods          {place: {resource: n}}: what lies on the plain farms and other places
                   (on a village: what lies there besides its farms' own, such as loot)
    bag            the resource bag; jacquerie {lord: {"neutral": n, "jacquerie": n}}
    stocks         {seat: {good: n}}: resources, coins and weapons, private
    warriors       [{"id", "seat", "at" (a place, None off the board), "armed", "out",
                     "load"}]
    heads          {lord: the seat whose family heads that lord's domain}
    relations      {"a|b": "war" | "peace"}; a lord and the barbarian are at war unless
                   at peace, two lords at peace unless one declared war
    buildings      {lord: {building: {"paid", "started", "done"}}}; churches {lord: goods}
    prices         the reference prices; deck, card, seen (who saw the card), merchants
    claims, taxed, famine, tokens, engaged   the taxation of the turn
    fights         {place: a fight under way}; fight_context "economy" | "war"
    offers, proposals, agreements   the market's offers, proposals of peace, agreements
    took_out       {lord: {enemy: n}}: warriors each enemy put out of action this turn
    freeing        revolts waiting for the barbarian's choice
    result         None, or {"winners", "reason"}
    edition        the edition of the rules the game was set up under, when not the first
                   (pbem/adjudicator/editions.py; docs/rules/seigneurs.md, "Editions")
"""

import copy

from pbem.adjudicator.contract import private
from pbem.adjudicator.editions import FIRST, edition, recorded

from .material import GOODS, RESOURCES, add, count, starting_bag, valley

# ---------------------------------------------------------------- queries


def secret_for(state, *seats):
    """An event's visibility: these seats and the barbarian, who sees everything."""
    return sorted(set(seats) | {state["barbarian"]})


def place_of(state, tile: str) -> str:
    """The place a tile belongs to: a village's first tile for either of its tiles."""
    for tiles in state["villages"].values():
        if tile in tiles:
            return tiles[0]
    return tile


def village_of(state, lord: str) -> str | None:
    """A lord's village, as a place."""
    tiles = state["villages"].get(lord)
    return tiles[0] if tiles else None


def village_owner(state, place: str) -> str | None:
    """The lord whose village this place is, or None."""
    for lord, tiles in state["villages"].items():
        if place in tiles:
            return lord
    return None


def tiles_of(state, place: str) -> list[str]:
    """The tiles of a place (two for a village)."""
    owner = village_owner(state, place)
    return list(state["villages"][owner]) if owner else [place]


def place_owner(state, place: str) -> str | None:
    """The lord of a farm or village (None: a free farm, or no farm)."""
    return village_owner(state, place) or state["farms"].get(place)




def places(state) -> list[str]:
    """Every place of the valley, in tile order (a village where its first tile is)."""
    out = []
    for tile in valley(state).names:
        place = place_of(state, tile)
        if place not in out:
            out.append(place)
    return out


def neighbours(state, place: str) -> list[str]:
    """The places next to a place."""
    out = []
    for tile in tiles_of(state, place):
        for other in valley(state).neighbours(tile):
            near = place_of(state, other)
            if near != place and near not in out:
                out.append(near)
    return sorted(out, key=lambda p: places(state).index(p))


def goods_at(state, place: str) -> dict:
    """What lies on a place (a village: on its farms and besides them)."""
    loose = state["goods"].get(place, {})
    owner = village_owner(state, place)
    farms = village_farms(state, owner) if owner else []
    if not farms:
        return loose
    total = dict(loose)
    for farm in farms:
        total = add(total, farm["goods"])
    return {g: total[g] for g in RESOURCES if total.get(g)}


def pooled(state) -> bool:
    """Does the valley pool each village's resources, as the rules' first edition did? Its
    village farms are then a count, and what they produce lies on the village itself
    (docs/rules/seigneurs.md, "Editions")."""
    return edition(state) < 2


def village_farms(state, lord: str) -> list[dict]:
    """The farms of a lord's village, each with its own goods ([] where they pool them)."""
    return [] if pooled(state) else state["village_farms"].get(lord, [])


def village_farm_count(state, lord: str) -> int:
    """How many farms a lord's village holds."""
    if pooled(state):
        return state["village_farms"].get(lord, 0)
    return len(village_farms(state, lord))


def taken_from(loose: dict, farms: list[dict], take: dict) -> tuple[dict, list[dict]]:
    """(loose, farms' goods) after taking goods from a village: what lies there besides its
    farms first, then from the farm holding most of that good (ties: most resources, then
    the first farm), so a farm is emptied only when the take needs it."""
    loose, farms = dict(loose), [dict(f) for f in farms]
    for good in RESOURCES:
        for _ in range(take.get(good, 0)):
            if loose.get(good):
                loose[good] -= 1
                continue
            holding = [i for i, f in enumerate(farms) if f.get(good)]
            if not holding:
                break
            best = max(holding, key=lambda i: (farms[i][good], count(farms[i]), -i))
            farms[best][good] -= 1
    tidy = lambda pile: {g: pile[g] for g in RESOURCES if pile.get(g)}  # noqa: E731
    return tidy(loose), [tidy(f) for f in farms]


def lord_farms(state, lord: str) -> list[str]:
    """A lord's plain farms, in tile order."""
    return [t for t in valley(state).names if state["farms"].get(t, "") == lord]


def free_farms(state) -> list[str]:
    """The free farms, in tile order."""
    return [t for t in valley(state).names if t in state["farms"] and state["farms"][t] is None]


def farm_count(state, lord: str) -> int:
    """Every farm of a lord, plain and village."""
    return len(lord_farms(state, lord)) + village_farm_count(state, lord)


def warrior(state, wid: int) -> dict:
    """A warrior by its number."""
    return next(w for w in state["warriors"] if w["id"] == wid)


def warriors_at(state, place: str, seat: str | None = None, fit: bool | None = None) -> list:
    """The warriors on a place (of one seat; only fit ones, or only out of action ones)."""
    return [w for w in state["warriors"] if w["at"] == place
            and (seat is None or w["seat"] == seat)
            and (fit is None or w["out"] != fit)]


def seats_at(state, place: str, fit: bool = True) -> list[str]:
    """The seats with (fit) warriors on a place, in seat order."""
    present = {w["seat"] for w in warriors_at(state, place, fit=fit if fit else None)}
    return [s for s in state["seats"] if s in present]


def relation_key(a: str, b: str) -> str:
    """How the relations table names a pair."""
    return "|".join(sorted((a, b)))


def at_war(state, a: str, b: str) -> bool:
    """Are two seats at war?"""
    if a == b:
        return False
    relation = state["relations"].get(relation_key(a, b))
    if relation:
        return relation == "war"
    return state["barbarian"] in (a, b)


def done(state, lord: str, building: str) -> bool:
    """Has this lord finished this building?"""
    entry = state["buildings"].get(lord, {}).get(building)
    return bool(entry and entry["done"] is not None)


def bonus(state, w: dict, place: str) -> int:
    """A warrior's combat modifier on a place: weapon, own village, walls, keep."""
    total = 1 if w["armed"] else 0
    if village_of(state, w["seat"]) == place:
        total += 1 + done(state, w["seat"], "walls") + done(state, w["seat"], "keep")
    return total


def hostile(state, place: str, a: str, b: str) -> bool:
    """Do these seats fight each other on this place (sides of a taxation, or war)?"""
    fight = state["fights"].get(place)
    if fight and fight["context"] == "economy":
        sides = fight["sides"]
        return a in sides and b in sides and sides[a] != sides[b]
    return at_war(state, a, b)


def hostile_pairs(state, place: str) -> list[list[str]]:
    """Pairs of seats with fit warriors on a place that fight each other."""
    here = seats_at(state, place)
    return [[a, b] for i, a in enumerate(here) for b in here[i + 1:]
            if hostile(state, place, a, b)]




def famine_free_village_farms(state, lord: str) -> int:
    """The lord's village farms not in famine (not emptied by a collector this turn); where
    they pool their resources, all of them unless the village was emptied."""
    if pooled(state):
        return 0 if village_of(state, lord) in state["famine"] else \
            village_farm_count(state, lord)
    return sum(1 for farm in village_farms(state, lord) if not farm["famine"])


def church_wealth(state, lord: str) -> int:
    """What lies in a lord's church, at the reference prices."""
    return sum(n * price_of(state, good) for good, n in state["churches"].get(lord, {}).items())


def price_of(state, good: str) -> int:
    """The reference price of a good (a coin is worth one coin)."""
    return 1 if good == "coins" else state["prices"][good]


def holiness(state, lord: str) -> int:
    """A church's holiness: the turns since it was finished."""
    entry = state["buildings"].get(lord, {}).get("church")
    if not entry or entry["done"] is None:
        return -1
    return state["turn"] - entry["done"]


def card(state) -> dict | None:
    """The event card of this turn, once chosen."""
    return next((c for c in state["data"]["deck"] if c["id"] == state["card"]), None)


def tower_watchers(state) -> list[str]:
    """The seats whose warriors stand in a finished watchtower (its owner first, alone)."""
    seen = []
    for lord in state["lords"]:
        if not done(state, lord, "watchtower"):
            continue
        here = seats_at(state, village_of(state, lord), fit=False)
        for seat in ([lord] if lord in here else here):
            if seat not in seen:
                seen.append(seat)
    return seen


def material(state) -> dict:
    """The numbers of the game (material.toml)."""
    return state["data"]["material"]


# ---------------------------------------------------------------- reducer

def apply(state: dict, event) -> dict:
    """Fold one Seigneurs event into the state."""
    if event.type == "setup":
        return copy.deepcopy(event.payload["state"])
    handler = REDUCERS.get(event.type)
    if handler:
        handler(state, event.payload)
    return state


def _stock(state, seat, change):
    pile = dict(state["stocks"].get(seat, {}))
    for good, n in change.items():
        pile[good] = pile.get(good, 0) + n
    state["stocks"][seat] = {g: pile[g] for g in GOODS if pile.get(g)}


def _goods(state, place, change):
    """Goods put on a place lie there; goods taken from a village come off what lies there
    first, then off its farms (taken_from)."""
    pile = dict(state["goods"].get(place, {}))
    taken = {g: -n for g, n in change.items() if n < 0}
    owner = village_owner(state, place)
    if taken and owner and village_farms(state, owner):
        farms = village_farms(state, owner)
        pile, left = taken_from(pile, [f["goods"] for f in farms], taken)
        for farm, goods in zip(farms, left):
            farm["goods"] = goods
    else:
        pile = add(pile, {g: n for g, n in change.items() if n < 0})
    _set_goods(state, place, add(pile, {g: n for g, n in change.items() if n > 0}))


def _set_goods(state, place, pile):
    pile = {g: pile[g] for g in RESOURCES if pile.get(g)}
    if pile:
        state["goods"][place] = pile
    else:
        state["goods"].pop(place, None)


def _bag(state, change):
    for good, n in change.items():
        state["bag"][good] = state["bag"].get(good, 0) + n


def _negative(goods):
    return {g: -n for g, n in goods.items()}


def _stage_set(state, p):
    state["stage"] = p["stage"]
    state["round"] = p.get("round")


def _turn_began(state, p):
    state.update(turn=p["turn"], taxed=[], famine=[], tokens={}, engaged={}, claims=[],
                 took_out={}, offers=[], proposals=[], card=None, seen=[], merchants=None,
                 revealed=[], freeing=[], fights={}, fight_context=None, merchant_use={},
                 last_rolls={})
    for w in state["warriors"]:
        w["out"] = False
    for lord in state["village_farms"]:
        for farm in village_farms(state, lord):
            farm["famine"] = False


def _villages_placed(state, p):
    state["villages"][p["lord"]] = list(p["tiles"])
    for tile in p["tiles"]:
        state["kinds"][tile] = "village"


def _farm_founded(state, p):
    if p["tile"] is None and pooled(state):
        state["village_farms"][p["lord"]] = state["village_farms"].get(p["lord"], 0) + 1
    elif p["tile"] is None:
        state["village_farms"].setdefault(p["lord"], []).append({"goods": {}, "famine": False})
    else:
        state["farms"][p["tile"]] = p["lord"]
        state["kinds"][p["tile"]] = "fields"
        _bag(state, _negative(p.get("bag_out", {})))
        _bag(state, p.get("bag_in", {}))
    if p.get("lord") and p["lord"] in state["jacquerie"]:
        bag = state["jacquerie"][p["lord"]]
        bag["neutral"] = bag.get("neutral", 0) + 1
    if p.get("discard") and p.get("farm") is not None:
        farm = village_farms(state, village_owner(state, p["source"]))[p["farm"]]
        farm["goods"] = add(farm["goods"], _negative(p["discard"]))
        _bag(state, p["discard"])
    elif p.get("discard"):
        _goods(state, p["source"], _negative(p["discard"]))
        _bag(state, p["discard"])


def _stock_changed(state, p):
    _stock(state, p["seat"], p["change"])


def _produced(state, p):
    for place, goods in p["draws"].items():
        _bag(state, _negative(goods))
        if place not in p.get("farms", {}):
            _goods(state, place, goods)
    for place, goods in p.get("baked", {}).items():
        if place not in p.get("farms", {}):
            _goods(state, place, goods)
    for place, each in p.get("farms", {}).items():
        for farm, goods in zip(village_farms(state, village_owner(state, place)), each):
            farm["goods"] = add(farm["goods"], goods)


def _claimed(state, p):
    state["claims"].append(dict(p["claim"]))


def _claim_closed(state, p):
    for claim in state["claims"]:
        if claim["id"] == p["id"]:
            claim["status"] = p["status"]
    if p["status"] != "void":
        place = p["place"]
        if place not in state["taxed"]:
            state["taxed"].append(place)


def _warriors_sent(state, p):
    for wid in p["ids"]:
        w = warrior(state, wid)
        w["at"] = p["place"]
        state["engaged"][str(wid)] = p["place"]
    claim = next(c for c in state["claims"] if c["id"] == p["claim"])
    claim["sides"][p["seat"]] = p["side"]


def _taxed(state, p):
    _goods(state, p["place"], _negative(p["took"]))
    _stock(state, p["seat"], p["took"])


def _tokens(state, p):
    bag = state["jacquerie"][p["lord"]]
    bag["jacquerie"] = bag.get("jacquerie", 0) + p["count"]
    state["tokens"][p["lord"]] = state["tokens"].get(p["lord"], 0) + p["count"]


def _famine(state, p):
    if p["place"] not in state["famine"]:
        state["famine"].append(p["place"])
    farms = village_farms(state, village_owner(state, p["place"]) or "")
    for index in p.get("farms", []):
        farms[index]["famine"] = True


def _oath_sworn(state, p):
    state["farms"][p["place"]] = p["seat"]
    state["jacquerie"][p["seat"]]["neutral"] += 1


def _fight_began(state, p):
    state["fights"][p["place"]] = {"context": p["context"], "sides": p.get("sides", {}),
                                   "round": 0, "hits": {}, "kill": [], "claim": p.get("claim")}
    state["fight_context"] = p["context"]


def _combat_rolled(state, p):
    fight = state["fights"][p["place"]]
    fight["round"] = p["round"]
    fight["hits"] = dict(p["hits"])
    state["last_rolls"][p["place"]] = [dict(r) for r in p["rolls"]]


def _warriors_hit(state, p):
    for wid in p["ids"]:
        warrior(state, wid)["out"] = True
    for victim, by in p["by"].items():
        w = warrior(state, int(victim))
        if w["seat"] in state["lords"]:
            row = state["took_out"].setdefault(w["seat"], {})
            row[by] = row.get(by, 0) + 1
        if w["load"]:
            _goods(state, p["place"], w["load"])
            w["load"] = {}


def _kill_ordered(state, p):
    fight = state["fights"][p["place"]]
    if p["seat"] not in fight["kill"]:
        fight["kill"] = sorted(fight["kill"] + [p["seat"]])


def _fight_ended(state, p):
    state["fights"].pop(p["place"], None)


def _warriors_killed(state, p):
    gone = set(p["ids"])
    state["kills"].append({"turn": state["turn"], "by": p["by"], "place": p["place"],
                           "count": len(gone)})
    for w in state["warriors"]:
        if w["id"] in gone and w["load"]:
            _goods(state, w["at"], w["load"])
    state["warriors"] = [w for w in state["warriors"] if w["id"] not in gone]


def _warriors_home(state, p):
    for wid in p["ids"]:
        w = warrior(state, wid)
        if w["load"]:
            _goods(state, w["at"], w["load"])
            w["load"] = {}
        w["at"] = village_of(state, w["seat"])


def _warrior_joined(state, p):
    state["warriors"].append({"id": p["id"], "seat": p["seat"], "at": p["at"], "armed": False,
                              "out": False, "load": {}})
    state["next_warrior"] = max(state["next_warrior"], p["id"] + 1)


def _warriors_joined(state, p):
    for wid in p["ids"]:
        _warrior_joined(state, {"id": wid, "seat": p["seat"], "at": p["at"]})


def _card_chosen(state, p):
    state["card"] = p["card"]
    state["deck"] = [c for c in state["deck"] if c != p["card"]]
    state["seen"] = list(p["seen"])


def _card_revealed(state, p):
    if p["part"] not in state["revealed"]:
        state["revealed"].append(p["part"])
    if p["part"] == "merchants":
        state["merchants"] = dict(p["merchants"])


def _offer_made(state, p):
    state["offers"].append(dict(p["offer"]))


def _offer_closed(state, p):
    for offer in state["offers"]:
        if offer["id"] == p["id"]:
            offer["status"] = p["status"]


def _traded(state, p):
    _stock(state, p["from"], add(_negative(p["give"]), p["take"]))
    _stock(state, p["to"], add(_negative(p["take"]), p["give"]))


def _price_moved(state, p):
    state["prices"][p["good"]] = p["price"]


def _merchant_trade(state, p):
    if p["kind"] == "buy":
        _stock(state, p["seat"], {p["good"]: p["count"], "coins": -p["coins"]})
    else:
        _stock(state, p["seat"], {p["good"]: -p["count"], "coins": p["coins"]})
        if p["good"] in RESOURCES:
            _bag(state, {p["good"]: p["count"]})
    row = state["merchant_use"].setdefault(p["seat"], {})
    key = f"{p['kind']}:{p['good']}"
    row[key] = row.get(key, 0) + p["count"]


def _project_paid(state, p):
    row = state["buildings"].setdefault(p["lord"], {})
    entry = row.setdefault(p["building"], {"paid": {}, "started": p["turn"], "done": None})
    entry["paid"] = add(entry["paid"], p["goods"])
    _stock(state, p["lord"], _negative(p["goods"]))
    _bag(state, p["goods"])


def _building_finished(state, p):
    state["buildings"][p["lord"]][p["building"]]["done"] = p["turn"]


def _forged(state, p):
    _stock(state, p["lord"], {"metal": -1, "wood": -1, "weapons": 1})
    _bag(state, {"metal": 1, "wood": 1})


def _armed(state, p):
    for wid in p["ids"]:
        warrior(state, wid)["armed"] = True
    _stock(state, p["seat"], {"weapons": -len(p["ids"])})


def _raised(state, p):
    _stock(state, p["lord"], {"food": -p["food"]})
    _bag(state, {"food": p["food"]})
    _warrior_joined(state, {"id": p["id"], "seat": p["lord"], "at": p["at"]})


def _recruited(state, p):
    _stock(state, p["seat"], _negative(p["paid"]))
    _bag(state, p["paid"])
    _warrior_joined(state, {"id": p["id"], "seat": p["seat"], "at": None})


def _donated(state, p):
    _stock(state, p["lord"], _negative(p["goods"]))
    state["churches"][p["lord"]] = add(state["churches"].get(p["lord"], {}), p["goods"])


def _moved(state, p):
    for wid in p["ids"]:
        warrior(state, wid)["at"] = p["to"]


def _invaders_entered(state, p):
    _card_revealed(state, {"part": "invaders"})
    for wid in p["ids"]:
        warrior(state, wid)["at"] = p["place"]


def _left_valley(state, p):
    load = {}
    for wid in p["ids"]:
        w = warrior(state, wid)
        load = add(load, w["load"])
        w.update(at=None, load={})
    _stock(state, p["seat"], load)


def _unloaded(state, p):
    for wid in p["ids"]:
        warrior(state, wid)["load"] = {}
    _stock(state, p["seat"], p["goods"])


def _relation_set(state, p):
    state["relations"][relation_key(p["a"], p["b"])] = p["relation"]


def _proposed(state, p):
    state["proposals"].append(dict(p["proposal"]))


def _agreement_made(state, p):
    state["agreements"].append(dict(p["agreement"]))
    state["proposals"] = [x for x in state["proposals"]
                          if sorted((x["from"], x["to"])) != sorted(p["agreement"]["parties"])
                          or x["kind"] != p["agreement"]["kind"]]


def _agreement_broken(state, p):
    for agreement in state["agreements"]:
        if agreement["id"] == p["id"] and not agreement.get("broken"):
            agreement["broken"] = {"by": p["by"], "turn": p["turn"], "how": p["how"]}


def _pillaged(state, p):
    share = {str(wid): {} for wid in p["ids"]}
    order = [str(wid) for wid in p["ids"]]
    index = 0
    for good in RESOURCES:
        for _ in range(p["goods"].get(good, 0)):
            key = order[index % len(order)]
            share[key] = add(share[key], {good: 1})
            index += 1
    for key, load in share.items():
        w = warrior(state, int(key))
        w["load"] = add(w["load"], load)
    _goods(state, p["place"], _negative(p["goods"]))


def _razed(state, p):
    _goods(state, p["place"], _negative(p["goods"]))
    _bag(state, p["goods"])


def _lineage_lost(state, p):
    state["heads"][p["lord"]] = p["to"]


def _pilgrims(state, p):
    for lord in p["churches"]:
        state["churches"][lord] = add(state["churches"].get(lord, {}), p["share"])


def _revolt_drawn(state, p):
    bag = state["jacquerie"][p["lord"]]
    bag["jacquerie"] -= p["jacquerie"]


def _freeing_asked(state, p):
    state["freeing"] = [dict(x) for x in p["freeing"]]


def _farms_freed(state, p):
    for tile in p["tiles"]:
        state["farms"][tile] = None
    if pooled(state):  # "village": how many of its farms leave
        state["village_farms"][p["lord"]] -= p["village"]
    else:  # "village": which of its farms leave
        farms = village_farms(state, p["lord"])
        place = village_of(state, p["lord"])
        for index in sorted(p["village"], reverse=True):
            left = farms.pop(index)
            _set_goods(state, place, add(state["goods"].get(place, {}), left["goods"]))
    state["freeing"] = [x for x in state["freeing"] if x["lord"] != p["lord"]]


def _game_decided(state, p):
    state["result"] = {"winners": list(p["winners"]), "reason": p["reason"]}


REDUCERS = {
    "stage_set": _stage_set, "turn_began": _turn_began, "villages_placed": _villages_placed,
    "farm_founded": _farm_founded, "stock_changed": _stock_changed, "produced": _produced,
    "claimed": _claimed, "claim_closed": _claim_closed, "warriors_sent": _warriors_sent,
    "taxed": _taxed, "tokens_added": _tokens, "famine": _famine, "oath_sworn": _oath_sworn,
    "fight_began": _fight_began, "combat_rolled": _combat_rolled, "warriors_hit": _warriors_hit,
    "kill_ordered": _kill_ordered, "fight_ended": _fight_ended,
    "warriors_killed": _warriors_killed, "warriors_home": _warriors_home,
    "warrior_joined": _warrior_joined, "warriors_joined": _warriors_joined,
    "card_chosen": _card_chosen,
    "card_revealed": _card_revealed, "offer_made": _offer_made, "offer_closed": _offer_closed,
    "traded": _traded, "price_moved": _price_moved, "merchant_trade": _merchant_trade,
    "project_paid": _project_paid, "building_finished": _building_finished, "forged": _forged,
    "armed": _armed, "raised": _raised, "recruited": _recruited, "donated": _donated,
    "moved": _moved, "invaders_entered": _invaders_entered, "left_valley": _left_valley,
    "unloaded": _unloaded, "relation_set": _relation_set, "proposed": _proposed,
    "agreement_made": _agreement_made, "agreement_broken": _agreement_broken,
    "pillaged": _pillaged, "razed": _razed, "lineage_lost": _lineage_lost,
    "pilgrims_stopped": _pilgrims, "revolt_drawn": _revolt_drawn,
    "freeing_asked": _freeing_asked, "farms_freed": _farms_freed,
    "game_decided": _game_decided,
}


def stock_event(state, seat, change, why):
    """A change of a seat's private stock, seen by that seat and the barbarian."""
    return private(secret_for(state, seat), "stock_changed", seat=seat,
                   change={g: n for g, n in sorted(change.items()) if n}, why=why)


def blank_state(data, seats, barbarian, turns, round_hours, number=FIRST) -> dict:
    """The state before villages and farms are placed, under the rules' edition `number`."""
    lords = [s for s in seats if s != barbarian]
    mat = data["material"]
    start = {g: n for g, n in mat["stock"].items() if n}
    return {
        "data": data, "seats": list(seats), "lords": lords, "barbarian": barbarian,
        "turn": 0, "turns": turns, "round_hours": round_hours, "stage": "villages",
        "round": None,
        "kinds": {}, "villages": {}, "farms": {},
        "village_farms": {lord: 0 if number < 2 else [] for lord in lords},
        "goods": {}, "bag": starting_bag(mat, len(lords)),
        "jacquerie": {lord: {"neutral": 0, "jacquerie": 0} for lord in lords},
        "stocks": {**{lord: dict(start) for lord in lords}, barbarian: {}},
        "warriors": [], "next_warrior": 1,
        "heads": {lord: lord for lord in lords}, "relations": {},
        "buildings": {lord: {} for lord in lords}, "churches": {},
        "prices": dict(mat["prices"]),
        "deck": [c["id"] for c in data["deck"]], "card": None, "seen": [], "revealed": [],
        "merchants": None, "merchant_use": {},
        "claims": [], "taxed": [], "famine": [], "tokens": {}, "engaged": {},
        "fights": {}, "fight_context": None,
        "offers": [], "proposals": [], "agreements": [], "took_out": {}, "freeing": [],
        "kills": [], "last_rolls": {}, "result": None, **recorded(number),
    }


def stock(state, seat) -> dict:
    """A seat's stock."""
    return state["stocks"].get(seat, {})

