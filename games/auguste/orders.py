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

from contextvars import ContextVar
import re
import unicodedata

from pbem.adjudicator import hexgrid
from pbem.adjudicator.contract import OrderError
from pbem.adjudicator.spelling import aside, closest, unknown_word
from pbem.i18n import N_, Said, _, current

from .state import (TEAM_CARDS, alive, blocked, board_of, goal_cells, in_contact, reachable,
                    seat_legions)
from .teams import COLOURS

# While parse reads a mail: each seat's example order, worked out once.
READING_EXAMPLES = ContextVar("auguste_reading_examples", default=None)
KEYWORDS = {
    "move": "move", "bouge": "move", "bouger": "move", "deplace": "move", "deplacer": "move",
    "laurel": "laurel", "laurier": "laurel",
    "pass": "pass", "passe": "pass", "passer": "pass",
    "seer": "seer", "devin": "seer",
    "wall": "wall", "muraille": "wall",
    "rider": "rider", "cavalier": "rider",
    "volcano": "volcano", "volcan": "volcano",
}
FRENCH_COLOURS = {"rouge": "red", "jaune": "yellow", "vert": "green", "verte": "green",
                  "bleu": "blue", "bleue": "blue", "violet": "purple", "violette": "purple"}
FILLER = {"to", "->", "=>", "vers", "a", "en", "-", "and", "et", "from", "de"}
# A pass put in words: a subject, a "not" and the word for a move, then only words of
# when or for whom ("Je ne bouge pas cette fois", "I won't move this turn", "pas de
# mouvement pour moi", "no move from me"). Any other word leaves the line a remark:
# "I'll move next turn, promise" is no pass.
STILL_SUBJECTS = {"i", "je", "we", "nous", "on", "i'm", "im"}
STILL_MOVES = {"move", "moves", "moving", "bouge", "bouger", "deplace", "deplacer",
               "mouvement", "mouvements", "deplacement", "deplacements", "bougerai"}
STILL_NOT = ({"won't"}, {"wont"}, {"will", "not"}, {"don't"}, {"dont"}, {"do", "not"},
             {"not"}, {"no"}, {"ne", "pas"}, {"pas"}, {"n'ai", "pas"}, {"aucun"})
STILL_WHEN = {"this", "turn", "time", "round", "for", "me", "now", "cette", "fois", "ce",
              "tour", "pour", "moi", "manche", "ci"}
# Colour names in sentences ("the red legion", "la légion rouge").
COLOUR_NAMES = {"red": N_("red"), "orange": N_("orange"), "yellow": N_("yellow"),
                "green": N_("green"), "blue": N_("blue"), "purple": N_("purple")}
# Trump cards by name, as sentences say them.
CARD_NAMES = {"seer": N_("SEER"), "wall": N_("WALL"), "rider": N_("RIDER"),
              "volcano": N_("VOLCANO")}
# How orders are written in each language, for examples.
VERB_WORDS = {"en": {"move": "move", "laurel": "laurel", "pass": "pass", "seer": "seer",
                     "wall": "wall", "rider": "rider", "volcano": "volcano"},
              "fr": {"move": "bouge", "laurel": "laurier", "pass": "passe", "seer": "devin",
                     "wall": "muraille", "rider": "cavalier", "volcano": "volcan"}}


def words(line: str) -> list[str]:
    """A line as lower-case words without accents or punctuation around them."""
    plain = unicodedata.normalize("NFKD", line).encode("ascii", "ignore").decode()
    tokens = re.split(r"[\s,:;.!]+", plain.lower())
    return [t for t in tokens if t and t not in FILLER]


def colour_name(colour: str) -> str:
    """A legion's colour as a sentence in the current language says it."""
    return _(COLOUR_NAMES[colour])


def card_title(card: str) -> str:
    """A trump card's name as sentences in the current language say it (SEER, DEVIN)."""
    return _(CARD_NAMES[card])


def example(state, seat) -> str:
    """An order this seat could really write now, in the reader's words ("red: move BAK DOR").

    A legal move of its first living legion if it has one, else a pass. While
    a mail is read, it is worked out once, however many lines need it.
    """
    known = READING_EXAMPLES.get()
    if known is None:
        return examples(state, seat)["move"]
    if seat not in known:
        known[seat] = examples(state, seat)["move"]
    return known[seat]


