"""The public archive: a static web site of the club's games, built only from what
everyone may see.

``pbem publish [G...] --out DIR`` writes it; with ``publish_dir`` set in
pbem.toml, every tick rewrites the pages of the games it changed. The folder:

    index.html              the club's games: open, running, finished
    rules/<game>.html       each game's rules in short
    dice.html               how to re-check every die once a game's seed is revealed
    <G>/index.html          a game: its seats, its board now, its turns, its result and seed
    <G>/turn-<n>.html       a turn: the board as it began, what happened, public press,
                            each phase's deadline
    <G>/board-<digest>.png  the boards (and .svg), named for what they show

Every page is written in the club's language (``x.html``) and in the other
(``x.fr.html`` or ``x.en.html``), each with a link to the other; links are
plain and relative, there is no script, and the pages fit a phone.

What a page shows of a game comes from the game's public view and from the
events everyone may see (``visible_to`` all), and press to ALL (which its sender is
told is public);
never a code, an address, a hand, or what fog of war hides. Once a game is
over the referee may publish it whole (``--reveal``): the referee's view of
its boards and every event but private press.

Nothing is ever half-written: each file is written beside its place and
renamed into it, boards before the pages that show them, and a page that
would link to a page not written yet is first written without that link,
then again once it exists; files the new pages no longer name are removed
last. Whenever the writing stops, every link of every page leads to a file.
"""

from dataclasses import dataclass, field
import hashlib
from importlib.resources import files
import os
from pathlib import Path, PurePosixPath
import re

from markupsafe import Markup

import pbem.games

from . import render
from .adjudicator import engine
from .adjudicator.contract import REFEREE
from .errors import PbemError
from .i18n import LANGUAGES, _, speaking
from .locks import job_lock
from .store import row_event

TMP = re.compile(r"^\..+\.tmp$")


# ------------------------------------------------------------ what a game shows


@dataclass
class Phase:
    """One phase as the public saw it: when it opened and its deadline."""

    number: int
    opened: str
    deadline: str | None


@dataclass
class Turn:
    """One turn of a game: the board as it began, its phases, what happened, its press."""

    number: int
    began: str               # when its first phase opened
    view: dict
    phases: list = field(default_factory=list)
    events: list = field(default_factory=list)     # the events shown, to narrate
    press: list = field(default_factory=list)


@dataclass
class Story:
    """A game as the archive shows it."""

    game_id: str
    ruleset: str
    game: object
    seats: list
    turns: list
    view: dict               # the board now
    state: dict              # the game's state now (its rules' part), which names its places
    over: bool
    result: dict | None
    seed: str | None
    paused: str | None
    deadline: str | None     # none while who is asked what is private (fog of war)
    waiting: list
    whole: bool              # published whole (--reveal)


def shown_event(event, whole: bool) -> bool:
    """Does the archive show this event? A public one, press to ALL, and when a finished
    game is published whole, every event but private press."""
    if event.type == "press":
        return bool(event.payload.get("all"))
    return event.visible_to == "all" or whole


def story(referee, game_id: str, reveal: bool = False) -> Story:
    """A game's turns, boards and events as the archive shows them (`reveal`: whole,
    when it is over)."""
    from .letters import Table
    row = referee.game_row(game_id)
    game = pbem.games.load(row["ruleset"])
    rows = list(referee.store.event_rows(game_id))
    gone = engine.undone(rows)
    over = row["status"] == "over"
    whole = reveal and over
    viewer = REFEREE if whole else None
    state = engine.new_state()
    turns, turn, phase, before = [], None, None, []
    for event_row in rows:
        event = row_event(event_row)
        state, _hash = engine.step(game, state, event)
        if event_row["seq"] in gone:
            continue
        if event.type == "phase_opened":
            number = Table(referee, row, game, state).turn()[0]  # None: the setup
            if number and (turn is None or number != turn.number):
                turn = Turn(number, event_row["at"], game.view(state["game"], viewer),
                            events=before)
                turns.append(turn)
                before = []
            phase = Phase(event.payload["phase"], event.payload["opened"],
                          event.payload["deadline"])
            if turn is not None and (event.visible_to == "all" or whole):
                turn.phases.append(phase)
        elif event.type == "deadline_extended" and phase is not None:
            phase.deadline = event.payload["deadline"]
        if not shown_event(event, whole):
            continue
        if turn is None:  # set-up: told on the first turn's page
            before.append(event)
        else:
            (turn.press if event.type == "press" else turn.events).append(event)
    eng = state["engine"]
    end = next((r for r in reversed(rows) if r["type"] in ("game_over", "game_stopped",
                                                           "game_drawn")), None)
    hidden = engine.private_requests(game, state) and not whole
    return Story(game_id, row["ruleset"], game, list(eng["seats"]), turns,
                 game.view(state["game"], viewer), state["game"], over, eng["result"],
                 end["payload"].get("seed") if end else None,
                 (eng.get("paused") or {}).get("reason"), None if hidden else eng["deadline"],
                 engine.waiting_for(game, state, viewer), whole)


