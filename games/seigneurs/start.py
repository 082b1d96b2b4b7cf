"""Setting up a game of Seigneurs: by mail from an empty valley, or from a position.

Without a position the game starts with the setup phases (villages, then
farms). A position (docs/positions.md) gives the valley as it is at some
phase of some turn, and the game starts there.
"""

from pbem.adjudicator.contract import SetupError, public
from pbem.adjudicator.editions import edition
from pbem.adjudicator.options import number_option
from pbem.adjudicator.rounds import round_hours

from . import flow
from .material import BUILDINGS, GOODS, RESOURCES, add, default_data, valley_of
from .rules import (blank_state, pooled, village_farm_count, village_farms, village_of,
                    village_owner)
from .runner import Runner

MIN_LORDS, MAX_LORDS = 2, 5
STAGES = ("villages", "turn", "taxation", "event", "market", "construction", "movement",
          "growth")


def setup(options, seats, rng, position=None) -> list:
    """The setup event, and whatever the position's phase starts with."""
    barbarian = options.get("judge")
    if not barbarian:
        raise SetupError("Seigneurs needs a barbarian: name its seat with --judge SEAT")
    lords = [s for s in seats if s != barbarian]
    if not MIN_LORDS <= len(lords) <= MAX_LORDS:
        raise SetupError(f"Seigneurs is for {MIN_LORDS} to {MAX_LORDS} lords and a barbarian, "
                         f"not {len(lords)} lords")
    turns = number_option(options, "turns", 10, whole=True, positive=True)
    data = position_data(position or {}, edition(options))
    state = blank_state(data, seats, barbarian, turns, round_hours(options), edition(options))
    if not position:
        return [public("setup", state=state)]
    stage = read_position(state, position)
    run = Runner(state, rng)
    events = [public("setup", state=state)]
    start_at(run, stage)
    return events + run.events


def position_data(position: dict, number: int) -> dict:
    """The game's data under the rules' edition `number`, with the tables a position
    replaces."""
    data = default_data(number)
    if "valley" in position:
        data["valley"] = {**data["valley"], **position["valley"]}
    if "building_table" in position:
        data["buildings"] = position["building_table"]
    if "cards" in position:
        data["deck"] = position["cards"]
    if "material" in position:
        data["material"] = {**data["material"], **position["material"]}
    return data


def start_at(run, stage: str) -> None:
    """Open the position's phase, with what happens by itself at its start."""
    if stage == "villages":
        flow.set_stage(run, "villages")
    elif stage == "turn":
        flow.begin_turn(run, run.state["turn"])
    elif stage in ("taxation", "market"):
        flow.set_stage(run, stage, run.state["lords"] if stage == "taxation"
                       else run.state["seats"], 1)
    elif stage == "movement":
        flow.invade(run)
        flow.set_stage(run, "movement")
    elif stage == "growth":
        flow.end_war(run)
    else:
        flow.set_stage(run, stage)


# ---------------------------------------------------------------- positions

def seat_of(state, name, where: str) -> str:
    """A seat named in a position."""
    if name not in state["seats"]:
        raise SetupError(f"{where}: {name!r} is not a seat ({', '.join(state['seats'])})")
    return name


def tile_of(state, name, where: str) -> str:
    """A tile named in a position."""
    land = valley_of(int(state["data"]["valley"]["radius"]),
                     tuple(sorted(state["data"]["valley"].get("entries", {}).items())))
    tile = land.lookup(str(name))
    if tile is None:
        raise SetupError(f"{where}: there is no tile {name!r} in the valley")
    return tile


def place_word(state, word, where: str) -> str:
    """A place in a position: a tile, or a lord's name for its village."""
    if word in state["villages"]:
        return village_of(state, word)
    from .rules import place_of
    return place_of(state, tile_of(state, word, where))


def goods_of(table, where: str, allowed=GOODS) -> dict:
    """A table of goods with whole counts."""
    if not isinstance(table, dict):
        raise SetupError(f"{where}: give a table of goods, e.g. {{wood = 2}}")
    out = {}
    for good, n in table.items():
        if good not in allowed:
            raise SetupError(f"{where}: {good!r} is not one of {', '.join(allowed)}")
        if not isinstance(n, int) or n < 0:
            raise SetupError(f"{where}.{good}: give a whole number, 0 or more")
        if n:
            out[good] = n
    return out


