"""Chat never costs a turn, in any game: a line that is no order and close to none is a remark.

Written from the player's side: a real reply mail goes in, pbem's answer and
the game come out. The lines are the ones club players wrote between their
orders ("Great game last night, Bea!", "Allez, on y va !", "Bravo à ann.");
each is set aside, listed back as a remark, and holds nothing up, so the
turn resolves as soon as every seat asked has sent error-free orders. An
order word with a typo stays an error with "did you mean", and so does a
mistyped command.
"""

import pytest

from pbem.games.saga import choices
from pbem.games.saga import orders as saga_orders
from pbem.adjudicator.results import parse_result
from pbem.adjudicator.spelling import chat
from pbem.app import SeatSpec
from pbem.i18n import speaking
from pbem.timeutil import later

from conftest import START, make_referee, seats
from mailkinds import GAMES, SAGA_START, SEIGNEURS_START, play
from players import answer_to, flat, reply

CHAT = ["I'll take the Welsh, of course.", "Great game last night, Bea!", "Ouch. Fair enough.",
        "Sorry Lea, C4 is in my sphere.", "Allez, on y va !", "Bravo à ann.",
        "Merci Bob, message reçu.", "Two builds, lovely.",
        "No offence taken Bob. But Munich is mine, and it stays that way.",
        "D'accord Bob, on s'arrange :", "Peace, for now.", "Tant pis pour toi.",
        "Sans rancune j'espère."]
ATTILA = {"first": "ann",
          "hands": {"ann": ["goths", "goths", "huns", "franks", "saxons", "saxons"],
                    "bob": ["huns", "huns", "teutons", "teutons", "vandals", "franks"]}}
# Each game: the seats, options, position, and the orders of every seat asked now.
TABLES = {
    "auguste": (["ann", "bob", "cat", "dan"], {"preset": "4-2"}, None,
                {"ann": "red: move BUK BUV", "bob": "orange: move BIC GOK",
                 "cat": "green: move BAR CET", "dan": "blue: move FIR BEN"}),
    "attila": (["ann", "bob"], {}, ATTILA, {"ann": "play goths pannonia\nplay huns dacia"}),
    "saga": (["ann", "bob", "cat"], {}, SAGA_START, {"ann": "move reserve Kent"}),
    "seigneurs": (["ann", "bob", "zed"], {"judge": "zed", "turns": "1"}, SEIGNEURS_START,
                  {"ann": "offer bob give wood 2 take metal 1", "bob": "pass", "zed": "pass"}),
    "diplomacy": (["ann", "bob"], {"powers": "ann:england,bob:france"}, None,
                  {"ann": "F LON - NTH\nA LVP - YOR", "bob": "A PAR - BUR"}),
}


def game_at(folder, ruleset: str, lang: str = "en"):
    """A referee with the game of TABLES[ruleset] open, every seat reading `lang`."""
    names, options, position, _orders = TABLES[ruleset]
    referee = make_referee(folder)
    referee.new_game(ruleset, "g", [SeatSpec(n, f"{n}@players.example", lang=lang)
                                    for n in names], START, options, seed="chat",
                     position=position)
    return referee


@pytest.mark.parametrize("ruleset", sorted(TABLES))
def test_the_chat_club_players_wrote_holds_no_turn_up_in_any_game(tmp_path, ruleset):
    referee = game_at(tmp_path, ruleset)
    orders = TABLES[ruleset][3]
    for number, (seat, lines) in enumerate(sorted(orders.items())):
        first, *rest = lines.split("\n")
        body = "\n".join(["Hello all,", first, *CHAT[:3], *rest, *CHAT[3:], "Cheers,",
                          seat.title()])
        row = reply(referee, "g", seat, body, later(START, number / 10))
        said = flat(answer_to(referee, row))
        assert row["reason"] == f"orders recorded; {len(CHAT)} remarks set aside", (seat, said)
        assert "could not be accepted" not in said
        for line in CHAT:
            assert f": {line}" in said, f"{line!r} is listed back as a remark"
    assert referee.tick(later(START, 1), send=False).phases == {"g": 1}, \
        "every seat asked sent error-free orders: the turn resolves at once"


