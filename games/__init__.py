"""The games pbem referees: one sub-package per game, each complete in its folder."""

import importlib
import pkgutil


def names() -> list[str]:
    """The rulesets available, sorted."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg)


def load(name: str):
    """The game module for a ruleset name; KeyError if there is none."""
    if name not in names():
        raise KeyError(name)
    return importlib.import_module(f"{__name__}.{name}")
