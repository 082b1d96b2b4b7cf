"""The database as a referee keeps it: private files, `pbem backup` while poll --watch runs,
a backup before every upgrade, and a database from a newer pbem refused."""

import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import time

from click.testing import CliRunner
import pytest

from pbem import __version__
from pbem.adjudicator.rng import PhaseRng
from pbem.app import Referee
from pbem.cli import main
from pbem.config import load
from pbem.mail.parse import message_from_bytes
from pbem.store import Store
from pbem.timeutil import parse_time, system_now

from conftest import START, seats
from mails import plain
from servers import dovecot, mail_referee  # noqa: F401

DEADLINE = "2026-12-03T12:00:00Z"


def pbem(*args, code=0):
    """Run a pbem command; its click result, after checking its exit code."""
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == code, (result.stdout, result.stderr)
    return result


def mode(path) -> int:
    """A file's permission bits."""
    return stat.S_IMODE(path.stat().st_mode)


def test_init_makes_the_club_folder_and_database_readable_by_the_referee_alone(tmp_path):
    club = tmp_path / "club"
    pbem("init", "--dir", str(club))
    assert mode(club) == 0o700
    assert mode(club / "pbem.db") == 0o600 and mode(club / "pbem.toml") == 0o600
    config = str(club / "pbem.toml")
    pbem("new", "auguste", "--id", "rome", "--seat", "ann=ann@x.example",
         "--seat", "bob=bob@x.example", "--now", START, "--config", config)
    for path in club.glob("pbem.db*"):  # the write-ahead log too, while it is there
        if not path.name.endswith("-lock"):
            assert mode(path) == 0o600, path
    copy = tmp_path / "copy.db"
    assert pbem("backup", str(copy), "--config", config).stdout == ""
    assert mode(copy) == 0o600
    assert "copied to" in pbem("backup", str(copy), "-v", "--config", config).stdout
    refused = pbem("backup", str(club / "pbem.db"), "--config", config, code=2)
    assert "that is the database itself" in refused.stderr


def order_mail(welcome, number: int) -> bytes:
    """A player's answer to pbem's welcome: a greeting and a STATUS."""
    return plain(str(welcome["To"]), str(welcome["Reply-To"]), f"Re: {welcome['Subject']}",
                 f"Bonjour,\n\nSTATUS\n\nMail {number}", message_id=f"<b{number}@players.example>")


def test_a_backup_while_poll_watch_runs_loses_no_mail_and_replays(tmp_path, dovecot):
    referee = mail_referee(tmp_path, imap=dovecot.settings(idle_seconds=5))
    referee.new_game("auguste", "rome", seats("ann", "bob"), START, seed="fixed-seed")
    config = str(tmp_path / "pbem.toml")
    pbem("tick", "--now", START, "--config", config)
    welcomes = [message_from_bytes(path.read_bytes())
                for path in sorted((tmp_path / "mail" / "outbox" / "new").iterdir())]
    watcher = subprocess.Popen([sys.executable, "-m", "pbem", "poll", "--watch",
                                "--config", config], stderr=subprocess.PIPE)
    copies = []
    try:
        for number in range(12):
            dovecot.append(order_mail(welcomes[number % 2], number))
            if number % 3 == 2:  # a copy while mails arrive and are moved
                moved = [str(message_from_bytes(raw)["Message-ID"])
                         for raw in dovecot.messages("Processed")]
                copy = tmp_path / f"copy{number}.db"
                pbem("backup", str(copy), "--config", config)
                copies.append((copy, moved))
        deadline = time.monotonic() + 20
        while len(dovecot.messages("Processed")) < 12:
            assert time.monotonic() < deadline, "poll --watch did not move every mail"
            time.sleep(0.05)
    finally:
        watcher.terminate()
        watcher.communicate(timeout=10)
    for copy, moved in copies:
        kept = {row[0] for row in sqlite3.connect(copy).execute("SELECT message_id FROM inbox")}
        assert set(moved) <= kept, f"{copy.name} lost a mail already moved to Processed"
        assert sqlite3.connect(copy).execute("PRAGMA integrity_check").fetchone() == ("ok",)

    last = str(tmp_path / "last.db")
    pbem("backup", last, "--config", config)
    assert len(sqlite3.connect(last).execute("SELECT id FROM inbox").fetchall()) == 12
    pbem("tick", "--now", DEADLINE, "--db", last, "--config", config)
    checked = pbem("replay", "rome", "--verify", "--db", last, "--config", config)
    assert "verified: the log is exactly what the rules give" in checked.stdout
    assert json.loads(pbem("list", "--json", "--db", last, "--config", config).stdout)[0][
        "phase"] == 2