# ------------------------------------------------------------ the pages


class Site:
    """The archive's folder: files written whole, links only to files that are there."""

    def __init__(self, root: Path, club_lang: str):
        self.root = root
        self.club = club_lang
        self.there = {path.relative_to(root).as_posix() for path in root.rglob("*")
                      if path.is_file() and not TMP.match(path.name)} \
            if root.is_dir() else set()
        self.kept = set()        # what this run wrote (or found as it should be)
        self.missing = False     # the page being rendered named a file not there yet
        self.again = []          # pages to write again once every page is there
        self.here = ""

    def name(self, base: str, lang: str) -> str:
        """A page's file name in a language: index.html, index.fr.html."""
        return f"{base}.html" if lang == self.club else f"{base}.{lang}.html"

    def link(self, target: str, text) -> Markup:
        """A link from the page being rendered to `target` (a path in the site); plain
        text, for now, when the file is not there yet."""
        if target not in self.there:
            self.missing = True
            return Markup('<span>{}</span>').format(text)
        href = os.path.relpath(target, PurePosixPath(self.here).parent.as_posix() or ".")
        return Markup('<a href="{}">{}</a>').format(href, text)

    def url(self, target: str) -> str:
        """The relative address of a file the page shows (an image written before it)."""
        return os.path.relpath(target, PurePosixPath(self.here).parent.as_posix() or ".")

    def put(self, path: str, data: bytes) -> None:
        """Write a file whole: beside its place, then renamed into it (unless it is
        already exactly so)."""
        self.kept.add(path)
        target = self.root / path
        if path in self.there and target.read_bytes() == data:
            return
        public_folder(target.parent, self.root)
        temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        temporary.write_bytes(data)
        temporary.chmod(0o644)  # written private (pbem's umask), then for all to read
        os.replace(temporary, target)
        self.there.add(path)

    def image(self, path: str, draw) -> str:
        """A board file named for what it shows: drawn (`draw()` gives its bytes) and
        written only when it is not there yet. Returns its path."""
        if path in self.there:
            self.kept.add(path)
        else:
            self.put(path, draw())
        return path

    def pages(self, pages: list) -> None:
        """Write pages [(path, render)] in order; a page that named a file not there yet
        is written again by `finish`, once every page is."""
        for path, make in pages:
            text = self.render(path, make)
            if self.missing:
                self.again.append((path, make))
            self.put(path, text.encode())

    def finish(self) -> None:
        """Write again the pages first written without some link, now that every page is
        there (a link to what this run did not write, another game's pages in a folder
        that never had them, stays plain text)."""
        for path, make in self.again:
            self.put(path, self.render(path, make).encode())
        self.again = []

    def render(self, path: str, make) -> str:
        """One page, rendered with its own place as the base of its links."""
        self.here, self.missing = path, False
        return make()

    def sweep(self, folder: str) -> None:
        """Remove what a game's folder holds that this run did not write: pages first,
        then boards, and any file an interrupted run left half-written."""
        base = self.root / folder
        if not base.is_dir():
            return
        stale = sorted((p for p in base.iterdir() if p.is_file() and
                        f"{folder}/{p.name}" not in self.kept),
                       key=lambda p: (p.suffix != ".html", p.name))
        for path in stale:
            path.unlink()
            self.there.discard(f"{folder}/{path.name}")

    def sweep_temporary(self, folder: str) -> None:
        """Remove the half-written files an interrupted run left in a folder."""
        base = self.root / folder
        for path in base.iterdir() if base.is_dir() else ():
            if TMP.match(path.name):
                path.unlink()


def publish(referee, out: Path, game_ids=None, reveal: bool = False) -> list[str]:
    """Write the archive of these games (all when None) and the club's index into `out`;
    return the games written. One publish runs at a time on a database."""
    with job_lock(referee.store.path, "publish"):
        return write_archive(referee, out, game_ids, reveal)


