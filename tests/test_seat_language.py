"""Each seat's mail in its own language and time zone, set at creation or by the referee."""

import email
from email import policy

from click.testing import CliRunner
import pytest

from pbem import i18n, inbound
from pbem.app import SeatSpec
from pbem.cli import main
from pbem.i18n import _, speaking

from conftest import START

NB = "\u00a0"


@pytest.fixture
def run(tmp_path, monkeypatch):
    """Run a pbem command in a fresh, initialised folder."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    runner = CliRunner()

    def invoke(*args, code=0):
        result = runner.invoke(main, list(args), catch_exceptions=False)
        assert result.exit_code == code, result.output
        return result.output
    invoke("init")
    return invoke


def sent(tmp_path) -> dict:
    """The mails pbem tick delivered, by (recipient, kind of mail from its subject)."""
    mails = {}
    for path in sorted((tmp_path / "mail" / "outbox" / "new").iterdir()):
        msg = email.message_from_bytes(path.read_bytes(), policy=policy.default)
        mails.setdefault(str(msg["To"]), []).append(msg)
    return mails


def parts(msg):
    return (msg.get_body(preferencelist=("plain",)).get_content(),
            msg.get_body(preferencelist=("html",)).get_content())


NEW = ["new", "auguste", "--id", "rome", "--preset", "4-2", "--seed", "s1",
       "--seat", "ann=ann@x.example", "--seat", "bob=bob@x.example",
       "--now", "2026-12-01T12:00Z"]


def test_a_french_seat_gets_its_welcome_in_french(run, tmp_path):
    run(*NEW, "--lang", "ann=fr", "--tz", "ann=Europe/Paris")
    run("tick", "--now", "2026-12-01T12:00Z")
    mails = sent(tmp_path)
    ann_text, ann_html = parts(mails["ann@x.example"][0])
    assert f"Date limite{NB}: jeu. 3 déc. 2026 13:00 (Europe/Paris)." in ann_text
    assert f"Commandes{NB}: AIDE, ÉTAT, ATTENDS, PRÊT," in ann_text
    assert '<html lang="fr">' in ann_html and "jeu. 3 déc. 2026 13:00" in ann_html
    assert all(len(line) <= 78 for line in ann_text.split("--\n")[-1].splitlines())
    bob_text, bob_html = parts(mails["bob@x.example"][0])
    assert "Deadline: Thu 3 Dec 2026 12:00 (UTC)." in bob_text
    assert '<html lang="en">' in bob_html and "Date limite" not in bob_text
    assert "language fr, timezone Europe/Paris" in run("seat", "rome", "ann")


def test_the_game_language_is_the_default_of_seats_without_their_own(run, tmp_path):
    run(*NEW, "--option", "lang=français", "--lang", "bob=en")
    assert "language fr" in run("seat", "rome", "ann")
    assert "language en" in run("seat", "rome", "bob")
    assert "--option lang:" in run("games")


def test_the_referee_switches_a_seat_language_and_time_zone(run, tmp_path):
    run(*NEW)
    out = run("seat", "rome", "bob", "--lang", "French", "--tz", "America/Montreal")
    assert "now gets its mail in fr, with times in America/Montreal" in out
    run("extend", "rome", "--hours", "24", "--now", "2026-12-01T13:00Z")
    run("tick", "--now", "2026-12-01T13:00Z")
    text, html = parts(sent(tmp_path)["bob@x.example"][-1])
    assert f"Date limite{NB}: ven. 4 déc. 2026 07:00 (America/Montreal)." in text
    assert '<html lang="fr">' in html


@pytest.mark.parametrize("args, message", [
    (["--lang", "ann=de"], "seat ann: unknown language 'de' (pbem writes en or fr)"),
    (["--lang", "eve=fr"], "no seat called eve"),
    (["--option", "lang=klingon"], "lang must be en or fr: 'klingon'"),
])
def test_a_new_game_refuses_a_language_pbem_does_not_write(run, args, message):
    assert message in run(*NEW, *args, code=2 if "eve" in message else 1)
    assert "no games yet" in run("list")


def test_the_seat_command_refuses_an_unknown_language_or_zone(run):
    run(*NEW)
    assert "unknown language 'de' (pbem writes en or fr)" in \
        run("seat", "rome", "ann", "--lang", "de", code=1)
    assert "unknown timezone 'Mars/Olympus'" in \
        run("seat", "rome", "ann", "--tz", "Mars/Olympus", code=1)
    assert "language en, timezone UTC" in run("seat", "rome", "ann")


def test_a_tick_that_writes_no_mail_reads_no_catalogue(referee):
    referee.new_game("auguste", "rome", [SeatSpec("ann", "ann@x.example", lang="fr"),
                                         SeatSpec("bob", "bob@x.example")], START, seed="s")
    i18n.catalogue.cache_clear()
    referee.tick("2026-12-01T13:00:00Z", send=False)
    assert i18n.catalogue.cache_info().currsize == 0
    with speaking("fr"):
        _("Reply address:")
        _("Subject tag:")
    assert i18n.catalogue.cache_info().misses == 1


def test_a_french_seat_gets_its_answers_framed_in_french(referee):
    referee.new_game("auguste", "rome", [SeatSpec("ann", "ann@x.example", lang="fr"),
                                         SeatSpec("bob", "bob@x.example")], START, seed="s")
    inbound.submit(referee, "rome", "ann", "red: pass\nblue: move NOWHERE X\n", START)
    row = referee.store.one("SELECT * FROM outbox WHERE kind = 'ack'")
    text, html = parts(email.message_from_bytes(referee.store.outbox_mail(row),
                                                policy=policy.default))
    assert f"Vos ordres tels que je les ai compris{NB}:" in text
    assert f"1 ligne n'a pas pu être acceptée{NB}:\n  blue: move NOWHERE X\n    ligne 2{NB}:" \
        in text
    assert "Ces lignes comptent comme non données." in text
    assert '<html lang="fr">' in html and "<h3>1 ligne n'a pas pu être acceptée</h3>" in html
    assert all(len(line) <= 78 for line in text.splitlines())
