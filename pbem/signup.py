"""Open games: players join by mail, and a game starts by itself when it is full.

The referee opens a game (``pbem new GAME --id G --open``). Anyone may then
write to the club's address, no code needed (what a mail asks is read by
pbem/strangers.py):

- ``LIST`` (``LISTE``), or the list asked in any words: the open games, their
  rules in short, the seats taken and free, when each starts; ``LIST G`` or
  ``WHOGAME G`` (``QUIJOUE``): one game's seats and their state, no address;
- ``JOIN G`` (``REJOINDRE``), with ``NAME a-name`` (``NOM``) for a seat's name
  in a game without roles, or the roles wished for (``JOIN dip as France``):
  the answer carries a code that must come back from the same address, with a
  word of consent (``CONFIRM code``, or "yes" in a reply to the answer), so
  nobody can put someone else's address in a game;
- ``LEAVE G`` (``QUITTER``), confirmed the same way, before the start;
- ``HELP`` (``AIDE``): what the club's address takes.

Any other mail from a stranger is answered with the open games and how to
join. A game starts at the tick that finds it full, or at its start date with
at least its fewest players: seats in the order of confirmation, each named
for the role the game deals it (Diplomacy's powers: the players' wishes
first, then at random from the game's seed), else for the name its player
chose, else player1, player2...; the welcome mails as for any game.

``JOIN G --standby`` (``--reserve``), or joining a game that is full or has
begun, puts a player on the game's standby list: the referee's notice of a
seat in civil disorder names them, ``pbem seat G S --replace NAME`` offers
them the seat by mail, and they take it with CONFIRM.

A stranger is answered each command at most once a day per address and game,
never at an address that looks automatic, in the language the mail is
written in. A CONFIRM with the right code is always answered: it proves the
address. A forged JOIN stores nothing but the request that waits for its
code, which expires.
"""

from dataclasses import dataclass, field
from datetime import timedelta
from difflib import get_close_matches
import itertools
import json
import re
import secrets
import unicodedata

import pbem.games

from . import letters
from .adjudicator import engine
from .adjudicator.contract import SetupError
from .adjudicator.rng import PhaseRng
from .errors import PbemError
from .i18n import LANGUAGES, N_, _, normal_language, speaking
from .identity import mail_address, new_token, valid_game_id
from .newgame import SeatSpec, check_new_game, game_language, ruleset_module
from .reading import plain
from .strangers import FILLER, MAX_ASKS, Ask, read, word
from .timeutil import iso, parse_time

CONFIRM_DAYS = 7           # how long a code waits for its CONFIRM
ANSWER_EVERY = timedelta(days=1)
MAX_LISTED = 20            # games named in one answer
MAX_NAMED = 3              # games a mail without a command names, offered to join
MAX_SEAT = 24              # characters of a seat's name chosen with NAME
PROBE_SEATS = 12           # the most players a game is asked whether it takes
# Addresses that are machines, not people: never answered.
MACHINE = re.compile(r"^(no-?reply|do-?not-?reply|donotreply|mailer-daemon|postmaster|daemon|"
                     r"bounces?|auto-?reply|autoresponder|notifications?|listserv|majordomo|"
                     r"owner-.*|.*-(request|owner|bounces?))(\+.*)?$")
RESERVED_NAMES = {"all", "tous", "referee", "arbitre"}


@dataclass
class Answer:
    """What pbem says back to a stranger's mail, sentence by sentence (letters.say)."""

    lang: str
    headline: tuple | None = None
    notes: list = field(default_factory=list)
    done: list = field(default_factory=list)       # what the inbox log says it did
    game: str | None = None
    acted: bool = False      # something was done: a request confirmed, a seat taken
    listed: bool = False     # the open games are in the answer already
    coded: bool = False      # a code is in the answer: its headline heads it
    later: list = field(default_factory=list)      # commands answered in the last day


# ------------------------------------------------------------ the referee's side


def open_game(referee, ruleset: str, game_id: str, now: str, options: dict | None = None,
              players: tuple[int, int] | None = None, starts: str | None = None,
              seed: str | None = None, seats=()) -> dict:
    """Open a game that waits for players to join by mail; return its open_games row.

    `players` is (fewest, most), by default every number of players the game
    takes; `starts` the time it starts with at least the fewest; `seats` the
    players the referee seats by hand (SeatSpecs), first in the order.
    """
    now = iso(parse_time(now))
    game = ruleset_module(ruleset)
    options = dict(options or {})
    game_language(options.get("lang", "en"))
    if seats:
        check_new_game(game_id, list(seats))
    elif not valid_game_id(game_id):
        raise PbemError(f"game id {game_id!r}: use 1-32 lower-case letters, digits and '-'")
    taken = players_taken(game, game_id, options, [s.name for s in seats])
    if not taken:
        raise PbemError(f"{game.TITLE} refuses these options for any number of players")
    fewest, most = players or (min(taken), max(taken))
    refused = [n for n in range(fewest, most + 1) if n not in taken]
    if fewest < 1 or most < fewest or refused:
        raise PbemError(f"{game.TITLE} with these options takes {numbers(taken)} players, "
                        f"not {fewest}-{most}")
    if len(seats) > most:
        raise PbemError(f"{len(seats)} seats given by hand, more than {most} players")
    if starts is not None:
        starts = iso(parse_time(starts))
    store = referee.store
    with store.transaction():
        if store.game(game_id) or store.open_game(game_id):
            raise PbemError(f"there is already a game called {game_id!r}")
        store.insert("open_games", {
            "id": game_id, "ruleset": ruleset, "options": json.dumps(options, sort_keys=True),
            "min_players": fewest, "max_players": most, "starts": starts, "seed": seed,
            "created_at": now})
        for spec in seats:
            lang = normal_language(spec.lang or options.get("lang") or "en")
            enrol(store, game_id, spec.email.lower(), spec.name, spec.player, lang, now,
                  tz=spec.tz)
    return store.open_game(game_id)


def players_taken(game, game_id: str, options: dict, named: list[str]) -> list[int]:
    """The numbers of players the game can be set up for with these options (and these
    seats first): each number is tried with the game's own setup."""
    taken = []
    game_options = {k: v for k, v in options.items() if k != "lang"}
    for count in range(max(1, len(named)), PROBE_SEATS + 1):
        names = named + [f"seat-{n}" for n in range(count - len(named))]
        try:
            with speaking("en"):
                engine.creation_events(game, game_id, "probe", game_options, names, "probe")
        except (SetupError, PbemError, ValueError, KeyError):
            continue
        taken.append(count)
    return taken


