"""The mails pbem writes: rendered from templates and queued in the outbox.

Every function here runs inside the caller's transaction, so a mail is queued
exactly when the change it reports is recorded. The public board of a batch
is rendered once per language and shared by every recipient.

A mail to a seat is written in the seat's language (``speaking(seat["lang"])``);
notices to anyone else are in English.
"""

from dataclasses import dataclass, field
from datetime import timedelta, timezone
from functools import cached_property
import json
from zoneinfo import ZoneInfo

from markupsafe import Markup, escape

from . import i18n, raster, render
from .adjudicator import engine as rules_engine
from .adjudicator.contract import REFEREE
from .adjudicator.rng import seed_digest
from .i18n import N_
from .identity import reply_address, subject_tag
from .mail import parse, stored
from .mail.compose import Board, CloseUp, compose, message_id
from .mail.parse import REPLY_MARKERS
from .reading import read_text, sender_names, shown
from .store import row_event
from .timeutil import parse_time


ALL_PARTS = frozenset({"yours", "help"})  # the costly parts of a mail's context
BOARD_TEMPLATES = ("report", "welcome", "over", "replaced", "history")
MAX_LINES = 50          # of errors, or of orders understood, in one answer
MAX_LINE_CHARS = 300    # of one such line
RECEIPT_LINES = 100     # of a receipt's lines an answer quotes
RECEIPT_LINE_CHARS = 200  # of one such line
MAX_ANSWER_BYTES = 64_000  # of an answer's text, and of its HTML, whatever it answers
BOARD_CID = "<board@pbem>"  # the Content-ID of a mail's board image
CLOSE_UP_CID = "<close-up@pbem>"  # and of the close-up of the seat's own area


@dataclass
class Table:
    """One game at one moment, as the letters see it."""

    referee: object
    game_row: dict
    game: object
    state: dict
    boards: dict = field(default_factory=dict, repr=False)

    @property
    def ruleset(self) -> str:
        """The game's ruleset name."""
        return self.game_row["ruleset"]

    @cached_property
    def public(self) -> dict:
        """The public view, computed once for the batch."""
        return self.game.view(self.state["game"], None)

    def public_board(self) -> dict:
        """The public board as text, as an image, and as its HTML block (the image shown).

        Rendered once per language for the batch.
        """
        lang = i18n.current()
        if lang not in self.boards:
            self.boards[lang] = self.board(self.public)
        return self.boards[lang]

    def board(self, view: dict) -> dict:
        """A view's board for a mail: text, image (a Board, drawn as a PNG when the mail is
        sent), and the HTML block showing the image."""
        drawing = self.game.svg_context(view)
        svg = render.board_svg(self.ruleset, self.game, view, drawing)
        title = drawing.get("title") or i18n._(self.game.TITLE)
        picture = render.board_picture(BOARD_CID.strip("<>"), title, render.board_width(svg))
        return {"board": self.game.board_text(view), "image": Board(svg),
                "svg": render.board_html(self.ruleset, self.game, view, picture, drawing)}

    def close_up(self, board: dict, view: dict) -> dict:
        """A seat's board with a close-up of its own area (the game's ``own_area`` of the
        seat's view) below it, when a phone cannot show the whole board's smallest names
        (see raster.close_up_frame): the close-up's image, and the board's HTML block
        showing it."""
        own_area = getattr(self.game, "own_area", None)
        chosen = own_area and raster.close_up_frame(board["image"].svg, own_area(view))
        if not chosen:
            return board
        zoom, window = chosen
        picture = Markup(render.render(self.ruleset, "_close_up.html.j2",
                                       cid=CLOSE_UP_CID.strip("<>"),
                                       width=window[2] - window[0]))
        return {**board, "close_up": CloseUp(board["image"].svg, zoom, window),
                "svg": board["svg"] + picture}

    def prompt(self, name: str) -> str:
        """What the open phase asks of a seat, in the current language.

        The game is asked again (its prompt is stored in the log in English).
        """
        asked = self.game.pending(self.state["game"]).get(name)
        return asked.prompt if asked else self.state["engine"]["requests"][name]["prompt"]

    def context(self, seat: dict, with_board: bool = False, happened: bool = False,
                shown=ALL_PARTS) -> dict:
        """What every game mail to a seat needs (the board only when asked: it is costly).

        `happened`: the mail has its own list of what happened (a game's own
        section need not tell it again). `shown`: the costly parts the mail's
        templates read ("yours", "help"); the others are left empty.
        """
        engine = self.state["engine"]
        given_by = self.given_by(seat["name"])
        request = None if given_by else engine["requests"].get(seat["name"])
        if request:
            request = {**request, "prompt": self.prompt(seat["name"]),
                       "deadline": engine["deadline"]}
        seat_boards = with_board and getattr(self.game, "SEAT_BOARDS", False)
        seat_view = self.game.view(self.state["game"], seat["name"]) \
            if seat_boards or not ALL_PARTS.isdisjoint(shown) else None
        yours = render.render(self.ruleset, "yours.txt.j2", view=seat_view, seat=seat["name"],
                              happened=happened).strip() if "yours" in shown else ""
        board = {"board": None, "svg": None, "image": None}
        if seat_boards:
            board = self.board(seat_view)
        elif with_board:
            board = self.public_board()
        if board["image"] is not None:
            board = self.close_up(board, seat_view or self.game.view(self.state["game"],
                                                                      seat["name"]))
        return {
            **board,
            "game": {"id": self.game_row["id"], "ruleset": self.ruleset,
                     "title": i18n._(self.game.TITLE)},
            "seat": {"name": seat["name"], "tz": seat["tz"], "lang": seat["lang"]},
            "tag": subject_tag(self.game_row["id"], seat["token"]),
            "reply_address": reply_address(self.referee.config["address"], self.game_row["id"],
                                           seat["token"]),
            "marker": REPLY_MARKERS.get(i18n.current(), REPLY_MARKERS["en"]),
            "slow": engine["timing"]["slow"] > 0,
            "by_unit": getattr(self.game, "order_keys", None) is not None,
            "press": rules_engine.setting(self.state, "press"),
            "over": engine["over"],
            "briefing": "",
            "request": request,
            "given_by": given_by,
            "proxies": self.proxies(seat["name"]),
            "waiting": rules_engine.waiting_for(self.game, self.state, seat["name"]),
            "help": render.render(self.ruleset, "help.txt.j2", view=seat_view).strip()
            if "help" in shown else "",
            "yours": yours,
        }

    def given_by(self, name: str) -> str | None:
        """The seat whose mails give this seat's orders now (a vassal's overlord), or None."""
        ruler = getattr(self.game, "controller", None)
        given = ruler(self.state["game"], name) if ruler else None
        return given if given not in (None, name) else None

    def proxies(self, name: str) -> list[dict]:
        """The requests of the seats whose orders this seat gives (a vassal's), with deadline."""
        ruler = getattr(self.game, "controller", None)
        engine = self.state["engine"]
        if ruler is None:
            return []
        return [{"seat": other, **request, "prompt": self.prompt(other),
                 "deadline": engine["deadline"]}
                for other, request in sorted(engine["requests"].items())
                if other not in (name, REFEREE) and ruler(self.state["game"], other) == name]

    def turn(self) -> tuple:
        """(turn, round) as a mail's subject names them (see ``turn_of``): the public view
        is computed only for a game that does not tell its turn itself."""
        if getattr(self.game, "turn_of", None) is not None:
            return turn_of(self.game, self.state)
        return turn_of(self.game, self.state, self.public)

    def orders_on_file(self, name: str) -> list[str] | None:
        """A seat's orders for the open phase, in words; None when it has sent none."""
        sub = self.referee.current_submission(self.game_row["id"], name,
                                              self.state["engine"]["phase"])
        if sub is None:
            return None
        return self.game.describe_orders(self.state["game"], name, json.loads(sub["orders"]))

    def silence(self, name: str) -> list[str]:
        """What the game does for a seat that sends nothing, in words (its default orders)."""
        return self.game.describe_orders(self.state["game"], name,
                                         self.game.default_orders(self.state["game"], name))

    def send(self, seat: dict, kind: str, headline, template: str, now: str,
             reply_to_mail=None, lang: str | None = None, msg_id: str | None = None,
             attachments=(), of_now=None, **extra) -> None:
        """Render a mail from a template pair, in the seat's language, and queue it for the seat.

        `headline` is a msgid, or a function of the seat's mail context that
        returns the headline in the current language; the subject is the
        seat's tag, the turn and the headline. `lang` writes this one mail in
        another language than the seat's (HELP asked with a French word);
        `msg_id` fixes its Message-ID (a press mail's names its event).
        `attachments` are (file name, text) pairs attached to the mail. `of_now`, the
        game as it stands when this table is a past one (HISTORY's report of a turn),
        gives the mail its turn: the subject's, and the one a reply to it answers.

        A game with BRIEF_UPDATES = True sends the board in reports only to the
        seats asked for something; the others get what happened and their own
        section (STATUS always sends the board).
        """
        with i18n.speaking(lang or seat["lang"]):
            brief = kind == "report" and getattr(self.game, "BRIEF_UPDATES", False) \
                and seat["name"] not in self.state["engine"]["requests"]
            shown = render.needs(self.ruleset, f"{template}.txt.j2") | \
                render.needs(self.ruleset, f"{template}.html.j2")
            context = {**self.context(seat, template in BOARD_TEMPLATES and not brief,
                                      happened=bool(extra.get("happened")), shown=shown),
                       **extra}
            said = headline(context) if callable(headline) else i18n._(headline)
            context["headline"] = said
            context["heading"] = heading(context["game"], said)
            stamp = of_now or self
            turn, round_ = stamp.turn()
            subject = f"{context['tag']} {subject_words(turn, round_, said, self.game)}"
            first = kind in ("welcome", "replacement")  # the first mail of a thread
            refs = [] if first else [seat["thread_id"]]
            in_reply_to = None
            if reply_to_mail is not None:
                in_reply_to = reply_to_mail.message_id or None
                refs += reply_to_mail.references + [in_reply_to]
            text = render.render(self.ruleset, f"{template}.txt.j2", subject=subject, **context)
            html = render.render(self.ruleset, f"{template}.html.j2", subject=subject, **context)
            if kind == "ack":
                text, html = within_answer_size(text, html)
            engine = stamp.state["engine"]
            images = {cid: context[key] for cid, key in ((BOARD_CID, "image"),
                                                         (CLOSE_UP_CID, "close_up"))
                      if context.get(key)}
            queue(self.referee, game=self.game_row["id"], seat=seat["name"], kind=kind,
                  to=seat["email"], subject=subject, text=text, html=html, now=now,
                  phase=engine["phase"], asked=seat["name"] in engine["requests"],
                  turn=turn or 0, round_=round_, reply_to=context["reply_address"], in_reply_to=in_reply_to, references=refs,
                  msg_id=seat["thread_id"] if first else msg_id, images=images,
                  attachments=attachments)


