"""What players see of an Auguste game: views, the text map, the SVG data, narration."""

from functools import lru_cache
import textwrap

from pbem.adjudicator import hexgrid
from pbem.i18n import _, said
from pbem.raster import frame_of

from .orders import card_title, colour_name, examples, say
from .state import LONE_LIMIT, alive, board_of, seat_legions
from .teams import COLOURS

INITIAL = {"red": "R", "orange": "O", "yellow": "Y", "green": "G", "blue": "B", "purple": "P"}
FILL = {"red": "#d62828", "orange": "#f77f00", "yellow": "#e9c46a", "green": "#2a9d8f",
        "blue": "#1d4ed8", "purple": "#7b2cbf"}
HEX_SIZE = 17
TEXT_WIDTH = 78
PIXELS = 640  # the board's natural width in mails; it shrinks to fit a phone
AT_REST = {"unit": False, "unit_shield": False, "fill": None, "laurel": False,
           "shield": False}  # a cell as the ground shows it: empty


def view(state, seat=None) -> dict:
    """The board and the game as a seat (or the public, seat=None) may see them.

    Auguste has no hidden information on the board; only the orders held while
    seers think are secret, and they never appear here.
    """
    board = board_of(state)
    cells = [{"name": name, "q": q, "r": r, "unit": None, "shield": False, "laurel": False,
              "wall": False, "goal": goal, "camp": camp}
             for name, q, r, goal, camp in cells_at_rest(board)]
    at = cell_numbers(board)
    for name, unit in state["units"].items():
        cells[at[name]]["unit"] = dict(unit)
    for name in state["shields"]:
        cells[at[name]]["shield"] = True
    for name in (*state["walls"], *board.blocked):
        if name in at:
            cells[at[name]]["wall"] = True
    if state["laurel"] in at:
        cells[at[state["laurel"]]]["laurel"] = True
    legions = {c: {**legion, "alive": alive(state, c), "name": colour_name(c)}
               for c, legion in state["legions"].items()}
    teams = {}
    for colour, legion in legions.items():
        team = teams.setdefault(legion["team"], {"legions": [], "alive": 0})
        team["legions"].append(colour)
        team["alive"] += legion["alive"]
    for name, team in teams.items():
        team["out"] = name in state["out"]
    out = {
        "game": "auguste",
        "board": board.name,
        "radius": board.radius,
        "turn": state["turn"],
        "stage": state["stage"],
        "laurel": state["laurel"],
        "cells": cells,
        "legions": legions,
        "teams": teams,
        "lone": state["lone"],
        "trumps": state["trumps"],
        "cards": state["cards"] if state["trumps"] else None,
        "seers": list(state["seers"]),
        "result": state["result"],
    }
    if seat is not None:
        out["you"] = {"seat": seat, "legions": seat_legions(state, seat),
                      "examples": examples(state, seat)}
    return out


@lru_cache(maxsize=16)
def cells_at_rest(board) -> tuple:
    """(name, q, r, goal, camp) of each cell of a board, in order: what a view's cells hold
    before units, shields, walls and the laurel are put on them."""
    return tuple((name, q, r, board.goal_owner.get(name), board.camp_of.get(name))
                 for name, (q, r) in board.cells.items())


@lru_cache(maxsize=16)
def cell_numbers(board) -> dict:
    """{name: its place in a view's cells} of a board."""
    return {name: number for number, name in enumerate(board.cells)}


def briefing(state, seat) -> dict:
    """What a seat must know to play, for its welcome: how to win, its goals, its allies.

    {"text": a short paragraph in the current language, "allies": [seat names]}.
    """
    board = board_of(state)
    mine = seat_legions(state, seat)
    teams = sorted({state["legions"][c]["team"] for c in mine})
    corners = {legion["corner"] for legion in state["legions"].values()
               if legion["team"] in teams}
    goals = sorted(cell for cell, corner in board.goal_owner.items() if corner in corners)
    allies = sorted({legion["seat"] for legion in state["legions"].values()
                     if legion["team"] in teams and legion["seat"] != seat})
    lines = [
        _("How to win: bring the laurel crown (now on {laurel}) onto a goal cell of your "
          "team's camps: {goals}.").format(laurel=state["laurel"], goals=", ".join(goals)),
        _("Each turn each of your legions moves one legionary to a free cell next to its "
          "group, or pushes the crown one cell if it stands next to it, or passes."),
        _("Legionaries die when two move onto the same cell; in a pincer, when a straight "
          "line of one team has an enemy at each end (next to it, or one empty cell away); "
          "and in frontal combat, where of two neighbouring enemies the one with fewer "
          "allies in a row behind it (a shield counts 2) dies."),
    ]
    if state["lone"] in mine:
        lines.append(_("Your {colour} legion also wins alone when the other legions have fewer "
                       "than {num} legionaries left.").format(colour=colour_name(state["lone"]),
                                                               num=LONE_LIMIT))
    if state["trumps"]:
        lines.append(_("Trump cards are in play: send HELP for SEER, WALL, RIDER and VOLCANO."))
    return {"text": "\n".join(lines), "allies": allies}


