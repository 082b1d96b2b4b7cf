"""Seigneurs as people play it, from the player's side: real mails in, real mails out.

Each test plays one point of a club's game by mail (issue 20): a payment
that cannot be paid, building costs, the barbarian's deck, and the French a
French seat reads.
"""

from types import SimpleNamespace

import pytest

from pbem.games.seigneurs.narrate import narrate
from pbem.app import SeatSpec
from pbem.timeutil import later

from conftest import START, make_referee
from players import answer_to, flat, outbox, reply

VALLEY = {"villages": {"ann": ["C2", "C3"], "bob": ["C6", "C7"]},
          "village_farms": {"ann": 2, "bob": 1}}


def valley_game(tmp_path, position, lang=None):
    """ann (French when lang says so) and bob, lords, and zed the barbarian, at a position."""
    lang = lang or {}
    tmp_path.mkdir(parents=True, exist_ok=True)
    referee = make_referee(tmp_path)
    players = [SeatSpec(name, f"{name}@players.example", lang=lang.get(name, "en"))
               for name in ("ann", "bob", "zed")]
    referee.new_game("seigneurs", "v", players, START, {"judge": "zed", "turns": "1"},
                     seed="people", position={**VALLEY, **position})
    return referee


def last(referee, seat, kind="report") -> dict:
    """The last outbox row of a kind to a seat."""
    return outbox(referee, seat=seat, kind=kind)[-1]


def test_a_payment_that_cannot_be_paid_is_refused_at_once_and_nothing_is_dropped(tmp_path):
    referee = valley_game(tmp_path, {
        "stage": "construction", "famine": {"ann": [1, 2]},
        "stocks": {"ann": {"stone": 5, "wood": 5}, "bob": {"stone": 5, "wood": 5}}},
        lang={"ann": "fr"})
    ann = reply(referee, "v", "ann", "Bonjour,\nconstruire église pierre 3 bois 2\n"
                "build watchtower wood 2 stone 1\nAnn", START)
    said = flat(answer_to(referee, ann))
    assert "ligne 2 : rien ne va sur vos chantiers ce tour-ci : chaque ferme de votre " \
           "village est en famine" in said
    assert "ligne 3 : rien ne va sur vos chantiers" in said
    assert "vous mettez" not in said
    bob = reply(referee, "v", "bob", "build mill wood 2 stone 1", START)
    said = flat(answer_to(referee, bob))
    assert "you put wood 1 on your mill (of wood 2, stone 1 written: at most 1 resource " \
           "a turn goes on your projects (one per village farm not in famine))" in said
    referee.tick(later(referee.table("v").state["engine"]["deadline"], 1), send=False)
    report = flat(last(referee, "bob"))
    assert "bob puts wood 1 on its mill." in report
    assert "ann puts" not in report and "ann met" not in flat(last(referee, "ann"))
    game = referee.table("v").state["game"]
    assert game["buildings"]["bob"]["mill"]["paid"] == {"wood": 1}
    assert game["stocks"]["ann"] == {"stone": 5, "wood": 5}


def test_the_construction_mail_gives_the_costs_the_limit_and_what_is_owed(tmp_path):
    referee = valley_game(tmp_path, {
        "stage": "construction", "famine": {"ann": [2]},
        "projects": {"ann": {"keep": {"paid": {"stone": 2}, "started": 1}}}},
        lang={"ann": "fr"})
    french = flat(last(referee, "ann", "welcome"))
    assert "Bâtiments (coût, tours de construction) : église : bois 2, pierre 3 (2 tours) ;" \
           in french
    assert "Ce tour-ci, 1 ressource au plus va sur vos chantiers (une par ferme du village " \
           "hors famine)." in french
    assert "Votre chantier (donjon) demande encore pierre 2, métal 2." in french
    english = flat(last(referee, "bob", "welcome"))
    assert "oven: wood 1, stone 2 (1 turn)" in english
    assert "This turn at most 1 resource goes on your projects" in english


