"""Strangers join an open game by mail: LIST, JOIN, NAME, CONFIRM, LEAVE, WHOGAME, standby.

Everything goes through real RFC 822 mails to the club's address, stored and
handled as pbem handles mail, on a real SQLite file; the answers are read as
the stranger's mail client shows them. People write as people do: a
greeting, a sign-off, French words, a reply to the answer on top, a command
in the subject, a question in their own words. Every such mail is answered,
in its language; a seat is named by the game's role, by the name its player
chose, or neutrally, never from words the player did not mean as a name; and
only a word of consent from the joining address confirms a JOIN.
"""

import email
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime
import itertools
import re
import smtplib

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st
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
    assert "rome: Auguste, legions race the laurel crown to their camp on a hex board; for 2 " \
           "players. Seats taken: 0 of 2. It starts when its 2 seats are taken." in said
    assert "To join a game, write JOIN GAME (for example JOIN rome)" in said
    assert max(len(line) for line in text_of(listed).splitlines()) <= 78

    write(club, "Zoé Martin <zoe@players.example>", "Hi,\nJOIN rome\nNAME Zoé\nZoé")
    asked = mails_to(club, "zoe@players.example")[-1]
    code = code_in(asked)
    assert asked["subject"] == f"[pbem] CONFIRM {code} to join game rome"
    first = text_of(asked).split("\n\n")[1]
    assert " ".join(first.split()) == "If you did not ask for this, ignore this mail: nothing " \
        "happens without your answer, and nobody can join with your address without this code."
    assert f"To join game rome (Auguste), reply to this mail with yes, or write CONFIRM {code}, " \
           "within 7 days. Your seat will be named zoe." in flat(asked)
    assert not club.store.all("SELECT * FROM signups"), "joined before confirming"

    # Zoé answers the mail on top of her mailbox, with a few words
    row = write(club, "Zoé Martin <zoe@players.example>", "Yes please!\n\nZoé", answering=asked)
    assert row["reason"] == "signup: join rome confirmed", row["reason"]
    joined = mails_to(club, "zoe@players.example")[-1]
    assert joined["subject"] == "[pbem] you joined game rome"
    assert "You joined game rome as zoe. Seats taken: 1 of 2." in flat(joined)

    # Yann writes in French, his name after the game's: not taken for the seat's name
    write(club, "Yann Le Gall <yann@joueurs.example>",
          "Bonjour,\n\nREJOINDRE rome Yann Le Gall\n\nMerci !")
    demande = mails_to(club, "yann@joueurs.example")[-1]
    code = code_in(demande)
    assert demande["subject"] == f"[pbem] CONFIRMER {code} pour rejoindre la partie rome"
    assert "Non lu : « Yann Le Gall », après le nom de la partie." in flat(demande)
    assert "Votre place prendra un nom neutre (player1, player2...)" in flat(demande)
    write(club, "Yann Le Gall <yann@joueurs.example>", f"CONFIRMER {code}\nYann")
    assert "La partie est complète" in flat(mails_to(club, "yann@joueurs.example")[-1])

    assert club.store.game("rome") is None, "the game starts at the tick, not before"
    report = club.tick(later(START, 1), send=False)
    assert report.started == ["rome"]
    assert seated(club, "rome") == [("zoe", "zoe@players.example", "en"),
                                    ("player1", "yann@joueurs.example", "fr")]
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


# What people write to a club's address instead of a command, in English and in French:
# every such mail gets the open games and how to join, in the language it is written in.
OPENINGS = {"en": ["", "Hi,", "Hello there!", "Dear referee,", "Good evening"],
            "fr": ["", "Bonjour,", "Salut !", "Bonsoir à tous,", "Coucou"]}
ASKING = {"en": ["list please", "Please LIST", "list of games?", "what games are open?",
                 "Hi, I'd like to play something", "how do I join?", "is anyone playing?",
                 "I saw your club on the forum.", "HELP me", "JION rome"],
          "fr": ["je veux jouer", "liste svp", "quelles parties sont ouvertes ?",
                 "je voudrais jouer avec vous", "comment on s'inscrit ?",
                 "Je veux jouer une partie s'il vous plaît", "LISTE des parties"]}
