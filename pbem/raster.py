"""Boards drawn as PNG images in milliseconds: the ground once, then only the pieces.

A board's SVG (a game's board.svg.j2) is made of two layers: its ground, a
``<g class="ground">`` with all that does not change during a game (the
map, the names, the legend, each item at rest), then its pieces, each a
``<g class="piece">`` (see ``pieces`` in pbem/render.py), drawn over the
ground in their order: whatever moved.

resvg draws the ground once per process (kept while boards are drawn on it)
and each piece once, as a small sprite cut to its box, placed on the
board's own pixel grid. The pieces not drawn yet are drawn together, each
in its own frame of one image. A piece's box is reckoned from its shapes
(rect, circle, ellipse, line, polyline, polygon, path, text); a piece with
anything else covers the whole board.

Pieces that overlap are laid together on the part of the ground under
them, once: a patch, indexed to the board's palette once. A board is the
ground's indexed image with its patches pasted on it, which is what resvg
draws from the whole document (the same elements in the same order), at a
fraction of the cost. Its palette holds the ground's colours first, then
the patches' (nearly always every colour), and it is written as an indexed
PNG in bands of rows each compressed alone: a band of the same ground and
patches as a band drawn before is not compressed again (a new position pays
for the rows where pieces moved). Everything depends on the SVG alone,
never on what was drawn before: the same SVG gives the same bytes. An SVG
without layers (a board kept before they existed) is drawn whole.
"""

from collections import Counter, OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple
import hashlib
import io
import itertools
import math
import os
from pathlib import Path
import re
import stat
import struct
import tempfile

import html
from importlib.resources import files

from zlib_ng import zlib_ng

FONT_FOLDER = files("pbem") / "fonts"
FONTS = {  # every family a board's SVG names is drawn in the shipped DejaVu Sans
    "skip_system_fonts": True,
    "font_files": [str(FONT_FOLDER / "DejaVuSans-pbem.ttf"),
                   str(FONT_FOLDER / "DejaVuSans-Bold-pbem.ttf")],
    **{key: "DejaVu Sans" for key in ("font_family", "serif_family", "sans_serif_family",
                                       "monospace_family", "cursive_family", "fantasy_family")},
}
GROUND = '<g class="ground">'
PIECE = '<g class="piece">'
COLOURS = 256  # an indexed PNG's palette
COUNTED = 4096  # the colours counted in an image before it is quantised by octree
COMPRESS_LEVEL = 5  # zlib-ng's: smaller than zlib's at 5, in three quarters of its time
CLOSE_UP = (320, 256)  # a close-up's pixels: it fits a phone's 360 px at its own size
LABEL = 10  # a close-up's smallest text, in pixels (at least)
ZOOM_STEPS = 4  # a close-up's zoom is in quarters: the same for most boards of a game
PHONE, PHONE_LABEL = 344, 9  # a phone's width for a mail's image, and the text it can read
GROUND_FILES = 64  # grounds kept on disk, the least recently written forgotten
GROUNDS = 6  # grounds kept at once: a few games' boards and their close-ups
SPRITES = 1024  # sprites kept at once, of pieces and of elements (a few kB each)
SVG_NAMESPACE = "http://www.w3.org/2000/svg"
PLACING = ("width", "height", "viewBox", "preserveAspectRatio")
TITLE = re.compile(r"<title>.*?</title>", re.DOTALL)
FONT_SIZE = re.compile(r'font-size="([\d.]+)"')
TEXT_ELEMENT = re.compile(r"<text\b([^>]*)>([^<]*)</text>")
KEY_GROUP = re.compile(r'<g class="key">.*?</g>', re.DOTALL)
ROOT = re.compile(r"<svg\b([^>]*)>")
ELEMENT = re.compile(r"<(rect|circle|ellipse|line|polyline|polygon|path|text)\b[^>]*?"
                     r"(?:/>|>.*?</\1>)", re.DOTALL)
PLAIN_GROUP = re.compile(r'<g(?: class="[^"]*")?>|</g>')
TAG = re.compile(r"<(/?)([a-zA-Z]+)([^>]*?)(/?)>")
ATTRIBUTE = re.compile(r'([a-zA-Z][\w:-]*)="([^"]*)"')
NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
PATH_PART = re.compile(r"([MmLlHhVvCcSsQqTtAaZz])([^MmLlHhVvCcSsQqTtAaZz]*)")
PATH_ARGS = {"m": 2, "l": 2, "t": 2, "h": 1, "v": 1, "c": 6, "s": 4, "q": 4, "a": 7, "z": 0}
STYLED = {"stroke", "stroke-width", "stroke-linejoin", "stroke-linecap", "stroke-miterlimit",
          "font-size", "font-weight", "text-anchor"}  # what a box depends on, a group's too
DRAWN = {"rect", "circle", "ellipse", "line", "polyline", "polygon", "path", "text"}
PASSIVE = {"g", "title", "desc", "tspan"}  # hold or name shapes, draw nothing of their own
TALL = 2  # bands a patch may cross before it is cut along them
CELL = 64  # pixels: the squares pieces are looked up by, when they are grouped
BAND = 32  # rows of an image compressed together (see indexed)
BANDS = 2048  # bands kept at once (their compressed rows): some 20 MB
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
ZLIB_HEADER = b"\x78\x5e"  # deflate, 32 KB window, compression level "fast"
LAST_BLOCK = b"\x03\x00"  # an empty final deflate block
ADLER = 65521
SPACING = 1  # pixels between the frames of a sheet of sprites
STRIP = 16  # rows of a sheet of sprites whose frames are packed together
TEXT_WIDTH = 1.1  # a character's widest advance, in ems (DejaVu Sans Bold's W and M)


@lru_cache(maxsize=1024)
def text_width(text: str, size: float, bold: bool = False) -> float:
    """How wide a text is drawn in the shipped DejaVu Sans at this font size (in the same
    units): what a board's layout needs to know of its texts."""
    return font(size, bold).getlength(text)


@lru_cache(maxsize=16)
def font(size: float, bold: bool):
    """The shipped DejaVu Sans (or its bold) at a size, as Pillow measures it."""
    from PIL import ImageFont
    return ImageFont.truetype(FONTS["font_files"][bold], size)


def fitted(text: str, size: float, room: float, bold: bool = False) -> str:
    """A text as drawn within `room` units: whole when it fits, else its longest start
    that fits with an ellipsis after it."""
    if text_width(text, size, bold) <= room:
        return text
    cut = len(text)
    while cut and text_width(text[:cut].rstrip() + "…", size, bold) > room:
        cut -= 1
    return text[:cut].rstrip() + "…"


