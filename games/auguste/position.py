"""Starting an Auguste game from a given position (docs/positions.md)."""

from pbem.adjudicator.contract import SetupError
from pbem.adjudicator.options import yes_no_option

from . import board as boards
from .state import TEAM_CARDS, new_state
from .teams import COLOURS, assign_seats


def state_from_position(position: dict, seats: list[str], options: dict) -> dict:
    """A game state from a position file's data; SetupError explains what is wrong."""
    spec = position.get("board", "default")
    try:
        board = boards.load(spec)
    except KeyError:
        raise SetupError(f"unknown board {spec!r}; use default, fast, or a [board] table") from None
    legions, units = read_legions(position, board)
    legions = assign_seats(legions, seats, position.get("assign"))
    laurel = str(position.get("laurel", board.laurel)).upper()
    shields = cell_list(position, "shields", board.shields)
    walls = cell_list(position, "walls", [])
    for cell in [laurel] + shields + walls:
        check_cell(board, cell, "position")
    check_overlaps(units, laurel, shields, walls)
    merged = {**options, **{k: v for k, v in position.items() if k in ("trumps", "max_turns")}}
    cards = position_cards(position, merged, seats, legions)
    lone = position.get("lone")
    if lone is not None and lone not in legions:
        raise SetupError(f"lone legion {lone!r} is not in the position")
    return new_state(spec, legions, units, shields, laurel, merged, seats, lone=lone,
                     walls=walls, cards=cards, turn=whole(position.get("turn", 1), "turn", 1))


def read_legions(position: dict, board) -> tuple[dict, dict]:
    """The [legions.<colour>] tables: each legion, and every legionary's cell."""
    legions, units = {}, {}
    raw = position.get("legions") or {}
    if not isinstance(raw, dict) or not raw:
        raise SetupError("a position needs at least one [legions.<colour>] table")
    for colour, spec_legion in raw.items():
        colour = colour.lower()
        if colour not in COLOURS:
            raise SetupError(f"unknown legion colour {colour!r}; use {', '.join(COLOURS)}")
        legions[colour] = {
            "corner": whole(spec_legion.get("corner", COLOURS.index(colour)),
                            f"legions.{colour}.corner", 0, len(COLOURS) - 1),
            "team": str(spec_legion.get("team", colour)),
            "seat": spec_legion.get("seat"),
        }
        for entry in cell_list(spec_legion, "units", [], f"legions.{colour}."):
            cell, shield = entry.rstrip("+"), entry.endswith("+")
            check_cell(board, cell, f"legion {colour}")
            if cell in units:
                raise SetupError(f"two legionaries on {cell}")
            units[cell] = {"legion": colour, "shield": shield}
    check_legions(legions)
    return legions, units


def check_legions(legions: dict) -> None:
    """SetupError when two legions share a camp or every legion is of one team."""
    corners = [legion["corner"] for legion in legions.values()]
    if len(set(corners)) != len(corners):
        raise SetupError("two legions own the same camp (corner)")
    if len({legion["team"] for legion in legions.values()}) < 2:
        raise SetupError("a position needs legions of two teams at least")


def check_overlaps(units: dict, laurel: str, shields: list, walls: list) -> None:
    """SetupError when two things stand on a cell that can hold only one of them."""
    for cell in sorted(units):
        if cell == laurel:
            raise SetupError(f"the laurel crown and a legionary are both on {cell}")
        if cell in shields:
            raise SetupError(f"a shield lies on {cell}, where a legionary stands "
                             f"(write {cell}+ for a legionary carrying it)")
        if cell in walls:
            raise SetupError(f"a wall and a legionary are both on {cell}")
    for cell in walls:
        if cell == laurel or cell in shields:
            raise SetupError(f"a wall stands on {cell}, which holds the laurel crown or a shield")


def cell_list(table: dict, key: str, default, where: str = "") -> list[str]:
    """A list of cell names, upper-cased; SetupError when it is not one."""
    value = table.get(key, default)
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise SetupError(f'{where}{key} must be a list of cells, e.g. ["MOC", "ZIJ"]')
    return [c.upper() for c in value]


def whole(value, key: str, least: int, most: int | None = None) -> int:
    """A whole number within bounds; SetupError otherwise."""
    if isinstance(value, bool) or not isinstance(value, int) or value < least or \
            (most is not None and value > most):
        bounds = f"from {least} to {most}" if most is not None else f"{least} or more"
        raise SetupError(f"{key} must be a whole number {bounds}: {value!r}")
    return value


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
