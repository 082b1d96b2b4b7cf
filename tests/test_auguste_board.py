"""Auguste boards, presets and setup, checked against the construction on the rules page."""

from importlib.resources import files
import re

import pytest

from pbem.adjudicator import hexgrid
from pbem.adjudicator.contract import SetupError
from pbem.adjudicator.rng import PhaseRng
from pbem.games.auguste import board as boards
from pbem.games.auguste import rules
from pbem.games.auguste.teams import DEFAULT_PRESET, PRESETS, TEAM_NAMES, preset_for

CENTRE = (0, 0)


def coords(board, names) -> set:
    """The axial coordinates of some cells of a board."""
    return {board.cells[name] for name in names}


def corners(radius: int) -> set:
    """The six corners of a hexagon of this radius."""
    return {hexgrid.scale(d, radius) for d in hexgrid.DIRECTIONS}


def camp_corner(board, camp, radius) -> tuple:
    """The board corner inside a camp."""
    (corner,) = coords(board, camp["cells"]) & corners(radius)
    return corner


@pytest.mark.parametrize("name", sorted(boards.BUILTIN))
def test_shipped_board_is_what_build_makes(name):
    shipped = (files("pbem.games.auguste") / "boards" / f"{name}.toml").read_text(encoding="utf-8")
    assert shipped == boards.to_toml(boards.build(name))


@pytest.mark.parametrize("name, radius", [("default", 8), ("fast", 7)])
def test_board_is_a_hexagon_with_unique_three_letter_names(name, radius):
    board = boards.load(name)
    cells = set(board.cells.values())
    assert cells == {(q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1)
                     if hexgrid.distance((q, r), CENTRE) <= radius}
    assert len(cells) == len(board.cells) == 3 * radius * (radius + 1) + 1
    assert all(re.fullmatch(r"[A-Z]{3}", cell) for cell in board.cells)
    assert len(set(board.cells)) == len(board.cells)
    assert board.blocked == []


def test_default_board_has_217_cells_and_six_camps_of_16_tents():
    board = boards.load("default")
    assert len(board.cells) == 217
    assert sorted(camp["corner"] for camp in board.camps) == list(range(6))
    found = set()
    for camp in board.camps:
        corner = camp_corner(board, camp, 8)
        found.add(corner)
        near = {h for h in board.cells.values() if hexgrid.distance(h, corner) <= 3}
        assert coords(board, camp["cells"]) == near
        assert coords(board, camp["tents"]) == near
        assert len(camp["tents"]) == 16
    assert found == corners(8)


@pytest.mark.parametrize("name, radius", [("default", 8), ("fast", 7)])
def test_goals_are_the_corner_and_its_two_edge_neighbours(name, radius):
    board = boards.load(name)
    for camp in board.camps:
        corner = camp_corner(board, camp, radius)
        edge = [h for h in hexgrid.neighbours(corner)
                if hexgrid.distance(h, CENTRE) == radius]
        assert len(edge) == 2
        assert coords(board, camp["goals"]) == {corner, *edge}
    assert len(board.goal_owner) == 18


def test_default_board_shields_and_laurel():
    board = boards.load("default")
    toward_camps = {hexgrid.scale(d, 4) for d in hexgrid.DIRECTIONS}
    mid_edges = {hexgrid.scale(hexgrid.add(a, b), 4)
                 for a, b in zip(hexgrid.DIRECTIONS, hexgrid.DIRECTIONS[1:] + hexgrid.DIRECTIONS[:1])}
    for h in mid_edges:
        assert hexgrid.distance(h, CENTRE) == 8
        assert sorted(hexgrid.distance(h, c) for c in corners(8))[:2] == [4, 4]
    assert coords(board, board.shields) == toward_camps | mid_edges
    assert len(board.shields) == 12
    assert board.cells[board.laurel] == CENTRE


def test_fast_board_camps_shields_and_laurel():
    board = boards.load("fast")
    assert len(board.cells) == 169
    for camp in board.camps:
        corner = camp_corner(board, camp, 7)
        near = {h for h in board.cells.values() if hexgrid.distance(h, corner) <= 3}
        empty = {h for h in near if hexgrid.distance(h, corner) <= 1}
        assert len(empty) == 4
        assert coords(board, camp["cells"]) == near
        assert coords(board, camp["tents"]) == near - empty
        assert len(camp["tents"]) == 12
    assert coords(board, board.shields) == {hexgrid.scale(d, 3) for d in hexgrid.DIRECTIONS}
    assert board.cells[board.laurel] == CENTRE


