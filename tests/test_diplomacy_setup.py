"""A new Diplomacy game: who plays which power, position files, and who is still in it."""

import pytest

from pbem import inbound
from pbem.adjudicator import engine
from pbem.adjudicator.contract import SetupError
from pbem.errors import PbemError
from pbem.games import diplomacy
from pbem.signup import players_taken

from conftest import START, make_referee, seats

NAMES = diplomacy.DEMO_SEATS


def created(names, options=None, position=None) -> dict:
    """The game state right after setup."""
    return engine.fold(diplomacy, engine.creation_events(
        diplomacy, "g", "diplomacy", options or {}, names, "seed", position))["game"]


def test_two_to_seven_players_and_no_other_number_without_the_powers_option():
    assert players_taken(diplomacy, "g", {}, []) == [2, 3, 4, 5, 6, 7]
    for count in (1, 8):
        with pytest.raises(SetupError, match=f"2 to 7 players, not {count}"):
            created([f"p{n}" for n in range(count)])


def test_the_referee_gives_the_powers_out_and_the_others_are_not_played():
    game = created(["ann", "bob"], {"powers": "ann:England, bob:france+Allemagne"})
    assert game["powers"] == {"austria": None, "england": "ann", "france": "bob",
                              "germany": "bob", "italy": None, "russia": None, "turkey": None}


@pytest.mark.parametrize("powers, said", [
    ("ann:england,zed:france", "'zed' is not a seat of this game"),
    ("ann:england,bob:spain", "no power is called 'spain'"),
    ("ann:england,bob:england", "england is given to ann and bob"),
    ("ann:england", "bob would play no power"),
])
def test_a_wrong_powers_option_says_what_is_wrong(powers, said):
    with pytest.raises(SetupError, match=said):
        created(["ann", "bob"], {"powers": powers})


@pytest.mark.parametrize("position, said", [
    ({"units": {"england": ["A NTH"]}}, "an army cannot stand in NTH"),
    ({"units": {"england": ["F BUR"]}}, "a fleet cannot stand in BUR"),
    ({"units": {"england": ["F SPA"]}}, "say which coast, e.g. SPA/NC"),
    ({"units": {"england": ["F LON"], "france": ["A LON"]}}, "two units in LON"),
    ({"units": {"england": ["X LON"]}}, "write a unit as A or F"),
    ({"centres": {"england": ["YOR"]}}, "'YOR' is not a supply centre"),
    ({"phase": "summer 1901 movement"}, "write for example"),
    ({"phase": "spring 1901 retreat"}, "needs a dislodged unit with somewhere to go"),
    ({"phase": "spring 1901 retreat", "units": {"france": ["A BUR"]},
      "dislodged": {"england": ["A BUR"]}}, "write a dislodged unit and where its attacker"),
    ({"phase": "spring 1901 retreat", "units": {"england": ["A BUR"]},
      "dislodged": {"england": ["A BUR from PAR"]}}, "must hold the unit of another power"),
    ({"phase": "spring 1901 retreat", "units": {"france": ["F ENG"]},
      "dislodged": {"england": ["A PIC from ENG"]}}, "must hold the unit of another power"),
    ({"phase": "spring 1901 retreat", "units": {"france": ["A PIC", "A BEL"]},
      "standoffs": ["BEL"], "dislodged": {"england": ["A PIC from PAR"]}}, "BEL holds a unit"),
    ({"phase": "spring 1901 retreat", "units": {"france": ["A PIC", "A BEL", "A BUR", "A BRE"]},
      "dislodged": {"england": ["A PIC from PAR"]}}, "needs a dislodged unit with somewhere"),
    ({"units": {"france": ["A PIC"]}, "dislodged": {"england": ["A PIC from PAR"]}},
     "only in a retreat phase"),
])
def test_a_position_that_cannot_be_a_game_is_refused_with_the_reason(position, said):
    with pytest.raises(SetupError, match=said):
        created(["ann", "bob"], {"powers": "ann:england,bob:france"}, position)


def test_a_position_file_starts_the_game_where_it_says(tmp_path):
    referee = make_referee(tmp_path)
    referee.new_game("diplomacy", "g", seats("ann", "bob"), START, {}, seed="s", position={
        "phase": "winter 1903 adjustment", "powers": {"russia": "ann", "turkey": "bob"},
        "units": {"russia": ["F STP/NC", "A MOS"], "turkey": ["A BUL"]},
        "centres": {"russia": ["STP", "MOS", "SEV", "WAR"], "turkey": ["BUL", "CON"]}})
    state = referee.table("g").state
    assert sorted(state["engine"]["requests"]) == ["ann", "bob"]
    assert state["game"]["position"]["units"]["STP"] == {"power": "russia", "type": "F",
                                                         "coast": "NC"}
    with pytest.raises(PbemError, match="say which coast"):
        referee.new_game("diplomacy", "h", seats("ann", "bob"), START, {}, position={
            "units": {"russia": ["F STP"]}, "powers": {"russia": "ann", "turkey": "bob"}})


def test_a_seat_whose_powers_are_out_of_the_game_has_no_vote_on_a_draw(tmp_path):
    referee = make_referee(tmp_path)
    referee.new_game("diplomacy", "g", seats("ann", "bob", "cat"), START,
                     {"powers": "ann:england,bob:france,cat:italy"}, seed="s", position={
                         "units": {"england": ["F LON"], "france": ["A PAR"]},
                         "centres": {"england": ["LON"], "france": ["PAR"]}})
    assert diplomacy.survivors(referee.table("g").state["game"]) == ["ann", "bob"]
    assert not referee.table("g").state["engine"]["over"]
    inbound.submit(referee, "g", "ann", "DRAW", START)
    assert not referee.table("g").state["engine"]["over"]
    inbound.submit(referee, "g", "bob", "NULLE", START)
    result = referee.table("g").state["engine"]["result"]
    assert result["draw"] == ["ann", "bob"]


def test_the_referees_commands_show_a_diplomacy_game(tmp_path, monkeypatch):
    from click.testing import CliRunner
    from pbem.cli import main
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_CONFIG", raising=False)

    def run(*args) -> str:
        result = CliRunner().invoke(main, list(args), catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result.output

    run("init")
    run("new", "diplomacy", "--id", "eu", "--seat", "ann=ann@x.example", "--seat",
        "bob=bob@x.example", "--option", "powers=ann:france,bob:germany",
        "--now", "2026-12-01T12:00Z")
    assert "France (ann), 3 supply centres: BRE MAR PAR" in run("show", "eu")
    shown = run("show", "eu", "--seat", "ann", "--json")
    assert '"powers": [\n      "france"\n    ]' in shown and '"number": 1' in shown
    assert "Next: Fall 1901, movement" in run("preview", "eu")
    assert "verified" in run("replay", "eu", "--verify")
