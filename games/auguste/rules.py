"""Auguste: the state, the reducer and the adjudication of a turn.

A turn resolves in the order of the rules page: walls (trumps), movement and
collisions, the laurel, volcanoes (trumps), pincers, frontal combat, then
victory. Each stage emits events and folds them into a scratch state, so the
next stage sees exactly the board the previous one left.
"""

import copy

from pbem.adjudicator import hexgrid
from pbem.adjudicator.contract import Request, SetupError, private, public, secret
from pbem.adjudicator.editions import edition
from pbem.adjudicator.scratch import Scratch
from pbem.i18n import Said, _

from . import board as boards
from .orders import check_order
from .position import state_from_position
from .state import (LONE_LIMIT, alive, blocked, board_of, new_state, legions_alive,
                    seat_legions, teams_on)
from .teams import PRESETS, legions_for, preset_for

# ---------------------------------------------------------------- setup

def setup(options, seats, rng, position=None):
    """The single setup event holding the starting position."""
    if position is not None:
        return [public("setup", state=state_from_position(position, seats, options))]
    board_name = str(options.get("board", "default"))
    if board_name not in boards.BUILTIN:
        raise SetupError(f"unknown board {board_name!r}; choose one of {', '.join(boards.BUILTIN)}"
                         " (or start from a --position file with its own board)")
    board = boards.load(board_name)
    preset = preset_for(options, len(seats))
    legions = legions_for(preset, seats, options.get("assign"))
    units = {}
    for colour, legion in legions.items():
        for cell in board.camp(legion["corner"])["tents"]:
            units[cell] = {"legion": colour, "shield": False}
    for colour, count in handicaps(options, legions):
        corner = board.cells[board.corner_cell(legions[colour]["corner"])]
        own = sorted((c for c, u in units.items() if u["legion"] == colour),
                     key=lambda c: (hexgrid.distance(board.cells[c], corner), c))
        if count >= len(own):
            raise SetupError(f"handicap {colour}:{count}: the {colour} legion has only "
                             f"{len(own)} legionaries; leave it one at least")
        for cell in own[:count]:
            del units[cell]
    return [public("setup", state=new_state(board_name, legions, units, board.shields,
                                            board.laurel, options, seats,
                                            lone=PRESETS[preset][1]))]


def handicaps(options: dict, legions: dict):
    """(legion, count) pairs from an option like "red:3,blue:1"."""
    text = str(options.get("handicap", "")).strip()
    if not text:
        return []
    out = []
    for part in text.split(","):
        colour, _, count = part.partition(":")
        colour = colour.strip().lower()
        if colour not in legions or not count.strip().isdigit():
            raise SetupError(f"handicap {part!r}: write legion:count, e.g. red:3")
        out.append((colour, int(count)))
    return out


# ---------------------------------------------------------------- reducer

def apply(state: dict, event) -> dict:
    """Fold one Auguste event into the state."""
    p = event.payload
    handler = REDUCERS.get(event.type)
    if event.type == "setup":
        return copy.deepcopy(p["state"])
    if handler:
        handler(state, p)
    return state


def _moved(state, p):
    unit = state["units"].pop(p["from"])
    if p.get("shield"):
        unit["shield"] = True
        state["shields"].remove(p["to"])
    state["units"][p["to"]] = unit
    state["units"] = dict(sorted(state["units"].items()))


def _remove(state, victims):
    for victim in victims:
        state["units"].pop(victim["cell"], None)


def _collided(state, p):
    for victim in p["victims"]:
        state["units"].pop(victim["from"], None)
    if p["shield_destroyed"]:
        state["shields"].remove(p["cell"])


def _card_played(state, p):
    holder = p["seat"] if p["card"] == "seer" else p["team"]
    state["cards"][p["card"]].remove(holder)


def _walls_built(state, p):
    state["walls"] = sorted(set(state["walls"]) | set(p["cells"]))


def _seer_called(state, p):
    state["stage"] = "seer"
    state["seers"] = list(p["seers"])


def _orders_held(state, p):
    state["held"] = p["orders"]


def _laurel_moved(state, p):
    state["laurel"] = p["to"]


def _turn_ended(state, p):
    state.update(turn=p["turn"] + 1, stage="orders", held={}, seers=[])


def _team_out(state, p):
    state["out"] = sorted(set(state["out"]) | {p["team"]})


