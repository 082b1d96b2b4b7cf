"""Draw a Diplomacy map's shapes: Natural Earth's coastlines, cut into the map's provinces.

    python games/diplomacy/maps/make_shapes.py LAND games/diplomacy/maps/standard [--png FILE]

LAND is Natural Earth's land at 1:50 million (public domain), as the TopoJSON
file land-50m.json of the world-atlas package (Natural Earth 4.1.0:
`npm pack world-atlas@2.0.2`), or as Natural Earth's own ne_50m_land.geojson.
The map folder holds map.toml (the provinces, their kinds and neighbours),
sketch.toml (the seeds each province is drawn around: see its head) and
receives shapes.toml, which pbem reads; nothing at run time or in the tests
reads LAND, the sketch or this script.

The land is projected (Lambert's azimuthal equal-area, centred on
Central Europe), cut to the board's frame, and each medium (land, sea) is
split among its provinces: a point belongs to the province of its nearest
seed. A piece of a province that holds none of its seeds goes to the
neighbour it shares the longest border with (an island with no seed is
impassable land; a lake, impassable water). The borders are simplified
together (shared borders stay shared), and each province gets where its
name, its unit and its supply centre go. The script then checks every
border against map.toml: two provinces touch on the drawing exactly when
the game says they are neighbours (but for straits, which the map lists).

Needs shapely (`pip install 'shapely>=2.1'`): polygon clipping, Voronoi
cells and the simplification of a coverage are its work, not ours.
"""

import argparse
import json
import math
from pathlib import Path
import sys
import tomllib

import shapely
from shapely.geometry import MultiPoint, Point, Polygon, box, shape
from shapely.ops import polylabel, unary_union

CENTRE = (15.0, 52.0)  # the projection's centre: longitude, latitude
RADIUS = 6371.0  # km
FRAME = (-2650.0, -2250.0, 2550.0, 2500.0)  # the board's frame in km: west, south, east, north
WIDTH = 1000  # the board's width in its own units
CLIP = (-50.0, 20.0, 75.0, 82.0)  # the land read: west, south, east, north, in degrees
TOLERANCE = 0.7  # units: how far a simplified border strays from the drawn one
MIN_AREA = 4.0  # square units: smaller islands and lakes are left out
STRAITS = {("DEN", "SWE")}  # neighbours across water that the drawing cannot show touching
DIGITS = 1
NAME_HALF = 11  # units: half a province's name (three bold letters) on the board


def projected(lon: float, lat: float) -> tuple[float, float]:
    """Lambert's azimuthal equal-area projection, in km from CENTRE (north up)."""
    lam, phi = math.radians(lon - CENTRE[0]), math.radians(lat)
    phi0 = math.radians(CENTRE[1])
    k = math.sqrt(2 / (1 + math.sin(phi0) * math.sin(phi)
                       + math.cos(phi0) * math.cos(phi) * math.cos(lam)))
    x = RADIUS * k * math.cos(phi) * math.sin(lam)
    y = RADIUS * k * (math.cos(phi0) * math.sin(phi)
                      - math.sin(phi0) * math.cos(phi) * math.cos(lam))
    return x, y


def scale() -> float:
    """Board units per km."""
    return WIDTH / (FRAME[2] - FRAME[0])


def on_board(lon: float, lat: float) -> tuple[float, float]:
    """A place on the board, in its units (y down)."""
    x, y = projected(lon, lat)
    return (x - FRAME[0]) * scale(), (FRAME[3] - y) * scale()


def board_geometry(geometry):
    """A geometry in degrees, on the board."""
    moved = shapely.transform(geometry, lambda points: [on_board(*p) for p in points])
    return shapely.make_valid(moved)


def land_in_degrees(path: Path):
    """Natural Earth's land, cut to CLIP, in degrees."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("type") == "Topology":
        polygons = topology_polygons(data)
    else:
        polygons = [shape(feature["geometry"]) for feature in data["features"]]
    land = unary_union([shapely.make_valid(p) for p in polygons]).intersection(box(*CLIP))
    return shapely.segmentize(land, 0.25)  # a parallel cut by CLIP stays curved once projected


def topology_polygons(data: dict) -> list:
    """The polygons of a TopoJSON file's first object (quantized arcs, delta-encoded)."""
    (sx, sy), (tx, ty) = data["transform"]["scale"], data["transform"]["translate"]
    arcs = []
    for arc in data["arcs"]:
        x = y = 0
        points = []
        for dx, dy in arc:
            x, y = x + dx, y + dy
            points.append((x * sx + tx, y * sy + ty))
        arcs.append(points)

    def ring(indexes):
        points = []
        for index in indexes:
            part = arcs[index] if index >= 0 else arcs[~index][::-1]
            points.extend(part if not points else part[1:])
        if any(abs(a[0] - b[0]) > 180 for a, b in zip(points, points[1:])):
            # Eurasia crosses the antimeridian: its far east is moved past 180 degrees
            points = [(x + 360 if x < -90 else x, y) for x, y in points]
        return points

    out = []
    for geometry in next(iter(data["objects"].values()))["geometries"]:
        polygons = geometry["arcs"] if geometry["type"] == "MultiPolygon" else [geometry["arcs"]]
        for rings in polygons:
            shell, *holes = [ring(r) for r in rings]
            if len(shell) >= 4:
                out.append(Polygon(shell, [h for h in holes if len(h) >= 4]))
    return out


