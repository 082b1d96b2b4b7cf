"""An order with chat on its line, with no mark between them, costs no order.

People end an order with a word to the table ("red: move SUS BUV thanks all", "A Bud H
lol", "village E8 F7 merci à tous") and lead into one ("bon alors A Vie H", "so move
SUS BUV"). Each game's own orders at its start, with such chat, must read as the same
orders, with no line refused (the chat is listed as a remark, or, a word of politeness
or a smiley, passed over); an order with words that take it back or make it a
condition ("maybe not", "if ...") is not taken as given.
"""

import importlib

import pytest

from pbem import inbound
from pbem.adjudicator.rng import PhaseRng
from pbem.app import SeatSpec

from conftest import START, make_referee
from players import answered

GAMES = ["auguste", "attila", "saga", "seigneurs", "diplomacy"]
CHATS = ["thanks", "thanks all", "sorry about that", "merci à tous", "cheers mate",
         "hope this works", "fingers crossed", "as agreed", "comme convenu", "lol",
         "see you all", "bonne chance à tous", "good luck everyone", "haha", "I think",
         "je crois", "if possible", "si possible", "please", "s'il te plaît", ":)", "😀",
         "(as agreed)", "- as agreed", ", as agreed", "again"]
DOUBTS = ["maybe not", "or not", "non attends", "wait no"]
LEADS = ["so", "bon alors", "alors", "well", "euh", "hmm", "comme promis",
         "as agreed", "yes", "oui", "voila", "donc", "anyway"]
CONDITIONS = ["non", "no", "si", "unless"]


def opening(tmp_path, ruleset: str):
    """A game's table at its start, and a seat asked for orders with the bot's orders."""
    game = importlib.import_module(f"pbem.games.{ruleset}")
    referee = make_referee(tmp_path)
    seats = [SeatSpec(name, f"{name}@players.example") for name in game.DEMO_SEATS]
    referee.new_game(ruleset, "g", seats, START, game.demo_options(4), "chat")
    table = referee.table("g")
    seat = sorted(table.game.pending(table.state["game"]))[0]
    text = table.game.bot_orders(table.state["game"], seat, PhaseRng("chat", "g", 1))
    return referee, table, seat, text


def worded(text: str, before: str = "", after: str = "") -> str:
    """The orders with words before or after their first line."""
    first, *rest = text.splitlines()
    return "\n".join([" ".join(part for part in (before, first, after) if part), *rest])


def read(table, seat: str, text: str) -> tuple:
    """(orders, refused lines) of a seat's mail."""
    orders, errors, _text, _remarks = inbound.read_orders(table, seat, text)
    return orders, errors


@pytest.mark.parametrize("ruleset", GAMES)
def test_chat_after_an_order_with_no_mark_leaves_the_order_as_it_is(tmp_path, ruleset):
    _referee, table, seat, text = opening(tmp_path, ruleset)
    orders, errors = read(table, seat, text)
    assert orders and not errors, (text, errors)
    for chat in CHATS:
        assert read(table, seat, worded(text, after=chat)) == (orders, []), (ruleset, chat)


@pytest.mark.parametrize("ruleset", GAMES)
def test_an_order_taken_back_after_it_is_not_given(tmp_path, ruleset):
    _referee, table, seat, text = opening(tmp_path, ruleset)
    orders, _errors = read(table, seat, text)
    for doubt in DOUBTS:
        again, refused = read(table, seat, worded(text, after=doubt))
        assert again != orders and refused, (ruleset, doubt, again)


def test_a_player_s_thanks_after_an_order_is_answered_as_a_remark(tmp_path):
    referee, _table, seat, text = opening(tmp_path, "auguste")
    row, said = answered(referee, "g", seat, worded(text, after="thanks all"), START)
    assert row["reason"] == "orders recorded; 1 remark set aside", said
    assert "line 1: thanks all" in said, said


@pytest.mark.parametrize("ruleset", GAMES)
def test_chat_leading_into_an_order_with_no_mark_leaves_the_order_as_it_is(tmp_path, ruleset):
    _referee, table, seat, text = opening(tmp_path, ruleset)
    orders, _errors = read(table, seat, text)
    for lead in LEADS:
        assert read(table, seat, worded(text, before=lead)) == (orders, []), (ruleset, lead)
    if ruleset == "auguste":
        return  # words before the legion and its colon are chat ("Non. red: move ...")
    for condition in CONDITIONS:
        again, _refused = read(table, seat, worded(text, before=condition))
        assert again != orders, (ruleset, condition, again)


def test_a_mail_of_many_refused_lines_with_chat_is_read_again_in_linear_work(tmp_path):
    """Each refused line is tried again among the lines the game accepts, not among the
    other refused ones, and only the first READ_AGAIN refused lines are: the lines the
    game reads grow with the mail, not as its square."""
    _referee, table, seat, _text = opening(tmp_path, "diplomacy")
    given = []

    class Counted:
        """The game, counting the lines it is given to read."""

        def __init__(self, game):
            self.game = game

        def __getattr__(self, key):
            return getattr(self.game, key)

        def parse(self, state, name, text):
            given.append(sum(1 for line in text.splitlines() if line.strip()))
            return self.game.parse(state, name, text)

    table.game = Counted(table.game)
    mail = "\n".join(["A Vie - Xyz, lol", "F Nap - Xyz thanks", "bon alors A Rom - Xyz"] * 40)
    orders, errors = read(table, seat, mail)
    assert not orders and {e.line for e in errors} == set(range(1, 121)), errors
    assert sum(given) < (inbound.READ_AGAIN + 20) * 120, sum(given)


def test_chat_on_both_sides_of_an_order_leaves_the_order_as_it_is(tmp_path):
    referee, _table, seat, text = opening(tmp_path, "diplomacy")
    chatty = worded(text, before="bon alors", after="désolé pour le retard, vraiment la "
                    "semaine a été longue au boulot")
    row, said = answered(referee, "g", seat, f"Salut !\n{chatty}", START)
    assert row["reason"] == "orders recorded; 1 remark set aside", said
    assert "line 2: bon alors … désolé pour le retard" in said, said
