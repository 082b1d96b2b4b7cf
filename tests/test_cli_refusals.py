"""Bad referee input gets one line that says what and where, and changes nothing.

Each command is run as a referee types it, on a real database in a temporary
folder; the database is compared, table by table, before and after.
"""

import os
import shutil
import sqlite3

from click.testing import CliRunner
import pytest

from pbem.cli import main

NEW = ["new", "auguste", "--id", "rome", "--preset", "4-2", "--seed", "s1",
       "--seat", "ann=ann@x.example", "--seat", "bob=bob@x.example",
       "--now", "2026-12-01T12:00Z"]


@pytest.fixture
def run(tmp_path, monkeypatch):
    """Run a pbem command in a fresh folder; fail loudly on an unexpected exit code."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    runner = CliRunner()

    def invoke(*args, code=0):
        result = runner.invoke(main, list(args), catch_exceptions=False)
        assert result.exit_code == code, result.output
        return result.output
    return invoke


def dump(path) -> list:
    """Every row of every table of a database file."""
    conn = sqlite3.connect(path)
    try:
        tables = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return [(t, conn.execute(f"SELECT * FROM [{t}]").fetchall()) for t in tables]
    finally:
        conn.close()


def one_error(output: str) -> str:
    """The one error line of a refused command, begun 'pbem: ' as every error is (and no
    traceback)."""
    assert "Traceback" not in output
    errors = [line for line in output.splitlines() if line.startswith(("pbem:", "Error:"))]
    assert len(errors) == 1, output
    return errors[0]


@pytest.mark.parametrize("command", [["list"], ["tick", "--now", "2026-12-01T12:00Z"], NEW,
                                     ["show", "rome"], ["log", "rome"], ["inbox"], ["outbox"],
                                     ["poll"]])
def test_no_command_makes_a_database_where_there_is_none(run, tmp_path, command):
    error = one_error(run(*command, code=1))
    assert f"no pbem database at {tmp_path / 'pbem.db'}" in error and "pbem init" in error
    assert list(tmp_path.iterdir()) == []


def test_a_mistyped_db_is_refused_not_created(run, tmp_path):
    run("init")
    run(*NEW)
    error = one_error(run("list", "--db", "clubb.db", code=1))
    assert f"no pbem database at {tmp_path / 'clubb.db'}" in error
    assert not (tmp_path / "clubb.db").exists()
    assert "rome" in run("list")


@pytest.mark.parametrize("hours", ["1e9", "nan", "inf", "-inf", "0", "-2", "abc", "8785"])
def test_extend_refuses_nonsense_hours(run, tmp_path, hours):
    run("init")
    run(*NEW)
    before = dump(tmp_path / "pbem.db")
    error = one_error(run("extend", "rome", "--hours", hours, code=2))
    assert "give a number of hours above 0 and at most 8784 (a year)" in error
    assert dump(tmp_path / "pbem.db") == before


@pytest.mark.parametrize("option,said", [
    ("turn_hours=1e9", "turn_hours must be a number of hours, at most 8784 (a year): '1e9'"),
    ("reminder_hours=inf", "reminder_hours must be a number of hours, 0 or more: 'inf'"),
    ("turn_hours=nan", "turn_hours must be a number of hours, more than 0: 'nan'"),
    ("seer_hours=99999", "seer_hours must be a number of hours, at most 8784 (a year)"),
])
def test_new_refuses_hours_no_calendar_holds(run, tmp_path, option, said):
    run("init")
    before = dump(tmp_path / "pbem.db")
    assert said in one_error(run(*NEW, "--option", option, code=1))
    assert dump(tmp_path / "pbem.db") == before


def test_init_where_a_file_stands_in_the_way_says_where(run, tmp_path):
    (tmp_path / "club").write_text("a file, not a folder")
    error = one_error(run("init", "--dir", "club/referee", code=1))
    assert error == "pbem: Not a directory: club/referee"
    assert (tmp_path / "club").read_text() == "a file, not a folder"


def test_init_in_a_folder_it_may_not_write_says_where(run, tmp_path, monkeypatch):
    folder = tmp_path / "locked"
    folder.mkdir()
    if os.geteuid() == 0:  # root writes anywhere: make the write fail as it would for a user
        def denied(self, *args, **kwargs):
            raise PermissionError(13, "Permission denied", str(self))
        monkeypatch.setattr("pathlib.Path.write_text", denied)
    else:
        folder.chmod(0o555)
    try:
        error = one_error(run("init", "--dir", "locked", code=1))
    finally:
        folder.chmod(0o755)
    assert error.startswith("pbem: Permission denied: ") and "locked/pbem.toml" in error
    assert list(folder.iterdir()) == []


def test_demo_in_a_folder_it_cannot_empty_says_where(run, tmp_path, monkeypatch):
    run("demo", "--dir", "d", "--turns", "1")
    if os.geteuid() == 0:  # root deletes anywhere: make the removal fail as it would for a user
        def denied(path, *args, **kwargs):
            raise PermissionError(13, "Permission denied", str(path))
        monkeypatch.setattr(shutil, "rmtree", denied)
    else:
        (tmp_path / "d").chmod(0o555)
    try:
        error = one_error(run("demo", "--dir", "d", "--turns", "1", code=1))
    finally:
        (tmp_path / "d").chmod(0o755)
    assert error.startswith("pbem: Permission denied: ") and error.endswith("d")
    assert (tmp_path / "d" / "demo.db").exists()


def test_demo_under_a_file_says_where(run, tmp_path):
    (tmp_path / "notes").write_text("mine")
    error = one_error(run("demo", "--dir", "notes/d", "--turns", "1", code=1))
    assert error == "pbem: Not a directory: notes/d"


def test_smtpd_refuses_a_port_that_cannot_be(run, tmp_path):
    run("init")
    error = one_error(run("smtpd", "--listen", "127.0.0.1:99999", code=1))
    assert "listen address '127.0.0.1:99999'" in error and "from 1 to 65535" in error


def test_retry_and_release_name_the_ids_they_do_not_know(run, tmp_path):
    run("init")
    run(*NEW)
    before = dump(tmp_path / "pbem.db")
    assert one_error(run("outbox", "--retry", "999", code=1)) == \
        "pbem: the outbox has no mail 999 (see pbem outbox --all)"
    assert one_error(run("inbox", "--release", "77", "--release", "78", code=1)) == \
        "pbem: the inbox has no mail 77, 78 (see pbem inbox --all)"
    assert dump(tmp_path / "pbem.db") == before
