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
    [expect] ...                        # the game's expectations, see its check.py
"""

import importlib.util
from pathlib import Path
import tomllib

import pytest

from pbem import inbound
from pbem.adjudicator.contract import REFEREE
from pbem.timeutil import later

from conftest import START, make_referee, seats

CASES = sorted(Path(__file__).parent.glob("games/*/*.toml"))


def checker(game: str):
    """The check(state, expect, answers, events) function of a game's cases."""
    path = Path(__file__).parent / "games" / game / "check.py"
    spec = importlib.util.spec_from_file_location(f"case_check_{game}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.check


def play_phase(referee, orders: dict, now: str) -> tuple[dict, str]:
    """Submit each seat's orders, then tick past the deadline; return the answers."""
    answers = {}
    for seat, text in orders.items():
        answers[seat] = inbound.submit(referee, "case", seat, text, now)
    deadline = referee.table("case").state["engine"]["deadline"]
    after = later(deadline, 0.01)
    referee.tick(after, send=False)
    return answers, after


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_rule_case(path, tmp_path):
    case = tomllib.loads(path.read_text(encoding="utf-8"))
    game = path.parent.name
    assert case.get("rule"), f"{path.name} must say which rule it pins down"
    referee = make_referee(tmp_path)
    referee.new_game(game, "case", seats(*case["seats"]), START, case.get("options", {}),
                     seed=case.get("seed", "case-seed"), position=case["position"])
    answers, now = play_phase(referee, case.get("orders", {}), START)
    for step in case.get("then", []):
        more, now = play_phase(referee, step.get("orders", {}), now)
        answers.update({f"then:{k}": v for k, v in more.items()})
    state = referee.table("case").state
    events = list(referee.events("case", REFEREE))
    problems = checker(game)(state, case["expect"], answers, events)
    assert not problems, f"{path.name} ({case['rule']}):\n" + "\n".join(problems)
