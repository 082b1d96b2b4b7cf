"""The table's commands under hostile input, from the outside.

PRESS, ABSENCE, HISTORY, DRAW and CONCEDE, and the referee's commands beside
them, tried as an attacker or a careless player would: raw mail dropped in
the inbox Maildir, then `pbem poll && pbem tick`, and the command line. Each
test looks at the answer and at what did not change.
"""

import fcntl
import json
import os
import re
import subprocess
import sys

import pytest

from pbem.app import poll_lock, tick_lock
from pbem.timeutil import later
from test_robust_mail import (DEADLINE, NOW, SEATS, Club, answers_queued,  # noqa: F401
                              club, delivered, mail, queued, reply)

SECRET = "Meet me at dawn by the river."


def text(message) -> str:
    """A sent mail's text part, its paragraphs on one line."""
    return " ".join(message.get_body(preferencelist=("plain",)).get_content().split())


def answer(club: Club, seat: str, number: int) -> str:
    """The text of pbem's one answer to a seat's mail."""
    [said] = club.answers(f"<{seat}.{number}@players.example>")
    return text(said)


def named(name: str, words: str) -> bool:
    """Does a seat's name appear in these words, as a word?"""
    return re.search(rf"\b{name}\b", words) is not None


def headers(message) -> str:
    """Every header of a sent mail, names and values."""
    return "\n".join(f"{k}: {v}" for k, v in message.items())


# ------------------------------------------------------------------ 1. anonymous press


