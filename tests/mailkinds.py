"""Every kind of mail a seat can get, for every game, written by a real referee.

Each game is played from the player's side (inbound.take on raw order text,
the referee's commands, ticks) until the outbox holds a welcome, a report,
an acknowledgement with errors, STATUS, HELP, a reminder, more time, a new
code, a moved seat and the game-over mail.
"""

import email
from email import policy
import json
import re

from pbem import inbound, render
from pbem.app import SeatSpec
from pbem.seats import move_seat, rotate_token
from pbem.timeutil import later

from conftest import START, make_referee

# Each game: seats, options, a starting position (None: the game's own setup), the
# reader's bad mail, and the play after it: each step mails orders ({seat: text}, or
# {seat: {lang: text}} when the seats write in their own language) and ticks, gives
# the referee's ruling ({"rule": {...}, "text": ...}), or lets deadlines pass until a
# stage ({"until": stage}).
SAGA_START = {
    "round": 1, "active": "ann", "turn": 3,
    "factions": {"ann": "normans", "bob": "anglo-danes", "cat": "scots"},
    "homelands": {"ann": "Normandy", "bob": "Mercia", "cat": "Alba"},
    "owners": {"Kent": "ann", "Wessex": "bob"}, "gold": {"ann": 30, "bob": 30},
    "armies": {
        "ann": {"host": {"zone": "Kent", "hearthguards": 1, "warriors": 2, "levies": 2,
                         "lord": True, "main": True},
                "reserve": {"zone": "Normandy", "warriors": 1}},
        "bob": {"host": {"zone": "Wessex", "hearthguards": 1, "warriors": 2, "levies": 1,
                         "lord": True, "main": True},
                "reserve": {"zone": "Mercia", "warriors": 1, "levies": 1}},
        "cat": {"host": {"zone": "Alba", "hearthguards": 1, "warriors": 2, "levies": 1,
                         "lord": True, "main": True}}}}
# A referee's own map, inline in a position file (docs/positions.md), with the zones'
# French names: ann leads the Franks from Austrasia, bob the Bretons from Aquitaine.
SAGA_OWN_MAP = """
round = 1
active = "ann"
turn = 2
factions = {ann = "franks", bob = "bretons"}
homelands = {ann = "Austrasia", bob = "Aquitaine"}
owners = {Saxony = "ann", Burgundy = "bob"}
gold = {ann = 20, bob = 20}

[armies.ann]
host = {zone = "Saxony", hearthguards = 1, warriors = 2, levies = 2, lord = true, main = true}
reserve = {zone = "Austrasia", warriors = 1}

[armies.bob]
host = {zone = "Burgundy", hearthguards = 1, warriors = 2, levies = 1, lord = true, main = true}

[board]
name = "francia"
title = "Francia"
width = 400
height = 400

[[board.zones]]
number = 1
name = "Frisia"
fr = "Frise"
x = 100
y = 60
land = ["Saxony", "Austrasia"]

[[board.zones]]
number = 2
name = "Saxony"
fr = "Saxe"
x = 260
y = 60
land = ["Frisia", "Austrasia", "Bavaria"]

[[board.zones]]
number = 3
name = "Austrasia"
fr = "Austrasie"
x = 170
y = 160
land = ["Frisia", "Saxony", "Bavaria", "Burgundy"]

[[board.zones]]
number = 4
name = "Bavaria"
fr = "Bavière"
x = 320
y = 180
land = ["Saxony", "Austrasia", "Lombardy"]
coastal = false

[[board.zones]]
number = 5
name = "Burgundy"
fr = "Bourgogne"
x = 170
y = 270
land = ["Austrasia", "Lombardy", "Aquitaine"]
coastal = false

[[board.zones]]
number = 6
name = "Lombardy"
fr = "Lombardie"
x = 320
y = 320
land = ["Bavaria", "Burgundy"]
coastal = false

[[board.zones]]
number = 7
name = "Aquitaine"
x = 60
y = 330
land = ["Burgundy"]

[[board.factions]]
key = "franks"
colour = "#3355aa"
homelands = ["Austrasia", "Burgundy"]

[[board.factions]]
key = "bretons"
colour = "#aa3333"
homelands = "coastal"
"""
# Its zones whose French name is not their name.
OWN_MAP_FRENCH = {"Frisia": "Frise", "Saxony": "Saxe", "Austrasia": "Austrasie",
                  "Bavaria": "Bavière", "Burgundy": "Bourgogne", "Lombardy": "Lombardie"}
SEIGNEURS_START = {
    "stage": "market", "card": "border-raid",
    "villages": {"ann": ["C2", "C3"], "bob": ["C6", "C7"]},
    "farms": {"B2": "ann", "D6": "bob", "I3": "free"},
    "stocks": {"ann": {"wood": 4, "coins": 5}, "bob": {"metal": 2, "stone": 1}}}
