"""The public archive: a static web site of the club's games, built only from what
everyone may see, that reads like each game's history.

``pbem publish [G...] --out DIR`` writes it; with ``publish_dir`` set in
pbem.toml, every tick rewrites the pages that changed. The folder:

    index.html              the club's games: open, running, finished
    rules/<game>.html       each game's rules in short
    dice.html               how to re-check every die once a game's seed is revealed
    <G>/index.html          a game: its seats, the seed's SHA-256 (the seed once it is
                            over), its board now, its turns by name
    <G>/turn-<n>.html       a turn, phase by phase: each phase under its name as the
                            game's mails name it, when it opened, what happened (the
                            orders now public, the results), the press to every seat,
                            and the board after it
    <G>/ground-<digest>.svg what never changes on a game's board (one per language
                            when it holds words)
    <G>/shapes-<digest>.svg what a board shows over its ground: the same file for every
                            language; its words that read otherwise in each language
                            are in the page

Every page is written in the club's language (``x.html``) and in the other
(``x.fr.html`` or ``x.en.html``), each with a link to the other; links are
plain and relative, there is no script, and the pages fit a phone.

What a page shows of a game comes from the game's public view after each
phase, drawn as its mails draw it, and from the events everyone may see
(``visible_to`` all), and press to ALL (which its sender is told is public);
never a code, an address, a hand, or what fog of war hides. Once a game is
over the referee may publish it whole (``--reveal``): the referee's view of
its boards and every event but private press, and its pages say so.

Nothing is ever half-written: each file is written beside its place and
renamed into it, boards before the pages that show them, and a page that
would link to a page not written yet is first written without that link,
then again once it exists; files the new pages no longer name are removed
last. Whenever the writing stops, every link of every page leads to a file.
A tick rewrites a game's pages from the turn its new events begin in: the
turns before it are kept as they are. Whatever the folder holds, the pages and boards
of finished turns are written from the cache beside the database
(pbem/archive_cache.py) when it keeps them, and kept in it when they are drawn: only
each game's open turn is folded and drawn again. A game's folder not there yet is
written beside the archive and renamed into place whole.
"""

from dataclasses import dataclass, field
import hashlib
from importlib.resources import files
import json
import os
from pathlib import Path, PurePosixPath
import re
import shutil

from markupsafe import Markup, escape

import pbem.games

from . import i18n, raster, render
from .adjudicator import engine
from .adjudicator.contract import REFEREE, Event, canonical, plain_copy
from .adjudicator.rng import seed_digest
from .archive_cache import Kept, TurnCache
from .errors import PbemError
from .i18n import LANGUAGES, _, speaking
from .locks import job_lock
from .store import row_event

TMP = re.compile(r"^\..+\.tmp$")
ENDS = ("game_over", "game_stopped", "game_drawn")   # the events that end a game
PENDING = re.compile(r'<a data-pending="([^"]*)" href="([^"]*)">([^<]*)</a>')
WORDS = re.compile(r"<text\b[^>]*>.*?</text>\s*", re.DOTALL)
TITLES = re.compile(r"<title>.*?</title>\s*", re.DOTALL)


# ------------------------------------------------------------ what a game shows


@dataclass
class Phase:
    """One phase as the archive tells it: its name, when it opened, its deadline, the
    events everyone may see in it, the press to every seat, and the game's state after
    it (canonical JSON, read only for the pages written)."""

    number: int
    told: tuple              # (turn, round), as the phase's mails named it
    opened: str
    deadline: str | None     # None: it waited for the referee, or its requests are private
    events: list = field(default_factory=list)
    press: list = field(default_factory=list)
    after: str | None = None  # the state once it was over (None: still open)
    last: int = 0            # the seq of its last event
    chain: str = ""          # the chain hash of its last event


@dataclass
class Turn:
    """One turn of a game: its phases, and the state as it began."""

    number: int
    began: str
    start: str               # the state as its first phase opened (canonical JSON)
    phases: list = field(default_factory=list)
    before: list = field(default_factory=list)   # the set-up, told on the first turn
    seq: int = 0             # the seq of its first event
    prior: str = ""          # the chain hash of the event before it

    @property
    def last(self) -> int:
        """The seq of its last event."""
        return self.phases[-1].last

    @property
    def chain(self) -> str:
        """The chain hash of its last event."""
        return self.phases[-1].chain


