"""A SAGA campaign from the command line, as a referee runs it, on a real database.

A position file starts a campaign where a battle is one move away; the
referee looks at it as each seat does and as the referee does, settles a
dispute with `pbem ruling`, and replays it; bad options and positions get
one line each; the demo plays a fogged campaign with a dispute and a ruling.
"""

import json
import re

from click.testing import CliRunner
import pytest

from pbem.cli import main

POSITION = """
round = 2
active = "ann"
turn = 3
factions = {ann = "normans", bob = "anglo-danes", cat = "scots"}
homelands = {ann = "Normandy", bob = "Mercia", cat = "Alba"}
owners = {Kent = "ann", Wessex = "bob"}
gold = {ann = 17, bob = 23, cat = 31}

[armies.ann]
host = {zone = "Kent", hearthguards = 1, warriors = 2, levies = 2, lord = true, main = true}

[armies.bob]
host = {zone = "Wessex", hearthguards = 1, warriors = 2, levies = 1, lord = true, main = true}

[armies.cat]
host = {zone = "Alba", hearthguards = 2, warriors = 2, lord = true, main = true}
"""
NOW = "2026-12-01T12:00Z"
SEATS = ["--seat", "ann=ann@x.example", "--seat", "bob=bob@x.example",
         "--seat", "cat=cat@x.example"]


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


@pytest.fixture
def campaign(run, tmp_path):
    """Campaign c1 from the position file; seed 'cli-3' sets the battle up at once."""
    run("init")
    (tmp_path / "pos.toml").write_text(POSITION, encoding="utf-8")
    run("new", "saga", "--id", "c1", *SEATS, "--position", "pos.toml", "--seed", "cli-3",
        "--option", "rounds=6", "--now", NOW)
    return run


def test_games_lists_saga_and_its_options(run):
    [row] = [g for g in json.loads(run("games", "--json")) if g["name"] == "saga"]
    assert row["title"] == "SAGA campaign"
    assert {"fog", "zones_to_win", "rounds", "battle_hours"} <= set(row["options"])
    assert "saga" in run("games")


@pytest.mark.parametrize("options, said", [
    (["--option", "rounds=3", "--option", "zones_to_win=5"],
     "give zones_to_win or rounds, not both"),
    (["--option", "rounds=-2"], "rounds must be a whole number, more than 0"),
    (["--option", "zones_to_win=30"], "zones_to_win is 30, but map default has only"),
    (["--option", "fog=maybe"], "fog must be yes or no"),
    (["--option", "colour=red"], "SAGA campaign has no option colour"),
])
def test_bad_options_get_one_line_and_no_game(run, options, said):
    run("init")
    out = run("new", "saga", "--id", "c1", *SEATS, *options, "--now", NOW, code=1)
    assert said in out and "Traceback" not in out
    assert json.loads(run("list", "--json")) == []


@pytest.mark.parametrize("position, said", [
    ('factions = "vikings"', "factions: give every seat's"),
    (POSITION.replace('gold = {ann = 17', 'gold = {ann = "lots"'),
     "gold.ann: give a whole number of gold"),
    (POSITION.replace('zone = "Alba", hearthguards = 2', 'zone = "Kent", hearthguards = 2'),
     "armies.cat.host: Kent is not a zone cat controls"),
    (POSITION.replace('[armies.cat]\nhost = {', '[armies.cat]\nhost = "big"\nx = {'),
     "armies.cat.host: each army is a table"),
    (POSITION.replace('owners = {Kent = "ann"', 'owners = {Atlantis = "ann"'),
     "owners: there is no zone 'Atlantis' on map default"),
    (POSITION.replace('cat = "scots"}', 'cat = "normans"}'), "two seats have the same faction"),
    (POSITION.replace('turn = 3', 'turn = "soon"'), "turn: give a whole number"),
    (POSITION + '\n[tables.lord]\n"1-5" = {effect = "slain"}\n',
     "tables.lord: face 6 is in no row"),
])
def test_bad_positions_get_one_line_and_no_game(run, tmp_path, position, said):
    run("init")
    (tmp_path / "pos.toml").write_text(position, encoding="utf-8")
    out = run("new", "saga", "--id", "c1", *SEATS, "--position", "pos.toml", "--now", NOW,
              code=1)
    assert said in out and "Traceback" not in out


def test_each_seat_sees_its_own_campaign_and_the_referee_everything(campaign):
    ann = campaign("show", "c1", "--seat", "ann")
    assert re.search(r"15 Kent +ann \(Normans\) +host 5 \(1/2/2 \+L\)", ann)
    assert re.search(r"14 Wessex +\?\n", ann)
    cat = json.loads(campaign("show", "c1", "--seat", "cat", "--json"))
    assert cat["you"]["gold"] == 31 and "realms" not in cat
    assert cat["phase"]["waiting_for"] == []
    assert json.loads(campaign("show", "c1", "--seat", "ann", "--json"))["phase"][
        "waiting_for"] == ["ann"]
    everything = campaign("show", "c1", "--referee")
    assert re.search(r"14 Wessex +bob \(Anglo-Danes\) +host 4 \(1/2/1 \+L\)", everything)
    public = campaign("show", "c1")
    assert re.search(r"14 Wessex +\?\n", public) and "waiting for others" in public