@pytest.fixture
def masked(tmp_path, monkeypatch) -> Club:
    """A four-seat Auguste game with anonymous press, welcome mails sent."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    return Club(tmp_path, "press=anonymous")


def test_anonymous_press_names_its_sender_nowhere_a_seat_can_look(masked):
    club = masked
    club.drop(mail(club, "ann", number=1, body=f"Hello bob and cat,\nPRESS bob, cat\n{SECRET}"))
    club.cron()
    assert "Press sent to bob, cat, without your name." in answer(club, "ann", 1)
    [to_bob] = [m for m in club.to("bob@players.example") if "press" in m["Subject"]]
    club.drop(reply(club, "bob", to_bob, 2, body="Who are you? Agreed anyway."))
    club.cron()
    said = answer(club, "bob", 2)
    assert "Your answer went to the sender of that press, without your name." in said
    assert not named("ann", said) and not named("cat", said)
    [back] = [m for m in club.to("ann@players.example") if "press" in m["Subject"]]
    assert "Who are you?" in text(back) and not named("bob", text(back) + headers(back))
    for seat in ("bob", "cat"):
        for sent in club.to(f"{seat}@players.example"):
            assert not named("ann", headers(sent)), headers(sent)

    club.cron(DEADLINE)  # turn 1 is resolved: its history holds the press
    club.drop(mail(club, "bob", number=3, body="HISTORY 1"),
              mail(club, "cat", number=4, body="HISTORY 1"),
              mail(club, "ann", number=5, body="HISTORY 1"))
    club.cron(DEADLINE)
    for seat, number, line in (
            ("bob", 3, f"Anonymous press to bob: {SECRET}"),
            ("cat", 4, f"Anonymous press to cat: {SECRET}"),
            ("ann", 5, f"Anonymous press to bob, cat: {SECRET}")):
        assert line in answer(club, seat, number)
    assert "Your anonymous answer to an anonymous press: Who are you? Agreed anyway." \
        in answer(club, "bob", 3)
    assert "Anonymous press to ann: Who are you?" in answer(club, "ann", 5)

    for seat in ("ann", "bob", "cat"):
        seen = [e for e in json.loads(club.pbem("log", "rome", "--seat", seat, "--json"))
                if e["type"] == "press"]
        assert seen and all(e["visible_to"] == [seat] for e in seen)
        assert all(e["payload"].get("from", seat) == seat for e in seen)
        received = {e["seq"] for e in seen if "from" not in e["payload"]}
        lines = [line for line in club.pbem("log", "rome", "--seat", seat).splitlines()
                 if " press " in line and int(line.split()[0]) in received]
        assert len(lines) == len(received) > 0
        for shown in lines:
            assert not any(named(other, shown) for other in SEATS if other != seat), shown
        assert SECRET not in club.pbem("show", "rome", "--seat", seat)
    [answered] = [e for e in json.loads(club.pbem("log", "rome", "--seat", "bob", "--json"))
                  if e["type"] == "press" and e["payload"].get("from") == "bob"]
    assert answered["payload"]["to"] == []
    everything = [e for e in json.loads(club.pbem("log", "rome", "--referee", "--json"))
                  if e["type"] == "press"]
    assert [(e["payload"]["from"], e["payload"]["to"]) for e in everything] == \
        [("ann", ["bob", "cat"]), ("bob", ["ann"])]
    assert "verified: the log is exactly what the rules give" in \
        club.pbem("replay", "rome", "--verify")


# ------------------------------------------------------------------ 3. orders for an undone phase


def bot(club: Club, seat: str) -> str:
    """Orders the seat may give in the open turn."""
    return club.orders(seat).strip()


def test_a_reply_to_a_mail_of_an_undone_phase_is_answered_as_a_closed_turn(club):
    welcome = next(m for m in club.to("ann@players.example") if "begins" in m["Subject"])
    club.cron(DEADLINE)  # turn 1 resolved with default orders; turn 2 opens
    report = [m for m in club.to("ann@players.example") if m["In-Reply-To"] is None][-1]
    turn_two = bot(club, "ann")
    club.pbem("rollback", "rome", "--to-phase", "1", "--reason", "a lost mail", "--now", DEADLINE)
    club.pbem("tick", "--now", DEADLINE)
    assert club.store.game("rome")["phase"] == 1
    reopened = [m for m in club.to("ann@players.example") if m["In-Reply-To"] is None][-1]
    assert reopened["Message-ID"] != report["Message-ID"]
    turn_one = bot(club, "ann")
    before = club.submissions("ann")

    club.drop(reply(club, "ann", report, 1, turn_two),     # answers the undone turn 2
              reply(club, "ann", welcome, 2, turn_one),    # answers turn 1 before it was undone
              reply(club, "ann", report, 3, "WAIT\nDRAW"))  # commands for the undone turn
    club.cron(later(DEADLINE, 1 / 60))
    rows = club.inbox()[-3:]
    assert [(r["status"], r["reason"]) for r in rows] == [
        ("rejected", "answers phase 2, which a rollback undid"),
        ("rejected", "answers phase 1, which a rollback undid"),
        ("done", "answers phase 2, which a rollback undid; commands draw")]
    assert club.submissions("ann") == before
    state = club.store.snapshot("rome")["state"]["engine"]
    assert club.store.seat("rome", "ann")["wait_phase"] == 0, "WAIT was for the undone turn"
    assert state["draw"]["votes"] == ["ann"], "a vote is tied to no turn: it counts"
    said = answer(club, "ann", 1)
    assert "The referee took the game back to turn 1: your mail answers my mail “Turn 2: " \
        "your orders by" in said
    assert "of a turn that was undone, so the orders in it were not used." in said
    assert "Now turn 1 asks you: Orders for turn 1. What you may send is below" in said
    said = answer(club, "ann", 3)
    assert "WAIT in it answered that turn too, so it was not used" in said
    assert "Your vote for a draw is counted." in said

    club.drop(reply(club, "ann", reopened, 4, turn_one))  # the reopened turn's mail counts
    club.cron(later(DEADLINE, 1 / 60))
    assert (club.inbox()[-1]["status"], club.inbox()[-1]["reason"]) == ("done", "orders recorded")
    assert [(s["phase"], s["status"]) for s in club.submissions("ann")][-1] == (1, "current")


# ------------------------------------------------------------------ 2. odd dates and numbers

LEAP = "2028-02-29T13:00:00Z"  # a game that starts on a 29 February
AFTER_LEAP = "2028-03-01T10:00:00Z"


@pytest.mark.parametrize("body,said", [
    ("ABSENCE 9999-12-31", "Line 1: 9999-12-31 is more than a year from today, so your absence "
                           "was not recorded. Declare an absence at most a year ahead."),
    ("ABSENCE 31/12/9999", "Line 1: 31/12/9999 is more than a year from today"),
    ("Hello!\nABSENCE 9999-12-01 9999-12-10", "Line 2: 9999-12-01 is more than a year from today"),
    ("ABSENCE 29/02", "Line 1: 29/02 is more than a year from today"),
    ("ABSENCE 0001-01-01", "Line 1: 0001-01-01 is more than a year ago, so your absence was "
                           "not recorded."),
    ("ABSENCE 2028-03-05 9999-12-31", "Line 1: an absence of 2911649 days is longer than a "
                                      "year, so it was not recorded"),
    ("ABSENCE 2028-03-05 " + "9" * 40 + "/12", "I could not read the dates of your absence"),
    ("HISTORY 2", "There is no report of turn 2 yet: the turns resolved so far are - (0: the setup)."),
    ("HISTORY " + "7" * 5000, "There is no report of turn 77777777777… yet"),
    ("HISTORY ²", "Line 1: I read no turn number in \"²\", so here is the list of turns."),
    ("HISTORY ³", "Line 1: I read no turn number in \"³\", so here is the list of turns."),
    ("HISTORY -1 or 1e3", "I read no turn number in \"-1 or 1e3\""),
])
def test_an_odd_date_or_number_gets_an_answer_and_changes_nothing(tmp_path, monkeypatch, body,
                                                                  said):
    monkeypatch.chdir(tmp_path)
    club = Club(tmp_path, start=LEAP)
    before = club.store.snapshot("rome")
    club.drop(mail(club, "ann", number=1, body=body))
    club.cron(AFTER_LEAP)
    [row] = club.inbox()
    assert row["status"] == "done", row["reason"]
    [reply_mail] = club.answers("<ann.1@players.example>")
    assert said in text(reply_mail)
    assert club.store.snapshot("rome") == before
    assert club.store.one("SELECT COUNT(*) AS n FROM events")["n"] == before["seq"]


@pytest.mark.parametrize("first,last,said", [
    ("9999-12-31", "9999-12-31", "9999-12-31 is more than a year from now"),
    ("2027-01-01", "9999-12-31", "an absence of 2912078 days is longer than a year"),
    ("0001-01-01", "0001-01-02", "0001-01-02 is more than a year ago"),
    ("31/02/2027", "2027-03-01", "give the first and last days away"),
])
def test_the_referee_granting_an_absence_at_odd_dates_gets_one_line(club, first, last, said):
    before = club.store.snapshot("rome")
    out = club.pbem("absence", "rome", "ann", "--from", first, "--to", last, "--now", NOW, code=1)
    assert out.count("\n") == 1 and said in out
    assert club.store.snapshot("rome") == before


BIG = "9" * 30


@pytest.mark.parametrize("args,code,said", [
    (["outbox", "--retry", BIG], 1, f"the outbox has no mail {BIG}"),
    (["inbox", "--release", BIG], 1, f"the inbox has no mail {BIG}"),
    (["tick", "--now", "9999-12-31T23:59:59Z"], 2, "is not between 1970-01-01T00:00:00Z and "
                                                   "9000-01-01T00:00:00Z"),
    (["poll", "--now", "0001-01-01T00:00:00Z"], 2, "is not between"),
    (["rollback", "rome", "--to-phase", BIG, "--reason", "x", "--now", NOW], 1,
     f"game rome has no phase {BIG}"),
    (["replay", "rome", "--to", BIG], 2, "the log of rome ends at event"),
    (["log", "rome", "--seat", "an"], 1, "game rome has no seat called 'an'; did you mean"),
    (["show", "rome", "--seat", BIG], 1, "(its seats: ann, bob, cat, dan)"),
])
def test_a_number_or_moment_out_of_range_on_the_command_line_gets_one_line(club, args, code,
                                                                           said):
    before = club.store.snapshot("rome"), club.store.all("SELECT id, status FROM outbox")
    out = club.pbem(*args, code=code)
    assert said in out and "Traceback" not in out
    assert (club.store.snapshot("rome"), club.store.all("SELECT id, status FROM outbox")) == before


# ------------------------------------------------------------------ 4. one tick per file


def run(club: Club, *args: str) -> tuple[int, str]:
    """pbem in a process of its own (SQLite refuses one process two names of one file):
    its exit code and what it wrote."""
    done = subprocess.run([sys.executable, "-m", "pbem", *args], cwd=club.folder,
                          capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout + done.stderr


def test_a_hard_link_to_the_database_shares_its_tick_and_poll_locks(club):
    (club.folder / "elsewhere").mkdir()
    link = club.folder / "elsewhere" / "hard.db"
    os.link(club.folder / "pbem.db", link)
    with tick_lock(str(link)):
        code, out = run(club, "tick", "--now", NOW)
        assert code == 75 and out.count("\n") == 1 and \
            "another pbem tick is running on this database" in out
        assert run(club, "poll", "--now", NOW)[0] == 0  # a poll is another job
        with poll_lock(str(club.folder / "pbem.db")):
            code, out = run(club, "poll", "--db", str(link), "--now", NOW)
            assert code == 75 and "another pbem poll is running" in out
    code, out = run(club, "tick", "-v", "--db", str(link), "--now", NOW)
    assert code == 0 and "mails sent" in out


def test_two_ticks_through_two_hard_links_at_once_deliver_every_mail_once(club):
    for number in range(60):
        club.drop(mail(club, SEATS[number % 4], number=number, body="STATUS"))
    club.pbem("poll", "--now", NOW)
    os.link(club.folder / "pbem.db", club.folder / "hard.db")
    ticks = [subprocess.Popen([sys.executable, "-m", "pbem", "tick", "--now", NOW, "--db", db],
                              cwd=club.folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for db in ("pbem.db", "hard.db")]
    outcomes = [(t.wait(timeout=120), t.stderr.read().decode()) for t in ticks]
    for code, err in outcomes:
        assert code == 0 or "another pbem tick is running" in err, err
    club.pbem("tick", "--now", NOW)
    assert sorted(delivered(club.folder)) == sorted(queued(club.folder))


def test_without_byte_locks_a_lock_file_beside_the_real_file_still_serves(club, monkeypatch):
    monkeypatch.delattr(fcntl, "F_OFD_SETLK")
    link = club.folder / "link.db"
    link.symlink_to(club.folder / "pbem.db")
    with tick_lock(str(link)):
        assert "another pbem tick is running" in club.pbem("tick", "--now", NOW, code=75)
    assert (club.folder / "pbem.db.tick-lock").exists()
    assert "mails sent" in club.pbem("tick", "-v", "--now", NOW)


# ------------------------------------------------------------------ 5. killed sends


KILLED_WHILE_WRITING = """
import os, signal, sys
real, count = os.fsync, [0]
def fsync(handle):
    count[0] += 1
    if count[0] == int(sys.argv[1]):
        os.kill(os.getpid(), signal.SIGKILL)  # a mail written to tmp/, not yet synced
    return real(handle)
