"""Auguste position files: a position that cannot be a game is refused in plain words."""

import copy

import pytest

from pbem.adjudicator.contract import SetupError
from pbem.games.auguste.position import state_from_position

SEATS = ["ann", "bob"]
GOOD = {
    "laurel": "MOC",
    "shields": ["SAK"],
    "walls": ["JOD"],
    "trumps": True,
    "legions": {
        "red": {"team": "Caesar", "units": ["ZIJ", "ZIM+"]},
        "blue": {"team": "Pompey", "units": ["HIP"]},
    },
}


def changed(**tables) -> dict:
    """The good position with some keys replaced; a nested key is written legions__red__units."""
    position = copy.deepcopy(GOOD)
    for dotted, value in tables.items():
        *path, key = dotted.split("__")
        table = position
        for name in path:
            table = table[name]
        table[key] = value
    return position


def test_the_good_position_is_read_as_written():
    state = state_from_position(GOOD, SEATS, {})
    assert state["units"] == {"ZIJ": {"legion": "red", "shield": False},
                              "ZIM": {"legion": "red", "shield": True},
                              "HIP": {"legion": "blue", "shield": False}}
    assert (state["laurel"], state["shields"], state["walls"]) == ("MOC", ["SAK"], ["JOD"])


@pytest.mark.parametrize("position,refusal", [
    (changed(legions={}), "at least one [legions.<colour>] table"),
    (changed(legions__red__units="ZIJ"), 'legions.red.units must be a list of cells'),
    (changed(legions__red__units=["ZIJ", "ZIJ"]), "two legionaries on ZIJ"),
    (changed(legions__red__units=["QQQ"]), "legion red: there is no cell QQQ"),
    (changed(legions__red__corner="two"), "legions.red.corner must be a whole number from 0 to 5"),
    (changed(legions__red__corner=4), "two legions own the same camp"),
    (changed(legions__blue__team="Caesar"), "legions of two teams at least"),
    (changed(legions__pink={"units": []}), "unknown legion colour 'pink'"),
    (changed(laurel="ZIJ"), "the laurel crown and a legionary are both on ZIJ"),
    (changed(shields=["HIP"]), "a shield lies on HIP, where a legionary stands (write HIP+"),
    (changed(walls=["HIP"]), "a wall and a legionary are both on HIP"),
    (changed(walls=["SAK"]), "a wall stands on SAK, which holds the laurel crown or a shield"),
    (changed(walls=["MOC"]), "a wall stands on MOC"),
    (changed(walls="JOD"), "walls must be a list of cells"),
    (changed(turn=0), "turn must be a whole number 1 or more: 0"),
    (changed(board="huge"), "unknown board 'huge'"),
])
def test_a_position_that_cannot_be_a_game_is_refused(position, refusal):
    with pytest.raises(SetupError) as refused:
        state_from_position(position, SEATS, {})
    assert refusal in str(refused.value)
