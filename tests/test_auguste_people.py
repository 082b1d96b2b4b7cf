"""Auguste as people play it, from the player's side: real mails in, real mails out.

Each test plays one point of a club's game by mail: an aside in brackets
after an order, a move to a cell not next to the legion's group answered
with the cells that are, a correction that starts with "Alors :", what a
French seat is told of its orders and of which mail to answer.
"""

import pytest

from pbem.app import SeatSpec
from pbem.timeutil import later

from conftest import START, make_referee
from players import answer_to, answered, flat, outbox, reply, text_of


def forum(tmp_path):
    """Four seats (4-2): ann and cid, French, for Caesar; bob and dee for Pompey."""
    referee = make_referee(tmp_path)
    players = [SeatSpec(name, f"{name}@players.example",
                        lang="fr" if name in ("ann", "cid") else "en")
               for name in ("ann", "bob", "cid", "dee")]
    referee.new_game("auguste", "rome", players, START, {"preset": "4-2"}, seed="people")
    return referee


def test_an_aside_in_brackets_after_an_order_is_a_remark_and_the_order_is_taken(tmp_path):
    referee = forum(tmp_path)
    row, said = answered(referee, "rome", "dee", "Hi Bob,\n\nblue: move MEV COH (the shield, just "
                         "in case)\n\nDee", START)
    assert (row["status"], row["reason"]) == ("done", "orders recorded; 1 remark set aside"), said
    assert "blue: move the legionary on MEV to COH" in said
    assert "line 3: (the shield, just in case)" in said
    assert "----- blue: move MEV COH -----" in said


def test_a_move_not_next_to_the_group_names_the_closest_cells_that_are(tmp_path):
    referee = forum(tmp_path)
    row, said = answered(referee, "rome", "ann", "Coucou,\nbouge KUB MIJ\nAnne", START)
    assert "ligne 2 : MIJ n'est pas voisine du groupe de votre légionnaire de la légion " \
           "rouge sur KUB ; les cases libres voisines de ce groupe les plus proches de " \
           "MIJ : BUV, HUD" in said
    row, said = answered(referee, "rome", "ann", "Ah zut, pas voisine. Alors :\nbouge KUB BUV",
                         START, answering=answer_to(referee, row))
    assert (row["status"], row["reason"]) == ("done", "orders recorded; 1 remark set aside"), said
    assert "ligne 1 : Ah zut, pas voisine." in said
    assert "----- bouge KUB BUV -----" in said, "the colon left of the remark is no order line"
    assert "Ordres reçus ; ils remplacent tout ordre envoyé avant pour ce tour." in said


def test_help_says_which_mail_to_answer_in_the_seat_s_language(tmp_path):
    referee = forum(tmp_path)
    reply(referee, "rome", "cid", "AIDE", START)
    [help_fr] = outbox(referee, seat="cid", kind="help")
    assert "Répondez à un message du tour en cours (gardez [pbem rome #" in flat(help_fr)
    assert "une réponse à un message d'un tour terminé n'est pas utilisée" in flat(help_fr)
    reply(referee, "rome", "bob", "HELP", later(START, 0.1))
    [help_en] = outbox(referee, seat="bob", kind="help")
    assert "a reply to a mail of a turn that is over is not used" in flat(help_en)


def two_frontal_combats(tmp_path):
    """ann (French, red on HEP and HIP) passes; bob's blue moves to MOC, next to both: the
    turn is resolved, with two frontal combats."""
    referee = make_referee(tmp_path)
    players = [SeatSpec("ann", "ann@players.example", lang="fr"),
               SeatSpec("bob", "bob@players.example")]
    referee.new_game("auguste", "rome", players, START, {}, seed="people", position={
        "laurel": "FIM", "shields": [],
        "legions": {"red": {"team": "Caesar", "units": ["HEP", "HIP"]},
                    "blue": {"team": "Pompey", "units": ["TUK", "ZOS"]}}})
    reply(referee, "rome", "ann", "rouge : passe", START)
    reply(referee, "rome", "bob", "blue: move TUK MOC", START)
    referee.tick(later(START, 0.1), send=False)
    return referee


