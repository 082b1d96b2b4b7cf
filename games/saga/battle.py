"""A battle from the moment an army enters a defended zone until its consequences are applied.

    joined     the setup dice (and the scenario die when the scenario is random)
    setup      the defender may withdraw an army; a player may have to pick the scenario
    set        both forces in full, the scenario, the scouting bonus: the battle mail
    reported   both players report; agreement is applied, anything else goes to the referee
    won        the winner's, the loser's and the Lord's tables
    aftermath  losses (of the player's choice after a heavy defeat), promotion, the Lord's
               fate, the loser's fall-back, and who holds the zone

Everything here is seen by the two players alone under fog of war (the
rules keep a battle between them: not even an overlord sees its vassal's).
"""

from pbem.adjudicator.contract import REFEREE
from pbem.adjudicator.results import agreed

from .army import cheapest, has, points, unit_count
from .material import UNIT_TYPES
from .moves import lord_home
from .rules import (aftermath_asks, fall_back_options, scenario_chooser, setup_asks,
                    withdraw_options)
from .state import armies_in, between, owner_of
from .tables import lost_count, roll_die, row


def parties(run) -> list[str]:
    """The attacker and the defender."""
    battle = run.turn["battle"]
    return [battle["attacker"], battle["defender"]]


def join(run) -> None:
    """Roll the setup dice; set the battle at once when nobody is asked anything."""
    state, contact = run.state, run.turn["contact"]
    zone, attacker = contact["zone"], run.seat
    defender = owner_of(state, zone)
    homeland = state["homelands"].get(defender) == zone
    dice = [roll_die(run.rng), roll_die(run.rng)]
    chooser = "defender" if homeland else row(state, "setup", sum(dice))["chooser"]
    scenario = die = None
    if chooser == "random":
        die = roll_die(run.rng)
        scenario = row(state, "scenario", die)["scenario"]
    scout = run.turn["scout"]
    bonus = bool(scout and scout["zone"] == zone and scout["bonus"])
    run.emit(between(state, [attacker, defender], "battle_joined", zone=zone, attacker=attacker,
                  defender=defender, army=contact["army"], homeland=homeland, dice=dice,
                  chooser=chooser, scenario=scenario, scenario_die=die,
                  points_rule=points_rule(state, scenario), bonus=bonus))
    if not setup_asks(run.state):
        set_battle(run)


def points_rule(state, scenario) -> bool:
    """Is this scenario won on points left on the field (the players report them)?"""
    for key in state["tables"]["scenario"]:
        found = state["tables"]["scenario"][key]
        if found["scenario"] == scenario:
            return bool(found.get("points"))
    return False


def setup(run, orders) -> None:
    """The defender's withdrawals and the chosen (or rolled) scenario; then the battle is set."""
    battle = run.turn["battle"]
    defender = battle["defender"]
    chosen = (orders.get(defender) or {}).get("withdraw") or {}
    for name in sorted(chosen):
        options = withdraw_options(run.state)
        if name in options and chosen[name] in options[name]:
            run.emit(between(run.state, [defender], "army_withdrawn", seat=defender, army=name,
                          **{"from": battle["zone"]}, to=chosen[name]))
    chooser = scenario_chooser(run.state)
    if chooser:
        scenario = (orders.get(chooser) or {}).get("scenario")
        how = battle["chooser"]
        if scenario is None:
            die = roll_die(run.rng)
            scenario, how = row(run.state, "scenario", die)["scenario"], "die"
        run.emit(between(run.state, parties(run), "scenario_chosen", seat=chooser, by=how,
                      scenario=scenario, points_rule=points_rule(run.state, scenario)))
    set_battle(run)


def set_battle(run) -> None:
    """Both forces as they fight (the defender's armies there as one): the battle mail."""
    state, battle = run.state, run.turn["battle"]
    attacker, defender, zone = battle["attacker"], battle["defender"], battle["zone"]
    mine = [(name, army) for seat, name, army in armies_in(state, zone) if seat == defender]
    mine.sort(key=lambda item: (-points(item[1]), item[0]))
    head = mine[0][0]
    together = {t: sum(a["units"][t] for _, a in mine) for t in UNIT_TYPES}
    lord = any(a["lord"] for _, a in mine)
    forces = {attacker: force(state, attacker, battle["army"],
                              state["armies"][attacker][battle["army"]]),
              defender: force(state, defender, head, {"units": together, "lord": lord})}
    fact = {"owner": defender, "homeland": battle["homeland"],
            "armies": [{"points": sum(together.values()), "units": together, "lord": lord}]}
    run.emit(between(state, parties(run), "battle_set", zone=zone, attacker=attacker,
                  defender=defender, defender_army=head, merged=[n for n, _ in mine[1:]],
                  forces=forces, scenario=battle["scenario"], bonus=battle["bonus"],
                  points_rule=battle.get("points_rule", False), homeland=battle["homeland"],
                  fact=fact))


