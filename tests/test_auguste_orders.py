"""Reading Auguste orders from a mail's lines, and saying them back."""

import pytest

from pbem.games.auguste.orders import describe_orders, parse
from pbem.games.auguste.position import state_from_position

SEATS = ["ann", "bob"]


def game(trumps: bool = False, **cards) -> dict:
    """Ann commands red and green (Caesar), Bob commands blue (Pompey); the crown is on MOC."""
    position = {
        "laurel": "MOC",
        "shields": [],
        "legions": {
            "red": {"team": "Caesar", "seat": "ann", "units": ["ZIJ", "ZIM"]},
            "green": {"team": "Caesar", "seat": "ann", "units": ["BIN"]},
            "blue": {"team": "Pompey", "seat": "bob", "units": ["HIP", "JOR"]},
            "purple": {"team": "Pompey", "seat": "bob", "units": []},
        },
    }
    if cards:
        position["cards"] = cards
    return state_from_position(position, SEATS, {"trumps": "yes"} if trumps else {})


def orders_of(text: str, seat: str = "ann", state=None) -> dict:
    """The legions' orders of an error-free mail."""
    orders, errors = parse(state or game(trumps=True), seat, text)
    assert errors == []
    return orders["legions"]


def errors_of(text: str, seat: str = "ann", state=None) -> list[tuple[int, str]]:
    """(line, message) of each error in a mail."""
    _, errors = parse(state or game(trumps=True), seat, text)
    return [(e.line, e.message) for e in errors]


MOVE = {"kind": "move", "from": "ZIJ", "to": "TUK", "volcano": False}


@pytest.mark.parametrize("text", [
    "red: move ZIJ TUK",
    "RED: MOVE zij tuk",
    "Red: Move Zij Tuk",
    "red move ZIJ TUK",
    "red: move ZIJ to TUK",
    "red: move ZIJ -> TUK.",
    "  red :  move   ZIJ , TUK  ",
])
def test_keywords_legions_and_cells_are_case_insensitive_and_spacing_is_free(text):
    assert orders_of(text) == {"red": MOVE}


@pytest.mark.parametrize("text, order", [
    ("rouge: bouge ZIJ TUK", MOVE),
    ("rouge: déplace ZIJ vers TUK", MOVE),
    ("rouge: laurier HEP", {"kind": "laurel", "to": "HEP"}),
    ("rouge: passe", {"kind": "pass"}),
    ("rouge: muraille VOH KEM", {"kind": "wall", "cells": ["KEM", "VOH"]}),
    ("rouge: cavalier ZIJ TUK ZOS", {"kind": "rider", "from": "ZIJ", "via": "TUK", "to": "ZOS"}),
    ("rouge: bouge ZIJ TUK volcan", {**MOVE, "volcano": True}),
    ("rouge: volcan ZIJ TUK", {**MOVE, "volcano": True}),
])
def test_french_keywords_and_colours(text, order):
    assert orders_of(text) == {"red": order}


def test_french_colour_names():
    assert orders_of("vert: passe\nrouge: passe") == {"green": {"kind": "pass"},
                                                     "red": {"kind": "pass"}}
    assert orders_of("bleu: passe", seat="bob") == {"blue": {"kind": "pass"}}


def test_devin_is_seer():
    orders, errors = parse(game(trumps=True), "ann", "devin")
    assert errors == []
    assert orders == {"seer": True, "legions": {}}


def test_colour_may_be_left_out_by_a_seat_with_one_living_legion():
    assert orders_of("move HIP BAF", seat="bob") == {
        "blue": {"kind": "move", "from": "HIP", "to": "BAF", "volcano": False}}
    assert orders_of("pass", seat="bob") == {"blue": {"kind": "pass"}}


def test_colour_left_out_is_inferred_from_the_cell():
    assert orders_of("move BIN JUB\nmove ZIJ TUK") == {
        "green": {"kind": "move", "from": "BIN", "to": "JUB", "volcano": False},
        "red": MOVE,
    }


def test_colour_left_out_for_laurel_is_the_legion_in_contact():
    assert orders_of("laurel HEP") == {"red": {"kind": "laurel", "to": "HEP"}}


def test_colour_left_out_is_an_error_when_it_could_be_either_legion():
    assert errors_of("pass") == [(1, "say which legion this is for (red or green), e.g. red: ...")]


def test_one_error_per_bad_line_with_its_line_number():
    text = "\n".join([
        "red: move ZIJ TUK",
        "",
        "green: jump BIN JUB",
        "blue: pass",
        "green: move BIN",
    ])
    orders, errors = parse(game(), "ann", text)
    assert orders["legions"] == {"red": MOVE}
    assert [e.line for e in errors] == [3, 4, 5]
    assert [e.text for e in errors] == ["green: jump BIN JUB", "blue: pass", "green: move BIN"]
    assert "I do not understand 'jump'" in errors[0].message
    assert errors[1].message == "you do not command the blue legion; yours: red, green"
    assert errors[2].message.startswith("MOVE needs two cells, where from and where to, e.g. ")
    assert str(errors[1]) == "line 4: you do not command the blue legion; yours: red, green"


def test_a_second_order_for_one_legion_is_an_error_and_the_first_stands():
    orders, errors = parse(game(), "ann", "red: move ZIJ TUK\nred: laurel HEP")
    assert orders["legions"] == {"red": MOVE}
    assert [(e.line, e.message) for e in errors] == [
        (2, "the red legion already has an order on line 1; one order per legion per turn")]