def test_a_silent_barbarian_is_not_said_to_have_judged(tmp_path):
    referee = valley_game(tmp_path, {"stage": "growth", "farms": {"I5": "bob", "B2": "bob"},
                                     "goods": {"I5": {"food": 4}}})
    for _ in range(4):
        engine = referee.table("v").state["engine"]
        if engine["over"]:
            break
        referee.tick(later(engine["deadline"], 1), send=False)
    over = flat(last(referee, "ann", "over"))
    assert "bob won (the most prestige: the barbarian sent no judgement)" in over
    assert "the barbarian's judgement" not in over


def test_the_barbarian_sees_its_deck_and_names_a_card_by_a_word_of_it(tmp_path):
    referee = valley_game(tmp_path, {"stage": "taxation"}, lang={"zed": "fr"})
    referee.tick(later(referee.table("v").state["engine"]["deadline"], 1), send=False)
    assert referee.table("v").state["game"]["stage"] == "event"
    mail = flat(last(referee, "zed"))
    assert "Votre pioche d'événements : 12 cartes restantes (printemps-calme, " \
           "raid-frontalier," in mail
    assert "carte printemps-calme la carte de ce tour, une de votre pioche :" in mail
    assert "- rumeur-de-peste : 1 envahisseur entre par le côté est ; des pèlerins laissent " \
           "pièces 3 à l'église la plus riche de sainteté 2 ou plus" in mail
    helped = reply(referee, "v", "zed", "aide", START)
    assert "- horde : 4 envahisseurs entrent par le côté ouest ; aucun pèlerin" in \
        flat(answer_to(referee, helped))
    zed = reply(referee, "v", "zed", "Salut les seigneurs\ncarte peste", START)
    assert "votre carte d'événement : rumeur-de-peste" in flat(answer_to(referee, zed))
    wrong = reply(referee, "v", "zed", "carte pste", START)
    said = flat(answer_to(referee, wrong))
    assert "il n'y a pas de carte pste dans votre pioche ; elle contient : " in said
    assert "évêque ; vouliez-vous dire rumeur-de-peste ?" in said
    english = valley_game(tmp_path / "en", {"stage": "taxation"})
    english.tick(later(english.table("v").state["engine"]["deadline"], 1), send=False)
    assert "- plague-rumour: 1 invader enters on the east side" in flat(last(english, "zed"))
    zed = reply(english, "v", "zed", "card plague", START)
    assert "your event card: plague-rumour" in flat(answer_to(english, zed))


def test_a_game_set_up_before_village_farms_held_their_own_keeps_its_pooled_villages():
    from pbem.adjudicator.contract import public
    from pbem.games.seigneurs.material import default_data
    from pbem.games.seigneurs.rules import (apply, blank_state, famine_free_village_farms,
                                            goods_at, village_farm_count, village_farms)
    old = blank_state(default_data(1), ["ann", "bob", "zed"], "zed", 2, 12.0)  # 1st edition
    old.update(villages={"ann": ["C2", "C3"], "bob": ["C6", "C7"]},
               village_farms={"ann": 2, "bob": 0}, goods={"C2": {"wood": 3}})
    state = apply({}, public("setup", state=old))
    assert state == old and "edition" not in state
    assert village_farm_count(state, "ann") == 2 and village_farms(state, "ann") == []
    assert goods_at(state, "C2") == {"wood": 3}
    assert famine_free_village_farms(state, "ann") == 2
    state["famine"] = ["C2"]
    assert famine_free_village_farms(state, "ann") == 0


def test_the_barbarian_reads_whose_trade_with_the_merchants_it_was(tmp_path):
    referee = valley_game(tmp_path, {"stage": "market", "card": "border-raid",
                                     "stocks": {"ann": {"metal": 2}}}, lang={"zed": "fr"})
    told = flat(last(referee, "zed", "welcome"))
    assert "acheter" not in told.split("Ce que vous pouvez envoyer")[1], \
        "a barbarian with no coin is not offered a purchase"
    reply(referee, "v", "ann", "sell metal 1", START)
    reply(referee, "v", "bob", "pass", START)
    reply(referee, "v", "zed", "passer", START)
    referee.tick(later(START, 0.1), send=False)
    assert "ann vend métal 1 aux marchands pour 2 pièces." in flat(last(referee, "zed"))
    assert "ann sells metal 1 to the merchants for 2 coins." in flat(last(referee, "ann"))
    assert "Vous vendez" not in flat(last(referee, "zed"))