def test_a_disputed_battle_is_ruled_from_the_command_line(campaign, tmp_path):
    (tmp_path / "ann.txt").write_text("move host Wessex\n", encoding="utf-8")
    campaign("submit", "c1", "--seat", "ann", "--file", "ann.txt", "--now", NOW)
    campaign("tick", "--no-send", "--now", "2026-12-01T13:00Z")
    assert "host marched from Kent into Wessex" in campaign("log", "c1", "--seat", "ann")
    assert "Wessex" not in campaign("log", "c1", "--seat", "cat")
    for seat in ("ann", "bob"):
        (tmp_path / f"{seat}.txt").write_text("result won\n", encoding="utf-8")
        campaign("submit", "c1", "--seat", seat, "--file", f"{seat}.txt",
                 "--now", "2026-12-01T14:00Z")
    campaign("tick", "--no-send", "--now", "2026-12-01T15:00Z")
    listed = campaign("ruling", "c1")
    assert "referee: The reports of a battle disagree: who won?" in listed
    assert "The battle of Wessex: ann attacked, bob defended" in listed
    assert "ann reported: won." in listed and "bob reported: won." in listed
    assert "winner (ann|bob)" in listed
    [ruling] = json.loads(campaign("ruling", "c1", "--json"))
    out = campaign("ruling", "c1", ruling["id"], "--set", "winner=bob", "--text",
                   "bob's photo shows the bridge held", "--now", "2026-12-01T16:00Z")
    assert "recorded" in out
    bob_log = campaign("log", "c1", "--seat", "bob")
    assert "bob's photo shows the bridge held" in bob_log
    assert "winner: bob (bob's photo shows the bridge held)" in bob_log
    assert "bob won the battle of Wessex against ann" in bob_log
    assert "photo" not in campaign("log", "c1", "--seat", "cat")
    assert "verified" in campaign("replay", "c1", "--verify")


def test_the_demo_plays_a_fogged_campaign_with_a_dispute_a_ruling_and_a_vassal(run, tmp_path):
    out = run("demo", "saga", "--dir", "d", "--seed", "2")
    assert "Replay: verified, byte for byte" in out
    summary = next(line for line in out.splitlines() if line.startswith("SAGA campaign demo"))
    rulings = int(summary.split(" referee ruling")[0].rsplit(" ", 1)[1])
    assert rulings >= 1
    log = run("log", "demo", "--referee", "--db", str(tmp_path / "d" / "demo.db"))
    assert "battle_disputed" in log and "ruling_given" in log and "vassal_sworn" in log
    inbox = tmp_path / "d" / "mail" / "inbox" / "cur"
    overlord_mails = [p for p in inbox.iterdir() if "\nfor " in p.read_text(errors="replace")]
    assert overlord_mails, "an overlord's bot mailed its vassal's orders"


def test_list_and_orders_name_nobody_asked_under_fog_without_referee(campaign, tmp_path):
    (tmp_path / "ann.txt").write_text("move host Wessex\n", encoding="utf-8")
    campaign("submit", "c1", "--seat", "ann", "--file", "ann.txt", "--now", NOW)
    campaign("tick", "--no-send", "--now", "2026-12-01T13:00Z")
    (tmp_path / "bob.txt").write_text("result lost\n", encoding="utf-8")
    campaign("submit", "c1", "--seat", "bob", "--file", "bob.txt",
             "--now", "2026-12-01T14:00Z")  # the battle: ann and bob are asked, bob is in
    listed = campaign("list")
    assert "waiting for others (who is asked is secret: pbem list --referee)" in listed
    assert not re.search(r"\b(ann|bob)\b", listed.split("c1", 1)[1]), listed
    [row] = json.loads(campaign("list", "--json"))
    assert (row["waiting_for"], row["orders_in"], row["disorder"]) == (None, None, None)
    assert "waiting for ann (orders in: bob)" in campaign("list", "--referee")
    orders = campaign("orders", "c1")
    assert "who is asked is known only to the seats asked (fog of war)" in orders
    assert not re.search(r"\b(ann|bob)\b", orders), orders
    assert json.loads(campaign("orders", "c1", "--json"))["seats"] is None
    secret = campaign("orders", "c1", "--referee")
    assert re.search(r"ann +nothing yet", secret) and re.search(r"bob +orders in since", secret)
    assert "waiting for others" in campaign("show", "c1")
