"""The map of Europe, drawn: what board.svg.j2 and its fragments draw.

The ground, drawn once per game, is the map's shapes (shapes.toml, beside
map.toml): the seas in blue, each power's home country in a pale tint of its
colour, the neutral lands in sand, impassable land in grey; the supply
centres as white squares, the provinces' names, the coasts of the provinces
with two, and the legend in the North Atlantic. Names and letters are drawn
unsmoothed (text-rendering="optimizeSpeed"): crisp at 10 pixels, and the
ground keeps to fewer colours than a palette holds (see pbem/raster.py).

The pieces are what a position changes: each owned centre, a square in its
owner's colour bearing the owner's letter; each unit, a badge in its power's
colour bearing the power's letter (a disc for an army, a hull for a fleet);
a dislodged unit beside its province, ringed in dashes. The phases resolved
last (the view's "resolved") are drawn over them as webDiplomacy draws them:
a move is an arrow from where the unit stood (crossed out when it failed), a
support a dashed line to the middle of the move it supports (or to a dashed
ring around the unit it keeps in place; crossed out when cut), a convoyed
army's arrow runs through its fleets, a retreat is an arrow from beside the
province, a unit disbanded or removed is its outline crossed out, and a unit
built is ringed. Every colour goes with a letter or a shape, so no one need
tell the hues apart.
"""

from functools import lru_cache
import math
import tomllib

from pbem.i18n import _, ngettext
from pbem.raster import fitted, text_width

from .board import board, province_of
from .position import place_of
from .present import PHASES, when_words, who
from .rules import SEASONS

COLOURS = {"austria": "#c0392b", "england": "#1f3a93", "france": "#2474c7",
           "germany": "#555555", "italy": "#1e8449", "russia": "#8e44ad", "turkey": "#d4a017"}
TINTS = {"austria": "#efd2cc", "england": "#d3d6e8", "france": "#d2e0f0",
         "germany": "#dcdad5", "italy": "#d2e6d0", "russia": "#e4d5ea", "turkey": "#f3e4b5"}
INK = {"turkey": "#222222"}  # a badge's letter: white, but on Turkey's yellow
NEUTRAL, SEA, IMPASSABLE = "#f1e9d2", "#b7d2ea", "#cdc8bd"
PIXELS = 1000
LEGEND = (8, 168, 236)  # the legend's left, top and right, in the open Atlantic
MARGIN = 8
ROW = 17  # a legend row's height
ROW_TEXT = 12  # a legend row's font size
OFFSET = (11, 10)  # where a dislodged unit stands, from its province's unit
BADGE = 10  # an arrow stops this far from a unit's middle
SIDE = 2.5  # arrows between the same two places, one each way, stand apart by twice this
SHAFT, HEAD = 3.4, 9  # an arrow's width and its head's length
RING = 13  # the radius of the ring around a unit supported in place


