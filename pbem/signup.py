"""Open games: players join by mail, and a game starts by itself when it is full.

The referee opens a game (``pbem new GAME --id G --open``). Anyone may then
write to the club's address, no code needed:

- ``LIST`` (``LISTE``): the open games, their rules in short, the seats taken
  and free, when each starts;
- ``JOIN G [NAME]`` (``REJOINDRE``): the answer carries a confirmation code
  that must come back from the same address (``CONFIRM code``, or a reply
  to the answer), so nobody can put someone else's address in a game;
- ``LEAVE G`` (``QUITTER``), confirmed the same way, before the start.

A game starts at the tick that finds it full, or at its start date with at
least its fewest players: seats in the order of confirmation, the welcome
mails as for any game. A game's own choices (a faction, a colour) follow in
its own first phases.

``JOIN G --standby`` (``--reserve``), or joining a game that is full or has
begun, puts a player on the game's standby list: the referee's notice of a
seat in civil disorder names them, ``pbem seat G S --replace NAME`` offers
them the seat by mail, and they take it with CONFIRM.

A stranger is answered about these commands only: each at most once a day
per address, command and game, never at an address that looks automatic,
and only in a few short lines. A CONFIRM with the right code is always
answered: it proves the address. A forged JOIN stores nothing but the
request that waits for its code, which expires.
"""

from dataclasses import dataclass, field
from datetime import timedelta
from difflib import get_close_matches
import json
import re
import unicodedata

import pbem.games

from . import letters
from .adjudicator import engine
from .adjudicator.contract import SetupError
from .errors import PbemError
from .i18n import LANGUAGES, N_, normal_language, speaking
from .identity import mail_address, new_token, valid_game_id
from .newgame import SeatSpec, check_new_game, game_language, ruleset_module
from .reading import courteous, plain, sender_names
from .timeutil import iso, parse_time

CONFIRM_DAYS = 7           # how long a code waits for its CONFIRM
ANSWER_EVERY = timedelta(days=1)
MAX_ASKS = 5               # commands acted on in one mail
MAX_LISTED = 20            # games named in one answer
MAX_NAME = 60              # characters of a player's name kept
MAX_GAME = 40              # ... of a game's name (a real one has at most 32)
MAX_CODE = 20              # ... of a code (a real one has 10)
PROBE_SEATS = 12           # the most players a game is asked whether it takes
# The words of each command (compared without case or accents), and their language.
WORDS = {
    "list": ("list", "en"), "games": ("list", "en"), "liste": ("list", "fr"),
    "lister": ("list", "fr"), "parties": ("list", "fr"),
    "join": ("join", "en"), "signon": ("join", "en"), "rejoindre": ("join", "fr"),
    "rejoins": ("join", "fr"), "inscription": ("join", "fr"), "inscris": ("join", "fr"),
    "confirm": ("confirm", "en"), "confirmer": ("confirm", "fr"), "confirme": ("confirm", "fr"),
    "leave": ("leave", "en"), "signoff": ("leave", "en"), "quitter": ("leave", "fr"),
    "quitte": ("leave", "fr"),
}
SHOWN = {"list": {"en": "LIST", "fr": "LISTE"}, "join": {"en": "JOIN", "fr": "REJOINDRE"},
         "confirm": {"en": "CONFIRM", "fr": "CONFIRMER"}, "leave": {"en": "LEAVE", "fr": "QUITTER"},
         "standby": {"en": "--standby", "fr": "--reserve"}}
STANDBY_WORDS = {"standby", "reserve", "remplacant", "remplacante"}
LIST_WORDS = {"games", "open", "parties", "ouvertes", "jeux", "all", "toutes"}
# A reply to a confirmation's answer: the code in its subject counts when the mail says
# no more than this (a greeting, a yes, a name), never when it says "I did not ask".
YES_WORDS = {"yes", "yes please", "ok", "okay", "sure", "confirm", "confirmed", "i confirm",
             "oui", "oui merci", "d'accord", "d accord", "je confirme", "confirme", "volontiers",
             "parfait", "go"}
PREFIXES = re.compile(r"^(\s*((re|tr|fwd?|aw|sv|ref|réf)\s*:|\[pbem\]))+\s*", re.IGNORECASE)
# Addresses that are machines, not people: never answered.
MACHINE = re.compile(r"^(no-?reply|do-?not-?reply|donotreply|mailer-daemon|postmaster|daemon|"
                     r"bounces?|auto-?reply|autoresponder|notifications?|listserv|majordomo|"
                     r"owner-.*|.*-(request|owner|bounces?))(\+.*)?$")
