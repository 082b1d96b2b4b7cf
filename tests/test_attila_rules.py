"""Attila's parts one by one: the board data, scoring, setup, orders, positions, rendering."""

import copy
from pathlib import Path
import re
import tomllib

from hypothesis import given, settings, strategies as st
import pytest

from pbem import i18n, render
from pbem.adjudicator import engine
from pbem.adjudicator.contract import SetupError
from pbem.adjudicator.rng import PhaseRng
from pbem.games import attila
from pbem.games.attila import board as boards
from pbem.games.attila.rules import end_reasons
from pbem.games.attila.scoring import people_points

# The map of the rules page: land neighbours; sea neighbours.
RULES_PAGE_MAP = {
    "Britannia": ([], ["Belgica", "Lugdunensis"]),
    "Belgica": (["Lugdunensis", "Raetia"], ["Britannia"]),
    "Lugdunensis": (["Belgica", "Aquitania", "Narbonensis", "Raetia"], ["Britannia"]),
    "Aquitania": (["Lugdunensis", "Narbonensis", "Tarraconensis"], []),
    "Narbonensis": (["Lugdunensis", "Aquitania", "Tarraconensis", "Italia", "Raetia"], []),
    "Tarraconensis": (["Aquitania", "Narbonensis", "Lusitania", "Baetica"], []),
    "Lusitania": (["Tarraconensis", "Baetica"], []),
    "Baetica": (["Tarraconensis", "Lusitania"], ["Mauretania"]),
    "Mauretania": (["Africa"], ["Baetica"]),
    "Africa": (["Mauretania", "Cyrenaica"], ["Sicilia"]),
    "Cyrenaica": (["Africa"], ["Creta"]),
    "Raetia": (["Belgica", "Lugdunensis", "Narbonensis", "Italia", "Noricum"], []),
    "Noricum": (["Raetia", "Italia", "Pannonia", "Dalmatia"], []),
    "Pannonia": (["Noricum", "Dalmatia", "Moesia", "Dacia"], []),
    "Dacia": (["Pannonia", "Moesia"], []),
    "Moesia": (["Dacia", "Pannonia", "Dalmatia", "Macedonia", "Thracia"], []),
    "Italia": (["Narbonensis", "Raetia", "Noricum", "Dalmatia", "Roma"], []),
    "Roma": (["Italia"], ["Sicilia", "Graecia"]),
    "Sicilia": ([], ["Roma", "Africa"]),
    "Dalmatia": (["Italia", "Noricum", "Pannonia", "Moesia", "Macedonia"], []),
    "Macedonia": (["Dalmatia", "Moesia", "Thracia", "Graecia"], []),
    "Thracia": (["Moesia", "Macedonia"], ["Asia"]),
    "Graecia": (["Macedonia"], ["Roma", "Creta", "Asia"]),
    "Creta": ([], ["Graecia", "Cyrenaica"]),
    "Asia": ([], ["Thracia", "Graecia"]),
}
NORTH = ["Belgica", "Raetia", "Noricum", "Pannonia", "Dacia", "Moesia"]
SEATS = ["ann", "bob", "cat"]


def new_game(seats=SEATS, position=None, seed="units"):
    """The engine state of a new game (no phase opened)."""
    events = engine.creation_events(attila, "g", "attila", {}, seats, seed, position)
    return events, engine.fold(attila, events)["game"]


# ---------------------------------------------------------------- the board

def test_the_default_board_is_the_map_of_the_rules_page():
    board = boards.load("default")
    assert board.order == list(RULES_PAGE_MAP)
    assert board.north == NORTH
    for name, (land, sea) in RULES_PAGE_MAP.items():
        assert board.land[name] == sorted(land), name
        assert board.sea[name] == sorted(sea), name


def test_province_names_in_english_french_or_a_unique_beginning():
    board = boards.load("default")
    assert board.lookup("PANNONIE") == "Pannonia"
    assert board.lookup("mésie") == "Moesia"
    assert board.lookup("Grèce") == "Graecia"
    assert board.lookup("maced") == "Macedonia"
    assert board.lookup("ma") is None           # Mauretania, Macedonia: too short anyway
    assert board.lookup("atlantis") is None


def test_a_one_way_link_is_refused():
    data = {"provinces": [{"name": "A", "north": True, "land": ["B"]}, {"name": "B"}]}
    with pytest.raises(SetupError, match="B does not list A"):
        boards.check(data)