class Frame(NamedTuple):
    """Where a board's SVG units fall on its image: pixel = scale * unit + offset, on a
    canvas of width x height pixels (as resvg places a root's viewBox: centred, fitted)."""

    width: int
    height: int
    scale: float
    dx: float
    dy: float

    def pixels(self, box) -> tuple[int, int, int, int] | None:
        """The pixel rectangle (left, top, right, bottom) holding a box of SVG units
        (x0, y0, x1, y1), with a pixel to spare for smoothed edges, cut to the canvas."""
        x0, y0, x1, y1 = box
        left = max(0, math.floor(x0 * self.scale + self.dx) - 1)
        top = max(0, math.floor(y0 * self.scale + self.dy) - 1)
        right = min(self.width, math.ceil(x1 * self.scale + self.dx) + 1)
        bottom = min(self.height, math.ceil(y1 * self.scale + self.dy) + 1)
        return (left, top, right, bottom) if left < right and top < bottom else None

    def units(self, left: int, top: int) -> tuple[float, float]:
        """The SVG point drawn at a pixel's corner."""
        return (left - self.dx) / self.scale, (top - self.dy) / self.scale

    def snapped(self, x: float, y: float) -> tuple[float, float]:
        """The SVG point drawn at the pixel corner nearest (x, y): a piece drawn from such
        points is the same pixels wherever it stands, so it is drawn once for all places
        (see `moved`)."""
        return self.units(round(x * self.scale + self.dx), round(y * self.scale + self.dy))


def frame_of(root: dict) -> Frame:
    """The frame of an SVG root element (its attributes).

    The root's width and height in pixels, or a percentage of its viewBox's
    (100% when absent; a height absent keeps the viewBox's proportions).
    """
    box, width, height = placed(root)
    scale = min(width / box[2], height / box[3])
    dx = (width - box[2] * scale) / 2 - box[0] * scale
    dy = (height - box[3] * scale) / 2 - box[1] * scale
    return Frame(math.ceil(width - 1e-9), math.ceil(height - 1e-9), scale, dx, dy)


def placed(root: dict) -> tuple[list, float, float]:
    """A root's viewBox, width and height (see frame_of)."""
    box = [float(n) for n in root.get("viewBox", "").replace(",", " ").split()] \
        or [0, 0, 100, 100]
    width = length(root.get("width"), box[2])
    return box, width, length(root.get("height"), box[3] * width / box[2])


def zoomed(root: dict, zoom: float) -> dict:
    """A root drawn `zoom` times its size: its width and height, in whole pixels."""
    if zoom == 1:
        return root
    _box, width, height = placed(root)
    return {**root, "width": str(math.ceil(width * zoom - 1e-9)),
            "height": str(math.ceil(height * zoom - 1e-9))}


def root_tag(root: dict) -> str:
    """An SVG root's start tag with only the attributes that place what it holds."""
    kept = "".join(f' {name}="{html.escape(root[name])}"' for name in PLACING if name in root)
    return f'<svg xmlns="{SVG_NAMESPACE}"{kept}>'


def at_zoom(svg: str, zoom: float) -> str:
    """A whole SVG document drawn `zoom` times its size."""
    start = ROOT.search(svg)
    return root_tag(zoomed(svg_root(svg), zoom)) + svg[start.end():]


def svg_root(svg: str) -> dict:
    """The attributes of an SVG document's root element, read without parsing the rest."""
    start = ROOT.search(svg)
    if start is None:
        raise ValueError("an SVG document without a root element")
    return {name: html.unescape(value) for name, value in ATTRIBUTE.findall(start.group(1))}


def length(value: str | None, whole: float) -> float:
    """A root's width or height in pixels: as given, or a percentage of `whole` (all of it
    when absent)."""
    value = (value or "100%").strip().removesuffix("px")
    return whole * float(value[:-1]) / 100 if value.endswith("%") else float(value)


@dataclass(frozen=True)
class Layers:
    """A board's SVG taken apart: its head (the root's start tag, title, defs), its ground
    and its pieces (the text of each, in drawing order)."""

    head: str
    ground: str
    pieces: tuple


@lru_cache(maxsize=16)
def layers(svg: str) -> Layers | None:
    """The layers of a board's SVG; None for an SVG without them (taken apart once for
    the board and each seat's close-up of it)."""
    head, found, rest = svg.partition(GROUND)
    end = rest.rfind("</svg>")
    if not found or end < 0:
        return None
    rest = rest[:end]
    start = rest.find(PIECE)
    if start < 0:
        return Layers(head, GROUND + rest, ())
    parts = rest[start:].split(PIECE)
    return Layers(head, GROUND + rest[:start], tuple(PIECE + part for part in parts[1:]))


def drawn_head(head: str, zoom: float) -> str:
    """What of a board's head is drawn, `zoom` times its size: its root with only the
    attributes that place it, and what follows the root but its title (a turn's number,
    a board's name)."""
    return root_tag(zoomed(svg_root(head), zoom)) + TITLE.sub("", head[head.index(">") + 1:])


def close_up_frame(svg: str, points) -> tuple[float, tuple] | None:
    """Where a close-up of the board around these points (in SVG units) is cut: (zoom,
    window), the board drawn so that its smallest text is LABEL pixels high, and cut to
    CLOSE_UP pixels around most of the points (the zoom rounded up to a quarter, so the
    close-ups of a game share their ground). None without points, or when a phone
    shows the whole board's smallest text PHONE_LABEL pixels high already."""
    return framed(svg, tuple(tuple(point) for point in points))


@lru_cache(maxsize=64)
def framed(svg: str, points: tuple) -> tuple[float, tuple] | None:
    """close_up_frame, once per board and points (each seat's close-up of a board that
    did not change, in every mail to that seat)."""
    root = svg_root(svg)
    frame = frame_of(root)
    if not points or smallest_text(svg) is None:
        return None
    smallest = smallest_text(svg) * frame.scale
    if smallest * min(1, PHONE / frame.width) >= PHONE_LABEL:
        return None
    zoom = max(1.0, math.ceil(LABEL / smallest * ZOOM_STEPS) / ZOOM_STEPS)
    frame = frame_of(zoomed(root, zoom))
    spots = [(x * frame.scale + frame.dx, y * frame.scale + frame.dy) for x, y in points]
    whole = [frame.pixels(box) for box in labels(svg)]
    return zoom, window_around(spots, frame, [box for box in whole if box])


@lru_cache(maxsize=16)
def labels(svg: str) -> tuple:
    """What a close-up must not cut, in SVG units (x0, y0, x1, y1): each text, as wide as
    its words are drawn, and each ``<g class="key">``: a legend, or each row of one (its
    swatch with its words)."""
    found = []
    for match in TEXT_ELEMENT.finditer(svg):
        given = dict(ATTRIBUTE.findall(match.group(1)))
        if "transform" in given:
            continue
        size = float(given.get("font-size", 16))
        wide = text_width(html.unescape(match.group(2).strip()), size,
                          given.get("font-weight") == "bold")
        x, y = float(given.get("x", 0)), float(given.get("y", 0))
        left = {"middle": x - wide / 2, "end": x - wide}.get(given.get("text-anchor"), x)
        found.append((left, y - size, left + wide, y + size / 3))
    for match in KEY_GROUP.finditer(svg):
        box = box_of(match.group(0))
        if box:
            found.append(box)
    return tuple(found)


@lru_cache(maxsize=16)
def smallest_text(svg: str) -> float | None:
    """The smallest font size of a board's texts, in its SVG units (None: it has none)."""
    return min((float(size) for size in FONT_SIZE.findall(svg)), default=None)


