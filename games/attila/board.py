"""Attila boards: provinces, the northern ones, land and sea links, as data.

A board is a TOML table (``boards/<name>.toml``, or a ``[board]`` table in a
position file) with a list of ``[[provinces]]``: ``name`` (how the province
is known everywhere), ``fr`` (its French name), ``north``, ``x``/``y`` (where
it sits on the SVG map), ``land`` and ``sea`` (the names of its neighbours).
Every link must be listed on both of its provinces.
"""

from difflib import get_close_matches

from pbem.adjudicator.contract import SetupError
from pbem.adjudicator.maps import Library

from .material import plain

MIN_PREFIX = 4  # a unique beginning this long names a province too


class Board:
    """A board's provinces and their links, loaded from data."""

    def __init__(self, data: dict):
        self.name = str(data.get("name", "custom"))
        self.title = str(data.get("title", self.name))
        self.width = int(data.get("width", 820))
        self.height = int(data.get("height", 590))
        rows = data.get("provinces") or []
        self.order = [str(p["name"]) for p in rows]
        self.french = {str(p["name"]): str(p.get("fr", p["name"])) for p in rows}
        self.north = [str(p["name"]) for p in rows if p.get("north")]
        self.xy = {str(p["name"]): (int(p.get("x", 0)), int(p.get("y", 0))) for p in rows}
        self.land = {str(p["name"]): sorted(p.get("land", [])) for p in rows}
        self.sea = {str(p["name"]): sorted(p.get("sea", [])) for p in rows}
        self.neighbours = {name: sorted(set(self.land[name]) | set(self.sea[name]))
                           for name in self.order}
        self._words = self._vocabulary()

    def _vocabulary(self) -> dict:
        words = {}
        for name in self.order:
            words[squash(name)] = name
            words[squash(self.french[name])] = name
        return words

    def links(self, kind: str) -> list[tuple[str, str]]:
        """Every land or sea link once, as (a, b) with a before b in board order."""
        table = self.land if kind == "land" else self.sea
        rank = {name: i for i, name in enumerate(self.order)}
        pairs = {tuple(sorted((a, b), key=rank.get)) for a in self.order for b in table[a]}
        return sorted(pairs, key=lambda pair: (rank[pair[0]], rank[pair[1]]))

    def lookup(self, word: str) -> str | None:
        """The province a word names (English or French name, or a unique beginning)."""
        key = squash(word)
        if key in self._words:
            return self._words[key]
        if len(key) < MIN_PREFIX:
            return None
        found = {name for word, name in self._words.items() if word.startswith(key)}
        return found.pop() if len(found) == 1 else None

    def closest(self, word: str, count: int = 2) -> list[str]:
        """The provinces whose English or French name is closest to a mistyped one, best first."""
        near = get_close_matches(squash(word), sorted(self._words), n=2 * count, cutoff=0.7)
        return list(dict.fromkeys(self._words[w] for w in near))[:count]


def squash(word: str) -> str:
    """A name as it is compared: lower case, no accents, no spaces or dashes."""
    return "".join(ch for ch in plain(word) if ch.isalnum())


def check(data: dict) -> None:
    """SetupError unless the board data is complete and every link goes both ways."""
    rows = data.get("provinces")
    if not isinstance(rows, list) or not rows:
        raise SetupError("a board needs a list of [[provinces]]")
    names = []
    for row in rows:
        if not isinstance(row, dict) or not row.get("name"):
            raise SetupError("every province of a board needs a name")
        names.append(str(row["name"]))
    if len(set(names)) != len(names):
        raise SetupError("two provinces of the board have the same name")
    if not any(row.get("north") for row in rows):
        raise SetupError("a board needs at least one northern province (north = true)")
    by_name = {str(row["name"]): row for row in rows}
    words = {}
    for name, row in by_name.items():
        for kind in ("land", "sea"):
            for other in row.get(kind, []):
                if other not in by_name:
                    raise SetupError(f"board: {name} has a {kind} link to unknown "
                                     f"province {other!r}")
                if other == name:
                    raise SetupError(f"board: {name} is linked to itself")
                if name not in by_name[other].get(kind, []):
                    raise SetupError(f"board: {name} lists {other} as a {kind} neighbour, "
                                     f"but {other} does not list {name}")
        for word in (name, str(row.get("fr", name))):
            if words.setdefault(squash(word), name) != name:
                raise SetupError(f"board: the name {word!r} is used by two provinces")


BOARDS = Library(__package__, Board, check, noun="board")
load = BOARDS.load
