"""Whole Seigneurs games between bots, through the referee: they never crash, always end,
and replay byte for byte.

The bots mail whatever they are asked (villages, farms, taxes, oppositions,
fights, offers, buildings, moves, growth, rulings) through the same path as a
player's mail; now and then one stays silent, so every default happens too.
"""

import pytest

from pbem import inbound
from pbem.adjudicator.contract import REFEREE
from pbem.adjudicator.rng import PhaseRng
from pbem.errors import PbemError
from pbem.games import seigneurs
from pbem.replay import replay
from pbem.timeutil import later

from conftest import START, make_referee, seats

LORDS = ["ann", "bob", "cat", "dan", "eve"]
SILENCE = 10        # one bot answer in this many is never sent
MAX_PHASES = 2000   # far more phases than any game needs


def play_game(referee, game_id, lords, seed, turns=3, watch=None) -> None:
    """Play a game to its end; watch(before, after) is called around every phase."""
    names = LORDS[:lords] + ["zed"]
    referee.new_game("seigneurs", game_id, seats(*names), START,
                     {"judge": "zed", "turns": str(turns)}, seed=seed)
    now = START
    for _ in range(MAX_PHASES):
        before = referee.table(game_id).state
        engine = before["engine"]
        if engine["over"]:
            return
        for seat in sorted(engine["requests"]):
            rng = PhaseRng(seed, f"bot:{seat}", engine["phase"])
            if rng.below(SILENCE) == 0:
                continue
            text = seigneurs.bot_orders(before["game"], seat, rng)
            answer = inbound.submit(referee, game_id, seat, text, now)
            assert not answer["errors"], f"the bot's mail {text!r} has errors: {answer['errors']}"
        if watch:
            watch(before, None)
        now = later(now, 1)
        if not referee.tick(now, send=False).phases:
            now = referee.table(game_id).state["engine"]["deadline"]
            assert referee.tick(now, send=False).phases, "a due phase was not resolved"
        if watch:
            watch(before, referee.table(game_id).state)
    raise AssertionError(f"game {game_id} did not end in {MAX_PHASES} phases")


@pytest.mark.slow
@pytest.mark.parametrize("lords,seed", [(2, "g2"), (3, "g3"), (5, "g5")])
def test_bot_games_end_and_replay_byte_for_byte(tmp_path, lords, seed):
    referee = make_referee(tmp_path)
    play_game(referee, "g", lords, seed=seed, turns=2)
    state = referee.table("g").state
    result = state["engine"]["result"]
    assert result["winners"] and set(result["winners"]) <= set(LORDS[:lords] + ["zed"])
    verdict = replay(referee.store, "g", verify=True)
    assert verdict.ok, verdict.problems[:5]
    assert verdict.state == state
    kinds = {e["type"] for e in referee.events("g", REFEREE)}
    assert {"produced", "taxed", "card_chosen", "invaders_entered", "game_decided",
            "agreement_recorded" if state["game"]["agreements"] else "game_decided"} <= kinds


@pytest.mark.slow
def test_a_game_trades_fights_revolts_and_is_judged(tmp_path):
    referee = make_referee(tmp_path)
    play_game(referee, "g", 4, seed="g4", turns=3)
    verdict = replay(referee.store, "g", verify=True)
    assert verdict.ok, verdict.problems[:5]
    kinds = [e["type"] for e in referee.events("g", REFEREE)]
    for kind in ("traded", "price_moved", "combat_rolled", "revolt_drawn", "farms_freed",
                 "ruling_given", "game_decided"):
        assert kind in kinds, f"no {kind} in a four-lord game"
    judged = [e for e in referee.events("g", REFEREE) if e["type"] == "ruling_given"]
    assert judged[-1]["payload"]["asked"] == "zed"