def turn_of(game, state: dict, public: dict | None = None) -> tuple:
    """(turn, round) a game's mails name at this state: the game's ``turn_of``, else the
    public view's turn (`public`, when it is at hand), else the phase's number (a game
    without turns). Turn None (or 0) is the setup, before the first turn."""
    told = getattr(game, "turn_of", None)
    if told is not None:
        return tuple(told(state["game"]))
    public = public if public is not None else game.view(state["game"], None)
    return public.get("turn") or state["engine"]["phase"], None


def phase_turns(game, rows) -> dict:
    """{phase: (turn, round)} as each phase's mails named them, from a game's event rows
    (all of them, from the first)."""
    state, told = rules_engine.new_state(), {}
    for row in rows:
        state, _digest = rules_engine.step(game, state, row_event(row))
        if row["type"] == "phase_opened":
            turn, round_ = turn_of(game, state)
            told[row["payload"]["phase"]] = (turn or 0, round_)
    return told


def subject_words(turn, round_, headline: str, game=None) -> str:
    """A subject after its tag: 'Turn 3: your orders by Tue 18:00', 'Turn 1, round 2: ...',
    'Setup: ...' before the first turn, or the name `game` gives its turn ('Spring 1901,
    movement: ...', see engine.told_words), in the current language."""
    if not turn:
        return i18n._("Setup: {headline}").format(headline=headline)
    if getattr(game, "turn_words", None) is not None:
        return i18n._("{told}: {headline}").format(
            told=capitalised(rules_engine.told_words(turn, round_, game)), headline=headline)
    if round_:
        return i18n._("Turn {turn}, round {round}: {headline}").format(
            turn=turn, round=round_, headline=headline)
    return i18n._("Turn {turn}: {headline}").format(turn=turn, headline=headline)


def heading(game: dict, headline: str) -> str:
    """The line above a game mail's text: the game's title and id, then the headline."""
    return i18n._("{title} {game}: {headline}").format(title=game["title"], game=game["id"],
                                                       headline=headline)