@pytest.mark.parametrize("ruleset,mistyped,word", [
    ("auguste", "red: moev BUK BUV", "move"),
    ("attila", "plya goths pannonia", "play"),
    ("saga", "moev reserve Kent", "MOVE"),
    ("seigneurs", "ofer bob give wood 2 take metal 1", "offer"),
])
def test_an_order_word_with_a_typo_stays_an_error_with_did_you_mean(tmp_path, ruleset,
                                                                     mistyped, word):
    referee = game_at(tmp_path, ruleset)
    row = reply(referee, "g", "ann", f"Hi,\n{mistyped}\nGreat game last night, Bea!", START)
    said = flat(answer_to(referee, row))
    assert "line 2:" in said and f"did you mean {word}" in said, said
    assert "line 3: Great game last night, Bea!" in said
    assert referee.tick(later(START, 1), send=False).phases == {}


def test_a_mistyped_command_is_an_error_that_names_the_command(tmp_path):
    referee = game_at(tmp_path, "attila")
    row = reply(referee, "g", "ann", "play goths pannonia\nplay huns dacia\nREDAY", START)
    said = flat(answer_to(referee, row))
    assert "line 3: I do not understand 'REDAY'; did you mean READY?" in said
    assert "Remarks" not in said


def test_a_french_player_reads_the_remarks_in_french(tmp_path):
    referee = game_at(tmp_path, "seigneurs", "fr")
    row = reply(referee, "g", "bob", "Bonjour,\npasser\nAllez, on y va !\nBob", START)
    said = flat(answer_to(referee, row))
    assert "Remarques, pas des ordres (mises de côté ; elles ne retardent rien) : ligne 3 : " \
        "Allez, on y va !" in said


def saga_battle(tmp_path, bob_lang: str = "fr") -> tuple:
    """ann attacks bob (reading `bob_lang`) in Wessex and the battle is set: (referee,
    now)."""
    spec = GAMES["saga"]
    referee = make_referee(tmp_path)
    referee.new_game("saga", "wessex", [SeatSpec("ann", "ann@players.example"),
                                        SeatSpec("bob", "bob@players.example", lang=bob_lang),
                                        SeatSpec("cat", "cat@players.example")],
                     START, {}, seed=spec["seed"], position=spec["position"])
    now = START
    for step in spec["play"][:2]:
        now = play(referee, "wessex", step, now, "en")
    return referee, now


def test_both_sides_agreeing_on_a_battle_with_a_word_of_chat_resolve_it_at_once(tmp_path):
    referee, now = saga_battle(tmp_path)
    assert set(referee.table("wessex").state["engine"]["requests"]) == {"ann", "bob"}
    reply(referee, "wessex", "ann", "result won points 14\nGreat game, Bob!", now)
    row = reply(referee, "wessex", "bob", "Bonjour,\nrésultat : perdu (9 points)\nBravo à ann.",
                now)
    said = flat(answer_to(referee, row))
    assert "ligne 3 : Bravo à ann." in said and "RESULTAT GAGNE" not in said
    assert "Toutes les réponses attendues pour ce tour sont arrivées" in said
    assert referee.tick(later(now, 0.1), send=False).phases == {"wessex": 1}, \
        "both reports agree: no waiting for the battle's 168 hours"
    battle = [e for e in referee.events("wessex", "referee") if e["type"] == "orders_set"][-1]
    assert {s: o["outcome"] for s, o in battle["payload"]["orders"].items()} == \
        {"ann": "won", "bob": "lost"}


def test_a_battle_told_twice_in_one_mail_is_one_report_and_resolves_at_once(tmp_path):
    """'Good game Bea! Lost by a whisker.' then 'result lost': the chat told the result
    before the order did, and 'one result per mail' held the battle up."""
    referee, now = saga_battle(tmp_path, "en")
    reply(referee, "wessex", "ann", "result won points 14", now)
    row = reply(referee, "wessex", "bob", "Good game Ann! Lost by a whisker.\n"
                "result lost points 9", now)
    said = flat(answer_to(referee, row))
    assert "could not be accepted" not in said, said
    assert referee.tick(later(now, 0.1), send=False).phases == {"wessex": 1}
    assert [str(e) for e in parse_result("result won\nresult lost")[1]] == [
        "line 2: one result per mail"], "two results that differ are still an error"
    assert parse_result("Lost by a whisker.\nresult lost points 9", with_points=True) == (
        {"outcome": "lost", "points": 9}, [])
    assert [str(e) for e in parse_result("result lost", with_points=True)[1]] == [
        "line 1: say the points you left on the field too: RESULT WON POINTS 12"]