def cells(seeds: list, frame) -> dict:
    """{owner: the part of the frame nearer to its seeds than to any other's}; seeds are
    (owner, (x, y)) on the board."""
    points = MultiPoint([xy for _owner, xy in seeds])
    regions = shapely.voronoi_polygons(points, extend_to=frame, ordered=True)
    found = {}
    for (owner, _xy), region in zip(seeds, regions.geoms):
        found.setdefault(owner, []).append(region)
    return {owner: unary_union(parts).intersection(frame) for owner, parts in found.items()}


def parts(geometry) -> list:
    """A geometry's polygons."""
    if geometry.is_empty:
        return []
    if geometry.geom_type == "Polygon":
        return [geometry]
    return [g for g in getattr(geometry, "geoms", []) if g.geom_type == "Polygon"]


def divided(medium, seeds: list, frame, nobody: str) -> dict:
    """{owner: its share of the medium}: each owner keeps the pieces of its cell that hold
    one of its seeds; a stray piece goes to the owner it shares the longest border with,
    or to `nobody` when it touches no one."""
    shares = {owner: region.intersection(medium) for owner, region in cells(seeds, frame).items()}
    own = {owner: [] for owner in shares}
    strays = []
    seeded = {}
    for owner, xy in seeds:
        seeded.setdefault(owner, []).append(Point(xy))
    for owner, share in shares.items():
        for piece in parts(share):
            if piece.area < MIN_AREA:
                continue
            if any(piece.intersects(p) for p in seeded[owner]):
                own[owner].append(piece)
            else:
                strays.append(piece)
    own.setdefault(nobody, [])
    changed = True
    while strays and changed:
        changed = False
        for piece in list(strays):
            shared = {owner: piece.intersection(unary_union(pieces)).length
                      for owner, pieces in own.items() if pieces and owner != nobody}
            best = max(shared, key=shared.get, default=None)
            if best is not None and shared[best] > 0:
                own[best].append(piece)
                strays.remove(piece)
                changed = True
    own[nobody] += strays
    return {owner: unary_union(pieces) for owner, pieces in own.items() if pieces}


def simplified(shapes: dict) -> dict:
    """The shapes simplified together: a border two shapes share stays one line."""
    owners = sorted(shapes)
    result = shapely.coverage_simplify([shapes[o] for o in owners], TOLERANCE)
    return {owner: geometry.buffer(0) for owner, geometry in zip(owners, result)}


def touching(shapes: dict, kinds: dict) -> set:
    """The pairs of provinces whose shapes share a border."""
    keys = sorted(k for k in shapes if k in kinds)
    pairs = set()
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            if shapes[a].intersection(shapes[b]).length > 0.5:
                pairs.add((a, b))
    return pairs


def neighbours(map_data: dict) -> set:
    """The pairs of provinces the game makes neighbours."""
    pairs = set()
    for key, row in map_data["provinces"].items():
        near = set(row.get("army", ())) | {p.split("/")[0] for p in row.get("fleet", ())}
        for table in row.get("coasts", {}).values():
            near |= {p.split("/")[0] for p in table["fleet"]}
        pairs |= {tuple(sorted((key, other))) for other in near}
    return pairs


def path_of(geometry) -> str:
    """An SVG path's data for a polygon or several (rings closed, holes kept)."""
    out = []
    for polygon in parts(geometry):
        for ring in (polygon.exterior, *polygon.interiors):
            points = [(round(x, DIGITS), round(y, DIGITS)) for x, y in ring.coords[:-1]]
            kept = [p for n, p in enumerate(points) if n == 0 or p != points[n - 1]]
            if len(kept) >= 3:
                out.append("M" + " ".join(f"{number(x)},{number(y)}" for x, y in kept) + "Z")
    return "".join(out)


def number(value: float) -> str:
    """A coordinate as written: no trailing zero."""
    text = f"{value:.{DIGITS}f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def middle(geometry) -> tuple[float, float]:
    """The point of a shape's widest part that is farthest from its edge."""
    widest = max(parts(geometry), key=lambda p: p.area)
    point = polylabel(widest, 0.5)
    return round(point.x, DIGITS), round(point.y, DIGITS)


def placed(key: str, geometry, sketch_row: dict, centre: bool) -> dict:
    """Where a province's name, unit, supply centre and coasts' fleets go: the name over
    the middle of its widest part, the unit under the name, the centre beside the name
    or the unit (each where the sketch says, when it does)."""
    x, y = middle(geometry)
    where = {"label": [x, y - 7], "unit": [x, y + 9]}
    for field in ("label", "unit", "centre"):
        if field in sketch_row:
            where[field] = list(on_board(*sketch_row[field]))
    if centre and "centre" not in sketch_row:
        lx, ly = where["label"]
        ux, uy = where["unit"]
        sides = [(lx - NAME_HALF - 9, ly), (lx + NAME_HALF + 9, ly), (lx, ly - 14),
                 (ux - 22, uy), (ux + 22, uy), (ux, uy + 17)]
        inner = geometry.buffer(-3)
        where["centre"] = list(next((p for p in sides if inner.contains(Point(p))), sides[0]))
    out = {field: [round(v, DIGITS) for v in xy] for field, xy in where.items()
           if field != "centre" or centre}
    for coast, lonlat in sorted(sketch_row.get("coasts", {}).items()):
        out.setdefault("coasts", {})[coast] = [round(v, DIGITS) for v in on_board(*lonlat)]
    return out


