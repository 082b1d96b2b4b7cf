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
a dislodged unit beside its province, ringed in dashes. Every colour goes
with a letter or a shape, so no one need tell the hues apart.
"""

from functools import lru_cache
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
    """A unit's badge: its type, its power's colour and letter; ring: "dislodged" (dashed)."""
    return {"x": xy[0], "y": xy[1], "unit": unit, "fill": COLOURS[power],
            "letter": board().powers[power].letter, "ink": INK.get(power, "#ffffff"),
            "ring": ring}


def svg_context(view: dict) -> dict:
    """The map of a view: its ground, then the owned centres, the units and the legend."""
    the_board, drawn = board(), shapes()
    centres = [{"x": round(x), "y": round(y), "fill": COLOURS[owner],
                "letter": the_board.powers[owner].letter, "ink": INK.get(owner, "#ffffff")}
               for key, owner in sorted(view["centres"].items())
               for x, y in [drawn["provinces"][key]["centre"]]]
    units = [badge(u["power"], u["type"], spot(place_of(p, u)))
             for p, u in sorted(view["units"].items())]
    units += [badge(u["power"], u["type"], beside(place_of(p, u)), "dislodged")
              for p, u in sorted(view["dislodged"].items())]
    width, height = drawn["board"]["width"], drawn["board"]["height"]
    return {"width": width, "height": height, "pixels": PIXELS,
            "pixels_high": round(PIXELS * height / width), **ground(),
            "sea": SEA, "impassable": IMPASSABLE,
            "centres": centres, "units": units,
            "legend": legend(view), "box": legend_box(), "heading": heading(view),
            "title": _("Diplomacy, {when}").format(when=when_words(view["when"]))}


def heading(view: dict) -> dict:
    """The legend's heading: the phase at the left and the year at the right (each drawn
    again only when it changes)."""
    when = view["when"]
    season, phase = SEASONS[when["season"]], PHASES[when["phase"]]
    left, top, right = LEGEND
    return {"x": left + MARGIN, "right": right - MARGIN, "y": top + 20,
            "phase": _("{season}, {phase}").format(season=_(season), phase=_(phase)),
            "year": when["year"]}


def legend(view: dict) -> list:
    """A row for each power: its colour, letter and player (on the ground: they do not
    change), and its centres counted at the right (a piece: drawn over the ground)."""
    rows = []
    left, top, right = LEGEND
    x, right = left + MARGIN, right - MARGIN
    for rank, power in enumerate(view["powers"]):
        count = ngettext("{num} centre", "{num} centres",
                         len(power["centres"])).format(num=len(power["centres"]))
        room = right - text_width(count, ROW_TEXT) - MARGIN - (x + 20)
        rows.append({"x": x, "y": top + 56 + ROW * rank, "right": right,
                     "fill": COLOURS[power["key"]], "ink": INK.get(power["key"], "#ffffff"),
                     "letter": board().powers[power["key"]].letter, "count": count,
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