def window_around(spots: list, frame: Frame, whole=()) -> tuple[int, int, int, int]:
    """The CLOSE_UP window of the frame's canvas that holds the most of these pixels (the
    first such), centred on those it holds, within the canvas, and moved the least that
    its edges cut none of the pixel boxes `whole` (a label, a legend's row), while it
    still holds those pixels."""
    width, height = min(CLOSE_UP[0], frame.width), min(CLOSE_UP[1], frame.height)
    held = max(([(x, y) for x, y in spots if abs(x - cx) <= width / 2
                 and abs(y - cy) <= height / 2] for cx, cy in spots), key=len)
    xs, ys = [x for x, _y in held], [y for _x, y in held]
    left = round((min(xs) + max(xs) - width) / 2)
    top = round((min(ys) + max(ys) - height) / 2)
    left = min(max(0, left), frame.width - width)
    top = min(max(0, top), frame.height - height)
    for _round in range(3):  # each move along one side may cut anew along the other
        left = edge_clear(left, width, frame.width, (min(xs), max(xs)),
                          [(b[0], b[2]) for b in whole if b[1] < top + height and b[3] > top])
        top = edge_clear(top, height, frame.height, (min(ys), max(ys)),
                         [(b[1], b[3]) for b in whole if b[0] < left + width and b[2] > left])
    return left, top, left + width, top + height


def edge_clear(start: int, size: int, length: int, held: tuple, spans: list) -> int:
    """Where a window `size` long starts along a side `length` long, such that it holds
    `held` (low, high): where the fewest spans (low, high) of `spans` hold one of its ends,
    and of those the nearest `start`."""
    low = max(0, math.ceil(held[1]) - size)
    high = min(length - size, math.floor(held[0]))
    if low > high:
        low, high = 0, length - size
    start = min(max(low, start), high)
    spans = [(a, b) for a, b in spans if b > low and a < high + size]  # those it may meet

    def cut(at: int) -> int:
        return sum(1 for a, b in spans if a < at < b or a < at + size < b)
    tried = {start} | {at for a, b in spans for at in (a, b, a - size, b - size)
                       if low <= at <= high}
    return min(tried, key=lambda at: (cut(at), abs(at - start), at))


def png(svg: str) -> bytes:
    """The board as a PNG image, at the SVG's own size."""
    return drawn(svg, 1, None)


def close_up(svg: str, zoom: float, window: tuple[int, int, int, int]) -> bytes:
    """A part of the board as a PNG image: the board drawn at `zoom` times its size, cut
    to the pixel rectangle `window` (left, top, right, bottom) of that drawing."""
    return drawn(svg, zoom, window)


def drawn(svg: str, zoom: float, window) -> bytes:
    """The board (or its window) as a PNG: its ground with each piece laid on it, written
    from the ground's indexed image and the patches of pieces (see `indexed`); an SVG
    without layers, or whose ground has more colours than a palette holds, is drawn
    whole (see `whole`)."""
    parts = layers(svg)
    if parts is None:
        image = rasterise(at_zoom(svg, zoom))
        return whole(image.crop(window) if window else image)
    head = drawn_head(parts.head, zoom)
    frame = frame_of(svg_root(head))
    window = window or (0, 0, frame.width, frame.height)
    base = ground(head, parts.ground)
    laid = [(piece, sprite) for piece, sprite
            in zip(parts.pieces, sprites(head, parts.pieces, frame, window))
            if sprite is not None and sprite.meets(window)]
    found = patches(base, window, laid) if base.colours else None
    if found is None:
        canvas = base.image.crop(window)
        for _piece, sprite in laid:
            sprite.lay(canvas, window)
        return whole(canvas)
    return indexed(base, window, found)


@dataclass(frozen=True)
class Sprite:
    """A piece or an element drawn alone: its RGBA images, laid in order one over the
    other (an element's is one), each with where it goes on the canvas (left, top), and
    the pixel rectangle they fill (left, top, right, bottom)."""

    images: tuple
    box: tuple

    def meets(self, window) -> bool:
        """Does it fall (partly) in this pixel rectangle?"""
        return meets(self.box, window)

    def lay(self, image, box) -> None:
        """Lay its images on an RGB image of the canvas's rectangle `box`."""
        for layer, left, top in self.images:
            image.paste(layer, (left - box[0], top - box[1]), layer)


def sprite_of(image, left: int, top: int) -> Sprite:
    """An RGBA image as a Sprite, its corner at (left, top) on the canvas."""
    return Sprite(((image, left, top),), (left, top, left + image.width, top + image.height))


def meets(box, window) -> bool:
    """Do two pixel rectangles (left, top, right, bottom) overlap?"""
    return box[0] < window[2] and box[1] < window[3] and box[2] > window[0] \
        and box[3] > window[1]


class Kept(OrderedDict):
    """What was drawn, by its content, the least recently used forgotten past a bound."""

    def __init__(self, bound: int):
        super().__init__()
        self.bound = bound

    def get(self, key, default=None):
        try:
            self.move_to_end(key)
        except KeyError:
            return default
        return self[key]

    def keep(self, key, value):
        self[key] = value
        while len(self) > self.bound:
            self.popitem(last=False)
        return value


_grounds = Kept(GROUNDS)
_pieces = Kept(SPRITES)
_elements = Kept(SPRITES)
_places = Kept(SPRITES)
_moves = Kept(SPRITES)
_patches = Kept(SPRITES)
_indexed_patches = Kept(SPRITES)
_band_chunks = Kept(BANDS)
_palettes = Kept(BANDS)  # a number for each palette (its colours) while it is kept
_ground_rows = Kept(GROUNDS * 2)  # a ground's rows in a window (a board's or a close-up's)
_indexes = Kept(GROUNDS * 4)  # by palette number: {colour: its index}
_numbers = itertools.count()
MISSING = object()  # what Kept.get gives for what is not kept, where None is kept too


def forget() -> None:
    """Forget every ground, sprite and palette kept: the next board is drawn as in a new
    process (for benchmarks and tests)."""
    for kept in (_grounds, _pieces, _elements, _places, _moves, _patches, _indexed_patches,
                 _band_chunks, _palettes, _ground_rows, _indexes):
        kept.clear()
    palette.cache_clear()
    smallest_text.cache_clear()
    framed.cache_clear()
    labels.cache_clear()
    layers.cache_clear()
    box_of.cache_clear()
    subpaths.cache_clear()


class Ground(NamedTuple):
    """A board's ground drawn: its image (RGB), a number of its own for as long as it is
    kept, its colours in order (none when they are more than a palette holds) and the
    image indexed to them (each pixel the rank of its colour; None without colours)."""

    image: object
    number: int
    colours: tuple
    indexed: object


def ground(head: str, text: str) -> Ground:
    """A board's ground, drawn once per process (or read from the grounds kept on disk)."""
    from PIL import Image
    key = (head, text)
    found = _grounds.get(key)
    if found is None:
        image = kept_on_disk(head + text + "</svg>")
        colours = tuple(sorted(c for _n, c in image.getcolors(COLOURS) or ()))
        indexed = image.quantize(palette=palette(colours), dither=Image.Dither.NONE) \
            if colours else None
        found = _grounds.keep(key, Ground(image, next(_numbers), colours, indexed))
    return found


def kept_on_disk(svg: str):
    """An SVG drawn by resvg, or read from the `ground_folder` when a process drew it
    before: a board's ground is the same for every process that sends its game's mails
    (each `pbem tick` from cron), and drawing it costs ten times reading it. The file
    is named by the SVG's digest and written whole (or not at all); the image is the
    same pixels either way."""
    from PIL import Image
    import resvg_py
    folder = ground_folder()
    name = hashlib.sha256(f"{resvg_py.__version__}\0{svg}".encode()).hexdigest()
    if folder is not None:
        try:
            with Image.open(folder / f"{name}.png") as image:
                return image.convert("RGB")
        except (OSError, ValueError, SyntaxError):
            pass  # not kept yet, or not whole: drawn again
    image = rasterise(svg)
    if folder is not None:
        keep_on_disk(folder, name, image)
    return image


