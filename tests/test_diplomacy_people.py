"""Diplomacy as a club plays it, from the player's side: real mails in, real mails out.

Each test plays one point met when a club of seven played three years by mail
(tests/corpus/diplomacy-club.toml plays its first year): a retreat written verb
first, chat after a comma, a cheer that names a province, two orders on one
line and a self-correction, and what no player reads of another's orders before the phase
resolves, and chat after an order with no mark between them.
"""

from pbem.app import SeatSpec
from pbem.timeutil import later

from conftest import START, make_referee
from players import answered, outbox, flat

BALKANS = {"phase": "spring 1902 movement", "powers": {"austria": "fay", "turkey": "gus"},
           "units": {"austria": ["A SER", "F GRE", "A VIE"], "turkey": ["A BUL", "F BLA"]},
           "centres": {"austria": ["VIE", "BUD", "TRI", "SER", "GRE"],
                       "turkey": ["ANK", "CON", "SMY", "BUL"]}}


def club(tmp_path, position=BALKANS):
    """fay (French, Austria) and gus (English, Turkey) at a position."""
    referee = make_referee(tmp_path)
    referee.new_game("diplomacy", "d", [SeatSpec("fay", "fay@players.example", lang="fr"),
                                        SeatSpec("gus", "gus@players.example")],
                     START, {}, seed="club", position=position)
    return referee


def game(referee) -> dict:
    return referee.table("d").state["game"]


def test_a_retreat_written_verb_first_with_a_sigh_after_it_is_taken(tmp_path):
    referee = club(tmp_path)
    answered(referee, "d", "fay", "A Ser - Bul\nF Gre S A Ser - Bul", START)
    answered(referee, "d", "gus", "A Bul H\nF Bla H", START)
    referee.tick(later(START, 0.05), send=False)
    assert game(referee)["position"]["phase"] == "retreat"
    row, said = answered(referee, "d", "gus", "Ouch, Fay. Noted.\nretreat A Bul - Con, sigh",
                         later(START, 0.1))
    assert "A BUL - CON" in said and "line 2: sigh" in said, said
    assert "no province" not in said and row["reason"] == "orders recorded; 2 remarks set aside"
    referee.tick(later(START, 0.2), send=False)
    assert game(referee)["position"]["units"]["CON"]["power"] == "turkey"


def test_a_dislodged_unit_disbanded_verb_first_in_french_is_disbanded(tmp_path):
    referee = club(tmp_path, {**BALKANS, "powers": {"austria": "gus", "turkey": "fay"}})
    answered(referee, "d", "gus", "A Ser - Bul\nF Gre S A Ser - Bul", START)
    _row, said = answered(referee, "d", "fay", "dissoudre A Bul", START)
    assert "ligne 1 : les retraites et les dissolutions s'écrivent quand une unité est " \
           "délogée ; écrivez maintenant par exemple" in said, said
    answered(referee, "d", "fay", "A Bul tient", START)
    referee.tick(later(START, 0.05), send=False)
    _row, said = answered(referee, "d", "fay", "dissoudre A Bulgarie, tant pis",
                          later(START, 0.1))
    assert "A BUL DISSOUS" in said and "ligne 1 : tant pis" in said, said
    referee.tick(later(START, 0.2), send=False)
    units = game(referee)["position"]["units"]
    assert "CON" not in units and units["BUL"]["power"] == "austria"


def test_a_cheer_naming_a_province_holds_no_winter_up(tmp_path):
    referee = club(tmp_path, {**BALKANS, "phase": "winter 1902 adjustment",
                              "units": {"austria": ["A BUL"], "turkey": ["F BLA"]}})
    row, said = answered(referee, "d", "gus", "Norway back!\nBuild A Con", START)
    assert row["reason"] == "orders recorded; 1 remark set aside", said
    assert "line 1: Norway back!" in said and "could not be accepted" not in said


