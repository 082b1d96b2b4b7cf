"""The pbem command line: thin wrappers that parse arguments, call one library function, echo.

Each command imports what only it needs (the mail reader, the letters, replay)
inside its own body, so a command that has little to do starts quickly: an
idle `pbem tick` from cron loads no templates, no HTML parser, no images.
"""

import functools
import json
import math
import os
from pathlib import Path
import re
import sqlite3
import sys

import click

import pbem.games

from . import __version__
from .adjudicator.contract import REFEREE, Event
from .adjudicator import engine
from .adjudicator.engine import TIMING_OPTIONS, private_requests, waiting_for
from .adjudicator.options import MAX_HOURS
from .app import Referee, poll_lock, tick_lock
from .locks import job_lock
from .newgame import SEAT_OPTIONS, SeatSpec
from . import console, private
from .config import SOURCES, ConfigError, load
from .console import done, failure, verbosity
from .errors import PbemError, ServerDown, disk_full
from .files import MAIL_BYTES, TEXT_BYTES, capped, read_bytes, read_toml
from .i18n import counted, said
from .identity import without_tokens
from .store import SQLITE_MAX, Store
from .timeutil import EARLIEST, LATEST, parse_time, iso, system_now


def common(command=None, *, new_db: bool = False):
    """Add --db, --config, -v and -q to a command and hand it a ready Referee as `referee`
    (`new_db`: a database that does not exist yet is made, else it is refused).

    An error ends the command with one line on standard error and the exit code its
    kind calls for (pbem/console.py).
    """
    if command is None:
        return functools.partial(common, new_db=new_db)

    @click.option("--config", "config_path", type=click.Path(dir_okay=False),
                  help="Settings file (default: $PBEM_CONFIG or ./pbem.toml).")
    @click.option("--db", type=click.Path(dir_okay=False),
                  help="SQLite database file, from the current folder (default: the db "
                       "setting, pbem.db beside pbem.toml).")
    @verbosity
    @functools.wraps(command)
    def wrapper(*args, config_path=None, db=None, **kwargs):
        console.start_logging()
        try:
            # a path typed on the command line is the shell's: from the current folder
            config = load(config_path, overrides={"db": str(Path(db).absolute())} if db else None)
            private.close_up(config)
            click.get_current_context().find_root().meta["pbem.db"] = config.path("db")
            path = config.path("db")
            referee = Referee(Store(path if new_db else existing_database(path)), config)
            return command(*args, referee=referee, **kwargs)
        except (PbemError, ConfigError) as problem:
            raise failure(problem) from None
    return wrapper


def existing_database(path: Path) -> Path:
    """The database file; PbemError when there is none (a missing cd, a mistyped --db)."""
    if not path.exists():
        raise PbemError(f"no pbem database at {path}: run pbem init in the club's folder "
                        "first, or give --db (or --config) for an existing one")
    return path


def os_problem(problem: OSError) -> str:
    """An operating system error in one line: what went wrong, and on which file."""
    where = " -> ".join(str(name) for name in (problem.filename, problem.filename2) if name)
    what = problem.strerror or str(problem)
    return f"{what}: {where}" if where else what


def problem_file(problem: Exception) -> str:
    """The file an error is about: the one it names, else the current folder."""
    return getattr(problem, "filename", None) or os.path.join(os.getcwd(), ".")


class Commands(click.Group):
    """pbem's commands: an OS or database error ends a command with one line, never a trace,
    and every error line begins 'pbem: ' (a wrong command line keeps click's usage lines)."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except BrokenPipeError:  # `pbem log G | head`: the reader has gone; so do we
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(1)
        except (OSError, sqlite3.Error) as problem:
            raise console.Fail(*system_failure(problem, ctx.meta.get("pbem.db"))) from None
        except click.UsageError:
            raise
        except click.ClickException as problem:
            if isinstance(problem, console.Fail):
                raise
            raise console.Fail(problem.format_message(), problem.exit_code) from None


def system_failure(problem: OSError | sqlite3.Error, db) -> tuple[str, int]:
    """The line and exit code for an error of the system or of SQLite: a full disk, a busy
    database, a file that cannot be read..."""
    full = disk_full(problem, db or problem_file(problem))
    if full is not None:
        return str(full), full.exit_code
    if isinstance(problem, OSError):
        return os_problem(problem), console.REFUSED
    busy = "locked" in str(problem) or "busy" in str(problem)
    return (f"the database {db or ''} refused: {problem}".replace("  ", " ")
            + (" (another pbem is writing; run again later)" if busy else ""),
            console.TEMPFAIL if busy else console.REFUSED)


class Hours(click.ParamType):
    """A number of hours above 0, finite, at most a year."""

    name = "hours"

    def convert(self, value, param, ctx):
        try:
            hours = float(value)
        except (TypeError, ValueError):
            hours = math.nan
        if not (math.isfinite(hours) and 0 < hours <= MAX_HOURS):
            self.fail(f"{value!r}: give a number of hours above 0 and at most {MAX_HOURS} "
                      "(a year)", param, ctx)
        return hours


def now_option(command):
    """Add --now (default: the real current time)."""
    return click.option("--now", help="Act as if it were this UTC time, e.g. 2026-12-01T18:00Z.")(
        command)


def when(now: str | None) -> str:
    """The --now value as ISO UTC, or the real time."""
    if not now:
        return system_now()
    try:
        moment = parse_time(now)
    except ValueError as problem:
        raise click.BadParameter(str(problem), param_hint="--now") from None
    if not EARLIEST <= moment <= LATEST:
        raise click.BadParameter(f"{now!r} is not between {iso(EARLIEST)} and {iso(LATEST)}",
                                 param_hint="--now")
    return iso(moment)


# Characters JSON leaves as they are that a terminal acts on (DEL, C1 controls) or that
# reorder text on screen: written as \u escapes, the same JSON, safe to print.
UNPRINTABLE = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def emit_json(data) -> None:
    """Print data as indented, key-sorted JSON, every control character escaped."""
    text = json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False)
    click.echo(UNPRINTABLE.sub(lambda found: f"\\u{ord(found.group()):04x}", text))


def said_result(result: dict | None) -> dict | None:
    """A game's result for the referee, its reason as an English sentence."""
    if not result:
        return result
    return {**result, "reason": said(result.get("reason", ""))}


def listing(rows: list[dict], as_json: bool, empty: str, lines) -> None:
    """Print rows as JSON, or each as the text lines `lines(row)` gives, or `empty`."""
    if as_json:
        emit_json(rows)
        return
    if not rows:
        click.echo(empty)
    from .mail.parse import visible
    for row in rows:  # what a mail put in a row reaches the terminal without control characters
        for line in lines({k: visible(v) if isinstance(v, str) else v for k, v in row.items()}):
            click.echo(line)


@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"]},
             epilog=console.EXIT_HELP)
@click.version_option(__version__, prog_name="pbem")
@verbosity
def main():
    """pbem: a play-by-email referee for board games.

    Players mail orders; `pbem poll && pbem tick` (from cron) reads them,
    adjudicates every turn that is due and mails each player a report.
    A run that did nothing prints nothing; -v also prints what was done,
    -q only errors. Errors and warnings go to standard error.

    Example: pbem demo
    """
    previous = private.umask()  # all it makes is the referee's alone
    click.get_current_context().call_on_close(lambda: os.umask(previous))