def numbers(counts: list[int]) -> str:
    """Numbers of players in a few words: '2-6', '3, 5'."""
    if counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}-{counts[-1]}" if len(counts) > 1 else str(counts[0])
    return ", ".join(str(n) for n in counts)


def enrol(store, game_id: str, email: str, name: str, player, lang: str, now: str,
          standby: bool = False, tz=None, wishes=()) -> None:
    """Put a player in an open game (or on a game's standby list), last in the order; a
    player already there keeps its place under its new name. `wishes`: the roles it
    asked for, first the most wished (words as it wrote them)."""
    last = store.one("SELECT max(number) AS n FROM signups WHERE game = ?", [game_id])["n"]
    there = store.one("SELECT number, joined_at FROM signups WHERE game = ? AND email = ?",
                      [game_id, email])
    store.execute("DELETE FROM signups WHERE game = ? AND email = ?", [game_id, email])
    store.insert("signups", {"game": game_id, "email": email, "name": name, "player": player,
                             "lang": lang, "tz": tz, "standby": int(standby),
                             "wishes": json.dumps(list(wishes)) if wishes else None,
                             "joined_at": there["joined_at"] if there else now,
                             "number": there["number"] if there else (last or 0) + 1})
    store.execute("UPDATE open_games SET version = version + 1 WHERE id = ?", [game_id])


def joined(store, game_id: str) -> list[dict]:
    """The players in an open game's seats, in the order they joined."""
    return store.all("SELECT * FROM signups WHERE game = ? AND standby = 0 ORDER BY number",
                     [game_id])


def waiting_games(store) -> list[dict]:
    """The open games that wait for players, by id."""
    return store.all("SELECT * FROM open_games WHERE status = 'open' ORDER BY id")


def add_player(referee, game_id: str, spec, now: str, standby: bool = False) -> dict:
    """The referee seats a player by hand in an open game (or puts one on a game's standby
    list); returns its signups row."""
    now = iso(parse_time(now))
    email = mail_address(spec.email)
    lang = normal_language(spec.lang) if spec.lang else None
    if spec.lang and lang is None:
        raise PbemError(f"unknown language {spec.lang!r} (pbem writes {' or '.join(LANGUAGES)})")
    store = referee.store
    with store.transaction():
        row = store.open_game(game_id)
        game = store.game(game_id)
        if not standby and (row is None or row["status"] != "open"):
            raise PbemError(f"game {game_id} is not open for players (see pbem list); "
                            "--standby puts a player on its standby list")
        if row is None and (game is None or game["status"] == "over"):
            raise PbemError(f"no open or running game called {game_id!r} (see pbem list)")
        if not valid_game_id(spec.name) or spec.name in taken_names(store, game_id, email):
            raise PbemError(f"{spec.name!r} is taken or is no seat name (lower-case letters, "
                            "digits and '-')")
        if not standby and len(joined(store, game_id)) >= row["max_players"]:
            raise PbemError(f"game {game_id} is full ({row['max_players']} players)")
        if lang is None:
            lang = json.loads(row["options"]).get("lang", "en") if row else "en"
        enrol(store, game_id, email, spec.name, spec.player, lang, now, standby, spec.tz)
        return store.one("SELECT * FROM signups WHERE game = ? AND email = ?", [game_id, email])


def remove_player(referee, game_id: str, name: str, now: str) -> dict:
    """Take a player out of an open game or off a standby list; it is told. Returns its row."""
    now = iso(parse_time(now))
    store = referee.store
    with store.transaction():
        row = store.one("SELECT * FROM signups WHERE game = ? AND name = ?", [game_id, name])
        if row is None:
            known = ", ".join(r["name"] for r in store.all(
                "SELECT name FROM signups WHERE game = ? ORDER BY number", [game_id]))
            raise PbemError(f"nobody called {name!r} waits in game {game_id} "
                            f"(waiting: {known or 'nobody'})")
        store.execute("DELETE FROM signups WHERE game = ? AND email = ?", [game_id, row["email"]])
        store.execute("UPDATE open_games SET version = version + 1 WHERE id = ?", [game_id])
        letters.notify(referee, row["email"], row["lang"], letters.say(
            N_("game {game}: you no longer wait for a seat"), game=game_id), [letters.say(
                N_("The referee took you out of the players waiting for game {game}. If you "
                   "did not expect it, write to the referee: {referee}."),
                game=game_id, referee=referee.config["referee"])], now, game=game_id,
            kind="signup")
    return row


def signup_rows(store, game_id: str) -> list[dict]:
    """Everyone who waits in a game, seats first then standby, in their order."""
    return store.all("SELECT * FROM signups WHERE game = ? ORDER BY standby, number", [game_id])


# ------------------------------------------------------------ starting


def start_due(referee, now: str) -> list[str]:
    """Start every open game that is full, or past its start date with enough players;
    tell the referee once about a game whose date came without enough. Returns the ids
    of the games started."""
    started = []
    for row in waiting_games(referee.store):
        count = len(joined(referee.store, row["id"]))
        due = row["starts"] is not None and row["starts"] <= now
        if count >= row["max_players"] or (due and count >= row["min_players"]):
            if start(referee, row["id"], now):
                started.append(row["id"])
        elif due:
            problem = f"{count} of at least {row['min_players']} players at {row['starts']}"
            tell_referee_once(referee, row["id"], problem, [
                f"Game {row['id']} was to start at {row['starts']}, but only {count} of at "
                f"least {row['min_players']} players have joined. It starts as soon as "
                "enough have; pbem signup " + row["id"] + " --start starts it now with "
                "those there are."], now)
    return started