def test_a_custom_board_plays_from_a_position():
    board = {"name": "tiny", "provinces": [
        {"name": "North", "north": True, "land": ["South"]},
        {"name": "South", "land": ["North"], "sea": ["Isle"]},
        {"name": "Isle", "sea": ["South"]}]}
    _, state = new_game(position={"board": board, "first": "ann",
                                  "pawns": {"South": {"goths": 1}}})
    orders, errors = attila.parse(state, "ann", "play goths isle")
    assert not errors
    assert orders["steps"][0]["province"] == "Isle"


# ---------------------------------------------------------------- scoring

@pytest.mark.parametrize("influence,points", [
    ({"white": 6, "red": 4}, {"white": 5, "red": 3}),
    ({"white": 5, "green": 5}, {"white": 4, "green": 4}),
    ({"white": 6, "red": 3, "green": 3}, {"white": 5, "red": 2, "green": 2}),
    ({"white": 2}, {"white": 8}),
    ({}, {}),
])
def test_the_worked_example_five_pawns_in_three_provinces(influence, points):
    assert people_points(influence, 5, 3, two_players=False) == points


def test_tied_first_places_share_and_nobody_scores_second():
    assert people_points({"a": 4, "b": 4, "c": 3}, 5, 3, False) == {"a": 4, "b": 4}


def test_two_players_second_scores_only_one_space_below():
    assert people_points({"a": 5, "b": 4}, 5, 3, True) == {"a": 5, "b": 3}
    assert people_points({"a": 6, "b": 4}, 5, 3, True) == {"a": 5}
    assert people_points({"a": 4, "b": 4}, 5, 3, True) == {"a": 4, "b": 4}


# ---------------------------------------------------------------- setup

def test_setup_deals_six_cards_each_from_a_seeded_deck_and_keeps_them_private():
    events, state = new_game()
    assert [len(state["hands"][s]) for s in SEATS] == [6, 6, 6]
    assert len(state["deck"]) == 36
    dealt = [e for e in events if e.type == "dealt"]
    assert [e.visible_to for e in dealt] == [["ann"], ["bob"], ["cat"]]
    assert [e.visible_to for e in events if e.type == "deck_prepared"] == ["referee"]
    again = new_game()[1]
    assert again["hands"] == state["hands"] and again["turn"] == state["turn"]
    other = new_game(seed="another")[1]
    assert other["hands"] != state["hands"]


def test_first_player_is_seeded():
    firsts = {new_game(seed=f"s{i}")[1]["turn"]["seat"] for i in range(12)}
    assert firsts == set(SEATS)


@pytest.mark.parametrize("count", [1, 6])
def test_two_to_five_players(count):
    with pytest.raises(SetupError, match="2 to 5 players"):
        new_game(seats=[f"p{i}" for i in range(count)])


@pytest.mark.parametrize("position,message", [
    ({"pawns": {"Atlantis": {"goths": 1}}}, "no province 'Atlantis'"),
    ({"pawns": {"Dacia": {"goths": 5}}}, "at most 4 pawns"),
    ({"pawns": {"Dacia": {"gauls": 1}}}, "'gauls' is not a people"),
    ({"pacified": {"Dacia": "V"}}, r"must be the first 1 of the track \(IV\)"),
    ({"hands": {"zoe": ["goths"]}}, "'zoe' is not a seat"),
    ({"hands": {"ann": ["goths"] * 7}}, "at most 6 cards"),
    ({"hands": {"ann": ["goths"] * 6, "bob": ["goths"] * 4}}, "only 9 goths cards"),
    ({"influence": {"goths": {"ann": 23}}}, "0 to 22"),
    ({"tiles": {"ann": ["joker"]}}, "'joker' is not double"),
    ({"first": "zoe"}, "'zoe' is not a seat"),
    ({"board": "moon"}, "unknown board 'moon'"),
])
def test_a_bad_position_is_explained(position, message):
    with pytest.raises(SetupError, match=message):
        new_game(position=position)


# ---------------------------------------------------------------- orders

def position(**extra):
    """A position where ann plays first with a known hand."""
    return {"first": "ann", "hands": {"ann": ["goths", "goths", "huns", "franks", "saxons",
                                              "saxons"]}, **extra}


def test_the_rules_page_mail_with_one_tile():
    _, state = new_game(position=position())
    text = "exchange: huns, franks\nplay goths pannonia\ninfluence\n"
    orders, errors = attila.parse(state, "ann", text)
    assert not errors
    assert orders == {"steps": [
        {"do": "exchange", "cards": ["huns", "franks"]},
        {"do": "play", "people": "goths", "province": "Pannonia", "renounce": None,
         "boost": None}]}