def test_board_names_do_not_depend_on_the_run():
    assert boards.cell_names(5, "default") == boards.cell_names(5, "default")
    assert boards.cell_names(5, "default") != boards.cell_names(5, "fast")


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_presets_never_put_allies_in_adjacent_corners(preset):
    rows, lone = PRESETS[preset]
    team_at = {corner: team for _, corner, team in rows}
    assert len(team_at) == len(rows)
    for corner, team in team_at.items():
        assert team_at.get((corner + 1) % 6) != team, f"{preset}: corners {corner} and {corner + 1}"
    assert lone is None or lone in {colour for colour, _, _ in rows}


@pytest.mark.parametrize("preset, legions, teams", [
    ("4-2", 4, 2), ("6-2", 6, 2), ("6-3", 6, 3), ("3-3", 3, 3), ("5-5", 5, 5), ("2-2-1", 5, 3)])
def test_presets_have_the_rules_legions_and_teams(preset, legions, teams):
    rows, _ = PRESETS[preset]
    assert len(rows) == legions
    assert len({team for _, _, team in rows}) == teams


def test_lone_legion_preset_is_two_against_two_against_one():
    rows, lone = PRESETS["2-2-1"]
    sizes = {}
    for colour, _, team in rows:
        sizes.setdefault(team, []).append(colour)
    assert sorted(len(colours) for colours in sizes.values()) == [1, 2, 2]
    assert [lone] in sizes.values()


@pytest.mark.parametrize("players, preset", [(2, "4-2"), (3, "3-3"), (4, "4-2"), (5, "5-5"),
                                              (6, "6-2")])
def test_default_preset_per_number_of_players(players, preset):
    assert DEFAULT_PRESET[players] == preset
    assert preset_for({}, players) == preset


def test_unknown_preset_is_refused():
    with pytest.raises(SetupError, match="unknown preset"):
        preset_for({"preset": "7-7"}, 4)
    with pytest.raises(SetupError, match="no Auguste preset for 7 players"):
        preset_for({}, 7)


def setup_state(options: dict, seats: list[str]) -> dict:
    """The state after a normal setup."""
    (event,) = rules.setup(options, seats, PhaseRng("seed", "g", 0))
    return event.payload["state"]


def test_setup_fills_every_tent_and_names_the_teams():
    state = setup_state({"preset": "6-3"}, ["a", "b", "c", "d", "e", "f"])
    board = boards.load("default")
    assert len(state["units"]) == 6 * 16
    for colour, legion in state["legions"].items():
        tents = board.camp(legion["corner"])["tents"]
        assert {c for c, u in state["units"].items() if u["legion"] == colour} == set(tents)
    assert sorted({legion["team"] for legion in state["legions"].values()}) == \
        sorted(TEAM_NAMES[:3])
    assert state["laurel"] == board.laurel
    assert state["shields"] == sorted(board.shields)


def test_two_seats_command_a_team_each():
    state = setup_state({}, ["ann", "bob"])
    seats = {legion["team"]: set() for legion in state["legions"].values()}
    for legion in state["legions"].values():
        seats[legion["team"]].add(legion["seat"])
    assert sorted(map(sorted, seats.values())) == [["ann"], ["bob"]]


@pytest.mark.parametrize("name, radius", [("default", 8), ("fast", 7)])
@pytest.mark.parametrize("count", [1, 3, 5])
def test_handicap_removes_the_legionaries_nearest_the_corner(name, radius, count):
    seats = ["ann", "bob", "cat", "dan"]
    full = setup_state({"preset": "4-2", "board": name}, seats)
    handicapped = setup_state({"preset": "4-2", "board": name, "handicap": f"red:{count}"}, seats)
    board = boards.load(name)
    corner = camp_corner(board, board.camp(full["legions"]["red"]["corner"]), radius)
    removed = set(full["units"]) - set(handicapped["units"])
    assert len(removed) == count
    assert all(full["units"][c]["legion"] == "red" for c in removed)
    kept = [c for c, u in handicapped["units"].items() if u["legion"] == "red"]
    farthest_removed = max(hexgrid.distance(board.cells[c], corner) for c in removed)
    nearest_kept = min(hexgrid.distance(board.cells[c], corner) for c in kept)
    assert farthest_removed <= nearest_kept


def test_handicap_of_one_removes_the_corner_itself():
    state = setup_state({"preset": "4-2", "handicap": "red:1"}, ["ann", "bob", "cat", "dan"])
    board = boards.load("default")
    corner = camp_corner(board, board.camp(state["legions"]["red"]["corner"]), 8)
    assert board.at[corner] not in state["units"]
    assert len([u for u in state["units"].values() if u["legion"] == "red"]) == 15


def test_handicap_must_name_a_legion_and_a_count():
    with pytest.raises(SetupError, match="legion:count"):
        setup_state({"preset": "4-2", "handicap": "yellow:2"}, ["ann", "bob", "cat", "dan"])
    with pytest.raises(SetupError, match="legion:count"):
        setup_state({"preset": "4-2", "handicap": "red:many"}, ["ann", "bob", "cat", "dan"])
