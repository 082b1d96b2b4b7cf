"""Every case of the DATC's section 6 (Diplomacy Adjudicator Test Cases, v3.0): one file each.

A case file, tests/games/diplomacy/datc_6_X_N.toml, is the position, each
power's order lines in the judges' notation, and what must follow:

    rule = "what the case pins down, in words"
    phase = "spring 1901 movement"          # the default; "winter 1901 adjustment"...
    [units]                                 # every unit on the board, by power
    england = ["F NTH", "A LON"]
    [centres]                               # optional: owned supply centres, by power
    russia = ["STP"]                        # (default: each power its home centres)
    [orders]                                # each line, then what became of it:
    england = ["F NTH C A LON - BEL => succeeded", "A LON - BEL => no convoy",
               "F LON - PIC => refused: cannot reach"]   # a refused line, and a piece
    [expect]                                #   of the reason the reader gives
    units = {england = ["A BEL", "F NTH"]}  # every unit after the phase
    dislodged = {france = ["F ENG"]}        # the units dislodged (default: none)
    contested = ["TYR"]                     # optional: provinces left empty by a standoff
    retreats = {"F ENG" = ["IRI", "WAL"]}   # optional: where a dislodged unit may go
    next = "fall 1901 movement"             # optional: the phase that follows
    civil_disorder = {russia = ["REMOVE A SWE"]}   # removals nobody ordered
    [[then]]                                # the next phase (retreats after a movement)
    orders = {england = ["..."]}
    [then.expect] ...
    [[variant]]                             # the same case again with other units,
    units = ...                             # centres, orders or expectations

The lines go through the real order reader (games/diplomacy/orders.py) and
the real adjudicator, with the DATC's preferred option wherever it offers
several (docs/rules/diplomacy.md).
"""

from pathlib import Path
import tomllib

import pytest

from pbem.games.diplomacy import adjustments, movement, retreats
from pbem.games.diplomacy.board import board as standard_board
from pbem.games.diplomacy.orders import order_text, read
from pbem.games.diplomacy.position import unit_record, unit_text

CASES = sorted((Path(__file__).parent / "games" / "diplomacy").glob("datc_*.toml"))
PHASES = {"movement": movement.resolve, "retreat": retreats.resolve,
          "adjustment": adjustments.resolve}
RESULTS = {"succeeded", "bounced", "cut", "dislodged", "void", "no convoy"}


def case_position(case: dict) -> dict:
    """The case's position: its units, and its owned centres (by default the home ones)."""
    board = standard_board()
    season, year, phase = case.get("phase", "spring 1901 movement").split()
    units = {}
    for power, texts in case["units"].items():
        for text in texts:
            kind, place = text.split()
            units[place.partition("/")[0]] = unit_record(power, kind, place)
    owners = case.get("centres") or {p: list(board.powers[p].home) for p in board.powers}
    centres = {province: power for power, provinces in owners.items() for province in provinces}
    return {"year": int(year), "season": season, "phase": phase,
            "units": dict(sorted(units.items())), "centres": dict(sorted(centres.items()))}


def by_power(position_units: dict) -> dict:
    """A position's units as the case files write them: {power: sorted ["F NTH", ...]}."""
    out = {}
    for province, unit in position_units.items():
        out.setdefault(unit["power"], []).append(unit_text(province, unit))
    return {power: sorted(texts) for power, texts in sorted(out.items())}


