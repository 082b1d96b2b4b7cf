"""Seigneurs: lords of a valley tax, trade, build and fight; a barbarian raids and judges.

Rules as pbem plays them: docs/rules/seigneurs.md. 2 to 5 lords and a
barbarian, who is the game's judge (``pbem new seigneurs --judge SEAT``).
Options (``--option k=v``): OPTIONS below.
"""

from pbem.adjudicator.rounds import ROUND_OPTIONS
from pbem.i18n import N_

from .bot import bot_orders
from .flow import RULING_WORDS, default_orders, outcome, pending, resolve
from .narrate import REASONS as RESULT_REASONS, narrate
from .orders import describe_orders, parse
from .present import board_text, briefing, own_area, svg_context, view
from .rules import apply
from .start import setup

TITLE = N_("Seigneurs")  # translated where a seat reads it
SUMMARY = N_("lords of a valley tax, trade, build and fight; a barbarian, one of the "
             "players, raids and judges")
DEMO_SEATS = ["ann", "bob", "cat", "dan", "zed"]
# 2: each village farm holds its own resources; a silent judge and a founding refused said
# so; the setup's warriors in one event. 3: a bag sized for the valley, shared fairly when it
# runs dry (docs/rules/seigneurs.md, "Editions")
EDITION = 3
OPTIONS = {
    "judge": "the barbarian's seat, who also judges the game (required; pbem new --judge)",
    "turns": "how many turns the game lasts (default 10)",
    **ROUND_OPTIONS,
}
# The tables of a position file (docs/positions.md): any other key is refused by name.
POSITION_KEYS = ("agreements", "armed", "bag", "building_table", "buildings", "card", "cards",
                 "churches", "deck", "famine", "farms", "goods", "heads", "jacquerie", "loads",
                 "material", "out", "prices", "projects", "relations", "stage", "stocks",
                 "taxed", "tokens", "turn", "valley", "village_farms", "villages", "warriors")
BRIEF_UPDATES = True  # seats asked nothing get what happened, not the board, after a round


def demo_options(turns: int) -> dict:
    """Four lords and zed the barbarian; a Seigneurs turn is some twenty phases, so the
    demo's --turns (60 by default) gives one game turn for every three, ten at most."""
    return {"judge": "zed", "turns": str(min(10, max(1, turns // 3)))}


def turn_of(state: dict) -> tuple:
    """The turn a mail's subject names (None while the villages and farms are set up),
    and the round of a stage that repeats (taxation, market, combat...)."""
    return state["turn"] or None, (state["round"] or {}).get("number")


def timing(options: dict) -> dict:
    """A turn's first phases take a day; rounds within them round_hours."""
    return {"turn_hours": 24.0, "reminder_hours": 6.0}


__all__ = ["TITLE", "SUMMARY", "DEMO_SEATS", "OPTIONS", "BRIEF_UPDATES", "EDITION",
           "demo_options", "setup", "apply", "pending", "parse", "resolve", "default_orders",
           "view", "outcome", "describe_orders", "narrate", "board_text", "svg_context",
           "own_area", "timing", "bot_orders", "briefing", "RULING_WORDS", "RESULT_REASONS",
           "turn_of", "POSITION_KEYS"]
