"""Attila (Hans im Glück, K.-H. Schmiel): peoples invade the Roman provinces.

Rules as pbem plays them: docs/rules/attila.md. 2 to 5 players. Options
(``--option k=v``): OPTIONS below.
"""

from pbem.i18n import N_

from .bot import bot_orders
from .orders import describe_orders, parse
from .present import board_text, briefing, narrate, own_area, svg_context, view
from .rules import apply, default_orders, outcome, pending
from .start import setup
from .turn import resolve

TITLE = N_("Attila")  # translated where a seat reads it
SUMMARY = N_("peoples invade the Roman provinces; hidden hands, sealed bids")
DEMO_SEATS = ["ann", "bob", "cat"]
OPTIONS = {
    "board": "a board of games/attila/boards/ (default: default, the rules page's map)",
    "bid_hours": "hours a conflict's sealed bids stay open (default 24)",
}
# The tables of a position file (docs/positions.md): any other key is refused by name.
POSITION_KEYS = ("board", "deck", "discards", "first", "hands", "influence", "pacified",
                 "pawns", "scores", "tiles", "turn")
BRIEF_UPDATES = True  # seats waiting for someone else's turn get a short update, no board


def demo_options(turns: int) -> dict:
    """A normal game: Attila has no turn limit, it ends by its own rules."""
    return {}


def turn_of(state: dict) -> tuple:
    """The turn a mail's subject names (a conflict's bids are part of it); no rounds."""
    return state["turn"]["number"], None


def timing(options: dict) -> dict:
    """The engine's defaults suit Attila; a conflict's bids have their own bid_hours."""
    return {}


__all__ = ["TITLE", "SUMMARY", "DEMO_SEATS", "OPTIONS", "BRIEF_UPDATES", "demo_options", "setup",
           "apply", "pending", "parse", "resolve", "default_orders", "view", "outcome",
           "describe_orders", "narrate", "board_text", "svg_context", "own_area",
           "timing", "bot_orders", "briefing", "turn_of", "POSITION_KEYS"]
