"""`pbem demo`: a whole game played by bots through the local Maildir folders.

Each bot reads the last mail pbem sent it from the outgoing Maildir, writes a
reply (its orders on top, the quoted mail below, as a mail client would) into
the incoming Maildir, and the demo runs `poll` and `tick` with a clock it
advances itself. Now and then a bot stays silent, so default orders are shown
too. A seat whose orders another seat gives (a vassal) gets them in its
overlord's mail, under a "for SEAT:" line. What waits for the referee is
settled by the game's scripted referee (its ``bot_ruling``), as a referee
would with ``pbem ruling``. Everything is seeded: the same seed plays the
same game.
"""

from email.message import EmailMessage
from email.utils import format_datetime, parseaddr
import json
from pathlib import Path
import shutil

import pbem.games

from .adjudicator.contract import REFEREE
from .adjudicator.rng import PhaseRng
from .app import Referee
from .newgame import SeatSpec
from .config import load
from .errors import PbemError
from .i18n import ngettext
from .letters import result_text
from .mail import fetch, maildir
from .mail.parse import message_from_bytes
from .replay import replay
from .store import Store
from .timeutil import later, parse_time

START = "2030-03-01T09:00:00Z"
GAME_ID = "demo"
SILENCE = 20  # one bot answer in this many is never sent


DEMO_NAME = "pbem demo referee"


def write_config(folder: Path, db: Path | None) -> Path:
    """A pbem.toml for the demo folder (its database in it, unless db is given)."""
    path = folder / "pbem.toml"
    path.write_text(
        f'db = {json.dumps(str(db) if db else "demo.db")}\naddress = "pbem@demo.example"\n'
        f'name = "{DEMO_NAME}"\nreferee = "referee@demo.example"\n\n[mail]\n'
        'inbox = "mail/inbox"\noutbox = "mail/outbox"\n', encoding="utf-8")
    return path


def fresh_folder(folder: Path, db: Path | None) -> None:
    """Empty the demo folder of an earlier demo; refuse a folder or database that holds
    anything else."""
    if db and db.exists():
        raise PbemError(f"{db} exists; the demo writes a new database (choose another --db)")
    if folder.exists():
        settings = folder / "pbem.toml"
        earlier = settings.is_file() and DEMO_NAME in settings.read_text(encoding="utf-8")
        if any(folder.iterdir()) and not earlier:
            raise PbemError(f"{folder} holds files of its own; the demo needs an empty folder "
                            "or one of an earlier demo (choose another --dir)")
        shutil.rmtree(folder)
    folder.mkdir(parents=True)


class Postman:
    """The bots' view of the outgoing Maildir: the last mail each address received."""

    def __init__(self, path: Path):
        self.path = path
        self.seen = set()
        self.last = {}

    def collect(self) -> None:
        """Read the mails delivered since the last call."""
        for name in sorted(p.name for p in (self.path / "new").iterdir()):
            if name in self.seen:
                continue
            self.seen.add(name)
            msg = message_from_bytes((self.path / "new" / name).read_bytes())
            if msg["Reply-To"]:
                self.last[parseaddr(str(msg["To"]))[1]] = msg


def bot_reply(last, seat: SeatSpec, text: str, now: str, number: int) -> bytes:
    """A reply as a mail client writes it: new text on top, the quoted mail below."""
    reply = EmailMessage()
    reply["From"] = f"{seat.name} <{seat.email}>"
    reply["To"] = str(last["Reply-To"])
    reply["Subject"] = f"Re: {last['Subject']}"
    reply["Date"] = format_datetime(parse_time(now))
    reply["Message-ID"] = f"<bot.{seat.name}.{number}@players.example>"
    reply["In-Reply-To"] = str(last["Message-ID"])
    quoted = last.get_body(preferencelist=("plain",)).get_content()
    body = text + f"\n\nOn {last['Date']}, {last['From']} wrote:\n" + "".join(
        f"> {line}\n" for line in quoted.splitlines())
    reply.set_content(body)
    return reply.as_bytes()