def test_a_second_card_needs_double_and_says_so():
    _, state = new_game(position=position())
    _, errors = attila.parse(state, "ann", "play goths pannonia\nplay huns dacia")
    assert [str(e) for e in errors] == [
        "line 2: you have already played 1 card this turn; with your DOUBLE tile you may "
        "play one more: write 'tile double' first"]


def test_cards_exchanged_away_cannot_be_played():
    _, state = new_game(position=position())
    _, errors = attila.parse(state, "ann", "exchange huns\nplay huns dacia")
    assert "you hold no Hun card at this point (the cards EXCHANGE draws" in str(errors[0])


def test_influence_and_renounce_exclude_each_other():
    _, state = new_game(position=position())
    _, errors = attila.parse(state, "ann", "play goths pannonia\ninfluence\nrenounce dacia")
    assert [str(e) for e in errors] == [
        "line 3: line 2 takes the influence: you cannot also renounce it"]


def test_the_ack_marks_where_a_conflict_makes_the_rest_provisional():
    _, state = new_game(position=position(pawns={"Pannonia": {"huns": 2, "franks": 2}}))
    text = "tile double\nplay goths pannonia\nplay huns dacia"
    orders, errors = attila.parse(state, "ann", text)
    assert not errors
    said = attila.describe_orders(state, "ann", orders)
    assert said[2].startswith("-> a conflict breaks out in Pannonia")
    assert said[3] == "play a Hun card, its pawn to Dacia; take influence over the Huns"


def test_a_bid_outside_a_conflict_and_a_turn_during_one_are_refused():
    _, state = new_game(position=position())
    _, errors = attila.parse(state, "ann", "bid goths")
    assert str(errors[0]) == "line 1: there is no conflict to bid on now"
    _, errors = attila.parse(state, "bob", "play goths pannonia")
    assert str(errors[0]) == "line 1: it is ann's turn, not yours"


STAGES = ["turn", "bid", "confirm"]


def staged(stage):
    """A state in the given stage of ann's turn (a conflict in Pannonia, kept orders)."""
    _, state = new_game(position=position(pawns={"Pannonia": {"huns": 2, "franks": 2}}))
    state = copy.deepcopy(state)
    if stage == "bid":
        state["turn"].update(stage="bid", conflicts=["Pannonia"])
    if stage == "confirm":
        state["turn"].update(stage="confirm", kept=[
            {"do": "play", "people": "huns", "province": "Dacia", "renounce": None,
             "boost": None}])
    return state


WORDS = st.sampled_from(["play", "jouer", "goths", "Huns", "pannonia", "dacia", "influence",
                         "renounce", "tile", "double", "exchange", "bid", "none", "confirm",
                         "mise", "tuile", ":", ",", "\n", "é", "Pannonie", "franks", "x"])


@settings(max_examples=150, deadline=None)
@given(stage=st.sampled_from(STAGES), seat=st.sampled_from(SEATS),
       text=st.one_of(st.text(max_size=80), st.lists(WORDS, max_size=14).map(" ".join)))
def test_nothing_a_player_sends_crashes_parse_or_resolve(stage, seat, text):
    state = staged(stage)
    orders, errors = attila.parse(state, seat, text)
    attila.describe_orders(state, seat, orders)
    asked = attila.pending(state)
    if seat not in asked:
        return
    everyone = {s: attila.default_orders(state, s) for s in asked}
    everyone[seat] = orders
    events = attila.resolve(copy.deepcopy(state), everyone, PhaseRng("fuzz", "g", 1))
    for event in events:
        state = attila.apply(state, event)
        attila.narrate(event)


# ---------------------------------------------------------------- what players see

def test_views_hide_hands_and_the_deck():
    _, state = new_game()
    public = attila.view(state, None)
    assert "you" not in public and "hands" not in public and public["deck"] == 36
    mine = attila.view(state, "bob")
    assert mine["you"]["hand"] == state["hands"]["bob"]
    assert {k: v for k, v in mine.items() if k != "you"} == public


def test_the_board_has_arrows_pawns_the_track_and_the_influence_table_beside_it():
    _, state = new_game(position=position(pawns={"Pannonia": {"goths": 3}},
                                          pacified={"Dacia": "IV"},
                                          influence={"goths": {"bob": 4}}))
    svg = render.board_svg("attila", attila, attila.view(state, None))
    assert svg.count('marker-end="url(#arrow)"') == 10
    assert "<title>Goths 3</title>" in svg
    assert "<title>pacified: peace tile IV</title>" in svg
    assert ">IV: 0<" in svg and ">VII: 4<" in svg
    assert svg.rstrip().endswith("</svg>") and "<table" not in svg
    html = render.board_html("attila", attila, attila.view(state, None))
    assert html.startswith(svg)
    assert "<table" in html and "<td style=\"text-align: right; padding: 2px 8px\">4</td>" in html


