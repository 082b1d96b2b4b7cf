"""A simple campaign player and a scripted referee, for demos and tests.

The bot writes what a player would: a signup, a turn (moves, a merge or a
split now and then, recruits, a scouting or a march out), the answer after
a scouting, the choices a battle asks for, and battle reports. Its battles
are "fought" by a fair coin both players agree on (drawn from the battle
itself, weighted by the forces), and now and then a bot claims a victory it
did not win, so disputes happen; the scripted referee then rules for the
true winner, as a referee shown a photo of the table would.
"""

import hashlib

from .army import points
from .material import (HOST_POINTS, MAX_ZONE, POINT_COST, RESERVE_POINTS, SCENARIO_NAMES,
                       UNIT_TYPES, UPKEEP, ZONE_INCOME)
from .orders import parse
from .rules import (aftermath_asks, fall_back_options, give_way, internal_moves,
                    outward_targets, scenario_chooser, scout_targets, withdraw_options)
from .start import signup_options
from .state import total_points, zone_points, zones_of

FRENCH = {"move": "deplacer", "scout": "reconnaissance", "stay": "rester",
          "recruit": "recruter", "hearthguards": "gardes", "warriors": "guerriers",
          "levies": "levees"}
LIAR = 6  # one battle report in this many claims a victory, whatever happened


def bot_orders(state, seat, rng) -> str:
    """A mail body of legal orders for whatever this seat is asked now."""
    if state["stage"] == "signup":
        return legal(state, seat, signup(state, rng))
    stage = state["turn"]["stage"]
    writer = {"orders": turn, "move": after_scouting, "retreat": retreat, "setup": setup,
              "battle": report, "aftermath": aftermath, "disband": disband}[stage]
    lines = writer(state, seat, rng)
    return lines if stage == "battle" else legal(state, seat, lines)


def legal(state, seat, lines) -> str:
    """The lines the game accepts, in order (a line that fails is left out)."""
    kept = []
    for line in lines:
        _orders, errors = parse(state, seat, "\n".join(kept + [line]))
        if not errors:
            kept.append(line)
    return "\n".join(kept) + "\n" if kept else "ready\n"


def word(key, french) -> str:
    """An order word, in French now and then."""
    return FRENCH.get(key, key) if french else key


def composition(total, rng) -> str:
    """An army of `total` points, drawn unit by unit."""
    units = {t: 0 for t in UNIT_TYPES}
    for _ in range(total):
        units[rng.choice(list(UNIT_TYPES))] += 1
    return " ".join(f"{n} {t}" for t, n in units.items() if n)


def signup(state, rng) -> list[str]:
    """A faction, a homeland and two armies (sometimes left to the defaults)."""
    options = signup_options(state)
    faction = rng.choice(sorted(options))
    lines = [f"faction {faction}", f"homeland {rng.choice(options[faction])}"]
    if rng.below(3):
        lines.append("host " + composition(rng.choice(list(HOST_POINTS)), rng))
        lines.append("reserve " + composition(rng.choice(list(RESERVE_POINTS)), rng))
    return lines


def turn(state, seat, rng) -> list[str]:
    """Moves inside its lands, maybe a merge or split, recruits, then scout, march or stay."""
    french = rng.below(5) == 0
    lines = []
    armies = state["armies"][seat]
    arriving = {}
    for name in sorted(armies):
        where = internal_moves(state, seat, name)
        if where and rng.below(4) == 0:
            to = rng.choice(where)
            lines.append(f"{word('move', french)} {name} {to}")
            arriving[to] = arriving.get(to, 0) + points(armies[name])
    small = sorted(n for n, a in armies.items() if points(a) < 4)
    for name in small:
        partner = [n for n, a in armies.items() if n != name and
                   a["zone"] == armies[name]["zone"] and points(a) + points(armies[name]) <= 8]
        if partner and rng.below(2):
            lines.append(f"army {partner[0]}+{name}")
            break
    big = [n for n, a in sorted(armies.items()) if points(a) >= 7]
    if big and rng.below(4) == 0:
        lines.append(f"split {big[0]} 3")
    lines += recruits(state, seat, arriving, rng, french)
    movers = [n for n in sorted(armies) if outward_targets(state, seat, n)]
    scouts = scout_targets(state, seat)
    choice = rng.below(10)
    if scouts and choice < 4:
        lines.append(f"{word('scout', french)} {rng.choice(scouts)}")
    elif movers and choice < 9:
        name = rng.choice(movers)
        target = rng.choice(outward_targets(state, seat, name))
        lines.append(f"{word('move', french)} {name} {target}")
    return lines


