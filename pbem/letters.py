"""The mails pbem writes: rendered from templates and queued in the outbox.

Every function here runs inside the caller's transaction, so a mail is queued
exactly when the change it reports is recorded. The public board of a batch
is rendered once per language and shared by every recipient.

A mail to a seat is written in the seat's language (``speaking(seat["lang"])``);
notices to anyone else are in English.
"""

from dataclasses import dataclass, field
from functools import cached_property

from . import i18n, render
from .adjudicator import engine as rules_engine
from .adjudicator.contract import REFEREE
from .adjudicator.rng import seed_digest
from .identity import reply_address, subject_tag
from .mail.compose import compose, message_id
from .mail.parse import REPLY_MARKER
from .store import row_event


BOARD_TEMPLATES = ("report", "welcome", "over")
MAX_LINES = 50          # of errors, or of orders understood, in one answer
MAX_LINE_CHARS = 300    # of one such line


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
        """The public board as text and as its HTML block (the SVG map).

        Rendered once per language for the batch.
        """
        lang = i18n.current()
        if lang not in self.boards:
            self.boards[lang] = {
                "board": self.game.board_text(self.public),
                "svg": render.board_html(self.ruleset, self.game, self.public)}
        return self.boards[lang]

    def context(self, seat: dict, with_board: bool = False) -> dict:
        """What every game mail to a seat needs (the board only when asked: it is costly)."""
        engine = self.state["engine"]
        request = engine["requests"].get(seat["name"])
        if request:
            request = {**request, "deadline": engine["deadline"]}
        seat_view = self.game.view(self.state["game"], seat["name"])
        yours = render.render(self.ruleset, "yours.txt.j2", view=seat_view,
                              seat=seat["name"]).strip()
        board = {"board": None, "svg": None}
        if with_board and getattr(self.game, "SEAT_BOARDS", False):
            board = {"board": self.game.board_text(seat_view),
                     "svg": render.board_html(self.ruleset, self.game, seat_view)}
        elif with_board:
            board = self.public_board()
        return {
            **board,
            "game": {"id": self.game_row["id"], "ruleset": self.ruleset,
                     "title": self.game.TITLE},
            "seat": {"name": seat["name"], "tz": seat["tz"], "lang": seat["lang"]},
            "tag": subject_tag(self.game_row["id"], seat["token"]),
            "reply_address": reply_address(self.referee.config["address"], self.game_row["id"],
                                           seat["token"]),
            "marker": REPLY_MARKER,
            "slow": engine["timing"]["slow"] > 0,
            "request": request,
            "proxies": self.proxies(seat["name"]),
            "waiting": rules_engine.waiting_for(self.game, self.state, seat["name"]),
            "help": render.render(self.ruleset, "help.txt.j2", view=seat_view).strip(),
            "yours": yours,
        }

    def proxies(self, name: str) -> list[dict]:
        """The requests of the seats whose orders this seat gives (a vassal's), with deadline."""
        ruler = getattr(self.game, "controller", None)
        engine = self.state["engine"]
        if ruler is None:
            return []
        return [{"seat": other, **request, "deadline": engine["deadline"]}
                for other, request in sorted(engine["requests"].items())
                if other not in (name, REFEREE) and ruler(self.state["game"], other) == name]

    def send(self, seat: dict, kind: str, headline: str, template: str, now: str,
             reply_to_mail=None, **extra) -> None:
        """Render a mail from a template pair, in the seat's language, and queue it for the seat.

        A game with BRIEF_UPDATES = True sends the board in reports only to the
        seats asked for something; the others get what happened and their own
        section (STATUS always sends the board).
        """
        with i18n.speaking(seat["lang"]):
            brief = kind == "report" and getattr(self.game, "BRIEF_UPDATES", False) \
                and seat["name"] not in self.state["engine"]["requests"]
            context = {**self.context(seat, template in BOARD_TEMPLATES and not brief),
                       "headline": headline, **extra}
            subject = f"{context['tag']} {headline}"
            first = kind == "welcome"
            refs = [] if first else [seat["thread_id"]]
            in_reply_to = None
            if reply_to_mail is not None:
                in_reply_to = reply_to_mail.message_id or None
                refs += reply_to_mail.references + [in_reply_to]
            text = render.render(self.ruleset, f"{template}.txt.j2", subject=subject, **context)
            html = render.render(self.ruleset, f"{template}.html.j2", subject=subject, **context)
            engine = self.state["engine"]
            queue(self.referee, game=self.game_row["id"], seat=seat["name"], kind=kind,
                  to=seat["email"], subject=subject, text=text, html=html, now=now,
                  phase=engine["phase"], asked=seat["name"] in engine["requests"],
                  reply_to=context["reply_address"], in_reply_to=in_reply_to, references=refs,
                  msg_id=seat["thread_id"] if first else None)


