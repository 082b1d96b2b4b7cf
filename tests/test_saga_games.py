"""Whole SAGA campaigns between bots, through the referee: they never crash, always end, replay.

The bots mail whatever they are asked (signup, turns, the answer after a
scouting, retreats, battle choices, battle reports, the aftermath, units to
disband) through the same path as a player's mail; a vassal's orders come
from its overlord's mail, under a "for SEAT:" line. Now and then a bot stays
silent (default orders), and now and then one claims a victory it did not
win, so the scripted referee rules with `Referee.rule`, as `pbem ruling`
does.
"""

import pytest

from pbem import inbound
from pbem.adjudicator.contract import REFEREE
from pbem.adjudicator.rng import PhaseRng
from pbem.games import saga
from pbem.games.saga.rules import standing
from pbem.i18n import said, speaking
from pbem.replay import replay
from pbem.timeutil import later

from conftest import START, make_referee, seats

NAMES = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jon"]
SILENCE = 12          # one bot answer in this many is never sent
MAX_PHASES = 2000     # far more phases than any campaign here needs


def bot_mail(game, seat, rng) -> tuple[str, str]:
    """(writer, text): the mail that answers for `seat`, from the seat that gives its orders."""
    writer = saga.controller(game, seat) or seat
    text = saga.bot_orders(game, seat, rng)
    return writer, (text if writer == seat else f"for {seat}:\n{text}")


def play_campaign(referee, game_id, players, seed, options, watch=None) -> None:
    """Play a campaign to its end; watch(before, after) is called after every phase."""
    referee.new_game("saga", game_id, seats(*NAMES[:players]), START, options, seed=seed)
    now = START
    for _ in range(MAX_PHASES):
        before = referee.table(game_id).state
        engine = before["engine"]
        if engine["over"]:
            return
        if REFEREE in engine["requests"]:
            rng = PhaseRng(seed, "bot:referee", engine["phase"])
            values, text = saga.bot_ruling(before["game"], engine["requests"][REFEREE], rng)
            [ruling] = referee.rulings(game_id)
            referee.rule(game_id, ruling["id"], text, values, now)
        else:
            for seat in sorted(engine["requests"]):
                rng = PhaseRng(seed, f"bot:{seat}", engine["phase"])
                if rng.below(SILENCE) == 0:
                    continue
                writer, text = bot_mail(before["game"], seat, rng)
                answer = inbound.submit(referee, game_id, writer, text, now)
                assert not answer["errors"], f"the bot's mail {text!r} has errors: " \
                                             f"{answer['errors']}"
            now = later(now, 1)
            if not referee.tick(now, send=False).phases:
                now = referee.table(game_id).state["engine"]["deadline"]
                assert referee.tick(now, send=False).phases, "a due phase was not resolved"
        if watch:
            watch(before, referee.table(game_id).state)
    raise AssertionError(f"campaign {game_id} did not end in {MAX_PHASES} phases")


def kinds(referee, game_id) -> set[str]:
    """Every type of event the campaign's log holds."""
    return {e["type"] for e in referee.events(game_id, REFEREE)}


@pytest.mark.slow
@pytest.mark.parametrize("players", range(2, 11))
def test_bot_campaigns_end_and_replay_byte_for_byte(tmp_path, players):
    referee = make_referee(tmp_path)
    rounds = 8 if players <= 4 else 3
    play_campaign(referee, "g", players, seed=f"campaign-{players}",
                  options={"rounds": str(rounds)})
    state = referee.table("g").state
    result = state["engine"]["result"]
    game = state["game"]
    assert set(result["scores"]) == set(NAMES[:players])
    if "rounds" in result["reason"]:
        best = max(standing(game, s) for s in game["seats"])
        assert result["winners"] == sorted(s for s in game["seats"]
                                           if standing(game, s) == best)
    verdict = replay(referee.store, "g", verify=True)
    assert verdict.ok, verdict.problems[:5]
    assert verdict.state == state


@pytest.mark.slow
def test_campaigns_fight_dispute_rule_and_swear_fealty(tmp_path):
    seen = set()
    for number in range(3):
        folder = tmp_path / str(number)
        folder.mkdir()
        referee = make_referee(folder)
        play_campaign(referee, "g", 4, seed=f"rich-{number}", options={"rounds": "12"})
        seen |= kinds(referee, "g")
        assert replay(referee.store, "g", verify=True).ok
    assert seen >= {"scouted", "stayed", "battle_set", "battle_won", "battle_disputed",
                    "ruling_given", "table_rolled", "units_lost", "army_fell_back",
                    "zone_taken", "unit_recruited", "vassal_sworn", "army_retreated"}


def test_a_campaign_ends_when_a_player_holds_enough_zones(tmp_path):
    referee = make_referee(tmp_path)
    play_campaign(referee, "g", 3, seed="goal", options={"zones_to_win": "5"})
    result = referee.table("g").state["engine"]["result"]
    assert said(result["reason"]) == "held 5 zones"
    with speaking("fr"):
        assert said(result["reason"]) == "tient 5 zones"
    assert max(result["scores"].values()) >= 5
    assert replay(referee.store, "g", verify=True).ok


@pytest.mark.slow
def test_bot_recruits_only_where_the_units_can_go(tmp_path):
    """The bot names a zone of its own with room for each recruit, and buys with the gold
    upkeep leaves: none of its recruits is refused, and it does recruit."""
    recruited = 0
    for number in range(3):
        folder = tmp_path / str(number)
        folder.mkdir()
        referee = make_referee(folder)
        play_campaign(referee, "g", 6, seed=f"recruits-{number}", options={"rounds": "6"})
        events = list(referee.events("g", REFEREE))
        assert not [e for e in events if e["type"] == "recruit_refused"]
        recruited += sum(1 for e in events if e["type"] == "unit_recruited")
    assert recruited > 20
