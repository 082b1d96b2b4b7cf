"""Operations on a game's seats that the referee runs by hand.

A seat's token is the secret its mails must carry. When it may have leaked
(a forwarded mail, a shared mailbox), the referee gives the seat a new one:
the old token stops working at once, since every mail is checked against the
current token, and the seat is mailed its new reply address.

A player who changes mail address keeps the seat: the referee moves it to the
new address, which is mailed the seat's reply address and what it is asked,
and the old address is told, so a player who did not ask for it can say so.

A player who leaves is replaced: the seat, its history and its place in the
game go to a new player at a new address, with a new code.

Each seat has its own language and time zone for its mail.
"""

from email import policy
from email.parser import BytesParser

from . import letters
from .adjudicator.contract import public
from .errors import PbemError
from .i18n import LANGUAGES, N_, normal_language
from .identity import mail_address, new_token
from .mail import stored
from .mail.compose import message_id
from .timeutil import iso, parse_time, valid_timezone


def rotate_token(referee, game_id: str, seat_name: str, now: str) -> dict:
    """Give a seat a new token and mail it its new reply address; return the seat row."""
    now = iso(parse_time(now))
    store = referee.store
    with store.transaction():
        table = referee.table(game_id)
        old = store.existing_seat(game_id, seat_name)
        store.update("seats", {"game": game_id, "name": seat_name}, {"token": new_token()})
        seat = store.seat(game_id, seat_name)
        recode_waiting_mail(store, game_id, seat_name, old["token"], seat["token"])
        table.send(seat, "token", N_("your seat has a new code"), "token", now)
    return seat


def recode_waiting_mail(store, game_id: str, seat_name: str, old: str, new: str) -> None:
    """Mails to the seat not sent yet carry the new code, so a reply to them still counts."""
    rows = store.all("SELECT id, subject, mail, model, parts FROM outbox WHERE game = ? AND seat = ? "
                     "AND status != 'sent'", [game_id, seat_name])
    for row in rows:
        store.update("outbox", {"id": row["id"]}, {
            "subject": row["subject"].replace(old, new),
            **stored.rewrite(store.conn, row,
                             lambda raw: raw.replace(old.encode(), new.encode()))})


def move_seat(referee, game_id: str, seat_name: str, email: str, now: str) -> dict:
    """Send a seat's mail to a new address and tell the old one; return the seat row."""
    now = iso(parse_time(now))
    email = mail_address(email)
    store = referee.store
    with store.transaction():
        table = referee.table(game_id)
        old = store.existing_seat(game_id, seat_name)
        if old["email"] == email:
            raise PbemError(f"seat {seat_name} of game {game_id} already uses {email}")
        store.update("seats", {"game": game_id, "name": seat_name},
                     {"email": email, "bouncing": 0, "last_refusal": None})
        seat = store.seat(game_id, seat_name)
        table.send(seat, "address", N_("your seat's mail comes here now"), "address", now)
        letters.notify(referee, old["email"], old["lang"], letters.say(
            N_("game {game}: your seat moved"), game=game_id), [
            letters.say(N_("The referee moved seat {seat} of game {game} to another mail "
                           "address. Mail from this address no longer counts for it."),
                        seat=seat_name, game=game_id),
            letters.say(N_("If you did not ask for this, write to the referee at once: "
                           "{referee}."), referee=referee.config["referee"])],
            now, game=game_id)
    return seat


def replace_player(referee, game_id: str, seat_name: str, email: str, now: str,
                   player: str | None = None) -> dict:
    """Give a seat to a new player; return the seat row (see give_seat)."""
    with referee.store.transaction():
        return give_seat(referee, game_id, seat_name, email, now, player)