def recruits(state, seat, arriving, rng, french) -> list[str]:
    """Now and then a unit of each type, bought with the gold left after upkeep, into a zone
    of the seat's with room once this mail's moves are made (none without such a zone)."""
    zones = zones_of(state, seat)
    gold = state["gold"][seat] + ZONE_INCOME * len(zones) - UPKEEP * total_points(state, seat)
    home = state["homelands"][seat]
    space = {z: MAX_ZONE - zone_points(state, z) - arriving.get(z, 0)
             for z in sorted(zones, key=lambda z: z != home)}
    lines = []
    for kind in UNIT_TYPES:
        place = next((z for z, left in space.items() if left > 0), None)
        if place and gold >= POINT_COST and rng.below(2):
            lines.append(f"{word('recruit', french)} {word(kind, french)} {place}")
            gold -= POINT_COST
            space[place] -= 1
    return lines


def after_scouting(state, seat, rng) -> list[str]:
    """March into the scouted zone, usually; stay now and then."""
    zone = state["turn"]["scout"]["zone"]
    movers = [n for n in sorted(state["armies"][seat])
              if zone in outward_targets(state, seat, n)]
    if movers and rng.below(4):
        return [f"move {rng.choice(movers)} {zone}"]
    return ["rester" if rng.below(3) == 0 else "stay"]


def retreat(state, seat, rng) -> list[str]:
    """Each small army asked retreats somewhere it may."""
    zone = state["turn"]["contact"]["zone"]
    lines = []
    for name in state["turn"]["retreats"]:
        options = give_way(state, seat, zone, points(state["armies"][seat][name]))
        if options:
            lines.append(f"retreat {name} {rng.choice(options)}")
    return lines


def setup(state, seat, rng) -> list[str]:
    """Maybe withdraw an army; pick a scenario when it is ours to pick."""
    lines = []
    options = withdraw_options(state) if seat == state["turn"]["battle"]["defender"] else {}
    if options and rng.below(3) == 0:
        name = rng.choice(sorted(options))
        lines.append(f"withdraw {name} {rng.choice(options[name])}")
    if scenario_chooser(state) == seat:
        lines.append(f"scenario {rng.choice(sorted(SCENARIO_NAMES))}")
    return lines


def true_winner(state) -> str:
    """Who 'really' won the battle on the table: a coin both players see, weighted by forces."""
    battle = state["turn"]["battle"]
    forces = battle["forces"]
    weight = {s: forces[s]["points"] + (2 if forces[s]["lord"] else 0) + 1 for s in forces}
    digest = hashlib.sha256(f"{battle['zone']}:{state['turn']['number']}".encode()).digest()
    roll = int.from_bytes(digest[:4], "big") % sum(weight.values())
    return battle["attacker"] if roll < weight[battle["attacker"]] else battle["defender"]


def true_points(state, seat) -> int:
    """Points left on the field, consistent with the true winner."""
    battle = state["turn"]["battle"]
    base = 8 + battle["forces"][seat]["points"]
    return base + 10 if seat == true_winner(state) else base


def report(state, seat, rng) -> str:
    """RESULT WON or LOST, truthfully, except now and then."""
    won = true_winner(state) == seat or rng.below(LIAR) == 0
    text = "result won" if won else ("resultat perdu" if rng.below(4) == 0 else "result lost")
    if state["turn"]["battle"].get("points_rule"):
        text += f" points {true_points(state, seat)}"
    return text + "\n"


def aftermath(state, seat, rng) -> list[str]:
    """Losses after a heavy defeat, where to fall back, the promotion."""
    asks = aftermath_asks(state).get(seat, [])
    battle = state["turn"]["battle"]
    lines = []
    if "losses" in asks:
        army = state["armies"][seat][battle["forces"][seat]["army"]]
        pool = [t for t in UNIT_TYPES for _ in range(army["units"][t])]
        picked = rng.shuffle(pool)[:battle["rolls"]["loser"]["lose"]]
        lines.append("lose " + " ".join(f"1 {t}" for t in picked))
    if "fall_back" in asks:
        lines.append(f"retreat {rng.choice(fall_back_options(state))}")
    if "promote" in asks:
        lines.append(f"promote {rng.choice(['warriors', 'levies', 'none'])}")
    return lines


def disband(state, seat, rng) -> list[str]:
    """The points upkeep cannot pay, from the biggest armies."""
    short = state["turn"]["short"]
    lines = []
    for name, army in sorted(state["armies"][seat].items(), key=lambda i: -points(i[1])):
        take = min(short, points(army))
        if take:
            lines.append(f"disband {name} {take}")
            short -= take
    return lines


def bot_ruling(state, request, rng) -> tuple[dict, str]:
    """The scripted referee: the true winner, as the photos of the table show it."""
    winner = true_winner(state)
    return {"winner": winner}, f"the photos of the table show {winner}'s victory"