def force(state, seat, name, army) -> dict:
    """One side of a battle: its army, units, points, and whether its Lord sits out (wounded)."""
    sits_out = bool(army["lord"] and state["lords"][seat]["wounded"])
    return {"army": name, "units": dict(army["units"]), "lord": army["lord"] and not sits_out,
            "points": points(army), "lord_sits_out": sits_out}


# ---------------------------------------------------------------- the reports

def claims_of(run, orders) -> tuple[dict, dict]:
    """({seat: the winner it claims, or None}, {seat: the points it reports, or None})."""
    attacker, defender = parties(run)
    claims, reported = {}, {}
    for seat, other in ((attacker, defender), (defender, attacker)):
        report = orders.get(seat)
        claims[seat] = None if report is None else (seat if report["outcome"] == "won" else other)
        reported[seat] = None if report is None else report.get("points")
    return claims, reported


def consistent(battle, winner, reported) -> bool:
    """On points: the winner left more points on the field (a tie goes to the defender)."""
    if not battle.get("points_rule"):
        return True
    loser = battle["defender"] if winner == battle["attacker"] else battle["attacker"]
    won, lost = reported.get(winner), reported.get(loser)
    if won is None or lost is None:
        return False
    return won > lost or (won == lost and winner == battle["defender"])


def reports(run, orders) -> bool:
    """Both reports in: agreement is applied (True when the battle is over), else a dispute."""
    battle = run.turn["battle"]
    claims, reported = claims_of(run, orders)
    winner = agreed(claims)
    if winner is not None and consistent(battle, winner, reported):
        return won(run, winner, "agreement", reported)
    run.emit(between(run.state, parties(run), "battle_disputed", zone=battle["zone"],
                  claims=claims, points=reported))
    return False


def ruled(run, orders) -> bool:
    """The referee's ruling names the winner."""
    return won(run, orders[REFEREE]["set"]["winner"], "ruling", None)


def won(run, winner, how, reported) -> bool:
    """The winner is known: roll its table, the loser's, and the Lord's; True when done."""
    state, battle = run.state, run.turn["battle"]
    loser = battle["defender"] if winner == battle["attacker"] else battle["attacker"]
    run.emit(between(state, parties(run), "battle_won", zone=battle["zone"], winner=winner,
                  loser=loser, by=how, points=reported))
    roll_table(run, winner, "winner")
    roll_table(run, loser, "loser")
    if battle["forces"][loser]["lord"]:
        roll_table(run, loser, "lord")
    if aftermath_asks(run.state):
        return False
    aftermath(run, {})
    return True


def roll_table(run, seat, table) -> None:
    """One roll on the winner's, the loser's or the Lord's table, for the battle's two players."""
    battle = run.turn["battle"]
    die, first = run.roll(seat, table, parties(run), kept=True)
    found = row(run.state, table, die)
    army = run.state["armies"][seat].get(battle["forces"][seat]["army"])
    units = unit_count(army) if army else 0
    if army and battle["forces"][seat]["lord_sits_out"]:
        units -= 1
    run.emit(between(run.state, parties(run), "table_rolled", seat=seat, table=table, die=die,
                  rerolled=first, effect=found["effect"],
                  lose=lost_count(found.get("lose", "none"), units),
                  choice=bool(found.get("choice")), promote=bool(found.get("promote")),
                  ransom=int(found.get("ransom", 0))))


# ---------------------------------------------------------------- the aftermath

def aftermath(run, orders) -> None:
    """Losses, promotion, the Lord's fate, the fall-back, and who holds the zone."""
    battle = run.turn["battle"]
    winner, loser = battle["winner"], battle["loser"]
    rolls = battle["rolls"]
    lose_units(run, winner, rolls["winner"]["lose"], None)
    lose_units(run, loser, rolls["loser"]["lose"],
               (orders.get(loser) or {}).get("losses") if rolls["loser"]["choice"] else None)
    promote(run, winner, (orders.get(winner) or {}).get("promote"))
    lord_fate(run, loser, winner)
    for seat in (winner, loser):
        if battle["forces"][seat]["lord_sits_out"]:
            run.emit(between(run.state, parties(run), "lord_healed", seat=seat))
        lords = run.state["lords"][seat]
        if lords["status"] == "army" and \
                not any(a["lord"] for a in run.state["armies"][seat].values()):
            run.emit(between(run.state, [seat], "lord_waits", seat=seat, new=False))
    fall_back(run, loser, (orders.get(loser) or {}).get("fall_back"))
    hold(run, winner)
    slain = battle["rolls"].get("lord", {}).get("effect") == "slain"
    for seat in (winner, loser):
        if run.state["lords"][seat]["status"] == "waiting":
            run.emit(lord_home(run.state, seat, new=slain and seat == loser))


