"""French mails read as French, and a report says a thing once (issue 20, item 12).

Real mails to French seats of a SAGA campaign and a Seigneurs valley: gold is
"or", one unit is singular, what was refused agrees with its noun, a command
is noted in the reader's word, the examples use French names; and a lord's
four new warriors are one line of its report.
"""

import re

from pbem.app import SeatSpec
from pbem.signup import open_game
from pbem.timeutil import later

from conftest import START, make_referee
from mailkinds import SAGA_START
from players import answer_to, flat, outbox, reply, text_of
from test_signup import mails_to, write


def french_campaign(tmp_path, **position):
    """ann (French) plays her turn in a campaign from SAGA_START (with `position`'s keys)."""
    referee = make_referee(tmp_path)
    players = [SeatSpec(name, f"{name}@players.example", lang="fr" if name == "ann" else "en")
               for name in ("ann", "bob", "cat")]
    referee.new_game("saga", "c", players, START, {}, seed="french",
                     position={**SAGA_START, **position})
    return referee


def test_a_french_campaign_mail_speaks_of_gold_and_units_as_french_does(tmp_path):
    referee = french_campaign(tmp_path)
    [welcome] = outbox(referee, seat="ann", kind="welcome")
    said = flat(welcome)
    assert "Trésor : 30 or." in said and " ors" not in said
    assert "ost en Kent, 5 points (Ost principal) : 1 unité de Gardes, 2 unités de " \
           "Guerriers, 2 unités de Levées, le Seigneur" in said
    assert not re.search(r"\b1 (Gardes|Guerriers|Levées)\b", said)
    assert "diviser ost 2 pillards" in said and "raiders" not in said
    ann = reply(referee, "c", "ann", "recruter levées\nrecruter levées Kent", START)
    answer = flat(answer_to(referee, ann))
    assert "recruter 1 unité de Levées dans votre Patrie à l'intendance (5 or)" in answer


def test_a_refused_recruit_agrees_with_its_unit(tmp_path):
    referee = french_campaign(tmp_path, gold={"ann": 5, "bob": 30})
    reply(referee, "c", "ann", "recruter levées\nrecruter guerriers Kent", START)
    referee.tick(later(START, 1), send=False)
    told = "\n".join(flat(row) for row in outbox(referee, seat="ann", kind="report"))
    assert "ann a recruté 1 unité de Levées dans" in told
    assert "aucune unité de Guerriers recrutée : pas assez d'or" in told
    assert "recrutés" not in told


def test_a_command_is_noted_in_the_readers_word(tmp_path):
    referee = french_campaign(tmp_path)
    ann = reply(referee, "c", "ann", "Bonjour\nPRÊT\nAnn", START)
    row = answer_to(referee, ann)
    assert row["subject"].endswith("bien noté\u00a0: PRÊT")
    assert "READY" not in flat(row)


def test_a_lords_new_warriors_are_one_line(tmp_path):
    referee = make_referee(tmp_path)
    players = [SeatSpec(name, f"{name}@players.example", lang="fr")
               for name in ("ann", "bob", "zed")]
    referee.new_game("seigneurs", "v", players, START, {"judge": "zed"}, seed="french")
    reply(referee, "v", "ann", "village C2 C3", START)
    reply(referee, "v", "bob", "village G5 G6", START)
    referee.tick(later(START, 1), send=False)
    report = flat(outbox(referee, seat="ann", kind="report")[-1])
    assert report.count("4 guerriers rejoignent ann.") == 1
    assert "Un nouveau guerrier" not in report


def test_a_french_signup_and_the_campaigns_end_read_as_french(tmp_path):
    referee = make_referee(tmp_path)
    players = [SeatSpec(name, f"{name}@players.example", lang="fr")
               for name in ("ann", "bob")]
    referee.new_game("saga", "c", players, START, {"rounds": "2"}, seed="french")
    ann = reply(referee, "c", "ann", "faction scots\npatrie Alba\n"
                "ost 1 gardes 2 guerriers 1 levées", START)
    said = flat(answer_to(referee, ann))
    assert "patrie : Alba" in said
    assert "Ost principal : 1 unité de Gardes, 2 unités de Guerriers, 1 unité de Levées" \
        in said
    now = START
    while not referee.table("c").state["engine"]["over"]:
        now = later(referee.table("c").state["engine"]["deadline"], 1)
        referee.tick(now, send=False)
    over = flat(outbox(referee, seat="ann", kind="over")[-1])
    assert "(le plus de zones après 2 manches)" in over
    assert "most zones" not in over


def test_a_french_reader_gets_no_english_words_nor_a_broken_sentence(tmp_path):
    """'qui sont lus comme tels et envoyés à personne' (no 'ne'), 'Vous êtes la place bob',
    the Diplomacy summary and '(2-7 players)' in LISTE, 'diplomacy-regles.txt', and the
    armies of a signup named 'host' in French reports."""
    referee = make_referee(tmp_path)
    players = [SeatSpec(name, f"{name}@players.example", lang="fr")
               for name in ("ann", "bob", "cat", "dan")]
    referee.new_game("diplomacy", "d", players, START, {}, seed="french")
    [welcome] = outbox(referee, seat="bob", kind="welcome")
    said = flat(welcome)
    assert "Vous jouez la place bob dans cette partie (Diplomatie)" in said, said
    assert "diplomatie-regles.txt" in said and "diplomacy" not in said
    help_text = flat(answer_to(referee, reply(referee, "d", "bob", "AIDE", START)))
    assert "qui sont lus comme tels et ne sont envoyés à personne." in help_text
    open_game(referee, "diplomacy", "europe", START, players=(2, 7))
    write(referee, "Zoé <zoe@players.example>", "LISTE")
    listed = " ".join(text_of(mails_to(referee, "zoe@players.example")[-1]).split())
    assert "les sept grandes puissances de l'Europe de 1901" in listed, listed
    assert "pour 2 à 7 joueurs." in listed and "players" not in listed
    (tmp_path / "saga").mkdir()
    referee = make_referee(tmp_path / "saga")
    referee.new_game("saga", "c", players[:2], START, {"rounds": "2"}, seed="french")
    reply(referee, "c", "ann", "faction scots\npatrie Alba", START)
    referee.tick(later(START, 1), send=False)
    reply(referee, "c", "bob", "faction vikings\npatrie Man", later(START, 1))
    referee.tick(later(START, 2), send=False)
    report = flat(outbox(referee, seat="bob")[-1])
    assert "armées de bob : ost 1 unité de Gardes" in report and "host" not in report, report


def test_history_lists_what_each_turn_asked_in_french(tmp_path):
    """A phase's prompt is kept in the log in English, filled in ("Orders for turn 1."):
    a French HISTORIQUE listed it so."""
    referee = make_referee(tmp_path)
    referee.new_game("auguste", "g", [SeatSpec(n, f"{n}@players.example", lang="fr")
                                      for n in ("ann", "bob")], START, seed="french")
    said = flat(answer_to(referee, reply(referee, "g", "ann", "HISTORIQUE", START)))
    assert ") : Ordres du tour 1." in said and "Orders for turn" not in said, said
