"""Simple Seigneurs players, for demos and tests: lords that tax, trade, build and fight,
and a barbarian that raids and judges. Every mail they write is legal; now and
then they write French words.
"""

from . import development, economy, war
from .flow import asked, revolt_choices
from .founding import nearest_open, village_pairs
from .material import BUILDINGS, RESOURCES, valley
from .orders import parse
from .rules import (at_war, free_farms, goods_at, hostile, lord_farms, neighbours,
                    place_owner, stock, village_of, warriors_at)
from .seasons import default_winner

FRENCH = {"wood": "bois", "stone": "pierre", "food": "nourriture", "metal": "metal"}


def bot_orders(state, seat, rng) -> str:
    """A mail body of legal orders for whatever this seat is asked now."""
    stage = state["stage"]
    if stage == "revolt":
        return revolt_ruling(state, rng)
    if stage == "judgement":
        return judgement(state, rng)
    if seat not in asked(state):
        return "pass\n"
    lines = WRITERS[stage](state, seat, rng)
    return "\n".join(lines or ["pass"]) + "\n"


def word(good: str, rng) -> str:
    """A good's name, now and then in French."""
    return FRENCH[good] if rng.below(5) == 0 else good


def villages(state, seat, rng):
    pairs = village_pairs(state)
    return [f"village {' '.join(rng.choice(pairs))}"] if pairs else []


def farms(state, seat, rng):
    if seat == state["barbarian"]:
        land = valley(state)
        tiles = nearest_open(state, None)
        far = [t for t in tiles
               if all(land.distance(t, v) >= 3 for vs in state["villages"].values() for v in vs)]
        tiles = rng.shuffle(far or tiles)[:3]
        return [f"farm {t} {rng.choice(RESOURCES)} {rng.choice(RESOURCES)}" for t in tiles]
    tiles = nearest_open(state, village_of(state, seat))[:6]
    picked = rng.shuffle(tiles)[:3]
    lines = [f"farm village {word(rng.choice(RESOURCES), rng)}" for _ in range(2)]
    lines += [f"{'ferme' if rng.below(4) == 0 else 'farm'} {t} {word(rng.choice(RESOURCES), rng)}"
              f" {rng.choice(RESOURCES)}" for t in picked]
    return lines


def taxation(state, seat, rng):
    lines = []
    if state["round"]["number"] == 1:
        lines.append("produce " + " ".join(word(rng.choice(RESOURCES), rng) for _ in range(3)))
    if rng.below(state["round"]["number"] + 1) > 1:
        return lines + ["pass"]
    claimed = [c["place"] for c in state["claims"]]
    own = [p for p in lord_farms(state, seat) + [village_of(state, seat)]
           if goods_at(state, p) and p not in state["taxed"] and p not in claimed]
    others = [p for p in state["goods"] if p not in state["taxed"] and p not in claimed
              and place_owner(state, p) != seat and (place_owner(state, p) or p in state["farms"])]
    free = [p for p in free_farms(state) if p not in state["taxed"] and p not in claimed]
    roll = rng.below(10)
    if roll == 0 and free and economy.available(state, seat):
        lines.append(f"oath {rng.choice(free)}")
    elif roll < 3 and others:
        lines.append(f"tax {rng.choice(sorted(others))} all")
    elif own:
        place = rng.choice(own)
        good = rng.choice(sorted(goods_at(state, place)))
        lines.append(f"{'taxe' if rng.below(5) == 0 else 'tax'} {place} {word(good, rng)} 1")
    return lines or ["pass"]


def opposition(state, seat, rng):
    lines = []
    free = len([w for w in economy.available(state, seat)])
    for claim in economy.open_claims(state):
        if free <= 0:
            break
        mine = place_owner(state, claim["place"]) == seat and claim["seat"] != seat
        opposed = claim["seat"] == seat and economy.side_seats(state, claim, "opposer")
        if (mine and rng.below(2)) or (opposed and rng.below(2)):
            verb = "oppose" if mine else "support"
            number = 1 + rng.below(min(2, free))
            lines.append(f"{verb} {claim['place']} {number}")
            free -= number
    return lines


