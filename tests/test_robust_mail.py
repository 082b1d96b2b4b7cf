"""Robust mail, from the outside: raw mail in the inbox Maildir, `pbem poll && pbem tick`.

One test (or a few) per way a mail could stop, stall or fool pbem: mail no
codec reads, quote bombs, forged floods, ambiguous senders, odd Message-IDs,
replies to a turn that is over, amplification and backscatter, locks, and
terminal escapes. Each looks at what a referee and the players see: the
inbox, the game, and the outgoing Maildir.
"""

from email import message_from_bytes, policy
import json
import os
from pathlib import Path
import subprocess
import sys

from click.testing import CliRunner
import pytest

from pbem.adjudicator.rng import PhaseRng
from pbem.app import Referee, poll_lock, tick_lock
from pbem.config import load
from pbem.cli import main
from pbem.mail import intake
from pbem.mail.parse import new_text
from pbem.store import Store, raw_digest
from pbem.timeutil import later

from conftest import KILLED_AT_WRITE

START = "2026-12-01T12:00:00Z"
NOW = "2026-12-01T13:00:00Z"
DEADLINE = "2026-12-03T12:00:00Z"
SEATS = ("ann", "bob", "cat", "dan")
# An order each seat may give in turn 1.
ORDERS = {"ann": "red: move GUR HAC", "bob": "orange: move GEC HUV", "cat": "green: move JUB CEZ",
          "dan": "blue: move VEN LEK"}


class Club:
    """A referee's folder, run from the command line as cron runs it."""

    def __init__(self, folder: Path, *options: str, start: str = START):
        self.folder = folder
        self.runner = CliRunner()
        self.dropped = 0
        self.pbem("init")
        self.pbem("new", "auguste", "--id", "rome", "--preset", "4-2", "--seed", "s1",
                  *[arg for name in SEATS for arg in ("--seat", f"{name}={name}@players.example")],
                  *[arg for option in options for arg in ("--option", option)], "--now", start)
        self.pbem("tick", "--now", start)  # the welcome mails

    def pbem(self, *args, code=0) -> str:
        """Run one pbem command in the folder; its output."""
        result = self.runner.invoke(main, list(args), catch_exceptions=False)
        assert result.exit_code == code, result.output
        return result.output

    @property
    def store(self) -> Store:
        """The database, as any SQLite reader sees it now."""
        return Store(self.folder / "pbem.db")

    def orders(self, seat: str) -> str:
        """Orders the seat may give in the open turn (what the demo's bots would write)."""
        referee = Referee(self.store, load(str(self.folder / "pbem.toml")))
        table = referee.table("rome")
        return table.game.bot_orders(table.state["game"], seat, PhaseRng("test", seat, 0))

    def token(self, seat: str) -> str:
        """A seat's secret code."""
        return self.store.seat("rome", seat)["token"]

    def drop(self, *raws: bytes) -> None:
        """Mail arriving in the incoming Maildir, in this order (names that sort so)."""
        inbox = self.folder / "mail" / "inbox"
        for raw in raws:
            self.dropped += 1
            name = f"{self.dropped:08d}.test"
            (inbox / "tmp" / name).write_bytes(raw)
            os.replace(inbox / "tmp" / name, inbox / "new" / name)

    def cron(self, now: str = NOW) -> str:
        """pbem poll && pbem tick."""
        return self.pbem("poll", "-v", "--now", now) + self.pbem("tick", "-v", "--now", now)

    def inbox(self) -> list[dict]:
        """Every stored mail, in order."""
        return self.store.all("SELECT * FROM inbox ORDER BY id")

    def sent(self) -> list:
        """Every mail in the outgoing Maildir, parsed, in the order they were queued."""
        folder = self.folder / "mail" / "outbox" / "new"
        return [message_from_bytes(path.read_bytes(), policy=policy.default)
                for path in sorted(folder.iterdir())]

    def answers(self, message_id: str) -> list:
        """The mails pbem sent in reply to one mail."""
        return [m for m in self.sent() if m["In-Reply-To"] == message_id]

    def to(self, address: str) -> list:
        """The mails pbem sent to one address."""
        return [m for m in self.sent() if m["To"] == address]

    def submissions(self, seat: str) -> list[dict]:
        """A seat's recorded orders, oldest first."""
        return self.store.all("SELECT * FROM submissions WHERE seat = ? ORDER BY id", [seat])