@main.command()
@click.option("--dir", "folder", type=click.Path(file_okay=False), default=".",
              show_default=True, help="Folder to set up.")
@click.option("--db", type=click.Path(dir_okay=False),
              help="SQLite database file (default: pbem.db in --dir); a new pbem.toml names it.")
def init(folder, db):
    """Create pbem.toml, the database and the local mail folders in a folder.

    An existing pbem.toml is kept as it is.

    The folders it makes and the database are readable by the referee alone:
    they hold every game's secret seed and every seat's code.

    Example: pbem init --dir ~/referee
    """
    console.start_logging()
    root = Path(folder)
    root.mkdir(mode=0o700, parents=True, exist_ok=True)
    settings = root / "pbem.toml"
    if not settings.exists():
        named = json.dumps(str(Path(db).resolve())) if db else '"pbem.db"'
        settings.write_text(SAMPLE_CONFIG.replace('db = "pbem.db"', f"db = {named}", 1),
                            encoding="utf-8")
        settings.chmod(0o600)  # it holds no secret yet, but may one day
        click.echo(f"wrote {settings}")
    elif db:
        click.echo(f"{settings} is kept as it is: pass --db {db} to every command, "
                   "or set db in it")
    try:
        config = load(str(settings), overrides={"db": str(Path(db).resolve())} if db else None)
        config.path("db").parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        Store(config.path("db"))
    except (PbemError, ConfigError) as problem:
        raise failure(problem) from None
    from .mail import maildir
    for key in ("inbox", "outbox"):
        maildir.folder(config.path("mail", key))
    click.echo(f"database {config.path('db')}; mail in {config.path('mail', 'inbox')}, "
               f"out {config.path('mail', 'outbox')}")


SAMPLE_CONFIG = """\
# pbem settings. Every key can also be set as PBEM_<KEY> or PBEM_<SECTION>_<KEY>.
db = "pbem.db"
address = "pbem@localhost"        # the referee robot's address: From and Reply-To
name = "pbem referee"
referee = "referee@localhost"     # where notices for the human referee go
# lang = "fr"                     # the club's language (default en)
# publish_dir = "/var/www/club"   # the public archive each tick keeps up to date

[mail]
inbox = "mail/inbox"              # Maildir read by `pbem poll` when [imap] has no host
outbox = "mail/outbox"            # Maildir written when [smtp] has no host

# A real mailbox: add [imap] and [smtp] sections (see docs/running.md).
"""


@main.command("games")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def games_command(as_json):
    """List the games pbem can referee.

    Example: pbem games
    """
    from .signup import numbers, players_taken
    rows = []
    for name in pbem.games.names():
        game = pbem.games.load(name)
        taken = players_taken(game, "probe", {}, [])
        rows.append({"name": name, "title": game.TITLE, "summary": game.SUMMARY,
                     "players": numbers(taken) if taken else None,
                     "options": {**game.OPTIONS, **TIMING_OPTIONS, **SEAT_OPTIONS}})
    if as_json:
        emit_json(rows)
        return
    for row in rows:
        players = f" ({row['players']} players)" if row["players"] else ""
        click.echo(f"{row['name']:10} {row['title']}: {row['summary']}{players}")
        for key, text in row["options"].items():
            click.echo(f"{'':12}--option {key}: {text}")


@main.command("list")
@click.option("--referee", "as_referee", is_flag=True,
              help="Name the seats asked even in a game that keeps them secret (fog of war).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (see docs/cli-json.md).")
@common
def list_command(referee, as_referee, as_json):
    """List the games in the database with their state.

    In a game that keeps who is asked secret (fog of war), only --referee
    names the seats asked, whose orders are in, and who is in civil disorder.

    Example: pbem list --json
    """
    rows = []
    for game in referee.store.all("SELECT * FROM games ORDER BY id"):
        table = referee.table(game["id"])
        eng = table.state["engine"]
        seats = referee.store.seats(game["id"])
        hidden = not as_referee and private_requests(table.game, table.state)
        sent = [s["seat"] for s in referee.orders_in(game["id"])["seats"] if s["sent"]]
        rows.append({
            "id": game["id"], "ruleset": game["ruleset"], "status": game["status"],
            "phase": eng["phase"], "deadline": eng["deadline"],
            "waiting_for": None if hidden else sorted(eng["requests"]),
            "orders_in": None if hidden else sent,
            "seats": [s["name"] for s in seats],
            "bouncing": [s["name"] for s in seats if s["bouncing"]],
            "disorder": None if hidden else eng.get("disorder", []),
            "paused": (eng.get("paused") or {}).get("reason"),
            "result": said_result(eng["result"]),
            "standby": [s["name"] for s in referee.store.standby(game["id"])],
        })
    rows += open_rows(referee.store)
    rows.sort(key=lambda row: row["id"])
    if as_json:
        emit_json(rows)
        return
    if not rows:
        click.echo("no games yet (pbem new --help)")
    for row in rows:
        click.echo(f"{row['id']:12} {row['ruleset']:8} {game_line(row)}")


def open_rows(store) -> list[dict]:
    """pbem list's rows of the games that wait for players to join."""
    from .signup import joined, waiting_games
    return [{"id": row["id"], "ruleset": row["ruleset"], "status": "open",
             "players": {"min": row["min_players"], "max": row["max_players"]},
             "starts": row["starts"], "seats": [p["name"] for p in joined(store, row["id"])],
             "standby": [p["name"] for p in store.standby(row["id"])]}
            for row in waiting_games(store)]


def game_line(row: dict) -> str:
    """One game of pbem list, in words: its result, or its open phase and who it waits for."""
    from .letters import result_text
    if row["status"] == "open":
        joined = ", ".join(row["seats"]) or "nobody yet"
        line = f"open for {row['players']['min']}-{row['players']['max']} players, " \
            f"joined: {joined}" + (f"; starts {row['starts']}" if row["starts"] else
                                   "; starts when full")
        return line + (f"; standby: {', '.join(row['standby'])}" if row["standby"] else "")
    if row["status"] == "over":
        return f"over: {result_text(row['result'], game=pbem.games.load(row['ruleset']))}"
    line = f"phase {row['phase']}, " + (f"paused ({row['paused']})" if row["paused"] else
                                         f"deadline {row['deadline']}")
    if row["waiting_for"] is None:
        return line + ", waiting for others (who is asked is secret: pbem list --referee)" + \
            (f"; mail to {', '.join(row['bouncing'])} bounces" if row["bouncing"] else "")
    missing = [s for s in row["waiting_for"] if s not in row["orders_in"]]
    line += f", waiting for {', '.join(missing)}" if missing else \
        ", every order is in"
    if row["orders_in"]:
        line += f" (orders in: {', '.join(row['orders_in'])})"
    if row["disorder"]:
        line += f"; in civil disorder, to replace: {', '.join(row['disorder'])}"
    if row["bouncing"]:
        line += f"; mail to {', '.join(row['bouncing'])} bounces"
    if row["standby"]:
        line += f"; standby: {', '.join(row['standby'])}"
    return line


