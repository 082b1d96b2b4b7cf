"""Whole Diplomacy games between bots, through the referee: they end, replay, and every line
a mail offers a seat is an order the parser takes from it.

The bots mail whatever they are asked (movements, retreats, builds and
removals) through the same path as a player's mail; now and then one stays
silent, so units hold by default, dislodged units are disbanded and civil
disorder removes units.
"""

import email
from email import policy
import re

import pytest

from pbem import inbound
from pbem.adjudicator import engine
from pbem.adjudicator.rng import PhaseRng
from pbem.app import SeatSpec
from pbem.games import diplomacy
from pbem.games.diplomacy.board import board
from pbem.games.diplomacy.position import start
from pbem.games.diplomacy.present import next_words
from pbem.games.diplomacy.start import ASSIGNMENTS
from pbem.i18n import speaking
from pbem.replay import replay

from conftest import START, make_referee, next_phase

NAMES = diplomacy.DEMO_SEATS
SILENCE = 12  # one bot answer in this many is never sent
OFFERED = re.compile(r"^  (\S.*?)(?: {2,}|$)")  # an order a mail offers, and no more
HEADINGS = re.compile(r"^(What you may send now|Ce que vous pouvez envoyer maintenant|"
                      r"How to write Diplomacy orders|Comment écrire vos ordres de Diplomatie)")


def play_game(referee, game_id, players, seed, options, watch=None, french=(),
              between=None) -> int:
    """Play a game to its end; return how many phases. between(state, answers, now) is
    called once the bots' orders are in ({seat: the answer to its mail}), watch(table)
    after every phase; the seats named in `french` read their mail in French."""
    referee.new_game("diplomacy", game_id, [
        SeatSpec(name, f"{name}@players.example", lang="fr" if name in french else None)
        for name in NAMES[:players]], START, options, seed=seed)
    now, phases = START, 0
    while not referee.table(game_id).state["engine"]["over"]:
        state = referee.table(game_id).state
        answers = {}
        for seat in sorted(state["engine"]["requests"]):
            rng = PhaseRng(seed, f"bot:{seat}", state["engine"]["phase"])
            if rng.below(SILENCE) == 0:
                continue
            text = diplomacy.bot_orders(state["game"], seat, rng)
            answers[seat] = inbound.submit(referee, game_id, seat, text, now)
            assert not answers[seat]["errors"], f"the bot's mail {text!r}: {answers[seat]}"
        if between:
            between(state, answers, now)
        now = next_phase(referee, game_id, now)
        phases += 1
        assert phases < 1000, "the game never ends"
        if watch:
            watch(referee.table(game_id))
    return phases


@pytest.mark.slow
def test_a_hundred_years_of_seven_bots_end_and_replay_byte_for_byte(tmp_path):
    referee = make_referee(tmp_path)
    phases = play_game(referee, "europe", 7, "century", {"years": "100"})
    state = referee.table("europe").state
    result = state["engine"]["result"]
    assert result["reason"] in ("solo", "years") and result["winners"]
    assert phases > 150
    kinds = {row["type"] for row in referee.store.all("SELECT type FROM events WHERE game = ?",
                                                      ["europe"])}
    assert {"dislodged", "standoffs", "centres_changed", "orders_resolved"} <= kinds
    played = {r["order"]["type"] for e in referee.events("europe", None)
              if e["type"] == "orders_resolved" for r in e["payload"]["results"]
              if not r.get("default")}
    assert played == {"move", "hold", "support", "convoy", "retreat", "disband", "build",
                      "remove", "waive"}, "the bots give every kind of order"
    verdict = replay(referee.store, "europe", verify=True)
    assert verdict.ok, verdict.problems[:5]
    assert verdict.state == state


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_fewer_players_play_the_usual_assignments_to_the_end(tmp_path, players):
    referee = make_referee(tmp_path)
    play_game(referee, "g", players, f"few-{players}", {"years": "6"})
    game = referee.table("g").state["game"]
    played = sorted(sorted(p for p, s in game["powers"].items() if s == seat)
                    for seat in NAMES[:players])
    assert played == sorted(sorted(group) for group in ASSIGNMENTS[players])
    assert referee.table("g").state["engine"]["result"]["reason"] in ("solo", "years")
    assert replay(referee.store, "g", verify=True).ok


def test_the_usual_assignment_is_drawn_from_the_games_own_stream():
    drawn = {}
    for seed in ("one", "two", "three"):
        state = engine.fold(diplomacy, engine.creation_events(
            diplomacy, "g", "diplomacy", {}, NAMES[:4], seed))
        drawn[seed] = state["game"]["powers"]
        again = engine.fold(diplomacy, engine.creation_events(
            diplomacy, "g", "diplomacy", {}, NAMES[:4], seed))
        assert again["game"]["powers"] == drawn[seed]
    assert len({tuple(p.values()) for p in drawn.values()}) > 1, "the seed draws the seats"


