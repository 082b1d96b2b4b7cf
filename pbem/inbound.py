"""From a stored mail to its answer: identity, commands, orders.

Each inbox row is handled in one transaction that records what the mail
changed, queues its answer and marks the row. Every path ends in a status
with a reason: done (answered), rejected (answered, nothing changed), ignored
(automatic mail, or a stranger already answered today), quarantined (over the
rate limit, or too large), duplicate, bounce, or failed (a bug; the referee is
told).
"""

from dataclasses import dataclass, field
from datetime import timedelta
import json

from . import letters
from .adjudicator import engine
from .errors import PbemError
from .identity import claim, subject_tag, token_matches
from .mail.parse import Incoming, read
from .reading import read_text, sections, sender_names
from .store import Store, raw_digest
from .timeutil import iso, parse_time

STRANGER_QUIET = timedelta(days=1)
RATE_WINDOW = timedelta(hours=1)
RELEASED = "released by the referee"


def ingest(store: Store, raw: bytes, source: str, now: str, **where) -> int:
    """Store a raw mail in the inbox, before anything else happens to it; return its id."""
    with store.transaction():
        return store_raw(store, raw, source, now, **where)


def store_raw(store: Store, raw: bytes, source: str, now: str, **where) -> int:
    """Insert one inbox row inside the caller's transaction."""
    head = read(raw, headers_only=True)
    return store.insert("inbox", {
        "message_id": head.message_id or None, "source": source, "received_at": now,
        "raw": raw, "size": len(raw), "digest": raw_digest(raw), "sender": head.sender or None,
        "status": "new", **where,
    })


def process_inbox(referee, now: str) -> int:
    """Handle every new inbox row, oldest first; return how many were handled."""
    store = referee.store
    count = 0
    last = 0
    while True:
        row = store.one("SELECT id FROM inbox WHERE status = 'new' AND id > ? ORDER BY id LIMIT 1",
                        [last])
        if row is None:
            return count
        last = row["id"]
        try:
            with store.transaction():
                full = store.one("SELECT * FROM inbox WHERE id = ? AND status = 'new'", [last])
                if full is None:
                    continue
                status, reason, game, seat = handle(referee, full, now)
                store.update("inbox", {"id": last}, {"status": status, "reason": reason,
                                                     "game": game, "seat": seat})
        except Exception as problem:  # a bug must not stop the tick or lose the mail
            with store.transaction():
                store.update("inbox", {"id": last}, {
                    "status": "failed", "reason": f"{type(problem).__name__}: {problem}"})
                letters.notice(referee, referee.config["referee"], f"mail {last} could not be handled",
                               [f"Inbox row {last} raised {type(problem).__name__}: {problem}. "
                                "The mail is kept; nothing in any game changed."], now)
        count += 1


def handle(referee, row: dict, now: str):
    """(status, reason, game, seat) for one inbox row, queuing whatever answer it needs.

    A mail over the size limit is read for its headers only (answered briefly,
    never parsed). Then, in order: a replayed Message-ID, an automatic mail
    (never answered; a delivery failure marks its seats), a sender over the
    hourly allowance; only then is the mail routed.
    """
    config = referee.config
    too_large = row["size"] > config["mail"]["max_bytes"]
    head = read(row["raw"], headers_only=too_large)
    if duplicate(referee.store, head, row["id"]):
        return "duplicate", f"Message-ID {head.message_id} already handled", None, None
    if head.automatic:
        if head.bounced:
            return bounce(referee, head, now)
        return "ignored", f"automatic mail: {head.automatic}", None, None
    if row["reason"] != RELEASED and flooding(referee, head.sender, row["received_at"] or now):
        return "quarantined", (f"rate limit: more than {config['mail']['rate_per_hour']} "
                               f"mails in an hour from {head.sender}"), None, None
    if too_large:
        answered = oversize(referee, head, row["size"], now)
        reason = f"too large: {row['size']} bytes, over {config['mail']['max_bytes']}"
        return "quarantined", reason + ("" if answered else ", not answered again"), None, None
    return route(referee, head, now)


def duplicate(store: Store, head: Incoming, row_id: int) -> bool:
    """Was a mail with this Message-ID already handled (failed ones may be tried again)?"""
    return bool(head.message_id) and store.one(
        "SELECT id FROM inbox WHERE message_id = ? AND id < ? AND status NOT IN ('new', 'failed')",
        [head.message_id, row_id]) is not None


