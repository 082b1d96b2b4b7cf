"""What pbem does with each mail it stores: answer it, refuse it, or set it aside.

Every mail ends with a status and a reason in the inbox, and the outbox shows
whether it was answered. Mails that must not count (automatic, forged,
replayed, flooding, too large) change nothing in the game.
"""

from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import format_datetime

import pytest

from pbem import inbound
from pbem.mail import intake
from pbem.mail.parse import read
from pbem.timeutil import later, parse_time

NOW = "2026-12-01T13:00:00Z"
ORDER = "red: move GUR HAC"


def token(referee, seat: str) -> str:
    """A seat's current token."""
    return referee.store.seat("rome", seat)["token"]


def order_mail(referee, seat="ann", *, body=ORDER, sender=None, tag_token=None, number=1,
               headers=None, date=NOW) -> bytes:
    """A reply from a seat to its game, as a mail client writes it."""
    code = tag_token if tag_token is not None else token(referee, seat)
    msg = EmailMessage()
    msg["From"] = sender or f"{seat.title()} <{seat}@players.example>"
    msg["To"] = f"pbem+rome.{code}@referee.example" if code else "pbem@referee.example"
    msg["Subject"] = f"Re: [pbem rome #{code}] Orders for turn 1." if code else "Re: orders"
    msg["Date"] = format_datetime(parse_time(date))
    msg["Message-ID"] = f"<{seat}.{number}@players.example>"
    for name, value in (headers or {}).items():
        msg[name] = value
    msg.set_content(body)
    return msg.as_bytes()


def deliver(referee, raw: bytes, now: str = NOW) -> dict:
    """Store one mail, handle the inbox, return the mail's inbox row."""
    row_id = intake.ingest(referee.store, raw, "test", now)
    inbound.process_inbox(referee, now)
    return referee.store.one("SELECT * FROM inbox WHERE id = ?", [row_id])


def answers_to(referee, row: dict) -> list[dict]:
    """The outbox rows that answer this inbox row's mail (In-Reply-To its Message-ID)."""
    wanted = read(row["raw"], headers_only=True).message_id
    return [dict(r, raw=referee.store.outbox_mail(r))
            for r in referee.store.all("SELECT * FROM outbox ORDER BY id")
            if wanted and f"In-Reply-To: {wanted}".encode() in referee.store.outbox_mail(r)]


def game_state(referee) -> tuple:
    """Everything a mail could change in game rome."""
    store = referee.store
    return (store.game("rome")["last_hash"],
            store.all("SELECT * FROM submissions ORDER BY id"),
            store.all("SELECT name, token, wait_phase, ready_phase, bouncing FROM seats "
                      "WHERE game = 'rome' ORDER BY name"))


def outbox_count(referee) -> int:
    """How many mails are queued or sent."""
    return referee.store.one("SELECT COUNT(*) AS n FROM outbox")["n"]


# ------------------------------------------------------------------ the normal path


def test_an_order_mail_is_recorded_and_answered(auguste_game):
    row = deliver(auguste_game, order_mail(auguste_game))
    assert (row["status"], row["reason"], row["game"], row["seat"]) == \
        ("done", "orders recorded", "rome", "ann")
    [sub] = auguste_game.store.all("SELECT * FROM submissions")
    assert (sub["seat"], sub["text"], sub["errors"]) == ("ann", ORDER, "[]")
    [answer] = answers_to(auguste_game, row)
    assert answer["to_addr"] == "ann@players.example" and answer["kind"] == "ack"


# ------------------------------------------------------------------ automatic mail (RFC 3834)