CLOSINGS = {"en": ["", "Thanks", "Cheers,\nZoé", "Best regards,\nZoé Martin"],
            "fr": ["", "Merci", "Cordialement,\nJean Dupont", "Bises,\nAnne"]}


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lang=st.sampled_from(["en", "fr"]), data=st.data())
def test_a_stranger_writing_in_their_own_words_is_answered_in_their_language(club, lang, data):
    words = [data.draw(st.sampled_from(OPENINGS[lang])),
             data.draw(st.sampled_from(ASKING[lang])),
             data.draw(st.sampled_from(CLOSINGS[lang]))]
    sender = f"stranger{next(NUMBERS)}@players.example"
    row = write(club, sender, "\n\n".join(w for w in words if w),
                subject=data.draw(st.sampled_from(["", "hello", "Question", "?"])))
    assert row["status"] == "done", row["reason"]
    [answer] = mails_to(club, sender)
    said = flat(answer)
    if answer["subject"] in ("[pbem] what to write to this address",
                             "[pbem] quoi écrire à cette adresse"):
        assert ("JOIN GAME" if lang == "en" else "REJOINDRE PARTIE") in said
    else:
        assert "rome: Auguste" in said or "rome : Auguste" in said
        assert ("write JOIN GAME" if lang == "en" else "écrivez REJOINDRE PARTIE") in said
    assert ("pbem, the play-by-email referee" if lang == "en" else "l'arbitre") in said


def test_help_whogame_and_a_game_named_in_passing_are_answered_without_an_address(club):
    open_game(club, "diplomacy", "dip", START, players=(3, 3))
    write(club, "Zoé <zoe@players.example>", "JOIN rome\nNAME zoe")
    write(club, "Zoé <zoe@players.example>", "yes",
          answering=mails_to(club, "zoe@players.example")[-1])
    write(club, "ann@players.example", "Hi, I'd like to join the diplomacy game")
    said = flat(mails_to(club, "ann@players.example")[-1])
    assert "Your mail gives none of the commands this address takes" in said
    assert "To join game dip (Diplomacy), write JOIN dip." in said
    assert "dip: Diplomacy, the seven great powers of 1901 Europe; every order written at " \
           "once; for 3 players." in said, "a 3-3 game is not said to take 2-7"
    write(club, "bob@players.example", "HELP")
    assert "Write one command on a line of its own: LIST (the open games); WHOGAME GAME" in \
        flat(mails_to(club, "bob@players.example")[-1])
    write(club, "bob@players.example", "LIST rome")
    told = mails_to(club, "bob@players.example")[-1]
    assert told["subject"] == "[pbem] who plays game rome"
    assert "Game rome (Auguste) is open for 2 players: 1 of 2 seats taken (zoe); 0 on its " \
           "standby list." in flat(told)
    assert "zoe@" not in text_of(told)
    # a game under way: each seat and its state, in French for QUIJOUE
    club.new_game("auguste", "lyon", [SeatSpec("ann", "ann@players.example"),
                                      SeatSpec("cat", "cat@players.example")], START, {},
                  seed="lyon")
    write(club, "yves@joueurs.example", "QUIJOUE lyon")
    dit = flat(mails_to(club, "yves@joueurs.example")[-1])
    assert "La partie lyon (Auguste) est en cours : ann joue ; cat joue ; 0 sur sa liste de " \
           "remplaçants." in dit
    assert "@" not in dit.split("--")[0].replace("pbem@referee.example", "")


