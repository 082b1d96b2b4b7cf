"""Auguste orders: reading a player's lines, checking them, saying them back.

One order per legion per turn:

    red: move BAK DOR          (or: bouge BAK DOR; "red" may be left out when
    blue: laurel FEZ            the seat commands one legion, or the legion is
    green: pass                 clear from the cell)
    seer                       (trumps: instead of every order this turn)
    red: wall BAK DOR          (trumps)
    red: rider BAK DOR FEZ     (trumps: from, via, to)
    red: move BAK DOR volcano  (trumps)
"""

import re
import unicodedata

from pbem.adjudicator.contract import OrderError

from .rules import (TEAM_CARDS, alive, blocked, board_of, goal_cells, in_contact, reachable,
                    seat_legions)
from .teams import COLOURS

KEYWORDS = {
    "move": "move", "bouge": "move", "bouger": "move", "deplace": "move",
    "laurel": "laurel", "laurier": "laurel",
    "pass": "pass", "passe": "pass", "passer": "pass",
    "seer": "seer", "devin": "seer",
    "wall": "wall", "muraille": "wall",
    "rider": "rider", "cavalier": "rider",
    "volcano": "volcano", "volcan": "volcano",
}
FRENCH_COLOURS = {"rouge": "red", "jaune": "yellow", "vert": "green", "verte": "green",
                  "bleu": "blue", "bleue": "blue", "violet": "purple", "violette": "purple"}
FILLER = {"to", "->", "=>", "vers", "a", "en", "-", "and", "et"}
EXAMPLE = "red: move BAK DOR"


def words(line: str) -> list[str]:
    """A line as lower-case words without accents or punctuation around them."""
    plain = unicodedata.normalize("NFKD", line).encode("ascii", "ignore").decode()
    tokens = re.split(r"[\s,:;.]+", plain.lower())
    return [t for t in tokens if t and t not in FILLER]


def colour_word(word: str) -> str | None:
    """A legion colour from an English or French word, or None."""
    if word in COLOURS:
        return word
    return FRENCH_COLOURS.get(word)


def parse(state, seat, text):
    """Read a seat's orders; one error per line that cannot be accepted."""
    mine = [c for c in seat_legions(state, seat) if alive(state, c)]
    orders = {"seer": False, "legions": {}}
    errors = []
    where = {}
    seer_line = None
    for number, line in enumerate(text.splitlines(), start=1):
        tokens = words(line)
        if not tokens:
            continue
        try:
            colour, order = read_line(state, seat, mine, tokens)
        except ValueError as problem:
            errors.append(OrderError(number, line.strip(), str(problem)))
            continue
        if order["kind"] == "seer":
            problem = seer_problem(state, seat)
            if problem:
                errors.append(OrderError(number, line.strip(), problem))
                continue
            if seer_line:
                errors.append(OrderError(number, line.strip(), f"SEER is already on line {seer_line}"))
                continue
            seer_line = number
            orders["seer"] = True
            continue
        if colour in where:
            errors.append(OrderError(number, line.strip(), (
                f"the {colour} legion already has an order on line {where[colour]}; "
                "one order per legion per turn")))
            continue
        problem = check_order(state, seat, colour, order)
        if problem:
            errors.append(OrderError(number, line.strip(), problem))
            continue
        where[colour] = number
        orders["legions"][colour] = order
    errors += card_limits(orders, where, seer_line, text.splitlines())
    if orders["seer"]:
        orders["legions"] = {}
    return orders, sorted(errors, key=lambda e: e.line)


def seer_problem(state, seat) -> str | None:
    """Why this seat may not play SEER now, or None."""
    if not state["trumps"]:
        return "trump cards are not in play in this game"
    if state["stage"] == "seer":
        return "you are already playing SEER this turn: send your orders now"
    if seat not in state["cards"]["seer"]:
        return "you have already played your SEER card"
    return None


def card_limits(orders, where, seer_line, lines) -> list[OrderError]:
    """One trump card per player per turn; SEER replaces every other order."""
    errors = []
    played = [(n, c) for c, n in where.items() if card_name(orders["legions"][c])]
    if seer_line:
        for colour, number in sorted(where.items(), key=lambda item: item[1]):
            errors.append(OrderError(number, lines[number - 1].strip(), (
                f"with SEER you send the {colour} legion's order later, after seeing "
                "the others' orders; this line is ignored")))
    elif len(played) > 1:
        for number, colour in sorted(played)[1:]:
            errors.append(OrderError(number, lines[number - 1].strip(), (
                f"one trump card per player per turn, and line {sorted(played)[0][0]} "
                "already plays one; the " + colour + " legion passes")))
            del orders["legions"][colour]
    return errors