def cell_mark(cell: dict) -> str:
    """What stands on a cell, in at most three characters."""
    if cell["unit"]:
        letter = INITIAL[cell["unit"]["legion"]]
        return letter + "+" if cell["unit"]["shield"] else letter
    if cell["laurel"]:
        return "@"
    if cell["wall"]:
        return "###"
    if cell["shield"]:
        return "+"
    if cell["goal"] is not None:
        return "*"
    return "."


def board_text(view) -> str:
    """The board as a compact monospace hex map, within 78 columns on every board.

    Each hex row is two lines, the cells' names and below each what stands on
    it; rows are offset by half a cell, as the hexes are. A legend follows.
    """
    rows = {}
    for cell in view["cells"]:
        rows.setdefault(cell["r"], []).append(cell)
    lines = []
    for r in sorted(rows):
        row = sorted(rows[r], key=lambda c: c["q"])
        indent = " " * (2 * abs(r))
        lines.append(indent + " ".join(c["name"] for c in row))
        lines.append(indent + " ".join(cell_mark(c).center(3) for c in row))
    legend = ", ".join(f"{INITIAL[c]} {colour_name(c)}" for c in COLOURS if c in view["legions"])
    lines += ["", textwrap.fill(_("Legions: {legend}. X+ carries a shield; + shield on the "
                                  "ground; @ laurel crown; * goal cell; ### wall.").format(
                                      legend=legend), TEXT_WIDTH)]
    return "\n".join(line.rstrip() for line in lines)


@lru_cache(maxsize=None)
def geometry(q: int, r: int) -> tuple:
    """Centre and outline of a cell on the SVG map (the same for every board)."""
    x, y = hexgrid.pixel((q, r), HEX_SIZE)
    return round(x, 1), round(y, 1), hexgrid.polygon((q, r), HEX_SIZE)


def svg_context(view) -> dict:
    """Geometry and colours for board.svg.j2: each cell as cell.svg.j2 draws it."""
    size = HEX_SIZE
    cells = []
    centres = [geometry(cell["q"], cell["r"])[:2] for cell in view["cells"]]
    xs, ys = [x for x, _y in centres], [y for _x, y in centres]
    pad = size * 1.2
    wide, high = max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad
    view_box = f"{min(xs) - pad:.0f} {min(ys) - pad:.0f} {wide:.0f} {high:.0f}"
    pixels_high = round(PIXELS * high / wide)
    frame = frame_of({"viewBox": view_box, "width": str(PIXELS), "height": str(pixels_high)})
    for cell in view["cells"]:
        x, y, points = geometry(cell["q"], cell["r"])
        unit = cell["unit"]
        at_pixel = frame.snapped(x, y)  # a legionary or a shield is drawn once for all cells
        cells.append({"name": cell["name"], "x": x, "y": y, "points": points,
                      "px": at_pixel[0], "py": at_pixel[1],
                      "wall": cell["wall"], "goal": cell["goal"], "shield": cell["shield"],
                      "laurel": cell["laurel"], "unit": unit is not None,
                      "unit_shield": bool(unit and unit["shield"]),
                      "fill": FILL.get(unit["legion"]) if unit else None,
                      "camp_fill": camp_fill(view, cell["camp"])})
    return {
        "cells": cells,
        "at_rest": AT_REST,
        "size": size,
        "view_box": view_box,
        "pixels": PIXELS,
        "pixels_high": pixels_high,
        "title": _("Auguste, turn {turn}").format(turn=view["turn"]),
    }


def own_area(view) -> list:
    """Where the viewing seat's legions stand (their camps, when none does), in the board's
    SVG units: what its close-up shows."""
    mine = set(view.get("you", {}).get("legions", ()))
    cells = [c for c in view["cells"] if c["unit"] and c["unit"]["legion"] in mine]
    if not cells:
        corners = {view["legions"][colour]["corner"] for colour in mine}
        cells = [c for c in view["cells"] if c["camp"] is not None and c["camp"] in corners]
    return [geometry(c["q"], c["r"])[:2] for c in cells]


def camp_fill(view, corner) -> str | None:
    """The pale colour of the legion whose camp this corner is."""
    for colour, legion in view["legions"].items():
        if legion["corner"] == corner:
            return FILL[colour]
    return None


def victims_text(victims) -> str:
    """'red on BAK, blue on DOR'."""
    return ", ".join(_("{colour} on {cell}").format(colour=colour_name(v["legion"]),
                                                     cell=v["cell"])
                     for v in victims) or _("nobody")


