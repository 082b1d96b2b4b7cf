"""The referee's operations end to end on a real SQLite file: phases, deadlines, mails."""

import email
import json
from email import policy
import sqlite3

import pytest

from pbem.i18n import said
from pbem import inbound
from pbem.adjudicator.contract import REFEREE
from pbem.adjudicator.rng import seed_digest
from pbem.errors import PbemError
from pbem.replay import replay
from pbem.timeutil import later

from conftest import START, seats


def mails(referee, kind=None, seat=None):
    """Outbox mails, parsed, optionally only of one kind or to one seat."""
    sql, params = "SELECT * FROM outbox WHERE 1=1", []
    if kind:
        sql, params = sql + " AND kind = ?", params + [kind]
    if seat:
        sql, params = sql + " AND seat = ?", params + [seat]
    return [email.message_from_bytes(referee.store.outbox_mail(r), policy=policy.default)
            for r in referee.store.all(sql + " ORDER BY id", params)]


def text_of(msg) -> str:
    return msg.get_body(preferencelist=("plain",)).get_content()


def engine(referee, game="rome"):
    return referee.table(game).state["engine"]


def test_new_game_mails_each_seat_its_own_token_and_the_seed_digest(auguste_game):
    welcome = mails(auguste_game, "welcome")
    assert sorted(m["To"] for m in welcome) == [f"{n}@players.example" for n in "ann bob cat dan".split()]
    tokens = {s["name"]: s["token"] for s in auguste_game.store.seats("rome")}
    assert len(set(tokens.values())) == 4
    for msg in welcome:
        seat = str(msg["To"]).split("@")[0]
        assert f"#{tokens[seat]}]" in msg["Subject"]
        assert f"+rome.{tokens[seat]}@" in msg["Reply-To"]
        assert seed_digest("fixed-seed") in text_of(msg)
        assert "fixed-seed" not in text_of(msg)
        others = [t for name, t in tokens.items() if name != seat]
        assert not any(t in msg.as_string() for t in others)
    assert engine(auguste_game)["deadline"] == later(START, 48)


def test_unknown_game_and_bad_seats_are_refused_with_a_reason(referee):
    with pytest.raises(PbemError, match="unknown game 'chess'"):
        referee.new_game("chess", "g", seats("ann"), START)
    with pytest.raises(PbemError, match="same name"):
        referee.new_game("auguste", "g", seats("ann", "ann"), START)
    with pytest.raises(PbemError, match="not a mail address"):
        from pbem.app import SeatSpec
        referee.new_game("auguste", "g", [SeatSpec("ann", "nobody")], START)
    with pytest.raises(PbemError, match="preset"):
        referee.new_game("auguste", "g", seats("a", "b", "c", "d"), START, {"preset": "9-9"})
    assert referee.store.all("SELECT * FROM games") == []


def red_order(referee):
    """A legal MOVE for ann's red legion."""
    from pbem.games.auguste.bot import legal_moves
    state = referee.table("rome").state["game"]
    move = legal_moves(state, "ann", "red")[0]
    return f"red: move {move['from']} {move['to']}", move


def test_all_orders_in_resolves_the_turn_early(auguste_game):
    text, move = red_order(auguste_game)
    for seat in ("bob", "cat", "dan"):
        inbound.submit(auguste_game, "rome", seat, "pass", START)
    auguste_game.tick(later(START, 1))
    assert engine(auguste_game)["phase"] == 1, "one seat is still missing"
    inbound.submit(auguste_game, "rome", "ann", text, later(START, 1))
    report = auguste_game.tick(later(START, 2))
    assert report.phases == {"rome": 1}
    state = auguste_game.table("rome").state
    assert state["game"]["units"][move["to"]]["legion"] == "red"
    assert move["from"] not in state["game"]["units"]
    assert state["engine"]["deadline"] == later(later(START, 2), 48)
    assert len(mails(auguste_game, "report")) == 4


