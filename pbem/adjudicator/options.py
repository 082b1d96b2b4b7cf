"""Reading ``--option key=value`` values: numbers and yes/no, with clear refusals.

Options arrive as text from the command line (or as TOML values from a
position file); a value that makes no sense stops the game's creation with a
SetupError that names the option and what it wants.
"""

import math

from .contract import SetupError

YES = ("yes", "true", "on", "1")
NO = ("no", "false", "off", "0", "")
MAX_HOURS = 24 * 366  # a year: no deadline, extension or absence is ever longer


def number_option(options: dict, key: str, default, *, whole=False, positive=False):
    """The option as a number (default when absent): 0 or more, or more than 0 if positive.

    A number of hours (not `whole`) is at most MAX_HOURS.
    """
    text = options.get(key, default)
    try:
        value = int(text) if whole else float(text)
    except (TypeError, ValueError):
        value = math.nan
    if not math.isfinite(value) or value < 0 or (positive and value == 0):
        kind = "a whole number" if whole else "a number of hours"
        least = "more than 0" if positive else "0 or more"
        raise SetupError(f"{key} must be {kind}, {least}: {text!r}")
    if not whole and value > MAX_HOURS:
        raise SetupError(f"{key} must be a number of hours, at most {MAX_HOURS} (a year): "
                         f"{text!r}")
    return value


def yes_no_option(options: dict, key: str) -> bool:
    """The option as yes or no (absent: no)."""
    text = str(options.get(key, "")).strip().lower()
    if text not in YES + NO:
        raise SetupError(f"{key} must be yes or no: {options[key]!r}")
    return text in YES
