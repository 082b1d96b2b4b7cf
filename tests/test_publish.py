"""The public archive: whole bot games of every game, published, scanned, and laid out in a
real headless Chromium.

One club plays a game of each kind to its end (SAGA under fog of war), with
press between two seats and press to every seat (in mails of their own, and
both in one mail), a game left half-played, and a game open for players. Its
archive, and the same club published with --reveal, are then checked as a
spectator would find them: every link leads to a file, every image shows,
every page kind fits a phone's 360 px and a desktop's 1200 px without a
script, each phase is told under its name with the board after it, drawn
from the public view after that phase; and as a leak would show: no seat's
code, no address but the club's, no line pbem narrates of an event the
public may not see (but in a finished game published whole, which says so),
no private press, and boards blind to whatever fog of war hides (the leak
tests' shuffled secrets). No board's label overlaps the shape it names.

A kill test stops `pbem tick` (which rewrites the archive in publish_dir) at
random moments: whatever moment it stops, the archive is the old pages or the
new, every link still leads to a file.
"""

from io import BytesIO
import os
from pathlib import Path
import random
import re
import shutil
import signal
import subprocess
import sys
from xml.etree import ElementTree

from bs4 import BeautifulSoup
from click.testing import CliRunner
from PIL import Image
import pytest

import pbem.games
import pbem.publish
from pbem import inbound, render
from pbem import raster
from pbem.adjudicator.contract import REFEREE
from pbem.adjudicator.engine import narrate, told_words
from pbem.adjudicator.rng import PhaseRng, seed_digest
from pbem.cli import main
from pbem.demo import bot_mails
from pbem.i18n import speaking
from pbem.observers import observe
from pbem.letters import turn_of
from pbem.publish import TITLES, WORDS, publish, publish_changed, story
from pbem.signup import open_game
from pbem.store import row_event
from pbem.timeutil import later
from pbem.adjudicator import engine

from conftest import START, make_referee, seats
from leaks import shown_lines
from test_attila_leaks import shuffled_secrets as attila_secrets
from test_mail_browser import MEASURE, browser, layout_faults, served  # noqa: F401
from test_saga_leaks import shuffled_secrets as saga_secrets
from test_seigneurs_leaks import shuffled_secrets as seigneurs_secrets

CLUB = "pbem@referee.example"
ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(\.[\w-]+)+")
# Each game as the club plays it: (ruleset, id, seats, options).
GAMES = [("attila", "huns", ["ann", "bob"], {}),
         ("auguste", "rome", ["ann", "bob"], {"max_turns": "6"}),
         ("saga", "vikings", ["ann", "bob", "cat"], {"rounds": "2"}),
         ("seigneurs", "vale", ["ann", "bob", "zed"], {"judge": "zed", "turns": "2"}),
         ("diplomacy", "europe", ["ann", "bob"], {"years": "2"})]
SECRETS = {"attila": attila_secrets, "saga": saga_secrets, "seigneurs": seigneurs_secrets}
WIDTHS = (360, 1200)
FRAMES = 30          # pages laid out at once, each in its own frame


