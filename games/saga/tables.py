"""The campaign's dice tables, as data (tables.toml), and rolling on them.

A referee may replace any of them (the Lord's table, say) with a
``[tables.lord]`` table in a position file: each row must name a known
effect and every face must be covered once (checked when the game is
created).
"""

from functools import lru_cache
from importlib.resources import files
import json
import tomllib

from pbem.adjudicator.contract import SetupError
from pbem.adjudicator.dice import check_table, roll, row_for

from .material import SCENARIO_NAMES

FACES = {"scouting": (1, 6), "setup": (2, 12), "scenario": (1, 6), "winner": (1, 6),
         "loser": (1, 6), "lord": (1, 6)}
EFFECTS = {
    "scouting": ("nothing", "presence", "numbers", "report", "outrun"),
    "winner": ("pyrrhic", "limited", "tactical", "total"),
    "loser": ("disaster", "heavy", "sacrifice", "orderly"),
    "lord": ("slain", "captured", "wounded", "unhurt", "trick"),
}
LOSSES = ("none", "one", "third", "half", "half_up", "all")
CHOOSERS = ("attacker", "defender", "random")


@lru_cache(maxsize=1)
def default_tables() -> dict:
    """The tables of the rules page (tables.toml)."""
    return tomllib.loads((files(__package__) / "tables.toml").read_text("utf-8"))


def tables_for(given: dict | None) -> dict:
    """The default tables with a position's replacements; SetupError when one is unusable."""
    tables = dict(default_tables())
    for name, table in (given or {}).items():
        if name not in FACES:
            raise SetupError(f"tables: there is no {name!r} table; the tables are "
                             f"{', '.join(FACES)}")
        if not isinstance(table, dict):
            raise SetupError(f"tables.{name}: give rows such as \"3-5\" = {{effect = ...}}")
        tables[name] = table
    for name, table in tables.items():
        check(name, table)
    return tables


def check(name: str, table: dict) -> None:
    """SetupError unless every face is covered once and every row makes sense."""
    low, high = FACES[name]
    try:
        problems = check_table(table, low, high)
    except ValueError:
        raise SetupError(f"tables.{name}: keys are faces or ranges such as \"3-5\"") from None
    if problems:
        raise SetupError(f"tables.{name}: {problems[0]}")
    for key, row in table.items():
        where = f"tables.{name}.{key}"
        if not isinstance(row, dict):
            raise SetupError(f"{where}: each row is a table, e.g. {{effect = \"unhurt\"}}")
        if name in EFFECTS and row.get("effect") not in EFFECTS[name]:
            raise SetupError(f"{where}: effect must be one of {', '.join(EFFECTS[name])}")
        if "lose" in row and row["lose"] not in LOSSES:
            raise SetupError(f"{where}: lose must be one of {', '.join(LOSSES)}")
        if name == "setup" and row.get("chooser") not in CHOOSERS:
            raise SetupError(f"{where}: chooser must be one of {', '.join(CHOOSERS)}")
        if name == "scenario" and row.get("scenario") not in SCENARIO_NAMES:
            raise SetupError(f"{where}: scenario must be one of {', '.join(SCENARIO_NAMES)}")


@lru_cache(maxsize=8)
def _tables(text: str) -> dict:
    return json.loads(text)


def tables_of(state) -> dict:
    """The tables a campaign plays with (kept in its state)."""
    return _tables(json.dumps(state["tables"], sort_keys=True))


def row(state, name: str, face: int) -> dict:
    """The row of a table for a face (or a sum of two dice)."""
    return row_for(tables_of(state)[name], face)


def roll_die(rng) -> int:
    """One six-sided die from the phase's stream."""
    return roll(rng, 6)


def lost_count(rule: str, units: int) -> int:
    """How many units a loss rule takes from an army of `units` units (the Lord counted)."""
    return {"none": 0, "one": min(1, units), "third": units // 3, "half": units // 2,
            "half_up": (units + 1) // 2, "all": units}[rule]
