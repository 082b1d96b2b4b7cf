"""The schematic map, drawn from map.toml: what board.svg.j2 and its fragments draw.

Each province is a node at its place: a blue circle for a sea, a sand
square for land (rimmed in blue when it has a coast). Lines join
neighbours: sand for a border armies cross, blue dashes for one only fleets
sail. A supply centre has a dot on its rim, in its owner's colour (white
while nobody owns it), and an owned centre is tinted in that colour. A unit
is a badge in its power's colour: a disc for an army, a boat for a fleet; a
fleet on one coast of Spain, St Petersburg or Bulgaria stands on that
coast's small circle, labelled nc, sc or ec. In a retreat phase the units
dislodged are drawn beside their province, ringed in red.
"""

from functools import lru_cache

from pbem.i18n import _, ngettext

from .board import board, coast_of, province_of
from .position import place_of
from .present import when_words, who

COLOURS = {"austria": "#c0392b", "england": "#1f3a93", "france": "#3498db",
           "germany": "#4d4d4d", "italy": "#27ae60", "russia": "#8e44ad", "turkey": "#d4a017"}
INK = {"turkey": "#222222"}  # the letter on a badge: white, but on Turkey's yellow
PIXELS = 1000
AT_REST = {"dot": "#ffffff", "tint": None, "unit": None, "fill": None, "ink": None}


def pale(colour: str, share: float = 0.3) -> str:
    """A colour mixed with white: the tint of a supply centre its power owns."""
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(255 - (255 - c) * share):02x}" for c in rgb)


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
                          "tint": pale(COLOURS[owned]) if owned else None,
                          **badge(None if on_coast else unit)})
        for coast in province.coasts:
            spot = f"{key}/{coast}"
            cx, cy = place[spot]
            coasts.append({"label": coast.lower(), "x": cx, "y": cy, "px": x, "py": y,
                           "dot": "#ffffff", "tint": None,
                           **badge(unit if on_coast and unit.get("coast") == coast else None)})
    dislodged = [{"x": the_board.provinces[key].place[0] - 15,
                  "y": the_board.provinces[key].place[1] + 14, **badge(unit)}
                 for key, unit in sorted(view["dislodged"].items())]
    legend = [{"x": 16, "y": 48 + 17 * rank, "fill": COLOURS[power["key"]],
               "text": ngettext("{power}: {num} centre", "{power}: {num} centres",
                                len(power["centres"])).format(power=who(power["key"],
                                                                        power["seat"]),
                                                              num=len(power["centres"]))}
              for rank, power in enumerate(view["powers"])]
    return {"width": the_board.width, "height": the_board.height, "pixels": PIXELS,
            "at_rest": AT_REST,
            "pixels_high": round(PIXELS * the_board.height / the_board.width),
            "links": links(), "provinces": provinces, "coasts": coasts,
            "dislodged": dislodged, "legend": legend, "heading": when_words(view["when"]),
            "title": _("Diplomacy, {when}").format(when=when_words(view["when"]))}


def own_area(view: dict) -> list:
    """Where the viewing seat's units stand (its powers' home centres when it has none), in
    the board's SVG units: what its close-up shows; nothing for the public view."""
    mine = set(view.get("you", {}).get("powers", ()))
    place = coordinates()
    spots = [place[place_of(p, u)] for p, u in sorted(view["units"].items())
             if u["power"] in mine]
    return spots or [place[p] for power in sorted(mine) for p in board().powers[power].home]
