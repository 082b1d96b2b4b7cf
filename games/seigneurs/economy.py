"""The economy phase: production, the domain's own production, taxation round after round.

A taxation round asks every lord at once and resolves in seat order: each
lord's collector claims one place (``tax``) or a free farm (``oath``), or the
lord passes. Claims may be opposed with warriors, round after round until a
round adds none; the parties then agree or fight; a claim is carried out
when nobody opposes it any more (see docs/rules/seigneurs.md).
"""

from pbem.adjudicator.bags import draw, share
from pbem.adjudicator.contract import public
from pbem.adjudicator.editions import edition

from .material import RESOURCES, add, count, remove
from .rules import (done, goods_at, lord_farms, material, place_owner, places, pooled, seats_at,
                    stock_event, taken_from, village_farm_count, village_farms, village_of,
                    village_owner)


# ---------------------------------------------------------------- production

def production(run) -> None:
    """Every farm draws from the bag (plain 2, each village farm 1 onto itself); an oven adds
    a food onto each village farm, a mill one onto each plain farm of its lord.

    A bag that cannot serve every farm is shared (bags.share): one resource a farm at a
    time, in an order drawn each turn, round after round; the farms left short are
    recorded. The first two editions drew in tile order (in_tile_order).
    """
    state = run.state
    farms = producing_farms(state)
    deal = share if edition(state) >= 3 else in_tile_order
    dealt, bag = deal(dict(state["bag"]), [due for _place, _farm, due in farms], run.rng)
    run.emit(produced(state, farms, dealt, bag))


def in_tile_order(bag: dict, wants: list[int], rng) -> tuple[list[list[str]], dict]:
    """The first two editions' production: each farm in turn draws its whole share, so a dry
    bag leaves out the farms last in tile order."""
    dealt = []
    for due in wants:
        drawn, bag = draw(bag, due, rng)
        dealt.append(drawn)
    return dealt, bag


def produced(state, farms: list[tuple], dealt: list[list[str]], bag: dict):
    """The production's event: what each place drew, the ovens' and mills' food, each
    village farm's share, the bag left, and (since the third edition) the farms left short."""
    draws, baked, each = {}, {}, {}
    for (place, farm, _due), drawn in zip(farms, dealt):
        if drawn:
            draws[place] = add(draws.get(place, {}), tally(drawn))
        owner = place_owner(state, place)
        if farm is None and owner and done(state, owner, "mill"):
            baked[place] = {"food": 1}
        elif farm is not None:
            oven = done(state, owner, "oven")
            each.setdefault(place, []).append(add(tally(drawn), {"food": 1} if oven else {}))
            if oven:
                baked[place] = {"food": len(each[place])}
    short = [{"place": place, **({} if farm is None else {"farm": farm}), "got": len(drawn)}
             for (place, farm, due), drawn in zip(farms, dealt) if len(drawn) < due]
    kept = {} if pooled(state) else {"farms": {p: e for p, e in each.items() if any(e)}}
    told = {"short": short} if short and edition(state) >= 3 else {}
    return public("produced", draws=draws, baked=baked, **kept, bag_left=sum(bag.values()),
                  **told)


def producing_farms(state) -> list[tuple]:
    """(place, farm, resources due) for every farm, in tile order: a plain farm (farm None),
    then each farm of a village by its number (0 first)."""
    mat = material(state)
    out = []
    for place in places(state):
        owner = place_owner(state, place)
        if owner and village_of(state, owner) == place:
            out += [(place, farm, mat["village_draw"])
                    for farm in range(village_farm_count(state, owner))]
        elif place in state["farms"]:
            out.append((place, None, mat["plain_draw"]))
    return out


def tally(drawn: list[str]) -> dict:
    """Drawn resources counted, in resource order."""
    return {g: drawn.count(g) for g in RESOURCES if drawn.count(g)}


def cheapest(state, how_many: int) -> list[str]:
    """The cheapest resources at the reference prices (ties in the order wood, stone...)."""
    ranked = sorted(RESOURCES, key=lambda g: (state["prices"][g], RESOURCES.index(g)))
    return [ranked[i % len(ranked)] for i in range(how_many)]


def domain_production(run, lord: str, chosen) -> None:
    """The domain's own production: the resources the lord names, or the cheapest three."""
    size = material(run.state)["domain"]
    goods = list(chosen or []) if chosen and len(chosen) == size else cheapest(run.state, size)
    change = {g: goods.count(g) for g in RESOURCES if goods.count(g)}
    run.emit(stock_event(run.state, lord, change, "domain"))