def parse_pairs(values, what: str) -> dict:
    """NAME=VALUE options into a dict, in the order given."""
    out = {}
    for value in values:
        key, sep, rest = value.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"{value!r}: write {what}")
        if key.strip() in out:
            raise click.BadParameter(f"{key.strip()} is given twice")
        out[key.strip()] = rest.strip()
    return out


@main.command()
@click.argument("ruleset")
@click.option("--id", "game_id", required=True, help="Game id: lower-case letters, digits, '-'.")
@click.option("--seat", "seats", multiple=True,
              help="A player: NAME=EMAIL. Repeat for every seat, in seat order.")
@click.option("--tz", "zones", multiple=True, help="A seat's timezone: NAME=Europe/Paris.")
@click.option("--lang", "langs", multiple=True,
              help="A seat's language, en or fr: NAME=fr (default: the lang option, else en).")
@click.option("--preset", help="The game's preset (Auguste: 4-2, 6-2, 6-3, 3-3, 5-5, 2-2-1).")
@click.option("--option", "options", multiple=True, help="A game option KEY=VALUE (repeatable).")
@click.option("--judge", help="The seat that is also the game's judge (Seigneurs' barbarian).")
@click.option("--seed", help="The secret seed (default: a fresh random one).")
@click.option("--position", type=click.Path(exists=True, dir_okay=False),
              help="Start from a position file (TOML, see docs/positions.md).")
@click.option("--open", "is_open", is_flag=True,
              help="Wait for players to join by mail (JOIN); --seat seats some by hand first.")
@click.option("--players", metavar="MIN-MAX",
              help="With --open: how many players (default: every number the game takes).")
@click.option("--starts", metavar="DATE",
              help="With --open: start then with at least MIN players (else when full).")
@now_option
@common
def new(referee, ruleset, game_id, seats, zones, langs, preset, options, judge, seed, position,
        is_open, players, starts, now):
    """Create a game and mail every seat its welcome, or open one that players join by mail.

    Example: pbem new auguste --id rome --seat ann=ann@example.org --seat bob=bob@example.org

    Example: pbem new auguste --id lyon --seat ann=a@x.org --seat bob=b@x.org --lang ann=fr

    Example: pbem new attila --id hun --open --players 3-5 --starts 2026-12-24T18:00Z
    """
    seat_map = parse_pairs(seats, "NAME=EMAIL")
    tz = seat_pairs(zones, "NAME=TIMEZONE", seat_map, "--tz")
    lang = seat_pairs(langs, "NAME=LANGUAGE", seat_map, "--lang")
    opts = parse_pairs(options, "KEY=VALUE")
    if preset:
        opts["preset"] = preset
    if judge:
        opts["judge"] = judge
    specs = [SeatSpec(name, email, tz.get(name), lang.get(name))
             for name, email in seat_map.items()]
    if is_open:
        if position:
            raise click.UsageError("--position sets up known seats: leave it out with --open")
        from .signup import open_game
        row = open_game(referee, ruleset, game_id, when(now), opts, player_range(players),
                        starting_time(starts), seed, specs)
        click.echo(f"game {game_id} is open for {row['min_players']}-{row['max_players']} "
                   f"players; they join by mailing JOIN {game_id} to "
                   f"{referee.config['address']} (pbem list shows who has joined)")
        return
    if players or starts:
        raise click.UsageError("--players and --starts go with --open")
    if not specs:
        raise click.UsageError("give the players (--seat NAME=EMAIL, once per player), "
                               "or --open to let them join by mail")
    data = read_toml(position) if position else None
    referee.new_game(ruleset, game_id, specs, when(now), opts, seed, data)
    click.echo(f"game {game_id} created; welcome mails queued for {', '.join(seat_map)} "
               "(pbem tick sends them)")


def player_range(text: str | None) -> tuple[int, int] | None:
    """--players MIN-MAX (or N) as (MIN, MAX)."""
    if not text:
        return None
    found = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", text)
    if not found:
        raise click.BadParameter(f"{text!r}: write MIN-MAX, e.g. 3-5", param_hint="--players")
    fewest = int(found.group(1))
    return fewest, int(found.group(2) or fewest)


def starting_time(text: str | None) -> str | None:
    """--starts as ISO UTC."""
    if not text:
        return None
    try:
        return iso(parse_time(text))
    except ValueError as problem:
        raise click.BadParameter(str(problem), param_hint="--starts") from None


def seat_pairs(values, what: str, seat_map: dict, option: str) -> dict:
    """NAME=VALUE options about seats, each NAME one of the game's seats."""
    pairs = parse_pairs(values, what)
    unknown = sorted(set(pairs) - set(seat_map))
    if unknown:
        raise click.BadParameter(f"no seat called {', '.join(unknown)}", param_hint=option)
    return pairs


@main.command(epilog=console.EXIT_HELP)
@click.option("--watch", is_flag=True,
              help="Keep waiting for mail (IMAP IDLE, or polling every imap.poll_seconds).")
@click.option("--json", "as_json", is_flag=True, help="Print what was stored as JSON.")
@now_option
@common
def poll(referee, watch, as_json, now):
    """Fetch new mail into the inbox (Maildir, or IMAP when configured).

    Each mail is stored before it is marked read or moved to the Processed
    folder, so an interrupted poll loses nothing and stores nothing twice.
    Only one poll runs at a time on a database. Silent unless -v, --json or
    an error; with --watch, -v logs each mail stored.

    Example: pbem poll && pbem tick
    """
    from . import outages
    if watch:
        console.start_logging(with_time=True)
    moment = when(now) if now or not watch else None  # watching: each mail's real arrival
    try:
        count = referee.poll(moment, watch=watch)
    except ServerDown as down:  # said when it begins, once a day, and when it ends
        if outages.failing(referee.store, down.server, str(down), when(now)):
            raise ServerDown(f"{down}{outages.NOTE}", down.server, down.where) from None
        sys.exit(down.exit_code)
    ended = None if watch else outages.working(referee.store, "IMAP")
    if ended is not None:
        console.error(outages.over_line("IMAP", imap_where(referee.config), ended, when(now)))
    if as_json:
        emit_json({"stored": count})
    done(f"{counted(count, 'new mail')} stored")


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@now_option
@common
def ingest(referee, files, now):
    """Store raw RFC 822 messages (.eml files) in the inbox.

    Example: pbem ingest orders.eml && pbem tick
    """
    from .mail import intake
    moment = when(now)
    mails = [(name, read_bytes(name, MAIL_BYTES)) for name in files]  # all, or none stored
    for name, raw in mails:
        row = intake.ingest(referee.store, raw, "file", moment)
        click.echo(f"{name}: stored as inbox {row}")


@main.command(epilog=console.EXIT_HELP)
@click.option("--no-send", is_flag=True, help="Queue mails but do not send them.")
@click.option("--json", "as_json", is_flag=True,
              help="Print what the tick did as JSON (see docs/cli-json.md).")