def flooding(referee, sender: str, moment: str) -> bool:
    """Count this mail against its sender's hourly allowance; True when over it."""
    store = referee.store
    row = store.one("SELECT * FROM senders WHERE address = ?", [sender])
    if row is None:
        store.insert("senders", {"address": sender, "window_start": moment, "count": 1})
        return False
    if parse_time(moment) - parse_time(row["window_start"]) >= RATE_WINDOW:
        store.update("senders", {"address": sender}, {"window_start": moment, "count": 1})
        return False
    store.update("senders", {"address": sender}, {"count": row["count"] + 1})
    return row["count"] + 1 > referee.config["mail"]["rate_per_hour"]


def oversize(referee, head: Incoming, size: int, now: str) -> bool:
    """Tell the sender a mail was too large to read (strangers once a day); True if told."""
    limit = referee.config["mail"]["max_bytes"]
    notes = [f"Your mail \"{head.subject}\" is {size} bytes, over this referee's limit of "
             f"{limit} bytes, so it was not read and changed nothing. Send your orders as "
             "plain text, without attachments."]
    if referee.store.one("SELECT 1 FROM seats WHERE email = ? LIMIT 1", [head.sender]):
        letters.notice(referee, head.sender, "your mail was too large", notes, now,
                       incoming=head)
        return True
    return stranger(referee, head, "your mail was too large", notes, now)


def bounce(referee, incoming: Incoming, now: str):
    """A delivery failure: mark the seats at that address as bouncing and tell the referee."""
    store = referee.store
    hit = []
    for address in incoming.bounced:
        for seat in store.all("SELECT game, name FROM seats WHERE email = ?", [address]):
            store.update("seats", {"game": seat["game"], "name": seat["name"]}, {"bouncing": 1})
            hit.append(f"{seat['name']} in game {seat['game']} ({address})")
    if hit:
        letters.notice(referee, referee.config["referee"], "mail to a player bounced", [
            "Mail to these seats could not be delivered: " + "; ".join(hit) + ".",
            "Their games go on; silent seats get default orders at each deadline. "
            "Check the address with the player."], now)
        return "bounce", "delivery failed for " + "; ".join(hit), None, None
    return "bounce", "delivery failed for " + ", ".join(incoming.bounced) + " (no seat)", \
        None, None


def stranger(referee, incoming: Incoming, headline: str, notes, now: str) -> bool:
    """Answer someone who is not (or not provably) a seat, at most once a day; True if sent."""
    store = referee.store
    row = store.one("SELECT last_stranger_reply FROM senders WHERE address = ?",
                    [incoming.sender])
    last = row["last_stranger_reply"] if row else None
    if last and parse_time(now) - parse_time(last) < STRANGER_QUIET:
        return False
    store.db.execute(
        "INSERT INTO senders (address, window_start, count, last_stranger_reply) "
        "VALUES (?, ?, 0, ?) ON CONFLICT(address) DO UPDATE SET last_stranger_reply = ?",
        [incoming.sender, now, now, now])
    letters.notice(referee, incoming.sender, headline, notes, now, incoming=incoming)
    return True


def refused(answered: bool, reason: str, game=None, seat=None):
    """The status of a mail pbem refuses: answered once a day, else only recorded."""
    if answered:
        return "rejected", reason, game, seat
    return "ignored", reason + " (already answered in the last day)", game, seat


def route(referee, incoming: Incoming, now: str):
    """Match the mail to a game and a seat by token and address, then act on it."""
    store, config = referee.store, referee.config
    found = claim(incoming.subject, incoming.recipients, config["address"])
    if found.game is None or store.game(found.game) is None:
        what = f"no game called {found.game!r}" if found.game else "no game tag"
        answered = stranger(referee, incoming, "I could not tell which game your mail is for", [
            f"Your mail \"{incoming.subject}\" has {what} in its subject.",
            "To send orders, reply to the last mail you received from your game, keeping the "
            "tag [pbem GAME #code] in the subject. If you do not play a game here, you can "
            "ignore this message."], now)
        return refused(answered, what, found.game)
    seats = store.all("SELECT * FROM seats WHERE game = ? AND email = ? ORDER BY position",
                      [found.game, incoming.sender])
    if not seats:
        answered = stranger(referee, incoming, f"you are not a player of game {found.game}", [
            f"Game {found.game} has no seat for {incoming.sender}, so your mail changed nothing. "
            "If you play under another address, write from that one."], now)
        return refused(answered, "sender is not a seat", found.game)
    seat = next((s for s in seats if token_matches(s["token"], found.tokens)), None)
    if seat is None:
        return wrong_token(referee, incoming, found, seats[0], now)
    if seat["bouncing"]:
        store.update("seats", {"game": found.game, "name": seat["name"]}, {"bouncing": 0})
    table = referee.table(found.game)
    if table.state["engine"]["over"]:
        letters.answer(table, seat, incoming, "this game is over", now,
                       notes=["This game is over; your mail changed nothing."])
        return "done", "game over", found.game, seat["name"]
    result = take(referee, table, seat, incoming.text, now, incoming)
    return "done", result["outcome"], found.game, seat["name"]


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
    letters.answer(table, seat, incoming, "your mail was not accepted", now, notes=[
        "Your mail carries a code that is not yours." if stolen else
        "Your mail carries no valid code for your seat.",
        "Nothing changed. To send orders, reply to a mail from this game: its reply "
        f"address and the tag {subject_tag(found.game, seat['token'])} in its subject "
        "carry your code.",
    ])
    return "rejected", reason, found.game, seat["name"]


