"""Fights and war: dice combat with modifiers, victims, kill or spare, movement, pillage, lineage.

A fight is on one place. Each round every fit warrior of the seats that
fight each other there rolls a die at once; 6 or more (with the modifiers)
puts an enemy out of action. Rounds in which nobody scores are rolled again
at once (nothing changed, so nobody's choice could differ). The seats that
scored pick their victims (silence: the enemy's strongest first); the fight
ends when no two enemies are left fit on the place, or when every fighter
sends ``stop``. The seats left alone then kill the enemies lying there if one
of them ordered ``kill``, or send them home.
"""

from pbem.adjudicator.contract import private, public
from pbem.adjudicator.dice import roll

from .material import RESOURCES, add, count
from .rules import (at_war, bonus, done, goods_at, hostile, hostile_pairs, material,
                    neighbours, place_owner, places, seats_at, secret_for, village_of,
                    warrior, warriors_at)

HIT = 6
MAX_EMPTY_ROUNDS = 12


# ---------------------------------------------------------------- fights

def fighters(state, place: str) -> list[str]:
    """The seats with fit warriors on a place that fight someone there, in seat order."""
    pairs = hostile_pairs(state, place)
    return [s for s in state["seats"] if any(s in pair for pair in pairs)]


def war_fights(state) -> list[str]:
    """The places where enemies at war share a place, in place order."""
    return [p for p in places(state) if hostile_pairs(state, p)]


def begin(run, place: str, context: str, sides=None, claim=None) -> None:
    """A fight begins on a place."""
    run.emit(public("fight_began", place=place, context=context, sides=sides or {},
                    claim=claim, seats=fighters(run.state, place) if context == "war" else
                    sorted(sides or {}, key=run.state["seats"].index)))


def roll_round(run, place: str) -> None:
    """Every fighter's fit warriors roll, again while nobody scores (at most 12 times)."""
    state = run.state
    fight = state["fights"][place]
    number = fight["round"]
    for empty in range(MAX_EMPTY_ROUNDS):
        number += 1
        rolls, hits = [], {}
        for seat in fighters(state, place):
            for w in warriors_at(state, place, seat, fit=True):
                die = roll(run.rng)
                plus = bonus(state, w, place)
                scored = die + plus >= HIT
                rolls.append({"seat": seat, "warrior": w["id"], "die": die, "bonus": plus,
                              "hit": scored})
                hits[seat] = hits.get(seat, 0) + scored
        if any(hits.values()):
            run.emit(public("combat_rolled", place=place, round=number, rolls=rolls,
                            hits={s: n for s, n in hits.items() if n}, empty=empty))
            return
    run.emit(public("combat_rolled", place=place, round=number, rolls=[], hits={},
                    empty=MAX_EMPTY_ROUNDS))


def strongest(state, place: str, ids: list[int]) -> list[int]:
    """Warriors by strength: the highest modifier first, then by number."""
    return sorted(ids, key=lambda i: (-bonus(state, warrior(state, i), place), i))


def victims(state, place: str, seat: str, hits: int, named: list, taken: set) -> list[int]:
    """The enemy warriors one seat's hits put out of action: those it names, then the strongest."""
    targets = [w["id"] for w in warriors_at(state, place, fit=True)
               if hostile(state, place, seat, w["seat"]) and w["id"] not in taken]
    chosen = []
    for spec in named:
        pick = [i for i in strongest(state, place, targets) if i not in chosen
                and warrior(state, i)["seat"] == spec["seat"]
                and (spec.get("armed") is None or warrior(state, i)["armed"] == spec["armed"])]
        if pick and len(chosen) < hits:
            chosen.append(pick[0])
    for i in strongest(state, place, targets):
        if len(chosen) >= hits:
            break
        if i not in chosen:
            chosen.append(i)
    return chosen


def combat_round(run, orders: dict) -> None:
    """Victims, kill orders and stops on every fight; fights that are over end."""
    state = run.state
    for place in [p for p in places(state) if p in state["fights"]]:
        fight = run.state["fights"][place]
        taken, by = set(), {}
        for seat in fighters(run.state, place):
            mine = orders.get(seat) or {}
            named = mine.get("hits", {}).get(place, [])
            for i in victims(run.state, place, seat, fight["hits"].get(seat, 0), named, taken):
                taken.add(i)
                by[str(i)] = seat
            if place in mine.get("kill", []):
                run.emit(public("kill_ordered", place=place, seat=seat))
        if taken:
            run.emit(public("warriors_hit", place=place, ids=sorted(taken), by=by))
        left = fighters(run.state, place)
        stopped = [s for s in left if place in ((orders.get(s) or {}).get("stop") or [])]
        if not left:
            finish(run, place, "won")
        elif set(stopped) == set(left):
            finish(run, place, "stopped")


