"""Operations on a game's seats that the referee runs by hand.

A seat's token is the secret its mails must carry. When it may have leaked
(a forwarded mail, a shared mailbox), the referee gives the seat a new one:
the old token stops working at once, since every mail is checked against the
current token, and the seat is mailed its new reply address.
"""

from . import letters
from .errors import PbemError
from .identity import new_token, reply_address
from .timeutil import iso, parse_time


def rotate_token(referee, game_id: str, seat_name: str, now: str) -> dict:
    """Give a seat a new token and mail it its new reply address; return the seat row."""
    now = iso(parse_time(now))
    store = referee.store
    with store.transaction():
        table = referee.table(game_id)
        if store.seat(game_id, seat_name) is None:
            raise PbemError(f"game {game_id} has no seat called {seat_name!r}")
        store.update("seats", {"game": game_id, "name": seat_name}, {"token": new_token()})
        seat = store.seat(game_id, seat_name)
        address = reply_address(referee.config["address"], game_id, seat["token"])
        table.send(seat, "token", "your seat has a new code", "token", now,
                   reply_address=address)
    return seat