GAMES = {
    "auguste": {"id": "rome", "seats": ["ann", "bob", "cat", "dan", "eve", "fay"],
                "options": {"preset": "6-2", "max_turns": 2}, "seed": "kinds",
                "bad": "hello\nred: move BUK BUW\nred: moev BUK BUV\nAnn"},
    "diplomacy": {"id": "europe", "seats": ["ann", "bob", "cat", "dan", "eve", "fay", "gus"],
                  "options": {"powers": "ann:france,bob:england,cat:germany,dan:italy,"
                                        "eve:austria,fay:russia,gus:turkey"},
                  "seed": "kinds", "bad": "hello\nA PAR - BUW\nA PRA - BUR\nAnn"},
    "attila": {"id": "hun", "seats": ["ann", "bob", "cat"], "options": {}, "seed": "kinds",
               "bad": "hello\nplay gots noricom\nplay goths panonia\nAnn"},
    # ann attacks bob in Wessex; both say they won; the referee rules for bob.
    "saga": {"id": "wessex", "seats": ["ann", "bob", "cat"], "options": {},
             "seed": "battle_reports_that_disagree_go_to_the_referee-1",
             "position": SAGA_START,
             "bad": "hello\nmove host Wesex\nmoev host Wessex\nAnn",
             "play": [{"ann": "move host Wessex"},
                      {"until": "battle"},
                      {"ann": "result won points 12", "bob": "resultat gagne points 9"},
                      {"rule": {"winner": "bob"}, "text": "la photo montre bob sur la colline"}]},
    # ann offers bob two trades, the second fails; the barbarian judges at the end.
    "seigneurs": {"id": "vallee", "seats": ["ann", "bob", "zed"],
                  "options": {"judge": "zed", "turns": "1"}, "seed": "kinds",
                  "position": SEIGNEURS_START,
                  "bad": "hello\noffer bbo give wood 2 take metal 1\nofer bob\nAnn",
                  "play": [{"ann": "offer bob give wood 2 take metal 1\n"
                                   "offer bob give wood 4 take stone 1",
                            "bob": "pass", "zed": "pass"},
                           {"ann": "pass", "bob": "accept 1\naccept 2", "zed": "pass"},
                           {"until": "judgement"},
                           {"zed": {"en": "ruling winner ann\nann kept her word",
                                    "fr": "Décision : vainqueur Ann\nann a tenu parole"}}]},
}
KINDS = ("welcome", "ack", "status", "help", "reminder", "deadline", "token", "address",
         "report", "over")


def write_all(folder, game: str, lang: str) -> dict:
    """{name: email.message.EmailMessage} of every mail the first seat asked got, in `lang`.

    A mail's name is its kind ("report"), with its rank after the first of its
    kind ("report.2").
    """
    spec = GAMES[game]
    referee = make_referee(folder)
    gid = spec["id"]
    referee.new_game(game, gid, [SeatSpec(n, f"{n}@players.example", lang=lang)
                                 for n in spec["seats"]], START, dict(spec["options"]),
                     seed=spec["seed"], position=spec.get("position"))
    reader = sorted(referee.table(gid).state["engine"]["requests"])[0]
    inbound.submit(referee, gid, reader, spec["bad"].replace("Ann", reader.title()), START)
    inbound.submit(referee, gid, reader, "ETAT\nAIDE" if lang == "fr" else "STATUS\nHELP",
                   START)
    rotate_token(referee, gid, reader, START)
    move_seat(referee, gid, reader, f"{reader}2@players.example", START)
    deadline = referee.table(gid).state["engine"]["deadline"]
    referee.remind(gid, later(deadline, -1))
    referee.extend(gid, 1, later(deadline, -1))
    now = later(deadline, -1)
    for step in spec.get("play", ()):
        now = play(referee, gid, step, now, lang)
    engine = referee.table(gid).state["engine"]
    if not engine["over"]:
        referee.tick(later(engine["deadline"] or now, 2), send=False)  # resolved: report
    if not referee.table(gid).state["engine"]["over"]:
        referee.end(gid, "vacances", later(now, 100))   # the referee's own words
    (folder / "reader").write_text(reader, encoding="utf-8")
    return {name: email.message_from_bytes(referee.store.outbox_mail(row),
                                           policy=policy.default)
            for name, row in readers_mails(referee, reader).items()}


def readers_mails(referee, reader: str) -> dict:
    """{name: outbox row} of the mails a seat got, each named by its kind ("report"), with
    its rank after the first of its kind ("report.2")."""
    mails = {}
    for row in referee.store.all("SELECT * FROM outbox WHERE seat = ? ORDER BY id",
                                 [reader]):
        rank = sum(name.split(".")[0] == row["kind"] for name in mails) + 1
        mails[row["kind"] if rank == 1 else f"{row['kind']}.{rank}"] = row
    return mails