def keep_on_disk(folder: Path, name: str, image) -> None:
    """Write a ground into the folder (through a temporary file), and forget the oldest
    past GROUND_FILES."""
    temporary = folder / f".{name}.{os.getpid()}"
    try:
        image.save(temporary, "PNG", compress_level=1)
        os.replace(temporary, folder / f"{name}.png")
        kept = sorted(folder.glob("*.png"), key=lambda path: path.stat().st_mtime)
        for old in kept[:-GROUND_FILES]:
            old.unlink(missing_ok=True)
    except OSError:
        temporary.unlink(missing_ok=True)


def ground_folder() -> Path | None:
    """The folder of grounds kept on disk: pbem-grounds-<uid> in the temporary folder,
    made for this user alone; None when there is none such (then nothing is kept)."""
    folder = Path(tempfile.gettempdir()) / f"pbem-grounds-{os.getuid()}"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        found = folder.lstat()
    except OSError:
        return None
    mine = stat.S_ISDIR(found.st_mode) and found.st_uid == os.getuid() \
        and not found.st_mode & 0o077
    return folder if mine else None


def sprites(head: str, pieces: tuple, frame: Frame, window) -> list:
    """Each piece as a Sprite on the frame's canvas (None: nothing to see in `window`).

    A piece not seen before is put together from its elements' sprites; the
    elements not drawn before (a piece that moved keeps most of its
    elements: a zone's name, a tile's outline) are drawn together, but for
    those outside the window (of a close-up), which are left out. An element
    is drawn at its place moved by whole pixels to the canvas's corner (see
    `moved`): the same badge or name drawn elsewhere is the same sprite.
    A piece outside the window is not looked at (on a whole board, none is).
    """
    everywhere = window == (0, 0, frame.width, frame.height)  # a board, not a close-up
    shown = [everywhere or meets(place(piece, frame), window) for piece in pieces]
    out = [_pieces.get((frame, piece), MISSING) if show else None
           for piece, show in zip(pieces, shown)]
    new = {piece: elements(piece) for piece, sprite in zip(pieces, out) if sprite is MISSING}
    if not new:
        return out
    found, missing, boxes, footprints = {}, {}, [], []
    for part in dict.fromkeys(part for parts in new.values() for part in parts):
        shape, left, top, box = moved(part, frame)
        if (frame, shape) in _elements:
            found[part] = at(_elements.get((frame, shape)), left, top)
        elif everywhere or meets(place(part, frame), window):
            if shape not in missing:
                boxes.append(box)
                footprints.append(footprint(part, (box[0] + left, box[1] + top,
                                                   box[2] + left, box[3] + top), frame))
            missing.setdefault(shape, []).append((part, left, top))
    shapes = list(missing)
    drawn = draw_sprites(head, shapes, boxes, footprints, frame)
    for shape, sprite in zip(shapes, drawn):
        _elements.keep((frame, shape), sprite)
        for part, left, top in missing[shape]:
            found[part] = at(sprite, left, top)
    made = {}
    for piece, parts in new.items():
        made[piece] = assembled([found.get(part) for part in parts])
        if all(part in found for part in parts):
            _pieces.keep((frame, piece), made[piece])
    return [made[piece] if sprite is MISSING else sprite for piece, sprite in zip(pieces, out)]


def at(sprite: Sprite | None, left: int, top: int) -> Sprite | None:
    """A sprite moved by whole pixels."""
    if sprite is None or not (left or top):
        return sprite
    box = sprite.box
    return Sprite(tuple((image, x + left, y + top) for image, x, y in sprite.images),
                  (box[0] + left, box[1] + top, box[2] + left, box[3] + top))


def place(part: str, frame: Frame) -> tuple:
    """The pixel rectangle an element (or a piece) may draw in, once reckoned: its box, or
    the whole canvas when that cannot be told."""
    found = _places.get((frame, part))
    if found is None:
        box = box_of(part)
        found = _places.keep((frame, part), (frame.pixels(box) if box else None)
                             or (0, 0, frame.width, frame.height))
    return found


def moved(part: str, frame: Frame) -> tuple[str, int, int, tuple]:
    """An element moved by whole pixels so that its box starts at the canvas's corner, by
    how many pixels (left, top) to put it back, and the pixel rectangle it is drawn in
    so moved (not cut to the canvas: it is put back elsewhere), once reckoned; the
    element itself (0, 0, and its rectangle on the canvas) when its box cannot be told
    or it refers to something (a marker, a gradient) that might not move with it."""
    key = (frame, part)
    found = _moves.get(key)
    if found is None:
        box = box_of(part) if "url(" not in part else None
        if box is not None:
            left = math.floor(box[0] * frame.scale + frame.dx) - 1
            top = math.floor(box[1] * frame.scale + frame.dy) - 1
            shape = shifted(part, -left / frame.scale, -top / frame.scale)
            if shape is not None:
                right = math.ceil(box[2] * frame.scale + frame.dx) + 1
                bottom = math.ceil(box[3] * frame.scale + frame.dy) + 1
                found = (shape, left, top, (0, 0, right - left, bottom - top))
        found = _moves.keep(key, found or (part, 0, 0, place(part, frame)))
    return found


SHIFTED = {"x": 0, "cx": 0, "x1": 0, "x2": 0, "y": 1, "cy": 1, "y1": 1, "y2": 1, "points": 2,
           "d": 3}


def shifted(element: str, dx: float, dy: float) -> str | None:
    """An element's text with every point moved by (dx, dy) SVG units; None when it holds
    what is not known to move that way."""
    def attribute(match):
        name, value = match.groups()
        kind = SHIFTED.get(name)
        if kind is None:
            return match.group(0)
        if kind == 3:
            return f'{name}="{shifted_path(value, dx, dy)}"'
        numbers = NUMBER.findall(value)
        steps = [(dx, dy)[n % 2] if kind == 2 else (dx, dy)[kind] for n in range(len(numbers))]
        return f'{name}="{" ".join(number(float(v) + d) for v, d in zip(numbers, steps))}"'

    def tag(match):
        closing, name, attrs, empty = match.groups()
        if closing or name in ("title", "desc"):
            return match.group(0)
        if name not in DRAWN | PASSIVE or "transform" in attrs:
            raise ValueError(name)
        return f"<{name}{ATTRIBUTE.sub(attribute, attrs)}{empty}>"

    try:
        return TAG.sub(tag, element)
    except ValueError:
        return None


def shifted_path(d: str, dx: float, dy: float) -> str:
    """A path's data with its absolute points moved by (dx, dy) (a first moveto is absolute,
    even in lower case)."""
    out = []
    for rank, (command, args) in enumerate(PATH_PART.findall(d)):
        values = NUMBER.findall(args)
        kind = command.lower()
        if kind == "z" or (command.islower() and not (rank == 0 and kind == "m")):
            out.append(command + " ".join(values))
            continue
        count = PATH_ARGS[kind]
        moving = []
        for n, value in enumerate(values):
            spot = n % count
            if command == "m" and n >= 2:
                step = 0.0
            elif kind == "h":
                step = dx
            elif kind == "v":
                step = dy
            elif kind == "a":
                step = {5: dx, 6: dy}.get(spot, 0.0)
            else:
                step = (dx, dy)[spot % 2]
            moving.append(number(float(value) + step) if step else value)
        out.append(command + " ".join(moving))
    return " ".join(out)