def _game_decided(state, p):
    state["result"] = {"winners": p["winners"], "reason": p["reason"]}


REDUCERS = {
    "moved": _moved,
    "collided": _collided,
    "erupted": lambda s, p: _remove(s, p["victims"]),
    "pincered": lambda s, p: _remove(s, p["victims"]),
    "fought": lambda s, p: _remove(s, p["victims"]),
    "card_played": _card_played,
    "walls_built": _walls_built,
    "seer_called": _seer_called,
    "orders_held": _orders_held,
    "laurel_moved": _laurel_moved,
    "turn_ended": _turn_ended,
    "team_out": _team_out,
    "game_decided": _game_decided,
}


# ---------------------------------------------------------------- phases

def pending(state) -> dict:
    """Every seat with a living legion, or only the seers during their phase."""
    if state["result"]:
        return {}
    if state["stage"] == "seer":
        return {seat: Request("seer", _("You played SEER: here are the others' orders; send "
                                        "yours."), hours=state["seer_hours"])
                for seat in state["seers"]}
    living = legions_alive(state)
    seats = sorted({legion["seat"] for colour, legion in state["legions"].items()
                    if colour in living})
    return {seat: Request("orders", _("Orders for turn {turn}.").format(turn=state["turn"]))
            for seat in seats}


def default_orders(state, seat) -> dict:
    """A silent seat passes with every legion."""
    return {"seer": False, "legions": {}}


def resolve(state, orders, rng) -> list:
    """The events of one phase: a seer call, or a whole turn."""
    if state["stage"] == "orders":
        seers = sorted(seat for seat, o in orders.items() if o.get("seer"))
        if seers:
            return call_seers(state, orders, seers)
        return adjudicate(state, orders)
    return adjudicate(state, {**state["held"], **orders})


def call_seers(state, orders, seers) -> list:
    """Hold the others' orders and show them to the seers."""
    held = {seat: o for seat, o in orders.items() if seat not in seers}
    sight = {seat: o.get("legions", {}) for seat, o in sorted(held.items())}
    events = [public("card_played", seat=seat, team=None, card="seer") for seat in seers]
    events += [
        public("seer_called", turn=state["turn"], seers=seers),
        private(seers, "seer_sight", turn=state["turn"], orders=sight),
        secret("orders_held", orders=held),
    ]
    return events


class Turn(Scratch):
    """The scratch board of one turn, with the events that built it."""

    def __init__(self, state):
        super().__init__(state, apply)
        self.board = board_of(state)


def adjudicate(state, orders) -> list:
    """Resolve a whole turn from every seat's orders."""
    turn = Turn(state)
    plan, living = {}, legions_alive(state)
    for seat in sorted(orders):
        passing = []
        for colour in seat_legions(state, seat):
            if colour not in living:
                continue
            order = orders[seat].get("legions", {}).get(colour, {"kind": "pass"})
            problem = check_order(state, seat, colour, order)
            if problem:
                turn.emit(public("order_void", legion=colour, reason=problem.stored()))
                order = {"kind": "pass"}
            elif order["kind"] == "pass":
                passing.append(colour)
            plan[colour] = order
        tell_passes(state, turn, seat, passing)
    plan = play_cards(state, turn, plan)
    walls = build_walls(turn, plan)
    movers = move_legionaries(state, turn, plan, walls)
    move_laurel(turn, plan)
    erupt(turn, plan, movers)
    pincer(turn)
    fight(turn)
    end_turn(turn)
    return turn.events


def tell_passes(state, turn, seat, legions) -> None:
    """Since the second edition, a seat's legions that pass are told, as moves are."""
    if legions and edition(state) >= 2:
        turn.emit(public("passed", seat=seat, legions=legions))


def card_of(order) -> str | None:
    """The team trump card an order plays, if any."""
    if order["kind"] in ("wall", "rider"):
        return order["kind"]
    if order["kind"] == "move" and order.get("volcano"):
        return "volcano"
    return None


def play_cards(state, turn, plan) -> dict:
    """Spend the team cards played; a card two allies play at once fails for both."""
    users = {}
    for colour, order in plan.items():
        card = card_of(order)
        if card:
            users.setdefault((state["legions"][colour]["team"], card), []).append(colour)
    for (team, card), colours in sorted(users.items()):
        if len(colours) > 1:
            turn.emit(public("card_clash", team=team, card=card, legions=colours))
            for colour in colours:
                plan[colour] = {"kind": "pass"}
        else:
            seat = state["legions"][colours[0]]["seat"]
            turn.emit(public("card_played", seat=seat, team=team, card=card))
    return plan


