"""What the archive wrote of each game's finished turns, kept beside the database so that
a later publish (into an empty folder, or a tick's) writes them again without folding,
narrating or drawing them.

A finished turn's pages and boards are a pure function of the chain hash of the turn's
last event (the log is hash-chained), the turn's place among the game's turns, whether
the game is published whole (``--reveal``), the club's language, and the code and
templates that draw them. Each turn is kept under a digest of exactly those: its pages
as rendered (every link still marked, made plain as the files it leads to are there)
and the names of its board files, kept once each by name (a board's name is the digest
of what it shows).

For each game, a list of its kept turns, and the state where its open turn began (a
copy of what the database holds, never written to the site) with the chain hash of
the event before it: a publish checks that hash against the log, reads only the events
from there, and folds only the open turn. Once a game is over its last turn is kept
too, with its board now and the chain hash of its last event: while the log still ends
there, a publish folds nothing of it.

The folder, ``<database>.archive-cache/``, is private like the database (0700, files
0600): it is made again from the log whenever it is lost, and is not backed up. Under
it, one folder for the code and templates that drew it (another pbem version, or a
changed template, and every folder but the current one is removed); in it, one folder a
game (removed with the game), holding ``public.json`` and ``whole.json`` (the kept
turns of each way of publishing it), ``turn-<key>.json`` and the board files (named
as on the site); a file no list names any more (a turn a rollback undid) is removed
when the game is written.
"""

from dataclasses import dataclass
from functools import lru_cache
import hashlib
from importlib.metadata import version
from importlib.resources import files
import json
import os
from pathlib import Path
import shutil

from markupsafe import Markup

from . import __version__

DRAWN = (".py", ".j2", ".po", ".mo", ".toml", ".svg", ".json")
DRAWING = ("Jinja2", "MarkupSafe", "Babel")
KIND = "archive cache 1"


