"""Sending the outbox through a real SMTP server (an aiosmtpd sink on 127.0.0.1)."""

import json

from click.testing import CliRunner
import pytest

from pbem.cli import main
from pbem.errors import PbemError, TryLater
from pbem.mail import outbox
from pbem.mail.parse import message_from_bytes
from pbem.timeutil import later

from conftest import START, seats
from servers import (auth_sink, authority, free_port, mail_referee, sink,  # noqa: F401
                     tls_sink)

SEATS = ("ann", "bob", "cat", "dan")
# the sink takes AUTH without TLS on purpose: it only listens on 127.0.0.1
PLAIN_AUTH = pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")


class Killed(BaseException):
    """Stands for the process dying at that point."""


def game_referee(folder, **smtp):
    """A referee sending by SMTP with the settings given, and 4 welcome mails queued."""
    referee = mail_referee(folder, smtp=smtp)
    referee.new_game("auguste", "rome", seats(*SEATS), START, {"preset": "4-2"},
                     seed="fixed-seed")
    return referee


def rows(referee) -> list[dict]:
    """The outbox rows, in order."""
    return [dict(r, raw=referee.store.outbox_mail(r))
            for r in referee.store.all("SELECT * FROM outbox ORDER BY id")]


def delivered_ids(sink) -> list[str]:
    """The Message-IDs the sink received, in order."""
    return [str(message_from_bytes(d.raw)["Message-ID"]) for d in sink.deliveries]


@PLAIN_AUTH
def test_mails_go_out_over_an_authenticated_session_with_crlf_lines(tmp_path, auth_sink):
    referee = game_referee(tmp_path, **auth_sink.settings(user="pbem",
                                                          password="app-password"))
    assert outbox.flush(referee, START).counts() == (4, 0)
    assert delivered_ids(auth_sink) == [r["message_id"] for r in rows(referee)]
    for delivery, row in zip(auth_sink.deliveries, rows(referee)):
        assert delivery.rcpt_tos == [row["to_addr"]]
        assert delivery.raw.replace(b"\r\n", b"\n") == row["raw"].replace(b"\r\n", b"\n")
        assert b"\n" not in delivery.raw.replace(b"\r\n", b"")
        assert row["status"] == "sent" and row["sent_at"] == START


@PLAIN_AUTH
def test_a_refused_login_keeps_every_mail_queued(tmp_path, auth_sink):
    referee = game_referee(tmp_path, **auth_sink.settings(user="pbem", password="wrong"))
    with pytest.raises(PbemError, match="login refused"):
        outbox.flush(referee, START)
    assert [(r["status"], r["attempts"]) for r in rows(referee)] == [("pending", 0)] * 4
    assert auth_sink.deliveries == []


def test_starttls_is_the_default_and_is_never_skipped(tmp_path, sink):
    settings = sink.settings()
    del settings["security"]
    referee = game_referee(tmp_path, **settings)
    with pytest.raises(PbemError, match="STARTTLS"):
        outbox.flush(referee, START)
    assert {r["status"] for r in rows(referee)} == {"pending"}
    assert sink.deliveries == []


def test_a_server_certified_by_a_private_authority_is_trusted_through_ca_file(
        tmp_path, tls_sink, authority):
    referee = game_referee(tmp_path, **tls_sink.settings(security="starttls",
                                                         ca_file=str(authority.ca_file)))
    assert outbox.flush(referee, START).counts() == (4, 0)  # the sink takes mail only over TLS
    assert delivered_ids(tls_sink) == [r["message_id"] for r in rows(referee)]


def test_a_certificate_from_an_unknown_authority_keeps_every_mail_queued(tmp_path, tls_sink):
    referee = game_referee(tmp_path, **tls_sink.settings(security="starttls"))
    with pytest.raises(PbemError, match="certificate verify failed"):
        outbox.flush(referee, START)
    assert [(r["status"], r["attempts"]) for r in rows(referee)] == [("pending", 0)] * 4
    assert tls_sink.deliveries == []


def test_a_temporary_failure_is_retried_after_a_backoff(tmp_path, sink):
    referee = game_referee(tmp_path, **sink.settings())
    sink.handler.data_replies = ["451 4.3.0 try again later"]
    assert outbox.flush(referee, START).counts() == (3, 0)
    first = rows(referee)[0]
    assert (first["status"], first["attempts"], first["next_attempt"]) == \
        ("pending", 1, later(START, 5 / 60))
    assert "451" in first["last_error"]
    assert outbox.flush(referee, later(START, 1 / 60)).counts() == (0, 0)
    assert outbox.flush(referee, later(START, 6 / 60)).counts() == (1, 0)
    assert sorted(delivered_ids(sink)) == sorted(r["message_id"] for r in rows(referee))
    assert {r["status"] for r in rows(referee)} == {"sent"}