def read_position(state, position: dict) -> str:
    """Fill a blank state with a position; return the phase it starts at."""
    stage = position.get("stage", "turn")
    if stage not in STAGES:
        raise SetupError(f"stage = {stage!r}: use one of {', '.join(STAGES)}")
    if stage == "villages":
        return stage
    state["turn"] = int(position.get("turn", 1))
    read_villages(state, position.get("villages") or {})
    read_farms(state, position)
    read_warriors(state, position)
    for place, table in (position.get("goods") or {}).items():
        read_goods(state, place_word(state, place, "goods"), table, f"goods.{place}")
    for seat, table in (position.get("stocks") or {}).items():
        state["stocks"][seat_of(state, seat, "stocks")] = goods_of(table, f"stocks.{seat}")
    if "bag" in position:
        state["bag"] = {g: 0 for g in RESOURCES} | goods_of(position["bag"], "bag", RESOURCES)
    for lord, table in (position.get("jacquerie") or {}).items():
        bag = goods_of(table, f"jacquerie.{lord}", ("neutral", "jacquerie"))
        state["jacquerie"][seat_of(state, lord, "jacquerie")] = {
            "neutral": bag.get("neutral", 0), "jacquerie": bag.get("jacquerie", 0)}
    state["tokens"] = {seat_of(state, k, "tokens"): int(v)
                       for k, v in (position.get("tokens") or {}).items()}
    state["prices"].update(goods_of(position.get("prices") or {}, "prices"))
    read_buildings(state, position)
    read_relations(state, position)
    state["taxed"] = [place_word(state, p, "taxed") for p in position.get("taxed", [])]
    if not pooled(state):  # the first edition read no famine: a village starved whole
        read_famine(state, position.get("famine") or {})
    read_card(state, position)
    return stage


def read_villages(state, table) -> None:
    """villages.<lord> = [tile, tile], for every lord."""
    for lord in state["lords"]:
        if lord not in table:
            raise SetupError(f"villages: give the two village tiles of {lord}")
        tiles = [tile_of(state, t, f"villages.{lord}") for t in table[lord]]
        if len(tiles) != 2:
            raise SetupError(f"villages.{lord}: a village is two adjoining tiles")
        state["villages"][lord] = tiles
        for tile in tiles:
            state["kinds"][tile] = "village"


def read_farms(state, position) -> None:
    """farms.<tile> = lord or "free"; village_farms.<lord> = n; default bags: a neutral a farm."""
    for tile, owner in (position.get("farms") or {}).items():
        tile = tile_of(state, tile, "farms")
        if state["kinds"].get(tile) == "village":
            raise SetupError(f"farms.{tile}: a village tile holds village farms "
                             "(village_farms), not a plain farm")
        state["farms"][tile] = None if owner == "free" else seat_of(state, owner, "farms")
        state["kinds"][tile] = "fields"
    for lord, n in (position.get("village_farms") or {}).items():
        state["village_farms"][seat_of(state, lord, "village_farms")] = int(n) \
            if pooled(state) else [{"goods": {}, "famine": False} for _ in range(int(n))]
    for lord in state["lords"]:
        farms = sum(1 for owner in state["farms"].values() if owner == lord)
        state["jacquerie"][lord] = {"neutral": farms + village_farm_count(state, lord),
                                    "jacquerie": 0}


def read_famine(state, table) -> None:
    """famine.<lord> = [2]: the numbers of the village farms in famine this turn."""
    if not isinstance(table, dict):
        raise SetupError("famine: give each lord's village farms in famine, e.g. "
                         "{ann = [2]}")
    for lord, numbers in table.items():
        farms = village_farms(state, seat_of(state, lord, "famine"))
        for number in numbers:
            if not isinstance(number, int) or not 1 <= number <= len(farms):
                raise SetupError(f"famine.{lord}: {number!r} is not one of its "
                                 f"{len(farms)} village farms")
            farms[number - 1]["famine"] = True


def read_goods(state, place: str, table, where: str) -> None:
    """goods.<place> = {wood = 2}; on a village, its farms' goods: a list of tables, one a
    farm, or one table dealt out among its farms one resource at a time."""
    owner = village_owner(state, place)
    farms = village_farms(state, owner) if owner else []
    if not farms:
        state["goods"][place] = goods_of(table, where, RESOURCES)
        return
    tables = table if isinstance(table, list) else [table]
    if len(tables) > len(farms):
        raise SetupError(f"{where}: {len(tables)} farms' goods for a village of "
                         f"{len(farms)} farms")
    if isinstance(table, list):
        for farm, goods in zip(farms, tables):
            farm["goods"] = goods_of(goods, where, RESOURCES)
        return
    dealt = [good for good, n in goods_of(table, where, RESOURCES).items() for _ in range(n)]
    for number, good in enumerate(dealt):
        farm = farms[number % len(farms)]
        farm["goods"] = add(farm["goods"], {good: 1})


