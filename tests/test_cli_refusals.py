"""Bad referee input gets one line that says what and where, and changes nothing.

Each command is run as a referee types it, on a real database in a temporary
folder; the database is compared, table by table, before and after.
"""

import copy
import os
from pathlib import Path
import shutil
import sqlite3
import tomllib

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st
import pytest

import pbem.games
from pbem.cli import main
from pbem.errors import PbemError

from conftest import START, make_referee, seats

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


# ------------------------------------------------------------------ files of every kind of wrong

# Files no command can use, each as its bytes; /dev/zero besides.
BAD_FILES = {
    "not UTF-8": 'phase = "été"\n'.encode("latin-1"),
    "arrays nested 5,000 deep": b"a = " + b"[" * 5000 + b"]" * 5000 + b"\n",
    "tables nested 5,000 deep": b"a = " + b"{b = " * 5000 + b"1" + b"}" * 5000 + b"\n",
    "keys dotted 5,000 deep": b"a" + b".a" * 5000 + b" = 1\n",
    "headers 5,000 deep": b"[" + b".".join([b"t"] * 5000) + b"]\nx = 1\n",
    "too big": b"# " + b"x" * 1_100_000 + b"\n",
    "a number of 5,000 digits": b"turn = " + b"9" * 5000 + b"\n",
    "a number past 64 bits": b"turn = 99999999999999999999\n",
    "not TOML": b"[units\ngermany = A BER\n",
    "random bytes": bytes(range(256)) * 8,
}
ZERO = "/dev/zero"
# A new game of each kind, as the command line writes it.
GAMES = {name: ["new", name, "--id", "g", "--seed", "s", "--now", "2026-12-01T12:00Z"]
         + [a for seat in pbem.games.load(name).DEMO_SEATS
            for a in ("--seat", f"{seat}={seat}@x.example")]
         + [a for key, value in pbem.games.load(name).demo_options(60).items()
            for a in (("--judge", value) if key == "judge" else ("--option", f"{key}={value}"))]
         for name in pbem.games.names()}


def bad_file(tmp_path, kind: str) -> str:
    """The path of a file of this kind of wrong."""
    if kind == ZERO:
        return ZERO
    path = tmp_path / "bad.toml"
    path.write_bytes(BAD_FILES[kind])
    return str(path)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("kind", [*BAD_FILES, ZERO])
def test_a_position_file_of_any_kind_of_wrong_is_refused_in_one_line(run, tmp_path, game,
                                                                      kind):
    run("init")
    before = dump(tmp_path / "pbem.db")
    path = bad_file(tmp_path, kind)
    error = one_error(run(*GAMES[game], "--position", path, code=1))
    assert error.startswith(f"pbem: {path}: ") and len(error) < 300, error
    assert dump(tmp_path / "pbem.db") == before


@pytest.mark.parametrize("game", GAMES)
def test_a_position_key_no_game_reads_is_named(run, tmp_path, game):
    run("init")
    (tmp_path / "position.toml").write_text("bogus = 1\n")
    error = one_error(run(*GAMES[game], "--position", "position.toml", code=1))
    assert "reads no 'bogus' in a position" in error


def test_a_mistyped_position_key_is_named_with_the_closest(run, tmp_path):
    run("init")
    (tmp_path / "position.toml").write_text('phase = "spring 1901 movement"\n'
                                            '[unit]\ngermany = ["A BER"]\n')
    error = one_error(run(*GAMES["diplomacy"], "--position", "position.toml", code=1))
    assert error == ("pbem: Diplomacy reads no 'unit' in a position (it reads centres, "
                     "dislodged, phase, powers, standoffs, units); did you mean units?")


def test_a_movement_phase_with_no_units_is_refused_in_one_line(run, tmp_path):
    run("init")
    (tmp_path / "position.toml").write_text('phase = "spring 1901 movement"\n[units]\n')
    error = one_error(run(*GAMES["diplomacy"], "--position", "position.toml", code=1))
    assert "a movement phase needs units on the board" in error


