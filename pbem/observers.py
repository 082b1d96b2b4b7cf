"""People who follow a game without a seat.

An observer gets every public report (what happened that everyone may see,
the public board, the result), never anything private, and no reply address:
nothing an observer writes counts in the game. The referee adds and removes
observers; each one gets its reports in its own language and time zone.
"""

from . import letters
from .errors import PbemError
from .i18n import LANGUAGES, N_, normal_language
from .identity import mail_address
from .timeutil import iso, parse_time, valid_timezone


def observe(referee, game_id: str, email: str, now: str, lang: str | None = None,
            tz: str | None = None) -> dict:
    """Add an observer and mail it the game as it stands; return its row."""
    now = iso(parse_time(now))
    email = mail_address(email)
    language = normal_language(lang) if lang else "en"
    if language is None:
        raise PbemError(f"unknown language {lang!r} (pbem writes {' or '.join(LANGUAGES)})")
    if tz and not valid_timezone(tz):
        raise PbemError(f"unknown timezone {tz!r} (e.g. Europe/Paris)")
    store = referee.store
    with store.transaction():
        table = referee.table(game_id)
        if table.state["engine"]["over"]:
            raise PbemError(f"game {game_id} is over: there is nothing left to follow")
        if store.one("SELECT 1 FROM observers WHERE game = ? AND email = ?", [game_id, email]):
            raise PbemError(f"{email} follows game {game_id} already")
        if store.one("SELECT 1 FROM seats WHERE game = ? AND email = ?", [game_id, email]):
            raise PbemError(f"{email} plays in game {game_id}: a seat gets its own reports")
        store.insert("observers", {"game": game_id, "email": email, "lang": language, "tz": tz,
                                   "added_at": now, "reported_seq": 0})
        row = store.one("SELECT * FROM observers WHERE game = ? AND email = ?", [game_id, email])
        letters.observer_mail(table, row, N_("you follow this game"), now, notes=[
            N_("The referee added you as an observer of this game. You will get every report "
               "the players all get, and nothing private.")], happened=[])
    return row


def stop_observing(referee, game_id: str, email: str, now: str) -> None:
    """Remove an observer; it is told it gets no more reports."""
    now = iso(parse_time(now))
    email = email.strip().lower()
    store = referee.store
    with store.transaction():
        referee.game_row(game_id)
        row = store.one("SELECT * FROM observers WHERE game = ? AND email = ?", [game_id, email])
        if row is None:
            known = ", ".join(o["email"] for o in store.observers(game_id)) or "none"
            raise PbemError(f"{email} does not follow game {game_id} (observers: {known})")
        store.execute("DELETE FROM observers WHERE game = ? AND email = ?", [game_id, email])
        letters.notify(referee, email, row["lang"], letters.say(
            N_("game {game}: you no longer follow it"), game=game_id), [
            letters.say(N_("The referee stopped your reports of game {game}. You will get no "
                           "more mail about it."), game=game_id)],
            now, game=game_id, kind="observer")