@lru_cache(maxsize=1)
def code_digest() -> str:
    """A digest of the code, templates and catalogues that draw the archive: pbem, its
    games and its templates, as installed, and the libraries that write its pages."""
    digest = hashlib.sha256(__version__.encode())
    for library in DRAWING:
        digest.update(f"{library} {version(library)}\0".encode())
    for package in ("pbem", "pbem.games", "pbem.templates"):
        root = Path(str(files(package)))
        for path in sorted(p for p in root.rglob("*")
                           if p.suffix in DRAWN and "__pycache__" not in p.parts
                           and p.is_file()):
            digest.update(f"{package}/{path.relative_to(root).as_posix()}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


@dataclass
class Kept:
    """A finished turn written from the cache: its number, when it began, the seq of its
    last event, the key of its pages, and the names of its board files."""

    number: int
    began: str
    last: int
    key: str
    boards: list


@dataclass
class Known:
    """What the cache knows of a game: its finished turns, and where its open turn begins
    (the seq of its first event, the chain hash before it, the state then)."""

    turns: list
    seq: int | None
    prior: str | None
    state: str | None
    now: dict | None = None  # a game over: its board now, as the game's page shows it


class TurnCache:
    """The cache of a club's archive (see the module's docstring)."""

    def __init__(self, folder: Path, club_lang: str):
        self.top = folder
        drawn = hashlib.sha256(f"{KIND}\0{code_digest()}\0{club_lang}".encode())
        self.root = folder / drawn.hexdigest()[:20]
        self.listed = {}     # {game: the names of its folder}, as read once per publish

    @classmethod
    def beside(cls, db_path: str, club_lang: str):
        """The cache of the database at `db_path` (None for a database in memory)."""
        if not db_path or db_path.startswith(":"):
            return None
        return cls(Path(f"{db_path}.archive-cache"), club_lang)

    def key(self, game_id: str, whole: bool, index: int, chain: str, final: bool) -> str:
        """The key of a finished turn's pages: the game, how it is published, the turn's
        place among its turns, the chain hash of its last event, and whether it is the
        last turn of a game that is over."""
        return hashlib.sha256(f"{game_id}\0{int(whole)}\0{index}\0{chain}\0{int(final)}"
                              .encode()).hexdigest()[:32]

    def names(self, game_id: str) -> set:
        """The files the cache holds for a game."""
        if game_id not in self.listed:
            try:
                self.listed[game_id] = set(os.listdir(self.root / game_id))
            except OSError:
                self.listed[game_id] = set()
        return self.listed[game_id]

    def known(self, store, game: dict, whole: bool) -> Known | None:
        """The kept turns of a game (its games row) and where its open turn begins, when
        the log still leads there and every file they need is kept; else None. A game
        over whose every turn is kept, and that has no event since, is Known with all
        its turns and no open turn (seq None)."""
        game_id = game["id"]
        try:
            told = json.loads((self.root / game_id / manifest(whole)).read_text("utf-8"))
        except (OSError, ValueError):
            return None
        closed = told["closed"] is not None and told["closed"] == game["last_hash"]
        turns = told["turns"] if closed else told["turns"][:told["before"]]
        there = self.names(game_id)
        if not told["before"] or any(entry(t[3]) not in there or not there.issuperset(t[4])
                                     for t in turns):
            return None
        if closed and there.issuperset(told["now"]["files"]):
            now = told["now"]
            return Known([Kept(*t) for t in turns], None, None, None, {
                "key": now["key"], "files": now["files"],
                **{lang: {**shown, "html": Markup(shown["html"])}
                   for lang, shown in now["shown"].items()}})
        if closed:
            return None
        row = store.one("SELECT prev_hash FROM events WHERE game = ? AND seq = ?",
                        [game_id, told["seq"]])
        if row is None or row["prev_hash"] != told["prior"]:
            return None
        return Known([Kept(*t) for t in turns], told["seq"], told["prior"], told["state"])

    def named(self, game_id: str, whole: bool) -> set:
        """The files a game's list names, itself too (none when there is none)."""
        try:
            told = json.loads((self.root / game_id / manifest(whole)).read_text("utf-8"))
        except (OSError, ValueError):
            return set()
        return {manifest(whole), *(told["now"]["files"] if told["now"] else ()),
                *(name for t in told["turns"] for name in (entry(t[3]), *t[4]))}

    def has(self, game_id: str, key: str) -> bool:
        """Are a turn's pages kept?"""
        return entry(key) in self.names(game_id)

    def pages(self, game_id: str, key: str) -> tuple[list, list]:
        """A kept turn's pages [(path, page text)] and the names of its board files."""
        kept = json.loads(self.read(game_id, entry(key)))
        return kept["pages"], kept["boards"]

    def board(self, game_id: str, name: str) -> bytes:
        """A kept board file's bytes."""
        return self.read(game_id, name)

    def read(self, game_id: str, name: str) -> bytes:
        """A file of a game's folder."""
        with open(f"{self.root}/{game_id}/{name}", "rb", buffering=0) as kept:
            return kept.readall()

    def keep(self, game_id: str, key: str, pages: list, boards: dict) -> None:
        """Keep a finished turn's pages [(path, text)] and its board files {name: bytes}."""
        there = self.names(game_id)
        for name, data in boards.items():
            if name not in there:
                self.write(game_id, name, data)
        self.write(game_id, entry(key), json.dumps(
            {"pages": pages, "boards": sorted(boards)}, ensure_ascii=False).encode())

    def remember(self, game_id: str, whole: bool, kept: list, before: int, seq: int,
                 prior: str, state: str, closed: str | None = None,
                 now: tuple | None = None) -> None:
        """Write a game's list of kept turns [Kept] (the `before` first: those before its
        open turn, or its last turn once it is over, which may be kept too), where its
        open turn begins, and once it is over and every turn kept, the chain hash of its
        last event (`closed`) and its board now (`now`: the board, its files {name:
        bytes}); then remove the files of the game neither way of publishing it names."""
        shown = None
        if closed is not None:
            board, files = now
            for name, data in files.items():
                if name not in self.names(game_id):
                    self.write(game_id, name, data)
            shown = {"key": board["key"], "files": sorted(files),
                     "shown": {lang: {"html": str(drawn["html"]), "text": drawn["text"]}
                               for lang, drawn in board.items() if lang != "key"}}
        self.write(game_id, manifest(whole), json.dumps(
            {"turns": [[t.number, t.began, t.last, t.key, t.boards] for t in kept],
             "before": before, "seq": seq, "prior": prior, "state": state,
             "closed": closed, "now": shown}, ensure_ascii=False).encode())
        named = self.named(game_id, whole) | self.named(game_id, not whole)
        for name in self.names(game_id) - named:
            (self.root / game_id / name).unlink(missing_ok=True)
            self.listed[game_id].discard(name)

    def write(self, game_id: str, name: str, data: bytes) -> None:
        """Write one file of a game's folder whole, readable by its owner alone (unless it
        is already exactly so)."""
        folder = self.root / game_id
        if game_id not in self.listed or not folder.is_dir():
            for made in (self.top, self.root, folder):
                made.mkdir(mode=0o700, exist_ok=True)
            self.names(game_id)
        if name in self.listed[game_id] and (folder / name).read_bytes() == data:
            return
        temporary = folder / f".{name}.{os.getpid()}.tmp"
        handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, folder / name)
        self.listed[game_id].add(name)

    def forget_others(self, games: list[str]) -> None:
        """Remove what older code or templates drew, and the folders of games the club no
        longer has."""
        if not self.top.is_dir():
            return
        for path in self.top.iterdir():
            if path != self.root:
                shutil.rmtree(path, ignore_errors=True) if path.is_dir() else path.unlink()
        if self.root.is_dir():
            for path in self.root.iterdir():
                if path.name not in games:
                    shutil.rmtree(path, ignore_errors=True)


def manifest(whole: bool) -> str:
    """The file of a game's kept turns, for one way of publishing it."""
    return "whole.json" if whole else "public.json"


def entry(key: str) -> str:
    """The file of a kept turn's pages."""
    return f"turn-{key}.json"