def test_a_building_named_as_the_mails_name_it_is_read(tmp_path):
    referee = valley_game(tmp_path, {"stage": "construction", "stocks": {
        "ann": {"stone": 5, "wood": 5}, "bob": {"wood": 5, "food": 5}}}, lang={"ann": "fr"})
    ann = reply(referee, "v", "ann", "construire tour de guet bois 1 pierre 1", START)
    assert "vous mettez bois 1, pierre 1 sur votre chantier : tour de guet" in \
        flat(answer_to(referee, ann))
    bob = reply(referee, "v", "bob", "build warrior house wood 1", START)
    assert "you put wood 1 on your warrior house" in flat(answer_to(referee, bob))


def test_the_short_form_of_a_payment_pays_what_is_owed_or_says_why_not(tmp_path):
    """'build walls', the HELP's short form, on walls already paid in full, was answered
    with the limit of a turn's payments."""
    referee = valley_game(tmp_path, {
        "stage": "construction", "stocks": {"ann": {"stone": 5}, "bob": {"stone": 5}},
        "projects": {"ann": {"walls": {"paid": {"stone": 4}, "started": 1}},
                     "bob": {"walls": {"paid": {"stone": 3}, "started": 1}}}},
        lang={"ann": "fr"})
    help_text = flat(answer_to(referee, reply(referee, "v", "bob", "HELP", START)))
    assert "(or just: build walls)" in help_text
    said = flat(answer_to(referee, reply(referee, "v", "bob", "build walls", START)))
    assert "you put stone 1 on your walls" in said and "line 1" not in said, said
    said = flat(answer_to(referee, reply(referee, "v", "ann", "construire murailles", START)))
    assert "ligne 1 : le chantier (murailles) est payé en entier : il sera achevé à la " \
           "construction du tour 3" in said, said


def test_a_seat_without_a_hit_is_neither_offered_nor_let_name_victims(tmp_path):
    referee = valley_game(tmp_path, {"stage": "movement", "warriors": {
        "ann": {"C4": 2}, "bob": {"C4": 2}}, "relations": {"ann|bob": "war"}})
    reply(referee, "v", "ann", "pass", START)
    reply(referee, "v", "bob", "pass", START)
    reply(referee, "v", "zed", "pass", START)
    referee.tick(later(START, 0.1), send=False)
    fight = referee.table("v").state["game"]["fights"]["C4"]
    [scorer] = [s for s, n in fight["hits"].items() if n]  # the seed gives one side a hit
    idle = {"ann": "bob", "bob": "ann"}[scorer]
    told = flat(last(referee, idle))
    assert "hit C4" not in told.split("What you may send now")[1]
    row = reply(referee, "v", idle, "hit C4 " + {"ann": "bob", "bob": "ann"}[idle],
                later(START, 0.2))
    assert "you scored no hit on C4 this round: you have no victim to name" in \
        flat(answer_to(referee, row))


def test_a_lord_whose_claim_is_opposed_is_offered_to_support_it_first(tmp_path):
    referee = valley_game(tmp_path, {"stage": "taxation", "farms": {"D5": "bob"},
                                     "goods": {"D5": {"metal": 2}, "C2": {"wood": 1}}})
    reply(referee, "v", "ann", "tax C2 all", START)
    reply(referee, "v", "bob", "tax D5 all", START)
    referee.tick(later(START, 0.1), send=False)
    reply(referee, "v", "ann", "oppose D5 2", later(START, 0.2))
    reply(referee, "v", "bob", "pass", later(START, 0.2))
    referee.tick(later(START, 0.3), send=False)
    options = flat(last(referee, "bob")).split("What you may send now")[1]
    assert "support D5 1 1 warrior backs the collector on D5" in options, options


