"""Every seat's maps read on a phone: a real headless Chromium lays each mail out at 360 px.

For each mail that shows a seat its board, every label of the board (each text of its
SVG, at the size the browser shows the image) is at least 9 CSS pixels high; or else
the mail carries a close-up of the board, and in it:

- every label the close-up shows is whole (no text cut by its edges, no legend or row
  of one, ``<g class="key">``, shown without its words) and at least 9 CSS pixels high;
- the labels that matter to what the seat is asked are in it: all of the entry's
  `all_of` (a SAGA battle's zone), and one at least of its `any_of` (the seat's own
  area: a zone it holds, its village's tiles, its legion's cells).

Each game is one entry of MAPS: the position a game starts from, its options, the play
that leads to the mails to read (as tests/mailkinds.py plays), and for the seats whose
mails are read, the labels that matter. A game whose map is drawn anew is one more entry.
"""

from dataclasses import dataclass, field
import html
import json
import re

import pytest

from pbem import inbound, raster
from pbem.app import SeatSpec
from pbem.mail import stored

from conftest import START, make_referee
from mailkinds import SAGA_START, SEIGNEURS_START, html_of, images_of, play
from players import parsed
from test_mail_browser import MEASURE, READABLE, browser, served  # noqa: F401 (a fixture)

TEXT = re.compile(r"<text\b([^>]*)>([^<]*)</text>")
KEY = re.compile(r'<g class="key">(.*?)</g>', re.DOTALL)
ATTRIBUTE = re.compile(r'([a-zA-Z][\w:-]*)="([^"]*)"')
BOARD_KINDS = ("welcome", "report", "status", "reminder")


@dataclass
class Reader:
    """A seat whose mails are read, and the labels they must show it (`any_of`: a list, or
    what gives it from the game's state and the seat)."""

    seat: str
    all_of: list = field(default_factory=list)
    any_of: object = field(default_factory=list)


def legion_cells(state, seat) -> list[str]:
    """Auguste: the cells the seat's legionaries stand on."""
    return [cell for cell, unit in state["units"].items()
            if state["legions"][unit["legion"]]["seat"] == seat]


@dataclass
class Map:
    """A game as its maps are read: from a position, through a play, by some readers."""

    seats: list
    options: dict
    readers: list
    position: dict | None = None
    play: list = field(default_factory=list)
    lang: dict = field(default_factory=dict)
    legend: bool = True  # its board has a legend (or each row of it) as a <g class="key">


# ann attacks bob in Wessex, far from the north that bob holds: both read the battle's
# zone, whatever else they hold.
SAGA_BATTLE = Map(["ann", "bob", "cat"], {}, [
    Reader("ann", all_of=["14 Wessex"]), Reader("bob", all_of=["14 Wessex"])],
    position={**SAGA_START, "owners": {**SAGA_START["owners"], "Jorvik": "bob",
                                       "Bernicia": "bob", "Lindsey": "bob",
                                       "Cumbria": "bob"}},
    play=[{"ann": "move host Wessex"}, {"until": "battle"}], lang={"bob": "fr"})
MAPS = {
    "auguste": Map(["ann", "bob", "cat", "dan"], {"preset": "4-2"},
                   [Reader("ann", any_of=legion_cells), Reader("dan", any_of=legion_cells)],
                   play=[{s: "pass" for s in ("ann", "bob", "cat", "dan")}], legend=False),
    "attila": Map(["ann", "bob", "cat"], {}, [Reader("ann", any_of=[
        "Belgica", "Raetia", "Noricum", "Pannonia", "Dacia", "Moesia"])]),
    "diplomacy": Map(["ann", "bob", "cat", "dan", "eve", "fay", "gus"], {
        "powers": "ann:france,bob:england,cat:germany,dan:italy,eve:austria,fay:russia,"
                  "gus:turkey"}, [Reader("ann", any_of=["PAR", "MAR", "BRE"]),
                                  Reader("bob", any_of=["LON", "EDI", "LVP"]),
                                  Reader("fay", any_of=["MOS", "SEV", "WAR", "STP"])]),
    "saga": Map(["ann", "bob", "cat"], {}, [
        Reader("ann", any_of=["15 Kent", "18 Normandy"]),
        Reader("cat", any_of=["3 Alba"])], position=SAGA_START, lang={"cat": "fr"}),
    "saga battle": SAGA_BATTLE,
    # bob's village lies by the legend, at the valley's right edge.
    "seigneurs": Map(["ann", "bob", "zed"], {"judge": "zed"}, [
        Reader("ann", any_of=["B2", "C2", "C3"]), Reader("bob", any_of=["D7", "D8", "E9"]),
        Reader("zed", any_of=["I3"])], position={
            **SEIGNEURS_START, "villages": {"ann": ["C2", "C3"], "bob": ["D7", "D8"]},
            "farms": {"B2": "ann", "E9": "bob", "I3": "free"}}, lang={"bob": "fr"}),
}


