"""What the Attila mails tell each seat: the active player everything it needs, others an update."""

import email

from pbem import inbound
from pbem.timeutil import later

from conftest import START, make_referee, seats

POSITION = {
    "first": "ann",
    "hands": {"ann": ["goths", "goths", "huns", "franks", "saxons", "saxons"],
              "bob": ["huns", "huns", "teutons", "teutons", "vandals", "franks"],
              "cat": ["franks", "franks", "goths", "vandals", "teutons", "saxons"]},
    "pawns": {"Pannonia": {"huns": 2, "franks": 2}},
}


def text_of(raw: bytes) -> str:
    """The text/plain part of a mail."""
    message = email.message_from_bytes(raw)
    part = next(p for p in message.walk() if p.get_content_type() == "text/plain")
    return part.get_payload(decode=True).decode(part.get_content_charset())


def last_reports(referee) -> dict:
    """{seat: (subject, text)} of the last report each seat got."""
    out = {}
    for row in referee.store.all("SELECT * FROM outbox WHERE kind = 'report' "
                                 "ORDER BY id"):
        out[row["seat"]] = (row["subject"], text_of(referee.store.outbox_mail(row)))
    return out


def test_a_conflict_asks_every_seat_for_a_sealed_bid_then_the_next_player_gets_the_whole_story(
        tmp_path):
    referee = make_referee(tmp_path)
    referee.new_game("attila", "m", seats("ann", "bob", "cat"), START, {}, seed="mails",
                     position=POSITION)
    inbound.submit(referee, "m", "ann", "play goths pannonia", START)
    now = later(START, 1)
    referee.tick(now, send=False)

    reports = last_reports(referee)
    assert set(reports) == {"ann", "bob", "cat"}
    for seat, (subject, text) in reports.items():
        assert "] Turn 1: your sealed bid by Wed 13:00" in subject
        assert "Conflict in Pannonia: your sealed bid" in text
        assert "How to bid in the conflict in Pannonia" in text
        assert "Only cards of the peoples in Pannonia may be bid (Franks, Huns, Goths)." in text
    assert "Cards you may bid there: Franks, Huns, Goths." in reports["ann"][1]
    assert "Cards you may bid there: Franks, Huns, Huns." in reports["bob"][1]

    inbound.submit(referee, "m", "bob", "bid huns huns", now)
    inbound.submit(referee, "m", "cat", "mise rien", now)
    now = later(now, 1)
    referee.tick(now, send=False)
    assert len(last_reports(referee)) == 3, "ann has not bid yet: nothing is resolved"
    assert referee.table("m").state["game"]["turn"]["stage"] == "bid"
    referee.tick(later(now, 24), send=False)

    subject, text = last_reports(referee)["bob"]
    assert "] Turn 2: your turn, by " in subject and "Your turn 2: play a card" in text
    assert text.count("What happened") == 1, "one heading for what happened, not two"
    happened = " ".join(text[text.index("What happened:"):text.index("Your hand")].split())
    assert ("conflict in Pannonia: bids ann no card; bob Huns, Huns; cat no card. "
            "Strength Franks 2, Huns 4, Goths 1. Leaving: Goths (1 pawn back to the "
            "supply)") in happened
    assert "Huns (2 pawns in 1 province): nobody" in happened
    assert "Your hand (4 cards): Franks, Teutons, Teutons, Vandals." in text
    assert "  Huns (" not in text, "bob bid both his Hun cards"
    assert "  Teutons (2 cards): Belgica, Raetia, Noricum, Dacia, Moesia" in text
    assert "  Franks (1 card): Belgica, Raetia, Noricum, Dacia, Moesia, Dalmatia" in text
    assert "How to write your turn" in text and "  play franks belgica " in text
    assert "play goths" not in text, "bob holds no Goth card: his examples come from his hand"

    inbound.submit(referee, "m", "bob", "status", later(now, 25))
    status = text_of(referee.store.outbox_mail(
        referee.store.one("SELECT * FROM outbox WHERE kind = 'status'")))
    assert status.count("What happened") == 1
    since = " ".join(status[status.index("What happened since your last turn:"):
                            status.index("Where your cards can go")].split())
    assert "turn 1 (ann): ann played a Goth card: a pawn to Pannonia" in since
    assert "Leaving: Goths (1 pawn back to the supply)" in since

    subject, text = last_reports(referee)["cat"]
    assert subject.endswith("] Turn 2: what happened")
    assert "Your hand (6 cards): Franks, Franks, Goths, Saxons, Teutons, Vandals." in text
    assert "How to write your turn" not in text and "Where your cards can go" not in text
    assert "Nothing is asked of you now; waiting for bob." in text


def test_seats_waiting_for_another_players_turn_get_a_short_update(tmp_path):
    referee = make_referee(tmp_path)
    referee.new_game("attila", "s", seats("ann", "bob", "cat"), START, {}, seed="brief",
                     position=POSITION)
    inbound.submit(referee, "s", "ann", "play saxons raetia", START)
    referee.tick(later(START, 1), send=False)
    reports = last_reports(referee)
    assert referee.table("s").state["engine"]["requests"].keys() == {"bob"}
    assert "Influence (1 to 22)" in reports["bob"][1]
    for seat in ("ann", "cat"):
        assert "Influence (1 to 22)" not in reports[seat][1]
        assert "ann played a Saxon card: a pawn to Raetia" in reports[seat][1]
    inbound.submit(referee, "s", "cat", "STATUS", later(START, 2))
    status = referee.store.one("SELECT * FROM outbox WHERE kind = 'status'")
    assert "Influence (1 to 22)" in text_of(referee.store.outbox_mail(status))
