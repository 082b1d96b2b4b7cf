"""Attila as people play it, from the player's side: real mails in, real mails out.

Each test plays one point of a club's game by mail: the lines the mails show
as examples copied as they are, chat after an order's comma, a correction
that gives again only the refused line.
"""

from pbem.app import SeatSpec
from pbem.timeutil import later

from conftest import START, make_referee
from players import answer_to, answered, flat, outbox, reply, text_of

HANDS = {"ann": ["franks", "franks", "huns", "goths", "goths", "vandals"],
         "bob": ["saxons", "saxons", "saxons", "teutons", "teutons", "vandals"],
         "cid": ["huns", "goths", "teutons", "vandals", "vandals", "vandals"],
         "dee": ["goths", "huns", "franks", "vandals", "vandals", "teutons"],
         "eve": ["huns", "goths", "saxons", "saxons", "saxons", "teutons"]}


def table(tmp_path, first: str, pawns=None):
    """The full table, ann and cid reading French, `first` to play (pawns on the board)."""
    referee = make_referee(tmp_path)
    players = [SeatSpec(name, f"{name}@players.example",
                        lang="fr" if name in ("ann", "cid") else "en") for name in HANDS]
    referee.new_game("attila", "h", players, START, {}, seed="people",
                     position={"first": first, "hands": HANDS, "pawns": pawns or {}})
    return referee


def test_the_second_step_lines_copied_from_the_mail_with_their_plus_are_taken(tmp_path):
    referee = table(tmp_path, "cid")
    row, said = answered(referee, "h", "cid", "Bonjour tout le monde,\njouer vandales pannonie - "
                         "désolé Bob\n+ renoncer dacia\n+ tuile influence vandales\nCid", START)
    assert (row["status"], row["reason"]) == ("done", "orders recorded; 1 remark set aside"), said
    assert "renoncer à l'influence : un second pion des Vandales en Dacia ; tuile " \
           "INFLUENCE : +2 Vandales" in said
    assert "ligne 2 : désolé Bob" in said
    referee.tick(later(START, 0.1), send=False)
    game = referee.table("h").state["game"]
    assert game["pawns"]["Dacia"] == {"vandals": 1}
    assert game["influence"]["vandals"]["cid"] == 2


def test_chat_after_an_order_s_comma_is_a_remark_and_the_order_is_taken(tmp_path):
    referee = table(tmp_path, "eve")
    row, said = answered(referee, "h", "eve", "Evening all,\n\ntile double\nplay saxons moesia, "
                         "as far from the Vandals as I can get\nplay saxons pannonia\n"
                         "+ renounce noricum\n\nEve", START)
    assert (row["status"], row["reason"]) == ("done", "orders recorded; 2 remarks set aside")
    assert "line 4: as far from the Vandals as I can get" in said
    assert "play a Saxon card, its pawn to Moesia" in said
    referee.tick(later(START, 0.1), send=False)
    game = referee.table("h").state["game"]
    assert game["pawns"]["Moesia"] == {"saxons": 1}
    assert game["pawns"]["Noricum"] == {"saxons": 1}


def test_a_correction_of_a_refused_second_step_is_read_after_the_play_it_goes_with(tmp_path):
    referee = table(tmp_path, "dee")
    first = reply(referee, "h", "dee", "play goths moesia\n+ renounce dacai", START)
    assert "line 2: there is no province called 'dacai'; did you mean Dacia?" in \
        flat(answer_to(referee, first))
    row, said = answered(referee, "h", "dee", "Dacia, sorry:\n+ renounce dacia", START,
                         answering=answer_to(referee, first))
    assert (row["status"], row["reason"]) == ("done", "orders recorded; 1 remark set aside"), said
    assert "I kept those I had accepted, with these" in said
    assert "play a Goth card, its pawn to Moesia; renounce influence: a second Goth pawn " \
           "to Dacia" in said
    referee.tick(later(START, 0.1), send=False)
    game = referee.table("h").state["game"]
    assert game["pawns"]["Moesia"] == {"goths": 1} and game["pawns"]["Dacia"] == {"goths": 1}


def test_an_order_said_in_a_sentence_is_taken_and_its_chat_is_a_remark(tmp_path):
    referee = table(tmp_path, "dee")
    chat = reply(referee, "h", "dee", "I'll be brief and to the point, thanks", START)
    assert chat["reason"] == "no orders: 1 remark set aside"
    row, said = answered(referee, "h", "dee",
                         "I'll play huns dacia and take the influence, thanks", START)
    assert (row["status"], row["reason"]) == ("done", "orders recorded; 1 remark set aside"), said
    assert "play a Hun card, its pawn to Dacia; take influence over the Huns" in said
    assert "line 1: take the influence, thanks" in said


def test_a_bid_said_in_a_sentence_is_the_bid_and_the_conflict_waits_for_no_one(tmp_path):
    referee = table(tmp_path, "ann", {"Pannonia": {"saxons": 2, "vandals": 1}})
    reply(referee, "h", "ann", "jouer goths pannonie\n+ renoncer pannonie", START)
    referee.tick(later(START, 0.1), send=False)
    assert referee.table("h").state["game"]["turn"]["stage"] == "bid"
    for seat, mail in (("bob", "bid saxons for now"), ("dee", "bid nothing this time"),
                       ("eve", "nothing from me"), ("ann", "rien pour moi")):
        assert reply(referee, "h", seat, mail, later(START, 0.2))["reason"].startswith(
            "orders recorded"), mail
    row, said = answered(referee, "h", "cid", "Je ne mise rien cette fois", later(START, 0.3))
    assert (row["status"], row["reason"]) == ("done", "orders recorded; 1 remark set aside"), said
    assert "votre mise pour le conflit en Pannonia : aucune carte" in said
    assert "ligne 1 : cette fois" in said
    referee.tick(later(START, 0.4), send=False)
    assert referee.table("h").state["game"]["turn"]["stage"] == "turn", "every bid is in"


