"""The map of Diplomacy (maps/<name>/map.toml) as plain lookups, read once per process.

A *province* is a three-letter key ("SPA"). A *place* is where a unit stands
or goes: the province key, or for a fleet on a province with two coasts, the
key and the coast ("SPA/NC"). Armies stand on provinces; fleets on places.

A map is a folder of maps/: its map.toml (provinces, powers, borders) and its
drawing (shapes.toml, read by drawing.py). The standard map is "standard".
"""

from collections import deque
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
import tomllib

MAPS = Path(__file__).parent / "maps"
STANDARD = "standard"
ARMY, FLEET = "A", "F"
LAND, SEA = "land", "sea"


@dataclass(frozen=True)
class Province:
    """One of the 75 provinces."""

    key: str
    name: str
    french: str
    kind: str
    centre: bool
    aliases: tuple  # other abbreviations players write, English or French
    coasts: tuple  # ("NC", "SC") on a province with two coasts, else ()
    french_key: str  # the abbreviation French players write ("BOU"): the key where the same


@dataclass(frozen=True)
class Power:
    """One of the seven great powers, as the game starts."""

    key: str
    name: str
    french: str
    home: tuple
    units: tuple  # "F STP/SC"
    french_the: str  # the French name with its article, as a sentence says it: "la France"
    letter: str  # the letter its units and centres bear on the board: "F"
    country: tuple  # the provinces the board colours as its home country


def province_of(place: str) -> str:
    """The province of a place: SPA/NC -> SPA."""
    return place.partition("/")[0]


def coast_of(place: str) -> str | None:
    """The coast of a place (SPA/NC -> NC), or None."""
    return place.partition("/")[2] or None


class Board:
    """The provinces, the powers and every border of a map."""

    def __init__(self, data: dict, folder: Path):
        self.folder = folder
        self.victory = data["board"]["victory"]
        self.coast_names = data["coast_names"]
        self.provinces = {}
        self.army = {}
        self.fleet = {}
        for key, row in sorted(data["provinces"].items()):
            coasts = row.get("coasts", {})
            self.provinces[key] = Province(
                key, row["name"], row["fr"], row["kind"], row.get("centre", False),
                (*row.get("aliases", ()), *row.get("fr_abbr", "").split()),
                tuple(sorted(coasts)), row.get("fr_abbr", key))
            if row["kind"] != SEA:
                self.army[key] = frozenset(row["army"])
            if "fleet" in row:
                self.fleet[key] = frozenset(row["fleet"])
            for coast, table in coasts.items():
                self.fleet[f"{key}/{coast}"] = frozenset(table["fleet"])
        self.powers = {key: Power(key, row["name"], row["fr"], tuple(row["home"]),
                                  tuple(row["units"]), row["fr_the"], row["letter"],
                                  tuple(row["country"]))
                       for key, row in sorted(data["powers"].items())}
        self.home_of = {p: power.key for power in self.powers.values() for p in power.home}
        self.neighbours = {key: frozenset(self.army.get(key, ())) |
                           {province_of(p) for place in self.places(key)
                            for p in self.fleet.get(place, ())}
                           for key in self.provinces}
        self.seas_by = {key: frozenset(n for n in self.neighbours[key] if self.is_sea(n))
                        for key in self.provinces}

    def places(self, province: str) -> tuple:
        """Where a fleet can stand in a province: its coasts, or the province itself."""
        coasts = self.provinces[province].coasts
        return tuple(f"{province}/{c}" for c in coasts) if coasts else (province,)

    def is_sea(self, province: str) -> bool:
        """Is the province open sea?"""
        return self.provinces[province].kind == SEA

    def is_land(self, province: str) -> bool:
        """Is the province inland (no fleet may enter it)?"""
        return self.provinces[province].kind == LAND

    def fleet_targets(self, place: str, province: str) -> list:
        """The places of `province` a fleet at `place` can move to, sorted."""
        return sorted(p for p in self.fleet.get(place, ()) if province_of(p) == province)

    def reaches(self, unit: str, place: str, province: str) -> bool:
        """Could this unit move into the province (any coast)? What a support needs."""
        if unit == ARMY:
            return province in self.army.get(province_of(place), ())
        return bool(self.fleet_targets(place, province))

    def convoy_route(self, start: str, end: str, seas) -> bool:
        """Is there a chain of the given seas from province `start` to province `end`?"""
        return bool(self._reached(start, end, frozenset(seas)))

    def _reached(self, start: str, end: str, seas: frozenset) -> set:
        """The seas of `seas` reachable from `start`, when one of them touches `end`; else {}."""
        seen = set(self.seas_by[start] & seas)
        queue = deque(sorted(seen))
        while queue:
            sea = queue.popleft()
            if end in self.neighbours[sea]:
                return seen
            for nxt in sorted(self.seas_by[sea] & seas - seen):
                seen.add(nxt)
                queue.append(nxt)
        return set()

    def needed_seas(self, start: str, end: str, seas) -> frozenset:
        """The seas of `seas` on some shortest-cut route from `start` to `end`.

        A route is a chain of seas where no sea could be skipped: each sea
        touches only the ones before and after it, the first alone touches
        `start` and the last alone touches `end`. A fleet outside every such
        chain is needed by no convoy, so ordering it to convoy is refused.
        """
        seas = frozenset(seas)
        found = set()

        def extend(path):
            last = path[-1]
            if end in self.neighbours[last]:
                found.update(path)
                return
            for sea in sorted(self.seas_by[last] & seas):
                if sea in path or start in self.neighbours[sea]:
                    continue
                if any(sea in self.seas_by[before] for before in path[:-1]):
                    continue
                extend(path + [sea])

        for first in sorted(self.seas_by[start] & seas):
            extend([first])
        return frozenset(found)

    def distances(self, provinces) -> dict:
        """Steps from the nearest of `provinces` to every province, over land and sea alike."""
        steps = {p: 0 for p in provinces}
        queue = deque(sorted(steps))
        while queue:
            here = queue.popleft()
            for nxt in sorted(self.neighbours[here]):
                if nxt not in steps:
                    steps[nxt] = steps[here] + 1
                    queue.append(nxt)
        return steps

    def name(self, place: str, french: bool = False) -> str:
        """A place in words: "Spain (north coast)", "Espagne (côte nord)"."""
        province = self.provinces[province_of(place)]
        words = province.french if french else province.name
        coast = coast_of(place)
        if coast:
            words += f" ({self.coast_names[coast]['fr' if french else 'name']})"
        return words


@lru_cache(maxsize=4)
def board(name: str = STANDARD) -> Board:
    """A map (the standard one unless named), read once per process."""
    folder = MAPS / name
    return Board(tomllib.loads((folder / "map.toml").read_text(encoding="utf-8")), folder)