def parley(state, seat, rng):
    lines = []
    for claim in economy.contested(state):
        if seat in economy.parties(state, claim):
            if rng.below(3):
                lines.append(f"agree {claim['place']} I pay a wood at the market")
            else:
                lines.append(f"fight {claim['place']}")
    return lines


def combat(state, seat, rng):
    lines = []
    for place, fight in sorted(state["fights"].items()):
        if seat not in war.fighters(state, place):
            continue
        roll = rng.below(6)
        if roll == 0:
            lines.append(f"stop {place}")
        elif roll == 1:
            lines.append(f"kill {place}")
        elif roll == 2 and fight["hits"].get(seat):
            enemies = [s for s in war.fighters(state, place) if hostile(state, place, seat, s)]
            if enemies:
                lines.append(f"hit {place} {rng.choice(enemies)}")
    return lines


def event(state, seat, rng):
    return [f"{'carte' if rng.below(4) == 0 else 'card'} {rng.choice(state['deck'])}"]


def market(state, seat, rng):
    lines = []
    mine = stock(state, seat)
    for offer in state["offers"]:
        if offer["to"] == seat and offer["status"] == "open":
            lines.append(f"{'accept' if rng.below(3) else 'refuse'} {offer['id']}")
    if state["round"]["number"] <= 2 and rng.below(2):
        held = [g for g in RESOURCES if mine.get(g)]
        if held:
            other = rng.choice([s for s in state["seats"] if s != seat])
            give = rng.choice(held)
            want = rng.choice([g for g in RESOURCES + ("coins",) if g != give])
            lines.append(f"offer {other} give {give} 1 take {want} {1 + rng.below(2)}")
    if seat in state["lords"]:
        lines += peace_lines(state, seat, rng)
    merchants = state["merchants"]
    if merchants and rng.below(4) == 0:
        good = rng.choice(merchants["goods"])
        if good in RESOURCES and mine.get(good) and \
                development.merchant_left(state, seat, good, "sell") > 0:
            lines.append(f"sell {good} 1")
        elif mine.get("coins", 0) >= development.merchant_price(state, good, "buy") and \
                development.merchant_left(state, seat, good, "buy") > 0:
            lines.append(f"buy {good} 1")
    return lines


def construction(state, seat, rng):
    lines = []
    todo = [b for b in BUILDINGS if not development.done_building(state, seat, b)]
    started = [b for b in todo if b in state["buildings"][seat]]
    if todo and rng.below(4):
        building = started[0] if started else rng.choice(todo)
        owed = development.still_owed(state, seat, building)
        goods = {g: min(n, stock(state, seat).get(g, 0)) for g, n in owed.items()}
        goods = {g: n for g, n in goods.items() if n}
        if goods:
            lines.append(f"build {building} " + " ".join(f"{g} {n}" for g, n in goods.items()))
    if development.done_building(state, seat, "forge"):
        lines.append("forge")
    if development.done_building(state, seat, "house") and rng.below(2):
        lines.append("raise")
    if stock(state, seat).get("weapons"):
        lines.append("arm 1")
    if development.done_building(state, seat, "church") and stock(state, seat).get("coins"):
        lines.append("donate coins 1")
    return workable(state, seat, lines)


def workable(state, seat, lines: list[str]) -> list[str]:
    """The lines the parser takes with those before them (a payment beyond this turn's
    limit, a forge without metal, are refused at once: a bot leaves them out)."""
    kept = []
    for line in lines:
        if not parse(state, seat, "\n".join(kept + [line]))[1]:
            kept.append(line)
    return kept


