"""What a Seigneurs report tells a lord: the valley (text map and SVG hex map), its stock
and bag, the reference prices, the offers to and from it, and exactly what it
may send now; in English or French, within 78 columns; and what a player sees
of the HTML map in a real browser."""

import email
import email.policy
import io
from pathlib import Path
import re
import shutil
import subprocess

from pbem import inbound, render
from pbem.app import SeatSpec
from pbem.games import seigneurs
from pbem.i18n import speaking
from pbem.timeutil import later

from conftest import START, make_referee

POSITION = {
    "stage": "market",
    "card": "border-raid",
    "villages": {"ann": ["C2", "C3"], "bob": ["C6", "C7"]},
    "farms": {"B2": "ann", "D6": "bob", "I3": "free"},
    "village_farms": {"ann": 2, "bob": 1},
    "goods": {"B2": {"wood": 2}, "bob": {"metal": 1}},
    "stocks": {"ann": {"wood": 4, "coins": 5}, "bob": {"metal": 2, "stone": 1}},
    "jacquerie": {"ann": {"neutral": 3, "jacquerie": 1}},
}


def parts(raw: bytes) -> dict:
    """{"plain": text, "html": text} of a mail."""
    out = {}
    for part in email.message_from_bytes(raw).walk():
        if part.get_content_maintype() == "text":
            out[part.get_content_subtype()] = part.get_payload(decode=True).decode(
                part.get_content_charset())
        elif part["Content-ID"] == "<board@pbem>":
            out["png"] = part.get_payload(decode=True)
    return out


def last_mail(referee, seat: str, kind: str = "report") -> dict:
    """The parts of the last mail of a kind to a seat."""
    row = referee.store.one("SELECT * FROM outbox WHERE seat = ? AND kind = ? "
                            "ORDER BY id DESC LIMIT 1", [seat, kind])
    return parts(referee.store.outbox_mail(row))


def new_game(tmp_path, bob_lang="en", **position):
    """Ann and bob (bob in bob_lang) and zed the barbarian, at the market of turn 1 (of
    POSITION, with the keys given in `position` in place of its own)."""
    referee = make_referee(tmp_path)
    players = [SeatSpec("ann", "ann@players.example"),
               SeatSpec("bob", "bob@players.example", lang=bob_lang),
               SeatSpec("zed", "zed@players.example")]
    referee.new_game("seigneurs", "v", players, START, {"judge": "zed"}, seed="mails",
                     position={**POSITION, **position})
    return referee


def test_a_lords_report_shows_its_valley_stock_bag_prices_offers_and_orders(tmp_path):
    referee = new_game(tmp_path)
    answer = inbound.submit(referee, "v", "ann", "offer bob give wood 2 take metal 1", START)
    assert answer["understood"] == ["you offer bob wood 2 for metal 1"]
    ack = last_mail(referee, "ann", "ack")["plain"]
    assert "you offer bob wood 2 for metal 1" in ack
    referee.tick(later(START, 25), send=False)

    for seat in ("ann", "bob"):
        mail = last_mail(referee, seat)
        text, page = mail["plain"], mail["html"]
        assert all(len(line) <= 78 for line in text.splitlines()), \
            [line for line in text.splitlines() if len(line) > 78]
        assert "Open offer 1: ann offers bob wood 2, for metal 1." not in text
        assert "Open offer 1: ann offers bob wood 2 for metal 1." in text
        assert "Reference prices: wood 1, stone 2, food 1, metal 3, forged weapons 5." in text
        assert "C2-C3: village of ann (2 farms)" in text and "I3: free farm" in text
        assert 'src="cid:board@pbem"' in page and mail["png"].startswith(b"\x89PNG")
    ann = last_mail(referee, "ann")["plain"]
    # Each lord's HELP offers its own goods, and answers an offer made to it (ann has none).
    bob = last_mail(referee, "bob")["plain"]
    assert "offer bob give wood 1 take stone 1" in ann and "accept 3 / refuse 3" not in ann
    assert "offer ann give stone 1 take wood 1" in bob and "accept 1 / refuse 1" in bob
    assert "Your stock: wood 4, coins 5." in ann
    assert "Your jacquerie bag: 3 neutral tokens, 1 jacquerie token." in ann
    assert "metal 2, stone 1" not in ann and "Your stock: stone 1, metal 2." not in ann
    zed = last_mail(referee, "zed")["plain"]
    assert "You are the barbarian" in zed and "Stock of bob: stone 1, metal 2;" in zed


