"""From a stored mail to its answer: identity, commands, orders.

Each inbox row is handled in one transaction that records what the mail
changed, queues its answer and marks the row. Every path ends in a status
with a reason: done (answered), rejected (answered, nothing changed), ignored
(automatic mail, a stranger's mail, or a refusal already answered today),
quarantined (unreadable, from an unclear sender, over the rate limit, too
large, or its handling failed), duplicate, or bounce.

No mail stops the ones after it: handling one has a time budget
(``mail.handle_seconds``), and whatever goes wrong with one mail quarantines
that mail, with the reason, before the next is handled. What a mail may cost
depends on what it proves: mail carrying a seat's code from the seat's
address counts against that seat's hourly allowance, any other mail against
its sender address's, so forged mail never uses up a seat's. Strangers (an
address no game knows) are answered only about joining a game (pbem/signup.py:
LIST, JOIN, CONFIRM, LEAVE, each at most once a day); the referee gets, at
most once a day, a digest of the mail refused (pbem/digest.py).
"""

from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import timedelta
from functools import partial
import json
import re
import signal
import threading
import time

from . import letters, players, seats, signup
from .i18n import N_, _, counted, current, format_date, speaking
from .adjudicator import engine
from .adjudicator.contract import OrderError, canonical
from .adjudicator.spelling import as_remark, asks, heads, introduces, readings, unlinked
from .errors import PbemError
from .identity import Claim, claim, token_matches
from .mail.parse import Incoming, read, shorten, visible
from .reading import (SETTINGS, Reading, after_greeting, mistyped_command, read_text,
                      sections, sender_names, shown, signature)
from .receipts import receipt, receipt_text
from .store import Store
from .timeutil import iso, parse_time

STRANGER_QUIET = timedelta(days=1)
RATE_WINDOW = timedelta(hours=1)
RELEASED = "released by the referee"
# Commands that ask, or act on the table rather than a turn, whatever turn a mail answers.
QUESTIONS = {"help", "status", "history", "press", "absence", "concede"}


class Overtime(BaseException):
    """Handling one mail took longer than its budget.

    A BaseException, like KeyboardInterrupt, so that no guard that sets aside
    what one header or one part of a mail does wrong can swallow it.
    """


# How many mails one transaction of the tick handles at most, and for how long it goes on
# taking more: a batch costs one commit, and other writers wait for it no longer than this.
BATCH_MAILS = 100
BATCH_SECONDS = 1.0


def process_inbox(referee, now: str, stop=None) -> int:
    """Handle every new inbox row, oldest first; return how many were handled.

    Mails are handled in batches, one transaction each; inside it, each mail
    is handled under its own savepoint, with the answers it queues. A crash
    loses the batch's work and nothing else: its mails are still new, and the
    next tick handles each of them once, whole. A mail whose handling raises,
    or takes longer than ``mail.handle_seconds``, is quarantined with the
    reason (the referee's digest lists it) and nothing it did is kept; the
    next mail is handled all the same. Once `stop` (a function) says True, the
    mail in hand is the last one handled.
    """
    store = referee.store
    stop = stop or (lambda: False)
    count, last = 0, 0
    while not stop():
        with store.transaction():
            handled, last = handle_batch(referee, now, last, stop)
        if not handled:
            break
        count += handled
    return count


def handle_batch(referee, now: str, after: int, stop=lambda: False) -> tuple[int, int]:
    """Handle new inbox rows after id `after` inside the caller's transaction, until the
    batch is full or `stop` says True; return (how many, the last id handled)."""
    store = referee.store
    budget = referee.config["mail"]["handle_seconds"]
    ids = [row["id"] for row in store.all(
        "SELECT id FROM inbox WHERE status = 'new' AND id > ? ORDER BY id LIMIT ?",
        [after, BATCH_MAILS])]
    started = time.monotonic()
    count = 0
    for row_id in ids:
        if count and (time.monotonic() - started > BATCH_SECONDS or stop()):
            break
        row = store.one("SELECT * FROM inbox WHERE id = ?", [row_id])
        store.execute("SAVEPOINT mail")
        head = None
        try:
            with time_limit(budget):
                head = read(row["raw"], headers_only=row["size"] > referee.config["mail"]
                            ["max_bytes"])
                status, reason, game, seat = handle(referee, row, head, now)
        except (Exception, Overtime) as problem:  # one mail never stops the others
            store.execute("ROLLBACK TO mail")
            status, reason, game, seat = "quarantined", (
                f"could not be handled: {type(problem).__name__}: {shorten(str(problem))}"), \
                None, None
        store.execute("RELEASE mail")
        store.update("inbox", {"id": row_id}, {
            "status": status, "reason": reason, "game": game, "seat": seat,
            "message_id": (head.message_id or None) if head else row["message_id"],
            "sender": (head.sender or None) if head else row["sender"]})
        count += 1
        after = row_id
    return count, after


