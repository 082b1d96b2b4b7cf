"""SAGA campaign maps: zones, their links, where they lie, and the factions' homelands, as data.

A map is a TOML table (``boards/<name>.toml``, or a ``[board]`` table in a
position file) with a list of ``[[zones]]``: ``number``, ``name`` (how the
zone is known everywhere), ``fr`` (its French name, what a French seat
reads), ``x``/``y`` (where it lies on the SVG map), ``land`` and ``sea`` (the
names of its neighbours; sea links count as adjacency), ``coastal`` (default
true); and a list of
``[[factions]]``: ``key``, ``colour``, ``homelands`` (zone names, or
``"coastal"``). Every link must be listed on both of its zones.
"""

from difflib import get_close_matches
from functools import cache

from pbem.adjudicator.contract import SetupError
from pbem.adjudicator.maps import Library
from pbem.i18n import current

from .material import FACTION_NAMES, squash

MIN_PREFIX = 3  # a unique beginning this long names a zone too


class Board:
    """A map's zones, links and factions, loaded from data."""

    def __init__(self, data: dict):
        self.name = str(data.get("name", "custom"))
        self.title = str(data.get("title", self.name))
        self.width = int(data.get("width", 640))
        self.height = int(data.get("height", 700))
        rows = sorted(data.get("zones") or [], key=lambda z: int(z["number"]))
        self.order = [str(z["name"]) for z in rows]
        self.number = {str(z["name"]): int(z["number"]) for z in rows}
        self.french = {str(z["name"]): str(z.get("fr", z["name"])) for z in rows}
        self.xy = {str(z["name"]): (int(z.get("x", 0)), int(z.get("y", 0))) for z in rows}
        self.land = {str(z["name"]): sorted(z.get("land", [])) for z in rows}
        self.sea = {str(z["name"]): sorted(z.get("sea", [])) for z in rows}
        self.coastal = [str(z["name"]) for z in rows if z.get("coastal", True)]
        rank = {name: i for i, name in enumerate(self.order)}
        self.neighbours = {name: sorted(set(self.land[name]) | set(self.sea[name]), key=rank.get)
                           for name in self.order}
        self.factions = [str(f["key"]) for f in data.get("factions") or []]
        self.colour = {str(f["key"]): str(f.get("colour", "#888888"))
                       for f in data.get("factions") or []}
        self.homelands = {}
        for row in data.get("factions") or []:
            spots = row.get("homelands", [])
            allowed = self.coastal if spots == "coastal" else [str(z) for z in spots]
            self.homelands[str(row["key"])] = sorted(allowed, key=rank.get)
        self._words = {}
        for name in self.order:
            for word in (name, self.french[name], str(self.number[name])):
                self._words[squash(word)] = name

    def lookup(self, word: str) -> str | None:
        """The zone a word names: its number, English or French name, or a unique beginning."""
        key = squash(word)
        if key in self._words:
            return self._words[key]
        if len(key) < MIN_PREFIX or key.isdigit():
            return None
        found = {name for w, name in self._words.items() if w.startswith(key)}
        return found.pop() if len(found) == 1 else None

    def label(self, name: str) -> str:
        """A zone as its reader reads it: in French its ``fr`` name on this map ('Normandie'),
        else its name (a word that names no zone, an army's, is kept). Events and orders
        keep the zone's name; only what is shown is translated."""
        return shown(self.french, name)

    def labels(self, names) -> list[str]:
        """Zones as their reader reads them."""
        return [self.label(name) for name in names]

    def closest(self, word: str) -> str | None:
        """The zone whose name is closest to a word that names none, for error messages."""
        names = {squash(n): n for n in self.order}
        names.update({squash(self.french[n]): n for n in self.order})
        match = get_close_matches(squash(word), list(names), n=1, cutoff=0.5)
        return names[match[0]] if match else None

    def adjacent(self, a: str, b: str) -> bool:
        """Are two zones linked, by land or by sea?"""
        return b in self.neighbours[a]

    def links(self, kind: str) -> list[tuple[str, str]]:
        """Every land or sea link once, as (a, b) with a before b in map order."""
        table = self.land if kind == "land" else self.sea
        rank = {name: i for i, name in enumerate(self.order)}
        pairs = {tuple(sorted((a, b), key=rank.get)) for a in self.order for b in table[a]}
        return sorted(pairs, key=lambda pair: (rank[pair[0]], rank[pair[1]]))


def check(data: dict) -> None:
    """SetupError unless the map data is complete and every link goes both ways."""
    rows = data.get("zones")
    if not isinstance(rows, list) or not rows:
        raise SetupError("a map needs a list of [[zones]]")
    names, numbers = [], []
    for row in rows:
        if not isinstance(row, dict) or not row.get("name") or \
                not isinstance(row.get("number"), int):
            raise SetupError("every zone of a map needs a name and a number")
        names.append(str(row["name"]))
        numbers.append(row["number"])
    if len(set(names)) != len(names) or len(set(numbers)) != len(numbers):
        raise SetupError("two zones of the map have the same name or number")
    by_name = {str(row["name"]): row for row in rows}
    words = {}
    for name, row in by_name.items():
        for kind in ("land", "sea"):
            for other in row.get(kind, []):
                if other not in by_name:
                    raise SetupError(f"map: {name} has a {kind} link to unknown zone {other!r}")
                if other == name:
                    raise SetupError(f"map: {name} is linked to itself")
                if name not in by_name[other].get(kind, []):
                    raise SetupError(f"map: {name} lists {other} as a {kind} neighbour, "
                                     f"but {other} does not list {name}")
        for word in (name, str(row.get("fr", name)), str(row["number"])):
            if words.setdefault(squash(word), name) != name:
                raise SetupError(f"map: the name {word!r} is used by two zones")
    check_factions(data.get("factions"), by_name)


def check_factions(rows, zones: dict) -> None:
    """SetupError unless every faction is known and its homelands are zones of the map."""
    if not isinstance(rows, list) or not rows:
        raise SetupError("a map needs a list of [[factions]] with their homelands")
    for row in rows:
        key = str(row.get("key", ""))
        if key not in FACTION_NAMES:
            raise SetupError(f"map: unknown faction {key!r}; factions are "
                             f"{', '.join(FACTION_NAMES)}")
        spots = row.get("homelands", [])
        if spots != "coastal":
            if not isinstance(spots, list) or not spots:
                raise SetupError(f"map: faction {key} needs homelands (zone names or \"coastal\")")
            for zone in spots:
                if zone not in zones:
                    raise SetupError(f"map: faction {key} has an unknown homeland {zone!r}")


BOARDS = Library(__package__, Board, check, noun="map")
load = BOARDS.load


def shown(french: dict, name: str) -> str:
    """A zone's name as the reader reads it, given its map's French names by zone."""
    return french.get(name, name) if current() == "fr" else name


@cache
def shipped_french() -> dict[str, str]:
    """Every zone of the shipped maps with its French name, by its name: what narration
    told without the game's state shows of a zone."""
    return {name: board.french[name] for key in BOARDS.names()
            for board in [BOARDS.load(key)] for name in board.order}