def test_the_judge_reads_the_lords_prestige_and_the_agreements_it_may_find_broken(tmp_path):
    referee = valley_game(tmp_path, {
        "stage": "growth", "farms": {"I5": "bob"}, "goods": {"I5": {"food": 4}},
        "agreements": [{"kind": "peace", "parties": ["ann", "bob"],
                        "terms": {"ann": "paix", "bob": "peace"}, "turn": 1}]},
        lang={"zed": "fr"})
    referee.tick(later(referee.table("v").state["engine"]["deadline"], 1), send=False)
    assert referee.table("v").state["game"]["stage"] == "judgement"
    told = flat(last(referee, "zed"))
    assert "Prestige des seigneurs (3 par domaine que dirige leur famille, 1 par ferme, 2 " \
           "par bâtiment achevé) : ann 5, bob 5." in told, told
    assert "rompus 1 nomme les accords que vous jugez rompus" in told
    assert "entre ann & bob : ann : « paix » ; bob : « peace » [tenu]" in told
    assert "rompus 2 5" not in told
    row = reply(referee, "v", "zed", "Décision : vainqueur bob, il a tenu parole.",
                later(referee.table("v").state["engine"]["deadline"], -1))
    said = flat(answer_to(referee, row))
    assert "votre décision : vainqueur : bob" in said and "winner" not in said, said


def test_the_final_judgement_publishes_the_judges_reasons_not_its_courtesies(tmp_path):
    """The barbarian's greeting and signature were published as its reasons, and the reason
    given with 'rompu 2' was dropped."""
    referee = valley_game(tmp_path, {
        "stage": "growth", "farms": {"I5": "bob"}, "goods": {"I5": {"food": 4}},
        "agreements": [{"kind": "peace", "parties": ["ann", "bob"],
                        "terms": {"ann": "paix", "bob": "peace"}, "turn": 1},
                       {"kind": "peace", "parties": ["ann", "zed"],
                        "terms": {"ann": "paix", "zed": "peace"}, "turn": 1}]},
        lang={"zed": "fr"})
    referee.tick(later(referee.table("v").state["engine"]["deadline"], 1), send=False)
    reason = "bob a pillé les fermes d'ann malgré la paix"
    row = reply(referee, "v", "zed", "Bonjour à tous,\n\nVoici mon jugement, mes seigneurs.\n"
                f"vainqueur ann\nrompu 2 : {reason}\n\nBien à vous,\nZed le Barbare",
                later(referee.table("v").state["engine"]["deadline"], -1))
    said = flat(answer_to(referee, row))
    assert f"vos raisons : rompu 2 : {reason} " in said, said
    assert "Ignoré : Bien à vous, Ignoré : Zed le Barbare" in said
    assert "ligne 3 : Voici mon jugement, mes seigneurs." in said
    referee.tick(later(referee.table("v").state["engine"]["deadline"], 1), send=False)
    final = flat(outbox(referee, seat="ann", kind="over")[-1])
    assert f"winner: ann (rompu 2 : {reason})." in final, final
    assert f"The barbarian says: rompu 2 : {reason}" in final
    assert "Bien à vous" not in final and "Barbare" not in final and "Voici" not in final


def test_help_shows_press_to_a_seat_of_the_game_and_no_team(tmp_path):
    referee = valley_game(tmp_path, {"stage": "market", "card": "border-raid"},
                          lang={"ann": "fr"})
    row = reply(referee, "v", "ann", "AIDE", START)
    said = flat(answer_to(referee, row))
    assert "PRESSE bob (ou TOUS), puis votre message" in said and "équipe" not in said


def test_a_gift_reads_as_one(tmp_path):
    referee = valley_game(tmp_path, {"stage": "market", "card": "border-raid",
                                     "stocks": {"bob": {"wood": 3}}}, lang={"ann": "fr"})
    row = reply(referee, "v", "bob", "As agreed:\noffer ann give wood 2", START)
    assert "you offer ann wood 2 for nothing" in flat(answer_to(referee, row))
    reply(referee, "v", "ann", "passer", START)
    reply(referee, "v", "zed", "pass", START)
    referee.tick(later(START, 0.1), send=False)
    assert "Offre 1 : bob propose à ann bois 2 contre rien." in flat(last(referee, "ann"))


def test_the_barbarian_reads_its_empty_stock_as_nothing(tmp_path):
    """'Your stock: -.' in every mail to the barbarian."""
    referee = valley_game(tmp_path, {"stage": "taxation"}, lang={"zed": "fr"})
    mail = flat(outbox(referee, seat="zed", kind="welcome")[-1])
    assert "Votre réserve : rien." in mail and "Votre réserve : -." not in mail
    assert "Your stock: wood" in flat(outbox(referee, seat="ann", kind="welcome")[-1])