def narrate(event, state=None) -> str | None:
    """One event as a sentence for a report, in the current language; None for the others
    (the game's state names nothing an event does not)."""
    p = event.payload
    t = event.type
    if t == "moved":
        legion = colour_name(p["legion"])
        if p.get("via") and p["shield"]:
            return _("{legion}: a legionary rode from {start} via {via} to {to} and took the "
                     "shield").format(legion=legion, start=p["from"], via=p["via"], to=p["to"])
        if p.get("via"):
            return _("{legion}: a legionary rode from {start} via {via} to {to}").format(
                legion=legion, start=p["from"], via=p["via"], to=p["to"])
        if p["shield"]:
            return _("{legion}: a legionary moved from {start} to {to} and took the "
                     "shield").format(legion=legion, start=p["from"], to=p["to"])
        return _("{legion}: a legionary moved from {start} to {to}").format(
            legion=legion, start=p["from"], to=p["to"])
    if t == "collided":
        who = ", ".join(_("{colour} from {cell}").format(colour=colour_name(v["legion"]),
                                                         cell=v["from"]) for v in p["victims"])
        if p["shield_destroyed"]:
            return _("collision on {cell}: {who} all died; the shield there was "
                     "destroyed").format(cell=p["cell"], who=who)
        return _("collision on {cell}: {who} all died").format(cell=p["cell"], who=who)
    if t == "passed":
        return _("{seat} passed ({legions})").format(
            seat=p["seat"], legions=", ".join(map(colour_name, p["legions"])))
    if t == "order_void":
        return _("{legion}: the order did not count ({reason}), so it passed").format(
            legion=colour_name(p["legion"]), reason=said(p["reason"]))
    if t == "card_played":
        if p["team"]:
            return _("team {team} played {card}").format(team=p["team"],
                                                         card=card_title(p["card"]))
        return _("{seat} played {card}").format(seat=p["seat"], card=card_title(p["card"]))
    if t == "card_clash":
        return _("team {team} played {card} twice at once ({legions}): both orders failed "
                 "and the card is kept").format(team=p["team"], card=card_title(p["card"]),
                                                legions=", ".join(map(colour_name,
                                                                      p["legions"])))
    if t == "walls_built":
        return _("{legion} built a wall on {first} and {second}").format(
            legion=colour_name(p["legion"]), first=p["cells"][0], second=p["cells"][-1])
    if t == "seer_called":
        return _("SEER: {seats} will see the other orders and answer next").format(
            seats=", ".join(p["seers"]))
    if t == "seer_sight":
        seen = "; ".join(_("{seat}: {orders}").format(seat=seat, orders=", ".join(
            _("{colour}: {order}").format(colour=colour_name(colour), order=say(order))
            for colour, order in sorted(legions.items())) or _("no order"))
            for seat, legions in p["orders"].items())
        return _("what you saw as a seer: {seen}").format(seen=seen or _("no other orders"))
    if t == "laurel_moved":
        return _("{legion} moved the laurel crown from {start} to {to}").format(
            legion=colour_name(p["legion"]), start=p["from"], to=p["to"])
    if t == "laurel_stayed":
        return _("the laurel crown stayed on {cell}: {reason}").format(
            cell=p["at"], reason=said(p["reason"]))
    if t == "erupted":
        return _("VOLCANO on {cell} ({legion}): killed {victims}").format(
            cell=p["cell"], legion=colour_name(p["legion"]), victims=victims_text(p["victims"]))
    if t == "pincered":
        lines = _("; ").join(_("{cells} between {first} and {second}").format(
            cells="-".join(line["cells"]), first=line["ends"][0], second=line["ends"][1])
            for line in p["lines"])
        return _("pincer: {lines}. Died: {victims}").format(lines=lines,
                                                             victims=victims_text(p["victims"]))
    if t == "fought":
        fights = _("; ").join(_("{first} ({one}) against {second} ({two})").format(
            first=f["a"], one=f["strength_a"], second=f["b"], two=f["strength_b"])
            for f in p["fights"])
        return _("frontal combat: {fights}. Died: {victims}").format(
            fights=fights, victims=victims_text(p["victims"])) + " " + _(
                "(In brackets, each legionary's strength: 1, or 2 with a shield, plus 1 "
                "for each ally in a straight line behind it.)")
    if t == "team_out":
        return _("team {team} is out: no legionary left").format(team=p["team"])
    if t == "game_decided":
        if p["winners"]:
            return _("team {teams} won: {reason}").format(
                teams=_(" and ").join(p["winners"]), reason=said(p["reason"]))
        return _("the game is drawn: {reason}").format(reason=said(p["reason"]))
    if t == "turn_ended":
        return _("end of turn {turn}").format(turn=p["turn"])
    if t == "setup":
        legions = p["state"]["legions"]
        return _("legions: {legions}").format(legions=", ".join(
            _("{colour} (team {team}, {seat})").format(colour=colour_name(c), team=l["team"],
                                                       seat=l["seat"])
            for c, l in legions.items()))
    return None
