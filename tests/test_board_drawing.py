"""Boards drawn in layers look as resvg draws the whole SVG, on every board of bot games.

Each game is played by its bots (`pbem demo`); every board and close-up its
mails kept is drawn by pbem (the ground once, then the pieces' sprites) and by
resvg from the whole document, as pbem drew boards before, and the two images
are compared pixel by pixel: every pixel within a few levels (pbem's palette
rounds some colours), at most a few in ten thousand further apart (smoothed
edges drawn in two pieces).
"""

import html
import io
import sqlite3

from hypothesis import given, settings, strategies as st
from PIL import Image, ImageChops
import pytest

from pbem import demo, raster
from pbem.mail import stored

TURNS = {"auguste": 4, "attila": 2, "saga": 3, "seigneurs": 1, "diplomacy": 4}
SAMPLE = 16  # boards compared per game, spread over the game
CLOSE = 12  # levels per channel: pbem's palette rounds a colour by 3 at most
FAR_SHARE = 0.0005  # of the pixels may differ more


def kept_boards(folder) -> tuple[list[str], list[dict]]:
    """The boards (SVG) and the close-ups (with their board's SVG) a demo's mails kept."""
    db = sqlite3.connect(folder / "demo.db")
    try:
        return stored.boards_kept(db)
    finally:
        db.close()


def whole(svg: str, zoom: float = 1):
    """The board as resvg draws the whole document (`zoom` times its size)."""
    return raster.rasterise(svg if zoom == 1 else raster.at_zoom(svg, zoom))


def decoded(png: bytes):
    """A PNG as an RGB image."""
    return Image.open(io.BytesIO(png)).convert("RGB")


def differences(ours, theirs) -> str | None:
    """What is wrong with our drawing beside theirs, or None."""
    if ours.size != theirs.size:
        return f"{ours.size} beside {theirs.size}"
    levels = ImageChops.difference(ours, theirs).convert("L").histogram()
    far = sum(levels[CLOSE + 1:])
    if far > FAR_SHARE * ours.width * ours.height:
        return f"{far} of {ours.width * ours.height} pixels more than {CLOSE} levels apart"
    return None


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(TURNS))
def test_boards_drawn_in_layers_look_as_the_whole_svg_drawn(tmp_path, game):
    demo.play(game, "layers", tmp_path / "demo", TURNS[game])
    boards, close_ups = kept_boards(tmp_path / "demo")
    assert len(boards) >= 5 and len(close_ups) >= 5
    assert all(raster.layers(svg) is not None for svg in boards)
    assert sum(bool(raster.layers(svg).pieces) for svg in boards) >= len(boards) - 1
    raster.forget()
    faults = []
    step = max(1, len(boards) // SAMPLE)
    for number, svg in list(enumerate(boards))[::step]:
        wrong = differences(decoded(raster.png(svg)), whole(svg))
        if wrong:
            faults.append(f"board {number}: {wrong}")
    step = max(1, len(close_ups) // SAMPLE)
    for number, close_up in list(enumerate(close_ups))[::step]:
        zoom, window = close_up["zoom"], tuple(close_up["window"])
        wrong = differences(decoded(raster.close_up(close_up["svg"], zoom, window)),
                            whole(close_up["svg"], zoom).crop(window))
        if wrong:
            faults.append(f"close-up {number}: {wrong}")
    assert not faults, "\n".join(faults)


@pytest.mark.slow
def test_a_board_is_the_same_png_whatever_was_drawn_before(tmp_path):
    demo.play("saga", "same", tmp_path / "demo", 2)
    boards, _ = kept_boards(tmp_path / "demo")
    raster.forget()
    in_turn = [raster.png(svg) for svg in boards]
    raster.forget()
    assert [raster.png(svg) for svg in reversed(boards)] == in_turn[::-1]


def test_a_board_kept_before_its_svg_had_layers_is_drawn_whole():
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 30" width="80">'
           '<rect width="40" height="30" fill="#fbf8f0"/>'
           '<circle cx="20" cy="15" r="10" fill="#d62828"/></svg>')
    assert raster.layers(svg) is None
    ours = decoded(raster.png(svg))
    assert ours.size == (80, 60) and differences(ours, whole(svg)) is None
    assert ours.getpixel((40, 30)) == (0xd6, 0x28, 0x28)


def test_a_piece_whose_box_cannot_be_told_is_drawn_over_the_whole_board():
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 30" width="40" '
           'height="30"><g class="ground"><rect width="40" height="30" fill="#fff"/></g>'
           '<g class="piece"><circle cx="5" cy="5" r="3" fill="#000"/></g>'
           '<g class="piece"><circle cx="30" cy="20" r="4" fill="#00f" '
           'transform="translate(2 2)"/></g></svg>')
    assert raster.box_of(raster.layers(svg).pieces[1]) is None
    ours = decoded(raster.png(svg))
    assert differences(ours, whole(svg)) is None
    assert ours.getpixel((32, 22)) == (0, 0, 255) and ours.getpixel((5, 5)) == (0, 0, 0)