@lru_cache(maxsize=4)
def shapes(name: str = "standard") -> dict:
    """The drawing of a map (its folder's shapes.toml), read once per process."""
    folder = board(name).folder
    return tomllib.loads((folder / "shapes.toml").read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def ground() -> dict:
    """What the ground draws, the same for every position: seas, lands, names, coasts."""
    the_board, drawn = board(), shapes()
    country = {p: power.key for power in the_board.powers.values() for p in power.country}
    seas, lands, names, coasts = [], [], [], []
    for key, province in the_board.provinces.items():
        row = drawn["provinces"][key]
        if province.kind == "sea":
            seas.append({"path": row["path"]})
        else:
            lands.append({"path": row["path"],
                          "fill": TINTS[country[key]] if key in country else NEUTRAL})
        x, y = row["label"]
        names.append({"key": key, "x": x, "y": y, "sea": province.kind == "sea",
                      "centre": tuple(row["centre"]) if province.centre else None})
        for coast, (cx, cy) in sorted(row.get("coasts", {}).items()):
            coasts.append({"label": coast.lower(), "x": cx, "y": cy})
    return {"seas": tuple(seas), "lands": tuple(lands), "names": tuple(names),
            "coasts": tuple(coasts), "scenery": drawn["scenery"]}


@lru_cache(maxsize=1)
def spots() -> dict:
    """{place: (x, y)} where a unit stands on each province and each coast, in whole
    units (a badge drawn once serves everywhere: see pbem/raster.py)."""
    out = {}
    for key, row in shapes()["provinces"].items():
        out[key] = tuple(round(v) for v in row["unit"])
        for coast, xy in row.get("coasts", {}).items():
            out[f"{key}/{coast}"] = tuple(round(v) for v in xy)
    return out


def spot(place: str) -> tuple:
    """Where a unit at this place stands (a fleet on a coast named or not)."""
    found = spots()
    return found.get(place) or found[province_of(place)]


def beside(place: str) -> tuple:
    """Where a dislodged unit of this place stands: beside its province's unit."""
    x, y = spot(place)
    return x + OFFSET[0], y + OFFSET[1]


def badge(power: str, unit: str, xy: tuple, ring: str | None = None) -> dict:
    """A unit's badge: its type, its power's colour and letter; ring: "dislodged" (dashed),
    "new" (built this winter) or "gone" (its outline, crossed out)."""
    return {"x": xy[0], "y": xy[1], "unit": unit, "fill": COLOURS[power],
            "letter": board().powers[power].letter, "ink": INK.get(power, "#ffffff"),
            "ring": ring}


def svg_context(view: dict) -> dict:
    """The map of a view: its ground, then the owned centres, the units, the orders of the
    phases resolved last, and the legend."""
    the_board, drawn = board(), shapes()
    centres = [{"x": round(x), "y": round(y), "fill": COLOURS[owner],
                "letter": the_board.powers[owner].letter, "ink": INK.get(owner, "#ffffff")}
               for key, owner in sorted(view["centres"].items())
               for x, y in [drawn["provinces"][key]["centre"]]]
    units = [badge(u["power"], u["type"], spot(place_of(p, u)))
             for p, u in sorted(view["units"].items())]
    units += [badge(u["power"], u["type"], beside(place_of(p, u)), "dislodged")
              for p, u in sorted(view["dislodged"].items())]
    marks, orders = orders_drawn(view.get("resolved"))
    width, height = drawn["board"]["width"], drawn["board"]["height"]
    return {"width": width, "height": height, "pixels": PIXELS,
            "pixels_high": round(PIXELS * height / width), **ground(),
            "sea": SEA, "impassable": IMPASSABLE,
            "centres": centres, "units": units + marks, "orders": orders,
            "legend": legend(view), "box": legend_box(), "heading": heading(view),
            "title": _("Diplomacy, {when}").format(when=when_words(view["when"]))}


def orders_drawn(resolved: dict | None) -> tuple[list, list]:
    """The marks (units gone, units built) and the lines of the orders resolved last."""
    if not resolved:
        return [], []
    results = resolved["results"]
    marks, lines = [], []
    moves = {province_of(r["order"]["at"]): r["order"] for r in results
             if r["order"]["type"] == "move"}
    for result in results:
        order, power = result["order"], result["power"]
        kind, failed = order["type"], result["result"] != "succeeded"
        if kind == "move":
            lines.append(arrow(power, [spot(order["at"]), *convoy(order, results),
                                       spot(order["to"])], failed))
        elif kind == "support":
            lines.append(support(power, order, moves, result["result"] in ("cut", "void",
                                                                           "dislodged")))
        elif kind == "retreat":
            lines.append(arrow(power, [beside(order["at"]), spot(order["to"])], failed))
            if failed:
                marks.append(badge(power, order["unit"], beside(order["at"]), "gone"))
        elif kind == "disband":
            marks.append(badge(power, order["unit"], beside(order["at"]), "gone"))
        elif kind == "remove":
            marks.append(badge(power, order["unit"], spot(order["at"]), "gone"))
        elif kind == "build":
            marks.append(badge(power, order["unit"], spot(order["at"]), "new"))
    return marks, lines


def convoy(order: dict, results: list) -> list:
    """The spots of the fleets that convoyed this army, from its province to where it goes
    (none for a move over land)."""
    start, end = province_of(order["at"]), province_of(order["to"])
    fleets = [province_of(r["order"]["at"]) for r in results
              if r["order"]["type"] == "convoy" and province_of(r["order"]["of"]) == start
              and province_of(r["order"]["to"]) == end]
    if not fleets or end in board().neighbours[start] and not order.get("via"):
        return []
    chain, here = [], start
    while fleets:
        near = [f for f in fleets if f in board().neighbours[here]]
        if not near:
            break
        here = min(near, key=lambda f: (end not in board().neighbours[f], f))
        fleets.remove(here)
        chain.append(spot(here))
        if end in board().neighbours[here]:
            break
    return chain


def support(power: str, order: dict, moves: dict, failed: bool) -> dict:
    """A support: a dashed line to the middle of the move it supports, or to a ring around
    the unit it keeps in place; crossed out in its middle when it was cut or void."""
    start = spot(order["at"])
    helped = moves.get(province_of(order["of"]))
    if order.get("to") and helped is not None:
        (x1, y1), (x2, y2) = apart(spot(helped["at"]), spot(helped["to"]))
        end, ring = ((x1 + x2) / 2, (y1 + y2) / 2), None
    else:
        end = ring = spot(order["of"])
    first = along(start, end, BADGE)
    last = along(end, start, RING) if ring else end
    return {"kind": "support", "d": f"M{n(first[0])},{n(first[1])} L{n(last[0])},{n(last[1])}",
            "colour": COLOURS[power], "ring": ring,
            "cross": middle_of((first, last)) if failed else None}


def along(start: tuple, end: tuple, length: float) -> tuple:
    """The point `length` units from start towards end."""
    size = math.dist(start, end) or 1
    return (start[0] + (end[0] - start[0]) * length / size,
            start[1] + (end[1] - start[1]) * length / size)


def apart(start: tuple, end: tuple) -> tuple:
    """A line moved SIDE units to its right: two moves between the same places, one each
    way, do not hide each other."""
    (x1, y1), (x2, y2) = start, end
    length = math.dist(start, end) or 1
    dx, dy = -(y2 - y1) / length * SIDE, (x2 - x1) / length * SIDE
    return (x1 + dx, y1 + dy), (x2 + dx, y2 + dy)


def arrow(power: str, points: list, failed: bool) -> dict:
    """A move or a retreat: one shape, a shaft through the points (a convoy's fleets) from
    the edge of the unit that moved to an arrowhead at the edge of where it went; crossed
    out near its head when it failed."""
    points = [*points[:-2], *apart(points[-2], points[-1])]
    points[0] = along(points[0], points[1], BADGE)
    tip = along(points[-1], points[-2], BADGE)
    base = points[-1] = along(tip, points[-2], HEAD)
    shaft = [quad(a, b) for a, b in zip(points, points[1:])]
    ux, uy = ((tip[0] - base[0]) / HEAD, (tip[1] - base[1]) / HEAD)
    head = [tip, (base[0] - uy * 5, base[1] + ux * 5), (base[0] + uy * 5, base[1] - ux * 5)]
    d = "".join(shaft) + "M" + " ".join(f"{n(x)},{n(y)}" for x, y in head) + "Z"
    cross = along(tip, base, 16) if failed else None
    return {"kind": "move", "d": d, "colour": COLOURS[power], "ring": None,
            "cross": (n(cross[0]), n(cross[1])) if cross else None}


def quad(start: tuple, end: tuple) -> str:
    """A shaft's stretch between two points, as a closed outline SHAFT units wide."""
    (x1, y1), (x2, y2) = start, end
    length = math.dist(start, end) or 1
    dx, dy = -(y2 - y1) / length * SHAFT / 2, (x2 - x1) / length * SHAFT / 2
    corners = [(x1 + dx, y1 + dy), (x2 + dx, y2 + dy), (x2 - dx, y2 - dy), (x1 - dx, y1 - dy)]
    return "M" + " ".join(f"{n(x)},{n(y)}" for x, y in corners) + "Z"


def middle_of(points: tuple) -> tuple:
    """The middle of a line."""
    (x1, y1), (x2, y2) = points
    return n((x1 + x2) / 2), n((y1 + y2) / 2)


def n(value: float) -> float:
    """A coordinate as drawn: to a tenth of a unit."""
    return round(value, 1)


def heading(view: dict) -> dict:
    """The legend's heading: the phase at the left and the year at the right (each drawn
    again only when it changes), and the phases whose orders are drawn under it, word
    by word (see `words`)."""
    when = view["when"]
    season, phase = SEASONS[when["season"]], PHASES[when["phase"]]
    left, top, right = LEGEND
    resolved = view.get("resolved") or {"phases": []}
    shown = _("; ").join(when_words(p) for p in resolved["phases"])
    line = fitted(_("Arrows: {phases}").format(phases=shown), 10,
                  right - left - 2 * MARGIN) if shown else ""
    return {"x": left + MARGIN, "right": right - MARGIN, "y": top + 20,
            "phase": _("{season}, {phase}").format(season=_(season), phase=_(phase)),
            "year": when["year"], "shown": words(line, left + MARGIN, 10)}


def words(line: str, x: float, size: float) -> tuple:
    """A line of text starting at x, cut at its spaces: (where the whole line draws the
    word, to the nearest whole unit, which is a whole pixel on the board; the word) for
    each word. Drawn each as a text of its own, a line that changes at each position
    draws only its new words: 'Fall' after 'Arrows: Spring 1901, movement' (see
    pbem/raster.py). A word moves by half a pixel at most: the line looks the same."""
    found, at = [], 0
    for word in line.split(" "):
        if word:
            found.append((round(x + text_width(line[:at], size)), word))
        at += len(word) + 1
    return tuple(found)


def legend(view: dict) -> list:
    """A row for each power: its colour, letter and player (on the ground: they do not
    change), and its centres counted at the right (a piece drawn over the ground, word
    by word: see `words`)."""
    rows = []
    left, top, right = LEGEND
    x, right = left + MARGIN, right - MARGIN
    for rank, power in enumerate(view["powers"]):
        count = ngettext("{num} centre", "{num} centres",
                         len(power["centres"])).format(num=len(power["centres"]))
        room = right - text_width(count, ROW_TEXT) - MARGIN - (x + 20)
        rows.append({"x": x, "y": top + 56 + ROW * rank, "right": right,
                     "fill": COLOURS[power["key"]], "ink": INK.get(power["key"], "#ffffff"),
                     "letter": board().powers[power["key"]].letter,
                     "count": words(count, right - text_width(count, ROW_TEXT), ROW_TEXT),
                     "name": fitted(who(power["key"], power["seat"]), ROW_TEXT, room)})
    return rows


def legend_box() -> dict:
    """The legend's frame."""
    left, top, right = LEGEND
    return {"x": left, "y": top, "width": right - left, "height": 56 + ROW * 7}


def own_area(view: dict) -> list:
    """Where the viewing seat's units stand (its powers' home centres when it has none), in
    the board's SVG units: what its close-up shows; nothing for the public view."""
    mine = set(view.get("you", {}).get("powers", ()))
    found = [spot(place_of(p, u)) for p, u in sorted(view["units"].items())
             if u["power"] in mine]
    return found or [spot(p) for power in sorted(mine) for p in board().powers[power].home]