@dataclass
class Story:
    """A game as the archive shows it."""

    game_id: str
    ruleset: str
    game: object
    seats: list
    turns: list
    state: dict              # the game's state now (its rules' part), which names its places
    over: bool
    result: dict | None
    seed: str | None         # once it is over
    seed_sha256: str
    paused: str | None
    deadline: str | None     # none while who is asked what is private (fog of war)
    waiting: list
    whole: bool              # published whole (--reveal)
    viewer: object           # whose view the boards are drawn from: None (the public)
    board_now: dict | None = None  # a game over: its board now, as the cache keeps it


def shown_event(event, whole: bool) -> bool:
    """Does the archive show this event? A public one, press to ALL, and when a finished
    game is published whole, every event but private press."""
    if event.type == "press":
        return bool(event.payload.get("all"))
    return event.visible_to == "all" or whole


class Folding:
    """A game's log folded as fast as it may be: each event applied in place, the state
    made canonical (and checked against the hash the log recorded) only where the
    archive reads it, at each phase's opening. A game whose rules read the state's key
    order between two phases fails the check, and is folded event by event instead."""

    def __init__(self, game, careful: bool = False, start: str | None = None):
        self.game, self.careful = game, careful
        self.state = engine.new_state() if start is None else json.loads(start)
        # the state hash the log recorded after the last event applied
        self.hash = None if start is None else hashlib.sha256(start.encode()).hexdigest()

    def apply(self, row) -> None:
        """Fold one event row (in place, a copy of its payload: the state never holds a
        part of an event the archive tells)."""
        event = row_event(row)
        if self.careful:
            self.state, _digest = engine.step(self.game, self.state, event)
        else:
            self.state = engine.apply(self.game, self.state, Event(
                event.type, plain_copy(event.payload), event.visible_to))
        self.hash = row["state_hash"]

    def settled(self) -> str:
        """The state now as canonical JSON, the state made canonical again; Mismatch when
        it is not the state the log recorded."""
        text = canonical(self.state)
        if not self.careful and self.hash is not None and \
                hashlib.sha256(text.encode()).hexdigest() != self.hash:
            raise Mismatch
        self.state = json.loads(text)
        return text


class Mismatch(Exception):
    """The state folded in place is not the state the log recorded."""


def story(referee, game_id: str, reveal: bool = False, cache=None) -> Story:
    """A game's turns, phases and events as the archive shows them (`reveal`: whole,
    when it is over). With a `cache` that knows the game's finished turns, those are
    Kept turns, and only the events from the open turn on are read and folded."""
    row = referee.game_row(game_id)
    game = pbem.games.load(row["ruleset"])
    whole = reveal and row["status"] == "over"
    known = cache and cache.known(referee.store, row, whole)
    if known and known.seq is None:
        told = kept_story(referee, row, game, known.turns, whole)
        told.board_now = known.now
        return told
    if known:
        rows = list(referee.store.event_rows(game_id, after=known.seq - 1))
        if not any(r["type"] == "phase_rolled_back" and r["payload"]["to_seq"] < known.seq
                   for r in rows):  # else a rollback undid some of the turns kept
            try:
                return told_story(referee, row, game, rows,
                                  Folding(game, start=known.state), reveal, known.turns)
            except Mismatch:
                pass
    rows = list(referee.store.event_rows(game_id))
    try:
        return told_story(referee, row, game, rows, Folding(game), reveal)
    except Mismatch:
        return told_story(referee, row, game, rows, Folding(game, careful=True), reveal)


def told_story(referee, row: dict, game, rows: list, folding: Folding, reveal: bool,
               kept=()) -> Story:
    """`story`, folding the log's `rows` with `folding` (after the turns `kept`, when
    the rows begin with the open turn)."""
    gone = engine.undone(rows)
    whole = reveal and row["status"] == "over"
    turns, phase, before = list(kept), None, []
    for event_row in rows:
        event = row_event(event_row)
        opening = event.type == "phase_opened" and event_row["seq"] not in gone
        if opening:
            text = folding.settled()
        folding.apply(event_row)
        if event_row["seq"] in gone:
            continue
        if opening:
            phase, before = opened(turns, phase, before, folding.state, event, event_row,
                                   text, game, whole)
        elif event.type == "deadline_extended" and phase is not None:
            phase.deadline = phase.deadline and event.payload["deadline"]
        if phase is not None:
            phase.last, phase.chain = event_row["seq"], event_row["hash"]
        if not shown_event(event, whole):
            continue
        if phase is None:  # the set-up: told on the first turn's page
            before.append(event)
        else:
            (phase.press if event.type == "press" else phase.events).append(event)
    text = folding.settled()
    if phase is not None and folding.state["engine"]["over"]:
        phase.after = text
    end = next((r for r in reversed(rows) if r["type"] in ENDS), None)
    return told_now(row, game, turns, folding.state, end and end["payload"], whole)


