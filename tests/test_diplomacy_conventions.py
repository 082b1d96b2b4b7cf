"""The judges' conventions, by mail, in English and in French.

fay plays Austria in French, gus Turkey in English, as the club of
tests/test_diplomacy_people.py does: each test is one convention a Diplomacy
player expects of a judge, met through real mails in and out.
"""

from pbem.app import SeatSpec
from pbem.timeutil import later

from conftest import START, make_referee
from players import answered, flat, outbox, text_of

BALKANS = {"phase": "spring 1902 movement", "powers": {"austria": "fay", "turkey": "gus"},
           "units": {"austria": ["A SER", "F GRE", "A VIE"], "turkey": ["A BUL", "F BLA"]},
           "centres": {"austria": ["VIE", "BUD", "TRI", "SER", "GRE"],
                       "turkey": ["ANK", "CON", "SMY", "BUL"]}}


def club(tmp_path, position=BALKANS, **options):
    """fay (French, Austria) and gus (English, Turkey) at a position."""
    referee = make_referee(tmp_path)
    referee.new_game("diplomacy", "d", [SeatSpec("fay", "fay@players.example", lang="fr"),
                                        SeatSpec("gus", "gus@players.example")],
                     START, options, seed="club", position=position)
    return referee


def subject(referee, seat: str, **where) -> str:
    """The subject of the seat's last mail (of a kind), after its tag."""
    return outbox(referee, seat=seat, **where)[-1]["subject"].split("] ", 1)[1]


def test_phases_are_named_as_players_name_them(tmp_path):
    referee = club(tmp_path)
    assert subject(referee, "gus").startswith("Spring 1902, movement: "), subject(referee, "gus")
    assert subject(referee, "fay").startswith("Printemps 1902, mouvements\u00a0: ")
    first = outbox(referee, seat="gus")[-1]
    answered(referee, "d", "fay", "A Ser - Bul\nF Gre S A Ser - Bul", START)
    answered(referee, "d", "gus", "A Bul H\nF Bla H", START)
    referee.tick(later(START, 0.05), send=False)
    assert subject(referee, "gus", kind="report").startswith("Spring 1902, retreats: ")
    assert "Spring 1902, movement, Turkey (gus): F BLA H; A BUL H (dislodged)" in \
        flat(outbox(referee, seat="gus", kind="report")[-1])

    _row, said = answered(referee, "d", "gus", "A Bul - Con", later(START, 0.1),
                          answering=first)
    assert "Spring 1902, movement is over" in said and "Now Spring 1902, retreats asks " \
        "you" in said, said
    answered(referee, "d", "gus", "HISTORY", later(START, 0.1))
    listed = flat(outbox(referee, seat="gus", kind="history")[-1])
    assert "Spring 1902, movement, opened" in listed and "Spring 1902, retreats, opened" in \
        listed and "(HISTORY S1902M)" in listed, listed
    answered(referee, "d", "gus", "HISTORY S1902M", later(START, 0.1))
    assert subject(referee, "gus", kind="history").startswith(
        "Spring 1902, retreats: your report for Spring 1902, movement")
    answered(referee, "d", "fay", "HISTORIQUE printemps 1902 mouvements", later(START, 0.1))
    assert "votre compte rendu (Printemps 1902, mouvements)" in \
        subject(referee, "fay", kind="history")
    answered(referee, "d", "fay", "HISTORIQUE P1902R", later(START, 0.1))
    assert "Il n'y a pas encore de compte rendu de l'étape « Printemps 1902, " \
        "retraites »" in flat(outbox(referee, seat="fay")[-1])
    answered(referee, "d", "fay", "HISTORIQUE A1902R", later(START, 0.1))
    assert "je ne connais aucune étape appelée « A1902R »" in \
        flat(outbox(referee, seat="fay")[-1])
    answered(referee, "d", "gus", "HELP", later(START, 0.1))
    assert "HISTORY S1902R: your report of Spring 1902, retreats." in \
        flat(outbox(referee, seat="gus", kind="help")[-1])


