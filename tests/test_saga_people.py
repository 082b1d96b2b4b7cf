"""A SAGA campaign as people play it, from the player's side: real mails in, real mails out.

Each test plays one point of a club's campaign by mail (issue 20): a battle
kept between its two players even under vassalage, a vassal not asked for
orders it does not give, a signup line not understood, what the referee is
shown when it rules, a seat's own armies on its map.
"""

import copy

import pytest

from pbem.games.saga import orders as saga_orders
from pbem.adjudicator.contract import REFEREE
from pbem.app import SeatSpec
from pbem.timeutil import later

from conftest import START, make_referee
from mailkinds import SAGA_START
from players import answer_to, flat, outbox, parsed, reply, text_of
from test_saga_leaks import LeakWatch

# bob is ann's vassal; cat (on Cumbria) may attack bob's homeland, Mercia.
VASSALAGE = {
    **SAGA_START, "active": "cat", "vassals": {"bob": "ann"},
    "owners": {**SAGA_START["owners"], "Cumbria": "cat"},
    "armies": {**SAGA_START["armies"], "cat": {"host": {
        **SAGA_START["armies"]["cat"]["host"], "zone": "Cumbria", "levies": 2}}}}


def campaign(tmp_path, position=VASSALAGE, lang=None, watch=None):
    """ann, bob and cat (each in its language) in a campaign from a position."""
    lang = lang or {}
    referee = make_referee(tmp_path)
    players = [SeatSpec(name, f"{name}@players.example", lang=lang.get(name, "en"))
               for name in ("ann", "bob", "cat")]
    referee.new_game("saga", "c", players, START, {}, seed="people", position=position)
    return referee


def deadline(referee):
    """Just after the open phase's deadline."""
    return later(referee.table("c").state["engine"]["deadline"], 1)


def mails_to(referee, seat, after=0) -> str:
    """Every mail a seat got after outbox row `after`, flat."""
    return "\n".join(flat(row) for row in outbox(referee, seat=seat) if row["id"] > after)


def test_an_overlord_is_neither_told_nor_asked_of_its_vassals_battle(tmp_path):
    referee = campaign(tmp_path)
    watch = LeakWatch(referee, "c")
    welcomed = outbox(referee)[-1]["id"]
    before = referee.table("c").state
    reply(referee, "c", "cat", "Hello all\nmove host Mercia\ncheers, Cat", START)
    referee.tick(later(START, 1), send=False)
    watch(before, referee.table("c").state)
    state = referee.table("c").state
    assert state["game"]["turn"]["stage"] in ("setup", "battle")
    now = later(START, 1)
    if state["game"]["turn"]["stage"] == "setup":
        before, now = state, deadline(referee)
        referee.tick(now, send=False)
        watch(before, referee.table("c").state)
    assert "YOUR BATTLE in Mercia" in mails_to(referee, "bob")
    assert "YOUR BATTLE in Mercia" in mails_to(referee, "cat")
    told_ann = mails_to(referee, "ann", after=welcomed)
    assert "BATTLE" not in told_ann and "attacks bob in Mercia" not in told_ann
    assert "result won" not in told_ann
    assert "ann" not in referee.table("c").state["engine"]["requests"]
    ann = reply(referee, "c", "ann", "for bob:\nresult won", now)
    said = flat(answer_to(referee, ann))
    assert "You do not give the orders of bob now (bob answers for itself), so what you " \
           "wrote for bob was not recorded." in said
    before = referee.table("c").state
    reply(referee, "c", "bob", "result lost", now)
    reply(referee, "c", "cat", "result won", now)
    referee.tick(later(now, 1), send=False)
    watch(before, referee.table("c").state)
    game = referee.table("c").state["game"]
    assert game["owner"]["Mercia"] == "cat" and game["overlord"]["bob"] == "cat"
    told_ann = mails_to(referee, "ann")
    assert "won the battle" not in told_ann and "battle of Mercia" not in told_ann
    assert "bob lost its homeland and is now the vassal of cat" in told_ann