def test_the_body_wins_over_the_subject_and_a_reply_to_which_game_names_one(club):
    write(club, "ann@players.example", "JOIN rome", subject="join")
    assert mails_to(club, "ann@players.example")[-1]["subject"].endswith("to join game rome")
    write(club, "ann@players.example", "yes", answering=mails_to(club, "ann@players.example")[-1])
    write(club, "ann@players.example", "LEAVE rome", subject="leave")
    assert mails_to(club, "ann@players.example")[-1]["subject"].endswith("to leave game rome")
    # a subject alone: its word that names no game is no game
    write(club, "bob@players.example", "", subject="join again")
    which = mails_to(club, "bob@players.example")[-1]
    assert which["subject"] == "[pbem] JOIN: which game?"
    assert "Say which game: reply with its name, or write JOIN GAME." in flat(which)
    write(club, "bob@players.example", "The rome one, please.", answering=which)
    assert mails_to(club, "bob@players.example")[-1]["subject"].endswith("to join game rome")
    write(club, "yves@joueurs.example", "Bonjour, je voudrais jouer", subject="rejoindre")
    quelle = mails_to(club, "yves@joueurs.example")[-1]
    assert quelle["subject"] == "[pbem] REJOINDRE : quelle partie ?"
    write(club, "yves@joueurs.example", "rome\nYves", answering=quelle)
    assert "pour rejoindre la partie rome" in mails_to(club, "yves@joueurs.example")[-1]["subject"]


def test_seats_are_named_by_roles_names_chosen_or_neutrally_and_never_by_a_display_name(
        club):
    open_game(club, "diplomacy", "dip", START, players=(3, 3), seed="deal")
    wishes = {"ann": "JOIN dip as France", "bob": "REJOINDRE dip France puis Angleterre",
              "cat": "join dip England"}
    for name, body in wishes.items():
        write(club, f"{name.title()} Smith <{name}@players.example>", f"Hi\n{body}\n{name}")
        asked = mails_to(club, f"{name}@players.example")[-1]
        assert "named for its role (austria-england-germany, france-turkey, italy-russia)" in \
            flat(asked) or "porte le nom de son rôle (austria-england-germany" in flat(asked)
        write(club, f"{name.title()} Smith <{name}@players.example>", "Oui !" if name == "bob"
              else "Yes, count me in", answering=asked)
    assert [r["name"] for r in club.store.all("SELECT name FROM signups WHERE game = 'dip' "
                                              "ORDER BY number")] == ["player1", "player2",
                                                                      "player3"]
    club.tick(later(START, 1), send=False)
    seats = {s["email"].split("@")[0]: s["name"] for s in club.store.seats("dip")}
    assert set(seats.values()) == {"austria-england-germany", "france-turkey", "italy-russia"}
    assert seats["cat"] == "austria-england-germany", "the one who alone asked for England"
    assert "france-turkey" in (seats["ann"], seats["bob"])
    powers = club.table("dip").state["game"]["powers"]
    assert all(seat.split("-").count(power) == 1 for power, seat in powers.items() if seat)
    # the deal is drawn from the game's seed: anyone can draw it again once it is revealed
    from pbem.signup import DEAL, dealt
    again = dealt({"austria-england-germany": ["english"], "france-turkey": ["french"],
                   "italy-russia": []},
                  [{"email": f"{n}@players.example", "wishes": w} for n, w in
                   [("ann", '["france"]'), ("bob", '["france", "angleterre"]'),
                    ("cat", '["england"]')]], PhaseRng("deal", "dip", DEAL))
    assert {e.split("@")[0]: r for e, r in again.items()} == seats

    # a game without roles: the name chosen with NAME, else player1...; never the From name
    write(club, "Zoé Martin <zoe@players.example>", "JOIN rome")
    write(club, "Zoé Martin <zoe@players.example>", "Yes", answering=mails_to(
        club, "zoe@players.example")[-1])
    write(club, "Xavier <xavier@players.example>", "JOIN rome as Caesar\nNAME all")
    asked = mails_to(club, "xavier@players.example")[-1]
    assert '"all" cannot name a seat' in flat(asked)
    assert 'Not read: "as Caesar", after the game\'s name.' in flat(asked)
    write(club, "Xavier <xavier@players.example>", "yes\nNAME Xavier-Dupont", answering=asked)
    assert [r["name"] for r in club.store.all("SELECT name FROM signups WHERE game = 'rome' "
                                              "ORDER BY number")] == ["player1", "xavier-dupont"]


