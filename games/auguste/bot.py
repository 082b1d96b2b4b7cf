"""A simple Auguste player, for demos and tests: legal orders, drawn from the phase's dice."""

from pbem.adjudicator import hexgrid

from .orders import check_order, legal_moves
from .state import alive, board_of, in_contact, seat_legions


def home_goal(state, colour):
    """The axial position of a legion's own corner."""
    board = board_of(state)
    return board.cells[board.corner_cell(state["legions"][colour]["corner"])]


def laurel_order(state, seat, colour, rng) -> dict | None:
    """Push the crown one cell toward home, if a free cell brings it closer."""
    board = board_of(state)
    here = state["laurel"]
    goal = home_goal(state, colour)
    options = [n for n in board.neighbours[here]
               if check_order(state, seat, colour, {"kind": "laurel", "to": n}) is None
               and n not in state["units"] and n not in state["walls"]]
    closer = [n for n in options if hexgrid.distance(board.cells[n], goal)
              < hexgrid.distance(board.cells[here], goal)]
    return {"kind": "laurel", "to": rng.choice(closer)} if closer else None


def pick_move(state, seat, colour, rng) -> dict | None:
    """Mostly a move toward the laurel crown, sometimes any legal move."""
    moves = legal_moves(state, seat, colour)
    if not moves:
        return None
    board = board_of(state)
    target = board.cells[state["laurel"]]
    if rng.below(4):
        best = min(hexgrid.distance(board.cells[m["to"]], target) for m in moves)
        moves = [m for m in moves if hexgrid.distance(board.cells[m["to"]], target) == best]
    return rng.choice(moves)


def order_text(colour, order) -> str:
    """An order as a player would write it."""
    if order is None or order["kind"] == "pass":
        return f"{colour}: pass"
    if order["kind"] == "laurel":
        return f"{colour}: laurel {order['to']}"
    volcano = " volcano" if order.get("volcano") else ""
    return f"{colour}: move {order['from']} {order['to']}{volcano}"


def bot_orders(state, seat, rng) -> str:
    """A mail body of legal orders for every living legion of the seat."""
    if state["trumps"] and state["stage"] == "orders" and seat in state["cards"]["seer"] \
            and rng.below(25) == 0:
        return "seer"
    lines, card_used = [], state["stage"] == "seer"
    for colour in seat_legions(state, seat):
        if not alive(state, colour):
            continue
        order = laurel_order(state, seat, colour, rng) if in_contact(state, colour) \
            and rng.below(3) else None
        order = order or pick_move(state, seat, colour, rng)
        team = state["legions"][colour]["team"]
        if order and order["kind"] == "move" and state["trumps"] and not card_used \
                and team in state["cards"]["volcano"] and rng.below(12) == 0:
            order = {**order, "volcano": True}
            card_used = True
        lines.append(order_text(colour, order))
    return "\n".join(lines) + "\n"