@pytest.mark.parametrize("text, message", [
    ("red: move ZIJ XYZ", "there is no cell called XYZ on this board"),
    ("red: move QQQ TUK", "there is no cell called QQQ on this board"),
    ("red: laurel XYZ", "there is no cell called XYZ on this board"),
    ("red: move ZIM BAF", "BAF is not next to the group of your red legionary on ZIM"),
    ("red: move HIP BAF", "there is no red legionary on HIP"),
    ("red: move ZIJ MOC", "MOC holds the laurel crown"),
    ("red: move ZIJ ZIM", "ZIM is not empty"),
    ("green: laurel HEP", "the green legion is not next to the laurel crown (on MOC)"),
    ("red: laurel BAF", "BAF is not next to the laurel crown (on MOC)"),
    ("purple: pass", "you do not command the purple legion"),
    ("yellow: pass", "there is no yellow legion in this game"),
    ("red:", "an order needs a verb after the legion"),
    ("red: pass now", "'NOW' is more than the order takes: PASS takes nothing after it"),
    ("red: move ZIJ TUK at once", "'AT ONCE' is more than the order takes: MOVE needs two"),
    ("red: laurel", "LAUREL needs the cell the crown should go to"),
    ("red: wall ZIJ", "WALL needs two neighbouring cells"),
    ("red: rider ZIJ TUK", "RIDER needs three cells, from, via and to"),
    ("red: laurel HEP volcano", "VOLCANO goes with a MOVE"),
    ("seer now", "SEER takes nothing after it"),
])
def test_bad_lines_say_what_is_wrong(text, message):
    (error,) = errors_of(text)
    assert error[0] == 1
    assert message in error[1]


def test_a_legion_with_no_legionary_left_cannot_be_ordered():
    assert errors_of("purple: pass", seat="bob") == [(1, "the purple legion has no legionary left")]


def test_seer_with_other_lines_keeps_only_seer():
    orders, errors = parse(game(trumps=True), "ann", "red: move ZIJ TUK\nSEER\ngreen: pass")
    assert orders == {"seer": True, "legions": {}}
    assert [e.line for e in errors] == [1, 3]
    assert all("with SEER you send the" in e.message and "this line is ignored" in e.message
               for e in errors)


def test_seer_repeated_in_one_mail_points_to_the_first():
    orders, errors = parse(game(trumps=True), "ann", "seer\nseer\nseer")
    assert orders["seer"] is True
    assert [(e.line, e.message) for e in errors] == [(2, "SEER is already on line 1"),
                                                     (3, "SEER is already on line 1")]


def test_trump_cards_need_the_variant():
    assert errors_of("seer", state=game()) == [(1, "trump cards are not in play in this game")]
    assert errors_of("red: wall VOH KEM", state=game()) == [
        (1, "trump cards are not in play in this game")]


def test_a_played_card_cannot_be_played_again():
    state = game(trumps=True, seer=["bob"], wall=["Pompey"])
    assert errors_of("seer", state=state) == [(1, "you have already played your SEER card")]
    assert errors_of("red: wall VOH KEM", state=state) == [
        (1, "team Caesar has already played its WALL card")]


def test_one_card_per_player_per_turn():
    orders, errors = parse(game(trumps=True), "ann",
                           "red: wall VOH KEM\ngreen: move BIN JUB volcano")
    assert orders["legions"] == {"red": {"kind": "wall", "cells": ["KEM", "VOH"]}}
    assert [e.line for e in errors] == [2]
    assert errors[0].message.startswith("one trump card per player per turn, and line 1")


def test_rider_may_name_its_legion_after_the_keyword():
    rider = {"kind": "rider", "from": "ZIJ", "via": "TUK", "to": "ZOS"}
    assert orders_of("rider red ZIJ TUK ZOS") == {"red": rider}
    assert orders_of("red: rider red ZIJ TUK ZOS") == {"red": rider}
    assert errors_of("green: rider red ZIJ TUK ZOS") == [
        (1, "this line names two legions, green and red")]


@pytest.mark.parametrize("order, said", [
    (MOVE, "red: move the legionary on ZIJ to TUK"),
    ({**MOVE, "volcano": True}, "red: move the legionary on ZIJ to TUK and erupt (VOLCANO)"),
    ({"kind": "laurel", "to": "HEP"}, "red: move the laurel crown to HEP"),
    ({"kind": "pass"}, "red: pass"),
    ({"kind": "wall", "cells": ["KEM", "VOH"]}, "red: WALL on KEM and VOH"),
    ({"kind": "rider", "from": "ZIJ", "via": "TUK", "to": "ZOS"},
     "red: RIDER: the legionary on ZIJ rides via TUK to ZOS"),
])
def test_describe_orders_says_each_order_in_words(order, said):
    lines = describe_orders(game(trumps=True), "ann", {"seer": False, "legions": {"red": order}})
    assert lines == [said, "green: no order, so it passes"]


def test_describe_orders_of_a_seer_and_of_a_seat_with_a_dead_legion():
    state = game(trumps=True)
    assert describe_orders(state, "ann", {"seer": True, "legions": {}}) == [
        "SEER: you will see the others' orders, then send yours"]
    assert describe_orders(state, "bob", {"seer": False, "legions": {}}) == [
        "blue: no order, so it passes"]