def write_archive(referee, out: Path, game_ids, reveal: bool) -> list[str]:
    """`publish`, once it holds the lock."""
    store = referee.store
    known = [row["id"] for row in store.all("SELECT id FROM games ORDER BY id")]
    chosen = known if game_ids is None else list(dict.fromkeys(game_ids))
    for game_id in chosen:
        referee.game_row(game_id)
    if reveal and any(store.game(g)["status"] != "over" for g in chosen):
        running = [g for g in chosen if store.game(g)["status"] != "over"]
        raise PbemError(f"--reveal publishes a game whole once it is over; "
                        f"{', '.join(running)} is still running")
    public_folder(out, out)
    site = Site(out, referee.config["lang"])
    for game_id in chosen:
        write_game(referee, site, story(referee, game_id, reveal))
    write_club(referee, site)
    site.finish()
    for game_id in chosen:
        site.sweep(game_id)
    for folder in (".", "rules"):
        site.sweep_temporary(folder)
    return chosen


def public_folder(folder: Path, root: Path) -> None:
    """Make a folder of the archive (and those between it and the archive's root), readable
    by all: pbem's umask makes what it creates private."""
    folder.mkdir(parents=True, exist_ok=True)
    for made in [folder, *folder.parents]:
        if made.stat().st_mode & 0o755 != 0o755:
            made.chmod(made.stat().st_mode | 0o755)
        if made == root or root not in made.parents:
            break


def languages(site: Site) -> list[str]:
    """The club's language first, then the other."""
    return [site.club] + [lang for lang in LANGUAGES if lang != site.club]


def other(site: Site, lang: str) -> str:
    """The language a page's switch leads to."""
    return next(x for x in LANGUAGES if x != lang)


def page(site: Site, template: str, lang: str, base: str, **context):
    """A function rendering one page of the archive in a language."""
    def make():
        with speaking(lang):
            return render.render("", f"archive/{template}", link=site.link, url=site.url,
                                 lang=lang, other=other(site, lang),
                                 switch=site.name(base, other(site, lang)),
                                 club=site.name("index", lang),
                                 rules=lambda ruleset: site.name(f"rules/{ruleset}", lang),
                                 dice=site.name("dice", lang), page_name=site.name,
                                 **context)
    return make


def write_game(referee, site: Site, told: Story) -> None:
    """A game's folder: boards, then turn pages (each language), then its index page."""
    folder = told.game_id
    pages = []
    for lang in languages(site):
        with speaking(lang):
            turns = [turn_context(site, told, turn, f"turn-{index}")
                     for index, turn in enumerate(told.turns, start=1)]
            now = board(site, told, told.view)
        for index, turn in enumerate(turns):
            links = {"previous": turns[index - 1]["base"] if index else None,
                     "next": turns[index + 1]["base"] if index + 1 < len(turns) else None}
            pages.append((site.name(f"{folder}/{turn['base']}", lang),
                          page(site, "turn.html.j2", lang, f"{folder}/{turn['base']}",
                               story=told, turn=turn, folder=folder, **links,
                               title=title(told))))
        pages.append((site.name(f"{folder}/index", lang),
                      page(site, "game.html.j2", lang, f"{folder}/index", story=told,
                           turns=turns, board=now, folder=folder, title=title(told),
                           result=result_words(told))))
    write_shared(site, [told.ruleset], told.over)
    site.pages(pages)


def title(told: Story) -> str:
    """A game's title in the current language."""
    return _(told.game.TITLE)


def result_words(told: Story) -> str:
    """A finished game's result in words, in the current language."""
    from .letters import result_text
    return result_text(told.result, game=told.game) if told.result else ""


def turn_context(site: Site, told: Story, turn: Turn, base: str) -> dict:
    """What a turn's page (`base`.html) shows, in the current language."""
    lines = [line for line in (engine.narrate(e, told.game, told.state) for e in turn.events)
             if line]
    press = [engine.narrate_press({**e.payload, "to": [_("every seat")]}) for e in turn.press]
    return {"number": turn.number, "base": base, "began": turn.began, "lines": lines,
            "press": press, "phases": turn.phases, "board": board(site, told, turn.view)}


