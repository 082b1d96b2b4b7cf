"""Seigneurs' resource bag: sized for the valley, and shared by lot when it runs dry
(docs/rules/seigneurs.md, "Economy" and "Editions").

The rule cases beside the game (tests/games/seigneurs/production_*) pin single
productions; here production is run over many seeds, straight from the game's setup.
"""

from collections import Counter

import pytest

from pbem.adjudicator.contract import plain_copy
from pbem.adjudicator.engine import creation_events
from pbem.adjudicator.rng import PhaseRng
from pbem.games import seigneurs
from pbem.games.seigneurs import economy
from pbem.games.seigneurs.material import data_file, starting_bag
from pbem.games.seigneurs.runner import Runner

# A bag of 3 for 5 plain farms, two in the north of the valley, three in the south.
DRY = {"stage": "turn", "bag": {"food": 3},
       "villages": {"ann": ["C2", "C3"], "bob": ["C6", "C7"]},
       "farms": {"B2": "ann", "B5": "bob", "D6": "bob", "H2": "free", "I3": "free"}}
SEEDS = 2000


def set_up(seats, position=None, edition=None) -> dict:
    """The state a new game's setup event gives."""
    events = creation_events(seigneurs, "g", "seigneurs", {"judge": "zed"}, [*seats, "zed"],
                             "seed", position, edition=edition)
    return next(e.payload["state"] for e in events if e.type == "setup")


def production(seed: str, position: dict, edition=None, lords=("ann", "bob")) -> dict:
    """The payload of the first production of a game set up from a position."""
    events = creation_events(seigneurs, "g", "seigneurs", {"judge": "zed"},
                             [*lords, "zed"], seed, position, edition=edition)
    return next(e.payload for e in events if e.type == "produced")


def test_a_dry_bag_gives_every_farm_the_same_chance_and_none_is_always_left_out():
    fed, without = Counter(), Counter()
    for number in range(SEEDS):
        produced = production(f"seed-{number}", DRY)
        assert sorted(produced["draws"].values(), key=str) == [{"food": 1}] * 3
        fed.update(list(produced["draws"]))
        without.update(f["place"] for f in produced["short"] if not f["got"])
    assert set(without) == set(fed) == set(DRY["farms"])
    for farm in DRY["farms"]:  # 3 in 5 fed: 1200 of 2000, give or take
        assert 1080 < fed[farm] < 1320, fed


def test_the_farms_left_out_change_from_one_turn_to_the_next():
    valley = set_up(["ann", "bob"], DRY)
    left_out = []
    for phase in range(1, 31):  # one game's stream, turn after turn
        run = Runner(plain_copy(valley), PhaseRng("seed", "g", phase))
        economy.production(run)
        [produced] = [e.payload for e in run.events if e.type == "produced"]
        left_out.append(tuple(f["place"] for f in produced["short"] if not f["got"]))
    assert all(len(farms) == 2 for farms in left_out)
    assert len(set(left_out)) > 5
    assert any(a != b for a, b in zip(left_out, left_out[1:]))


def test_a_game_set_up_before_the_third_edition_still_draws_in_tile_order():
    for number in range(20):
        produced = production(f"seed-{number}", DRY, edition=2)
        assert produced["draws"] == {"B2": {"food": 2}, "B5": {"food": 1}}
        assert "short" not in produced


@pytest.mark.parametrize("lords,each", [(2, 26), (3, 36), (4, 46), (5, 56)])
def test_the_bag_holds_four_turns_of_every_farm_the_setup_places(lords, each):
    state = set_up(["ann", "bob", "cat", "dan", "eve"][:lords])
    assert state["bag"] == {"wood": each, "stone": each, "food": each, "metal": each}
    table = state["data"]["material"]
    farms = lords * table["farms"] + table["free_farms"]
    assert 4 * each >= table["bag_turns"] * farms * table["plain_draw"] > 4 * (each - 1)


def test_the_referee_sets_the_bag_in_the_material_table():
    table = dict(data_file("material"))
    assert starting_bag({**table, "bag_turns": 2}, 4) == {g: 23 for g in
                                                          ("wood", "stone", "food", "metal")}
    assert starting_bag({**table, "bag": {"wood": 7, "food": 3}}, 5) == {"wood": 7, "food": 3}
    state = set_up(["ann", "bob"], {"stage": "villages", "material": {"bag": {"stone": 9}}})
    assert state["bag"] == {"stone": 9}


def test_a_game_set_up_before_the_third_edition_keeps_its_bag_of_twelve():
    state = set_up(["ann", "bob", "cat", "dan"], edition=2)
    assert state["bag"] == {"wood": 12, "stone": 12, "food": 12, "metal": 12}
    assert "bag_turns" not in state["data"]["material"]