os.fsync = fsync
from pbem.cli import main
main(["tick", "--now", sys.argv[2]], standalone_mode=False)
"""


def test_a_send_killed_while_writing_leaves_nothing_behind_after_the_next_run(club):
    answers_queued(club)
    tmp = club.folder / "mail" / "outbox" / "tmp"
    left = []
    for after in (5, 1, 17, 3, 40, 2):
        done = subprocess.run([sys.executable, "-c", KILLED_WHILE_WRITING, str(after), NOW],
                              cwd=club.folder, capture_output=True, timeout=120)
        assert done.returncode == -9, done.stderr.decode()
        left.append(len(os.listdir(tmp)))
    assert left == [5, 1, 17, 3, 40, 2]  # each run removed what the last one left
    club.pbem("tick", "--now", NOW)
    assert os.listdir(tmp) == []
    assert club.store.one("SELECT COUNT(*) AS n FROM outbox WHERE status != 'sent'")["n"] == 0
    assert sorted(delivered(club.folder)) == sorted(queued(club.folder))


# ------------------------------------------------------------------ 6. press size


def press_mails(club: Club) -> list:
    """The press mails pbem sent to the seats."""
    return [m for m in club.sent() if m["Subject"].endswith(("press from ann", "anonymous press"))]


def test_press_over_the_size_cap_is_not_sent_and_its_writer_told_why(club):
    long = "\n".join(f"Line {n} of a very long letter to everybody, padded." for n in range(500))
    assert 20_000 < len(long.encode()) < 40_000
    club.drop(mail(club, "ann", number=1, body=f"Hi all\nPRESS ALL\n{long}"))
    club.cron()
    said = answer(club, "ann", 1)
    assert f"Your press is {len(long.encode()):,} bytes long, over the limit of 20,000 bytes, " \
        "so it was not sent: shorten it." in said
    assert press_mails(club) == []
    assert club.store.all("SELECT seq FROM events WHERE type = 'press'") == []


def test_one_seats_press_an_hour_is_bounded_in_bytes(club):
    letter = "x" * 16_000 + "\nAnn"  # 16,004 bytes, to three seats: 48,012 an hour
    for number in range(1, 6):
        club.drop(mail(club, "ann", number=number, body=f"PRESS ALL\n{letter}"))
    club.cron()
    assert len(press_mails(club)) == 4 * 3
    assert "Your press of the last hour comes to 192,048 bytes and this one would take it " \
        "past the limit of 200,000 bytes an hour (each recipient counts), so it was not sent: " \
        "send it later." in answer(club, "ann", 5)
    club.drop(mail(club, "bob", number=6, body="PRESS ann\nShorter, and from another seat."),
              mail(club, "ann", number=7, body=f"PRESS ALL\n{letter}"))
    club.cron(later(NOW, 1.01))  # an hour on, ann may write again
    assert "Press sent to ann." in answer(club, "bob", 6)
    assert "Press sent to bob, cat, dan." in answer(club, "ann", 7)


# ------------------------------------------------------------------ 7. one address


TWO = "x@a.example,eve@evil.example"


@pytest.mark.parametrize("args", [
    ["observe", "rome", TWO],
    ["observe", "rome", "x@a.example;eve@evil.example"],
    ["observe", "rome", '"x,eve"@evil.example'],
    ["observe", "rome", "<x@a.example>"],
    ["seat", "rome", "ann", "--email", TWO],
    ["seat", "rome", "ann", "--replace", TWO],
    ["seat", "rome", "ann", "--email", "ann@players.example\neve@evil.example"],
    ["new", "auguste", "--id", "naples", "--seat", f"ann={TWO}", "--seat", "bob=b@b.example"],
])
def test_an_address_that_is_not_exactly_one_is_refused_everywhere(club, args):
    before = [club.store.all(f"SELECT * FROM {t}") for t in ("seats", "observers", "outbox")]
    out = club.pbem(*args, "--now", NOW, code=1)
    assert out.count("\n") == 1 and "is not a mail address: " in out
    assert "cannot be in a mail address" in out or "more than one @" in out
    assert [club.store.all(f"SELECT * FROM {t}") for t in ("seats", "observers", "outbox")] \
        == before
    assert club.store.game("naples") is None


def test_the_referee_robot_and_the_referee_have_one_address_each(club):
    settings = club.folder / "pbem.toml"
    settings.write_text(re.sub(r'(?m)^referee = .*$', f'referee = "{TWO}"',
                               settings.read_text()))
    out = club.pbem("tick", "--now", NOW, code=78)  # the settings must change
    assert f"referee = '{TWO}' is not a mail address: ',' cannot be in a mail address" in out


def test_a_from_header_with_a_quoted_comma_is_never_a_seat(club):
    club.drop(mail(club, "ann", sender='Ann <"ann@players.example,x"@players.example>'))
    club.cron()
    [row] = club.inbox()
    assert (row["status"], row["seat"]) == ("quarantined", None)
    assert row["reason"].startswith("unclear sender")
    assert club.submissions("ann") == []


# ------------------------------------------------------------------ 8. the last seat, history


def test_when_every_other_seat_concedes_the_last_one_wins_and_history_still_comes(club):
    club.cron(DEADLINE)  # turn 1 resolved
    club.drop(mail(club, "bob", number=1, body="CONCEDE"),
              mail(club, "cat", number=2, body="Sorry all.\nCONCEDE"))
    club.cron(DEADLINE)
    assert not club.store.snapshot("rome")["state"]["engine"]["over"]
    club.drop(mail(club, "dan", number=3, body="ABANDON"))
    club.cron(DEADLINE)
    eng = club.store.snapshot("rome")["state"]["engine"]
    assert eng["over"] and eng["result"]["winners"] == ["ann"]
    assert "You conceded: ann is the only seat still playing and wins, so the game is over." \
        in answer(club, "dan", 3)
    for seat in SEATS:
        [over] = [m for m in club.to(f"{seat}@players.example") if "over" in m["Subject"]]
        assert "ann won (every other seat conceded or is out)" in text(over)
    assert "ann is the only seat still playing, every other has conceded or is out: ann wins " \
        "the game." in club.pbem("log", "rome")
    assert "over: ann won" in club.pbem("list")
    assert "verified" in club.pbem("replay", "rome", "--verify")

    club.drop(mail(club, "ann", number=4, body="Thanks all!\nHISTORY 1"),
              mail(club, "bob", number=5, body="HISTORY"),
              mail(club, "cat", number=6, body=bot_free_orders()),
              mail(club, "dan", number=7, body="HISTORY 9"))
    club.cron(later(DEADLINE, 1))
    assert [(r["status"], r["reason"]) for r in club.inbox()[-4:]] == [
        ("done", "game over; commands history"), ("done", "game over; commands history"),
        ("done", "game over"), ("done", "game over; commands history")]
    [report] = club.answers("<ann.4@players.example>")
    assert report["Subject"].endswith("your report for turn 1")
    [phases] = club.answers("<bob.5@players.example>")
    assert "Turn 1, opened" in text(phases)
    assert "This game is over; your mail changed nothing." in answer(club, "cat", 6)
    assert "There is no report of turn 9 yet: the turns resolved so far are 1 (0: the setup)." in \
        answer(club, "dan", 7)


def bot_free_orders() -> str:
    """Orders a player might still send to a game that ended."""
    return "green: move JUB CEZ"


def test_a_draw_voted_by_the_only_seat_still_playing_is_its_win(club):
    from pbem.adjudicator.contract import public
    from pbem.app import Referee
    from pbem.config import load
    referee = Referee(club.store, load(str(club.folder / "pbem.toml")))
    with referee.store.transaction():  # concessions recorded before a lone seat's win was a rule
        referee.record(referee.table("rome"), [public("seat_conceded", seat=s)
                                               for s in ("bob", "cat", "dan")], NOW)
    club.drop(mail(club, "ann", number=1, body="DRAW"))
    club.cron()
    assert "You are the only seat still playing, so you win: the game is over." in \
        answer(club, "ann", 1)
    result = club.store.snapshot("rome")["state"]["engine"]["result"]
    assert result["winners"] == ["ann"] and "draw" not in result
    assert "verified" in club.pbem("replay", "rome", "--verify")