def queue(referee, *, game, seat, kind, to, subject, text, html, now, reply_to=None,
          in_reply_to=None, references=(), msg_id=None, phase=None, asked=None, turn=None,
          round_=None, images=None, attachments=()) -> str:
    """Compose a mail and add it to the outbox; return its Message-ID.

    `phase` is the game's phase the mail is written in, `asked` whether its seat
    was asked something in it: a reply to it after that phase is not taken for
    the next one, nor for the same phase reopened by a rollback (the mail keeps
    the game's last event then, ``seq``). `turn` and `round_` are what its subject
    named (turn 0: the setup), so that an answer to a late reply names them as the
    seat read them. `images` ({Content-ID: Board or CloseUp}) go with the HTML part,
    which shows them by cid:; `attachments` ((file name, text) pairs) follow it.
    """
    config = referee.config
    domain = config["address"].partition("@")[2] or "localhost"
    msg_id = msg_id or fixed_id(referee, game, kind, to, in_reply_to, now)
    draft = compose(sender=(config["name"], config["address"]), to=to, subject=subject,
                    text=text, html=html, msg_id=msg_id, date=now, reply_to=reply_to,
                    in_reply_to=in_reply_to, references=references, images=images,
                    attachments=attachments)
    referee.store.insert("outbox", {
        "game": game, "seat": seat, "kind": kind, "to_addr": to, "subject": subject,
        "message_id": msg_id, **stored.columns(referee.store.conn, draft, game, kind),
        "status": "pending", "attempts": 0,
        "next_attempt": now, "created_at": now, "phase": phase, "asked": asked,
        "turn": turn, "round": round_,
        "seq": referee.store.game(game)["last_seq"] if phase is not None else None,
    })
    return msg_id


def fixed_id(referee, game: str | None, kind: str, to: str, in_reply_to: str | None,
             now: str) -> str:
    """A mail's Message-ID, from what it is: its game, kind and reader, the game's last
    event, the mail it answers (a mail outside any game and answering none: its time).
    Written again after a backup is restored, it has the same ID; two mails alike in all
    that are told apart by a number, counted in the outbox, so the same again too."""
    row = referee.store.game(game) if game else None
    key = row["seed"] if row else referee.config["address"]
    what = [kind, to.lower(), row["last_seq"] if row else "", in_reply_to or ("" if row else now)]
    domain = referee.config["address"].partition("@")[2] or "localhost"
    first = message_id(domain, game, key, what)
    found, number = first, 1
    while referee.store.one("SELECT 1 FROM outbox WHERE message_id = ?", [found]):
        number += 1
        found = first.replace("@", f".{number}@", 1)
    return found


def happenings(table: Table, seat: dict) -> list[str]:
    """Narrated events this seat may see and has not been told about yet (current language).

    Events a rollback undid are left out, and press, which has mails of its own.
    """
    lines = []
    store = table.referee.store
    rows = list(store.event_rows(table.game_row["id"], after=seat["reported_seq"]))
    gone = rules_engine.undone(rows)
    with i18n.for_reader(seat["name"], seat["tz"]):
        for row in rows:
            event = row_event(row)
            if row["seq"] not in gone and event.type != "press" and event.visible(seat["name"]):
                line = rules_engine.narrate(event, table.game, table.state["game"])
                if line:
                    lines.append(line)
    return lines


def mark_reported(table: Table, seat: dict) -> None:
    """Remember that a seat has been told everything up to the last event."""
    table.referee.store.update("seats", {"game": table.game_row["id"], "name": seat["name"]},
                               {"reported_seq": table.referee.store.game(
                                   table.game_row["id"])["last_seq"]})


# What a seat is asked, by the kind of request, for subjects: "Turn 4: your orders by Tue 18:00".
ASKED = {
    "orders": N_("your orders by {when}"),
    "turn": N_("your turn, by {when}"),
    "bid": N_("your sealed bid by {when}"),
    "seer": N_("your orders after SEER, by {when}"),
    "confirm": N_("confirm your turn by {when}"),
    "ruling": N_("your ruling by {when}"),
}
ASKED_OTHER = N_("your answer by {when}")
ASKED_PROMPT = N_("{prompt}, by {when}")  # a kind of request the engine has no words for


def asked_words(context: dict) -> str | None:
    """What a mail's reader is asked, with its deadline, in a few words; None if nothing."""
    request = context["request"]
    if request:
        if not request["deadline"]:
            return i18n._("your answer")
        when = i18n.short_date(request["deadline"], context["seat"]["tz"])
        prompt = (request.get("prompt") or "").rstrip(". ")
        if request["kind"] not in ASKED and prompt:
            return i18n._(ASKED_PROMPT).format(prompt=inside(prompt), when=when)
        return i18n._(ASKED.get(request["kind"], ASKED_OTHER)).format(when=when)
    for proxy in context["proxies"]:
        return i18n._("orders for {seat} by {when}").format(
            seat=proxy["seat"], when=i18n.short_date(proxy["deadline"], context["seat"]["tz"]))
    return None


def inside(sentence: str) -> str:
    """A game's prompt as the middle of a sentence: 'Choose your faction' after a comma
    reads 'choose your faction' (a word in capitals, 'MOVE', keeps them)."""
    if sentence[1:2].islower():
        return sentence[:1].lower() + sentence[1:]
    return sentence


def welcome(table: Table, seats: list[dict], now: str) -> None:
    """The first mail of a game to every seat: who plays, the seed's hash, the board,
    and the game's rules in short, attached in the seat's language."""
    digest = seed_digest(table.game_row["seed"])

    def headline(context):
        asked = asked_words(context)
        return i18n._("the game begins, {asked}").format(asked=asked) if asked \
            else i18n._("the game begins")

    for seat in seats:
        others = [s["name"] for s in seats if s["name"] != seat["name"]]
        with i18n.speaking(seat["lang"]):
            said = briefing(table, seat, seats)
            rules = render.rules_summary(table.ruleset)
        table.send(seat, "welcome", headline, "welcome", now, others=others,
                   seed_sha256=digest, briefing=said, rules=rules[0] if rules else None,
                   attachments=[rules] if rules else [])
        mark_reported(table, seat)


def briefing(table: Table, seat: dict, seats: list[dict]) -> str:
    """The game's paragraph for a seat's welcome (how to win, its goals), with its allies.

    A game tells it with ``briefing(state, seat)`` ({"text", "allies"}); the
    allies are named here, with how to write to them through pbem (PRESS), so
    they can agree on their moves without ever learning an address.
    """
    telling = getattr(table.game, "briefing", None)
    if telling is None:
        return ""
    told = telling(table.state["game"], seat["name"])
    lines = [render.wrap(line) for line in told["text"].split("\n")]
    allies = told.get("allies")
    if allies and rules_engine.setting(table.state, "press") == "none":
        lines.append(render.wrap(i18n._("Your allies: {allies}.").format(
            allies=", ".join(allies))))
    elif allies:
        lines.append(render.wrap(i18n._(
            "Your allies: {allies}. Write to them through pbem, which never shows an "
            "address: {press} {names} at the start of a line, and your message below "
            "it.").format(allies=", ".join(allies), press=shown("press", i18n.current()),
                          names=",".join(allies))))
    elif allies is not None and rules_engine.setting(table.state, "press") == "none":
        lines.append(render.wrap(i18n._("You have no ally: every other seat plays against "
                                        "you.")))
    elif allies is not None:
        others = [other["name"] for other in seats if other["name"] != seat["name"]]
        lines.append(render.wrap(i18n._(
            "You have no ally: every other seat plays against you. To talk or bargain with "
            "them, write through pbem, which never shows an address: {press} {name} at the "
            "start of a line, and your message below it.").format(
                press=shown("press", i18n.current()), name=others[0] if others else "")))
    return "\n".join(lines)