def test_orders_pasted_from_other_engines_and_phones_are_read_as_written(tmp_path):
    referee = club(tmp_path)
    row, said = answered(referee, "d", "gus", "Hi Fay,\nThe army at Bulgaria hold.\n"
                         "The fleet at Black Sea move to Constantinople.\nCheers", START)
    assert row["reason"] == "orders recorded", said
    assert "A BUL H F BLA - CON" in said, said
    row, said = answered(referee, "d", "fay", "A Ser → Bul\nF Gre ⇒ Aeg\nA Vie -> Bud", START)
    assert "A SER - BUL F GRE - AEG A VIE - BUD" in said and row["reason"] == \
        "orders recorded", said
    row, said = answered(referee, "d", "fay", "Fleet Greece support Army Serbia move to "
                         "Bulgaria\nA Ser => Bul\nA Vie H", START)
    assert "F GRE S A SER - BUL A SER - BUL A VIE TIENT" in said, said
    referee.tick(later(START, 0.05), send=False)
    _row, said = answered(referee, "d", "gus", "disband", later(START, 0.1))
    assert "A BUL DISBAND" in said and "did you mean" not in said, said

    winter = {**BALKANS, "phase": "winter 1902 adjustment",
              "units": {"austria": ["A TRI", "A SER", "A ALB"], "turkey": ["A BUL"]},
              "centres": {"austria": ["VIE", "BUD", "TRI", "SER"], "turkey": ["ANK", "BUL"]}}
    (tmp_path / "winter").mkdir()
    referee = club(tmp_path / "winter", winter)
    _row, said = answered(referee, "d", "gus", "F ANK B", START)
    assert "BUILD F ANK" in said, said
    _row, said = answered(referee, "d", "fay", "A VIE B", START)
    assert "CONSTRUIT A VIE" in said, said


def test_a_report_says_what_a_support_did_and_keeps_the_lines_of_press(tmp_path):
    referee = club(tmp_path)
    answered(referee, "d", "gus", "PRESS fay\nDear Austria,\n\nSerbia is yours, Bulgaria "
             "mine.\nAgreed?\n\nTurkey", START)
    answered(referee, "d", "fay", "A Ser - Bul\nF Gre S A Ser - Bul\nA Vie H", START)
    answered(referee, "d", "gus", "A Bul H\nF Bla S A Bul", START)
    referee.tick(later(START, 0.05), send=False)
    told = flat(outbox(referee, seat="gus", kind="report")[-1])
    assert "Austria (fay): F GRE S A SER - BUL (given); A SER - BUL (bounced)" in told, told
    assert "Turkey (gus): F BLA S A BUL (given)" in told and "succeeded" not in told, told
    told = flat(outbox(referee, seat="fay", kind="report")[-1])
    assert "F GRE S A SER - BUL (soutien donné) ; A SER - BUL (rebond)" in told, told

    answered(referee, "d", "fay", "HISTORIQUE P1902M", later(START, 0.1))
    history = text_of(outbox(referee, seat="fay", kind="history")[-1])
    assert "- Message de gus à fay\u00a0: Dear Austria,\n\n  Serbia is yours, Bulgaria " \
        "mine.\n  Agreed?\n\n  Turkey\n" in history, history


def test_each_winter_report_has_the_table_of_supply_centres_with_the_year_s_change(tmp_path):
    referee = club(tmp_path, {**BALKANS, "phase": "fall 1902 movement"})
    answered(referee, "d", "fay", "A Ser - Bul\nF Gre S A Ser - Bul", START)
    answered(referee, "d", "gus", "A Bul H\nF Bla - Rum", START)
    referee.tick(later(START, 0.05), send=False)
    answered(referee, "d", "gus", "disband", later(START, 0.1))
    referee.tick(later(START, 0.2), send=False)
    report = text_of(outbox(referee, seat="gus", kind="report")[-1])
    assert "Centres, and the change since last year:\n  Austria  6  +1\n  Turkey   4   =\n" \
        in report, report
    report = text_of(outbox(referee, seat="fay", kind="report")[-1])
    assert "Centres, et leur évolution depuis l'an dernier\u00a0:\n  Autriche  6  +1\n" \
        "  Turquie   4   =\n" in report, report

    (tmp_path / "quiet").mkdir()
    referee = club(tmp_path / "quiet", {**BALKANS, "phase": "fall 1902 movement"})
    referee.tick(later(START, 100), send=False)
    report = flat(outbox(referee, seat="gus", kind="report")[-1])
    assert "Supply centres after the Fall of 1902: none changed hands. Centres, and the " \
        "change since last year: Austria 5 = Turkey 4 =" in report, report