RESERVED_NAMES = {"all", "tous", "referee", "arbitre"}


@dataclass
class Ask:
    """One command of a stranger's mail."""

    name: str                   # list, join, confirm, leave
    lang: str
    game: str = ""              # the game it names (join, leave), lower case
    code: str = ""              # the code it carries (confirm)
    player: str = ""            # the name it gives (join)
    standby: bool = False

    def topic(self, store) -> str:
        """What "answered once a day" counts: the command, and the game when there is such
        a game (every name that is none counts as one, so a forger's made-up names buy
        no more mail)."""
        if self.game and (store.game(self.game) or store.open_game(self.game)):
            return f"{self.name} {self.game}"
        return self.name


@dataclass
class Answer:
    """What pbem says back to a stranger's mail, sentence by sentence (letters.say)."""

    lang: str
    headline: tuple | None = None
    notes: list = field(default_factory=list)
    done: list = field(default_factory=list)       # what the inbox log says it did
    game: str | None = None


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
          standby: bool = False, tz=None) -> None:
    """Put a player in an open game (or on a game's standby list), last in the order; a
    player already there keeps its place under its new name."""
    last = store.one("SELECT max(number) AS n FROM signups WHERE game = ?", [game_id])["n"]
    there = store.one("SELECT number, joined_at FROM signups WHERE game = ? AND email = ?",
                      [game_id, email])
    store.execute("DELETE FROM signups WHERE game = ? AND email = ?", [game_id, email])
    store.insert("signups", {"game": game_id, "email": email, "name": name, "player": player,
                             "lang": lang, "tz": tz, "standby": int(standby),
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
    transaction). False, with the referee told why, when the game refuses them;
    with `anyhow`, PbemError instead."""
    store = referee.store
    try:
        with store.transaction():
            row = store.open_game(game_id)
            if row is None or row["status"] != "open":
                raise PbemError(f"game {game_id} is not open for players (see pbem list)")
            players = joined(store, game_id)
            if not players:
                raise PbemError(f"nobody has joined game {game_id} yet")
            specs = [SeatSpec(p["name"], p["email"], p["tz"], p["lang"], p["player"])
                     for p in players]
            store.update("open_games", {"id": game_id}, {"status": "started", "problem": None})
            store.execute("DELETE FROM signups WHERE game = ? AND standby = 0", [game_id])
            referee.create_game(row["ruleset"], game_id, specs, now,
                                json.loads(row["options"]), row["seed"])
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
    """Act on the commands of a mail to the club's address without a game tag.

    Returns the inbox status (status, reason, game, seat), or None when the
    mail gives none of these commands (it is then refused as before).
    """
    asks = asks_of(incoming.subject, incoming.text, incoming.sender_name,
                   referee.config["lang"])
    if not asks:
        return None
    if machine(incoming.sender, referee.config["address"]):
        return "ignored", f"signup commands from {incoming.sender}, an automatic address: " \
                          "not answered", None, None
    forget_stale(referee.store, now)
    answer = Answer(asks[0].lang)
    for ask in asks:
        ACTIONS[ask.name](referee, incoming, ask, answer, now)
    said = "; ".join(answer.done)
    if not answer.notes:
        return "ignored", f"signup: {said} (already answered in the last day)", answer.game, None
    letters.notify(referee, incoming.sender, answer.lang, answer.headline, answer.notes, now,
                   incoming=incoming, game=answer.game, kind="signup")
    return "done", f"signup: {said}", answer.game, None


def forget_stale(store, now: str) -> None:
    """Forget the requests whose code has expired, and answers older than a day: what a
    stranger's mail leaves behind lasts no longer than it counts."""
    store.execute("DELETE FROM confirmations WHERE asked_at < ?",
                  [iso(parse_time(now) - timedelta(days=CONFIRM_DAYS))])
    store.execute("DELETE FROM stranger_answers WHERE answered_at < ?",
                  [iso(parse_time(now) - ANSWER_EVERY)])


def asks_of(subject: str, text: str, sender_name: str, club_lang: str) -> list[Ask]:
    """The signup commands of a mail: its lines' first, then its subject's (a CONFIRM in
    the subject only when the mail says nothing else); at most MAX_ASKS, each once."""
    found = [ask for ask in (ask_of(line, club_lang) for line in text.splitlines()) if ask]
    header = ask_of(PREFIXES.sub("", subject or ""), club_lang)
    if header and header.name == "confirm":
        for ask in found:
            if ask.name == "confirm" and not ask.code:
                ask.code = header.code  # "Confirm" in a reply to the mail that gave the code
        if not found and agrees(text, sender_name):
            found = [header]
    elif header:
        found.insert(0, header)
    unique = {}
    for ask in found:
        unique.setdefault((ask.name, ask.game, ask.code), ask)
    return list(unique.values())[:MAX_ASKS]


def ask_of(line: str, club_lang: str) -> Ask | None:
    """The signup command a line gives, or None."""
    words = line.split()
    if not words or plain(words[0]) not in WORDS:
        return None
    name, lang = WORDS[plain(words[0])]
    args = words[1:]
    standby = [w for w in args if plain(w) in STANDBY_WORDS]
    rest = [w for w in args if plain(w) not in STANDBY_WORDS]
    ask = Ask(name, lang or club_lang, standby=bool(standby))
    if name == "list":
        return ask if all(plain(w) in LIST_WORDS for w in rest) else None
    if name == "confirm":
        ask.code = plain(rest[0])[:MAX_CODE] if rest else ""
        return ask
    if rest:
        ask.game = plain(rest[0]).replace(" ", "-")[:MAX_GAME]
        ask.player = " ".join(rest[1:])[:MAX_NAME].strip()
    return ask


def agrees(text: str, sender_name: str) -> bool:
    """Does a reply say nothing beyond yes, a greeting, thanks or a name?"""
    names = sender_names(sender_name)
    return all(not part.strip() or plain(part) in YES_WORDS or courteous(part, names)
               for line in text.splitlines() for part in re.split(r"[,.;!]+", line))


def machine(address: str, club: str) -> bool:
    """Does this address belong to a machine (no-reply, a list, the club itself)?"""
    local, _, domain = address.rpartition("@")
    mine_local, _, mine_domain = club.lower().partition("@")
    ours = domain == mine_domain and (local == mine_local or local.startswith(mine_local + "+"))
    return ours or bool(MACHINE.match(local))


def first_answer(store, address: str, ask: Ask, now: str) -> bool:
    """May this command be answered now (not in the last day for this address and game)?
    Records it when so."""
    topic = ask.topic(store)
    row = store.one("SELECT answered_at FROM stranger_answers WHERE address = ? AND topic = ?",
                    [address, topic])
    if row and parse_time(now) - parse_time(row["answered_at"]) < ANSWER_EVERY:
        return False
    store.execute("INSERT INTO stranger_answers (address, topic, answered_at) VALUES (?, ?, ?) "
                  "ON CONFLICT(address, topic) DO UPDATE SET answered_at = ?",
                  [address, topic, now, now])
    return True


def say(answer: Answer, headline, *notes) -> None:
    """Add sentences to an answer (the first headline given heads it)."""
    if answer.headline is None and headline is not None:
        answer.headline = headline
    answer.notes += notes


def word(name: str, lang: str) -> str:
    """A command as a mail in `lang` writes it: word("join", "fr") is REJOINDRE."""
    return SHOWN[name][lang]


def list_ask(referee, incoming, ask: Ask, answer: Answer, now: str) -> None:
    """LIST: the open games, and the games that take standby players."""
    answer.done.append("list")
    if not first_answer(referee.store, incoming.sender, ask, now):
        return
    say(answer, letters.say(N_("the open games")), *games_list(referee, ask.lang))


def games_list(referee, lang: str) -> list[tuple]:
    """Sentences naming the open games (rules, seats, start) and the running ones."""
    store = referee.store
    notes = []
    for row in waiting_games(store)[:MAX_LISTED]:
        game = pbem.games.load(row["ruleset"])
        taken = len(joined(store, row["id"]))
        notes.append(letters.say(
            N_("{game}: {title}, {summary}. Seats taken: {taken} of {most}."),
            game=row["id"], title=letters.Words(game.TITLE),
            summary=letters.Words(game.SUMMARY), taken=taken, most=row["max_players"]))
        notes.append(starting(row))
    if not notes:
        notes.append(letters.say(N_("No game is open for players now.")))
    running = [r["id"] for r in store.all(
        "SELECT id FROM games WHERE status = 'running' ORDER BY id LIMIT ?", [MAX_LISTED])]
    if running:
        notes.append(letters.say(N_("Games under way, which take players on their standby "
                                    "list to replace one who leaves: {games}."),
                                 games=", ".join(running)))
    notes.append(letters.say(N_("To join a game, write {join} GAME YOUR-NAME (for example "
                                "{join} {example} Zoé); add {standby} to wait on its standby "
                                "list."), join=word("join", lang), standby=word("standby", lang),
                             example=(waiting_games(store) or [{"id": "rome"}])[0]["id"]))
    return notes


def starting(row: dict) -> tuple:
    """When an open game starts, as a sentence."""
    if row["starts"]:
        return letters.say(N_("It starts when its {most} seats are taken, or on {when} "
                              "with at least {fewest} players."), most=row["max_players"],
                           when=letters.Moment(row["starts"]), fewest=row["min_players"])
    return letters.say(N_("It starts when its {most} seats are taken."), most=row["max_players"])


def join_ask(referee, incoming, ask: Ask, answer: Answer, now: str) -> None:
    """JOIN G [NAME] [--standby]: a code to confirm from this address."""
    store = referee.store
    answer.done.append(f"join {ask.game}".strip())
    if not first_answer(store, incoming.sender, ask, now):
        return
    found = joinable(referee, ask, answer)
    if found is None:
        return
    row, standby = found
    seat = store.one("SELECT name FROM seats WHERE game = ? AND email = ?",
                     [ask.game, incoming.sender])
    if seat:
        say(answer, letters.say(N_("you play in game {game}"), game=ask.game), letters.say(
            N_("You already play seat {seat} of game {game}: nothing changed."),
            seat=seat["name"], game=ask.game))
        return
    name = seat_name(ask.player or first_word(incoming.sender_name),
                     taken_names(store, ask.game, incoming.sender))
    code = send_code(store, incoming.sender, ask, answer, now, name=name,
                     player=ask.player or incoming.sender_name or None, standby=standby)
    say(answer, letters.say(N_("{confirm} {code} to join game {game}"),
                            confirm=word("confirm", ask.lang), code=code, game=ask.game),
        letters.say(N_("To join game {game} ({title}) as {name}, reply to this mail, or write "
                       "{confirm} {code}, within {days} days."),
                    game=ask.game, title=letters.Words(pbem.games.load(row["ruleset"]).TITLE),
                    name=name, confirm=word("confirm", ask.lang), code=code, days=CONFIRM_DAYS),
        letters.say(N_("You will wait on its standby list, to take the seat of a player who "
                       "leaves.")) if standby else starting(row),
        letters.say(N_("To play under another name, write {join} {game} followed by the "
                       "name."), join=word("join", ask.lang), game=ask.game),
        letters.say(N_("If you did not ask for this, ignore this mail: nothing is kept, and "
                       "nobody can join with your address without this code.")))


def joinable(referee, ask: Ask, answer: Answer):
    """(the game's row, standby?) for a game a JOIN may name; None, with the reason said,
    for any other."""
    store = referee.store
    if not ask.game:
        say(answer, letters.say(N_("which game?")), letters.say(
            N_("Say which game: {join} GAME YOUR-NAME."), join=word("join", ask.lang)),
            *games_list(referee, ask.lang))
        return None
    row = store.open_game(ask.game)
    game = store.game(ask.game)
    if row is not None and row["status"] == "open":
        full = len(joined(store, ask.game)) >= row["max_players"]
        return row, ask.standby or full
    if game is not None and game["status"] == "running":
        return {**game, "max_players": None, "starts": None}, True
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
    """A seat name from the name a player gives ("Zoé Martin": zoe-martin), not taken yet;
    player-1, player-2... for a name that gives none."""
    ascii_name = unicodedata.normalize("NFKD", wanted or "").encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")[:24].strip("-")
    named = bool(slug) and slug not in RESERVED_NAMES and valid_game_id(slug)
    base = slug if named else "player"
    tries = ([base] if named else []) + [f"{base}-{n}" for n in range(2 if named else 1, 10000)]
    return next(name for name in tries if name not in taken)


def first_word(display_name: str) -> str:
    """The first word of a From header's name ("Zoé Martin": Zoé), or ''."""
    words = (display_name or "").replace('"', " ").split()
    return words[0] if words else ""


def taken_names(store, game_id: str, email: str) -> set:
    """The names of a game's seats and of the other players waiting for it."""
    names = {r["name"] for r in store.all(
        "SELECT name FROM seats WHERE game = ? UNION SELECT name FROM signups "
        "WHERE game = ? AND email != ?", [game_id, game_id, email])}
    return names


def send_code(store, email: str, ask: Ask, answer: Answer, now: str, **detail) -> str:
    """Record what a JOIN or LEAVE asks, waiting for its CONFIRM; the code the answer gives."""
    answer.done[-1] += " (code sent)"
    answer.game = answer.game or ask.game
    return ask_confirmation(store, email, ask.game, ask.name, ask.lang, now, **detail)


def ask_confirmation(store, email: str, game_id: str, action: str, lang: str, now: str,
                     **detail) -> str:
    """Record a request that waits for CONFIRM from `email` (replacing the same request
    asked before); return its code."""
    store.execute("DELETE FROM confirmations WHERE email = ? AND game = ? AND action = ?",
                  [email, game_id, action])
    code = new_token()
    store.insert("confirmations", {"code": code, "email": email, "game": game_id,
                                   "action": action, "lang": lang, "asked_at": now,
                                   "detail": json.dumps(detail, sort_keys=True)})
    return code


def leave_ask(referee, incoming, ask: Ask, answer: Answer, now: str) -> None:
    """LEAVE G: a code to confirm, when this address waits in that game."""
    store = referee.store
    answer.done.append(f"leave {ask.game}".strip())
    if not first_answer(store, incoming.sender, ask, now):
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
        say(answer, letters.say(N_("you do not wait in game {game}"), game=ask.game),
            letters.say(N_("This address waits for no seat in a game called {game}, so there "
                           "is nothing to leave."), game=ask.game))
        return
    code = send_code(store, incoming.sender, ask, answer, now)
    say(answer, letters.say(N_("{confirm} {code} to leave game {game}"),
                            confirm=word("confirm", ask.lang), code=code, game=ask.game),
        letters.say(N_("To leave game {game}, reply to this mail, or write {confirm} {code}, "
                       "within {days} days. Until then you keep your place."),
                    game=ask.game, confirm=word("confirm", ask.lang), code=code,
                    days=CONFIRM_DAYS))


def confirm_ask(referee, incoming, ask: Ask, answer: Answer, now: str) -> None:
    """CONFIRM code: do what waits for this code, when it came from this very address."""
    store = referee.store
    row = store.one("SELECT * FROM confirmations WHERE code = ?", [ask.code]) \
        if ask.code else None
    expired = row is not None and parse_time(now) - parse_time(row["asked_at"]) \
        > timedelta(days=CONFIRM_DAYS)
    if row is None or row["email"] != incoming.sender or expired:
        answer.done.append("confirm: no such request")
        if first_answer(store, incoming.sender, ask, now):
            say(answer, letters.say(N_("nothing to confirm")), letters.say(
                N_("No request of this address waits for the code {code}: codes last {days} "
                   "days, and each one works once, from the address it was sent to."),
                code=ask.code or "?", days=CONFIRM_DAYS), letters.say(
                N_("Write {join} GAME again for a new code, or {list} for the open games."),
                join=word("join", ask.lang), list=word("list", ask.lang)))
        return
    store.execute("DELETE FROM confirmations WHERE code = ?", [ask.code])
    answer.game = answer.game or row["game"]
    answer.lang = row["lang"]
    CONFIRMED[row["action"]](referee, row, json.loads(row["detail"]), answer, now)


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
    name = detail["name"]
    taken = taken_names(store, game_id, email)
    if name in taken:
        name = seat_name(name, taken)
    standby = detail["standby"] or not still_open or \
        len([p for p in joined(store, game_id) if p["email"] != email]) \
        >= opened["max_players"]
    enrol(store, game_id, email, name, detail.get("player"), row["lang"], now, standby)
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
        N_("You joined game {game} as {name}. Seats taken: {taken} of {most}."),
        game=game_id, name=name, taken=count, most=opened["max_players"]),
        letters.say(N_("The game is full: it starts within minutes, and your first mail from "
                       "it tells you what to do.")) if count >= opened["max_players"]
        else starting(opened), leaving(game_id, answer.lang))


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


ACTIONS = {"list": list_ask, "join": join_ask, "leave": leave_ask, "confirm": confirm_ask}
CONFIRMED = {"join": confirmed_join, "leave": confirmed_leave, "seat": confirmed_seat}