@pytest.mark.parametrize(("headers", "sender", "reason"), [
    ({"Auto-Submitted": "auto-replied"}, None, "Auto-Submitted: auto-replied"),
    ({"Auto-Submitted": "auto-generated"}, None, "Auto-Submitted: auto-generated"),
    ({"Precedence": "bulk"}, None, "Precedence: bulk"),
    ({"Precedence": "junk"}, None, "Precedence: junk"),
    ({"Precedence": "list"}, None, "Precedence: list"),
    ({"List-Id": "<players.lists.example>"}, None, "mailing list (List-Id)"),
    ({"Return-Path": "<>"}, None, "empty return path"),
    ({"X-Autoreply": "yes"}, None, "auto-reply (X-Autoreply)"),
    ({"X-Autorespond": "Out of office"}, None, "auto-reply (X-Autorespond)"),
    ({}, "Mail Delivery System <MAILER-DAEMON@players.example>", "sender mailer-daemon@"),
])
def test_automatic_mail_is_never_answered_and_changes_nothing(auguste_game, headers, sender,
                                                              reason):
    before, sent = game_state(auguste_game), outbox_count(auguste_game)
    row = deliver(auguste_game, order_mail(auguste_game, headers=headers, sender=sender))
    assert row["status"] == "ignored"
    assert row["reason"].startswith("automatic mail: " + reason)
    assert outbox_count(auguste_game) == sent
    assert game_state(auguste_game) == before


def test_a_vacation_reply_is_ignored(auguste_game):
    raw = order_mail(auguste_game, body="I am away until Monday.",
                     headers={"Auto-Submitted": "auto-replied", "X-Autoreply": "yes"})
    raw = raw.replace(b"Re: [pbem", b"Out of office: Re: [pbem")
    sent = outbox_count(auguste_game)
    row = deliver(auguste_game, raw)
    assert (row["status"], row["reason"]) == ("ignored", "automatic mail: Auto-Submitted: "
                                                         "auto-replied")
    assert outbox_count(auguste_game) == sent


def test_auto_submitted_no_is_a_person_writing(auguste_game):
    row = deliver(auguste_game, order_mail(auguste_game, headers={"Auto-Submitted": "no"}))
    assert (row["status"], row["reason"]) == ("done", "orders recorded")


DSN = """\
From: Mail Delivery System <MAILER-DAEMON@mx.players.example>
To: pbem@referee.example
Subject: Undelivered Mail Returned to Sender
Date: Tue, 01 Dec 2026 13:00:00 +0000
Message-ID: <bounce.1@mx.players.example>
Auto-Submitted: auto-replied
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="BOUNDARY"

--BOUNDARY
Content-Type: text/plain; charset=us-ascii

I'm sorry to have to inform you that your message could not be delivered.

--BOUNDARY
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.players.example
Arrival-Date: Tue, 01 Dec 2026 12:59:58 +0000

Final-Recipient: rfc822; ann@players.example
Original-Recipient: rfc822;ann@players.example
Action: failed
Status: 5.1.1
Diagnostic-Code: smtp; 550 5.1.1 <ann@players.example>: Recipient address rejected

--BOUNDARY
Content-Type: text/rfc822-headers

From: pbem referee <pbem@referee.example>
To: ann@players.example
Subject: [pbem rome #xxxxxxxxxx] the game begins
Message-ID: {message_id}

--BOUNDARY--
"""


def dsn(referee, seat="ann") -> bytes:
    """A delivery failure report for the welcome mail pbem sent the seat (it quotes its id)."""
    welcome = referee.store.one("SELECT message_id FROM outbox WHERE seat = ? AND kind = "
                                "'welcome'", [seat])["message_id"]
    return DSN.format(message_id=welcome).encode()


def test_a_delivery_failure_marks_the_seat_and_tells_the_referee(auguste_game):
    events, sent = auguste_game.store.game("rome")["last_hash"], outbox_count(auguste_game)
    row = deliver(auguste_game, dsn(auguste_game).replace(b"\n", b"\r\n"))
    assert row["status"] == "bounce"
    assert row["reason"] == "delivery failed for ann in game rome (ann@players.example)"
    assert auguste_game.store.seat("rome", "ann")["bouncing"] == 1
    assert auguste_game.store.seat("rome", "bob")["bouncing"] == 0
    new = auguste_game.store.all("SELECT * FROM outbox WHERE id > ?", [sent])
    assert [(r["to_addr"], r["subject"]) for r in new] == \
        [("boss@referee.example", "[pbem] mail to a player bounced")]
    assert auguste_game.store.game("rome")["last_hash"] == events