def queue(referee, *, game, seat, kind, to, subject, text, html, now, reply_to=None,
          in_reply_to=None, references=(), msg_id=None, phase=None, asked=None) -> str:
    """Compose a mail and add it to the outbox; return its Message-ID.

    `phase` is the game's phase the mail is written in, `asked` whether its seat
    was asked something in it: a reply to it after that phase is not taken for
    the next one.
    """
    config = referee.config
    domain = config["address"].partition("@")[2] or "localhost"
    msg_id = msg_id or message_id(domain, game)
    raw = compose(sender=(config["name"], config["address"]), to=to, subject=subject,
                  text=text, html=html, msg_id=msg_id, date=now, reply_to=reply_to,
                  in_reply_to=in_reply_to, references=references)
    referee.store.insert("outbox", {
        "game": game, "seat": seat, "kind": kind, "to_addr": to, "subject": subject,
        "message_id": msg_id, "raw": raw, "status": "pending", "attempts": 0,
        "next_attempt": now, "created_at": now, "phase": phase, "asked": asked,
    })
    return msg_id


def happenings(table: Table, seat: dict) -> list[str]:
    """Narrated events this seat may see and has not been told about yet."""
    lines = []
    store = table.referee.store
    for row in store.event_rows(table.game_row["id"], after=seat["reported_seq"]):
        event = row_event(row)
        if event.visible(seat["name"]):
            line = rules_engine.narrate(event) or table.game.narrate(event)
            if line:
                lines.append(line)
    return lines


def mark_reported(table: Table, seat: dict) -> None:
    """Remember that a seat has been told everything up to the last event."""
    table.referee.store.update("seats", {"game": table.game_row["id"], "name": seat["name"]},
                               {"reported_seq": table.referee.store.game(
                                   table.game_row["id"])["last_seq"]})


def welcome(table: Table, seats: list[dict], now: str) -> None:
    """The first mail of a game to every seat: who plays, the seed's hash, the board."""
    digest = seed_digest(table.game_row["seed"])
    for seat in seats:
        others = [s["name"] for s in seats if s["name"] != seat["name"]]
        table.send(seat, "welcome", "the game begins", "welcome", now,
                   others=others, seed_sha256=digest)
        mark_reported(table, seat)


def reports(table: Table, seats: list[dict], now: str) -> None:
    """After a phase: each seat's account of what happened, the board, what comes next.

    A seat that can see nothing new and is asked nothing gets no mail (under
    fog of war, most phases are other seats' business).
    """
    over = table.state["engine"]["over"]
    for seat in seats:
        happened = happenings(table, seat)
        if not (over or happened or asked(table, seat["name"])):
            continue
        if over:
            result = table.state["engine"]["result"]
            table.send(seat, "over", "the game is over", "over", now, happened=happened,
                       result_text=result_text(result), seed=table.game_row["seed"],
                       seed_sha256=seed_digest(table.game_row["seed"]))
        else:
            headline = headline_for(table, seat)
            table.send(seat, "report", headline, "report", now, happened=happened)
        mark_reported(table, seat)


def asked(table: Table, name: str) -> bool:
    """Is this seat asked something now, for itself or for a seat whose orders it gives?"""
    return name in table.state["engine"]["requests"] or bool(table.proxies(name))


