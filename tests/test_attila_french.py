"""Attila from a French seat and an English one: every mail in the seat's language, examples
from the reader's own hand, the closest name for every mistyped word, real plurals, and a
welcome that tells how to win and how scoring works."""

import email
from email import policy
import re

import pytest

from pbem import inbound
from pbem.app import SeatSpec
from pbem.timeutil import later

from conftest import START, make_referee
from mailkinds import english_lines, long_lines, text_of
from test_attila_games import play_game

POSITION = {
    "first": "ann",
    "hands": {"ann": ["goths", "goths", "huns", "franks", "saxons", "saxons"],
              "bob": ["huns", "huns", "teutons", "teutons", "vandals", "franks"],
              "cat": ["teutons", "teutons", "saxons", "vandals", "vandals", "saxons"]},
    "pawns": {"Pannonia": {"huns": 2, "franks": 2}},
}
# Crutches in place of a real plural.
CRUTCHES = re.compile(r"\(s\)|\b1 (pawns|cards|provinces|pions|cartes)\b|\blegion", re.I)


def new_game(tmp_path, french=("ann",)):
    """ann, bob and cat at the position above; the seats in `french` read French."""
    referee = make_referee(tmp_path)
    referee.new_game("attila", "m", [SeatSpec(n, f"{n}@players.example",
                                              lang="fr" if n in french else "en")
                                     for n in ("ann", "bob", "cat")], START, {},
                     seed="french", position=POSITION)
    return referee


def mails(referee, seat, kind=None) -> list:
    """The mails to a seat (of one kind), oldest first."""
    rows = referee.store.all("SELECT * FROM outbox WHERE seat = ? ORDER BY id", [seat])
    return [email.message_from_bytes(referee.store.outbox_mail(r), policy=policy.default)
            for r in rows
            if kind is None or r["kind"] == kind]


def flat(text: str) -> str:
    """A mail's text with its lines joined, for phrases that wrap (no-break spaces kept)."""
    return re.sub(r"[ \n]+", " ", text)


def test_mistyped_names_get_the_closest_name_in_each_language(tmp_path):
    referee = new_game(tmp_path)
    answer = inbound.submit(referee, "m", "ann", "jouer gots noricum\njouer goths noricom\n"
                                                "jouer goths panonia\ninfluance\nplya goths "
                                                "dacia", START)
    assert len(answer["errors"]) == 5
    ack = flat(text_of(mails(referee, "ann", "ack")[-1]))
    for said in (
            "ligne 1\u00a0: 'gots' n'est pas un peuple\u00a0; vouliez-vous dire goths\u00a0? "
            "JOUER prend Francs, Huns, Goths, Saxons, Teutons ou Vandales",
            "ligne 2\u00a0: il n'y a pas de province nommée 'noricom'\u00a0; vouliez-vous dire "
            "Noricum\u00a0?",
            "ligne 3\u00a0: il n'y a pas de province nommée 'panonia'\u00a0; vouliez-vous dire "
            "Pannonia\u00a0?",
            "ligne 4\u00a0: Je ne comprends pas 'influance'\u00a0; vouliez-vous dire "
            "influence\u00a0? Écrivez par exemple 'jouer francs belgica', ou envoyez AIDE",
            "ligne 5\u00a0: Je ne comprends pas 'plya'\u00a0; vouliez-vous dire play\u00a0? "
            "Écrivez par exemple 'jouer francs belgica', ou envoyez AIDE"):
        assert said in ack
    (tmp_path / "en").mkdir()
    referee = new_game(tmp_path / "en", french=())
    answer = inbound.submit(referee, "m", "ann", "play gots noricum\ninfluance", START)
    assert answer["errors"] == [
        "line 1: 'gots' is not a people; did you mean goths? PLAY takes Franks, Huns, Goths, "
        "Saxons, Teutons or Vandals",
        "line 2: I do not understand 'influance'; did you mean influence? Write for example "
        "'play franks belgica', or send HELP"]


def conflict(tmp_path, french=("ann",)):
    """ann's Goth pawn is the fifth in Pannonia: every seat is asked for its sealed bid."""
    referee = new_game(tmp_path, french)
    inbound.submit(referee, "m", "ann", "play goths pannonia", START)
    referee.tick(later(START, 1), send=False)
    assert referee.table("m").state["game"]["turn"]["stage"] == "bid"
    return referee