def start(referee, game_id: str, now: str, anyhow: bool = False) -> bool:
    """Start an open game with its players, in the order they joined (inside one
    transaction), each seat named for the role dealt to it in a game that has roles.
    False, with the referee told why, when the game refuses them; with `anyhow`,
    PbemError instead."""
    store = referee.store
    try:
        with store.transaction():
            row = store.open_game(game_id)
            if row is None or row["status"] != "open":
                raise PbemError(f"game {game_id} is not open for players (see pbem list)")
            players = joined(store, game_id)
            if not players:
                raise PbemError(f"nobody has joined game {game_id} yet")
            options = json.loads(row["options"])
            seed = row["seed"] or secrets.token_hex(16)
            names = dealt(seat_roles(pbem.games.load(row["ruleset"]), options, len(players)),
                          players, PhaseRng(seed, game_id, DEAL))
            specs = [SeatSpec(names.get(p["email"], p["name"]), p["email"], p["tz"], p["lang"],
                              p["player"]) for p in players]
            store.update("open_games", {"id": game_id}, {"status": "started", "problem": None})
            store.execute("DELETE FROM signups WHERE game = ? AND standby = 0", [game_id])
            referee.create_game(row["ruleset"], game_id, specs, now, options, seed)
            letters.notice(referee, referee.config["referee"], f"game {game_id} has started", [
                f"Game {game_id} ({row['ruleset']}) started with {len(specs)} players: "
                + ", ".join(s.name for s in specs) + ".",
                f"pbem list shows it; pbem show {game_id} --referee shows their addresses."],
                now, game=game_id, kind="signup")
    except PbemError as problem:
        if anyhow:
            raise
        tell_referee_once(referee, game_id, str(problem), [
            f"Game {game_id} could not start: {problem}.",
            f"pbem signup {game_id} lists its players; change them, then pbem signup "
            f"{game_id} --start."], now)
        return False
    return True


DEAL = "roles"  # the label of the stream an open game's roles are dealt from


def seat_roles(game, options: dict, count: int) -> dict:
    """{role: words} the seats of a game of `count` players are named for (the game's
    ``roles``), {} for a game whose players name their seats."""
    hook = getattr(game, "roles", None)
    if hook is None:
        return {}
    return hook({k: v for k, v in options.items() if k != "lang"}, count) or {}


def role_of(wish: str, roles: dict) -> str | None:
    """The role a wished word asks for ("France", "french": france), or None."""
    wish = plain(wish)
    return next((role for role, words in roles.items()
                 if wish in {plain(w) for w in words} | set(role.split("-"))), None)


def dealt(roles: dict, players: list[dict], rng) -> dict:
    """{address: role} for the players of an open game, or {} without roles.

    The players are taken in an order drawn from the game's seed (``shuffle`` of
    those who joined, in the order they joined); each takes the first role it
    wished for that is still free; then those left take the roles left, both
    lists drawn in the same way (docs/dice.md).
    """
    if not roles:
        return {}
    order = rng.shuffle([p["email"] for p in players])
    wishes = {p["email"]: json.loads(p.get("wishes") or "[]") for p in players}
    given = {}
    for email in order:
        wanted = (role_of(w, roles) for w in wishes[email])
        given[email] = next((r for r in wanted if r and r not in given.values()), None)
    left = rng.shuffle([r for r in roles if r not in given.values()])
    for email, role in zip([e for e in order if given[e] is None], left):
        given[email] = role
    return given


def tell_referee_once(referee, game_id: str, problem: str, notes, now: str) -> None:
    """A notice to the referee about an open game, unless it was told this very problem."""
    store = referee.store
    with store.transaction():
        row = store.open_game(game_id)
        if row["problem"] == problem:
            return
        store.update("open_games", {"id": game_id}, {"problem": problem})
        letters.notice(referee, referee.config["referee"],
                       f"game {game_id} has not started", notes, now, game=game_id,
                       kind="signup")


# ------------------------------------------------------------ a stranger's mail


def handle_mail(referee, incoming, now: str):
    """Answer a mail to the club's address without a game tag: each command it gives,
    or, from a stranger who gives none, the open games and how to join.

    Returns the inbox status (status, reason, game, seat); None for a mail from a
    player's address that gives no command (pbem/inbound.py tells it about game tags).
    """
    store = referee.store
    reading = read(incoming.subject, incoming.text, incoming.sender_name,
                   referee.config["lang"])
    if not reading.asks and plays(store, incoming.sender):
        return None
    if machine(incoming.sender, referee.config["address"]):
        return "ignored", f"mail to the club from {incoming.sender}, an automatic address: " \
                          "not answered", None, None
    forget_stale(store, now)
    answer = Answer(reading.lang)
    for ask in reading.asks or [Ask("list", reading.lang, unasked=True)]:
        ACTIONS[ask.name](referee, incoming, ask, answer, now, reading)
    said = "; ".join(answer.done)
    if not answer.notes:
        if answer.acted:
            return "done", f"signup: {said}", answer.game, None
        return "ignored", f"signup: {said} (already answered in the last day)", answer.game, None
    if answer.later:
        say(answer, None, letters.say(N_("Answered in the last day already, so not again: "
                                         "{commands}."), commands=", ".join(answer.later)))
    if reading.over:
        answer.done.append(f"{len(reading.over)} more commands not done")
        say(answer, None, letters.say(
            N_("A mail is read for its first {count} commands; these were not done: "
               "{commands}. Send them again in another mail."),
            count=MAX_ASKS, commands="; ".join(ask.line for ask in reading.over)))
    letters.notify(referee, incoming.sender, answer.lang, answer.headline, answer.notes, now,
                   incoming=incoming, game=answer.game, kind="signup")
    return "done", f"signup: {'; '.join(answer.done)}", answer.game, None


def plays(store, address: str) -> bool:
    """Does this address play a seat in some game?"""
    return bool(address) and store.one("SELECT 1 FROM seats WHERE email = ? LIMIT 1",
                                       [address]) is not None


def forget_stale(store, now: str) -> None:
    """Forget the requests whose code has expired, and answers older than a day: what a
    stranger's mail leaves behind lasts no longer than it counts."""
    store.execute("DELETE FROM confirmations WHERE asked_at < ?",
                  [iso(parse_time(now) - timedelta(days=CONFIRM_DAYS))])
    store.execute("DELETE FROM stranger_answers WHERE answered_at < ?",
                  [iso(parse_time(now) - ANSWER_EVERY)])


def machine(address: str, club: str) -> bool:
    """Does this address belong to a machine (no-reply, a list, the club itself)?"""
    local, _, domain = address.rpartition("@")
    mine_local, _, mine_domain = club.lower().partition("@")
    ours = domain == mine_domain and (local == mine_local or local.startswith(mine_local + "+"))
    return ours or bool(MACHINE.match(local))


def topic(store, ask: Ask) -> str:
    """What "answered once a day" counts: the command, and the game when there is such a
    game (every name that is none counts as one, so a forger's made-up names buy no
    more mail)."""
    if ask.game and (store.game(ask.game) or store.open_game(ask.game)):
        return f"{ask.name} {ask.game}"
    return ask.name


