"""A season at the club: a game that runs for months, all by mail and the referee's commands.

Players go on holiday, one falls silent and is replaced, allies plot by
press, an observer follows, the referee pauses for a week and takes back a
mistaken turn; in the end every seat still playing agrees to a draw. Mails
are real RFC 822 mails; the referee types real commands; the log replays
byte for byte at every step.
"""

from click.testing import CliRunner
import pytest

from pbem.adjudicator.rng import PhaseRng
from pbem.cli import main
from pbem.games.auguste import bot_orders

from conftest import START, seats
from players import flat, outbox, reply, text_of


def cli(referee, *args) -> str:
    result = CliRunner().invoke(main, [*args, "--db", referee.store.path],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def verified(referee) -> None:
    assert "verified: the log is exactly what the rules give" in cli(
        referee, "replay", "rome", "--verify")


def turn(referee, now: str, *silent: str) -> str:
    """Every seat asked but the silent ones mails its orders; the turn runs to its deadline.
    Returns the time the next turn opened."""
    table = referee.table("rome")
    eng = table.state["engine"]
    for seat in sorted(eng["requests"]):
        if seat not in silent:
            text = bot_orders(table.state["game"], seat, PhaseRng("club", seat, eng["phase"]))
            row = reply(referee, "rome", seat, f"Hello,\n{text}\nCheers", now)
            assert row["status"] == "done", row["reason"]
    deadline = referee.table("rome").state["engine"]["deadline"]
    referee.tick(deadline)
    return deadline


@pytest.mark.slow
def test_a_season_of_one_game(referee):
    referee.new_game("auguste", "rome", seats("ann", "bob", "cat", "dan"), START,
                     {"preset": "4-2"}, seed="season")
    cli(referee, "observe", "rome", "kibitzer@club.example", "--now", START)
    now = START

    # Allies plot: ann to her team, and bob answers a press mail he got.
    reply(referee, "rome", "ann", "PRESS Caesar\nLet us take the crown by the east.", now)
    reply(referee, "rome", "bob", "PRESS ann\nCare for a truce?", now)
    [truce] = [r for r in outbox(referee, kind="press") if r["seat"] == "ann"]
    reply(referee, "rome", "ann", "A truce until turn 5.", now, answering=truce)
    assert "A truce until turn 5." in text_of(outbox(referee, kind="press", seat="bob")[-1])
    assert not [r for r in outbox(referee) if "by the east" in flat(r)
                and r["to_addr"] in ("bob@players.example", "dan@players.example",
                                     "kibitzer@club.example")]
    now = turn(referee, now)

    # bob goes on holiday: the deadline that falls in it moves to its end.
    reply(referee, "rome", "bob", "ABSENCE 2026-12-04 2026-12-12", now)
    assert referee.table("rome").state["engine"]["deadline"] == "2026-12-13T00:00:00Z"
    now = turn(referee, now)

    # dan falls silent; after two turns the referee is told and gives the seat away.
    now = turn(referee, now, "dan")
    now = turn(referee, now, "dan")
    assert "in civil disorder, to replace: dan" in cli(referee, "list")
    assert outbox(referee, kind="disorder")
    cli(referee, "seat", "rome", "dan", "--replace", "zoe@newcomers.example", "--name", "Zoé",
        "--lang", "fr", "--now", now)
    [history] = outbox(referee, kind="replacement")
    assert "Vous reprenez la place dan" in flat(history) and "by the east" not in flat(history)
    verified(referee)

    # The referee is away for a week.
    cli(referee, "pause", "rome", "--reason", "the referee moves house", "--now", now)
    assert referee.tick("2026-12-31T00:00:00Z").phases == {}
    cli(referee, "resume", "rome", "--now", "2027-01-06T00:00:00Z")
    now = "2027-01-06T00:00:00Z"
    now = turn(referee, now)
    verified(referee)

    # A mistaken turn: the referee takes it back, and it is played again.
    mistaken = referee.table("rome").state["engine"]["phase"] - 1
    cli(referee, "rollback", "rome", "--to-phase", str(mistaken), "--reason",
        "cat's orders went to the wrong address", "--now", now)
    assert "(undone)" in cli(referee, "log", "rome")
    now = turn(referee, now)
    now = turn(referee, now)
    verified(referee)

    # Peace at last: every seat still playing votes for a draw.
    for seat in ("ann", "bob", "cat"):
        reply(referee, "rome", seat, "DRAW", now)
    reply(referee, "rome", "dan", "NULLE", now, sender="zoe@newcomers.example")
    listed = cli(referee, "list")
    assert "over: a draw between ann, bob, cat, dan" in listed
    watched = [r for r in outbox(referee) if r["to_addr"] == "kibitzer@club.example"]
    assert len(watched) > 5 and "a draw between ann, bob, cat, dan" in flat(watched[-1])
    assert "2027" in referee.table("rome").state["engine"]["opened"], "a game of months"
    verified(referee)