def toml_value(value) -> str:
    """A value as TOML writes it."""
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return number(value) if isinstance(value, float) else str(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(value)


def written(board: dict, provinces: dict, scenery: dict) -> str:
    """shapes.toml's text."""
    lines = ["# Generated by games/diplomacy/maps/make_shapes.py from Natural Earth's land "
             "(public domain)",
             "# and sketch.toml: do not edit by hand. Board units; y grows downwards.", "",
             "[board]"]
    lines += [f"{k} = {toml_value(v)}" for k, v in board.items()]
    lines += ["", "[scenery]"]
    lines += [f"{k} = {toml_value(v)}" for k, v in scenery.items()]
    for key, row in sorted(provinces.items()):
        lines += ["", f"[provinces.{key}]"]
        lines += [f"{k} = {toml_value(v)}" for k, v in row.items()]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("land", type=Path)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--png", type=Path, help="also draw the shapes (and seeds) to this PNG")
    args = parser.parse_args()
    map_data = tomllib.loads((args.folder / "map.toml").read_text(encoding="utf-8"))
    sketch = tomllib.loads((args.folder / "sketch.toml").read_text(encoding="utf-8"))
    kinds = {key: row["kind"] for key, row in map_data["provinces"].items()}
    frame = box(0, 0, WIDTH, (FRAME[3] - FRAME[1]) * scale())
    land = board_geometry(land_in_degrees(args.land)).intersection(frame)
    water = frame.difference(land)
    seeds = {"land": [], "sea": []}
    for key, row in sketch.items():
        medium = "sea" if key == "water" or kinds.get(key) == "sea" else "land"
        owner = "_" + key if key in ("land", "water") else key
        seeds[medium] += [(owner, on_board(*lonlat)) for lonlat in row["seeds"]]
    shapes = {**divided(land, seeds["land"], frame, "_land"),
              **divided(water, seeds["sea"], frame, "_water")}
    shapes = simplified(shapes)
    drawn = touching(shapes, kinds)
    wanted = neighbours(map_data)
    for a, b in sorted(wanted - drawn - STRAITS):
        print(f"{a} and {b} are neighbours, but their shapes do not touch")
    for a, b in sorted(drawn - wanted):
        print(f"{a} and {b} touch, but are not neighbours")
    missing = sorted(set(kinds) - set(shapes))
    if missing:
        sys.exit(f"no shape for {', '.join(missing)}")
    provinces = {}
    for key in sorted(kinds):
        provinces[key] = {"path": path_of(shapes[key]),
                          **placed(key, shapes[key], sketch[key],
                                   map_data["provinces"][key].get("centre", False))}
    board = {"width": WIDTH, "height": round(frame.bounds[3], DIGITS)}
    scenery = {"land": path_of(shapes.get("_land", Polygon())),
               "water": path_of(shapes.get("_water", Polygon()))}
    (args.folder / "shapes.toml").write_text(written(board, provinces, scenery),
                                             encoding="utf-8")
    if args.png:
        preview(args.png, shapes, kinds, seeds, provinces, board)


def preview(png: Path, shapes: dict, kinds: dict, seeds: dict, provinces: dict,
            board: dict) -> None:
    """The shapes drawn plainly, with their seeds: to look at while sketching."""
    from PIL import Image, ImageDraw
    zoom = 2
    image = Image.new("RGB", (board["width"] * zoom, round(board["height"] * zoom)), "#9ec3e0")
    draw = ImageDraw.Draw(image)
    fills = {"sea": "#b9d3ea", "land": "#efe3c4", "coast": "#e6d6a8"}
    for key, geometry in shapes.items():
        fill = fills.get(kinds.get(key), "#b0b0b0" if key == "_land" else "#9ec3e0")
        for polygon in parts(geometry):
            draw.polygon([(x * zoom, y * zoom) for x, y in polygon.exterior.coords],
                         fill=fill, outline="#555555")
            for hole in polygon.interiors:
                draw.polygon([(x * zoom, y * zoom) for x, y in hole.coords],
                             fill="#9ec3e0", outline="#555555")
    for medium in seeds.values():
        for _owner, (x, y) in medium:
            draw.ellipse((x * zoom - 2, y * zoom - 2, x * zoom + 2, y * zoom + 2), fill="#c00")
    for key, row in provinces.items():
        x, y = row["label"]
        draw.text((x * zoom - 10, y * zoom - 6), key, fill="#000")
    image.save(png)


if __name__ == "__main__":
    main()