def first_answer(store, address: str, ask: Ask, answer: Answer, now: str) -> bool:
    """May this command be answered now (not in the last day for this address and game)?
    Records it when so; when not, the answer says so if it says anything."""
    about = topic(store, ask)
    row = store.one("SELECT answered_at FROM stranger_answers WHERE address = ? AND topic = ?",
                    [address, about])
    if row and parse_time(now) - parse_time(row["answered_at"]) < ANSWER_EVERY:
        if ask.line:
            answer.later.append(ask.line)
        return False
    store.execute("INSERT INTO stranger_answers (address, topic, answered_at) VALUES (?, ?, ?) "
                  "ON CONFLICT(address, topic) DO UPDATE SET answered_at = ?",
                  [address, about, now, now])
    return True


def say(answer: Answer, headline, *notes) -> None:
    """Add sentences to an answer (the first headline given heads it)."""
    if answer.headline is None and headline is not None:
        answer.headline = headline
    answer.notes += notes


def list_ask(referee, incoming, ask: Ask, answer: Answer, now: str, reading) -> None:
    """LIST (or a mail that asks nothing pbem reads): the open games, and the games that
    take standby players; LIST G is WHOGAME G."""
    store = referee.store
    if ask.game and not ask.subject and known(store, ask.game):
        return whogame_ask(referee, incoming, ask, answer, now, reading)
    answer.done.append("list" if not ask.unasked else "no command: the open games")
    if not first_answer(store, incoming.sender, ask, answer, now):
        return
    if ask.unasked:
        say(answer, letters.say(N_("the open games")), letters.say(
            N_("Your mail gives none of the commands this address takes, so here are the "
               "open games and how to join one ({help} lists the commands)."),
            help=word("help", ask.lang)))
        say(answer, None, *named_games(referee, reading, ask.lang))
    elif ask.game and not ask.subject:
        say(answer, letters.say(N_("the open games")),
            letters.say(N_("There is no game called {game}."), game=ask.game))
    say(answer, letters.say(N_("the open games")), *games_list(referee, answer, ask.lang, now))


def known(store, game_id: str) -> bool:
    """Is there a game, open or begun, of this name?"""
    return bool(store.game(game_id) or store.open_game(game_id))


def named_games(referee, reading, lang: str) -> list[tuple]:
    """How to join each open game a mail names without a command (its id, or its game's
    title: "the diplomacy game"), a sentence each."""
    found = []
    for row in waiting_games(referee.store):
        game = pbem.games.load(row["ruleset"])
        titles = set()
        for language in LANGUAGES:
            with speaking(language):
                titles |= set(plain(letters.words(letters.say(game.TITLE))).split())
        if row["id"] in reading.words or titles & reading.words:
            found.append(letters.say(N_("To join game {game} ({title}), write {join} {game}."),
                                     game=row["id"], title=letters.Words(game.TITLE),
                                     join=word("join", lang)))
    return found[:MAX_NAMED]


def games_list(referee, answer: Answer, lang: str, now: str) -> list[tuple]:
    """Sentences naming the open games (rules, players, seats, start) and the running
    ones, with how to join; none when the answer lists them already."""
    if answer.listed:
        return []
    answer.listed = True
    store = referee.store
    notes = []
    for row in waiting_games(store)[:MAX_LISTED]:
        game = pbem.games.load(row["ruleset"])
        taken = len(joined(store, row["id"]))
        notes.append(letters.say(
            N_("{game}: {title}, {summary}; for {players} players. Seats taken: {taken} of "
               "{most}."), game=row["id"], title=letters.Words(game.TITLE),
            summary=letters.Words(game.SUMMARY), taken=taken, most=row["max_players"],
            players=letters.Span(row["min_players"], row["max_players"])))
        notes.append(starting(row, now))
    if not notes:
        notes.append(letters.say(N_("No game is open for players now.")))
    running = [r["id"] for r in store.all(
        "SELECT id FROM games WHERE status = 'running' ORDER BY id LIMIT ?", [MAX_LISTED])]
    if running:
        notes.append(letters.say(N_("Games under way, which take players on their standby "
                                    "list to replace one who leaves: {games}."),
                                 games=", ".join(running)))
    notes.append(letters.say(N_("To join a game, write {join} GAME (for example {join} "
                                "{example}); add {standby} to wait on its standby list. "
                                "{whogame} GAME shows who plays a game."),
                             join=word("join", lang), standby=word("standby", lang),
                             whogame=word("whogame", lang),
                             example=(waiting_games(store) or [{"id": "rome"}])[0]["id"]))
    return notes


def starting(row: dict, now: str) -> tuple:
    """When an open game starts, as a sentence (a start date past says so)."""
    if row["starts"] and row["starts"] > now:
        return letters.say(N_("It starts when its {most} seats are taken, or on {when} "
                              "with at least {fewest} players."), most=row["max_players"],
                           when=letters.Moment(row["starts"]), fewest=row["min_players"])
    if row["starts"]:
        return letters.say(N_("Its start date has passed: it starts as soon as it has "
                              "{fewest} players."), fewest=row["min_players"])
    return letters.say(N_("It starts when its {most} seats are taken."), most=row["max_players"])


def help_ask(referee, incoming, ask: Ask, answer: Answer, now: str, reading) -> None:
    """HELP from a stranger: what the club's address takes."""
    answer.done.append("help")
    if not first_answer(referee.store, incoming.sender, ask, answer, now):
        return
    lang = ask.lang
    say(answer, letters.say(N_("what to write to this address")), letters.say(
        N_("Write one command on a line of its own: {list} (the open games); {whogame} "
           "GAME (who plays it); {join} GAME (to play, with {name} YOUR-NAME for your "
           "seat's name where the game's seats have no roles); {confirm} CODE (the code a "
           "JOIN or LEAVE is answered with); {leave} GAME (to give up your place before "
           "the start)."), **{key: word(key, lang) for key in
                               ("list", "whogame", "join", "name", "confirm", "leave")}),
        letters.say(N_("Players of a game write to the address of the mails their game "
                       "sends them: HELP there tells how to play.")))