def play(referee, gid: str, step: dict, now: str, lang: str) -> str:
    """One step of a game's play (see GAMES); the time after it."""
    if "rule" in step:
        [ruling] = referee.rulings(gid)
        referee.rule(gid, ruling["id"], step["text"], step["rule"], now)
        return later(now, 1)
    if "until" in step:
        for _ in range(50):
            if stage(referee, gid) == step["until"]:
                return now
            now = later(referee.table(gid).state["engine"]["deadline"], 1)
            referee.tick(now, send=False)
        raise AssertionError(f"{gid} never reached {step['until']}")
    for seat, text in step.items():
        answer = inbound.submit(referee, gid, seat, text[lang] if isinstance(text, dict)
                                else text, now)
        assert not answer["errors"], answer
        now = later(now, 0.1)
    referee.tick(now, send=False)
    return later(now, 0.1)


def stage(referee, gid: str) -> str:
    """The stage a game is at (SAGA keeps it in its turn)."""
    game = referee.table(gid).state["game"]
    turn = game.get("turn")
    return turn["stage"] if isinstance(turn, dict) else game["stage"]


def board_svg(folder, game: str) -> str:
    """The SVG of the board the reader of write_all(folder, game, ...) sees at the end."""
    referee = make_referee(folder)
    table = referee.table(GAMES[game]["id"])
    module = table.game
    seat = (folder / "reader").read_text(encoding="utf-8") \
        if getattr(module, "SEAT_BOARDS", False) else None
    return render.board_svg(table.ruleset, module, module.view(table.state["game"], seat))


def close_ups(folder) -> dict:
    """{mail name: its close-up as kept (board, zoom, window), with its board's "svg"} of
    the mails of write_all(folder, ...) that carry one."""
    from pbem.mail import stored
    referee = make_referee(folder)
    reader = (folder / "reader").read_text(encoding="utf-8")
    found = {}
    for name, row in readers_mails(referee, reader).items():
        for _offset, key in json.loads(row["parts"]):
            if stored.stored_part(referee.store.conn, key)[0] == "close-up":
                close_up = json.loads(stored.content(referee.store.conn, key))
                found[name] = {**close_up, "svg": stored.content(
                    referee.store.conn, close_up["board"]).decode()}
    return found


def images_of(msg) -> dict:
    """{Content-ID without brackets: PNG bytes} of a mail's images."""
    return {part["Content-ID"].strip("<>"): part.get_content() for part in msg.walk()
            if part.get_content_type() == "image/png"}


def text_of(msg) -> str:
    """A mail's text part."""
    return msg.get_body(preferencelist=("plain",)).get_content()


def html_of(msg) -> str:
    """A mail's HTML part."""
    return msg.get_body(preferencelist=("html",)).get_content()


def board_png(msg) -> bytes | None:
    """The PNG a mail's HTML shows as its board, or None."""
    for part in msg.walk():
        if part.get_content_type() == "image/png":
            return part.get_content()
    return None


# Words only English sentences use; a French mail must have none outside names and codes.
ENGLISH = re.compile(r"\b(the|your|you|orders|with|this|that|is|are|was|will|not|and|of|"
                     r"turn|game|mail|reply|send|line|legion|cell|by|held|Held|campaign|"
                     r"north|south|west|east|north-east|north-west|south-east|south-west)\b")
# What may stay as it is in any language: order words a player may write, tags, addresses.
KEPT = re.compile(r"\[pbem [^\]]*\]|\S+@\S+|\b(move|laurel|pass|seer|wall|rider|volcano)"
                  r"(/\w+)?\b|'[^']*'|Auguste|Attila|bouge/move|laurier/laurel|passe/pass")
# The heading of the orders a seat may send now, and the English words of those orders:
# under a French heading every order is written in French words.
OPTIONS_HEADING = re.compile(r"^Ce que vous pouvez envoyer maintenant")
ENGLISH_ORDERS = re.compile(r"\b(move|scout|stay|army|split|recruit|disband|ransom|release|"
                            r"retreat|withdraw|fight|lose|promote|result|won|lost|homeland|"
                            r"hearthguards?|warriors?|levies|levy|none|offer|accept|refuse|"
                            r"buy|sell|peace|give|take|NAME|ARMY)\b")


def english_lines(msg) -> list[str]:
    """The lines of a mail (text part, HTML part without tags, subject) that read as English,
    and the option lines of a French mail written with English order words."""
    found = []
    for text in (text_of(msg), re.sub(r"<[^>]+>", " ", html_of(msg)), str(msg["Subject"])):
        for line in text.splitlines():
            if ENGLISH.search(KEPT.sub(" ", line)):
                found.append(line.strip())
    return found + english_options(text_of(msg))


def english_options(text: str) -> list[str]:
    """The lines under "Ce que vous pouvez envoyer maintenant" that give English order words."""
    found, under = [], False
    for line in text.splitlines():
        if OPTIONS_HEADING.match(line):
            under = True
        elif not line.strip():
            under = False
        elif under and line.startswith(" ") and ENGLISH_ORDERS.search(line.split("   (")[0]):
            found.append(line.strip())
    return found


def long_lines(msg) -> list[str]:
    """The lines of a mail's text part over 78 columns."""
    return [f"{len(line)}: {line}" for line in text_of(msg).splitlines() if len(line) > 78]