def build_walls(turn, plan) -> set:
    """Raise the walls ordered this turn; return the cells they cover."""
    cells = set()
    for colour, order in plan.items():
        if order["kind"] == "wall":
            turn.emit(public("walls_built", legion=colour, cells=order["cells"]))
            cells |= set(order["cells"])
    return cells


def move_legionaries(state, turn, plan, walls) -> dict:
    """Simultaneous movement and collisions; return {legion: cell} of the movers that arrived."""
    moves = []
    for colour, order in plan.items():
        if order["kind"] not in ("move", "rider"):
            continue
        path = [order["to"]] + ([order["via"]] if order["kind"] == "rider" else [])
        walled = [c for c in path if c in walls]
        if walled:
            turn.emit(public("order_void", legion=colour, reason=Said(
                "a wall went up on {cell} this turn", cell=walled[0]).stored()))
            continue
        moves.append((colour, order))
    arrivals = {}
    for colour, order in moves:
        arrivals.setdefault(order["to"], []).append((colour, order))
    movers = {}
    for cell in sorted(arrivals):
        entering = arrivals[cell]
        if len(entering) > 1:
            turn.emit(public(
                "collided", cell=cell,
                victims=[{"legion": c, "from": o["from"]} for c, o in entering],
                shield_destroyed=cell in turn.state["shields"]))
            continue
        colour, order = entering[0]
        turn.emit(public("moved", legion=colour, **{"from": order["from"]}, to=cell,
                         via=order.get("via"), shield=cell in state["shields"]))
        movers[colour] = cell
    return movers


def move_laurel(turn, plan) -> None:
    """The laurel moves one cell if exactly one legion asked, to a free neighbour."""
    askers = sorted(c for c, o in plan.items() if o["kind"] == "laurel")
    if not askers:
        return
    state, here = turn.state, turn.state["laurel"]
    if len(askers) > 1:
        turn.emit(public("laurel_stayed", legions=askers, at=here,
                         reason=Said("more than one legion asked to move it").stored()))
        return
    to = plan[askers[0]]["to"]
    if to in state["units"] or blocked(state, to) or not turn.board.adjacent(here, to):
        turn.emit(public("laurel_stayed", legions=askers, at=here,
                         reason=Said("{cell} is not free after movement", cell=to).stored()))
        return
    turn.emit(public("laurel_moved", legion=askers[0], **{"from": here}, to=to))


def erupt(turn, plan, movers) -> None:
    """Volcanoes kill every legionary around the movers that arrived, all at once."""
    eruptions = []
    for colour in sorted(movers):
        if plan[colour].get("volcano"):
            cell = movers[colour]
            victims = [{"cell": n, "legion": turn.state["units"][n]["legion"]}
                       for n in turn.board.neighbours[cell] if n in turn.state["units"]]
            eruptions.append(public("erupted", legion=colour, cell=cell, victims=victims))
    for event in eruptions:
        turn.emit(event)


def pincered_lines(state, board) -> list[dict]:
    """Every line of one team caught between enemies at both ends, on this board."""
    teams = teams_on(state)
    lines = []
    for axis in hexgrid.AXES:
        ahead, behind = board.next[axis], board.next[hexgrid.neg(axis)]
        for start, team in teams.items():
            rear = pincer_end(teams, behind, start, team)
            if not rear:
                continue  # not closed behind, or not the rear end of its line
            run = [start]
            while teams.get(ahead[run[-1]]) == team:
                run.append(ahead[run[-1]])
            front = pincer_end(teams, ahead, run[-1], team)
            if front:
                lines.append({"cells": run, "ends": [rear, front]})
    return sorted(lines, key=lambda line: line["cells"])


def pincer_end(teams, onward, end, team) -> str | None:
    """The enemy closing a line's end (next cell, or across one empty cell), or None.

    `teams` gives the team on each occupied cell; `onward` the next cell from
    each cell in the direction looked at (the board's next table for it).
    """
    first = onward[end]
    if first is None:
        return None
    other = teams.get(first)
    if other is None:
        first = onward[first]
        other = teams.get(first)
    return first if other is not None and other != team else None


