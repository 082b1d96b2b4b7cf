"""`pbem run`: one process answers each mail as it arrives, with no tick from cron.

It runs as systemd runs it (a child process, stopped with SIGTERM), against a
real Dovecot, a real SMTP sink, pbem's own SMTP server, or the local Maildir.
"""

from email import message_from_bytes, policy
import os
from pathlib import Path
import random
import re
import shutil
import signal
import smtplib
import subprocess
import sys
import time

import pytest

from pbem import inbound
from pbem.adjudicator.rng import PhaseRng
from pbem.app import poll_lock, tick_lock
from pbem.errors import TryLater
from pbem.locks import job_lock
from pbem.mail import intake, maildir
from pbem.mail.arrivals import MaildirSource
from pbem.service import Service, real_time
from pbem.signup import open_game
from pbem.timeutil import later, system_now

from conftest import KILLED_AT_WRITE, seats
from mails import plain
from servers import dovecot, free_port, mail_referee, sink, wait_for_port  # noqa: F401

SEATS = ("ann", "bob", "cat", "dan")


class Running:
    """`pbem run` in a child process, its log in a file."""

    def __init__(self, folder: Path, *args: str):
        self.log = folder / f"run-{time.monotonic_ns()}.log"
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "pbem", "run", "-v", "--config",
                 str(folder / "pbem.toml"), *args], stdout=log, stderr=subprocess.STDOUT)

    def stop(self) -> str:
        """Stop it as systemd does (SIGTERM), once it is up; what it said. It must exit
        cleanly."""
        try:
            wait_until(lambda: "pbem run: mail from" in self.said()
                       or self.process.poll() is not None)
            self.process.send_signal(signal.SIGTERM)
            code = self.process.wait(timeout=30)
        finally:
            if self.process.poll() is None:  # a test that failed leaves nothing running
                self.kill()
        assert code == 0, self.said()
        return self.said()

    def kill(self) -> None:
        """Kill it at once, as a power cut would."""
        self.process.kill()
        self.process.wait(timeout=30)

    def said(self) -> str:
        """Its log so far."""
        return self.log.read_text(encoding="utf-8", errors="replace")

    def cpu_seconds(self) -> float:
        """The processor time it has used (user and system)."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_until(condition, timeout: float = 60.0, running: Running | None = None) -> None:
    """Return when condition() is true; fail after timeout seconds (with pbem run's log):
    ten times what it takes on an idle machine, for a busy one."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out" + (f":\n{running.said()}"
                                                            if running else "")
        time.sleep(0.05)


def new_game(referee, **options) -> None:
    """A four-seat Auguste game 'rome' started now, its welcome mails queued."""
    referee.new_game("auguste", "rome", seats(*SEATS), system_now(),
                     {"preset": "4-2", **options}, seed="fixed-seed")


def orders(referee, seat: str) -> str:
    """Orders the seat may give in the open turn."""
    table = referee.table("rome")
    return table.game.bot_orders(table.state["game"], seat,
                                 PhaseRng("test", seat, table.state["engine"]["phase"]))


def reply(welcome, body: str, message_id: str) -> bytes:
    """A player's reply to a mail from pbem, as a mail client writes it."""
    return plain(str(welcome["To"]), str(welcome["Reply-To"]), f"Re: {welcome['Subject']}",
                 body, message_id=message_id, headers={"In-Reply-To": str(welcome["Message-ID"])})


def parsed(raws) -> list:
    """Raw mails, parsed."""
    return [message_from_bytes(raw, policy=policy.default) for raw in raws]


def answers(mails, message_id: str) -> list:
    """The mails that answer one mail."""
    return [m for m in mails if m["In-Reply-To"] == message_id]


def text(mail) -> str:
    """A mail's text part."""
    return mail.get_body(("plain",)).get_content()


def welcome_for(mails, seat: str):
    """The welcome mail a seat received."""
    return next(m for m in mails if m["To"] == f"{seat}@players.example"
                and "begins" in m["Subject"])


def test_a_mail_appended_to_the_mailbox_is_answered_at_once_without_a_tick(tmp_path, dovecot,
                                                                            sink):
    referee = mail_referee(tmp_path, imap=dovecot.settings(), smtp=sink.settings())
    new_game(referee)
    running = Running(tmp_path)
    try:
        wait_until(lambda: len(sink.deliveries) == 4, running=running)  # the welcomes, at once
        welcome = welcome_for(parsed(d.raw for d in sink.deliveries), "ann")
        body = f"Bonjour à tous !\n\n{orders(referee, 'ann')}\n\nBonne journée,\nAnn"
        dovecot.append(reply(welcome, body, "<ann.1@players.example>"))
        wait_until(lambda: answers(parsed(d.raw for d in sink.deliveries),
                                   "<ann.1@players.example>"), running=running)
        answer, = answers(parsed(d.raw for d in sink.deliveries), "<ann.1@players.example>")
        assert answer["To"] == "ann@players.example"
        assert "Orders received" in text(answer)
        assert "Line by line: 1 line set aside;" in " ".join(text(answer).split())
        assert dovecot.messages("INBOX") == []
        assert [r["status"] for r in referee.store.all("SELECT status FROM inbox")] == ["done"]

        second = subprocess.run([sys.executable, "-m", "pbem", "run", "--config",
                                 str(tmp_path / "pbem.toml")], capture_output=True, text=True,
                                timeout=30)
        assert second.returncode == 75  # EX_TEMPFAIL: systemd may try again later
        assert second.stderr.count("\n") == 1
        assert "another pbem run is running on this database" in second.stderr
        cron = subprocess.run([sys.executable, "-m", "pbem", "tick", "--config",
                               str(tmp_path / "pbem.toml")], capture_output=True, text=True,
                              timeout=30)
        assert cron.returncode == 75 and "another pbem run is running" in cron.stderr

        before = running.cpu_seconds()
        time.sleep(3)
        assert running.cpu_seconds() - before < 0.3  # it sleeps while nothing is due
    finally:
        said = running.stop()
    assert said.rstrip().endswith("pbem run stopped")


def test_a_turn_is_resolved_at_its_deadline_with_no_mail_arriving(tmp_path):
    referee = mail_referee(tmp_path)  # mail in and out through the local Maildir folders
    new_game(referee, turn_hours="0.0006")  # a turn of about two seconds
    deadline = referee.table("rome").state["engine"]["deadline"]
    outbox = tmp_path / "mail" / "outbox" / "new"

    def reports() -> list:
        return [m for m in parsed(p.read_bytes() for p in outbox.iterdir())
                if "Turn 2" in m["Subject"]] if outbox.is_dir() else []
    running = Running(tmp_path)
    try:
        wait_until(lambda: len(reports()) == len(SEATS), running=running)
    finally:
        running.stop()
    closed = next(referee.store.event_rows("rome", of_type="orders_set"))
    assert closed["payload"]["defaulted"] == list(SEATS)  # nobody wrote: default orders
    assert deadline <= closed["at"] <= later(deadline, 3 / 3600)  # on time, not before
    assert referee.store.one("SELECT COUNT(*) AS n FROM inbox")["n"] == 0
    assert sorted(m["To"] for m in reports()) == [f"{n}@players.example" for n in SEATS]


def test_it_goes_on_when_the_mail_servers_restart(tmp_path, dovecot, sink):
    referee = mail_referee(tmp_path, imap=dovecot.settings(), smtp=sink.settings())
    new_game(referee)
    running = Running(tmp_path)
    try:
        wait_until(lambda: len(sink.deliveries) == 4, running=running)
        welcome = welcome_for(parsed(d.raw for d in sink.deliveries), "bob")
        dovecot.stop()
        sink.controller.stop()
        dovecot.start()
        dovecot.append(reply(welcome, "STATUS\n\nthanks, Bob", "<bob.1@players.example>"))
        wait_until(lambda: "mail not sent: SMTP" in running.said(), running=running)
        assert referee.store.one("SELECT status FROM inbox WHERE message_id = "
                                 "'<bob.1@players.example>'")["status"] == "done"
        assert not answers(parsed(d.raw for d in sink.deliveries), "<bob.1@players.example>")
        sink.restart()
        wait_until(lambda: answers(parsed(d.raw for d in sink.deliveries),
                                   "<bob.1@players.example>"), running=running)
    finally:
        said = running.stop()
    assert "reconnecting" in said


def test_it_takes_mail_from_its_own_smtp_server(tmp_path, sink):
    listen = f"127.0.0.1:{free_port()}"
    referee = mail_referee(tmp_path, smtp=sink.settings(), run={"source": "smtpd"},
                           smtpd={"listen": listen})
    new_game(referee)
    running = Running(tmp_path)
    try:
        wait_until(lambda: len(sink.deliveries) == 4, running=running)
        welcome = welcome_for(parsed(d.raw for d in sink.deliveries), "cat")
        wait_for_port(int(listen.rpartition(":")[2]))
        with smtplib.SMTP("127.0.0.1", int(listen.rpartition(":")[2]), timeout=10) as smtp:
            smtp.sendmail("cat@players.example", [str(welcome["Reply-To"])],
                          reply(welcome, "Salut,\nHELP\nCat", "<cat.1@players.example>"))
        wait_until(lambda: answers(parsed(d.raw for d in sink.deliveries),
                                   "<cat.1@players.example>"), running=running)
    finally:
        running.stop()
    answer, = answers(parsed(d.raw for d in sink.deliveries), "<cat.1@players.example>")
    assert answer["To"] == "cat@players.example" and "how to play by mail" in answer["Subject"]


def test_what_the_referee_does_meanwhile_is_acted_on_at_once(tmp_path):
    referee = mail_referee(tmp_path)
    running = Running(tmp_path)
    try:
        wait_until(lambda: "pbem run: mail from" in running.said(), running=running)
        new_game(referee)  # as `pbem new` would, from another process
        outbox = tmp_path / "mail" / "outbox" / "new"
        wait_until(lambda: outbox.is_dir() and len(list(outbox.iterdir())) == 4,
                   running=running)
    finally:
        running.stop()
    welcomes = parsed(p.read_bytes() for p in outbox.iterdir())
    assert sorted(m["To"] for m in welcomes) == [f"{n}@players.example" for n in SEATS]


def test_a_login_the_server_refuses_stops_it_with_the_reason(tmp_path, dovecot):
    mail_referee(tmp_path, imap=dovecot.settings(password="wrong"))
    done = subprocess.run([sys.executable, "-m", "pbem", "run", "--config",
                           str(tmp_path / "pbem.toml")], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 78  # EX_CONFIG: the settings must change first
    said = done.stderr.strip().splitlines()[-1]
    assert said.startswith("pbem: IMAP 127.0.0.1") and "check the [imap] settings" in said
    assert "Traceback" not in done.stderr


def test_sigterm_finishes_the_mail_in_hand_and_leaves_the_rest_queued(tmp_path, monkeypatch):
    referee = mail_referee(tmp_path)
    new_game(referee)
    referee.tick(system_now())  # the welcomes
    inbox = tmp_path / "mail" / "inbox"
    maildir.folder(inbox)
    for number in range(12):
        seat = SEATS[number % 4]
        token = referee.store.seat("rome", seat)["token"]
        raw = plain(f"{seat}@players.example", f"pbem+rome.{token}@referee.example",
                    f"Re: [pbem rome #{token}] turn 1", "STATUS",
                    message_id=f"<{seat}.{number}@players.example>")
        (inbox / "new" / f"{number:04d}.test").write_bytes(raw)
    handled, real = [], inbound.handle

    def handle(referee, row, head, now):
        handled.append(row["id"])
        if len(handled) == 3:  # the referee stops pbem run while it handles the third mail
            os.kill(os.getpid(), signal.SIGTERM)
        return real(referee, row, head, now)

    monkeypatch.setattr(inbound, "handle", handle)
    previous = signal.getsignal(signal.SIGTERM)
    Service(referee, MaildirSource(referee.config, real_time)).run()
    assert signal.getsignal(signal.SIGTERM) is previous
    rows = referee.store.all("SELECT status FROM inbox ORDER BY id")
    assert [r["status"] for r in rows] == ["done"] * 3 + ["new"] * 9
    waiting = referee.store.all("SELECT kind FROM outbox WHERE status = 'pending'")
    assert len(waiting) == 3  # the answers wait for the next start, which sends them first

    def sent():
        return parsed(p.read_bytes() for p in (tmp_path / "mail" / "outbox" / "new").iterdir())
    assert [len(answers(sent(), f"<{SEATS[n % 4]}.{n}@players.example>")) for n in range(12)] \
        == [0] * 12
    referee.tick(system_now())
    assert [len(answers(sent(), f"<{SEATS[n % 4]}.{n}@players.example>")) for n in range(12)] \
        == [1] * 12


RUN_KILLED_AT_WRITE = KILLED_AT_WRITE + """
from pbem.cli import main
main(["run", "--config", sys.argv[2]])
"""


@pytest.mark.slow
def test_kills_at_random_moments_while_mail_arrives_lose_nothing_and_repeat_nothing(
        tmp_path, dovecot):
    referee = mail_referee(tmp_path, imap=dovecot.settings())  # answers into the Maildir
    new_game(referee)
    referee.tick(system_now())
    tokens = {seat: referee.store.seat("rome", seat)["token"] for seat in SEATS}
    first = {seat: orders(referee, seat) for seat in SEATS}
    mails = []
    for number in range(40):
        seat = SEATS[number % 4]
        body = f"Hi!\n{first[seat]}\n-- {seat}" if number < 4 else "STATUS"
        mails.append(plain(f"{seat}@players.example", f"pbem+rome.{tokens[seat]}@referee.example",
                           f"Re: [pbem rome #{tokens[seat]}] turn 1", body,
                           message_id=f"<{seat}.{number}@players.example>"))
    rng = random.Random(23)
    waiting, lives = list(mails), []
    while waiting:
        # while a few mails arrive, every other run is killed at its nth write to the
        # database (storing, handling, resolving, sending: each mail makes more than five,
        # so the nth comes), the others at a random moment
        burst = [waiting.pop(0) for _ in range(min(len(waiting), rng.randrange(2, 6)))]
        nth = rng.randrange(1, 5 * len(burst)) if len(lives) % 2 == 0 else 0
        life = subprocess.Popen([sys.executable, "-c", RUN_KILLED_AT_WRITE, str(nth),
                                 str(tmp_path / "pbem.toml")],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for raw in burst:
            dovecot.append(raw)
            time.sleep(rng.choice((0.0, 0.0, 0.05, 0.2)))
        try:
            life.wait(timeout=rng.uniform(0.5, 2.0) if nth == 0 else 30)
            lives.append("at a write")
        except subprocess.TimeoutExpired:
            life.kill()
            life.wait()
            lives.append("at a moment")
    running = Running(tmp_path)
    try:
        wait_until(lambda: {r["status"] for r in referee.store.all("SELECT status FROM inbox")}
                   == {"done"} and len(referee.store.all("SELECT id FROM inbox")) == len(mails)
                   and not referee.store.one("SELECT 1 FROM outbox WHERE status != 'sent'"),
                   timeout=300, running=running)
    finally:
        running.stop()
    assert lives.count("at a write") >= 4 and lives.count("at a moment") >= 4, lives
    assert dovecot.messages("INBOX") == []
    assert len(dovecot.messages("Processed")) == len(mails)
    stored = [r["message_id"] for r in referee.store.all("SELECT message_id FROM inbox")]
    assert sorted(stored) == sorted(message_from_bytes(raw)["Message-ID"] for raw in mails)
    assert len(referee.store.all("SELECT * FROM submissions")) == 4  # each order taken once
    assert len(referee.store.all("SELECT * FROM events WHERE type = 'orders_set'")) == 1
    files = [p for sub in ("new", "cur") for p in (tmp_path / "mail" / "outbox" / sub).iterdir()]
    sent = parsed(p.read_bytes() for p in files)
    assert sorted(m["Message-ID"] for m in sent) == sorted(
        r["message_id"] for r in referee.store.all("SELECT message_id FROM outbox"))
    for raw in mails:  # each mail answered once, and its answer delivered once
        assert len(answers(sent, message_from_bytes(raw)["Message-ID"])) == 1


def test_the_next_due_time_comes_from_deadlines_reminders_retries_and_the_digest(referee):
    start = "2026-12-01T12:00:00Z"
    assert referee.next_due(start) is None  # no game, no mail
    referee.new_game("auguste", "rome", seats(*SEATS), start, {"preset": "4-2"}, seed="s")
    assert referee.next_due(start) == start  # the welcomes wait to be sent
    referee.tick(start)
    deadline = referee.table("rome").state["engine"]["deadline"]
    assert referee.next_due(start) == later(deadline, -12)  # the reminder, 12 h before
    referee.tick(later(deadline, -12))
    assert referee.next_due(later(deadline, -12)) == deadline
    referee.store.execute("UPDATE outbox SET status = 'pending', next_attempt = ? "
                          "WHERE id = 1", [later(start, 30)])
    assert referee.next_due(start) == later(start, 30)  # a mail to try again
    intake.ingest(referee.store, plain("no-reply@strangers.example", "pbem@referee.example",
                                       "hi", "hello", message_id="<eve.1@strangers.example>"),
                  "file", start)
    assert referee.next_due(start) == start  # mail to handle
    referee.tick(start)
    assert referee.next_due(start) == later(start, 30)  # the digest of it went with that tick
    intake.ingest(referee.store, plain("no-reply@strangers.example", "pbem@referee.example",
                                       "hi", "again", message_id="<eve.2@strangers.example>"),
                  "file", later(start, 1))
    referee.tick(later(start, 1))
    assert referee.next_due(later(start, 1)) == later(start, 24)  # a day after the last one
    open_game(referee, "auguste", "gaul", later(start, 1), {"preset": "4-2"}, (4, 4),
              starts=later(start, 20))
    assert referee.next_due(later(start, 1)) == later(start, 20)  # an open game's start


def test_a_tick_or_poll_refused_while_pbem_run_holds_the_database_is_told_so(referee):
    path = referee.store.path
    with job_lock(path, "run"), tick_lock(path), poll_lock(path):
        for lock in (tick_lock, poll_lock):
            with pytest.raises(TryLater) as taken:
                with lock(path):
                    pass
            assert "another pbem run is running on this database" in str(taken.value)
    with tick_lock(path):
        with pytest.raises(TryLater) as taken:
            with tick_lock(path):
                pass
    assert "another pbem tick is running on this database" in str(taken.value)


def units(page: Path) -> dict[str, str]:
    """The systemd units a page gives in full: {file name: text}, each block begun by its
    '# /etc/systemd/system/NAME' line."""
    found = re.findall(r"```ini\n# /etc/systemd/system/(\S+)\n(.*?)```", page.read_text(), re.S)
    return dict(found)


def test_the_systemd_units_of_the_docs_pass_systemd_analyze_verify(tmp_path):
    if shutil.which("systemd-analyze") is None:
        pytest.fail("the systemd units are checked by systemd-analyze: apt-get install systemd")
    written = units(Path(__file__).parent.parent / "docs" / "running.md")
    assert {"pbem.service", "pbem-failed@.service", "pbem-poll.service", "pbem-tick.service",
            "pbem-tick.timer"} <= set(written)
    club = tmp_path / "srv-pbem"
    club.mkdir()
    (club / ".venv").symlink_to(Path(sys.executable).parent.parent)  # pbem's venv
    folder = tmp_path / "system"
    folder.mkdir()
    for name, text in written.items():
        (folder / name).write_text(text.replace("/srv/pbem", str(club)))
    checked = subprocess.run(["systemd-analyze", "verify", *sorted(map(str, folder.iterdir()))],
                             capture_output=True, text=True, timeout=120)
    assert (checked.returncode, checked.stderr) == (0, ""), checked.stderr
    run = dict(re.findall(r"^(\w+)=(.*)$", written["pbem.service"], re.M))
    assert run["Restart"] == "on-failure" and run["RestartPreventExitStatus"] == "78"  # 75 too
    assert run["OnFailure"] == "pbem-failed@%n.service" and run["TimeoutStopSec"]
    assert (run["ProtectSystem"], run["ReadWritePaths"], run["PrivateTmp"],
            run["NoNewPrivileges"], run["UMask"]) == ("strict", "/srv/pbem", "yes", "yes",
                                                      "0077")
    assert f"ExecStart={club}/.venv/bin/pbem run -v" in (folder / "pbem.service").read_text()


def test_an_outage_mails_the_referee_when_it_begins_and_when_it_ends(tmp_path, dovecot, sink):
    mail_referee(tmp_path, imap=dovecot.settings(), smtp=sink.settings())
    running = Running(tmp_path)

    def to_referee() -> list:
        return [m for m in parsed(d.raw for d in sink.deliveries)
                if m["To"] == "boss@referee.example"]
    try:
        wait_until(lambda: "pbem run: mail from" in running.said(), running=running)
        dovecot.stop()  # the connection drops, then each new one is refused
        wait_until(lambda: running.said().count("reconnecting in") >= 3, running=running)
        dovecot.start()
        wait_until(lambda: len(to_referee()) == 2, running=running)
        time.sleep(1)
    finally:
        running.stop()
    began, ended = to_referee()
    where = f"IMAP 127.0.0.1:{dovecot.port}"
    assert began["Subject"] == f"[pbem] {where} fails"
    # the first failure is the dropped connection or a refused one, as the timing falls
    assert re.search(r"Connection (refused|reset by peer)", text(began)) and \
        "when it is over" in text(began)
    assert ended["Subject"] == f"[pbem] {where} works again"
    assert len(to_referee()) == 2  # not one for each attempt