@now_option
@common
def tick(referee, no_send, as_json, now):
    """Handle new mail, resolve every due phase, send reminders and mail.

    Silent when all went well (-v: what was done). A mail not sent is said on
    standard error, and recorded (pbem outbox): exit 75 when it will be tried
    again or the server could not be reached, 78 when the settings must change,
    1 when a mail was given up.

    Example: pbem tick --now 2026-12-01T18:00Z
    """
    report = referee.tick(when(now), send=not no_send)
    if as_json:
        emit_json(report.as_dict())
    for line in report.lines():
        done(line)
    for line in report.trouble():
        console.error(line)
    if report.exit_code:
        sys.exit(report.exit_code)


def imap_where(config) -> str:
    """The IMAP server, for the referee: IMAP host:port."""
    from .mail.imap import PORTS
    part = config["imap"]
    return f"IMAP {part['host']}:{part['port'] or PORTS.get(part['security'], 0)}"


def known_ids(store, table: str, ids) -> None:
    """PbemError naming the ids that are not in the table (before anything is changed)."""
    unknown = [str(i) for i in ids if not 0 < i <= SQLITE_MAX
               or store.one(f"SELECT 1 FROM {table} WHERE id = ?", [i]) is None]
    if unknown:
        raise PbemError(f"the {table} has no mail {', '.join(unknown)} (see pbem {table} --all)")


@main.command("outbox")
@click.option("--all", "every", is_flag=True, help="Show the mails already sent too.")
@click.option("--retry", "retry_ids", type=int, multiple=True,
              help="Queue a failed mail again, by its id (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (see docs/cli-json.md).")
@click.option("--referee", "as_referee", is_flag=True,
              help="Show the seats' secret codes in the subjects (blanked out otherwise).")
@now_option
@common
def outbox_command(referee, every, retry_ids, as_json, as_referee, now):
    """Show the mails not sent yet (failed ones first), or queue failed ones again.

    Example: pbem outbox --retry 12
    """
    from .mail import outbox
    if retry_ids:
        known_ids(referee.store, "outbox", retry_ids)
        count = outbox.retry(referee.store, retry_ids, when(now))
        click.echo(f"{counted(count, 'mail')} queued again (pbem tick sends them)")
        return
    rows = outbox.waiting(referee.store, every)
    if not as_referee:
        rows = [{**row, "subject": without_tokens(row["subject"])} for row in rows]
    listing(rows, as_json, "nothing waiting in the outbox",
            lambda row: [f"{row['id']:6} {row['status']:8} {counted(row['attempts'], 'attempt'):11} "
                         f"{row['to_addr']}  {row['subject']}"]
            + ([f"       {row['last_error']}"] if row["last_error"] else []))


@main.command("inbox")
@click.option("--all", "every", is_flag=True, help="Show every stored mail, handled ones too.")
@click.option("--release", "release_ids", type=int, multiple=True,
              help="Hand a quarantined, rejected or ignored mail to the next tick (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (see docs/cli-json.md).")
@common
def inbox_command(referee, every, release_ids, as_json):
    """Show the mails pbem did not simply handle (quarantined, rejected, ignored, failed).

    Example: pbem inbox --release 42
    """
    from . import inbound
    if release_ids:
        known_ids(referee.store, "inbox", release_ids)
        count = inbound.release(referee.store, release_ids)
        click.echo(f"{counted(count, 'mail')} released (pbem tick handles them)")
        return
    listing(inbound.held(referee.store, every), as_json, "every stored mail was handled",
            lambda row: [f"{row['id']:6} {row['received_at']} {row['status']:11} "
                         f"{row['sender']}  {row['reason'] or ''}"])


@main.command()
@click.option("--listen", help="HOST:PORT to listen on (default: the smtpd.listen setting).")
@common
def smtpd(referee, listen):
    """Receive mail by SMTP, for a domain's MX or a forwarder pointed at pbem.

    Only pbem's address and its plus-addresses are accepted, and each mail is
    stored before the answer 250. Run pbem tick from cron to handle what
    arrives. STARTTLS is offered when [smtpd] tls_cert and tls_key are set.
    Stop it with SIGTERM or Ctrl-C.

    Example: pbem smtpd --listen 127.0.0.1:2525
    """
    from .mail import smtpd as server
    given_listen_address(listen)
    console.start_logging(with_time=True)
    server.serve(referee.config, listen or referee.config["smtpd"]["listen"])
    done("pbem smtpd stopped")


def given_listen_address(listen: str | None) -> None:
    """PbemError when --listen is no HOST:PORT (the command line's fault, not the
    settings')."""
    if listen:
        from .mail import smtpd as server
        try:
            server.listen_address(listen)
        except ConfigError as problem:
            raise PbemError(str(problem)) from None


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@common
def backup(referee, file):
    """Copy the whole database into FILE, consistent even while poll and tick run.

    It uses SQLite's online backup, so nothing a running poll --watch or tick
    has stored is missed (a plain cp of pbem.db can miss the latest mails).
    FILE is readable by its owner alone, and replaced if it is a file; its folder
    is made when missing. To restore,
    stop pbem (cron, systemd) and put FILE in the database's place. Silent
    unless -v.

    Example: pbem backup /var/backups/pbem/pbem-$(date +%F).db
    """
    target = Path(file)
    if target.exists() and target.resolve() == Path(referee.store.path).resolve():
        raise click.BadParameter("that is the database itself: name another file",
                                 param_hint="FILE")
    if target.exists() and not target.is_file():  # /dev/null would be replaced by a file
        raise click.BadParameter(f"{file} is no regular file (a device, a pipe): name a "
                                 "file", param_hint="FILE")
    referee.store.backup(target)
    done(f"database {referee.store.path} copied to {target}")


@main.command()
@click.argument("backup", type=click.Path(exists=True, dir_okay=False))
@common(new_db=True)
def restore(referee, backup):
    """Put a backup in the database's place, and read again the mail received since.

    Stop everything that runs pbem first (pbem run, cron's poll and tick). The
    database as it was is kept beside it (pbem.db.before-restore), unless it
    holds nothing (a new server, with no database yet or a new one). Each mail
    the mailbox still holds that arrived after the copy (the IMAP folder and
    its Processed folder, or the local Maildir) is read again, in the order it
    came, each after what fell due before it: the games go on as they went.
    The next tick (or pbem run) sends the answers, each with the Message-ID it
    had the first time, so players' mail clients take it for the mail they have.

    Example: pbem restore backups/pbem-3.db
    """
    from .restore import restore as put_back
    copy = Path(backup)
    if copy.resolve() == Path(referee.store.path).resolve():
        raise click.BadParameter("that is the database itself: name a backup", param_hint="BACKUP")
    path = referee.store.path
    with job_lock(path, "run"), tick_lock(path), poll_lock(path):
        done_ = put_back(referee, copy)
    was = f"the database as it was: {done_.kept}" if done_.kept else "there was none before"
    click.echo(f"{path} is now the copy {copy} ({was}); "
               f"{counted(done_.read_again, 'mail')} received since the copy read again from "
               f"{done_.source}; the next tick sends what they call for")


@main.command("run", epilog=console.EXIT_HELP)
@click.option("--source", type=click.Choice(SOURCES),
              help="Where mail comes from (default: the run.source setting; else imap when "
                   "[imap] host is set, else the local Maildir).")
