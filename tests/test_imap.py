"""The IMAP poller against a real Dovecot on 127.0.0.1, and the whole path to an SMTP sink."""

import re
import signal
import socket
import subprocess
import sys
import time

from click.testing import CliRunner
import pytest

from pbem.adjudicator.rng import PhaseRng
from pbem.cli import main
from pbem.errors import PbemError, TryLater
from pbem.mail import imap
from pbem.mail.parse import message_from_bytes
from pbem.timeutil import later

from conftest import START, seats
from mails import plain
from servers import (authority, dovecot, mail_referee, plain_dovecot, sink,  # noqa: F401
                     tls_dovecot)

NOW = later(START, 1)


class Killed(BaseException):
    """Stands for the process dying at that point."""


def die(*args):
    """Monkeypatched in where the process dies."""
    raise Killed


def order(number: int) -> bytes:
    """A small mail for pbem, with Message-ID <mNUMBER@players.example>."""
    return plain("ann@players.example", "pbem@referee.example", f"mail {number}", "hold",
                 message_id=f"<m{number}@players.example>")


def ids(raws) -> list[str]:
    """The Message-IDs of raw messages, in order."""
    return [str(message_from_bytes(raw)["Message-ID"]) for raw in raws]


def stored(referee) -> list[str]:
    """The Message-IDs in the inbox table, in the order stored."""
    return [r["message_id"] for r in referee.store.all("SELECT message_id FROM inbox ORDER BY id")]


def cli(config, *args) -> str:
    """Run a pbem command with this config; its output (it must succeed)."""
    result = CliRunner().invoke(main, [*args, "--config", str(config)])
    assert result.exit_code == 0, result.output
    return result.output


def wait_until(condition, timeout: float = 15.0) -> None:
    """Return when condition() is true; fail after timeout seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def reply_to(welcome, text: str, message_id: str) -> bytes:
    """A player's reply to a mail from pbem, as a mail client writes it."""
    return plain(str(welcome["To"]), str(welcome["Reply-To"]), f"Re: {welcome['Subject']}", text,
                 message_id=message_id, headers={"In-Reply-To": str(welcome["Message-ID"])})


def test_an_order_sent_to_imap_is_answered_by_smtp(tmp_path, dovecot, sink):
    referee = mail_referee(tmp_path, imap=dovecot.settings(), smtp=sink.settings())
    referee.new_game("auguste", "rome", seats("ann", "bob", "cat", "dan"), START,
                     {"preset": "4-2"}, seed="fixed-seed")
    config = tmp_path / "pbem.toml"
    cli(config, "tick", "--now", START)
    welcomes = [message_from_bytes(d.raw) for d in sink.deliveries]
    assert sorted(str(m["To"]) for m in welcomes) == [f"{n}@players.example" for n in
                                                       ("ann", "bob", "cat", "dan")]
    table = referee.table("rome")
    text = table.game.bot_orders(table.state["game"], "ann",
                                 PhaseRng("bot", "ann", table.state["engine"]["phase"]))
    ann = next(m for m in welcomes if str(m["To"]) == "ann@players.example")
    dovecot.append(reply_to(ann, text, "<order.1@players.example>"))

    assert "1 new mail stored" in cli(config, "poll", "-v", "--now", NOW)
    assert dovecot.messages("INBOX") == []
    assert ids(dovecot.messages("Processed")) == ["<order.1@players.example>"]
    row = referee.store.one("SELECT * FROM inbox")
    assert (row["source"], row["folder"], row["uid"], row["uidvalidity"]) == \
        ("imap", "tester@127.0.0.1/INBOX", 1, dovecot.uidvalidity())

    cli(config, "tick", "--now", referee.table("rome").state["engine"]["deadline"])
    assert referee.store.one("SELECT status FROM inbox")["status"] == "done"
    assert referee.store.one("SELECT errors FROM submissions WHERE seat = 'ann'")["errors"] == "[]"
    outbox = referee.store.all("SELECT * FROM outbox ORDER BY id")
    assert {r["status"] for r in outbox} == {"sent"}
    delivered = [message_from_bytes(d.raw) for d in sink.deliveries]
    assert sorted(str(m["Message-ID"]) for m in delivered) == \
        sorted(r["message_id"] for r in outbox)
    for delivery, msg in zip(sink.deliveries, delivered):
        assert delivery.mail_from == "pbem@referee.example"
        assert delivery.rcpt_tos == [str(msg["To"])]
        if msg.get_content_type() == "multipart/mixed":  # a welcome, with the rules attached
            msg, rules = msg.get_payload()
            assert rules.get_content_type() == "text/plain" and rules.get_filename()
        assert msg.get_content_type() == "multipart/alternative"
        assert [p.get_content_type() for p in msg.iter_parts()] in (
            ["text/plain", "text/html"], ["text/plain", "multipart/related"])  # with a board
    acks = [m for m in delivered if m["In-Reply-To"] == "<order.1@players.example>"]
    assert [str(m["To"]) for m in acks] == ["ann@players.example"]
    assert "<order.1@players.example>" in str(acks[0]["References"])
    reports = [r for r in outbox if r["kind"] == "report"]
    assert sorted(r["to_addr"] for r in reports) == [f"{n}@players.example" for n in
                                                      ("ann", "bob", "cat", "dan")]