def kept_story(referee, row: dict, game, turns: list, whole: bool) -> Story:
    """`story` of a game that is over and whose every turn the cache keeps: told from its
    state now (made canonical, as a fold leaves it), nothing folded."""
    state = json.loads(canonical(referee.table(row["id"], row).state))
    end = referee.store.one(f"SELECT payload FROM events WHERE game = ? AND type IN "
                            f"({', '.join('?' for _ in ENDS)}) ORDER BY seq DESC LIMIT 1",
                            [row["id"], *ENDS])
    return told_now(row, game, turns, state, end and json.loads(end["payload"]), whole)


def told_now(row: dict, game, turns: list, state: dict, end: dict | None,
             whole: bool) -> Story:
    """A game's Story from its turns, its state now and the payload of the event that
    ended it (None while it goes on)."""
    eng = state["engine"]
    hidden = engine.private_requests(game, state) and not whole
    return Story(row["id"], row["ruleset"], game, list(eng["seats"]), turns, state["game"],
                 row["status"] == "over", eng["result"], end.get("seed") if end else None,
                 seed_digest(row["seed"]), (eng.get("paused") or {}).get("reason"),
                 None if hidden else eng["deadline"],
                 engine.waiting_for(game, state, REFEREE if whole else None), whole,
                 REFEREE if whole else None)


