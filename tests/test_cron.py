"""`pbem poll && pbem tick` from cron, against real servers: silent when all is well, one
line on stderr and a documented exit code when not (75: try again later; 78: the settings
must change), and every mail that could not be sent kept with its reason."""

import json
import os
from pathlib import Path
import re
import socket
import sqlite3
import stat
import subprocess
import sys
import threading

from click.testing import CliRunner
import pytest

from pbem.cli import main
from pbem.config import ConfigError, load
from pbem.mail import intake
from pbem.timeutil import later, system_now

from conftest import START, seats
from mails import plain
from servers import (Sink, USER, auth_sink, authority, dovecot, free_port,  # noqa: F401
                     mail_referee, sink, tls_dovecot)

NOW = "2026-12-01T13:00:00Z"


def pbem(config, *args, env=None):
    """Run a pbem command as cron does; the click result (stdout and stderr apart)."""
    return CliRunner().invoke(main, [*args, "--config", str(config)], env=env)


def one_line(result, code: int, *words: str) -> str:
    """The single stderr line of a command that failed with `code`, nothing on stdout."""
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr)
    assert result.stdout == "" and result.stderr.count("\n") == 1, result.stderr
    for word in words:
        assert word in result.stderr, result.stderr
    return result.stderr


def game(referee):
    """A two-seat game whose two welcome mails wait in the outbox."""
    referee.new_game("auguste", "rome", seats("ann", "bob"), START, seed="fixed-seed")
    return referee


def test_an_idle_run_prints_nothing_and_v_or_json_say_what_was_done(tmp_path, dovecot, sink):
    config = tmp_path / "pbem.toml"
    game(mail_referee(tmp_path, imap=dovecot.settings(), smtp=sink.settings()))
    first = pbem(config, "tick", "--now", START)
    assert (first.exit_code, first.stdout, first.stderr) == (0, "", "")
    assert len(sink.deliveries) == 2
    for command in ("poll", "tick"):
        idle = pbem(config, command, "--now", NOW)
        assert (idle.exit_code, idle.stdout, idle.stderr) == (0, "", "")
    dovecot.append(plain("ann@players.example", "pbem@referee.example", "Salut", "bonjour",
                         message_id="<chat.1@players.example>"))
    assert pbem(config, "poll", "-v", "--now", NOW).stdout == "1 new mail stored\n"
    told = pbem(config, "-v", "tick", "--now", NOW)
    assert "mails read: 1" in told.stdout and told.stderr == ""
    assert json.loads(pbem(config, "poll", "--json", "--now", NOW).stdout) == {"stored": 0}
    report = json.loads(pbem(config, "tick", "--json", "--now", NOW).stdout)
    assert report == {"mails_read": 0, "phases": {}, "reminders": 0, "sent": 0, "failed": 0,
                      "retrying": 0, "problems": [], "exit_code": 0, "started": [],
                      "published": []}


def test_an_smtp_server_that_is_down_exits_75_and_every_mail_keeps_the_reason(tmp_path):
    port = free_port()
    config = tmp_path / "pbem.toml"
    game(mail_referee(tmp_path, smtp={"host": "127.0.0.1", "port": port, "security": "none",
                                      "timeout": 5}))
    error = one_line(pbem(config, "tick", "--now", START), 75, f"SMTP 127.0.0.1:{port}",
                     "Connection refused", "next run")
    assert error.startswith("pbem: mail not sent: ")
    waiting = json.loads(pbem(config, "outbox", "--json").stdout)
    assert [m["status"] for m in waiting] == ["pending", "pending"]
    assert all(f"SMTP 127.0.0.1:{port}" in m["last_error"] for m in waiting)
    assert [m["attempts"] for m in waiting] == [0, 0]  # the mails are not to blame

    server = Sink()  # the server is back on the same port
    server.port = port
    server.controller.port = port
    server.controller.start()
    try:
        back = pbem(config, "tick", "--now", NOW)
        assert (back.exit_code, back.stdout) == (0, "")
        assert back.stderr.startswith(f"pbem: SMTP 127.0.0.1:{port} works again, after failing "
                                      f"from {START} to {NOW}")
        assert len(server.deliveries) == 2
    finally:
        server.controller.stop()