def examples(state, seat) -> dict:
    """Orders this seat could really write now, in the reader's words, for its mails.

    "move": a legal move of one of its legions (a pass when none can move),
    "laurel": the crown pushed to a free cell next to it, by a legion of the
    seat that touches it when one does ("laurel_now" says whether one does),
    "pass", and the cells and legion they use.
    """
    french = current() == "fr"
    words = VERB_WORDS["fr" if french else "en"]
    mine = [c for c in seat_legions(state, seat) if alive(state, c)] or \
        list(seat_legions(state, seat)) or sorted(state["legions"])[:1]
    def written(colour):
        return colour_name(colour) if french else colour
    out = {"legion": written(mine[0]), "pass": f"{written(mine[0])}: {words['pass']}"}
    out["move"] = out["pass"]
    for legion in mine:
        move = next(each_legal_move(state, seat, legion), None)
        if move:
            out.update(legion=written(legion), start=move["from"], to=move["to"],
                       move=f"{written(legion)}: {words['move']} {move['from']} {move['to']}")
            break
    board = board_of(state)
    free = [n for n in sorted(board.neighbours[state["laurel"]])
            if n not in state["units"] and not blocked(state, n)]
    out["crown_to"] = free[0] if free else state["laurel"]
    touching = [legion for legion in mine if in_contact(state, legion)]
    out["laurel_now"] = bool(touching)
    pusher = written(touching[0]) if touching else out["legion"]
    out["laurel"] = f"{pusher}: {words['laurel']} {out['crown_to']}"
    out.update(trump_examples(state, seat, mine, words, written))
    return out


def trump_examples(state, seat, mine, words, written) -> dict:
    """The trump cards this seat could play now, each as an order it could send: "seer",
    "wall", "rider", "volcano" (None for a card it cannot play now)."""
    out = dict.fromkeys(("seer", "wall", "rider", "volcano"))
    if not state["trumps"] or state["stage"] == "seer":
        return out
    if seer_problem(state, seat) is None:
        out["seer"] = words["seer"]
    board = board_of(state)
    for legion in (c for c in mine if alive(state, c)):
        tried = {
            "wall": ({"kind": "wall", "cells": [a, b]} for a in sorted(board.cells)
                     for b in sorted(board.neighbours[a]) if a < b),
            "rider": ({"kind": "rider", "from": m["from"], "via": m["to"], "to": t}
                      for m in each_legal_move(state, seat, legion)
                      for t in sorted(board.neighbours[m["to"]])),
            "volcano": ({**m, "volcano": True} for m in each_legal_move(state, seat, legion)),
        }
        for card, orders in tried.items():
            if out[card] is None:
                order = next((o for o in orders if check_order(state, seat, legion, o) is None),
                             None)
                if order:
                    out[card] = trump_text(written(legion), words, order)
    return out


def trump_text(legion: str, words: dict, order: dict) -> str:
    """A trump card's order as a seat writes it: "red: wall BAK DOR"."""
    if order["kind"] == "wall":
        return f"{legion}: {words['wall']} {' '.join(order['cells'])}"
    if order["kind"] == "rider":
        return f"{legion}: {words['rider']} {order['from']} {order['via']} {order['to']}"
    return f"{legion}: {words['move']} {order['from']} {order['to']} {words['volcano']}"


def legal_moves(state, seat, colour) -> list[dict]:
    """Every legal MOVE of a legion this turn."""
    return list(each_legal_move(state, seat, colour))


def each_legal_move(state, seat, colour):
    """The legal MOVEs of a legion this turn, one after the other (the first comes fast)."""
    board = board_of(state)
    mine = sorted(c for c, u in state["units"].items() if u["legion"] == colour)
    for cell in mine:
        for to in sorted({n for g in mine for n in board.neighbours[g]}):
            order = {"kind": "move", "from": cell, "to": to, "volcano": False}
            if check_order(state, seat, colour, order) is None:
                yield order


def colour_word(word: str) -> str | None:
    """A legion colour from an English or French word, or None."""
    if word in COLOURS:
        return word
    return FRENCH_COLOURS.get(word)


def parse(state, seat, text):
    """Read a seat's orders; one error per line that cannot be accepted."""
    reading = READING_EXAMPLES.set({})
    try:
        return read_orders(state, seat, text)
    finally:
        READING_EXAMPLES.reset(reading)