def test_press_goes_to_powers_by_name_in_either_language_or_by_code(tmp_path):
    referee = make_referee(tmp_path)
    referee.new_game("diplomacy", "d", [SeatSpec("fay", "fay@players.example", lang="fr"),
                                        SeatSpec("gus", "gus@players.example"),
                                        SeatSpec("hal", "hal@players.example")],
                     START, {"powers": "fay:austria,gus:turkey,hal:russia+england"},
                     seed="club")
    row, said = answered(referee, "d", "gus", "PRESS Austria\nHello Fay, Serbia is yours.",
                         START)
    assert "Press sent to fay." in said and row["reason"].startswith("commands press"), said
    _row, said = answered(referee, "d", "fay", "PRESSE Turquie, Russie\nMerci !", START)
    assert "Message envoyé à gus, hal." in said, said
    _row, said = answered(referee, "d", "gus", "PRESS ENG, AUS: an alliance?", START)
    assert "Press sent to fay, hal." in said, said
    told = flat(outbox(referee, seat="hal", kind="press")[-1])
    assert "an alliance?" in told and "gus sent this message to fay, hal." in told, told

    _row, said = answered(referee, "d", "gus", "PRESS Italy\nanyone there?", START)
    assert outbox(referee, seat="gus")[-1]["subject"].endswith("no orders found") and \
        "PRESS noted" not in said and "there is no seat or team called italy" in said, said


def test_grey_press_to_a_power_names_no_sender(tmp_path):
    referee = club(tmp_path, press="anonymous")
    _row, said = answered(referee, "d", "gus", "PRESS Autriche\nWatch Russia.", START)
    assert "Press sent to fay, without your name." in said, said
    told = flat(outbox(referee, seat="fay", kind="press")[-1])
    assert "Watch Russia." in told and "gus" not in told, told


def test_grey_press_message_by_message_to_a_power(tmp_path):
    """press=either: each message names its sender unless its PRESS line says GREY (GRISE),
    in English and French."""
    referee = club(tmp_path, press="either")
    _row, said = answered(referee, "d", "gus", "PRESS GREY Austria\nWatch Russia.", START)
    assert "Press sent to fay, without your name." in said, said
    told = flat(outbox(referee, seat="fay", kind="press")[-1])
    assert "Watch Russia." in told and "gus" not in told, told
    _row, said = answered(referee, "d", "fay", "PRESSE GRISE Turquie\nLa Russie ment.", START)
    assert "Message envoyé à gus, sans votre nom." in said, said
    told = flat(outbox(referee, seat="gus", kind="press")[-1])
    assert "La Russie ment." in told and "fay" not in told, told
    answered(referee, "d", "gus", "PRESS Austria\nIt was me.", START)
    assert "gus a envoyé ce message à fay" in flat(outbox(referee, seat="fay", kind="press")[-1])