def test_a_vassal_is_not_asked_for_orders_and_is_told_who_gives_them(tmp_path):
    referee = campaign(tmp_path, {**VASSALAGE, "active": "bob"}, lang={"bob": "fr"})
    [welcome] = outbox(referee, seat="bob", kind="welcome")
    text = flat(welcome)
    assert "ann donne vos ordres maintenant : rien ne vous est demandé, et vous recevez " \
           "toujours vos propres rapports." in text
    assert "Ce que vous pouvez envoyer maintenant" not in text
    assert "vos ordres avant" not in welcome["subject"]
    [told_ann] = outbox(referee, seat="ann", kind="welcome")
    assert "You give the orders of bob" in flat(told_ann)
    assert "Orders bob may be given now" in flat(told_ann)
    referee.remind("c", later(referee.table("c").state["engine"]["deadline"], -1))
    assert not outbox(referee, seat="bob", kind="reminder")
    assert outbox(referee, seat="ann", kind="reminder")
    bob = reply(referee, "c", "bob", "déplacer host Mercie", START)
    assert "Vos ordres sont désormais donnés par ann" in flat(answer_to(referee, bob))
    ann = reply(referee, "c", "ann", "for bob:\nmove host Mercia", START)
    assert "For bob: host moves to Mercia" in flat(answer_to(referee, ann))


def test_a_battle_under_vassalage_is_kept_between_its_two_players_in_every_mail(tmp_path):
    position = copy.deepcopy(VASSALAGE)
    referee = campaign(tmp_path, position)
    watch = LeakWatch(referee, "c")
    now = START
    for mail in ({"cat": "move host Mercia"}, {}, {"cat": "result won", "bob": "result lost"},
                 {}, {}):
        before = referee.table("c").state
        if before["engine"]["over"] or REFEREE in before["engine"]["requests"]:
            break
        for seat, text in mail.items():
            reply(referee, "c", seat, text, now)
        now = later(now, 1)
        if not referee.tick(now, send=False).phases:
            now = deadline(referee)
            referee.tick(now, send=False)
        watch(before, referee.table("c").state)
    assert watch.checked["mails"] >= 6


def test_the_referee_is_told_what_each_side_reported(tmp_path):
    position = {**VASSALAGE, "vassals": {}, "active": "cat"}
    referee = campaign(tmp_path, position)
    now = START
    reply(referee, "c", "cat", "move host Mercia", now)
    for _ in range(3):
        state = referee.table("c").state
        if state["game"]["turn"]["stage"] == "battle":
            break
        now = deadline(referee)
        referee.tick(now, send=False)
    points = state["game"]["turn"]["battle"].get("points_rule")
    reply(referee, "c", "cat", "result won points 12" if points else "result won", now)
    reply(referee, "c", "bob", "Bonjour\nrésultat gagné points 9" if points else
          "Bonjour\nrésultat gagné", now)
    referee.tick(later(now, 1), send=False)
    [asked] = referee.rulings("c")
    cat_said = "cat reported: won" + (", 12 points left on the field." if points else ".")
    assert cat_said in asked["facts"]
    assert any(f.startswith("bob reported: won") for f in asked["facts"])
    [notice] = [row for row in outbox(referee) if row["kind"] == "ruling"]
    assert cat_said in flat(notice)
    assert "pbem ruling c" in flat(notice)


