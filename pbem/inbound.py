"""From a stored mail to its answer: identity, commands, orders.

Each inbox row is handled in one transaction that records what the mail
changed, queues its answer and marks the row. Every path ends in an answer or
in a status with a reason (automatic mail, bounce, duplicate, flood, too big).
"""

from datetime import timedelta
import json

from . import letters
from .adjudicator import engine
from .errors import PbemError
from .identity import claim, subject_tag, token_matches
from .mail.parse import Incoming, read
from .store import Store
from .timeutil import iso, parse_time

COMMANDS = {
    "help": "help", "aide": "help", "?": "help",
    "status": "status", "etat": "status", "état": "status",
    "wait": "wait", "attends": "wait", "attendre": "wait",
    "ready": "ready", "pret": "ready", "prêt": "ready",
    "slow": "slow", "lent": "slow",
}
STRANGER_QUIET = timedelta(days=1)
RATE_WINDOW = timedelta(hours=1)


def ingest(store: Store, raw: bytes, source: str, now: str, **where) -> int:
    """Store a raw mail in the inbox, before anything else happens to it; return its id."""
    with store.transaction():
        return store_raw(store, raw, source, now, **where)


def store_raw(store: Store, raw: bytes, source: str, now: str, **where) -> int:
    """Insert one inbox row inside the caller's transaction."""
    head = read(raw, headers_only=True)
    return store.insert("inbox", {
        "message_id": head.message_id or None, "source": source, "received_at": now,
        "raw": raw, "size": len(raw), "sender": head.sender or None, "status": "new", **where,
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
    """(status, reason, game, seat) for one inbox row, queuing whatever answer it needs."""
    config = referee.config
    if row["size"] > config["mail"]["max_bytes"]:
        head = read(row["raw"], headers_only=True)
        if not head.automatic and head.sender:
            letters.notice(referee, head.sender, "your mail was too large", [
                f"Your mail of {row['size']} bytes is over this referee's limit of "
                f"{config['mail']['max_bytes']} bytes, so it was not read. Send your orders "
                "as plain text, without attachments."], now, incoming=head)
        return "quarantined", "too large", None, None
    incoming = read(row["raw"])
    if incoming.bounced:
        return bounce(referee, incoming, now)
    if incoming.automatic:
        return "ignored", incoming.automatic, None, None
    if incoming.message_id and referee.store.one(
            "SELECT id FROM inbox WHERE message_id = ? AND id < ? AND status != 'new'",
            [incoming.message_id, row["id"]]):
        return "duplicate", f"Message-ID {incoming.message_id} already handled", None, None
    if flooding(referee, incoming.sender, now):
        return "quarantined", "rate limit", None, None
    return route(referee, incoming, now)


def flooding(referee, sender: str, now: str) -> bool:
    """Count this mail against its sender's hourly allowance; True when over it."""
    store = referee.store
    row = store.one("SELECT * FROM senders WHERE address = ?", [sender])
    moment = parse_time(now)
    if row is None:
        store.insert("senders", {"address": sender, "window_start": now, "count": 1})
        return False
    if moment - parse_time(row["window_start"]) >= RATE_WINDOW:
        store.update("senders", {"address": sender}, {"window_start": now, "count": 1})
        return False
    store.update("senders", {"address": sender}, {"count": row["count"] + 1})
    return row["count"] + 1 > referee.config["mail"]["rate_per_hour"]


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
    return "bounce", ", ".join(incoming.bounced), None, None


def stranger(referee, incoming: Incoming, headline: str, notes, now: str) -> None:
    """Answer someone who is not a seat, at most once a day."""
    store = referee.store
    row = store.one("SELECT last_stranger_reply FROM senders WHERE address = ?",
                    [incoming.sender])
    last = row["last_stranger_reply"] if row else None
    if last and parse_time(now) - parse_time(last) < STRANGER_QUIET:
        return
    store.update("senders", {"address": incoming.sender}, {"last_stranger_reply": now})
    letters.notice(referee, incoming.sender, headline, notes, now, incoming=incoming)


def route(referee, incoming: Incoming, now: str):
    """Match the mail to a game and a seat by token and address, then act on it."""
    store, config = referee.store, referee.config
    found = claim(incoming.subject, incoming.recipients, config["address"])
    if found.game is None or store.game(found.game) is None:
        what = f"no game called {found.game!r}" if found.game else "no game tag"
        stranger(referee, incoming, "I could not tell which game your mail is for", [
            f"Your mail \"{incoming.subject}\" has {what} in its subject.",
            "To send orders, reply to the last mail you received from your game, keeping the "
            "tag [pbem GAME #code] in the subject. If you do not play a game here, you can "
            "ignore this message."], now)
        return "rejected", what, found.game, None
    seats = store.all("SELECT * FROM seats WHERE game = ? AND email = ? ORDER BY position",
                      [found.game, incoming.sender])
    if not seats:
        stranger(referee, incoming, f"you are not a player of game {found.game}", [
            f"Game {found.game} has no seat for {incoming.sender}, so your mail changed nothing. "
            "If you play under another address, write from that one."], now)
        return "rejected", "sender is not a seat", found.game, None
    seat = next((s for s in seats if token_matches(s["token"], found.tokens)), None)
    if seat is None:
        others = store.all("SELECT token FROM seats WHERE game = ? AND email != ?",
                           [found.game, incoming.sender])
        stolen = any(token_matches(o["token"], found.tokens) for o in others)
        table = referee.table(found.game)
        letters.answer(table, seats[0], incoming, "your mail was not accepted", now, notes=[
            "Your mail carries a code that is not yours." if stolen else
            "Your mail carries no valid code for your seat.",
            "Nothing changed. To send orders, reply to a mail from this game, keeping "
            f"{subject_tag(found.game, seats[0]['token'])} in the subject.",
        ])
        return "rejected", "token of another seat" if stolen else "wrong or missing token", \
            found.game, seats[0]["name"]
    table = referee.table(found.game)
    if table.state["engine"]["over"]:
        letters.answer(table, seat, incoming, "this game is over", now,
                       notes=["This game is over; your mail changed nothing."])
        return "done", "game over", found.game, seat["name"]
    take(referee, table, seat, incoming.text, now, incoming)
    return "done", None, found.game, seat["name"]


def split_commands(text: str) -> tuple[list[str], str]:
    """(commands, order text): command lines are blanked so line numbers stay right."""
    commands, lines = [], []
    for line in text.splitlines():
        word = line.strip().strip(".!").lower()
        if word in COMMANDS:
            commands.append(COMMANDS[word])
            lines.append("")
        else:
            lines.append(line)
    return commands, "\n".join(lines)


def take(referee, table, seat: dict, text: str, now: str, incoming=None) -> dict:
    """Act on a seat's text (orders and commands) and answer it; return what was understood."""
    store, game_id = referee.store, table.game_row["id"]
    commands, orders_text = split_commands(text)
    eng = table.state["engine"]
    phase = eng["phase"]
    notes, understood, errors = [], [], []
    recorded = False
    if "wait" in commands:
        store.update("seats", {"game": game_id, "name": seat["name"]}, {"wait_phase": phase})
        notes.append("WAIT noted: this turn will not be resolved before its deadline "
                     "unless you send READY.")
    if "ready" in commands:
        store.update("seats", {"game": game_id, "name": seat["name"]},
                     {"ready_phase": phase, "wait_phase": 0})
        store.update("games", {"id": game_id}, {"dirty": 1})
        notes.append("READY noted: your orders for this turn are final.")
    if "slow" in commands:
        event = engine.extension(table.state, seat["name"])
        if event is None:
            notes.append("SLOW is not possible now (not a chrono game, already used, or "
                         "nothing asked of you).")
        else:
            table = referee.record(table, [event], now)
            notes.append("SLOW: this turn's deadline is now "
                         f"{event.payload['deadline']} (UTC).")
    has_orders = any(line.strip() for line in orders_text.splitlines())
    if has_orders:
        if seat["name"] not in eng["requests"]:
            waiting = ", ".join(sorted(eng["requests"])) or "nobody"
            notes.append(f"Nothing is asked of you now (waiting for {waiting}), so these "
                         "orders were not recorded.")
        else:
            orders, errors = table.game.parse(table.state["game"], seat["name"], orders_text)
            understood = table.game.describe_orders(table.state["game"], seat["name"], orders)
            store.db.execute(
                "UPDATE submissions SET status = 'replaced' WHERE game = ? AND seat = ? "
                "AND phase = ? AND status = 'current'", [game_id, seat["name"], phase])
            store.insert("submissions", {
                "game": game_id, "seat": seat["name"], "phase": phase, "text": orders_text,
                "orders": json.dumps(orders, sort_keys=True),
                "errors": json.dumps([e.to_dict() for e in errors]),
                "status": "current", "received_at": now,
            })
            store.update("games", {"id": game_id}, {"dirty": 1})
            recorded = True
            notes.insert(0, "Orders received; they replace any you sent before for this turn."
                         if not errors else "Orders received, with errors (see below).")
    elif not commands:
        notes.append("I found no orders in your mail. Write them as the first lines of "
                      "your reply, one per line; send HELP for the syntax.")
    if "help" in commands:
        letters.help_mail(table, seat, incoming, now)
    if "status" in commands:
        letters.status(table, seat, incoming, now)
    if notes or understood or errors:
        headline = ("orders received, with errors" if errors else "orders received") \
            if recorded else "noted"
        letters.answer(table, seat, incoming, headline, now, notes=notes,
                       understood=understood, errors=errors)
    return {"notes": notes, "understood": understood, "errors": [str(e) for e in errors]}


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
