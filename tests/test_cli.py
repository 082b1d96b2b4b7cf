"""The command line, driven as a referee types it, on a real database in a temp folder."""

import json
import re

from click.testing import CliRunner
import pytest

from pbem.cli import main


@pytest.fixture
def run(tmp_path, monkeypatch):
    """Run a pbem command in a fresh folder; fail loudly on an unexpected exit code."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    runner = CliRunner()

    def invoke(*args, code=0, stdin=None):
        result = runner.invoke(main, list(args), input=stdin, catch_exceptions=False)
        assert result.exit_code == code, result.output
        return result.output
    return invoke


NEW = ["new", "auguste", "--id", "rome", "--preset", "4-2", "--seed", "s1",
       "--seat", "ann=ann@x.example", "--seat", "bob=bob@x.example",
       "--now", "2026-12-01T12:00Z"]


def test_every_command_has_help_with_an_example(run):
    for name in main.commands:
        text = run(name, "--help")
        assert "Example:" in text, f"pbem {name} --help has no example"
    assert "Example:" in run("--help")


def test_games_lists_the_rulesets(run):
    assert "auguste" in run("games")
    assert "auguste" in [g["name"] for g in json.loads(run("games", "--json"))]


def test_init_creates_settings_database_and_mail_folders(run, tmp_path):
    run("init")
    assert (tmp_path / "pbem.toml").exists() and (tmp_path / "pbem.db").exists()
    assert (tmp_path / "mail" / "inbox" / "new").is_dir()
    assert (tmp_path / "mail" / "outbox" / "cur").is_dir()


def test_a_game_from_the_command_line(run, tmp_path):
    run("init")
    assert "game rome created" in run(*NEW)
    listed = json.loads(run("list", "--json"))
    assert listed == [{"id": "rome", "ruleset": "auguste", "status": "running", "phase": 1,
                       "deadline": "2026-12-03T12:00:00Z", "waiting_for": ["ann", "bob"],
                       "orders_in": [], "seats": ["ann", "bob"], "bouncing": [],
                       "disorder": [], "paused": None, "result": None, "standby": []}]
    out = run("submit", "rome", "--seat", "ann", "--file", "-", "--now", "2026-12-01T13:00Z",
              stdin="red: move NOWHERE X\n")
    assert "line 1: there is no cell called NOWHERE on this board" in out
    assert "mails sent: 3" in run("tick", "-v", "--now", "2026-12-01T13:00Z")
    assert len(list((tmp_path / "mail" / "outbox" / "new").iterdir())) == 3
    run("tick", "--now", "2026-12-03T12:00Z")
    assert json.loads(run("list", "--json"))[0]["phase"] == 2
    view = json.loads(run("show", "rome", "--seat", "ann", "--json"))
    assert {k: view["you"][k] for k in ("seat", "legions")} == \
        {"seat": "ann", "legions": ["red", "green"]}
    assert view["you"]["examples"]["move"].startswith("red: move ")
    assert view["turn"] == 2
    assert "Phase 2" in run("show", "rome")
    public = json.loads(run("log", "rome", "--json"))
    assert "orders_set" not in {e["type"] for e in public}
    assert "orders_set" in {e["type"] for e in json.loads(run("log", "rome", "--referee", "--json"))}
    assert "verified" in run("replay", "rome", "--verify")
    run("show", "rome", "--html", "board.html")
    page = (tmp_path / "board.html").read_text()
    assert "<svg" in page and "MOC" in page


def test_errors_are_plain_words_and_change_nothing(run):
    run("init")
    assert "no game called 'nope'" in run("show", "nope", code=1)
    assert "unknown game 'chess'" in run("new", "chess", "--id", "g", "--seat", "a=a@x.example",
                                         code=1)
    run(*NEW)
    assert "already a game called 'rome'" in run(*NEW, code=1)
    assert "no seat called 'zed'" in run("show", "rome", "--seat", "zed", code=1)
    assert "--seat or --referee" in run("show", "rome", "--seat", "ann", "--referee", code=2)
    assert len(json.loads(run("list", "--json"))) == 1


@pytest.mark.parametrize("given,refusal", [
    (["--option", "turn_hours=0"], "turn_hours must be a number of hours, more than 0: '0'"),
    (["--option", "turn_hours=abc"], "turn_hours must be a number of hours, more than 0"),
    (["--option", "reminder_hours=-1"], "reminder_hours must be a number of hours, 0 or more"),
    (["--option", "slow=1.5"], "slow must be a whole number, 0 or more: '1.5'"),
    (["--option", "max_turns=-3"], "max_turns must be a whole number, 0 or more"),
    (["--option", "seer_hours=nan"], "seer_hours must be a number of hours, more than 0"),
    (["--option", "trump=yes"], "Auguste has no option trump; its options are assign, board,"),
    (["--option", "trumps=maybe"], "trumps must be yes or no: 'maybe'"),
    (["--option", "handicap=red:16"], "handicap red:16: the red legion has only 16 legionaries"),
    (["--option", "board=fast", "--option", "board=default"], "board is given twice"),
    (["--seat", "ann=other@x.example"], "ann is given twice"),
    (["--preset", "3-3"], "3 legions in 3 teams: give 3 seats, or --option assign="),
])
def test_a_new_game_with_a_senseless_setting_is_refused(run, given, refusal):
    run("init")
    out = run(*NEW, *given, code=2 if "twice" in refusal else 1)
    assert refusal in out
    assert json.loads(run("list", "--json")) == []


def test_options_are_listed_with_each_game(run):
    [auguste] = [g for g in json.loads(run("games", "--json")) if g["name"] == "auguste"]
    assert set(auguste["options"]) >= {"trumps", "handicap", "turn_hours", "slow"}
    assert "bid_hours: hours a conflict's sealed bids stay open" in run("games")


def test_outbox_shows_the_seats_codes_only_to_the_referee(run):
    run("init")
    run(*NEW)
    listed = json.loads(run("outbox", "--json"))
    assert [m["subject"] for m in listed] == ["[pbem rome #…] Turn 1: the game begins, your orders by Thu 12:00"] * 2
    assert "#…]" in run("outbox", "--all")
    codes = [m["subject"] for m in json.loads(run("outbox", "--json", "--referee"))]
    assert len(codes) == 2 and all(re.match(r"\[pbem rome #[a-z2-9]{10}\] ", c) for c in codes)


def test_extend_moves_the_deadline_and_refuses_what_cannot_help(run):
    run("init")
    run(*NEW)
    out = run("extend", "rome", "--hours", "36", "--now", "2026-12-02T12:00Z")
    assert "the deadline is now 2026-12-05T00:00:00Z" in out
    assert json.loads(run("list", "--json"))[0]["deadline"] == "2026-12-05T00:00:00Z"
    assert "above 0" in run("extend", "rome", "--hours", "-2", code=2)
    assert "still past" in run("extend", "rome", "--hours", "1", "--now", "2026-12-09T00:00Z",
                               code=1)
    assert json.loads(run("list", "--json"))[0]["deadline"] == "2026-12-05T00:00:00Z"


def test_end_stops_a_game_with_no_winner(run):
    run("init")
    run(*NEW)
    assert "--reason" in run("end", "rome", code=2)
    assert "game rome is over" in run("end", "rome", "--reason", "the club closed",
                                      "--now", "2026-12-02T12:00Z")
    [listed] = json.loads(run("list", "--json"))
    assert (listed["status"], listed["result"]) == (
        "over", {"winners": [], "reason": "stopped by the referee: the club closed"})
    assert "over already" in run("end", "rome", "--reason", "again", code=1)
    assert "verified" in run("replay", "rome", "--verify")


def test_db_option_points_at_another_file(run, tmp_path):
    run("init")
    assert "pass --db other.db to every command" in run("init", "--db", "other.db")
    run(*NEW, "--db", "other.db")
    assert (tmp_path / "other.db").exists()
    assert json.loads(run("list", "--json", "--db", "other.db"))[0]["id"] == "rome"
    assert json.loads(run("list", "--json")) == []


def test_db_beside_config_is_read_from_the_current_folder(run, tmp_path):
    run("init", "--dir", "club")
    run("backup", "copy.db", "--config", "club/pbem.toml")
    run(*NEW, "--db", "copy.db", "--config", "club/pbem.toml")
    assert json.loads(run("list", "--json", "--db", "copy.db", "--config",
                          "club/pbem.toml"))[0]["id"] == "rome"
    assert json.loads(run("list", "--json", "--config", "club/pbem.toml")) == []
    assert not (tmp_path / "club" / "copy.db").exists()


def test_init_and_demo_put_the_database_where_db_says(run, tmp_path):
    club = tmp_path / "games" / "club.db"
    assert f"database {club}" in run("init", "--db", "games/club.db")
    assert f'db = "{club}"' in (tmp_path / "pbem.toml").read_text()
    assert json.loads(run("list", "--json")) == [] and club.exists()
    out = run("demo", "--dir", "d", "--db", "demo-elsewhere.db", "--turns", "2")
    assert "Replay: verified" in out
    assert (tmp_path / "demo-elsewhere.db").exists() and not (tmp_path / "d" / "demo.db").exists()
    assert "choose another --db" in run("demo", "--dir", "d", "--db", "demo-elsewhere.db", code=1)


def test_demo_never_empties_a_folder_it_did_not_make(run, tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "keep.txt").write_text("mine")
    assert "holds files of its own" in run("demo", "--dir", "notes", "--turns", "2", code=1)
    assert (tmp_path / "notes" / "keep.txt").read_text() == "mine"


def test_bad_paths_and_numbers_get_plain_answers(run, tmp_path):
    (tmp_path / "notes.txt").write_text("not a database")
    assert "cannot open the database" in run("list", "--db", "notes.txt", code=1)
    run("init")
    run(*NEW)
    assert "cannot write" in run("show", "rome", "--html", "no/such/folder/x.html", code=1)
    assert "x>=1" in run("replay", "rome", "--to", "0", code=2)
    assert "the log of rome ends at event" in run("replay", "rome", "--to", "999", code=2)
    assert "no board yet" in run("replay", "rome", "--to", "1")
    (tmp_path / "orders.txt").write_bytes("red: move CAMPAGNE-\xc9 BAK\n".encode("latin-1"))
    out = run("submit", "rome", "--seat", "ann", "--file", "orders.txt",
              "--now", "2026-12-01T13:00Z")
    assert "line 1: there is no cell called CAMPAGNE-E on this board" in out


def test_demo_plays_to_the_end_and_verifies(run, tmp_path):
    out = run("demo", "--seed", "7", "--dir", "d", "--turns", "15")
    assert "Replay: verified, byte for byte" in out
    assert (tmp_path / "d" / "demo.db").exists()
    again = run("demo", "--seed", "7", "--dir", "d2", "--turns", "15")
    strip = lambda text: [l for l in text.splitlines() if "d2" not in l and "/d/" not in l
                          and not l.startswith(("Database", "Mails", "Look"))]
    assert strip(out) == strip(again)


def test_inbox_lists_refused_mail_and_releases_it(run, tmp_path):
    run("init")
    run(*NEW)
    (tmp_path / "stray.eml").write_bytes(
        b"From: no-reply@elsewhere.example\r\nTo: pbem@localhost\r\nSubject: hello\r\n"
        b"Message-ID: <stray@elsewhere.example>\r\n\r\nhi\r\n")
    run("ingest", "stray.eml", "--now", "2026-12-01T13:00Z")
    run("tick", "--now", "2026-12-01T13:00Z")
    [row] = json.loads(run("inbox", "--json"))
    assert (row["status"], row["reason"], row["sender"]) == \
        ("ignored", "mail to the club from no-reply@elsewhere.example, an automatic address: "
                    "not answered", "no-reply@elsewhere.example")
    assert "1 mail released" in run("inbox", "--release", str(row["id"]))
    assert json.loads(run("inbox", "--json")) == []


# What writing a mail or reading HTML needs: an idle tick from cron loads none of it.
HEAVY = ("jinja2", "bs4", "lxml", "babel", "PIL", "resvg_py", "sqlite_utils",
         "pbem.letters", "pbem.render", "pbem.inbound", "pbem.mail.compose")


def test_an_idle_tick_loads_no_templates_parser_or_images(run, tmp_path):
    import subprocess
    import sys
    run("init")
    run(*NEW)
    run("tick", "--now", "2026-12-01T12:05Z")  # sends the welcome mails
    probe = ("import sys\nfrom pbem.cli import main\n"
             "try:\n    main(['tick', '-v', '--now', '2026-12-01T12:10Z'])\n"
             "except SystemExit:\n    pass\n"
             f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          cwd=tmp_path, check=True)
    assert "mails read: 0" in done.stdout and "mails sent: 0" in done.stdout
    assert done.stdout.strip().splitlines()[-1] == "[]"