@pytest.fixture
def club(tmp_path, monkeypatch) -> Club:
    """A four-seat Auguste game, welcome mails sent, in a folder of its own."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    return Club(tmp_path)


def mail(club: Club, seat: str = "ann", *, number: int = 1, body: str | None = None,
         sender: str | None = None, code: str | None = None, message_id: str | None = None,
         headers=(), content_type: str = "text/plain; charset=utf-8",
         raw_body: bytes | None = None) -> bytes:
    """A seat's mail as raw bytes, written by hand so that it can be as broken as wanted."""
    code = club.token(seat) if code is None else code
    lines = [f"From: {sender or f'{seat.title()} <{seat}@players.example>'}",
             f"To: pbem+rome.{code}@localhost" if code else "To: pbem@localhost",
             f"Subject: Re: [pbem rome #{code}] your turn" if code else "Subject: orders",
             "Date: Tue, 01 Dec 2026 13:00:00 +0000",
             f"Message-ID: {message_id or f'<{seat}.{number}@players.example>'}",
             *headers, "MIME-Version: 1.0", f"Content-Type: {content_type}"]
    body = ORDERS[seat] if body is None else body
    payload = raw_body if raw_body is not None else (body + "\r\n").encode()
    return "\r\n".join(lines).encode("utf-8", "surrogateescape") + b"\r\n\r\n" + payload


def nested(levels: int) -> bytes:
    """A body of `levels` multiparts, each inside the last, an order at the bottom."""
    inner = b"Content-Type: text/plain\r\n\r\nred: move GUR HAC\r\n"
    for level in range(levels):
        inner = (f"Content-Type: multipart/mixed; boundary=b{level}\r\n\r\n--b{level}\r\n"
                 .encode() + inner + f"--b{level}--\r\n".encode())
    return inner


# ------------------------------------------------------------------ 1. no mail stops intake


@pytest.mark.parametrize("content_type", [
    "text/plain; charset*=idna''x",
    "text/plain; charset=punycode",
    "text/plain; charset=\"utf\x00-8\"",
    "text/plain; charset*=punycode''%ff%fe",
    "text/plain; format*=idna''flowed; charset=utf-8",
])
def test_a_charset_no_codec_reads_stops_nothing(club, content_type):
    club.drop(mail(club, content_type=content_type), mail(club, "bob"))
    assert "2 new mails stored" in club.cron()
    assert not os.listdir(club.folder / "mail" / "inbox" / "new")
    ann, bob = club.inbox()
    assert (ann["status"], ann["reason"]) == ("done", "orders recorded")  # read as UTF-8
    assert (bob["status"], bob["reason"]) == ("done", "orders recorded")
    assert [s["text"] for s in club.submissions("ann")] == ["red: move GUR HAC"]
    assert len(club.answers("<ann.1@players.example>")) == 1


@pytest.mark.parametrize("parts, why", [
    ([nested(1000)], "it has more than 200 MIME parts"),
    ([nested(60)], "its MIME parts are nested 62 deep, over 30"),
    ([b"Content-Type: text/plain\r\n\r\nx\r\n"] * 300, "it has more than 200 MIME parts"),
])
def test_a_mail_too_complex_to_parse_is_quarantined_and_its_seat_asked_to_resend(club, parts,
                                                                                 why):
    body = b"".join(b"--top\r\n" + part for part in parts) + b"--top--\r\n"
    raw = mail(club, content_type="multipart/mixed; boundary=top", raw_body=body)
    club.drop(raw, mail(club, "bob"))
    club.cron()
    ann, bob = club.inbox()
    assert ann["status"] == "quarantined" and ann["reason"].startswith("unreadable: ")
    assert why in ann["reason"]
    assert club.submissions("ann") == []
    [answer] = club.answers("<ann.1@players.example>")
    assert answer["To"] == "ann@players.example"
    assert "could not be read" in answer["Subject"]
    assert bob["status"] == "done"
    assert "unreadable" in club.pbem("inbox")
    [digest] = club.to("referee@localhost")
    text = digest.get_body(preferencelist=("plain",)).get_content()
    assert "1 quarantined" in text and f"inbox {ann['id']}" in text