def test_each_province_is_drawn_once_with_its_own_pawns_in_each_language():
    """A province's box is drawn once per process and reused: a board drawn again, in
    French, or with other pawns, still shows its own."""
    _, state = new_game(position=position(pawns={"Pannonia": {"goths": 3, "huns": 1},
                                                 "Dacia": {"franks": 2}},
                                          pacified={"Italia": "IV"}))
    view = attila.view(state, None)
    board = render.board_svg("attila", attila, view)
    assert render.board_svg("attila", attila, view) == board
    ground, _, pieces = board.partition('<g class="piece">')
    for province in view["provinces"]:
        name = f'fill="#3d3322">{province["name"]}</text>'
        assert ground.count(name) == 1, "every box at rest on the ground"
        assert pieces.count(name) == (province["name"] in ("Pannonia", "Dacia", "Italia")), \
            "a box with pawns or a peace tile drawn again over it"
    assert board.count('r="6.5"') == 3
    assert {"<title>Goths 3</title>", "<title>Huns 1</title>", "<title>Franks 2</title>",
            "<title>pacified: peace tile IV</title>"} <= set(re.findall("<title>[^<]*</title>",
                                                                      board))
    with i18n.speaking("fr"):
        french = render.board_svg("attila", attila, view)
    assert "<title>pacifiée\u00a0: tuile de paix IV</title>" in french and "pacified" not in french
    _, moved = new_game(position=position(pawns={"Pannonia": {"goths": 2}}))
    other = render.board_svg("attila", attila, attila.view(moved, None))
    assert "<title>Goths 2</title>" in other and "Goths 3" not in other
    assert other.count('r="6.5"') == 1 and "peace tile IV" not in other


def test_the_board_as_text():
    _, state = new_game(position=position(pawns={"Pannonia": {"goths": 3}},
                                          pacified={"Pannonia": "IV"}))
    text = attila.board_text(attila.view(state, None))
    assert "Pannonia (N)       [peace IV] Goths 3" in text
    assert "Peace tiles left on the track: IV: 0, V: 2, VI: 3, VII: 4 (century V, +2" in text


def test_the_position_example_of_the_docs_starts_a_game():
    text = (Path(__file__).parent.parent / "docs" / "positions.md").read_text(encoding="utf-8")
    example = text.split("## Attila", 1)[1].split("```toml", 1)[1].split("```", 1)[0]
    _, state = new_game(seats=["ann", "bob"], position=tomllib.loads(example))
    assert state["turn"]["seat"] == "ann" and state["turn"]["number"] == 12
    assert state["hands"]["bob"] == ["teutons", "teutons", "vandals"]
    assert state["discards"] == ["franks"] and len(state["deck"]) == 54 - 9 - 1
    assert state["pawns"] == {"Pannonia": {"huns": 1, "goths": 3}, "Roma": {"vandals": 2}}
    assert state["pacified"] == {"Dacia": "IV"} and state["placed"] == 1
    assert state["tiles"]["bob"] == ["double", "influence"]


def test_influence_without_any_play_is_explained():
    _, state = new_game(position=position())
    _, errors = attila.parse(state, "ann", "influence\ntile influence franks\nrenounce dacia")
    assert [str(e) for e in errors] == [
        "line 1: INFLUENCE goes right after a play line (it is step 2 of that play)",
        "line 2: the INFLUENCE tile goes right after a play line (it is step 2 of that play)",
        "line 3: RENOUNCE goes right after a play line (it is step 2 of that play)"]


def test_the_game_ends_when_no_card_left_can_place_a_pawn():
    north = {"Belgica": "IV", "Raetia": "V", "Noricum": "V", "Pannonia": "VI", "Dacia": "VI",
             "Moesia": "VI"}
    hands = {"ann": ["huns"] * 6, "bob": ["huns"] * 3, "cat": ["goths"] * 6}
    alive = position(pacified=north, pawns={"Italia": {"goths": 1}}, hands=hands,
                     deck=["saxons"] * 6, discards=[])
    _, state = new_game(position=alive)
    assert end_reasons(state) == []
    _, state = new_game(position={**alive, "pawns": {}})
    assert end_reasons(state) == ["no card left in the game can place a pawn any more"]
    hands["cat"] = ["saxons"]
    _, state = new_game(position=alive)
    assert end_reasons(state) == ["no card left in the game can place a pawn any more"]