def test_a_poll_stores_each_new_mail_once(tmp_path, dovecot):
    referee = mail_referee(tmp_path, imap=dovecot.settings())
    for number in (1, 2, 3):
        dovecot.append(order(number))
    assert imap.poll(referee, NOW) == 3
    assert imap.poll(referee, NOW) == 0
    dovecot.append(order(4))
    assert imap.poll(referee, NOW) == 1
    assert stored(referee) == [f"<m{n}@players.example>" for n in (1, 2, 3, 4)]
    assert dovecot.messages("INBOX") == []
    assert ids(dovecot.messages("Processed")) == stored(referee)
    assert referee.store.one("SELECT last_uid FROM imap_folders")["last_uid"] == 4


def test_a_connection_cut_mid_poll_loses_nothing_and_repeats_nothing(tmp_path, dovecot,
                                                                     monkeypatch):
    referee = mail_referee(tmp_path, imap=dovecot.settings())
    for number in range(1, 6):
        dovecot.append(order(number))
    monkeypatch.setattr(imap, "BATCH", 1)
    keep = imap.Poller.keep

    def keep_then_cut(poller, *args):
        keep(poller, *args)
        if poller.stored == 2:
            dovecot.stop()

    monkeypatch.setattr(imap.Poller, "keep", keep_then_cut)
    with pytest.raises(PbemError, match="2 mails were stored"):
        imap.poll(referee, NOW)
    monkeypatch.undo()
    dovecot.start()
    assert imap.poll(referee, NOW) == 3
    assert stored(referee) == [f"<m{n}@players.example>" for n in range(1, 6)]
    assert dovecot.messages("INBOX") == []
    assert sorted(ids(dovecot.messages("Processed"))) == sorted(stored(referee))


def test_a_crash_between_storing_and_moving_stores_nothing_twice(tmp_path, dovecot,
                                                                 monkeypatch):
    referee = mail_referee(tmp_path, imap=dovecot.settings())
    dovecot.append(order(1))
    monkeypatch.setattr(imap, "move", die)
    with pytest.raises(Killed):
        imap.poll(referee, NOW)
    assert stored(referee) == ["<m1@players.example>"]
    assert ids(dovecot.messages("INBOX")) == ["<m1@players.example>"]
    monkeypatch.undo()
    assert imap.poll(referee, NOW) == 0
    assert stored(referee) == ["<m1@players.example>"]
    assert dovecot.messages("INBOX") == []
    assert ids(dovecot.messages("Processed")) == ["<m1@players.example>"]


def anonymous(number: int) -> bytes:
    """mail NUMBER without a Message-ID, as a few scripts and old clients send it."""
    return re.sub(rb"Message-ID: [^\n]*\n", b"", order(number))


def subjects(raws) -> list[str]:
    """The subjects of raw messages, in order."""
    return [str(message_from_bytes(raw)["Subject"]) for raw in raws]


@pytest.mark.parametrize("mail", [order, anonymous], ids=["by Message-ID", "by bytes"])
def test_a_uidvalidity_change_resyncs_without_storing_twice(tmp_path, dovecot, monkeypatch, mail):
    referee = mail_referee(tmp_path, imap=dovecot.settings(folder="orders"))
    dovecot.append(mail(1), "orders")
    assert imap.poll(referee, NOW) == 1
    dovecot.append(mail(2), "orders")
    monkeypatch.setattr(imap, "move", die)
    with pytest.raises(Killed):
        imap.poll(referee, NOW)
    monkeypatch.undo()
    before = dovecot.uidvalidity("orders")
    client = dovecot.client()   # the folder is rebuilt, as after a server migration
    client.delete_folder("orders")
    client.create_folder("orders")
    client.logout()
    dovecot.append(mail(2), "orders")
    dovecot.append(mail(3), "orders")
    assert dovecot.uidvalidity("orders") != before

    assert imap.poll(referee, NOW) == 1
    inbox = [r["raw"] for r in referee.store.all("SELECT raw FROM inbox ORDER BY id")]
    assert subjects(inbox) == ["mail 1", "mail 2", "mail 3"]
    assert dovecot.messages("orders") == []
    assert subjects(dovecot.messages("Processed")) == subjects(inbox)
    assert referee.store.one("SELECT uidvalidity FROM imap_folders")["uidvalidity"] == \
        dovecot.uidvalidity("orders")
    assert imap.poll(referee, NOW) == 0