def whogame_ask(referee, incoming, ask: Ask, answer: Answer, now: str, reading) -> None:
    """WHOGAME G (or LIST G): the game's seats and their state; no address."""
    store = referee.store
    answer.done.append(f"whogame {ask.game}".strip())
    if not first_answer(store, incoming.sender, ask, answer, now):
        return
    if not ask.game or not known(store, ask.game):
        said = letters.say(N_("There is no game called {game}."), game=ask.game) \
            if ask.game else letters.say(N_("Say which game: {whogame} GAME."),
                                         whogame=word("whogame", ask.lang))
        say(answer, letters.say(N_("which game?")), said,
            *games_list(referee, answer, ask.lang, now))
        return
    answer.game = answer.game or ask.game
    waiting = store.open_game(ask.game)
    if waiting is not None and waiting["status"] == "open":
        game = pbem.games.load(waiting["ruleset"])
        names = [p["name"] for p in joined(store, ask.game)]
        say(answer, letters.say(N_("who plays game {game}"), game=ask.game), letters.say(
            N_("Game {game} ({title}) is open for {players} players: {taken} of {most} "
               "seats taken ({names}); {standby} on its standby list.") if names else
            N_("Game {game} ({title}) is open for {players} players: no seat is taken yet "
               "of {most}; {standby} on its standby list."),
            game=ask.game, title=letters.Words(game.TITLE), taken=len(names),
            most=waiting["max_players"], names=", ".join(names),
            players=letters.Span(waiting["min_players"], waiting["max_players"]),
            standby=len(store.standby(ask.game))), starting(waiting, now))
        return
    table = referee.table(ask.game)
    eng = table.state["engine"]
    if eng["over"]:
        from .letters import result_text
        say(answer, letters.say(N_("who played game {game}"), game=ask.game), letters.say(
            N_("Game {game} ({title}) is over: {result} Its seats: {seats}."),
            game=ask.game, title=letters.Words(table.game.TITLE), seats=", ".join(eng["seats"]),
            result=result_text(eng["result"], game=table.game) if eng["result"] else ""))
        return
    say(answer, letters.say(N_("who plays game {game}"), game=ask.game), letters.say(
        N_("Game {game} ({title}) is under way: {seats}; {standby} on its standby list."),
        game=ask.game, title=letters.Words(table.game.TITLE),
        seats=seat_states(table, answer.lang),
        standby=len(store.standby(ask.game))))


def seat_states(table, lang: str) -> str:
    """Each seat of a running game and its state, in a language: 'ann plays; bob
    conceded'."""
    with speaking(lang):
        return _("; ").join(letters.words(letters.say(seat_state(table, seat), seat=seat))
                            for seat in table.state["engine"]["seats"])


def seat_state(table, seat: str) -> str:
    """A seat of a running game's state, as a msgid of {seat}: 'ann plays', 'bob
    conceded'."""
    eng = table.state["engine"]
    survivors = getattr(table.game, "survivors", None)
    if seat in eng.get("conceded", []):
        return N_("{seat} conceded")
    if seat in eng.get("disorder", []):
        return N_("{seat} is in civil disorder")
    if survivors is not None and seat not in survivors(table.state["game"]):
        return N_("{seat} is out")
    return N_("{seat} plays")


def join_ask(referee, incoming, ask: Ask, answer: Answer, now: str, reading) -> None:
    """JOIN G: a code to confirm from this address, and the seat's name or roles it asks
    for, as they will be; a password given is refused."""
    store = referee.store
    if ask.subject and ask.game and not known(store, ask.game):
        ask.game = next((g for g in sorted(reading.words) if known(store, g)), "")
    answer.done.append(f"join {ask.game}".strip())
    if not first_answer(store, incoming.sender, ask, answer, now):
        return
    found = joinable(referee, ask, answer, now)
    if found is not None:
        request_seat(referee, incoming, ask, answer, now, *found)
    if ask.password:
        answer.done[-1] += ", password refused"
        say(answer, None, password_words())


def request_seat(referee, incoming, ask: Ask, answer: Answer, now: str, row: dict,
                 standby: bool) -> None:
    """The code that asks to join a game that takes this player: what the seat will be
    named, when the game starts (none for a player who plays or waits there already)."""
    store = referee.store
    seat = store.one("SELECT name FROM seats WHERE game = ? AND email = ?",
                     [ask.game, incoming.sender])
    waits = store.one("SELECT * FROM signups WHERE game = ? AND email = ?",
                      [ask.game, incoming.sender])
    if seat or waits:
        say(answer, letters.say(N_("you play in game {game}"), game=ask.game), letters.say(
            N_("You already play seat {seat} of game {game}: nothing changed."),
            seat=seat["name"], game=ask.game) if seat else letters.say(
            N_("You already wait for a seat in game {game}, as {name}: nothing changed."),
            game=ask.game, name=waits["name"]))
        return
    game = pbem.games.load(row["ruleset"])
    options = json.loads(row["options"])
    roles = all_roles(game, options, row) if row.get("min_players") else {}
    wishes = [w for w in ask.wishes if role_of(w, roles)]
    unread = [w for w in ask.wishes if w not in wishes]
    if all(plain(w) in FILLER for w in unread):
        unread = []
    name = "" if roles else seat_name(ask.chosen, taken_names(store, ask.game, incoming.sender))
    code = request_code(store, incoming.sender, ask, answer, now, name=name,
                        player=ask.chosen or incoming.sender_name or None, standby=standby,
                        wishes=wishes)
    confirm = word("confirm", ask.lang)
    shown = seat_roles(game, options, row["max_players"]) if roles else {}
    say(answer, letters.say(N_("{confirm} {code} to join game {game}"),
                            confirm=confirm, code=code, game=ask.game),
        letters.say(N_("If you did not ask for this, ignore this mail: nothing happens "
                       "without your answer, and nobody can join with your address without "
                       "this code.")),
        letters.say(N_("To join game {game} ({title}), reply to this mail with yes, or write "
                       "{confirm} {code}, within {days} days."),
                    game=ask.game, title=letters.Words(game.TITLE), confirm=confirm,
                    code=code, days=CONFIRM_DAYS),
        *seat_words(ask, shown, wishes, name, unread, varies=len(roles) > len(shown)),
        letters.say(N_("You will wait on its standby list, to take the seat of a player who "
                       "leaves.")) if standby else starting(row, now))


def all_roles(game, options: dict, row: dict) -> dict:
    """{role: words} of every role an open game may deal, whatever number of players
    it starts with (its most players' first)."""
    roles = {}
    for count in range(row["max_players"], row["min_players"] - 1, -1):
        for role, words in seat_roles(game, options, count).items():
            roles[role] = sorted(set(roles.get(role, [])) | set(words))
    return roles