def test_a_french_lord_reads_its_report_and_its_errors_in_french(tmp_path):
    referee = new_game(tmp_path, bob_lang="fr")
    game = referee.table("v").state["game"]
    with speaking("fr"):
        orders, errors = seigneurs.parse(game, "bob", "offre ann donne metal 1 prend bois 2\n"
                                         "achte metal 1")
        said = seigneurs.describe_orders(game, "bob", orders)
    assert said == ["vous proposez à ann métal 1 contre bois 2"]
    assert str(errors[0]) == ("line 2: achte n'est pas un ordre\u00a0; vouliez-vous dire "
                              "achete\u00a0?\u00a0; maintenant vous pouvez écrire\u00a0: "
                              "offre, accepter, refuser, acheter, vendre, paix, passer")
    inbound.submit(referee, "v", "bob", "offre ann donne metal 1 prend bois 2", START)
    referee.tick(later(START, 25), send=False)
    text = last_mail(referee, "bob")["plain"]
    assert "Votre réserve\u00a0: pierre 1, métal 2." in text
    assert "Prix de référence\u00a0: bois 1, pierre 2, nourriture 1, métal 3, armes forgées 5." \
        in text
    assert "Ce que vous pouvez envoyer maintenant" in text
    assert all(len(line) <= 78 for line in text.splitlines())


def test_the_hex_map_draws_in_a_browser(tmp_path):
    assert shutil.which("chromium"), "no headless Chromium: install the Debian packages " \
        "chromium and chromium-driver (the README's test command does)"
    referee = new_game(tmp_path)
    referee.tick(later(START, 25), send=False)
    page = tmp_path / "report.html"
    mail = last_mail(referee, "ann")
    (tmp_path / "board.png").write_bytes(mail["png"])   # what the mail shows by cid:
    page.write_text(mail["html"].replace("cid:board@pbem", "board.png"), encoding="utf-8")
    shot = tmp_path / "report.png"
    subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                    "--window-size=400,900", f"--screenshot={shot}", page.as_uri()],
                   check=True, capture_output=True, timeout=60)
    png = Path(shot).read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert (width, height) == (400, 900)
    assert len(png) > 20000, "the screenshot is nearly blank: no map was drawn"
    table = referee.table("v")
    svg = render.board_svg("seigneurs", table.game, table.game.view(table.state["game"], "ann"))
    ground = svg.partition('<g class="piece">')[0]
    assert re.search(r"viewBox=\"0 0 [\d.]+ [\d.]+\"", svg) and ground.count("<polygon") == 61
    assert svg.count("<polygon") - 61 == svg.count('<g class="piece">') > 0, \
        "each tile not at rest drawn again over the ground"


def test_each_tile_is_drawn_once_with_its_own_goods_and_warriors(tmp_path):
    """Tiles are drawn once per process and reused: the map drawn again, for another seat,
    in French or with other goods still shows each tile once, as it stands."""
    referee = new_game(tmp_path)
    for seat in ("ann", "zed", None):
        view = seigneurs.view(referee.table("v").state["game"], seat)
        svg = render.board_svg("seigneurs", seigneurs, view)
        assert render.board_svg("seigneurs", seigneurs, view) == svg
        drawn = tiles_drawn(svg)
        assert sorted(drawn) == sorted(t["name"] for t in view["tiles"]) and len(drawn) == 61
        assert sorted(re.findall(r"<title>(\w+) (\d+)</title></rect>", svg)) == sorted(
            (t["seat"], str(t["fit"] + t["out"])) for p in view["places"] for t in p["warriors"])
        assert '<title>ann 4</title>' in drawn["C2"] and 'fill="#fff">2</text>' in drawn["B2"]
        with speaking("fr"):
            french = render.board_svg("seigneurs", seigneurs, view)
        assert "Seigneurs, tour 1 sur 10" in french
        assert sorted(tiles_drawn(french)) == sorted(drawn)
    (tmp_path / "more").mkdir()
    other = new_game(tmp_path / "more", goods={"B2": {"wood": 3}})
    drawn = tiles_drawn(render.board_svg("seigneurs", seigneurs, seigneurs.view(
        other.table("v").state["game"], "ann")))
    assert 'fill="#fff">3</text>' in drawn["B2"] and 'fill="#fff">2</text>' not in drawn["B2"]


