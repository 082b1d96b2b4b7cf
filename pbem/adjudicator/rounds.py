"""Rounds: a phase that repeats until a round in which nobody adds anything.

Taxation, oppositions, a market, a combat: each round is one phase of the
engine (its own requests, its own short deadline, its own defaults for the
silent), and the game keeps the round's bookkeeping in its state::

    {"name": "taxation", "number": 2, "acted": ["ann"], "order": ["ann", "bob"]}

A round ends when every seat asked has answered (or at its deadline); the
game records who *acted* (did more than pass) and starts another round unless
nobody did. ``round_hours`` is the option games with rounds accept for the
length of a round.
"""

from .options import number_option

ROUND_OPTIONS = {"round_hours": "hours a round (taxation, market, combat...) stays open "
                                "(default 12)"}
DEFAULT_ROUND_HOURS = 12.0


def start(name: str, order: list[str]) -> dict:
    """The first round of a repeating phase, for these seats in this order."""
    return {"name": name, "number": 1, "acted": [], "order": list(order)}


def acted(rounds: dict, seat: str) -> dict:
    """The round, noting that `seat` did something in it (more than pass)."""
    if seat in rounds["acted"]:
        return rounds
    return {**rounds, "acted": sorted(rounds["acted"] + [seat])}


def quiet(rounds: dict) -> bool:
    """Did nobody act in this round (so the repeating phase is over)?"""
    return not rounds["acted"]


def following(rounds: dict, order: list[str] | None = None) -> dict:
    """The next round (optionally with a new seat order)."""
    return {**rounds, "number": rounds["number"] + 1, "acted": [],
            "order": list(order if order is not None else rounds["order"])}


def round_hours(options: dict) -> float:
    """The round length a game was created with (the round_hours option)."""
    return number_option(options, "round_hours", DEFAULT_ROUND_HOURS, positive=True)