def movement(state, seat, rng):
    if seat == state["barbarian"]:
        return raid(state, seat, rng)
    lines = []
    enemies = [s for s in state["lords"] if s != seat]
    if rng.below(5) == 0 and enemies:
        target = rng.choice(enemies)
        if not at_war(state, seat, target):
            lines.append(f"{'guerre' if rng.below(3) == 0 else 'war'} {target}")
    lines += peace_lines(state, seat, rng)
    home = village_of(state, seat)
    fit = war.movable(state, seat, home)
    if len(fit) > 1 and rng.below(3) == 0:
        near = neighbours(state, home)
        lines.append(f"move {home} {rng.choice(near)} 1")
    for place in sorted({w["at"] for w in state["warriors"] if w["seat"] == seat
                         and w["at"] not in (None, home) and not w["out"]}):
        if rng.below(2) and home in neighbours(state, place):
            lines.append(f"move {place} {home}")
        elif rng.below(2):
            lines.append(f"move {place} {rng.choice(neighbours(state, place))}")
    return lines


def peace_lines(state, seat, rng):
    """Answer peace proposals (one time in two); now and then propose peace to an enemy."""
    lines = []
    answered = set()
    for proposal in state["proposals"]:
        if proposal["to"] == seat and proposal["from"] not in answered and rng.below(2):
            answered.add(proposal["from"])
            lines.append(f"peace {proposal['from']} we part as friends")
    enemies = [s for s in state["lords"] if s != seat and at_war(state, seat, s)
               and s not in answered]
    if enemies and rng.below(4) == 0:
        lines.append(f"paix {rng.choice(enemies)} chacun chez soi")
    return lines


def raid(state, seat, rng):
    lines = []
    land = valley(state)
    if sum(stock(state, seat).get(g, 0) for g in RESOURCES) >= 4:
        lines.append("recruit")
    for place in sorted({w["at"] for w in state["warriors"] if w["seat"] == seat
                         and w["at"] is not None and not w["out"]}):
        loaded = any(w["load"] for w in warriors_at(state, place, seat))
        if loaded and land.edge(place):
            lines.append(f"leave {place}")
            continue
        targets = [p for p in neighbours(state, place) if place_owner(state, p)]
        options = targets or neighbours(state, place)
        if rng.below(4):
            lines.append(f"move {place} {rng.choice(options)}")
    return lines


def aftermath(state, seat, rng):
    lines = []
    for place in war.pillage_options(state, seat):
        lines.append(f"{'pillage' if rng.below(3) else 'raze'} {place}")
    threatened = war.threatened(state)
    for lord, enemy in threatened.items():
        if seat == lord and rng.below(2):
            lines.append(f"peace {enemy} I yield")
        elif seat == enemy and rng.below(2):
            lines.append(f"peace {lord} you yield")
    return lines


def growth(state, seat, rng):
    lines = []
    for source in economy.growth_sources(state, seat):
        if rng.below(3) == 0:
            continue
        if source == village_of(state, seat) or rng.below(3) == 0:
            lines.append(f"found {source} village {rng.choice(RESOURCES)}")
        else:
            open_tiles = nearest_open(state, source)[:3]
            if open_tiles:
                tile = rng.choice(open_tiles)
                lines.append(f"found {source} {tile} {rng.choice(RESOURCES)} "
                             f"{rng.choice(RESOURCES)}")
                break
    return lines


def revolt_ruling(state, rng):
    lines = []
    for key, words in sorted(revolt_choices(state).items()):
        lines.append(f"ruling {key} {rng.choice(words)}")
    lines.append("These farms were the most neglected.")
    return "\n".join(lines) + "\n"


def judgement(state, rng):
    winner = default_winner(state) if rng.below(2) else rng.choice(state["lords"])
    lines = [f"ruling winner {winner}", "Prestige, honour and glory: this lord kept its word."]
    if state["agreements"] and rng.below(2):
        lines.append(f"broken {rng.choice(state['agreements'])['id']}")
    return "\n".join(lines) + "\n"


WRITERS = {
    "villages": villages, "farms": farms, "taxation": taxation, "opposition": opposition,
    "parley": parley, "combat": combat, "event": event, "market": market,
    "construction": construction, "movement": movement, "aftermath": aftermath,
    "growth": growth,
}