def test_a_password_is_refused_and_never_kept_nor_said_back(club):
    write(club, "ann@players.example", "JOIN rome PASSWORD hunter2")
    said = flat(mails_to(club, "ann@players.example")[-1])
    assert "pbem asks for no password, and keeps none: the code it mails does that work." in said
    write(club, "bob@joueurs.example", "mot de passe: secret42\nREJOINDRE rome mdp secret42")
    assert "pbem ne demande aucun mot de passe" in flat(mails_to(club, "bob@joueurs.example")[-1])
    kept = " ".join(str(v) for table in ("outbox", "signups", "confirmations")
                    for row in club.store.all(f"SELECT * FROM {table}") for v in row.values())
    kept += " ".join(text_of(row) for row in mails_to(club, "ann@players.example")
                     + mails_to(club, "bob@joueurs.example"))
    kept += " ".join(r["reason"] for r in club.store.all("SELECT reason FROM inbox"))
    assert "hunter2" not in kept and "secret42" not in kept


def test_a_mail_of_many_commands_answers_each_or_says_it_was_not_done(club):
    write(club, "ann@players.example", "Hello!\nLIST\nJOIN rome\nWHOGAME rome\nLIST please\n"
          "CONFIRM abcdefghij\nHELP\nLEAVE hun\nJOIN nosuch\nCheers")
    [answer] = mails_to(club, "ann@players.example")
    said = flat(answer)
    assert said.count("rome: Auguste") == 1, "the games are listed once"
    assert "to join game rome" in answer["subject"]
    assert "Game rome (Auguste) is open for 2 players" in said
    assert "Write one command on a line of its own" in said
    assert "A mail is read for its first 5 commands; these were not done: LEAVE hun; JOIN " \
           "nosuch. Send them again in another mail." in said


def test_confirm_twice_join_twice_a_past_start_date_and_the_digest_say_what_is_so(tmp_path):
    referee = make_referee(tmp_path)
    open_game(referee, "auguste", "lyon", START, players=(3, 3), starts=later(START, 1))
    write(referee, "ann@players.example", "JOIN lyon")
    asked = mails_to(referee, "ann@players.example")[-1]
    write(referee, "ann@players.example", f"CONFIRM {code_in(asked)}")
    again = write(referee, "ann@players.example", f"CONFIRM {code_in(asked)}")
    assert again["status"] == "done"
    assert "You wait for a seat in game lyon, as player1, since" in \
        flat(mails_to(referee, "ann@players.example")[-1])
    # a second JOIN while waiting: nothing changes, no new code
    write(referee, "ann@players.example", "JOIN lyon", now=later(START, 25))
    assert "You already wait for a seat in game lyon, as player1: nothing changed." in \
        flat(mails_to(referee, "ann@players.example")[-1])
    # a JOIN again while its first code waits: the same code
    write(referee, "bob@players.example", "JOIN lyon")
    first = code_in(mails_to(referee, "bob@players.example")[-1])
    write(referee, "bob@players.example", "JOIN lyon", now=later(START, 25))
    assert code_in(mails_to(referee, "bob@players.example")[-1]) == first
    # the start date has passed without enough players: no date in the past is promised
    said = flat(mails_to(referee, "bob@players.example")[-1])
    assert "Its start date has passed: it starts as soon as it has 3 players." in said
    assert "or on Tue 1 Dec" not in said
    referee.tick(later(START, 26), send=False)
    digest = [r for r in referee.store.all("SELECT * FROM outbox WHERE kind = 'digest'")]
    assert not digest, "a stranger's answered mail is not refused mail"
    assert {r["status"] for r in referee.store.all("SELECT status FROM inbox")} == {"done"}