def test_a_bid_counts_its_cards_in_words_or_digits(tmp_path):
    referee = table(tmp_path, "ann", {"Pannonia": {"saxons": 2, "vandals": 1}})
    reply(referee, "h", "ann", "jouer goths pannonie\n+ renoncer pannonie", START)
    referee.tick(later(START, 0.1), send=False)
    said = flat(answer_to(referee, reply(referee, "h", "bob", "bid two saxons", START)))
    assert "your bid for the conflict in Pannonia: Saxons, Saxons" in said, said
    said = flat(answer_to(referee, reply(referee, "h", "cid", "mise deux vandales", START)))
    assert "votre mise pour le conflit en Pannonia : Vandales, Vandales" in said, said


def test_the_steps_of_a_turn_written_as_a_list_are_taken(tmp_path):
    referee = table(tmp_path, "eve")
    row, said = answered(referee, "h", "eve", "My turn:\n* tile double\n* play saxons pannonia\n"
                         "* + renounce noricum\n* play huns moesia\nEve", START)
    assert (row["status"], row["reason"]) == ("done", "orders recorded"), said
    assert "renounce influence: a second Saxon pawn to Noricum" in said
    assert "play a Hun card, its pawn to Moesia" in said


def test_a_card_not_in_hand_is_answered_with_the_hand_in_the_seat_s_language(tmp_path):
    referee = table(tmp_path, "ann")
    row, said = answered(referee, "h", "ann", "jouer saxons mésie", START)
    assert "ligne 1 : vous n'avez aucune carte" in said
    assert "(votre main : Francs, Francs, Huns, Goths, Goths, Vandales)" in said


def test_a_play_said_as_a_french_sentence_is_taken(tmp_path):
    referee = table(tmp_path, "ann")
    row, said = answered(referee, "h", "ann", "Je joue une carte des Goths en Mésie.", START)
    assert (row["status"], row["reason"]) == ("done", "orders recorded"), said
    assert "jouer une carte des Goths, son pion en Moesia" in said


def test_a_seat_that_orders_out_of_turn_is_told_once_that_nothing_is_asked_of_it(tmp_path):
    referee = table(tmp_path, "cid")
    row, said = answered(referee, "h", "bob", "Hi all,\nplay saxons moesia\nBob", START)
    assert row["reason"] == "orders not recorded: nothing asked of this seat", said
    assert said.count("Nothing is asked of you now") == 1, said
    assert "Nothing is asked of you now (waiting for cid), so these orders were not " \
           "recorded." in said
    assert "\n\n\n" not in text_of(outbox(referee, seat="bob", kind="ack")[-1]), \
        "a blank line where the request would stand"
    row, said = answered(referee, "h", "ann", "Salut !\njouer francs moesie", START)
    assert said.count("Rien ne vous est demandé") == 1, said
    row, said = answered(referee, "h", "dee", "Hi all, how is everyone?", START)
    assert said.count("Nothing is asked of you now") == 1, said
    assert "and your mail holds no orders: nothing in it was lost" in said


def test_each_seat_reads_of_its_own_draw_and_its_own_turn_as_you(tmp_path):
    referee = table(tmp_path, "eve")
    reply(referee, "h", "eve", "tile exchange saxons\nEve", START)
    referee.tick(later(START, 0.1), send=False)
    asked_eve = flat(outbox(referee, seat="eve", kind="report")[-1])
    assert "you are asked for the rest of your turn (1 card to play)" in asked_eve
    assert "eve is asked" not in asked_eve
    assert "eve is asked for the rest of the turn (1 card to play)" in \
        flat(outbox(referee, seat="bob", kind="report")[-1])
    assert "on demande à eve la suite du tour" in \
        flat(outbox(referee, seat="ann", kind="report")[-1])
    reply(referee, "h", "eve", "play saxons moesia", later(START, 0.2))
    referee.tick(later(START, 0.3), send=False)
    eve = flat(outbox(referee, seat="eve", kind="report")[-1])
    assert "you drew " in eve and "eve drew" not in eve, eve
    bob = flat(outbox(referee, seat="bob", kind="report")[-1])
    assert "eve drew 1 card" in bob and "you drew" not in bob, bob


def test_a_bid_with_thanks_after_it_and_no_mark_between_is_the_bid(tmp_path):
    referee = table(tmp_path, "ann", {"Pannonia": {"saxons": 2, "vandals": 1}})
    reply(referee, "h", "ann", "jouer goths pannonie\n+ renoncer pannonie", START)
    referee.tick(later(START, 0.1), send=False)
    row, said = answered(referee, "h", "bob", "bid saxons thanks for the game",
                         later(START, 0.2))
    assert row["reason"] == "orders recorded; 1 remark set aside", said
    assert "line 1: thanks for the game" in said, said
    row, said = answered(referee, "h", "cid", "rien merci quand même", later(START, 0.2))
    assert row["reason"] == "orders recorded; 1 remark set aside", said