def test_a_mail_whose_handling_fails_or_overruns_is_quarantined_and_the_next_handled(
        club, monkeypatch):
    import pbem.games.auguste as auguste
    real_parse = auguste.parse

    def parse(state, seat, text):
        if "recurse" in text:
            raise RecursionError("maximum recursion depth exceeded")
        if "dawdle" in text:
            import time
            time.sleep(30)
        return real_parse(state, seat, text)

    monkeypatch.setattr(auguste, "parse", parse)
    monkeypatch.setenv("PBEM_MAIL_HANDLE_SECONDS", "0.5")
    club.drop(mail(club, body="recurse"), mail(club, "bob", body="dawdle"), mail(club, "cat"))
    club.cron()
    ann, bob, cat = club.inbox()
    assert (ann["status"], ann["reason"]) == \
        ("quarantined", "could not be handled: RecursionError: maximum recursion depth exceeded")
    assert (bob["status"], bob["reason"]) == \
        ("quarantined", "could not be handled: Overtime: took longer than 0.5 s")
    assert (cat["status"], cat["reason"]) == ("done", "orders recorded")
    assert club.submissions("ann") == club.submissions("bob") == []
    assert club.answers("<ann.1@players.example>") == club.answers("<bob.1@players.example>") == []


def test_a_mail_that_is_no_mail_at_all_is_stored_and_set_aside(club):
    club.drop(b"\x00\xff\xfe" * 1000, mail(club))
    club.cron()
    junk, ann = club.inbox()
    assert (junk["status"], junk["reason"]) == ("ignored", "automatic mail: sender (none)")
    assert ann["status"] == "done"


# ------------------------------------------------------------------ 2. linear quote stripping


def test_blank_lines_then_quoted_lines_are_read_as_no_text(club):
    bomb = "\r\n" * 70_000 + "> quoted\r\n" * 70_000
    club.drop(mail(club, body="red: move GUR HAC\r\n" + bomb))
    club.cron()
    [row] = club.inbox()
    assert (row["status"], row["reason"]) == ("done", "orders recorded")
    assert [s["text"] for s in club.submissions("ann")] == ["red: move GUR HAC"]


@pytest.mark.parametrize("text, kept", [
    ("\n" * 5000 + "> q\n" * 5000, ""),
    ("\n> q\n" * 5000 + "red: hold", "red: hold"),
    ("z" * 100_000 + "\n" + "> q\n" * 5000, "z" * 100_000),
    ("red: hold\n\nOn Monday, Ann wrote:\n" + "> q\n" * 5000 + "\nblue: hold",
     "red: hold\n\nblue: hold"),
])
def test_quote_stripping_keeps_the_same_text_whatever_the_shape(text, kept):
    assert new_text(text) == kept


# ------------------------------------------------------------------ 3. forged floods


def test_a_forged_flood_from_a_seats_address_never_locks_the_seat_out(club):
    forged = [mail(club, code="", number=n) for n in range(35)]
    club.drop(*forged)
    club.cron()
    club.drop(mail(club, number=99))
    club.cron()
    rows = club.inbox()
    assert [r["status"] for r in rows[:31]].count("quarantined") == 1  # the 31st of the hour
    assert rows[30]["reason"] == ("rate limit: more than 30 mails in an hour from "
                                  "ann@players.example without a seat's code")
    real = rows[-1]
    assert (real["status"], real["reason"]) == ("done", "orders recorded")
    assert len(club.answers("<ann.99@players.example>")) == 1
    assert [s["text"] for s in club.submissions("ann")] == ["red: move GUR HAC"]
    assert len(club.to("ann@players.example")) == 1 + 1 + 1  # welcome, one refusal, the answer


# ------------------------------------------------------------------ 4. ambiguous From headers


@pytest.mark.parametrize("sender", [
    "ann@players.example <eve@evil.example>",
    "ann@players.example)<eve@evil.example>",
    "ann@players.example, eve@evil.example",
    "Ann <ann@players.example>\r\nFrom: eve@evil.example",
    "Ann <ann@players.example> (x) <eve@evil.example>",
])
def test_a_from_header_naming_no_single_address_never_counts(club, sender):
    club.drop(mail(club, sender=sender))
    club.cron()
    [row] = club.inbox()
    assert row["status"] == "quarantined" and row["reason"].startswith("unclear sender: ")
    assert club.submissions("ann") == []
    assert club.answers("<ann.1@players.example>") == []
    assert club.to("eve@evil.example") == []