@click.option("--listen", help="HOST:PORT for --source smtpd (default: the smtpd.listen "
                               "setting).")
@common
def run_command(referee, source, listen):
    """Referee without cron: answer each mail as it arrives, resolve turns on time.

    One process that waits for mail (IMAP IDLE, pbem's own SMTP server, or the
    local Maildir), handles each mail at once as a tick would, resolves a turn
    as soon as its orders are in or its deadline passes, and sends reminders
    on time. Only one runs per database, and no tick or poll beside it. It logs
    warnings and errors on standard error (-v: each mail and each round of
    answers too). Stop it with SIGTERM or Ctrl-C: the mail in hand is finished
    first, and the mails still queued wait for the next start.

    Example: pbem run -v
    """
    from .mail.arrivals import source_for
    from .service import Service, real_time
    given_listen_address(listen)
    console.start_logging(with_time=True)
    chosen = source_for(referee.config, source or referee.config["run"]["source"], real_time,
                        listen)
    Service(referee, chosen).run()
    done("pbem run stopped")


def typed_text(data: bytes) -> str:
    """A file the referee typed: UTF-8 (with or without a byte-order mark), else Latin-1."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


@main.command()
@click.argument("game_id")
@click.option("--seat", required=True, help="The seat whose orders these are.")
@click.option("--file", "file", type=click.File("rb"), required=True,
              help="A file with the orders, UTF-8 or Latin-1 ('-' for standard input).")
@now_option
@common
def submit(referee, game_id, seat, file, now):
    """Enter a seat's orders by hand, exactly as if the seat had mailed them.

    Example: echo "red: move BAK DOR" | pbem submit rome --seat ann --file -
    """
    from . import inbound
    text = typed_text(capped(file, getattr(file, "name", "-"), TEXT_BYTES))
    answer = inbound.submit(referee, game_id, seat, text, when(now))
    for line in answer["notes"]:
        click.echo(line)
    for line in answer["understood"]:
        click.echo(f"  {line}")
    for line in answer["errors"]:
        click.echo(f"  {line}")


@main.command()
@click.argument("game_id")
@click.option("--hours", type=Hours(), required=True,
              help="How many hours to add to the open turn's deadline.")
@now_option
@common
def extend(referee, game_id, hours, now):
    """Give the open turn more time; every seat it waits for is told the new deadline.

    Example: pbem extend rome --hours 48
    """
    deadline = referee.extend(game_id, hours, when(now))
    click.echo(f"game {game_id}: the deadline is now {deadline}; the seats asked are told "
               "(pbem tick sends the mails).")


@main.command()
@click.argument("game_id")
@click.option("--reason", required=True,
              help="Why the game ends, in a few words; every player's last mail says it.")
@now_option
@common
def end(referee, game_id, reason, now):
    """End a game before its rules do: nobody wins, every seat gets its last mail and the seed.

    Example: pbem end rome --reason "two players left the club"
    """
    referee.end(game_id, reason, when(now))
    click.echo(f"game {game_id} is over; every seat's last mail is queued "
               "(pbem tick sends them).")


@main.command()
@click.argument("game_id")
@click.argument("ruling_id", required=False)
@click.option("--set", "values", multiple=True, metavar="KEY=VALUE",
              help="A value the ruling sets, e.g. winner=ann (repeatable).")
@click.option("--text", default="", help="Your reasons, in a sentence: the seats concerned read it.")
@click.option("--json", "as_json", is_flag=True, help="Print the open rulings as JSON.")
@now_option
@common
def ruling(referee, game_id, ruling_id, values, text, as_json, now):
    """List what a game waits for the referee to decide, or settle it.

    Without RULING_ID: the open rulings (disputes, judgements the rules leave
    to a person), each with its id, question and the values it sets. With it:
    the ruling is recorded as an event with your reasons, the seats concerned
    are told, and the game goes on. A judge seat's open ruling may be settled
    in its place the same way.

    Example: pbem ruling camp1

    Example: pbem ruling camp1 14 --set winner=ann --text "bob's report came after the photo"
    """
    if not ruling_id:
        if values or text:
            raise click.UsageError("name the ruling to settle: pbem ruling GAME ID --set ...")
        rows = referee.rulings(game_id)
        listing(rows, as_json, f"game {game_id} waits for no ruling", lambda row: [
            f"{row['id']:>6}  {row['asked']}: {row['prompt']}",
            *(f"        {fact}" for fact in row["facts"]),
            "        sets: " + ("; ".join(
                f"{key} ({'|'.join(words) if words else 'any value'})"
                for key, words in sorted(row["choices"].items())) or "nothing, reasons only")])
        return
    ruled = referee.rule(game_id, ruling_id, text, parse_pairs(values, "KEY=VALUE"), when(now))
    click.echo(f"ruling {ruled['id']} of game {game_id} recorded; the seats concerned are told "
               "(pbem tick sends the mails).")


@main.command()
@click.argument("game_id")
@click.option("--referee", "as_referee", is_flag=True,
              help="Show the orders themselves too (never shown to players).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@common
def orders(referee, game_id, as_referee, as_json):
    """Show which seats have sent orders for the open phase, and when.

    With --referee, what each seat ordered (as the game understood it). In a
    game that keeps who is asked secret (fog of war), only --referee names
    the seats.

    Example: pbem orders rome --referee
    """
    shown = referee.orders_in(game_id, with_orders=as_referee, public=not as_referee)
    if as_json:
        emit_json(shown)
        return
    when = f"paused ({shown['paused']})" if shown["paused"] else \
        f"deadline {shown['deadline']}" if shown["deadline"] else "no deadline"
    click.echo(f"game {game_id}, phase {shown['phase']}, {when}:")
    if shown["seats"] is None:
        click.echo("  who is asked is known only to the seats asked (fog of war); "
                   f"pbem orders {game_id} --referee names them")
    elif not shown["seats"]:
        click.echo("  nothing is asked of anyone")
    for row in shown["seats"] or []:
        if row["sent"]:
            said = f"orders in since {row['at']}" + \
                (f", {counted(row['errors'], 'line')} with errors" if row["errors"] else "")
        else:
            said = "nothing yet"
        marks = [word for word, on in (("READY", row["ready"]), ("WAIT", row["wait"]),
                                       ("conceded", row["conceded"])) if on]
        click.echo(f"  {row['seat']:12} {said}" + (f" ({', '.join(marks)})" if marks else ""))
        for line in row.get("orders", []):
            click.echo(f"  {'':12}   {line}")


@main.command()
@click.argument("game_id")
@click.argument("seat_name", required=False)
@click.option("--from", "first", metavar="DATE", help="The first day away (the seat's zone).")
@click.option("--to", "last", metavar="DATE", help="The last day away (the seat's zone).")
@now_option
@common
def absence(referee, game_id, seat_name, first, last, now):
    """List a game's absences, or grant a seat one beyond its quota.

    Players declare their own by mail (ABSENCE 2026-12-20 2026-12-27); no
    deadline of theirs falls inside one: it moves to the absence's end, and
    every seat is told.

    Example: pbem absence rome

    Example: pbem absence rome ann --from 2026-12-20 --to 2027-01-10
    """
    from .players import grant_absence
    if seat_name:
        if not (first and last):
            raise click.UsageError("give the first and last days away: --from DATE --to DATE")
        given = grant_absence(referee, game_id, seat_name, first, last, when(now))
        click.echo(f"seat {seat_name} of game {game_id} is away from {given['start']} to "
                   f"{given['end']} ({given['days']} days); a deadline in it moves to its end.")
        return
    if first or last:
        raise click.UsageError("name the seat: pbem absence GAME SEAT --from DATE --to DATE")
    away = referee.table(game_id).state["engine"].get("absences", {})
    rows = [(seat, a) for seat, spans in sorted(away.items()) for a in spans]
    if not rows:
        click.echo(f"game {game_id}: nobody has declared an absence")
    for seat, a in rows:
        by = "granted by the referee" if a["by"] == REFEREE else "declared by mail"
        click.echo(f"{seat:12} {a['start']} to {a['end']} ({by})")


@main.command()
@click.argument("game_id")
@click.option("--reason", required=True, help="Why, in a few words: every seat is told.")
@now_option
@common
def pause(referee, game_id, reason, now):
    """Stop a game's clock: no deadline runs and no turn is resolved until pbem resume.

    Mail is still read and answered. Every seat is told why.

    Example: pbem pause rome --reason "the referee is away until Monday"
    """
    held = referee.pause(game_id, reason, when(now))
    left = "no deadline was running" if held["left"] is None else \
        f"the open turn had {held['left'] / 3600:.1f} h left"
    click.echo(f"game {game_id} is paused ({left}); every seat is told "
               "(pbem tick sends the mails).")


@main.command()
@click.argument("game_id")
@now_option
@common
def resume(referee, game_id, now):
    """Start a paused game's clock again, with the time the open turn had left.

    Example: pbem resume rome
    """
    deadline = referee.resume(game_id, when(now))
    click.echo(f"game {game_id} resumes; " + (f"the deadline is now {deadline}" if deadline
                                              else "the open phase waits for a ruling")
               + "; every seat is told (pbem tick sends the mails).")


@main.command()
@click.argument("game_id")
@click.option("--to-phase", "phase", type=click.IntRange(min=1), required=True,
              help="The phase to reopen, from the state the game had just before it opened.")
@click.option("--reason", required=True, help="Why, in a few words: every seat is told.")
@now_option
@common
def rollback(referee, game_id, phase, reason, now):
    """Take a game back to the start of a phase, to undo a mistaken turn.

    The log stays whole: the events since are kept and marked undone (pbem log
    shows them so), the orders sent since are set aside, every seat gets the
    board of the reopened phase, and pbem replay --verify checks it all.

    Example: pbem rollback rome --to-phase 7 --reason "bob's orders were lost in the mail"
    """
    done = referee.rollback(game_id, phase, reason, when(now))
    click.echo(f"game {game_id} is back at the start of phase {done['phase']}: events "
               f"{done['from_seq']} to {done['to_seq']} are undone (kept in the log); every "
               "seat gets the board again (pbem tick sends the mails).")


@main.command()
@click.argument("game_id")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@common
def preview(referee, game_id, as_json):
    """Show what the open phase would resolve to with the orders in now; nothing changes.

    For the referee only: it shows every secret, and the dice the phase will roll.

    Example: pbem preview rome
    """
    from .letters import result_text
    shown = referee.preview(game_id)
    if as_json:
        emit_json(shown)
        return
    defaulted = f"; default orders for {', '.join(shown['defaulted'])}" \
        if shown["defaulted"] else ""
    click.echo(f"game {game_id}: if phase {shown['phase']} were resolved now{defaulted}:")
    for line in shown["events"] or ["(nothing the players would read)"]:
        click.echo(f"- {line}")
    click.echo("")
    click.echo(shown["board"])
    if shown["result"] is not None:
        click.echo(f"\nThe game would end: {result_text(shown['result'])}")
    click.echo("\nNothing was recorded: this is a preview.")


def audience(seat, as_referee):
    """The viewer a command shows things to: a seat, the referee, or the public."""
    if seat and as_referee:
        raise click.UsageError("give --seat or --referee, not both")
    return REFEREE if as_referee else seat


@main.command()
@click.argument("game_id")
@click.option("--seat", help="Show what this seat sees.")
@click.option("--referee", "as_referee", is_flag=True, help="Show everything, secrets included.")
@click.option("--json", "as_json", is_flag=True, help="Print the view as JSON.")
@click.option("--html", "html_file", type=click.Path(dir_okay=False),
              help="Write the board as an HTML page with its SVG map.")
@common
def show(referee, game_id, seat, as_referee, as_json, html_file):
    """Show a game's board and state (public unless --seat or --referee).

    With --seat, what that seat's mails show: its board and its own part (a
    hand, its legions). With --referee, every seat's part too.

    Example: pbem show rome --seat ann
    """
    from .letters import result_text
    who = audience(seat, as_referee)
    view = referee.view(game_id, who)
    if as_json:
        emit_json(view)
        return
    table = referee.table(game_id)
    shown = view if who != REFEREE else table.game.view(table.state["game"], REFEREE)
    if html_file:
        from . import render
        page = render.render(table.ruleset, "page.html.j2", game=game_id, title=table.game.TITLE,
                             svg=render.board_html(table.ruleset, table.game, shown),
                             board=table.game.board_text(shown))
        try:
            Path(html_file).write_text(page, encoding="utf-8")
        except OSError as problem:
            raise click.ClickException(f"cannot write {html_file}: {problem.strerror}") from None
        click.echo(f"wrote {html_file}")
        return
    if who not in (None, REFEREE):
        sheet = referee.seat_sheet(game_id, who)
        click.echo(sheet["board"])
        click.echo(f"\nSeat {who}:" + (f"\n{sheet['yours']}" if sheet["yours"] else " nothing "
                                                                              "of its own"))
        if sheet["asked"]:
            click.echo(f"Asked: {sheet['asked']}")
    else:
        click.echo(table.game.board_text(shown))
    if who == REFEREE:
        for row in referee.store.seats(game_id):
            sheet = referee.seat_sheet(game_id, row["name"])
            click.echo(f"\nSeat {row['name']} ({row['email']}):"
                       + (f"\n{sheet['yours']}" if sheet["yours"] else ""))
        watching = referee.store.observers(game_id)
        click.echo("\nObservers: " + (", ".join(f"{o['email']} (since {o['added_at']})"
                                                for o in watching) or "none"))
    eng = table.state["engine"]
    if eng["over"]:
        click.echo(f"\nGame over: {result_text(eng['result'], game=table.game)}.")
    else:
        when = f"paused ({eng['paused']['reason']})" if eng.get("paused") else \
            f"deadline {eng['deadline']}"
        waiting = waiting_for(table.game, table.state, who)
        click.echo(f"\nPhase {eng['phase']}, {when}, waiting for "
                   f"{', '.join(waiting) or 'others'}")


@main.command()
@click.argument("game_id")
@click.option("--seat", help="Only the events this seat may see.")
@click.option("--referee", "as_referee", is_flag=True, help="Every event, secrets included.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (see docs/cli-json.md).")
@common
def log(referee, game_id, seat, as_referee, as_json):
    """Print a game's event log (public events unless --seat or --referee).

    With --seat, every event that seat may see, its own secrets included;
    events a rollback undid are marked (undone).

    Example: pbem log rome --json
    """
    who = audience(seat, as_referee)
    rows = list(referee.events(game_id, who))
    if as_json:
        emit_json(rows)
        return
    table = referee.table(game_id)
    for row in rows:
        event = Event(row["type"], row["payload"], row["visible_to"])
        line = engine.narrate(event, table.game, table.state["game"]) or ""
        undone = "(undone) " if row["undone"] else ""
        click.echo(f"{row['seq']:5} {row['at']} {row['type']:16} {undone}{line}".rstrip())


@main.command()
@click.argument("game_id")
@click.option("--seat", help="Only this seat's receipts.")
@click.option("--check", "file", type=click.File("rb"),
              help="A file with order lines a seat sent: which phase used exactly them.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@common
def receipt(referee, game_id, seat, file, as_json):
    """List the receipts of the orders each phase used, or check a seat's saved orders.

    A receipt is the SHA-256 of the order lines as pbem stored them (their
    non-blank lines, each ended by a newline); each acknowledgement shows the
    lines and their receipt, so a player can also check with sha256sum.

    Example: pbem receipt rome --check ann-turn-3.txt
    """
    from .receipts import adjudicated, check, receipt as digest
    referee.game_row(game_id)
    if file is not None:
        text = typed_text(capped(file, getattr(file, "name", "-"), TEXT_BYTES))
        found = [r for r in check(referee.store, game_id, text) if not seat or r["seat"] == seat]
        if as_json:
            emit_json(found)
        for r in [] if as_json else found:
            click.echo(f"phase {r['phase']} of game {game_id} used exactly these orders of "
                       f"{r['seat']} (event {r['seq']}, SHA-256 {r['sha256']})")
        if not found:
            raise click.ClickException(f"no phase of game {game_id} used these orders "
                                       f"(SHA-256 {digest(text)})")
        return
    rows = [r for r in adjudicated(referee.store, game_id) if not seat or r["seat"] == seat]
    listing(rows, as_json, f"game {game_id} has no receipts yet", lambda r: [
        f"phase {r['phase']:4} {r['seat']:12} {r['sha256']}  (event {r['seq']})"])


@main.command()
@click.argument("game_id")
@click.option("--to", "upto", type=click.IntRange(min=1), help="Stop after this event number.")
@click.option("--verify", is_flag=True,
              help="Re-run the rules on the recorded orders and compare every byte.")
@common
def replay(referee, game_id, upto, verify):
    """Rebuild a game from its log; with --verify, prove the log is what the rules give.

    Example: pbem replay rome --verify
    """
    last = referee.game_row(game_id)["last_seq"]
    if upto and upto > last:
        raise click.BadParameter(f"the log of {game_id} ends at event {last}", param_hint="--to")
    from .replay import replay as replay_game
    verdict = replay_game(referee.store, game_id, upto, verify)
    click.echo(board_of(verdict))
    click.echo(f"\n{verdict.events} events, {verdict.phases} phases; state {verdict.state_hash}")
    if verify or verdict.broken:
        for problem in verdict.problems[:SHOWN_PROBLEMS]:
            click.echo(f"MISMATCH {problem}", err=True)
        if len(verdict.problems) > SHOWN_PROBLEMS:
            click.echo(f"... and {len(verdict.problems) - SHOWN_PROBLEMS} more", err=True)
        if not verdict.ok:
            sys.exit(1)
        click.echo("verified: the log is exactly what the rules give")


SHOWN_PROBLEMS = 20  # a replay's first problems tell where the log and the rules part


def board_of(verdict) -> str:
    """The public board of a replayed game, or the line saying why there is none."""
    if verdict.broken:
        return "no board: the rules could not fold the whole log (see below)"
    if not verdict.state["game"]:
        return "no board yet: the game is set up by a later event"
    game = pbem.games.load(verdict.state["engine"]["ruleset"])
    try:
        return game.board_text(game.view(verdict.state["game"], None))
    except Exception as problem:  # an old log may hold what this release cannot draw
        return f"no board: this release cannot draw the game's state ({problem!r})"


@main.command()
@click.argument("ruleset", default="auguste")
@click.option("--seed", default="demo", show_default=True, help="Seed of the demo game.")
@click.option("--dir", "folder", default="pbem-demo", show_default=True,
              type=click.Path(file_okay=False), help="Where the db and the mails go.")
@click.option("--turns", default=60, show_default=True, help="Stop after this many turns.")
@click.option("--db", type=click.Path(dir_okay=False),
              help="A new SQLite file for the demo game (default: demo.db in --dir).")
def demo(ruleset, seed, folder, turns, db):
    """Play a whole game with bot players mailing orders through local Maildir folders.

    --dir is emptied first when it holds an earlier demo; any other folder
    with files in it is refused.

    Example: pbem demo --seed 7
    """
    from .demo import play
    try:
        summary = play(ruleset, seed, Path(folder), turns, Path(db) if db else None)
    except PbemError as problem:
        raise failure(problem) from None
    for line in summary:
        click.echo(line)


@main.command()
@click.argument("game_id")
@click.argument("address")
@click.option("--stop", is_flag=True, help="Stop this address's reports.")
@click.option("--lang", metavar="LANGUAGE", help="The language of its mail: en or fr.")
@click.option("--tz", metavar="ZONE", help="Show its times in this zone, e.g. Europe/Paris.")
@now_option
@common
def observe(referee, game_id, address, stop, lang, tz, now):
    """Let someone follow a game without a seat: every public report, nothing private.

    An observer's mails carry no reply address and no code; nothing it writes
    counts. pbem show GAME --referee lists a game's observers.

    Example: pbem observe rome kibitzer@example.org --lang fr

    Example: pbem observe rome kibitzer@example.org --stop
    """
    from .observers import observe as add, stop_observing
    if stop:
        stop_observing(referee, game_id, address, when(now))
        click.echo(f"{address} no longer follows game {game_id}; it is told "
                   "(pbem tick sends the mail).")
        return
    row = add(referee, game_id, address, when(now), lang, tz)
    click.echo(f"{row['email']} follows game {game_id}; a first mail with the board is queued "
               "(pbem tick sends it).")


@main.command()
@click.argument("game_id")
@click.argument("seat_name")
@click.option("--new-token", is_flag=True,
              help="Give the seat a new secret code and mail it its new reply address; "
                   "the old code stops working at once.")
@click.option("--email", metavar="ADDRESS",
              help="Move the seat to a player's new mail address: it is mailed the seat's "
                   "reply address, and the old address is told.")
@click.option("--replace", metavar="ADDRESS|NAME",
              help="Give the seat to a new player at this address: a new code, the seat's "
                   "whole history; the old address is told and no longer counts. A name "
                   "from the game's standby list (or 'standby': the first) is offered the "
                   "seat by mail and takes it with CONFIRM.")
@click.option("--name", "player", metavar="NAME", help="The new player's name (with --replace).")
@click.option("--lang", metavar="LANGUAGE", help="The language of the seat's mail: en or fr.")
@click.option("--tz", metavar="ZONE", help="Show the seat's times in this zone, e.g. Europe/Paris.")
@now_option
@common
def seat(referee, game_id, seat_name, new_token, email, replace, player, lang, tz, now):
    """Show a seat of a game, give it a new secret code, move it to a new address,
    give it to a new player, or set the language and time zone of its mail.

    Example: pbem seat rome ann --new-token

    Example: pbem seat rome ann --email ann@new-provider.example

    Example: pbem seat rome ann --replace zoe@example.org --name "Zoé Martin" --lang fr

    Example: pbem seat rome ann --replace standby

    Example: pbem seat rome ann --lang fr --tz Europe/Paris
    """
    from .seats import (choose_language, choose_timezone, move_seat, replace_player,
                        rotate_token)
    referee.game_row(game_id)
    row = referee.store.seat(game_id, seat_name)
    if row is None:
        raise click.ClickException(f"game {game_id} has no seat called {seat_name!r}")
    if replace and (email or new_token):
        raise click.UsageError("--replace gives the seat a new player, address and code: "
                               "leave out --email and --new-token")
    if player and not replace:
        raise click.UsageError("--name is the new player's name: give it with --replace")
    if not (email or new_token or lang or tz or replace):
        click.echo(f"seat {row['name']} of game {game_id}: "
                   + (f"{row['player']}, " if row["player"] else "")
                   + f"{row['email']}, language {row['lang']}, timezone {row['tz'] or 'UTC'}"
                   + (", mail to it bounces" if row["bouncing"] else ""))
        return
    if lang or tz:  # first, so any mail below is already in the seat's language
        with referee.store.transaction():
            if lang:
                row = choose_language(referee.store, game_id, seat_name, lang)
            if tz:
                row = choose_timezone(referee.store, game_id, seat_name, tz)
        click.echo(f"seat {seat_name} of game {game_id} now gets its mail in {row['lang']}, "
                   f"with times in {row['tz'] or 'UTC'}.")
    if email:  # before a new token, so the new code goes to the new address only
        old = row["email"]
        row = move_seat(referee, game_id, seat_name, email, when(now))
        click.echo(f"seat {seat_name} of game {game_id} moved from {old} to {row['email']}; "
                   "mails to both addresses are queued (pbem tick sends them).")
    if replace and "@" not in replace:
        from .signup import offer_seat
        chosen = offer_seat(referee, game_id, seat_name, replace, when(now))
        click.echo(f"seat {seat_name} of game {game_id} is offered to {chosen['name']} from its "
                   "standby list: it is theirs when they answer CONFIRM (pbem tick sends "
                   "the offer).")
    elif replace:
        old = row["email"]
        row = replace_player(referee, game_id, seat_name, replace, when(now), player)
        click.echo(f"seat {seat_name} of game {game_id} now belongs to {row['email']}: its "
                   f"history and new code are mailed there, and {old} is told "
                   "(pbem tick sends the mails).")
    if new_token:
        row = rotate_token(referee, game_id, seat_name, when(now))
        click.echo(f"seat {seat_name} of game {game_id} has a new code; the old one no longer "
                   f"works. A mail with the new reply address is queued for {row['email']} "
                   "(pbem tick sends it).")


@main.command()
@click.argument("game_id")
@click.option("--add", "adding", metavar="NAME=EMAIL",
              help="Seat a player by hand in the open game (after those who joined).")
@click.option("--standby", is_flag=True,
              help="With --add: put the player on the game's standby list instead.")
@click.option("--lang", metavar="LANGUAGE", help="With --add: the player's language, en or fr.")
@click.option("--remove", "removing", metavar="NAME",
              help="Take a player out of the open game or off its standby list (it is told).")
@click.option("--start", "starting", is_flag=True,
              help="Start the open game now with the players who joined.")
@click.option("--json", "as_json", is_flag=True, help="Print the players as JSON.")
@now_option
@common
def signup(referee, game_id, adding, standby, lang, removing, starting, as_json, now):
    """List the players waiting for a game (seats, then standby), add or remove one, or
    start an open game now.

    Example: pbem signup rome --add zoe=zoe@example.org --lang fr

    Example: pbem signup rome --start
    """
    from .signup import add_player, remove_player, signup_rows, start
    if standby and not adding:
        raise click.UsageError("--standby goes with --add")
    if adding:
        [(name, email)] = parse_pairs([adding], "NAME=EMAIL").items()
        row = add_player(referee, game_id, SeatSpec(name, email, None, lang), when(now), standby)
        click.echo(f"{row['name']} ({row['email']}) waits in game {game_id}"
                   + (" on its standby list" if row["standby"] else ""))
    if removing:
        row = remove_player(referee, game_id, removing, when(now))
        click.echo(f"{row['name']} no longer waits in game {game_id}; {row['email']} is told "
                   "(pbem tick sends the mail)")
    if starting:
        start(referee, game_id, when(now), anyhow=True)
        click.echo(f"game {game_id} has started; welcome mails are queued (pbem tick sends "
                   "them)")
    if adding or removing or starting:
        return
    if referee.store.open_game(game_id) is None:
        referee.game_row(game_id)
    rows = [{k: row[k] for k in ("name", "email", "player", "lang", "standby", "joined_at")}
            for row in signup_rows(referee.store, game_id)]
    listing(rows, as_json, f"nobody waits in game {game_id}", lambda row: [
        f"{row['name']:16} {row['email']:30} {'standby' if row['standby'] else 'seat':8} "
        f"{row['joined_at']}"])


@main.command()
@click.argument("game_ids", nargs=-1)
@click.option("--out", type=click.Path(file_okay=False),
              help="The archive's folder (default: the publish_dir setting).")
@click.option("--reveal", is_flag=True,
              help="Publish finished games whole: every board and event but private press.")
@common
def publish(referee, game_ids, out, reveal):
    """Write the public web archive: the club's games, and each game turn by turn.

    Only what every player may see is written: each phase under its name,
    with the orders made public, what happened, the press to every seat and
    the public board after it; the seed's SHA-256, and at the end the result
    and the revealed seed. Pages in French and English, plain relative links,
    no script: serve the folder with any web server, or copy it to any host.
    --reveal publishes whole the games that are over (the others as always);
    it refuses games named that are still running. Silent unless -v.

    Example: pbem publish --out /var/www/club

    Example: pbem publish rome --reveal --out /var/www/club
    """
    from .publish import publish as write
    folder = Path(out) if out else (referee.config.path("publish_dir")
                                    if referee.config["publish_dir"] else None)
    if folder is None:
        raise click.UsageError("give --out DIR, or set publish_dir in pbem.toml")
    from .publish import still_running
    written = write(referee, folder, list(game_ids) or None, reveal)
    running = still_running(referee.store, written) if reveal else []
    revealed = [g for g in written if g not in running] if reveal else []
    done(f"archive written to {folder}: {counted(len(written), 'game')}"
         + (f" ({', '.join(written)})" if written else "") + " and the club's index"
         + (f"; published whole: {', '.join(revealed) or 'none'}" if reveal else "")
         + (f"; still running, so as every player sees them: {', '.join(running)}"
            if running else ""))
