"""Villages and farms: where they may go, and what founding one costs.

A plain farm turns its forest tile into fields, takes 1 wood out of the bag
and puts 2 resources of the founder's choice into it; a village farm gives
its lord 1 resource of its choice. Every lord's farm adds a neutral token to
its lord's jacquerie bag.
"""

from pbem.adjudicator.contract import public
from pbem.adjudicator.editions import edition

from .material import RESOURCES, valley
from .rules import material, stock_event, village_of


def open_tile(state, tile: str) -> bool:
    """May a farm be founded on this tile (forest: no farm, no village)?"""
    return state["kinds"].get(tile, "forest") == "forest" and tile not in state["farms"]


def found(run, lord, tile, bag_in, gift=None, source=None, discard=None, farm=None) -> None:
    """A new farm (lord None: a free farm) on a plain tile, or (tile None) in the village;
    grown from `source` (`farm`: which farm of a village) discarding `discard`."""
    state = run.state
    payload = {"lord": lord, "tile": tile, "source": source, "discard": discard or {}}
    if farm is not None:
        payload["farm"] = farm
    if tile is not None:
        payload["bag_out"] = {"wood": 1} if state["bag"].get("wood", 0) else {}
        payload["bag_in"] = {g: bag_in.count(g) for g in RESOURCES if bag_in.count(g)}
    run.emit(public("farm_founded", **payload))
    if tile is None and gift and lord:
        run.emit(stock_event(run.state, lord, {gift: 1}, "village-farm"))


def village_problem(state, tiles: list[str]) -> str | None:
    """Why two tiles cannot be a new village now (a code), or None."""
    land = valley(state)
    if len(tiles) != 2 or tiles[0] == tiles[1]:
        return "two"
    if tiles[1] not in land.neighbours(tiles[0]):
        return "adjoining"
    if not all(open_tile(state, t) for t in tiles):
        return "taken"
    least = material(state)["village_distance"]
    for other in state["villages"].values():
        if any(land.distance(a, b) < least for a in tiles for b in other):
            return "distance"
    return None


def village_pairs(state) -> list[list[str]]:
    """Every pair of tiles that could be a new village now, in tile order."""
    land = valley(state)
    pairs = []
    for tile in land.names:
        for other in land.neighbours(tile):
            pair = sorted([tile, other], key=land.names.index)
            if pair not in pairs and village_problem(state, pair) is None:
                pairs.append(pair)
    return pairs


def place_villages(run, orders: dict) -> None:
    """Villages in seat order; a lord whose choice is no longer possible (or who is silent)
    gets the possible village nearest its choice (or one drawn at random)."""
    land = valley(run.state)
    for lord in run.state["lords"]:
        wish = (orders.get(lord) or {}).get("tiles")
        pairs = village_pairs(run.state)
        if wish and village_problem(run.state, wish) is None:
            tiles = sorted(wish, key=land.names.index)
        elif not pairs:
            tiles = fallback_pair(run.state)
        elif wish:
            tiles = min(pairs, key=lambda p: (land.distance(p[0], wish[0]), land.names.index(p[0])))
        else:
            tiles = run.rng.choice(pairs)
        run.emit(public("villages_placed", lord=lord, tiles=tiles, wished=wish or []))
        warriors_join(run, lord, material(run.state)["warriors"], tiles[0])


def fallback_pair(state) -> list[str]:
    """When no pair keeps its distance: the open pair farthest from every village."""
    land = valley(state)
    best = None
    for tile in land.names:
        for other in land.neighbours(tile):
            if not (open_tile(state, tile) and open_tile(state, other)):
                continue
            gap = min((land.distance(tile, b) for v in state["villages"].values() for b in v),
                      default=99)
            if best is None or gap > best[0]:
                best = (gap, sorted([tile, other], key=land.names.index))
    return best[1]


def nearest_open(state, home: str | None) -> list[str]:
    """Open tiles, nearest to a place first (tile order for ties)."""
    land = valley(state)
    tiles = [t for t in land.names if open_tile(state, t)]
    if home is None:
        return tiles
    return sorted(tiles, key=lambda t: (land.distance(t, home), land.names.index(t)))


def cheapest_two(state) -> list[str]:
    """The two cheapest resources (what a silent founder puts in the bag)."""
    return sorted(RESOURCES, key=lambda g: (state["prices"][g], RESOURCES.index(g)))[:2]


def place_farms(run, orders: dict) -> None:
    """Each lord's farms in seat order, then the barbarian's free farms and warriors."""
    state = run.state
    mat = material(state)
    for lord in state["lords"]:
        wanted = list((orders.get(lord) or {}).get("farms", []))[:mat["farms"]]
        while len(wanted) < mat["farms"]:
            wanted.append({"tile": None if len(wanted) < 2 else "near", "bag": [],
                           "gift": None})
        for farm in wanted:
            place_one(run, lord, farm)
    barbarian = state["barbarian"]
    wanted = list((orders.get(barbarian) or {}).get("farms", []))[:mat["free_farms"]]
    while len(wanted) < mat["free_farms"]:
        wanted.append({"tile": "far", "bag": []})
    for farm in wanted:
        place_one(run, None, farm)
    warriors_join(run, barbarian, mat["barbarian_warriors"], None)


def warriors_join(run, seat: str, number: int, at: str | None) -> None:
    """A seat's starting warriors, on a place (None: off the board), in one event (in the
    first edition, an event each)."""
    first = run.state["next_warrior"]
    if edition(run.state) < 2:
        for wid in range(first, first + number):
            run.emit(public("warrior_joined", seat=seat, id=wid, at=at))
        return
    run.emit(public("warriors_joined", seat=seat, ids=list(range(first, first + number)),
                    at=at))


def place_one(run, lord, farm: dict) -> None:
    """One farm of the setup, moved to the default place if its tile is taken."""
    state = run.state
    tile = farm["tile"]
    bag_in = farm.get("bag") or cheapest_two(state)
    if lord and tile is None:
        found(run, lord, None, [], farm.get("gift") or cheapest_two(state)[0])
        return
    if tile in (None, "near", "far") or not open_tile(state, tile):
        tile = default_tile(run, lord)
    found(run, lord, tile, bag_in)


def default_tile(run, lord) -> str:
    """A lord's farm: the open tile nearest its village; a free farm: one drawn at random
    among the open tiles two steps or more from every village."""
    state = run.state
    if lord:
        return nearest_open(state, village_of(state, lord))[0]
    land = valley(state)
    far = [t for t in nearest_open(state, None)
           if all(land.distance(t, v) >= 2 for vs in state["villages"].values() for v in vs)]
    return run.rng.choice(far or nearest_open(state, None))
