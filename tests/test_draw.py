"""DRAW and CONCEDE by mail: a game ends in a draw when every seat still playing votes for it
before the vote lapses (once each has had a turn to answer); a seat that concedes plays its
default orders for ever."""

import sqlite3

from click.testing import CliRunner
import pytest

from pbem.app import SeatSpec
from pbem.cli import main
from pbem.replay import replay

from conftest import START, seats
from players import answer_to, flat, outbox, reply, text_of


@pytest.fixture
def three(referee):
    referee.new_game("auguste", "rome", [SeatSpec("ann", "ann@players.example"),
                                         SeatSpec("bob", "bob@players.example"),
                                         SeatSpec("cat", "cat@players.example", lang="fr")],
                     START, {"preset": "3-3"}, seed="three")
    return referee


def engine(referee):
    return referee.table("rome").state["engine"]


def test_a_draw_every_seat_votes_for_ends_the_game(three):
    referee = three
    said = flat(answer_to(referee, reply(referee, "rome", "ann", "DRAW", START)))
    assert "Still to vote: bob, cat." in said
    [to_bob] = outbox(referee, kind="draw", seat="bob")
    assert "ann votes to end the game in a draw; votes so far: ann." in flat(to_bob)
    assert "To agree, reply with DRAW" in flat(to_bob)
    [to_cat] = outbox(referee, kind="draw", seat="cat")
    assert "ann propose une nulle" in str(to_cat["subject"])
    reply(referee, "rome", "bob", "draw", START)
    assert not engine(referee)["over"]
    said = flat(answer_to(referee, reply(referee, "rome", "cat", "Bonjour\nNULLE\nMerci", START)))
    assert "Toutes les places encore en jeu ont voté la nulle : la partie est terminée." in said
    eng = engine(referee)
    assert eng["over"] and eng["result"]["draw"] == ["ann", "bob", "cat"]
    for over in outbox(referee, kind="over"):
        said = "une nulle entre ann, bob, cat (une nulle acceptée par toutes les places encore " \
            "en jeu)" if over["seat"] == "cat" else \
            "a draw between ann, bob, cat (a draw agreed by every seat still playing)"
        assert said in flat(over) and "three" in text_of(over)
    listed = CliRunner().invoke(main, ["list", "--db", referee.store.path]).output
    assert "over: a draw between ann, bob, cat (a draw agreed by every seat still playing)" in \
        listed
    assert replay(referee.store, "rome", verify=True).ok


def test_a_draw_vote_stands_until_every_seat_had_a_turn_to_answer(three):
    referee = three
    reply(referee, "rome", "ann", "DRAW", START)
    referee.tick(engine(referee)["deadline"], send=False)
    assert engine(referee)["draw"]["votes"] == ["ann"], \
        "bob and cat were asked nothing since the vote: it still stands"
    reply(referee, "rome", "bob", "DRAW", START)
    assert engine(referee)["draw"]["votes"] == ["ann", "bob"]
    referee.tick(engine(referee)["deadline"], send=False)
    assert engine(referee)["draw"]["votes"] == ["ann", "bob"], \
        "cat was asked in a turn opened before bob's vote: it has this one to answer"
    assert outbox(referee, kind="draw", seat="ann") == []
    referee.tick(engine(referee)["deadline"], send=False)
    assert "draw" not in engine(referee), "every seat had a whole turn to answer: it lapsed"
    for seat in ("ann", "bob"):
        [told] = [r for r in outbox(referee, kind="draw", seat=seat) if "lapsed" in r["subject"]]
        assert "The vote for a draw (ann, bob) lapsed: not every seat still playing voted for " \
            "it before each had a turn to answer." in flat(told)
    assert not [r for r in outbox(referee, kind="draw", seat="cat") if "caduc" in r["subject"]]
    reply(referee, "rome", "bob", "DRAW", START)
    reply(referee, "rome", "cat", "DRAW", START)
    assert not engine(referee)["over"] and engine(referee)["draw"]["votes"] == ["bob", "cat"]
    assert replay(referee.store, "rome", verify=True).ok