def test_a_french_seat_reads_two_frontal_combats_with_french_punctuation(tmp_path):
    referee = two_frontal_combats(tmp_path)
    report = flat(outbox(referee, seat="ann", kind="report")[-1])
    assert "combat frontal : HEP (1) contre MOC (1) ; HIP (1) contre MOC (1). Morts : " \
           "personne" in report, report


def test_the_strengths_in_a_combat_line_are_explained_once_within_78_columns(tmp_path):
    referee = two_frontal_combats(tmp_path)
    for seat, legend in (("ann", "(Entre parenthèses, la force de chaque légionnaire : 1, ou "
                                 "2 avec un bouclier, plus 1 par allié aligné derrière lui.)"),
                         ("bob", "(In brackets, each legionary's strength: 1, or 2 with a "
                                 "shield, plus 1 for each ally in a straight line behind "
                                 "it.)")):
        report = outbox(referee, seat=seat, kind="report")[-1]
        assert flat(report).count(legend) == 1, flat(report)
        assert max(map(len, text_of(report).splitlines())) <= 78


def test_an_order_asked_as_a_question_then_taken_back_is_a_remark_and_holds_nothing_up(
        tmp_path):
    referee = forum(tmp_path)
    row, said = answered(referee, "rome", "bob", "Hmm. Following the crown:\nmove HOF HUV?\n"
                         "no wait, Dee will go there. move BIC GOK", START)
    assert (row["status"], row["reason"]) == ("done", "orders recorded; 3 remarks set aside")
    assert "orange: move the legionary on BIC to GOK" in said
    assert "line 2: move HOF HUV?" in said and "could not be accepted" not in said


def test_a_command_asked_politely_is_done(tmp_path):
    referee = forum(tmp_path)
    row = reply(referee, "rome", "bob", "STATUS please", START)
    assert (row["status"], row["reason"]) == ("done", "commands status")
    row = reply(referee, "rome", "ann", "ÉTAT s'il vous plaît", START)
    assert (row["status"], row["reason"]) == ("done", "commands status")
    assert len(outbox(referee, kind="status")) == 2


@pytest.mark.parametrize("line", ["déplacer MEV COH", "bleue : bouge de MEV à COH !",
                                  "* move MEV COH", "1) move from MEV to COH"])
def test_a_move_written_as_people_write_it_is_taken(tmp_path, line):
    referee = forum(tmp_path)
    row, said = answered(referee, "rome", "dee", f"Hi all,\n{line}\nDee", START)
    assert row["reason"] == "orders recorded", said
    assert "blue: move the legionary on MEV to COH" in said


def test_je_passe_mon_tour_is_a_pass_and_the_turn_does_not_wait(tmp_path):
    referee = forum(tmp_path)
    row, said = answered(referee, "rome", "ann", "Je passe mon tour", START)
    assert (row["status"], row["reason"]) == ("done", "orders recorded; 1 remark set aside"), said
    assert "rouge : passer" in said and "ligne 1 : mon tour" in said


def test_a_reply_with_orders_to_a_history_report_counts_for_the_turn_under_way(tmp_path):
    referee = forum(tmp_path)
    for seat, orders in (("ann", "rouge : passe"), ("bob", "pass"), ("cid", "passe"),
                         ("dee", "pass")):
        reply(referee, "rome", seat, orders, START)
    referee.tick(later(START, 0.1), send=False)
    reply(referee, "rome", "cid", "Historique 1 svp", later(START, 0.2))
    [history] = outbox(referee, seat="cid", kind="history")
    assert "] Tour 2 : votre compte rendu (tour 1)" in " ".join(history["subject"].split())
    row, said = answered(referee, "rome", "cid", "verte: bouge BAR CET", later(START, 0.3),
                         answering=history)
    assert (row["status"], row["reason"]) == ("done", "orders recorded"), said
    assert "verte : déplacer le légionnaire de BAR sur CET" in said


