"""The SAGA campaign's data and pure rules: the map of the rules page, signup for 2 to 10
players, the tables, the position example of docs/positions.md, order words."""

from pathlib import Path
import random
import re
import tomllib

import pytest

from pbem.adjudicator.contract import SetupError
from pbem.adjudicator.rng import PhaseRng
from pbem.games import saga
from pbem.games.saga import board as boards
from pbem.games.saga.start import signup_events, signup_options
from pbem.games.saga.state import apply
from pbem.games.saga.tables import default_tables, tables_for

ROOT = Path(__file__).parent.parent
# The rules page's map: land links, then sea links (docs of the shared rules).
RULES_MAP = """
 1 Dublin        Ulster, Munster; sea: Man, Gwynedd
 2 Man           sea: Dublin, Ulster, Strathclyde, Cumbria, Gwynedd
 3 Alba          Strathclyde, Bernicia
 4 Strathclyde   Alba, Bernicia, Cumbria; sea: Ulster, Man
 5 Ulster        Dublin, Munster; sea: Strathclyde, Man
 6 Munster       Dublin, Ulster; sea: Gwynedd
 7 Bernicia      Alba, Strathclyde, Cumbria, Jorvik
 8 Jorvik        Bernicia, Cumbria, Mercia, Lindsey
 9 Cumbria       Strathclyde, Bernicia, Jorvik, Mercia, Gwynedd; sea: Man
10 Lindsey       Jorvik, Mercia, East Anglia
11 Gwynedd       Cumbria, Mercia, Wessex; sea: Dublin, Man, Munster
12 Mercia        Jorvik, Cumbria, Lindsey, Gwynedd, East Anglia, Wessex, Kent
13 East Anglia   Lindsey, Mercia, Kent; sea: Flanders
14 Wessex        Gwynedd, Mercia, Kent; sea: Normandy, Brittany
15 Kent          Mercia, East Anglia, Wessex; sea: Flanders, Normandy
16 Flanders      Neustria, Normandy; sea: Kent, East Anglia
17 Neustria      Flanders, Normandy, Brittany
18 Normandy      Flanders, Neustria, Brittany; sea: Kent, Wessex
19 Brittany      Neustria, Normandy; sea: Wessex
"""


def parse_rules_map():
    zones = {}
    for line in RULES_MAP.strip().splitlines():
        number, rest = line.split(None, 1)
        name = re.split(r"\s{2,}", rest.strip())[0]
        links = rest.strip()[len(name):].strip()
        land, _, sea = links.partition("sea:")
        land = land.strip().rstrip(";")
        zones[name] = (int(number), [z.strip() for z in land.split(",") if z.strip()],
                       [z.strip() for z in sea.split(",") if z.strip()])
    return zones


def test_the_default_map_is_the_rules_page_link_by_link():
    board = boards.load("default")
    for name, (number, land, sea) in parse_rules_map().items():
        assert board.number[name] == number
        assert board.land[name] == sorted(land), name
        assert board.sea[name] == sorted(sea), name
    assert sorted(set(board.order) - set(board.coastal)) == ["Mercia", "Neustria"]
    assert board.lookup("mercie") == board.lookup("12") == board.lookup("Merc") == "Mercia"
    assert board.lookup("e") is None and board.closest("Kentt") == "Kent"


def test_a_map_with_a_one_way_link_is_refused():
    data = tomllib.loads((ROOT / "games/saga/boards/default.toml").read_text("utf-8"))
    data["zones"][0]["land"].append("Kent")
    with pytest.raises(SetupError, match="Dublin lists Kent as a land neighbour"):
        boards.check(data)


@pytest.mark.parametrize("players", range(2, 11))
def test_signup_always_leaves_every_later_seat_a_faction_and_a_homeland(players):
    """Whatever the earlier seats pick, every seat finds a pick; homelands stay apart while
    the map allows it (at most 7 apart on the default map)."""
    board = boards.load("default")
    names = [f"s{i}" for i in range(players)]
    for trial in range(30):
        rng = random.Random(f"{players}-{trial}")
        state = apply({}, saga_setup(names))
        for seat in names:
            options = signup_options(state)
            assert options, f"{seat} has no pick after {state['homelands']}"
            faction = rng.choice(sorted(options))
            zone = rng.choice(options[faction])
            for event in signup_events(state, seat, {"faction": faction, "homeland": zone}):
                state = apply(state, event)
        homes = list(state["homelands"].values())
        touching = sum(1 for a in homes for b in homes if a < b and board.adjacent(a, b))
        if players <= 3:
            assert touching == 0, state["homelands"]
        assert len(set(state["factions"].values())) == players
        assert state["stage"] == "campaign"


def saga_setup(names):
    [event] = saga.setup({}, names, PhaseRng("s", "g", 0))
    return event


def test_the_tables_cover_every_face_and_a_bad_one_is_refused():
    tables = default_tables()
    assert set(tables) == {"scouting", "setup", "scenario", "winner", "loser", "lord"}
    assert tables_for(None) == tables
    with pytest.raises(SetupError, match="tables.lord: face 6 is in no row"):
        tables_for({"lord": {"1-5": {"effect": "slain"}}})
    with pytest.raises(SetupError, match="tables.winner.1-6: effect must be one of"):
        tables_for({"winner": {"1-6": {"effect": "glory"}}})


def test_the_position_example_of_the_docs_starts_a_campaign():
    text = (ROOT / "docs/positions.md").read_text(encoding="utf-8")
    section = text[text.index("## SAGA campaign"):]
    example = re.search(r"```toml\n(.*?)```", section, re.S).group(1)
    position = tomllib.loads(example)
    events = saga.setup({}, ["ann", "bob"], PhaseRng("s", "g", 0), position)
    state = {}
    for event in events:
        state = apply(state, event)
    assert state["lords"]["bob"]["status"] == "captured"
    assert state["knowledge"]["bob"]["Kent"]["fact"]["armies"] == [
        {"points": 5, "units": None, "lord": None}]
    assert saga.pending(state)["ann"].kind == "orders"


@pytest.mark.parametrize("english, french", [
    ("move host East Anglia", "deplacer host Est-Anglie"),
    ("scout Mercia", "reconnaissance Mercie"),
    ("army host+reserve", "armée host+reserve"),
    ("split host 2 raiders", "diviser host 2 raiders"),
    ("recruit warriors Kent", "recruter guerriers Kent"),
    ("disband host 1 levies", "licencier host 1 levées"),
])
def test_french_and_english_orders_are_the_same_orders(english, french):
    position = tomllib.loads((ROOT / "tests/games/saga/move_inside_own_lands.toml")
                             .read_text(encoding="utf-8"))["position"]
    position["owners"] = {"Kent": "ann", "Wessex": "bob", "East Anglia": "ann"}
    position["armies"]["ann"]["host"]["zone"] = "Kent"
    position["armies"]["ann"]["reserve"]["zone"] = "Kent"
    state = {}
    for event in saga.setup({}, ["ann", "bob"], PhaseRng("s", "g", 0), position):
        state = apply(state, event)
    said, errors = saga.parse(state, "ann", english)
    assert not errors
    assert saga.parse(state, "ann", french) == (said, [])
