"""A phase that asks nobody anything is resolved at once, and the game goes on.

A Diplomacy winter with nothing to build or remove is such a phase: a game
started from it (pbem new --position) opens the next Spring. The same holds in
every game: each one is played here with its first phase asking nobody, and
must open the phase after it, mail its welcome and replay.
"""

import types

from click.testing import CliRunner
import pytest

import pbem.games
from pbem import render
from pbem.adjudicator.contract import canonical
from pbem.cli import main
from pbem.errors import PbemError
from pbem.replay import replay

from conftest import START, make_referee, seats

NOTHING_TO_ADJUST = {
    "three centres, three units": 'germany = ["A BER", "A MUN", "F KIE"]\n'
                                  '[centres]\ngermany = ["BER", "MUN", "KIE"]\n',
    "DATC 6.I.6, no free home centre": 'germany = ["A BER"]\n'
                                       '[centres]\ngermany = ["BER", "WAR"]\n',
}


@pytest.mark.parametrize("units", NOTHING_TO_ADJUST.values(), ids=NOTHING_TO_ADJUST.keys())
def test_a_winter_with_nothing_to_adjust_opens_the_spring(tmp_path, monkeypatch, units):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    (tmp_path / "winter.toml").write_text(f'phase = "winter 1901 adjustment"\n'
                                          f'powers = {{england = "ann", germany = "bob"}}\n[units]\n{units}')
    runner = CliRunner()
    assert runner.invoke(main, ["init"]).exit_code == 0
    made = runner.invoke(main, ["new", "diplomacy", "--id", "w", "--seat", "ann=ann@x.example",
                                "--seat", "bob=bob@x.example", "--position", "winter.toml",
                                "--seed", "s", "--now", START])
    assert made.exit_code == 0, made.output
    shown = runner.invoke(main, ["show", "w"]).output
    assert shown.startswith("Diplomacy, Spring 1902, movement")
    orders = runner.invoke(main, ["orders", "w"]).output
    assert "bob" in orders and "ann" not in orders
    verified = runner.invoke(main, ["replay", "w", "--verify"])
    assert verified.exit_code == 0 and "verified" in verified.output


def test_a_position_that_ends_the_game_before_anyone_is_asked_is_refused(tmp_path):
    referee = make_referee(tmp_path)
    last = {"phase": "winter 1901 adjustment", "units": {"germany": ["A BER"]},
            "centres": {"germany": ["BER"]}}
    with pytest.raises(PbemError, match="over before anyone is asked anything"):
        referee.new_game("diplomacy", "w", seats("ann", "bob"), START, {"years": "1"},
                         seed="s", position=last)
    assert referee.store.game("w") is None


def first_phase_unasked(real):
    """The game `real`, except that its first phase asks nobody: resolved, it plays as if
    every seat it asked had been silent."""
    game = types.ModuleType(real.__name__)
    game.__dict__.update(vars(real))
    first = []

    def pending(state):
        if not first:
            first.append(canonical(state))
        return {} if canonical(state) == first[0] else real.pending(state)

    def resolve(state, orders, rng):
        if canonical(state) == first[0]:
            orders = {seat: real.default_orders(state, seat) for seat in real.pending(state)}
        return real.resolve(state, orders, rng)

    game.pending, game.resolve = pending, resolve
    return game


@pytest.mark.parametrize("name", pbem.games.names())
def test_every_game_goes_past_a_phase_that_asks_nobody(tmp_path, monkeypatch, name):
    real = pbem.games.load(name)
    game = first_phase_unasked(real)
    real_load = pbem.games.load
    monkeypatch.setattr(pbem.games, "load", lambda ruleset: game if ruleset == name
                        else real_load(ruleset))
    render.environment.cache_clear()
    referee = make_referee(tmp_path)
    try:
        referee.new_game(name, "g", seats(*real.DEMO_SEATS), START, real.demo_options(60),
                         seed="unasked")
        engine = referee.table("g").state["engine"]
        assert engine["phase"] == 2 and engine["requests"] and engine["deadline"] > START
        rows = referee.store.event_rows("g")
        assert [r["type"] for r in rows if r["type"] in ("phase_opened", "orders_set")] == \
            ["phase_opened", "orders_set", "phase_opened"]
        assert referee.store.all("SELECT 1 FROM outbox WHERE kind = 'welcome'")
        assert replay(referee.store, "g", verify=True).ok
    finally:
        render.environment.cache_clear()