def test_the_barbarian_must_be_named_and_lords_counted(tmp_path):
    referee = make_referee(tmp_path)
    with pytest.raises(PbemError, match="needs a barbarian"):
        referee.new_game("seigneurs", "g", seats("ann", "bob", "zed"), START, {})
    with pytest.raises(PbemError, match="2 to 5 lords"):
        referee.new_game("seigneurs", "g", seats("ann", "zed"), START, {"judge": "zed"})
    with pytest.raises(PbemError, match="not one of the seats"):
        referee.new_game("seigneurs", "g", seats("ann", "bob", "zed"), START, {"judge": "eve"})
    with pytest.raises(PbemError, match="turns must be a whole number"):
        referee.new_game("seigneurs", "g", seats("ann", "bob", "zed"), START,
                         {"judge": "zed", "turns": "many"})


REVOLT = {
    "stage": "growth",
    "villages": {"ann": ["C2", "C3"], "bob": ["C6", "C7"]},
    "farms": {"B2": "ann", "D2": "ann", "I5": "bob"},
    "goods": {"B2": {"wood": 1}, "I5": {"food": 4}},
    "jacquerie": {"ann": {"jacquerie": 1}},
    "tokens": {"ann": 1},
}


def test_the_referee_rules_in_the_barbarians_place(tmp_path):
    referee = make_referee(tmp_path)
    referee.new_game("seigneurs", "r", seats("ann", "bob", "zed"), START, {"judge": "zed"},
                     seed="rule", position=REVOLT)
    inbound.submit(referee, "r", "bob", "pass", START)
    referee.tick(later(START, 1), send=False)
    [ruling] = referee.rulings("r")
    assert ruling["asked"] == "zed" and ruling["choices"] == {"ann-1": ["b2", "d2"]}
    with pytest.raises(PbemError, match="must be one of b2, d2"):
        referee.rule("r", ruling["id"], "the judge is away", {"ann-1": "d3"}, later(START, 2))
    referee.rule("r", ruling["id"], "the judge is away; D2 was neglected", {"ann-1": "d2"},
                 later(START, 2))
    game = referee.table("r").state["game"]
    assert game["farms"]["D2"] is None and game["farms"]["B2"] == "ann"
    given = [e for e in referee.events("r", "ann") if e["type"] == "ruling_given"]
    assert given[-1]["payload"]["by"] == REFEREE
    assert given[-1]["payload"]["text"] == "the judge is away; D2 was neglected"


@pytest.mark.slow
def test_the_demo_plays_a_whole_game_that_the_barbarian_judges(tmp_path):
    from pbem.demo import play
    summary = play("seigneurs", "demo", tmp_path / "demo", turns=3)
    assert "Replay: verified, byte for byte" in "\n".join(summary)
    assert any(line.startswith("Result: ") and line.endswith("won (the barbarian's judgement)")
               for line in summary), summary


def test_the_barbarians_bot_places_free_farms_when_five_villages_crowd_the_valley(tmp_path):
    """Five villages leave no open tile 3 steps from them all: the bot still writes farms."""
    referee = make_referee(tmp_path)
    referee.new_game("seigneurs", "g", seats(*LORDS, "zed"), START, {"judge": "zed"}, seed="b5")
    homes = {"ann": "E7 E8", "bob": "B5 B6", "cat": "F1 F2", "dan": "H4 I3", "eve": "B2 C2"}
    for lord, tiles in homes.items():
        assert not inbound.submit(referee, "g", lord, f"village {tiles}", START)["errors"]
    referee.tick(later(START, 1), send=False)
    state = referee.table("g").state
    assert state["game"]["stage"] == "farms"
    for phase in range(20):
        text = seigneurs.bot_orders(state["game"], "zed", PhaseRng("b5", "bot:zed", phase))
        answer = inbound.submit(referee, "g", "zed", text, later(START, 1))
        assert not answer["errors"], f"the bot's mail {text!r} has errors: {answer['errors']}"
        assert text.count("farm ") == 3