def report_headline(context) -> str:
    """A report's headline: what the seat is asked and by when, else what happened."""
    return asked_words(context) or i18n._("what happened")


def reports(table: Table, seats: list[dict], now: str) -> None:
    """After a phase: each seat's account of what happened, the board, what comes next.

    A seat that can see nothing new and is asked nothing gets no mail (under
    fog of war, most phases are other seats' business). What happened is
    told in the seat's language.
    """
    over = table.state["engine"]["over"]
    disputed = before_ruling(table)
    for seat in seats:
        with i18n.speaking(seat["lang"]):
            happened = happenings(table, seat)
            if not (over or happened or asked(table, seat["name"])):
                continue
            if over:
                result = table.state["engine"]["result"]
                table.send(seat, "over", lambda context, r=result: i18n._(
                    "the game is over: {result}").format(result=result_text(r, False)),
                           "over", now, happened=happened,
                           result_text=result_text(result, game=table.game),
                           seed=table.game_row["seed"],
                           seed_sha256=seed_digest(table.game_row["seed"]))
            else:
                table.send(seat, "report", report_headline, "report", now, happened=happened,
                           notes=[others_said(name, said["said"]) for name, said in
                                  sorted(disputed.items()) if name != seat["name"]
                                  and seat["name"] in disputed])
        mark_reported(table, seat)
    observer_reports(table, now)


# What the mails of a ruling's seats bring the referee, at most: files and their bytes.
MAX_FILES = 10
MAX_FILES_BYTES = 10_000_000


def before_ruling(table: Table) -> dict:
    """When the open phase asks the referee for a ruling on a fact seats reported in the
    phase before (a disputed battle, see adjudicator/results.py): what each of them wrote
    to the game in that phase, {seat: {"said": [each mail's own text, its commands and
    press left out], "files": [(file name, content type, bytes)]}}; else {}."""
    request = table.state["engine"]["requests"].get(REFEREE)
    if not request or request.get("kind") != "ruling":
        return {}
    store, game_id = table.referee.store, table.game_row["id"]
    opened = [json.loads(row["payload"]) for row in store.all(
        "SELECT payload FROM events WHERE game = ? AND type = 'phase_opened' "
        "ORDER BY seq DESC LIMIT 2", [game_id])]
    if len(opened) < 2:
        return {}
    seats = sorted(s for s, asked in opened[1]["requests"].items() if asked["kind"] == "result")
    if not seats:
        return {}
    found = {seat: {"said": [], "files": []} for seat in seats}
    room = MAX_FILES_BYTES
    for row in store.all(
            f"SELECT seat, raw FROM inbox WHERE game = ? AND status = 'done' AND seat IN "
            f"({', '.join('?' * len(seats))}) AND received_at >= ? ORDER BY id",
            [game_id, *seats, opened[1]["opened"]]):
        mail = parse.read(row["raw"])
        text = read_text(mail.text, sender_names(row["seat"], mail.sender_name)).orders_text
        words = [line.strip() for line in text.splitlines() if line.strip()]
        if words:
            found[row["seat"]]["said"].append(" / ".join(words))
        for name, kind, data in parse.files(row["raw"], MAX_FILES):
            if len(data) <= room and sum(len(f["files"]) for f in found.values()) < MAX_FILES:
                found[row["seat"]]["files"].append((f"{row['seat']}-{name}", kind, data))
                room -= len(data)
    return found


def others_said(seat: str, said: list[str]) -> str:
    """What another seat of a dispute wrote to the game, for its opponent (current
    language)."""
    if not said:
        return i18n._("{seat} wrote nothing to the game beside its report.").format(seat=seat)
    return i18n._("{seat} wrote to the game: \u201c{words}\u201d").format(
        seat=seat, words=parse.shorten(" // ".join(said), 600))


def asked(table: Table, name: str) -> bool:
    """Is this seat asked something now, for itself or for a seat whose orders it gives?"""
    return name in table.state["engine"]["requests"] or bool(table.proxies(name))


def ask_referee(table: Table, now: str) -> None:
    """Tell the referee that the open phase waits for its ruling (once, when it opens)."""
    request = table.state["engine"]["requests"].get(REFEREE)
    if not request:
        return
    game_id = table.game_row["id"]
    phase = table.state["engine"]["phase"]
    choices = request.get("choices") or {}
    sets = " ".join(f"--set {key}=" + ("|".join(words) if words else "VALUE")
                    for key, words in sorted(choices.items()))
    brought = before_ruling(table)
    wrote = [(f"{seat} wrote: " + " // ".join(f"\u201c{text}\u201d" for text in said["said"])
              if said["said"] else f"{seat} wrote nothing beside its report.")
             + (" Attached: " + ", ".join(name for name, _kind, _data in said["files"]) + "."
                if said["files"] else "")
             for seat, said in sorted(brought.items())]
    notice(table.referee, table.referee.config["referee"],
           f"game {game_id} waits for your ruling", [
               f"{table.game.TITLE} game {game_id}, phase {phase}: {request['prompt']}",
               *request.get("facts", []), *wrote,
               "The game waits until you rule. Settle it with:",
               f"pbem ruling {game_id} {phase} {sets} --text \"your reasons\"",
               "The seats concerned read your reasons; pbem ruling " + game_id +
               " lists what is open."], now, game=game_id, kind="ruling",
           attachments=[file for said in brought.values() for file in said["files"]])


def result_text(result: dict, with_reason: bool = True, game=None) -> str:
    """The result of a game in words, in the current language (its reason in the words
    of `game`'s RESULT_REASONS when it is one of their keys)."""
    winners = result.get("winners") or []
    reason = reason_text(result.get("reason", ""), game) if with_reason else ""
    if result.get("draw"):
        between = i18n._("a draw between {seats}").format(seats=", ".join(result["draw"]))
        return i18n._("{result} ({reason})").format(result=between, reason=reason) \
            if reason else between
    if not winners:
        return i18n._("no winner ({reason})").format(reason=reason) if reason \
            else i18n._("no winner")
    won = i18n.ngettext("{seats} won", "{seats} won", len(winners)).format(
        seats=", ".join(winners))
    return i18n._("{result} ({reason})").format(result=won, reason=reason) if reason else won