def test_a_disputed_battle_brings_each_sides_words_and_photo_to_the_referee(tmp_path):
    """The referee's mail said only 'won/won': the players' remarks and the photo of the
    table reached neither the referee nor the opponent."""
    referee = campaign(tmp_path, {**VASSALAGE, "vassals": {}, "active": "cat"},
                       lang={"bob": "fr"})
    now = START
    reply(referee, "c", "cat", "move host Mercia", now)
    while referee.table("c").state["game"]["turn"]["stage"] != "battle":
        now = deadline(referee)
        referee.tick(now, send=False)
    points = referee.table("c").state["game"]["turn"]["battle"].get("points_rule")
    photo = b"\xff\xd8\xff\xe0 the table at the end, bob's Lord on the bridge"
    reply(referee, "c", "cat", "Hi,\nresult won" + (" points 12" if points else "") +
          "\nMy hearthguards held the bridge to the last turn.\nCheers, Cat", now,
          files=[("table.jpg", "image/jpeg", photo)])
    reply(referee, "c", "cat", "PRESS ann\nbob will cry foul, watch", now)
    reply(referee, "c", "bob", "Bonjour,\nrésultat gagné" + (" points 9" if points else "") +
          "\nSon Seigneur est tombé au tour 5, la photo le montre.", now)
    referee.tick(later(now, 1), send=False)
    [notice] = [row for row in outbox(referee) if row["kind"] == "ruling"]
    said = flat(notice)
    assert "cat wrote: “result won" in said and \
        "My hearthguards held the bridge to the last turn.”" in said, said
    assert "bob wrote: “résultat gagné" in said and "Son Seigneur est tombé au tour 5" in said
    assert "Attached: cat-table.jpg." in said and "cry foul" not in said
    [attached] = [part for part in parsed(notice).iter_attachments()]
    assert attached.get_filename() == "cat-table.jpg" and attached.get_content() == photo
    told_bob = flat(outbox(referee, seat="bob", kind="report")[-1])
    assert "cat a écrit à la partie : « result won" in told_bob and \
        "held the bridge to the last turn." in told_bob, told_bob
    assert "Son Seigneur" not in told_bob and "cry foul" not in told_bob
    told_cat = flat(outbox(referee, seat="cat", kind="report")[-1])
    assert "bob wrote to the game: “résultat gagné" in told_cat and \
        "la photo le montre." in told_cat, told_cat
    assert "cry foul" not in told_cat.split("bob wrote")[1]


def test_a_signup_line_not_understood_is_an_error_and_nothing_is_guessed(tmp_path):
    referee = campaign(tmp_path, position=None, lang={"ann": "fr"})
    ann = reply(referee, "c", "ann", "fation écossais\npatrie alba", START)
    said = flat(answer_to(referee, ann))
    assert "ligne 1 : Je ne comprends pas 'fation'" in said
    assert "ligne 2 : Alba peut être la patrie des Vikings ou Scots : nommez aussi " \
           "votre faction, par exemple faction scots" in said
    assert "Vikings" not in said.split("ligne 1")[0]
    ann = reply(referee, "c", "ann", "faction scots\npatrie Alba", START)
    said = flat(answer_to(referee, ann))
    assert "faction : Scots" in said and "Alba" in said
    referee.tick(deadline(referee), send=False)
    game = referee.table("c").state["game"]
    assert (game["factions"]["ann"], game["homelands"]["ann"]) == ("scots", "Alba")


def test_a_signup_hint_copied_as_the_mail_shows_it_is_read(tmp_path):
    """'faction normands   patrie Normandie', copied from the welcome, was refused, as was
    the error's own example 'faction bretons de strathclyde'; the factions an error lists
    are named as a French seat writes them."""
    referee = campaign(tmp_path, position=None, lang={"ann": "fr"})
    [welcome] = outbox(referee, seat="ann", kind="welcome")
    [shown] = [line.strip() for line in text_of(welcome).splitlines()
               if line.strip().startswith("faction normands") and "patrie" in line]
    assert shown == "faction normands   patrie Normandie"
    said = flat(answer_to(referee, reply(referee, "c", "ann", shown, START)))
    assert "faction : Normands" in said and "patrie : Normandie" in said, said
    assert "ligne 1" not in said
    said = flat(answer_to(referee, reply(referee, "c", "ann", "patrie Strathclyde", START)))
    example = said.split("par exemple ")[1].split()[:2]
    assert example == ["faction", "bretons-de-strathclyde"], said
    for faction in ("bretons de strathclyde", "bretons-de-strathclyde",
                    "Strathclyde Britons"):
        said = flat(answer_to(referee, reply(referee, "c", "ann", "patrie Strathclyde\n"
                                             f"faction {faction}", START)))
        assert "faction : Bretons de Strathclyde" in said and "ligne 2" not in said, said
    said = flat(answer_to(referee, reply(referee, "c", "ann", "faction saxons", START)))
    assert "nommez une faction : vikings, anglo-danois, gallois, normands" in said, said
    assert "welsh" not in said


