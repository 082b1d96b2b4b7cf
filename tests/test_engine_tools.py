"""The engine's tools for games played partly off the board, through a real referee.

A toy game (tests/toygame: two duelists report a fight) exercises rulings by
the referee and by a judge seat, results several seats must agree on, one
seat ordering for another, boards drawn from each seat's own view, and the
rule that a seat with nothing new to read gets no mail. Everything goes
through the same path as a real game: mail text in, events, mails out,
replay --verify.
"""

import email
from email import policy
import importlib
import sys
from pathlib import Path

from click.testing import CliRunner
import pytest

import pbem.games
from pbem import inbound, render
from pbem.adjudicator.contract import REFEREE
from pbem.cli import main
from pbem.errors import PbemError
from pbem.replay import replay
from pbem.timeutil import later

from conftest import START, make_referee, seats

sys.path.insert(0, str(Path(__file__).parent))
NOW = later(START, 1)


@pytest.fixture
def duel(tmp_path, monkeypatch):
    """A referee that knows the toy game 'duel' besides the real ones."""
    toy = importlib.import_module("toygame")
    real_load, real_names = pbem.games.load, pbem.games.names
    monkeypatch.setattr(pbem.games, "load",
                        lambda name: toy if name == "duel" else real_load(name))
    monkeypatch.setattr(pbem.games, "names", lambda: sorted(real_names() + ["duel"]))
    render.environment.cache_clear()
    yield make_referee(tmp_path)
    render.environment.cache_clear()


def new_duel(referee, **options):
    referee.new_game("duel", "d", seats("ann", "bob", "cat"), START, options, seed="duel")


def mails(referee, seat=None, kind=None) -> list:
    """Outbox mails (parsed), optionally to one seat or of one kind."""
    rows = referee.store.all("SELECT * FROM outbox ORDER BY id")
    return [email.message_from_bytes(referee.store.outbox_mail(r), policy=policy.default)
            for r in rows
            if (seat is None or r["seat"] == seat) and (kind is None or r["kind"] == kind)]


def text(msg) -> str:
    return msg.get_body(preferencelist=("plain",)).get_content()


def state(referee):
    return referee.table("d").state


def test_agreeing_reports_are_applied(duel):
    new_duel(duel)
    inbound.submit(duel, "d", "ann", "RESULT WON", START)
    inbound.submit(duel, "d", "bob", "resultat perdu", START)
    assert duel.tick(NOW, send=False).phases == {"d": 1}
    assert state(duel)["engine"]["result"]["winners"] == ["ann"]
    assert replay(duel.store, "d", verify=True).ok


def test_a_disagreement_waits_for_the_referee_without_a_deadline(duel):
    new_duel(duel)
    inbound.submit(duel, "d", "ann", "RESULT WON", START)
    inbound.submit(duel, "d", "bob", "RESULT WON", START)
    duel.tick(NOW, send=False)
    eng = state(duel)["engine"]
    assert set(eng["requests"]) == {REFEREE} and eng["deadline"] is None
    [notice] = mails(duel, kind="ruling")
    assert notice["To"] == "boss@referee.example"
    assert "pbem ruling d 2 --set winner=ann|bob" in text(notice)
    assert not mails(duel, "cat", "report"), "cat sees nothing new and is asked nothing"
    assert "waiting for referee" in text(mails(duel, "ann", "report")[-1])
    assert duel.tick(later(NOW, 24 * 365), send=False).phases == {}
    assert [r["id"] for r in duel.rulings("d")] == ["2"]


def test_the_referee_rules_and_the_seats_concerned_are_told_why(duel):
    new_duel(duel)
    inbound.submit(duel, "d", "ann", "RESULT WON", START)
    inbound.submit(duel, "d", "bob", "RESULT WON", START)
    duel.tick(NOW, send=False)
    result = CliRunner().invoke(main, [
        "ruling", "d", "2", "--set", "winner=Bob", "--text", "bob sent a photo of the table",
        "--db", str(Path(duel.store.path)), "--now", later(NOW, 2)])
    assert result.exit_code == 0, result.output
    assert state(duel)["engine"]["result"]["winners"] == ["bob"]
    [ruled] = [e for e in duel.events("d", REFEREE) if e["type"] == "ruling_given"]
    assert ruled["payload"]["by"] == REFEREE and ruled["visible_to"] == ["ann", "bob"]
    assert ruled["payload"]["text"] == "bob sent a photo of the table"
    assert "bob sent a photo of the table" in text(mails(duel, "ann", "over")[-1])
    assert "photo" not in text(mails(duel, "cat", "over")[-1])
    assert replay(duel.store, "d", verify=True).ok


@pytest.mark.parametrize("which, values, said", [
    ("2", {"winner": "eve"}, "winner must be one of ann, bob, not 'eve'"),
    ("2", {"winner": "an"}, "did you mean ann?"),
    ("2", {}, "set winner"),
    ("2", {"loser": "ann", "winner": "ann"}, "not 'loser'"),
    ("7", {"winner": "ann"}, "no open ruling '7'; open: 2"),
])
def test_a_ruling_that_makes_no_sense_is_refused_and_changes_nothing(duel, which, values,
                                                                     said):
    new_duel(duel)
    inbound.submit(duel, "d", "ann", "RESULT WON", START)
    inbound.submit(duel, "d", "bob", "RESULT WON", START)
    duel.tick(NOW, send=False)
    before = duel.store.game("d")["last_hash"]
    with pytest.raises(PbemError, match=said):
        duel.rule("d", which, "reasons", values, later(NOW, 1))
    assert duel.store.game("d")["last_hash"] == before


