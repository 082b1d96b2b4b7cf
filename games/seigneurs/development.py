"""The development phase: the event card, the market (offers, prices, merchants), construction."""

from pbem.adjudicator import offers as trade
from pbem.adjudicator.contract import private, public
from pbem.adjudicator.editions import edition

from . import war
from .material import add, holds, remove
from .rules import (card, famine_free_village_farms, material, price_of, secret_for, stock,
                    tower_watchers, village_of, warriors_at)

# ---------------------------------------------------------------- the event card


def choose_card(run, chosen: str | None) -> None:
    """The barbarian's card (silence: one drawn from the deck); shown to it and the tower."""
    state = run.state
    if not state["deck"]:
        return
    if chosen not in state["deck"]:
        chosen = run.rng.choice(state["deck"])
    seen = tower_watchers(state)
    run.emit(private(secret_for(state, *seen), "card_chosen", card=chosen, seen=seen))
    merchants = card(run.state)["merchants"]
    run.emit(public("card_revealed", part="merchants", merchants=dict(merchants)))


def merchant_price(state, good: str, kind: str) -> int:
    """What a merchant asks (kind "buy": a seat buys) or pays (a seat sells) for one unit."""
    margin = state["merchants"]["margin"]
    price = price_of(state, good)
    return price + margin if kind == "buy" else max(1, price - margin)


def merchant_left(state, seat: str, good: str, kind: str) -> int:
    """How many more units a seat may buy (or sell) of a good from the merchants this turn."""
    merchants = state["merchants"]
    if not merchants or good not in merchants["goods"]:
        return 0
    used = state["merchant_use"].get(seat, {}).get(f"{kind}:{good}", 0)
    return merchants["count"] - used


# ---------------------------------------------------------------- the market

def market_round(run, orders: dict) -> bool:
    """Answers (in offer order), merchant trades, then new offers; True if anyone acted."""
    state = run.state
    acted = False
    answers = sorted((a["id"], seat, a["accept"]) for seat in state["seats"]
                     for a in (orders.get(seat) or {}).get("answers", []))
    for number, seat, accept in answers:
        offer = next(o for o in run.state["offers"] if o["id"] == number)
        if offer["status"] != "open" or offer["to"] != seat:
            continue
        acted = True
        if accept:
            settle(run, offer)
        else:
            run.emit(private(secret_for(state, offer["from"], offer["to"]), "offer_closed",
                             id=number, status="refused", why={}))
    for seat in state["seats"]:
        for deal in (orders.get(seat) or {}).get("merchants", []):
            acted = merchant_trade(run, seat, deal) or acted
    for seat in state["seats"]:
        for offer in (orders.get(seat) or {}).get("offers", []):
            made = trade.new_offer(run.state["offers"], seat, offer, state["turn"])
            run.emit(private(secret_for(state, seat, offer["to"]), "offer_made", offer=made))
            acted = True
    if edition(state) >= 2:  # the first edition did nothing with peace offered here
        for seat in state["seats"]:
            for proposal in (orders.get(seat) or {}).get("peace", []):
                war.propose_peace(run, seat, proposal["to"], proposal["terms"])
                acted = True
    return acted


def settle(run, offer: dict) -> None:
    """An accepted offer: goods move when both sides still hold them; prices move."""
    state = run.state
    stocks = {offer["from"]: stock(state, offer["from"]), offer["to"]: stock(state, offer["to"])}
    after, why = trade.settle(offer, stocks)
    seen = secret_for(state, offer["from"], offer["to"])
    if after is None:
        run.emit(private(seen, "offer_closed", id=offer["id"], status="failed", why=why))
        return
    run.emit(private(seen, "offer_closed", id=offer["id"], status="accepted", why={}))
    run.emit(private(seen, "traded", id=offer["id"], give=offer["give"], take=offer["take"],
                     **{"from": offer["from"], "to": offer["to"]}))
    for good, price in moved_prices(run.state, offer["give"], offer["take"]).items():
        run.emit(public("price_moved", good=good, price=price, was=run.state["prices"][good]))


