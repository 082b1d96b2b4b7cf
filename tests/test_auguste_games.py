"""Random bot games of Auguste: they never crash, and replay --verify reproduces each one."""

import pytest

from pbem import inbound
from pbem.adjudicator.rng import PhaseRng
from pbem.games.auguste import bot_orders
from pbem.replay import replay
from pbem.timeutil import later

from conftest import START, make_referee, seats

GAMES = [
    ("4-2", 4, {}),
    ("6-2", 6, {}),
    ("6-3", 3, {"trumps": "yes"}),
    ("3-3", 3, {"board": "fast"}),
    ("5-5", 5, {"trumps": "yes"}),
    ("2-2-1", 5, {}),
    ("4-2", 2, {"trumps": "yes", "board": "fast"}),
    ("6-2", 2, {"chrono": "yes", "handicap": "red:4"}),
]


def play(referee, game_id, seed, turns):
    """Bots answer every request (each stays silent now and then) until the game ends."""
    now = START
    for _ in range(turns * 3):
        table = referee.table(game_id)
        eng = table.state["engine"]
        if eng["over"]:
            return table
        for seat in sorted(eng["requests"]):
            rng = PhaseRng(seed, f"bot:{seat}", eng["phase"])
            if rng.below(10):
                text = bot_orders(table.state["game"], seat, rng)
                answer = inbound.submit(referee, game_id, seat, text, now)
                assert answer["errors"] == [], (text, answer)
        now = later(eng["deadline"], 0)
        referee.tick(now, send=False)
    raise AssertionError(f"{game_id} did not end within {turns} turns")


@pytest.mark.parametrize("preset,players,options", GAMES,
                         ids=[f"{p}-{n}p-{'-'.join(o) or 'plain'}" for p, n, o in GAMES])
def test_bot_game_ends_and_replays_byte_for_byte(tmp_path, preset, players, options):
    referee = make_referee(tmp_path)
    names = ["ann", "bob", "cat", "dan", "eve", "fay"][:players]
    seed = f"{preset}-{players}-{sorted(options)}"
    referee.new_game("auguste", "g", seats(*names), START,
                     {"preset": preset, "max_turns": 25, **options}, seed=seed)
    table = play(referee, "g", seed, 25)
    assert table.state["engine"]["result"] is not None
    verdict = replay(referee.store, "g", verify=True)
    assert verdict.ok, verdict.problems[:3]
    assert verdict.state_hash == replay(referee.store, "g").state_hash
