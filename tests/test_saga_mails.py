"""What the SAGA mails tell each seat: its own map, its realm, what it may send, its battle.

The case position of tests/games/saga/scouting_die_6_outrun.toml (its seed
makes the scouting die a 6): ann scouts Mercia, marches in, bob picks the
scenario, and both get the battle mail. The map is drawn from each seat's
own knowledge, and a real headless Chromium shows it on a phone's width.
"""

import email
from email import policy
import json
from pathlib import Path
import re
import shutil
import subprocess
import tomllib

import pytest

from pbem import i18n, inbound, render
from pbem.games import saga
from pbem.timeutil import later

from conftest import START, make_referee, seats

CASE = tomllib.loads((Path(__file__).parent / "games" / "saga" /
                      "scouting_die_6_outrun.toml").read_text(encoding="utf-8"))
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
NO_CHROMIUM = ("no headless Chromium: install the Debian packages chromium and chromium-driver "
               "(the README's test command does)")


def mails(referee, seat=None, kind=None) -> list:
    """Outbox mails (parsed), to one seat and of one kind if given."""
    rows = referee.store.all("SELECT * FROM outbox ORDER BY id")
    return [email.message_from_bytes(referee.store.outbox_mail(r), policy=policy.default)
            for r in rows
            if (seat is None or r["seat"] == seat) and (kind is None or r["kind"] == kind)]


def text(msg) -> str:
    return msg.get_body(preferencelist=("plain",)).get_content()


@pytest.fixture
def battle(tmp_path):
    """ann scouted Mercia (a 6), marched in; bob picked the scenario: the battle is set.
    cat reads French."""
    referee = make_referee(tmp_path)
    players = seats("ann", "bob", "cat")
    players[2].lang = "fr"
    referee.new_game("saga", "case", players, START, {}, seed=CASE["seed"],
                     position={**CASE["position"],
                               "factions": {**CASE["position"]["factions"], "cat": "scots"},
                               "homelands": {**CASE["position"]["homelands"], "cat": "Alba"}})
    march(referee, "scout Mercia", "move host Mercia")
    return referee


def march(referee, scout: str, move: str) -> None:
    """ann scouts Mercia and marches in; bob picks the scenario: each answered at once."""
    now = START
    for seat, order in (("ann", scout), ("ann", move), ("bob", "scenario bridge")):
        answer = inbound.submit(referee, "case", seat, order, now)
        assert not answer["errors"], answer
        now = later(now, 1)
        assert referee.tick(now, send=False).phases


def test_the_scout_alone_is_answered_at_once(battle):
    [answer] = [m for m in mails(battle, "ann", "report")
                if "scouting Mercia: die 6" in text(m)]
    assert "scouting answered: MOVE or STAY" in answer["Subject"]
    body = text(answer)
    assert "held by bob: army 4 (1/2/1 +L), their homeland" in " ".join(body.split())
    assert "  move host Mercia" in body and "  stay" in body
    others = mails(battle, "bob") + mails(battle, "cat")
    assert not any("scouting Mercia" in text(m) for m in others)


def test_both_players_get_one_battle_mail_with_everything(battle):
    for seat in ("ann", "bob"):
        mail = mails(battle, seat, "report")[-1]
        assert "report the result of your battle, by " in mail["Subject"]
        body = text(mail)
        assert "YOUR BATTLE in Mercia: ann attacks, bob defends, on the defender's homeland." \
            in body
        assert "Scenario: The bridge." in body
        assert "  ATTACKER ann: host, 5 points: 1 Hearthguards, 2 Warriors, 2 Levies, the " \
               "Lord" in body
        assert "  DEFENDER bob: host, 4 points: 1 Hearthguards, 2 Warriors, 1 Levies, the " \
               "Lord" in body
        flat = " ".join(body.split())
        assert "Scouting bonus: the defender starts the battle with at most 3 points" in flat
        assert "replies with the result: RESULT WON or RESULT LOST" in flat
        assert "  result won" in body
    assert not [m for m in mails(battle, "cat") if "attacks" in text(m) or
                "marched" in text(m) or "BATTLE" in text(m)], "cat learns nothing of the battle"
    assert battle.table("case").state["engine"]["requests"]["ann"]["hours"] == 168