def tiles_drawn(svg: str) -> dict:
    """Each tile's name to what the map draws for it (from its hexagon to the next one)."""
    return {re.search(r"<title>([^<]*)</title></polygon>", chunk).group(1): chunk
            for chunk in svg.split("<polygon ")[1:]}


def welcome_text(referee, seat: str) -> str:
    """The body of a seat's welcome (not its rules attachment), lines unwrapped."""
    row = referee.store.one("SELECT * FROM outbox WHERE seat = ? AND kind = 'welcome'", [seat])
    msg = email.message_from_bytes(referee.store.outbox_mail(row), policy=email.policy.default)
    return msg.get_body(preferencelist=("plain",)).get_content().replace("\n", " ")


def test_the_barbarians_welcome_says_it_judges_and_how_to_name_the_winner(tmp_path):
    referee = new_game(tmp_path, bob_lang="fr")
    zed = welcome_text(referee, "zed")
    assert "You are the barbarian" in zed and "(RULING WINNER NAME)" in zed
    assert "Your prestige" not in zed
    bob = welcome_text(referee, "bob")
    assert "Pour gagner\u00a0:" in bob and "Votre prestige actuel\u00a0:" in bob
    assert "You are the barbarian" not in bob and "Vous êtes le barbare" not in bob


def legend(svg: str) -> dict:
    """{name: colour} of a board's legend (a swatch, then its name)."""
    return dict((name, fill) for fill, name in re.findall(
        r'<rect x="[\d.]+" y="[\d.]+" width="12" height="12" fill="(#\w+)"[^>]*/>\n'
        r'<text [^>]*>([^<]+)</text>', svg))


def test_free_farms_fields_lords_and_the_barbarian_wear_colours_told_apart(tmp_path):
    """Free farms no longer wear the barbarian's black nor fields a lord's yellow: every
    colour of the map is far from every other, and the legend says which is which."""
    from PIL import Image
    from pbem.adjudicator import engine
    state = engine.fold(seigneurs, engine.creation_events(
        seigneurs, "g", "seigneurs", seigneurs.demo_options(3), list(seigneurs.DEMO_SEATS),
        "colours", None))
    svg = render.board_svg("seigneurs", seigneurs, seigneurs.view(state["game"], None))
    keys = legend(svg)
    assert set(keys) == {"ann", "bob", "cat", "dan", "zed", "free farm", "forest", "fields",
                         "village"}
    rgb = {name: tuple(int(fill[i:i + 2], 16) for i in (1, 3, 5)) for name, fill in keys.items()}
    close = [(a, b) for a in rgb for b in rgb if a < b
             and sum((x - y) ** 2 for x, y in zip(rgb[a], rgb[b])) ** 0.5 < 60]
    assert not close, f"colours a reader mistakes for each other: {close}"
    with speaking("fr"):
        french = legend(render.board_svg("seigneurs", seigneurs,
                                         seigneurs.view(state["game"], None)))
    assert {"ferme libre", "forêt", "champs", "village"} <= set(french)
    referee = new_game(tmp_path)
    svg = render.board_svg("seigneurs", seigneurs,
                           seigneurs.view(referee.table("v").state["game"], None))
    [free] = [chunk for name, chunk in tiles_drawn(svg).items() if name == "I3"]
    assert f'stroke="{keys["free farm"]}"' in free and keys["zed"] not in free
    [row] = [line for line in svg.splitlines() if "<title>I3</title>" in line][-1:]
    corner = re.search(r'points="([\d.]+),([\d.]+)', row).groups()
    board = Image.open(io.BytesIO(render.board_png(svg))).convert("RGB")
    x, y = (round(float(v)) for v in corner)
    assert board.getpixel((x, y)) == rgb["free farm"], "the free farm's outline, drawn"