@contextmanager
def time_limit(seconds: float):
    """Raise Overtime inside the block once `seconds` have passed.

    Only the main thread receives signals, so elsewhere the block runs unbounded.
    """
    if seconds <= 0 or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum, frame):
        raise Overtime(f"took longer than {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass
class Who:
    """Who a mail says it is from, and whether it proves it."""

    claim: Claim
    game: dict | None   # the game it is for, when there is one
    seats: list         # that game's seats at the sender's address
    seat: dict | None   # the one of them whose code the mail carries: proven

    def rate_key(self, sender: str) -> str:
        """What the mail counts against: its seat when proven, else its sender address."""
        return f"seat {self.seat['game']}/{self.seat['name']}" if self.seat else sender


def identify(referee, incoming: Incoming) -> Who:
    """The game, the seats and the proven seat (address and code) of a mail."""
    store = referee.store
    found = claim(incoming.subject, incoming.recipients, referee.config["address"])
    game = store.game(found.game) if found.game else None
    # a game's few seats, filtered here: the address index would scan every game
    # a player is in
    seats = [s for s in store.seats(found.game) if s["email"] == incoming.sender] \
        if game else []
    seat = next((s for s in seats if token_matches(s["token"], found.tokens)), None)
    return Who(found, game, seats, seat)


def handle(referee, row: dict, head: Incoming, now: str):
    """(status, reason, game, seat) for one inbox row, read as `head`, queuing whatever
    answer it needs.

    A mail over the size limit is read for its headers only (answered briefly,
    never parsed). Then, in order: a mail already handled, an automatic mail
    (never answered; a delivery failure marks its seats), a From header that
    names no single sender, a sender over the hourly allowance, a mail too
    large or unreadable; only then is the mail routed.
    """
    config = referee.config
    too_large = row["size"] > config["mail"]["max_bytes"]
    repeated = duplicate(referee.store, row, head.message_id)
    if repeated:
        return "duplicate", repeated, None, None
    if head.automatic:
        if head.bounced:
            return bounce(referee, head, now)
        return "ignored", f"automatic mail: {head.automatic}", None, None
    if head.sender_problem:
        return unclear_sender(referee, head, now)
    who = identify(referee, head)
    if row["reason"] != RELEASED and flooding(referee, who.rate_key(head.sender),
                                              row["received_at"] or now):
        return "quarantined", (f"rate limit: more than {config['mail']['rate_per_hour']} "
                               f"mails in an hour from {head.sender}"
                               + ("" if who.seat else " without a seat's code")), None, None
    if too_large:
        return oversize(referee, head, who, row["size"], now)
    if head.problem:
        return unreadable(referee, head, who, now)
    return route(referee, head, who, now)


def duplicate(store: Store, row: dict, message_id: str) -> str | None:
    """Why this inbox row (whose mail says `message_id`) repeats a mail already handled,
    or None.

    The same Message-ID with the same body (whatever headers servers added on
    the way) is the same mail; so are the very same bytes.
    """
    done = "status NOT IN ('new', 'failed') AND id < ?"
    if message_id:
        if store.one(f"SELECT id FROM inbox WHERE message_id = ? AND body_digest = ? AND {done}",
                     [message_id, row["body_digest"], row["id"]]):
            return f"Message-ID {message_id} already handled"
        return None
    earlier = store.one(f"SELECT id FROM inbox WHERE digest = ? AND {done}",
                        [row["digest"], row["id"]])
    return f"the same mail as inbox {earlier['id']}, already handled" if earlier else None


def flooding(referee, key: str, moment: str) -> bool:
    """Count this mail against `key`'s hourly allowance (a seat or an address); True when over."""
    store = referee.store
    row = store.one("SELECT * FROM senders WHERE address = ?", [key])
    if row is None:
        store.insert("senders", {"address": key, "window_start": moment, "count": 1})
        return False
    if parse_time(moment) - parse_time(row["window_start"]) >= RATE_WINDOW:
        store.update("senders", {"address": key}, {"window_start": moment, "count": 1})
        return False
    store.update("senders", {"address": key}, {"count": row["count"] + 1})
    return row["count"] + 1 > referee.config["mail"]["rate_per_hour"]


def seat_address(store: Store, address: str) -> bool:
    """Is this the address of a seat, in any game?"""
    return bool(address) and store.one("SELECT 1 FROM seats WHERE email = ? LIMIT 1",
                                       [address]) is not None


def once_a_day(store: Store, address: str, now: str) -> bool:
    """May this address be sent a refusal now (none in the last day)? Records it when so."""
    row = store.one("SELECT last_stranger_reply FROM senders WHERE address = ?", [address])
    last = row["last_stranger_reply"] if row else None
    if last and parse_time(now) - parse_time(last) < STRANGER_QUIET:
        return False
    store.execute(
        "INSERT INTO senders (address, window_start, count, last_stranger_reply) "
        "VALUES (?, ?, 0, ?) ON CONFLICT(address) DO UPDATE SET last_stranger_reply = ?",
        [address, now, now, now])
    return True


def refused(answered: bool, reason: str, game=None, seat=None):
    """The status of a mail pbem refuses: answered once a day, else only recorded."""
    if answered:
        return "rejected", reason, game, seat
    return "ignored", reason + " (already answered in the last day)", game, seat


def refuse_known(referee, incoming: Incoming, reason: str, headline: tuple, notes, now: str,
                 game=None):
    """Refuse a mail: its sender is told, once a day, if a game knows the address;
    a stranger is never answered (the referee's digest lists the mail).

    `headline` and `notes` are sentences from letters.say, written in the
    address's language.
    """
    store = referee.store
    if not seat_address(store, incoming.sender):
        return "ignored", f"{reason} (a stranger: not answered)", game, None
    answered = once_a_day(store, incoming.sender, now)
    if answered:
        letters.notify(referee, incoming.sender, address_language(store, incoming.sender),
                       headline, notes, now, incoming=incoming)
    return refused(answered, reason, game)


def address_language(store: Store, address: str) -> str:
    """The language to write to an address in: its seats' when they all speak one,
    else English."""
    langs = [row["lang"] for row in store.all(
        "SELECT DISTINCT lang FROM seats WHERE email = ?", [address])]
    return langs[0] if len(langs) == 1 else "en"


def unclear_sender(referee, incoming: Incoming, now: str):
    """A From header that names no single address: refused, nothing read.

    Mail servers and pbem might read different senders in it, so it is never
    routed. The Sender or Return-Path address is told why, once a day, when it
    is a seat's; otherwise the mail is set aside silently.
    """
    store = referee.store
    reason = f"unclear sender: {incoming.sender_problem}"
    to = next((a for a in incoming.alternates if seat_address(store, a)), None)
    if to is None:
        return "quarantined", reason, None, None
    if not once_a_day(store, to, now):
        return "quarantined", reason + f" ({to} already told in the last day)", None, None
    letters.notify(referee, to, address_language(store, to),
                   letters.say(N_("your mail was not accepted")), [
        letters.say(N_("A mail sent from this address was not accepted: its From header "
                       "does not name one address beyond doubt (From: {sender}), so I cannot "
                       "tell who wrote it. It changed nothing."),
                    sender=shorten(visible(incoming.from_header), 120)),
        letters.say(N_("If you sent it, send it again with your own address alone in From."))],
        now, incoming=incoming)
    return "rejected", reason + f"; {to} told", None, None


def oversize(referee, head: Incoming, who: Who, size: int, now: str):
    """A mail too large to read: its seat is told; a seat's address without its code
    once a day; a stranger never."""
    limit = referee.config["mail"]["max_bytes"]
    reason = f"too large: {size} bytes, over {limit}"
    notes = [letters.say(N_("Your mail \"{subject}\" is {size} bytes, over this referee's "
                            "limit of {limit} bytes, so it was not read and changed nothing. "
                            "Send your orders as plain text, without attachments."),
                         subject=shorten(visible(head.subject), 80), size=size, limit=limit)]
    store = referee.store
    if who.seat is not None or (seat_address(store, head.sender)
                                and once_a_day(store, head.sender, now)):
        lang = who.seat["lang"] if who.seat else address_language(store, head.sender)
        letters.notify(referee, head.sender, lang, letters.say(N_("your mail was too large")),
                       notes, now, incoming=head)
        return "quarantined", reason, None, None
    return "quarantined", reason + ", not answered", None, None


def unreadable(referee, head: Incoming, who: Who, now: str):
    """A mail pbem could not read: set aside; its seat, when proven, is asked to resend."""
    reason = f"unreadable: {head.problem}"
    if who.seat is None:
        return "quarantined", reason, None, None
    table = referee.table(who.game["id"])
    with speaking(who.seat["lang"]):
        notes = [_("I could not read your mail: {problem}. It changed nothing.").format(
                     problem=head.problem),
                 _("Send your orders again as plain text, in a reply to this mail.")]
    letters.seat_note(table, who.seat, head, N_("your mail could not be read"), notes, now)
    return "quarantined", reason, who.game["id"], who.seat["name"]


def bounce(referee, incoming: Incoming, now: str):
    """A delivery failure: mark the seats pbem's bounced mail went to, and tell the referee.

    Only a report that quotes the Message-ID of a mail pbem sent to the failed
    address counts; the referee is told when a seat starts bouncing.
    """
    store = referee.store
    hit, newly = [], []
    for address in incoming.bounced:
        for seat in bounced_seats(store, incoming.quoted_ids, address):
            store.update("seats", {"game": seat["game"], "name": seat["name"]}, {"bouncing": 1})
            hit.append(f"{seat['name']} in game {seat['game']} ({address})")
            if not seat["bouncing"]:
                newly.append(hit[-1])
    if newly:
        letters.notice(referee, referee.config["referee"], "mail to a player bounced", [
            "Mail to these seats could not be delivered: " + "; ".join(newly) + ".",
            "Their games go on; silent seats get default orders at each deadline. "
            "Check the address with the player."], now)
    if hit:
        return "bounce", "delivery failed for " + "; ".join(hit), None, None
    return "bounce", ("delivery failed for " + ", ".join(incoming.bounced)
                      + " (quotes no mail pbem sent there: no seat marked)"), None, None


def bounced_seats(store: Store, quoted: list[str], address: str) -> list[dict]:
    """The seats at `address` that were sent one of the quoted mails."""
    if not quoted:
        return []
    marks = ", ".join("?" for _ in quoted)
    return store.all(
        "SELECT DISTINCT seats.* FROM outbox JOIN seats ON seats.game = outbox.game "
        "AND seats.name = outbox.seat AND seats.email = outbox.to_addr "
        f"WHERE outbox.to_addr = ? AND outbox.message_id IN ({marks}) "
        "ORDER BY seats.game, seats.position", [address, *quoted])


def route(referee, incoming: Incoming, who: Who, now: str):
    """Act on a mail from a proven seat; refuse any other (answering only known addresses)."""
    store = referee.store
    found = who.claim
    if found.game is None:  # to the club's own address: LIST, JOIN, CONFIRM, LEAVE
        joining = signup.handle_mail(referee, incoming, now)
        if joining is not None:
            return joining
    if who.game is None:
        subject = shorten(visible(incoming.subject), 80)
        said = letters.say(N_("Your mail \"{subject}\" names game {game} in its subject, and "
                              "there is no game of that name here."),
                           subject=subject, game=found.game) if found.game else \
            letters.say(N_("Your mail \"{subject}\" has no game tag in its subject."),
                        subject=subject)
        return refuse_known(
            referee, incoming, f"no game called {found.game!r}" if found.game else "no game tag",
            letters.say(N_("I could not tell which game your mail is for")), [
                said, letters.say(N_(
                    "To send orders, reply to the last mail you received from your game, "
                    "keeping the tag [pbem GAME #code] in the subject. If you do not play a "
                    "game here, you can ignore this message."))], now, game=found.game)
    if not who.seats:
        return refuse_known(
            referee, incoming, "sender is not a seat",
            letters.say(N_("you are not a player of game {game}"), game=found.game), [
                letters.say(N_("Game {game} has no seat for {address}, so your mail changed "
                               "nothing. If you play under another address, write from that "
                               "one."), game=found.game, address=incoming.sender)],
            now, game=found.game)
    if who.seat is None:
        return wrong_token(referee, incoming, found, who.seats[0], now)
    seat = who.seat
    if seat["bouncing"]:
        store.update("seats", {"game": found.game, "name": seat["name"]}, {"bouncing": 0})
    table = referee.table(found.game, who.game)
    if table.state["engine"]["over"]:
        return game_over(referee, table, seat, incoming, now)
    closed = answered_turn(store, table, seat, incoming)
    if closed is not None:
        return turn_over(table, seat, incoming, *closed, now)
    result = take(referee, table, seat, incoming.text, now, incoming)
    return "done", result["outcome"], found.game, seat["name"]


def game_over(referee, table, seat: dict, incoming: Incoming, now: str):
    """A mail to a game that is over: HISTORY still gets the history; anything else is
    answered that the game is over."""
    reading = read_text(incoming.text, sender_names(seat["name"], incoming.sender_name))
    asked = next((c for c in reading.commands if c.name == "history"), None)
    if asked is None:
        letters.game_over_answer(table, seat, incoming, now)
        return "done", "game over", table.game_row["id"], seat["name"]
    mail = Mail(referee, table, seat, now, Answer(), incoming)
    players.history_command(mail, asked)
    if mail.answer.notes:
        letters.seat_note(table, seat, incoming, N_("this game is over"), mail.answer.notes, now)
    return "done", "game over; commands history", table.game_row["id"], seat["name"]


def answered_turn(store: Store, table, seat: dict, incoming: Incoming) -> tuple | None:
    """(the mail of ours it answers: its outbox row, whether a rollback undid its turn) when
    that turn is over; None when the mail counts for the open one.

    The mails of ours it references (In-Reply-To, References) say which turn it
    answers: the one of the latest of them. It is over when a rollback undid
    it (the game's events when the mail was written are undone), or when it
    has closed and asked something of the seat, under another turn (or round)
    than the open one's: a step of the turn the seat reads of now (a battle's
    report after its scenario) is no turn over. A mail that references none
    of ours, or only asks (HELP, STATUS), counts for the open turn, and so
    does a reply to press (a message asks nothing: what it holds, message or
    orders, is for now).
    """
    if not incoming.references:
        return None
    reading = read_text(incoming.text, sender_names(seat["name"], incoming.sender_name))
    asks = {command.name for command in reading.commands}
    if asks and asks <= QUESTIONS and not reading.has_orders:
        return None
    marks = ", ".join("?" for _ in incoming.references)
    rows = store.all(f"SELECT id, phase, asked, kind, seq, turn, round, subject FROM outbox "
                     f"WHERE game = ? AND seat = ? AND message_id IN ({marks})",
                     [table.game_row["id"], seat["name"], *incoming.references])
    if not rows or any(row["phase"] is None for row in rows):
        return None
    if any(row["kind"] == "press" for row in rows) and not reading.commands and \
            not orders_like(table, seat["name"], reading.orders_text):
        return None
    latest = max(rows, key=lambda row: row["id"])
    if latest["seq"] is not None and any(start < latest["seq"] < end for start, end
                                         in undone_spans(store, table)):
        return latest, True
    if latest["phase"] >= table.state["engine"]["phase"] or latest["kind"] == "press":
        return None  # a press asks nothing: orders in a reply to it are for the open turn
    asked = [row for row in rows if row["phase"] == latest["phase"] and row["asked"]]
    if not asked:
        return None
    closed = max(asked, key=lambda row: row["id"])
    turn, round_ = table.turn()
    if ((closed["turn"] or 0), closed["round"]) == ((turn or 0), round_):
        return None  # a step of the turn the seat reads of now: the mail is for it
    return closed, False


def undone_spans(store: Store, table) -> list[tuple[int, int]]:
    """The spans of a game's events its rollbacks undid (see engine.undone_spans)."""
    return engine.undone_spans(store.event_rows(table.game_row["id"],
                                                of_type="phase_rolled_back"))


def turn_over(table, seat: dict, incoming: Incoming, closed: dict, undone: bool, now: str):
    """Answer a mail to a turn that is over (or that a rollback undid): not used, which mail
    it answered (its subject, as the seat read it), and the open turn's request below."""
    turn, round_ = table.turn()
    subject = closed["subject"].split("] ", 1)[-1]
    with speaking(seat["lang"]):
        told = engine.told_words(closed["turn"], closed["round"], table.game) \
            if closed["turn"] is not None else _("an earlier turn")
        now_told = engine.told_words(turn, round_, table.game)
        notes = [_("The referee took the game back to {told}: your mail answers my mail "
                   "“{subject}”, of a turn that was undone, so the orders and commands in it "
                   "were not used.").format(told=now_told, subject=subject) if undone else
                 _("Your mail answers my mail “{subject}”, which is over: the orders in it "
                   "were not used.").format(subject=subject)]
        if seat["name"] in table.state["engine"]["requests"]:
            notes.append(_("Now {told} asks you: {asked}. What you may send is below; send "
                           "it in a reply to this mail.").format(
                               told=now_told, asked=table.prompt(seat["name"]).rstrip(". ")))
        headline = (_("{told} was undone") if undone else _("{told} is over")).format(told=told)
    letters.late_answer(table, seat, incoming, headline, notes, now)
    reason = f"answers phase {closed['phase']}, which a rollback undid" if undone else \
        f"answers phase {closed['phase']}, which is over"
    return "rejected", reason, table.game_row["id"], seat["name"]


def wrong_token(referee, incoming: Incoming, found, seat: dict, now: str):
    """A mail from a seat's address without that seat's code: explain, change nothing.

    The answer goes to the seat's own address, so a forged From learns nothing,
    and at most once a day, so forged mail cannot make pbem pester a player.
    """
    store = referee.store
    others = store.all("SELECT token FROM seats WHERE game = ? AND email != ?",
                       [found.game, incoming.sender])
    stolen = any(token_matches(o["token"], found.tokens) for o in others)
    reason = "token of another seat" if stolen else "wrong or missing token"
    last = seat["last_refusal"]
    if last and parse_time(now) - parse_time(last) < STRANGER_QUIET:
        return refused(False, reason, found.game, seat["name"])
    store.update("seats", {"game": found.game, "name": seat["name"]}, {"last_refusal": now})
    table = referee.table(found.game)
    letters.wrong_code_answer(table, seat, incoming, stolen, now)
    return "rejected", reason, found.game, seat["name"]


@dataclass
class Answer:
    """What pbem says back to a seat's mail."""

    notes: list = field(default_factory=list)
    understood: list = field(default_factory=list)
    errors: list = field(default_factory=list)
    ignored: list = field(default_factory=list)
    remarks: list = field(default_factory=list)
    on_file: list = field(default_factory=list)
    recorded: bool = False
    receipts: list = field(default_factory=list)
    told_waiting: bool = False


def take(referee, table, seat: dict, text: str, now: str, incoming=None) -> dict:
    """Act on a seat's text (commands and orders) and answer it; return what was understood.

    Commands and orders are independent: a command never touches the orders on
    file, and a mail replaces them only when at least one of its lines is an
    order the game accepts. A seat that gives the orders of others (a vassal's
    overlord) may head a part of its mail "for SEAT:"; without it, its orders
    go to the one seat it controls that is asked, when it is not asked itself.
    A reply to a press mail goes back to the press's sender as press, unless it
    holds a command, an order or a line close to one (see ``orders_like``):
    then it is read as any mail, and nothing is relayed.
    """
    names = sender_names(seat["name"], seat.get("player") or "",
                         incoming.sender_name if incoming else "")
    reading = greeted_orders(table, seat["name"], read_text(text, names), names)
    answer = Answer(ignored=[line for _number, line in reading.ignored])
    mail = Mail(referee, table, seat, now, answer, incoming)
    before = table.game_row["last_seq"]
    run_commands(mail, [c for c in reading.commands if c.name in BEFORE_ORDERS])
    seat = mail.seat
    with speaking(seat["lang"]):
        press = None if "press" in reading.names else players.press_answered(mail)
        relayed = press is not None and not reading.commands and \
            not orders_like(table, seat["name"], reading.orders_text)
        if relayed:
            players.answer_press(mail, press)
            reading = Reading()  # a reply to press is all message: no orders, no commands
            answer.ignored = []
        else:
            if press is not None:
                players.note_not_relayed(mail, press)
            if reading.has_orders:
                take_all(referee, table, seat["name"], reading.orders_text, now, answer, names)
            elif not reading.commands:
                answer.notes.append(_("I found no orders in your mail. Write them as the "
                                      "first lines of your reply, one per line; send HELP for "
                                      "the syntax."))
        run_commands(mail, [c for c in reading.commands if c.name not in BEFORE_ORDERS])
        table = mail.table
        if answer.notes or answer.understood or answer.errors or answer.remarks:
            letters.answer(table, seat, incoming, now, notes=answer.notes,
                           understood=answer.understood, errors=answer.errors,
                           ignored=answer.ignored, remarks=answer.remarks,
                           on_file=answer.on_file, recorded=answer.recorded,
                           commands=noted(referee, table, reading.names, before),
                           resolving=answer.recorded and referee.ready(table),
                           receipts=answer.receipts, relayed=relayed,
                           told_waiting=answer.told_waiting,
                           unrecorded=reading.has_orders and not answer.remarks)
    return {"notes": answer.notes, "understood": answer.understood,
            "errors": [str(e) for e in answer.errors], "ignored": answer.ignored,
            "remarks": answer.remarks, "on_file": answer.on_file,
            "outcome": "reply to press" if relayed else outcome(
                answer.recorded, reading.has_orders, reading.names, answer.errors,
                len(answer.remarks))}


def noted(referee, table, names: list[str], before: int) -> list[str]:
    """The commands an answer's headline says were noted: a PRESS that sent nothing (its
    answer says why) is not, so the subject never says "PRESS noted" of press not sent.
    `before` is the game's last event before the mail was acted on."""
    if "press" not in names or any(referee.store.event_rows(table.game_row["id"], before,
                                                            of_type="press")):
        return names
    return [name for name in names if name != "press"]


def greeted_orders(table, seat: str, reading: Reading, names: set[str]) -> Reading:
    """The reading with the courtesy lines that go on with an order the game accepts
    ("Bonjour ! village D5 D6") put back among the order lines: the greeting is chat
    beside that order, not a line to ignore."""
    lines = reading.orders_text.split("\n")
    for number, line in list(reading.ignored):
        rest = after_greeting(line, names)
        if rest is None or number > len(lines):
            continue
        _orders, errors, part, _remarks = read_orders(table, seat, rest)
        if usable_lines(part, errors):
            lines[number - 1] = line
            reading.ignored.remove((number, line))
    reading.orders_text = "\n".join(lines)
    return reading


def controller(table, seat: str) -> str:
    """The seat whose mails give this seat's orders (itself, unless the game says otherwise)."""
    ruler = getattr(table.game, "controller", None)
    return (ruler(table.state["game"], seat) if ruler else None) or seat


def take_all(referee, table, sender: str, text: str, now: str, answer: Answer,
             names: set[str]) -> None:
    """Take a mail's order text for the seat and for the seats whose orders it gives."""
    ruler = controller(table, sender)
    if ruler != sender:
        answer.notes.append(_("Your orders are given by {seat} now, so these were not "
                              "recorded. You still get your own reports.").format(seat=ruler))
        return
    for target, part in order_parts(table, sender, text):
        if target != sender and controller(table, target) != sender:
            answer.notes.append(_("You do not give the orders of {seat} now ({seat} answers "
                                  "for itself), so what you wrote for {seat} was not "
                                  "recorded.").format(seat=target))
            continue
        take_orders(referee, table, sender, target, part, now, answer, names)


def order_parts(table, sender: str, text: str) -> list[tuple]:
    """[(target seat, its order text)] for a mail's orders, by who controls whom.

    In a game where one seat may give another's orders, a "for SEAT:" line may
    name any seat: a part for one the sender does not give orders for now is
    kept, for the answer to say so.
    """
    seats = [s for s in table.state["engine"]["seats"] if s != sender]
    controlled = [s for s in seats if controller(table, s) == sender]
    asked = table.state["engine"]["requests"]
    parts = []
    named = seats if getattr(table.game, "controller", None) else controlled
    for target, part in sections(text, named):
        if target is None:
            waiting = [s for s in controlled if s in asked]
            target = waiting[0] if sender not in asked and len(waiting) == 1 else sender
        parts.append((target, part))
    return parts


def orders_like(table, sender: str, text: str) -> bool:
    """Does this text hold an order, or a line close to one, for the sender or the seats
    whose orders it gives, asked now or not?

    The game reads it for each of them: a line it accepts, or refuses as anything
    but a remark (chat), is an order or close to one.
    """
    if not text.strip():
        return False
    parts = order_parts(table, sender, text) if controller(table, sender) == sender \
        else [(sender, text)]
    for target, part in parts:
        _orders, errors, part, _remarks = read_orders(table, target, part, led=False)
        if usable_lines(part, errors) or any(e.text and not e.remark for e in errors):
            return True
    return False


def take_orders(referee, table, sender: str, target: str, orders_text: str, now: str,
                answer: Answer, names: set[str] = frozenset()) -> None:
    """Read order lines for a seat; record them when at least one of them can be used.

    A signature under the orders (see reading.signature) is left out, as ignored
    lines rather than errors, and so are remarks (chat between the orders, see
    spelling.aside): neither ever holds the turn up.
    """
    eng = table.state["engine"]
    lead = "" if target == sender else _("For {seat}: ").format(seat=target)
    if target in eng.get("conceded", []):
        players.note_conceded(referee, table, sender, target, answer)
        return
    if target not in eng["requests"]:
        waiting = ", ".join(engine.waiting_for(table.game, table.state, sender)) or (
            _("others") if engine.private_requests(table.game, table.state) else _("nobody"))
        note = nothing_asked(table, sender, target, orders_text)
        answer.notes.append(lead + note.format(seat=target, seats=waiting))
        answer.told_waiting |= target == sender
        return
    orders, errors, orders_text, beside = read_orders(table, target, orders_text)
    orders_text, errors = without_signature(orders_text, errors, names, answer)
    orders, orders_text, errors = without_remarks(table, target, orders, orders_text, errors,
                                                  answer, beside)
    before = orders_text
    merged = keeping_others if getattr(table.game, "order_keys", None) else completing
    orders, orders_text, errors = merged(referee, table, target, orders, orders_text, errors)
    answer.errors += list(errors)
    if not usable_lines(orders_text, errors):
        kept = table.orders_on_file(target)
        if errors:
            said = _("None of your lines could be used, so your orders on file are "
                     "unchanged.") if kept else _("None of your lines could be used, so I "
                                                  "still have no orders from you for this "
                                                  "turn.")
        else:
            said = _("Your mail holds no orders, only remarks (below), so your orders on file "
                     "are unchanged.") if kept else _("Your mail holds no orders, only "
                                                      "remarks (below), so I still have no "
                                                      "orders from you for this turn.")
        answer.notes.append(lead + said)
        answer.on_file += [lead + line for line in kept or []]
        return
    answer.understood += [lead + line for line in
                          table.game.describe_orders(table.state["game"], target, orders)]
    referee.store_orders(table.game_row["id"], target, table, orders, now, orders_text, errors)
    answer.recorded = True
    chain = referee.store.game(table.game_row["id"])
    answer.receipts.append({"seat": target, "sha256": receipt(orders_text),
                            "text": receipt_text(orders_text), "seq": chain["last_seq"],
                            "chain": chain["last_hash"]})
    answer.notes.insert(0, lead + (_("Orders received, with errors (see below).") if errors
                                   else _("Orders received; they replace any you sent before "
                                          "for this turn.") if orders_text == before else
                                   _("Orders received; each replaces your order on file for "
                                     "the same unit, and your other orders stand: the whole "
                                     "set is below.") if merged is keeping_others else
                                   _("Orders received. Your orders on file had lines I could "
                                     "not accept, and this mail gives none of the others "
                                     "again: I kept those I had accepted, with these. To "
                                     "replace them all, send the whole set again.")))


def nothing_asked(table, sender: str, target: str, orders_text: str) -> str:
    """What a seat asked nothing now is told of its mail (with {seat} and {seats} to fill):
    that chat lost nothing, or that orders were not recorded."""
    if target != sender:
        return _("Nothing is asked of {seat} now (waiting for {seats}), so these orders were "
                 "not recorded.")
    if not orders_like(table, sender, orders_text):
        return _("Nothing is asked of you now (waiting for {seats}), and your mail holds no "
                 "orders: nothing in it was lost.")
    return _("Nothing is asked of you now (waiting for {seats}), so these orders were "
             "not recorded.")


def within(parse, reading, order: str) -> bool:
    """Is this reading an order followed by chat the game sets aside, found inside the
    order an earlier reading kept, the words it leaves out of that order chat too
    ("card hrode" in "card hrode - enjoy"; not "A Bud" in "A Bud - Gal", whose "Gal" is
    a province)? Then the line's error is this order's, and the chat a remark."""
    if not (reading.chat and order.startswith(reading.order) and order != reading.order):
        return False
    return set_aside(parse, beyond(order, reading.order))


def extends(parse, reading, order: str) -> bool:
    """Is this reading an order followed by chat the game sets aside, that holds the order
    an earlier reading kept and more words that are no chat ("A Bud - Gal" past "A Bud",
    in "A Bud - Gal sorry for the late orders")? Then the line's error is this longer
    order's, and the chat a remark."""
    if not (reading.chat and reading.order.startswith(order) and reading.order != order):
        return False
    return not set_aside(parse, beyond(reading.order, order))


def beyond(longer: str, shorter: str) -> str:
    """The words an order holds past a shorter one it starts with, without the marks
    between them ("Gal" of "A Bud - Gal" past "A Bud")."""
    return longer[len(shorter):].strip(" -–—:,;")


def set_aside(parse, words: str) -> bool:
    """Does the game, reading these words alone, set them aside as chat?"""
    _orders, errors = parse(words)
    return bool(errors) and all(e.remark for e in errors)


def holds_order(parse, chat: str, order: str) -> bool:
    """Does the chat found after an order hold another order the game accepts ("F Ion - Tun?
    non, F Ion tient")? Then the line says two things, and neither is taken; the same
    order said again ("F Iri - Lvp? Oui, F Iri - Lvp") is the order."""
    said = parse(order)[0]
    for part in [chat] + [words for _chat, words in heads(chat)] + linked_orders(chat):
        orders, errors = parse(part)
        if usable_lines(part, errors) and orders != said:
            return True
    return False


def linked_order(parse, chat: str) -> tuple[str, str] | None:
    """(order, chat) when a clause of the chat tied on by "and" is an order the game
    accepts whole, with chat or nothing around it ("and F Sev - Bla of course, sorry Gus":
    "F Sev - Bla", "of course, sorry Gus"), or None."""
    clauses = [clause.strip() for clause in re.split(r"[,;]", chat)]
    for at, clause in enumerate(clauses):
        words = (unlinked(clause) or "").split()
        for size in range(len(words), 1, -1):
            order = " ".join(words[:size])
            if parse(order)[1]:
                continue
            left = ", ".join(part for part in [*clauses[:at], " ".join(words[size:]),
                                               *clauses[at + 1:]] if part)
            if not left or set_aside(parse, left):
                return order, left
    return None


def with_linked_order(parse, fallback: tuple, number: int) -> tuple | None:
    """A reading (lines, orders, errors, remark) of line `number` as its order and, read
    after the mail's other lines as a pair's second is, the order its chat ties on by "and"
    ("A Mos - Ukr, and F Sev - Bla of course"); None when the chat ties on none the game
    accepts."""
    lines, _orders, _errors, chat = fallback
    second = linked_order(parse, chat)
    if not second:
        return None
    trial = lines + [second[0]]
    again, still = parse("\n".join(trial))
    if any(e.line in (number, len(trial)) for e in still):
        return None
    return trial, again, still, second[1]


def linked_orders(chat: str) -> list[str]:
    """The words a clause of chat tied on by "and" may open with, each length of them:
    an order with chat after it ("A Mos - Ukr, and F Sev - Bla of course")."""
    found = []
    for clause in re.split(r"[,;]", chat):
        rest = unlinked(clause.strip())
        if rest:
            words = rest.split()
            found += [" ".join(words[:size]) for size in range(len(words), 1, -1)]
    return found


def completing(referee, table, target: str, orders, text: str, errors) -> tuple:
    """(orders, text, errors) of a mail that corrects the lines refused in the seat's
    orders on file: those it had accepted are kept, the mail's lines in place of the
    refused ones (see :func:`in_place`), else after them.

    A correction is a mail that gives again none of the lines accepted before
    ("Sorry, Lvp of course: A Lvp - Yor" after "A Lpl - Yor" was refused), and
    the game reads both together with no more errors than the mail alone. A mail
    that repeats an accepted line is a whole new set and replaces the old.
    """
    sub = referee.current_submission(table.game_row["id"], target,
                                     table.state["engine"]["phase"])
    if sub is None:
        return orders, text, errors
    refused = {e["line"] for e in json.loads(sub["errors"]) if not e.get("remark")}
    kept = [line for number, line in enumerate(sub["text"].splitlines(), start=1)
            if line.strip() and number not in refused]
    bad = {e.line for e in errors}
    given = [line for number, line in enumerate(text.splitlines(), start=1)
             if line.strip() and number not in bad]
    written = [line for line in text.splitlines() if line.strip()]
    if not refused or not kept or not written or {same(line) for line in written} & \
            {same(line) for line in kept}:
        return orders, text, errors
    # a line refused alone may be right in its place ("+ renounce dacia" after its play)
    tries = [in_place(sub["text"], refused, text)] + \
        (["\n".join(text.splitlines() + [""] + kept)] if given else [])
    for joined in tries:
        again, still = table.game.parse(table.state["game"], target, joined)
        if len(still) <= len(errors):
            return again, joined, still
    return orders, text, errors


def keeping_others(referee, table, target: str, orders, text: str, errors) -> tuple:
    """(orders, text, errors) of a mail in a game that keeps the orders on file for what a
    new mail does not order again (its ``order_keys``: the judges' way): each line on file
    that orders something the mail does not, then the mail's lines (which keep their errors
    as read). The mail's lines count first: a line on file that no longer reads after them
    (a build too many) is not kept."""
    sub = referee.current_submission(table.game_row["id"], target,
                                     table.state["engine"]["phase"])
    if sub is None:
        return orders, text, errors
    keys = partial(table.game.order_keys, table.state["game"], target)
    named = {key for found in keys(text).values() for key in found}
    filed = sub["text"].splitlines()
    kept = [filed[number - 1] for number, found in sorted(keys(sub["text"]).items())
            if not named.intersection(found)]
    parse, mine = partial(table.game.parse, table.state["game"], target), text.splitlines()
    while kept:
        again, still = parse("\n".join(mine + kept))
        late = {e.line - len(mine) for e in still if e.line > len(mine)}
        if not late:
            written = "\n".join(kept + mine)  # the set as it reads: what stands, then the new
            shown = parse(written)[0]
            if unordered(shown) == unordered(again):
                return shown, written, errors
            return again, "\n".join(mine + kept), errors
        kept = [line for at, line in enumerate(kept, 1) if at not in late]
    return orders, text, errors


def unordered(orders) -> object:
    """A game's orders compared whatever the order of their lists ({power: [order]})."""
    if isinstance(orders, dict):
        return {key: sorted(map(canonical, value)) if isinstance(value, list)
                else canonical(value) for key, value in orders.items()}
    return canonical(orders)


def in_place(filed: str, refused: set, text: str) -> str:
    """The orders on file with the mail's lines where the refused ones stood (one for one
    when it gives as many, else all at the first), after the mail's lines left blank: a
    game whose lines follow each other (a play, then its influence) reads them in their
    place, and the mail's lines keep their numbers."""
    fixes = [line for line in text.splitlines() if line.strip()]
    lines = []
    for number, line in enumerate(filed.splitlines(), start=1):
        if number not in refused:
            lines.append(line)
        elif len(fixes) == len(refused):
            lines.append(fixes[sorted(refused).index(number)])
        elif number == min(refused):
            lines += fixes
    return "\n".join([""] * len(text.splitlines()) + [""] + lines)


def same(line: str) -> str:
    """A line as compared with another: case and spacing aside."""
    return " ".join(line.casefold().split())


READ_AGAIN = 30  # the refused lines of a mail read again the other ways (the first ones)


def tried(parse, lines: list, errors: list, number: int, reading) -> tuple:
    """(lines, orders, errors, remark): the mail with line `number` read as `reading`, a
    second order it gives read after the mail's other lines, to choose a reading: the
    game reads it among the lines it accepts, the others left blank (their errors as
    they were), so that trying each reading of each refused line costs no more in a mail
    of many refused lines. The reading chosen is read again among all the lines (a line
    after it may go with it)."""
    refusing = {e.line for e in errors} - {number}
    also = [reading.also] if reading.also else []
    context = ["" if at in refusing else line for at, line in enumerate(lines, 1)]
    orders, found = parse("\n".join(context[:number - 1] + [reading.order] + context[number:]
                                    + also))
    kept = [e for e in errors if e.line in refusing]
    return (lines[:number - 1] + [reading.order] + lines[number:] + also, orders,
            sorted(found + kept, key=lambda e: e.line), reading.remark)


def read_orders(table, target: str, text: str, led: bool = True) -> tuple:
    """(orders, errors, text, remarks): the game's reading of a seat's order lines, each
    line it refused read again the other ways people write an order (spelling.readings:
    "Then move host Mercia", "recruit levies, if there's any gold left"), and taken so
    when the game accepts it. `remarks` are the words of chat found beside an order:
    (line, words). With `led` False, an order after a sentence ("Agreed. orange: move
    XXX YYY", in a reply to press) counts only when the game accepts it whole.
    """
    parse = partial(table.game.parse, table.state["game"], target)
    text = unbulleted(text)
    orders, errors = parse(text)
    lines, remarks, chat = text.splitlines(), [], set()
    refusals = sorted({e.line: e for e in errors if 0 < e.line <= len(lines)}.values(),
                      key=lambda e: e.line)
    for refused in refusals[:READ_AGAIN]:
        fallback = None  # else: an order the game refuses, with the chat beside it
        written = lines[refused.line - 1]
        for reading in readings(written, refused.remark):
            if reading.led and not led:
                reading = replace(reading, meant=False)
            if reading.chat and not set_aside(parse, reading.remark):
                continue
            trial = tried(parse, lines, errors, refused.line, reading)
            left = [e for e in trial[2] if e.line == refused.line or
                    (reading.also and e.line == len(trial[0]))]
            if not left:
                fallback = trial
                break
            if not reading.also and reading.meant and not any(e.remark for e in left) and \
                    (reading.remark or not reading.strict) and \
                    not introduces(reading.order if reading.led else written) and \
                    (fallback is None or within(parse, reading, fallback[0][refused.line - 1])
                     or extends(parse, reading, fallback[0][refused.line - 1])):
                fallback = trial
        if fallback is not None:  # the reading chosen, read again among all the lines
            fallback = (fallback[0], *parse("\n".join(fallback[0])), fallback[3])
        if fallback is not None and asks(written) and \
                any(e.line == refused.line for e in fallback[2]):
            chat.add(refused.line)  # an order asked and refused, then talk: all talk
        elif fallback is not None and fallback[3] and written.strip().startswith(
                fallback[0][refused.line - 1].strip()) and holds_order(
                    parse, fallback[3], fallback[0][refused.line - 1]):
            paired = with_linked_order(parse, fallback, refused.line)
            if paired:
                lines, orders, errors, remark = paired
                if remark:
                    remarks.append((refused.line, remark))
            else:
                errors = [e for e in errors if e.line != refused.line] + [OrderError(
                    refused.line, written.strip(), _("this line holds two orders, one in its "
                                                     "chat: write each order on a line of "
                                                     "its own"))]
        elif fallback is not None:
            lines, orders, errors, remark = fallback
            if remark:
                remarks.append((refused.line, remark))
        elif introduces(written):
            chat.add(refused.line)
    errors = [as_remark(e) if e.line in chat and not e.remark else e for e in errors]
    return orders, errors, "\n".join(lines), remarks


# The mark of an item in a list, before an order: "- ", "* ", "• ", "1. ", "2) ".
BULLET = re.compile(r"^(\s*)(?:[-*•·–—]|\d{1,2}[.)])\s+(?=\S)")


def unbulleted(text: str) -> str:
    """The text with the marks of a list's items taken off its lines ("* play huns
    moesia": "play huns moesia")."""
    return "\n".join(BULLET.sub(r"\1", line) for line in text.splitlines())


def without_signature(text: str, errors, names: set[str], answer: Answer) -> tuple:
    """(text, errors) with the signature's lines blanked and their errors dropped; the
    lines go to the answer's ignored ones."""
    if any(not e.text for e in errors):
        return text, errors
    signed = signature(text, {e.line for e in errors}, names)
    if not signed:
        return text, errors
    lines = text.splitlines()
    answer.ignored += [lines[number - 1].strip() for number in signed]
    return blanked(text, signed), [e for e in errors if e.line not in signed]


def without_remarks(table, target: str, orders, text: str, errors, answer: Answer,
                    beside=()) -> tuple:
    """(orders, text, errors) with the remarks set aside: their lines blanked and listed in
    the answer with the chat found beside orders (`beside`: (line, words)), the game
    reading the rest again.

    A remark whose first word is a mistyped mail command (REDAY) is an error
    that says which command, not a remark.
    """
    aside = {e.line: e for e in errors if e.remark}
    typos, listed = [], list(beside)
    for number, remark in sorted(aside.items()):
        command = mistyped_command(remark.text)
        if command:
            typos.append(OrderError(number, remark.text, _(
                "I do not understand {word!r}; did you mean {command}?").format(
                    word=remark.text.split()[0], command=shown(command, current()))))
        else:
            listed.append((number, remark.text))
    answer.remarks += [_("line {line}: {message}").format(line=number, message=words)
                       for number, words in sorted(listed)]
    if not aside:
        return orders, text, errors
    text = blanked(text, set(aside))
    read_first = {e.line: e for e in errors if not e.remark}  # read_orders' own answers
    orders, errors = table.game.parse(table.state["game"], target, text)
    errors = [read_first.get(e.line, e) for e in errors]
    return orders, text, sorted(errors + typos, key=lambda e: e.line)


def blanked(text: str, numbers) -> str:
    """The text with the lines of these numbers (from 1) left empty."""
    return "\n".join("" if number in numbers else line
                     for number, line in enumerate(text.splitlines(), start=1))


def usable_lines(text: str, errors) -> int:
    """How many written lines the game accepted (none when an error concerns the whole mail)."""
    if any(not e.text for e in errors):
        return 0
    refused = {e.line for e in errors}
    return sum(1 for number, line in enumerate(text.splitlines(), start=1)
               if line.strip() and number not in refused)


@dataclass
class Mail:
    """A seat's mail being acted on: where, from whom, when, and the answer so far."""

    referee: object
    table: object
    seat: dict
    now: str
    answer: Answer
    incoming: object = None


# The commands acted on before a mail's orders: how its answer is written, and CLEAR, after
# which the mail's orders are a new set.
BEFORE_ORDERS = (*SETTINGS, "clear")


def run_commands(mail: Mail, commands: list) -> None:
    """Act on each command of a mail, in the order written (each at most once)."""
    done = set()
    for command in commands:
        if command.name not in done:
            done.add(command.name)
            COMMAND_HANDLERS[command.name](mail, command)


def wait_command(mail: Mail, command) -> None:
    """WAIT: no early resolution of this phase."""
    mail.referee.store.update("seats", {"game": mail.table.game_row["id"],
                                        "name": mail.seat["name"]},
                              {"wait_phase": mail.table.state["engine"]["phase"]})
    mail.answer.notes.append(_("WAIT noted: this turn will not be resolved before its "
                               "deadline unless you send READY."))


def clear_command(mail: Mail, command) -> None:
    """CLEAR: withdraw every order the seat has on file for the open phase, and a READY;
    orders in the same mail are a new set."""
    table = mail.table
    mail.referee.store.update("seats", {"game": table.game_row["id"], "name": mail.seat["name"]},
                              {"ready_phase": 0})
    with speaking(mail.seat["lang"]):
        if mail.seat["name"] not in table.state["engine"]["requests"]:
            said = _("Nothing is asked of you now, so you have no orders to clear.")
        elif mail.referee.withdraw_orders(table.game_row["id"], mail.seat["name"],
                                          table.state["engine"]["phase"]):
            said = _("CLEAR noted: your orders on file for this turn are withdrawn. Send new "
                     "ones before the deadline, or your default orders count.")
        else:
            said = _("CLEAR noted: you had no orders on file for this turn.")
    mail.answer.notes.append(said)


def ready_command(mail: Mail, command) -> None:
    """READY: the orders on file (or none) are final."""
    store, game_id = mail.referee.store, mail.table.game_row["id"]
    store.update("seats", {"game": game_id, "name": mail.seat["name"]},
                 {"ready_phase": mail.table.state["engine"]["phase"], "wait_phase": 0})
    store.update("games", {"id": game_id}, {"dirty": 1})
    mail.answer.notes.append(_("READY noted: your orders for this turn are final."))
    if not mail.answer.recorded:
        mail.answer.on_file = mail.table.orders_on_file(mail.seat["name"]) or []


def slow_command(mail: Mail, command) -> None:
    """SLOW: more time for this turn, in chrono games, once per seat."""
    event = engine.extension(mail.table.state, mail.seat["name"])
    if event is None:
        mail.answer.notes.append(_("SLOW is not possible now (not a chrono game, already "
                                   "used, or nothing asked of you)."))
        return
    mail.table = mail.referee.record(mail.table, [event], mail.now)
    mail.answer.notes.append(_("SLOW: this turn's deadline is now {when}.").format(
        when=format_date(event.payload["deadline"], mail.seat["tz"])))


def help_command(mail: Mail, command) -> None:
    """HELP: the order syntax and the mail commands, in the language of the word used."""
    letters.help_mail(mail.table, mail.seat, mail.incoming, mail.now, lang=command.lang)


def language_command(mail: Mail, command) -> None:
    """LANGUAGE en / LANGUE fr: this seat's mail in that language from now on (this answer too)."""
    try:
        mail.seat = seats.choose_language(mail.referee.store, mail.table.game_row["id"],
                                          mail.seat["name"], " ".join(command.args))
    except PbemError:
        with speaking(mail.seat["lang"]):
            mail.answer.notes.append(_("I do not know the language {word!r}; write LANGUAGE en "
                                       "or LANGUE fr.").format(word=" ".join(command.args)))
        return
    with speaking(mail.seat["lang"]):
        mail.answer.notes.append(_("From now on your mail from this game is in English."))


def timezone_command(mail: Mail, command) -> None:
    """TZ Europe/Paris / FUSEAU Europe/Paris: this seat's times shown in that zone."""
    zone = " ".join(command.args)
    try:
        mail.seat = seats.choose_timezone(mail.referee.store, mail.table.game_row["id"],
                                          mail.seat["name"], zone)
    except PbemError:
        with speaking(mail.seat["lang"]):
            mail.answer.notes.append(_("I do not know the time zone {zone!r}; write for example "
                                       "TZ Europe/Paris or TZ America/Montreal.").format(
                                           zone=zone))
        return
    with speaking(mail.seat["lang"]):
        mail.answer.notes.append(_("From now on your times are shown in {zone}.").format(
            zone=mail.seat["tz"]))


def status_command(mail: Mail, command) -> None:
    """STATUS: the seat's view, again."""
    letters.status(mail.table, mail.seat, mail.incoming, mail.now)


COMMAND_HANDLERS = {"wait": wait_command, "ready": ready_command, "slow": slow_command,
                    "clear": clear_command,
                    "help": help_command, "status": status_command,
                    "language": language_command, "timezone": timezone_command,
                    "press": players.press_command, "absence": players.absence_command,
                    "history": players.history_command, "draw": players.draw_command,
                    "concede": players.concede_command}


def outcome(recorded: bool, has_orders: bool, commands: list[str], errors,
            remarks: int = 0) -> str:
    """What a seat's mail did, in a few words for the inbox log."""
    if remarks and not recorded and not errors:
        said = f"no orders: {counted(remarks, 'remark')} set aside"
    elif recorded:
        said = f"orders recorded with {counted(len(errors), 'error')}" if errors else "orders recorded"
    elif has_orders and errors:
        said = f"orders not recorded: no line could be used ({counted(len(errors), 'error')})"
    elif has_orders:
        said = "orders not recorded: nothing asked of this seat"
    else:
        said = "" if commands else "no orders found"
    if remarks and (recorded or errors):
        said += f"; {counted(remarks, 'remark')} set aside"
    if commands:
        said += ("; " if said else "") + "commands " + ", ".join(commands)
    return said


def held(store: Store, every: bool = False) -> list[dict]:
    """Inbox rows that were not simply handled (all rows with every), newest first."""
    where = "" if every else "WHERE status NOT IN ('done', 'new')"
    return store.all(f"SELECT id, received_at, source, sender, message_id, status, reason, "
                     f"game, seat, size FROM inbox {where} ORDER BY id DESC")


def release(store: Store, ids) -> int:
    """Put quarantined, rejected, ignored or failed mails back for the next tick."""
    count = 0
    with store.transaction():
        for row_id in ids:
            count += store.execute(
                "UPDATE inbox SET status = 'new', reason = ? "
                "WHERE id = ? AND status NOT IN ('new', 'done')", [RELEASED, row_id]).rowcount
    return count


def submit(referee, game_id: str, seat_name: str, text: str, now: str) -> dict:
    """The referee types a seat's mail in: the same path as a mail, without the token."""
    now = iso(parse_time(now))
    with referee.store.transaction():
        table = referee.table(game_id)
        seat = referee.store.existing_seat(game_id, seat_name)
        if table.state["engine"]["over"]:
            raise PbemError(f"game {game_id} is over")
        return take(referee, table, seat, text, now)