def test_servers_without_move_get_copy_delete_expunge(tmp_path, plain_dovecot):
    referee = mail_referee(tmp_path, imap=plain_dovecot.settings())
    plain_dovecot.append(order(1))
    plain_dovecot.append(order(2))
    assert imap.poll(referee, NOW) == 2
    assert plain_dovecot.messages("INBOX") == []
    assert ids(plain_dovecot.messages("Processed")) == stored(referee)


def test_processed_empty_leaves_mail_in_place_and_reads_it_once(tmp_path, dovecot):
    referee = mail_referee(tmp_path, imap=dovecot.settings(processed=""))
    dovecot.append(order(1))
    assert imap.poll(referee, NOW) == 1
    dovecot.append(order(2))
    assert imap.poll(referee, NOW) == 1
    assert imap.poll(referee, NOW) == 0
    assert ids(dovecot.messages("INBOX")) == stored(referee) == \
        ["<m1@players.example>", "<m2@players.example>"]


def test_a_wrong_password_stores_nothing_and_says_why(tmp_path, dovecot):
    referee = mail_referee(tmp_path, imap=dovecot.settings(password="wrong"))
    dovecot.append(order(1))
    with pytest.raises(PbemError, match="check the \\[imap\\] settings"):
        imap.poll(referee, NOW)
    assert stored(referee) == []
    # read on disk: Dovecot delays the next login from an address that just failed one
    assert len([*(dovecot.maildir / "new").iterdir(), *(dovecot.maildir / "cur").iterdir()]) == 1


def test_a_server_that_never_answers_times_out(tmp_path):
    with socket.create_server(("127.0.0.1", 0)) as silent:   # connects, never greets
        port = silent.getsockname()[1]
        referee = mail_referee(tmp_path, imap={"host": "127.0.0.1", "port": port,
                                               "security": "none", "user": "tester",
                                               "timeout": 1})
        with pytest.raises(TryLater, match="no answer in time"):
            imap.poll(referee, NOW)


@pytest.mark.parametrize("source", ["password_env", "password_command"])
def test_the_password_can_come_from_a_variable_or_a_command(tmp_path, dovecot, monkeypatch,
                                                            source):
    monkeypatch.setenv("PBEM_TEST_IMAP_PASSWORD", "secret")
    value = "PBEM_TEST_IMAP_PASSWORD" if source == "password_env" else "printf secret"
    referee = mail_referee(tmp_path, imap=dovecot.settings(password="", **{source: value}))
    dovecot.append(order(1))
    assert imap.poll(referee, NOW) == 1


@pytest.mark.parametrize("security", ["ssl", "starttls"])
def test_tls_is_never_dropped_silently(tmp_path, dovecot, security):
    settings = dovecot.settings(security=security)
    referee = mail_referee(tmp_path, imap=settings)
    with pytest.raises(PbemError, match="IMAP 127.0.0.1"):
        imap.poll(referee, NOW)
    assert "Login: user=<tester>" not in dovecot.log()


def tls_settings(server, security: str, **extra) -> dict:
    """[imap] settings that reach a TLS Dovecot on the port for `security`."""
    port = server.tls_port if security == "ssl" else server.port
    return server.settings(security=security, port=port, **extra)


@pytest.mark.parametrize("security", ["ssl", "starttls"])
def test_a_server_certified_by_a_private_authority_is_trusted_through_ca_file(
        tmp_path, tls_dovecot, authority, security):
    referee = mail_referee(tmp_path, imap=tls_settings(tls_dovecot, security,
                                                        ca_file=str(authority.ca_file)))
    tls_dovecot.append(order(1))
    assert imap.poll(referee, NOW) == 1
    assert stored(referee) == ["<m1@players.example>"]
    assert tls_dovecot.messages("Processed") and not tls_dovecot.messages()


@pytest.mark.parametrize("security", ["ssl", "starttls"])
def test_a_certificate_from_an_unknown_authority_is_refused(tmp_path, tls_dovecot, security):
    referee = mail_referee(tmp_path, imap=tls_settings(tls_dovecot, security))
    tls_dovecot.append(order(1))
    logins = tls_dovecot.log().count("Login: user=<tester>")  # the append's own
    with pytest.raises(PbemError, match="certificate verify failed.*check the \\[imap\\]"):
        imap.poll(referee, NOW)
    assert stored(referee) == []
    wait_until(lambda: "unknown ca" in tls_dovecot.log())  # Dovecot logs it after the hang-up
    assert tls_dovecot.log().count("Login: user=<tester>") == logins


