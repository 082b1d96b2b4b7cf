"""Auguste, by Vincent Vigon: legions on a hex board race the laurel crown home.

Rules as pbem plays them: docs/rules/auguste.md. Options (``--option k=v``):
OPTIONS below.
"""

from pbem.adjudicator.options import yes_no_option
from pbem.i18n import N_

from .bot import bot_orders
from .orders import describe_orders, parse
from .present import board_text, briefing, narrate, own_area, svg_context, view
from .rules import apply, default_orders, outcome, pending, resolve, setup

TITLE = N_("Auguste")  # translated where a seat reads it
SUMMARY = N_("legions race the laurel crown to their camp on a hex board")
DEMO_SEATS = ["ann", "bob", "cat", "dan"]
# 2: a seat whose legions pass is told in the turn's report (docs/rules/auguste.md,
# "Editions")
EDITION = 2
OPTIONS = {
    "preset": "legions and teams: 4-2, 6-2, 6-3, 3-3, 5-5 or 2-2-1 (default by player count)",
    "assign": "who commands which legion, e.g. red=ann,green=ann,blue=bob",
    "board": "default (radius 8) or fast",
    "handicap": "legionaries removed at setup, e.g. red:3,blue:1",
    "trumps": "yes: the trumps variant (SEER, WALL, RIDER, VOLCANO)",
    "chrono": "yes: 6-hour turns, and each seat may once say SLOW",
    "max_turns": "end the game after this many turns (0: no limit)",
    "seer_hours": "hours the SEER's second phase stays open (default 12)",
}
# The tables of a position file (docs/positions.md): any other key is refused by name.
POSITION_KEYS = ("assign", "board", "cards", "laurel", "legions", "lone", "max_turns",
                 "shields", "trumps", "turn", "walls")


def demo_options(turns: int) -> dict:
    """Four players, two teams, and a turn limit for the demo."""
    return {"preset": "4-2", "max_turns": turns}


def timing(options: dict) -> dict:
    """Chrono turns are short, and each seat may once slow one down."""
    if yes_no_option(options, "chrono"):
        return {"turn_hours": 6.0, "reminder_hours": 2.0, "slow": 1}
    return {}


def teams(state: dict) -> dict:
    """{team: the seats commanding its legions}: PRESS Caesar reaches a whole team."""
    out = {}
    for legion in state["legions"].values():
        if legion["seat"]:
            out.setdefault(legion["team"], set()).add(legion["seat"])
    return {team: sorted(seats) for team, seats in sorted(out.items())}


def turn_of(state: dict) -> tuple:
    """The turn a mail's subject names; Auguste has no rounds."""
    return state["turn"], None


__all__ = ["TITLE", "SUMMARY", "DEMO_SEATS", "EDITION", "OPTIONS", "demo_options", "setup", "apply",
           "pending", "parse", "resolve", "default_orders", "view", "outcome", "describe_orders",
           "narrate", "board_text", "svg_context", "own_area",
           "timing", "bot_orders", "briefing", "teams", "turn_of", "POSITION_KEYS"]
