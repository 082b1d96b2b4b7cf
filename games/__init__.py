"""The games pbem referees: one sub-package per game, each complete in its folder."""

from functools import lru_cache
import importlib
import pkgutil


def names() -> list[str]:
    """The rulesets available, sorted."""
    return list(folders())


@lru_cache(maxsize=1)
def folders() -> tuple[str, ...]:
    """The game folders, looked up once per process (they do not change under it)."""
    return tuple(sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg))


def load(name: str):
    """The game module for a ruleset name; KeyError if there is none."""
    if name not in names():
        raise KeyError(name)
    return importlib.import_module(f"{__name__}.{name}")