def test_silent_seats_pass_at_the_deadline_and_nothing_happens_before(auguste_game):
    text, move = red_order(auguste_game)
    inbound.submit(auguste_game, "rome", "ann", text, START)
    auguste_game.tick(later(START, 47.9))
    assert engine(auguste_game)["phase"] == 1
    auguste_game.tick(later(START, 48))
    orders_set = [e for e in auguste_game.events("rome", REFEREE) if e["type"] == "orders_set"]
    assert orders_set[0]["payload"]["defaulted"] == ["bob", "cat", "dan"]
    assert auguste_game.table("rome").state["game"]["units"][move["to"]]["legion"] == "red"


def test_a_new_mail_replaces_the_whole_earlier_set(auguste_game):
    text, move = red_order(auguste_game)
    inbound.submit(auguste_game, "rome", "ann", text, START)
    answer = inbound.submit(auguste_game, "rome", "ann", "red: pass", START)
    assert answer["understood"] == ["red: pass"]
    assert "replace" in answer["notes"][0]
    auguste_game.tick(later(START, 48))
    assert move["from"] in auguste_game.table("rome").state["game"]["units"]


def test_wait_holds_the_turn_and_ready_releases_it(auguste_game):
    for seat in ("ann", "bob", "cat"):
        inbound.submit(auguste_game, "rome", seat, "pass", START)
    inbound.submit(auguste_game, "rome", "dan", "pass\nWAIT", START)
    auguste_game.tick(later(START, 1))
    assert engine(auguste_game)["phase"] == 1
    inbound.submit(auguste_game, "rome", "dan", "READY", later(START, 2))
    assert auguste_game.tick(later(START, 3)).phases == {"rome": 1}


def test_orders_with_errors_wait_for_the_deadline_unless_ready(auguste_game):
    for seat in ("bob", "cat", "dan"):
        inbound.submit(auguste_game, "rome", seat, "pass", START)
    answer = inbound.submit(auguste_game, "rome", "ann", "red: move XXX YYY", START)
    assert answer["errors"] == ["line 1: there is no cell called XXX on this board"]
    auguste_game.tick(later(START, 1))
    assert engine(auguste_game)["phase"] == 1
    inbound.submit(auguste_game, "rome", "ann", "ready", later(START, 1))
    assert auguste_game.tick(later(START, 2)).phases == {"rome": 1}


def test_reminder_goes_once_to_silent_seats_only(auguste_game):
    inbound.submit(auguste_game, "rome", "ann", "pass", START)
    auguste_game.tick(later(START, 35))
    assert mails(auguste_game, "reminder") == []
    auguste_game.tick(later(START, 36))
    auguste_game.tick(later(START, 37))
    assert sorted(str(m["To"]) for m in mails(auguste_game, "reminder")) == \
        ["bob@players.example", "cat@players.example", "dan@players.example"]


def test_slow_doubles_a_chrono_turn_once_per_seat(referee):
    referee.new_game("auguste", "fast", seats("ann", "bob"), START, {"chrono": "yes"}, seed="s")
    first = referee.table("fast").state["engine"]["deadline"]
    assert first == later(START, 6)
    answer = inbound.submit(referee, "fast", "ann", "SLOW", START)
    assert referee.table("fast").state["engine"]["deadline"] == later(START, 12)
    assert "deadline is now" in answer["notes"][0]
    answer = inbound.submit(referee, "fast", "ann", "SLOW", START)
    assert "not possible" in answer["notes"][0]
    assert referee.table("fast").state["engine"]["deadline"] == later(START, 12)


def test_the_referee_gives_more_time_and_the_seats_asked_are_told(auguste_game):
    inbound.submit(auguste_game, "rome", "ann", "pass", START)
    deadline = auguste_game.extend("rome", 24, later(START, 30))
    assert deadline == engine(auguste_game)["deadline"] == later(START, 72)
    assert engine(auguste_game)["slow_used"] == {}
    told = mails(auguste_game, "deadline")
    assert sorted(str(m["To"]) for m in told) == [f"{s}@players.example" for s in
                                                   ("ann", "bob", "cat", "dan")]
    assert "Deadline: Fri 4 Dec 2026 12:00 (UTC)" in text_of(told[0])

    auguste_game.tick(later(START, 48))
    assert engine(auguste_game)["phase"] == 1
    auguste_game.tick(later(START, 72))
    assert engine(auguste_game)["phase"] == 2
    assert replay(auguste_game.store, "rome", verify=True).ok