def test_a_forged_join_is_never_confirmed_stores_only_its_request_and_is_answered_once_a_day(
        club):
    victim = "victim@players.example"
    row = write(club, f"Victim <{victim}>", "JOIN rome\nNAME Mallory rules", headers={
        "Received": "from evil.example by mx"})
    assert row["status"] == "done"
    [asked] = mails_to(club, victim)
    code = code_in(asked)
    assert "If you did not ask for this, ignore this mail: nothing happens" in flat(asked)
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
    assert "Your reply does not say yes, so nothing was done" in \
        flat(mails_to(club, victim)[-1])
    # a day later the forger gets one more mail sent, no more; the old code has expired
    write(club, f"Victim <{victim}>", "JOIN rome Mallory", now=later(START, 25))
    write(club, f"Victim <{victim}>", "JOIN rome Mallory", now=later(START, 26))
    assert len(mails_to(club, victim)) == 4
    late = write(club, victim, f"CONFIRM {code}", now=later(START, 24 * 8))
    assert late["reason"] == "signup: confirm: no such request"
    assert not club.store.all("SELECT * FROM signups")
    # a week on, nothing of the forger's mail is left but the inbox's record of it
    write(club, "someone@players.example", "LIST", now=later(START, 24 * 16))
    assert not club.store.all("SELECT * FROM confirmations")
    assert [r["address"] for r in club.store.all("SELECT * FROM stranger_answers")] == \
        ["someone@players.example"]


# What a victim's mailbox, or a person who did not ask, sends back to a code's mail without
# saying yes: never consent. What a player who wants to join says: always consent.
NOT_YES = ["", "Thanks!", "Ok", "Merci", "OK, thanks", "Merci beaucoup !", "Bonjour,\nMerci",
           "I am out of the office until Monday 7 December. For urgent matters call Bob.",
           "Je suis absent du bureau jusqu'au 7 décembre.", "Thank you for your message.",
           "I never asked for this", "No thanks", "Non merci", "Who are you?", "Stop",
           "Cheers,\nZoé Martin\nSent from my phone", "Received, thanks.", "Ok merci",
           "Parfait", "Bien reçu", "Your message was received and will be read soon."]
YES_SAID = ["yes", "Yes please!", "Oui", "oui merci", "ok, count me in", "Sure, thanks",
            "Yes!\n\nZoé", "Bonjour,\nOui, je confirme.\nAnne", "Yes, I'm in. Cheers",
            "d'accord, je suis partante"]


@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(said=st.sampled_from(NOT_YES + YES_SAID), quoted=st.booleans(),
       signed=st.sampled_from(["", "\n-- \nZoé Martin\n06 12 34 56 78"]))
def test_consent_is_a_word_in_the_reply_never_its_quote_signature_or_silence(
        club, said, quoted, signed):
    sender = f"joiner{next(NUMBERS)}@players.example"
    write(club, f"Zoé Martin <{sender}>", "JOIN rome")
    asked = mails_to(club, sender)[-1]
    reply = write(club, f"Zoé Martin <{sender}>", said + signed,
                  answering=asked if quoted else None,
                  subject=f"Re: {asked['subject']}")
    assert reply["status"] == "done", reply["reason"]
    enrolled = club.store.one("SELECT * FROM signups WHERE email = ?", [sender])
    assert bool(enrolled) == (said in YES_SAID), (said, reply["reason"])
    club.store.execute("DELETE FROM signups")