def test_an_unclear_sender_is_told_at_its_return_path_when_that_is_a_seat(club):
    raw = mail(club, sender="ann@players.example <eve@evil.example>",
               headers=["Return-Path: <ann@players.example>"])
    club.drop(raw, raw.replace(b"ann.1@", b"ann.2@"))
    club.cron()
    first, second = club.inbox()
    assert (first["status"], first["reason"]) == \
        ("rejected", "unclear sender: its From header is malformed; ann@players.example told")
    assert second["status"] == "quarantined" and "already told" in second["reason"]
    [told] = club.answers("<ann.1@players.example>")
    assert told["To"] == "ann@players.example"
    assert "cannot tell who wrote it" in told.get_body(preferencelist=("plain",)).get_content()
    assert club.submissions("ann") == []


# ------------------------------------------------------------------ 5. Message-IDs kept whole


@pytest.mark.parametrize("shape", ["<m({n})@x>", "<m {n}@x>", "<m;{n}@x>", "<m[{n}]@x>",
                                   "<m\\{n}@x>", "<m\x01{n}@x>"])
def test_message_ids_are_kept_whole(club, shape):
    first, second = (shape.format(n=n) for n in (1, 2))
    club.drop(mail(club, message_id=first), mail(club, message_id=second))
    club.cron()
    rows = club.inbox()
    assert [(r["message_id"], r["status"]) for r in rows] == [(first, "done"), (second, "done")]
    assert len(club.submissions("ann")) == 2


def test_a_duplicate_is_the_same_message_id_and_the_same_body(club):
    raw = mail(club)
    relayed = b"Received: from relay.example by mx.example\r\n" + raw
    reused = mail(club, body="red: move PAC BUV")  # a client reusing a Message-ID: a new mail
    club.drop(raw, relayed, reused)
    club.cron()
    assert [(r["status"], r["reason"][:15]) for r in club.inbox()] == [
        ("done", "orders recorded"), ("duplicate", "Message-ID <ann"), ("done", "orders recorded")]
    assert club.inbox()[1]["reason"] == "Message-ID <ann.1@players.example> already handled"


def test_mails_without_a_message_id_are_duplicates_only_when_their_bytes_are(club):
    raw = mail(club).replace(b"Message-ID: <ann.1@players.example>\r\n", b"")
    club.drop(raw, raw, raw.replace(b"GUR HAC", b"GUR HAB"))
    club.cron()
    rows = club.inbox()
    assert [r["status"] for r in rows] == ["done", "duplicate", "done"]
    assert rows[1]["reason"] == f"the same mail as inbox {rows[0]['id']}, already handled"


# ------------------------------------------------------------------ 6. replies to a closed turn


def reply(club: Club, seat: str, to, number: int, body: str = "red: move GUR HAC") -> bytes:
    """A seat's reply to one of pbem's mails."""
    return mail(club, seat, number=number, body=body,
                headers=[f"In-Reply-To: {to['Message-ID']}",
                         f"References: {to['References'] or ''} {to['Message-ID']}"])


def test_a_reply_to_a_turn_that_is_over_is_answered_and_not_taken_for_the_next(club):
    welcome = next(m for m in club.to("ann@players.example") if "begins" in m["Subject"])
    club.drop(reply(club, "ann", welcome, 1))
    club.cron()
    assert [s["phase"] for s in club.submissions("ann")] == [1]
    club.cron(DEADLINE)  # turn 1 is resolved, turn 2 opens
    assert club.store.game("rome")["phase"] == 2
    report = [m for m in club.to("ann@players.example") if m["In-Reply-To"] is None][-1]

    now_ann, now_bob = club.orders("ann").strip(), club.orders("bob").strip()
    club.drop(reply(club, "ann", welcome, 2, now_ann),      # answers turn 1's mail
              reply(club, "ann", report, 3, now_ann),       # answers turn 2's mail
              mail(club, "bob", number=4, body=now_bob))    # answers nothing: counts now
    club.cron(later(DEADLINE, 1))
    stale, fresh, plain = club.inbox()[-3:]
    assert (stale["status"], stale["reason"]) == ("rejected", "answers phase 1, which is over")
    assert (fresh["status"], plain["status"]) == ("done", "done")
    assert [(s["phase"], s["text"]) for s in club.submissions("ann")] == \
        [(1, "red: move GUR HAC"), (2, now_ann)]
    assert [s["phase"] for s in club.submissions("bob")] == [2]
    [answer] = club.answers("<ann.2@players.example>")
    assert answer["Subject"].endswith("turn 1 is over")
    text = answer.get_body(preferencelist=("plain",)).get_content()
    said = " ".join(text.split())
    assert "Your mail answers my mail “Turn 1: the game begins, your orders by Thu 12:00”, " \
        "which is over: the orders in it were not used." in said
    assert "Now turn 2 asks you: Orders for turn 2. What you may send is below" in said
    assert "How to write Auguste orders" in said, "the open turn's request follows"


