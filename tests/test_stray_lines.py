"""A player's stray line never costs them their orders.

Written from the player's side: a raw reply mail goes in, the acknowledgement
and the game's state come out. Commands (READY, WAIT, STATUS, HELP) never
empty the orders on file; greetings, thanks, sign-offs, a line announcing the
orders, the player's own name and a phone number at the edges of a mail are
set aside and said back as ignored, and so is a signature under the orders
(from a sign-off or the player's name on, lines the game refused); a line in
the middle is a remark when it is chat, and an error when it is close to an
order.
"""

import email
import re
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime

import pytest

from pbem import inbound
from pbem.mail import intake
from pbem.reading import read_text, sender_names, signature
from pbem.timeutil import later, parse_time

from conftest import START, make_referee, seats

NOW = later(START, 1)
ATTILA = {
    "first": "ann",
    "hands": {"ann": ["goths", "goths", "huns", "franks", "saxons", "saxons"],
              "bob": ["huns", "huns", "teutons", "teutons", "vandals", "franks"]},
}


def reply(referee, game: str, seat: str, body: str, number: int, name: str = "Marie Dupont",
          ) -> bytes:
    """A seat's reply to its game, as a mail client writes it."""
    code = referee.store.seat(game, seat)["token"]
    msg = EmailMessage()
    msg["From"] = f"{name} <{seat}@players.example>"
    msg["To"] = f"pbem+{game}.{code}@referee.example"
    msg["Subject"] = f"Re: [pbem {game} #{code}] your turn"
    msg["Date"] = format_datetime(parse_time(NOW))
    msg["Message-ID"] = f"<{seat}.{number}@players.example>"
    msg.set_content(body)
    return msg.as_bytes()


def mail_in(referee, raw: bytes, now: str = NOW) -> str:
    """Deliver a raw mail, handle the inbox; return the text of pbem's answer to it."""
    intake.ingest(referee.store, raw, "test", now)
    inbound.process_inbox(referee, now)
    wanted = email.message_from_bytes(raw, policy=policy.default)["Message-ID"]
    for row in referee.store.all("SELECT * FROM outbox ORDER BY id DESC"):
        answer = email.message_from_bytes(referee.store.outbox_mail(row), policy=policy.default)
        if answer["In-Reply-To"] == wanted:
            return answer.get_body(preferencelist=("plain",)).get_content()
    raise AssertionError("the mail was not answered")


def on_file(referee, game: str, seat: str) -> str | None:
    """The text of the seat's current orders for the open phase."""
    phase = referee.table(game).state["engine"]["phase"]
    sub = referee.current_submission(game, seat, phase)
    return sub["text"].strip() if sub else None


@pytest.fixture
def attila(tmp_path):
    """A two-seat Attila game in which ann is to play."""
    referee = make_referee(tmp_path)
    referee.new_game("attila", "hun", seats("ann", "bob"), START, {}, seed="stray",
                     position=ATTILA)
    return referee


@pytest.mark.parametrize("after", ["\n\nMarie", "\n\nMarie Dupont\n06 12 34 56 78",
                                   "\n\nxyzzy", "\n-- \nMarie, Lyon"])
def test_ready_beside_a_stray_line_keeps_the_orders_on_file(attila, after):
    text = mail_in(attila, reply(attila, "hun", "ann", "play goths pannonia\nplay huns dacia", 1))
    assert "Orders received" in text
    text = mail_in(attila, reply(attila, "hun", "ann", "READY" + after, 2))
    assert on_file(attila, "hun", "ann") == "play goths pannonia\nplay huns dacia"
    assert "READY noted" in text and "Your orders on file:" in text
    assert "play a Goth card, its pawn to Pannonia" in text
    attila.tick(later(NOW, 0.1), send=False)
    pawns = attila.table("hun").state["game"]["pawns"]
    assert pawns == {"Pannonia": {"goths": 1}, "Dacia": {"huns": 1}}, \
        "the turn must resolve with ann's orders, not a default play"