def board(site: Site, told: Story, view: dict) -> dict:
    """A view's board for a page of the game's folder: the PNG shown, the SVG linked, the
    text folded away. The PNG is drawn only when no earlier run drew this very board."""
    drawing = told.game.svg_context(view)
    svg = render.board_svg(told.ruleset, told.game, view, drawing)
    digest = hashlib.sha256(svg.encode()).hexdigest()[:20]
    svg_path = site.image(f"{told.game_id}/board-{digest}.svg", lambda: svg.encode())
    png_path = site.image(f"{told.game_id}/board-{digest}.png",
                          lambda: render.board_png(svg))
    label = drawing.get("title") or _(told.game.TITLE)
    width = render.board_width(svg)
    picture = Markup('<img src="{src}" alt="{label}" width="{width}" style="display: block; '
                     'width: 100%; max-width: {width}px; height: auto">').format(
                         src=png_path.rpartition("/")[2], label=label, width=width)
    return {"svg": svg_path, "label": label, "text": told.game.board_text(view),
            "html": render.board_html(told.ruleset, told.game, view, picture, drawing)}


def write_shared(site: Site, rulesets: list[str], dice: bool) -> None:
    """The rules pages of these games and, when a game is over, the dice page."""
    pages = []
    for lang in languages(site):
        for ruleset in rulesets:
            with speaking(lang):
                summary = render.rules_summary(ruleset)
                game_title = _(pbem.games.load(ruleset).TITLE)
            pages.append((site.name(f"rules/{ruleset}", lang),
                          page(site, "text.html.j2", lang, f"rules/{ruleset}",
                               title=game_title, text=summary[1] if summary else "")))
        if dice:
            pages.append((site.name("dice", lang),
                          page(site, "text.html.j2", lang, "dice", title=None,
                               text=dice_text(lang))))
    site.pages(pages)


def dice_text(lang: str) -> str:
    """How every random draw is made and re-checked (docs/dice.md), in a language."""
    folder = files("pbem.docs")
    for name in (f"dice.{lang}.md", "dice.md"):
        if (folder / name).is_file():
            return (folder / name).read_text(encoding="utf-8")
    raise PbemError("docs/dice.md is missing from this installation")


def write_club(referee, site: Site) -> None:
    """The club's index: open games, games under way, finished games."""
    from .signup import joined, waiting_games
    store = referee.store
    games = []
    for row in store.all("SELECT * FROM games ORDER BY id"):
        table = referee.table(row["id"], row)
        games.append({"id": row["id"], "ruleset": row["ruleset"], "game": table.game,
                      "over": row["status"] == "over", "turn": table.turn()[0],
                      "result": table.state["engine"]["result"],
                      "page": f"{row['id']}/index"})
    waiting = [{**row, "game": pbem.games.load(row["ruleset"]),
                "taken": len(joined(store, row["id"]))} for row in waiting_games(store)]
    rulesets = sorted({g["ruleset"] for g in games} | {w["ruleset"] for w in waiting})
    write_shared(site, rulesets, any(g["over"] for g in games))
    site.pages([(site.name("index", lang),
                 page(site, "club.html.j2", lang, "index", games=games, waiting=waiting,
                      address=referee.config["address"], result_text=club_result))
                for lang in languages(site)])


def club_result(entry: dict) -> str:
    """A finished game's result on the club's index, in the current language."""
    from .letters import result_text
    return result_text(entry["result"], game=entry["game"]) if entry["result"] else ""


# ------------------------------------------------------------ after a tick


def publish_changed(referee) -> list[str]:
    """Rewrite the archive in ``publish_dir`` for the games that changed since it was last
    written there (and the club's index); return them. Nothing when it is not set.

    Whether anything changed is asked of the database without loading a game: each
    game's last event, and each open game's version, against what was published.
    """
    if not referee.config["publish_dir"]:
        return []
    store = referee.store
    changed = {row["id"]: row["mark"] for row in store.all(
        "SELECT games.id, CAST(games.last_seq AS TEXT) AS mark FROM games "
        "LEFT JOIN published ON published.name = games.id "
        "WHERE published.mark IS NOT CAST(games.last_seq AS TEXT) ORDER BY games.id")}
    waiting = {f"open:{row['id']}": str(row["version"]) for row in store.all(
        "SELECT id, version FROM open_games WHERE status = 'open'")}
    shown = {row["name"]: row["mark"] for row in store.all(
        "SELECT * FROM published WHERE name LIKE 'open:%'")}
    if not changed and shown == waiting:
        return []
    publish(referee, referee.config.path("publish_dir"), list(changed))
    with store.transaction():
        store.execute("DELETE FROM published WHERE name LIKE 'open:%'")
        for name, mark in [*changed.items(), *waiting.items()]:
            store.execute("INSERT OR REPLACE INTO published (name, mark) VALUES (?, ?)",
                          [name, mark])
    return list(changed)