def test_a_french_seat_reads_its_campaign_in_french(battle):
    body = text(mails(battle, "cat")[-1])
    assert "cat mène les Scots\u00a0; Patrie Alba." in body
    assert "Trésor\u00a0: 0 or." in body
    assert "Comment écrire vos ordres" in body
    assert "Campagne SAGA, manche 2, tour 3\u00a0: ann joue" in body
    assert "3 Alba          cat (Scots) *" in body
    answer = inbound.submit(battle, "case", "ann", "resultat gagne", later(START, 9))
    assert answer["understood"] == ["battle report: you won"]


def test_every_text_part_fits_78_columns(battle):
    for mail in mails(battle):
        for line in text(mail).splitlines():
            assert len(line) <= 78, f"{mail['Subject']}: {line!r}"


def test_each_seat_draws_its_own_map(battle):
    state = battle.table("case").state["game"]
    seen = saga.view(state, "ann")
    status = {z["name"]: z["status"] for z in seen["zones"]}
    zones = {z["name"]: z for z in saga.svg_context(seen)["zones"]}
    assert status["Kent"] == "own" and zones["Kent"]["colour"] != present_grey()
    assert status["Alba"] == "known" and zones["Alba"]["mark"] == "", \
        "a homeland known since the setup bears no turn: no player saw a turn 0"
    assert zones["Alba"]["stale"] and zones["Alba"]["dashed"]
    assert status["Jorvik"] == "unknown" and zones["Jorvik"]["colour"] == present_grey()
    assert {z["name"]: z["status"] for z in saga.view(state, "bob")["zones"]}["Kent"] == "unknown"
    svg = render.board_svg("saga", saga, saga.view(state, "ann"))
    assert 'viewBox="0 0 640 700"' in svg and "max-width: 100%" in svg
    assert "t0" not in svg


def test_each_zone_is_drawn_once_as_each_seat_knows_it(battle):
    """Zones are drawn once per process and reused: each seat's map, drawn again or in
    French, still shows every zone once, and as that seat knows it."""
    state = battle.table("case").state["game"]
    for seat in ("ann", "bob", "referee", None):
        seen = saga.view(state, seat)
        board = render.board_svg("saga", saga, seen)
        assert render.board_svg("saga", saga, seen) == board
        assert board.count("<g>") == len(seen["zones"]) == 19
        for zone in seen["zones"]:
            assert board.count(f'fill="#1c1c1c">{zone["number"]} {zone["name"]}</text>') == 1
        unknown = sum(zone["status"] == "unknown" for zone in seen["zones"])
        assert board.count(": not known</title>") == unknown
        with i18n.speaking("fr"):
            french = render.board_svg("saga", saga, seen)
        assert french.count(": inconnue</title>") == unknown and "not known" not in french
    assert render.board_svg("saga", saga, saga.view(state, "ann")) != \
        render.board_svg("saga", saga, saga.view(state, "bob"))


def present_grey() -> str:
    from pbem.games.saga.present import GREY
    return GREY


def test_the_map_fits_a_phone_and_greys_what_is_unknown(battle, tmp_path):
    """Chromium lays ann's map out in a phone's 360 px: it scales down to fit, and every zone
    she knows nothing of is drawn grey."""
    state = battle.table("case").state["game"]
    found = on_a_phone(render.board_html("saga", saga, saga.view(state, "ann")), tmp_path)
    assert 300 < found["width"] <= found["page"] <= 360
    fills = {z["name"]: z["fill"] for z in found["zones"]}
    assert fills["7 Bernicia"] == "rgb(208, 208, 208)", "unknown zones are grey"
    assert fills["15 Kent"] != "rgb(208, 208, 208)", "ann's own zone has her colour"
    assert len(fills) == 19


