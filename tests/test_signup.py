"""Strangers join an open game by mail: LIST, JOIN, CONFIRM, LEAVE, standby.

Everything goes through real RFC 822 mails to the club's address, stored and
handled as pbem handles mail, on a real SQLite file; the answers are read as
the stranger's mail client shows them. People write as people do: a
greeting, a sign-off, French words, a reply to the answer on top.
"""

import email
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime
import itertools
import re
import smtplib

from click.testing import CliRunner
import pytest

from pbem import inbound
from pbem.adjudicator.rng import PhaseRng
from pbem.app import SeatSpec
from pbem.cli import main
from pbem.mail import intake, smtpd
from pbem.signup import open_game
from pbem.timeutil import later, parse_time

from conftest import START, make_referee
from mails import plain
from servers import free_port, mail_referee, sink  # noqa: F401
from test_mail_browser import browser, mail_faults  # noqa: F401

CLUB = "pbem@referee.example"
NUMBERS = itertools.count(1)


@pytest.fixture
def club(tmp_path):
    """A referee with an open Auguste game 'rome' for 2 players."""
    referee = make_referee(tmp_path)
    open_game(referee, "auguste", "rome", START, players=(2, 2))
    return referee


def write(referee, sender: str, body: str, now: str = START, subject: str = "hello",
          answering: dict | None = None, headers=None) -> dict:
    """A mail from `sender` to the club's address, handled at `now`; returns its inbox row.

    `answering` is an outbox row the mail replies to, quoted below the new text as mail
    clients do."""
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = CLUB
    msg["Subject"] = subject
    msg["Date"] = format_datetime(parse_time(now))
    msg["Message-ID"] = f"<stranger.{next(NUMBERS)}@players.example>"
    for name, value in (headers or {}).items():
        msg[name] = value
    if answering is not None:
        msg.replace_header("Subject", f"Re: {answering['subject']}")
        msg["In-Reply-To"] = answering["message_id"]
        body += "\n\nOn Tue, pbem wrote:\n" + "\n".join(
            "> " + line for line in text_of(answering).splitlines()) + "\n"
    msg.set_content(body)
    row_id = intake.ingest(referee.store, msg.as_bytes(), "test", now)
    inbound.process_inbox(referee, now)
    return referee.store.one("SELECT * FROM inbox WHERE id = ?", [row_id])


def mails_to(referee, address: str) -> list[dict]:
    """The mails pbem queued for an address, oldest first."""
    return [dict(row, raw=referee.store.outbox_mail(row)) for row in referee.store.all(
        "SELECT * FROM outbox WHERE to_addr = ? ORDER BY id", [address])]


def text_of(row: dict) -> str:
    """A mail's text part."""
    return email.message_from_bytes(row["raw"], policy=policy.default).get_body(
        preferencelist=("plain",)).get_content()


def flat(row: dict) -> str:
    """A mail's text part on one line."""
    return " ".join(text_of(row).split())


def code_in(row: dict) -> str:
    """The confirmation code a mail's subject carries."""
    return re.search(r"CONFIRM(?:ER)? ([a-z0-9]{10})", row["subject"]).group(1)


