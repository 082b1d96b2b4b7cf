"""One runner over every rule case: tests/games/<game>/<rule>.toml.

A case is a position, the orders each seat mails, and what must follow. The
orders go through the same path as a player's mail (parse, submission,
tick at the deadline); the game's own ``check.py`` beside its cases compares
the resulting state with the case's ``[expect]`` table.

    rule = "what the case pins down, in words"
    seats = ["ann", "bob"]
    options = {trumps = "yes"}          # optional game options
    [position] ...                      # the game's position (docs/positions.md)
    [orders]                            # each seat's mail text; silent seats omitted
    ann = "red: move BAK DOR"
    [[then]]                            # optional later phases, each with its orders
    orders = {ann = "..."}
    ruling = {set = {winner = "ann"}, text = "..."}   # or the referee's ruling of that phase
    [expect]                            # the game's expectations (see its check.py), and:
    errors = {ann = ["not next to"]}    # for each seat, pieces of its error lines, in order;
                                        # a seat not listed must have had no error
    remarks = {ann = ["line 3: Ouch"]}  # for each seat, pieces of the lines set aside as
                                        # remarks (chat), in order; likewise
    understood = {ann = ["red: pass"]}  # each seat's orders as said back to it; exact
    events = ["collided"]               # event types that must have happened
    no_events = ["pincered"]            # event types that must not have happened
    counts = {century_scored = 1}       # how many times these events happened
    told = ["ann was silent"]           # pieces of the public log every seat reads
    log_says = {ann = ["die 5"]}        # pieces of the log this seat reads (its own events too)
    log_never_says = {cat = ["battle"]} # pieces this seat's log must never show

A game's check.py may take the events too: check(state, expect, events).
"""

import importlib.util
import inspect
from pathlib import Path
import tomllib

import pytest

from pbem import inbound
from pbem.adjudicator.contract import REFEREE, Event
from pbem.adjudicator.engine import narrate
from pbem.timeutil import later

from conftest import START, make_referee, seats

# The DATC's cases (games/diplomacy/datc_*.toml) have their own runner, tests/test_datc.py.
CASES = sorted(p for p in Path(__file__).parent.glob("games/*/*.toml")
               if not p.name.startswith("datc_"))