def test_more_time_is_refused_when_it_cannot_help(auguste_game):
    with pytest.raises(PbemError, match="above 0"):
        auguste_game.extend("rome", 0, START)
    with pytest.raises(PbemError, match="still past"):
        auguste_game.extend("rome", 1, later(START, 50))
    with pytest.raises(PbemError, match="no game"):
        auguste_game.extend("nowhere", 1, START)
    assert engine(auguste_game)["deadline"] == later(START, 48)
    assert mails(auguste_game, "deadline") == []


def test_the_referee_ends_a_game_and_every_seat_gets_the_seed(auguste_game):
    inbound.submit(auguste_game, "rome", "ann", "pass", START)
    auguste_game.end("rome", "two players  left\nthe club", later(START, 1))
    eng = engine(auguste_game)
    assert eng["over"] and eng["requests"] == {} and eng["deadline"] is None
    assert eng["result"]["winners"] == [] and said(eng["result"]["reason"]) == \
        "stopped by the referee: two players left the club"
    last = mails(auguste_game, "over")
    assert sorted(str(m["To"]) for m in last) == [f"{s}@players.example" for s in
                                                   ("ann", "bob", "cat", "dan")]
    assert "no winner (stopped by the referee: two players left the club)" in text_of(last[0])
    assert "fixed-seed" in text_of(last[0])
    assert auguste_game.tick(later(START, 48)).phases == {}
    assert replay(auguste_game.store, "rome", verify=True).ok
    with pytest.raises(PbemError, match="over already"):
        auguste_game.end("rome", "again", later(START, 2))


def test_a_stop_that_reveals_another_seed_fails_the_replay(auguste_game):
    auguste_game.end("rome", "tested", START)
    auguste_game.store.db.execute("DROP TRIGGER events_no_update")
    auguste_game.store.db.execute(
        "UPDATE events SET payload = json_set(payload, '$.seed', 'forged') "
        "WHERE type = 'game_stopped'")
    problems = replay(auguste_game.store, "rome", verify=True).problems
    assert any("the seed revealed is not the game's" in p for p in problems)


def test_slow_is_refused_outside_chrono(auguste_game):
    answer = inbound.submit(auguste_game, "rome", "ann", "slow", START)
    assert "not possible" in answer["notes"][0]
    assert engine(auguste_game)["deadline"] == later(START, 48)


def play_to_the_end(referee, game, start, limit=400):
    """Tick at each deadline with nobody answering except ann's bot, until the game ends."""
    from pbem.adjudicator.rng import PhaseRng
    from pbem.games.auguste import bot_orders
    now = start
    for _ in range(limit):
        table = referee.table(game)
        eng = table.state["engine"]
        if eng["over"]:
            return
        for seat in sorted(eng["requests"]):
            text = bot_orders(table.state["game"], seat, PhaseRng("bots", seat, eng["phase"]))
            inbound.submit(referee, game, seat, text, now)
        now = later(now, 1)
        referee.tick(now, send=False)
    raise AssertionError("the game did not end")


def test_game_over_reveals_the_seed_and_replay_verifies(referee):
    referee.new_game("auguste", "short", seats("ann", "bob"), START,
                     {"preset": "4-2", "max_turns": 3}, seed="the-seed")
    play_to_the_end(referee, "short", START)
    over = mails(referee, "over")
    assert len(over) == 2 and all("the-seed" in text_of(m) for m in over)
    assert referee.store.game("short")["status"] == "over"
    verdict = replay(referee.store, "short", verify=True)
    assert verdict.ok, verdict.problems
    assert verdict.phases == 3