@pytest.mark.parametrize("command", ["WAIT", "STATUS", "HELP", "aide", "Prêt !"])
def test_a_command_with_other_lines_never_empties_the_orders(attila, command):
    mail_in(attila, reply(attila, "hun", "ann", "play goths pannonia\nplay huns dacia", 1))
    mail_in(attila, reply(attila, "hun", "ann", f"Salut,\n\n{command}\n\nMarie", 2))
    assert on_file(attila, "hun", "ann") == "play goths pannonia\nplay huns dacia"


def test_orders_and_ready_in_one_mail_keep_the_new_orders_and_make_them_final(attila):
    mail_in(attila, reply(attila, "hun", "ann", "play goths pannonia\nplay huns dacia", 1))
    text = mail_in(attila, reply(attila, "hun", "ann",
                                 "play saxons belgica\nplay franks gallia\nREADY", 2))
    assert "Orders received" in text and "READY noted" in text
    assert on_file(attila, "hun", "ann") == "play saxons belgica\nplay franks gallia"
    assert attila.store.seat("hun", "ann")["ready_phase"] == 1


def test_a_mail_of_errors_only_keeps_the_orders_on_file_and_says_so(attila):
    mail_in(attila, reply(attila, "hun", "ann", "play goths pannonia\nplay huns dacia", 1))
    text = mail_in(attila, reply(attila, "hun", "ann", "play gots panonia", 2))
    assert "line 1:" in text
    assert "your orders on file are unchanged" in text
    assert on_file(attila, "hun", "ann") == "play goths pannonia\nplay huns dacia"


SHAPES = [
    "Salut,\n\n{orders}\n\nMerci !\nMarie",
    "Bonjour,\nVoilà mes ordres :\n{orders}\nCordialement,\nMarie Dupont",
    "Hi all,\n\nMy orders:\n{orders}\n\nThanks!\nMarie",
    "Hello referee,\n{orders}\nCheers,\nMarie",
    "{orders}\n\nBonne journée !\n-- \nMarie",
    "Orders:\n{orders}\n\nBest regards,\nMarie\n+33 6 12 34 56 78",
    "Coucou\n{orders}\nBises",
    "Here are my orders for this turn:\n\n{orders}\n\nMarie",
    "Dear referee,\n\n{orders}\n\nKind regards,\nMarie Dupont",
    "Bonsoir à tous !\n{orders}\nA+",
    "{orders}\nMerci beaucoup\nM. Dupont",
    "Voici mes ordres pour ce tour :\n{orders}\nAmicalement",
]


# A signature under the orders: from a sign-off or the name on, lines the game refused.
SIGNATURES = [
    "{orders}\n\nMarie Dupont\nClub de jeux de Lyon\nhttps://club.example",
    "{orders}\nCordialement,\nMarie Dupont\nPrésidente du Club de Lyon\n12 rue des Lilas",
    "{orders}\n\nCheers,\nMarie\nWritten on my phone, sorry for the typos",
]


@pytest.mark.parametrize("shape", SHAPES + SIGNATURES)
def test_greetings_sign_offs_and_signatures_are_ignored_and_do_not_hold_the_turn(attila, shape):
    body = shape.format(orders="play goths pannonia\nplay huns dacia")
    text = mail_in(attila, reply(attila, "hun", "ann", body, 1))
    assert "could not be accepted" not in text, text
    assert "Orders received; they replace" in text
    assert re.search(r"Line by line: .*lines? set aside", " ".join(text.split())), text
    assert on_file(attila, "hun", "ann") == "play goths pannonia\nplay huns dacia"
    phase = attila.table("hun").state["engine"]["phase"]
    assert attila.current_submission("hun", "ann", phase)["errors"] == "[]"