def test_a_player_leaves_before_the_start_in_french_and_nothing_else_changes(club):
    write(club, "Anne <anne@joueurs.example>", "Salut\nREJOINDRE rome\nNOM Anne\nAnne")
    write(club, "Anne <anne@joueurs.example>", "Oui",
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


def test_machines_get_no_answer_and_a_stranger_is_answered_once_a_day(club):
    robot = write(club, "no-reply@service.example", "LIST")
    assert robot["status"] == "ignored" and "automatic address" in robot["reason"]
    auto = write(club, "zoe@players.example", "LIST", headers={"Auto-Submitted": "auto-replied"})
    assert auto["status"] == "ignored"
    listed = write(club, "zoe@players.example", "LIST")
    again = write(club, "zoe@players.example", "list")
    chat = write(club, "zoe@players.example", "Hi, what is this?\nCheers")
    assert (listed["status"], again["status"], chat["status"]) == ("done", "ignored", "ignored")
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
    write(referee, "Zoé <zoe@players.example>", "yes",
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
    write(referee, "Yan <yan@players.example>", "yes",
          answering=mails_to(referee, "yan@players.example")[-1], now=later(starts, 2))
    assert referee.tick(later(starts, 3), send=False).started == ["lyon"]
    assert [s[0] for s in seated(referee, "lyon")] == ["player1", "player2"]


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
        write(club, f"{name.title()} <{name}@players.example>", f"JOIN rome\nNAME {name}")
        write(club, f"{name.title()} <{name}@players.example>", "yes",
              answering=mails_to(club, f"{name}@players.example")[-1])
    write(club, "Xavier <xavier@players.example>", "JOIN rome")
    asked = mails_to(club, "xavier@players.example")[-1]
    assert "You will wait on its standby list" in flat(asked)
    write(club, "Xavier <xavier@players.example>", "Sure, thanks", answering=asked)
    assert "You are number 1 on the standby list of game rome, as player1." in \
        flat(mails_to(club, "xavier@players.example")[-1])
    now = later(START, 1)
    club.tick(now, send=False)
    assert [s[0] for s in seated(club, "rome")] == ["zoe", "yan"]
    assert [r["name"] for r in club.store.standby("rome")] == ["player1"]

    now = silent_turns(club, "rome", "yan", 2, now)
    [notice] = club.store.all("SELECT * FROM outbox WHERE kind = 'disorder'")
    notice = dict(notice, raw=club.store.outbox_mail(notice))
    assert "The game's standby list: player1." in flat(notice)
    assert "pbem seat rome yan --replace player1" in text_of(notice)

    out = cli(club, "seat", "rome", "yan", "--replace", "player1", "--now", now)
    assert "offered to player1" in out
    offer = mails_to(club, "xavier@players.example")[-1]
    assert offer["subject"].startswith("[pbem] CONFIRM ") and "to take seat yan of game rome" \
        in offer["subject"]
    assert club.store.seat("rome", "yan")["email"] == "yan@players.example"
    row = write(club, "Xavier <xavier@players.example>", "Yes!", answering=offer, now=now)
    assert row["status"] == "done", "a seat taken is no refused mail for the digest"
    assert club.store.seat("rome", "yan")["email"] == "xavier@players.example"
    assert club.store.seat("rome", "yan")["player"] == "Xavier", "not the first player's name"
    first = mails_to(club, "xavier@players.example")[-1]
    assert first["kind"] == "replacement" and "you take over seat yan" in first["subject"]
    assert "your seat has a new player" in mails_to(club, "yan@players.example")[-1]["subject"]
    assert not club.store.standby("rome")
    assert "player1 (xavier@players.example), from the standby list, took seat yan" in \
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
            smtp_send(server, plain(who, CLUB, f"Re: {asked['Subject']}", "Oui, merci !",
                                    message_id=f"<yes.{number}@players.example>",
                                    headers={"In-Reply-To": asked["Message-ID"]}), address)
            referee.tick(now)
            assert "rome" in delivered_to(sink, address)[-1]["Subject"]
        now = later(START, 1)
        referee.tick(now)
    welcome = delivered_to(sink, "yan@joueurs.example")[-1]
    assert "la partie commence" in welcome["Subject"] and "[pbem rome #" in welcome["Subject"]
    assert "the game begins" in delivered_to(sink, "zoe@players.example")[-1]["Subject"]
    assert [s[0] for s in seated(referee, "rome")] == ["player1", "player2"]


@pytest.mark.slow
def test_the_answers_to_strangers_fit_a_phone_and_78_columns(club, tmp_path, browser):  # noqa: F811
    open_game(club, "saga", "the-long-winter-campaign-2027", START, players=(2, 10),
              starts="2026-12-24T18:00Z")
    write(club, "Zoé Martin <zoe@players.example>", "LISTE")
    write(club, "Zoé Martin <zoe@players.example>", "REJOINDRE rome\nNOM Zoé-Marie de la Tour")
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
