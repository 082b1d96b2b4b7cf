"""A player reads the turns and rounds its mails named, never the engine's phase numbers.

Subjects say the turn (and the round of a stage that repeats); the setup is
"Setup", not a turn that the game then numbers again; the answer to a late
reply names the mail it answered and what the open turn asks, with that
request below; HISTORY lists turns.
"""

import re

import pytest

from pbem.app import SeatSpec
from pbem.timeutil import later

from conftest import START, make_referee, seats
from mailkinds import GAMES, SAGA_START, SEIGNEURS_START, text_of, write_all
from players import answer_to, flat, outbox, parsed, reply


def subjects(referee, seat: str) -> list[str]:
    """The subjects of the mails a seat got, without the tag, oldest first."""
    return [" ".join(str(parsed(row)["Subject"]).split("] ", 1)[1].split())
            for row in outbox(referee, seat=seat)]


def test_the_saga_signup_is_the_setup_and_the_campaign_starts_at_turn_1(referee):
    referee.new_game("saga", "isles", seats("ann", "bob", "cat"), START, {}, seed="names")
    for seat in ("ann", "bob", "cat"):
        assert referee.table("isles").state["engine"]["requests"].keys() == {seat}
        referee.tick(referee.table("isles").state["engine"]["deadline"], send=False)
    told = [s.split(":")[0] for seat in ("ann", "bob", "cat") for s in subjects(referee, seat)]
    assert "Turn 2" not in told and "Turn 3" not in told, told
    assert told.count("Setup") >= 3 and "Turn 1" in told
    row = reply(referee, "isles", "ann", "HISTORY", later(START, 200))
    listing = flat(answer_to(referee, row))
    assert "The setup, opened" in listing and "Turn 1, opened" in listing
    assert not re.search(r"\b[Pp]hase \d", listing)


def test_each_round_of_a_seigneurs_stage_has_its_own_subject_and_a_late_reply_names_it(
        tmp_path):
    referee = make_referee(tmp_path)
    referee.new_game("seigneurs", "vallee", [SeatSpec("ann", "ann@players.example"),
                                             SeatSpec("bob", "bob@players.example", lang="fr"),
                                             SeatSpec("zed", "zed@players.example")],
                     START, {"judge": "zed", "turns": "1"}, seed="names",
                     position=SEIGNEURS_START)
    [first] = outbox(referee, kind="welcome", seat="bob")
    assert subjects(referee, "bob")[0].startswith("Tour 1, manche 1 : ")
    reply(referee, "vallee", "ann", "offer bob give wood 2 take metal 1", START)
    reply(referee, "vallee", "bob", "passer", START)
    reply(referee, "vallee", "zed", "pass", START)
    assert referee.tick(later(START, 0.1), send=False).phases == {"vallee": 1}
    assert subjects(referee, "bob")[-1].startswith("Tour 1, manche 2 : ")
    row = reply(referee, "vallee", "bob", "accepter 1", later(START, 0.2), answering=first)
    assert (row["status"], row["reason"]) == ("rejected", "answers phase 1, which is over")
    answer = answer_to(referee, row)
    said = flat(answer)
    assert " ".join(str(parsed(answer)["Subject"]).split()).endswith(
        "Tour 1, manche 2 : c'est fini : tour 1, manche 1")
    assert "Votre message répond à mon message « Tour 1, manche 1 : la partie commence" in said
    assert "Maintenant (tour 1, manche 2), on vous demande : Marché : offres, " \
        "réponses et marchands." in said
    assert "Ce que vous pouvez envoyer maintenant" in said, "the open round's request follows"
    assert not re.search(r"\b[Pp]hase \d|\btour \d{2}", said)


def test_a_reply_to_an_earlier_step_of_the_open_turn_counts_for_it(tmp_path):
    """ann picks the scenario of the battle on her homeland, then answers that mail of the
    same turn with her report: the report counts, and no "turn 3 is over" tells her a turn
    her subjects still name is over."""
    referee = make_referee(tmp_path)
    referee.new_game("saga", "isles", seats("ann", "bob", "cat"), START, {}, seed="names",
                     position={**SAGA_START, "active": "bob"})
    reply(referee, "isles", "bob", "move host Normandy", START)
    referee.tick(later(START, 0.1), send=False)
    assert set(referee.table("isles").state["engine"]["requests"]) == {"ann"}
    picked = reply(referee, "isles", "ann", "Home turf!\nscenario 4", later(START, 0.2))
    ack = answer_to(referee, picked)
    referee.tick(later(START, 0.3), send=False)
    assert referee.table("isles").state["game"]["turn"]["stage"] == "battle"
    row = reply(referee, "isles", "ann", "result lost", later(START, 0.4), answering=ack)
    said = flat(answer_to(referee, row))
    assert (row["status"], row["reason"]) == ("done", "orders recorded"), said
    assert "battle report: you lost" in said and "is over" not in said


@pytest.mark.parametrize("game", sorted(GAMES))
def test_no_mail_a_player_gets_names_a_phase_number(tmp_path, game):
    for lang in ("en", "fr"):
        (tmp_path / lang).mkdir()
        for name, msg in write_all(tmp_path / lang, game, lang).items():
            for text in (text_of(msg), str(msg["Subject"])):
                found = re.search(r"\b[Pp]hase \d+", text)
                assert not found, f"{game} {lang} {name}: {found.group(0)}"