def play(referee, game_id: str, seed: str, phases: int = 10_000) -> None:
    """Bots answer what each phase asks (the referee's rulings too) until the game ends
    or `phases` phases are played; now and then a seat whispers to another, or writes
    to every seat."""
    table = referee.table(game_id)
    game, now = table.game, START
    for number in range(phases):
        state = referee.table(game_id).state
        eng = state["engine"]
        if eng["over"]:
            return
        if REFEREE in eng["requests"]:
            values, text = game.bot_ruling(state["game"], eng["requests"][REFEREE],
                                           PhaseRng(seed, "bot:referee", eng["phase"]))
            [ruling] = [r for r in referee.rulings(game_id) if r["asked"] == REFEREE]
            referee.rule(game_id, ruling["id"], text, values, now)
            continue
        for writer, text in bot_mails(game, state, seed, {"silent": 0}).items():
            inbound.submit(referee, game_id, writer, text, now)
        first, second = eng["seats"][:2]
        if number % 4 == 1:
            inbound.submit(referee, game_id, first, f"PRESS {second}\nwhisper {game_id} "
                           f"{number}: for {second} alone", now)
            inbound.submit(referee, game_id, second, f"PRESS ALL\nHear ye, all of {game_id}, "
                           f"phase {number}!", now)
        elif number % 4 == 3:  # press to every seat and to one, in the same mail
            inbound.submit(referee, game_id, second, f"PRESS ALL\nBoth ways, {game_id} "
                           f"{number}, to all.\nPRESS {first}\nBoth ways, {game_id} {number}, "
                           f"for {first} alone", now)
        now = later(now, 1)
        if not referee.tick(now, send=False).phases:
            now = referee.table(game_id).state["engine"]["deadline"] or now
            referee.tick(now, send=False)
    assert phases < 10_000, f"{game_id} did not end"


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    """A club with a finished game of each kind, one half-played, one open for players,
    and its archive."""
    folder = tmp_path_factory.mktemp("club")
    referee = make_referee(folder)
    for ruleset, game_id, names, options in GAMES:
        referee.new_game(ruleset, game_id, seats(*names), START, options, seed=f"{game_id}-s")
        play(referee, game_id, f"{game_id}-s")
    referee.new_game("auguste", "lyon", seats("cat", "dan"), START, {}, seed="lyon-s")
    play(referee, "lyon", "lyon-s", phases=4)
    observe(referee, "lyon", "kibitzer@watchers.example", later(START, 200))
    open_game(referee, "attila", "gauls", START, players=(2, 4))
    inbound.process_inbox(referee, START)
    publish(referee, folder / "site")
    publish(referee, folder / "whole", reveal=True)
    return referee, folder / "site"


def pages_of(site: Path) -> list[Path]:
    """Every page of the archive."""
    return sorted(site.rglob("*.html"))


def words(page: Path) -> str:
    """A page's text as a reader reads it, on one line."""
    return " ".join(BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
                    .get_text(" ").split())


def archive_faults(site: Path) -> list[str]:
    """What a visitor would find broken: a page cut short, a link or image to no file, an
    image that does not decode, a script."""
    faults = []
    for path in site.rglob("*"):
        if path.is_file() and path.name.startswith("."):
            continue  # an interrupted write, never linked
        if path.suffix == ".png":
            try:
                Image.open(BytesIO(path.read_bytes())).load()
            except OSError as problem:
                faults.append(f"{path}: {problem}")
        elif path.suffix == ".svg":
            try:
                ElementTree.fromstring(path.read_bytes())
            except ElementTree.ParseError as problem:
                faults.append(f"{path}: {problem}")
    for path in pages_of(site):
        text = path.read_text(encoding="utf-8")
        if not text.rstrip().endswith("</html>"):
            faults.append(f"{path}: cut short")
        soup = BeautifulSoup(text, "html.parser")
        if soup.find("script") or re.search(r"\son\w+=|javascript:", text):
            faults.append(f"{path}: a script")
        for tag in soup.find_all(["a", "img"]):
            target = tag.get("href") or tag.get("src")
            if not target or "://" in target or target.startswith("/"):
                faults.append(f"{path}: the link {target!r} is not a plain relative one")
            elif not (path.parent / target).is_file():
                faults.append(f"{path}: {target} leads to no file")
    return faults