def headline_for(table: Table, seat: dict) -> str:
    """A report's subject: what is asked of this seat, if anything."""
    request = table.state["engine"]["requests"].get(seat["name"])
    if request:
        return request["prompt"] or "your turn"
    proxies = table.proxies(seat["name"])
    if proxies:
        return f"orders for {proxies[0]['seat']}: {proxies[0]['prompt'] or 'their turn'}"
    return "update"


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
    notice(table.referee, table.referee.config["referee"],
           f"game {game_id} waits for your ruling", [
               f"{table.game.TITLE} game {game_id}, phase {phase}: {request['prompt']}",
               "The game waits until you rule. Settle it with:",
               f"pbem ruling {game_id} {phase} {sets} --text \"your reasons\"",
               "The seats concerned read your reasons; pbem ruling " + game_id +
               " lists what is open."], now, game=game_id, kind="ruling")


def result_text(result: dict) -> str:
    """The result of a game in words."""
    winners = result.get("winners") or []
    reason = result.get("reason", "")
    if not winners:
        return f"no winner ({reason})" if reason else "no winner"
    return f"{', '.join(winners)} won" + (f" ({reason})" if reason else "")


def answer(table: Table, seat: dict, incoming, headline: str, now: str, notes=(),
           understood=(), errors=(), ignored=(), on_file=()) -> None:
    """A reply to a seat's mail: the orders as understood and every error with its line.

    `ignored` are the courtesy lines set aside; `on_file` the orders kept when
    this mail did not replace them. At most MAX_LINES of each, so a mail of
    thousands of bad lines gets a short answer.
    """
    errors = [str(e) for e in errors]
    with i18n.speaking(seat["lang"]):
        table.send(seat, "ack", headline, "ack", now, reply_to_mail=incoming,
                   notes=list(notes), error_total=len(errors),
                   understood=bounded(understood, i18n._("and {num} more orders")),
                   errors=bounded(errors, i18n._("and {num} more lines I could not read")),
                   ignored=bounded(ignored, i18n._("and {num} more lines")),
                   on_file=bounded(on_file, i18n._("and {num} more orders")))


def bounded(lines, more: str) -> list[str]:
    """At most MAX_LINES lines of at most MAX_LINE_CHARS, the last saying how many more."""
    lines = [line if len(line) <= MAX_LINE_CHARS else line[:MAX_LINE_CHARS - 1] + "…"
             for line in map(str, lines)]
    if len(lines) <= MAX_LINES:
        return lines
    return lines[:MAX_LINES] + [more.format(num=i18n.format_number(len(lines) - MAX_LINES))]


def status(table: Table, seat: dict, incoming, now: str) -> None:
    """STATUS: the seat's current view, again."""
    table.send(seat, "status", headline_for(table, seat), "report", now,
               reply_to_mail=incoming, happened=[])


def help_mail(table: Table, seat: dict, incoming, now: str) -> None:
    """HELP: the order syntax and the mail commands."""
    table.send(seat, "help", "how to play by mail", "howto", now, reply_to_mail=incoming)


def reminder(table: Table, seat: dict, now: str) -> None:
    """A reminder to a seat that has sent no orders yet."""
    table.send(seat, "reminder", "reminder: no orders from you yet", "ack", now,
               notes=["I have no orders from you for this turn yet."], understood=[], errors=[])


def more_time(table: Table, seat: dict, now: str) -> None:
    """The referee moved the open turn's deadline (the mail gives the new one)."""
    table.send(seat, "deadline", "more time for this turn", "ack", now,
               notes=["The referee gave this turn more time."], understood=[], errors=[])


def notice(referee, to: str, headline: str, notes, now: str, incoming=None,
           game=None, kind="notice") -> None:
    """A short mail outside any seat's thread (rejections, referee notices)."""
    with i18n.speaking("en"):
        context = {"headline": headline, "notes": list(notes),
                   "address": referee.config["address"]}
        in_reply_to = incoming.message_id if incoming is not None and incoming.message_id else None
        refs = (incoming.references + [in_reply_to]) if in_reply_to else []
        queue(referee, game=game, seat=None, kind=kind, to=to, subject=f"[pbem] {headline}",
              text=render.render("", "notice.txt.j2", **context),
              html=render.render("", "notice.html.j2", **context), now=now,
              in_reply_to=in_reply_to, references=refs)
