"""Editions of a game's rules: a game keeps the rules it was set up under.

A change to a game's rules (or to the events it records) that would make the
log of a game already played come out differently is a new *edition* of the
game: the game declares ``EDITION = n``, and the engine sets every new game
up under it, recording it in ``game_created`` (``"edition"``, only after the
first) and giving it to the game's ``setup`` in ``options["edition"]``. The
game keeps it in its state, only when it is not the first (so the state of a
game set up before has not changed), and each changed rule asks
``edition(state)`` which way to go. A game set up under an earlier edition
plays that edition's rules to its end, and its log replays byte for byte
(see docs/architecture.md, "Rules that change").
"""

FIRST = 1


def edition(data: dict) -> int:
    """The edition a game's state (or the options of its setup) names."""
    return data.get("edition", FIRST)


def recorded(number: int) -> dict:
    """What a game's setup keeps of its edition: {"edition": n}, or {} for the first."""
    return {} if number == FIRST else {"edition": number}