def test_a_refused_mail_is_said_on_stderr_and_a_given_up_one_exits_1(tmp_path, sink):
    config = tmp_path / "pbem.toml"
    game(mail_referee(tmp_path, smtp=sink.settings()))
    sink.handler.refused["bob@players.example"] = "550 5.1.1 no such user"
    sink.handler.data_replies = ["451 4.3.0 greylisted, try again later"]
    result = pbem(config, "tick", "--now", START)
    assert result.exit_code == 1 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 2
    assert "to ann@players.example not sent: 451 4.3.0 greylisted" in lines[0]
    assert "tried again" in lines[0]
    assert "to bob@players.example not sent: 550 5.1.1 no such user" in lines[1]
    assert "pbem outbox --retry" in lines[1]
    again = pbem(config, "tick", "--now", "2026-12-01T12:10:00Z")  # after the backoff
    assert (again.exit_code, again.stderr) == (0, "")
    assert [d.rcpt_tos for d in sink.deliveries] == [["ann@players.example"]]


def test_only_a_mail_to_try_again_exits_75(tmp_path, sink):
    config = tmp_path / "pbem.toml"
    game(mail_referee(tmp_path, smtp=sink.settings()))
    sink.handler.data_replies = ["452 4.3.1 insufficient system storage"]
    one_line(pbem(config, "tick", "--now", START), 75, "452 4.3.1", "tried again")


def test_an_imap_server_that_is_down_exits_75(tmp_path):
    port = free_port()
    mail_referee(tmp_path, imap={"host": "127.0.0.1", "port": port, "security": "none",
                                 "user": USER, "password": "x", "timeout": 5})
    one_line(pbem(tmp_path / "pbem.toml", "poll", "--now", NOW), 75,
             f"IMAP 127.0.0.1:{port}", "Connection refused", "the next poll goes on")


def test_an_imap_server_that_drops_the_login_exits_75(tmp_path):
    """A server going down closes the connection under LOGIN ('socket error: EOF'): an
    outage, tried again, where pbem run stopped for good with 78 ('check the [imap]
    settings')."""
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def serve() -> None:
        for _ in range(3):
            connection, _address = listener.accept()
            with connection, connection.makefile("rb") as lines:
                connection.sendall(b"* OK ready\r\n")
                for line in lines:  # every command answered until the LOGIN, dropped
                    tag, command = line.split()[:2]
                    if command.upper() == b"LOGIN":
                        break
                    connection.sendall(b"* CAPABILITY IMAP4rev1 AUTH=PLAIN\r\n" + tag +
                                       b" OK done\r\n")

    threading.Thread(target=serve, daemon=True).start()
    mail_referee(tmp_path, imap={"host": "127.0.0.1", "port": port, "security": "none",
                                 "user": USER, "password": "x", "timeout": 5})
    try:
        one_line(pbem(tmp_path / "pbem.toml", "poll", "--now", NOW), 75,
                 f"IMAP 127.0.0.1:{port}", "the next poll goes on")
    finally:
        listener.close()


def test_a_wrong_password_exits_78(tmp_path, dovecot, auth_sink):
    config = tmp_path / "pbem.toml"
    game(mail_referee(tmp_path, imap=dovecot.settings(password="wrong"),
                      smtp=auth_sink.settings(user="pbem", password="wrong")))
    polled = one_line(pbem(config, "poll", "--now", NOW), 78, "AUTHENTICATIONFAILED", "[imap]")
    ticked = one_line(pbem(config, "tick", "--now", START), 78, "login refused: 535",
                      "check [smtp] user and password")
    assert polled.startswith("pbem: IMAP 127.0.0.1") and ticked.startswith("pbem: ")
    assert "b'" not in polled and "LoginError" not in polled  # the server's words, no repr


def test_a_database_busy_while_mail_is_stored_is_the_databases_fault(tmp_path, dovecot,
                                                                      monkeypatch):
    config = tmp_path / "pbem.toml"
    mail_referee(tmp_path, imap=dovecot.settings())
    dovecot.append(plain("ann@players.example", "pbem@referee.example", "hi", "hello",
                         message_id="<hi.1@players.example>"))

    def locked(*args, **kwargs):  # another writer held the database past SQLite's patience
        raise sqlite3.OperationalError("database is locked")
    monkeypatch.setattr(intake, "store_raw", locked)
    error = one_line(pbem(config, "poll", "--now", NOW), 75, "database is locked",
                     f"the database {tmp_path / 'pbem.db'}", "the next poll goes on")
    assert "IMAP" not in error