def test_a_seat_offered_peace_is_shown_how_to_make_it(tmp_path):
    """cid offered peace to zed at the market; zed's mail offered 'peace ann your terms'
    only."""
    referee = valley_game(tmp_path, {"stage": "market"})
    reply(referee, "v", "bob", "peace zed you leave my farms alone", START)
    reply(referee, "v", "ann", "pass", START)
    reply(referee, "v", "zed", "pass", START)
    referee.tick(later(START, 0.5), send=False)
    mail = flat(last(referee, "zed"))
    assert "peace bob your terms make the peace bob offers" in mail, mail


@pytest.mark.parametrize("line, said", [
    ("construire un four avec bois 1", "vous mettez bois 1 sur votre chantier : four"),
    ("construire la tour de guet : bois 1", "vous mettez bois 1 sur votre chantier : tour de "
                                            "guet"),
    ("construire l'église pierre 1", "vous mettez pierre 1 sur votre chantier : église"),
])
def test_a_building_named_with_its_article_is_read(tmp_path, line, said):
    """'construire un four avec bois 1' was answered 'nommez un bâtiment ; vouliez-vous dire
    moulin ?'."""
    referee = valley_game(tmp_path, {"stage": "construction", "stocks": {
        "ann": {"stone": 5, "wood": 5}}}, lang={"ann": "fr"})
    ann = reply(referee, "v", "ann", line, START)
    assert said in flat(answer_to(referee, ann))


@pytest.mark.parametrize("position, seat, line, said", [
    ({"stage": "taxation"}, "ann", "produire trois pierres", "votre domaine produit pierre 3"),
    ({"stage": "taxation"}, "bob", "produce two stone one wood",
     "your domain produces wood 1, stone 2"),
    ({"stage": "market", "card": "horde", "stocks": {"bob": {"metal": 3}}}, "bob",
     "sell metal one", "you sell metal 1 to the merchants"),
    ({"stage": "market", "stocks": {"ann": {"wood": 3}}}, "ann",
     "offre bob donne deux bois contre une pierre", "vous proposez à bob bois 2 contre "
                                                   "pierre 1"),
    ({"stage": "construction", "stocks": {"ann": {"wood": 5, "food": 5}}}, "ann",
     "batir caserne bois 1", "vous mettez bois 1 sur votre chantier : maison de guerriers"),
    ({"stage": "construction", "stocks": {"bob": {"wood": 5, "stone": 5}}}, "bob",
     "build the church stone 1", "you put stone 1 on your church"),
    ({"stage": "construction", "stocks": {"ann": {"wood": 5, "stone": 5}}}, "ann",
     "construire les remparts pierre 1", "vous mettez pierre 1 sur votre chantier : "
                                         "murailles"),
])
def test_numbers_in_words_and_buildings_by_their_everyday_names_are_read(
        tmp_path, position, seat, line, said):
    """'produire trois pierres' and 'sell metal one' were refused; 'batir caserne' got only
    'nommez un bâtiment'."""
    referee = valley_game(tmp_path, position, lang={"ann": "fr"})
    row = reply(referee, "v", seat, line, START)
    answer = flat(answer_to(referee, row))
    assert row["reason"].startswith("orders recorded"), answer
    assert said in answer, answer


def test_warriors_sent_against_a_claim_are_counted_in_words(tmp_path):
    """'oppose E8 three' was refused."""
    referee = valley_game(tmp_path, {"stage": "taxation", "farms": {"D5": "bob"},
                                     "goods": {"D5": {"metal": 2}, "C2": {"wood": 1}}})
    reply(referee, "v", "ann", "tax C2 all", START)
    reply(referee, "v", "bob", "tax D5 all", START)
    referee.tick(later(START, 0.1), send=False)
    said = flat(answer_to(referee, reply(referee, "v", "ann", "oppose D5 two",
                                         later(START, 0.2))))
    assert "2 warriors oppose the claim on D5" in said, said