def test_a_mail_from_a_bouncing_seat_clears_the_mark(auguste_game):
    deliver(auguste_game, dsn(auguste_game))
    deliver(auguste_game, order_mail(auguste_game))
    assert auguste_game.store.seat("rome", "ann")["bouncing"] == 0


# ------------------------------------------------------------------ flood and size


def test_a_flood_from_one_sender_is_stored_quarantined_and_answered_once(auguste_game):
    """A seat's 31st mail in an hour was quarantined with no answer to the player."""
    auguste_game.end("rome", "the club stopped", NOW)  # nothing is asked of anyone now
    limit = auguste_game.config["mail"]["rate_per_hour"]
    assert limit == 30
    rows = [deliver(auguste_game, order_mail(auguste_game, number=n)) for n in range(limit + 2)]
    assert [r["status"] for r in rows] == ["done"] * limit + ["quarantined"] * 2
    assert rows[-1]["reason"] == \
        "rate limit: more than 30 mails in an hour from ann@players.example"
    assert all(answers_to(auguste_game, r) for r in rows[:limit])
    [held] = answers_to(auguste_game, rows[limit])
    said = " ".join(held["raw"].decode().split())
    assert "You sent more than 30 mails in an hour" in said and \
        "Mails that answer what the game asks of you never count." in said
    assert not answers_to(auguste_game, rows[-1]), "one answer for the hour"
    assert auguste_game.store.one("SELECT COUNT(*) AS n FROM inbox")["n"] == limit + 2
    an_hour_later = later(NOW, 1)
    row = deliver(auguste_game, order_mail(auguste_game, number=99), now=an_hour_later)
    assert row["status"] == "done"


def test_the_mails_a_game_asks_for_never_count_against_the_limit(auguste_game):
    """Seigneurs took 275 mails for 6 turns, many rounds a turn: a seat answering what the
    game asks of it is never held by the hourly limit."""
    limit = auguste_game.config["mail"]["rate_per_hour"]
    rows = [deliver(auguste_game, order_mail(auguste_game, number=n)) for n in range(limit + 5)]
    assert {r["status"] for r in rows} == {"done"}
    assert len(auguste_game.store.all("SELECT id FROM submissions")) == limit + 5


def test_a_mail_over_the_size_limit_gets_a_short_answer_and_is_never_parsed(
        auguste_game, monkeypatch):
    auguste_game.config["mail"]["max_bytes"] = 5000
    reads = []
    real_read = inbound.read
    monkeypatch.setattr(inbound, "read", lambda raw, headers_only=False: (
        reads.append(headers_only), real_read(raw, headers_only))[1])
    before = game_state(auguste_game)
    row = deliver(auguste_game, order_mail(auguste_game, body=ORDER + "\n" + "x" * 6000))
    assert row["status"] == "quarantined"
    assert row["reason"].startswith("too large: ") and row["reason"].endswith("over 5000")
    assert reads and all(reads)
    [answer] = answers_to(auguste_game, row)
    assert (answer["to_addr"], answer["subject"]) == \
        ("ann@players.example", "[pbem] your mail was too large")
    assert game_state(auguste_game) == before


def test_a_stranger_sending_large_mails_is_never_answered(auguste_game):
    auguste_game.config["mail"]["max_bytes"] = 5000
    big = "x" * 6000
    rows = [deliver(auguste_game, order_mail(auguste_game, "eve", body=big, tag_token="",
                                             number=n)) for n in (1, 2)]
    assert [(r["status"], answers_to(auguste_game, r)) for r in rows] == \
        [("quarantined", [])] * 2
    assert all(r["reason"].endswith("not answered") for r in rows)


# ------------------------------------------------------------------ identity


