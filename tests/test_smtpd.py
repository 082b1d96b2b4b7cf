"""`pbem smtpd`: a real SMTP client (smtplib) talks to pbem's server on 127.0.0.1."""

import signal
import smtplib
import sqlite3
import subprocess
import sys

import pytest

from pbem.config import ConfigError
from pbem.mail import smtpd

from conftest import START, seats
from mails import plain
from servers import authority, free_port, mail_referee, wait_for_port  # noqa: F401


def crlf(raw: bytes) -> bytes:
    """A message with CRLF line ends, as it travels over SMTP."""
    return raw.replace(b"\n", b"\r\n")


ORDER = crlf(plain("ann@players.example", "pbem@referee.example", "orders", "hold",
                   message_id="<order.1@players.example>"))


@pytest.fixture
def referee(tmp_path):
    """A referee whose smtpd keeps messages up to 5,000 bytes and waits 0.2 s for a lock."""
    return mail_referee(tmp_path, smtpd={"max_bytes": 5000, "store_timeout": 0.2})


@pytest.fixture
def server(referee):
    """pbem's SMTP server on a free port, stopped after the test."""
    listen = f"127.0.0.1:{free_port()}"
    with smtpd.running(referee.config, listen, clock=lambda: START) as running:
        yield running


def client(server) -> smtplib.SMTP:
    """An SMTP session with pbem's server."""
    return smtplib.SMTP(server.hostname, server.port, timeout=10)


def inbox(referee) -> list[dict]:
    """The inbox rows, in order."""
    return referee.store.all("SELECT * FROM inbox ORDER BY id")


def test_mail_to_pbem_is_stored_before_the_250(referee, server):
    with client(server) as smtp:
        assert smtp.sendmail("ann@players.example", ["pbem@referee.example"], ORDER) == {}
        rows = inbox(referee)   # the 250 has been read: the row must be there already
    assert [(r["source"], r["message_id"], r["received_at"]) for r in rows] == \
        [("smtpd", "<order.1@players.example>", START)]
    assert rows[0]["raw"] == (b"Return-Path: <ann@players.example>\r\n"
                              b"Delivered-To: pbem@referee.example\r\n" + ORDER)


def test_plus_addresses_are_pbems_too_whatever_their_case(referee, server):
    with client(server) as smtp:
        smtp.sendmail("ann@players.example", ["PBEM+rome.k3f9q2@Referee.Example"], ORDER)
    assert b"Delivered-To: PBEM+rome.k3f9q2@Referee.Example\r\n" in inbox(referee)[0]["raw"]


def test_other_recipients_get_550(referee, server):
    with client(server) as smtp:
        with pytest.raises(smtplib.SMTPRecipientsRefused) as refused:
            smtp.sendmail("ann@players.example", ["someone@referee.example"], ORDER)
        assert refused.value.recipients["someone@referee.example"][0] == 550
        for lookalike in ("pbemx@referee.example", "pbem@referee.example.evil"):
            smtp.mail("ann@players.example")
            assert smtp.rcpt(lookalike)[0] == 550
            smtp.rset()
        refused_some = smtp.sendmail("ann@players.example",
                                     ["someone@referee.example", "pbem@referee.example"], ORDER)
    assert list(refused_some) == ["someone@referee.example"]
    rows = inbox(referee)
    assert len(rows) == 1
    assert b"someone@" not in rows[0]["raw"]


def test_a_bounce_keeps_its_empty_return_path(referee, server):
    with client(server) as smtp:
        smtp.sendmail("", ["pbem@referee.example"], ORDER)
    assert inbox(referee)[0]["raw"].startswith(b"Return-Path: <>\r\n")


def test_mail_over_the_size_limit_gets_552(referee, server):
    big = crlf(plain("ann@players.example", "pbem@referee.example", "orders", "hold\n" * 2000,
                     message_id="<big@players.example>"))
    with client(server) as smtp:
        with pytest.raises(smtplib.SMTPSenderRefused) as refused:   # SIZE, announced in EHLO
            smtp.sendmail("ann@players.example", ["pbem@referee.example"], big)
        assert refused.value.smtp_code == 552
        smtp.rset()
        smtp.mail("ann@players.example")                        # no SIZE: found out in DATA
        smtp.rcpt("pbem@referee.example")
        assert smtp.data(big)[0] == 552
    assert inbox(referee) == []


def test_a_locked_database_gets_450_and_the_retry_is_stored_once(referee, server):
    lock = sqlite3.connect(referee.store.path, isolation_level=None)
    lock.execute("BEGIN IMMEDIATE")
    try:
        with client(server) as smtp:
            with pytest.raises(smtplib.SMTPDataError) as refused:
                smtp.sendmail("ann@players.example", ["pbem@referee.example"], ORDER)
            assert refused.value.smtp_code == 450
    finally:
        lock.execute("ROLLBACK")
        lock.close()
    assert inbox(referee) == []
    with client(server) as smtp:
        smtp.sendmail("ann@players.example", ["pbem@referee.example"], ORDER)
    assert [r["message_id"] for r in inbox(referee)] == ["<order.1@players.example>"]