def test_a_mail_is_given_up_after_max_attempts(tmp_path, sink):
    referee = game_referee(tmp_path, **sink.settings(max_attempts=2, per_run=1))
    sink.handler.data_replies = ["451 4.3.0 later", "451 4.3.0 later again"]
    assert outbox.flush(referee, START).counts() == (0, 0)
    assert outbox.flush(referee, later(START, 1)).counts() == (0, 1)
    first = rows(referee)[0]
    assert (first["status"], first["attempts"]) == ("failed", 2)


def test_a_permanent_failure_is_marked_failed_and_not_retried(tmp_path, sink):
    referee = game_referee(tmp_path, **sink.settings())
    sink.handler.refused["bob@players.example"] = "550 5.1.1 no such user"
    assert outbox.flush(referee, START).counts() == (3, 1)
    bob = next(r for r in rows(referee) if r["to_addr"] == "bob@players.example")
    assert (bob["status"], bob["attempts"]) == ("failed", 1)
    assert "550 5.1.1 no such user" in bob["last_error"]
    assert outbox.flush(referee, later(START, 48)).counts() == (0, 0)
    assert len(sink.deliveries) == 3

    config = str(tmp_path / "pbem.toml")
    shown = CliRunner().invoke(main, ["outbox", "--json", "--config", config])
    assert [(m["id"], m["status"]) for m in json.loads(shown.output)] == [(bob["id"], "failed")]
    every = CliRunner().invoke(main, ["outbox", "--all", "--json", "--config", config])
    assert [m["status"] for m in json.loads(every.output)] == ["failed"] + ["sent"] * 3
    del sink.handler.refused["bob@players.example"]
    again = CliRunner().invoke(main, ["outbox", "--retry", str(bob["id"]), "--now",
                                      later(START, 49), "--config", config])
    assert "1 mail queued again" in again.output
    assert outbox.flush(referee, later(START, 49)).counts() == (1, 0)
    assert len(sink.deliveries) == 4


def test_a_refused_sender_address_stops_the_run_and_keeps_the_mails(tmp_path, sink):
    referee = game_referee(tmp_path, **sink.settings())
    sink.handler.mail_reply = "553 5.7.1 sender address not owned by user"
    with pytest.raises(PbemError, match="refuses to send as pbem@referee.example"):
        outbox.flush(referee, START)
    assert [(r["status"], r["attempts"]) for r in rows(referee)] == [("pending", 0)] * 4


def test_at_most_per_run_mails_go_out_per_run(tmp_path, sink):
    referee = game_referee(tmp_path, **sink.settings(per_run=3))
    assert outbox.flush(referee, START).counts() == (3, 0)
    assert outbox.flush(referee, START).counts() == (1, 0)
    assert delivered_ids(sink) == [r["message_id"] for r in rows(referee)]


def test_an_unreachable_server_keeps_the_queue_and_records_why(tmp_path):
    port = free_port()
    referee = game_referee(tmp_path, host="127.0.0.1", port=port, security="none", timeout=5)
    before = rows(referee)
    with pytest.raises(TryLater, match=f"SMTP 127.0.0.1:{port}: Connection refused"):
        outbox.flush(referee, START)
    after = rows(referee)
    assert [{**r, "last_error": None} for r in after] == before
    assert all(f"SMTP 127.0.0.1:{port}" in r["last_error"] and "next run" in r["last_error"]
               for r in after)


def test_a_server_closing_the_connection_mid_run_is_reconnected(tmp_path, sink):
    referee = game_referee(tmp_path, **sink.settings())
    sink.handler.data_replies = ["421 4.3.2 shutting down"]
    assert outbox.flush(referee, START).counts() == (3, 0)
    assert [r["status"] for r in rows(referee)] == ["pending", "sent", "sent", "sent"]


def test_a_crash_between_sending_and_marking_resends_the_very_same_mail(tmp_path, sink,
                                                                        monkeypatch):
    referee = game_referee(tmp_path, **sink.settings())

    def die(*args, **kwargs):
        raise Killed

    monkeypatch.setattr(outbox, "mark_sent", die)
    with pytest.raises(Killed):
        outbox.flush(referee, START)
    monkeypatch.undo()
    assert outbox.flush(referee, START).counts() == (4, 0)
    assert len(sink.deliveries) == 5
    assert sink.deliveries[0].raw == sink.deliveries[1].raw
    assert delivered_ids(sink)[1:] == [r["message_id"] for r in rows(referee)]