def card_name(order) -> str | None:
    """The trump card an order uses, if any."""
    if order["kind"] in ("wall", "rider"):
        return order["kind"]
    if order.get("volcano"):
        return "volcano"
    return None


def read_line(state, seat, mine, tokens):
    """(legion, order) for one line's words; ValueError with a player's explanation."""
    colour = colour_word(tokens[0])
    if colour:
        tokens = tokens[1:]
        if colour not in state["legions"]:
            raise ValueError(f"there is no {colour} legion in this game")
        if colour not in seat_legions(state, seat):
            raise ValueError(f"you do not command the {colour} legion")
        if colour not in mine:
            raise ValueError(f"the {colour} legion has no legionary left")
    if not tokens:
        raise ValueError(f"an order needs a verb after the legion, e.g. {EXAMPLE}")
    verb = KEYWORDS.get(tokens[0])
    if verb is None:
        raise ValueError(f"I do not understand {tokens[0]!r}; write for example {EXAMPLE}, "
                         "or send HELP")
    args = [t.upper() for t in tokens[1:]]
    if verb == "seer":
        if args:
            raise ValueError("SEER takes nothing after it")
        return None, {"kind": "seer"}
    if verb == "rider" and args and colour_word(args[0].lower()):
        named = colour_word(args[0].lower())
        if colour and named != colour:
            raise ValueError(f"this line names two legions, {colour} and {named}")
        colour, args = named, args[1:]
        if colour not in mine:
            raise ValueError(f"you do not command a living {colour} legion")
    order = build_order(verb, args)
    colour = colour or infer_legion(state, mine, order)
    return colour, order


def build_order(verb, args) -> dict:
    """An order dict from a verb and its upper-case arguments."""
    volcano = False
    if verb == "volcano":
        verb, volcano = "move", True
    elif args and args[-1] in ("VOLCANO", "VOLCAN"):
        args, volcano = args[:-1], True
    shapes = {"move": 2, "laurel": 1, "pass": 0, "wall": 2, "rider": 3}
    if len(args) > shapes[verb]:
        extra = " ".join(args[shapes[verb]:])
        raise ValueError(f"{extra!r} is more than the order takes: {usage(verb)}")
    if len(args) < shapes[verb]:
        raise ValueError(usage(verb))
    if volcano and verb != "move":
        raise ValueError("VOLCANO goes with a MOVE, e.g. red: move BAK DOR volcano")
    if verb == "move":
        return {"kind": "move", "from": args[0], "to": args[1], "volcano": volcano}
    if verb == "laurel":
        return {"kind": "laurel", "to": args[0]}
    if verb == "wall":
        return {"kind": "wall", "cells": sorted(args)}
    if verb == "rider":
        return {"kind": "rider", "from": args[0], "via": args[1], "to": args[2]}
    return {"kind": "pass"}


def usage(verb) -> str:
    """How an order with this verb is written."""
    return {
        "move": "MOVE needs two cells, where from and where to: red: move BAK DOR",
        "laurel": "LAUREL needs the cell the crown should go to: red: laurel FEZ",
        "pass": "PASS takes nothing after it",
        "wall": "WALL needs two neighbouring cells: red: wall BAK DOR",
        "rider": "RIDER needs three cells, from, via and to: red: rider BAK DOR FEZ",
    }[verb]


def infer_legion(state, mine, order) -> str:
    """The legion an order without a colour is for; ValueError when unclear."""
    if len(mine) == 1:
        return mine[0]
    if not mine:
        raise ValueError("none of your legions has a legionary left")
    if "from" in order:
        unit = state["units"].get(order["from"])
        if unit and unit["legion"] in mine:
            return unit["legion"]
    if order["kind"] == "laurel":
        touching = [c for c in mine if in_contact(state, c)]
        if len(touching) == 1:
            return touching[0]
    names = " or ".join(mine)
    raise ValueError(f"say which legion this is for ({names}), e.g. {mine[0]}: ...")


