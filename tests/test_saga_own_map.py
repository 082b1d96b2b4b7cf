"""A campaign on the referee's own map, given in a position file: each seat reads the zones
as that map names them, a French seat by the map's French names (its ``fr``), an English
seat by their names, in its welcome, acknowledgements, errors, hints, map and reports.

The map is tests/mailkinds.py's Francia, none of whose zones a shipped map knows; the
campaign is created as a referee creates it (`pbem new saga --position FILE`).
"""

import re
import tomllib

from click.testing import CliRunner
import pytest

from pbem import i18n, render
from pbem.cli import main
from pbem.games import saga
from pbem.timeutil import later

from conftest import START, make_referee, seats
from mailkinds import OWN_MAP_FRENCH, SAGA_OWN_MAP
from players import answer_to, flat, outbox, parsed, reply, text_of
from test_saga_mails import on_a_phone


@pytest.fixture
def francia(tmp_path, monkeypatch):
    """Campaign g on the position file's map: ann reads French, bob English."""
    referee = make_referee(tmp_path)
    (tmp_path / "francia.toml").write_text(SAGA_OWN_MAP, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    result = CliRunner().invoke(main, [
        "new", "saga", "--id", "g", "--seat", "ann=ann@players.example",
        "--seat", "bob=bob@players.example", "--lang", "ann=fr", "--position", "francia.toml",
        "--option", "rounds=3", "--now", START], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return referee


def html_of(row: dict) -> str:
    """The HTML part of an outbox row's mail."""
    return parsed(row).get_body(preferencelist=("html",)).get_content()


def named(text: str, names) -> list[str]:
    """The names, of those given, that a text shows as words."""
    return [name for name in names if re.search(rf"\b{name}\b", text)]


def test_a_french_seat_reads_the_maps_french_names_in_every_mail(francia, tmp_path):
    """ann greets, orders her host into Bavière without its accent, then mistypes it: the
    welcome, both answers, her hints and her map all say Saxe, Austrasie, Bavière."""
    [welcome] = outbox(francia, seat="ann", kind="welcome")
    said = flat(welcome)
    assert "Vous tenez 2 zones maintenant : Saxe, Austrasie." in said, said
    assert "Patrie Austrasie" in said and "ost en Saxe, 5 points" in said
    assert "déplacer ost Frise | Bavière" in said and "recruter guerriers Saxe" in said
    board = text_of(welcome)
    assert " 4 Bavière " in board and " 5 Bourgogne " in board and " 1 Frise " in board
    assert "Factions : ann Francs (Austrasie), bob Bretons (Aquitaine)." in said

    ack = answer_to(francia, reply(francia, "g", "ann", "Bonjour !\ndéplacer ost baviere\n"
                                                        "Ann", START))
    assert "ost entre en Bavière, hors de vos terres" in flat(ack)
    error = answer_to(francia, reply(francia, "g", "ann", "Salut\ndéplacer ost Bavire\n"
                                                          "à plus, Ann", START))
    assert "il n'y a pas de zone appelée 'bavire' ; vouliez-vous dire Bavière ?" in \
        flat(error), flat(error)

    for row in (welcome, ack, error):
        assert named(text_of(row) + html_of(row), OWN_MAP_FRENCH) == [], row["kind"]
    with i18n.speaking("fr"):
        board = render.board_html("saga", saga, saga.view(francia.table("g").state["game"],
                                                          "ann"))
    drawn = on_a_phone(board, tmp_path)
    assert [zone["name"] for zone in drawn["zones"]] == [
        "1 Frise", "2 Saxe", "3 Austrasie", "4 Bavière", "5 Bourgogne", "6 Lombardie",
        "7 Aquitaine"]
    assert 300 < drawn["width"] <= 360


def test_an_english_seat_of_the_same_campaign_reads_the_zones_names(francia):
    [welcome] = outbox(francia, seat="bob", kind="welcome")
    said = flat(welcome)
    assert "You hold 2 zones now: Burgundy, Aquitaine." in said, said
    assert " 3 Austrasia " in text_of(welcome) and " 6 Lombardy " in text_of(welcome)
    assert named(text_of(welcome) + html_of(welcome), OWN_MAP_FRENCH.values()) == []
    state = francia.table("g").state["game"]
    svg = render.board_svg("saga", saga, saga.view(state, "bob"))
    assert ">4 Bavaria</text>" in svg and "Bavière" not in svg


def test_what_a_seat_reads_depends_on_its_campaigns_map_alone(tmp_path):
    """Two campaigns on maps that name Saxony alike and Frenchify it apart: whichever was
    read last, each board says its own map's French name."""
    referee = make_referee(tmp_path)
    other = SAGA_OWN_MAP.replace('fr = "Saxe"', 'fr = "Vieille-Saxe"')
    for game, text in (("a", SAGA_OWN_MAP), ("b", other)):
        referee.new_game("saga", game, seats("ann", "bob"), START, {"rounds": "3"},
                         seed="maps", position=tomllib.loads(text))
    states = {game: referee.table(game).state["game"] for game in "ab"}
    shown = {"a": " 2 Saxe ", "b": " 2 Vieille-Saxe "}
    with i18n.speaking("fr"):
        for game in "abab":
            board = saga.board_text(saga.view(states[game], "ann"))
            elsewhere = shown["b" if game == "a" else "a"]
            assert shown[game] in board and elsewhere not in board, board
            error = saga.parse(states[game], "ann", "déplacer ost Saxxe")[1][0].message
            assert error.endswith(f"vouliez-vous dire {shown[game].split()[1]}\u00a0?"), error


def test_a_french_seat_s_report_tells_what_happened_by_the_maps_french_names(francia):
    reply(francia, "g", "ann", "Bonjour !\ndéplacer ost baviere\nAnn", START)
    deadline = francia.table("g").state["engine"]["deadline"]
    francia.tick(later(deadline, 0.1), send=False)
    [report] = outbox(francia, seat="ann", kind="report")[-1:]
    assert "Bavière" in flat(report), flat(report)
    assert named(text_of(report) + html_of(report), OWN_MAP_FRENCH) == [], flat(report)
    [english] = outbox(francia, seat="bob", kind="report")[-1:]
    assert "Bavaria" in flat(english) and "Bavière" not in flat(english), flat(english)