def test_every_mail_pbem_sends_records_its_turn(club):
    rows = club.store.all("SELECT kind, phase, asked, turn, round FROM outbox "
                          "WHERE seat IS NOT NULL")
    assert rows and {tuple(r.values()) for r in rows} == {("welcome", 1, 1, 1, None)}


# ------------------------------------------------------------------ 7. Maildir: exactly once


def queued(folder: Path) -> list[str]:
    """The Message-IDs of the outbox rows, by the database."""
    return [r["message_id"] for r in Store(folder / "pbem.db").all(
        "SELECT message_id FROM outbox ORDER BY id")]


def delivered(folder: Path) -> list[str]:
    """The Message-IDs of the mails in the outgoing Maildir, one per file."""
    out = []
    for sub in ("new", "cur"):
        for path in (folder / "mail" / "outbox" / sub).iterdir():
            out.append(message_from_bytes(path.read_bytes(), policy=policy.default)["Message-ID"])
    return out


KILLED_AFTER_DELIVERY = """
import os, signal, sys
real, count = os.link, [0]
def link(*args, **kwargs):
    done = real(*args, **kwargs)
    count[0] += 1
    if count[0] == int(sys.argv[1]):
        os.kill(os.getpid(), signal.SIGKILL)  # delivered, not yet marked sent
    return done
os.link = link
import pbem.mail.outbox
pbem.mail.outbox.MAILDIR_BATCH = 50  # batches small enough for one to be marked sent here
from pbem.cli import main
main(["tick", "--now", sys.argv[2]], standalone_mode=False)
"""


def answers_queued(club: Club, mails: int = 30) -> None:
    """Mails from every seat, each asking HELP and STATUS, answered but not sent yet."""
    for number in range(mails):
        club.drop(mail(club, SEATS[number % 4], number=number, body="HELP\r\nSTATUS"))
    club.pbem("poll", "--now", NOW)
    club.pbem("tick", "--now", NOW, "--no-send")


def test_a_kill_between_delivering_and_marking_sent_never_delivers_twice(club):
    answers_queued(club)
    pending = club.store.one("SELECT COUNT(*) AS n FROM outbox WHERE status = 'pending'")["n"]
    assert pending >= 60
    sent = club.store.one("SELECT COUNT(*) AS n FROM outbox WHERE status = 'sent'")["n"]
    kills = 0
    # killed after the nth mail linked into the Maildir in that run; the 28 the first
    # seven runs left are not linked again, so the last run's 25th link comes after a
    # batch (50) was marked sent
    for after in (1, 3, 1, 7, 2, 13, 1, 25):
        done = subprocess.run([sys.executable, "-c", KILLED_AFTER_DELIVERY, str(after), NOW],
                              cwd=club.folder, capture_output=True, timeout=120)
        kills += done.returncode == -9
    assert kills == 8
    assert club.store.one("SELECT COUNT(*) AS n FROM outbox WHERE status = 'sent'")["n"] \
        == sent + 50
    club.pbem("tick", "--now", NOW)
    assert club.store.one("SELECT COUNT(*) AS n FROM outbox WHERE status != 'sent'")["n"] == 0
    assert sorted(delivered(club.folder)) == sorted(queued(club.folder))


def test_kills_at_any_moment_of_a_tick_lose_no_mail_and_send_none_twice(club):
    import random
    import time
    rng = random.Random(7)
    for number in range(40):
        club.drop(mail(club, SEATS[number % 4], number=number, body="HELP\nSTATUS"))
    club.pbem("poll", "--now", NOW)
    for _ in range(12):
        process = subprocess.Popen([sys.executable, "-m", "pbem", "tick", "--now", NOW],
                                   cwd=club.folder, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.3, 1.5))
        process.kill()
        process.wait()
    club.pbem("tick", "--now", NOW)
    assert club.store.one("SELECT COUNT(*) AS n FROM outbox WHERE status != 'sent'")["n"] == 0
    assert sorted(delivered(club.folder)) == sorted(queued(club.folder))
    assert {r["status"] for r in club.inbox()} == {"done"}