@pytest.mark.parametrize("kind", [*BAD_FILES, ZERO])
def test_a_settings_file_of_any_kind_of_wrong_is_refused_in_one_line(run, tmp_path, kind):
    run("init")
    path = bad_file(tmp_path, kind)
    error = one_error(run("list", "--config", path, code=78))
    assert error.startswith(f"pbem: {path}: ") and len(error) < 300, error


@pytest.mark.parametrize("command", [["receipt", "rome", "--check"],
                                     ["submit", "rome", "--seat", "ann", "--file"],
                                     ["ingest"]])
def test_orders_and_mails_past_the_size_cap_are_refused_in_one_line(run, tmp_path, command):
    run("init")
    run(*NEW)
    before = dump(tmp_path / "pbem.db")
    error = one_error(run(*command, ZERO, code=1))
    assert error.startswith(f"pbem: {ZERO}: more than ") and "no file this large" in error
    assert dump(tmp_path / "pbem.db") == before


def test_ingest_stores_none_of_its_mails_when_one_is_refused(run, tmp_path):
    run("init")
    (tmp_path / "ok.eml").write_bytes(b"From: a@x.example\r\nSubject: hi\r\n\r\nhello\r\n")
    before = dump(tmp_path / "pbem.db")
    one_error(run("ingest", "ok.eml", ZERO, code=1))
    assert dump(tmp_path / "pbem.db") == before


@pytest.mark.parametrize("kind", list(BAD_FILES))
def test_orders_typed_in_from_any_file_get_an_answer_not_a_traceback(run, tmp_path, kind):
    run("init")
    run(*NEW)
    path = bad_file(tmp_path, kind)
    out = run("submit", "rome", "--seat", "ann", "--file", path, "--now", "2026-12-01T13:00Z",
              code=1 if kind == "too big" else 0)
    assert "Traceback" not in out
    out = run("receipt", "rome", "--check", path, code=1)
    assert "Traceback" not in out and "pbem: " in out


def case_positions(game: str) -> list:
    """(seats, options, position) of each rule case of a game: positions that are right."""
    found = []
    for path in sorted((Path(__file__).parent / "games" / game).glob("*.toml")):
        case = tomllib.loads(path.read_text(encoding="utf-8"))
        position = case.get("position") or {k: case[k] for k in ("phase", "powers", "units",
                                                                  "centres") if k in case}
        if position:
            found.append((case.get("seats") or pbem.games.load(game).DEMO_SEATS,
                          case.get("options", {}), position))
    return found


# Values of every kind a TOML file may hold, at any place of a position.
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2 ** 63, 2 ** 63 - 1) | st.floats(allow_nan=False)
    | st.text(max_size=8) | st.sampled_from(["ann", "A PAR", "PAR", "red", "goths", "C2", ""]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["ann", "bob", "red", "x", "germany", "Pannonia"]), inner, max_size=3),
    max_leaves=6).filter(lambda value: value is not None)


def places(data, where=()) -> list:
    """Every place in nested tables and arrays, as a path of keys and indexes."""
    found = [where] if where else []
    items = data.items() if isinstance(data, dict) else \
        enumerate(data) if isinstance(data, list) else []
    for key, value in items:
        found += places(value, (*where, key))
    return found


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_a_position_with_any_value_anywhere_is_played_or_refused_in_one_line(
        tmp_path_factory, game, data):
    seats_, options, position = data.draw(st.sampled_from(case_positions(game)))
    position = copy.deepcopy(position)
    where = data.draw(st.sampled_from(places(position)))
    parent = position
    for key in where[:-1]:
        parent = parent[key]
    parent[where[-1]] = data.draw(VALUES)
    referee = make_referee(tmp_path_factory.mktemp("club"))
    try:
        referee.new_game(game, "g", seats(*seats_), START, dict(options), seed="s",
                         position=position)
    except PbemError as refused:
        assert "\n" not in str(refused)
        assert referee.store.game("g") is None


def test_a_backup_never_replaces_a_device_or_a_pipe(run, tmp_path):
    run("init")
    os.mkfifo(tmp_path / "pipe")
    error = one_error(run("backup", "pipe", code=2))
    assert "pipe is no regular file" in error
    assert (tmp_path / "pipe").is_fifo()