def test_a_vote_cast_again_is_counted_again_and_never_forgotten(three):
    """gaston was told "déjà compté"; 9 hours later the tally read "votes so far: hugo":
    his vote had lapsed in between, and nobody told him."""
    referee = three
    reply(referee, "rome", "ann", "DRAW", START)
    referee.tick(engine(referee)["deadline"], send=False)  # bob and cat are asked again
    told = outbox(referee, kind="draw")
    said = flat(answer_to(referee, reply(referee, "rome", "ann", "DRAW", START)))
    assert "Your vote for a draw was counted already; it is counted again" in said, said
    assert "Votes so far: ann. Still to vote: bob, cat." in said
    assert outbox(referee, kind="draw") == told, "the others are not told again"
    referee.tick(engine(referee)["deadline"], send=False)
    said = flat(answer_to(referee, reply(referee, "rome", "bob", "DRAW", START)))
    assert engine(referee)["draw"]["votes"] == ["ann", "bob"]
    [to_cat] = [r for r in outbox(referee, kind="draw", seat="cat")
                if "bob propose" in str(r["subject"])]
    assert "votes jusqu'ici : ann, bob." in flat(to_cat)


@pytest.mark.parametrize("line", ["NULLE (encore !)", "Nulle, encore une fois", "Ok, DRAW from "
                                  "me too", "DRAW - let's call it a day", "Je vote NULLE"])
def test_a_vote_with_chat_around_it_is_a_vote(three, line):
    referee = three
    row = reply(referee, "rome", "cat", f"Salut,\n{line}\nCat", START)
    assert engine(referee)["draw"]["votes"] == ["cat"], row["reason"]
    said = flat(answer_to(referee, row))
    assert "Votre vote pour la nulle est compté." in said and "ligne 2 :" in said
    assert "Ligne par ligne : 1 mise de côté ; 2 NULLE ; 3 mise de côté." in said


@pytest.mark.parametrize("line", ["NO DRAW", "DRAW?", "Draw? What do you think?", "pas de NULLE "
                                  "pour moi", "Draw the line at the river", "I won't DRAW"])
def test_a_question_or_a_denial_is_no_vote(three, line):
    referee = three
    reply(referee, "rome", "ann", f"{line}\npass", START)
    assert "draw" not in engine(referee)


def test_a_vote_answering_the_mail_that_proposed_it_counts_after_that_turn_closed(referee):
    """cat proposed a draw in ann's turn, which ended in the same tick; ann answered "cat
    proposes a draw" with DRAW, and was told it "answers phase 1, which is over"."""
    referee.new_game("attila", "huns", seats("ann", "bob", "cat"), START, seed="draw")
    first = referee.table("huns").state["game"]["turn"]["seat"]
    proposer, answerer = [s for s in ("ann", "bob", "cat") if s != first][:1][0], first
    reply(referee, "huns", proposer, "DRAW", START)
    [proposal] = outbox(referee, kind="draw", seat=answerer)
    assert proposal["asked"], "the proposal came while the answerer was asked"
    referee.tick(referee.table("huns").state["engine"]["deadline"], send=False)
    assert referee.table("huns").state["engine"]["phase"] == 2
    row = reply(referee, "huns", answerer, "Yes!\nDRAW", START, answering=proposal)
    assert row["status"] == "done", row["reason"]
    assert engine_of(referee)["draw"]["votes"] == sorted([proposer, answerer])
    assert "is over" not in flat(answer_to(referee, row))


def test_a_seat_that_concedes_plays_its_defaults_and_no_longer_holds_anything_up(three):
    referee = three
    said = flat(answer_to(referee, reply(referee, "rome", "bob", "CONCEDE", START)))
    assert "You conceded: your seat plays its default orders from now on" in said
    assert "bob concedes: the seat plays its default orders from now on." in flat(
        outbox(referee, kind="concession", seat="ann")[0])
    assert "bob abandonne" in flat(outbox(referee, kind="concession", seat="cat")[0])
    said = flat(answer_to(referee, reply(referee, "rome", "bob", "pass", START)))
    assert "You conceded, so these orders were not recorded" in said
    assert referee.current_submission("rome", "bob", 1) is None
    reply(referee, "rome", "ann", "pass", START)
    reply(referee, "rome", "cat", "pass", START)
    assert referee.tick(START, send=False).phases == {"rome": 1}, "nobody waits for bob"
    late = [e for e in referee.events("rome", None) if e["type"] == "seats_late"]
    assert late == [], "a seat that conceded is not late"
    reply(referee, "rome", "ann", "DRAW", START)
    said = flat(answer_to(referee, reply(referee, "rome", "bob", "DRAW", START)))
    assert "You are no longer playing this game, so you have no vote for a draw." in said
    reply(referee, "rome", "cat", "DRAW", START)
    assert engine(referee)["result"]["draw"] == ["ann", "cat"]
    assert replay(referee.store, "rome", verify=True).ok