def test_an_upgrade_backs_the_database_up_first_and_says_so(tmp_path):
    pbem("init", "--dir", str(tmp_path))
    db = tmp_path / "pbem.db"
    old = sqlite3.connect(db)  # the file as a pbem before 031_players left it
    old.executescript("ALTER TABLE seats DROP COLUMN player; "
                      "DELETE FROM _migrations WHERE name = '031_players';")
    old.close()
    upgraded = pbem("list", "--db", str(db))
    saved = tmp_path / "pbem.db.before-031_players"
    assert upgraded.stdout == "no games yet (pbem new --help)\n"
    assert upgraded.stderr.count("\n") == 1
    assert f"upgrading the database {db} to pbem {__version__}" in upgraded.stderr
    assert str(saved) in upgraded.stderr
    assert mode(saved) == 0o600
    columns = [row[1] for row in sqlite3.connect(saved).execute("PRAGMA table_info(seats)")]
    assert "player" not in columns
    assert sqlite3.connect(db).execute("SELECT applied FROM _migrations WHERE name = "
                                       "'031_players'").fetchone() == (__version__,)
    again = pbem("list", "--db", str(db))
    assert again.stderr == ""


def test_a_database_from_a_newer_pbem_is_refused_in_one_line(tmp_path):
    pbem("init", "--dir", str(tmp_path))
    db = tmp_path / "pbem.db"
    newer = sqlite3.connect(db)
    newer.execute("INSERT INTO _migrations VALUES ('07z_seat_colours', '0.9.0')")
    newer.commit()
    newer.close()
    before = list(sqlite3.connect(db).iterdump())
    refused = pbem("list", "--db", str(db), code=78)
    assert refused.stdout == "" and refused.stderr.count("\n") == 1
    assert "written by pbem 0.9.0 (it has 07z_seat_colours)" in refused.stderr
    assert f"this is pbem {__version__}" in refused.stderr
    assert list(sqlite3.connect(db).iterdump()) == before
    assert sorted(p.name for p in tmp_path.glob("pbem.db.before-*")) == []


