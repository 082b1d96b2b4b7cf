"""Starting an Auguste game from a given position (docs/positions.md)."""

from pbem.adjudicator.contract import SetupError
from pbem.adjudicator.options import yes_no_option

from . import board as boards
from .rules import TEAM_CARDS, new_state
from .teams import COLOURS, assign_seats


def state_from_position(position: dict, seats: list[str], options: dict) -> dict:
    """A game state from a position file's data; SetupError explains what is wrong."""
    spec = position.get("board", "default")
    try:
        board = boards.load(spec)
    except KeyError:
        raise SetupError(f"unknown board {spec!r}; use default, fast, or a [board] table") from None
    legions, units = {}, {}
    raw = position.get("legions") or {}
    if not raw:
        raise SetupError("a position needs at least one [legions.<colour>] table")
    for colour, spec_legion in raw.items():
        colour = colour.lower()
        if colour not in COLOURS:
            raise SetupError(f"unknown legion colour {colour!r}; use {', '.join(COLOURS)}")
        legions[colour] = {
            "corner": int(spec_legion.get("corner", COLOURS.index(colour))),
            "team": str(spec_legion.get("team", colour)),
            "seat": spec_legion.get("seat"),
        }
        for entry in spec_legion.get("units", []):
            cell, shield = entry.rstrip("+").upper(), entry.endswith("+")
            check_cell(board, cell, f"legion {colour}")
            if cell in units:
                raise SetupError(f"two legionaries on {cell}")
            units[cell] = {"legion": colour, "shield": shield}
    legions = assign_seats(legions, seats, position.get("assign"))
    laurel = str(position.get("laurel", board.laurel)).upper()
    shields = [c.upper() for c in position.get("shields", board.shields)]
    walls = [c.upper() for c in position.get("walls", [])]
    for cell in [laurel] + shields + walls:
        check_cell(board, cell, "position")
    if laurel in units:
        raise SetupError(f"the laurel crown and a legionary are both on {laurel}")
    merged = {**options, **{k: v for k, v in position.items() if k in ("trumps", "max_turns")}}
    cards = position_cards(position, merged, seats, legions)
    lone = position.get("lone")
    if lone is not None and lone not in legions:
        raise SetupError(f"lone legion {lone!r} is not in the position")
    return new_state(spec, legions, units, shields, laurel, merged, seats, lone=lone,
                     walls=walls, cards=cards, turn=int(position.get("turn", 1)))


def check_cell(board, cell: str, where: str) -> None:
    """SetupError unless the cell is on the board."""
    if cell not in board.cells:
        raise SetupError(f"{where}: there is no cell {cell} on board {board.name}")


def position_cards(position, options, seats, legions) -> dict | None:
    """The trump cards still in hand: from the position, or all of them."""
    given = position.get("cards")
    if not given:
        return None
    if not yes_no_option(options, "trumps"):
        raise SetupError("a position with [cards] needs trumps = true")
    teams = {legion["team"] for legion in legions.values()}
    cards = {"seer": sorted(given.get("seer", []))}
    for card in TEAM_CARDS:
        cards[card] = sorted(given.get(card, []))
        unknown = set(cards[card]) - teams
        if unknown:
            raise SetupError(f"cards.{card}: {', '.join(sorted(unknown))} is not a team")
    unknown = set(cards["seer"]) - set(seats)
    if unknown:
        raise SetupError(f"cards.seer: {', '.join(sorted(unknown))} is not a seat")
    return cards
