"""Resolving a phase of the campaign: signup, the active player's turn, and its end.

A turn runs until something must be asked (the move after a scouting, a
retreat, a battle's choices and report, the aftermath, units to disband) or
until it ends with upkeep and recruiting; then the next player's turn
begins, or the campaign ends.
"""

from pbem.adjudicator.contract import public

from . import battle
from .army import cheapest, points
from .material import MIN_FIGHT, POINT_COST, UPKEEP, ZONE_INCOME
from .moves import events as step_events
from .moves import (is_outward, lord_home, next_name, problem, problem_after_scouting,
                    recruit_place)
from .rules import give_way, overlord_of_all, scouting_army, standing, zone_counts
from .runner import Runner
from .start import signup_events
from .state import armies_in, owner_of, total_points, told, vassals_of, zones_of
from .tables import row


def resolve(state, orders, rng) -> list:
    """The events of one phase."""
    run = Runner(state, rng)
    if state["stage"] == "signup":
        seat = state["seats"][state["signup"]]
        for event in signup_events(state, seat, orders.get(seat) or {"default": True}):
            run.emit(event)
        return run.events
    STAGES[state["turn"]["stage"]](run, orders)
    return run.events


# ---------------------------------------------------------------- the active player's mail

def take_orders(run, orders) -> None:
    """Reorganise at once, keep the recruits for upkeep, then scout, move out, or end the turn."""
    seat = run.seat
    mine = orders.get(seat) or {}
    steps = list(mine.get("steps") or [])
    outward = [s for s in steps if s["do"] in ("move", "scout") and is_outward(run.state, seat, s)]
    for step in steps:
        if step in outward or step["do"] == "recruit":
            continue
        do_step(run, step)
    keep_recruits(run, [s for s in steps if s["do"] == "recruit"])
    go_out(run, outward[0] if outward else None)


def do_step(run, step) -> bool:
    """Carry out one step if it is still legal (the mail was checked on the same state)."""
    trouble = problem(run.state, run.seat, step)
    if trouble:
        run.emit(told(run.state, [run.seat], "order_skipped", seat=run.seat, step=step,
                      why=trouble))
        return False
    for event in step_events(run.state, run.seat, step):
        run.emit(event)
    return True


def keep_recruits(run, recruits) -> None:
    """The RECRUIT orders, kept for upkeep (a later mail's replace them)."""
    if recruits:
        run.emit(told(run.state, [run.seat], "recruits_set", seat=run.seat,
                      recruits=[{"type": r["type"], "place": r.get("place")} for r in recruits]))


def go_out(run, step) -> None:
    """The one scouting or move out of the player's lands, if any; else the turn ends."""
    if step is None or problem(run.state, run.seat, step):
        if step is not None:
            do_step(run, step)
        end_turn(run)
    elif step["do"] == "scout":
        scout(run, step["zone"], step.get("army") or scouting_army(run.state, run.seat,
                                                                    step["zone"]))
    else:
        move_out(run, step["army"], step["to"])


def scout(run, zone, army) -> None:
    """Roll on the scouting table; answer the player alone; then ask MOVE or STAY."""
    seat, state = run.seat, run.state
    die, first = run.roll(seat, "scouting", [seat])
    found = row(state, "scouting", die)
    reveal = int(found.get("reveal", 0))
    run.emit(told(state, [seat], "scouted", seat=seat, zone=zone, army=army, die=die,
                  rerolled=first, effect=found["effect"], reveal=reveal,
                  bonus=bool(found.get("bonus")),
                  fact=zone_fact(state, zone, reveal) if reveal else None))


def zone_fact(state, zone, reveal) -> dict:
    """What a scouting reveals of a zone: 1 who holds it and whether an army is there,
    2 the armies' points, 3 everything (composition, the Lord, homeland or not)."""
    holder = owner_of(state, zone)
    armies = [a for _, _, a in armies_in(state, zone)]
    if reveal == 1:
        shown = [{"points": None, "units": None, "lord": None}] if armies else []
    else:
        shown = [{"points": points(a), "units": dict(a["units"]) if reveal >= 3 else None,
                  "lord": a["lord"] if reveal >= 3 else None} for a in armies]
    homeland = (state["homelands"].get(holder) == zone) if reveal >= 3 and holder else None
    return {"owner": holder, "armies": shown, "homeland": homeland}


def after_scouting(run, orders) -> None:
    """MOVE into the scouted zone, or STAY (and be seen by that zone's owner)."""
    seat = run.seat
    mine = orders.get(seat) or {}
    steps = list(mine.get("steps") or [])
    keep_recruits(run, [s for s in steps if s["do"] == "recruit"])
    move = next((s for s in steps if s["do"] == "move"), None)
    if move and not problem_after_scouting(run.state, seat, move):
        move_out(run, move["army"], move["to"])
        return
    stay(run)


