"""HISTORY by mail: the list of phases by turn, or a seat's own report of a turn, rebuilt from
the log. A player reads the turns its mails named, never the engine's phase numbers."""

import pytest

from pbem.adjudicator import engine
from pbem.app import SeatSpec
from pbem.games.attila.present import cards_text
from pbem.store import row_event

from conftest import START
from players import answer_to, flat, outbox, reply, text_of
from test_attila_leaks import hand_line

LATER = "2026-12-20T00:00:00Z"


@pytest.fixture
def huns(referee):
    """Attila, three turns in (every seat silent), bob reading in French."""
    referee.new_game("attila", "huns", [SeatSpec("ann", "ann@players.example"),
                                         SeatSpec("bob", "bob@players.example", lang="fr"),
                                         SeatSpec("cat", "cat@players.example")], START,
                     seed="huns")
    reply(referee, "huns", "ann", "PRESS cat\nShall we share Gaul?", START)
    for _ in range(3):
        referee.tick(referee.table("huns").state["engine"]["deadline"], send=False)
    return referee


def state_after_phase(referee, phase: int) -> dict:
    """The game as it was when the report of `phase` was written."""
    rows = list(referee.store.event_rows("huns"))
    opened = [r["seq"] for r in rows if r["type"] == "phase_opened"
              and r["payload"]["phase"] == phase + 1][0]
    return engine.fold(referee.table("huns").game, [row_event(r) for r in rows
                                                     if r["seq"] <= opened])


def test_history_lists_the_phases_by_the_turns_the_mails_named(huns):
    opened = {e["payload"]["phase"]: e["payload"]["requests"]
              for e in huns.events("huns", None) if e["type"] == "phase_opened"}
    first, second = sorted(opened[1])[0], sorted(opened[2])[0]
    idle = next(s for s in ("ann", "bob", "cat") if s not in (first, second))
    row = reply(huns, "huns", first, "HISTORY", LATER)
    said = flat(answer_to(huns, row))
    assert "Turn 1, opened Tue 1 Dec 2026 12:00 (UTC): Your turn 1: play a card" in said
    assert "Turn 2, opened Thu 3 Dec 2026 12:00 (UTC): nothing asked of you" in said
    assert "Send HISTORY and a turn's number" in said
    said = flat(answer_to(huns, reply(huns, "huns", idle, "HISTORY", LATER)))
    assert ("Tour 1 (ouverture : mar. 1 déc. 2026 12:00 (UTC)) : rien ne vous était demandé"
            if idle == "bob" else
            "Turn 1, opened Tue 1 Dec 2026 12:00 (UTC): nothing asked of you") in said


def test_a_report_again_holds_the_seats_secrets_of_then_and_no_other_seats(huns):
    then = state_after_phase(huns, 2)["game"]["hands"]
    now = huns.table("huns").state["game"]["hands"]
    row = reply(huns, "huns", "ann", "HISTORY 2", LATER)
    text = text_of(answer_to(huns, row))
    assert "Your report for turn 2, as your seat saw it" in " ".join(text.split())
    assert hand_line(then["ann"]) in text
    assert hand_line(then["bob"]) not in text and hand_line(then["cat"]) not in text
    if then["ann"] != now["ann"]:
        assert hand_line(now["ann"]) not in text


def test_press_is_in_the_history_of_its_sender_and_recipient_only(huns):
    for seat, sees in (("ann", True), ("cat", True), ("bob", False)):
        row = reply(huns, "huns", seat, "HISTORY 1" if seat != "bob" else "HISTORIQUE 1",
                    LATER)
        assert ("Shall we share Gaul?" in flat(answer_to(huns, row))) is sees, seat


def test_historique_en_francais_et_tour_inconnu(huns):
    row = reply(huns, "huns", "bob", "HISTORIQUE 3", LATER)
    said = flat(answer_to(huns, row))
    assert "Votre compte rendu (tour 3), tel que votre place l'a vu" in said
    dealt = [e for e in huns.events("huns", "bob") if e["type"] == "dealt"][0]
    row = reply(huns, "huns", "bob", "HISTORIQUE 1", LATER)
    assert f"you were dealt {cards_text(dealt['payload']['cards'])}" not in flat(
        answer_to(huns, row)), "turn 1 begins after the cards were dealt"
    row = reply(huns, "huns", "bob", "historique 9", LATER)
    assert "Il n'y a pas encore de compte rendu du tour 9 : les tours résolus jusqu'ici " \
           "sont 1, 2, 3 (0 : la mise en place)." in flat(answer_to(huns, row))


def test_history_changes_nothing(auguste_game):
    before = auguste_game.store.game("rome")["last_hash"]
    reply(auguste_game, "rome", "ann", "HISTORY\nHISTORY 1", START)
    assert auguste_game.store.game("rome")["last_hash"] == before
    assert len(outbox(auguste_game, kind="history")) == 1, "one HISTORY per mail"
