"""Rollback: the referee takes a game back to the start of a phase; the log stays whole.

The events since stay in the log, marked undone; every seat gets the board of
the reopened phase; replay --verify checks the state returned to against the
log's own hash, and every later phase as usual.
"""

import json
import sqlite3

from click.testing import CliRunner
import pytest

from pbem import inbound
from pbem.adjudicator import engine as rules
from pbem.adjudicator.rng import PhaseRng
from pbem.cli import main
from pbem.errors import PbemError
from pbem.games.auguste import bot_orders
from pbem.replay import replay
from pbem.store import row_event
from pbem.timeutil import later

from conftest import START
from players import flat, outbox, reply
from test_table import dump


def cli(referee, *args, code=0) -> str:
    result = CliRunner().invoke(main, [*args, "--db", referee.store.path],
                                catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result.output


def play_phase(referee, game="rome", salt="bots"):
    """Every seat asked sends a bot's orders; the phase resolves. Returns the time after."""
    table = referee.table(game)
    eng = table.state["engine"]
    now = eng["opened"]
    for seat in sorted(eng["requests"]):
        text = bot_orders(table.state["game"], seat, PhaseRng(salt, seat, eng["phase"]))
        inbound.submit(referee, game, seat, text, now)
    referee.tick(later(now, 1), send=False)
    return later(now, 1)


def state_before_phase(referee, phase, game="rome") -> dict:
    rows = list(referee.store.event_rows(game))
    start = rules.live_phases(rows)[phase]["start"]
    return rules.fold(referee.table(game).game, [row_event(r) for r in rows if r["seq"] < start])


def test_a_rollback_reopens_a_phase_from_the_state_before_it(auguste_game):
    referee = auguste_game
    play_phase(referee)
    before_two = state_before_phase(referee, 2)
    play_phase(referee)
    reply(referee, "rome", "ann", "PRESS bob\nabout turn three", START)
    now = play_phase(referee)
    assert referee.table("rome").state["engine"]["phase"] == 4
    first_two = rules.live_phases(list(referee.store.event_rows("rome")))[2]["start"]
    out = cli(referee, "rollback", "rome", "--to-phase", "2", "--reason",
              "bob's orders were lost", "--now", now)
    assert "is back at the start of phase 2" in out
    state = referee.table("rome").state
    assert state["game"] == before_two["game"]
    assert state["engine"]["phase"] == 2 and state["engine"]["deadline"] == later(now, 48)
    assert state == replay(referee.store, "rome").state, "the snapshot is the log's state"
    statuses = {(r["phase"], r["status"]) for r in referee.store.all(
        "SELECT phase, status FROM submissions")}
    assert statuses == {(1, "current"), (2, "undone"), (3, "undone")}

    logged = json.loads(cli(referee, "log", "rome", "--referee", "--json"))
    [back] = [e["seq"] for e in logged if e["type"] == "phase_rolled_back"]
    assert {e["seq"] for e in logged if e["undone"]} == {
        e["seq"] for e in logged if first_two <= e["seq"] < back and e["type"] != "press"}
    assert not any(e["undone"] for e in logged if e["type"] == "press"), "press is not undone"
    text = cli(referee, "log", "rome")
    assert "(undone)" in text and "The referee took the game back to turn 2: bob's orders " \
        "were lost. What happened since is undone, and turn 2 is open again." in text
    report = flat(outbox(referee, kind="report", seat="cat")[-1])
    assert "The referee took the game back to turn 2: bob's orders were lost." in report, \
        "a player reads the turn its mails named, not the phase's number"
    assert "Orders for turn 2." in report
    assert "verified" in cli(referee, "replay", "rome", "--verify")

    play_phase(referee, salt="again")
    play_phase(referee, salt="again")
    assert referee.table("rome").state["engine"]["phase"] == 4
    verdict = replay(referee.store, "rome", verify=True)
    assert verdict.ok, verdict.problems
    assert referee.table("rome").state == verdict.state


def test_history_lists_a_reopened_phase_once_and_the_log_marks_the_old_one(auguste_game):
    referee = auguste_game
    play_phase(referee)
    play_phase(referee)
    undone_line = [e for e in referee.events("rome", "ann")
                   if e["type"] == "turn_ended"][-1]
    referee.rollback("rome", 2, "a mistake", later(START, 100))
    play_phase(referee, salt="again")
    row = reply(referee, "rome", "ann", "HISTORY", later(START, 101))
    assert row["status"] == "done"
    listing = flat(outbox(referee, kind="history", seat="ann")[-1])
    assert listing.count("Turn 2, opened") == 1
    assert "Turn 2, opened Sat 5 Dec 2026 16:00 (UTC)" in listing, "the phase reopened"
    assert undone_line["undone"] is False
    assert any(e["undone"] for e in referee.events("rome", "ann") if e["seq"] ==
               undone_line["seq"])


def test_a_paused_game_stays_paused_after_a_rollback(auguste_game):
    referee = auguste_game
    play_phase(referee)
    referee.pause("rome", "sorting out a mistake", later(START, 10))
    referee.rollback("rome", 1, "the first turn was wrong", later(START, 11))
    eng = referee.table("rome").state["engine"]
    assert eng["phase"] == 1 and eng["paused"]["reason"] == "sorting out a mistake"
    assert eng["paused"]["left"] == 48 * 3600 and eng["deadline"] is None
    referee.resume("rome", later(START, 20))
    assert referee.table("rome").state["engine"]["deadline"] == later(START, 68)
    assert replay(referee.store, "rome", verify=True).ok


def test_a_phase_waiting_for_a_ruling_is_reopened_and_the_referee_asked_again(tmp_path):
    from test_engine_tools import new_duel
    import importlib
    import sys
    from pathlib import Path
    import pbem.games
    from pbem import render
    from conftest import make_referee
    sys.path.insert(0, str(Path(__file__).parent))
    toy = importlib.import_module("toygame")
    real_load, real_names = pbem.games.load, pbem.games.names
    try:
        pbem.games.load = lambda name: toy if name == "duel" else real_load(name)
        pbem.games.names = lambda: sorted(real_names() + ["duel"])
        render.environment.cache_clear()
        duel = make_referee(tmp_path)
        new_duel(duel)
        inbound.submit(duel, "d", "ann", "RESULT WON", START)
        inbound.submit(duel, "d", "bob", "RESULT WON", START)
        duel.tick(later(START, 1), send=False)
        assert duel.rulings("d")[0]["id"] == "2"
        asked = len(outbox(duel, kind="ruling"))
        duel.rollback("d", 2, "asked too soon", later(START, 2))
        eng = duel.table("d").state["engine"]
        assert eng["phase"] == 2 and eng["deadline"] is None and "referee" in eng["requests"]
        assert len(outbox(duel, kind="ruling")) == asked + 1
        duel.rule("d", "2", "photo", {"winner": "bob"}, later(START, 3))
        assert duel.table("d").state["engine"]["result"]["winners"] == ["bob"]
        assert replay(duel.store, "d", verify=True).ok
    finally:
        pbem.games.load, pbem.games.names = real_load, real_names
        render.environment.cache_clear()


@pytest.mark.parametrize("args,code,said", [
    (["--to-phase", "9", "--reason", "x"], 1, "game rome has no phase 9; its phases are 1 to 2"),
    (["--to-phase", "0", "--reason", "x"], 2, "x>=1"),
    (["--to-phase", "1"], 2, "--reason"),
    (["--to-phase", "1", "--reason", "  "], 1, "say why"),
])
def test_a_rollback_that_makes_no_sense_is_refused(auguste_game, args, code, said):
    play_phase(auguste_game)
    before = dump(auguste_game)
    assert said in cli(auguste_game, "rollback", "rome", *args, code=code)
    assert dump(auguste_game) == before


def test_a_finished_game_is_never_taken_back(auguste_game):
    auguste_game.end("rome", "done", later(START, 1))
    with pytest.raises(PbemError, match="its seed was revealed"):
        auguste_game.rollback("rome", 1, "oops", later(START, 2))


def test_replay_refuses_a_rollback_to_a_state_the_game_never_had(auguste_game):
    referee = auguste_game
    play_phase(referee)
    play_phase(referee)
    referee.rollback("rome", 2, "a mistake", later(START, 100))
    conn = sqlite3.connect(referee.store.path)
    conn.execute("DROP TRIGGER events_no_update")
    seq, payload = conn.execute("SELECT seq, payload FROM events WHERE type = "
                                "'state_restored'").fetchone()
    forged = json.loads(payload)
    forged["state"]["game"]["turn"] = 99
    conn.execute("UPDATE events SET payload = ? WHERE seq = ?",
                 [json.dumps(forged, sort_keys=True, separators=(",", ":")), seq])
    conn.commit()
    problems = replay(referee.store, "rome", verify=True).problems
    assert any(p.startswith(f"seq {seq}: the state restored is not the state after seq")
               for p in problems)