def read_warriors(state, position) -> None:
    """warriors.<seat> = {place = n, off = n}; armed.<seat> and out.<seat> likewise;
    loads.<seat>.<place> = the goods its first warrior there carries."""
    given = position.get("warriors") or {}
    number = 1
    for seat in state["seats"]:
        if seat in given:
            table = given[seat]
        elif seat == state["barbarian"]:
            table = {"off": state["data"]["material"]["barbarian_warriors"]}
        else:
            table = {seat: state["data"]["material"]["warriors"]}
        armed = dict((position.get("armed") or {}).get(seat, {}))
        out = dict((position.get("out") or {}).get(seat, {}))
        for where, n in table.items():
            at = None if where == "off" else place_word(state, where, f"warriors.{seat}")
            for _ in range(int(n)):
                state["warriors"].append({"id": number, "seat": seat, "at": at,
                                          "armed": armed.get(where, 0) > 0,
                                          "out": out.get(where, 0) > 0, "load": {}})
                armed[where] = armed.get(where, 0) - 1
                out[where] = out.get(where, 0) - 1
                number += 1
    state["next_warrior"] = number
    for seat, row in (position.get("loads") or {}).items():
        for where, goods in row.items():
            at = place_word(state, where, f"loads.{seat}")
            carrier = next((w for w in state["warriors"] if w["seat"] == seat
                            and w["at"] == at), None)
            if carrier is None:
                raise SetupError(f"loads.{seat}.{where}: {seat} has no warrior there")
            carrier["load"] = goods_of(goods, f"loads.{seat}.{where}", RESOURCES)


def read_buildings(state, position) -> None:
    """buildings.<lord>.<building> = the turn it was finished; projects likewise; churches."""
    for lord, row in (position.get("buildings") or {}).items():
        for building, turn in row.items():
            if building not in BUILDINGS:
                raise SetupError(f"buildings.{lord}: {building!r} is not one of "
                                 f"{', '.join(BUILDINGS)}")
            cost = dict(state["data"]["buildings"][building]["cost"])
            state["buildings"][seat_of(state, lord, "buildings")][building] = {
                "paid": cost, "started": int(turn), "done": int(turn)}
    for lord, row in (position.get("projects") or {}).items():
        for building, entry in row.items():
            state["buildings"][seat_of(state, lord, "projects")][building] = {
                "paid": goods_of(entry.get("paid", {}), f"projects.{lord}.{building}"),
                "started": int(entry.get("started", state["turn"])), "done": None}
    for lord, table in (position.get("churches") or {}).items():
        state["churches"][seat_of(state, lord, "churches")] = goods_of(table, "churches")


def read_relations(state, position) -> None:
    """relations = {"ann|bob" = "war"}; heads = {ann = "bob"}."""
    for key, value in (position.get("relations") or {}).items():
        a, _, b = key.partition("|")
        seat_of(state, a, "relations")
        seat_of(state, b, "relations")
        state["relations"]["|".join(sorted((a, b)))] = value
    for lord, head in (position.get("heads") or {}).items():
        state["heads"][seat_of(state, lord, "heads")] = seat_of(state, head, "heads")
    for number, agreement in enumerate(position.get("agreements") or [], start=1):
        parties = [seat_of(state, s, "agreements") for s in agreement.get("parties", [])]
        if len(parties) != 2 or agreement.get("kind") not in ("peace", "parley"):
            raise SetupError("agreements: each has kind = \"peace\" or \"parley\" and two "
                             "parties")
        state["agreements"].append({
            "id": number, "kind": agreement["kind"], "parties": parties,
            "terms": {s: str(agreement.get("terms", {}).get(s, "")) for s in parties},
            "turn": int(agreement.get("turn", 1)), "place": agreement.get("place"),
            "broken": None})


def read_card(state, position) -> None:
    """card = the event card of this turn; deck = the cards left."""
    ids = [c["id"] for c in state["data"]["deck"]]
    if "deck" in position:
        state["deck"] = [c for c in position["deck"] if c in ids]
    if "card" in position:
        if position["card"] not in ids:
            raise SetupError(f"card = {position['card']!r} is not in the deck")
        state["card"] = position["card"]
        state["deck"] = [c for c in state["deck"] if c != state["card"]]
        merchants = next(c for c in state["data"]["deck"] if c["id"] == state["card"])
        state["merchants"] = dict(merchants["merchants"])
        state["revealed"] = ["merchants"]