@pytest.mark.parametrize("line,word,remark", [
    ("Great game last night, Bea!", "great", True),
    ("Allez, on y va !", "allez", True),
    ("I'll take the Welsh, of course.", "i'll", True),
    ("Bravo à ann.", "bravo", True),
    ("moev host Mercia", "moev", False),
    ("recuit warriors", "recuit", False),
    ("hti C4 lea armed", "hti", False),
    ("Two builds, lovely", "two", True),
    ("Merci Bob, message reçu.", "merci", True),
    ("ot BUR", "ot", False),
])
def test_chat_is_told_from_a_mistyped_order_word_by_spelling(line, word, remark):
    words = ["move", "recruit", "hit", "aller", "grace", "kill", "to", "mer"]
    assert chat(line, word, words) is remark


def test_a_line_that_starts_with_a_people_is_an_order_short_of_its_verb_not_chat(tmp_path):
    referee = game_at(tmp_path, "attila")
    row = reply(referee, "g", "ann", "goths pannonia\nplay huns dacia", START)
    said = flat(answer_to(referee, row))
    assert "line 1: I do not understand 'goths'" in said and "Remarks" not in said


@pytest.mark.parametrize("ruleset,lines,understood", [
    ("auguste", "Hello all,\nThen red: move BUK BUV", "BUK"),
    ("attila", "Salut,\nplay goths pannonia\nand play huns dacia", "dacia"),
    ("saga", "Hi!\nThen, move reserve Kent", "Kent"),
    ("seigneurs", "Bonjour,\npuis offre bob donne bois 2 prends métal 1", "metal 1"),
])
def test_a_word_tying_a_line_to_the_one_before_loses_no_order(tmp_path, ruleset, lines,
                                                            understood):
    referee = game_at(tmp_path, ruleset)
    seat = sorted(TABLES[ruleset][3])[0]
    row = reply(referee, "g", seat, lines + "\nand good luck to all!", START)
    said = flat(answer_to(referee, row))
    assert row["reason"] == "orders recorded; 1 remark set aside", said
    assert understood in said.split("Your orders as I understood them:")[1], said
    assert ": and good luck to all!" in said, "chat after a link word is still chat"


def test_a_word_tying_a_mistyped_order_keeps_it_an_error_with_did_you_mean(tmp_path):
    referee = game_at(tmp_path, "saga")
    row = reply(referee, "g", "ann", "Hi,\nand then moev reserve Kent", START)
    said = flat(answer_to(referee, row))
    assert "line 2:" in said and "did you mean MOVE" in said, said
    assert "Remarks" not in said


@pytest.mark.parametrize("ruleset,line,understood,remark", [
    ("auguste", "red: move BUK BUV - wish me luck!", "BUK", "wish me luck!"),
    ("attila", "play goths pannonia (hope the Huns are asleep)", "pannonia",
     "(hope the Huns are asleep)"),
    ("saga", "move reserve Kent, if there's any room left.", "Kent",
     "if there's any room left."),
    ("seigneurs", "Sorry Bob: offer bob give wood 2 take metal 1", "metal 1", "Sorry Bob"),
    ("seigneurs", "Sorry Bob, nothing personal: offer bob give wood 2 take metal 1",
     "metal 1", "Sorry Bob, nothing personal"),
    ("diplomacy", "Sorry Bob, nothing personal: F LON - NTH", "F LON - NTH",
     "Sorry Bob, nothing personal"),
    ("seigneurs", "Offering a trade. offer bob give wood 2 take metal 1", "metal 1",
     "Offering a trade."),
])
def test_an_order_and_chat_on_one_line_lose_no_order(tmp_path, ruleset, line, understood,
                                                     remark):
    referee = game_at(tmp_path, ruleset)
    seat = sorted(TABLES[ruleset][3])[0]
    extra = "\nplay huns dacia" if ruleset == "attila" else ""
    row = reply(referee, "g", seat, line + extra, START)
    said = flat(answer_to(referee, row))
    assert row["reason"] == "orders recorded; 1 remark set aside", said
    assert understood in said.split("Your orders as I understood them:")[1], said
    assert f"line 1: {remark}" in said


def test_a_line_that_corrects_itself_is_an_error_not_its_first_order(tmp_path):
    """'F LON - NTH? no, F LON H' took the move and set the hold aside as a remark."""
    referee = game_at(tmp_path, "diplomacy")
    row = reply(referee, "g", "ann", "F LON - NTH? no, F LON H\nA LVP - YOR", START)
    said = flat(answer_to(referee, row))
    assert "line 1: this line holds two orders, one in its chat" in said, said
    assert "F LON - NTH" not in said.split("could not be accepted")[0]
    row = reply(referee, "g", "ann", "F LON - NTH? Yes, F LON - NTH\nA LVP - YOR", START)
    assert "F LON - NTH" in flat(answer_to(referee, row)).split("Remarks")[0]
    assert row["reason"] == "orders recorded; 1 remark set aside"


