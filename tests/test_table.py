"""The referee's hold on a game's clock and the seats that fall silent.

Pauses and resumptions, previews, who has sent orders, lateness and civil
disorder: on a real SQLite file, with the mails the seats get, and
`replay --verify` on every game that went through them.
"""

import email
from email import policy
import json
import sqlite3

from click.testing import CliRunner
import pytest

from pbem import inbound
from pbem.cli import main
from pbem.errors import PbemError
from pbem.replay import replay
from pbem.timeutil import later

from conftest import START, seats
from players import reply as player_reply
from test_engine_tools import duel, new_duel  # noqa: F401 (a fixture)


def mails(referee, kind=None, seat=None):
    """Outbox mails, parsed, optionally of one kind or to one seat."""
    rows = referee.store.all("SELECT * FROM outbox ORDER BY id")
    return [email.message_from_bytes(referee.store.outbox_mail(r), policy=policy.default)
            for r in rows if (kind is None or r["kind"] == kind) and (seat is None or r["seat"] == seat)]


def text_of(msg) -> str:
    return msg.get_body(preferencelist=("plain",)).get_content()


def engine(referee, game="rome"):
    return referee.table(game).state["engine"]


def cli(referee, *args, code=0) -> str:
    """Run a pbem command on the referee's database; check its exit code."""
    result = CliRunner().invoke(main, [*args, "--db", referee.store.path],
                                catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result.output


def dump(referee) -> list:
    """Every row of every table of the referee's database."""
    conn = sqlite3.connect(referee.store.path)
    try:
        tables = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return [(t, conn.execute(f"SELECT * FROM [{t}]").fetchall()) for t in tables]
    finally:
        conn.close()


# ------------------------------------------------------------------ pause and resume


def test_a_pause_stops_the_clock_and_resume_gives_back_the_time_left(auguste_game):
    referee = auguste_game
    inbound.submit(referee, "rome", "ann", "pass", START)
    referee.pause("rome", "the referee  is ill", later(START, 12))
    for seat in ("bob", "cat", "dan"):
        inbound.submit(referee, "rome", seat, "pass", later(START, 13))
    month = later(START, 24 * 30)
    report = referee.tick(month, send=False)
    assert report.phases == {} and report.reminders == 0
    eng = engine(referee)
    assert eng["deadline"] is None and eng["paused"] == {
        "reason": "the referee is ill", "left": 36 * 3600, "remind": 24 * 3600}
    told = mails(referee, "paused")
    assert sorted(str(m["To"]) for m in told) == [f"{s}@players.example"
                                                  for s in ("ann", "bob", "cat", "dan")]
    assert "The referee paused the game: the referee is ill." in text_of(told[0])
    assert "no deadline runs until the referee resumes it" in " ".join(text_of(told[0]).split())

    assert referee.resume("rome", month) == later(month, 36)
    assert engine(referee)["remind_at"] == later(month, 24)
    assert len(mails(referee, "resumed")) == 4
    assert "Deadline: " in text_of(mails(referee, "resumed")[0])
    assert referee.tick(later(month, 1), send=False).phases == {"rome": 1}
    verdict = replay(referee.store, "rome", verify=True)
    assert verdict.ok, verdict.problems


def test_a_paused_game_with_silent_seats_resolves_when_its_time_is_up(auguste_game):
    referee = auguste_game
    referee.pause("rome", "holidays", later(START, 47))
    referee.resume("rome", later(START, 100))
    assert engine(referee)["deadline"] == later(START, 101)
    assert referee.tick(later(START, 100.5), send=False).phases == {}
    assert referee.tick(later(START, 101), send=False).phases == {"rome": 1}
    assert replay(referee.store, "rome", verify=True).ok


def test_a_pause_is_told_in_each_seats_language(referee):
    from pbem.app import SeatSpec
    referee.new_game("auguste", "lyon", [SeatSpec("ann", "ann@players.example", lang="fr"),
                                          SeatSpec("bob", "bob@players.example")], START,
                     seed="s")
    referee.pause("lyon", "le club ferme", later(START, 1))
    [ann] = mails(referee, "paused", "ann")
    [bob] = mails(referee, "paused", "bob")
    assert "L'arbitre a mis la partie en pause\u00a0: le club ferme." in text_of(ann)
    assert "The referee paused the game: le club ferme." in text_of(bob)
    assert "en pause" in str(ann["Subject"])


def test_pause_and_resume_refuse_what_makes_no_sense(auguste_game):
    referee = auguste_game
    with pytest.raises(PbemError, match="say why"):
        referee.pause("rome", "  ", START)
    with pytest.raises(PbemError, match="is not paused"):
        referee.resume("rome", START)
    referee.pause("rome", "away", START)
    before = dump(referee)
    with pytest.raises(PbemError, match=r"paused already \(away\)"):
        referee.pause("rome", "again", START)
    with pytest.raises(PbemError, match="resume it first"):
        referee.extend("rome", 5, START)
    assert dump(referee) == before
    referee.end("rome", "the club closed", later(START, 1))
    assert "paused" not in engine(referee)
    with pytest.raises(PbemError, match="is over"):
        referee.pause("rome", "again", later(START, 2))
    assert replay(referee.store, "rome", verify=True).ok


def test_a_phase_waiting_for_a_ruling_pauses_and_resumes_without_a_deadline(duel):  # noqa: F811
    new_duel(duel)
    inbound.submit(duel, "d", "ann", "RESULT WON", START)
    inbound.submit(duel, "d", "bob", "RESULT WON", START)
    duel.tick(later(START, 1), send=False)
    duel.pause("d", "the referee is thinking", later(START, 2))
    assert engine(duel, "d")["paused"]["left"] is None
    duel.rule("d", "2", "photo", {"winner": "ann"}, later(START, 3))
    assert not engine(duel, "d")["over"], "a paused game resolves nothing"
    assert duel.resume("d", later(START, 4)) is None
    duel.tick(later(START, 4), send=False)
    assert engine(duel, "d")["result"]["winners"] == ["ann"]
    assert replay(duel.store, "d", verify=True).ok


def test_pause_and_resume_from_the_command_line(auguste_game):
    referee = auguste_game
    assert "--reason" in cli(referee, "pause", "rome", code=2)
    out = cli(referee, "pause", "rome", "--reason", "the club moves", "--now", later(START, 24))
    assert "game rome is paused (the open turn had 24.0 h left)" in out
    listed = cli(referee, "list")
    assert "phase 1, paused (the club moves), waiting for ann, bob, cat, dan" in listed
    before = dump(referee)
    assert "paused already" in cli(referee, "pause", "rome", "--reason", "x", code=1)
    assert dump(referee) == before
    out = cli(referee, "resume", "rome", "--now", later(START, 100))
    assert f"the deadline is now {later(START, 124)}" in out
    assert "is not paused" in cli(referee, "resume", "rome", code=1)


# ------------------------------------------------------------------ orders and preview


def test_orders_shows_who_has_sent_orders_and_only_the_referee_option_shows_them(auguste_game):
    referee = auguste_game
    inbound.submit(referee, "rome", "ann", "red: pass\nREADY", later(START, 1))
    inbound.submit(referee, "rome", "cat", "green: pass\nblue: move XXX YYY", later(START, 2))
    out = cli(referee, "orders", "rome")
    assert f"ann          orders in since {later(START, 1)} (READY)" in out
    assert f"cat          orders in since {later(START, 2)}, 1 line with errors" in out
    assert "bob          nothing yet" in out and "dan          nothing yet" in out
    assert "red: pass" not in out
    full = cli(referee, "orders", "rome", "--referee")
    assert "red: pass" in full
    shown = json.loads(cli(referee, "orders", "rome", "--json"))
    assert [(s["seat"], s["sent"]) for s in shown["seats"]] == [
        ("ann", True), ("bob", False), ("cat", True), ("dan", False)]
    assert "orders" not in shown["seats"][0]
    listed = cli(referee, "list")
    assert "waiting for bob, dan (orders in: ann, cat)" in listed
    assert json.loads(cli(referee, "list", "--json"))[0]["orders_in"] == ["ann", "cat"]


def test_preview_shows_the_turn_to_come_and_changes_nothing(auguste_game):
    referee = auguste_game
    from test_app import red_order
    text, move = red_order(referee)
    inbound.submit(referee, "rome", "ann", text, START)
    before = dump(referee)
    out = cli(referee, "preview", "rome")
    assert "if phase 1 were resolved now; default orders for bob, cat, dan:" in out
    assert f"red: a legionary moved from {move['from']} to {move['to']}" in out
    assert "Nothing was recorded" in out
    assert dump(referee) == before
    shown = json.loads(cli(referee, "preview", "rome", "--json"))
    assert shown["defaulted"] == ["bob", "cat", "dan"] and shown["result"] is None
    referee.end("rome", "done", later(START, 1))
    assert "no open phase to preview" in cli(referee, "preview", "rome", code=1)


# ------------------------------------------------------------------ lateness


def silent_turn(referee, now, *speakers, game="rome"):
    """Everyone in `speakers` passes; tick at the deadline. Returns the next deadline."""
    for seat in speakers:
        inbound.submit(referee, game, seat, "pass", now)
    referee.tick(engine(referee, game)["deadline"], send=False)
    return engine(referee, game)["deadline"]


def test_the_report_names_who_was_late(auguste_game):
    referee = auguste_game
    silent_turn(referee, START, "ann", "bob")
    report = text_of(mails(referee, "report", "ann")[-1])
    assert "No orders came from cat, dan: default orders were used." in report
    late = [e for e in referee.events("rome", None) if e["type"] == "seats_late"]
    assert [e["payload"]["late"] for e in late] == [["cat", "dan"]]


def test_silent_turns_in_a_row_put_a_seat_in_civil_disorder(auguste_game):
    referee = auguste_game
    deadline = silent_turn(referee, START, "ann", "bob", "cat")
    assert engine(referee)["disorder"] == [] and engine(referee)["silent"] == {"dan": 1}
    assert mails(referee, "disorder") == []
    deadline = silent_turn(referee, deadline, "ann", "bob", "cat")
    assert engine(referee)["disorder"] == ["dan"]
    [notice] = mails(referee, "disorder")
    assert notice["To"] == "boss@referee.example"
    assert '\n  pbem seat rome dan --replace NEW_EMAIL --name "NAME"\n' in text_of(notice)
    assert max(len(line) for line in text_of(notice).splitlines()) <= 78
    assert "dan has sent no orders for several turns in a row and is in civil disorder" in \
        " ".join(text_of(mails(referee, "report", "ann")[-1]).split())
    assert "in civil disorder, to replace: dan" in cli(referee, "list")
    silent_turn(referee, deadline, "ann", "bob", "cat")
    assert len(mails(referee, "disorder")) == 1, "the referee is told once"
    silent_turn(referee, engine(referee)["deadline"], "ann", "bob", "cat", "dan")
    assert engine(referee)["disorder"] == [] and engine(referee)["silent"] == {}
    assert replay(referee.store, "rome", verify=True).ok


def test_civil_disorder_can_be_switched_off(referee):
    referee.new_game("auguste", "calm", seats("ann", "bob"), START, {"disorder_turns": "0"},
                     seed="s")
    deadline = silent_turn(referee, START, game="calm")
    silent_turn(referee, deadline, game="calm")
    assert engine(referee, "calm")["silent"] == {"ann": 2, "bob": 2}
    assert engine(referee, "calm")["disorder"] == []
    assert replay(referee.store, "calm", verify=True).ok


def test_replay_finds_a_lateness_the_orders_do_not_give(auguste_game):
    referee = auguste_game
    silent_turn(referee, START, "ann", "bob")
    conn = sqlite3.connect(referee.store.path)
    conn.execute("DROP TRIGGER events_no_update")
    seq = conn.execute("SELECT seq FROM events WHERE type = 'seats_late'").fetchone()[0]
    conn.execute("UPDATE events SET payload = ? WHERE seq = ?",
                 ['{"answered":[],"disorder":[],"late":["ann","cat","dan"],"phase":1}', seq])
    conn.commit()
    problems = replay(referee.store, "rome", verify=True).problems
    assert any(p.startswith(f"seq {seq}: the log has seats_late") for p in problems)


# ------------------------------------------------------------------ a seat's own view


def test_show_and_log_for_a_seat_give_its_secrets_and_no_other_seats(referee):
    from test_attila_leaks import hand_line
    from pbem.games.attila.present import cards_text
    referee.new_game("attila", "huns", seats("ann", "bob", "cat"), START, seed="s")
    hands = referee.table("huns").state["game"]["hands"]
    shown = cli(referee, "show", "huns", "--seat", "ann")
    assert hand_line(hands["ann"]) in shown
    assert hand_line(hands["bob"]) not in shown and hand_line(hands["cat"]) not in shown
    assert "Your hand" not in cli(referee, "show", "huns")
    everything = cli(referee, "show", "huns", "--referee")
    assert all(hand_line(hands[s]) in everything for s in ("ann", "bob", "cat"))
    dealt = {e["payload"]["seat"]: e["payload"]["cards"]
             for e in referee.events("huns", "referee") if e["type"] == "dealt"}
    log = cli(referee, "log", "huns", "--seat", "ann")
    assert f"you were dealt {cards_text(dealt['ann'])}" in log
    assert f"you were dealt {cards_text(dealt['bob'])}" not in log
    assert "dealt" not in cli(referee, "log", "huns")


def test_a_finished_game_shows_its_result_in_words(auguste_game):
    referee = auguste_game
    referee.end("rome", "the club closed", later(START, 1))
    assert "Game over: no winner (stopped by the referee: the club closed)." in \
        cli(referee, "show", "rome")
    assert "rome         auguste  over: no winner (stopped by the referee: the club closed)" in \
        cli(referee, "list")


def test_list_names_the_winners_of_a_finished_game(duel):  # noqa: F811
    new_duel(duel)
    inbound.submit(duel, "d", "ann", "RESULT WON", START)
    inbound.submit(duel, "d", "bob", "RESULT LOST", START)
    duel.tick(later(START, 1), send=False)
    assert engine(duel, "d")["result"]["winners"] == ["ann"]
    assert "d            duel     over: ann won" in cli(duel, "list")
    assert "Game over: ann won" in cli(duel, "show", "d")


# ------------------------------------------------------------------ observers


def observer_mails(referee, address="kib@watchers.example"):
    rows = referee.store.all("SELECT * FROM outbox WHERE to_addr = ? ORDER BY id", [address])
    return [email.message_from_bytes(referee.store.outbox_mail(r), policy=policy.default)
            for r in rows]


def test_an_observer_gets_the_public_reports_and_nothing_to_reply_with(auguste_game):
    referee = auguste_game
    out = cli(referee, "observe", "rome", "Kib@Watchers.example", "--now", START)
    assert "kib@watchers.example follows game rome" in out
    [first] = observer_mails(referee)
    assert first["Subject"] == "[pbem rome] you follow this game"
    assert first["Reply-To"] is None and "#" not in first["Subject"]
    tokens = [s["token"] for s in referee.store.seats("rome")]
    silent_turn(referee, START, "ann", "bob")
    [_, report] = observer_mails(referee)
    body = text_of(report)
    assert report["Subject"] == "[pbem rome] turn report"
    assert "No orders came from cat, dan: default orders were used." in body
    assert "You command" not in body and "Reply to this mail" not in body
    assert not any(token in report.as_string() for token in tokens)
    assert "Observers: kib@watchers.example (since" in cli(referee, "show", "rome", "--referee")
    assert replay(referee.store, "rome", verify=True).ok

    cli(referee, "observe", "rome", "kib@watchers.example", "--stop")
    assert "no longer follow" in str(observer_mails(referee)[-1]["Subject"])
    silent_turn(referee, engine(referee)["deadline"], "ann", "bob")
    assert len(observer_mails(referee)) == 3
    assert "Observers: none" in cli(referee, "show", "rome", "--referee")


def test_an_observer_reads_in_its_own_language_and_sees_the_end(auguste_game):
    referee = auguste_game
    cli(referee, "observe", "rome", "kib@watchers.example", "--lang", "fr", "--tz",
        "Europe/Paris")
    assert "Vous suivez cette partie" in text_of(observer_mails(referee)[0])
    referee.end("rome", "the club closed", later(START, 1))
    last = observer_mails(referee)[-1]
    assert "pas de vainqueur (arrêtée par l'arbitre\u00a0: the club closed)" in text_of(last)


def test_an_observers_mail_counts_for_nothing(auguste_game):
    from test_inbound import deliver, order_mail
    referee = auguste_game
    cli(referee, "observe", "rome", "kib@watchers.example")
    token = referee.store.seat("rome", "ann")["token"]
    row = deliver(referee, order_mail(referee, sender="kib@watchers.example",
                                      tag_token=token))
    assert row["status"] in ("rejected", "ignored")
    assert row["reason"].startswith("the code of seat ann from another address")
    assert referee.store.all("SELECT * FROM submissions") == []
    assert not [r for r in referee.store.all("SELECT to_addr, kind FROM outbox")
                if r["to_addr"] == "kib@watchers.example" and r["kind"] != "observer"]


@pytest.mark.parametrize("args,said", [
    (["nobody"], "'nobody' is not a mail address"),
    (["ann@players.example"], "ann@players.example plays in game rome"),
    (["k@w.example", "--lang", "de"], "unknown language 'de'"),
    (["k@w.example", "--tz", "Mars/Olympus"], "unknown timezone 'Mars/Olympus'"),
    (["k@w.example", "--stop"], "k@w.example does not follow game rome (observers: none)"),
])
def test_observe_refuses_what_makes_no_sense(auguste_game, args, said):
    before = dump(auguste_game)
    assert said in cli(auguste_game, "observe", "rome", *args, code=1)
    assert dump(auguste_game) == before


def test_an_observer_is_added_once_and_never_to_a_finished_game(auguste_game):
    cli(auguste_game, "observe", "rome", "k@w.example")
    assert "k@w.example follows game rome already" in \
        cli(auguste_game, "observe", "rome", "k@w.example", code=1)
    auguste_game.end("rome", "done", later(START, 1))
    assert "is over" in cli(auguste_game, "observe", "rome", "z@w.example", code=1)


# ------------------------------------------------------------------ under fog of war


def test_under_fog_nobody_learns_who_is_asked_from_lateness_observers_or_absences(referee):
    referee.new_game("saga", "fog", seats("ann", "bob", "cat"), START, seed="x")
    cli(referee, "observe", "fog", "kib@watchers.example")
    asked = sorted(engine(referee, "fog")["requests"])
    other = next(s for s in ("ann", "bob", "cat") if s not in asked)
    player_reply(referee, "fog", asked[0], "ABSENCE 2026-12-02 2026-12-05", START)
    moved = [r for r in referee.store.all("SELECT * FROM outbox WHERE kind = 'deadline'")]
    assert [r["seat"] for r in moved] == asked, "only the seats asked share the deadline"
    said = " ".join(text_of(email.message_from_bytes(referee.store.outbox_mail(moved[0]),
                                                     policy=policy.default)).split())
    assert "A player's absence moves this turn's deadline to" in said
    referee.tick(engine(referee, "fog")["deadline"], send=False)
    [late] = [e for e in referee.events("fog", "referee") if e["type"] == "seats_late"]
    assert late["visible_to"] == "referee" and late["payload"]["late"] == asked
    assert not [e for e in referee.events("fog", other) if e["type"] == "seats_late"]
    for row in referee.store.all("SELECT * FROM outbox WHERE to_addr = ?",
                                 ["kib@watchers.example"]):
        body = text_of(email.message_from_bytes(referee.store.outbox_mail(row),
                                                policy=policy.default))
        assert "Waiting for" not in body and "No orders came" not in body
    assert replay(referee.store, "fog", verify=True).ok


def test_an_observer_gets_no_report_of_a_phase_that_showed_nothing_public(referee):
    from mailkinds import SAGA_START
    referee.new_game("saga", "fog", seats("ann", "bob", "cat"), START, seed="x",
                     position=SAGA_START)
    cli(referee, "observe", "fog", "kib@watchers.example")
    player_reply(referee, "fog", "ann", "move host Wessex", START)
    now, resolved = later(START, 0.1), 0
    for _ in range(4):  # ann's attack, then the battle's phases, all under fog
        resolved += referee.tick(now, send=False).phases.get("fog", 0)
        if engine(referee, "fog")["deadline"] is None:
            break  # the battle's reports disagree: the referee rules
        now = later(engine(referee, "fog")["deadline"], 0.1)
    reports = [text_of(email.message_from_bytes(referee.store.outbox_mail(row),
                                                policy=policy.default))
               for row in referee.store.all("SELECT * FROM outbox WHERE kind = 'observer'")]
    assert len(reports) - 1 < resolved, "a phase that showed nothing public sends nothing"
    assert all("What happened" in report for report in reports[1:]), \
        "every report an observer gets tells something"