def stay(run) -> None:
    """A player who scouted and stayed is revealed to the zone's owner: position and points."""
    seat, scouted = run.seat, run.turn["scout"]
    holder = owner_of(run.state, scouted["zone"])
    army = run.state["armies"][seat].get(scouted["army"])
    if army is not None and holder is not None and holder != seat:
        fact = {"owner": seat, "armies": [{"points": points(army), "units": None, "lord": None}],
                "homeland": None}
        run.emit(told(run.state, [seat, holder], "stayed", seat=seat, owner=holder,
                      scouted=scouted["zone"], army=scouted["army"], zone=army["zone"],
                      points=points(army), fact=fact))
    else:
        run.emit(told(run.state, [seat], "stayed", seat=seat, owner=holder,
                      scouted=scouted["zone"], army=scouted["army"], zone=None, points=None))
    end_turn(run)


# ---------------------------------------------------------------- entering a zone

def move_out(run, name, zone) -> None:
    """The one move into a zone the player does not control: take it, push aside, or fight."""
    state, seat = run.state, run.seat
    army = state["armies"][seat][name]
    holder = owner_of(state, zone)
    run.emit(told(state, [seat], "moved_out", seat=seat, army=name, **{"from": army["zone"]},
                  to=zone, defender=holder))
    theirs = [(n, a) for s, n, a in armies_in(run.state, zone) if s != seat]
    homeland = holder is not None and state["homelands"].get(holder) == zone
    if not theirs:
        take_zone(run, homeland)
    elif homeland or any(points(a) >= MIN_FIGHT for _, a in theirs):
        battle.join(run)
    else:
        push_aside(run, theirs)


def take_zone(run, homeland=False) -> None:
    """The zone is the player's now; its former owner sees who took it, and with how much."""
    contact = run.turn["contact"]
    seat, zone = run.seat, contact["zone"]
    holder = owner_of(run.state, zone)
    size = points(run.state["armies"][seat][contact["army"]])
    fact = {"owner": seat, "armies": [{"points": size, "units": None, "lord": None}],
            "homeland": False}
    run.emit(told(run.state, [seat, holder], "zone_taken", seat=seat, zone=zone,
                  army=contact["army"], previous=holder, points=size,
                  fact=fact if holder else None))
    if homeland:
        swear(run, holder, seat)
        if run.state["stage"] == "over":
            return
    end_turn(run)


def push_aside(run, theirs) -> None:
    """Armies under 4 points give way: retreat to a zone their owner controls, or are destroyed."""
    contact = run.turn["contact"]
    zone, seat = contact["zone"], run.seat
    holder = owner_of(run.state, zone)
    run.emit(told(run.state, [seat, holder], "armies_met", seat=seat, owner=holder, zone=zone,
                  points=[points(a) for _, a in theirs],
                  attacker_points=points(run.state["armies"][seat][contact["army"]])))
    asked = [n for n, a in theirs if len(give_way(run.state, holder, zone, points(a))) > 1]
    if asked:
        run.emit(told(run.state, [holder], "retreat_asked", seat=holder, zone=zone,
                      armies=asked))
        return
    retreat(run, {})


def retreat(run, chosen) -> None:
    """Each small army retreats where its owner said (or the first zone with room)."""
    contact = run.turn["contact"]
    zone, seat = contact["zone"], run.seat
    holder = owner_of(run.state, zone)
    for name, army in [(n, a) for s, n, a in armies_in(run.state, zone) if s == holder]:
        options = give_way(run.state, holder, zone, points(army))
        if not options:
            run.emit(told(run.state, [seat, holder], "army_destroyed", seat=holder, army=name,
                          zone=zone, points=points(army), by=seat))
            if army["lord"]:
                run.emit(lord_home(run.state, holder))
            continue
        to = chosen.get(name) if chosen.get(name) in options else options[0]
        run.emit(told(run.state, [holder], "army_retreated", seat=holder, army=name,
                      **{"from": zone}, to=to))
    take_zone(run)


def answer_retreat(run, orders) -> None:
    """The defender's RETREAT orders."""
    holder = run.turn["contact"]["defender"]
    retreat(run, (orders.get(holder) or {}).get("retreats") or {})


# ---------------------------------------------------------------- battles

def battle_setup(run, orders) -> None:
    """The defender's withdrawals and the scenario."""
    battle.setup(run, orders)


def battle_reports(run, orders) -> None:
    """Both players' reports."""
    if battle.reports(run, orders):
        battle_done(run)


def battle_ruling(run, orders) -> None:
    """The referee's ruling."""
    if battle.ruled(run, orders):
        battle_done(run)


def battle_aftermath(run, orders) -> None:
    """The answers after a battle."""
    battle.aftermath(run, orders)
    battle_done(run)


def battle_done(run) -> None:
    """A defender beaten on its homeland swears fealty; then the turn ends."""
    beaten = battle.homeland_lost(run)
    if beaten:
        swear(run, beaten, run.seat)
        if run.state["stage"] == "over":
            return
    end_turn(run)