def cli(referee, *args, code=0) -> str:
    """Run a pbem command on the referee's settings; its output."""
    config = str(referee.config.source)
    result = CliRunner().invoke(main, [*args, "--config", config], catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result.output


def seated(referee, game: str) -> list[tuple]:
    """(seat, address, language) of a game's seats, in seat order."""
    return [(s["name"], s["email"], s["lang"]) for s in referee.store.seats(game)]


def test_strangers_list_join_and_confirm_and_the_full_game_starts_at_the_tick(club):
    row = write(club, "Zoé Martin <zoe@players.example>", "Hello!\n\nLIST\n\nThanks, Zoé")
    assert row["status"] == "done", row["reason"]
    [listed] = mails_to(club, "zoe@players.example")
    said = flat(listed)
    assert listed["subject"] == "[pbem] the open games"
    assert "rome: Auguste, legions race the laurel crown" in said
    assert "Seats taken: 0 of 2. It starts when its 2 seats are taken." in said
    assert "To join a game, write JOIN GAME YOUR-NAME (for example JOIN rome Zoé)" in said
    assert max(len(line) for line in text_of(listed).splitlines()) <= 78

    write(club, "Zoé Martin <zoe@players.example>", "Hi,\nJOIN rome\nZoé")
    asked = mails_to(club, "zoe@players.example")[-1]
    code = code_in(asked)
    assert asked["subject"] == f"[pbem] CONFIRM {code} to join game rome"
    assert f"To join game rome (Auguste) as zoe, reply to this mail, or write CONFIRM {code}, " \
           "within 7 days." in flat(asked)
    assert not club.store.all("SELECT * FROM signups"), "joined before confirming"

    # Zoé answers the mail on top of her mailbox, with a few words
    row = write(club, "Zoé Martin <zoe@players.example>", "Yes please!\n\nZoé", answering=asked)
    assert row["reason"] == "signup: join rome confirmed", row["reason"]
    joined = mails_to(club, "zoe@players.example")[-1]
    assert joined["subject"] == "[pbem] you joined game rome"
    assert "You joined game rome as zoe. Seats taken: 1 of 2." in flat(joined)

    # Yann writes in French, with his name after the game's
    write(club, "yann@joueurs.example", "Bonjour,\n\nREJOINDRE rome Yann Le Gall\n\nMerci !")
    demande = mails_to(club, "yann@joueurs.example")[-1]
    code = code_in(demande)
    assert demande["subject"] == f"[pbem] CONFIRMER {code} pour rejoindre la partie rome"
    assert "en tant que yann-le-gall" in flat(demande)
    write(club, "yann@joueurs.example", f"CONFIRMER {code}\nYann")
    assert "La partie est complète" in flat(mails_to(club, "yann@joueurs.example")[-1])

    assert club.store.game("rome") is None, "the game starts at the tick, not before"
    report = club.tick(later(START, 1), send=False)
    assert report.started == ["rome"]
    assert seated(club, "rome") == [("zoe", "zoe@players.example", "en"),
                                    ("yann-le-gall", "yann@joueurs.example", "fr")]
    assert club.store.seat("rome", "yann-le-gall")["player"] == "Yann Le Gall"
    welcomes = {row["to_addr"]: row for row in club.store.all(
        "SELECT * FROM outbox WHERE kind = 'welcome'")}
    assert set(welcomes) == {"zoe@players.example", "yann@joueurs.example"}
    assert "la partie commence" in welcomes["yann@joueurs.example"]["subject"]
    assert not club.store.all("SELECT * FROM signups")
    # the game is listed as running now, and LIST no longer offers it
    write(club, "xavier@players.example", "LIST", now=later(START, 2))
    assert "No game is open for players now. Games under way, which take players on " \
           "their standby list to replace one who leaves: rome." in \
           flat(mails_to(club, "xavier@players.example")[-1])


def test_a_forged_join_is_never_confirmed_stores_only_its_request_and_is_answered_once_a_day(
        club):
    victim = "victim@players.example"
    row = write(club, f"Victim <{victim}>", "JOIN rome Mallory", headers={
        "Received": "from evil.example by mx"})
    assert row["status"] == "done"
    [asked] = mails_to(club, victim)
    code = code_in(asked)
    assert "If you did not ask for this, ignore this mail: nothing is kept" in flat(asked)
    # the forger tries again, and guesses codes: no more mail to the victim today
    for attempt in range(3):
        again = write(club, f"Victim <{victim}>", "JOIN rome Mallory")
        assert again["status"] == "ignored" and "already answered" in again["reason"]
    guessed = write(club, f"Victim <{victim}>", "CONFIRM abcdefghij")
    assert guessed["reason"] == "signup: confirm: no such request"
    guessed = write(club, f"Victim <{victim}>", "CONFIRM bcdefghijk")
    assert guessed["status"] == "ignored"
    # the right code from another address counts for nothing either
    stolen = write(club, "mallory@evil.example", f"CONFIRM {code}")
    assert stolen["reason"] == "signup: confirm: no such request"
    assert len(mails_to(club, victim)) == 2  # the request, and one "nothing to confirm"
    assert not club.store.all("SELECT * FROM signups")
    assert [(r["email"], r["action"]) for r in club.store.all("SELECT * FROM confirmations")] \
        == [(victim, "join")]
    # the victim answers the forged request as people do: it stays unconfirmed
    write(club, f"Victim <{victim}>", "I never asked for this. Who are you?", answering=asked,
          now=later(START, 1))
    assert not club.store.all("SELECT * FROM signups")
    # a day later the forger gets one more mail sent, no more; the old code has expired
    write(club, f"Victim <{victim}>", "JOIN rome Mallory", now=later(START, 25))
    write(club, f"Victim <{victim}>", "JOIN rome Mallory", now=later(START, 26))
    assert len(mails_to(club, victim)) == 3
    late = write(club, victim, f"CONFIRM {code}", now=later(START, 24 * 8))
    assert late["reason"] == "signup: confirm: no such request"
    assert not club.store.all("SELECT * FROM signups")
    # a week on, nothing of the forger's mail is left but the inbox's record of it
    write(club, "someone@players.example", "LIST", now=later(START, 24 * 16))
    assert not club.store.all("SELECT * FROM confirmations")
    assert [r["address"] for r in club.store.all("SELECT * FROM stranger_answers")] == \
        ["someone@players.example"]


def test_a_player_leaves_before_the_start_in_french_and_nothing_else_changes(club):
    write(club, "Anne <anne@joueurs.example>", "Salut\nREJOINDRE rome\nAnne")
    write(club, "Anne <anne@joueurs.example>", "",
          answering=mails_to(club, "anne@joueurs.example")[-1])
    assert [r["name"] for r in club.store.all("SELECT * FROM signups")] == ["anne"]
    assert "anne" in cli(club, "list")

    write(club, "Anne <anne@joueurs.example>", "QUITTER rome\nDésolée !")
    demande = mails_to(club, "anne@joueurs.example")[-1]
    assert demande["subject"].startswith("[pbem] CONFIRMER ")
    assert "Jusque-là, vous gardez votre place." in flat(demande)
    assert [r["name"] for r in club.store.all("SELECT * FROM signups")] == ["anne"]
    write(club, "Anne <anne@joueurs.example>", "oui", answering=demande)
    assert mails_to(club, "anne@joueurs.example")[-1]["subject"] == \
        "[pbem] vous avez quitté la partie rome"
    assert not club.store.all("SELECT * FROM signups")
    # leaving a game one never joined says so, once
    write(club, "bob@players.example", "LEAVE rome")
    assert "there is nothing to leave" in flat(mails_to(club, "bob@players.example")[-1])


def test_strangers_without_these_commands_and_machines_get_no_answer(club):
    chat = write(club, "curious@players.example", "Hi, what is this?\nCheers")
    assert chat["status"] == "ignored" and "a stranger: not answered" in chat["reason"]
    robot = write(club, "no-reply@service.example", "LIST")
    assert robot["status"] == "ignored" and "automatic address" in robot["reason"]
    auto = write(club, "zoe@players.example", "LIST", headers={"Auto-Submitted": "auto-replied"})
    assert auto["status"] == "ignored"
    listed = write(club, "zoe@players.example", "LIST")
    again = write(club, "zoe@players.example", "list")
    assert (listed["status"], again["status"]) == ("done", "ignored")
    assert [r["to_addr"] for r in club.store.all("SELECT * FROM outbox")] == \
        ["zoe@players.example"]
    # a game's name mistyped: the closest open game, once a day
    write(club, "yan@players.example", "JOIN roma")
    assert "There is no open game called roma. Did you mean rome?" in \
        flat(mails_to(club, "yan@players.example")[-1])
    # made-up names, however many, buy a forger no more mail to its victim
    write(club, "yan@players.example", "\n".join(f"JOIN {'x' * 300}{n}" for n in range(5)))
    write(club, "yan@players.example", "LEAVE made-up\nCONFIRM nothing\nCONFIRM other")
    write(club, "yan@players.example", "LEAVE other-made-up\nCONFIRM again")
    assert len(mails_to(club, "yan@players.example")) == 2
    assert max(len(row["subject"]) for row in club.store.all("SELECT subject FROM outbox")) < 80
    assert club.store.one("SELECT count(*) AS n FROM referee_digests")["n"] == 0
    assert {r["status"] for r in club.store.all("SELECT status FROM inbox")} <= \
        {"done", "ignored"}, "a mail that only needed an answer was quarantined"


def test_a_game_with_a_start_date_starts_then_with_enough_players(tmp_path):
    referee = make_referee(tmp_path)
    starts = later(START, 48)
    open_game(referee, "auguste", "lyon", START, players=(2, 4), starts=starts)
    write(referee, "Zoé <zoe@players.example>", "JOIN lyon")
    write(referee, "Zoé <zoe@players.example>", "ok",
          answering=mails_to(referee, "zoe@players.example")[-1])
    assert "It starts when its 4 seats are taken, or on Thu 3 Dec 2026 12:00 (UTC) with at " \
           "least 2 players." in flat(mails_to(referee, "zoe@players.example")[-1])
    referee.tick(starts, send=False)
    assert referee.store.game("lyon") is None
    told = referee.store.all("SELECT * FROM outbox WHERE to_addr = 'boss@referee.example'")
    assert [r["subject"] for r in told] == ["[pbem] game lyon has not started"]
    referee.tick(later(starts, 1), send=False)   # told once, not at every tick
    assert len(referee.store.all("SELECT * FROM outbox WHERE to_addr = ?",
                                 ["boss@referee.example"])) == 1
    write(referee, "Yan <yan@players.example>", "JOIN lyon", now=later(starts, 2))
    write(referee, "Yan <yan@players.example>", "ok",
          answering=mails_to(referee, "yan@players.example")[-1], now=later(starts, 2))
    assert referee.tick(later(starts, 3), send=False).started == ["lyon"]
    assert [s[0] for s in seated(referee, "lyon")] == ["zoe", "yan"]


def test_the_referee_opens_a_game_adds_and_removes_players_and_starts_it(tmp_path):
    referee = make_referee(tmp_path)
    out = cli(referee, "new", "attila", "--id", "hun", "--open", "--players", "2-5",
              "--seat", "ann=ann@players.example", "--now", START)
    assert "game hun is open for 2-5 players" in out
    cli(referee, "new", "attila", "--id", "six", "--open", "--players", "2-6", code=1)
    assert "takes 2-5 players, not 2-6" in cli(referee, "new", "attila", "--id", "six",
                                                 "--open", "--players", "2-6", code=1)
    cli(referee, "signup", "hun", "--add", "bob=bob@players.example", "--lang", "fr")
    cli(referee, "signup", "hun", "--add", "cat=cat@players.example", "--standby")
    assert "hun          attila   open for 2-5 players, joined: ann, bob; starts when full; " \
           "standby: cat" in cli(referee, "list")
    listed = cli(referee, "signup", "hun")
    assert listed.index("ann@players.example") < listed.index("bob@players.example") \
        < listed.index("cat@players.example")
    cli(referee, "signup", "hun", "--remove", "cat", "--now", START)
    assert "you no longer wait for a seat" in mails_to(referee, "cat@players.example")[-1][
        "subject"]
    cli(referee, "signup", "hun", "--start", "--now", START)
    assert seated(referee, "hun") == [("ann", "ann@players.example", "en"),
                                      ("bob", "bob@players.example", "fr")]
    assert "hun          attila   phase 1" in cli(referee, "list")
    assert "is not open for players" in cli(referee, "signup", "hun", "--start", code=1)


def silent_turns(referee, game: str, seat: str, turns: int, now: str) -> str:
    """Let `turns` deadlines pass with every seat but `seat` sending its bot's orders; the
    time after."""
    for turn in range(turns):
        table = referee.table(game)
        for other in table.state["engine"]["requests"]:
            if other != seat:
                orders = table.game.bot_orders(table.state["game"], other,
                                               PhaseRng("silence", other, turn))
                assert not inbound.submit(referee, game, other, orders, now)["errors"]
        now = table.state["engine"]["deadline"]
        referee.tick(now, send=False)
    return now


def test_a_full_game_puts_a_newcomer_on_standby_who_takes_a_seat_in_civil_disorder(club):
    for name in ("zoe", "yan"):
        write(club, f"{name.title()} <{name}@players.example>", "JOIN rome")
        write(club, f"{name.title()} <{name}@players.example>", "ok",
              answering=mails_to(club, f"{name}@players.example")[-1])
    write(club, "Xavier <xavier@players.example>", "JOIN rome")
    asked = mails_to(club, "xavier@players.example")[-1]
    assert "You will wait on its standby list" in flat(asked)
    write(club, "Xavier <xavier@players.example>", "Sure, thanks", answering=asked)
    assert "You are number 1 on the standby list of game rome, as xavier." in \
        flat(mails_to(club, "xavier@players.example")[-1])
    now = later(START, 1)
    club.tick(now, send=False)
    assert [s[0] for s in seated(club, "rome")] == ["zoe", "yan"]
    assert [r["name"] for r in club.store.standby("rome")] == ["xavier"]

    now = silent_turns(club, "rome", "yan", 2, now)
    [notice] = club.store.all("SELECT * FROM outbox WHERE kind = 'disorder'")
    notice = dict(notice, raw=club.store.outbox_mail(notice))
    assert "The game's standby list: xavier." in flat(notice)
    assert "pbem seat rome yan --replace xavier" in text_of(notice)

    out = cli(club, "seat", "rome", "yan", "--replace", "xavier", "--now", now)
    assert "offered to xavier" in out
    offer = mails_to(club, "xavier@players.example")[-1]
    assert offer["subject"].startswith("[pbem] CONFIRM ") and "to take seat yan of game rome" \
        in offer["subject"]
    assert club.store.seat("rome", "yan")["email"] == "yan@players.example"
    write(club, "Xavier <xavier@players.example>", "Yes!", answering=offer, now=now)
    assert club.store.seat("rome", "yan")["email"] == "xavier@players.example"
    assert club.store.seat("rome", "yan")["player"] == "Xavier"
    first = mails_to(club, "xavier@players.example")[-1]
    assert first["kind"] == "replacement" and "you take over seat yan" in first["subject"]
    assert "your seat has a new player" in mails_to(club, "yan@players.example")[-1]["subject"]
    assert not club.store.standby("rome")
    assert "xavier (xavier@players.example), from the standby list, took seat yan" in \
        flat(mails_to(club, "boss@referee.example")[-1])
    # a second answer to the same offer finds the seat taken by the one who answered
    again = write(club, "xavier@players.example", f"CONFIRM {code_in(offer)}", now=now)
    assert again["reason"] == "signup: confirm: no such request"


def test_a_hand_seated_judge_opens_seigneurs_and_a_wrong_number_is_refused(tmp_path):
    referee = make_referee(tmp_path)
    row = open_game(referee, "seigneurs", "vale", START, {"judge": "zed"},
                    seats=[SeatSpec("zed", "zed@players.example")])
    assert (row["min_players"], row["max_players"]) == (3, 6)
    with pytest.raises(Exception, match="takes 3-6 players, not 2-3"):
        open_game(referee, "seigneurs", "vale2", START, {"judge": "zed"}, players=(2, 3),
                  seats=[SeatSpec("zed", "zed@players.example")])


def smtp_send(server, raw: bytes, sender: str) -> None:
    """A mail client hands a mail to pbem's SMTP server."""
    with smtplib.SMTP(server.hostname, server.port, timeout=10) as smtp:
        assert smtp.sendmail(sender, [CLUB], raw.replace(b"\n", b"\r\n")) == {}


def delivered_to(sink, address: str) -> list[email.message.EmailMessage]:
    """The mails the outgoing SMTP server accepted for an address, oldest first."""
    return [email.message_from_bytes(d.raw, policy=policy.default) for d in sink.deliveries
            if d.rcpt_tos == [address]]


@pytest.mark.slow
def test_strangers_join_through_real_smtp_servers_and_get_their_welcome(tmp_path, sink):
    referee = mail_referee(tmp_path, smtp=sink.settings())
    open_game(referee, "auguste", "rome", START, players=(2, 2))
    now = START
    with smtpd.running(referee.config, f"127.0.0.1:{free_port()}", clock=lambda: now) as server:
        for number, (who, words) in enumerate([("Zoé <zoe@players.example>", "JOIN rome"),
                                               ("Yan <yan@joueurs.example>", "REJOINDRE rome")]):
            address = who.split("<")[1].rstrip(">")
            smtp_send(server, plain(who, CLUB, "Hello", f"Hello!\n{words}\n",
                                    message_id=f"<join.{number}@players.example>"), address)
            referee.tick(now)
            [asked] = delivered_to(sink, address)
            smtp_send(server, plain(who, CLUB, f"Re: {asked['Subject']}", "OK, merci !",
                                    message_id=f"<yes.{number}@players.example>",
                                    headers={"In-Reply-To": asked["Message-ID"]}), address)
            referee.tick(now)
            assert "rome" in delivered_to(sink, address)[-1]["Subject"]
        now = later(START, 1)
        referee.tick(now)
    welcome = delivered_to(sink, "yan@joueurs.example")[-1]
    assert "la partie commence" in welcome["Subject"] and "[pbem rome #" in welcome["Subject"]
    assert "the game begins" in delivered_to(sink, "zoe@players.example")[-1]["Subject"]
    assert [s[0] for s in seated(referee, "rome")] == ["zoe", "yan"]


@pytest.mark.slow
def test_the_answers_to_strangers_fit_a_phone_and_78_columns(club, tmp_path, browser):  # noqa: F811
    open_game(club, "saga", "the-long-winter-campaign-2027", START, players=(2, 10),
              starts="2026-12-24T18:00Z")
    write(club, "Zoé Martin <zoe@players.example>", "LISTE")
    write(club, "Zoé Martin <zoe@players.example>", "REJOINDRE rome Zoé-Marie de la Tour")
    write(club, "Yan <yan@players.example>", "LIST")
    write(club, "Yan <yan@players.example>", "JOIN the-long-winter-campaign-2027 --standby")
    mails = {f"{row['to_addr'].split('@')[0]}-{number}": email.message_from_bytes(
        row["raw"], policy=policy.default) for number, row in enumerate(
        mails_to(club, "zoe@players.example") + mails_to(club, "yan@players.example"))}
    assert len(mails) == 4
    for name, msg in mails.items():
        text = msg.get_body(preferencelist=("plain",)).get_content()
        assert max(len(line) for line in text.splitlines()) <= 78, name
    faults = mail_faults(browser, tmp_path, mails)
    assert not faults, "\n".join(faults)