def test_a_wrong_order_above_a_signature_stays_an_error(attila):
    text = mail_in(attila, reply(attila, "hun", "ann", "play goths pannonia\nplay hnus dacia"
                                 "\n\nMarie Dupont\nClub de jeux de Lyon", 1))
    assert "line 2:" in text
    assert "Line by line: 1 order; 2 refused line; 4-5 lines set aside." in " ".join(
        text.split()), text


def test_a_signature_is_what_follows_a_sign_off_or_the_name_and_the_game_refused():
    names = sender_names("ann", "Marie Dupont")
    text = "play goths\nxyzzy\n\nMarie Dupont\nClub de Lyon\nhttps://club.example"
    assert signature(text, {2, 4, 5, 6}, names) == [4, 5, 6]
    assert signature(text, {2, 4, 6}, names) == [], "line 5 is an order: no signature"
    assert signature("play goths\nClub de Lyon", {2}, names) == []
    assert signature("play goths\nMerci\nplay huns", {2}, names) == []


def test_a_line_of_chat_between_orders_is_a_remark_and_holds_nothing_up(attila):
    text = mail_in(attila, reply(attila, "hun", "ann",
                                 "Salut,\nplay goths pannonia\nmerci\nplay huns dacia", 1))
    assert "could not be accepted" not in text
    said = " ".join(text.split())
    assert "Remarks, not orders (set aside; they hold nothing up): line 3: merci" in said
    assert "Line by line: 1 line set aside; 2 order; 3 remark; 4 order." in said
    assert on_file(attila, "hun", "ann") == "play goths pannonia\n\nplay huns dacia"
    assert attila.tick(later(NOW, 0.1), send=False).phases == {"hun": 1}


def test_a_mistyped_order_between_orders_stays_an_error(attila):
    text = mail_in(attila, reply(attila, "hun", "ann",
                                 "Salut,\nplay goths pannonia\nplya huns dacia", 1))
    assert "line 3: I do not understand 'plya'; did you mean play?" in " ".join(text.split())
    assert "Remarks" not in text


def test_early_resolution_still_happens_after_a_greeting(tmp_path):
    referee = make_referee(tmp_path)
    referee.new_game("auguste", "rome", seats("ann", "bob", "cat", "dan"), START, {},
                     seed="stray")
    for number, seat in enumerate(("ann", "bob", "cat", "dan")):
        mail_in(referee, reply(referee, "rome", seat, "Bonjour,\n\npass\n\nMerci", number,
                               name=seat.title()))
    assert referee.tick(later(NOW, 0.1), send=False).phases == {"rome": 1}


def test_reading_sorts_commands_courtesy_and_orders_and_keeps_line_numbers():
    reading = read_text("Salut Pierre,\nplay goths pannonia\nREADY\nmerci\nplay huns dacia\n"
                        "Thanks!\nMarie", sender_names("ann", "Marie Dupont"))
    assert reading.names == ["ready"]
    assert reading.ignored == [(1, "Salut Pierre,"), (6, "Thanks!"), (7, "Marie")]
    assert reading.orders_text.split("\n") == [
        "", "play goths pannonia", "", "merci", "play huns dacia", "", ""]


def test_a_line_that_is_not_courtesy_is_left_for_the_game():
    for line in ("play goths pannonia", "red: move GUR HAC", "bid none", "Marie moves north",
                 "thanks to my goths I win"):
        assert read_text(line, sender_names("ann", "Marie")).orders_text == line


def test_every_command_word_has_its_arguments_and_a_handler():
    from pbem.inbound import COMMAND_HANDLERS
    from pbem.reading import ARGUMENTS, COMMANDS
    names = {name for name, _ in COMMANDS.values()}
    assert names == set(ARGUMENTS) == set(COMMAND_HANDLERS)


def test_a_command_with_words_after_it_is_not_a_command_unless_it_takes_them():
    reading = read_text("ready to attack\nready")
    assert reading.names == ["ready"] and reading.orders_text == "ready to attack\n"