KILLED_AT_STATEMENT = KILLED_AT_WRITE + """
from pbem import inbound
inbound.BATCH_MAILS = int(sys.argv[3])
from pbem.cli import main
main(["tick", "--now", sys.argv[2]], standalone_mode=False)
"""


def test_kills_while_a_tick_handles_batches_lose_no_mail_and_repeat_none(club):
    import random
    rng = random.Random(14)
    orders = {seat: club.orders(seat) for seat in SEATS}
    ids = []
    for number in range(40):
        seat = SEATS[number % 4]
        ids.append(f"<{seat}.{number}@players.example>")
        club.drop(mail(club, seat, number=number, body=orders[seat]))
    club.pbem("poll", "--now", NOW)
    kills, partial = 0, False
    while kills < 10:  # killed at the nth write of a tick: in a batch, between two, or sending
        done = subprocess.run([sys.executable, "-c", KILLED_AT_STATEMENT,
                               str(rng.randrange(1, 120)), NOW, str(rng.choice((3, 8, 100)))],
                              cwd=club.folder, capture_output=True, timeout=120)
        assert done.returncode in (0, -9), done.stderr.decode()
        if done.returncode == 0:
            break  # a tick got to its end
        kills += 1
        handled = sum(r["status"] == "done" for r in club.inbox())
        partial |= 0 < handled < len(ids)
    assert kills >= 5 and partial  # some kills came after a batch was committed, before the end
    club.pbem("tick", "--now", NOW)
    assert [r["status"] for r in club.inbox()] == ["done"] * len(ids)  # no mail lost
    assert len(club.submissions("ann")) == 10  # each mail's orders recorded once
    assert len(club.store.all("SELECT * FROM events WHERE type = 'orders_set'")) == 1
    for message_id in ids:  # each answered exactly once
        assert len(club.answers(message_id)) == 1, message_id
    assert club.store.one("SELECT COUNT(*) AS n FROM outbox WHERE status != 'sent'")["n"] == 0
    assert sorted(delivered(club.folder)) == sorted(queued(club.folder))  # none sent twice


# ------------------------------------------------------------------ 8. bounded answers


@pytest.mark.parametrize("line,said,more", [
    ("moev GUR {n}", "(50000 errors)", "and 49,950 more lines I could not read"),
    ("nonsense {n}", "50000 remarks set aside", "and 49,950 more lines"),
])
def test_fifty_thousand_bad_lines_get_a_short_answer(club, monkeypatch, line, said, more):
    # Handling this mail takes seconds on an idle machine: ten times the default budget
    # ([mail] handle_seconds, 30 s) leaves room for a busy one; what is tested is the answer.
    monkeypatch.setenv("PBEM_MAIL_HANDLE_SECONDS", "300")
    body = "\r\n".join(line.format(n=n) for n in range(50_000))
    club.drop(mail(club, body=body))
    club.cron()
    [row] = club.inbox()
    assert row["status"] == "done" and said in row["reason"]
    [answer] = club.answers("<ann.1@players.example>")
    text = answer.get_body(preferencelist=("plain",)).get_content()
    assert more in text
    assert len(answer.as_bytes()) < 60_000


def test_a_huge_references_header_is_not_echoed(club):
    refs = " ".join(f"<r{n}@players.example>" for n in range(9_000))
    club.drop(mail(club, headers=[f"References: {refs}"]))
    club.cron()
    [answer] = club.answers("<ann.1@players.example>")
    echoed = str(answer["References"]).split()
    assert len(echoed) <= 10 and "<ann.1@players.example>" in echoed
    assert len(answer.as_bytes()) < 60_000