def test_a_forged_from_without_a_token_is_answered_at_the_seat_address(auguste_game):
    before = game_state(auguste_game)
    forged = order_mail(auguste_game, sender="Ann <ann@players.example>", tag_token="",
                        number=7)
    forged = forged.replace(b"Message-ID: <ann.7@", b"Message-ID: <forged.7@")
    row = deliver(auguste_game, forged)
    assert (row["status"], row["reason"]) == ("rejected", "no game tag")
    [answer] = answers_to(auguste_game, row)
    assert answer["to_addr"] == "ann@players.example"
    assert game_state(auguste_game) == before


def test_a_forged_from_with_a_made_up_token_changes_nothing(auguste_game):
    before = game_state(auguste_game)
    row = deliver(auguste_game, order_mail(auguste_game, tag_token="guessed234"))
    assert (row["status"], row["reason"], row["seat"]) == \
        ("rejected", "wrong or missing token", "ann")
    [answer] = answers_to(auguste_game, row)
    assert answer["to_addr"] == "ann@players.example"
    text = read(answer["raw"]).subject
    assert text.endswith("your mail was not accepted")
    assert game_state(auguste_game) == before


def test_another_seats_token_is_refused(auguste_game):
    before = game_state(auguste_game)
    row = deliver(auguste_game, order_mail(auguste_game, "bob", tag_token=token(auguste_game,
                                                                                 "ann")))
    assert (row["status"], row["reason"], row["seat"]) == \
        ("rejected", "token of another seat", "bob")
    [answer] = answers_to(auguste_game, row)
    assert answer["to_addr"] == "bob@players.example"
    assert token(auguste_game, "ann").encode() not in answer["raw"]
    assert game_state(auguste_game) == before


def test_a_replayed_message_id_is_a_duplicate(auguste_game):
    raw = order_mail(auguste_game)
    first = deliver(auguste_game, raw)
    sent = outbox_count(auguste_game)
    second = deliver(auguste_game, raw)
    assert first["status"] == "done"
    assert (second["status"], second["reason"]) == \
        ("duplicate", "Message-ID <ann.1@players.example> already handled")
    assert outbox_count(auguste_game) == sent
    assert len(auguste_game.store.all("SELECT id FROM submissions")) == 1


def test_an_unknown_game_is_answered_once_a_day(auguste_game):
    def mail(number):
        raw = order_mail(auguste_game, number=number)
        return raw.replace(b"[pbem rome #", b"[pbem nosuch #").replace(b"+rome.", b"+nosuch.")

    first = deliver(auguste_game, mail(1))
    second = deliver(auguste_game, mail(2))
    next_day = deliver(auguste_game, mail(3), now=later(NOW, 25))
    assert (first["status"], first["reason"]) == ("rejected", "no game called 'nosuch'")
    assert (second["status"], second["reason"]) == \
        ("ignored", "no game called 'nosuch' (already answered in the last day)")
    assert next_day["status"] == "rejected"
    assert [len(answers_to(auguste_game, r)) for r in (first, second, next_day)] == [1, 0, 1]


def body_of(raw: bytes, kind: str = "plain") -> str:
    """The text (or html) part of a mail pbem sent."""
    return message_from_bytes(raw, policy=policy.default).get_body((kind,)).get_content()


def test_a_refusal_to_a_french_players_address_is_in_french(auguste_game):
    auguste_game.store.update("seats", {"game": "rome", "name": "ann"}, {"lang": "fr"})
    long_subject = "Re: mes ordres pour ce tour, avec toutes mes amitiés et mes excuses"
    raw = order_mail(auguste_game, tag_token="").replace(b"Re: orders", long_subject.encode())
    row = deliver(auguste_game, raw)
    assert (row["status"], row["reason"]) == ("rejected", "no game tag")
    [answer] = answers_to(auguste_game, row)
    assert read(answer["raw"]).subject == \
        "[pbem] Je n'ai pas pu savoir à quelle partie votre message s'adresse"
    text = body_of(answer["raw"])
    assert "n'a pas d'étiquette de partie dans son objet" in text
    assert "l'arbitre de parties par mail" in text
    assert long_subject in " ".join(text.split())
    assert max(len(line) for line in text.splitlines()) <= 78
    assert '<html lang="fr">' in body_of(answer["raw"], "html")


