"""A player leaves and another takes the seat: the newcomer learns what the seat saw.

Through real RFC 822 mails on a real SQLite file: the newcomer's first mail
holds the seat's whole private history and no other seat's secret, the old
address is refused, mails not sent yet go to the newcomer with the new code.
"""

import email
from email import policy

from click.testing import CliRunner
import pytest

from pbem.cli import main
from pbem.replay import replay
from pbem.timeutil import later

from conftest import START, seats
from test_attila_leaks import hand_line
from test_inbound import deliver, order_mail


def cli(referee, *args, code=0) -> str:
    result = CliRunner().invoke(main, [*args, "--db", referee.store.path],
                                catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result.output


def parsed(row) -> email.message.EmailMessage:
    return email.message_from_bytes(row["raw"], policy=policy.default)


def text_of(row) -> str:
    return parsed(row).get_body(preferencelist=("plain",)).get_content()


def outbox(referee, **where) -> list[dict]:
    sql = "SELECT * FROM outbox" + (" WHERE " + " AND ".join(f"{k} = ?" for k in where)
                                    if where else "")
    return [dict(r, raw=referee.store.outbox_mail(r))
            for r in referee.store.all(sql + " ORDER BY id", list(where.values()))]


@pytest.fixture
def huns(referee):
    """An Attila game two turns in, its mails not sent yet."""
    referee.new_game("attila", "huns", seats("ann", "bob", "cat"), START, seed="huns")
    now = START
    for _ in range(2):
        now = referee.table("huns").state["engine"]["deadline"]
        referee.tick(now, send=False)
    return referee


def test_the_newcomer_gets_the_seats_history_and_no_other_seats_secret(huns):
    referee = huns
    dealt = {e["payload"]["seat"]: e["payload"]["cards"]
             for e in referee.events("huns", "referee") if e["type"] == "dealt"}
    hands = referee.table("huns").state["game"]["hands"]
    out = cli(referee, "seat", "huns", "bob", "--replace", "Zoe@Elsewhere.example",
              "--name", "Zoé Martin", "--now", later(START, 100))
    assert "now belongs to zoe@elsewhere.example" in out
    [first] = outbox(referee, kind="replacement")
    body = text_of(first)
    assert first["to_addr"] == "zoe@elsewhere.example" and first["seat"] == "bob"
    assert "You take over seat bob" in body
    from pbem.games.attila.present import cards_text
    assert f"you were dealt {cards_text(dealt['bob'])}" in body
    assert hand_line(hands["bob"]) in body
    for other in ("ann", "cat"):
        assert f"you were dealt {cards_text(dealt[other])}" not in body
        assert hand_line(hands[other]) not in body
    token = referee.store.seat("huns", "bob")["token"]
    assert f"[pbem huns #{token}]" in str(parsed(first)["Subject"])
    assert "Zoé Martin, zoe@elsewhere.example" in cli(referee, "seat", "huns", "bob")
    assert replay(referee.store, "huns", verify=True).ok


def test_mails_not_sent_yet_go_to_the_newcomer_with_the_new_code(huns):
    referee = huns
    old_token = referee.store.seat("huns", "bob")["token"]
    waiting = [r["id"] for r in outbox(referee, seat="bob")]
    assert waiting, "bob's earlier mails are still queued"
    cli(referee, "seat", "huns", "bob", "--replace", "zoe@elsewhere.example")
    token = referee.store.seat("huns", "bob")["token"]
    for row in outbox(referee, seat="bob"):
        msg = parsed(row)
        assert row["to_addr"] == msg["To"] == "zoe@elsewhere.example"
        assert old_token not in row["subject"] and old_token.encode() not in row["raw"]
        assert token in row["subject"]
    [told] = outbox(referee, to_addr="bob@players.example", kind="notice")
    assert "no longer counts" in text_of(told)
    assert "zoe" not in text_of(told)


def test_a_french_player_replaced_is_told_in_french(huns):
    referee = huns
    referee.store.update("seats", {"game": "huns", "name": "bob"}, {"lang": "fr"})
    cli(referee, "seat", "huns", "bob", "--replace", "zoe@elsewhere.example")
    [told] = outbox(referee, to_addr="bob@players.example", kind="notice")
    assert told["subject"] == "[pbem] partie huns : votre place a un nouveau joueur"
    assert "ne comptent plus pour elle. Merci d'avoir joué." in " ".join(text_of(told).split())


def test_the_newcomers_first_mail_has_the_rules_attached_in_its_language(huns):
    referee = huns
    referee.store.update("seats", {"game": "huns", "name": "bob"}, {"lang": "fr"})
    cli(referee, "seat", "huns", "bob", "--replace", "zoe@elsewhere.example")
    [first] = outbox(referee, seat="bob", kind="replacement")
    mail = parsed(first)
    [rules] = list(mail.iter_attachments())
    assert rules.get_filename() == "attila-regles.txt"
    assert rules.get_content().startswith("ATTILA")
    said = " ".join(text_of(first).split())
    assert "Les règles en bref sont jointes à ce message : attila-regles.txt." in said


def test_the_old_address_is_refused_and_the_new_one_counts(huns):
    referee = huns
    old_token = referee.store.seat("huns", "bob")["token"]
    cli(referee, "seat", "huns", "bob", "--replace", "zoe@elsewhere.example")
    row = deliver(referee, order_mail(referee, "bob", tag_token=old_token).replace(
        b"pbem+rome", b"pbem+huns").replace(b"[pbem rome", b"[pbem huns"))
    assert row["status"] in ("rejected", "ignored")
    assert row["reason"].startswith("sender is not a seat")
    token = referee.store.seat("huns", "bob")["token"]
    row = deliver(referee, order_mail(referee, "bob", sender="zoe@elsewhere.example",
                                      tag_token=token, body="STATUS", number=2).replace(
        b"pbem+rome", b"pbem+huns").replace(b"[pbem rome", b"[pbem huns"))
    assert (row["status"], row["game"], row["seat"]) == ("done", "huns", "bob")


def test_every_seat_reads_that_a_new_player_came_and_never_the_address(auguste_game):
    referee = auguste_game
    from test_table import silent_turn
    deadline = silent_turn(referee, START, "ann", "bob", "cat")
    silent_turn(referee, deadline, "ann", "bob", "cat")
    assert referee.table("rome").state["engine"]["disorder"] == ["dan"]
    cli(referee, "seat", "rome", "dan", "--replace", "zoe@elsewhere.example")
    assert referee.table("rome").state["engine"]["disorder"] == []
    assert "civil disorder" not in cli(referee, "list")
    silent_turn(referee, referee.table("rome").state["engine"]["deadline"], "ann", "bob", "cat",
                "dan")
    report = text_of(outbox(referee, seat="ann", kind="report")[-1])
    assert "A new player takes seat dan." in report
    for row in outbox(referee):
        if row["seat"] != "dan" and row["to_addr"] != "zoe@elsewhere.example":
            assert b"zoe@elsewhere" not in row["raw"]
    assert replay(referee.store, "rome", verify=True).ok


@pytest.mark.parametrize("args,code,said", [
    (["--replace", "nobody"], 1, "'nobody' is not a mail address"),
    (["--replace", "dan@players.example"], 1, "already uses dan@players.example"),
    (["--name", "Zoé"], 2, "--name is the new player's name: give it with --replace"),
    (["--replace", "z@e.example", "--email", "y@e.example"], 2, "leave out --email"),
])
def test_a_replacement_that_makes_no_sense_is_refused(auguste_game, args, code, said):
    from test_table import dump
    before = dump(auguste_game)
    assert said in cli(auguste_game, "seat", "rome", "dan", *args, code=code)
    assert dump(auguste_game) == before


def test_a_finished_game_takes_no_new_player(auguste_game):
    auguste_game.end("rome", "done", later(START, 1))
    assert "is over" in cli(auguste_game, "seat", "rome", "dan", "--replace", "z@e.example",
                            code=1)