def check_order(state, seat, colour, order) -> str | None:
    """Why this order is illegal for this legion now, or None if it is legal."""
    board = board_of(state)
    kind = order["kind"]
    for key in ("from", "via", "to"):
        if key in order and order[key] not in board.cells:
            return f"there is no cell called {order[key]} on this board"
    for cell in order.get("cells", []):
        if cell not in board.cells:
            return f"there is no cell called {cell} on this board"
    card = card_name(order)
    if card:
        if not state["trumps"]:
            return "trump cards are not in play in this game"
        team = state["legions"][colour]["team"]
        if card in TEAM_CARDS and team not in state["cards"][card]:
            return f"team {team} has already played its {card.upper()} card"
    if card and state["stage"] == "seer" and seat in state["seers"]:
        return "you played SEER this turn: no other trump card until next turn"
    if kind == "move":
        return check_move(state, colour, order["from"], order["to"])
    if kind == "rider":
        return check_rider(state, colour, order)
    if kind == "laurel":
        return check_laurel(state, colour, order["to"])
    if kind == "wall":
        return check_wall(state, order["cells"])
    return None


def check_move(state, colour, start, to, units=None) -> str | None:
    """Why a legionary of `colour` may not move from `start` to `to`, or None."""
    units = state["units"] if units is None else units
    unit = units.get(start)
    if not unit or unit["legion"] != colour:
        return f"there is no {colour} legionary on {start}"
    problem = destination_problem(state, to)
    if problem:
        return problem
    if to not in reachable(state, start, units):
        return (f"{to} is not next to the group of your {colour} legionary on {start}; "
                "a legionary moves to a cell next to its own group")
    if unit["shield"] and to in state["shields"]:
        return (f"your {colour} legionary on {start} already carries a shield and may not "
                f"enter {to}, which holds another")
    return None


def destination_problem(state, to) -> str | None:
    """Why nobody may move into `to` this turn, or None."""
    if to in state["units"]:
        occupant = state["units"][to]["legion"]
        return (f"{to} is not empty (a {occupant} legionary stands there, and a legionary "
                "that leaves this turn still blocks its cell)")
    if to == state["laurel"]:
        return f"{to} holds the laurel crown"
    if blocked(state, to):
        return f"{to} is blocked"
    return None


def check_rider(state, colour, order) -> str | None:
    """RIDER: two successive moves; only the last cell counts for arrival."""
    first = check_move(state, colour, order["from"], order["via"])
    if first:
        return first
    units = dict(state["units"])
    units[order["via"]] = units.pop(order["from"])
    return check_move(state, colour, order["via"], order["to"], units)


def check_laurel(state, colour, to) -> str | None:
    """LAUREL: the legion touches the crown, and `to` is next to the crown."""
    board = board_of(state)
    if not in_contact(state, colour):
        return (f"the {colour} legion is not next to the laurel crown (on {state['laurel']}), "
                "so it cannot move it")
    if not board.adjacent(state["laurel"], to):
        return f"{to} is not next to the laurel crown (on {state['laurel']})"
    return None


def check_wall(state, cells) -> str | None:
    """WALL: two neighbouring empty cells, neither of them a goal cell."""
    a, b = cells
    if a == b or not board_of(state).adjacent(a, b):
        return f"{a} and {b} are not neighbouring cells"
    goals = goal_cells(state)
    for cell in cells:
        if cell in goals:
            return f"{cell} is a goal cell; a wall may never stand on one"
        if cell in state["walls"]:
            return f"a wall stands on {cell} already"
        if cell in state["units"] or cell == state["laurel"] or blocked(state, cell):
            return f"{cell} is not empty"
        if cell in state["shields"]:
            return f"{cell} holds a shield; a wall needs two empty cells"
    return None


def describe_orders(state, seat, orders) -> list[str]:
    """A seat's orders in plain words, one line per legion."""
    if orders.get("seer"):
        return ["SEER: you will see the others' orders, then send yours"]
    lines = []
    for colour in seat_legions(state, seat):
        if not alive(state, colour):
            continue
        order = orders.get("legions", {}).get(colour)
        lines.append(f"{colour}: {say(order)}")
    return lines


def say(order) -> str:
    """One order in words."""
    if order is None:
        return "no order, so it passes"
    kind = order["kind"]
    if kind == "move":
        text = f"move the legionary on {order['from']} to {order['to']}"
        return text + " and erupt (VOLCANO)" if order.get("volcano") else text
    if kind == "rider":
        return f"RIDER: the legionary on {order['from']} rides via {order['via']} to {order['to']}"
    if kind == "laurel":
        return f"move the laurel crown to {order['to']}"
    if kind == "wall":
        return f"WALL on {order['cells'][0]} and {order['cells'][1]}"
    return "pass"