def finish(run, place: str, how: str) -> None:
    """A fight ends: the winners kill the enemies lying there, or send them home."""
    state = run.state
    fight = state["fights"][place]
    winners = seats_at(state, place) if how == "won" else []
    fallen = [w for w in warriors_at(state, place, fit=False)
              if any(hostile(state, place, w["seat"], s) for s in winners)]
    killers = [s for s in winners if s in fight["kill"]]
    run.emit(public("fight_ended", place=place, how=how, winners=winners,
                    context=fight["context"]))
    ids = [w["id"] for w in fallen]
    if ids and killers:
        run.emit(public("warriors_killed", place=place, ids=ids, by=killers[0]))
    elif ids:
        run.emit(public("warriors_home", place=place, ids=ids))


def roll_all(run) -> None:
    """A new round on every fight; a fight whose dice find nobody in twelve rounds ends."""
    for place in [p for p in places(run.state) if p in run.state["fights"]]:
        roll_round(run, place)
        if not run.state["fights"][place]["hits"]:
            finish(run, place, "stopped")


# ---------------------------------------------------------------- movement

def movable(state, seat: str, place: str) -> list[dict]:
    """The seat's fit warriors on a place, unloaded ones first."""
    return sorted(warriors_at(state, place, seat, fit=True),
                  key=lambda w: (bool(w["load"]), w["id"]))


def enemy_held(state, seat: str, place: str) -> bool:
    """Do enemies of this seat stand fit on the place?"""
    return any(at_war(state, seat, s) for s in seats_at(state, place))


def movement(run, orders: dict) -> None:
    """Wars declared, peace proposed, recruits, then every move at once, then departures."""
    state = run.state
    for seat in state["seats"]:
        for enemy in (orders.get(seat) or {}).get("war", []):
            declare_war(run, seat, enemy)
    for seat in state["seats"]:
        for proposal in (orders.get(seat) or {}).get("peace", []):
            propose_peace(run, seat, proposal["to"], proposal["terms"])
    barbarian = state["barbarian"]
    if (orders.get(barbarian) or {}).get("recruit"):
        recruit(run)
    start = {w["id"]: w["at"] for w in run.state["warriors"]}
    for seat in state["seats"]:
        used = set()
        for move in (orders.get(seat) or {}).get("moves", []):
            ids = [w["id"] for w in movable(run.state, seat, move["from"])
                   if start[w["id"]] == move["from"] and w["id"] not in used]
            if enemy_held(run.state, seat, move["to"]):
                ids = [i for i in ids if not warrior(run.state, i)["load"]]
            ids = ids[:move["count"]] if move["count"] else ids
            if ids and move["to"] in neighbours(run.state, move["from"]):
                used.update(ids)
                run.emit(public("moved", seat=seat, ids=ids, to=move["to"],
                                **{"from": move["from"]}))
    for leave in (orders.get(barbarian) or {}).get("leave", []):
        ids = [w["id"] for w in movable(run.state, barbarian, leave["from"])]
        ids = ids[:leave["count"]] if leave["count"] else ids
        if ids:
            load = {}
            for i in ids:
                load = add(load, warrior(run.state, i)["load"])
            run.emit(public("left_valley", seat=barbarian, ids=ids, load=load,
                            **{"from": leave["from"]}))
    unload(run)


def unload(run) -> None:
    """A lord's warriors carrying loot home put it in the lord's stock."""
    for lord in run.state["lords"]:
        home = village_of(run.state, lord)
        loaded = [w for w in warriors_at(run.state, home, lord) if w["load"]]
        if loaded:
            goods = {}
            for w in loaded:
                goods = add(goods, w["load"])
            run.emit(public("unloaded", seat=lord, place=home, ids=[w["id"] for w in loaded],
                            goods=goods))


def recruit(run) -> None:
    """The barbarian trades 4 resources it carried off for one more warrior."""
    state = run.state
    need = material(state)["recruit"]
    pile = state["stocks"].get(state["barbarian"], {})
    paid, left = {}, need
    for good in sorted(RESOURCES, key=lambda g: (-pile.get(g, 0), RESOURCES.index(g))):
        take = min(left, pile.get(good, 0))
        if take:
            paid[good] = take
            left -= take
    if left:
        return
    run.emit(public("recruited", seat=state["barbarian"], id=state["next_warrior"], paid=paid))