@pytest.mark.parametrize("ruleset,line,understood", [
    ("seigneurs", "Hi all, offer bob give wood 2 take metal 1", "you offer bob wood 2"),
    ("saga", "Bonjour ! move reserve Kent", "reserve moves"),
    ("diplomacy", "Hello Bob - F LON - NTH", "F LON - NTH"),
])
def test_an_order_on_the_greeting_line_is_an_order(tmp_path, ruleset, line, understood):
    """'Bonjour ! village D5 D6' was ignored as a greeting: no orders found."""
    referee = game_at(tmp_path, ruleset)
    seat = sorted(TABLES[ruleset][3])[0]
    row = reply(referee, "g", seat, line, START)
    said = flat(answer_to(referee, row))
    assert row["reason"].startswith("orders recorded"), said
    assert understood in said


@pytest.mark.parametrize("line", ["Je passe.", "I'll pass", "Passing this round.",
                                  "Done trading. pass", "pass please", "passer svp"])
def test_a_pass_as_people_write_it_is_a_pass(tmp_path, line):
    referee = game_at(tmp_path, "seigneurs")
    row = reply(referee, "g", "bob", line, START)
    said = flat(answer_to(referee, row))
    assert row["reason"].startswith("orders recorded"), said
    assert "you pass" in said


def test_a_line_of_chat_with_an_order_word_after_a_sentence_stays_chat(tmp_path):
    referee = game_at(tmp_path, "seigneurs")
    row = reply(referee, "g", "bob", "Sounds fair. Peace it is.\npass", START)
    said = flat(answer_to(referee, row))
    assert row["reason"] == "orders recorded; 1 remark set aside", said
    assert "line 1: Sounds fair. Peace it is." in said


def test_losses_written_after_je_are_the_losses_chosen(tmp_path):
    """'Aïe. Je perds 2 guerriers et 1 levée.' was set aside as a remark: the loser's
    choice of losses was lost."""
    referee, now = saga_battle(tmp_path)
    reply(referee, "wessex", "ann", "result won points 14", now)
    reply(referee, "wessex", "bob", "résultat perdu points 9", now)
    now = later(now, 0.1)
    referee.tick(now, send=False)
    game = referee.table("wessex").state["game"]
    with speaking("fr"):
        [asked] = [c for c in choices.choices(game, "bob", "aftermath", saga_orders.reads)
                   if c["orders"][0].startswith("perdre")]
    written = "Aïe. Je perds " + asked["orders"][0].split(" ", 1)[1].replace(" 1 ", " et 1 ")
    row = reply(referee, "wessex", "bob", written, now)
    said = flat(answer_to(referee, row))
    assert row["reason"].startswith("orders recorded"), said
    assert "vous perdez" in said
    words = written.replace(" 1 ", " une ").replace("perds 1 ", "perds un ")
    row = reply(referee, "wessex", "bob", words, now)
    assert "vous perdez" in flat(answer_to(referee, row)), words


@pytest.mark.parametrize("ruleset,line,understood,remark", [
    ("seigneurs", "offer bob give wood 2 take metal 1 - your move, Bob", "metal 1",
     "your move, Bob"),
    ("saga", "move reserve Kent - wish me luck, lads", "reserve moves", "wish me luck, lads"),
])
def test_an_order_then_a_dash_and_chat_is_the_order_and_a_remark(tmp_path, ruleset, line,
                                                                   understood, remark):
    """'card horde - enjoy, my lords' was refused whole."""
    referee = game_at(tmp_path, ruleset)
    seat = sorted(TABLES[ruleset][3])[0]
    row = reply(referee, "g", seat, line, START)
    said = flat(answer_to(referee, row))
    assert row["reason"] == "orders recorded; 1 remark set aside", said
    assert understood in said.split("Your orders as I understood them:")[1], said
    assert f"line 1: {remark}" in said


@pytest.mark.parametrize("line", ["A LVP S F EDI - Nxx Syy", "A LVP S F EDI - Nxx",
                                  "A LVP S F LON - Nxx Syy"])
def test_a_dash_that_moves_a_unit_is_never_taken_for_chat(tmp_path, line):
    """In Diplomacy the dash is the move sign: a support to a mistyped place stays an
    error, never a support to hold with a remark."""
    referee = game_at(tmp_path, "diplomacy")
    row = reply(referee, "g", "ann", f"F LON - NTH\n{line}", START)
    said = flat(answer_to(referee, row))
    assert "line 2:" in said.split("could not be accepted")[1], said
    assert "Remarks" not in said and " S F " not in said.split("could not")[0], said
