"""SAGA, a map campaign for the skirmish game: pbem is the campaign's neutral coordinator.

Players move armies on a map in secret; pbem keeps who knows what, rolls the
scouting and the campaign tables, tells two players when they must meet for
a battle on their own table, and applies the result they report. Rules as
pbem plays them: docs/rules/saga.md. 2 to 10 players. Options
(``--option k=v``): OPTIONS below.
"""

from pbem.i18n import N_

from .bot import bot_orders, bot_ruling
from .orders import describe_orders, parse
from .present import board_text, briefing, narrate, own_area, svg_context, view
from .rules import (RULING_WORDS, controller, default_orders, outcome, pending,
                    private_requests)
from .start import setup
from .state import apply
from .turn import resolve

TITLE = N_("SAGA campaign")  # translated where a seat reads it
SUMMARY = N_("armies move in secret on a map; battles are fought on a table")
DEMO_SEATS = ["ann", "bob", "cat", "dan"]
OPTIONS = {
    "fog": "fog of war: on (default) or off (everything public)",
    "zones_to_win": "the zones a player must hold to win (default 10)",
    "rounds": "instead of zones_to_win: most zones after this many rounds wins",
    "battle_hours": "hours the two players of a battle have to report it (default 168)",
    "board": "a map of games/saga/boards/ (default: default, the rules page's map)",
}
# The tables of a position file (docs/positions.md): any other key is refused by name.
POSITION_KEYS = ("active", "armies", "board", "factions", "free", "gold", "homelands",
                 "knowledge", "lords", "order", "owners", "played", "round", "tables",
                 "tricks", "turn", "vassals")
SEAT_BOARDS = True     # under fog each seat's map is drawn from what it knows
# 2: a battle is kept from the overlords, the referee told each side's report, the end's
# reason said in each reader's language (docs/rules/saga.md, "Editions")
EDITION = 2


def demo_options(turns: int) -> dict:
    """A fogged campaign of a round per four turns (the demo's turns are the players')."""
    return {"rounds": str(max(2, turns // len(DEMO_SEATS)))}


def turn_of(state: dict) -> tuple:
    """The campaign's turn a mail's subject names (None during the signup); turns are
    numbered across the rounds, so the round is not named."""
    return (state["turn"]["number"] if state["turn"] else None), None


def timing(options: dict) -> dict:
    """The engine's defaults; battles have their own battle_hours."""
    return {}


__all__ = ["TITLE", "SUMMARY", "DEMO_SEATS", "OPTIONS", "SEAT_BOARDS", "EDITION",
           "demo_options", "setup", "apply", "pending", "parse", "resolve", "default_orders",
           "view", "outcome", "describe_orders", "narrate", "board_text", "svg_context", "own_area",
           "timing", "bot_orders", "bot_ruling", "controller", "private_requests", "briefing",
           "RULING_WORDS", "turn_of", "POSITION_KEYS"]