def value(state, goods: dict) -> int:
    """What goods are worth at the reference prices."""
    return sum(n * price_of(state, g) for g, n in goods.items())


def moved_prices(state, give: dict, take: dict) -> dict:
    """Each good traded moves one step toward the price the trade implies.

    A side's goods were exchanged for the other side's value: when that value
    is more than theirs at the reference prices, they go up one step, when it
    is less, down one step (coins do not move; prices stay within bounds).
    """
    low, high = material(state)["price_low"], material(state)["price_high"]
    out = {}
    for mine, theirs in ((give, take), (take, give)):
        paid, worth = value(state, theirs), value(state, mine)
        if not paid or not worth or paid == worth:
            continue
        step = 1 if paid > worth else -1
        for good in mine:
            if good == "coins":
                continue
            new = min(high, max(low, state["prices"][good] + step))
            if new != state["prices"][good]:
                out[good] = new
    return out


def merchant_trade(run, seat: str, deal: dict) -> bool:
    """A purchase from or a sale to the merchants, if the card brought them and stock allows."""
    state = run.state
    good, kind = deal["good"], deal["kind"]
    number = min(deal["count"], merchant_left(state, seat, good, kind))
    if number <= 0:
        return False
    coins = number * merchant_price(state, good, kind)
    pays = {"coins": coins} if kind == "buy" else {good: number}
    if not holds(stock(state, seat), pays):
        run.emit(private(secret_for(state, seat), "merchant_refused", seat=seat, good=good,
                         kind=kind, count=number, coins=coins))
        return False
    run.emit(private(secret_for(state, seat), "merchant_trade", seat=seat, good=good, kind=kind,
                     count=number, coins=coins))
    return True


# ---------------------------------------------------------------- construction

def building_cost(state, building: str) -> dict:
    """What a building costs."""
    return dict(state["data"]["buildings"][building]["cost"])


def still_owed(state, lord: str, building: str) -> dict:
    """What a project still needs."""
    entry = state["buildings"].get(lord, {}).get(building)
    paid = entry["paid"] if entry else {}
    return {g: n - paid.get(g, 0) for g, n in building_cost(state, building).items()
            if n > paid.get(g, 0)}


def finished_in(state, lord: str, building: str) -> int:
    """The turn in whose construction a project paid in full is finished."""
    entry = state["buildings"][lord][building]
    turns = state["data"]["buildings"][building]["turns"]
    return max(state["turn"], entry["started"] + turns - 1)


def construction(run, orders: dict) -> None:
    """Each lord in seat order: gifts to its church, payments on projects, the forge, a new
    warrior, weapons to warriors at home; then buildings paid and old enough are finished."""
    for lord in run.state["lords"]:
        build_for(run, lord, orders.get(lord) or {})
    finish_buildings(run)