def offered(text: str) -> list[str]:
    """The orders a mail offers: the rows under "What you may send now" and HELP's (each
    heading may take two lines; its rows end at the next line that is not one)."""
    found, under = [], None
    for line in text.splitlines():
        if HEADINGS.match(line):
            under = "heading"
        elif under and OFFERED.match(line):
            found.append(OFFERED.match(line).group(1).strip())
            under = "rows"
        elif under == "rows" and line.strip() and not line.startswith(" "):
            under = None
    return found


@pytest.mark.slow
def test_every_order_a_mail_offers_is_one_the_seat_may_send_then(tmp_path):
    """Over a whole game (seats in English and French), each order shown in a report,
    under "What you may send now" or in the HELP, is read without an error from the seat
    it was sent to, in the phase it was sent in."""
    referee = make_referee(tmp_path)
    checked, seen = [], set()

    def watch(table):
        eng = table.state["engine"]
        rows = referee.store.all("SELECT * FROM outbox WHERE game = 'g' AND kind = 'report' "
                                 "AND phase = ?", [eng["phase"]])
        for row in rows:
            if row["id"] in seen or row["seat"] not in eng["requests"]:
                continue
            seen.add(row["id"])
            msg = email.message_from_bytes(referee.store.outbox_mail(row), policy=policy.default)
            text = msg.get_body(preferencelist=("plain",)).get_content()
            lines = offered(text)
            assert lines, text
            for line in lines:
                orders, errors = diplomacy.parse(table.state["game"], row["seat"], line)
                assert orders and not errors, (row["seat"], line, errors)
            checked.extend(lines)

    play_game(referee, "g", 4, "hints", {"years": "4"}, watch=watch, french=("bob", "dan"))
    assert len(checked) > 300
    words = " ".join(checked)
    for kind in (("BUILD", "CONSTRUIT"), ("DISBAND", "DISSOUS"), ("VIA CONVOY", "PAR CONVOI"),
                 (" H",), ("TIENT",), (" S ",), (" C ",), ("REMOVE", "RETIRE")):
        assert any(shown in words for shown in kind), f"no mail offered {kind}"


@pytest.mark.slow
def test_the_demo_plays_a_whole_game_by_mail(tmp_path):
    from pbem.demo import play
    summary = play("diplomacy", "demo", tmp_path / "demo", turns=12)
    said = "\n".join(summary)
    assert "Diplomacy demo:" in said and "Replay: verified, byte for byte" in said
    assert "Result: " in said and "stopped at the turn cap" not in said


def test_a_french_report_names_the_powers_with_their_article(tmp_path):
    """'BUL à Turquie', 'Autriche construit 1', 'Vous jouez Autriche' read as no French
    player writes: a power in a sentence has its article."""
    referee = make_referee(tmp_path)
    referee.new_game("diplomacy", "g", [
        SeatSpec("ann", "ann@players.example", lang="fr"),
        SeatSpec("bob", "bob@players.example")], START,
        {"powers": "ann:austria+turkey,bob:russia"}, seed="articles")
    now = START
    for text in ("A BUD - SER\nA CON - BUL\nF ANK - BLA", "A SER - GRE\nA BUL - RUM"):
        inbound.submit(referee, "g", "ann", text, now)
        now = next_phase(referee, "g", now)
    mail = referee.store.one("SELECT * FROM outbox WHERE game = 'g' AND seat = 'ann' "
                             "AND kind = 'report' ORDER BY id DESC LIMIT 1")
    msg = email.message_from_bytes(referee.store.outbox_mail(mail), policy=policy.default)
    text = " ".join(msg.get_body(preferencelist=("plain",)).get_content().split())
    assert "GRE à l'Autriche" in text and "RUM à la Turquie" in text
    assert "Ensuite : Hiver 1901, ajustements ; l'Autriche construit 1 ; la Turquie " \
           "construit 1." in text
    assert "la Turquie peut construire 1" in text
    assert "Vous jouez l'Autriche et la Turquie." in text


def test_a_french_error_names_the_power_of_a_unit_not_yours_with_its_article(tmp_path):
    """'l'unité de Paris (PAR) appartient à France'."""
    referee = make_referee(tmp_path)
    referee.new_game("diplomacy", "g", [
        SeatSpec("ann", "ann@players.example", lang="fr"),
        SeatSpec("bob", "bob@players.example")], START,
        {"powers": "ann:austria+turkey,bob:russia"}, seed="articles")
    table = referee.table("g")
    with speaking("fr"):
        _orders, errors = table.game.parse(table.state["game"], "ann", "A MOS H")
    assert [e.message for e in errors] == ["l'unité de Moscou (MOS) appartient à la Russie\u00a0: "
                                          "vous ne donnez d'ordres qu'à vos unités"]


def test_one_unit_to_retreat_is_told_in_the_singular_in_french():
    """'F SWE doivent battre en retraite ou être dissoutes' for one fleet."""
    position = {**start(board()), "phase": "retreat", "season": "fall",
                "dislodged": {"SWE": {"power": "russia", "type": "F", "from": "BAL",
                                      "retreats": ["BOT", "FIN", "SKA"]}}}
    with speaking("fr"):
        assert next_words(position) == ("Ensuite\u00a0: Automne 1901, retraites\u00a0; F SWE "
                                        "doit battre en retraite ou être dissoute.")