def test_a_missing_password_program_exits_78_and_a_failing_one_75(tmp_path, dovecot, sink):
    config = tmp_path / "pbem.toml"
    game(mail_referee(tmp_path,
                      imap=dovecot.settings(password="", password_command="pass-nowhere show x"),
                      smtp=sink.settings(user="pbem", password_command="pass-nowhere show x")))
    for command in ("poll", "tick"):
        one_line(pbem(config, command, "--now", START), 78, "password_command",
                 "cannot run 'pass-nowhere show x'", "No such file or directory")
    # watching: a settings error stops the watch at once instead of retrying for ever
    watch = subprocess.run([sys.executable, "-m", "pbem", "poll", "--watch", "--config",
                            str(config)], capture_output=True, text=True, timeout=60)
    assert watch.returncode == 78 and "cannot run 'pass-nowhere show x'" in watch.stderr
    assert "Traceback" not in watch.stderr
    failing = config.read_text().replace("pass-nowhere show x", "sh -c 'exit 2'")
    config.write_text(failing)  # a program that runs and fails may work later (an agent down)
    for command in ("poll", "tick"):
        one_line(pbem(config, command, "--now", NOW), 75, "failed with exit status 2",
                 "it printed no reason")


def test_a_certificate_pbem_does_not_trust_exits_78(tmp_path, tls_dovecot):
    mail_referee(tmp_path, imap=tls_dovecot.settings(security="ssl", port=tls_dovecot.tls_port))
    one_line(pbem(tmp_path / "pbem.toml", "poll", "--now", NOW), 78,
             "certificate verify failed", "[imap]")


def test_a_misspelled_variable_or_boolean_is_refused_with_the_closest_name(tmp_path):
    config = tmp_path / "pbem.toml"
    config.write_text('db = "pbem.db"\n')
    assert CliRunner().invoke(main, ["init", "--dir", str(tmp_path)]).exit_code == 0
    one_line(pbem(config, "list", env={"PBEM_SMTP_HOTS": "mail.example.org"}), 78,
             "PBEM_SMTP_HOTS is not a pbem setting", "did you mean PBEM_SMTP_HOST?")
    one_line(pbem(config, "list", env={"PBEM_SMTPD_REQUIRE_TLS": "ture"}), 78,
             "require_tls: 'ture' is not true or false")
    assert pbem(config, "list", env={"PBEM_SMTPD_REQUIRE_TLS": "yes"}).exit_code == 0


def test_a_password_variable_may_be_named_pbem_something():
    config = load(None, env={"PBEM_SMTP_PASSWORD_ENV": "PBEM_MAIL_PASSWORD",
                             "PBEM_MAIL_PASSWORD": "s3cret"})
    assert config["smtp"]["password_env"] == "PBEM_MAIL_PASSWORD"
    with pytest.raises(ConfigError, match="PBEM_MAIL_PASWORD is not a pbem setting"):
        load(None, env={"PBEM_MAIL_PASWORD": "s3cret"})


def test_security_none_towards_another_machine_is_warned_about(tmp_path, monkeypatch):
    def no_such_host(host, *args, **kwargs):  # no name lookup leaves this machine
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    monkeypatch.setattr(socket, "getaddrinfo", no_such_host)
    config = tmp_path / "pbem.toml"
    mail_referee(tmp_path, imap={"host": "mail.invalid", "security": "none", "user": "u",
                                 "password": "p", "timeout": 2})
    result = pbem(config, "poll", "--now", NOW)
    warning, error = result.stderr.splitlines()
    assert 'security = "none"' in warning and "in clear to mail.invalid" in warning
    assert result.exit_code == 75 and "IMAP mail.invalid:143" in error
    quiet = pbem(config, "-q", "poll", "--now", NOW)
    assert quiet.exit_code == 75 and quiet.stderr == ""  # the outage was said
    assert load(str(config)).clear_text_warning("smtp") is None  # no host at all
    for local in ("127.0.0.1", "localhost", "::1"):
        config.write_text(f'[imap]\nhost = "{local}"\nsecurity = "none"\n')
        assert load(str(config)).clear_text_warning("imap") is None


def test_log_refuses_a_seat_the_game_does_not_have(tmp_path):
    config = tmp_path / "pbem.toml"
    game(mail_referee(tmp_path))
    one_line(pbem(config, "log", "rome", "--seat", "nobody"), 1,
             "game rome has no seat called 'nobody'")


def test_every_exit_code_is_in_the_help_and_the_docs():
    from pbem.console import EXIT_CODES
    docs = (os.path.dirname(__file__) + "/../docs/running.md")
    with open(docs, encoding="utf-8") as handle:
        running = handle.read()
    shown = CliRunner().invoke(main, ["tick", "--help"]).stdout
    for code in EXIT_CODES:
        assert f"| {code} |" in running, f"docs/running.md does not explain exit code {code}"
        assert f"{code} " in shown.split("Exit codes:")[1]


ROOT = Path(__file__).parent.parent


def crontab_lines(page: str) -> list[str]:
    """The crontab lines of a page, in order: variables and jobs."""
    return [line for line in (ROOT / page).read_text().splitlines()
            if re.fullmatch(r"[A-Z_]+=\S+", line)
            or re.match(r"[0-9*/,-]+ +[0-9*/,-]+ +[0-9*]+ +[0-9*]+ +[0-9*]+ ", line)]