def read_orders(state, seat, text):
    """parse's work: the orders and the errors of each line."""
    mine = [c for c in seat_legions(state, seat) if alive(state, c)]
    orders = {"seer": False, "legions": {}}
    errors = []
    where = {}
    seer_line = None
    for number, line in enumerate(text.splitlines(), start=1):
        tokens = words(line)
        if not tokens:
            continue
        if still(tokens):
            tokens = tokens[:1] + ["pass"] if colour_word(tokens[0]) else ["pass"]
            if tokens == ["pass"] and len(mine) > 1:
                for colour in (c for c in mine if c not in where):
                    where[colour] = number
                    orders["legions"][colour] = {"kind": "pass"}
                continue
        remark = None if colour_word(tokens[0]) or tokens[0] in KEYWORDS else \
            aside(number, line, tokens[0], KEYWORDS)
        if remark:
            errors.append(remark)
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
                errors.append(OrderError(number, line.strip(), Said(
                    "SEER is already on line {line}", line=seer_line)))
                continue
            seer_line = number
            orders["seer"] = True
            continue
        if colour in where:
            errors.append(OrderError(number, line.strip(), Said(
                "the {colour} legion already has an order on line {line}; one order per "
                "legion per turn", colour=colour_name(colour), line=where[colour])))
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


def still(tokens: list[str]) -> bool:
    """Does a line say in words that the seat does not move (a pass): see STILL_MOVES?"""
    if colour_word(tokens[0]):
        tokens = tokens[1:]
    if tokens and tokens[0] in STILL_SUBJECTS:
        tokens = tokens[1:]
    moves = [at for at, word in enumerate(tokens) if word in STILL_MOVES]
    if len(moves) != 1:
        return False
    at = moves[0]
    before, after = tokens[:at], tokens[at + 1:]
    if after[:1] == ["pas"] and before in ([], ["ne"]):
        before, after = ["ne", "pas"], after[1:]
    return set(before) in STILL_NOT and len(before) == len(set(before)) and \
        all(word in STILL_WHEN for word in after)


def seer_problem(state, seat) -> str | None:
    """Why this seat may not play SEER now, or None."""
    if not state["trumps"]:
        return Said("trump cards are not in play in this game")
    if state["stage"] == "seer":
        return Said("you are already playing SEER this turn: send your orders now")
    if seat not in state["cards"]["seer"]:
        return Said("you have already played your SEER card")
    return None


def card_limits(orders, where, seer_line, lines) -> list[OrderError]:
    """One trump card per player per turn; SEER replaces every other order."""
    errors = []
    played = [(n, c) for c, n in where.items() if card_name(orders["legions"][c])]
    if seer_line:
        for colour, number in sorted(where.items(), key=lambda item: item[1]):
            errors.append(OrderError(number, lines[number - 1].strip(), Said(
                "with SEER you send the {colour} legion's order later, after seeing the "
                "others' orders; this line is ignored", colour=colour_name(colour))))
    elif len(played) > 1:
        for number, colour in sorted(played)[1:]:
            errors.append(OrderError(number, lines[number - 1].strip(), Said(
                "one trump card per player per turn, and line {line} already plays one; "
                "the {colour} legion passes", line=sorted(played)[0][0],
                colour=colour_name(colour))))
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
            raise ValueError(Said("there is no {colour} legion in this game",
                                  colour=colour_name(colour)))
        if colour not in seat_legions(state, seat):
            raise ValueError(Said("you do not command the {colour} legion; yours: {yours}",
                                  colour=colour_name(colour), yours=", ".join(
                                      colour_name(c) for c in seat_legions(state, seat))))
        if colour not in mine:
            raise ValueError(Said("the {colour} legion has no legionary left",
                                  colour=colour_name(colour)))
    if not tokens:
        raise ValueError(Said("an order needs a verb after the legion, e.g. {example}",
                              example=example(state, seat)))
    verb = KEYWORDS.get(tokens[0])
    if verb is None:
        raise ValueError(unknown_word(tokens[0], KEYWORDS, example(state, seat)))
    args = [t.upper() for t in tokens[1:]]
    if verb == "seer":
        if args:
            raise ValueError(Said("SEER takes nothing after it"))
        return None, {"kind": "seer"}
    if verb == "rider" and args and colour_word(args[0].lower()):
        named = colour_word(args[0].lower())
        if colour and named != colour:
            raise ValueError(Said("this line names two legions, {first} and {second}",
                                  first=colour_name(colour), second=colour_name(named)))
        colour, args = named, args[1:]
        if colour not in mine:
            raise ValueError(Said("you do not command a living {colour} legion",
                                  colour=colour_name(colour)))
    order = build_order(state, seat, verb, args)
    colour = colour or infer_legion(state, mine, order)
    return colour, order


