"""OAuth2 (XOAUTH2) against real servers on 127.0.0.1: Dovecot's oauth2 passdb asking a
token endpoint, and an SMTP server that takes XOAUTH2, as Microsoft 365 and Gmail do.

The access token comes from token_command, a program that prints a fresh one (here:
cat of a file the test rewrites, as a token helper refreshes its cache).
"""

import json

from click.testing import CliRunner
import pytest

from pbem.cli import main
from pbem.mail.parse import message_from_bytes
from pbem.timeutil import EARLIEST, iso

from conftest import START, seats
from mails import plain
from test_run import Running, answers, parsed, reply, wait_until, welcome_for
from servers import (mail_referee, oauth2_dovecot, oauth2_sink, oauthbearer_dovecot,  # noqa: F401
                     oauthbearer_sink, token_issuer,
                     USER)

NOW = "2026-12-01T13:00:00Z"


def pbem(config, *args):
    """Run a pbem command as cron does; the click result (stdout and stderr apart)."""
    return CliRunner().invoke(main, [*args, "--config", str(config)])


@pytest.fixture
def club(tmp_path, oauth2_dovecot, oauth2_sink, token_issuer):
    """A referee whose [imap] and [smtp] log in with a token from token_command."""
    token_file = tmp_path / "token"
    token_file.write_text(token_issuer.issue("ya29.first-token") + "\n")
    command = f"cat {token_file}"
    referee = mail_referee(
        tmp_path, imap=oauth2_dovecot.settings(password="", token_command=command),
        smtp=oauth2_sink.settings(user=USER, token_command=command))
    referee.new_game("auguste", "rome", seats("ann", "bob"), START, seed="fixed-seed")
    referee.token_file = token_file
    return referee


def test_poll_and_tick_log_in_with_an_oauth2_token_and_stay_silent(
        club, tmp_path, oauth2_dovecot, oauth2_sink, token_issuer):
    config = tmp_path / "pbem.toml"
    welcome = pbem(config, "tick", "--now", START)
    assert (welcome.exit_code, welcome.stdout, welcome.stderr) == (0, "", "")
    assert len(oauth2_sink.deliveries) == 2
    to_ann = message_from_bytes(oauth2_sink.deliveries[0].raw)
    oauth2_dovecot.append(plain("ann@players.example", str(to_ann["Reply-To"]),
                                f"Re: {to_ann['Subject']}", "Bonjour !\n\nHELP\n\nAnn",
                                message_id="<help.1@players.example>"))

    token_issuer.expire("ya29.first-token")  # the helper refreshed it since
    club.token_file.write_text(token_issuer.issue("ya29.second-token"))
    polled = pbem(config, "poll", "--now", NOW)
    ticked = pbem(config, "tick", "--now", NOW)
    assert [(r.exit_code, r.stdout, r.stderr) for r in (polled, ticked)] == [(0, "", "")] * 2
    assert "Login: user=<tester>, method=XOAUTH2" in oauth2_dovecot.log()
    assert token_issuer.asked[-1] == "ya29.second-token"
    answer = message_from_bytes(oauth2_sink.deliveries[-1].raw)
    assert answer["To"] == "ann@players.example" and answer["In-Reply-To"]
    assert club.store.one("SELECT status FROM inbox")["status"] == "done"


def test_an_expired_token_is_one_line_and_exit_78_and_keeps_every_mail(
        club, tmp_path, oauth2_dovecot, oauth2_sink, token_issuer):
    config = tmp_path / "pbem.toml"
    oauth2_dovecot.append(plain("ann@players.example", "pbem@referee.example", "hi", "hello",
                                message_id="<hi.1@players.example>"))
    token_issuer.expire("ya29.first-token")

    polled = pbem(config, "poll", "--now", NOW)
    assert polled.exit_code == 78 and polled.stdout == ""
    assert polled.stderr.count("\n") == 1 and "AUTHENTICATIONFAILED" in polled.stderr
    assert "check the [imap] settings" in polled.stderr
    assert club.store.all("SELECT id FROM inbox") == []

    ticked = pbem(config, "tick", "--json", "--now", START)
    assert ticked.exit_code == 78
    assert ticked.stderr.count("\n") == 1 and "login refused: 535" in ticked.stderr
    assert "token_command" in ticked.stderr
    assert json.loads(ticked.stdout)["exit_code"] == 78
    assert oauth2_sink.deliveries == []
    waiting = json.loads(pbem(config, "outbox", "--json").stdout)
    assert [m["status"] for m in waiting] == ["pending", "pending"]
    assert all("login refused: 535" in m["last_error"] for m in waiting)


def test_a_token_command_that_fails_says_why_and_is_tried_again_later(club, tmp_path):
    helper = tmp_path / "token-helper"
    helper.write_text("#!/bin/sh\necho 'refresh token expired: run the authorization again' >&2"
                      "\nexit 3\n")
    helper.chmod(0o755)
    text = (tmp_path / "pbem.toml").read_text().replace(f"cat {club.token_file}", str(helper))
    (tmp_path / "pbem.toml").write_text(text)
    for command in ("poll", "tick"):
        result = pbem(tmp_path / "pbem.toml", command, "--now", START)
        assert result.exit_code == 75 and result.stdout == ""  # the token server may be back
        assert result.stderr.count("\n") == 1
        assert "token_command" in result.stderr and "exit status 3" in result.stderr
        assert "refresh token expired: run the authorization again" in result.stderr