# ---------------------------------------------------------------- taxation

def claim_problem(state, lord: str, act: dict, claimed: list) -> str | None:
    """Why a lord's collector cannot go where it is sent now, or None (in English, a code)."""
    place = act["place"]
    if place in state["taxed"] or place in claimed:
        return "taxed"
    if act["kind"] == "oath":
        if place not in state["farms"] or state["farms"][place] is not None:
            return "not-free"
        if not available(state, lord):
            return "no-warrior"
        return None
    owner = place_owner(state, place)
    if owner is None and place not in state["farms"]:
        return "no-farm"
    return None


def available(state, seat: str, place: str | None = None) -> list[dict]:
    """The seat's warriors that may still serve in this economy phase (already there first)."""
    free = [w for w in state["warriors"] if w["seat"] == seat and not w["out"]
            and w["at"] is not None
            and state["engaged"].get(str(w["id"]), place) == place]
    home = village_of(state, seat)
    return sorted(free, key=lambda w: (w["at"] != place, w["at"] != home, w["id"]))


def taxation_round(run, orders: dict) -> bool:
    """One taxation round (and, in round 1, the domains' production); True if a lord acted."""
    state = run.state
    first = state["round"]["number"] == 1
    claimed = []
    for lord in state["lords"]:
        mine = orders.get(lord) or {}
        if first:
            domain_production(run, lord, mine.get("produce"))
        act = mine.get("act")
        if not act:
            continue
        problem = claim_problem(run.state, lord, act, claimed)
        number = len(run.state["claims"]) + 1
        claim = {"id": number, "seat": lord, "kind": act["kind"], "place": act["place"],
                 "take": act.get("take", {}), "sides": {lord: "collector"}, "status": "open"}
        if problem:
            run.emit(public("claim_refused", seat=lord, place=act["place"], kind=act["kind"],
                            why=problem))
            continue
        claimed.append(act["place"])
        run.emit(public("claimed", claim=claim))
        if act["kind"] == "oath":
            escort = available(run.state, lord, act["place"])[0]
            run.emit(public("warriors_sent", seat=lord, place=act["place"], ids=[escort["id"]],
                            side="collector", claim=number))
    return bool(claimed)


def open_claims(state) -> list[dict]:
    """This round's claims not carried out yet."""
    return [c for c in state["claims"] if c["status"] == "open"]


def opposers_asked(state) -> list[str]:
    """The lords that could still send warriors to a claim this round."""
    return [lord for lord in state["lords"] if available(state, lord)]


def opposition_round(run, orders: dict) -> bool:
    """Warriors sent to oppose or support claims, in seat order; True if any came."""
    added = False
    for lord in run.state["lords"]:
        for send in (orders.get(lord) or {}).get("send", []):
            claim = next((c for c in open_claims(run.state) if c["place"] == send["place"]),
                         None)
            if claim is None:
                continue
            side = "collector" if claim["seat"] == lord or send["side"] == "support" \
                else "opposer"
            if claim["sides"].get(lord, side) != side:
                continue
            chosen = [w for w in available(run.state, lord, claim["place"])
                      if str(w["id"]) not in run.state["engaged"]][:send["count"]]
            if not chosen:
                continue
            run.emit(public("warriors_sent", seat=lord, place=claim["place"],
                            ids=[w["id"] for w in chosen], side=side, claim=claim["id"]))
            added = True
    return added


def side_seats(state, claim: dict, side: str) -> list[str]:
    """The seats on one side of a claim with fit warriors on its place."""
    here = seats_at(state, claim["place"])
    return [s for s in here if claim["sides"].get(s) == side]


def contested(state) -> list[dict]:
    """The open claims with fit warriors on both sides."""
    return [c for c in open_claims(state)
            if side_seats(state, c, "opposer") and side_seats(state, c, "collector")]


def parties(state, claim: dict) -> list[str]:
    """Every seat with fit warriors on a contested claim's place, in seat order."""
    return side_seats(state, claim, "collector") + side_seats(state, claim, "opposer")