def test_strangers_get_no_answer_and_the_referee_a_daily_digest(club):
    strangers = [mail(club, sender=f"Eve <eve{n}@evil.example>", number=n) for n in range(20)]
    club.drop(*strangers)
    club.cron()
    assert [m for m in club.sent() if "evil.example" in str(m["To"])] == []
    assert {r["status"] for r in club.inbox()} == {"ignored"}
    [digest] = club.to("referee@localhost")
    text = " ".join(digest.get_body(preferencelist=("plain",)).get_content().split())
    assert "20 mails were refused or set aside: 20 ignored." in text
    assert "sender is not a seat (20)" in text
    assert text.count("from eve") == 5

    club.drop(mail(club, sender="Eve <eve99@evil.example>", number=99))
    club.cron(later(NOW, 2))           # the same day: no second digest
    assert len(club.to("referee@localhost")) == 1
    club.cron(later(NOW, 25))          # a day later: what is new since
    assert len(club.to("referee@localhost")) == 2
    assert "1 mail was refused" in club.to("referee@localhost")[-1].get_body(
        preferencelist=("plain",)).get_content()
    club.cron(later(NOW, 50))          # nothing new: no digest
    assert len(club.to("referee@localhost")) == 2


def delivery_report(quoting: str) -> bytes:
    """A mail server's report that a mail to ann failed, quoting that mail's Message-ID."""
    return ("From: Mail Delivery System <MAILER-DAEMON@mx.players.example>\r\n"
            "To: pbem@localhost\r\nSubject: Undelivered Mail\r\n"
            f"Message-ID: <bounce.{abs(hash(quoting))}@mx.players.example>\r\n"
            "Auto-Submitted: auto-replied\r\nMIME-Version: 1.0\r\n"
            "Content-Type: multipart/report; report-type=delivery-status; boundary=B\r\n\r\n"
            "--B\r\nContent-Type: text/plain\r\n\r\nCould not deliver.\r\n"
            "--B\r\nContent-Type: message/delivery-status\r\n\r\n"
            "Reporting-MTA: dns; mx.players.example\r\n\r\n"
            "Final-Recipient: rfc822; ann@players.example\r\nAction: failed\r\n"
            "Status: 5.1.1\r\n\r\n"
            "--B\r\nContent-Type: text/rfc822-headers\r\n\r\n"
            f"To: ann@players.example\r\nMessage-ID: {quoting}\r\n\r\n--B--\r\n").encode()


def test_only_a_report_quoting_a_mail_pbem_sent_marks_a_seat_bouncing(club):
    forged = [delivery_report(f"<forged.{n}@localhost>") for n in range(5)]
    welcome = club.store.one("SELECT message_id FROM outbox WHERE seat = 'ann'")["message_id"]
    club.drop(*forged)
    club.cron()
    assert club.store.seat("rome", "ann")["bouncing"] == 0
    assert all("no seat marked" in r["reason"] for r in club.inbox())
    club.drop(delivery_report(welcome), delivery_report(welcome + " "))
    club.cron(later(NOW, 1))
    assert club.store.seat("rome", "ann")["bouncing"] == 1
    notices = [m for m in club.to("referee@localhost") if "bounced" in m["Subject"]]
    assert len(notices) == 1  # told when the seat starts bouncing, not at each report


# ------------------------------------------------------------------ 9. locks


def test_one_tick_per_database_whatever_path_reaches_it(club):
    (club.folder / "elsewhere").mkdir()
    link = club.folder / "elsewhere" / "link.db"
    link.symlink_to(club.folder / "pbem.db")
    with tick_lock(str(club.folder / "pbem.db")):
        out = club.pbem("tick", "--db", str(link), "--now", NOW, code=75)
    assert out.count("\n") == 1 and "another pbem tick is running on this database" in out
    with tick_lock(str(link)):
        out = club.pbem("tick", "--now", NOW, code=75)
    assert "another pbem tick is running" in out


def test_one_poll_per_database(club):
    club.drop(mail(club))
    with poll_lock(str(club.folder / "pbem.db")):
        out = club.pbem("poll", "--now", NOW, code=75)
    assert out.count("\n") == 1 and "another pbem poll is running on this database" in out
    assert club.inbox() == []
    assert "1 new mail stored" in club.pbem("poll", "-v", "--now", NOW)


def test_two_ticks_through_a_link_at_once_deliver_every_mail_once(club):
    for number in range(60):
        club.drop(mail(club, SEATS[number % 4], number=number, body="STATUS"))
    club.pbem("poll", "--now", NOW)
    link = club.folder / "link.db"
    link.symlink_to(club.folder / "pbem.db")
    ticks = [subprocess.Popen([sys.executable, "-m", "pbem", "tick", "--now", NOW, *db],
                              cwd=club.folder, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE) for db in ([], ["--db", str(link)])]
    outcomes = [(t.wait(timeout=120), t.stderr.read().decode()) for t in ticks]
    for code, err in outcomes:
        assert code == 0 or "another pbem tick is running" in err
    club.pbem("tick", "--now", NOW)
    assert sorted(delivered(club.folder)) == sorted(queued(club.folder))