def number(value: float) -> str:
    """A coordinate as written in a moved element: to a millionth of a unit."""
    value = round(value, 6) + 0.0
    return str(int(value)) if value.is_integer() else repr(value)


def elements(piece: str) -> list:
    """A piece's shapes in drawing order, without their titles (which are not drawn); the
    piece whole when it holds anything but shapes in plain groups (a group's opacity)."""
    shapes = [TITLE.sub("", match.group(0)) for match in ELEMENT.finditer(piece)]
    rest = TITLE.sub("", ELEMENT.sub("", piece))
    return shapes if not PLAIN_GROUP.sub("", rest).strip() else [piece]


def assembled(parts: list) -> Sprite | None:
    """Sprites laid one over the other, in order, as one: their images, each laid in turn
    (not blended into one image, which would cost as much again)."""
    parts = [part for part in parts if part is not None]
    if len(parts) < 2:
        return parts[0] if parts else None
    return Sprite(tuple(image for part in parts for image in part.images),
                  (min(p.box[0] for p in parts), min(p.box[1] for p in parts),
                   max(p.box[2] for p in parts), max(p.box[3] for p in parts)))


def draw_sprites(head: str, parts: list, boxes: list, footprints: list, frame: Frame) -> list:
    """Elements (or pieces) drawn by one call to resvg, each in its own frame of one image
    (its box in pixels on the board, at the board's scale and on its pixel grid, and
    its footprint there), then cut apart as Sprites (None: nothing to see).

    resvg's cost grows with the image's area, so the frames are packed close (see
    `packed`): each frame takes only the pixels its element may draw, strip by strip
    (see `footprint`), so that a long diagonal arrow, whose box is mostly empty, leaves
    the rest of its box to other frames. Each element is moved to its frame by a
    group's transform, not put in a nested <svg>: resvg clips a nested <svg>, at a cost
    for every frame (a third of a sheet of arrows), and a frame's footprint already
    holds all its element draws.
    """
    if not parts:
        return []
    root_end = head.index(">") + 1
    spots, width, height = packed(footprints)
    frames = []
    for part, box, spot in zip(parts, boxes, spots):
        if spot is None:
            continue
        x, y = frame.units(box[0], box[1])
        frames.append(f'<g transform="translate({spot[0] - x * frame.scale!r} '
                      f'{spot[1] - y * frame.scale!r}) scale({frame.scale!r})">{part}</g>')
    if not frames:
        return [None] * len(parts)
    sheet = rasterise(f'<svg xmlns="{SVG_NAMESPACE}" width="{width}" height="{height}">'
                      f'{head[root_end:]}{"".join(frames)}</svg>', "RGBA")
    out = []
    for box, spot, strips in zip(boxes, spots, footprints):
        image = spot and cut(sheet, spot, box, strips)
        out.append(sprite_of(image, box[0], box[1]) if spot and image.getbbox() else None)
    return out


def cut(sheet, spot: tuple, box: tuple, strips: list):
    """A frame's image cut from the sheet: what its strips hold (another frame may reach
    into its box elsewhere), on a clear image of its box."""
    from PIL import Image
    width, height = box[2] - box[0], box[3] - box[1]
    image = sheet.crop((spot[0], spot[1], spot[0] + width, spot[1] + height))
    if strips == [(0, height, 0, width)]:
        return image
    rows = bytearray(width * height)
    for top, bottom, left, right in strips:
        row = b"\0" * left + b"\xff" * (right - left) + b"\0" * (width - right)
        rows[top * width:bottom * width] = row * (bottom - top)
    clear = Image.new("RGBA", (width, height))
    clear.paste(image, (0, 0), Image.frombytes("L", (width, height), bytes(rows)))
    return clear


def footprint(part: str, box: tuple, frame: Frame) -> list:
    """Where an element may draw in its frame (its box in pixels on the canvas), STRIP rows
    at a time: (top, bottom, left, right) of each strip it draws in, from the frame's
    corner, its runs of strips alike as one. A line or a polygon takes only the columns
    its sides cross in each strip (with its stroke and a pixel either side); anything
    else, its whole box."""
    width, height = box[2] - box[0], box[3] - box[1]
    found = outline(part)
    if found is None:
        return [(0, height, 0, width)]
    count = math.ceil(height / STRIP)
    lows, highs = [math.inf] * count, [-math.inf] * count
    scale, pad = frame.scale, found[1] * frame.scale + 1
    for (x0, y0), (x1, y1) in found[0]:
        x0, y0 = x0 * scale + frame.dx - box[0], y0 * scale + frame.dy - box[1]
        x1, y1 = x1 * scale + frame.dx - box[0], y1 * scale + frame.dy - box[1]
        if y0 > y1:
            x0, y0, x1, y1 = x1, y1, x0, y0
        slope = (x1 - x0) / (y1 - y0) if y1 > y0 else 0
        for row in range(max(0, math.ceil((y0 - pad) / STRIP) - 1),
                         min(count - 1, math.floor((y1 + pad) / STRIP)) + 1):
            low = max(y0, row * STRIP - pad)
            high = min(y1, min(row * STRIP + STRIP, height) + pad)
            if low > high:
                continue
            ends = (x0 + slope * (low - y0), x0 + slope * (high - y0)) if slope else (x0, x1)
            lows[row] = min(lows[row], *ends)
            highs[row] = max(highs[row], *ends)
    strips = []
    for row, (low, high) in enumerate(zip(lows, highs)):
        if low > high:
            continue
        top, bottom = row * STRIP, min(row * STRIP + STRIP, height)
        left, right = max(0, math.floor(low - pad)), min(width, math.ceil(high + pad))
        if strips and strips[-1][1] == top and strips[-1][2:] == (left, right):
            strips[-1] = (strips[-1][0], bottom, left, right)
        else:
            strips.append((top, bottom, left, right))
    return strips


def outline(part: str) -> tuple[list, float] | None:
    """The straight sides along which an element is drawn (a path's or polygon's, closed,
    or a line) and how far its stroke reaches past them (see `reach`), in SVG units; None
    for anything else (a curve, a text, a rectangle, a group, a shape styled or painted
    by reference)."""
    match = TAG.match(part)
    if match is None or "url(" in part:
        return None
    given = dict(ATTRIBUTE.findall(match.group(3)))
    name = match.group(2)
    if "transform" in given or "style" in given:
        return None
    if name == "path":
        found = subpaths(given.get("d", ""))
        if found is None or found[1]:
            return None
        sides = found[0]
    elif name in ("polygon", "polyline"):
        values = [float(n) for n in NUMBER.findall(given.get("points", ""))]
        sides = [list(zip(values[0::2], values[1::2]))]
    elif name == "line":
        sides = [[(float(given.get("x1", 0)), float(given.get("y1", 0))),
                  (float(given.get("x2", 0)), float(given.get("y2", 0)))]]
    else:
        return None
    lines = [(a, b) for points in sides for a, b in zip(points, points[1:] + points[:1])]
    return (lines, reach(given, corners(name, given))) if lines else None