def give_seat(referee, game_id: str, seat_name: str, email: str, now: str,
              player: str | None = None, lang: str | None = None) -> dict:
    """Give a seat to a new player inside the caller's transaction; return the seat row.

    The newcomer gets a new code and a first mail with everything the seat saw
    so far (in `lang`, when given, else the seat's language); the seat's orders
    on file for the open turn are withdrawn; mails not sent yet go to the
    newcomer, with the new code; the old address is told, and its mail no
    longer counts. Every seat reads that a new player took the seat (no
    address is ever said).
    """
    now = iso(parse_time(now))
    email = mail_address(email)
    store = referee.store
    table = referee.table(game_id)
    old = store.existing_seat(game_id, seat_name)
    if table.state["engine"]["over"]:
        raise PbemError(f"game {game_id} is over")
    if old["email"] == email:
        raise PbemError(f"seat {seat_name} of game {game_id} already uses {email}")
    domain = referee.config["address"].partition("@")[2] or "localhost"
    store.update("seats", {"game": game_id, "name": seat_name}, {
        "email": email, "token": new_token(), "player": " ".join((player or "").split())
        or None, "bouncing": 0, "last_refusal": None, "wait_phase": 0, "ready_phase": 0,
        "lang": lang or old["lang"],
        "thread_id": message_id(domain, f"{game_id}.{seat_name}", store.game(game_id)["seed"],
                                ["thread", seat_name, email])})
    store.execute("UPDATE submissions SET status = 'withdrawn' WHERE game = ? AND seat = ? "
                  "AND status = 'current'", [game_id, seat_name])
    seat = store.seat(game_id, seat_name)
    readdress_waiting_mail(store, game_id, old, seat)
    table = referee.record(table, [public("seat_replaced", seat=seat_name)], now)
    letters.replacement(table, seat, now)
    letters.notify(referee, old["email"], old["lang"], letters.say(
        N_("game {game}: your seat has a new player"), game=game_id), [
        letters.say(N_("The referee gave seat {seat} of game {game} to a new player. Mail "
                       "from this address no longer counts for it. Thank you for "
                       "playing."), seat=seat_name, game=game_id),
        letters.say(N_("If you did not mean to leave, write to the referee at once: "
                       "{referee}."), referee=referee.config["referee"])],
        now, game=game_id)
    return seat


def readdress_waiting_mail(store, game_id: str, old: dict, new: dict) -> None:
    """Mails to the seat not sent yet go to its new player, with its new code."""
    rows = store.all("SELECT id, subject, mail, model, parts FROM outbox WHERE game = ? AND seat = ? "
                     "AND status != 'sent'", [game_id, old["name"]])

    def readdressed(raw: bytes) -> bytes:
        msg = BytesParser(policy=policy.default).parsebytes(
            raw.replace(old["token"].encode(), new["token"].encode()))
        del msg["To"]
        msg["To"] = new["email"]
        return msg.as_bytes()

    for row in rows:
        store.update("outbox", {"id": row["id"]}, {
            "to_addr": new["email"], "subject": row["subject"].replace(old["token"],
                                                                        new["token"]),
            **stored.rewrite(store.conn, row, readdressed)})


def choose_language(store, game_id: str, seat_name: str, text: str) -> dict:
    """Write a seat's mail in the language `text` names (fr, English...); return the seat row.

    Runs inside the caller's transaction; PbemError for a language pbem does not write.
    """
    store.existing_seat(game_id, seat_name)
    lang = normal_language(text)
    if lang is None:
        raise PbemError(f"unknown language {text!r} (pbem writes {' or '.join(LANGUAGES)})")
    store.update("seats", {"game": game_id, "name": seat_name}, {"lang": lang})
    return store.seat(game_id, seat_name)


def choose_timezone(store, game_id: str, seat_name: str, tz_name: str) -> dict:
    """Show a seat's times in the IANA zone `tz_name`; return the seat row.

    Runs inside the caller's transaction; PbemError for a zone this machine does not know.
    """
    store.existing_seat(game_id, seat_name)
    tz_name = tz_name.strip()
    if not valid_timezone(tz_name):
        raise PbemError(f"unknown timezone {tz_name!r} (e.g. Europe/Paris)")
    store.update("seats", {"game": game_id, "name": seat_name}, {"tz": tz_name})
    return store.seat(game_id, seat_name)