POLL = "from pbem.cli import main; main(['poll', '--db', '{db}', '--now', '{now}'])"


def test_two_polls_of_one_maildir_never_crash(club):
    Store(club.folder / "other.db")  # pbem refuses a database that does not exist
    for number in range(150):
        club.drop(mail(club, number=number))
    polls = [subprocess.Popen([sys.executable, "-c", POLL.format(db=db, now=NOW)],
                              cwd=club.folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for db in (club.folder / "pbem.db", club.folder / "other.db")]
    results = [(p.wait(timeout=120), p.stderr.read().decode()) for p in polls]
    assert [code for code, _ in results] == [0, 0], results
    # a poll stores the bytes (the tick reads the Message-ID): each mail by its digest
    stored = {r["digest"] for db in ("pbem.db", "other.db")
              for r in Store(club.folder / db).all("SELECT digest FROM inbox")}
    assert stored == {raw_digest(mail(club, number=number)) for number in range(150)}
    assert not os.listdir(club.folder / "mail" / "inbox" / "new")


# ------------------------------------------------------------------ 10. terminal escapes


def test_what_a_mail_says_reaches_the_terminal_without_control_characters(club):
    hostile = "<m\x1b]0;owned\x07\x1b[2J@x>"
    club.drop(mail(club, message_id=hostile), mail(club, message_id=hostile),
              mail(club, sender="Eve\x1b[31m\x07 <eve@evil.example>", number=3))
    club.cron()
    listing = club.pbem("inbox", "--all")
    assert "already handled" in listing
    assert not any(c in listing for c in "\x1b\x07\x00\x9b")
    rows = json.loads(club.pbem("inbox", "--all", "--json"))
    assert hostile in [r["message_id"] for r in rows]  # the data stays whole, escaped in JSON
    assert "\x1b" not in club.pbem("inbox", "--all", "--json")
    for out in (club.pbem("outbox", "--all"), club.pbem("outbox", "--all", "--json")):
        assert not any(c in out for c in "\x1b\x07\x9b")


def test_the_inbox_listing_shows_every_refused_mail(club):
    club.drop(mail(club, sender="ann@players.example, eve@evil.example"),
              mail(club, content_type="multipart/mixed; boundary=top",
                   raw_body=b"--top\r\n" + nested(100) + b"--top--\r\n", number=2))
    club.cron()
    listing = club.pbem("inbox")
    assert "unclear sender: its From header names 2 addresses" in listing
    assert "unreadable: its MIME parts are nested" in listing


def test_ingest_stores_any_bytes(club, tmp_path):
    path = tmp_path / "bad.eml"
    path.write_bytes(mail(club, content_type="text/plain; charset*=idna''x"))
    assert "stored as inbox 1" in club.pbem("ingest", str(path), "--now", NOW)
    club.pbem("tick", "--now", NOW)
    assert club.inbox()[0]["status"] == "done"


def test_hundreds_of_strangers_make_one_digest(club):
    store = club.store
    for number in range(300):
        intake.ingest(store, mail(club, sender=f"x{number}@evil.example", number=number),
                       "test", NOW)
    club.pbem("tick", "--now", NOW)
    assert {r["status"] for r in club.inbox()} == {"ignored"}
    assert len(club.to("referee@localhost")) == 1


def test_a_poll_takes_maildir_mail_in_the_order_it_arrived(club):
    inbox = club.folder / "mail" / "inbox" / "new"
    # a delivery agent's names, microseconds unpadded: the later mail sorts first by name
    for name, number, second in (("1700000000.M99999P1.mx", 1, 10), ("1700000000.M100000P1.mx",
                                                                      2, 20)):
        (inbox / name).write_bytes(mail(club, number=number))
        os.utime(inbox / name, ns=(second * 10**9, second * 10**9))
    club.cron()
    assert [r["message_id"] for r in club.inbox()] == \
        ["<ann.1@players.example>", "<ann.2@players.example>"]