def reason_text(reason, game=None) -> str:
    """Why a game ended, in the current language."""
    words = getattr(game, "RESULT_REASONS", {})
    if isinstance(reason, str) and reason in words:
        return i18n._(words[reason])
    return i18n.said(reason)


def answer(table: Table, seat: dict, incoming, now: str, notes=(), understood=(), errors=(),
           remarks=(), on_file=(), recorded=False, commands=(), resolving=False,
           receipts=(), relayed=False, unrecorded=False, told_waiting=False,
           lines=()) -> None:
    """A reply to a seat's mail: the orders as understood and every error with its line.

    `remarks` are the lines of chat set aside ("line 3: Great game!"), which are
    not errors (the greetings and signature set aside are said in `lines`); each error is shown under the line it concerns, as written; `on_file` the orders kept when
    this mail did not replace them; `resolving` when these orders were the
    last ones the turn waited for (it is resolved in the same tick); `receipts`
    those of the orders recorded (see pbem/receipts.py); `relayed` when the mail, a
    reply to press, went back to the press's sender; `unrecorded` when it held orders
    that were not recorded (nothing asked of the seat, a vassal); `told_waiting` when a
    note already says that nothing is asked of the seat and whom the game waits for, which
    the mail then does not say again at its end; `lines` what became of each line the
    player wrote, as (first, last, kind) runs (see inbound.Answer.account). At most
    MAX_LINES of each, so a mail of thousands of bad lines gets a short answer.
    """
    def headline(context):
        refused = len(errors)
        if relayed:
            return i18n._("your reply to the press was sent")
        if recorded and refused:
            return i18n.ngettext("orders received, {num} line refused",
                                 "orders received, {num} lines refused", refused).format(
                                     num=refused)
        if recorded:
            return i18n._("orders received")
        if refused:
            return i18n.ngettext("no orders recorded, {num} line refused",
                                 "no orders recorded, {num} lines refused", refused).format(
                                     num=refused)
        if unrecorded:
            return i18n._("no orders recorded")
        if commands:
            return commands_noted(commands)
        return i18n._("no orders found")

    receipts = [{**quoted_receipt(r),
                 "as_understood": len(receipts) == 1 and as_written(r, understood)}
                for r in receipts]
    with i18n.speaking(seat["lang"]):
        table.send(seat, "ack", headline, "ack", now, reply_to_mail=incoming,
                   notes=list(notes), error_total=len(errors), resolving=resolving,
                   line_by_line=line_by_line(lines), brief=recorded and not errors,
                   receipts=receipts, **({"waiting": []} if told_waiting else {}),
                   understood=[] if any(r["as_understood"] for r in receipts) else
                   bounded(understood, i18n._("and {num} more orders")),
                   errors=refusals(errors),
                   remarks=bounded(remarks, i18n._("and {num} more lines")),
                   on_file=bounded(on_file, i18n._("and {num} more orders")))


def quoted_receipt(receipt: dict) -> dict:
    """A receipt as an answer quotes it: its first RECEIPT_LINES lines, each cut to
    RECEIPT_LINE_CHARS (its start and its end, an order padded with spaces shows its
    words), with `cut` (how many lines it shows cut) and `more` (how many it leaves out)
    when it quotes less than the lines its hash is of."""
    lines = receipt["text"].splitlines()
    half = RECEIPT_LINE_CHARS // 2
    quoted = [line if len(line) <= RECEIPT_LINE_CHARS else
              line[:half] + "…" + line[-(RECEIPT_LINE_CHARS - half - 1):]
              for line in lines[:RECEIPT_LINES]]
    return {**receipt, "text": "".join(line + "\n" for line in quoted),
            "cut": sum(a != b for a, b in zip(quoted, lines)),
            "more": max(0, len(lines) - RECEIPT_LINES), "at_most": RECEIPT_LINES,
            "chars": RECEIPT_LINE_CHARS}


def within_answer_size(text: str, html: str) -> tuple[str, str]:
    """An answer's text and HTML, each of at most MAX_ANSWER_BYTES: past it, the text is cut
    at a line, with a last line that says how many lines were left out, and the HTML part
    is that text (current language)."""
    if len(text.encode()) <= MAX_ANSWER_BYTES and len(html.encode()) <= MAX_ANSWER_BYTES:
        return text, html
    lines, kept, size = text.splitlines(), [], 0
    for line in lines:
        size += len(line.encode()) + 1
        if size > MAX_ANSWER_BYTES - 1000:  # room for the last line
            break
        kept.append(line)
    note = i18n.ngettext("[This answer is cut here: {num} more line left out.]",
                         "[This answer is cut here: {num} more lines left out.]",
                         len(lines) - len(kept)).format(
                             num=i18n.format_number(len(lines) - len(kept)))
    text = "\n".join(kept + ["", note]) + "\n"
    return text, f'<pre style="white-space: pre-wrap">{escape(text)}</pre>'


def commands_noted(commands) -> str:
    """The headline of an answer to commands alone, naming one of them at most, whatever a
    mail repeats: "HISTORY noted", "WAIT and 2 more commands noted" (current language)."""
    distinct = list(dict.fromkeys(commands))
    first = shown(distinct[0], i18n.current())
    if len(distinct) == 1:
        return i18n._("{commands} noted").format(commands=first)
    return i18n.ngettext("{command} and {num} more command noted",
                         "{command} and {num} more commands noted", len(distinct) - 1).format(
                             command=first, num=len(distinct) - 1)


def refusals(errors) -> list[dict]:
    """The errors as an answer shows them: each line as written ("text", "" when the error
    concerns the whole mail) and the error under it ("said"), at most MAX_LINES."""
    said = bounded([error_text(e) for e in errors],
                   i18n._("and {num} more lines I could not read"))
    texts = bounded([getattr(e, "text", "") or "" for e in errors[:MAX_LINES]], "")
    return [{"said": line, "text": texts[at] if at < len(texts) else ""}
            for at, line in enumerate(said)]


def as_written(receipt: dict, understood) -> bool:
    """Do the orders as understood read just as the lines recorded (Diplomacy's "A PAR -
    BUR"), spacing aside? Then the answer shows them once, as the receipt's."""
    written = [" ".join(line.split()) for line in receipt["text"].splitlines()
               if line.strip()]
    return bool(written) and written == [" ".join(str(line).split()) for line in understood]


# What became of a run of a mail's lines, by its kind (see inbound.Answer.account):
# singular and plural.
LINE_KINDS = {
    "order": (N_("order"), N_("orders")),
    "unrecorded": (N_("order not recorded"), N_("orders not recorded")),
    "error": (N_("refused line"), N_("refused lines")),
    "remark": (N_("remark"), N_("remarks")),
    "aside": (N_("line set aside"), N_("lines set aside")),
    "unsent": (N_("press not sent"), N_("press not sent")),
}
MAX_RUNS = 30  # of a mail's lines said one by one (the others: "and N more")