def test_bands_compressed_alone_make_one_stream_and_a_board_drawn_whole_keeps_its_colours():
    import random
    import zlib
    rng = random.Random(7)
    for _ in range(50):
        first, second = rng.randbytes(rng.randrange(70000)), rng.randbytes(rng.randrange(9000))
        assert raster.adler32_combine(zlib.adler32(first), zlib.adler32(second),
                                      len(second)) == zlib.adler32(first + second)
    image = Image.new("RGB", (90, 3 * raster.BAND + 5), (250, 248, 240))
    for n in range(300):  # more colours than a palette holds: the most frequent are kept
        image.putpixel((n % 90, n // 90 * 9), (n % 256, n * 7 % 256, 40))
    counted = sorted(image.getcolors(4096), key=lambda c: (-c[0], c[1]))[:raster.COLOURS]
    indexed = image.quantize(palette=raster.palette(tuple(sorted(c for _n, c in counted))),
                             dither=Image.Dither.NONE)
    assert decoded(raster.whole(image)).tobytes() == indexed.convert("RGB").tobytes()


def test_pieces_of_more_colours_than_a_palette_holds_keep_the_ground_and_their_own_colours():
    colours = [(n * 37 % 256, n * 91 % 256, n * 53 % 256) for n in range(1, 301)]
    tile = '<g class="piece"><rect x="{x}" y="{y}" width="{w}" height="3" fill="{c}"/></g>'
    pieces = [tile.format(x=n % 20 * 6, y=n // 20 * 5 + 10, w=5 if n < 40 else 1,
                          c="#%02x%02x%02x" % colour) for n, colour in enumerate(colours)]
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 160" width="120" '
           'height="160"><g class="ground"><rect width="120" height="160" fill="#f7f4ea"/>'
           '<rect width="120" height="8" fill="#2b2b2b"/></g>' + "".join(pieces) + '</svg>')
    raster.forget()
    drawn = raster.png(svg)
    raster.png(svg.replace(pieces[0], ""))
    assert raster.png(svg) == drawn  # whatever was drawn before
    raster.forget()
    assert raster.png(svg) == drawn
    ours = decoded(drawn)
    assert ours.getpixel((1, 1)) == (0x2b, 0x2b, 0x2b)
    assert ours.getpixel((1, 150)) == (0xf7, 0xf4, 0xea)
    for n, colour in enumerate(colours[:40]):  # the widest tiles: the most frequent colours
        drawn_as = ours.getpixel((n % 20 * 6 + 2, n // 20 * 5 + 11))
        assert max(abs(a - b) for a, b in zip(drawn_as, colour)) <= 3
    assert differences(ours, whole(svg)) is None


def test_a_ground_kept_on_disk_is_read_by_the_next_process_and_drawn_again_when_not_whole(
        tmp_path, monkeypatch):
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 30" width="80" '
           'height="60"><g class="ground"><rect width="40" height="30" fill="#fbf8f0"/>'
           '<text x="4" y="12" font-size="8">Roma</text></g>'
           '<g class="piece"><circle cx="30" cy="20" r="4" fill="#d62828"/></g></svg>')
    raster.forget()
    drawn = raster.png(svg)
    [kept] = raster.ground_folder().glob("*.png")
    assert raster.ground_folder().parent == tmp_path
    raster.forget()  # as a new process
    assert raster.png(svg) == drawn
    kept.write_bytes(kept.read_bytes()[:200])  # a ground half written
    raster.forget()
    assert raster.png(svg) == drawn
    assert differences(decoded(drawn), whole(svg)) is None


def test_a_shape_moved_by_whole_pixels_keeps_its_curves_and_is_drawn_once_for_every_place():
    assert raster.shifted('<path d="m1,2 l3,4 H5 V6 C1 2 3 4 5 6 A1 1 0 0 1 7 8 z"/>', 10, 20) \
        == '<path d="m11 22 l3 4 H15 V26 C11 22 13 24 15 26 A1 1 0 0 1 17 28 z"/>'
    assert raster.shifted('<g><text x="3" y="4">A</text><polygon points="1,2 3,4"/></g>',
                          1.5, -2) == ('<g><text x="4.5" y="2">A</text>'
                                      '<polygon points="2.5 0 4.5 2"/></g>')
    assert raster.shifted('<circle cx="1" cy="1" r="2" transform="scale(2)"/>', 1, 1) is None
    badge = ('<g class="piece"><circle cx="{x}" cy="{y}" r="8" fill="#c0392b" stroke="#fff"/>'
             '<text x="{x}" y="{y}" font-size="11" text-anchor="middle" fill="#fff">A</text></g>')
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 60" width="120" '
           'height="60"><g class="ground"><rect width="120" height="60" fill="#f7f4ea"/></g>'
           + "".join(badge.format(x=x, y=y) for x, y in ((20, 20), (70, 35), (100, 48)))
           + '</svg>')
    raster.forget()
    ours = decoded(raster.png(svg))
    assert differences(ours, whole(svg)) is None
    assert ours.getpixel((70, 31)) == ours.getpixel((20, 16)) == (0xc0, 0x39, 0x2b)
    assert len(raster._elements) == 2  # the disc and its letter, drawn once for three places


def test_a_text_too_wide_for_its_room_is_cut_with_an_ellipsis():
    assert raster.fitted("Austria (cat)", 12, 200) == "Austria (cat)"
    name = "Austria (alexandre.dumas.pere)"
    cut = raster.fitted(name, 12, 100)
    assert cut.endswith("\u2026") and name.startswith(cut[:-1])
    longer = name[:len(cut)] + "\u2026"  # one letter more
    assert raster.text_width(cut, 12) <= 100 < raster.text_width(longer, 12)
    assert raster.text_width("1903", 15, bold=True) > raster.text_width("1903", 15)


def test_a_point_snapped_to_the_pixel_grid_is_drawn_on_a_pixel_corner():
    frame = raster.frame_of({"viewBox": "-256 -224 512 449", "width": "640", "height": "561"})
    for x, y in ((58.9, -152.0), (-235.6, 1.0), (0.3, 0.7)):
        sx, sy = frame.snapped(x, y)
        assert abs(sx - x) * frame.scale <= 0.5 and abs(sy - y) * frame.scale <= 0.5
        px, py = sx * frame.scale + frame.dx, sy * frame.scale + frame.dy
        assert abs(px - round(px)) < 1e-9 and abs(py - round(py)) < 1e-9


def test_auguste_draws_a_legionary_of_each_colour_once_for_every_cell(tmp_path):
    demo.play("auguste", "once", tmp_path / "demo", 1)
    boards, _ = kept_boards(tmp_path / "demo")
    raster.forget()
    raster.png(boards[0])
    legionaries = [shape for _frame, shape in raster._elements if shape.startswith("<circle")
                   and 'r="8"' in shape and 'fill="none"' not in shape]
    assert len(raster.layers(boards[0]).pieces) > 40
    assert len(legionaries) == 4  # four legions, 77 pieces


def test_attila_draws_a_count_of_pawns_once_for_every_box(tmp_path):
    demo.play("attila", "once", tmp_path / "demo", 3)
    boards, _ = kept_boards(tmp_path / "demo")
    raster.forget()
    for svg in boards:
        raster.png(svg)
    ones = [shape for _frame, shape in raster._elements
            if shape.startswith("<text") and shape.endswith(">1</text>")]
    boxes_with_one = {piece for svg in boards for piece in raster.layers(svg).pieces
                      if ">1</text>" in piece}
    assert len(boxes_with_one) > 4
    assert len(ones) <= 2  # a dark and a light "1", whatever box they stand in


corners = st.lists(st.tuples(st.floats(0, 60), st.floats(0, 60)), min_size=2, max_size=6)


@st.composite
def straight_shapes(draw):
    """An element of straight sides, as boards draw arrows, lines and marks: a polygon, a
    path (absolute or relative, closed or not, with H and V) or a line, filled and
    stroked or not."""
    points = [(round(x, 1) + 20, round(y, 1) + 20) for x, y in draw(corners)]
    kind = draw(st.sampled_from(["polygon", "path", "relative", "line"]))
    if kind == "polygon":
        shape = '<polygon points="%s"' % " ".join(f"{x},{y}" for x, y in points)
    elif kind == "line":
        (x1, y1), (x2, y2) = points[:2]
        shape = f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"'
    else:
        d = f"M{points[0][0]} {points[0][1]}"
        for (px, py), (x, y) in zip(points, points[1:]):
            step = draw(st.sampled_from("LHV"))
            if kind == "relative":
                d += {"L": f" l{round(x - px, 1)} {round(y - py, 1)}", "H": f" h{round(x - px, 1)}",
                      "V": f" v{round(y - py, 1)}"}[step]
            else:
                d += {"L": f" L{x} {y}", "H": f" H{x}", "V": f" V{y}"}[step]
            if step != "L":
                break
        shape = f'<path d="{d}{draw(st.sampled_from(["", " Z"]))}"'
    stroke = draw(st.sampled_from([0, 0.8, 1, 2.2, 4]))
    fill = draw(st.sampled_from(["#c0392b", "none"])) if kind != "line" else "none"
    shape += f' fill="{fill}"'
    if stroke or fill == "none":
        shape += f' stroke="#1a1a1a" stroke-width="{stroke or 1}"'
        shape += draw(st.sampled_from(["", ' stroke-linejoin="round"', ' stroke-dasharray="5,3"']))
    return shape + "/>"


@settings(max_examples=60, deadline=None)
@given(straight_shapes(), st.sampled_from([(120, 120), (90, 120), (300, 240), (207, 170)]))
def test_a_straight_shape_draws_nothing_outside_its_footprint(shape, size):
    root = {"viewBox": "0 0 100 100", "width": str(size[0]), "height": str(size[1])}
    frame = raster.frame_of(root)
    box = raster.place(shape, frame)
    strips = raster.footprint(shape, box, frame)
    drawn = raster.rasterise(f'{raster.root_tag(root)}{shape}</svg>', "RGBA").getchannel("A")
    inside = Image.new("L", drawn.size)
    for top, bottom, left, right in strips:
        inside.paste(255, (box[0] + left, box[1] + top, box[0] + right, box[1] + bottom))
    assert ImageChops.subtract(drawn, inside).getbbox() is None, strips
    assert all(box[1] + bottom <= box[3] and box[0] + right <= box[2]
               for _top, bottom, _left, right in strips)


@settings(max_examples=60, deadline=None)
@given(st.text(st.sampled_from("AaWMjfgyÉàç1 ,.'()-→"), min_size=1, max_size=30)
       .filter(str.strip), st.sampled_from([8, 10, 12.5, 14]),
       st.sampled_from(["", ' font-weight="bold"']),
       st.sampled_from(["", ' text-anchor="middle"', ' text-anchor="end"']))
def test_a_text_draws_nothing_outside_its_box(words, size, weight, anchor):
    root = {"viewBox": "0 0 400 60", "width": "400", "height": "60"}
    text = (f'<text x="200" y="35" font-size="{size}" font-family="DejaVu Sans, sans-serif"'
            f'{weight}{anchor}>{html.escape(words)}</text>')
    box = raster.place(text, raster.frame_of(root))
    drawn = raster.rasterise(f'{raster.root_tag(root)}{text}</svg>', "RGBA").getchannel("A")
    inside = Image.new("L", drawn.size)
    inside.paste(255, box)
    assert ImageChops.subtract(drawn, inside).getbbox() is None, box


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.tuples(st.integers(0, 80), st.integers(1, 90)), min_size=1,
                         max_size=12).map(sorted), min_size=1, max_size=30))
def test_frames_packed_on_a_sheet_never_meet_and_stay_on_it(given_strips):
    footprints = []
    for spans in given_strips:  # one span of columns per strip, each STRIP rows high
        rows = [(n * raster.STRIP, (n + 1) * raster.STRIP, min(a, b), max(a, b) + 1)
                for n, (a, b) in enumerate(spans)]
        footprints.append(rows)
    spots, width, height = raster.packed(footprints + [None])
    assert spots[-1] is None
    taken = Image.new("L", (width, height))
    for (x, y), rows in zip(spots, footprints):
        for top, bottom, left, right in rows:
            area = (x + left, y + top, x + right + raster.SPACING, y + bottom)
            assert area[2] <= width + raster.SPACING and area[3] <= height
            assert taken.crop(area).getbbox() is None
            taken.paste(255, area)