def test_bid_examples_come_from_the_readers_hand_and_the_peoples_there(tmp_path):
    referee = conflict(tmp_path)
    bob = text_of(mails(referee, "bob", "report")[-1])
    assert "  bid franks huns huns " in bob and "  bid none " in bob
    cat = text_of(mails(referee, "cat", "report")[-1])
    assert "  bid none " in cat and "bid teutons" not in cat and "bid huns" not in cat, \
        "cat holds no card of a people in Pannonia: her only example bids nothing"
    ann = text_of(mails(referee, "ann", "report")[-1])
    assert "  mise francs huns " in ann and "  mise rien " in ann
    assert "Seules les cartes des peuples présents en Pannonia peuvent être misées " \
           "(Francs, Huns, Goths)." in flat(ann)


def test_an_unknown_line_during_the_bidding_is_answered_with_a_bid_example(tmp_path):
    referee = conflict(tmp_path)
    answer = inbound.submit(referee, "m", "bob", "attack at dawn\nbdi franks\nplay huns dacia",
                            later(START, 2))
    assert answer["remarks"] == ["line 1: attack at dawn"]
    assert answer["errors"] == [
        "line 2: I do not understand 'bdi'; did you mean bid? Write for example 'bid franks "
        "huns huns', or send HELP",
        "line 3: now is the sealed bid for the conflict in Pannonia: write 'bid franks huns "
        "huns' or 'bid none'; the turn goes on after it"]
    answer = inbound.submit(referee, "m", "cat", "jouer saxons dacia", later(START, 2))
    assert answer["errors"] == [
        "line 1: now is the sealed bid for the conflict in Pannonia: write 'bid none'; the "
        "turn goes on after it"]
    inbound.submit(referee, "m", "ann", "miser vandales", later(START, 2))
    assert "ligne 1\u00a0: il n'y a aucun pion des Vandales en Pannonia\u00a0: vous ne pouvez " \
        "y miser que des cartes Francs ou Huns ou Goths" in flat(text_of(mails(referee, "ann",
                                                                              "ack")[-1]))


def test_the_welcome_tells_how_to_win_and_how_scoring_works(tmp_path):
    referee = new_game(tmp_path)
    english = flat(text_of(mails(referee, "bob", "welcome")[0]))
    assert "How to win: have the most points at the end." in english
    assert ("The seat with the most influence over a people scores one point per pawn of it "
            "on the board; the seat second in influence scores one point per province holding "
            "its pawns.") in english
    assert "'Goths (6 pawns in 3 provinces): ann 6, bob 3'" in english
    assert "Order of play: ann, bob, cat." in english
    french = flat(text_of(mails(referee, "ann", "welcome")[0]))
    assert "Pour gagner\u00a0: avoir le plus de points à la fin." in french
    assert "Goths (6 pions dans 3 provinces)\u00a0: ann 6, bob 3" in french


@pytest.mark.slow
def test_a_whole_game_reads_in_each_seats_language_with_real_plurals(tmp_path):
    """A bot game to its end: conflicts, scorings, kept orders, default turns; ann and cat
    read French. Every mail is within 78 columns; the French ones hold no English sentence;
    none says '(s)' or '1 pawns'."""
    referee = make_referee(tmp_path)
    play_game(referee, "g", 3, seed="games-3", french=("ann", "cat"))
    faults = []
    for seat in ("ann", "bob", "cat"):
        for msg in mails(referee, seat):
            text = text_of(msg)
            faults += [f"{seat}: {line}" for line in long_lines(msg)]
            faults += [f"{seat}: {m.group(0)} in {msg['Subject']}"
                       for m in CRUTCHES.finditer(text)]
            if seat in ("ann", "cat"):
                faults += [f"{seat}: {line}" for line in english_lines(msg)]
    assert not faults, "\n".join(dict.fromkeys(faults))
    events = {e["type"] for e in referee.events("g", None)}
    assert {"conflict_resolved", "century_scored", "game_decided"} <= events
    over = flat(text_of(mails(referee, "ann", "over")[0]))
    assert "décompte" in over and "Résultat\u00a0:" in over
