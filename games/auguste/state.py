"""Auguste's state: how a fresh one is made, and the questions every module asks of it.

The rules (adjudication), the orders (reading and legality), the position
files and the views all read the state through these functions; none of them
changes it (only the reducer in rules.py does).
"""

from pbem.adjudicator.editions import edition, recorded
from pbem.adjudicator.options import number_option, yes_no_option

from . import board as boards
from .teams import COLOURS

TEAM_CARDS = ("wall", "rider", "volcano")
LONE_LIMIT = 17


def new_state(board, legions, units, shields, laurel, options, seats, lone=None,
              walls=(), cards=None, turn=1) -> dict:
    """A fresh state dict from its parts."""
    trumps = yes_no_option(options, "trumps")
    teams = sorted({legion["team"] for legion in legions.values()})
    if cards is None:
        cards = {"seer": list(seats) if trumps else [],
                 **{card: list(teams) if trumps else [] for card in TEAM_CARDS}}
    return {
        "board": board,
        "turn": turn,
        "stage": "orders",
        "legions": {c: legions[c] for c in COLOURS if c in legions},
        "lone": lone,
        "units": dict(sorted(units.items())),
        "shields": sorted(shields),
        "laurel": laurel,
        "walls": sorted(walls),
        "trumps": trumps,
        "cards": cards,
        "max_turns": number_option(options, "max_turns", 0, whole=True),
        "seer_hours": number_option(options, "seer_hours", 12, positive=True),
        "held": {},
        "seers": [],
        "out": [],
        "result": None,
        **recorded(edition(options)),
    }


def board_of(state):
    """The Board this game is played on."""
    return boards.load(state["board"])


def teams_on(state) -> dict:
    """The team of the legionary on each occupied cell."""
    team = {colour: legion["team"] for colour, legion in state["legions"].items()}
    return {cell: team[unit["legion"]] for cell, unit in state["units"].items()}


def seat_legions(state, seat) -> list[str]:
    """The legions a seat commands, in colour order."""
    return [c for c in COLOURS if c in state["legions"] and state["legions"][c]["seat"] == seat]


def alive(state, colour) -> int:
    """How many legionaries a legion has left."""
    return sum(1 for u in state["units"].values() if u["legion"] == colour)


def legions_alive(state) -> set:
    """The legions with at least one legionary left."""
    return {unit["legion"] for unit in state["units"].values()}


def blocked(state, cell) -> bool:
    """Is a cell blocked by the board or by a wall?"""
    return cell in state["walls"] or cell in board_of(state).blocked


def group_of(state, cell, units=None) -> list[str]:
    """The cells of the group (same legion, connected) containing `cell`."""
    units = state["units"] if units is None else units
    board = board_of(state)
    legion = units[cell]["legion"]
    group, frontier = {cell}, [cell]
    while frontier:
        here = frontier.pop()
        for nxt in board.neighbours[here]:
            if nxt not in group and nxt in units and units[nxt]["legion"] == legion:
                group.add(nxt)
                frontier.append(nxt)
    return sorted(group)


def reachable(state, cell, units=None) -> list[str]:
    """Every cell next to the group of the legionary on `cell` (before emptiness checks)."""
    board = board_of(state)
    group = group_of(state, cell, units)
    return sorted({n for g in group for n in board.neighbours[g]} - set(group))


def in_contact(state, colour) -> bool:
    """Does a legion touch the laurel crown?"""
    board = board_of(state)
    return any(state["units"].get(n, {}).get("legion") == colour
               for n in board.neighbours[state["laurel"]])


def goal_cells(state) -> set:
    """Every goal cell of the board."""
    return set(board_of(state).goal_owner)