def swear(run, vassal, winner) -> None:
    """The vassal's treasury (and its own vassals) pass to the overlord; maybe the end.

    A vassal never betrays its overlord: what a vassal wins is its overlord's,
    so a homeland it takes makes its owner the overlord's vassal.
    """
    overlord = run.state["overlord"].get(winner, winner)
    others = vassals_of(run.state, vassal)
    run.emit(told(run.state, [vassal, winner] + others, "vassal_sworn", vassal=vassal,
                  overlord=overlord, gold=run.state["gold"][vassal], **{"with": others}))
    lord = overlord_of_all(run.state)
    if lord:
        end_campaign(run, [lord], "fealty", seat=lord)


# ---------------------------------------------------------------- upkeep and the turn's end

def end_turn(run) -> None:
    """Upkeep: income, then pay the armies; a shortfall asks what to disband."""
    seat = run.seat
    income = ZONE_INCOME * len(zones_of(run.state, seat))
    short = UPKEEP * total_points(run.state, seat) - income - run.state["gold"][seat]
    if short > 0:
        run.emit(told(run.state, [seat], "disband_asked", seat=seat, short=short))
        return
    pay(run)


def answer_disband(run, orders) -> None:
    """The units the player disbands to pay upkeep; silence disbands Levies first."""
    seat, short = run.seat, run.turn["short"]
    for step in (orders.get(seat) or {}).get("steps") or []:
        if short <= 0:
            break
        if step["do"] == "disband" and do_step(run, step):
            short -= sum(step["units"].values())
    while short > 0 and run.state["armies"][seat]:
        name = max(sorted(run.state["armies"][seat]),
                   key=lambda n: points(run.state["armies"][seat][n]))
        army = run.state["armies"][seat][name]
        if not points(army):
            break
        units, _lord = cheapest(army, min(short, points(army)))
        run.emit(told(run.state, [seat], "units_disbanded", seat=seat, army=name, units=units,
                      lord=False, default=True))
        short -= sum(units.values())
    pay(run)


def pay(run) -> None:
    """Pay upkeep, buy the recruits (one unit of each type at most), keep the rest."""
    seat, state = run.seat, run.state
    zones = len(zones_of(state, seat))
    income, upkeep = ZONE_INCOME * zones, UPKEEP * total_points(state, seat)
    before = state["gold"][seat]
    run.emit(told(state, [seat], "upkeep_paid", seat=seat, zones=zones, income=income,
                  upkeep=upkeep, before=before, after=max(0, before + income - upkeep)))
    bought = set()
    for order in run.turn["recruits"]:
        recruit(run, order, bought)
    if run.state["lords"][seat]["status"] == "waiting" and run.state["armies"][seat]:
        run.emit(lord_home(run.state, seat))
    finish_turn(run)


def recruit(run, order, bought) -> None:
    """One RECRUIT: gold, the one-per-type limit, and room where the unit goes."""
    seat, kind = run.seat, order["type"]
    army, zone, why = recruit_place(run.state, seat, order)
    if kind in bought:
        why = "twice"
    elif run.state["gold"][seat] < POINT_COST:
        why = "gold"
    if why:
        run.emit(told(run.state, [seat], "recruit_refused", seat=seat, type=kind, why=why,
                      place=order.get("place")))
        return
    bought.add(kind)
    named = army is None
    run.emit(told(run.state, [seat], "unit_recruited", seat=seat, type=kind,
                  army=army or next_name(run.state, seat), zone=zone, cost=POINT_COST,
                  named=named))


def finish_turn(run) -> None:
    """The turn ends; the campaign may end; else the next player's turn begins."""
    turn = run.turn
    run.emit(public("turn_ended", seat=turn["seat"], number=turn["number"]))
    counts = zone_counts(run.state)
    goal = run.state["zones_to_win"]
    if goal and max(counts.values()) >= goal:
        best = max(counts.values())
        end_campaign(run, [s for s in run.state["seats"] if counts[s] == best],
                     "goal", zones=best)
        return
    order = run.state["order"]
    index = order.index(turn["seat"]) + 1
    if index == len(order):
        rounds = run.state["rounds"]
        if rounds and run.state["round"] >= rounds:
            best = max(standing(run.state, s) for s in run.state["seats"])
            end_campaign(run, [s for s in run.state["seats"] if standing(run.state, s) == best],
                         "rounds", rounds=rounds)
            return
        seats = run.state["seats"]
        shift = run.state["round"] % len(seats)
        order = seats[shift:] + seats[:shift]
        run.emit(public("round_began", round=run.state["round"] + 1, order=order))
        index = 0
    run.emit(public("turn_began", seat=order[index], number=turn["number"] + 1,
                    round=run.state["round"]))


def end_campaign(run, winners, reason, **values) -> None:
    """The campaign is over: who won, and why."""
    run.emit(public("campaign_won", winners=sorted(winners), reason=reason, values=values,
                    zones=zone_counts(run.state)))


STAGES = {"orders": take_orders, "move": after_scouting, "retreat": answer_retreat,
          "setup": battle_setup, "battle": battle_reports, "dispute": battle_ruling,
          "aftermath": battle_aftermath, "disband": answer_disband}
