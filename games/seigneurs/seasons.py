"""The end of a turn: growth, pilgrimage, revolt; and the end of the game."""

from pbem.adjudicator.bags import draw_until
from pbem.adjudicator.contract import public
from pbem.adjudicator.editions import edition

from .economy import growth_sources
from .founding import found, open_tile
from .material import RESOURCES, count
from .rules import (card, church_wealth, farm_count, free_farms, goods_at, holiness,
                    lord_farms, material, pooled, valley, village_farm_count, village_farms,
                    village_of)

# ---------------------------------------------------------------- founding farms


def discard_four(goods: dict, number: int) -> dict:
    """The resources a growing farm discards: the most plentiful first."""
    pile, out = dict(goods), {}
    for _ in range(number):
        good = max(RESOURCES, key=lambda g: (pile.get(g, 0), -RESOURCES.index(g)))
        pile[good] -= 1
        out[good] = out.get(good, 0) + 1
    return out


def growth_asked(state) -> list[str]:
    """The lords with a farm that may grow."""
    return [lord for lord in state["lords"] if growth_sources(state, lord)]


def growth(run, orders: dict) -> None:
    """Lords found the farms they ordered; then free farms holding 5 grow by themselves.

    A farm grows once a turn; a village's farms each grow on their own (the fullest first
    when the village is named).
    """
    least = material(run.state)["growth"]
    for lord in run.state["lords"]:
        grown = {}
        for order in (orders.get(lord) or {}).get("found", []):
            source = order["source"]
            if source not in growth_sources(run.state, lord):
                continue
            tile = order["tile"]
            if tile is not None and not open_tile(run.state, tile):
                if edition(run.state) >= 2:  # the first edition's refusal went unsaid
                    run.emit(public("founding_refused", lord=lord, source=source, tile=tile))
                continue
            if source == village_of(run.state, lord) and pooled(run.state):
                if len(grown.get(source, [])) >= village_farm_count(run.state, lord):
                    continue
                farm, goods = None, goods_at(run.state, source)
                grown.setdefault(source, []).append(farm)
            elif source == village_of(run.state, lord):
                farm = growing_farm(run.state, lord, grown.get(source, []))
                if farm is None:
                    continue
                grown.setdefault(source, []).append(farm)
                goods = village_farms(run.state, lord)[farm]["goods"]
            elif grown.get(source):
                continue
            else:
                farm, goods = None, goods_at(run.state, source)
                grown[source] = [farm]
            found(run, lord, tile, order.get("bag", []), order.get("gift"), source,
                  discard_four(goods, least), farm)
    free_growth(run)


def growing_farm(state, lord: str, used: list) -> int | None:
    """The village farm that grows next: the fullest holding 4 or more not grown this turn."""
    least = material(state)["growth"]
    able = [i for i, farm in enumerate(village_farms(state, lord))
            if count(farm["goods"]) >= least and i not in used]
    return max(able, key=lambda i: (count(village_farms(state, lord)[i]["goods"]), -i)) \
        if able else None


def free_growth(run) -> None:
    """A free farm holding 5 resources founds a free farm next to it (4 discarded)."""
    state = run.state
    for tile in free_farms(state):
        if count(goods_at(run.state, tile)) < material(state)["free_growth"]:
            continue
        near = [t for t in valley(state).neighbours(tile) if open_tile(run.state, t)]
        if not near:
            continue
        scarce = sorted(RESOURCES, key=lambda g: (run.state["bag"].get(g, 0),
                                                  RESOURCES.index(g)))[:2]
        found(run, None, sorted(near, key=valley(state).names.index)[0], scarce,
              source=tile, discard=discard_four(goods_at(run.state, tile),
                                                material(state)["growth"]))


# ---------------------------------------------------------------- pilgrimage