def packed(footprints: list) -> tuple[list, int, int]:
    """Where frames go on one sheet so that none comes within SPACING of another, given the
    footprint of each (None: no frame): (each frame's left and top, or None), the
    sheet's width and height.

    The sheet is cut in rows of STRIP pixels, as many as all the footprints would fill
    on a sheet as wide as the widest frame, or on a square sheet when that is wider
    (but as many as the tallest frame needs); each frame, the largest first, goes
    where it lies furthest left (then highest), starting on a row. What each row
    holds is a bitset of its columns, so a frame is tried at each row in a few
    operations on integers."""
    given = [n for n, strips in enumerate(footprints) if strips]
    spots = [None] * len(footprints)
    if not given:
        return spots, 0, 0
    rows_of, size = {}, {}
    for n in given:
        rows = []
        for top, bottom, left, right in footprints[n]:
            rows += [(row, left, right + SPACING) for row in range(top // STRIP,
                                                                   (bottom - 1) // STRIP + 1)]
        rows_of[n] = rows
        size[n] = sum(right - left for _row, left, right in rows)
    tallest = max(rows_of[n][-1][0] for n in given) + 1
    area = sum(size.values()) * STRIP
    widest = max(max(right for _row, _left, right in rows_of[n]) for n in given)
    count = max(tallest, math.ceil(min(math.sqrt(area), area / widest) / STRIP))
    taken = [0] * count
    for n in sorted(given, key=lambda n: (-size[n], n)):
        rows, best, spreads = rows_of[n], None, {}
        for first in range(count - rows[-1][0]):
            blocked = 0
            for row, left, right in rows:
                if taken[first + row]:
                    key = (first + row, right - left)
                    if key not in spreads:
                        spreads[key] = spread(taken[first + row], right - left)
                    blocked |= spreads[key] >> left
            x = (~blocked & (blocked + 1)).bit_length() - 1
            if best is None or x < best[0]:
                best = (x, first)
                if not x:
                    break
        x, first = best
        spots[n] = (x, first * STRIP)
        for row, left, right in rows:
            taken[first + row] |= ((1 << (right - left)) - 1) << (x + left)
    width = max(held.bit_length() for held in taken)
    height = max(spots[n][1] + footprints[n][-1][1] + SPACING for n in given)
    return spots, width, height


def spread(columns: int, width: int) -> int:
    """A bitset of columns with each column c spread over c - width + 1 to c: the places
    where a run `width` columns wide would meet one of them."""
    done = 1
    while done < width:
        step = min(done, width - done)
        columns |= columns >> step
        done += step
    return columns


def rasterise(svg: str, mode: str = "RGB"):
    """An SVG drawn whole by resvg, with the fonts shipped in pbem/fonts."""
    from PIL import Image
    import resvg_py
    drawn = resvg_py.svg_to_bytes(svg_string=svg, shape_rendering="crisp_edges",
                                  text_rendering="optimize_legibility", **FONTS)
    image = Image.open(io.BytesIO(drawn))
    return image.convert(mode)


class Patch(NamedTuple):
    """Pieces laid on the ground under them: what they are (the ground's number, the
    window, the pieces), the rectangle of the window's canvas they cover (left, top,
    right, bottom, in the drawing's pixels), that part of the board (RGB), and its
    colours, in order and counted."""

    key: tuple
    box: tuple
    image: object
    colours: tuple
    counts: dict


def patches(base: Ground, window, laid: list) -> list | None:
    """The pieces laid on a window of the board (with their sprites), in patches that do
    not meet: pieces that overlap share one, laid one over the other in order; a
    patch taller than TALL bands of BAND rows (a grid of tiles that touch) is cut
    along the bands, so that a tile that changed costs only the bands it crosses.
    Each patch is laid on the ground once while it is kept. None when one holds more
    colours than are counted (the board is then drawn whole)."""
    out = []
    for box, group in groups(laid, window):
        for part, members in sliced(box, group, window[1]):
            key = (base.number, part, tuple(piece for piece, _sprite in members))
            found = _patches.get(key)
            if found is None:
                found = _patches.keep(key, patch(base, key, part, members))
            if found.counts is None:
                return None
            out.append(found)
    return out


def sliced(box: tuple, group: list, top: int) -> list:
    """A group of pieces whole, or cut along the bands (of BAND rows from `top`, the
    window's) when it crosses more than TALL of them: (a rectangle, the pieces that
    cross it)."""
    first_band, last_band = (box[1] - top) // BAND, (box[3] - 1 - top) // BAND
    if last_band - first_band < TALL:
        return [(box, group)]
    out = []
    for band in range(first_band, last_band + 1):
        part = (box[0], max(box[1], top + band * BAND), box[2],
                min(box[3], top + (band + 1) * BAND))
        members = [(piece, sprite) for piece, sprite in group
                   if sprite.box[1] < part[3] and sprite.box[3] > part[1]]
        if members:
            out.append((part, members))
    return out


def patch(base: Ground, key: tuple, box: tuple, group: list) -> Patch:
    """Pieces laid in order on the part `box` of the ground (as on the whole canvas)."""
    image = base.image.crop(box)
    for _piece, sprite in group:
        sprite.lay(image, box)
    counted = image.getcolors(COUNTED)
    counts = {colour: count for count, colour in counted} if counted else None
    return Patch(key, box, image, tuple(sorted(counts or ())), counts)


def groups(laid: list, window) -> list:
    """The laid pieces in groups whose rectangles (cut to the window) do not meet, a group
    as few as can be: (its rectangle, its pieces in drawing order), in the order of
    their first pieces. Groups are looked up by the squares of CELL pixels they cover."""
    found, by_cell = [], {}
    for rank, (piece, sprite) in enumerate(laid):
        box = (max(sprite.box[0], window[0]), max(sprite.box[1], window[1]),
               min(sprite.box[2], window[2]), min(sprite.box[3], window[3]))
        members = [(rank, piece, sprite)]
        while True:
            meeting = {number for cell in cells(box) for number in by_cell.get(cell, ())
                       if found[number] is not None and meets(found[number][0], box)}
            if not meeting:
                break
            for number in meeting:
                other, joined = found[number]
                found[number] = None
                box = (min(box[0], other[0]), min(box[1], other[1]),
                       max(box[2], other[2]), max(box[3], other[3]))
                members += joined
        for cell in cells(box):
            by_cell.setdefault(cell, []).append(len(found))
        found.append((box, members))
    kept = sorted((min(members, key=first)[0], box, members)
                  for box, members in filter(None, found))
    return [(box, [(piece, sprite) for _rank, piece, sprite in sorted(members, key=first)])
            for _first, box, members in kept]


def cells(box: tuple) -> list:
    """The squares of CELL pixels (column, row) a pixel rectangle covers."""
    return [(column, row) for row in range(box[1] // CELL, (box[3] - 1) // CELL + 1)
            for column in range(box[0] // CELL, (box[2] - 1) // CELL + 1)]


def first(item: tuple):
    """An item's first part (what it is sorted by)."""
    return item[0]


def indexed(base: Ground, window, laid: list) -> bytes:
    """The board as an indexed PNG: the ground's indexed image, cut to the window, with
    each patch indexed and pasted on it.

    The palette is the ground's colours, then the patches' (see `slotted`).
    The image is written in bands of BAND rows, each compressed alone: a band
    of the same ground with the same patches, whose colours keep their
    indexes, is written as it was before. A new position pays for indexing
    its new patches and compressing the bands they cross.
    """
    colours = set().union(*(found.colours for found in laid))
    chosen = slotted(colours, base.colours, laid)
    number = _palettes.get(chosen)
    if number is None:
        number = _palettes.keep(chosen, next(_numbers))
    indexes = indexes_of(number, chosen, colours)
    width, height = window[2] - window[0], window[3] - window[1]
    over = [[] for _ in range(math.ceil(height / BAND))]
    for found in laid:
        ident = (found.key, tuple(map(indexes.__getitem__, found.colours)))
        top, bottom = found.box[1] - window[1], found.box[3] - window[1]
        for band in range(top // BAND, (bottom - 1) // BAND + 1):
            over[band].append((ident, found))
    keys = [(base.number, window, band, tuple(ident for ident, _found in patched))
            for band, patched in enumerate(over)]
    chunks = [_band_chunks.get(key) for key in keys]
    for first, last in missing_runs(chunks):
        patched = {ident: found for band in range(first, last) for ident, found in over[band]}
        rows = band_rows(base, window, first, last, patched, chosen)
        size = (width + 1) * BAND  # a band's bytes
        for band in range(first, last):
            at = (band - first) * size
            chunks[band] = _band_chunks.keep(keys[band], compressed(rows[at:at + size]))
    return indexed_png(width, height, chosen, chunks)


def missing_runs(chunks: list) -> list:
    """The runs of bands not written yet: (first, last + 1) of each."""
    runs = []
    for band, chunk in enumerate(chunks):
        if chunk is not None:
            continue
        if runs and runs[-1][1] == band:
            runs[-1][1] = band + 1
        else:
            runs.append([band, band + 1])
    return runs


def band_rows(base: Ground, window, first: int, last: int, patched: dict,
              chosen: tuple) -> bytes:
    """The rows of bands first to last (not included) of the board, each after its filter
    byte: the ground's, with the patches that cross them ({ident: patch}, indexed to
    the palette `chosen`) pasted on them."""
    from PIL import Image
    plain = ground_rows(base, window)
    stride = window[2] - window[0] + 1
    rows = plain[first * BAND * stride:last * BAND * stride]
    if not patched:
        return rows
    canvas = Image.frombytes("P", (stride, len(rows) // stride), rows)
    for ident, found in patched.items():
        canvas.paste(indexed_patch(ident, found, chosen),
                     (found.box[0] - window[0] + 1, found.box[1] - window[1] - first * BAND))
    return canvas.tobytes()


def ground_rows(base: Ground, window) -> bytes:
    """The ground's indexed rows in a window, each after its filter byte (none), once
    reckoned."""
    from PIL import Image
    key = (base.number, window)
    rows = _ground_rows.get(key)
    if rows is None:
        canvas = Image.new("P", (window[2] - window[0] + 1, window[3] - window[1]))
        canvas.paste(base.indexed.crop(window), (1, 0))
        rows = _ground_rows.keep(key, canvas.tobytes())
    return rows


def indexed_patch(ident: tuple, found: Patch, chosen: tuple):
    """A patch indexed to the palette (kept by the patch and its colours' indexes)."""
    from PIL import Image
    image = _indexed_patches.get(ident)
    if image is None:
        image = _indexed_patches.keep(ident, found.image.quantize(
            palette=palette(chosen), dither=Image.Dither.NONE))
    return image


def compressed(data: bytes) -> tuple:
    """Rows of an indexed image, each after its filter byte, compressed alone: (deflate
    blocks ending on a full flush, the data's Adler-32 and length)."""
    packer = zlib_ng.compressobj(COMPRESS_LEVEL, zlib_ng.DEFLATED, -zlib_ng.MAX_WBITS)
    return (packer.compress(data) + packer.flush(zlib_ng.Z_FULL_FLUSH), zlib_ng.adler32(data),
            len(data))


def slotted(colours: set, ground_colours: tuple, laid: list) -> tuple:
    """The palette of a board of these colours drawn over a ground of these: the ground's
    colours first, in order (its indexed image is drawn in it), then each other colour
    at a slot reckoned from the colour itself (the next free one after it), the free
    slots left holding the first colour: from one position to the next, most colours
    keep their index, and so do most bands their indexed rows. When the others are
    more than the free slots, the most frequent of them in the patches (ties by
    colour) are slotted, and each one left out is drawn as the nearest slotted."""
    others = sorted(colours.difference(ground_colours))
    free = COLOURS - len(ground_colours)
    if len(others) > free:
        totals = Counter()
        for found in laid:
            totals.update(found.counts)
        others = sorted(sorted(others, key=lambda c: (-totals[c], c))[:free])
    slots = [None] * free
    for colour in others:
        at = zlib_ng.crc32(bytes(colour)) % free
        while slots[at] is not None:
            at = (at + 1) % free
        slots[at] = colour
    return ground_colours + tuple(colour or ground_colours[0] for colour in slots)


def whole(image) -> bytes:
    """An RGB image drawn whole as an indexed PNG: its own colours, else its 256 most
    frequent (ties by colour), each other colour drawn as the nearest of them (a board
    has fewer than 4096: else octree quantisation chooses them)."""
    from PIL import Image
    counted = image.getcolors(COUNTED)
    if counted:
        chosen = sorted(counted, key=lambda c: (-c[0], c[1]))[:COLOURS]
        indexed_image = image.quantize(palette=palette(tuple(sorted(c for _n, c in chosen))),
                                       dither=Image.Dither.NONE)
    else:
        indexed_image = image.quantize(COLOURS, method=Image.Quantize.FASTOCTREE,
                                       dither=Image.Dither.NONE)
    out = io.BytesIO()
    indexed_image.save(out, "PNG", compress_level=COMPRESS_LEVEL)
    return out.getvalue()


def indexes_of(number: int, chosen: tuple, colours: set) -> dict:
    """{colour: the index Pillow draws it as} in the palette `chosen` (numbered `number`),
    for these colours (each reckoned once per palette)."""
    from PIL import Image
    known = _indexes.get(number)
    if known is None:
        known = _indexes.keep(number, {})
    new = sorted(colours.difference(known))
    if new:
        row = Image.new("RGB", (len(new), 1))
        row.putdata(new)
        known.update(zip(new, row.quantize(palette=palette(chosen),
                                           dither=Image.Dither.NONE).tobytes()))
    return known


def indexed_png(width: int, height: int, colours: tuple, chunks: list) -> bytes:
    """An 8-bit indexed PNG of these colours, its image data the bands' deflate blocks
    one after the other in one zlib stream."""
    checksum, stream = 1, [ZLIB_HEADER]
    for blocks, adler, length in chunks:
        checksum = adler32_combine(checksum, adler, length)
        stream.append(blocks)
    stream += [LAST_BLOCK, struct.pack(">I", checksum)]
    return b"".join((PNG_SIGNATURE,
                     png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),
                     png_chunk(b"PLTE", bytes(itertools.chain.from_iterable(colours))),
                     png_chunk(b"IDAT", b"".join(stream)), png_chunk(b"IEND", b"")))


def png_chunk(kind: bytes, data: bytes) -> bytes:
    """One chunk of a PNG file: length, kind, data, CRC."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I",
                                                                  zlib_ng.crc32(kind + data))


def adler32_combine(first: int, second: int, length: int) -> int:
    """The Adler-32 of two pieces of data one after the other, from each one's and the
    second's length (zlib's adler32_combine)."""
    low1, low2, rem = first & 0xFFFF, second & 0xFFFF, length % ADLER
    low = (low1 + low2 + ADLER - 1) % ADLER
    high = (rem * low1 + (first >> 16) + (second >> 16) + ADLER - rem) % ADLER
    return low | high << 16


@lru_cache(maxsize=8)
def palette(colours: tuple):
    """A palette image of these colours; kept, as it keeps what it learns of which colour
    is nearest to which (a board's colours are most often its last board's; each keeps
    a megabyte of it)."""
    from PIL import Image
    image = Image.new("P", (1, 1))
    image.putpalette([level for colour in colours for level in colour])
    return image


@lru_cache(maxsize=SPRITES)
def box_of(piece: str) -> tuple | None:
    """The box (x0, y0, x1, y1) in SVG units that holds what a piece draws, strokes and
    smoothed edges included; None when it cannot be told (draw it over the whole board)."""
    boxes, inherited = [], [{}]
    for match in TAG.finditer(piece):
        closing, name, attrs, empty = match.groups()
        if closing:
            if name == "g" and len(inherited) > 1:
                inherited.pop()
            continue
        given = dict(ATTRIBUTE.findall(attrs))
        if "transform" in given or name not in DRAWN | PASSIVE:
            return None
        style = {**inherited[-1], **{k: v for k, v in given.items()
                                     if k in STYLED}}
        if name == "g" and not empty:
            inherited.append(style)
        if name in DRAWN:
            shape = shape_box(name, given, style, piece, match.end())
            if shape is None:
                return None
            boxes.append(shape)
    if not boxes:
        return None
    return (min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes))


def shape_box(name: str, given: dict, style: dict, piece: str, end: int) -> tuple | None:
    """The box of one shape, its stroke included (see `reach`)."""
    number = lambda key: float(given.get(key, 0))  # noqa: E731
    if name == "rect":
        x0, y0 = number("x"), number("y")
        box = (x0, y0, x0 + number("width"), y0 + number("height"))
    elif name in ("circle", "ellipse"):
        rx = number("r") if name == "circle" else number("rx")
        ry = number("r") if name == "circle" else number("ry")
        box = (number("cx") - rx, number("cy") - ry, number("cx") + rx, number("cy") + ry)
    elif name == "line":
        box = (min(number("x1"), number("x2")), min(number("y1"), number("y2")),
               max(number("x1"), number("x2")), max(number("y1"), number("y2")))
    elif name in ("polyline", "polygon"):
        values = [float(n) for n in NUMBER.findall(given.get("points", ""))]
        box = points_box(values[0::2], values[1::2])
    elif name == "path":
        box = path_box(given.get("d", ""))
    else:
        return text_box(given, style, piece, end)
    if box is None:
        return None
    stroke = reach(style, corners(name, given))
    return (box[0] - stroke, box[1] - stroke, box[2] + stroke, box[3] + stroke)


def corners(name: str, given: dict) -> float:
    """How far a mitred stroke may reach past a shape's corners, in half stroke widths (the
    ratio of a miter's length to the stroke's width): 1 without corners (a circle, a
    line), a square's diagonal for a rectangle's right angles, and as far as any miter
    reaches for a polygon's or a path's."""
    if name == "rect":
        return math.sqrt(2)
    if name in ("polyline", "polygon"):
        return math.inf if len(NUMBER.findall(given.get("points", ""))) > 4 else 1.0
    if name == "path":
        found = subpaths(given.get("d", ""))
        return math.inf if found is None or any(len(line) > 2 for line in found[0]) else 1.0
    return 1.0


def reach(style: dict, miter: float) -> float:
    """How far a shape's stroke reaches past its outline, in SVG units: half its width, as
    far as its corners' miters (at most the miter limit, for mitred joins: see
    `corners`), and a square cap's corner."""
    if style.get("stroke", "none") == "none":
        return 0.0
    factor = 1.0
    if style.get("stroke-linejoin", "miter") in ("miter", "miter-clip", "arcs"):
        factor = min(miter, max(1.0, float(style.get("stroke-miterlimit", 4))))
    if style.get("stroke-linecap") == "square":
        factor = max(factor, math.sqrt(2))
    return float(style.get("stroke-width", 1)) / 2 * factor


def points_box(xs, ys) -> tuple | None:
    """The box of some points."""
    if not xs or not ys:
        return None
    return min(xs), min(ys), max(xs), max(ys)


def path_box(d: str) -> tuple | None:
    """The box of a path's points and control points (which hold its curves); None for arcs,
    whose box is not worth reckoning here."""
    found = subpaths(d)
    if found is None:
        return None
    points = [point for line in found[0] for point in line]
    return points_box([x for x, _y in points], [y for _x, y in points])


@lru_cache(maxsize=SPRITES)
def subpaths(d: str) -> tuple[list, bool] | None:
    """A path's subpaths, each the list of its points (control points included), and whether
    any of it curves; None for arcs."""
    lines, curved, x, y, start = [], False, 0.0, 0.0, (0.0, 0.0)
    for command, args in PATH_PART.findall(d):
        kind, values = command.lower(), [float(n) for n in NUMBER.findall(args)]
        if kind == "a":
            return None
        if kind == "z":
            x, y = start
            continue
        curved = curved or kind in "csqt"
        count = PATH_ARGS[kind]
        for at in range(0, len(values) - count + 1, count):
            chunk = values[at:at + count]
            base = (x, y) if command.islower() else (0.0, 0.0)
            if kind == "m" and at == 0:
                lines.append([])
            elif not lines:
                lines.append([(x, y)])
            if kind == "h":
                x = base[0] + chunk[0]
            elif kind == "v":
                y = base[1] + chunk[0]
            else:
                points = [(base[0] + px, base[1] + py) for px, py in zip(chunk[0::2], chunk[1::2])]
                lines[-1] += points[:-1]
                x, y = points[-1]
            lines[-1].append((x, y))
            if kind == "m" and at == 0:
                start = (x, y)
            kind = "l" if kind == "m" else kind
    return lines, curved


def text_box(given: dict, style: dict, piece: str, end: int) -> tuple:
    """The box a text can fill: as wide as the shipped font draws it (each character as wide
    as the widest when it holds other elements), an em above the baseline and a third
    below, and a quarter of an em to spare at each end."""
    close = piece.find("</text>", end)
    content = piece[end:close if close >= 0 else len(piece)]
    size = float(style.get("font-size", 16))
    if "<" in content:
        wide = len(TAG.sub("", content).strip()) * size * TEXT_WIDTH
    else:
        wide = text_width(" ".join(html.unescape(content).split()), size,
                          style.get("font-weight") in ("bold", "bolder", "600", "700", "800",
                                                       "900"))
    x, y = float(given.get("x", 0)), float(given.get("y", 0))
    left = {"middle": x - wide / 2, "end": x - wide}.get(style.get("text-anchor"), x)
    return left - size / 4, y - size * 1.1, left + wide + size / 4, y + size / 3