def parley(run, orders: dict) -> list[str]:
    """Each contested claim: agreed by every party, or fought; the places where fights begin."""
    fights = []
    for claim in contested(run.state):
        who = sorted(parties(run.state, claim), key=run.state["seats"].index)
        words = {s: ((orders.get(s) or {}).get("parley") or {}).get(claim["place"]) for s in who}
        if all(w is None or "agree" in w for w in words.values()):
            terms = {s: (w or {}).get("agree", "") for s, w in words.items()}
            run.emit(public("agreement_made", agreement={
                "id": len(run.state["agreements"]) + 1, "kind": "parley",
                "parties": who, "terms": terms, "turn": run.state["turn"],
                "place": claim["place"], "broken": None}))
            run.emit(public("claim_closed", id=claim["id"], place=claim["place"],
                            status="agreed"))
        else:
            fights.append(claim)
    return [c["place"] for c in fights]


def carry_out(run) -> None:
    """Every open claim, in order: blocked while opposed, else collected or sworn."""
    for claim in open_claims(run.state):
        state = run.state
        if side_seats(state, claim, "opposer"):
            run.emit(public("claim_closed", id=claim["id"], place=claim["place"],
                            status="blocked"))
            continue
        if claim["kind"] == "oath":
            swear(run, claim)
        else:
            collect(run, claim)


def collect(run, claim: dict) -> None:
    """The collector takes what it came for (what is there, at most); famine, broken oaths.

    Each farm it leaves empty is in famine: a plain farm, or a farm of a village (a village
    gives its farms' resources after what lies there besides them, see rules.taken_from).
    """
    state = run.state
    place, lord = claim["place"], claim["seat"]
    here = goods_at(state, place)
    wanted = dict(here) if claim["take"] == "all" else claim["take"]
    took = {g: min(n, here.get(g, 0)) for g, n in wanted.items() if min(n, here.get(g, 0))}
    starved = emptied(state, place, took)
    run.emit(public("taxed", seat=lord, place=place, took=took, claim=claim["id"]))
    run.emit(public("claim_closed", id=claim["id"], place=place, status="done"))
    owner = place_owner(run.state, place)
    if starved:
        village = isinstance(starved, list)
        run.emit(public("famine", place=place, seat=lord, **({"farms": starved} if village
                                                              else {})))
        if owner:
            each = 1 if owner == lord else 2
            tokens(run, owner, each * (len(starved) if village else 1), "famine", place)
    if owner != lord and took:
        if owner is None:
            for other in run.state["lords"]:
                tokens(run, other, 1, "free-farm", place)
        else:
            tokens(run, owner, 1, "protection", place)


def emptied(state, place: str, took: dict):
    """The farms a collection leaves empty: a village's farm numbers (0 first), or True for a
    plain farm; [] or False when none."""
    owner = village_owner(state, place)
    if not owner or not village_farms(state, owner):
        return bool(took) and not count(remove(goods_at(state, place), took))
    before = [f["goods"] for f in village_farms(state, owner)]
    _loose, after = taken_from(state["goods"].get(place, {}), before, took)
    return [i for i, (b, a) in enumerate(zip(before, after)) if count(b) and not count(a)]


def swear(run, claim: dict) -> None:
    """An oath: the free farm becomes the lord's; every lord puts a token in its bag."""
    run.emit(public("oath_sworn", seat=claim["seat"], place=claim["place"]))
    run.emit(public("claim_closed", id=claim["id"], place=claim["place"], status="done"))
    for lord in run.state["lords"]:
        tokens(run, lord, 1, "oath", claim["place"])


def tokens(run, lord: str, number: int, why: str, place: str) -> None:
    """Jacquerie tokens into a lord's bag (the cause is public; the bag's content is not)."""
    run.emit(public("tokens_added", lord=lord, count=number, why=why, place=place))


def growth_count(state, lord: str, source: str) -> int:
    """How many farms a place of the lord may found this turn: one a farm holding 4."""
    if source == village_of(state, lord):
        return village_growth(state, lord)
    return 1 if source in growth_sources(state, lord) else 0


def village_growth(state, lord: str) -> int:
    """How many farms a lord's village may found now: one a village farm holding 4
    resources; where a village pools them, one a farm while the village holds 4 for each."""
    least = material(state)["growth"]
    if pooled(state):
        return min(village_farm_count(state, lord),
                   count(goods_at(state, village_of(state, lord))) // least)
    return sum(1 for f in village_farms(state, lord) if count(f["goods"]) >= least)


def growth_sources(state, lord: str) -> list[str]:
    """A lord's farms that may found a new farm now (4 resources or more)."""
    least = material(state)["growth"]
    out = [t for t in lord_farms(state, lord) if count(goods_at(state, t)) >= least]
    if village_growth(state, lord):
        out.append(village_of(state, lord))
    return out