@dataclass
class Answer:
    """What pbem says back to a seat's mail."""

    notes: list = field(default_factory=list)
    understood: list = field(default_factory=list)
    errors: list = field(default_factory=list)
    ignored: list = field(default_factory=list)
    on_file: list = field(default_factory=list)
    recorded: bool = False


def take(referee, table, seat: dict, text: str, now: str, incoming=None) -> dict:
    """Act on a seat's text (commands and orders) and answer it; return what was understood.

    Commands and orders are independent: a command never touches the orders on
    file, and a mail replaces them only when at least one of its lines is an
    order the game accepts. A seat that gives the orders of others (a vassal's
    overlord) may head a part of its mail "for SEAT:"; without it, its orders
    go to the one seat it controls that is asked, when it is not asked itself.
    """
    names = sender_names(seat["name"], incoming.sender_name if incoming else "")
    reading = read_text(text, names)
    answer = Answer(ignored=[line for _, line in reading.ignored])
    if reading.has_orders:
        for target, part in order_parts(table, seat["name"], reading.orders_text, answer):
            take_orders(referee, table, seat["name"], target, part, now, answer)
    elif not reading.commands:
        answer.notes.append("I found no orders in your mail. Write them as the first lines of "
                            "your reply, one per line; send HELP for the syntax.")
    mail = Mail(referee, table, seat, now, answer, incoming)
    run_commands(mail, reading.commands)
    table = mail.table
    if answer.notes or answer.understood or answer.errors:
        headline = ("orders received, with errors" if answer.errors else "orders received") \
            if answer.recorded else "noted"
        letters.answer(table, seat, incoming, headline, now, notes=answer.notes,
                       understood=answer.understood, errors=answer.errors,
                       ignored=answer.ignored, on_file=answer.on_file)
    return {"notes": answer.notes, "understood": answer.understood,
            "errors": [str(e) for e in answer.errors], "ignored": answer.ignored,
            "on_file": answer.on_file,
            "outcome": outcome(answer.recorded, reading.has_orders, reading.names,
                               answer.errors)}


def controller(table, seat: str) -> str:
    """The seat whose mails give this seat's orders (itself, unless the game says otherwise)."""
    ruler = getattr(table.game, "controller", None)
    return (ruler(table.state["game"], seat) if ruler else None) or seat


def order_parts(table, sender: str, text: str, answer: Answer) -> list[tuple]:
    """[(target seat, its order text)] for a mail's orders, by who controls whom."""
    ruler = controller(table, sender)
    if ruler != sender:
        answer.notes.append(f"Your orders are given by {ruler} now, so these were not "
                            "recorded. You still get your own reports.")
        return []
    seats = [s for s in table.state["engine"]["seats"] if s != sender]
    controlled = [s for s in seats if controller(table, s) == sender]
    asked = table.state["engine"]["requests"]
    parts = []
    for target, part in sections(text, controlled):
        if target is None:
            waiting = [s for s in controlled if s in asked]
            target = waiting[0] if sender not in asked and len(waiting) == 1 else sender
        parts.append((target, part))
    return parts


def take_orders(referee, table, sender: str, target: str, orders_text: str, now: str,
                answer: Answer) -> None:
    """Read order lines for a seat; record them when at least one of them can be used."""
    eng = table.state["engine"]
    lead = "" if target == sender else f"For {target}: "
    if target not in eng["requests"]:
        waiting = ", ".join(engine.waiting_for(table.game, table.state, sender)) or "nobody"
        whom = "you" if target == sender else target
        answer.notes.append(f"{lead}Nothing is asked of {whom} now (waiting for {waiting}), "
                            "so these orders were not recorded.")
        return
    orders, errors = table.game.parse(table.state["game"], target, orders_text)
    answer.errors += list(errors)
    if not usable_lines(orders_text, errors):
        kept = orders_on_file(referee, table, target)
        answer.notes.append(lead + (
            "None of your lines could be used, so your orders on file are unchanged."
            if kept else "None of your lines could be used, so I still have no orders from "
            "you for this turn."))
        answer.on_file += [lead + line for line in kept or []]
        return
    answer.understood += [lead + line for line in
                          table.game.describe_orders(table.state["game"], target, orders)]
    referee.store_orders(table.game_row["id"], target, table, orders, now, orders_text, errors)
    answer.recorded = True
    answer.notes.insert(0, lead + ("Orders received; they replace any you sent before for "
                                   "this turn." if not errors else
                                   "Orders received, with errors (see below)."))