def line_by_line(runs) -> str:
    """What became of each line a player wrote, in one sentence of the current language:
    "Line by line: 1 line set aside; 2-4 orders; 5-7 press to bob; 8 DRAW." ("" for none)."""
    said = []
    for first, last, kind in runs[:MAX_RUNS]:
        where = str(first) if first == last else f"{first}-{last}"
        if kind[0] == "command":
            what = shown(kind[1], i18n.current())
        elif kind[0] == "press":
            what = i18n._("press to {seats}").format(seats=kind[1]) if kind[1] else \
                i18n._("press to the sender of that press")
        else:
            one, many = LINE_KINDS[kind[0]]
            what = i18n._(one if first == last else many)
        said.append(f"{where} {what}")
    if not said:
        return ""
    if len(runs) > MAX_RUNS:
        said.append(i18n._("and {num} more").format(num=len(runs) - MAX_RUNS))
    return i18n._("Line by line: {lines}.").format(lines=i18n._("; ").join(said))


def bounded(lines, more: str) -> list[str]:
    """At most MAX_LINES lines of at most MAX_LINE_CHARS, the last saying how many more."""
    lines = [line if len(line) <= MAX_LINE_CHARS else line[:MAX_LINE_CHARS - 1] + "…"
             for line in map(str, lines)]
    if len(lines) <= MAX_LINES:
        return lines
    return lines[:MAX_LINES] + [more.format(num=i18n.format_number(len(lines) - MAX_LINES))]


def error_text(error) -> str:
    """A line pbem could not accept, in the current language: 'line 2: there is no cell BUW'."""
    if getattr(error, "line", None) is None:
        return str(error)
    if not error.text:
        return error.message
    return i18n._("line {line}: {message}").format(line=error.line, message=error.message)


def seat_note(table: Table, seat: dict, incoming, headline, notes, now: str) -> None:
    """A short answer to a seat's mail: a headline (msgid or function) and notes.

    The notes are written by the caller in the seat's language.
    """
    table.send(seat, "ack", headline, "ack", now, reply_to_mail=incoming, notes=list(notes),
               understood=[], errors=[])


def late_answer(table: Table, seat: dict, incoming, headline: str, notes, now: str) -> None:
    """A seat answered a mail of a turn that is over: why nothing was used, then the open
    turn's request, the board and what the seat may send (as STATUS gives them).

    `headline` and `notes` are written by the caller in the seat's language.
    """
    with i18n.speaking(seat["lang"]):
        on_file = table.orders_on_file(seat["name"]) or []
    table.send(seat, "ack", lambda context: headline, "report", now, reply_to_mail=incoming,
               happened=[], notes=list(notes), on_file=on_file)


def game_over_answer(table: Table, seat: dict, incoming, now: str) -> None:
    """A seat wrote to a game that is over: nothing changed."""
    with i18n.speaking(seat["lang"]):
        note = i18n._("This game is over; your mail changed nothing.")
    seat_note(table, seat, incoming, N_("this game is over"), [note], now)


def wrong_code_answer(table: Table, seat: dict, incoming, stolen: bool, now: str) -> None:
    """A mail from a seat's address without that seat's code: explain, change nothing."""
    with i18n.speaking(seat["lang"]):
        notes = [
            i18n._("Your mail carries a code that is not yours.") if stolen else
            i18n._("Your mail carries no valid code for your seat."),
            i18n._("Nothing changed. To send orders, reply to a mail from this game: its reply "
                   "address and the tag {tag} in its subject carry your code.").format(
                       tag=subject_tag(table.game_row["id"], seat["token"]))]
    seat_note(table, seat, incoming, N_("your mail was not accepted"), notes, now)


def status(table: Table, seat: dict, incoming, now: str) -> None:
    """STATUS: the seat's current view again, with its orders on file in words."""
    with i18n.speaking(seat["lang"]):
        on_file = table.orders_on_file(seat["name"]) or []
    table.send(seat, "status", report_headline, "report", now, reply_to_mail=incoming,
               happened=[], on_file=on_file)


def help_mail(table: Table, seat: dict, incoming, now: str, lang: str | None = None) -> None:
    """HELP: the order syntax and the mail commands (in `lang`, the language of the word)."""
    others = [s for s in table.state["engine"]["seats"] if s != seat["name"]]
    teams = getattr(table.game, "teams", None)
    table.send(seat, "help", N_("how to play by mail"), "howto", now, reply_to_mail=incoming,
               lang=lang, press_seat=others[0] if others else seat["name"],
               press_teams=bool(teams and teams(table.state["game"])),
               named_turn=named_turn(table, lang or seat["lang"]),
               away=away_example(seat, now, lang or seat["lang"]))


def named_turn(table: Table, lang: str) -> dict | None:
    """The turn under way, as HELP shows HISTORY's example of it ({"told": "Spring 1901,
    movement", "initials": "S1901M"}), when the game names its turns; else None."""
    if getattr(table.game, "turn_words", None) is None:
        return None
    with i18n.speaking(lang):
        told = rules_engine.told_words(*table.turn(), table.game)
    return {"told": told, "initials": rules_engine.initials(told)}


def away_example(seat: dict, now: str, lang: str) -> dict:
    """The days HELP's ABSENCE example names: a week starting two weeks from today in the
    seat's zone, written as the seat's language writes dates ({"start", "end"})."""
    zone = ZoneInfo(seat["tz"]) if seat.get("tz") else timezone.utc
    first = parse_time(now).astimezone(zone).date() + timedelta(days=14)
    written = "%d/%m/%Y" if lang == "fr" else "%Y-%m-%d"
    return {"start": first.strftime(written),
            "end": (first + timedelta(days=6)).strftime(written)}


def reminder(table: Table, seat: dict, now: str) -> None:
    """A reminder to a seat asked for orders that has none accepted yet.

    It says what the seat must do and by when, shows its board and its own
    section, and what happens if it stays silent: its orders on file (with
    errors) if any are used as they are, else its default orders.
    """
    with i18n.speaking(seat["lang"]):
        on_file = table.orders_on_file(seat["name"]) or []
        notes = [i18n._("Your orders on file have errors: send the whole set again, "
                        "corrected. If you send nothing more by the deadline, the orders on "
                        "file below are used, without their refused lines.") if on_file else
                 i18n._("I have no usable orders from you for this turn yet.")]
        silence = [] if on_file else table.silence(seat["name"])
    table.send(seat, "reminder", lambda context: i18n._("reminder: {asked}").format(
        asked=asked_words(context) or i18n._("your answer")), "report", now, happened=[],
               notes=notes, on_file=on_file, silence=silence)


