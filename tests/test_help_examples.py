"""The order examples HELP shows a seat are words the game's parser reads, in each language.

SAGA and Seigneurs show fixed examples (a French seat sees French words); each
example is fed back to the parser: its order word must be one the stage reads,
and what reads without a position (a battle result, a ruling, an offer) must
parse without an error. Auguste and Attila build their examples from the
seat's own position (tests/test_mail_kinds.py writes them); Auguste's laurel
example is checked here against the position.
"""

import re

import pytest

from conftest import START, make_referee, seats
from games.auguste.orders import parse as auguste_parse
from games.auguste.state import board_of
from games.saga import orders as saga_orders
from games.saga.material import plain as saga_plain
from games.seigneurs import orders as seigneurs_orders
from games.seigneurs.flow import RULING_WORDS
from games.seigneurs.material import GOOD_WORDS
from pbem import render
from pbem.adjudicator import offers
from pbem.adjudicator.results import parse_result
from pbem.adjudicator.rulings import parse_ruling
from pbem.i18n import speaking

SEIGNEURS_STAGES = list(seigneurs_orders.STAGE_VERBS) + ["revolt", "judgement"]
SEATS = ["ann", "bob", "zed"]


def examples(ruleset: str, view: dict, lang: str) -> list[str]:
    """The examples of a HELP text: the first column of its indented rows, split at ' / '."""
    with speaking(lang):
        text = render.render(ruleset, "help.txt.j2", view=view)
    found = []
    for line in text.splitlines():
        row = re.match(r"^  (\S.*?)(?: {2,}|$)", line)
        if row:
            found += [part.strip() for part in row.group(1).split(" / ")]
    return found


def saga_problem(example: str) -> str | None:
    """Why SAGA's parser would not read this example, or None."""
    words = saga_orders.words(example)
    if saga_plain(words[0]) in ("result", "resultat"):
        return "; ".join(e.message for e in parse_result(example)[1]) or None
    verb = saga_orders.VERBS.get(words[0])
    if verb not in saga_orders.ACCEPTS["orders"]:
        return f"{words[0]!r} is not an order of a turn"
    return None


def seigneurs_problem(example: str, stage: str) -> str | None:
    """Why the Seigneurs parser would not read this example in `stage`, or None."""
    if stage in ("revolt", "judgement"):
        choices = {"ann-1": ["c3"]} if stage == "revolt" else {"winner": ["ann", "bob"]}
        errors = parse_ruling(example, choices, by="zed", words=RULING_WORDS)[1]
        return "; ".join(e.message for e in errors) or None
    words = seigneurs_orders.words(example)
    verb = seigneurs_orders.VERBS.get(words[0])
    if verb not in seigneurs_orders.STAGE_VERBS[stage]:
        return f"{words[0]!r} is not an order of the {stage} stage"
    if verb == "offer":
        try:
            offers.read_offer([w for w in words[1:] if w not in seigneurs_orders.FILLER],
                              ["bob", "zed"], GOOD_WORDS)
        except ValueError as problem:
            return str(problem)
    return None


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_saga_help_example_is_read_by_the_parser(lang):
    shown = examples("saga", {}, lang)
    assert len(shown) >= 10, shown
    wrong = [f"{example}: {saga_problem(example)}" for example in shown
             if saga_problem(example)]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("stage", SEIGNEURS_STAGES)
def test_every_seigneurs_help_example_is_read_by_the_parser(lang, stage):
    shown = examples("seigneurs", {"stage": stage, "round": 1}, lang)
    assert shown
    wrong = [f"{example}: {seigneurs_problem(example, stage)}" for example in shown
             if seigneurs_problem(example, stage)]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("ruleset, view, said", [
    ("saga", {}, ["déplacer host Jorvik", "résultat gagné"]),
    ("seigneurs", {"stage": "market", "round": 1}, ["offre bob donne bois 2 prend métal 1"]),
    ("seigneurs", {"stage": "judgement", "round": 1}, ["décision vainqueur ann"])])
def test_a_french_seat_sees_french_order_words(ruleset, view, said):
    shown = " ".join(examples(ruleset, view, "fr"))
    assert all(words in shown for words in said), shown
    english = " ".join(examples(ruleset, view, "en"))
    assert not any(words in english for words in said), english


def auguste_help(folder, red_units: list[str], lang: str) -> tuple[str, list[str], dict]:
    """(HELP text, its examples, the game's state) for ann's red legion on these cells,
    the laurel crown on FIM."""
    folder.mkdir()
    referee = make_referee(folder)
    referee.new_game("auguste", "g", seats("ann", "bob"), START, seed="help", position={
        "laurel": "FIM", "shields": [],
        "legions": {"red": {"team": "Caesar", "seat": "ann", "units": red_units},
                    "blue": {"team": "Pompey", "seat": "bob", "units": ["ZIJ"]}}})
    table = referee.table("g")
    with speaking(lang):
        view = table.game.view(table.state["game"], "ann")
        text = render.render("auguste", "help.txt.j2", view=view)
    return text, examples("auguste", view, lang), table.state["game"]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_auguste_help_shows_a_laurel_order_the_seat_can_give_now(lang, tmp_path):
    state = auguste_help(tmp_path / "probe", ["MOC"], lang)[2]
    touching = sorted(board_of(state).neighbours["FIM"])[0]
    text, shown, state = auguste_help(tmp_path / "now", [touching], lang)
    laurel = next(e for e in shown if re.search(r"\b(laurel|laurier)\b", e))
    assert not auguste_parse(state, "ann", laurel)[1], laurel
    assert "FIM)" not in " ".join(text.split())


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_auguste_help_says_when_the_laurel_order_can_be_given(lang, tmp_path):
    text, shown, state = auguste_help(tmp_path / "game", ["MOC"], lang)
    assert "MOC" not in board_of(state).neighbours["FIM"]
    laurel = next(e for e in shown if re.search(r"\b(laurel|laurier)\b", e))
    assert auguste_parse(state, "ann", laurel)[1], "not next to the crown: the order is refused now"
    assert "FIM)" in " ".join(text.split())
