"""Every kind of mail a seat can get, for both games, written by a real referee.

Each game is played from the player's side (inbound.take on raw order text,
the referee's commands, ticks) until the outbox holds a welcome, a report,
an acknowledgement with errors, STATUS, HELP, a reminder, more time, a new
code, a moved seat and the game-over mail.
"""

import email
from email import policy
import re

from pbem import inbound, render
from pbem.app import SeatSpec
from pbem.seats import move_seat, rotate_token
from pbem.timeutil import later

from conftest import START, make_referee

GAMES = {
    "auguste": {"id": "rome", "seats": ["ann", "bob", "cat", "dan", "eve", "fay"],
                "options": {"preset": "6-2", "max_turns": 2},
                "bad": "hello\nred: move BUK BUW\nred: moev BUK BUV\nAnn"},
    "attila": {"id": "hun", "seats": ["ann", "bob", "cat"], "options": {},
               "bad": "hello\nplay gots noricom\nplay goths panonia\nAnn"},
}
KINDS = ("welcome", "ack", "status", "help", "reminder", "deadline", "token", "address",
         "report", "over")


def write_all(folder, game: str, lang: str) -> dict:
    """{kind: email.message.EmailMessage} of the mails the first seat asked got, in `lang`."""
    spec = GAMES[game]
    referee = make_referee(folder)
    gid = spec["id"]
    referee.new_game(game, gid, [SeatSpec(n, f"{n}@players.example", lang=lang)
                                 for n in spec["seats"]], START, dict(spec["options"]),
                     seed="kinds")
    reader = sorted(referee.table(gid).state["engine"]["requests"])[0]
    inbound.submit(referee, gid, reader, spec["bad"].replace("Ann", reader.title()), START)
    inbound.submit(referee, gid, reader, "ETAT\nAIDE" if lang == "fr" else "STATUS\nHELP",
                   START)
    rotate_token(referee, gid, reader, START)
    move_seat(referee, gid, reader, f"{reader}2@players.example", START)
    deadline = referee.table(gid).state["engine"]["deadline"]
    referee.remind(gid, later(deadline, -1))
    referee.extend(gid, 1, later(deadline, -1))
    referee.tick(later(deadline, 2), send=False)      # the turn is resolved: report
    if not referee.table(gid).state["engine"]["over"]:
        referee.end(gid, "vacances", later(deadline, 3))   # the referee's own words
    mails = {}
    (folder / "reader").write_text(reader, encoding="utf-8")
    for row in referee.store.all("SELECT kind, raw FROM outbox WHERE seat = ? ORDER BY id",
                                 [reader]):
        mails.setdefault(row["kind"], email.message_from_bytes(row["raw"], policy=policy.default))
    return mails


def board_svg(folder, game: str) -> str:
    """The SVG of the board the reader of write_all(folder, game, ...) sees at the end."""
    referee = make_referee(folder)
    table = referee.table(GAMES[game]["id"])
    module = table.game
    seat = (folder / "reader").read_text(encoding="utf-8") \
        if getattr(module, "SEAT_BOARDS", False) else None
    return render.board_svg(table.ruleset, module, module.view(table.state["game"], seat))


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
                     r"turn|game|mail|reply|send|line|legion|cell)\b")
# What may stay as it is in any language: order words a player may write, tags, addresses.
KEPT = re.compile(r"\[pbem [^\]]*\]|\S+@\S+|\b(move|laurel|pass|seer|wall|rider|volcano)"
                  r"(/\w+)?\b|'[^']*'|Auguste|Attila|bouge/move|laurier/laurel|passe/pass")


def english_lines(msg) -> list[str]:
    """The lines of a mail (text part, HTML part without tags, subject) that read as English."""
    found = []
    for text in (text_of(msg), re.sub(r"<[^>]+>", " ", html_of(msg)), str(msg["Subject"])):
        for line in text.splitlines():
            if ENGLISH.search(KEPT.sub(" ", line)):
                found.append(line.strip())
    return found


def long_lines(msg) -> list[str]:
    """The lines of a mail's text part over 78 columns."""
    return [f"{len(line)}: {line}" for line in text_of(msg).splitlines() if len(line) > 78]
