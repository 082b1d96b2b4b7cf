"""Diplomacy's turn: movement, retreats and winter chained, as plain JSON, deterministically."""

import json
import random

from pbem.adjudicator.contract import canonical
from pbem.games.diplomacy import adjustments, movement, retreats
from pbem.games.diplomacy.board import board
from pbem.games.diplomacy.orders import order_text, read
from pbem.games.diplomacy.position import centre_count, next_phase, start, winner

MAP = board()


def orders(position: dict, **lines) -> dict:
    """Each power's lines read against the position; none may be refused."""
    out = {}
    for power, text in lines.items():
        out[power], errors = read(MAP, position, power, text)
        assert not errors, errors
    return out


def phase_name(position: dict) -> str:
    return f"{position['season']} {position['year']} {position['phase']}"


def test_a_first_year_spring_fall_and_winter():
    spring = start(MAP)
    fall = movement.resolve(MAP, spring, orders(
        spring, france="A PAR - BUR\nA MAR - SPA\nF BRE - MAO",
        germany="A MUN - RUH\nF KIE - DEN\nA BER - KIE"))["position"]
    assert phase_name(fall) == "fall 1901 movement"
    assert "SPA" not in fall["centres"], "centres change hands only after Fall"
    winter = movement.resolve(MAP, fall, orders(
        fall, france="F MAO - POR\nA BUR - BEL", germany="A RUH - HOL"))["position"]
    assert phase_name(winter) == "winter 1901 adjustment"
    assert winter["centres"]["SPA"] == winter["centres"]["POR"] == "france"
    assert winter["centres"]["DEN"] == winter["centres"]["HOL"] == "germany"
    assert centre_count(winter, "france") == 6 and winner(MAP, winter) is None
    report = adjustments.resolve(MAP, winter, orders(
        winter, france="BUILD A PAR\nBUILD F BRE\nBUILD A MAR", germany="BUILD A MUN\nWAIVE"))
    spring = report["position"]
    assert phase_name(spring) == "spring 1902 movement"
    assert sum(u["power"] == "france" for u in spring["units"].values()) == 6
    assert {p for p, u in spring["units"].items() if u["power"] == "germany"} == {
        "DEN", "HOL", "KIE", "MUN"}


def test_winter_is_skipped_when_no_power_adjusts():
    fall = {**start(MAP), "season": "fall"}
    assert phase_name(movement.resolve(MAP, fall, {})["position"]) == "spring 1902 movement"


def test_a_power_owning_eighteen_centres_wins():
    position = start(MAP)
    centres = sorted(p for p, prov in MAP.provinces.items() if prov.centre)
    position["centres"] = {p: "turkey" for p in centres[:18]}
    assert winner(MAP, position) == "turkey"
    position["centres"] = {p: "turkey" for p in centres[:17]}
    assert winner(MAP, position) is None


def test_each_order_has_a_result_a_silent_unit_holds_and_a_void_order_says_why():
    where = start(MAP)
    where["units"]["NTH"] = {"power": "germany", "type": "F"}
    where["units"]["LON"] = {"power": "england", "type": "A"}
    report = movement.resolve(MAP, where, orders(
        where, england="A LON - YOR\nF EDI S A LVP - YOR", germany="F NTH C A LON - YOR"))
    results = {order_text(r["order"]): r for r in report["results"]}
    assert results["F EDI S A LVP - YOR"]["result"] == "void"
    assert results["F EDI S A LVP - YOR"]["why"] == "unmatched"
    assert results["F NTH C A LON - YOR"] == {
        "power": "germany", "order": results["F NTH C A LON - YOR"]["order"],
        "result": "void", "why": "overland"}
    assert results["A LON - YOR"]["result"] == "succeeded"
    assert results["A PAR H"] == {"power": "france", "order": {"type": "hold", "unit": "A",
                                                               "at": "PAR"},
                                  "result": "succeeded", "default": True}
    assert len(report["results"]) == len(where["units"])


def test_an_order_that_cannot_be_given_is_left_out_and_the_unit_holds():
    where = start(MAP)
    given = {"germany": [{"type": "move", "unit": "F", "at": "LON", "to": "NTH"}],
             "england": [{"type": "move", "unit": "F", "at": "EDI", "to": "BUR"}]}
    report = movement.resolve(MAP, where, given)
    assert report["position"]["units"] == where["units"]
    held = [r for r in report["results"] if r["order"]["at"] in ("LON", "EDI")]
    assert all(r["order"]["type"] == "hold" and r["default"] for r in held)