def test_a_line_that_talks_about_an_order_gives_none(tmp_path):
    referee = club(tmp_path)
    _row, said = answered(referee, "d", "gus", "A Bul - Ser is tempting Fay, but no.\n"
                          "A Bul H", START)
    assert "line 1: A Bul - Ser is tempting Fay, but no." in said
    assert "A BUL - SER" not in said.split("Remarks")[0] and "A BUL H" in said
    _row, said = answered(referee, "d", "fay", "A Ser - Bul serait une trahison\nA Ser T",
                          START)
    assert "ligne 1 : A Ser - Bul serait une trahison" in said and "A SER TIENT" in said


def test_a_second_order_in_chat_is_taken_and_a_self_correction_refused_with_why(tmp_path):
    referee = club(tmp_path)
    _row, said = answered(referee, "d", "gus", "Hello Fay!\nA Bul H, and F Bla - Con "
                          "of course", START)
    assert "Your orders as I understood them: A BUL H F BLA - CON" in said, said
    assert "line 2: of course" in said and "could not be accepted" not in said
    _row, said = answered(referee, "d", "gus", "Hello Fay!\nA Bul - Ser? no, A Bul H\n"
                          "F Bla - Con", START)
    assert "line 2: this line holds two orders, one in its chat: write each order on a " \
           "line of its own" in said, said


def test_no_player_reads_another_s_orders_before_the_phase_resolves(tmp_path):
    referee = club(tmp_path)
    told_gus = len(outbox(referee, seat="gus"))
    answered(referee, "d", "fay", "A Vie, A Ser et F Gre tiennent", START)
    assert len(outbox(referee, seat="gus")) == told_gus, "fay's orders reached gus"
    answered(referee, "d", "gus", "A Bul H", START)
    referee.tick(later(START, 0.05), send=False)
    report = flat(outbox(referee, seat="gus", kind="report")[-1])
    assert "A VIE H" in report and "A SER H" in report and "F GRE H" in report


def test_an_order_asked_then_taken_back_is_talk_and_holds_nothing_up(tmp_path):
    referee = club(tmp_path)
    row, said = answered(referee, "d", "fay", "Armée Budapest vers Galicie ? non, je n'ai "
                         "plus d'armée à Budapest...\nA Vie H\nA Ser H\nF Gre H", START)
    assert row["reason"] == "orders recorded; 1 remark set aside", said
    row, said = answered(referee, "d", "fay", "A Bud - Gal? no wait, nothing there\n"
                         "A Vie H\nA Ser H\nF Gre H", START)
    assert row["reason"] == "orders recorded; 1 remark set aside", said
    row, said = answered(referee, "d", "fay", "A Bud - Gal? sorry for the late orders\n"
                         "A Vie H\nA Ser H\nF Gre H", START)
    assert "with 1 error" in row["reason"], said  # asked, not taken back: still refused
    assert "ligne 1 : Budapest (BUD) : il n'y a pas d'unité" in said, said  # why, not "A Bud"
    assert "ligne 1 : sorry for the late orders" in said, said


def test_thanks_or_sorry_after_an_order_with_no_mark_between_costs_no_order(tmp_path):
    referee = club(tmp_path)
    row, said = answered(referee, "d", "fay", "A Vie - Tri sorry about that\n"
                         "A Ser H merci à tous\nF Gre H", START)
    assert row["reason"] == "orders recorded; 2 remarks set aside", said
    assert "A VIE - TRI" in said and "A SER TIENT" in said, said
    assert "ligne 1 : sorry about that" in said and "ligne 2 : merci à tous" in said, said
    row, said = answered(referee, "d", "fay", "A Bud - Gal sorry for the late orders\n"
                         "A Vie H\nA Ser H\nF Gre H", START)
    assert "with 1 error" in row["reason"], said
    assert "ligne 1 : Budapest (BUD) : il n'y a pas d'unité" in said, said
    assert "ligne 1 : sorry for the late orders" in said, said