def pincer(turn) -> None:
    """All pincered lines die together."""
    lines = pincered_lines(turn.state, turn.board)
    if not lines:
        return
    cells = sorted({c for line in lines for c in line["cells"]})
    victims = [{"cell": c, "legion": turn.state["units"][c]["legion"]} for c in cells]
    turn.emit(public("pincered", lines=lines, victims=victims))


def strength(state, board, cell, foe, teams=None) -> int:
    """A legionary's strength against a neighbouring foe: itself plus its row behind.

    `teams` (the team on each occupied cell) may be given when it is known already.
    """
    teams = teams if teams is not None else teams_on(state)
    team = teams[cell]
    value = 2 if state["units"][cell]["shield"] else 1
    direction = hexgrid.add(board.cells[cell], hexgrid.neg(board.cells[foe]))
    behind = board.next[direction][cell]
    while teams.get(behind) == team:
        value += 1
        behind = board.next[direction][behind]
    return value


def combats(state, board) -> list[dict]:
    """Every frontal combat on this board, each pair once."""
    teams = teams_on(state)
    fights = []
    for a, team in teams.items():
        for b in board.neighbours[a]:
            if b > a and b in teams and team != teams[b]:
                fights.append({"a": a, "b": b, "strength_a": strength(state, board, a, b, teams),
                               "strength_b": strength(state, board, b, a, teams)})
    return sorted(fights, key=lambda f: (f["a"], f["b"]))


def fight(turn) -> None:
    """Frontal combats, all at once; the weaker of each pair dies."""
    fights = combats(turn.state, turn.board)
    if not fights:
        return
    losers = set()
    for f in fights:
        if f["strength_a"] < f["strength_b"]:
            losers.add(f["a"])
        elif f["strength_b"] < f["strength_a"]:
            losers.add(f["b"])
    victims = [{"cell": c, "legion": turn.state["units"][c]["legion"]} for c in sorted(losers)]
    turn.emit(public("fought", fights=fights, victims=victims))


def end_turn(turn) -> None:
    """Teams knocked out, victory, or the turn limit."""
    state = turn.state
    living = set(teams_on(state).values())
    teams = sorted({legion["team"] for legion in state["legions"].values()})
    for team in teams:
        if team not in living and team not in state["out"]:
            turn.emit(public("team_out", team=team))
    winners, reasons = [], []
    owner = turn.board.goal_owner.get(state["laurel"])
    corner_team = {legion["corner"]: legion["team"] for legion in state["legions"].values()}
    if owner in corner_team and corner_team[owner] in living:
        winners.append(corner_team[owner])
        reasons.append(Said("the laurel crown reached {cell}, a goal of team {team}'s camp",
                            cell=state["laurel"], team=corner_team[owner]).stored())
    lone = state["lone"]
    if lone and alive(state, lone):
        others = sum(1 for u in state["units"].values() if u["legion"] != lone)
        if others < LONE_LIMIT:
            winners.append(state["legions"][lone]["team"])
            reasons.append((Said("the other legions have no legionary left") if others == 0
                            else Said("the other legions have only 1 legionary left")
                            if others == 1 else
                            Said("the other legions have only {num} legionaries left",
                                 num=others)).stored())
    if not winners and len(living) == 1 and len(teams) > 1:
        winners = sorted(living)
        reasons.append(Said("every other team is out").stored())
    turn.emit(public("turn_ended", turn=state["turn"]))
    if winners:
        turn.emit(public("game_decided", winners=sorted(set(winners)), reason=reasons))
    elif not living:
        turn.emit(public("game_decided", winners=[],
                         reason=Said("no legionary is left standing").stored()))
    elif state["max_turns"] and state["turn"] > state["max_turns"]:
        turn.emit(public("game_decided", winners=[], reason=Said(
            "the {num}-turn limit was reached", num=state["max_turns"]).stored()))


def outcome(state) -> dict | None:
    """Who won, once the game is decided."""
    result = state["result"]
    if not result:
        return None
    seats = sorted({legion["seat"] for legion in state["legions"].values()
                    if legion["team"] in result["winners"]})
    remaining = {colour: alive(state, colour) for colour in state["legions"]}
    return {"winners": seats, "teams": result["winners"], "reason": result["reason"],
            "scores": remaining}
