"""Nothing waits on a seat with nothing to do, from the player's side (issue 30, item 3).

"pass" and "No orders this turn" were remarks, so a SAGA turn waited for its 48 h
deadline; an overlord's PRÊT was answered "vos ordres sont définitifs", yet every
round waited for its vassal; a chat line "Held the bridge to the last turn" got "did
you mean HELP?" and froze a battle. A phase that asks nobody is resolved at once.
"""

import pytest

from pbem.app import SeatSpec
from pbem.timeutil import later

from conftest import START, make_referee, seats
from mailkinds import SAGA_START
from players import answered, reply
from test_saga_people import VASSALAGE

SOON = later(START, 0.1)


def saga(tmp_path, position=SAGA_START, lang="en"):
    referee = make_referee(tmp_path)
    referee.new_game("saga", "c", [SeatSpec(name, f"{name}@players.example", lang=lang)
                                   for name in ("ann", "bob", "cat")], START, {}, seed="idle",
                     position=position)
    return referee


def phase(referee, game="c") -> int:
    return referee.table(game).state["engine"]["phase"]


@pytest.mark.parametrize("said,lang", [("pass", "en"), ("Hi all,\nNo orders this turn.\nAnn",
                                                        "en"),
                                       ("Salut,\nrien ce tour, désolé\nAnn", "fr")])
def test_words_that_say_nothing_from_me_are_a_pass_and_the_turn_goes_on(tmp_path, said, lang):
    referee = saga(tmp_path, lang=lang)
    row, told = answered(referee, "c", "ann", said, START)
    assert row["reason"].startswith("orders recorded"), told
    assert ("you pass this turn" if lang == "en" else "vous passez ce tour") in told
    assert referee.tick(SOON, send=False).phases == {"c": 1}, "nobody else is asked"
    late = [e for e in referee.events("c", "referee") if e["type"] == "seats_late"]
    assert late == [], "a seat that passed is not late"


def test_pass_in_diplomacy_holds_every_unit_and_the_phase_resolves_at_once(tmp_path):
    referee = make_referee(tmp_path)
    referee.new_game("diplomacy", "d", seats("ann", "bob"), START, {}, seed="p", position={
        "phase": "spring 1901 movement", "powers": {"germany": "ann", "russia": "bob"},
        "units": {"germany": ["A BER", "A MUN", "F KIE"], "russia": ["A WAR", "F SEV"]},
        "centres": {"germany": ["BER", "MUN", "KIE"], "russia": ["MOS", "WAR", "SEV"]}})
    _row, told = answered(referee, "d", "ann", "Hello,\npass\nsorry, a busy week", START)
    assert "A BER H" in told and "line 3: sorry, a busy week" in told, told
    assert "Line by line: 1 line set aside; 2 order; 3 remark." in told
    answered(referee, "d", "bob", "A War - Pru\nF Sev H", START)
    assert referee.tick(SOON, send=False).phases == {"d": 1}
    units = referee.table("d").state["game"]["position"]["units"]
    assert {"BER", "MUN", "KIE", "PRU"} <= set(units)


def test_a_phase_without_a_pass_says_so_and_keeps_the_line_a_remark(tmp_path):
    referee = make_referee(tmp_path)
    referee.new_game("attila", "a", seats("ann", "bob"), START, seed="p", position={
        "first": "ann", "hands": {"ann": ["goths", "goths", "huns", "franks", "saxons",
                                          "saxons"],
                                  "bob": ["huns", "huns", "teutons", "teutons", "vandals",
                                          "franks"]}})
    row, told = answered(referee, "a", "ann", "pass", START)
    assert "“pass” is set aside as a remark: this phase has no pass." in told
    assert row["reason"] == "no orders: 1 remark set aside"


def test_ready_with_nothing_on_file_takes_the_defaults_and_the_phase_goes_on(tmp_path):
    referee = saga(tmp_path)
    row, told = answered(referee, "c", "ann", "READY", START)
    assert "you had no orders on file, so your part of this turn is done with your default " \
           "orders" in told, told
    assert referee.tick(SOON, send=False).phases == {"c": 1}
    late = [e for e in referee.events("c", "referee") if e["type"] == "seats_late"]
    assert late == [], "a seat that said READY is not late"


def test_an_overlords_ready_ends_its_vassals_part_too(tmp_path):
    """The overlord's PRÊT was answered "vos ordres … sont définitifs", yet every round
    waited 48 h for its vassal."""
    referee = saga(tmp_path, {**VASSALAGE, "active": "bob"}, lang="fr")
    assert "bob" in referee.table("c").state["engine"]["requests"]
    _row, told = answered(referee, "c", "ann", "PRÊT", START)
    assert "PRÊT pour bob aussi" in told, told
    assert referee.tick(SOON, send=False).phases == {"c": 1}


def test_chat_close_to_a_command_word_is_a_remark_and_holds_no_battle_up(tmp_path):
    """"Held the bridge to the last turn…" got "did you mean HELP?" as an error, and froze a
    disputed battle until it was sent again without it."""
    referee = saga(tmp_path, {**VASSALAGE, "vassals": {}, "active": "cat"})
    now = START
    reply(referee, "c", "cat", "move host Mercia", now)
    while referee.table("c").state["game"]["turn"]["stage"] != "battle":
        now = later(referee.table("c").state["engine"]["deadline"], 0.01)
        referee.tick(now, send=False)
    state = referee.table("c").state["game"]
    points = state["turn"]["battle"].get("points_rule")
    won = "result won points 12" if points else "result won"
    row, told = answered(referee, "c", "bob", f"{won}\nHeld the bridge to the last turn…",
                         now)
    assert "did you mean" not in told and "line 2: Held the bridge to the last turn…" in told
    answered(referee, "c", "cat", won.replace("12", "9").replace("won", "lost"), now)
    assert referee.tick(later(now, 0.1), send=False).phases == {"c": 1}


def test_a_phase_that_asks_nobody_is_passed_at_once(tmp_path):
    """pbem new crashed on a position whose first phase asks nobody (a winter with nothing
    to build or remove): "the game asks nothing of anyone but is not over"."""
    referee = make_referee(tmp_path)
    referee.new_game("diplomacy", "d", seats("ann", "bob"), START, {}, seed="p", position={
        "phase": "winter 1901 adjustment", "powers": {"germany": "ann", "russia": "bob"},
        "units": {"germany": ["A BER", "A MUN", "F KIE"], "russia": ["A WAR", "F SEV", "A MOS"]},
        "centres": {"germany": ["BER", "MUN", "KIE"], "russia": ["MOS", "WAR", "SEV"]}})
    state = referee.table("d").state
    assert state["game"]["position"]["phase"] == "movement"
    assert sorted(state["engine"]["requests"]) == ["ann", "bob"]