def test_replay_detects_a_tampered_log(referee):
    referee.new_game("auguste", "t", seats("ann", "bob"), START, {"max_turns": 2}, seed="s")
    play_to_the_end(referee, "t", START)
    conn = sqlite3.connect(referee.store.path)
    conn.execute("DROP TRIGGER events_no_update")
    seq, payload = conn.execute(
        "SELECT seq, payload FROM events WHERE type = 'moved' ORDER BY seq LIMIT 1").fetchone()
    moved = json.loads(payload)
    moved["shield"] = not moved["shield"]
    conn.execute("UPDATE events SET payload = ? WHERE seq = ?",
                 [json.dumps(moved, sort_keys=True, separators=(",", ":")), seq])
    conn.commit()
    problems = replay(referee.store, "t", verify=True).problems
    assert f"seq {seq}: the hash chain is broken" in problems
    assert any(p.startswith(f"seq {seq}: the log has moved") for p in problems)


def test_replay_detects_an_event_the_rules_would_not_give(referee):
    referee.new_game("auguste", "u", seats("ann", "bob"), START, {"max_turns": 2}, seed="s")
    play_to_the_end(referee, "u", START)
    conn = sqlite3.connect(referee.store.path)
    conn.execute("DROP TRIGGER events_no_update")
    seq = conn.execute("SELECT min(seq) FROM events WHERE type = 'turn_ended'").fetchone()[0]
    conn.execute("UPDATE events SET payload = '{\"turn\":7}' WHERE seq = ?", [seq])
    conn.commit()
    problems = replay(referee.store, "u", verify=True).problems
    assert any(p.startswith(f"seq {seq}: the log has turn_ended") for p in problems)


def test_views_hide_what_a_seat_may_not_see(referee):
    position = {"trumps": True, "laurel": "CEZ", "shields": [],
                "legions": {"red": {"team": "A", "units": ["MOC"]},
                            "blue": {"team": "B", "units": ["BUV"]}}}
    referee.new_game("auguste", "seer", seats("ann", "bob"), START, {}, seed="s",
                     position=position)
    inbound.submit(referee, "seer", "ann", "seer", START)
    inbound.submit(referee, "seer", "bob", "blue: move BUV MIJ", START)
    referee.tick(later(START, 1), send=False)
    assert referee.table("seer").state["game"]["stage"] == "seer"
    public = [e["type"] for e in referee.events("seer", None)]
    bobs = [e["type"] for e in referee.events("seer", "bob")]
    anns = [e["type"] for e in referee.events("seer", "ann")]
    assert "seer_sight" in anns and "seer_sight" not in bobs and "seer_sight" not in public
    assert "orders_held" not in anns and "orders_set" not in anns
    ann_report = text_of(mails(referee, "report", "ann")[-1])
    bob_report = text_of(mails(referee, "report", "bob")[-1])
    assert "what you saw as a seer: bob: blue: move the legionary on BUV to MIJ" in ann_report
    assert "saw as a seer" not in bob_report
    assert "held" not in str(referee.view("seer", "bob")) and "BUV to MIJ" not in str(
        referee.view("seer", None))


def test_only_one_tick_at_a_time(auguste_game):
    from pbem.app import tick_lock
    with tick_lock(auguste_game.store.path):
        with pytest.raises(PbemError, match="another pbem tick is running"):
            auguste_game.tick(START)
    assert auguste_game.tick(START).sent == 4


def test_a_mail_settings_error_does_not_hide_the_tick_work(tmp_path):
    from conftest import make_referee
    referee = make_referee(tmp_path)
    referee.config.data["smtp"].update(host="127.0.0.1", security="carrier-pigeon")
    referee.new_game("auguste", "g", seats("ann", "bob"), START, seed="s")
    report = referee.tick(later(START, 48))
    assert report.phases == {"g": 1}
    assert "security" in report.error and report.sent == 0
    assert any(line.startswith("mail not sent:") for line in report.trouble())
    assert report.exit_code == 78  # EX_CONFIG: the settings must change
    pending = referee.store.one("SELECT count(*) AS n FROM outbox WHERE status = 'pending'")
    assert pending["n"] == 4