def usable_lines(text: str, errors) -> int:
    """How many written lines the game accepted (none when an error concerns the whole mail)."""
    if any(not e.text for e in errors):
        return 0
    refused = {e.line for e in errors}
    return sum(1 for number, line in enumerate(text.splitlines(), start=1)
               if line.strip() and number not in refused)


def orders_on_file(referee, table, seat: str) -> list[str] | None:
    """The seat's orders for the open phase, in words; None when it has sent none."""
    sub = referee.current_submission(table.game_row["id"], seat, table.state["engine"]["phase"])
    if sub is None:
        return None
    return table.game.describe_orders(table.state["game"], seat, json.loads(sub["orders"]))


@dataclass
class Mail:
    """A seat's mail being acted on: where, from whom, when, and the answer so far."""

    referee: object
    table: object
    seat: dict
    now: str
    answer: Answer
    incoming: object = None


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
    mail.answer.notes.append("WAIT noted: this turn will not be resolved before its deadline "
                             "unless you send READY.")


def ready_command(mail: Mail, command) -> None:
    """READY: the orders on file (or none) are final."""
    store, game_id = mail.referee.store, mail.table.game_row["id"]
    store.update("seats", {"game": game_id, "name": mail.seat["name"]},
                 {"ready_phase": mail.table.state["engine"]["phase"], "wait_phase": 0})
    store.update("games", {"id": game_id}, {"dirty": 1})
    mail.answer.notes.append("READY noted: your orders for this turn are final.")
    if not mail.answer.recorded:
        mail.answer.on_file = orders_on_file(mail.referee, mail.table, mail.seat["name"]) or []


def slow_command(mail: Mail, command) -> None:
    """SLOW: more time for this turn, in chrono games, once per seat."""
    event = engine.extension(mail.table.state, mail.seat["name"])
    if event is None:
        mail.answer.notes.append("SLOW is not possible now (not a chrono game, already used, "
                                 "or nothing asked of you).")
        return
    mail.table = mail.referee.record(mail.table, [event], mail.now)
    mail.answer.notes.append("SLOW: this turn's deadline is now "
                             f"{event.payload['deadline']} (UTC).")


def help_command(mail: Mail, command) -> None:
    """HELP: the order syntax and the mail commands."""
    letters.help_mail(mail.table, mail.seat, mail.incoming, mail.now)


def status_command(mail: Mail, command) -> None:
    """STATUS: the seat's view, again."""
    letters.status(mail.table, mail.seat, mail.incoming, mail.now)


COMMAND_HANDLERS = {"wait": wait_command, "ready": ready_command, "slow": slow_command,
                    "help": help_command, "status": status_command}


def outcome(recorded: bool, has_orders: bool, commands: list[str], errors) -> str:
    """What a seat's mail did, in a few words for the inbox log."""
    if recorded:
        said = f"orders recorded with {len(errors)} error(s)" if errors else "orders recorded"
    elif has_orders and errors:
        said = f"orders not recorded: no line could be used ({len(errors)} error(s))"
    elif has_orders:
        said = "orders not recorded: nothing asked of this seat"
    else:
        said = "" if commands else "no orders found"
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
            count += store.db.execute(
                "UPDATE inbox SET status = 'new', reason = ? "
                "WHERE id = ? AND status NOT IN ('new', 'done')", [RELEASED, row_id]).rowcount
    return count


def submit(referee, game_id: str, seat_name: str, text: str, now: str) -> dict:
    """The referee types a seat's mail in: the same path as a mail, without the token."""
    now = iso(parse_time(now))
    with referee.store.transaction():
        table = referee.table(game_id)
        seat = referee.store.seat(game_id, seat_name)
        if seat is None:
            raise PbemError(f"game {game_id} has no seat called {seat_name!r}")
        if table.state["engine"]["over"]:
            raise PbemError(f"game {game_id} is over")
        return take(referee, table, seat, text, now)