def opened(turns: list, phase, before: list, state: dict, event, event_row: dict,
           text: str, game, whole: bool) -> tuple:
    """A phase opened (`state` just after, `text` the state just before): a new turn when
    the game names another, a new phase of it unless who is asked is kept from the public
    (then the phase before goes on). Returns the phase events now go to, and the set-up
    events not told yet."""
    from .letters import turn_of
    told = turn_of(game, state)
    shown = event.visible_to == "all" or whole
    new_turn = bool(told[0]) and (not turns or told[0] != turns[-1].number)
    if not (new_turn or (turns and shown)):
        return phase, before
    if phase is not None:
        phase.after = text
    if new_turn:
        turns.append(Turn(told[0], event_row["at"], text, before=before,
                          seq=event_row["seq"], prior=event_row["prev_hash"]))
        before = []
    phase = Phase(event.payload["phase"], told, event.payload["opened"],
                  event.payload["deadline"] if shown else None)
    turns[-1].phases.append(phase)
    return phase, before


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
        self.folders = set()     # the folders this run made readable by all
        self.staged = {}         # {folder: where it is written, to be renamed into place}
        self.coming = set()      # what is there once the folders staged are in place
        self.again = []          # pages to write again once every page is there
        self.waiting = False     # the page last linked names a file not there yet
        self.here = ""

    def name(self, base: str, lang: str) -> str:
        """A page's file name in a language: index.html, index.fr.html."""
        return f"{base}.html" if lang == self.club else f"{base}.{lang}.html"

    def link(self, target: str, text) -> Markup:
        """A link from the page being rendered to `target` (a path in the site), marked:
        it is made a plain link as the page is written if its file is there, else plain
        text for now (so a rendered page is the same whatever the folder holds)."""
        folder, into, name = self.here.rpartition("/")[0], *target.rpartition("/")[::2]
        href = name if into == folder else target if not folder else \
            os.path.relpath(target, PurePosixPath(self.here).parent.as_posix())
        return Markup(f'<a data-pending="{escape(target)}" href="{escape(href)}">'
                      f'{escape(text)}</a>')

    def put(self, path: str, data: bytes) -> None:
        """Write a file whole: beside its place, then renamed into it (unless it is
        already exactly so)."""
        self.kept.add(path)
        top, _slash, rest = path.partition("/")
        if top in self.staged:
            target = f"{self.staged[top]}/{rest}"
            self.coming.add(path)
        else:
            target = f"{self.root}/{path}"
            if path in self.there and Path(target).read_bytes() == data:
                return
        folder, _slash, name = target.rpartition("/")
        if folder not in self.folders:
            public_folder(Path(folder), self.root)
            self.folders.add(folder)
        temporary = f"{folder}/.{name}.{os.getpid()}.tmp"
        handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            written = 0
            while written < len(data):
                written += os.write(handle, data[written:] if written else data)
            os.fchmod(handle, 0o644)  # made private by pbem's umask: for all to read
        finally:
            os.close(handle)
        os.replace(temporary, target)
        if top not in self.staged:
            self.there.add(path)

    def stage(self, folder: str) -> bool:
        """Write a folder of the archive that is not there yet outside it, in a hidden
        folder beside the archive's, to be renamed into its place whole by `unstage`:
        its pages are written once, every link among them already leading to a file.
        False (nothing staged) where that hidden folder cannot be made, or would not be
        on the archive's file system (then it cannot be renamed into it)."""
        staging = self.root.parent / f".{self.root.name}.staged"
        try:
            staging.mkdir(mode=0o700, exist_ok=True)
            shutil.rmtree(staging / folder, ignore_errors=True)  # a stopped run's
            if staging.stat().st_dev != self.root.stat().st_dev:
                return False
        except OSError:
            return False
        self.staged[folder] = staging / folder
        return True

    def unstage(self, folder: str) -> None:
        """Rename a staged folder into its place."""
        staging = self.staged.pop(folder)
        if staging.is_dir():
            os.replace(staging, self.root / folder)
        self.there |= {path for path in self.coming if path.startswith(f"{folder}/")}
        self.coming = {path for path in self.coming if not path.startswith(f"{folder}/")}

    def unstaged(self) -> None:
        """Remove the hidden folder the folders were staged in."""
        shutil.rmtree(self.root.parent / f".{self.root.name}.staged", ignore_errors=True)

    def image(self, path: str, draw) -> str:
        """A board file named for what it shows: written (`draw()` gives its bytes) only
        when it is not there yet. Returns its path."""
        if path in self.there or path in self.coming:
            self.kept.add(path)
        else:
            self.put(path, draw())
        return path

    def pages(self, pages: list) -> dict:
        """Write pages [(path, render)] in order, each rendered once; a page that links to
        a file not there yet is written with that link as plain text, and again by
        `finish`, once every page is. Returns {path: the page as rendered}."""
        rendered = {}
        for path, make in pages:
            text = rendered[path] = self.render(path, make)
            written = self.linked(text)
            if self.waiting:
                self.again.append((path, text))
            self.put(path, written.encode())
        return rendered

    def finish(self) -> None:
        """Write again the pages first written without some link, now that every page is
        there (a link to what this run did not write, another game's pages in a folder
        that never had them, stays plain text)."""
        for path, text in self.again:
            self.put(path, self.linked(text).encode())
        self.again = []

    def linked(self, text: str) -> str:
        """A page with its marked links made plain links where their file is there now,
        plain text where it is not (then `waiting` is true)."""
        self.waiting = False

        def plain(found) -> str:
            if found.group(1) in self.there or found.group(1) in self.coming:
                return f'<a href="{found.group(2)}">{found.group(3)}</a>'
            self.waiting = True
            return f"<span>{found.group(3)}</span>"
        return PENDING.sub(plain, text)

    def render(self, path: str, make) -> str:
        """One page, rendered with its own place as the base of its links."""
        self.here = path
        return make()

    def sweep(self, folder: str) -> None:
        """Remove what a game's folder holds that this run did not write: pages first,
        then boards, and any file an interrupted run left half-written."""
        base = self.root / folder
        if not base.is_dir():
            return
        stale = sorted((p for p in base.iterdir() if f"{folder}/{p.name}" not in self.kept
                        and p.is_file()),
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
    return the games written. One publish runs at a time on a database.

    `reveal` publishes whole the games that are over; the others as always. Named
    games (`game_ids`) are refused, nothing written, when one of them is still running.
    """
    if reveal and game_ids is not None:
        running = still_running(referee.store, game_ids)
        if running:
            raise PbemError(f"--reveal publishes a game whole once it is over: "
                            f"{together(running)} {'is' if len(running) == 1 else 'are'} "
                            "still running (publish without --reveal for the public pages)")
    with job_lock(referee.store.path, "publish"):
        written = write_archive(referee, out, game_ids, reveal)
        forget_marks(referee, written)
    return written


def still_running(store, game_ids) -> list[str]:
    """The games among these that are not over."""
    return [g for g in game_ids if (store.game(g) or {}).get("status", "over") != "over"]


def together(names: list[str]) -> str:
    """Names in a sentence: 'a', 'a and b', 'a, b and c'."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def forget_marks(referee, written: list[str]) -> None:
    """A publish by hand may have written these games' pages whole, or elsewhere: the next
    tick writes them again from their first turn."""
    if written:
        with referee.store.transaction():
            referee.store.execute(f"DELETE FROM published WHERE name IN "
                                  f"({', '.join('?' for _ in written)})", written)


def write_archive(referee, out: Path, game_ids, reveal: bool, since=None) -> list[str]:
    """`publish`, once it holds the lock (`since`: {game: seq}, the turns ending before
    it kept as they are)."""
    store = referee.store
    known = [row["id"] for row in store.all("SELECT id FROM games ORDER BY id")]
    chosen = known if game_ids is None else list(dict.fromkeys(game_ids))
    for game_id in chosen:
        referee.game_row(game_id)
    public_folder(out, out)
    site = Site(out, referee.config["lang"])
    cache = TurnCache.beside(store.path, referee.config["lang"])
    if cache is not None:
        cache.forget_others(known)
    write_club(referee, site)   # first: the games' pages link to it
    for game_id in chosen:
        write_game(site, story(referee, game_id, reveal, cache), (since or {}).get(game_id),
                   cache)
    site.finish()
    site.unstaged()
    for game_id in chosen:
        if (since or {}).get(game_id) is None:
            site.sweep(game_id)
        site.sweep_temporary(game_id)
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
    """A function rendering one page of the archive in a language (what is written in
    words comes as functions, which the template calls in the page's language)."""
    def make():
        with speaking(lang):
            return render.render("", f"archive/{template}", link=site.link,
                                 lang=lang, other=other(site, lang),
                                 switch=site.name(base, other(site, lang)),
                                 club=site.name("index", lang),
                                 rules=lambda ruleset: site.name(f"rules/{ruleset}", lang),
                                 dice=site.name("dice", lang), page_name=site.name,
                                 **context)
    return make


def write_game(site: Site, told: Story, since: int | None = None, cache=None) -> None:
    """A game's folder: boards, then its turn pages (each language), then its index page.

    With `since` (the last seq written before), a turn that ended before it keeps its
    pages as they are. With a `cache` (pbem/archive_cache.py), a finished turn it keeps
    is written from it, and one drawn here is kept in it."""
    folder = told.game_id
    staged = not (site.root / folder).is_dir() and site.stage(folder)
    drawer = Drawer(site, told)
    bases = [f"turn-{index}" for index, _turn in enumerate(told.turns, start=1)]
    pages, kept, fresh = [], [], []
    for index, turn in enumerate(told.turns):
        names = {lang: site.name(f"{folder}/{bases[index]}", lang) for lang in languages(site)}
        final = index + 1 == len(told.turns)  # its page links to no next turn
        finished = cache is not None and (not final or told.over)
        key = finished and (turn.key if isinstance(turn, Kept) else
                            cache.key(folder, told.whole, index + 1, turn.chain, final))
        if finished and not isinstance(turn, Kept) and cache.has(folder, key):
            turn = Kept(turn.number, turn.began, turn.last, key, cache.pages(folder, key)[1])
        if since is not None and turn.last < since and all(n in site.there
                                                           for n in names.values()) \
                and (isinstance(turn, Kept) or not finished):
            site.kept.update(names.values())
        elif isinstance(turn, Kept):
            pages.extend(kept_pages(site, cache, folder, turn))
        else:
            drawer.used = set()
            shown = turn_context(drawer, told, turn)
            links = {"previous": bases[index - 1] if index else None,
                     "next": bases[index + 1] if index + 1 < len(bases) else None}
            for lang, name in names.items():
                pages.append((name, page(site, "turn.html.j2", lang,
                                         f"{folder}/{bases[index]}", story=told, turn=shown,
                                         folder=folder, **links,
                                         title=lambda t=turn: turn_heading(told, t))))
            if finished:
                turn = Kept(turn.number, turn.began, turn.last, key,
                            sorted(beside(path) for path in drawer.used))
                fresh.append((turn, list(names.values()),
                              {beside(path): drawer.drawn[path] for path in drawer.used}))
        if finished:
            kept.append(turn)
    if told.board_now is not None:
        now = told.board_now
        for name in now["files"]:
            site.image(f"{folder}/{name}", lambda name=name: cache.board(folder, name))
    else:
        drawer.used = set()
        now = drawer.board(told.state, now=True)
    listing = [{"base": base, "began": turn.began, "number": turn.number}
               for base, turn in zip(bases, told.turns)]
    for lang in languages(site):
        pages.append((site.name(f"{folder}/index", lang),
                      page(site, "game.html.j2", lang, f"{folder}/index", story=told,
                           turns=listing, board=now, folder=folder,
                           told_name=lambda turn: told_name(told.game, turn, None),
                           title=lambda: _(told.game.TITLE),
                           result=lambda: result_words(told))))
    write_shared(site, [told.ruleset], told.over)
    if staged:
        site.coming.update(path for path, _make in pages)
    rendered = site.pages(pages)
    if staged:
        site.unstage(folder)
    if cache is not None and told.turns and not isinstance(told.turns[-1], Kept):
        for turn, names, boards in fresh:
            cache.keep(folder, turn.key, [(name, rendered[name]) for name in names], boards)
        last, closed = told.turns[-1], len(kept) == len(told.turns)
        cache.remember(folder, told.whole, kept, len(told.turns) - 1, last.seq, last.prior,
                       last.start, last.chain if closed else None,
                       (now, {beside(p): drawer.drawn[p] for p in drawer.used}) if closed
                       else None)


def kept_pages(site: Site, cache, folder: str, turn: Kept) -> list:
    """A turn's pages as the cache keeps them [(path, render)], its board files written
    first."""
    for name in turn.boards:
        site.image(f"{folder}/{name}", lambda name=name: cache.board(folder, name))
    return [(path, lambda text=text: text) for path, text in cache.pages(folder, turn.key)[0]]


def turn_heading(told: Story, turn: Turn) -> str:
    """A turn page's title in the current language: the game, and the turn as its mails
    name it."""
    return _("{title} {game}: {turn}").format(
        title=_(told.game.TITLE), game=told.game_id,
        turn=told_name(told.game, turn.number, None))


def told_name(game, turn, round_) -> str:
    """A turn or phase as the game's mails name it ("Spring 1901, movement"), capitalised
    for a heading."""
    words = engine.told_words(turn, round_, game)
    return words[:1].upper() + words[1:]


def result_words(told: Story) -> str:
    """A finished game's result in words, in the current language."""
    from .letters import result_text
    return result_text(told.result, game=told.game) if told.result else ""


def turn_context(drawer, told: Story, turn: Turn) -> dict:
    """What a turn's page shows: its phases, each with its events, its press and the
    board after it (None when it did not change), and the board as it began (its first
    turn) ; narrated in the page's language when the page is rendered."""
    start = drawer.board(game_part(turn.start)) if turn is told.turns[0] else None
    phases, last, names = [], start["key"] if start else None, []
    for phase in turn.phases:
        names.append(phase.told)
        board = drawer.board(game_part(phase.after)) if phase.after is not None else None
        changed = board is not None and board["key"] != last
        last = board["key"] if board is not None else last
        phases.append({"phase": phase, "board": board if changed else None,
                       "unchanged": board is not None and not changed,
                       "lines": lambda p=phase: narrated(told, p.events),
                       "press": lambda p=phase: [
                           engine.narrate_press({**e.payload, "to": [_("every seat")]})
                           for e in p.press],
                       "name": lambda p=phase, n=names.count(phase.told): numbered(
                           told_name(told.game, *p.told), n)})
    return {"number": turn.number, "start": start, "phases": phases,
            "before": lambda: narrated(told, turn.before)}


def numbered(name: str, count: int) -> str:
    """A phase's name, numbered after the first of a turn's phases of the same name."""
    return name if count == 1 else f"{name} ({count})"


def game_part(state_text: str) -> dict:
    """The game's part of a state kept as canonical JSON."""
    return json.loads(state_text)["game"]


def narrated(told: Story, events: list) -> list[str]:
    """Events as sentences in the current language (those players need not read left
    out)."""
    return [line for line in (engine.narrate(e, told.game, told.state) for e in events)
            if line]


class Drawer:
    """A game's boards as the archive shows them: for each language, the ground (what
    never changes, with its words: one file per language at most, once per game) under
    the shapes (one file for every language) and the board's words in the page."""

    def __init__(self, site: Site, told: Story):
        self.site, self.told = site, told
        self.grounds = {}    # the ground files drawn, by what is left of them without items
        self.drawn = {}      # {path: bytes} of every board file drawn
        self.used = set()    # the board files the boards drawn since it was emptied show

    def board(self, state: dict, now: bool = False) -> dict:
        """The board of a game's state (its rules' part): for each language, the markup a
        page shows (`now`: and the board as text), and a key that tells two boards
        apart."""
        told, site = self.told, self.site
        view = told.game.view(state, told.viewer)
        drawn, drawings = {}, {}
        for lang in languages(site):
            with speaking(lang):  # a game draws in words of the current language
                drawing = drawings[lang] = told.game.svg_context(view)
                svg = render.board_svg(told.ruleset, told.game, view, drawing, ground=False)
                layers = raster.layers(svg)
                drawn[lang] = (svg, layers, layers and self.ground(layers, view, drawing))
        if all(layers for _svg, layers, _ground in drawn.values()):
            shapes, words = self.shapes({lang: d[1] for lang, d in drawn.items()})
            markup = {lang: self.layered(svg, ground, shapes, words[lang])
                      for lang, (svg, _layers, ground) in drawn.items()}
        else:
            markup = {}
            for lang in drawn:
                with speaking(lang):
                    markup[lang] = self.whole(render.board_svg(told.ruleset, told.game, view,
                                                               drawings[lang]))
        shown, key = {}, hashlib.sha256()
        for lang in languages(site):
            with speaking(lang):
                shown[lang] = {"html": render.board_html(told.ruleset, told.game, view,
                                                         markup[lang], drawings[lang]),
                               "text": told.game.board_text(view) if now else None}
            key.update(markup[lang].encode())
        return {"key": key.hexdigest(), **shown}

    def ground(self, layers, view: dict, drawing: dict) -> str:
        """The file of a board's ground in the current language: drawn whole again only
        when what is left of it without its items at rest changed (a legend grew)."""
        told = self.told
        seen = (i18n.current(), raster.drawn_head(layers.head, 1),
                TITLES.sub("", layers.ground))
        if seen not in self.grounds:
            whole = raster.layers(render.board_svg(told.ruleset, told.game, view, drawing))
            head = raster.drawn_head(whole.head, 1)
            self.grounds[seen] = self.file("ground",
                                           f"{head}{TITLES.sub('', whole.ground)}</svg>\n")
        self.used.add(self.grounds[seen])
        return self.grounds[seen]

    def shapes(self, layers: dict) -> tuple[str, dict]:
        """The file of a board's pieces as every language draws them (with their texts
        that read the same in every language: a place's name, a number), and for each
        language the texts that read otherwise (a legend, a season), for its pages."""
        first = next(iter(layers.values()))
        texts = {lang: [WORDS.findall(piece) for piece in drawn.pieces]
                 for lang, drawn in layers.items()}
        if any([len(t) for t in said] != [len(t) for t in texts[next(iter(layers))]]
               for said in texts.values()):  # drawn otherwise: every text is the page's
            return self.shape_file(first, [WORDS.sub("", p) for p in first.pieces]), {
                lang: "".join(t for piece in said for t in piece)
                for lang, said in texts.items()}
        kept, words = [], {lang: [] for lang in layers}
        for number, piece in enumerate(first.pieces):
            parts = WORDS.split(piece)
            kept.append(parts[0])
            for at, part in enumerate(parts[1:]):
                said = {lang: texts[lang][number][at] for lang in layers}
                if len(set(said.values())) == 1:
                    kept.append(said[next(iter(said))])
                else:
                    for lang, text in said.items():
                        words[lang].append(text)
                kept.append(part)
        return self.shape_file(first, ["".join(kept)]), \
            {lang: "".join(w) for lang, w in words.items()}

    def shape_file(self, drawn, pieces: list) -> str:
        """The file of these pieces over the board `drawn`, without their titles."""
        head = raster.drawn_head(drawn.head, 1)
        return self.file("shapes", f"{head}{TITLES.sub('', ''.join(pieces))}</svg>\n")

    def layered(self, svg: str, ground_path: str, shapes_path: str, words: str) -> Markup:
        """A board in layers: its ground's file, its shapes' file, its words inline."""
        root = raster.svg_root(svg)
        frame = raster.frame_of(root)
        label = raster.TITLE.search(svg)
        placing = " ".join(f'{name}="{root[name]}"' for name in ("viewBox",
                                                                  "preserveAspectRatio")
                           if name in root)
        over = Markup('<svg class="over" {placing} aria-hidden="true">{words}</svg>').format(
            placing=Markup(placing), words=Markup(words)) if words else ""
        return Markup(
            '<div class="board" style="max-width: {w}px"><img src="{ground}" alt="{alt}" '
            'width="{w}" height="{h}"><img class="over" src="{shapes}" alt="">{over}'
            '</div>').format(w=frame.width, h=frame.height, ground=beside(ground_path),
                             shapes=beside(shapes_path), over=over,
                             alt=re.sub(r"</?title>", "", label.group(0)) if label else "")

    def whole(self, svg: str) -> Markup:
        """A board without layers, as one file (its words in it)."""
        path = self.file("board", svg)
        frame = raster.frame_of(raster.svg_root(svg))
        return Markup('<div class="board" style="max-width: {w}px"><img src="{src}" alt="" '
                      'width="{w}" height="{h}"></div>').format(
                          w=frame.width, h=frame.height, src=beside(path))

    def file(self, kind: str, svg: str) -> str:
        """A board file of the game's folder, named for what it shows; written once."""
        digest = hashlib.sha256(svg.encode()).hexdigest()[:20]
        path = f"{self.told.game_id}/{kind}-{digest}.svg"
        self.drawn[path] = svg.encode()
        self.used.add(path)
        return self.site.image(path, lambda: self.drawn[path])


def beside(path: str) -> str:
    """The address of a game's board file from the game's pages, in the same folder."""
    return path.rpartition("/")[2]


def write_shared(site: Site, rulesets: list[str], dice: bool) -> None:
    """The rules pages of these games and, when a game is over, the dice page (each once
    a run)."""
    pages = []
    for lang in languages(site):
        for ruleset in rulesets:
            if site.name(f"rules/{ruleset}", lang) in site.kept:
                continue
            with speaking(lang):
                summary = render.rules_summary(ruleset)
                game_title = _(pbem.games.load(ruleset).TITLE)
            pages.append((site.name(f"rules/{ruleset}", lang),
                          page(site, "text.html.j2", lang, f"rules/{ruleset}",
                               page_title=game_title, text=summary[1] if summary else "")))
        if dice and site.name("dice", lang) not in site.kept:
            pages.append((site.name("dice", lang),
                          page(site, "text.html.j2", lang, "dice", page_title=None,
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
                      "over": row["status"] == "over", "told": table.turn(),
                      "result": table.state["engine"]["result"],
                      "page": f"{row['id']}/index"})
    waiting = [{**row, "game": pbem.games.load(row["ruleset"]),
                "taken": len(joined(store, row["id"]))} for row in waiting_games(store)]
    rulesets = sorted({g["ruleset"] for g in games} | {w["ruleset"] for w in waiting})
    write_shared(site, rulesets, any(g["over"] for g in games))
    site.pages([(site.name("index", lang),
                 page(site, "club.html.j2", lang, "index", games=games, waiting=waiting,
                      address=referee.config["address"], result_text=club_result,
                      told_name=told_name))
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
    game's last event, and each open game's version, against what was published. A
    game's turns that ended before what was published are kept as they are, unless a
    rollback since undid some of them.
    """
    if not referee.config["publish_dir"]:
        return []
    store = referee.store
    changed = {row["id"]: (row["mark"], row["before"]) for row in store.all(
        "SELECT games.id, CAST(games.last_seq AS TEXT) AS mark, published.mark AS before "
        "FROM games LEFT JOIN published ON published.name = games.id "
        "WHERE published.mark IS NOT CAST(games.last_seq AS TEXT) ORDER BY games.id")}
    waiting = {f"open:{row['id']}": str(row["version"]) for row in store.all(
        "SELECT id, version FROM open_games WHERE status = 'open'")}
    shown = {row["name"]: row["mark"] for row in store.all(
        "SELECT * FROM published WHERE name LIKE 'open:%'")}
    if not changed and shown == waiting:
        return []
    since = {game: int(before) for game, (_mark, before) in changed.items()
             if before is not None and not store.one(
                 "SELECT 1 FROM events WHERE game = ? AND seq > ? AND type = "
                 "'phase_rolled_back' LIMIT 1", [game, int(before)])}
    with job_lock(store.path, "publish"):
        write_archive(referee, referee.config.path("publish_dir"), list(changed), False,
                      since)
    with store.transaction():
        store.execute("DELETE FROM published WHERE name LIKE 'open:%'")
        for name, mark in [*((g, m) for g, (m, _b) in changed.items()), *waiting.items()]:
            store.execute("INSERT OR REPLACE INTO published (name, mark) VALUES (?, ?)",
                          [name, mark])
    return list(changed)