NAMED = {"phase": "spring 1902 movement", "powers": {"italy": "ion", "france": "mar"},
         "units": {"italy": ["F ION", "A VEN"], "france": ["A MAR", "A PAR", "F BRE"]},
         "centres": {"italy": ["ROM", "NAP", "VEN", "TUN"],
                     "france": ["PAR", "MAR", "BRE", "SPA"]}}


def test_an_order_that_reads_as_the_players_name_is_an_order_not_a_signature(tmp_path):
    """A player called Ion wrote F ION H and got "I found no orders in your mail"; his
    earlier F ION - TUN stayed on file. The same with names such as Mar or Par."""
    referee = make_referee(tmp_path)
    referee.new_game("diplomacy", "d", [SeatSpec("ion", "ion@players.example"),
                                        SeatSpec("mar", "mar@players.example", lang="fr")],
                     START, {}, seed="named", position=NAMED)
    answered(referee, "d", "ion", "F Ion - Tun\nA Ven H", START, sender="Ion <ion@players.example>")
    row, said = answered(referee, "d", "ion", "Hi,\nA Ven H\nF ION H", later(START, 0.1),
                         sender="Ion <ion@players.example>")
    assert row["reason"] == "orders recorded", said
    assert "F ION H" in said and "Line by line: 1 line set aside; 2-3 orders." in said, said
    assert referee.current_submission("d", "ion", 1)["text"].split("\n")[-1] == "F ION H"
    row, said = answered(referee, "d", "mar", "A Par H\nF Bre H\nA MAR H\nMar",
                         later(START, 0.1), sender="Mar <mar@players.example>")
    assert "A MAR H" in said and "Ligne par ligne : 1-3 ordres ; 4 mise de côté." in said
    assert referee.tick(later(START, 0.2), send=False).phases == {"d": 1}
    units = game(referee)["position"]["units"]
    assert units["ION"]["power"] == "italy" and "TUN" not in units


def test_a_reminder_agrees_with_the_orders_on_file(tmp_path):
    """A reminder listed A KIE - HOL as on file, then said "If you send nothing by the
    deadline: ... A KIE H (no order: it holds)"; the move was executed."""
    referee = make_referee(tmp_path)
    referee.new_game("diplomacy", "d", [SeatSpec("ann", "ann@players.example"),
                                        SeatSpec("bob", "bob@players.example")],
                     START, {}, seed="remind", position={
                         "phase": "spring 1901 movement",
                         "powers": {"germany": "ann", "russia": "bob"},
                         "units": {"germany": ["A BER", "A MUN", "F KIE"],
                                   "russia": ["A WAR", "F SEV"]},
                         "centres": {"germany": ["BER", "MUN", "KIE"],
                                     "russia": ["MOS", "WAR", "SEV"]}})
    answered(referee, "d", "ann", "F Kie - Hol\nA Mun - Xyz", START)
    deadline = referee.table("d").state["engine"]["deadline"]
    referee.remind("d", later(deadline, -1))
    [reminder] = outbox(referee, kind="reminder", seat="ann")
    said = flat(reminder)
    assert "F KIE - HOL" in said and "F KIE H (no order: it holds)" not in said, said
    assert "If you send nothing more by the deadline, the orders on file below are used, " \
           "without their refused lines." in said
    referee.tick(later(deadline, 0.1), send=False)
    assert game(referee)["position"]["units"]["HOL"]["power"] == "germany"


def test_a_label_before_an_order_is_chat_even_when_it_reads_like_a_place(tmp_path):
    """'Change: F Bla H' was refused as 'there is no province CHANGE F BLA' ('Change'
    reads close to the English Channel), where 'My orders: F Bla H' was taken."""
    referee = club(tmp_path)
    _row, said = answered(referee, "d", "gus", "Change: F Bla H\nFinal: A Bul - Ser", START)
    assert "could not be accepted" not in said and "line 1: Change" in said and \
        "line 2: Final" in said, said
    _row, said = answered(referee, "d", "fay", "Changement : A Ser - Xyz", START)
    assert "ligne 1 : il n'y a pas de province" in said, said