def test_a_restored_backup_is_the_club_as_it_was(tmp_path):
    def run(*args) -> str:  # each its own process, as the referee runs them
        done = subprocess.run([sys.executable, "-m", "pbem", *args], cwd=tmp_path,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout
    run("init")
    run("new", "auguste", "--id", "rome", "--seat", "ann=ann@x.example",
        "--seat", "bob=bob@x.example", "--now", START)
    run("backup", "saved.db")
    run("end", "rome", "--reason", "a mistake", "--now", START)
    assert "0 mails received since the copy" in run("restore", "saved.db")  # docs/running.md
    assert json.loads(run("list", "--json"))[0]["status"] == "running"
    assert "verified" in run("replay", "rome", "--verify")


def test_a_backup_is_restored_on_a_new_server_with_no_database_yet(tmp_path):
    """A server lost with its disk: the referee has the settings and a night's copy, and
    restore makes the database from the copy (it asked for pbem init first)."""
    old, new = tmp_path / "old", tmp_path / "new"
    pbem("init", "--dir", str(old))
    config = str(old / "pbem.toml")
    pbem("new", "auguste", "--id", "rome", "--seat", "ann=ann@x.example", "--seat",
         "bob=bob@x.example", "--now", START, "--config", config)
    pbem("backup", str(tmp_path / "night.db"), "--config", config)
    pbem("init", "--dir", str(new))
    (new / "pbem.db").unlink()
    said = pbem("restore", str(tmp_path / "night.db"), "--config", str(new / "pbem.toml")).stdout
    assert "(there was none before)" in said and not list(new.glob("pbem.db.before-*"))
    assert mode(new / "pbem.db") == 0o600
    referee = Referee(Store(new / "pbem.db"), load(str(new / "pbem.toml"), env={}))
    assert referee.table("rome").state["engine"]["seats"] == ["ann", "bob"]


def test_what_pbem_makes_is_private_and_what_it_finds_open_is_closed_once(tmp_path):
    club = tmp_path / "pbem"
    club.mkdir(mode=0o755)  # as a new server's /srv/pbem often is

    def run(*args) -> subprocess.CompletedProcess:  # from a shell with the usual umask
        done = subprocess.run([sys.executable, "-m", "pbem", *args], cwd=club, text=True,
                              capture_output=True, timeout=120, preexec_fn=lambda: os.umask(0o022))
        assert done.returncode == 0, done.stderr
        return done
    run("init", "--dir", ".")
    run("new", "auguste", "--id", "rome", "--seat", "ann=ann@x.example",
        "--seat", "bob=bob@x.example", "--now", START)
    run("tick", "--now", START)
    run("backup", "backups/monday.db")
    run("publish", "--out", "site")
    made = [p for p in club.rglob("*") if "site" not in p.parts]
    assert len(made) > 10 and [p for p in made if mode(p) & 0o077] == []
    site = list((club / "site").rglob("*"))
    assert site and {mode(p) for p in site} == {0o644, 0o755}  # the archive is for all

    outbox = club / "mail" / "outbox"
    for path in [club / "pbem.db", outbox, *outbox.rglob("*")]:  # a cp, an older pbem
        path.chmod(0o755 if path.is_dir() else 0o644)
    told = run("list").stderr
    assert told.count("\n") == 1 and told.startswith("pbem: others could read these")
    assert f"{club / 'pbem.db'} (was 0644)" in told and f"{outbox} (was 0755)" in told
    assert [p for p in club.rglob("*") if "site" not in p.parts and mode(p) & 0o077] == []
    assert run("list").stderr == ""  # said once


@pytest.fixture
def small_disk(tmp_path):
    """A folder on a disk of its own, 8 MB in all."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(disk)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.fail(f"a full disk is tested on a small tmpfs, mounted as root: {mounted.stderr}")
    yield disk
    subprocess.run(["umount", "--lazy", str(disk)], check=True)


def fill(disk, leaving: int = 0) -> None:
    """Fill a disk up to `leaving` bytes left."""
    with open(disk / f"filler-{leaving}", "wb") as filler:
        room = os.statvfs(disk).f_bavail * os.statvfs(disk).f_frsize - leaving
        while room > 0:
            try:
                room -= filler.write(b"\0" * min(room, 65536))
            except OSError:
                break


def test_a_full_disk_says_disk_full_in_one_line_whenever_it_fills(small_disk):
    def run(*args) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "pbem", *args], cwd=small_disk,
                              text=True, capture_output=True, timeout=120)
    run("init")
    run("new", "auguste", "--id", "rome", "--seat", "ann=ann@x.example",
        "--seat", "bob=bob@x.example", "--now", START)
    assert run("tick", "--now", START).returncode == 0
    big = plain("ann@x.example", "pbem@localhost", "a long letter", "words " * 50_000,
                message_id="<big@x.example>")
    (small_disk / "mail" / "inbox" / "new" / "0001.big").write_bytes(big)
    fill(small_disk, leaving=len(big) // 2)
    filling = run("poll", "--now", START)  # the disk fills while the mail is stored
    fill(small_disk)
    full = run("tick", "--now", START)     # it is full when the next command starts
    for done in (filling, full):
        assert done.returncode == 75 and done.stdout == ""
        assert done.stderr.count("\n") == 1, done.stderr
        assert done.stderr.startswith(f"pbem: disk full: cannot write {small_disk}")
    for leftover in small_disk.glob("filler-*"):
        leftover.unlink()
    assert run("poll", "--now", START).returncode == 0  # space again: it goes on
    assert run("tick", "--now", START).returncode == 0
    [(status,)] = sqlite3.connect(small_disk / "pbem.db").execute(
        "SELECT status FROM inbox").fetchall()
    assert status != "new"  # stored once, and handled


def test_a_restore_mid_game_reads_the_mail_since_again_and_players_get_nothing_new(
        tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    players = ("ann", "bob", "cat", "dan")
    pbem("init")
    pbem("new", "auguste", "--id", "rome", "--preset", "4-2", "--seed", "s1", "--now", START,
         *[arg for name in players for arg in ("--seat", f"{name}={name}@players.example")])
    pbem("tick", "--now", START)
    referee = Referee(Store(tmp_path / "pbem.db"), load("pbem.toml"))

    def mail(seat: str, body: str, number: int, at: str) -> None:
        """A player's mail reaching the Maildir at `at`, then pbem poll && pbem tick."""
        token = referee.store.seat("rome", seat)["token"]
        raw = plain(f"{seat}@players.example", f"pbem+rome.{token}@referee.example",
                    f"Re: [pbem rome #{token}] Turn", f"Bonjour,\n\n{body}\n\n{seat}",
                    message_id=f"<{seat}.{number}@players.example>")
        new = tmp_path / "mail" / "inbox" / "new" / f"{number:04d}.test"
        new.write_bytes(raw)
        stamp = parse_time(at).timestamp()
        os.utime(new, (stamp, stamp))
        pbem("poll", "--now", at)
        pbem("tick", "--now", at)

    def orders(seat: str) -> str:
        table = referee.table("rome")
        return table.game.bot_orders(table.state["game"], seat, PhaseRng("t", seat, 0))

    def received() -> dict:
        """What players' mailboxes took since last asked: Message-ID -> mail."""
        folder = tmp_path / "mail" / "outbox" / "new"
        mails = {}
        for path in sorted(folder.iterdir()):
            found = message_from_bytes(path.read_bytes())
            mails[str(found["Message-ID"])] = found
            path.unlink()
        return mails

    mail("ann", orders("ann"), 1, "2026-12-01T13:00:00Z")
    mail("bob", orders("bob"), 2, "2026-12-01T14:00:00Z")
    pbem("backup", "backups/night.db")
    mail("cat", orders("cat"), 3, "2026-12-01T15:00:00Z")
    mail("dan", orders("dan"), 4, "2026-12-01T16:00:00Z")  # the turn is resolved
    mail("ann", orders("ann"), 5, "2026-12-01T17:00:00Z")  # her orders for turn 2
    mail("bob", "STATUS", 6, "2026-12-01T18:00:00Z")
    had = received()
    before = json.loads(pbem("show", "rome", "--json").stdout)
    assert before["phase"]["number"] == 2

    said = pbem("restore", "backups/night.db").stdout
    assert "4 mails received since the copy read again" in said
    assert sorted(p.name for p in tmp_path.glob("pbem.db.before-*")) == ["pbem.db.before-restore"]
    assert json.loads(pbem("show", "rome", "--json").stdout) == before  # the same game
    pbem("tick", "--now", "2026-12-01T19:00:00Z")
    again = received()
    assert again and set(again) <= set(had)  # each mail sent again is one they have
    for message_id, mail_again in again.items():
        assert mail_again["Subject"] == had[message_id]["Subject"]
    answers = [m for m in again.values() if m["In-Reply-To"]]
    assert sorted(m["In-Reply-To"] for m in answers) == [
        "<ann.5@players.example>", "<bob.6@players.example>", "<cat.3@players.example>",
        "<dan.4@players.example>"]
    orders_in = json.loads(pbem("orders", "rome", "--json").stdout)
    assert [s["seat"] for s in orders_in["seats"] if s["sent"]] == ["ann"]  # turn 2, as before
    assert "verified" in pbem("replay", "rome", "--verify").stdout
    assert mode(tmp_path / "pbem.db") == 0o600


def test_a_restore_reads_again_what_imap_moved_to_processed_since_the_copy(tmp_path,
                                                                          dovecot):
    referee = mail_referee(tmp_path, imap=dovecot.settings())
    referee.new_game("auguste", "rome", seats("ann", "bob"), system_now(), seed="fixed-seed")
    config = str(tmp_path / "pbem.toml")
    pbem("tick", "--config", config)

    def send(seat: str, number: int) -> None:
        table = referee.table("rome")
        token = referee.store.seat("rome", seat)["token"]
        orders = table.game.bot_orders(table.state["game"], seat, PhaseRng("t", seat, 0))
        dovecot.append(plain(f"{seat}@players.example", f"pbem+rome.{token}@referee.example",
                             f"Re: [pbem rome #{token}] Turn 1", orders,
                             message_id=f"<{seat}.{number}@players.example>"))
        pbem("poll", "--config", config)
        pbem("tick", "--config", config)
    send("ann", 1)
    pbem("backup", str(tmp_path / "copy.db"), "--config", config)
    send("bob", 2)
    assert len(dovecot.messages("Processed")) == 2
    outbox = tmp_path / "mail" / "outbox" / "new"
    had = {str(message_from_bytes(p.read_bytes())["Message-ID"]) for p in outbox.iterdir()}
    before = json.loads(pbem("show", "rome", "--json", "--config", config).stdout)
    for path in outbox.iterdir():
        path.unlink()

    said = pbem("restore", str(tmp_path / "copy.db"), "--config", config).stdout
    assert "1 mail received since the copy read again from IMAP 127.0.0.1" in said
    after = json.loads(pbem("show", "rome", "--json", "--config", config).stdout)
    assert after["phase"]["number"] == before["phase"]["number"] == 2
    pbem("poll", "--config", config)  # nothing new: each mail stored once
    pbem("tick", "--config", config)
    again = {str(message_from_bytes(p.read_bytes())["Message-ID"]) for p in outbox.iterdir()}
    assert again and again <= had
    assert [r["message_id"] for r in referee.store.all(
        "SELECT message_id FROM inbox ORDER BY id")] == ["<ann.1@players.example>",
                                                          "<bob.2@players.example>"]