def works(state, lord: str, mine: dict) -> list[dict]:
    """What each construction order of a lord does, in the order they are carried out:
    the gift to its church, each payment as written, the forge, a warrior raised, weapons
    given. Each is {"kind", "asked", "done", "why"}: "done" what it takes or makes (empty
    or 0 when nothing), "why" the reason it does less than asked (None when it does all):
    see WHY. The parser and the construction phase read the same plan, so an order is
    refused at once, or said back with what it will do, and then does exactly that."""
    pile = dict(stock(state, lord))
    limit = room = famine_free_village_farms(state, lord)
    owed_now = {}
    plan = []
    if mine.get("donate"):
        gift = mine["donate"]
        why = None if done_building(state, lord, "church") else "church"
        why = why or (None if holds(pile, gift) else "stock")
        plan.append({"kind": "donate", "asked": gift, "done": {} if why else gift, "why": why,
                     "held": dict(pile)})
        if not why:
            pile = remove(pile, gift)
    for payment in mine.get("build", []):
        building = payment["building"]
        owed = owed_now.setdefault(building, still_owed(state, lord, building))
        asked = dict(payment["goods"])
        step = {"kind": "build", "building": building, "asked": asked, "held": dict(pile),
                "owed": dict(owed), "room": room, "limit": limit}
        paid, reasons = {}, []
        for good, wanted in payment["goods"]:
            n = min(wanted, owed.get(good, 0), pile.get(good, 0), room)
            reasons += [why for why, short in (("owed", owed.get(good, 0) < wanted),
                                              ("stock", pile.get(good, 0) < wanted),
                                              ("room", room < wanted)) if short]
            if n > 0:
                paid[good] = paid.get(good, 0) + n
                owed[good] -= n
                pile[good] -= n
                room -= n
        plan.append({**step, "done": paid, "why": reasons[0] if reasons else None})
    for kind, cost in (("forge", {"metal": 1, "wood": 1}),
                       ("raise", {"food": material(state)["raise_food"]})):
        if not mine.get(kind):
            continue
        building = "forge" if kind == "forge" else "house"
        why = None if done_building(state, lord, building) else building
        why = why or (None if holds(pile, cost) else "stock")
        plan.append({"kind": kind, "asked": cost, "done": 0 if why else 1, "why": why,
                     "held": dict(pile)})
        if not why:
            pile = add(remove(pile, cost), {"weapons": 1} if kind == "forge" else {})
    if mine.get("arm"):
        home = village_of(state, lord)
        bare = [w for w in warriors_at(state, home, lord) if not w["armed"]]
        number = min(mine["arm"], len(bare), pile.get("weapons", 0))
        why = None if number == mine["arm"] else ("bare" if len(bare) < mine["arm"]
                                                  else "weapons")
        plan.append({"kind": "arm", "asked": mine["arm"], "done": number, "why": why,
                     "bare": len(bare), "held": dict(pile)})
    return plan


def build_for(run, lord: str, mine: dict) -> None:
    """One lord's construction orders, as its plan says (see works)."""
    for step in works(run.state, lord, mine):
        if step["kind"] == "donate" and step["done"]:
            run.emit(public("donated", lord=lord, goods=step["done"]))
        elif step["kind"] == "build" and step["done"]:
            run.emit(public("project_paid", lord=lord, building=step["building"],
                            goods=step["done"], turn=run.state["turn"]))
        elif step["kind"] == "forge" and step["done"]:
            run.emit(public("forged", lord=lord))
        elif step["kind"] == "raise" and step["done"]:
            food = material(run.state)["raise_food"]
            run.emit(public("raised", lord=lord, id=run.state["next_warrior"], food=food,
                            at=village_of(run.state, lord)))
        elif step["kind"] == "arm" and step["done"]:
            home = village_of(run.state, lord)
            bare = [w["id"] for w in warriors_at(run.state, home, lord) if not w["armed"]]
            run.emit(public("armed", seat=lord, ids=bare[:step["done"]]))


def done_building(state, lord: str, building: str) -> bool:
    """Is the building finished?"""
    entry = state["buildings"].get(lord, {}).get(building)
    return bool(entry and entry["done"] is not None)


def finish_buildings(run) -> None:
    """Projects fully paid whose build turns have passed are finished."""
    for lord in run.state["lords"]:
        for building, entry in sorted(run.state["buildings"][lord].items()):
            turns = run.state["data"]["buildings"][building]["turns"]
            if entry["done"] is None and not still_owed(run.state, lord, building) \
                    and run.state["turn"] - entry["started"] + 1 >= turns:
                run.emit(public("building_finished", lord=lord, building=building,
                                turn=run.state["turn"]))
                if building == "house":
                    run.emit(public("warrior_joined", seat=lord, id=run.state["next_warrior"],
                                    at=village_of(run.state, lord)))