def test_a_mail_replaces_the_orders_of_the_units_it_names_and_clear_withdraws_all(tmp_path):
    referee = club(tmp_path)
    answered(referee, "d", "gus", "A Bul - Ser\nF Bla - Rum", START)
    row, said = answered(referee, "d", "gus", "Change of plan:\nF Bla - Con", START)
    assert "each replaces your order on file for the same unit, and your other orders " \
        "stand" in said and "A BUL - SER F BLA - CON" in said, said
    _row, said = answered(referee, "d", "gus", "A Bul - Xyz", START)
    assert "A BUL - SER F BLA - CON" in said and "line 1: there is no province XYZ" in said
    assert "Send the corrected lines before the deadline: each replaces the order on file " \
        "for its unit." in said and "the whole set" not in said, said
    _row, said = answered(referee, "d", "gus", "CLEAR\nA Bul H", START)
    assert "CLEAR noted: your orders on file for this turn are withdrawn" in said, said
    assert "A BUL H F BLA H (no order: it holds)" in said, said
    _row, said = answered(referee, "d", "gus", "STATUS", START)
    assert "A BUL H F BLA H (no order: it holds)" in said, said

    answered(referee, "d", "fay", "A Ser - Bul\nF Gre S A Ser - Bul\nA Vie - Bud", START)
    _row, said = answered(referee, "d", "fay", "A Vie tient", START)
    assert "chacun remplace votre ordre enregistré pour la même unité" in said and \
        "A SER - BUL F GRE S A SER - BUL A VIE TIENT" in said, said
    _row, said = answered(referee, "d", "fay", "EFFACER", START)
    assert "EFFACER noté : vos ordres enregistrés pour ce tour sont retirés" in said, said
    _row, said = answered(referee, "d", "fay", "EFFACER", START)
    assert "vous n'aviez aucun ordre enregistré pour ce tour" in said, said
    assert "un nouveau message remplace les ordres des unités qu'il ordonne à nouveau" in said
    referee.tick(later(START, 100), send=False)
    told = flat(outbox(referee, seat="gus", kind="report")[-1])
    assert "Austria (fay): no orders, every unit held" in told and \
        "Turkey (gus): F BLA H (no order); A BUL H." in told, told

    (tmp_path / "winter").mkdir()
    referee = club(tmp_path / "winter", {**BALKANS, "phase": "winter 1902 adjustment",
                                         "units": {"turkey": ["A BUL", "F BLA", "A ANK"]}})
    answered(referee, "d", "gus", "BUILD A CON", START)
    _row, said = answered(referee, "d", "gus", "BUILD F SMY", START)
    assert "BUILD F SMY" in said and "BUILD A CON" not in said and "error" not in said, said


def test_deadlines_keep_the_club_s_days_and_a_grace_period_waits_for_late_orders(tmp_path):
    referee = club(tmp_path, deadlines="mon,thu 20:00", tz="Europe/Paris", grace_hours="24")
    deadline = referee.table("d").state["engine"]["deadline"]
    assert deadline == "2026-12-03T19:00:00Z"  # Thursday 20:00 in Paris, after 48 hours
    answered(referee, "d", "fay", "A Vie H", "2026-12-01T12:30:00Z")
    answered(referee, "d", "gus", "A Bul H", "2026-12-01T12:30:00Z")
    referee.tick("2026-12-01T12:31:00Z", send=False)  # resolved early: Fall, still Thursday's
    assert referee.table("d").state["engine"]["deadline"] == "2026-12-03T19:00:00Z"

    referee.tick("2026-12-03T19:04:00Z", send=False)  # nobody sent: the grace begins
    engine = referee.table("d").state["engine"]
    assert engine["deadline"] == "2026-12-04T19:00:00Z" and engine["phase"] == 2
    assert outbox(referee, seat="gus")[-1]["subject"].endswith(
        "Fall 1902, movement: grace period: your orders by Fri 19:00")
    assert "La date limite est passée sans vos ordres" in flat(outbox(referee, seat="fay")[-1])
    answered(referee, "d", "fay", "A Vie H", "2026-12-04T10:00:00Z")
    answered(referee, "d", "gus", "A Bul H", "2026-12-04T10:00:00Z")
    referee.tick("2026-12-04T10:01:00Z", send=False)  # the next counts from Thursday's
    engine = referee.table("d").state["engine"]
    assert engine["phase"] == 3 and engine["deadline"] == "2026-12-07T19:00:00Z", engine
    assert "seats_late" not in [e["type"] for e in referee.events("d", None)]
