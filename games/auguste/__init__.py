"""Auguste, by Vincent Vigon: legions on a hex board race the laurel crown home.

Rules as pbem plays them: docs/rules/auguste.md. Options (``--option k=v``):
preset (4-2, 6-2, 6-3, 3-3, 5-5, 2-2-1), assign (red=ann,...), board (default,
fast), handicap (red:3,...), trumps (yes), chrono (yes), max_turns (N),
seer_hours (N).
"""

from .bot import bot_orders
from .orders import describe_orders, parse
from .present import board_text, narrate, svg_context, view
from .rules import apply, default_orders, flag, outcome, pending, resolve, setup

TITLE = "Auguste"
SUMMARY = "legions race the laurel crown to their camp on a hex board (2-6 players)"
DEMO_SEATS = ["ann", "bob", "cat", "dan"]


def demo_options(turns: int) -> dict:
    """Four players, two teams, and a turn limit for the demo."""
    return {"preset": "4-2", "max_turns": turns}


def timing(options: dict) -> dict:
    """Chrono turns are short, and each seat may once slow one down."""
    if flag(options, "chrono"):
        return {"turn_hours": 6.0, "reminder_hours": 2.0, "slow": 1}
    return {}


__all__ = ["TITLE", "SUMMARY", "DEMO_SEATS", "demo_options", "setup", "apply", "pending", "parse", "resolve",
           "default_orders", "view", "outcome", "describe_orders", "narrate", "board_text",
           "svg_context", "timing", "bot_orders"]