def mails_of(folder, entry: Map, game: str) -> dict:
    """{name: (outbox row, its mail, its board's SVG, its close-up or None)} of the mails
    with a board that the entry's readers got, after its play."""
    folder.mkdir()
    referee = make_referee(folder)
    ruleset = game.split()[0]
    referee.new_game(ruleset, "g", [SeatSpec(s, f"{s}@players.example",
                                             lang=entry.lang.get(s, "en"))
                                    for s in entry.seats], START, dict(entry.options),
                     seed="phone", position=entry.position)
    now = START
    for step in entry.play:
        now = play(referee, "g", step, now, "en")
    for reader in entry.readers:
        inbound.submit(referee, "g", reader.seat, "STATUS", now)
    found = {}
    for reader in entry.readers:
        rows = [r for r in referee.store.all("SELECT * FROM outbox WHERE seat = ? ORDER BY id",
                                             [reader.seat]) if r["kind"] in BOARD_KINDS]
        for row in rows[-2:]:  # the last report and the STATUS that shows it again
            board, close_up = parts(referee, row)
            if board:
                state = referee.table("g").state["game"]
                wanted = reader.any_of(state, reader.seat) if callable(reader.any_of) \
                    else reader.any_of
                found[f"{reader.seat}-{row['id']}"] = (
                    Reader(reader.seat, reader.all_of, wanted),
                    parsed({"raw": referee.store.outbox_mail(row)}), board, close_up)
    return found


def parts(referee, row) -> tuple:
    """(the board's SVG, {"zoom", "window"} of its close-up or None) of an outbox row."""
    board, close_up = None, None
    for _offset, key in json.loads(row["parts"] or "[]"):
        kind, _body = stored.stored_part(referee.store.conn, key)
        if kind == "board":
            board = stored.content(referee.store.conn, key).decode()
        elif kind == "close-up":
            close_up = json.loads(stored.content(referee.store.conn, key))
            board = stored.content(referee.store.conn, close_up["board"]).decode()
    return board, close_up


def labels(svg: str) -> list[tuple]:
    """(words, font size, box in SVG units) of each text of a board."""
    found = []
    for attributes, words in TEXT.findall(svg):
        given = dict(ATTRIBUTE.findall(attributes))
        size = float(given["font-size"])
        words = html.unescape(words.strip())
        wide = raster.text_width(words, size, given.get("font-weight") == "bold")
        x, y = float(given["x"]), float(given["y"])
        left = {"middle": x - wide / 2, "end": x - wide}.get(given.get("text-anchor"), x)
        found.append((words, size, (left, y - 0.75 * size, left + wide, y + 0.2 * size)))
    return found


def keys(svg: str) -> list[tuple]:
    """(its texts, the boxes of its other shapes) of each legend of a board, or each row
    of one (a ``<g class="key">``)."""
    rows = []
    for row in KEY.findall(svg):
        words = [html.unescape(text.strip()) for _attributes, text in TEXT.findall(row)]
        swatch = [raster.box_of(shape.group(0)) for shape in raster.ELEMENT.finditer(row)
                  if shape.group(1) != "text"]
        rows.append((words, [box for box in swatch if box]))
    return rows


