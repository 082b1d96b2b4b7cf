"""A game's boards: the TOML files in its boards/ folder, or inline data from a position file.

A game makes one :class:`Library` with the class that builds a board from its
data and the function that checks the data (raising SetupError with the
reason); ``load`` then takes what a state records as its board: a built-in
name, or the board's data itself (a referee's own map, given in a position
file). Each board is built once per process.
"""

from functools import lru_cache
from importlib.resources import files
import json
import tomllib

from .contract import SetupError


class Library:
    """The boards of one game."""

    def __init__(self, package: str, build, check, noun: str = "board"):
        self.package = package
        self.noun = noun
        self._build, self._check = build, check
        self._builtin = lru_cache(maxsize=8)(self._read)
        self._inline = lru_cache(maxsize=8)(lambda text: build(json.loads(text)))

    def names(self) -> tuple[str, ...]:
        """The boards shipped in the game's boards/ folder, sorted."""
        folder = files(self.package) / "boards"
        return tuple(sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml")))

    def _read(self, name: str):
        data = tomllib.loads((files(self.package) / "boards" / f"{name}.toml")
                            .read_text("utf-8"))
        self._check(data)
        return self._build(data)

    def load(self, spec):
        """The board of a state's ``board`` entry: a built-in name or inline board data."""
        if isinstance(spec, str):
            if spec not in self.names():
                raise SetupError(f"unknown {self.noun} {spec!r}; choose one of "
                                 f"{', '.join(self.names())} or give a [board] table in a "
                                 "position file")
            return self._builtin(spec)
        return self._inline(json.dumps(spec, sort_keys=True))