def on_a_phone(board, folder) -> dict:
    """A map's HTML block as headless Chromium lays it out in a phone's 360 px: the map's
    width, the page's, and each zone as drawn ({"name": its caption, "fill"})."""
    assert CHROMIUM, NO_CHROMIUM
    page = """<!DOCTYPE html><html><head><meta name="viewport" content="width=device-width">
    </head><body style="margin: 0"><div id="phone" style="width: 360px">""" + str(board) + \
        """</div><pre id="out"></pre><script>
      const svg = document.querySelector("svg");
      const zones = [...svg.querySelectorAll("g.piece")].map(g => ({
        name: g.querySelector("text").textContent,
        fill: getComputedStyle(g.querySelector("circle")).fill}));
      document.getElementById("out").textContent = JSON.stringify(
        {width: svg.getBoundingClientRect().width,
         page: document.getElementById("phone").scrollWidth,
         zones: zones});
    </script></body></html>"""
    path = folder / "map.html"
    path.write_text(page, encoding="utf-8")
    dom = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                          "--window-size=360,800", "--dump-dom", path.as_uri()],
                         capture_output=True, text=True, timeout=60).stdout
    return json.loads(html_unescape(re.search(r'<pre id="out">(.*?)</pre>', dom).group(1)))


def html_unescape(value: str) -> str:
    import html
    return html.unescape(value)


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_mail_of_a_campaign_fits_78_columns(tmp_path, lang):
    from test_saga_games import play_campaign
    referee = make_referee(tmp_path)
    play_campaign(referee, "w", 4, seed=f"width-{lang}", options={"rounds": "6", "lang": lang})
    sent = mails(referee)
    assert len(sent) > 40
    for mail in sent:
        for line in text(mail).splitlines():
            assert len(line) <= 78, f"{mail['Subject']}: {line!r}"


# Zones whose French name differs from the English one, as the default map gives them.
FRENCH_ZONES = {"Normandy": "Normandie", "Brittany": "Bretagne", "Flanders": "Flandre",
                "Neustria": "Neustrie", "Mercia": "Mercie", "Bernicia": "Bernicie",
                "Cumbria": "Cumbrie", "East Anglia": "Est-Anglie"}


def test_a_french_seat_reads_its_zones_by_their_french_names(tmp_path):
    """ann, a Norman who reads French, scouts and marches into Mercia written her way: her
    mails (text and HTML), her hints and her map name Normandie and Mercie, never Normandy
    or Mercia; every hint she is shown is an order she can send; the log keeps the zones'
    own names."""
    referee = make_referee(tmp_path)
    players = seats("ann", "bob")
    players[0].lang = "fr"
    referee.new_game("saga", "case", players, START, {}, seed=CASE["seed"],
                     position=CASE["position"])
    state = referee.table("case").state["game"]
    with i18n.speaking("fr"):
        hints = [o for orders in saga.view(state, "ann")["you"]["option_orders"].values()
                 for o in orders]
        assert "déplacer ost Mercie" in hints and "recruter guerriers Normandie" in hints, hints
        for hint in hints:
            assert saga.orders.reads(state, "ann", hint), hint
    march(referee, "reconnaissance Mercie", "déplacer ost Mercie")
    sent = mails(referee, "ann")
    bodies = [text(m) for m in sent]
    html = [m.get_body(preferencelist=("html",)).get_content() for m in sent]
    flat = " ".join(" ".join(bodies).split())
    assert "Patrie Normandie" in flat and "reconnaissance Mercie" in flat
    assert re.search(r"ost en Kent, 5 points", flat), flat
    assert "VOTRE BATAILLE en Mercie" in flat
    for english in FRENCH_ZONES:
        assert not any(english in body for body in bodies + html), english
    assert "déplacer ost Mercie" in bodies[0] and "YOUR BATTLE" not in flat
    with i18n.speaking("fr"):
        board = render.board_svg("saga", saga, saga.view(referee.table("case").state["game"],
                                                         "ann"))
    assert ">18 Normandie</text>" in board and ">12 Mercie</text>" in board
    assert "Normandy" not in board and "Mercia" not in board
    logged = json.dumps([row["payload"] for row in referee.store.event_rows("case")])
    assert '"Mercia"' in logged and "Mercie" not in logged
    assert referee.table("case").state["game"]["homelands"]["ann"] == "Normandy"