def test_a_good_the_merchants_do_not_trade_says_what_they_trade(tmp_path):
    """'vendre bois 2' when the merchants traded metal and weapons was answered 'bois
    n'est pas une ressource ici'."""
    referee = valley_game(tmp_path, {"stage": "market", "card": "horde"}, lang={"ann": "fr"})
    ann = reply(referee, "v", "ann", "vendre bois 2", START)
    said = flat(answer_to(referee, ann))
    assert "les marchands de ce tour n'échangent que : métal, armes forgées" in said, said


@pytest.mark.parametrize("line", ["J'accepte l'offre 1, merci Ann", "accepter l'offre n° 1",
                                  "accept offer 1"])
def test_an_offer_accepted_as_people_write_it_is_accepted(tmp_path, line):
    """'J'accepte l'offre 1, merci Bob' was set aside as a remark: the offer stayed open."""
    referee = valley_game(tmp_path, {"stage": "market", "card": "border-raid",
                                     "stocks": {"ann": {"wood": 2}, "bob": {"metal": 2}}},
                          lang={"bob": "fr"})
    reply(referee, "v", "ann", "offer bob give wood 1 take metal 1", START)
    reply(referee, "v", "bob", "passer", START)
    reply(referee, "v", "zed", "pass", START)
    referee.tick(later(START, 0.1), send=False)
    row = reply(referee, "v", "bob", line, later(START, 0.2))
    said = flat(answer_to(referee, row))
    assert "vous acceptez l'offre 1" in said, said


def test_fewer_invaders_than_the_card_sends_says_why():
    """The horde sends 4 invaders; 'Invaders: 1 warrior of the barbarian enters on E1'
    was all the lords read."""
    entered = SimpleNamespace(type="invaders_entered", payload={
        "place": "E1", "ids": [12], "side": "west", "invaders": 4})
    assert narrate(entered) == ("Invaders: 1 warrior of the barbarian enters on E1 (west). "
                                "The card sends 4: the barbarian had only 1 warrior off the "
                                "board.")
    entered.payload["ids"] = [12, 13, 14, 15]
    assert "The card sends" not in narrate(entered)


def test_invaders_leaving_with_no_loot_leave_empty_handed():
    """'Les guerriers du barbare quittent la vallée par A3, emportant -.'"""
    left = SimpleNamespace(type="left_valley", payload={"from": "A3", "ids": [1], "load": {}})
    assert narrate(left) == "The barbarian's warriors leave the valley from A3, empty-handed."
    left.payload["load"] = {"wood": 2}
    assert narrate(left) == "The barbarian's warriors leave the valley from A3, carrying " \
                            "wood 2."


def test_a_village_moved_from_where_it_was_asked_says_why():
    """bob's 'village D5 D6' was acknowledged, then 'bob's village stands on D7 D8'."""
    placed = SimpleNamespace(type="villages_placed", payload={
        "lord": "bob", "tiles": ["D7", "D8"], "wished": ["D5", "D6"]})
    assert narrate(placed) == ("bob's village stands on D7 D8. bob asked for D5 D6, closer "
                               "than 3 tiles to a village placed before: this is the nearest "
                               "village possible.")
    placed.payload["wished"] = ["D8", "D7"]
    assert narrate(placed) == "bob's village stands on D7 D8."


def test_warriors_put_out_of_action_say_whose_hits_they_were():
    """'1 warrior is put out of action on C6': whose?"""
    hit = SimpleNamespace(type="warriors_hit", payload={
        "place": "C6", "ids": [3, 7, 8], "by": {"3": "ann", "7": "bob", "8": "bob"}})
    assert narrate(hit) == ("ann's hits put 1 warrior out of action on C6. bob's hits put 2 "
                            "warriors out of action on C6.")


def test_a_collector_that_takes_nothing_says_so():
    """'Le percepteur de ann prend - sur C6.'"""
    taxed = SimpleNamespace(type="taxed", payload={"seat": "ann", "place": "C6", "took": {}})
    assert narrate(taxed) == "ann's collector finds nothing to take on C6."


def test_an_empty_bag_reads_empty(tmp_path):
    """'Sac : -' on the board of a turn whose production emptied the bag."""
    referee = valley_game(tmp_path, {"stage": "market", "bag": {"wood": 0, "stone": 0,
                                                                 "food": 0, "metal": 0}},
                          lang={"ann": "fr"})
    assert "Sac : vide" in flat(outbox(referee, seat="ann", kind="welcome")[-1])
