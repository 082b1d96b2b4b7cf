"""What a new game needs before it exists: its rules, its seats, its language.

Both ways a game comes to be use it: the referee's `pbem new` (app.Referee) and
players joining an open game by mail (signup).
"""

from dataclasses import dataclass

import pbem.games

from .errors import PbemError
from .i18n import LANGUAGES, normal_language
from .identity import address_problem, valid_game_id
from .timeutil import valid_timezone


# Options of a new game that are about its seats, not its rules: kept out of the
# game's log, stored on the seats.
SEAT_OPTIONS = {
    "lang": "the language of every seat without its own --lang: en or fr (default en)",
}


@dataclass
class SeatSpec:
    """A seat of a new game."""

    name: str
    email: str
    tz: str | None = None
    lang: str | None = None
    player: str | None = None   # the player's name as written, when known


def ruleset_module(ruleset: str):
    """The game module of a ruleset; PbemError naming the games there are."""
    try:
        return pbem.games.load(ruleset)
    except KeyError:
        raise PbemError(f"unknown game {ruleset!r}; available: "
                        f"{', '.join(pbem.games.names())}") from None


def check_new_game(game_id: str, seats: list[SeatSpec]) -> None:
    """PbemError unless the id and the seats can make a game."""
    if not valid_game_id(game_id):
        raise PbemError(f"game id {game_id!r}: use 1-32 lower-case letters, digits and '-'")
    if not seats:
        raise PbemError("a game needs seats: --seat NAME=EMAIL, once per player")
    names = [s.name for s in seats]
    if len(set(names)) != len(names):
        raise PbemError("two seats have the same name")
    for seat in seats:
        if not valid_game_id(seat.name):
            raise PbemError(f"seat name {seat.name!r}: use lower-case letters, digits and '-'")
        problem = address_problem(seat.email.lower())
        if problem is not None:
            raise PbemError(f"seat {seat.name}: {seat.email!r} is not a mail address: "
                            f"{problem}")
        if seat.tz and not valid_timezone(seat.tz):
            raise PbemError(f"seat {seat.name}: unknown timezone {seat.tz!r} (e.g. Europe/Paris)")
        if seat.lang and not normal_language(seat.lang):
            raise PbemError(f"seat {seat.name}: unknown language {seat.lang!r} "
                            f"(pbem writes {' or '.join(LANGUAGES)})")


def game_language(text: str) -> str:
    """The game-wide language option (--option lang=fr) as en or fr; PbemError otherwise."""
    lang = normal_language(str(text))
    if lang is None:
        raise PbemError(f"lang must be {' or '.join(LANGUAGES)}: {text!r}")
    return lang