def declare_war(run, seat: str, enemy: str) -> None:
    """A seat declares war; a peace between them is broken."""
    state = run.state
    if at_war(state, seat, enemy) or enemy not in state["seats"] or enemy == seat:
        return
    for agreement in state["agreements"]:
        if agreement["kind"] == "peace" and sorted(agreement["parties"]) == sorted(
                (seat, enemy)) and not agreement.get("broken"):
            run.emit(public("agreement_broken", id=agreement["id"], by=seat,
                            turn=state["turn"], how="war"))
    run.emit(public("relation_set", a=seat, b=enemy, relation="war", by=seat))


def propose_peace(run, seat: str, other: str, terms: str) -> None:
    """A peace proposal; when the other side proposed it too, peace is made."""
    state = run.state
    if not at_war(state, seat, other):
        return
    theirs = next((p for p in state["proposals"] if p["kind"] == "peace"
                   and p["from"] == other and p["to"] == seat), None)
    if theirs is None:
        run.emit(private(secret_for(state, seat, other), "proposed", proposal={
            "kind": "peace", "from": seat, "to": other, "terms": terms, "turn": state["turn"]}))
        return
    parties = sorted((seat, other), key=state["seats"].index)
    terms_by = {other: theirs["terms"], seat: terms}
    run.emit(public("agreement_made", agreement={
        "id": len(state["agreements"]) + 1, "kind": "peace", "parties": parties,
        "terms": {s: terms_by[s] for s in parties}, "turn": state["turn"], "place": None,
        "broken": None}))
    run.emit(public("relation_set", a=parties[0], b=parties[1], relation="peace", by=None))


# ---------------------------------------------------------------- after the fights

def enemy_place(state, seat: str, place: str) -> bool:
    """Is this place a farm or village of a lord at war with the seat?"""
    owner = place_owner(state, place)
    return bool(owner) and owner != seat and at_war(state, seat, owner)


def pillage_options(state, seat: str) -> list[str]:
    """Enemy places with resources on which the seat stands fit, with no fit enemy there."""
    return [p for p in places(state) if warriors_at(state, p, seat, fit=True)
            and enemy_place(state, seat, p) and count(goods_at(state, p))
            and not enemy_held(state, seat, p)]


def threatened(state) -> dict:
    """{lord: the enemy that would take its lineage}: lords with no fit warrior left, at war."""
    out = {}
    for lord in state["lords"]:
        if any(w["seat"] == lord and not w["out"] and w["at"] is not None
               for w in state["warriors"]):
            continue
        home = village_of(state, lord)
        if done(state, lord, "keep") and warriors_at(state, home, lord):
            continue
        enemies = {s: n for s, n in state["took_out"].get(lord, {}).items()
                   if at_war(state, lord, s)}
        if enemies:
            best = max(enemies.values())
            out[lord] = next(s for s in state["seats"] if enemies.get(s) == best)
    return out


def aftermath_asked(state) -> list[str]:
    """The seats asked after the fights: those that may pillage, and lords about to lose
    their lineage with the enemy that would take it (they may still make peace)."""
    asked = {s for s in state["seats"] if pillage_options(state, s)}
    for lord, enemy in threatened(state).items():
        asked.update((lord, enemy))
    return [s for s in state["seats"] if s in asked]


def aftermath(run, orders: dict) -> None:
    """Peace first, then pillage or raze, in seat order; loot carried home is unloaded."""
    state = run.state
    for seat in state["seats"]:
        for proposal in (orders.get(seat) or {}).get("peace", []):
            propose_peace(run, seat, proposal["to"], proposal["terms"])
    for seat in state["seats"]:
        mine = orders.get(seat) or {}
        for place in mine.get("pillage", []):
            if place in pillage_options(run.state, seat):
                ids = [w["id"] for w in warriors_at(run.state, place, seat, fit=True)]
                run.emit(public("pillaged", seat=seat, place=place, ids=ids,
                                goods=dict(goods_at(run.state, place))))
        for place in mine.get("raze", []):
            if place in pillage_options(run.state, seat):
                run.emit(public("razed", seat=seat, place=place,
                                goods=dict(goods_at(run.state, place))))
    unload(run)


def lineage(run) -> None:
    """Lords at war with no fit warrior left and no peace lose their lineage to the enemy."""
    for lord, enemy in threatened(run.state).items():
        if run.state["heads"][lord] != enemy:
            run.emit(public("lineage_lost", lord=lord, to=enemy, was=run.state["heads"][lord]))