def test_a_refusal_to_an_address_whose_seats_speak_two_languages_is_in_english(auguste_game):
    auguste_game.store.update("seats", {"game": "rome", "name": "ann"}, {"lang": "fr"})
    auguste_game.store.update("seats", {"game": "rome", "name": "bob"},
                              {"email": "ann@players.example"})
    row = deliver(auguste_game, order_mail(auguste_game, tag_token=""))
    [answer] = answers_to(auguste_game, row)
    assert read(answer["raw"]).subject == "[pbem] I could not tell which game your mail is for"
    assert "has no game tag in its subject" in body_of(answer["raw"])


def test_a_too_large_mail_from_a_french_seat_is_answered_in_french(auguste_game):
    auguste_game.store.update("seats", {"game": "rome", "name": "ann"}, {"lang": "fr"})
    auguste_game.config["mail"]["max_bytes"] = 5000
    row = deliver(auguste_game, order_mail(auguste_game, body="x" * 6000))
    assert row["status"] == "quarantined"
    [answer] = answers_to(auguste_game, row)
    assert read(answer["raw"]).subject == "[pbem] votre message était trop gros"
    text = body_of(answer["raw"])
    assert "au-delà de la limite de 5000 octets" in text
    assert max(len(line) for line in text.splitlines()) <= 78


def test_a_stranger_is_never_answered(auguste_game):
    before = game_state(auguste_game)
    rows = [deliver(auguste_game, order_mail(auguste_game, "eve", tag_token="guessed234",
                                             number=n)) for n in range(3)]
    assert [r["status"] for r in rows] == ["ignored"] * 3
    assert rows[0]["reason"] == "sender is not a seat (a stranger: not answered)"
    assert [len(answers_to(auguste_game, r)) for r in rows] == [0, 0, 0]
    assert game_state(auguste_game) == before
    rows = [deliver(auguste_game, order_mail(auguste_game, "eve", tag_token=token(
        auguste_game, "ann"), number=n)) for n in range(3, 6)]
    assert [r["status"] for r in rows] == ["rejected", "ignored", "ignored"], \
        "with ann's code: ann is told, once a day"
    assert [len(answers_to(auguste_game, r)) for r in rows] == [0, 0, 0]
    assert game_state(auguste_game)[:2] == before[:2]


def test_every_mail_ends_with_a_status_a_reason_and_an_answer_or_none(auguste_game):
    auguste_game.config["mail"]["max_bytes"] = 5000
    mails = [
        order_mail(auguste_game),
        order_mail(auguste_game, body="STATUS", number=2),
        order_mail(auguste_game, body="no orders in here, sorry", number=3),
        order_mail(auguste_game, "bob", tag_token="guessed234"),
        order_mail(auguste_game, "eve", tag_token=""),
        order_mail(auguste_game, headers={"Precedence": "bulk"}, number=4),
        order_mail(auguste_game, body="x" * 6000, number=5),
        order_mail(auguste_game),
        dsn(auguste_game),
        b"\x00\xff not a mail at all",
        order_mail(auguste_game, body="red: moev BUK BUV", number=6),
    ]
    for raw in mails:
        intake.ingest(auguste_game.store, raw, "test", NOW)
    inbound.process_inbox(auguste_game, NOW)
    rows = auguste_game.store.all("SELECT * FROM inbox ORDER BY id")
    assert [(r["status"], r["reason"]) for r in rows] == [
        ("done", "orders recorded"),
        ("done", "commands status"),
        ("done", "no orders: 1 remark set aside"),
        ("rejected", "wrong or missing token"),
        ("done", "signup: no command: the open games"),
        ("ignored", "automatic mail: Precedence: bulk"),
        ("quarantined", f"too large: {len(mails[6])} bytes, over 5000"),
        ("duplicate", "Message-ID <ann.1@players.example> already handled"),
        ("bounce", "delivery failed for ann in game rome (ann@players.example)"),
        ("ignored", "automatic mail: sender (none)"),
        ("done", "orders not recorded: no line could be used (1 error)"),
    ]
    answers = [len(answers_to(auguste_game, r)) for r in rows]
    # the duplicate shares its Message-ID, and so its one answer, with the first mail
    assert answers == [1, 1, 1, 1, 1, 0, 1, 1, 0, 0, 1]


