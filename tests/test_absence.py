"""Absences: a player going away says so by mail, and no deadline of theirs falls while away.

Real RFC 822 mails, a real SQLite file; dates in the player's own time zone.
"""

from click.testing import CliRunner
import re

import pytest

from pbem.app import SeatSpec
from pbem.cli import main
from pbem.replay import replay

from conftest import START
from players import answer_to, flat, outbox, reply
from test_table import dump


def cli(referee, *args, code=0) -> str:
    result = CliRunner().invoke(main, [*args, "--db", referee.store.path],
                                catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result.output


@pytest.fixture
def paris(referee):
    """ann plays from Paris in French, bob in English from UTC; a turn is 48 hours."""
    referee.new_game("auguste", "rome", [
        SeatSpec("ann", "ann@players.example", tz="Europe/Paris", lang="fr"),
        SeatSpec("bob", "bob@players.example")], START, {}, seed="s")
    return referee


def engine(referee):
    return referee.table("rome").state["engine"]


def test_an_absence_moves_the_deadline_to_its_end_and_everyone_is_told(paris):
    referee = paris
    assert engine(referee)["deadline"] == "2026-12-03T12:00:00Z"
    row = reply(referee, "rome", "bob", "ABSENCE 2026-12-02 2026-12-04", START)
    assert (row["status"], row["reason"]) == ("done", "commands absence")
    said = flat(answer_to(referee, row))
    assert "Absence noted: from Wed 2 Dec 2026 00:00 (UTC) to Sat 5 Dec 2026 00:00 (UTC)." in said
    assert engine(referee)["deadline"] == "2026-12-05T00:00:00Z"
    [to_ann] = outbox(referee, kind="deadline", seat="ann")
    assert "bob est absent jusqu'au sam. 5 déc. 2026 01:00 (Europe/Paris), donc la date " \
           "limite de ce tour passe au sam. 5 déc. 2026 01:00 (Europe/Paris)." in flat(to_ann)
    [to_bob] = outbox(referee, kind="deadline", seat="bob")
    assert "so this turn's deadline moves to Sat 5 Dec 2026 00:00 (UTC)." in flat(to_bob)
    assert referee.tick("2026-12-03T12:00:00Z", send=False).phases == {}
    assert referee.tick("2026-12-05T00:00:00Z", send=False).phases == {"rome": 1}
    assert replay(referee.store, "rome", verify=True).ok


def test_a_phase_that_opens_later_keeps_its_deadline_out_of_the_absence(paris):
    referee = paris
    reply(referee, "rome", "ann", "vacances du 5/12/2026 au 6/12/2026", START)
    assert engine(referee)["deadline"] == "2026-12-03T12:00:00Z", "not in the absence"
    assert outbox(referee, kind="deadline") == []
    referee.tick("2026-12-03T12:00:00Z", send=False)
    assert engine(referee)["deadline"] == "2026-12-06T23:00:00Z", \
        "48 hours would end in the absence, which ends at midnight in Paris"
    assert "ann est absent du sam. 5 déc. 2026 00:00 (Europe/Paris) au lun. 7 déc. 2026 " \
        "00:00 (Europe/Paris)" in flat(outbox(referee, kind="report", seat="ann")[-1]), \
        "an absence is told in the reader's zone and language, not in UTC"
    assert replay(referee.store, "rome", verify=True).ok


def test_absences_have_a_quota_and_the_referee_may_grant_more(paris):
    referee = paris
    reply(referee, "rome", "bob", "ABSENCE 2026-12-20 2026-12-25", START)
    row = reply(referee, "rome", "bob", "ABSENCE 2027-01-01 2027-01-10", START)
    assert "This absence of 10 days is more than you have left in this game (1 absences, " \
           "8 days), so it was not recorded; the referee may grant it." in flat(
               answer_to(referee, row))
    reply(referee, "rome", "bob", "ABSENCE 2027-01-01 2027-01-02", START)
    row = reply(referee, "rome", "bob", "ABSENCE 2027-02-01", START)
    assert "(0 absences, 6 days)" in flat(answer_to(referee, row))
    assert len(engine(referee)["absences"]["bob"]) == 2
    out = cli(referee, "absence", "rome", "bob", "--from", "2027-02-01", "--to", "2027-03-01",
              "--now", START)
    assert "is away from 2027-02-01T00:00:00Z to 2027-03-02T00:00:00Z (29 days)" in out
    listed = cli(referee, "absence", "rome")
    assert "bob          2027-02-01T00:00:00Z to 2027-03-02T00:00:00Z (granted by the referee)" \
        in listed
    assert listed.count("declared by mail") == 2
    assert replay(referee.store, "rome", verify=True).ok


@pytest.mark.parametrize("body,said", [
    ("ABSENCE next week", "Line 1: I could not read the dates of your absence."),
    ("ABSENCE 2026-12-10 2026-12-05", "I could not read the dates of your absence."),
    ("ABSENCE 2026-11-01 2026-11-05", "Your absence is over already"),
])
def test_an_absence_that_cannot_be_says_why(paris, body, said):
    row = reply(paris, "rome", "bob", body, START)
    assert said in flat(answer_to(paris, row))
    assert "absences" not in engine(paris)


@pytest.mark.parametrize("seat", ["bob", "ann"])
def test_the_example_of_an_unread_absence_is_read_when_sent_back(paris, seat):
    """The error's example names days ahead of the day it is given, in the seat's way of
    writing dates, and is recorded as shown."""
    row = reply(paris, "rome", seat, "ABSENCE sometime soon", START)
    said = flat(answer_to(paris, row))
    example = re.search(r"(ABSENCE [0-9/-]+ [0-9/-]+)\.", said).group(1)
    row = reply(paris, "rome", seat, example, START)
    assert len(engine(paris)["absences"][seat]) == 1, flat(answer_to(paris, row))


def test_une_absence_en_francais(paris):
    row = reply(paris, "rome", "ann", "Bonjour\nABSENCE 20/12/2026 22/12/2026\nMerci", START)
    said = flat(answer_to(paris, row))  # flat() turns the non-breaking space before ':' to ' '
    assert "Absence notée : du dim. 20 déc. 2026 00:00 (Europe/Paris) au mer. 23 déc. 2026 " \
           "00:00 (Europe/Paris)." in said


@pytest.mark.parametrize("args,code,said", [
    (["bob", "--from", "someday", "--to", "2027-01-01"], 1, "give the first and last days"),
    (["bob", "--from", "2027-01-05", "--to", "2027-01-01"], 1, "give the first and last days"),
    (["bob", "--from", "2027-01-01", "--to", "2029-01-01"], 1, "longer than a year"),
    (["bob", "--from", "2026-01-01", "--to", "2026-01-02"], 1, "changes nothing"),
    (["zed", "--from", "2027-01-01", "--to", "2027-01-02"], 1, "no seat called 'zed'"),
    (["bob", "--from", "2027-01-01"], 2, "--from DATE --to DATE"),
    (["--from", "2027-01-01"], 2, "name the seat"),
])
def test_a_granted_absence_must_make_sense(paris, args, code, said):
    before = dump(paris)
    assert said in cli(paris, "absence", "rome", *args, "--now", START, code=code)
    assert dump(paris) == before