@pytest.mark.slow
def test_the_archive_holds_every_game_and_every_page_leads_to_a_file(club):
    referee, site = club
    assert archive_faults(site) == [] and archive_faults(site.parent / "whole") == []
    names = {p.relative_to(site).as_posix() for p in pages_of(site)}
    for ruleset, game_id, _names, _options in GAMES + [("auguste", "lyon", 0, 0)]:
        assert {f"{game_id}/index.html", f"{game_id}/index.fr.html",
                f"{game_id}/turn-1.html", f"{game_id}/turn-1.fr.html"} <= names
        page = words(site / game_id / "index.html")
        seed = referee.store.game(game_id)["seed"]
        assert f"SHA-256 of the game's secret seed, published from its first turn: " \
               f"{seed_digest(seed)}." in page, f"{game_id}: no seed commitment"
    assert {"index.html", "index.fr.html", "dice.html", "dice.fr.html",
            "rules/saga.html", "rules/saga.fr.html"} <= names
    index = words(site / "index.html")
    assert "To join, mail JOIN gauls to pbem@referee.example." in index
    assert "peoples invade the Roman provinces; hidden hands, sealed bids ; for 2-4 " \
           "players." in index.replace(" ;", ";").replace(";", " ;", 1) or \
           "for 2-4 players." in index
    assert "Seats taken: 0 of 4." in index
    assert "Pour la rejoindre, écrivez REJOINDRE gauls à pbem@referee.example" in \
        words(site / "index.fr.html")
    assert "The game's secret seed, revealed now that it is over: rome-s." in \
        words(site / "rome" / "index.html")
    lyon = words(site / "lyon" / "index.html")
    assert "lyon-s" not in lyon and "Waiting for cat, dan; deadline:" in lyon
    turns = [p for p in (site / "huns").glob("turn-*.html") if ".fr." not in p.name]
    assert len(turns) > 10
    # small: boards drawn once for both languages, their words in the page
    size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    told = sum(len(story(referee, game_id).turns) for _r, game_id, _n, _o in GAMES)
    assert size / told <= 60 * 1024, f"{size / told / 1024:.0f} KiB a game-turn"
    # a French page is French from its title on
    title = BeautifulSoup((site / "europe" / "turn-2.fr.html").read_text(encoding="utf-8"),
                          "html.parser").title.string
    assert title == "Diplomatie europe : Automne 1901, mouvements", title


def phases_told(referee, game_id: str) -> list[tuple]:
    """(turn, name, public view after it) of each phase the archive tells: each phase the
    public saw open, and the first of each turn (under fog, a turn is told whole), named
    as the game's mails named it, from the game's log."""
    table = referee.table(game_id)
    game, state, told, last, turn = table.game, engine.new_state(), [], None, None
    for row in referee.store.event_rows(game_id):
        opening = row["type"] == "phase_opened"
        before = state
        state, _hash = engine.step(game, state, row_event(row))
        if not opening:
            continue
        now, round_ = turn_of(game, state)
        if now and (row["visible_to"] == "all" or now != turn):
            if last is not None:
                told.append((*last, game.view(before["game"], None)))
            last, turn = (now, told_words(now, round_, game)), now
    if last is not None and state["engine"]["over"]:
        told.append((*last, game.view(state["game"], None)))
    return told


def drawn_as(ruleset: str, game, view: dict) -> tuple[str, list]:
    """A board's pieces as the current language draws them: (what they show but their
    texts and titles, in a shapes file's own words; their texts)."""
    layers = raster.layers(render.board_svg(ruleset, game, view))
    pieces = "".join(layers.pieces)
    return raster.drawn_head(layers.head, 1) + TITLES.sub("", WORDS.sub("", pieces)) + \
        "</svg>\n", WORDS.findall(pieces)


def shows(folder: Path, ruleset: str, game, view: dict) -> bool:
    """Does the archive in `folder` show the board of this view, in both languages: a
    shapes file of its pieces, each of their texts in that file or in a page?"""
    files = {p.read_text(encoding="utf-8") for p in folder.glob("shapes-*.svg")}
    for lang in ("en", "fr"):
        pages = " ".join(p.read_text(encoding="utf-8") for p in folder.glob("turn-*.html")
                         if (".fr." in p.name) == (lang == "fr"))
        with speaking(lang):
            shapes, texts = drawn_as(ruleset, game, view)
        if not any(WORDS.sub("", f) == shapes and all(t in f or t in pages for t in texts)
                   for f in files):
            return False
    return True