def test_the_welcome_of_a_game_without_chance_speaks_of_chance_as_an_if(tmp_path):
    referee = forum(tmp_path)
    [welcome_fr] = outbox(referee, seat="ann", kind="welcome")
    assert "Si cette partie laisse quelque chose au hasard (dés, cartes, mélanges), cela " \
           "vient d'une graine secrète dont le SHA-256 est" in flat(welcome_fr)
    [welcome_en] = outbox(referee, seat="bob", kind="welcome")
    assert "If this game leaves anything to chance (dice, cards, shuffles), it comes from " \
           "a secret seed whose SHA-256 is" in flat(welcome_en)


@pytest.mark.parametrize("seat, line, said_back", [
    ("ann", "Je ne bouge pas cette fois", "rouge : passer"),
    ("cid", "Pas de mouvement pour moi.", "verte : passer"),
    ("bob", "I won't move this turn", "orange: pass"),
    ("dee", "No move from me", "blue: pass")])
def test_a_pass_put_in_words_is_a_pass_in_both_languages(tmp_path, seat, line, said_back):
    referee = forum(tmp_path)
    row, said = answered(referee, "rome", seat, f"{line}\n", START)
    assert (row["status"], row["reason"]) == ("done", "orders recorded"), said
    assert said_back in said


def test_a_promise_to_move_later_is_no_pass_and_the_answer_says_so(tmp_path):
    referee = forum(tmp_path)
    row, said = answered(referee, "rome", "bob", "I'll move next turn, promise", START)
    assert (row["status"], row["reason"]) == ("done", "no orders: 1 remark set aside"), said
    assert "line 1: I'll move next turn, promise" in said
    assert "Your mail holds no orders, only remarks (below), so I still have no orders " \
           "from you for this turn." in said


def test_a_pass_in_words_from_a_seat_of_two_legions_passes_both(tmp_path):
    referee = make_referee(tmp_path)
    players = [SeatSpec("ann", "ann@players.example", lang="fr"),
               SeatSpec("bob", "bob@players.example")]
    referee.new_game("auguste", "rome", players, START, {"preset": "4-2"}, seed="people")
    row, said = answered(referee, "rome", "ann", "Bonjour,\nje ne bouge pas ce tour\nAnne",
                         START)
    assert row["reason"] == "orders recorded; 1 remark set aside", said
    assert "rouge : passer" in said and "verte : passer" in said


def test_an_illegal_move_after_a_sentence_is_the_move_s_error_and_the_sentence_a_remark(
        tmp_path):
    referee = forum(tmp_path)
    row, said = answered(referee, "rome", "cid", "Merci. bouge BAR RIS", START)
    assert row["reason"] == "orders not recorded: no line could be used (1 error); " \
        "1 remark set aside", said
    assert "ligne 1 : RIS n'est pas voisine du groupe de votre légionnaire de la légion " \
           "verte sur BAR ; les cases libres voisines de ce groupe les plus proches de " \
           "RIS : DOP, KUD" in said
    assert "ligne 1 : Merci. Ordres du tour" in said, "the sentence alone is the remark"


def test_a_pass_is_told_in_the_turn_s_report_in_each_seat_s_language(tmp_path):
    referee = forum(tmp_path)
    for seat, orders in (("ann", "Je ne bouge pas cette fois"), ("bob", "pass"),
                         ("cid", "verte: bouge BAR CET"), ("dee", "blue: move MEV COH")):
        reply(referee, "rome", seat, orders, START)
    referee.tick(later(START, 0.1), send=False)
    report_fr = flat(outbox(referee, seat="cid", kind="report")[-1])
    assert "ann a passé (rouge)" in report_fr and "bob a passé (orange)" in report_fr
    report_en = flat(outbox(referee, seat="dee", kind="report")[-1])
    assert "ann passed (red)" in report_en and "bob passed (orange)" in report_en
    assert "cid passed" not in report_en and "dee passed" not in report_en
