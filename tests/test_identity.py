"""Seat tokens: how a mail proves its seat, how a token is replaced, where it may appear."""

from email import message_from_bytes, policy
import json

from click.testing import CliRunner
import pytest

from pbem.cli import main
from pbem.errors import PbemError
from pbem.identity import claim, reply_address, subject_tag, token_matches
from pbem.mail import intake
from pbem.seats import move_seat, rotate_token

from test_inbound import NOW, ORDER, deliver, order_mail, token

LATER = "2026-12-01T14:00:00Z"


def test_token_matches_only_the_exact_token():
    assert token_matches("k3f9q2abcd", ["zzzz", "k3f9q2abcd"])
    assert not token_matches("k3f9q2abcd", ["k3f9q2abce", "k3f9q2abc", "k3f9q2abcdx"])
    assert not token_matches("k3f9q2abcd", [])


def test_claim_reads_the_subject_tag_and_our_plus_address():
    found = claim("Re: [pbem rome #K3F9Q2ABCD] your turn",
                  ["pbem+rome.zzzz2345@referee.example", "pbem+paris.yyyy2345@referee.example",
                   "pbem+rome.xxxx2345@elsewhere.example"], "pbem@referee.example")
    assert (found.game, found.tokens) == ("rome", ["k3f9q2abcd", "zzzz2345"])
    assert subject_tag("rome", "k3f9q2abcd") == "[pbem rome #k3f9q2abcd]"
    assert reply_address("pbem@referee.example", "rome", "k3f9q2abcd") == \
        "pbem+rome.k3f9q2abcd@referee.example"


def test_a_plus_address_alone_identifies_the_seat(auguste_game):
    raw = order_mail(auguste_game).replace(b"[pbem rome #", b"[pbem  rome ")
    row = deliver(auguste_game, raw)
    assert (row["status"], row["seat"]) == ("done", "ann")


def test_a_new_token_replaces_the_old_one_at_once(auguste_game):
    old = token(auguste_game, "ann")
    sent = auguste_game.store.one("SELECT MAX(id) AS id FROM outbox")["id"]
    seat = rotate_token(auguste_game, "rome", "ann", NOW)
    new = token(auguste_game, "ann")
    assert seat["token"] == new != old

    [mail] = auguste_game.store.all("SELECT * FROM outbox WHERE id > ?", [sent])
    raw = auguste_game.store.outbox_mail(mail)
    msg = message_from_bytes(raw, policy=policy.default)
    assert (mail["to_addr"], mail["kind"]) == ("ann@players.example", "token")
    assert msg["Reply-To"] == f"pbem+rome.{new}@referee.example"
    assert str(msg["Subject"]) == f"[pbem rome #{new}] Turn 1: your seat has a new code"
    assert msg.get_content_type() == "multipart/alternative"
    text = msg.get_body(preferencelist=("plain",)).get_content()
    html = msg.get_body(preferencelist=("html",)).get_content()
    assert f"Reply address: pbem+rome.{new}@referee.example" in text
    assert f">pbem+rome.{new}@referee.example</code>" in html
    assert old not in raw.decode()

    stale = deliver(auguste_game, order_mail(auguste_game, tag_token=old), now=LATER)
    assert (stale["status"], stale["reason"]) == ("rejected", "wrong or missing token")
    fresh = deliver(auguste_game, order_mail(auguste_game, number=2), now=LATER)
    assert (fresh["status"], fresh["reason"]) == ("done", "orders recorded")


def test_mail_still_waiting_to_go_out_carries_the_new_code(auguste_game):
    store = auguste_game.store
    old = token(auguste_game, "ann")
    waiting = store.all("SELECT id FROM outbox WHERE seat = 'ann' AND status = 'pending'")
    assert waiting, "the welcome to ann should still be waiting"
    rotate_token(auguste_game, "rome", "ann", NOW)
    new = token(auguste_game, "ann")
    for mail in store.all("SELECT * FROM outbox WHERE seat = 'ann'"):
        raw = store.outbox_mail(mail)
        msg = message_from_bytes(raw, policy=policy.default)
        assert msg["Reply-To"] == f"pbem+rome.{new}@referee.example"
        assert mail["subject"].startswith(f"[pbem rome #{new}]")
        assert str(msg["Subject"]).strip() == mail["subject"]   # a long subject is folded
        assert old not in raw.decode()
        text = msg.get_body(preferencelist=("plain",)).get_content()
        assert f"[pbem rome #{new}]" in text


def test_the_seat_command_rotates_a_token_and_shows_no_token(auguste_game, tmp_path):
    config = str(tmp_path / "pbem.toml")
    old = token(auguste_game, "ann")
    shown = CliRunner().invoke(main, ["seat", "rome", "ann", "--config", config])
    assert shown.exit_code == 0, shown.output
    assert shown.output == "seat ann of game rome: ann@players.example, language en, timezone UTC\n"

    done = CliRunner().invoke(main, ["seat", "rome", "ann", "--new-token", "--config", config,
                                     "--now", NOW])
    assert done.exit_code == 0, done.output
    new = token(auguste_game, "ann")
    assert new != old and new not in done.output and old not in done.output
    assert "queued for ann@players.example" in done.output
    assert auguste_game.store.one("SELECT kind FROM outbox ORDER BY id DESC LIMIT 1")["kind"] \
        == "token"

    missing = CliRunner().invoke(main, ["seat", "rome", "zed", "--new-token",
                                        "--config", config])
    assert missing.exit_code != 0 and "no seat called 'zed'" in missing.output
    assert token(auguste_game, "ann") == new