def test_a_concession_completes_a_draw_the_others_voted_for(three):
    referee = three
    reply(referee, "rome", "ann", "DRAW", START)
    reply(referee, "rome", "bob", "DRAW", START)
    reply(referee, "rome", "cat", "ABANDON", START)
    assert engine(referee)["result"]["draw"] == ["ann", "bob"]
    assert replay(referee.store, "rome", verify=True).ok


def test_replay_refuses_a_draw_not_every_survivor_voted_for(three):
    referee = three
    reply(referee, "rome", "ann", "DRAW", START)
    reply(referee, "rome", "bob", "DRAW", START)
    reply(referee, "rome", "cat", "DRAW", START)
    conn = sqlite3.connect(referee.store.path)
    conn.execute("DROP TRIGGER events_no_update")
    seq = conn.execute("SELECT seq FROM events WHERE type = 'draw_voted' "
                       "ORDER BY seq DESC").fetchone()[0]
    conn.execute("UPDATE events SET payload = json_set(payload, '$.votes', "
                 "json('[\"ann\",\"bob\"]')) WHERE seq = ?", [seq])
    conn.commit()
    problems = replay(referee.store, "rome", verify=True).problems
    assert any("the draw is not every surviving seat's vote" in p for p in problems)


def test_a_game_may_name_its_survivors(referee, monkeypatch):
    from pbem.games import auguste
    monkeypatch.setattr(auguste, "survivors", lambda state: ["ann", "cat"], raising=False)
    referee.new_game("auguste", "rome", seats("ann", "bob", "cat"), START, {"preset": "3-3"},
                     seed="s")
    reply(referee, "rome", "ann", "DRAW", START)
    said = flat(answer_to(referee, reply(referee, "rome", "bob", "DRAW", START)))
    assert "no vote for a draw" in said
    reply(referee, "rome", "cat", "DRAW", START)
    assert engine(referee)["result"]["draw"] == ["ann", "cat"]


def test_in_a_game_of_sequential_turns_a_draw_vote_stands_a_full_round(referee):
    referee.new_game("attila", "huns", seats("ann", "bob", "cat"), START, seed="draw")
    table = referee.table("huns")
    order = [s for s in table.state["game"]["seats"]]
    first = table.state["game"]["turn"]["seat"]
    others = [s for s in order if s != first]
    reply(referee, "huns", first, "DRAW", START)
    assert sorted(r["seat"] for r in outbox(referee, kind="draw")) == sorted(others), \
        "the others hear of it at once"
    told = flat(outbox(referee, kind="draw")[0])
    assert "the vote stands until each of them has had a turn to answer" in told
    referee.tick(referee.table("huns").state["engine"]["deadline"], send=False)
    now = referee.table("huns").state
    assert now["game"]["turn"]["seat"] != first and now["engine"]["draw"]["votes"] == [first], \
        "the vote outlives the turn it was cast in"
    reply(referee, "huns", now["game"]["turn"]["seat"], "DRAW", START)
    referee.tick(referee.table("huns").state["engine"]["deadline"], send=False)
    last = referee.table("huns").state["game"]["turn"]["seat"]
    assert referee.table("huns").state["engine"]["draw"]["votes"] == sorted(
        [first, now["game"]["turn"]["seat"]])
    reply(referee, "huns", last, "NULLE", START)
    assert engine_of(referee)["over"] and engine_of(referee)["result"]["draw"] == sorted(order)
    assert replay(referee.store, "huns", verify=True).ok


def test_a_draw_vote_lapses_once_every_seat_had_its_turn_and_said_nothing(referee):
    referee.new_game("attila", "huns", seats("ann", "bob", "cat"), START, seed="draw")
    first = referee.table("huns").state["game"]["turn"]["seat"]
    reply(referee, "huns", first, "DRAW", START)
    for _ in range(3):
        assert "draw" in engine_of(referee)
        referee.tick(engine_of(referee)["deadline"], send=False)
    assert "draw" not in engine_of(referee), "each seat had a whole turn to answer"
    assert replay(referee.store, "huns", verify=True).ok


def engine_of(referee):
    return referee.table("huns").state["engine"]