def test_a_ruling_needs_reasons(duel):
    new_duel(duel)
    inbound.submit(duel, "d", "ann", "RESULT WON", START)
    duel.tick(later(START, 49), send=False)
    with pytest.raises(PbemError, match="say why"):
        duel.rule("d", "2", " ", {"winner": "ann"}, later(START, 50))


def test_a_judge_seat_rules_by_mail(duel):
    new_duel(duel, judge="cat")
    inbound.submit(duel, "d", "ann", "RESULT WON", START)
    inbound.submit(duel, "d", "bob", "RESULT LOST", START)
    duel.tick(NOW, send=False)
    assert set(state(duel)["engine"]["requests"]) == {"cat"}
    answer = inbound.submit(duel, "d", "cat", "ruling honour bob he lost well", NOW)
    assert answer["errors"] == []
    duel.tick(later(NOW, 0.1), send=False)
    [ruled] = [e for e in duel.events("d", REFEREE) if e["type"] == "ruling_given"]
    assert ruled["payload"]["by"] == "cat" and ruled["payload"]["set"] == {"honour": "bob"}
    assert ruled["payload"]["text"] == "he lost well"
    assert state(duel)["game"]["honour"] == "bob"
    assert replay(duel.store, "d", verify=True).ok


def test_a_judge_ruling_with_an_unknown_name_says_the_closest(duel):
    new_duel(duel, judge="cat")
    inbound.submit(duel, "d", "ann", "RESULT WON", START)
    inbound.submit(duel, "d", "bob", "RESULT LOST", START)
    duel.tick(NOW, send=False)
    answer = inbound.submit(duel, "d", "cat", "honour bobb", NOW)
    assert answer["errors"] == ["line 1: honour must be one of ann, bob, not 'bobb'; "
                                "did you mean bob?"]


def test_a_silent_judge_gets_its_default_and_the_referee_may_rule_in_its_place(duel):
    new_duel(duel, judge="cat")
    inbound.submit(duel, "d", "ann", "RESULT WON", START)
    inbound.submit(duel, "d", "bob", "RESULT LOST", START)
    duel.tick(NOW, send=False)
    assert [r["id"] for r in duel.rulings("d")] == ["2-cat"]
    duel.tick(later(NOW, 7), send=False)
    [ruled] = [e for e in duel.events("d", REFEREE) if e["type"] == "ruling_given"]
    assert ruled["payload"]["by"] == "default" and ruled["payload"]["set"] == {"honour": "ann"}

    folder = Path(duel.store.path).parent / "again"
    folder.mkdir()
    other = make_referee(folder)
    other.new_game("duel", "d", seats("ann", "bob", "cat"), START, {"judge": "cat"},
                   seed="duel")
    inbound.submit(other, "d", "ann", "RESULT WON", START)
    inbound.submit(other, "d", "bob", "RESULT LOST", START)
    other.tick(NOW, send=False)
    other.rule("d", "2-cat", "the judge is ill", {"honour": "bob"}, later(NOW, 1))
    [ruled] = [e for e in other.events("d", REFEREE) if e["type"] == "ruling_given"]
    assert (ruled["payload"]["by"], ruled["payload"]["asked"]) == (REFEREE, "cat")
    assert other.table("d").state["game"]["honour"] == "bob"
    assert replay(other.store, "d", verify=True).ok


def test_a_judge_must_be_a_seat(duel):
    with pytest.raises(PbemError, match="the judge 'zed' is not one of the seats"):
        new_duel(duel, judge="zed")


def test_an_overlord_gives_its_vassals_orders(duel):
    new_duel(duel, vassal="bob:cat")
    answer = inbound.submit(duel, "d", "bob", "RESULT LOST", START)
    assert "Your orders are given by cat now" in answer["notes"][0]
    assert duel.current_submission("d", "bob", 1) is None
    answer = inbound.submit(duel, "d", "cat", "RESULT LOST", START)
    assert answer["understood"] == ["For bob: result: lost"]
    assert "You give the orders of bob" in text(mails(duel, "cat", "welcome")[0])
    inbound.submit(duel, "d", "ann", "RESULT WON", START)
    duel.tick(NOW, send=False)
    assert state(duel)["engine"]["result"]["winners"] == ["ann"]
    assert mails(duel, "bob", "over"), "the vassal still gets its own reports"


def test_an_overlord_asked_itself_heads_its_vassals_part(duel):
    new_duel(duel, vassal="bob:ann")
    answer = inbound.submit(duel, "d", "ann", "RESULT WON\n\nfor bob:\nRESULT LOST", START)
    assert answer["understood"] == ["result: won", "For bob: result: lost"]
    assert duel.tick(NOW, send=False).phases == {"d": 1}


def test_each_seat_sees_its_own_board_and_no_other_secret(duel):
    new_duel(duel)
    secrets = state(duel)["game"]["secrets"]
    for seat in ("ann", "bob", "cat"):
        body = text(mails(duel, seat, "welcome")[0])
        assert f"secret: {secrets[seat]}" in body
        for other in {"ann", "bob", "cat"} - {seat}:
            if secrets[other] != secrets[seat]:
                assert f"secret: {secrets[other]}" not in body