def more_time(table: Table, seat: dict, now: str) -> None:
    """The referee moved the open turn's deadline (the mail gives the new one)."""
    with i18n.speaking(seat["lang"]):
        note = i18n._("The referee gave this turn more time.")
    table.send(seat, "deadline", lambda context: i18n._("more time: {asked}").format(
        asked=asked_words(context) or i18n._("your answer")), "ack", now,
               notes=[note], understood=[], errors=[])


def grace(table: Table, seat: dict, now: str) -> None:
    """The deadline passed without the seat's orders: the game's grace gives it until the
    new deadline (the mail gives it), then its default orders count."""
    with i18n.speaking(seat["lang"]):
        note = i18n._("The deadline passed without your orders: the turn waits for them a "
                      "little longer, until the deadline below; after it, your default "
                      "orders count.")
    table.send(seat, "deadline", lambda context: i18n._("grace period: {asked}").format(
        asked=asked_words(context) or i18n._("your answer")), "ack", now,
               notes=[note], understood=[], errors=[])


def notice(referee, to: str, headline: str, notes, now: str, incoming=None,
           game=None, kind="notice", lang: str = "en", attachments=()) -> None:
    """A short mail outside any seat's thread (rejections, referee notices), in `lang`:
    `headline` and `notes` come written in it; `attachments` are files it carries."""
    with i18n.speaking(lang):
        context = {"headline": headline, "notes": list(notes),
                   "address": referee.config["address"]}
        in_reply_to = incoming.message_id if incoming is not None and incoming.message_id else None
        refs = (incoming.references + [in_reply_to]) if in_reply_to else []
        queue(referee, game=game, seat=None, kind=kind, to=to, subject=f"[pbem] {headline}",
              text=render.render("", "notice.txt.j2", **context),
              html=render.render("", "notice.html.j2", **context), now=now,
              in_reply_to=in_reply_to, references=refs, attachments=attachments)


def notify(referee, to: str, lang: str, headline: tuple, notes, now: str, incoming=None,
           game=None, kind="notice") -> None:
    """A notice to a player's address, in `lang`: `headline` and `notes` are sentences
    from `say`."""
    with i18n.speaking(lang):
        notice(referee, to, words(headline), [words(note) for note in notes], now,
               incoming=incoming, game=game, kind=kind, lang=lang)


# ------------------------------------------------------------ news of the table
#
# Mails about the table rather than the board (pauses, lateness, absences,
# press, replacements): each sentence is a msgid with its values, put into
# the reader's language and time zone when the mail is written.


@dataclass(frozen=True)
class Moment:
    """A UTC time, written in the reader's zone and language."""

    at: str


@dataclass(frozen=True)
class Words:
    """Words marked for a catalogue (a game's title), written in the reader's language."""

    msgid: str


@dataclass(frozen=True)
class Span:
    """A count of players that may range, written in the reader's language: "2-7",
    "2 à 7", or "3" alone."""

    low: int
    high: int


def say(message: str, **values) -> tuple:
    """A sentence to be written in the reader's language: a msgid (marked N_) and its values."""
    return message, values


def words(said: tuple, seat: dict | None = None) -> str:
    """A sentence from `say`, in the current language, its times in the seat's zone
    (UTC without a seat)."""
    message, values = said
    tz = seat["tz"] if seat else None
    return i18n._(message).format(**{key: written(value, tz) for key, value in values.items()})


def written(value, tz: str | None):
    """A value of a sentence as the reader reads it: a time in its zone, words in its
    language, anything else as it is."""
    if isinstance(value, Moment):
        return i18n.format_date(value.at, tz)
    if isinstance(value, Words):
        return i18n._(value.msgid)
    if isinstance(value, Span):
        return i18n.format_span(value.low, value.high)
    return value


def tell(table: Table, seat: dict, kind: str, headline: tuple, notes, now: str,
         lines=(), quoted: str = "", reply_to_mail=None, yours: bool = False,
         msg_id: str | None = None) -> None:
    """A mail to a seat about the table, in its language: a headline, sentences, a list.

    `headline` and `notes` are sentences from `say`; `lines` are already written
    (narrated events); `quoted` is a player's own text, shown as written.
    """
    with i18n.speaking(seat["lang"]):
        extra = {} if yours else {"yours": ""}
        said = words(headline, seat)
        table.send(seat, kind, lambda context: said, "news", now, reply_to_mail=reply_to_mail,
                   msg_id=msg_id, notes=[words(note, seat) for note in notes],
                   lines=list(lines), quoted=quoted, **extra)


def draw_lapsed(table: Table, voters: list[str], now: str) -> None:
    """Tell each seat whose vote for a draw no longer stands that it lapsed."""
    for seat in table.referee.store.seats(table.game_row["id"]):
        if seat["name"] in voters:
            tell(table, seat, "draw", say(N_("the vote for a draw lapsed")), [
                say(N_("The vote for a draw ({votes}) lapsed: not every seat still playing "
                       "voted for it before each had a turn to answer. The game goes on."),
                    votes=", ".join(voters)),
                say(N_("To propose a draw again, reply with DRAW.")),
            ], now)


def paused(table: Table, seats: list[dict], reason: str, now: str) -> None:
    """Every seat: the referee stopped the clock."""
    for seat in seats:
        tell(table, seat, "paused", say(N_("the game is paused")), [
            say(N_("The referee paused the game: {reason}."), reason=reason),
            say(N_("No deadline runs until the referee resumes the game; you may still send "
                   "orders, and a turn is resolved only after the game resumes.")),
        ], now)


def resumed(table: Table, seats: list[dict], now: str) -> None:
    """Every seat: the clock runs again, with the time that was left."""
    for seat in seats:
        tell(table, seat, "resumed", say(N_("the game resumes")), [
            say(N_("The referee resumed the game; the open turn has the time it had left "
                   "when the game was paused.")),
        ], now)


def disorder_notice(table: Table, seats: list[str], now: str) -> None:
    """The referee: seats have fallen into civil disorder and may be given to new players."""
    game_id = table.game_row["id"]
    turns = rules_engine.setting(table.state, "disorder_turns")
    standby = [row["name"] for row in table.referee.store.standby(game_id)]
    for name in seats:
        giving = [f"The game's standby list: {', '.join(standby)}. Offer the seat to the "
                  f"first by mail (they take it with CONFIRM):\n"
                  f"  pbem seat {game_id} {name} --replace {standby[0]}",
                  "or give it to anyone else with:"] if standby else \
            ["Give it to a new player with:"]
        giving[-1] += f"\n  pbem seat {game_id} {name} --replace NEW_EMAIL --name \"NAME\""
        notice(table.referee, table.referee.config["referee"],
               f"game {game_id}: seat {name} is in civil disorder", [
                   f"Seat {name} of game {game_id} has sent no orders for {turns} turns in a row; "
                   "it plays its default orders.", *giving,
                   "pbem list shows the seats in civil disorder."], now, game=game_id,
               kind="disorder")