def pixels(frame, box) -> tuple:
    """A box of SVG units in a frame's pixels."""
    return (box[0] * frame.scale + frame.dx, box[1] * frame.scale + frame.dy,
            box[2] * frame.scale + frame.dx, box[3] * frame.scale + frame.dy)


def inside(box, window) -> bool:
    return box[0] >= window[0] and box[1] >= window[1] and box[2] <= window[2] \
        and box[3] <= window[3]


def meets(box, window) -> bool:
    return box[0] < window[2] and box[1] < window[3] and box[2] > window[0] \
        and box[3] > window[1]


def faults_of(name: str, reader: Reader, svg: str, close_up, shown: dict) -> list[str]:
    """Why a mail laid out at 360 px fails the rule (see the module's docstring)."""
    widths = {cid: img["width"] / img["natural"][0] for img in shown["images"]
              for cid in ("board@pbem.png", "close-up@pbem.png")
              if img["src"].endswith(f"-{cid}") and img["natural"][0]}
    root = raster.svg_root(svg)
    frame = raster.frame_of(root)
    found = labels(svg)
    smallest = min(size for _w, size, _b in found) * frame.scale * widths["board@pbem.png"]
    if smallest >= READABLE:
        return []
    if close_up is None or "close-up@pbem.png" not in widths:
        return [f"{name}: labels {smallest:.1f} px high at 360 px, and no close-up"]
    faults = []
    zoomed = raster.frame_of(raster.zoomed(root, close_up["zoom"]))
    window = tuple(close_up["window"])
    scale = zoomed.scale * widths["close-up@pbem.png"]
    shown_words = set()
    for words, size, box in found:
        at = pixels(zoomed, box)
        if not meets(at, window):
            continue
        if not inside(at, window):
            faults.append(f"{name}: the close-up cuts the label {words!r}")
        elif size * scale < READABLE:
            faults.append(f"{name}: the label {words!r} is {size * scale:.1f} px high")
        else:
            shown_words.add(words)
    for words, swatch in keys(svg):
        if any(meets(pixels(zoomed, box), window) for box in swatch) and \
                not set(words) <= shown_words:
            faults.append(f"{name}: the close-up shows a legend's colours without its words "
                          f"{words}")
    faults += [f"{name}: the close-up lacks {words!r}" for words in reader.all_of
               if words not in shown_words]
    if reader.any_of and not shown_words & set(reader.any_of):
        faults.append(f"{name}: the close-up shows none of {reader.any_of}: {shown_words}")
    return faults


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(MAPS))
def test_every_label_of_a_seats_maps_reads_on_a_phone(browser, tmp_path, game):  # noqa: F811
    mails = mails_of(tmp_path / "db", MAPS[game], game)
    assert {reader.seat for reader, *_rest in mails.values()} == \
        {reader.seat for reader in MAPS[game].readers}
    names = []
    for name, (_reader, msg, _svg, _close_up) in sorted(mails.items()):
        page = html_of(msg)
        for cid, png in images_of(msg).items():
            (tmp_path / f"{name}-{cid}.png").write_bytes(png)
            page = page.replace(f"cid:{cid}", f"{name}-{cid}.png")
        (tmp_path / f"{name}.html").write_text(page, encoding="utf-8")
        names.append(name)
    (tmp_path / "all.html").write_text("<!DOCTYPE html><html><body style='margin: 0'>" + "".join(
        f"<iframe data-name='{name}' src='{name}.html' width='360' height='600' "
        "style='border: 0; display: block'></iframe>" for name in names) + "</body></html>",
        encoding="utf-8")
    server = served(tmp_path)
    try:
        browser.get(f"http://127.0.0.1:{server.server_port}/all.html")
        measured = {shown["name"]: shown for shown in browser.execute_script(MEASURE)}
    finally:
        server.shutdown()
        server.server_close()
    faults = []
    for name, (reader, _msg, svg, close_up) in sorted(mails.items()):
        assert bool(keys(svg)) == MAPS[game].legend, f"{name}: its legend is not as told"
        faults += faults_of(name, reader, svg, close_up, measured[name])
    assert not faults, "\n".join(faults)
