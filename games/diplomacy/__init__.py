"""Diplomacy (Allan B. Calhamer): seven great powers of 1901 Europe, orders written at once.

Rules as pbem plays them, and every DATC option chosen: docs/rules/diplomacy.md.
2 to 7 players. Options (``--option k=v``): OPTIONS below.
"""

from pbem.i18n import N_

from .bot import bot_orders
from .drawing import own_area, svg_context
from .present import board_text, briefing, describe_orders, narrate, turn_words, view
from .rules import (apply, default_orders, order_keys, outcome, parse, pending, resolve,
                    survivors, teams, turn_of)
from .start import roles, setup

TITLE = N_("Diplomacy")  # translated where a seat reads it
SUMMARY = N_("the seven great powers of 1901 Europe; every order written at once")
DEMO_SEATS = ["ann", "bob", "cat", "dan", "eve", "fay", "gus"]
OPTIONS = {
    "powers": "who plays which power, e.g. ann:england,bob:france+germany (default: the "
              "usual assignment for the number of players, drawn)",
    "years": "end the game after the Fall of this many years; the most supply centres wins "
             "(default 0: play to 18 centres)",
    "adjust_hours": "hours retreats and winter adjustments stay open (default: a turn's)",
}
# The tables of a position file (docs/positions.md): any other key is refused by name.
POSITION_KEYS = ("centres", "dislodged", "phase", "powers", "standoffs", "units")
RESULT_REASONS = {"solo": N_("18 supply centres"),
                  "years": N_("the most supply centres when the last year was over"),
                  "nobody": N_("no player had a unit left: the most supply centres")}


def demo_options(turns: int) -> dict:
    """Seven players; a demo's turn is a season, so the game stops after turns // 2 years."""
    return {"years": str(max(1, turns // 2))}


def timing(options: dict) -> dict:
    """The engine's defaults suit Diplomacy (48-hour turns); see adjust_hours."""
    return {}


__all__ = ["TITLE", "SUMMARY", "DEMO_SEATS", "OPTIONS", "RESULT_REASONS", "demo_options",
           "setup", "apply", "pending", "parse", "resolve", "default_orders", "view", "outcome",
           "describe_orders", "narrate", "board_text", "svg_context", "own_area", "timing",
           "bot_orders", "briefing", "survivors", "teams", "turn_of", "turn_words", "order_keys",
           "POSITION_KEYS", "roles"]