def play(position: dict, written: dict, expect: dict) -> tuple:
    """Read each power's lines, resolve the phase; (the report, every way it differs)."""
    board = standard_board()
    problems, given, wanted = [], {}, {}
    for power, lines in written.items():
        orders_text = [line.split(" => ")[0] for line in lines]
        outcomes = [line.split(" => ")[1] for line in lines]
        orders, errors = read(board, position, power, "\n".join(orders_text))
        given[power] = orders
        said = {e.line: e.message for e in errors}
        for number, (text, outcome) in enumerate(zip(orders_text, outcomes), 1):
            if outcome.startswith("refused"):
                piece = outcome.partition(":")[2].strip()
                if number not in said or piece not in said[number]:
                    problems.append(f"{power}: {text!r} should be refused ({piece!r}); "
                                    f"the reader said {said.get(number)!r}")
                continue
            assert outcome in RESULTS, f"{outcome!r} is no result"
            if number in said:
                problems.append(f"{power}: {text!r} was refused: {said[number]}")
                continue
            single, _errors = read(board, position, power, text)
            wanted[(power, order_text(single[0]))] = outcome
    report = PHASES[position["phase"]](board, position, given)
    got = {(r["power"], order_text(r["order"])): r["result"] for r in report["results"]
           if not r.get("default")}
    for key, outcome in sorted(wanted.items()):
        if got.get(key) != outcome:
            problems.append(f"{key[0]}: {key[1]} should have {outcome}, got {got.get(key)}")
    return report, problems + expectation_problems(report, expect)


def expectation_problems(report: dict, expect: dict) -> list:
    """The units, dislodgements, standoffs, retreats and civil disorder a case expects."""
    problems = []
    units = by_power(report["position"]["units"])
    if units != expect["units"]:
        problems.append(f"units: expected {expect['units']}, got {units}")
    dislodged = by_power(report.get("dislodged", {}))
    if dislodged != expect.get("dislodged", {}):
        problems.append(f"dislodged: expected {expect.get('dislodged', {})}, got {dislodged}")
    if "contested" in expect and report["contested"] != expect["contested"]:
        problems.append(f"contested: expected {expect['contested']}, got {report['contested']}")
    for text, places in expect.get("retreats", {}).items():
        province = text.split()[1].partition("/")[0]
        got = report["dislodged"].get(province, {}).get("retreats")
        if got != places:
            problems.append(f"{text} may retreat to {got}, expected {places}")
    after = report["position"]
    following = f"{after['season']} {after['year']} {after['phase']}"
    if "next" in expect and following != expect["next"]:
        problems.append(f"next phase: expected {expect['next']}, got {following}")
    disorder = {}
    for r in report["results"]:
        if r.get("default") and r["order"]["type"] == "remove":
            disorder.setdefault(r["power"], []).append(order_text(r["order"]))
    if disorder != expect.get("civil_disorder", {}):
        problems.append(f"civil disorder: expected {expect.get('civil_disorder', {})}, "
                        f"got {disorder}")
    return problems


def run_case(case: dict) -> list:
    """Play a case (and each of its variants) phase after phase; every way the outcome
    differs from the case."""
    report, problems = play(case_position(case), case["orders"], case["expect"])
    for step in case.get("then", []):
        more_report, more = play(report["position"], step["orders"], step["expect"])
        report, problems = more_report, problems + more
    for number, variant in enumerate(case.get("variant", []), 2):
        again = {k: v for k, v in case.items() if k != "variant"}
        problems += [f"variant {number}: {p}" for p in run_case({**again, **variant})]
    return problems


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_datc_case(path):
    case = tomllib.loads(path.read_text(encoding="utf-8"))
    assert case.get("rule"), f"{path.name} must say which rule it pins down"
    problems = run_case(case)
    assert not problems, f"{path.name} ({case['rule']}):\n" + "\n".join(problems)


def test_every_datc_section_6_case_has_its_file():
    counts = {"A": 12, "B": 15, "C": 9, "D": 34, "E": 15, "F": 25, "G": 20, "H": 16, "I": 7,
              "J": 11}
    wanted = {f"datc_6_{s}_{n}" for s, count in counts.items() for n in range(1, count + 1)}
    assert {p.stem for p in CASES} == wanted


def test_a_wrong_expectation_is_caught():
    path = Path(__file__).parent / "games" / "diplomacy" / "datc_6_A_11.toml"
    case = tomllib.loads(path.read_text(encoding="utf-8"))
    case["orders"]["austria"] = ["A VIE - TYR => succeeded"]
    case["expect"]["units"]["austria"] = ["A TYR"]
    case["expect"]["dislodged"] = {"italy": ["A VEN"]}
    problems = "\n".join(run_case(case))
    assert "A VIE - TYR should have succeeded, got bounced" in problems
    assert "units: expected" in problems and "dislodged: expected" in problems