def seat_words(ask: Ask, roles: dict, wishes: list, name: str, unread: list,
               varies: bool = False) -> list[tuple]:
    """What a JOIN's answer says of the seat's name: the game's roles (with its most
    players; `varies`: other roles with fewer) and the ones asked for, else the name
    chosen (or why it cannot be), else the neutral name; and the words after the game's
    that it did not take."""
    said = []
    if roles:
        said.append(letters.say(
            N_("Each seat of game {game} is named for its role ({roles}; with fewer players, "
               "some seats hold several), dealt when the game starts: first as the players "
               "asked, in an order drawn from the game's seed, then at random.") if varies
            else N_("Each seat of game {game} is named for its role ({roles}), dealt when the "
                    "game starts: first as the players asked, in an order drawn from the "
                    "game's seed, then at random."),
            game=ask.game, roles=", ".join(sorted(roles))))
        if wishes:
            said.append(letters.say(N_("You asked for: {wishes}."), wishes=", ".join(wishes)))
        else:
            said.append(letters.say(N_("To ask for roles, write them after the game's name: "
                                       "{join} {game} {example}."), join=word("join", ask.lang),
                                    game=ask.game, example=" ".join(sorted(roles)[:2])))
        if ask.chosen:
            said.append(letters.say(N_("{name} is not needed: the seats of this game take no "
                                       "other name."), name=word("name", ask.lang)))
    elif ask.chosen and name:
        said.append(letters.say(N_("Your seat will be named {name}."), name=name))
    elif ask.chosen:
        said.append(letters.say(
            N_("\"{chosen}\" cannot name a seat (use letters, digits and '-', not ALL nor "
               "REFEREE): your seat will take a neutral name, player1, player2..."),
            chosen=ask.chosen[:MAX_SEAT]))
    else:
        said.append(letters.say(
            N_("Your seat will take a neutral name (player1, player2...); to choose one, "
               "write {name} YOUR-NAME on a line of your reply."), name=word("name", ask.lang)))
    if unread:
        said.append(letters.say(
            N_("Not read: \"{words}\", after the game's name. Only {standby}, {name} and the "
               "roles of a game that has them go there."), words=" ".join(unread),
            standby=word("standby", ask.lang), name=word("name", ask.lang)))
    return said


def password_words() -> tuple:
    """Why a password is refused, as a sentence."""
    return letters.say(N_("pbem asks for no password, and keeps none: the code it mails "
                          "does that work. Never send a password by mail."))


def password_ask(referee, incoming, ask: Ask, answer: Answer, now: str, reading) -> None:
    """PASSWORD: refused, with what pbem does instead."""
    answer.done.append("password refused")
    if first_answer(referee.store, incoming.sender, ask, answer, now):
        say(answer, letters.say(N_("no password")), password_words(), letters.say(
            N_("To join a game, write {join} GAME."), join=word("join", ask.lang)))


def name_ask(referee, incoming, ask: Ask, answer: Answer, now: str, reading) -> None:
    """NAME without a JOIN: it goes with one."""
    answer.done.append("name without join")
    if first_answer(referee.store, incoming.sender, ask, answer, now):
        say(answer, letters.say(N_("a name for which game?")), letters.say(
            N_("{name} names your seat in the mail that asks to join a game ({join} GAME), "
               "or in your reply that confirms it."),
            name=word("name", ask.lang), join=word("join", ask.lang)))


def joinable(referee, ask: Ask, answer: Answer, now: str):
    """(the game's row, standby?) for a game a JOIN may name; None, with the reason said,
    for any other."""
    store = referee.store
    if not ask.game:
        say(answer, letters.say(N_("{join}: which game?"), join=word("join", ask.lang)),
            letters.say(N_("Say which game: reply with its name, or write {join} GAME."),
                        join=word("join", ask.lang)),
            *games_list(referee, answer, ask.lang, now))
        return None
    row = store.open_game(ask.game)
    game = store.game(ask.game)
    if row is not None and row["status"] == "open":
        full = len(joined(store, ask.game)) >= row["max_players"]
        return row, ask.standby or full
    if game is not None and game["status"] == "running":
        return {**game, "options": "{}", "max_players": None, "starts": None}, True
    names = [r["id"] for r in waiting_games(store)] + [r["id"] for r in store.all(
        "SELECT id FROM games WHERE status = 'running'")]
    close = get_close_matches(ask.game, names, n=1)
    said = N_("Game {game} is over: it takes no more players.") if game is not None else \
        N_("There is no open game called {game}.")
    say(answer, letters.say(N_("no game {game} to join"), game=ask.game),
        letters.say(said, game=ask.game),
        letters.say(N_("Did you mean {name}?"), name=close[0]) if close else
        letters.say(N_("Write {list} for the open games."), list=word("list", ask.lang)))
    return None


def seat_name(wanted: str, taken: set) -> str:
    """A seat's name from the name a player chose ("Zoé Martin": zoe-martin), numbered
    when taken (zoe-2); '' for a name that gives none."""
    ascii_name = unicodedata.normalize("NFKD", wanted or "").encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")[:MAX_SEAT].strip("-")
    if not slug or slug in RESERVED_NAMES or not valid_game_id(slug) or slug == "player" \
            or re.fullmatch(r"player\d+", slug):
        return ""
    return next(name for name in [slug] + [f"{slug}-{n}" for n in range(2, 10000)]
                if name not in taken)


def neutral_name(taken: set) -> str:
    """player1, player2...: the first not taken."""
    return next(f"player{n}" for n in itertools.count(1) if f"player{n}" not in taken)


def taken_names(store, game_id: str, email: str) -> set:
    """The names of a game's seats and of the other players waiting for it."""
    names = {r["name"] for r in store.all(
        "SELECT name FROM seats WHERE game = ? UNION SELECT name FROM signups "
        "WHERE game = ? AND email != ?", [game_id, game_id, email])}
    return names


def request_code(store, email: str, ask: Ask, answer: Answer, now: str, **detail) -> str:
    """Record what a JOIN or LEAVE asks, waiting for its CONFIRM; the code the answer
    gives (the code of the same request asked before, while it waits). The answer's
    headline, and so its subject, is then the first code's: a reply to it says yes."""
    answer.done[-1] += " (code sent)"
    answer.game = answer.game or ask.game
    code = ask_confirmation(store, email, ask.game, ask.name, ask.lang, now, **detail)
    if not answer.coded:
        answer.coded, answer.headline = True, None
    return code


def ask_confirmation(store, email: str, game_id: str, action: str, lang: str, now: str,
                     **detail) -> str:
    """Record a request that waits for CONFIRM from `email` (in place of the same request
    asked before, keeping its code and its age: a code lasts CONFIRM_DAYS from the first
    time it was sent); return its code."""
    before = store.one("SELECT code, asked_at FROM confirmations WHERE email = ? AND "
                       "game = ? AND action = ?", [email, game_id, action])
    store.execute("DELETE FROM confirmations WHERE email = ? AND game = ? AND action = ?",
                  [email, game_id, action])
    code = before["code"] if before else new_token()
    store.insert("confirmations", {"code": code, "email": email, "game": game_id,
                                   "action": action, "lang": lang,
                                   "asked_at": before["asked_at"] if before else now,
                                   "detail": json.dumps(detail, sort_keys=True)})
    return code