def test_the_same_orders_in_any_order_give_the_same_outcome_byte_for_byte():
    where = start(MAP)
    lines = {"france": "A PAR - BUR\nA MAR S A PAR - BUR\nF BRE - MAO",
             "germany": "A MUN - BUR\nA BER - MUN\nF KIE - HOL",
             "italy": "A VEN - TYR\nA ROM - VEN\nF NAP - ION",
             "austria": "A VIE - TYR\nA BUD - SER\nF TRI - ALB",
             "russia": "A WAR - GAL\nA MOS - UKR\nF SEV - BLA\nF STP/SC - BOT",
             "turkey": "F ANK - BLA\nA CON - BUL\nA SMY - CON",
             "england": "F LON - NTH\nF EDI - NWG\nA LVP - YOR"}
    first = canonical(movement.resolve(MAP, where, orders(where, **lines)))
    shuffle = random.Random(7)
    for _ in range(5):
        powers = list(lines)
        shuffle.shuffle(powers)
        given = {}
        for power in powers:
            mine = lines[power].splitlines()
            shuffle.shuffle(mine)
            given[power] = orders(where, **{power: "\n".join(mine)})[power]
        assert canonical(movement.resolve(MAP, where, given)) == first
    assert json.loads(first)["position"]["units"]["BUR"]["power"] == "france"


def test_a_dislodged_unit_with_nowhere_to_go_is_disbanded_at_once():
    where = {**start(MAP), "units": {
        "POR": {"power": "england", "type": "F"},
        "SPA": {"power": "france", "type": "F", "coast": "SC"},
        "MAO": {"power": "france", "type": "F"}}}
    report = movement.resolve(MAP, where, orders(
        where, france="F SPA/SC - POR\nF MAO S F SPA/SC - POR"))
    assert report["disbanded"] == ["POR"]
    assert report["dislodged"]["POR"]["retreats"] == []
    assert phase_name(report["position"]) == "fall 1901 movement"
    assert "dislodged" not in report["position"]


def test_an_unordered_retreat_is_a_disband_and_a_retreat_moves_the_unit():
    where = {**start(MAP), "units": {
        "VIE": {"power": "italy", "type": "A"}, "BOH": {"power": "italy", "type": "A"},
        "TRI": {"power": "austria", "type": "A"}, "BUD": {"power": "austria", "type": "A"},
        "SIL": {"power": "germany", "type": "A"}, "MUN": {"power": "germany", "type": "A"}}}
    report = movement.resolve(MAP, where, orders(
        where, austria="A TRI - VIE\nA BUD S A TRI - VIE",
        germany="A SIL - BOH\nA MUN S A SIL - BOH"))
    retreat = report["position"]
    assert phase_name(retreat) == "spring 1901 retreat"
    assert retreat["dislodged"]["VIE"]["retreats"] == ["GAL", "TYR"]
    done = retreats.resolve(MAP, retreat, orders(retreat, italy="A VIE - GAL"))
    assert [(r["order"]["at"], r["result"], r.get("default", False))
            for r in done["results"]] == [("BOH", "succeeded", True), ("VIE", "succeeded", False)]
    assert done["disbanded"] == ["BOH"]
    assert done["position"]["units"]["GAL"] == {"power": "italy", "type": "A"}
    assert phase_name(done["position"]) == "fall 1901 movement"


def test_a_silent_power_that_must_remove_is_in_civil_disorder():
    where = {**start(MAP), "season": "winter", "phase": "adjustment",
             "centres": {"MOS": "russia"},
             "units": {"MOS": {"power": "russia", "type": "A"},
                       "UKR": {"power": "russia", "type": "A"},
                       "BAL": {"power": "russia", "type": "F"}}}
    report = adjustments.resolve(MAP, where, {})
    assert report["removed"] == ["BAL", "UKR"]
    assert all(r["default"] for r in report["results"])
    assert list(report["position"]["units"]) == ["MOS"]


def test_positions_and_reports_are_plain_json():
    where = start(MAP)
    report = movement.resolve(MAP, where, orders(where, france="A PAR - BUR"))
    assert json.loads(json.dumps(report)) == report
    assert next_phase(MAP, report["position"])["season"] == "spring"