@pytest.mark.slow
def test_each_phase_is_told_by_name_with_the_orders_public_now_and_the_board_after_it(club):
    referee, site = club
    checked = 0
    for ruleset, game_id, _names, _options in GAMES:
        table = referee.table(game_id)
        pages = {p.name: BeautifulSoup(p.read_text(encoding="utf-8"), "html.parser")
                 for p in (site / game_id).glob("turn-*.html") if ".fr." not in p.name}
        headings = [h.get_text() for page in pages.values()
                    for h in page.find_all("section") for h in h.find_all("h2")]
        for turn, name, view in phases_told(referee, game_id):
            if not turn:
                continue
            assert any(h.lower().startswith(name.lower()) for h in headings), \
                f"{game_id}: no section for {name}"
            assert shows(site / game_id, ruleset, table.game, view), \
                f"{game_id}: no board after {name}"
            checked += 1
        # a board is drawn once for both languages: its words that differ are the pages'
        shapes = " ".join(p.read_text(encoding="utf-8")
                          for p in (site / game_id).glob("shapes-*.svg"))
        assert "<title" not in shapes
        with speaking("fr"):
            french = set(drawn_as(ruleset, table.game, view)[1])
        with speaking("en"):
            english = set(drawn_as(ruleset, table.game, view)[1])
        assert not [t for t in french ^ english if t in shapes], f"{game_id}: words drawn"
    assert checked > 50
    # Diplomacy's orders are public once resolved: each is listed on its phase's page
    for row in referee.store.event_rows("europe", of_type="orders_resolved"):
        with speaking("en"):
            line = " ".join(narrate(row_event(row), referee.table("europe").game).split())
        assert any(line in words(p) for p in (site / "europe").glob("turn-*.html")
                   if ".fr." not in p.name), line


def hidden_lines(referee, game_id: str) -> tuple[set[str], set[str]]:
    """(lines pbem narrates, in both languages, of events the public may not see, minus
    those it narrates of events everyone sees; the texts of private press)."""
    table = referee.table(game_id)
    hidden, seen, whispers = set(), set(), set()
    for row in referee.store.event_rows(game_id):
        event = row_event(row)
        public = event.payload.get("all") if event.type == "press" else \
            event.visible_to == "all"
        if event.type == "press" and not public:
            whispers.add(event.payload["text"])
        for lang in ("en", "fr"):
            with speaking(lang):
                line = narrate(event, table.game)
            if line:
                (seen if public else hidden).add(line)
    return hidden - seen, whispers


@pytest.mark.slow
def test_the_archive_shows_no_code_no_address_no_private_event_and_no_fog_fact(club):
    referee, site = club
    whole = site.parent / "whole"
    codes = [row["token"] for row in referee.store.all("SELECT token FROM seats")]
    codes += [row["code"] for row in referee.store.all("SELECT code FROM confirmations")]
    checked = 0
    for folder in (site, whole):
        files = {p: p.read_text(encoding="utf-8") for p in folder.rglob("*")
                 if p.suffix in (".html", ".svg")}
        addresses = {m.group(0) for text in files.values() for m in ADDRESS.finditer(text)}
        assert addresses <= {CLUB}, addresses
        for path, text in files.items():
            assert not [code for code in codes if code in text], f"{path} shows a seat's code"
        for _ruleset, game_id, _names, _options in GAMES + [("auguste", "lyon", 0, 0)]:
            hidden, whispers = hidden_lines(referee, game_id)
            assert whispers, f"{game_id}: no private press was sent"
            shown = set()
            for path, text in files.items():
                if path.parent.name == game_id and path.suffix == ".html":
                    shown |= shown_lines(text, markup=True)
                    assert not [w for w in whispers if w in text], \
                        f"{path} shows private press"
            leaked = sorted(shown & hidden)
            if folder == site or game_id == "lyon":  # public, or not over yet
                assert not leaked, f"the archive of {game_id} shows {leaked[:3]}"
            assert any(f"Hear ye, all of {game_id}" in line for line in shown), \
                f"{game_id}: press to every seat is missing"
            assert any(f"Both ways, {game_id}" in line and "to all" in line
                       for line in shown), f"{game_id}: press to all beside a whisper is missing"
            checked += len(hidden)
    assert checked > 200, "too few hidden events to say anything"
    # a revealed game says so, and so does its every page; a game still running is
    # published as every player sees it, and says nothing of the kind
    for path in (whole / "vikings").glob("*.html"):
        assert "the referee published it whole" in words(path) or \
            "l'arbitre l'a publiée en entier" in words(path), path
    assert "nothing a player keeps hidden" in words(whole / "lyon" / "index.html")