def lose_units(run, seat, count, chosen) -> None:
    """Take `count` units from a side's army: those chosen if they fit, else the cheapest first."""
    battle = run.turn["battle"]
    name = battle["forces"][seat]["army"]
    army = run.state["armies"][seat].get(name)
    if not count or army is None:
        return
    sits_out = battle["forces"][seat]["lord_sits_out"]
    fighting = {**army, "lord": army["lord"] and not sits_out}
    if chosen and sum(chosen["units"].values()) + chosen["lord"] == count and \
            has(fighting, chosen["units"], chosen["lord"]):
        units, lord = chosen["units"], chosen["lord"]
    else:
        units, lord = cheapest(fighting, count)
    run.emit(between(run.state, parties(run), "units_lost", seat=seat, army=name, units=units,
                  lord=lord, zone=battle["zone"]))


def promote(run, seat, chosen) -> None:
    """Total victory: one unit of Warriors becomes Hearthguards, or one of Levies Warriors."""
    battle = run.turn["battle"]
    if not battle["rolls"]["winner"]["promote"] or chosen == "none":
        return
    army = run.state["armies"][seat].get(battle["forces"][seat]["army"])
    if army is None:
        return
    if chosen not in ("warriors", "levies") or not army["units"][chosen]:
        chosen = "warriors" if army["units"]["warriors"] else "levies"
    if not army["units"][chosen]:
        return
    better = {"warriors": "hearthguards", "levies": "warriors"}[chosen]
    run.emit(between(run.state, parties(run), "unit_promoted", seat=seat,
                  army=battle["forces"][seat]["army"], **{"from": chosen}, to=better))


def lord_fate(run, loser, winner) -> None:
    """The loser's Lord, if he fought: slain, captured, wounded, unhurt, or a dirty trick."""
    roll = run.turn["battle"]["rolls"].get("lord")
    if roll is None:
        return
    effect = roll["effect"]
    audience = parties(run)
    if effect == "slain":
        run.emit(between(run.state, audience, "lord_slain", seat=loser))
    elif effect == "captured":
        run.emit(between(run.state, audience, "lord_captured", seat=loser, captor=winner,
                      ransom=roll["ransom"]))
    elif effect == "wounded":
        run.emit(between(run.state, audience, "lord_wounded", seat=loser))
    elif effect == "trick":
        run.emit(between(run.state, audience, "trick_gained", seat=loser))


def fall_back(run, loser, chosen) -> None:
    """The loser's army falls back to an adjacent zone its owner controls, else it is lost."""
    battle = run.turn["battle"]
    name = battle["forces"][loser]["army"]
    army = run.state["armies"][loser].get(name)
    if army is None:
        return
    options = fall_back_options(run.state)
    if not options:
        run.emit(between(run.state, parties(run), "army_lost", seat=loser, army=name,
                      zone=battle["zone"], points=points(army)))
        return
    if chosen not in options:
        came = run.turn["contact"]["from"] if loser == battle["attacker"] else None
        chosen = came if came in options else options[0]
    run.emit(between(run.state, [loser], "army_fell_back", seat=loser, army=name,
                  **{"from": battle["zone"]}, to=chosen))


def hold(run, winner) -> None:
    """The winner keeps or takes the zone; both players see what stands there now."""
    state, battle = run.state, run.turn["battle"]
    zone = battle["zone"]
    staying = [a for s, _, a in armies_in(state, zone) if s == winner]
    fact = {"owner": winner, "homeland": state["homelands"].get(winner) == zone,
            "armies": [{"points": points(a), "units": dict(a["units"]), "lord": a["lord"]}
                       for a in staying]}
    run.emit(between(state, parties(run), "battle_over", zone=zone, owner=winner,
                  attacker=battle["attacker"], defender=battle["defender"], fact=fact))


def homeland_lost(run) -> str | None:
    """The defender, if it lost a battle on its homeland."""
    battle = run.turn["battle"]
    if battle["homeland"] and battle["loser"] == battle["defender"]:
        return battle["defender"]
    return None