def test_a_reply_received_by_smtp_is_answered_by_the_next_tick(referee, server):
    referee.new_game("auguste", "rome", seats("ann", "bob", "cat", "dan"), START,
                     {"preset": "4-2"}, seed="fixed-seed")
    ann = referee.store.seat("rome", "ann")
    reply = crlf(plain("ann@players.example", f"pbem+rome.{ann['token']}@referee.example",
                       "Re: the game begins", "status", message_id="<status.1@players.example>"))
    with client(server) as smtp:
        smtp.sendmail("ann@players.example", [f"pbem+rome.{ann['token']}@referee.example"],
                      reply)
    referee.tick(START, send=False)
    assert inbox(referee)[0]["status"] == "done"
    assert referee.store.one("SELECT count(*) AS n FROM outbox WHERE seat = 'ann' "
                             "AND kind = 'status'")["n"] == 1


def test_the_smtpd_command_serves_until_sigterm(tmp_path, referee):
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-c", "from pbem.cli import main; main()", "smtpd", "-v",
         "--listen", f"127.0.0.1:{port}", "--config", str(tmp_path / "pbem.toml")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_for_port(port)
        with smtplib.SMTP("127.0.0.1", port, timeout=10) as smtp:
            smtp.sendmail("ann@players.example", ["pbem@referee.example"], ORDER)
    finally:
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=10)
    assert process.returncode == 0, err.decode()
    assert "pbem smtpd stopped" in out.decode()
    assert [r["message_id"] for r in inbox(referee)] == ["<order.1@players.example>"]


def test_smtpd_logs_one_line_per_mail_with_v_and_nothing_without(tmp_path, referee):
    logs = {}
    for flags in ([], ["-v"]):
        port = free_port()
        process = subprocess.Popen(
            [sys.executable, "-m", "pbem", "smtpd", *flags, "--listen", f"127.0.0.1:{port}",
             "--config", str(tmp_path / "pbem.toml")], stdout=subprocess.PIPE,
            stderr=subprocess.PIPE)
        try:
            wait_for_port(port)
            with smtplib.SMTP("127.0.0.1", port, timeout=10) as smtp:
                for number in range(3):
                    smtp.sendmail("ann@players.example", ["pbem@referee.example"],
                                  ORDER.replace(b"order.1@", f"order.{number}{flags}@".encode()))
        finally:
            process.send_signal(signal.SIGTERM)
            out, err = process.communicate(timeout=10)
        assert process.returncode == 0, err.decode()
        logs[" ".join(flags)] = (out.decode(), err.decode().splitlines())
    assert logs[""] == ("", [])
    out, lines = logs["-v"]
    assert out == "pbem smtpd stopped\n"
    assert len(lines) == 4 and "listening on" in lines[0]
    assert all("stored inbox" in line and "<ann@players.example>" in line for line in lines[1:])


def test_with_a_certificate_starttls_is_offered_and_can_be_required(tmp_path, authority):
    referee = mail_referee(tmp_path, smtpd={"tls_cert": str(authority.cert_file),
                                            "tls_key": str(authority.key_file),
                                            "require_tls": True})
    with smtpd.running(referee.config, f"127.0.0.1:{free_port()}", clock=lambda: START) as server:
        with client(server) as smtp:
            with pytest.raises(smtplib.SMTPSenderRefused, match="STARTTLS"):
                smtp.sendmail("ann@players.example", ["pbem@referee.example"], ORDER)
        assert inbox(referee) == []
        with client(server) as smtp:
            smtp.starttls(context=authority.client_context())
            assert smtp.sendmail("ann@players.example", ["pbem@referee.example"], ORDER) == {}
    assert [r["message_id"] for r in inbox(referee)] == ["<order.1@players.example>"]


@pytest.mark.parametrize("settings, problem", [
    ({"tls_cert": "cert.pem"}, "set both or neither"),
    ({"require_tls": True}, "require_tls needs tls_cert and tls_key"),
    ({"tls_cert": "none.pem", "tls_key": "none.key"}, "none.pem"),
])
def test_broken_tls_settings_are_refused_before_listening(tmp_path, settings, problem):
    referee = mail_referee(tmp_path, smtpd=settings)
    with pytest.raises(ConfigError, match=problem):
        with smtpd.running(referee.config, f"127.0.0.1:{free_port()}"):
            pass


@pytest.mark.parametrize("content_type, body", [
    ("text/plain; charset*=idna''x", b"hold\r\n"),
    ("text/plain; charset=\"utf\x00-8\"", b"hold\r\n"),
    ("multipart/mixed; boundary=b", b"--b\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n"
     * 80),
])
def test_a_mail_pbem_cannot_parse_is_stored_and_gets_its_250(referee, server, content_type,
                                                               body):
    raw = (f"From: ann@players.example\r\nTo: pbem@referee.example\r\nSubject: odd\r\n"
           f"Message-ID: <odd@players.example>\r\nContent-Type: {content_type}\r\n\r\n"
           ).encode() + body
    with client(server) as smtp:
        assert smtp.sendmail("ann@players.example", ["pbem@referee.example"], raw) == {}
        assert smtp.sendmail("ann@players.example", ["pbem@referee.example"], ORDER) == {}
    assert [r["message_id"] for r in inbox(referee)] == \
        ["<odd@players.example>", "<order.1@players.example>"]
    referee.tick(START, send=False)
    assert all(r["status"] != "new" and r["reason"] for r in inbox(referee))