@pytest.mark.slow
def test_the_archive_draws_boards_from_the_public_view_alone(club, tmp_path, monkeypatch):
    referee, site = club
    asked = []
    for name in pbem.games.names():
        game = pbem.games.load(name)
        real = game.view

        def spy(state, seat=None, real=real):
            asked.append(seat)
            return real(state, seat)

        monkeypatch.setattr(game, "view", spy)
    publish(referee, tmp_path / "again")
    assert asked and set(asked) == {None}, f"the archive asked for the views of {set(asked)}"
    monkeypatch.undo()
    for ruleset, game_id, _names, _options in GAMES:
        table = referee.table(game_id)
        view = table.game.view(table.state["game"], None)
        assert shows(site / game_id, ruleset, table.game, view), \
            f"{game_id}: the last board is not the public view's"
        with speaking("en"):
            if ruleset in SECRETS:
                blind = SECRETS[ruleset](table.state["game"], None, random.Random(game_id))
                assert render.board_svg(ruleset, table.game, table.game.view(blind, None)) == \
                    render.board_svg(ruleset, table.game, view), \
                    f"{game_id}: the public board changes with what it hides"
    # published whole, a finished fogged campaign shows what its players kept hidden
    hidden, _whispers = hidden_lines(referee, "vikings")
    shown = set().union(*(shown_lines(p.read_text(encoding="utf-8"), markup=True)
                          for p in (site.parent / "whole" / "vikings").glob("*.html")))
    assert shown & hidden
    # under fog, a public turn still tells what the public knows: whose turn it was
    saga = " ".join(words(p) for p in (site / "vikings").glob("turn-*.html"))
    assert "plays turn 2: under fog of war, what its armies do is known only to the seats " \
           "they meet." in saga


def test_reveal_publishes_whole_what_is_over_and_refuses_a_game_still_running(tmp_path):
    referee = make_referee(tmp_path)
    referee.new_game("auguste", "done", seats("ann", "bob"), START, {"max_turns": "2"},
                     seed="done")
    play(referee, "done", "done")
    for game_id in ("lyon", "nice"):
        referee.new_game("auguste", game_id, seats("ann", "bob"), START, {}, seed=game_id)
    config = str(referee.config.source)
    out = CliRunner().invoke(main, ["publish", "lyon", "nice", "--reveal", "--out",
                                    str(tmp_path / "x"), "--config", config]).output
    assert "--reveal publishes a game whole once it is over: lyon and nice are still " \
           "running (publish without --reveal for the public pages)" in out
    assert not (tmp_path / "x").exists(), "a refusal writes nothing"
    out = CliRunner().invoke(main, ["publish", "--reveal", "--out", str(tmp_path / "x"),
                                    "--config", config, "-v"]).output
    assert "published whole: done; still running, so as every player sees them: lyon, " \
           "nice" in out, out
    assert "the referee published it whole" in words(tmp_path / "x" / "done" / "index.html")
    assert "nothing a player keeps hidden" in words(tmp_path / "x" / "lyon" / "index.html")


def label_faults(browser, folder: Path, boards: dict) -> list[str]:
    """The labels of these boards (name: SVG) that cross the edge of the shape they name,
    as Chromium lays them out: a text of a group whose points (the corners and middles
    of the box of its capitals) are not all inside, nor all outside, the group's one
    shape."""
    (folder / "boards.html").write_text("<!DOCTYPE html><html><body>" + "".join(
        f"<div data-name='{name}'>{svg}</div>" for name, svg in boards.items())
        + "</body></html>", encoding="utf-8")
    server = served(folder)
    try:
        browser.get(f"http://127.0.0.1:{server.server_port}/boards.html")
        return browser.execute_script(LABELS)
    finally:
        server.shutdown()
        server.server_close()


LABELS = """
const faults = [];
for (const board of document.querySelectorAll("div[data-name]")) {
  for (const group of board.querySelectorAll("g")) {
    const shapes = [...group.children].filter(e =>
      ["circle", "ellipse", "rect", "polygon", "path"].includes(e.tagName));
    if (shapes.length !== 1) continue;
    const shape = shapes[0];
    for (const text of [...group.children].filter(e => e.tagName === "text")) {
      if (!text.textContent.trim()) continue;
      // the box of its capitals: from its baseline up by 0.7 of its size, as wide as it is
      const b = text.getBBox(), size = parseFloat(getComputedStyle(text).fontSize);
      const base = parseFloat(text.getAttribute("y")), top = base - 0.7 * size;
      const bottom = base - 0.05 * size, middle = (top + bottom) / 2;
      const points = [[b.x, top], [b.x + b.width, top], [b.x, bottom],
                      [b.x + b.width, bottom], [b.x + b.width / 2, top],
                      [b.x + b.width / 2, bottom], [b.x, middle], [b.x + b.width, middle]];
      const inside = points.map(([x, y]) => shape.isPointInFill(new DOMPoint(x, y)));
      if (inside.some(Boolean) && !inside.every(Boolean))
        faults.push(board.dataset.name + ": '" + text.textContent.trim() + "' crosses its " +
                    shape.tagName);
    }
  }
}
return faults;
"""


