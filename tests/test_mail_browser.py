"""Every kind of mail of every game, in both languages, as a real headless Chromium shows it.

Each mail's HTML is written to a folder with its images beside it (each cid:
link rewritten to the file's name), served on 127.0.0.1 (so the page may measure
its frames), and Chromium lays them out, each in a
frame of a phone's 360 px and of a desktop's 1200 px: nothing may stick out
sideways (scrollWidth <= innerWidth), and the board image must load, show and
fit. The PNG must decode and have the board's own size (the size its SVG
declares), and the close-up of the seat's own area the size of its window. At
360 px the board's smallest text is at least 9 CSS pixels high in the board or
in its close-up.

Chromium is the system's (Debian's `chromium` and `chromium-driver`, which the
README's test command installs), driven by selenium; nothing is downloaded.
"""

from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
import io
from pathlib import Path
import re
import shutil
import threading

from PIL import Image
import pytest

from mailkinds import GAMES, board_svg, close_ups, html_of, images_of, write_all

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
WIDTHS = (360, 1200)
BOARD_KINDS = ("welcome", "status", "reminder", "over")  # every game shows its board in these
ROOT_SVG = re.compile(r"<svg\b[^>]*>")
READABLE = 9  # CSS pixels: the smallest text a phone's reader can read
# What a page of mails tells of each one: its width and where its images are.
MEASURE = """
return [...document.querySelectorAll("iframe")].map(frame => {
  const win = frame.contentWindow, doc = frame.contentDocument;
  return {name: frame.dataset.name, inner: win.innerWidth,
          scroll: doc.documentElement.scrollWidth,
          images: [...doc.images].map(img => {
            const box = img.getBoundingClientRect(), style = getComputedStyle(img);
            return {src: img.getAttribute("src"), complete: img.complete,
                    natural: [img.naturalWidth, img.naturalHeight],
                    left: box.left, right: box.right, width: box.width, height: box.height,
                    shown: style.visibility === "visible" && style.display !== "none"};
          })};
});
"""


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """One headless Chromium for the module, with a fresh profile."""
    missing = [path for path in (CHROMIUM, CHROMEDRIVER) if not shutil.which(path)]
    if missing:
        pytest.fail(f"{' and '.join(missing)} not found: install the Debian packages chromium "
                    "and chromium-driver (the README's test command does)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run",
                 f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_window_size(1300, 900)
    yield driver
    driver.quit()


class QuietHandler(SimpleHTTPRequestHandler):
    """Serves a folder without logging every request."""

    def log_message(self, *args):
        pass


def served(folder: Path):
    """An HTTP server on 127.0.0.1 serving `folder`, running in a thread."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(QuietHandler, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def declared_size(svg: str) -> tuple[int, int]:
    """The size an SVG document declares: width and height, or the height its viewBox gives."""
    root = ROOT_SVG.search(svg).group(0)
    width = float(re.search(r'\swidth="([\d.]+)"', root).group(1))
    height = re.search(r'\sheight="([\d.]+)"', root)
    if height:
        return round(width), round(float(height.group(1)))
    box = [float(n) for n in re.search(r'viewBox="([^"]+)"', root).group(1).split()]
    return round(width), round(width * box[3] / box[2])


def smallest_text(svg: str) -> float:
    """The smallest text of a board, in the PNG's pixels at the board's own size."""
    root = ROOT_SVG.search(svg).group(0)
    box = [float(n) for n in re.search(r'viewBox="([^"]+)"', root).group(1).split()]
    width, height = declared_size(svg)
    scale = min(width / box[2], height / box[3])
    return min(float(size) for size in re.findall(r'font-size="([\d.]+)"', svg)) * scale


def pages(folder: Path, mails: dict) -> dict:
    """Each mail's HTML written beside its images, and {width: a page framing them all}."""
    names = []
    for name, msg in sorted(mails.items()):
        html = html_of(msg)
        for cid, png in images_of(msg).items():
            (folder / f"{name}-{cid}.png").write_bytes(png)
            html = html.replace(f"cid:{cid}", f"{name}-{cid}.png")
        assert "cid:" not in html, f"{name}: a cid: link without its image"
        (folder / f"{name}.html").write_text(html, encoding="utf-8")
        names.append(name)
    out = {}
    for width in WIDTHS:
        out[width] = folder / f"all-{width}.html"
        out[width].write_text("<!DOCTYPE html><html><body style='margin: 0'>" + "".join(
            f"<iframe data-name='{name}' src='{name}.html' width='{width}' height='600' "
            "style='border: 0; display: block'></iframe>" for name in names) +
            "</body></html>", encoding="utf-8")
    return out


def image_faults(mails: dict, size: tuple[int, int], close_ups: dict) -> list[str]:
    """Mails that should show the board and its close-up and do not; PNGs that do not
    decode at the board's size, or at the size of the close-up's window."""
    faults = []
    for name, msg in sorted(mails.items()):
        images = images_of(msg)
        if not images:
            if name.split("-", 1)[1] in BOARD_KINDS:
                faults.append(f"{name}: no board image")
            continue
        if "close-up@pbem" not in images or name not in close_ups:
            faults.append(f"{name}: a board without the close-up of the seat's own area")
        for cid, png in images.items():
            try:
                image = Image.open(io.BytesIO(png))
                image.load()
            except OSError as problem:
                faults.append(f"{name}: the PNG {cid} does not decode: {problem}")
                continue
            if cid == "board@pbem" and (abs(image.width - size[0]) > 1
                                        or abs(image.height - size[1]) > 1):
                faults.append(f"{name}: the PNG is {image.size}, the board {size}")
            if cid == "close-up@pbem" and name in close_ups:
                left, top, right, bottom = close_ups[name]["window"]
                if image.size != (right - left, bottom - top):
                    faults.append(f"{name}: the close-up is {image.size}, its window "
                                  f"{close_ups[name]['window']}")
    return faults


def label_faults(shown: dict, text: float, zoom: float) -> list[str]:
    """A board mail laid out at a phone's width whose board's smallest text (`text` pixels
    in the board's PNG, `zoom` times that in its close-up) is too small to read in both
    its board and its close-up."""
    sizes = {}
    for img in shown["images"]:
        scale = img["width"] / img["natural"][0] if img["natural"][0] else 0
        if img["src"].endswith("-board@pbem.png"):
            sizes["board"] = text * scale
        elif img["src"].endswith("-close-up@pbem.png"):
            sizes["close-up"] = text * zoom * scale
    if sizes and max(sizes.values()) < READABLE:
        return [f"{shown['name']}: its smallest text is {sizes} CSS pixels high at 360 px"]
    return []


def layout_faults(shown: dict, width: int) -> list[str]:
    """What is wrong with one mail as the browser laid it out at `width`."""
    where = f"{shown['name']} at {width} px"
    faults = []
    if shown["inner"] != width:
        faults.append(f"{where}: the frame is {shown['inner']} px wide")
    if shown["scroll"] > shown["inner"]:
        faults.append(f"{where}: it is {shown['scroll']} px wide and overflows sideways")
    for img in shown["images"]:
        if not (img["complete"] and img["natural"][0] > 0 and img["shown"]
                and img["width"] > 0 and img["height"] > 0):
            faults.append(f"{where}: the image {img['src']} is not shown: {img}")
        elif img["left"] < 0 or img["right"] > shown["inner"]:
            faults.append(f"{where}: the image {img['src']} sticks out: {img}")
    return faults


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_mail_fits_a_phone_and_a_desktop_and_shows_its_board(browser, tmp_path, game):
    mails, faults, kept = {}, [], {}
    for lang in ("en", "fr"):
        (tmp_path / lang).mkdir()
        written = write_all(tmp_path / lang, game, lang)
        mails.update({f"{lang}-{kind}": msg for kind, msg in written.items()})
        kept.update({f"{lang}-{kind}": close_up
                     for kind, close_up in close_ups(tmp_path / lang).items()})
        faults += image_faults({f"{lang}-{kind}": msg for kind, msg in written.items()},
                               declared_size(board_svg(tmp_path / lang, game)), kept)
    server = served(tmp_path)
    try:
        for width, page in pages(tmp_path, mails).items():
            browser.get(f"http://127.0.0.1:{server.server_port}/{page.name}")
            measured = browser.execute_script(MEASURE)
            assert sorted(m["name"] for m in measured) == sorted(mails)
            for shown in measured:
                faults += layout_faults(shown, width)
                if width == 360 and shown["name"] in kept:
                    close_up = kept[shown["name"]]
                    faults += label_faults(shown, smallest_text(close_up["svg"]),
                                           close_up["zoom"])
    finally:
        server.shutdown()
        server.server_close()
    assert not faults, "\n".join(faults)


def refusals(folder: Path) -> dict:
    """The refusals a French and an English player get for a mail without a game tag, whose
    subject is one long word."""
    import email
    from email import policy
    from conftest import START, make_referee, seats
    from pbem import inbound
    from pbem.mail import intake
    referee = make_referee(folder)
    referee.new_game("auguste", "rome", seats("ann", "bob", "cat", "dan"), START, {}, seed="n")
    referee.store.update("seats", {"game": "rome", "name": "ann"}, {"lang": "fr"})
    mails = {}
    for lang, seat in (("fr", "ann"), ("en", "bob")):
        raw = (f"From: {seat} <{seat}@players.example>\nTo: pbem@referee.example\n"
               f"Subject: Re: {'mes_ordres_' * 12}\nMessage-ID: <{seat}.long@players.example>\n"
               f"\nred: move A B\n").encode()
        intake.ingest(referee.store, raw, "test", START)
        inbound.process_inbox(referee, START)
        [row] = referee.store.all("SELECT * FROM outbox WHERE kind = 'notice' AND to_addr = ?",
                                  [f"{seat}@players.example"])
        mails[f"{lang}-notice"] = email.message_from_bytes(referee.store.outbox_mail(row),
                                                           policy=policy.default)
    return mails


def mail_faults(browser, folder: Path, mails: dict) -> list[str]:
    """What is wrong with these mails as Chromium lays them out at each width (their pages
    written into `folder`)."""
    faults = []
    server = served(folder)
    try:
        for width, page in pages(folder, mails).items():
            browser.get(f"http://127.0.0.1:{server.server_port}/{page.name}")
            for shown in browser.execute_script(MEASURE):
                faults += layout_faults(shown, width)
    finally:
        server.shutdown()
        server.server_close()
    return faults


def test_a_refusal_with_a_long_subject_fits_a_phone(browser, tmp_path):
    (tmp_path / "db").mkdir()
    faults = mail_faults(browser, tmp_path, refusals(tmp_path / "db"))
    assert not faults, "\n".join(faults)


# Each Diplomacy board, as a phone lays it out: the close-ups at their own size, their
# texts' font sizes in CSS pixels; the whole board 360 px wide, its pieces' boxes.
MEASURE_BOARD = """
const [url, view, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
fetch(url).then(r => r.text()).then(text => {
  const holder = document.getElementById("board");
  holder.innerHTML = text;
  const svg = holder.querySelector("svg");
  if (view) {
    svg.setAttribute("viewBox", view.box.join(" "));
    svg.setAttribute("width", view.size[0]);
    svg.setAttribute("height", view.size[1]);
    svg.style.width = view.size[0] + "px";
  }
  const frame = svg.getBoundingClientRect(), scale = svg.getScreenCTM().a;
  const seen = box => box.right > frame.left && box.left < frame.right
    && box.bottom > frame.top && box.top < frame.bottom;
  const out = box => box.left < frame.left - 0.5 || box.right > frame.right + 0.5
    || box.top < frame.top - 0.5 || box.bottom > frame.bottom + 0.5;
  done({width: frame.width,
        texts: [...svg.querySelectorAll("text")].filter(t => seen(t.getBoundingClientRect()))
          .map(t => [t.textContent, parseFloat(t.getAttribute("font-size")) * scale]),
        outside: [...svg.querySelectorAll("g.piece")].filter(g => out(g.getBoundingClientRect()))
          .map(g => g.innerHTML.slice(0, 120))});
});
"""


@pytest.mark.slow
def test_every_diplomacy_board_of_a_whole_game_reads_on_a_phone(browser, tmp_path):
    import sqlite3
    from pbem import demo
    from pbem.mail import stored
    demo.play("diplomacy", "phone", tmp_path / "demo", 4)  # two years, to the game's end
    db = sqlite3.connect(tmp_path / "demo" / "demo.db")
    try:
        boards, close_ups = stored.boards_kept(db)
    finally:
        db.close()
    phases = {re.search(r"<title>(.*?)</title>", svg).group(1) for svg in boards}
    arrows = [svg for svg in boards if 'stroke-width="1" stroke-linejoin="round"' in svg]
    assert len(phases) == len(boards) >= 7 and len(arrows) >= len(boards) // 2
    names = {svg: f"board-{n}.svg" for n, svg in enumerate(boards)}
    for svg, name in names.items():
        (tmp_path / name).write_text(svg, encoding="utf-8")
    (tmp_path / "page.html").write_text(
        "<!DOCTYPE html><html><body style='margin: 0'><div id='board' style='width: 360px'>"
        "</div></body></html>", encoding="utf-8")
    server = served(tmp_path)
    faults = []
    try:
        browser.set_window_size(360 + 16, 900)
        browser.get(f"http://127.0.0.1:{server.server_port}/page.html")
        for svg, name in names.items():
            shown = browser.execute_async_script(MEASURE_BOARD, name, None)
            assert 300 <= shown["width"] <= 360
            faults += [f"{name}: a piece outside the map: {piece}" for piece in shown["outside"]]
        windows = {(c["board"], tuple(c["window"])): c for c in close_ups}
        assert len(windows) >= len(boards)
        for close_up in windows.values():
            left, top, right, bottom = close_up["window"]
            zoom = close_up["zoom"]
            view = {"box": [left / zoom, top / zoom, (right - left) / zoom,
                            (bottom - top) / zoom], "size": [right - left, bottom - top]}
            shown = browser.execute_async_script(MEASURE_BOARD, names[close_up["svg"]], view)
            assert shown["texts"], "a close-up with no name in it"
            faults += [f"{names[close_up['svg']]} close up at {close_up['window']}: "
                       f"'{text}' is {size:.1f} CSS px high"
                       for text, size in shown["texts"] if size < READABLE]
    finally:
        server.shutdown()
        server.server_close()
        browser.set_window_size(1300, 900)
    assert not faults, "\n".join(faults[:20])