def test_a_seat_moved_to_a_new_address_takes_orders_from_there_only(auguste_game):
    code = token(auguste_game, "ann")
    sent = auguste_game.store.one("SELECT MAX(id) AS id FROM outbox")["id"]
    seat = move_seat(auguste_game, "rome", "ann", " Ann@New.Example ", NOW)
    assert seat["email"] == "ann@new.example" and seat["token"] == code

    welcome, notice = auguste_game.store.all("SELECT * FROM outbox WHERE id > ? ORDER BY id",
                                             [sent])
    assert (welcome["to_addr"], welcome["kind"]) == ("ann@new.example", "address")
    text = everything_in(auguste_game.store.outbox_mail(welcome))
    assert f"Reply address: pbem+rome.{code}@referee.example" in text
    assert "You command: red" in text and "Orders for turn 1." in text
    assert (notice["to_addr"], notice["kind"]) == ("ann@players.example", "notice")
    told = everything_in(auguste_game.store.outbox_mail(notice))
    assert "seat ann of game rome to another mail address" in told
    assert code not in told and "ann@new.example" not in told

    stale = deliver(auguste_game, order_mail(auguste_game), now=LATER)
    assert (stale["status"], stale["reason"]) == \
        ("rejected", "the code of seat ann from another address; ann@new.example told")
    fresh = deliver(auguste_game, order_mail(auguste_game, sender="Ann <ann@new.example>",
                                             number=2), now=LATER)
    assert (fresh["status"], fresh["reason"], fresh["seat"]) == ("done", "orders recorded", "ann")


@pytest.mark.parametrize("address, problem", [
    ("ann at new.example", "is not a mail address"),
    ("ann@players.example", "already uses ann@players.example"),
])
def test_a_seat_is_not_moved_to_a_bad_address(auguste_game, address, problem):
    sent = auguste_game.store.one("SELECT MAX(id) AS id FROM outbox")["id"]
    with pytest.raises(PbemError, match=problem):
        move_seat(auguste_game, "rome", "ann", address, NOW)
    assert auguste_game.store.seat("rome", "ann")["email"] == "ann@players.example"
    assert auguste_game.store.one("SELECT MAX(id) AS id FROM outbox")["id"] == sent


def test_the_seat_command_moves_a_seat_and_can_give_it_a_new_code(auguste_game, tmp_path):
    config = str(tmp_path / "pbem.toml")
    old = token(auguste_game, "ann")
    done = CliRunner().invoke(main, ["seat", "rome", "ann", "--email", "ann@new.example",
                                     "--new-token", "--config", config, "--now", NOW])
    assert done.exit_code == 0, done.output
    assert "moved from ann@players.example to ann@new.example" in done.output
    new = token(auguste_game, "ann")
    mails = auguste_game.store.all("SELECT * FROM outbox ORDER BY id DESC "
                                   "LIMIT 3")
    assert [(m["to_addr"], m["kind"]) for m in reversed(mails)] == [
        ("ann@new.example", "address"), ("ann@players.example", "notice"),
        ("ann@new.example", "token")]
    assert all(new not in auguste_game.store.outbox_mail(m).decode() for m in mails
               if m["to_addr"] != "ann@new.example")
    assert new != old and new not in done.output

    shown = CliRunner().invoke(main, ["seat", "rome", "ann", "--config", config])
    assert shown.output == "seat ann of game rome: ann@new.example, language en, timezone UTC\n"


def everything_in(raw: bytes) -> str:
    """A mail's headers and the decoded text of every part, as one string."""
    msg = message_from_bytes(raw, policy=policy.default)
    chunks = [f"{name}: {value}" for name, value in msg.items()]
    for part in msg.walk():
        if part.get_content_maintype() == "text":
            chunks.append(part.get_content())
    return "\n".join(chunks)


def test_no_mail_or_view_shows_a_token_to_anyone_but_its_seat(auguste_game):
    referee, store = auguste_game, auguste_game.store
    tokens = {s["name"]: {s["token"]} for s in store.seats("rome")}
    mails = [order_mail(referee, name, body=ORDER if name == "ann" else "pass")
             for name in ("ann", "bob", "cat")]
    mails += [order_mail(referee, "dan", body="STATUS"),
              order_mail(referee, "bob", tag_token=token(referee, "ann"), number=2),
              order_mail(referee, "eve", tag_token=token(referee, "cat")),
              order_mail(referee, "dan", tag_token="guessed234", number=3)]
    for raw in mails:
        intake.ingest(store, raw, "test", NOW)
    referee.tick(NOW, send=False)
    rotate_token(referee, "rome", "cat", NOW)
    tokens["cat"].add(token(referee, "cat"))
    referee.tick("2026-12-04T12:00:00Z", send=False)
    assert store.game("rome")["phase"] > 1

    seats = {s["name"]: s["email"] for s in store.seats("rome")}
    rows = store.all("SELECT * FROM outbox WHERE game = 'rome' OR game IS NULL")
    assert len(rows) > 15
    for row in rows:
        content = everything_in(store.outbox_mail(row))
        for name, owned in tokens.items():
            if seats[name] == row["to_addr"]:
                continue
            for secret in owned:
                assert secret not in content, (row["id"], row["to_addr"], name)
    every_token = set().union(*tokens.values())
    for seat in [None, *seats]:
        shown = json.dumps(referee.view("rome", seat)) + json.dumps(
            list(referee.events("rome", seat)))
        assert not any(secret in shown for secret in every_token)