def as_cron_runs(line: str, club: Path, variables: dict) -> subprocess.CompletedProcess:
    """A crontab job run as cron runs it: /bin/sh, a bare environment, the club for
    /srv/pbem, '%' a new line unless written '\\%'."""
    command = re.split(r" +", line, maxsplit=5)[5].replace("/srv/pbem", str(club))
    command = re.sub(r"(?<!\\)%.*", "", command, flags=re.S).replace("\\%", "%")
    bare = {"PATH": "/usr/bin:/bin", "HOME": str(club), "SHELL": "/bin/sh",
            "LOGNAME": "pbem", **variables}
    return subprocess.run(["/bin/sh", "-c", command], cwd=club, env=bare, capture_output=True,
                          text=True, timeout=120)


@pytest.mark.parametrize("page", ["README.md", "docs/running.md"])
def test_the_crontab_lines_of_the_docs_work_as_written_from_a_bare_environment(tmp_path,
                                                                                page):
    club = tmp_path / "srv-pbem"
    assert CliRunner().invoke(main, ["init", "--dir", str(club)]).exit_code == 0
    (club / ".venv").symlink_to(Path(sys.executable).parent.parent)  # pbem's venv
    mail_referee(club).new_game("auguste", "rome", seats("ann", "bob"), system_now())
    variables, jobs = {}, []
    for line in crontab_lines(page):
        name, sep, value = line.partition("=")
        if sep and re.fullmatch(r"[A-Z_]+", name):
            variables[name] = value.replace("/srv/pbem", str(club))
        else:
            jobs.append(line)
    assert any("pbem poll" in job for job in jobs) and any("pbem backup" in job for job in jobs)
    for job in jobs + jobs:  # twice: a backup replaces last week's copy
        done = as_cron_runs(job, club, variables)
        assert (done.returncode, done.stdout, done.stderr) == (0, "", ""), job  # cron: no mail
    assert len(list((club / "mail" / "outbox" / "new").iterdir())) == 2  # the welcomes went
    [copy] = (club / "backups").iterdir()
    assert stat.S_IMODE((club / "backups").stat().st_mode) == 0o700
    assert stat.S_IMODE(copy.stat().st_mode) == 0o600
    assert sqlite3.connect(copy).execute("SELECT id FROM games").fetchall() == [("rome",)]


def test_an_outage_is_said_when_it_begins_once_a_day_and_when_it_ends(tmp_path, dovecot, sink):
    config = tmp_path / "pbem.toml"
    game(mail_referee(tmp_path, imap=dovecot.settings(), smtp=sink.settings()))
    dovecot.stop()
    sink.controller.stop()
    said, codes = [], []
    for minutes in range(0, 36 * 60, 20):  # poll && tick, every 20 minutes for 36 hours
        moment = later(START, minutes / 60)
        for command in ("poll", "tick"):
            done = pbem(config, command, "--now", moment)
            codes.append(done.exit_code)
            said += [(minutes, line) for line in done.stderr.splitlines()]
            if done.exit_code:
                break
    assert set(codes) == {75}  # each run: try again later
    assert [(m, line.split(":")[1].strip()) for m, line in said] == [
        (0, "IMAP 127.0.0.1"), (24 * 60, "IMAP 127.0.0.1")]  # poll && tick: no tick ran
    assert "said again in a day if it lasts, and when it is over" in said[0][1]
    dovecot.start()
    moment = later(START, 36)
    polled = pbem(config, "poll", "--now", moment)
    ticked = pbem(config, "tick", "--now", moment)
    assert polled.exit_code == 0 and polled.stderr.startswith(
        f"pbem: IMAP 127.0.0.1:{dovecot.port} works again, after failing from {START} to")
    assert ticked.exit_code == 75 and ticked.stderr.startswith(
        f"pbem: mail not sent: SMTP 127.0.0.1:{sink.port}: Connection refused")
    for hours in (36.1, 37, 59.9):
        assert pbem(config, "tick", "--now", later(START, hours)).stderr == ""
    assert pbem(config, "tick", "--now", later(START, 60)).stderr.count("\n") == 1
    sink.restart()
    back = pbem(config, "tick", "--now", later(START, 61))
    assert back.exit_code == 0 and "SMTP" in back.stderr and "works again" in back.stderr
    assert pbem(config, "tick", "--now", later(START, 62)).stderr == ""
    assert sink.deliveries and [d for d in sink.deliveries
                                if d.rcpt_tos == ["boss@referee.example"]] == []  # cron told