def build_order(state, seat, verb, args) -> dict:
    """An order dict from a verb and its upper-case arguments."""
    volcano = False
    if verb == "volcano":
        verb, volcano = "move", True
    elif args and args[-1] in ("VOLCANO", "VOLCAN"):
        args, volcano = args[:-1], True
    shapes = {"move": 2, "laurel": 1, "pass": 0, "wall": 2, "rider": 3}
    if len(args) > shapes[verb]:
        extra = " ".join(args[shapes[verb]:])
        raise ValueError(Said("{extra!r} is more than the order takes: {usage}",
                              extra=extra, usage=usage(state, seat, verb)))
    if len(args) < shapes[verb]:
        raise ValueError(usage(state, seat, verb))
    if volcano and verb != "move":
        raise ValueError(Said("VOLCANO goes with a MOVE, e.g. {example} volcano",
                              example=example(state, seat)))
    if verb == "move":
        return {"kind": "move", "from": args[0], "to": args[1], "volcano": volcano}
    if verb == "laurel":
        return {"kind": "laurel", "to": args[0]}
    if verb == "wall":
        return {"kind": "wall", "cells": sorted(args)}
    if verb == "rider":
        return {"kind": "rider", "from": args[0], "via": args[1], "to": args[2]}
    return {"kind": "pass"}


USAGE = {
    "move": N_("MOVE needs two cells, where from and where to, e.g. {example}"),
    "laurel": N_("LAUREL needs the cell the crown should go to, a neighbour of {laurel}"),
    "pass": N_("PASS takes nothing after it"),
    "wall": N_("WALL needs two neighbouring cells, both empty"),
    "rider": N_("RIDER needs three cells, from, via and to"),
}


def usage(state, seat, verb) -> Said:
    """How an order with this verb is written (with a real example for a move)."""
    return Said(USAGE[verb], **({"example": example(state, seat)} if verb == "move" else {}),
                **({"laurel": state["laurel"]} if verb == "laurel" else {}))


def infer_legion(state, mine, order) -> str:
    """The legion an order without a colour is for; ValueError when unclear."""
    if len(mine) == 1:
        return mine[0]
    if not mine:
        raise ValueError(Said("none of your legions has a legionary left"))
    if "from" in order:
        unit = state["units"].get(order["from"])
        if unit and unit["legion"] in mine:
            return unit["legion"]
    if order["kind"] == "laurel":
        touching = [c for c in mine if in_contact(state, c)]
        if len(touching) == 1:
            return touching[0]
    raise ValueError(Said("say which legion this is for ({names}), e.g. {first}: ...",
                          names=_(" or ").join(mine), first=mine[0]))


def check_order(state, seat, colour, order) -> str | None:
    """Why this order is illegal for this legion now, or None if it is legal."""
    board = board_of(state)
    kind = order["kind"]
    for cell in [order[key] for key in ("from", "via", "to") if key in order] + \
            order.get("cells", []):
        if cell not in board.cells:
            return no_such_cell(board, cell)
    card = card_name(order)
    if card:
        if not state["trumps"]:
            return Said("trump cards are not in play in this game")
        team = state["legions"][colour]["team"]
        if card in TEAM_CARDS and team not in state["cards"][card]:
            return Said("team {team} has already played its {card} card", team=team,
                        card=card_title(card))
    if card and state["stage"] == "seer" and seat in state["seers"]:
        return Said("you played SEER this turn: no other trump card until next turn")
    if kind == "move":
        return check_move(state, colour, order["from"], order["to"])
    if kind == "rider":
        return check_rider(state, colour, order)
    if kind == "laurel":
        return check_laurel(state, colour, order["to"])
    if kind == "wall":
        return check_wall(state, order["cells"])
    return None


def no_such_cell(board, cell) -> Said:
    """There is no such cell: the closest names on this board, if any."""
    near = closest(cell, board.cells)
    if near:
        return Said("there is no cell {cell}; did you mean {near}?", cell=cell,
                    near=_(" or ").join(near))
    return Said("there is no cell called {cell} on this board", cell=cell)


def check_move(state, colour, start, to, units=None) -> str | None:
    """Why a legionary of `colour` may not move from `start` to `to`, or None."""
    units = state["units"] if units is None else units
    unit = units.get(start)
    if not unit or unit["legion"] != colour:
        near = nearest_own(state, colour, start, units)
        if near:
            return Said("there is no {colour} legionary on {cell}; the closest are on {near}",
                        colour=colour_name(colour), cell=start, near=", ".join(near))
        return Said("there is no {colour} legionary on {cell}",
                    colour=colour_name(colour), cell=start)
    problem = destination_problem(state, to)
    if problem:
        return problem
    if to not in reachable(state, start, units):
        near = nearest_free(state, start, to, units)
        if near:
            return Said("{to} is not next to the group of your {colour} legionary on {cell}; "
                        "the free cells next to it closest to {to}: {near}", to=to,
                        cell=start, colour=colour_name(colour), near=", ".join(near))
        return Said("{to} is not next to the group of your {colour} legionary on {cell}; a "
                    "legionary moves to a cell next to its own group", to=to, cell=start,
                    colour=colour_name(colour))
    if unit["shield"] and to in state["shields"]:
        return Said("your {colour} legionary on {cell} already carries a shield and may not "
                    "enter {to}, which holds another", cell=start, to=to,
                    colour=colour_name(colour))
    return None


