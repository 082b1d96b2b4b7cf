"""The orders a SAGA mail says a seat may send now are written in the seat's language, and
the game's real parser reads each of them.

Each line ("déplacer ost Mercie | Wessex") offers orders built from the seat's
position, and every one of them is fed to the parser for the seat in a real
position: none may be refused, and no line shows a placeholder ("A+B", "[NAME]",
"ARMY N") for the player to fill in.
"""

import re
from types import SimpleNamespace

import pytest

from conftest import START, make_referee, seats
from mailkinds import SAGA_START
from pbem.games.saga import orders as saga_orders
from pbem.games.seigneurs import orders as seigneurs_orders
from pbem.games.saga.present import lord_text, narrate, options
from pbem.i18n import speaking

PLACEHOLDER = re.compile(r"A\+B|\[|\]|\bA\b|\bN\b|ARMY|ARMÉE|NAME|NOM|ZONE")


@pytest.fixture(scope="module")
def turn(tmp_path_factory):
    """ann's turn in the campaign of tests/mailkinds.py: the game state."""
    referee = make_referee(tmp_path_factory.mktemp("saga"))
    referee.new_game("saga", "g", seats("ann", "bob", "cat"), START, {}, seed="options",
                     position=SAGA_START)
    return referee.table("g").state["game"]


@pytest.mark.parametrize("lang, verbs", [
    ("en", ["move", "move", "move", "scout", "split", "disband", "recruit", "recruit"]),
    ("fr", ["déplacer", "déplacer", "déplacer", "reconnaissance", "diviser", "licencier",
            "recruter", "recruter"])])
def test_every_option_of_a_turn_is_in_the_seats_words_and_is_read(turn, lang, verbs):
    with speaking(lang):
        offered = options(turn, "ann", "orders")
        assert [choice["line"].split()[0] for choice in offered] == verbs, offered
        wrong = [f"{order!r}: {e.message}" for choice in offered
                 for order in choice["orders"]
                 for e in saga_orders.parse(turn, "ann", order)[1]]
    assert not wrong, "\n".join(wrong)
    lines = [line for choice in offered for line in choice["text"]]
    assert not [line for line in lines if PLACEHOLDER.search(line)]
    assert all(len(line) <= 78 for line in lines)
    assert sum(len(choice["orders"]) for choice in offered) >= 15


def test_a_french_seat_reads_its_options_in_french_words(turn):
    with speaking("fr"):
        lines = [line for choice in options(turn, "ann", "orders") for line in choice["text"]]
    text = "\n".join(lines)
    assert "  déplacer ost Normandie" in lines
    assert "diviser ost 2 pillards" in text and "licencier ost 1 levée" in text
    assert "recruter levées | guerriers | gardes" in text
    assert not re.search(r"\b(move|scout|recruit|disband|split|raiders|levy|host|reserve)\b", text)


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


def test_a_french_report_names_an_army_as_french_reads_it():
    """'bea a perdu 1 unité de Guerriers de host' read as English, then as 'de ost'."""
    lost = SimpleNamespace(type="units_lost", payload={
        "seat": "bea", "army": "host", "units": {"hearthguards": 0, "warriors": 1, "levies": 2},
        "lord": False})
    with speaking("fr"):
        assert narrate(lost) == "bea a perdu 1 unité de Guerriers, 2 unités de Levées de " \
                                "l'armée ost"
    assert narrate(lost) == "bea lost 1 Warriors, 2 Levies from host"


def test_a_campaign_won_on_army_points_says_the_zones_were_tied():
    """ann and bea held 3 zones each after the last round; 'ann won (most zones after 2
    rounds)' was all they read."""
    won = SimpleNamespace(type="campaign_won", payload={
        "winners": ["ann"], "reason": "rounds", "values": {"rounds": 2},
        "zones": {"ann": 3, "bea": 3, "cid": 2}})
    assert narrate(won) == ("the campaign is over: ann won (most zones after 2 rounds; as "
                            "many zones as bea: the most army points, then the most gold, "
                            "decide)")
    shared = SimpleNamespace(type="campaign_won", payload={**won.payload,
                                                           "winners": ["ann", "bea"]})
    with speaking("fr"):
        assert narrate(shared) == ("la campagne est finie\u00a0: ann et bea gagnent (le plus "
                                   "de zones après 2 manches)")


def test_a_disputed_battle_reads_in_french_typography():
    """'ann dit que ann a gagné; bea dit que bea a gagné': French elides, and spaces ';'."""
    disputed = SimpleNamespace(type="battle_disputed", payload={
        "zone": "Lindsey", "claims": {"ann": "ann", "bea": "bea"}})
    with speaking("fr"):
        assert "ann dit qu'ann a gagné\u00a0; bea dit que bea a gagné" in narrate(disputed)


def test_a_french_seat_reads_where_its_lord_is_as_french_says_it():
    """'Seigneur : avec ost.'"""
    state = {"lords": {"ann": {"status": "free", "wounded": False}},
             "armies": {"ann": {"host": {**SAGA_START["armies"]["ann"]["host"],
                                         "lord": True}}}}
    with speaking("fr"):
        assert lord_text(state, "ann") == "avec l'armée ost"