def test_the_token_is_the_first_line_the_helper_prints(club, tmp_path, oauth2_sink):
    helper = tmp_path / "token-helper"
    helper.write_text(f"#!/bin/sh\ncat {club.token_file}\necho 'cached; expires in 3599 s'\n")
    helper.chmod(0o755)
    config = tmp_path / "pbem.toml"
    config.write_text(config.read_text().replace(f"cat {club.token_file}", str(helper)))
    for command in ("poll", "tick"):
        done = pbem(config, command, "--now", START)
        assert (done.exit_code, done.stdout, done.stderr) == (0, "", "")
    assert len(oauth2_sink.deliveries) == 2

    helper.write_text("#!/bin/sh\necho 'gpg: WARNING: unsafe permissions'\n"
                      f"cat {club.token_file}\n")
    polled = pbem(config, "poll", "--now", NOW)
    assert polled.exit_code == 78 and polled.stderr.count("\n") == 1
    assert "token_command printed 2 lines, and pbem takes the first as the token" in \
        polled.stderr


def test_a_token_server_that_is_down_is_a_failure_for_now(club, tmp_path, oauth2_dovecot,
                                                          token_issuer):
    token_issuer.down = True  # Dovecot cannot check any token: "[UNAVAILABLE]"
    polled = pbem(tmp_path / "pbem.toml", "poll", "--now", NOW)
    assert polled.exit_code == 75 and polled.stderr.count("\n") == 1
    assert "[UNAVAILABLE] Temporary authentication failure" in polled.stderr
    token_issuer.down = False
    assert pbem(tmp_path / "pbem.toml", "poll", "--now", NOW).exit_code == 0


def test_pbem_run_rides_out_a_token_server_down_and_a_failing_token_helper(
        club, tmp_path, oauth2_dovecot, oauth2_sink, token_issuer):
    broken = tmp_path / "broken"
    helper = tmp_path / "token-helper"
    helper.write_text(f"#!/bin/sh\nif [ -e {broken} ]; then echo 'no route to the token "
                      f"server' >&2; exit 1; fi\ncat {club.token_file}\n")
    helper.chmod(0o755)
    config = tmp_path / "pbem.toml"
    config.write_text(config.read_text().replace(f"cat {club.token_file}", str(helper)))
    club.store.execute("UPDATE outbox SET next_attempt = ?", [iso(EARLIEST)])  # due now
    running = Running(tmp_path)
    try:
        wait_until(lambda: len(oauth2_sink.deliveries) == 2, running=running)  # the welcomes
        welcomes = parsed(d.raw for d in oauth2_sink.deliveries)
        for number, (outage, mending) in enumerate([
                (lambda: setattr(token_issuer, "down", True),
                 lambda: setattr(token_issuer, "down", False)),
                (broken.touch, broken.unlink)]):
            outage()
            oauth2_dovecot.stop()  # the connection drops: pbem run must log in again
            oauth2_dovecot.start()
            asked = f"<ann.{number}@players.example>"
            oauth2_dovecot.append(reply(welcome_for(welcomes, "ann"), "STATUS", asked))
            wait_until(lambda: running.said().count("reconnecting in") >= 2 * (number + 1),
                       running=running)
            mending()  # the next attempt may come a minute later: a busy machine waits longer
            wait_until(lambda: answers(parsed(d.raw for d in oauth2_sink.deliveries), asked),
                       timeout=300, running=running)
    finally:
        said = running.stop()
    assert "[UNAVAILABLE] Temporary authentication failure" in said
    assert "no route to the token server" in said


def test_a_server_that_takes_only_oauthbearer_gets_it(tmp_path, oauthbearer_dovecot,
                                                      oauthbearer_sink, token_issuer):
    token_file = tmp_path / "token"
    token_file.write_text(token_issuer.issue("ya29.bearer-token") + "\n")
    referee = mail_referee(
        tmp_path, imap=oauthbearer_dovecot.settings(password="", token_command=f"cat {token_file}"),
        smtp=oauthbearer_sink.settings(user=USER, token_command=f"cat {token_file}"))
    referee.new_game("auguste", "rome", seats("ann", "bob"), START, seed="fixed-seed")
    config = tmp_path / "pbem.toml"
    oauthbearer_dovecot.append(plain("ann@players.example", "pbem@referee.example", "hi",
                                     "hello", message_id="<hi.1@players.example>"))
    for command in ("poll", "tick"):
        done = pbem(config, command, "--now", START)
        assert (done.exit_code, done.stdout, done.stderr) == (0, "", "")
    assert "method=OAUTHBEARER" in oauthbearer_dovecot.log()
    assert {"ann@players.example", "bob@players.example"} <= {
        d.rcpt_tos[0] for d in oauthbearer_sink.deliveries}  # the welcomes
    assert referee.store.all("SELECT id FROM inbox")

    token_issuer.expire("ya29.bearer-token")
    referee.new_game("auguste", "lyon", seats("cat", "dan"), START, seed="fixed-seed")
    for command, said in (("poll", "AUTHENTICATIONFAILED"), ("tick", "login refused: 535")):
        refused = pbem(config, command, "--now", START)
        assert refused.exit_code == 78 and said in refused.stderr