def test_forged_mails_to_a_seat_are_refused_once_a_day(auguste_game):
    rows = [deliver(auguste_game, order_mail(auguste_game, tag_token="guessed234", number=n))
            for n in range(3)]
    later_row = deliver(auguste_game, order_mail(auguste_game, tag_token="guessed234", number=9),
                        now=later(NOW, 25))
    assert [r["status"] for r in rows] == ["rejected", "ignored", "ignored"]
    assert rows[1]["reason"] == "wrong or missing token (already answered in the last day)"
    assert [len(answers_to(auguste_game, r)) for r in rows + [later_row]] == [1, 0, 0, 1]


def test_the_referee_can_release_a_quarantined_mail(auguste_game):
    auguste_game.end("rome", "the club stopped", NOW)
    limit = auguste_game.config["mail"]["rate_per_hour"]
    rows = [deliver(auguste_game, order_mail(auguste_game, number=n)) for n in range(limit + 1)]
    stuck = rows[-1]
    assert stuck["status"] == "quarantined"
    assert [r["id"] for r in inbound.held(auguste_game.store)] == [stuck["id"]]
    assert inbound.release(auguste_game.store, [stuck["id"], rows[0]["id"]]) == 1
    inbound.process_inbox(auguste_game, NOW)
    row = auguste_game.store.one("SELECT * FROM inbox WHERE id = ?", [stuck["id"]])
    held, answered = answers_to(auguste_game, row)
    assert row["status"] == "done" and b"your mail was not read" in held["raw"]
    assert b"this game is over" in answered["raw"]
    assert inbound.held(auguste_game.store) == []


# ------------------------------------------------------------------ a seat's second address


def test_a_seats_code_from_another_address_is_not_taken_and_the_seat_is_told(auguste_game):
    """ann's code, sent from her work address: no answer to either address, 5 orders lost
    while she believed they were in; the referee's digest named neither game nor seat."""
    from pbem.digest import digest
    before = game_state(auguste_game)
    work = "Ann <ann@work.example>"
    row = deliver(auguste_game, order_mail(auguste_game, sender=work))
    assert (row["status"], row["game"], row["seat"]) == ("rejected", "rome", "ann")
    assert game_state(auguste_game)[1] == before[1], "no orders taken"
    [told] = [r for r in auguste_game.store.all("SELECT * FROM outbox ORDER BY id")
              if r["to_addr"] == "ann@players.example" and r["kind"] == "ack"]
    said = " ".join(auguste_game.store.outbox_mail(told).decode().split())
    assert "A mail carrying your seat's code came from ann@work.example" in said
    assert "pbem seat rome ann --email ann@work.example" in said
    assert not [r for r in auguste_game.store.all("SELECT to_addr FROM outbox")
                if r["to_addr"] == "ann@work.example"], "the other address is not answered"
    count = outbox_count(auguste_game)
    again = deliver(auguste_game, order_mail(auguste_game, sender=work, number=2),
                    now=later(NOW, 2))
    assert again["status"] == "ignored" and outbox_count(auguste_game) == count, \
        "told once a day"
    assert digest(auguste_game, later(NOW, 3))
    [mail] = auguste_game.store.all("SELECT * FROM outbox WHERE kind = 'digest'")
    text = " ".join(auguste_game.store.outbox_mail(mail).decode().split())
    assert "from ann@work.example to game rome, seat ann: the code of seat ann from " \
           "another address" in text, text
