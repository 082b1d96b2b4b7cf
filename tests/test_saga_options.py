"""The orders a SAGA mail says a seat may send now are written in the seat's language, and
the game's real parser reads each of them.

A concrete line ("déplacer host Normandy") is fed to the parser for the seat in a real
position and must be read without an error, each of its alternatives ("Mercia | Wessex")
in turn; a line that only shows the syntax ("armée A+B", "[ZONE|ARMÉE]") must start with
an order of the phase and name unit types the parser knows.
"""

import re

import pytest

from conftest import START, make_referee, seats
from mailkinds import SAGA_START
from games.saga import orders as saga_orders
from games.seigneurs import orders as seigneurs_orders
from games.saga.material import unit_of
from games.saga.present import options
from pbem.i18n import speaking

PLACEHOLDER = re.compile(r"A\+B|\[|\]|\bA\b|\bN\b|ARMY|ARMÉE")
UNIT_LIST = re.compile(r"\b\w+(?:\|\w+)+\b")


def option_orders(lines: list[str]) -> list[str]:
    """The orders of a mail's option lines: folded lines joined, comments in brackets
    dropped, the orders of one line (three spaces apart) one by one."""
    joined = []
    for line in lines:
        if line.startswith("      ") and joined:
            joined[-1] += " " + line.strip()
        else:
            joined.append(line.strip())
    return [order for line in joined for order in re.split(r" {3,}", line)
            if not order.startswith("(")]


def alternatives(order: str) -> list[str]:
    """'déplacer host Mercia | Wessex' -> ['déplacer host Mercia', 'déplacer host Wessex']."""
    first, *others = order.split(" | ")
    prefix = first.rsplit(" ", 1)[0]
    return [first] + [f"{prefix} {other}" for other in others]


def syntax_problem(order: str, stage: str) -> str | None:
    """Why a syntax line would not be read: an unknown verb or unit word."""
    verb = saga_orders.VERBS.get(saga_orders.words(order)[0])
    if verb not in saga_orders.ACCEPTS[stage]:
        return f"{order!r}: {saga_orders.words(order)[0]!r} is not an order of {stage}"
    for listed in UNIT_LIST.findall(order.replace("[", " ").replace("]", " ")):
        unknown = [w for w in listed.split("|") if unit_of(w) is None and w not in
                   ("ZONE", "ARMY", "ARMÉE")]
        if unknown:
            return f"{order!r}: {unknown} are not unit types"
    return None


@pytest.fixture(scope="module")
def turn(tmp_path_factory):
    """ann's turn in the campaign of tests/mailkinds.py: the game state."""
    referee = make_referee(tmp_path_factory.mktemp("saga"))
    referee.new_game("saga", "g", seats("ann", "bob", "cat"), START, {}, seed="options",
                     position=SAGA_START)
    return referee.table("g").state["game"]


@pytest.mark.parametrize("lang, verbs", [
    ("en", ["move", "move", "move", "scout", "army", "split", "disband", "recruit"]),
    ("fr", ["déplacer", "déplacer", "déplacer", "reconnaissance", "armée", "diviser",
            "licencier", "recruter"])])
def test_every_option_of_a_turn_is_in_the_seats_words_and_is_read(turn, lang, verbs):
    with speaking(lang):
        lines = options(turn, "ann", "orders")
        shown = option_orders(lines)
        assert [order.split()[0] for order in shown] == verbs, lines
        wrong = []
        for order in shown:
            if PLACEHOLDER.search(order):
                wrong.append(syntax_problem(order, "orders"))
                continue
            for concrete in alternatives(order):
                errors = saga_orders.parse(turn, "ann", concrete)[1]
                wrong += [f"{concrete!r}: {e.message}" for e in errors]
    assert not [w for w in wrong if w], "\n".join(w for w in wrong if w)
    assert all(len(line) <= 78 for line in lines)


def test_a_french_seat_reads_the_syntax_lines_in_french_words(turn):
    with speaking("fr"):
        lines = options(turn, "ann", "orders")
    text = "\n".join(lines)
    assert "  déplacer host Normandy" in lines
    assert "armée A+B   diviser A 2 [NOM]   licencier A 1 levée" in text
    assert "recruter gardes|guerriers|levées [ZONE|ARMÉE]" in text
    assert not re.search(r"\b(move|scout|recruit|disband|split|NAME|ARMY)\b", text)


def test_a_refused_word_lists_the_orders_of_now_in_the_readers_words(turn):
    with speaking("fr"):
        [error] = saga_orders.parse(turn, "ann", "retraite Kent")[1]
    assert error.message == (
        "RETRAITE n'est pas un ordre pour maintenant\u00a0; "
        "vous pouvez envoyer maintenant\u00a0: "
        "DÉPLACER, RECONNAISSANCE, ARMÉE, DIVISER, RECRUTER, LICENCIER, RANÇON, LIBÉRER, RESTER")
    with speaking("en"):
        [error] = saga_orders.parse(turn, "ann", "retraite Kent")[1]
    assert error.message.endswith("now you may send: MOVE, SCOUT, MERGE, SPLIT, RECRUIT, "
                                  "DISBAND, RANSOM, RELEASE, STAY")


@pytest.mark.parametrize("module", [saga_orders, seigneurs_orders])
def test_each_order_written_in_french_is_read_as_that_order(module):
    for verb, word in module.FRENCH_VERBS.items():
        assert module.VERBS[module.words(word)[0]] == verb, word