@pytest.mark.slow
def test_every_page_fits_a_phone_and_a_desktop_and_no_label_crosses_its_shape(
        club, browser, tmp_path):  # noqa: F811
    referee, site = club
    whole = site.parent / "whole"
    pages = pages_of(site) + pages_of(whole / "vikings")
    faults = []
    for root in (site, whole):
        server = served(root)
        batch_pages = [p for p in pages if root in p.parents]
        try:
            for start in range(0, len(batch_pages), FRAMES):
                batch = batch_pages[start:start + FRAMES]
                for width in WIDTHS:
                    # a name of its own per batch: a page rewritten within the second would
                    # be answered "not modified" and the browser would measure the batch
                    frame = root / f"frames-{start}-{width}.html"
                    frame.write_text("<!DOCTYPE html><html><body style='margin: 0'>" + "".join(
                        f"<iframe data-name='{p.relative_to(root).as_posix()}' "
                        f"src='{p.relative_to(root).as_posix()}' width='{width}' height='500' "
                        "style='border: 0; display: block'></iframe>" for p in batch)
                        + "</body></html>", encoding="utf-8")
                    browser.get(f"http://127.0.0.1:{server.server_port}/{frame.name}")
                    measured = browser.execute_script(MEASURE)
                    assert len(measured) == len(batch)
                    for shown in measured:
                        faults += layout_faults(shown, width)
                    frame.unlink()
        finally:
            server.shutdown()
            server.server_close()
    assert not faults, "\n".join(faults[:20])
    # every kind of page was laid out: the club's, a game's, a turn's, rules, dice
    kinds = {re.sub(r"-\d+", "", p.name.split(".")[0]) for p in pages}
    assert kinds >= {"index", "turn", "dice", "saga", "auguste"}
    # the boards' labels, every phase of every game, in both languages
    boards = {}
    for ruleset, game_id, _names, _options in GAMES:
        table = referee.table(game_id)
        told = phases_told(referee, game_id)
        for number, (_turn, name, view) in enumerate(told[::max(1, len(told) // 8)] + told[-1:]):
            for lang in ("en", "fr"):
                with speaking(lang):
                    boards[f"{game_id} {name} {lang} {number}"] = render.board_svg(
                        ruleset, table.game, view)
    faults = label_faults(browser, tmp_path, boards)
    assert not faults, "\n".join(faults[:20])


# A child process that runs `pbem` (argv[2:]) and kills itself (SIGKILL) at its nth change
# to a folder, a file renamed into place or removed (n is argv[1]).
KILLED_AT_CHANGE = """
import os, signal, sys
from pathlib import Path
count, kill_at = [0], int(sys.argv[1])
def killing(real):
    def change(*args, **kwargs):
        count[0] += 1
        if count[0] == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)
        return real(*args, **kwargs)
    return change
os.replace = killing(os.replace)
Path.unlink = killing(Path.unlink)
from pbem.cli import main
sys.argv = ["pbem"] + sys.argv[2:]
main()
"""


def tick(folder: Path, now: str, kill_at: int | None = None) -> bool:
    """`pbem tick` in its own process; with `kill_at`, killed (SIGKILL) at its nth change to
    a folder. True when it ran to its end."""
    command = ["-m", "pbem"] if kill_at is None else ["-c", KILLED_AT_CHANGE, str(kill_at)]
    process = subprocess.run([sys.executable, *command, "tick", "--no-send", "--now", now,
                              "--config", str(folder / "pbem.toml")], capture_output=True)
    if process.returncode == -signal.SIGKILL:
        return False
    assert process.returncode == 0, process.stderr.decode()
    return True


@pytest.mark.slow
def test_a_tick_killed_while_it_rewrites_the_archive_never_leaves_a_broken_link(tmp_path):
    referee = make_referee(tmp_path, publish_dir="site")
    referee.new_game("auguste", "rome", seats("ann", "bob", "cat", "dan"), START,
                     {"preset": "4-2"}, seed="kill")
    site = tmp_path / "site"
    rng = random.Random(7)
    now, killed, whole = START, 0, 0
    for number in range(8):
        state = referee.table("rome").state
        for writer, text in bot_mails(referee.table("rome").game, state, "kill",
                                      {"silent": 0}).items():
            inbound.submit(referee, "rome", writer, text, now)
        now = later(now, 1)
        kill_at = rng.randint(1, 8) if number % 4 else None
        if tick(tmp_path, now, kill_at):
            whole += 1
        else:
            killed += 1
            assert archive_faults(site) == [], f"killed at change {kill_at}"
            assert tick(tmp_path, now)
        assert archive_faults(site) == []
        published = {row["name"]: row["mark"] for row in referee.store.all(
            "SELECT * FROM published")}
        assert published["rome"] == str(referee.store.game("rome")["last_seq"])
        assert len(list((site / "rome").glob("turn-*.fr.html"))) == \
            len(story(referee, "rome").turns)
    assert killed >= 4 and whole >= 2, (killed, whole)
    assert not [p for p in site.rglob(".*.tmp")], "a half-written file outlived the next run"


def test_a_game_folded_in_place_tells_the_same_story_as_one_folded_event_by_event(
        tmp_path, monkeypatch):
    referee = make_referee(tmp_path)
    referee.new_game("attila", "huns", seats("ann", "bob"), START, {}, seed="fold")
    play(referee, "huns", "fold", phases=12)
    told = story(referee, "huns")
    assert [(t.number, [(p.told, p.after, len(p.events)) for p in t.phases])
            for t in told.turns]
    # a game whose rules read the state's key order would fold otherwise in place: the
    # state is checked against the log at each phase, and folded event by event
    real = pbem.publish.Folding.settled
    checked = []

    def mismatched(self):
        checked.append(self.careful)
        if not self.careful:
            raise pbem.publish.Mismatch
        return real(self)

    monkeypatch.setattr(pbem.publish.Folding, "settled", mismatched)
    again = story(referee, "huns")
    assert checked[0] is False and set(checked[1:]) == {True}
    assert [(t.number, [(p.told, p.after, len(p.events)) for p in t.phases])
            for t in again.turns] == \
        [(t.number, [(p.told, p.after, len(p.events)) for p in t.phases]) for t in told.turns]


def test_press_to_all_is_published_and_its_sender_told_and_a_whisper_never(tmp_path):
    referee = make_referee(tmp_path)
    referee.new_game("auguste", "duel", seats("ann", "bob"), START, {}, seed="duel")
    whisper = inbound.submit(referee, "duel", "ann", "PRESS bob\nmeet me at the crown", START)
    shout = inbound.submit(referee, "duel", "bob", "PRESS ALL\nThe crown is mine!", START)
    assert whisper["notes"] == ["Press sent to bob."]
    assert shout["notes"] == ["Press sent to ann.", "Press to ALL is public: the club's web "
                              "archive of the game shows it."]
    publish(referee, tmp_path / "site")
    assert archive_faults(tmp_path / "site") == []
    page = words(tmp_path / "site" / "duel" / "turn-1.html")
    assert "Press from bob to every seat: The crown is mine!" in page
    assert "Messages à toutes les places" in words(tmp_path / "site" / "duel" / "turn-1.fr.html")
    pages = " ".join(words(p) for p in (tmp_path / "site").rglob("*.html"))
    assert "meet me" not in pages


def contents(site: Path) -> dict:
    """Every file of a folder: its bytes by its path in the folder."""
    return {p.relative_to(site): p.read_bytes() for p in site.rglob("*") if p.is_file()}


class Killed(BaseException):
    """The publishing process dies here."""


def dying(monkeypatch, after: int) -> None:
    """Make the process 'die' at its `after`-th change to the folder: a file renamed into
    place or removed."""
    changes = iter(range(after, -1, -1))
    real_replace, real_unlink = os.replace, Path.unlink

    def replace(source, target):
        if not next(changes):
            raise Killed
        real_replace(source, target)

    def unlink(path, missing_ok=False):
        if not next(changes):
            raise Killed
        real_unlink(path, missing_ok=missing_ok)

    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(Path, "unlink", unlink)


@pytest.mark.slow
def test_publish_stopped_at_any_file_leaves_every_link_whole(tmp_path, monkeypatch):
    referee = make_referee(tmp_path)
    referee.new_game("auguste", "rome", seats("ann", "bob"), START, {"max_turns": "5"},
                     seed="stop")
    play(referee, "rome", "stop", phases=2)
    for name in ("empty", "old"):
        (tmp_path / name).mkdir()
    publish(referee, tmp_path / "old")
    play(referee, "rome", "stop")       # the game goes on to its end: the archive changes
    publish(referee, tmp_path / "new")
    expected = contents(tmp_path / "new")
    for before in ("empty", "old"):
        for after in range(1, 400):
            site = tmp_path / f"site-{before}-{after}"
            shutil.copytree(tmp_path / before, site)
            with monkeypatch.context() as patched:
                dying(patched, after)
                try:
                    publish(referee, site)
                except Killed:
                    pass
                else:
                    break
            assert archive_faults(site) == [], f"stopped at change {after} from {before}"
            publish(referee, site)
            assert contents(site) == expected
            shutil.rmtree(site)
        assert after > 20, f"publishing from {before} made only {after} changes"


def test_a_tick_rewrites_the_archive_of_the_games_it_changed_and_no_other(tmp_path):
    referee = make_referee(tmp_path, publish_dir="site")
    for game_id in ("rome", "lyon"):
        referee.new_game("auguste", game_id, seats("ann", "bob"), START, {}, seed=game_id)
    open_game(referee, "attila", "gauls", START, players=(2, 4))
    site = tmp_path / "site"
    assert referee.tick(START, send=False).published == ["lyon", "rome"]
    assert archive_faults(site) == []
    lyon = {p: p.stat().st_mtime_ns for p in (site / "lyon").iterdir()}
    assert referee.tick(later(START, 1), send=False).published == []

    table = referee.table("rome")
    for writer, text in bot_mails(table.game, table.state, "rome", {"silent": 0}).items():
        inbound.submit(referee, "rome", writer, text, later(START, 2))
    report = referee.tick(later(START, 3), send=False)
    assert report.phases == {"rome": 1} and report.published == ["rome"]
    assert {p: p.stat().st_mtime_ns for p in (site / "lyon").iterdir()} == lyon
    assert (site / "rome" / "turn-2.html").is_file() and archive_faults(site) == []

    # a few turns on, a tick rewrites only the pages of the turns its events fall in
    now = later(START, 3)
    for _turn in range(3):
        table = referee.table("rome")
        for writer, text in bot_mails(table.game, table.state, "rome", {"silent": 0}).items():
            inbound.submit(referee, "rome", writer, text, now)
        now = later(now, 1)
        referee.tick(now, send=False)
    rome = {p.name: p.stat().st_mtime_ns for p in (site / "rome").iterdir()}
    table = referee.table("rome")
    for writer, text in bot_mails(table.game, table.state, "rome", {"silent": 0}).items():
        inbound.submit(referee, "rome", writer, text, now)
    assert referee.tick(later(now, 1), send=False).published == ["rome"]
    changed = {p.name for p in (site / "rome").iterdir()
               if rome.get(p.name) != p.stat().st_mtime_ns}
    assert {"turn-1.html", "turn-2.html", "turn-3.html", "turn-4.html"}.isdisjoint(changed), \
        changed
    assert {"turn-5.html", "turn-6.html", "index.html"} <= changed, changed
    assert archive_faults(site) == []
    # by hand, the archive is written whole again, and so is the next tick's
    publish(referee, site)
    assert publish_changed(referee) == ["lyon", "rome"]
    assert archive_faults(site) == []

    # a stranger joins the open game: the club's index shows the seat taken
    from test_signup import mails_to, write
    write(referee, "Zoé <zoe@players.example>", "JOIN gauls", now=later(START, 4))
    write(referee, "Zoé <zoe@players.example>", "yes",
          answering=mails_to(referee, "zoe@players.example")[-1], now=later(START, 4))
    assert referee.tick(later(START, 5), send=False).published == []
    assert "Seats taken: 1 of 4." in words(site / "index.html")