# ------------------------------------------------------------ observers


def public_happenings(table: Table, after: int) -> list[str]:
    """Narrated public events after seq `after` (none a rollback undid), in the current
    language."""
    rows = list(table.referee.store.event_rows(table.game_row["id"], after=after))
    gone = rules_engine.undone(rows)
    lines = []
    for row in rows:
        event = row_event(row)
        if row["seq"] not in gone and event.visible(None):
            line = rules_engine.narrate(event, table.game, table.state["game"])
            if line:
                lines.append(line)
    return lines


def observer_mail(table: Table, observer: dict, headline: str, now: str,
                  notes=(), happened=None) -> None:
    """A public report to an observer: what happened, the public board, no reply address.

    `headline` and `notes` are msgids (marked N_), written in the observer's language.
    An observer who would read nothing new (a phase under fog of war that
    changed nothing public) gets no mail.
    """
    engine = table.state["engine"]
    with i18n.speaking(observer["lang"]):
        if happened is None:
            with i18n.for_reader(None, observer["tz"]):
                happened = public_happenings(table, observer["reported_seq"])
        if not (happened or notes or engine["over"]):
            return
        result = engine["result"]
        context = {**table.public_board(), "happened": happened,
                   "game": {"id": table.game_row["id"], "title": i18n._(table.game.TITLE)},
                   "headline": i18n._(headline), "notes": [i18n._(n) for n in notes],
                   "result_text": result_text(result, game=table.game) if engine["over"] else "",
                   "paused": bool(engine.get("paused")), "deadline": engine["deadline"],
                   "waiting": rules_engine.waiting_for(table.game, table.state, None),
                   "tz": observer["tz"],
                   "referee": table.referee.config["referee"]}
        context["heading"] = heading(context["game"], context["headline"])
        subject = f"[pbem {table.game_row['id']}] {context['headline']}"
        queue(table.referee, game=table.game_row["id"], seat=None, kind="observer",
              to=observer["email"], subject=subject,
              text=render.render(table.ruleset, "observer.txt.j2", subject=subject, **context),
              html=render.render(table.ruleset, "observer.html.j2", subject=subject, **context),
              now=now, images={BOARD_CID: context["image"]})
    table.referee.store.update("observers", {"game": table.game_row["id"],
                                             "email": observer["email"]},
                               {"reported_seq": table.referee.store.game(
                                   table.game_row["id"])["last_seq"]})


def observer_reports(table: Table, now: str) -> None:
    """After a phase: every observer's public report (the last one with the result)."""
    over = table.state["engine"]["over"]
    for observer in table.referee.store.observers(table.game_row["id"]):
        observer_mail(table, observer, N_("the game is over") if over else N_("turn report"),
                      now)


# ------------------------------------------------------------ a seat's history


def history(table: Table, seat: dict) -> list[dict]:
    """What a seat saw, turn by turn: [{"told": "Turn 3", "lines": [...]}] (told "" for
    what came before the first phase), in the current language.

    Every event visible to the seat (its own secrets, press to or from it),
    narrated, except what a rollback undid.
    """
    rows = list(table.referee.store.event_rows(table.game_row["id"]))
    turns = phase_turns(table.game, rows)
    gone = rules_engine.undone(rows)
    parts, told = [], ""
    for row in rows:
        event = row_event(row)
        if event.type == "phase_opened" and row["seq"] not in gone:
            told = capitalised(rules_engine.told_words(*turns[event.payload["phase"]],
                                                       table.game))
        if row["seq"] in gone or not event.visible(seat["name"]):
            continue
        with i18n.for_reader(seat["name"], seat["tz"]):
            line = rules_engine.narrate(rules_engine.as_seen(event, seat["name"]), table.game,
                                       table.state["game"])
        if not line:
            continue
        if not parts or parts[-1]["told"] != told:
            parts.append({"told": told, "lines": []})
        parts[-1]["lines"].append(line)
    return parts


def capitalised(text: str) -> str:
    """A sentence's words with a capital first letter ("turn 3": "Turn 3")."""
    return text[:1].upper() + text[1:]


def replacement(table: Table, seat: dict, now: str) -> None:
    """The first mail of a new player in a seat: its code, the seat's whole history, the
    board, and the game's rules in short, attached in the seat's language."""
    with i18n.speaking(seat["lang"]):
        rules = render.rules_summary(table.ruleset)
        table.send(seat, "replacement", lambda context: i18n._(
            "you take over seat {seat}").format(seat=seat["name"]), "replaced", now,
                   history=history(table, seat), rules=rules[0] if rules else None,
                   attachments=[rules] if rules else [])
    mark_reported(table, seat)


# ------------------------------------------------------------ press


def press_message_id(table: Table, seq: int, seat: str) -> str:
    """The Message-ID of a press mail to a seat: it names the press event, so a reply finds
    its sender (the rest is fixed by the seat, as every mail's: see `fixed_id`)."""
    domain = table.referee.config["address"].partition("@")[2] or "localhost"
    game = table.game_row["id"]
    fixed = message_id(domain, game, table.game_row["seed"], ["press", seq, seat])
    return fixed.replace(f"<{game}.", f"<{game}.press.{seq}.", 1)


def press(table: Table, seq: int, now: str, reply_to_mail=None) -> None:
    """A press message (event `seq`) to each of its recipients, and a copy to the referee.

    Mails come from pbem, never from the sender: no address is ever shown. An
    anonymous message names neither its sender nor its other recipients.
    """
    event = row_event(next(table.referee.store.event_rows(table.game_row["id"], after=seq - 1,
                                                          upto=seq)))
    p = event.payload
    for name in p["to"]:
        seat = table.referee.store.seat(table.game_row["id"], name)
        if p["anonymous"]:
            headline = say(N_("anonymous press"))
            notes = [say(N_("A player sent you this message without their name."))]
        else:
            headline = say(N_("press from {sender}"), sender=p["from"])
            notes = [say(N_("{sender} sent this message to {seats}."), sender=p["from"],
                         seats=", ".join(p["to"]))]
        notes.append(say(N_("To answer, reply to this mail: your reply goes back through pbem "
                            "to the sender alone, unless it holds orders or commands, which "
                            "are read as such and sent to nobody.")))
        tell(table, seat, "press", headline, notes, now, quoted=p["text"],
             msg_id=press_message_id(table, seq, name))
    notice(table.referee, table.referee.config["referee"],
           f"game {table.game_row['id']}: press from {p['from']} to {', '.join(p['to'])}",
           [("Anonymous press" if p["anonymous"] else "Press") +
            f" from {p['from']} to {', '.join(p['to'])}, phase {p['phase']}:", p["text"]],
           now, game=table.game_row["id"], kind="press-copy")
