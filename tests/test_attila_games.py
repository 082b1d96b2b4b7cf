"""Whole Attila games between bots, through the referee: they never crash, always end, replay.

The bots mail whatever they are asked (turns, bids, confirmations) through the
same path as a player's mail; now and then one stays silent, so default
orders, silent bids and kept orders confirmed by silence happen too.
"""

import pytest

from pbem import inbound
from pbem.adjudicator.rng import PhaseRng
from pbem.games import attila
from pbem.replay import replay

from conftest import START, make_referee, next_phase, seats

NAMES = ["ann", "bob", "cat", "dan", "eve"]
SILENCE = 10          # one bot answer in this many is never sent
MAX_ROUNDS = 1000     # far more phases than any game needs


def play_game(referee, game_id, players, seed, watch=None, french=()) -> None:
    """Play a game to its end; watch(before, after, bids) is called after every phase.

    before/after are the game states around the phase; bids maps each seat
    that bid in it to the words pbem said back ("your bid for ..."). The
    seats named in `french` read their mails in French.
    """
    players = seats(*NAMES[:players])
    for seat in players:
        seat.lang = "fr" if seat.name in french else None
    referee.new_game("attila", game_id, players, START, {}, seed=seed)
    now = START
    for _ in range(MAX_ROUNDS):
        before = referee.table(game_id).state
        engine = before["engine"]
        if engine["over"]:
            return
        bids = {}
        for seat in sorted(engine["requests"]):
            rng = PhaseRng(seed, f"bot:{seat}", engine["phase"])
            if rng.below(SILENCE) == 0:
                continue
            text = attila.bot_orders(before["game"], seat, rng)
            answer = inbound.submit(referee, game_id, seat, text, now)
            assert not answer["errors"], f"the bot's mail {text!r} has errors: {answer['errors']}"
            if engine["requests"][seat]["kind"] == "bid":
                bids[seat] = answer["understood"]
        if watch:
            watch(before, None, bids)
        now = next_phase(referee, game_id, now)
        if watch:
            watch(before, referee.table(game_id).state, bids)
    raise AssertionError(f"game {game_id} did not end in {MAX_ROUNDS} phases")


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_bot_games_end_and_replay_byte_for_byte(tmp_path, players):
    referee = make_referee(tmp_path)
    play_game(referee, "g", players, seed=f"games-{players}")
    state = referee.table("g").state
    result = state["engine"]["result"]
    assert set(result["scores"]) == set(NAMES[:players])
    best = max(result["scores"].values())
    assert result["winners"] == sorted(s for s, p in result["scores"].items() if p == best)
    verdict = replay(referee.store, "g", verify=True)
    assert verdict.ok, verdict.problems[:5]
    assert verdict.state == state


def test_every_turn_of_a_two_seat_game_plays_two_cards_or_three_with_double(tmp_path):
    referee = make_referee(tmp_path)
    play_game(referee, "duel", 2, seed="duel")
    turns = []
    for event in referee.events("duel", None):
        kind, payload = event["type"], event["payload"]
        if kind == "turn_began":
            turns.append({"cards": 0, "double": False})
        elif kind == "pawn_placed" and payload["card"] or kind == "play_lost":
            turns[-1]["cards"] += 1
        elif kind == "tile_used" and payload["tile"] == "double":
            turns[-1]["double"] = True
    assert len(turns) > 10 and any(t["double"] for t in turns)
    assert all(t["cards"] == (3 if t["double"] else 2) for t in turns), turns
