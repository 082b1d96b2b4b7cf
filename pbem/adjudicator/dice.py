"""Dice and dice tables, from a phase's fair random stream.

A die of n sides is ``rng.below(n) + 1`` (see rng.py for how ``below`` reads
the stream). A dice table is plain data, as a game's TOML gives it: keys are
a face (``"3"``) or a range of faces (``"2-4"``), values are whatever the
game makes of a row::

    [loser]
    "1" = {name = "Disaster", lose = "all"}
    "2-4" = {name = "Heavy defeat", lose = "half-up"}
"""


def roll(rng, sides: int = 6) -> int:
    """One die: 1 to `sides`, each equally likely."""
    return rng.below(sides) + 1


def roll_dice(rng, count: int, sides: int = 6) -> list[int]:
    """`count` dice, in the order rolled."""
    return [roll(rng, sides) for _ in range(count)]


def faces(key) -> range:
    """The faces a table key covers: "3" -> 3..3, "2-4" -> 2..4."""
    low, _, high = str(key).partition("-")
    return range(int(low), int(high or low) + 1)


def check_table(table: dict, lowest: int, highest: int) -> list[str]:
    """Problems with a dice table: faces covered twice, or not at all."""
    seen, problems = {}, []
    for key in table:
        for face in faces(key):
            if face in seen:
                problems.append(f"face {face} is in both {seen[face]!r} and {key!r}")
            seen[face] = key
    problems += [f"face {face} is in no row" for face in range(lowest, highest + 1)
                 if face not in seen]
    return problems


def row_for(table: dict, face: int):
    """The row of a dice table for one result; KeyError if no row covers it."""
    for key, row in table.items():
        if face in faces(key):
            return row
    raise KeyError(face)