def leave_ask(referee, incoming, ask: Ask, answer: Answer, now: str, reading) -> None:
    """LEAVE G: a code to confirm, when this address waits in that game."""
    store = referee.store
    answer.done.append(f"leave {ask.game}".strip())
    if not first_answer(store, incoming.sender, ask, answer, now):
        return
    row = store.one("SELECT * FROM signups WHERE game = ? AND email = ?",
                    [ask.game, incoming.sender])
    seat = store.one("SELECT name FROM seats WHERE game = ? AND email = ?",
                     [ask.game, incoming.sender])
    if row is None and seat is not None:
        say(answer, letters.say(N_("game {game} has begun"), game=ask.game), letters.say(
            N_("Game {game} has begun and you play seat {seat} in it. To give it up, write "
               "to the referee: {referee}."), game=ask.game, seat=seat["name"],
            referee=referee.config["referee"]))
        return
    if row is None:
        said = letters.say(N_("This address waits for no seat in a game called {game}, so "
                              "there is nothing to leave."), game=ask.game) if ask.game else \
            letters.say(N_("Say which game: {leave} GAME."), leave=word("leave", ask.lang))
        say(answer, letters.say(N_("you do not wait in game {game}"), game=ask.game or "?"),
            said)
        return
    code = request_code(store, incoming.sender, ask, answer, now)
    say(answer, letters.say(N_("{confirm} {code} to leave game {game}"),
                            confirm=word("confirm", ask.lang), code=code, game=ask.game),
        letters.say(N_("If you did not ask for this, ignore this mail: nothing happens "
                       "without your answer.")),
        letters.say(N_("To leave game {game}, reply to this mail with yes, or write "
                       "{confirm} {code}, within {days} days. Until then you keep your place."),
                    game=ask.game, confirm=word("confirm", ask.lang), code=code,
                    days=CONFIRM_DAYS))


def confirm_ask(referee, incoming, ask: Ask, answer: Answer, now: str, reading) -> None:
    """CONFIRM code (or yes in a reply to the mail that gave it): do what waits for this
    code, when it came from this very address."""
    store = referee.store
    row = waiting_request(store, ask.code, incoming.sender, now)
    if row is None:
        answer.done.append("confirm: no such request")
        if first_answer(store, incoming.sender, ask, answer, now):
            nothing_to_confirm(referee, incoming.sender, ask, answer)
        return
    store.execute("DELETE FROM confirmations WHERE code = ?", [ask.code])
    answer.game = answer.game or row["game"]
    answer.lang = row["lang"]
    answer.acted = True
    detail = json.loads(row["detail"])
    if ask.chosen and row["action"] == "join":
        detail["name"] = ask.chosen  # NAME in the reply that confirms: its own words
    CONFIRMED[row["action"]](referee, row, detail, answer, now)


def waiting_request(store, code: str, email: str, now: str) -> dict | None:
    """The request that waits for this code from this address, or None."""
    row = store.one("SELECT * FROM confirmations WHERE code = ?", [code]) if code else None
    if row is None or row["email"] != email or \
            parse_time(now) - parse_time(row["asked_at"]) > timedelta(days=CONFIRM_DAYS):
        return None
    return row


def nothing_to_confirm(referee, email: str, ask: Ask, answer: Answer) -> None:
    """The answer to a code that confirms nothing: what this address has joined already
    (a second CONFIRM), else how codes work."""
    store = referee.store
    waits = store.one("SELECT * FROM signups WHERE email = ? ORDER BY joined_at DESC LIMIT 1",
                      [email])
    if waits is not None:
        say(answer, letters.say(N_("you joined game {game} already"), game=waits["game"]),
            letters.say(N_("You wait for a seat in game {game}, as {name}, since {when}: "
                           "there is nothing more to confirm."), game=waits["game"],
                        name=waits["name"], when=letters.Moment(waits["joined_at"])))
        return
    say(answer, letters.say(N_("nothing to confirm")), letters.say(
        N_("No request of this address waits for the code {code}: codes last {days} "
           "days, and each one works once, from the address it was sent to."),
        code=ask.code or "?", days=CONFIRM_DAYS), letters.say(
        N_("Write {join} GAME again for a new code, or {list} for the open games."),
        join=word("join", ask.lang), list=word("list", ask.lang)))


def reply_ask(referee, incoming, ask: Ask, answer: Answer, now: str, reading) -> None:
    """A reply to the mail that gave a code, whose own text is no clear yes (an empty
    reply, "thanks", an out-of-office text, "I never asked for this"): nothing done."""
    store = referee.store
    row = waiting_request(store, ask.code, incoming.sender, now)
    answer.done.append("reply to a code: no yes, nothing done")
    if row is None or not first_answer(store, incoming.sender, ask, answer, now):
        return
    answer.lang = row["lang"]
    confirm = word("confirm", row["lang"])
    say(answer, letters.say(N_("nothing was confirmed")), letters.say(
        N_("Your reply does not say yes, so nothing was done: if you did not ask for this, "
           "there is nothing more to do.")), letters.say(
        N_("To confirm, reply with yes, or write {confirm} {code}, within {days} days of "
           "the request."), confirm=confirm, code=ask.code, days=CONFIRM_DAYS))