def test_a_missing_ca_file_is_a_settings_error(tmp_path, tls_dovecot):
    referee = mail_referee(tmp_path, imap=tls_settings(tls_dovecot, "ssl", ca_file="nowhere.pem"))
    with pytest.raises(PbemError, match="ca_file .*nowhere.pem"):
        imap.poll(referee, NOW)


def watcher(config):
    """`pbem poll --watch` in a child process."""
    return subprocess.Popen([sys.executable, "-c", "from pbem.cli import main; main()",
                             "poll", "--watch", "--config", str(config)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def stop(process) -> str:
    """Stop a watcher as systemd would (SIGTERM); its standard error."""
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=10)
    return err.decode()


def test_watch_waits_with_idle_and_reconnects_after_the_server_restarts(tmp_path, dovecot):
    referee = mail_referee(tmp_path, imap=dovecot.settings(idle_seconds=5))
    process = watcher(tmp_path / "pbem.toml")
    try:
        dovecot.append(order(1))
        wait_until(lambda: len(stored(referee)) == 1)
        # restart while the watcher idles, not while it moves mail 1 out of the INBOX:
        # a session killed mid-move can leave Maildir locks that stall the next APPEND
        wait_until(lambda: dovecot.messages("INBOX") == [])
        dovecot.stop()
        dovecot.start()
        dovecot.append(order(2))
        # reconnection backs off 1, 2, 4, 8... s: a slow restart can cost half a minute
        wait_until(lambda: len(stored(referee)) == 2, timeout=60)
    finally:
        err = stop(process)
    assert "reconnecting" in err
    assert stored(referee) == ["<m1@players.example>", "<m2@players.example>"]
    wait_until(lambda: dovecot.messages("INBOX") == [])
    assert imap.poll(referee, NOW) == 0


def test_watch_polls_servers_without_idle(tmp_path, plain_dovecot):
    settings = plain_dovecot.settings(poll_seconds=1)
    referee = mail_referee(tmp_path, imap=settings)
    process = watcher(tmp_path / "pbem.toml")
    try:
        plain_dovecot.append(order(1))
        wait_until(lambda: len(stored(referee)) == 1)
        plain_dovecot.append(order(2))
        wait_until(lambda: len(stored(referee)) == 2)
    finally:
        stop(process)
    assert stored(referee) == ["<m1@players.example>", "<m2@players.example>"]


def hostile(number: int, content_type: str, body: bytes = b"hold\r\n") -> bytes:
    """A mail no codec, or no sane parser, reads: a charset that is no charset, a deep nest."""
    return (f"From: ann@players.example\r\nTo: pbem@referee.example\r\nSubject: mail {number}\r\n"
            f"Message-ID: <h{number}@players.example>\r\nContent-Type: {content_type}\r\n\r\n"
            ).encode() + body


def deep(levels: int) -> bytes:
    """Multiparts nested `levels` deep."""
    inner = b"Content-Type: text/plain\r\n\r\nhold\r\n"
    for level in range(levels):
        inner = (f"Content-Type: multipart/mixed; boundary=b{level}\r\n\r\n--b{level}\r\n"
                 .encode() + inner + f"--b{level}--\r\n".encode())
    return inner


def test_mail_pbem_cannot_parse_never_stops_a_poll(tmp_path, dovecot):
    referee = mail_referee(tmp_path, imap=dovecot.settings())
    dovecot.append(hostile(1, "text/plain; charset*=idna''x"))
    dovecot.append(hostile(2, "text/plain; charset=\"utf\x00-8\""))
    dovecot.append(hostile(3, "multipart/mixed; boundary=top",
                           b"--top\r\n" + deep(1000) + b"--top--\r\n"))
    dovecot.append(order(4))
    assert "4 new mails stored" in cli(tmp_path / "pbem.toml", "poll", "-v", "--now", NOW)
    assert dovecot.messages("INBOX") == []
    assert stored(referee) == ["<h1@players.example>", "<h2@players.example>",
                               "<h3@players.example>", "<m4@players.example>"]
    referee.tick(NOW, send=False)
    rows = referee.store.all("SELECT status, reason FROM inbox ORDER BY id")
    assert all(r["status"] != "new" and r["reason"] for r in rows)
    assert rows[2] == {"status": "quarantined",
                       "reason": "unreadable: it has more than 200 MIME parts"}
    assert imap.poll(referee, NOW) == 0