@pytest.mark.parametrize("line, said", [
    ("recruter une levee", "recruter 1 unité de Levées"),
    ("recruter 1 guerrier", "recruter 1 unité de Guerriers"),
    ("reconnaissance Mercie -- on y va", "reconnaissance de Mercie"),
    ("scout Mercia // let's see", "reconnaissance de Mercie"),
    ("diviser ost deux pillards", "2 unités de Levées quittent ost et deviennent pillards"),
])
def test_numbers_in_words_and_chat_after_a_zone_are_read(tmp_path, line, said):
    """'recruter une levee' and 'recruter 1 guerrier' were refused; 'scout Cumbria -- on y
    va' read the chat as part of the zone."""
    referee = campaign(tmp_path, {**VASSALAGE, "vassals": {}, "active": "ann"},
                       lang={"ann": "fr"})
    row = reply(referee, "c", "ann", line, START)
    answer = flat(answer_to(referee, row))
    assert row["reason"].startswith("orders recorded"), answer
    assert said in answer, answer


def test_a_seats_own_army_in_a_battle_zone_is_on_its_own_map(tmp_path):
    from pbem.games import saga
    referee = campaign(tmp_path, {**VASSALAGE, "vassals": {}})
    reply(referee, "c", "cat", "move host Mercia", START)
    referee.tick(later(START, 1), send=False)
    state = referee.table("c").state["game"]
    assert state["turn"]["battle"]["zone"] == "Mercia"
    view = saga.view(state, "cat")
    [mercia] = [z for z in view["zones"] if z["name"] == "Mercia"]
    assert any(a.get("name") == "host" and a["points"] == 5 for a in mercia["armies"])
    text = saga.board_text(view)
    assert "host 5 (1/2/2 +L)" in text.split("Mercia", 1)[1].split("East Anglia")[0]
    [drawn] = [z for z in saga.svg_context(view)["zones"] if z["name"] == "Mercia"]
    assert "5" in drawn["label"].split("+")
    report = outbox(referee, seat="cat", kind="report")[-1]
    assert "host 5 (1/2/2 +L)" in flat(report).split("12 Mercia", 1)[1].split("East Anglia")[0]


@pytest.mark.parametrize("line,scenario", [
    ("scenario 1 - face to face, may the best Lord win", "Face to face"),
    ("scenario 4 (Homeland)", "Homeland"),
    ("scenario the bridge", "The bridge"),
    ("scénario Bataille pour le pont", "The bridge"),
    ("scenario three", "The monastery"),
])
def test_a_scenario_written_as_the_options_name_it_is_read(tmp_path, line, scenario):
    referee = campaign(tmp_path, {**VASSALAGE, "vassals": {}})
    reply(referee, "c", "cat", "move host Mercia", START)
    referee.tick(later(START, 0.1), send=False)
    assert "bob" in referee.table("c").state["engine"]["requests"]
    row = reply(referee, "c", "bob", line, later(START, 0.2))
    said = flat(answer_to(referee, row))
    assert f"scenario: {scenario}" in said and "could not be accepted" not in said, said


def test_a_french_player_signs_up_and_moves_its_ost_in_french(tmp_path):
    referee = campaign(tmp_path, position=None, lang={"ann": "fr"})
    [welcome] = outbox(referee, seat="ann", kind="welcome")
    said = flat(welcome)
    assert "ost 1 garde 2 guerriers 1 levée" in said and "réserve 1 guerrier" in said
    assert "host 1 garde" not in said and "reserve 1 guerrier" not in said
    (tmp_path / "turn").mkdir()
    referee = campaign(tmp_path / "turn", {**VASSALAGE, "vassals": {}, "active": "ann"},
                       lang={"ann": "fr"})
    row = reply(referee, "c", "ann", "Bonjour !\ndéplacer ost Wessex\nAnn", START)
    said = flat(answer_to(referee, row))
    assert row["reason"] == "orders recorded", said
    assert "ost entre en Wessex, hors de vos terres" in said


