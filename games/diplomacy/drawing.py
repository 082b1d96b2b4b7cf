"""The schematic map, drawn from map.toml: what board.svg.j2 and its fragments draw.

Each province is a node at its place: a blue circle for a sea, a sand
square for land (rimmed in blue when it has a coast), its name at the top.
Lines join neighbours: sand for a border armies cross, blue dashes for one
only fleets sail. A supply centre has a dot on its rim, in its owner's
colour (white while nobody owns it), and an owned centre is framed inside
in that colour. A unit is a badge in its power's colour under the name: a
disc for an army, a boat for a fleet; a fleet on one coast of Spain, St
Petersburg or Bulgaria stands on that coast's small circle, labelled nc, sc
or ec. In a retreat phase the units dislodged are drawn beside their
province, ringed in red. The legend, at the top right where no border
runs, names the phase and the year, and each power's colour, player and
centres.

Only the marks (frames, dots, badges), the phase, the year and the counts
of centres are pieces drawn over the ground: the names never move, so a
new position draws no name again (see pbem/raster.py).
"""

from functools import lru_cache

from pbem.i18n import _, ngettext
from pbem.raster import fitted, text_width

from .board import board, coast_of, province_of
from .position import place_of
from .present import PHASES, when_words, who
from .rules import SEASONS

COLOURS = {"austria": "#c0392b", "england": "#1f3a93", "france": "#3498db",
           "germany": "#4d4d4d", "italy": "#27ae60", "russia": "#8e44ad", "turkey": "#d4a017"}
INK = {"turkey": "#222222"}  # the letter on a badge: white, but on Turkey's yellow
PIXELS = 1000
AT_REST = {"dot": "#ffffff", "rim": None, "unit": None, "fill": None, "ink": None}
LEGEND = (722, 992)  # the legend's left and right: the board's top right holds no border
MARGIN = 8
HEADING, ROWS, ROW = 26, 48, 17  # the heading's baseline, the first row's, a row's height
ROW_TEXT = 12  # a legend row's font size


@lru_cache(maxsize=1)
def links() -> tuple:
    """Every border once, as a line between the two places: by land or by sea."""
    the_board = board()
    place = coordinates()
    land = {tuple(sorted((a, b))) for a, near in the_board.army.items() for b in near}
    lines = [{"x1": place[a][0], "y1": place[a][1], "x2": place[b][0], "y2": place[b][1],
              "sea": False} for a, b in sorted(land)]
    sea = set()
    for start, near in the_board.fleet.items():
        for end in near:
            pair = tuple(sorted((province_of(start), province_of(end))))
            if pair not in land:
                sea.add(tuple(sorted((start, end))))
    lines += [{"x1": place[a][0], "y1": place[a][1], "x2": place[b][0], "y2": place[b][1],
               "sea": True} for a, b in sorted(sea)]
    return tuple(lines)


@lru_cache(maxsize=1)
def coordinates() -> dict:
    """{province or coast place: (x, y)} on the schematic board."""
    the_board = board()
    out = {key: tuple(p.place) for key, p in the_board.provinces.items()}
    out.update({place: tuple(xy) for place, xy in the_board.coast_places.items()})
    return out


def badge(unit: dict | None) -> dict:
    """A unit's badge fields: its letter and colours (none without a unit)."""
    if unit is None:
        return {"unit": None, "fill": None, "ink": None}
    return {"unit": unit["type"], "fill": COLOURS[unit["power"]],
            "ink": INK.get(unit["power"], "#ffffff")}


def svg_context(view: dict) -> dict:
    """The map of a view: provinces, coasts, borders, dislodged units, the legend."""
    the_board = board()
    place = coordinates()
    provinces, coasts = [], []
    for key, province in the_board.provinces.items():
        unit = view["units"].get(key)
        owner = view["centres"].get(key)
        on_coast = unit is not None and coast_of(place_of(key, unit)) is not None
        x, y = province.place
        owned = owner if province.centre else None
        provinces.append({"key": key, "x": x, "y": y, "kind": province.kind,
                          "centre": province.centre,
                          "dot": COLOURS[owned] if owned else "#ffffff",
                          "rim": COLOURS[owned] if owned else None,
                          **badge(None if on_coast else unit)})
        for coast in province.coasts:
            spot = f"{key}/{coast}"
            cx, cy = place[spot]
            coasts.append({"label": coast.lower(), "x": cx, "y": cy, "px": x, "py": y,
                           "dot": "#ffffff", "rim": None,
                           **badge(unit if on_coast and unit.get("coast") == coast else None)})
    dislodged = [{"x": the_board.provinces[key].place[0] - 15,
                  "y": the_board.provinces[key].place[1] + 14, **badge(unit)}
                 for key, unit in sorted(view["dislodged"].items())]
    return {"width": the_board.width, "height": the_board.height, "pixels": PIXELS,
            "at_rest": AT_REST,
            "pixels_high": round(PIXELS * the_board.height / the_board.width),
            "links": links(), "provinces": provinces, "coasts": coasts,
            "dislodged": dislodged, "legend": legend(view), "heading": heading(view["when"]),
            "title": _("Diplomacy, {when}").format(when=when_words(view["when"]))}


def heading(when: dict) -> dict:
    """The legend's heading: the season and phase at the left, the year at the right (each
    drawn again only when it changes)."""
    season, phase = SEASONS[when["season"]], PHASES[when["phase"]]
    return {"x": LEGEND[0] + MARGIN, "right": LEGEND[1] - MARGIN, "y": HEADING,
            "phase": _("{season}, {phase}").format(season=_(season), phase=_(phase)),
            "year": when["year"]}


def legend(view: dict) -> list:
    """A row for each power: its colour and player (on the ground: they do not change), and
    its centres counted at the right (a piece: drawn over the ground)."""
    rows = []
    x, right = LEGEND[0] + MARGIN, LEGEND[1] - MARGIN
    for rank, power in enumerate(view["powers"]):
        count = ngettext("{num} centre", "{num} centres",
                         len(power["centres"])).format(num=len(power["centres"]))
        room = right - text_width(count, ROW_TEXT) - MARGIN - (x + 18)
        rows.append({"x": x, "y": ROWS + ROW * rank, "right": right,
                     "fill": COLOURS[power["key"]], "count": count,
                     "name": fitted(who(power["key"], power["seat"]), ROW_TEXT, room)})
    return rows


def own_area(view: dict) -> list:
    """Where the viewing seat's units stand (its powers' home centres when it has none), in
    the board's SVG units: what its close-up shows; nothing for the public view."""
    mine = set(view.get("you", {}).get("powers", ()))
    place = coordinates()
    spots = [place[place_of(p, u)] for p, u in sorted(view["units"].items())
             if u["power"] in mine]
    return spots or [place[p] for power in sorted(mine) for p in board().powers[power].home]