def play(ruleset: str, seed: str, folder: Path, turns: int, db: Path | None = None) -> list[str]:
    """Play one demo game to its end (or the turn cap); return a summary.

    The database is folder/demo.db unless db names a new file elsewhere.
    """
    try:
        game = pbem.games.load(ruleset)
    except KeyError:
        raise PbemError(f"unknown game {ruleset!r}; available: "
                        f"{', '.join(pbem.games.names())}") from None
    db = db.resolve() if db else None
    fresh_folder(folder, db)
    config = load(str(write_config(folder, db)))
    referee = Referee(Store(config.path("db")), config)
    seats = [SeatSpec(name, f"{name}@players.example") for name in game.DEMO_SEATS]
    referee.new_game(ruleset, GAME_ID, seats, START, game.demo_options(turns), seed)
    postman = Postman(config.path("mail", "outbox"))
    inbox = config.path("mail", "inbox")
    now, counts = START, {"mails": 0, "silent": 0, "rulings": 0}
    referee.tick(now)
    for _ in range(turns * 20):
        table = referee.table(GAME_ID)
        if table.state["engine"]["over"]:
            break
        postman.collect()
        counts["rulings"] += scripted_rulings(referee, game, table.state, seed, now)
        for writer, text in bot_mails(game, table.state, seed, counts).items():
            counts["mails"] += 1
            seat = next(s for s in seats if s.name == writer)
            maildir.deliver(inbox, bot_reply(postman.last[seat.email], seat, text, now,
                                             counts["mails"]))
        now = later(now, 1)
        fetch.poll_maildir(referee, now)
        if not referee.tick(now).phases:
            now = referee.table(GAME_ID).state["engine"]["deadline"] or now
            referee.tick(now)
    return summary(referee, game, folder, config, counts)


def bot_mails(game, state, seed, counts) -> dict:
    """{writer: mail text} for the seats asked now, each mail from the seat that gives its
    orders (a vassal's come from its overlord, under a "for SEAT:" line)."""
    eng = state["engine"]
    ruler = getattr(game, "controller", None)
    parts = {}
    for name in sorted(eng["requests"]):
        if name == REFEREE:
            continue
        rng = PhaseRng(seed, f"bot:{name}", eng["phase"])
        if rng.below(SILENCE) == 0:
            counts["silent"] += 1
            continue
        writer = (ruler(state["game"], name) if ruler else None) or name
        text = game.bot_orders(state["game"], name, rng)
        parts.setdefault(writer, []).append(text if writer == name else f"for {name}:\n{text}")
    return {writer: "\n".join(texts) for writer, texts in parts.items()}


def scripted_rulings(referee, game, state, seed, now) -> int:
    """The demo's referee settles what waits for it, with the game's scripted rulings."""
    if REFEREE not in state["engine"]["requests"] or not hasattr(game, "bot_ruling"):
        return 0
    done = 0
    for ruling in referee.rulings(GAME_ID):
        if ruling["asked"] != REFEREE:
            continue
        rng = PhaseRng(seed, "bot:referee", state["engine"]["phase"])
        values, text = game.bot_ruling(state["game"], state["engine"]["requests"][REFEREE], rng)
        referee.rule(GAME_ID, ruling["id"], text, values, now)
        done += 1
    return done


def summary(referee, game, folder, config, counts) -> list[str]:
    """What the demo did and where to look."""
    table = referee.table(GAME_ID)
    eng = table.state["engine"]
    verdict = replay(referee.store, GAME_ID, verify=True)
    sent = referee.store.one("SELECT count(*) AS n FROM outbox")["n"]
    result = eng["result"] or {}
    lines = [
        game.board_text(game.view(table.state["game"], REFEREE)),
        "",
        f"{game.TITLE} demo: {eng['phase']} phases, {counts['mails']} bot mails read, "
        f"{counts['silent']} silent turns (default orders), "
        + ngettext("{n} referee ruling", "{n} referee rulings", counts["rulings"]).format(
            n=counts["rulings"]) + f", {sent} mails sent.",
        "Result: " + result_text(result, game=game)
        if eng["over"] else "Result: stopped at the turn cap before the game ended.",
        f"Replay: {'verified, byte for byte' if verdict.ok else 'MISMATCH'} "
        f"({verdict.events} events).",
        f"Database: {config.path('db')}",
        f"Mails: {config.path('mail', 'inbox')} (the players') and "
        f"{config.path('mail', 'outbox')} (pbem's)",
        f"Look again: pbem --help; pbem log {GAME_ID} --db {config.path('db')}; "
        f"pbem replay {GAME_ID} --verify --db {config.path('db')}",
    ]
    if not verdict.ok:
        lines += verdict.problems[:5]
    return lines
