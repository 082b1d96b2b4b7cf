"""The standard map as data (games/diplomacy/maps/standard/) agrees with itself, with the
rulebook and with its drawing."""

from collections import Counter
from itertools import combinations
from math import dist

from pbem.games.diplomacy import drawing
from pbem.games.diplomacy.board import board, province_of
from pbem.games.diplomacy.orders import name_index, words
from pbem.games.diplomacy.position import start, unit_text

MAP = board()


def test_seventy_five_provinces_of_three_kinds():
    kinds = Counter(p.kind for p in MAP.provinces.values())
    assert kinds == {"land": 14, "coast": 42, "sea": 19}
    assert all(len(key) == 3 and key.isupper() for key in MAP.provinces)


def test_thirty_four_supply_centres_twenty_two_of_them_home_centres():
    centres = {k for k, p in MAP.provinces.items() if p.centre}
    assert len(centres) == 34
    homes = [p for power in MAP.powers.values() for p in power.home]
    assert len(homes) == len(set(homes)) == 22 and set(homes) <= centres
    assert sorted(centres - set(homes)) == ["BEL", "BUL", "DEN", "GRE", "HOL", "NWY", "POR",
                                            "RUM", "SER", "SPA", "SWE", "TUN"]
    assert {k: len(p.home) for k, p in MAP.powers.items()} == {
        "austria": 3, "england": 3, "france": 3, "germany": 3, "italy": 3, "russia": 4,
        "turkey": 3}
    assert not any(MAP.is_sea(p) for p in centres)


def test_every_abbreviation_and_name_is_unique():
    written = [w.upper() for p in MAP.provinces.values() for w in (p.key, *p.aliases)]
    assert len(written) == len(set(written))
    names = [p.name.upper() for p in MAP.provinces.values()]
    french = [p.french.upper() for p in MAP.provinces.values()]
    assert len(set(names)) == len(set(french)) == 75
    index = name_index(MAP)
    for key, province in MAP.provinces.items():
        assert index[(key,)] == key and index[tuple(words(province.name))] == key
        assert index[tuple(words(province.french))] == key


def test_only_spain_st_petersburg_and_bulgaria_have_two_coasts():
    coasts = {k: p.coasts for k, p in MAP.provinces.items() if p.coasts}
    assert coasts == {"BUL": ("EC", "SC"), "SPA": ("NC", "SC"), "STP": ("NC", "SC")}
    assert all(c in MAP.coast_names for cs in coasts.values() for c in cs)


def test_army_borders_are_symmetric_and_on_land():
    for here, there in MAP.army.items():
        assert not MAP.is_sea(here)
        for other in there:
            assert not MAP.is_sea(other), (here, other)
            assert here in MAP.army[other], f"{here} - {other} is written from one side"


def test_fleet_borders_are_symmetric_coast_by_coast_and_never_inland():
    for here, there in MAP.fleet.items():
        assert not MAP.is_land(province_of(here))
        for other in there:
            assert other in MAP.fleet, f"{here} names {other}, where no fleet stands"
            assert here in MAP.fleet[other], f"{here} - {other} is written from one side"


def test_every_coastal_province_touches_the_sea_and_every_province_is_reachable():
    for key, province in MAP.provinces.items():
        if province.kind != "sea":
            assert bool(MAP.seas_by[key]) == (province.kind == "coast"), key
    assert len(MAP.distances(["PAR"])) == 75


def test_the_sea_is_shared_by_borders_of_both_kinds():
    """Two coastal provinces a fleet can sail between also border for armies."""
    for here, there in MAP.fleet.items():
        for other in there:
            a, b = province_of(here), province_of(other)
            if not MAP.is_sea(a) and not MAP.is_sea(b):
                assert b in MAP.army[a], (here, other)


def test_starting_units_stand_on_home_centres():
    position = start(MAP)
    assert len(position["units"]) == 22 and len(position["centres"]) == 22
    for power in MAP.powers.values():
        assert sorted(power.home) == sorted(u.split()[1].partition("/")[0] for u in power.units)
    assert unit_text("STP", position["units"]["STP"]) == "F STP/SC"
    fleets = [p for p, u in position["units"].items() if u["type"] == "F"]
    assert all(MAP.provinces[p].kind == "coast" for p in fleets)


def rings(path: str) -> list:
    """The rings of an SVG path of absolute points ("M x,y x,y ... Z" each)."""
    return [[tuple(map(float, point.split(","))) for point in ring.split()]
            for ring in path.replace("Z", "").split("M")[1:]]


def inside(point: tuple, path: str) -> bool:
    """Is the point inside the shape (even-odd: a hole's inside is outside)?"""
    x, y = point
    crossings = 0
    for ring in rings(path):
        for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1]):
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                crossings += 1
    return crossings % 2 == 1


def test_the_drawn_provinces_touch_exactly_their_neighbours():
    shapes = drawing.shapes()["provinces"]
    corners = {key: {p for ring in rings(row["path"]) for p in ring}
               for key, row in shapes.items()}
    assert sorted(shapes) == sorted(MAP.provinces)
    for a, b in combinations(sorted(shapes), 2):
        touching = len(corners[a] & corners[b]) >= 2  # a border two shapes share is one line
        assert touching == (b in MAP.neighbours[a]) or {a, b} == {"DEN", "SWE"}, (a, b)


def test_every_name_unit_and_centre_stands_on_its_own_province_apart_from_the_others():
    drawn = drawing.shapes()
    width, height = drawn["board"]["width"], drawn["board"]["height"]
    spots = drawing.spots()
    for key, row in drawn["provinces"].items():
        marks = [row["label"], row["unit"], *row.get("coasts", {}).values()]
        marks += [row["centre"]] if MAP.provinces[key].centre else []
        for x, y in marks:
            assert 0 < x < width and 0 < y < height and inside((x, y), row["path"]), key
    for a, b in combinations(sorted(spots), 2):
        if province_of(a) != province_of(b):
            assert dist(spots[a], spots[b]) >= 20, (a, b)