def nearest_own(state, colour, cell, units) -> list[str]:
    """The (at most two) cells of the legion's legionaries closest to `cell`, a cell a move
    named where none of them stands."""
    cells = board_of(state).cells
    own = [here for here, unit in units.items() if unit["legion"] == colour]
    return sorted(own, key=lambda here: (hexgrid.distance(cells[here], cells[cell]),
                                         here))[:2]


def nearest_free(state, start, to, units) -> list[str]:
    """The (at most two) free cells next to the group of the legionary on `start` closest
    to `to`, the cell a move named that is not next to it."""
    cells, shielded = board_of(state).cells, units[start]["shield"]
    free = [cell for cell in reachable(state, start, units)
            if cell not in units and not destination_problem(state, cell)
            and not (shielded and cell in state["shields"])]
    return sorted(free, key=lambda cell: (hexgrid.distance(cells[cell], cells[to]), cell))[:2]


def destination_problem(state, to) -> str | None:
    """Why nobody may move into `to` this turn, or None."""
    if to in state["units"]:
        occupant = state["units"][to]["legion"]
        return Said("{cell} is not empty (a {colour} legionary stands there, "
                    "and a legionary that leaves this turn still blocks its cell)", cell=to,
                    colour=colour_name(occupant))
    if to == state["laurel"]:
        return Said("{cell} holds the laurel crown", cell=to)
    if blocked(state, to):
        return Said("{cell} is blocked", cell=to)
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
        return Said("the {colour} legion is not next to the laurel crown (on {laurel}), so "
                    "it cannot move it", colour=colour_name(colour), laurel=state["laurel"])
    if not board.adjacent(state["laurel"], to):
        return Said("{cell} is not next to the laurel crown (on {laurel})", cell=to,
                    laurel=state["laurel"])
    return None


def check_wall(state, cells) -> str | None:
    """WALL: two neighbouring empty cells, neither of them a goal cell."""
    a, b = cells
    if a == b or not board_of(state).adjacent(a, b):
        return Said("{first} and {second} are not neighbouring cells", first=a, second=b)
    goals = goal_cells(state)
    for cell in cells:
        if cell in goals:
            return Said("{cell} is a goal cell; a wall may never stand on one", cell=cell)
        if cell in state["walls"]:
            return Said("a wall stands on {cell} already", cell=cell)
        if cell in state["units"] or cell == state["laurel"] or blocked(state, cell):
            return Said("{cell} is not empty", cell=cell)
        if cell in state["shields"]:
            return Said("{cell} holds a shield; a wall needs two empty cells", cell=cell)
    return None


def describe_orders(state, seat, orders) -> list[str]:
    """A seat's orders in plain words, one line per legion."""
    if orders.get("seer"):
        return [_("SEER: you will see the others' orders, then send yours")]
    lines = []
    for colour in seat_legions(state, seat):
        if not alive(state, colour):
            continue
        order = orders.get("legions", {}).get(colour)
        lines.append(_("{colour}: {order}").format(colour=colour_name(colour), order=say(order)))
    return lines


def say(order) -> str:
    """One order in words."""
    if order is None:
        return _("no order, so it passes")
    kind = order["kind"]
    if kind == "move" and order.get("volcano"):
        return _("move the legionary on {start} to {to} and erupt (VOLCANO)").format(
            start=order["from"], to=order["to"])
    if kind == "move":
        return _("move the legionary on {start} to {to}").format(start=order["from"],
                                                                 to=order["to"])
    if kind == "rider":
        return _("RIDER: the legionary on {start} rides via {via} to {to}").format(
            start=order["from"], via=order["via"], to=order["to"])
    if kind == "laurel":
        return _("move the laurel crown to {to}").format(to=order["to"])
    if kind == "wall":
        return _("WALL on {first} and {second}").format(first=order["cells"][0],
                                                        second=order["cells"][1])
    return _("pass")