def confirmed_join(referee, row: dict, detail: dict, answer: Answer, now: str) -> None:
    """A JOIN confirmed: the player takes a seat of the open game, or a standby place."""
    store, game_id, email = referee.store, row["game"], row["email"]
    opened = store.open_game(game_id)
    game = store.game(game_id)
    still_open = opened is not None and opened["status"] == "open"
    if not still_open and (game is None or game["status"] != "running"):
        answer.done.append(f"join {game_id}: no longer possible")
        say(answer, letters.say(N_("game {game} takes no more players"), game=game_id),
            letters.say(N_("Game {game} is over or was withdrawn, so nothing changed."),
                        game=game_id))
        return
    if store.one("SELECT 1 FROM seats WHERE game = ? AND email = ?", [game_id, email]):
        answer.done.append(f"join {game_id}: plays already")
        say(answer, letters.say(N_("you play in game {game}"), game=game_id), letters.say(
            N_("This address already has a seat in game {game}: nothing changed."),
            game=game_id))
        return
    taken = taken_names(store, game_id, email)
    roles = still_open and seat_roles(pbem.games.load(opened["ruleset"]),
                                      json.loads(opened["options"]), opened["max_players"])
    name = (not roles and seat_name(detail["name"], taken)) or neutral_name(taken)
    standby = detail["standby"] or not still_open or \
        len([p for p in joined(store, game_id) if p["email"] != email]) \
        >= opened["max_players"]
    enrol(store, game_id, email, name, detail.get("player"), row["lang"], now, standby,
          wishes=detail.get("wishes", ()))
    answer.done.append(f"join {game_id} confirmed" + (" (standby)" if standby else ""))
    if standby:
        place = [p["email"] for p in store.standby(game_id)].index(email) + 1
        say(answer, letters.say(N_("you are on the standby list of game {game}"), game=game_id),
            letters.say(N_("You are number {place} on the standby list of game {game}, as "
                           "{name}. If a seat is given up, the referee may offer it to you by "
                           "mail: you take it with the code the offer carries."),
                        place=place, game=game_id, name=name),
            leaving(game_id, answer.lang))
        return
    count = len(joined(store, game_id))
    say(answer, letters.say(N_("you joined game {game}"), game=game_id), letters.say(
        N_("You joined game {game}, where your seat is named for the role dealt to you when "
           "the game starts. Seats taken: {taken} of {most}.") if roles else
        N_("You joined game {game} as {name}. Seats taken: {taken} of {most}."),
        game=game_id, name=name, taken=count, most=opened["max_players"]),
        letters.say(N_("The game is full: it starts within minutes, and your first mail from "
                       "it tells you what to do.")) if count >= opened["max_players"]
        else starting(opened, now), leaving(game_id, answer.lang))


def leaving(game_id: str, lang: str) -> tuple:
    """How to leave a game before it starts, as a sentence."""
    return letters.say(N_("To give up your place, write {leave} {game}."),
                       leave=word("leave", lang), game=game_id)


def confirmed_leave(referee, row: dict, detail: dict, answer: Answer, now: str) -> None:
    """A LEAVE confirmed: the player's place is given up."""
    store, game_id = referee.store, row["game"]
    gone = store.execute("DELETE FROM signups WHERE game = ? AND email = ?",
                         [game_id, row["email"]]).rowcount
    store.execute("UPDATE open_games SET version = version + 1 WHERE id = ?", [game_id])
    answer.done.append(f"leave {game_id} confirmed")
    say(answer, letters.say(N_("you left game {game}"), game=game_id), letters.say(
        N_("You no longer wait for a seat in game {game}.") if gone else
        N_("You were no longer waiting for a seat in game {game}: nothing changed."),
        game=game_id))


def confirmed_seat(referee, row: dict, detail: dict, answer: Answer, now: str) -> None:
    """A standby player takes the seat the referee offered: the seat's whole history and
    new code come in its first mail."""
    from .seats import give_seat
    store, game_id, email = referee.store, row["game"], row["email"]
    seat = store.seat(game_id, detail["seat"])
    game = store.game(game_id)
    if game is None or game["status"] != "running" or seat is None \
            or seat["email"] != detail["from"]:
        answer.done.append(f"seat {detail['seat']} of {game_id}: no longer free")
        say(answer, letters.say(N_("seat {seat} of game {game} is no longer free"),
                                seat=detail["seat"], game=game_id), letters.say(
            N_("Seat {seat} of game {game} was given to another player, or the game ended, "
               "before your answer: you stay on its standby list."),
            seat=detail["seat"], game=game_id))
        return
    waiting = store.one("SELECT * FROM signups WHERE game = ? AND email = ?", [game_id, email])
    player = (waiting or {}).get("player") or (waiting or {}).get("name")
    give_seat(referee, game_id, detail["seat"], email, now, player,
              lang=(waiting or {}).get("lang") or row["lang"])
    store.execute("DELETE FROM signups WHERE game = ? AND email = ?", [game_id, email])
    answer.done.append(f"seat {detail['seat']} of {game_id} taken")
    letters.notice(referee, referee.config["referee"],
                   f"game {game_id}: seat {detail['seat']} has a new player", [
                       f"{(waiting or {}).get('name') or player} ({email}), from the standby "
                       f"list, took seat {detail['seat']} of game {game_id}; the seat's history "
                       "and new code are mailed to them."],
                   now, game=game_id, kind="signup")


def offer_seat(referee, game_id: str, seat_name_: str, who: str, now: str) -> dict:
    """Offer a seat to a player on the game's standby list (`who`: their name, or
    "standby" for the first); they take it with CONFIRM. Returns their signups row."""
    now = iso(parse_time(now))
    store = referee.store
    with store.transaction():
        table = referee.table(game_id)
        if table.state["engine"]["over"]:
            raise PbemError(f"game {game_id} is over")
        seat = store.existing_seat(game_id, seat_name_)
        waiting = store.standby(game_id)
        chosen = (waiting[:1] if who.lower() == "standby" else
                  [p for p in waiting if p["name"] == who.lower()]) or [None]
        if chosen[0] is None:
            raise PbemError(f"{who!r} is not a mail address, nor a name on the standby list "
                            f"of game {game_id} (" + (", ".join(p["name"] for p in waiting)
                                                      or "nobody is on it") + ")")
        chosen = chosen[0]
        code = ask_confirmation(store, chosen["email"], game_id, "seat", chosen["lang"], now,
                                seat=seat_name_, **{"from": seat["email"]})
        lang = chosen["lang"]
        letters.notify(referee, chosen["email"], lang, letters.say(
            N_("{confirm} {code} to take seat {seat} of game {game}"),
            confirm=word("confirm", lang), code=code, seat=seat_name_, game=game_id), [
            letters.say(N_("A seat of game {game} ({title}) is free: seat {seat}. You are on "
                           "its standby list, so the referee offers it to you."),
                        game=game_id, title=letters.Words(table.game.TITLE), seat=seat_name_),
            letters.say(N_("To take it, reply to this mail, or write {confirm} {code}, within "
                           "{days} days. Your first mail then tells you all that happened in "
                           "the game so far."), confirm=word("confirm", lang), code=code,
                        days=CONFIRM_DAYS),
            letters.say(N_("If you no longer want to play, ignore this mail."))],
            now, game=game_id, kind="signup")
    return chosen


ACTIONS = {"list": list_ask, "join": join_ask, "leave": leave_ask, "confirm": confirm_ask,
           "reply": reply_ask, "whogame": whogame_ask, "help": help_ask,
           "password": password_ask, "name": name_ask}
CONFIRMED = {"join": confirmed_join, "leave": confirmed_leave, "seat": confirmed_seat}