def pilgrimage(run) -> None:
    """The pilgrims stop at the richest church holy enough; ties share, rounded down."""
    state = run.state
    drawn = card(state)
    if drawn is None:
        return
    pilgrims = drawn["pilgrims"]
    least = pilgrims.get("holiness", 0)
    holy = [lord for lord in state["lords"] if holiness(state, lord) >= least]
    offering = dict(pilgrims.get("offering", {}))
    if not holy or not offering:
        run.emit(public("pilgrims_passed", offering=offering, holiness=least))
        return
    best = max(church_wealth(state, lord) for lord in holy)
    richest = [lord for lord in holy if church_wealth(state, lord) == best]
    share = {g: n // len(richest) for g, n in offering.items() if n // len(richest)}
    run.emit(public("pilgrims_stopped", churches=richest, offering=offering, share=share,
                    holiness=least))


# ---------------------------------------------------------------- revolt

def triangle(k: int) -> int:
    """1 + 2 + ... + k."""
    return k * (k + 1) // 2


def revolt(run) -> None:
    """Each lord that got a token this turn draws until a neutral token comes out."""
    state = run.state
    asking = []
    for lord in state["lords"]:
        if not state["tokens"].get(lord):
            continue
        drawn, _ = draw_until(dict(run.state["jacquerie"][lord]), "neutral", run.rng)
        k = drawn.count("jacquerie")
        free = min(triangle(k), farm_count(run.state, lord))
        run.emit(public("revolt_drawn", lord=lord, drawn=drawn, jacquerie=k, free=free))
        if free == 0:
            continue
        if free >= farm_count(run.state, lord):
            free_farms_of(run, lord, lord_farms(run.state, lord),
                          list(range(village_farm_count(run.state, lord))))
        else:
            asking.append({"lord": lord, "count": free})
    if asking:
        run.emit(public("freeing_asked", freeing=asking))


def candidates(state, lord: str) -> list[str]:
    """The farms the barbarian may free, by default order: fewest resources first (a
    village farm as "village")."""
    return [entry[3] for entry in ranked_farms(state, lord)]


def ranked_farms(state, lord: str) -> list[tuple]:
    """(resources, kind, number, name) for each of the lord's farms, fewest resources first:
    a plain farm by its tile, a village farm as "village" with its number in the village."""
    ranked = [(count(goods_at(state, t)), 0, i, t) for i, t in enumerate(lord_farms(state, lord))]
    if pooled(state):  # each village farm counts what the whole village holds
        held = [count(goods_at(state, village_of(state, lord)))] * \
            village_farm_count(state, lord)
    else:
        held = [count(farm["goods"]) for farm in village_farms(state, lord)]
    ranked += [(n, 1, i, "village") for i, n in enumerate(held)]
    return sorted(ranked)


def default_freeing(state, lord: str, number: int) -> list[str]:
    """The farms that turn free when the barbarian says nothing: the ones with fewest resources."""
    return candidates(state, lord)[:number]


def chosen_farms(state, lord: str, number: int, named: list[str]) -> list[str]:
    """The barbarian's choice, kept where it is possible, completed by the default order."""
    pool = candidates(state, lord)
    chosen = []
    for word in named:
        if word in pool:
            pool.remove(word)
            chosen.append(word)
    return (chosen + pool)[:number]


def free_farms_of(run, lord: str, tiles: list[str], village: list[int]) -> None:
    """Farms turn free; village farms that revolt (by their numbers) leave the valley, and
    what they held stays on the village (where a village pools its resources, the event
    says how many leave)."""
    run.emit(public("farms_freed", lord=lord, tiles=sorted(tiles),
                    village=len(village) if pooled(run.state) else sorted(village)))


def freeing(run, choice: dict) -> None:
    """The revolts of this turn, with the barbarian's choice of farms."""
    for entry in list(run.state["freeing"]):
        lord, number = entry["lord"], entry["count"]
        named = [choice.get(f"{lord}-{i}", "") for i in range(1, number + 1)]
        picks = chosen_farms(run.state, lord, number, [n.upper() if n != "village" else n
                                                      for n in named])
        tiles = [p for p in picks if p != "village"]
        leaving = [e[2] for e in ranked_farms(run.state, lord) if e[3] == "village"]
        free_farms_of(run, lord, tiles, leaving[:picks.count("village")])


# ---------------------------------------------------------------- the end

def prestige(state, lord: str) -> int:
    """The default judgement: domains headed by the lord's family x3, farms, buildings x2."""
    domains = sum(1 for head in state["heads"].values() if head == lord)
    buildings = sum(1 for e in state["buildings"][lord].values() if e["done"] is not None)
    return 3 * domains + farm_count(state, lord) + 2 * buildings


def default_winner(state) -> str:
    """The lord with the most prestige (ties: seat order)."""
    best = max(prestige(state, lord) for lord in state["lords"])
    return next(lord for lord in state["lords"] if prestige(state, lord) == best)


def immediate_end(state) -> tuple[str, str] | None:
    """(winner, reason key) when the barbarian's or one lord's family heads every domain."""
    heads = set(state["heads"].values())
    if len(heads) == 1:
        head = heads.pop()
        return head, "barbarian" if head == state["barbarian"] else "dynasty"
    return None