def test_a_seats_own_army_is_apart_from_what_it_learned_and_no_turn_0_is_shown(tmp_path):
    referee = campaign(tmp_path, {**VASSALAGE, "vassals": {}})
    reply(referee, "c", "cat", "move host Mercia", START)
    referee.tick(later(START, 1), send=False)
    report = flat(outbox(referee, seat="cat", kind="report")[-1])
    mercia = report.split("12 Mercia", 1)[1].split("13 East Anglia")[0]
    assert "host 5 (1/2/2 +L); ? (setup, may have changed)" in mercia, mercia
    assert "turn 0" not in report


def test_an_overlord_reads_its_vassals_options_as_its_vassals(tmp_path):
    position = {**VASSALAGE, "active": "bob",
                "owners": {**VASSALAGE["owners"], "Mercia": "ann"},
                "armies": {**VASSALAGE["armies"],
                           "bob": {"host": VASSALAGE["armies"]["bob"]["host"]}}}
    referee = campaign(tmp_path, position)
    [told_ann] = outbox(referee, seat="ann", kind="welcome")
    options = flat(told_ann).split("Orders bob may be given now", 1)[1]
    assert "(the one move out)" in options and "your one move out" not in options
    assert "5 gold a unit; in Wessex)" in options, options
    row = reply(referee, "c", "ann", "for bob:\nrecruit levies", START)
    assert "For bob: recruit 1 Levies in Wessex at upkeep" in flat(answer_to(referee, row))


def test_both_players_read_what_each_reported_when_the_referee_must_rule(tmp_path):
    referee = campaign(tmp_path, {**VASSALAGE, "vassals": {}, "active": "cat"})
    now = START
    reply(referee, "c", "cat", "move host Mercia", now)
    while referee.table("c").state["game"]["turn"]["stage"] != "battle":
        now = deadline(referee)
        referee.tick(now, send=False)
    points = referee.table("c").state["game"]["turn"]["battle"].get("points_rule")
    reply(referee, "c", "cat", "result won points 12" if points else "result won", now)
    reply(referee, "c", "bob", "result won points 9" if points else "result won", now)
    referee.tick(later(now, 1), send=False)
    told = flat(outbox(referee, seat="bob", kind="report")[-1])
    said = "the battle of Mercia goes to the referee: bob says bob won" + \
        (", 9 points left on the field" if points else "") + "; cat says cat won"
    assert said in told, told
    assert "or one is missing" not in told


def test_a_welcome_subject_reads_as_one_sentence(tmp_path):
    """'the game begins, Choose your faction, homeland and armies, by Thu 12:00'."""
    referee = campaign(tmp_path, position=None, lang={"bea": "fr"})
    [to_ann] = outbox(referee, seat="ann", kind="welcome")
    assert to_ann["subject"].endswith("Setup: the game begins, choose your faction, homeland "
                                      "and armies, by Thu 12:00")


def test_a_signup_without_armies_says_which_armies_it_gets(tmp_path):
    """'faction normans / homeland normandy' was answered with the faction and the homeland
    alone; the armies the seat would get were nowhere."""
    referee = campaign(tmp_path, position=None, lang={"ann": "fr"})
    ann = reply(referee, "c", "ann", "faction normands\npatrie Normandie", START)
    said = flat(answer_to(referee, ann))
    assert "Ost principal : non précisé, donc la composition habituelle : 1 unité de " \
           "Gardes, 2 unités de Guerriers, 1 unité de Levées" in said, said
    assert "Réserve : non précisé, donc la composition habituelle : 1 unité de Guerriers" \
        in said



def test_a_vassal_with_no_zone_and_no_army_is_offered_no_recruit(tmp_path):
    """cid was offered 'recruit levies | warriors | hearthguards (in your homeland)' for
    bea, who had lost her homeland, her zones and her armies: acknowledged, then 'no Levies
    recruited: not enough gold'."""
    referee = campaign(tmp_path, {**VASSALAGE, "active": "bob"})
    game = referee.table("c").state["game"]
    landless = {**game, "armies": {**game["armies"], "bob": {}},
                "owner": {z: s for z, s in game["owner"].items() if s != "bob"}}
    assert saga_orders.parse(landless, "bob", "recruit levies")[1], "refused at once"
    assert not any("recruit" in line for c in saga_orders.choices.choices(
        landless, "bob", "orders", saga_orders.reads) for line in c["orders"])