def checker(game: str):
    """The check(state, expect) function of a game's cases: problems with the game state."""
    path = Path(__file__).parent / "games" / game / "check.py"
    spec = importlib.util.spec_from_file_location(f"case_check_{game}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.check


def answer_problems(expect: dict, answers: dict) -> list[str]:
    """Each seat's error lines and remarks (and no others), and its orders as said back."""
    problems = []
    for key in ("errors", "remarks"):
        for seat, wanted in expect.get(key, {}).items():
            got = answers.get(seat, {}).get(key, [])
            if len(got) != len(wanted) or any(w not in g for w, g in zip(wanted, got)):
                problems.append(f"{key} of {seat}: expected {wanted}, got {got}")
        for seat, answer in answers.items():
            if seat not in expect.get(key, {}) and answer[key]:
                problems.append(f"{seat} had unexpected {key}: {answer[key]}")
    for seat, wanted in expect.get("understood", {}).items():
        got = answers.get(seat, {}).get("understood", [])
        if got != wanted:
            problems.append(f"{seat}'s orders were said back as {got}, expected {wanted}")
    return problems


def event_problems(expect: dict, events: list) -> list[str]:
    """Events that must, or must not, have happened, and how often."""
    happened = [e["type"] for e in events]
    problems = []
    for kind in expect.get("events", []):
        if kind not in happened:
            problems.append(f"no {kind} event happened (got {sorted(set(happened))})")
    for kind in expect.get("no_events", []):
        if kind in happened:
            problems.append(f"a {kind} event happened, and must not have")
    for kind, count in expect.get("counts", {}).items():
        if happened.count(kind) != count:
            problems.append(f"{kind} happened {happened.count(kind)} times, expected {count}")
    return problems


def told_problems(expect: dict, game, public: list) -> list[str]:
    """Pieces of text the public log must tell every seat."""
    told = "\n".join(narrate(Event(e["type"], e["payload"], e["visible_to"]), game) or ""
                     for e in public)
    return [f"the public log never says {piece!r}:\n{told}"
            for piece in expect.get("told", []) if piece not in told]


def seen_problems(expect: dict, game, referee) -> list[str]:
    """Pieces of text each seat's own log must (or must never) tell."""
    problems = []
    for key, wanted in (("log_says", True), ("log_never_says", False)):
        for seat, pieces in expect.get(key, {}).items():
            told = "\n".join(narrate(Event(e["type"], e["payload"], e["visible_to"]), game)
                             or "" for e in referee.events("case", seat))
            for piece in pieces:
                if (piece in told) != wanted:
                    said = "never says" if wanted else "says"
                    problems.append(f"the log of {seat} {said} {piece!r}:\n{told}")
    return problems


def play_phase(referee, orders: dict, now: str, ruling=None) -> tuple[dict, str]:
    """Submit each seat's orders (or the referee's ruling), then tick past the deadline;
    return the answers. A phase waiting for the referee alone has no deadline."""
    answers = {}
    for seat, text in orders.items():
        answers[seat] = inbound.submit(referee, "case", seat, text, now)
    if ruling is not None:
        asked = [r for r in referee.rulings("case") if r["asked"] == REFEREE]
        assert asked, f"a ruling is given but the referee is asked nothing: " \
                      f"{referee.rulings('case')}"
        referee.rule("case", asked[0]["id"], ruling.get("text", "the referee's reasons"),
                     ruling["set"], now)
        return answers, now
    deadline = referee.table("case").state["engine"]["deadline"]
    if deadline is None:
        return answers, now
    after = later(deadline, 0.01)
    referee.tick(after, send=False)
    return answers, after


def run_case(case: dict, game: str, folder) -> list[str]:
    """Play a case through a real referee; return every way the outcome differs."""
    referee = make_referee(folder)
    referee.new_game(game, "case", seats(*case["seats"]), START, case.get("options", {}),
                     seed=case.get("seed", "case-seed"), position=case["position"])
    answers, now = play_phase(referee, case.get("orders", {}), START)
    for step in case.get("then", []):
        more, now = play_phase(referee, step.get("orders", {}), now, step.get("ruling"))
        answers.update({f"then:{k}": v for k, v in more.items()})
    state = referee.table("case").state
    events = list(referee.events("case", REFEREE))
    check = checker(game)
    if len(inspect.signature(check).parameters) == 3:
        problems = check(state, case["expect"], events)
    else:
        problems = check(state, case["expect"])
    table = referee.table("case")
    return problems + answer_problems(case["expect"], answers) + \
        event_problems(case["expect"], events) + \
        told_problems(case["expect"], table.game, list(referee.events("case", None))) + \
        seen_problems(case["expect"], table.game, referee)


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_rule_case(path, tmp_path):
    case = tomllib.loads(path.read_text(encoding="utf-8"))
    assert case.get("rule"), f"{path.name} must say which rule it pins down"
    problems = run_case(case, path.parent.name, tmp_path)
    assert not problems, f"{path.name} ({case['rule']}):\n" + "\n".join(problems)


def test_a_wrong_expectation_is_caught(tmp_path):
    path = Path(__file__).parent / "games" / "auguste" / "leaving_legionary_still_blocks.toml"
    case = tomllib.loads(path.read_text(encoding="utf-8"))
    case["expect"].update(units={"MOC": "red", "TUK": "blue"}, errors={}, events=["collided"])
    problems = run_case(case, "auguste", tmp_path)
    assert any(p.startswith("units:") for p in problems)
    assert any(p.startswith("bob had unexpected errors") for p in problems)
    assert "no collided event happened" in " ".join(problems)


def test_a_wrong_log_expectation_is_caught(tmp_path):
    path = Path(__file__).parent / "games" / "saga" / \
        "fog_a_move_inside_is_seen_by_its_player_alone.toml"
    case = tomllib.loads(path.read_text(encoding="utf-8"))
    case["expect"].update(log_says={"bob": ["reserve moved"]},
                          log_never_says={"ann": ["reserve moved"]})
    problems = "\n".join(run_case(case, "saga", tmp_path))
    assert "the log of bob never says 'reserve moved'" in problems
    assert "the log of ann says 'reserve moved'" in problems
