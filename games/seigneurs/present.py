"""What each seat may see of the valley, and the valley in words, text and SVG.

Public: the valley (tiles, farms and owners, buildings, resources on the
places, warriors), the bag's counts, the reference prices, the claims and
fights under way, wars, peace and agreements, the parts of the event card that
took effect. A lord also sees its own stock, its jacquerie bag, the offers and
proposals made to it or by it, and the event card if its warrior stands in a
watchtower. The barbarian sees everything.
"""

from collections import namedtuple
from functools import lru_cache
import textwrap

from pbem.adjudicator.hexgrid import pixel, polygon
from pbem.i18n import N_, _, ngettext

from .development import merchant_price, still_owed
from .narrate import SIDES, STAGE_NAMES, agreement_recorded, told
from .orders import help_rows
from .material import (BUILDINGS, GOODS, RESOURCES, building_name, card_name, good_name,
                       goods_text, offered_text, valley)
from .seasons import default_freeing, prestige
from .rules import (card, church_wealth, famine_free_village_farms, goods_at, holiness,
                    place_owner, places, tiles_of, village_farm_count, village_farms,
                    village_owner, warriors_at)

COLOURS = ["#c0392b", "#2e86c1", "#e67e22", "#8e44ad", "#16a085"]  # no yellow: the fields'
BARBARIAN_COLOUR = "#222222"
FREE_COLOUR = "#ffffff"  # a free farm's outline: neither a lord's nor the barbarian's
KIND_FILL = {"forest": "#5b8c4a", "fields": "#e8d27a", "village": "#b9b1a3"}
KIND_NAMES = {"forest": N_("forest"), "fields": N_("fields"), "village": N_("village")}
SIZE = 30


def view(state, seat=None) -> dict:
    """The game as a seat (or the public, seat=None) may see it."""
    out = public_view(state)
    if seat == state["barbarian"]:
        out["you"] = barbarian_view(state)
    elif seat in state["lords"]:
        out["you"] = lord_view(state, seat)
    if "you" in out:
        out["you"]["lines"] = your_lines(out, out["you"])
        out["you"]["deck_text"] = deck_text(out["you"].get("deck") or [])
        out["you"]["examples"] = help_rows(state, seat)
    return out



def briefing(state, seat) -> dict:
    """What a seat must know to play, for its welcome: how to win, its prestige, its rivals.

    {"text": short paragraphs in the current language, "allies": []}: the
    lords are rivals who make and break agreements; the barbarian judges.
    """
    judge = state["barbarian"]
    lines = [
        _("How to win: the game ends at once when one family heads every domain. "
          "Otherwise, after turn {turns}, the barbarian ({judge}) judges prestige, honour "
          "and glory and names the winner; if it is silent, the lord with the most "
          "prestige wins (3 a domain its family heads, 1 a farm, 2 a finished "
          "building).").format(turns=state["turns"], judge=judge),
    ]
    if seat == judge:
        lines.append(_("You are the barbarian: you raid the valley, choose the event cards "
                       "and, after the last turn, name the winner (RULING WINNER NAME) and "
                       "the agreements you find broken (BROKEN 2 5)."))
    else:
        lines.append(_("Your prestige now: {num}. Much of the game is what the lords promise "
                       "each other (claims, trades, peace): pbem keeps every agreement, and "
                       "the barbarian weighs them at the end.").format(
            num=prestige(state, seat)))
    return {"text": "\n".join(lines), "allies": []}

def stock_text(stock: dict) -> str:
    """A seat's own stock in words: 'wood 2, food 1', or 'nothing' (the barbarian's)."""
    return goods_text(stock) if any(stock.values()) else _("nothing")


def your_lines(view, you) -> list[str]:
    """The seat's own section of its mails, sentence by sentence."""
    lines = []
    if "jacquerie" in you:
        lines.append(_("Your stock: {goods}.").format(goods=stock_text(you["stock"])))
        lines.append(_("Your jacquerie bag: {tokens}.").format(
            tokens=bag_text(you["jacquerie"])))
    else:
        lines.append(_("You are the barbarian: you see everything, and you judge."))
        lines.append(_("Your stock: {goods}.").format(goods=stock_text(you["stock"])))
        for seat, goods in you["stocks"].items():
            bag = you["jacquerie_bags"][seat]
            lines.append(_("Stock of {seat}: {goods}; jacquerie bag: {tokens}.").format(
                seat=seat, goods=goods_text(goods), tokens=bag_text(bag)))
        lines.append(_("The lords' prestige (3 a domain their family heads, 1 a farm, 2 a "
                       "finished building): {list}.").format(list=", ".join(
                           f"{lord} {points}" for lord, points in you["prestige"].items())))
    lines.append(_("Reference prices: {prices}.").format(prices=goods_text(view["prices"])))
    if view["stage"] in ("market", "construction") and "limit" in you:
        lines += building_lines_for(view, you)
    merchants = view["merchants"]
    if merchants:
        lines.append(_("Merchants this turn ({number} of each good): {goods}.").format(
            number=merchants["count"], goods=_("; ").join(
                _("{good} sold at {buy}, bought at {sell}").format(
                    good=good_name(g), buy=p["buy"], sell=p["sell"])
                for g, p in merchants["goods"].items())))
    drawn = you.get("card")
    if drawn:
        lines.append(_("The event card {card}: {effects}.").format(
            card=card_name(drawn["id"]), effects=card_effects(drawn)))
    lines += deck_lines(view, you)
    for o in you["offers"]:
        lines.append(_("Open offer {number}: {seat} offers {to} {give} for {take}.").format(
            number=o["id"], seat=o["from"], to=o["to"], give=offered_text(o["give"]),
            take=offered_text(o["take"])))
    for p in you["proposals"]:
        lines.append(_("Peace offered by {seat} to {to}: \u00ab{terms}\u00bb").format(
            seat=p["from"], to=p["to"], terms=p["terms"] or "-"))
    for f in you.get("freeing", []):
        lines.append(ngettext(
            "Revolt: {number} farm of {lord} turns free; you choose which (default: the one "
            "with fewest resources: {farms}).",
            "Revolt: {number} farms of {lord} turn free; you choose which (default: those "
            "with fewest resources: {farms}).", f["count"]).format(
            number=f["count"], lord=f["lord"], farms=", ".join(f["default"])))
    return lines


def building_lines_for(view, you) -> list[str]:
    """What building costs, how much may go on projects this turn, what each still needs."""
    lines = [_("Buildings (cost, turns to build): {table}.").format(table=_("; ").join(
        _("{building}: {goods} ({turns})").format(
            building=building_name(b), goods=goods_text(row["cost"]),
            turns=ngettext("{num} turn", "{num} turns", row["turns"]).format(num=row["turns"]))
        for b, row in view["costs"].items()))]
    lines.append(ngettext(
        "This turn at most {number} resource goes on your projects (one per village farm "
        "not in famine).",
        "This turn at most {number} resources go on your projects (one per village farm "
        "not in famine).", you["limit"]).format(number=you["limit"]))
    for building, owed in you["owed"].items():
        lines.append(_("Your {building} still needs {goods}.").format(
            building=building_name(building), goods=goods_text(owed)))
    return lines


def card_effects(card: dict) -> str:
    """What an event card does: its invaders, its pilgrims, its merchants."""
    pilgrims, merchants = card["pilgrims"], card["merchants"]
    side = told(SIDES, card["side"]) if card["side"] in SIDES else card["side"]
    parts = [ngettext("{number} invader enters on the {side} side",
                      "{number} invaders enter on the {side} side", card["invaders"]).format(
        number=card["invaders"], side=side) if card["invaders"] else _("no invaders")]
    offering = goods_text(pilgrims.get("offering", {}))
    holiness = pilgrims.get("holiness", 0)
    parts.append(_("no pilgrims") if not pilgrims.get("offering") else
                 _("pilgrims leave {offering} at the richest church").format(
                     offering=offering) if not holiness else
                 _("pilgrims leave {offering} at the richest church of holiness {holiness} "
                   "or more").format(offering=offering, holiness=holiness))
    parts.append(_("merchants trade {goods} ({number} of each, at the reference price and "
                   "{margin} more or less)").format(
        goods=", ".join(good_name(g) for g in merchants["goods"]), number=merchants["count"],
        margin=merchants["margin"]))
    return _("; ").join(parts)


def deck_lines(view, you) -> list[str]:
    """The barbarian's event deck in a line: how many cards are left, and their names."""
    deck = you.get("deck")
    if deck is None:
        return []
    return [ngettext("Your event deck: {number} card left ({cards}).",
                     "Your event deck: {number} cards left ({cards}).", len(deck)).format(
        number=len(deck), cards=", ".join(card_name(c["id"]) for c in deck))]


def deck_text(deck: list[dict]) -> list[str]:
    """Every card of the barbarian's deck and what it does, a line each (for its HELP)."""
    return [_("- {card}: {effects}.").format(card=card_name(c["id"]), effects=card_effects(c))
            for c in deck]


def public_view(state) -> dict:
    """Everything everybody may see."""
    land = valley(state)
    drawn = card(state)
    shown = {part: drawn[part] for part in ("invaders", "pilgrims")
             if drawn and part in state["revealed"]}
    if drawn and "invaders" in shown:
        shown["side"] = drawn["side"]
    return {
        "game": "seigneurs", "turn": state["turn"], "turns": state["turns"],
        "stage": state["stage"], "round": (state["round"] or {}).get("number"),
        "seats": list(state["seats"]), "lords": list(state["lords"]),
        "barbarian": state["barbarian"],
        "tiles": [{"name": t, "q": land.coords[t][0], "r": land.coords[t][1],
                   "kind": state["kinds"].get(t, "forest"),
                   "place": tiles_of_place(state, t)} for t in land.names],
        "places": [place_view(state, p) for p in places(state) if shows(state, p)],
        "bag": {g: state["bag"].get(g, 0) for g in RESOURCES},
        "prices": {g: state["prices"][g] for g in GOODS if g in state["prices"]},
        "heads": dict(state["heads"]),
        "wars": [[a, b] for i, a in enumerate(state["seats"]) for b in state["seats"][i + 1:]
                 if state["relations"].get("|".join(sorted((a, b)))) == "war"],
        "peace": [[a, b] for i, a in enumerate(state["seats"]) for b in state["seats"][i + 1:]
                  if state["relations"].get("|".join(sorted((a, b)))) == "peace"],
        "agreements": [dict(a) for a in state["agreements"]],
        "claims": [dict(c) for c in state["claims"] if c["status"] == "open"],
        "fights": {p: {"round": f["round"], "hits": dict(f["hits"]), "context": f["context"]}
                   for p, f in sorted(state["fights"].items())},
        "merchants": merchants_view(state),
        "card": shown,
        "deck_left": len(state["deck"]),
        "taxed": list(state["taxed"]),
        "tokens": dict(state["tokens"]),
        "farms": {lord: {"plain": sum(1 for o in state["farms"].values() if o == lord),
                         "village": village_farm_count(state, lord)}
                  for lord in state["lords"]},
        "free_farms": sum(1 for o in state["farms"].values() if o is None),
        "buildings": {lord: building_rows(state, lord) for lord in state["lords"]},
        "costs": {b: {"cost": dict(row["cost"]), "turns": row["turns"]}
                  for b, row in sorted(state["data"]["buildings"].items(),
                                       key=lambda item: BUILDINGS.index(item[0]))},
        "off_board": len([w for w in state["warriors"] if w["at"] is None]),
        "result": state["result"],
    }


def tiles_of_place(state, tile: str) -> str:
    """The place a tile belongs to."""
    owner = village_owner(state, tile)
    return state["villages"][owner][0] if owner else tile


def shows(state, place: str) -> bool:
    """Is there anything on a place to list?"""
    return bool(place_owner(state, place) or place in state["farms"]
                or state["goods"].get(place) or warriors_at(state, place))


def place_view(state, place: str) -> dict:
    """One place: its tiles, farm or village, goods, warriors."""
    lord = village_owner(state, place)
    owner = place_owner(state, place)
    troops = []
    for seat in state["seats"]:
        here = warriors_at(state, place, seat)
        if here:
            troops.append({"seat": seat, "fit": sum(1 for w in here if not w["out"]),
                           "out": sum(1 for w in here if w["out"]),
                           "armed": sum(1 for w in here if w["armed"]),
                           "load": sum(sum(w["load"].values()) for w in here)})
    farms = village_farms(state, lord) if lord else []
    return {"name": place, "tiles": tiles_of(state, place), "village": lord,
            "owner": owner if owner or place not in state["farms"] else "free",
            "village_farms": village_farm_count(state, lord) if lord else 0,
            "farm_goods": [{**farm["goods"]} for farm in farms],
            "famine": [i for i, farm in enumerate(farms) if farm["famine"]],
            "lying": dict(state["goods"].get(place, {})),
            "goods": goods_at(state, place), "warriors": troops}


def building_rows(state, lord: str) -> list[dict]:
    """A lord's buildings and projects."""
    rows = []
    for building in BUILDINGS:
        entry = state["buildings"].get(lord, {}).get(building)
        if entry:
            rows.append({"building": building, "paid": dict(entry["paid"]),
                         "done": entry["done"]})
    if any(r["building"] == "church" and r["done"] is not None for r in rows):
        rows.append({"building": "offerings", "paid": dict(state["churches"].get(lord, {})),
                     "done": church_wealth(state, lord), "holiness": holiness(state, lord)})
    return rows


def merchants_view(state) -> dict | None:
    """The merchants in the valley this turn, with their prices."""
    merchants = state["merchants"]
    if not merchants:
        return None
    return {"count": merchants["count"],
            "goods": {g: {"buy": merchant_price(state, g, "buy"),
                          "sell": merchant_price(state, g, "sell")}
                      for g in merchants["goods"]}}


def offers_of(state, seat) -> list[dict]:
    """The open offers to and from a seat."""
    return [dict(o) for o in state["offers"] if o["status"] == "open"
            and seat in (o["from"], o["to"])]


def lord_view(state, lord: str) -> dict:
    """What only this lord knows."""
    return {"seat": lord, "stock": dict(state["stocks"].get(lord, {})),
            "jacquerie": dict(state["jacquerie"][lord]),
            "limit": famine_free_village_farms(state, lord),
            "owed": {b: still_owed(state, lord, b) for b in BUILDINGS
                     if b in state["buildings"].get(lord, {})
                     and state["buildings"][lord][b]["done"] is None},
            "offers": offers_of(state, lord),
            "proposals": [dict(p) for p in state["proposals"] if lord in (p["from"], p["to"])],
            "card": card(state) if lord in state["seen"] else None,
            "merchant_use": dict(state["merchant_use"].get(lord, {}))}


def barbarian_view(state) -> dict:
    """The barbarian sees everything: every stock, bag, offer and the card."""
    return {"seat": state["barbarian"], "stock": dict(state["stocks"].get(state["barbarian"],
                                                                          {})),
            "stocks": {s: dict(state["stocks"].get(s, {})) for s in state["lords"]},
            "jacquerie_bags": {s: dict(state["jacquerie"][s]) for s in state["lords"]},
            "offers": [dict(o) for o in state["offers"] if o["status"] == "open"],
            "proposals": [dict(p) for p in state["proposals"]],
            "card": card(state),
            "deck": [c for c in state["data"]["deck"] if c["id"] in state["deck"]],
            "freeing": [{**x, "default": default_freeing(state, x["lord"], x["count"])}
                        for x in state["freeing"]],
            "merchant_use": dict(state["merchant_use"].get(state["barbarian"], {})),
            "prestige": {lord: prestige(state, lord) for lord in state["lords"]}}


# ---------------------------------------------------------------- the board as text

def mark(view, seat: str) -> str:
    """A seat's one-letter mark on the text map: 1-5 for lords, B for the barbarian."""
    if seat == view["barbarian"]:
        return "B"
    return str(view["lords"].index(seat) + 1)


def board_text(view) -> str:
    """The valley within 78 columns: a hex map, then every place with something on it."""
    head = _("Seigneurs, turn {turn} of {turns}: {stage}").format(
        turn=view["turn"], turns=view["turns"], stage=told(STAGE_NAMES, view["stage"]))
    lines = [head, ""]
    lines += hex_map(view)
    lines.append(_("Map: . forest, f fields, v village; 1-5 the lord, F free; * warriors."))
    lines.append(", ".join(f"{mark(view, s)} {s}" for s in view["lords"]) +
                 f", B {view['barbarian']} " + _("(barbarian)"))
    lines.append("")
    for p in view["places"]:
        lines.append(place_line(view, p))
    lines += building_lines(view)
    lines.append("")
    lines.append(_("Prices: {prices}").format(prices=", ".join(
        f"{_(n)} {view['prices'][g]}" for g, n in price_names(view))))
    lines.append(_("Bag: {goods}").format(goods=goods_text(view["bag"]) if any(
        view["bag"].values()) else _("empty")))
    heads = [f"{lord} <- {head}" for lord, head in view["heads"].items() if lord != head]
    if heads:
        lines.append(_("Domains headed by another family: {heads}").format(
            heads=", ".join(heads)))
    if view["wars"]:
        lines.append(_("At war: {pairs}").format(pairs=", ".join(
            f"{a}-{b}" for a, b in view["wars"])))
    for agreement in view["agreements"]:
        lines.append(agreement_recorded({"agreement": agreement}))
    return "\n".join(wrapped(line) for line in lines)


def wrapped(line: str) -> str:
    """A line of the text board within 78 columns (continued lines indented)."""
    return textwrap.fill(line.rstrip(), 78, subsequent_indent="    ", break_long_words=False) \
        if len(line) > 78 else line.rstrip()


def building_lines(view) -> list[str]:
    """Each lord's buildings, finished or on the way."""
    lines = []
    for lord, rows in view["buildings"].items():
        parts = []
        for row in rows:
            if row["building"] == "offerings":
                parts.append(_("offerings worth {wealth}, holiness {holiness}").format(
                    wealth=row["done"], holiness=row["holiness"]))
            elif row["done"] is not None:
                parts.append(building_name(row["building"]))
            else:
                parts.append(_("{building} (paid: {goods})").format(
                    building=building_name(row["building"]), goods=goods_text(row["paid"])))
        if parts:
            lines.append(_("Buildings of {lord}: {buildings}.").format(
                lord=lord, buildings=", ".join(parts)))
    return lines


def price_names(view):
    """(good, its name msgid) for the price line."""
    names = {"wood": N_("wood"), "stone": N_("stone"), "food": N_("food"),
             "metal": N_("metal"), "weapons": N_("forged weapons")}
    return [(g, names[g]) for g in names if g in view["prices"]]


def hex_map(view) -> list[str]:
    """Rows of tiles, each as name and a three-letter code, offset like the hexagons."""
    rows = {}
    for tile in view["tiles"]:
        rows.setdefault(tile["r"], []).append(tile)
    owners = {p["name"]: p for p in view["places"]}
    width = max(len(r) for r in rows.values())
    lines = []
    for r in sorted(rows):
        pad = " " * (3 * (width - len(rows[r])))
        names = pad + "".join(f"{t['name']:<6}" for t in rows[r])
        codes = pad + "".join(f"{tile_code(view, t, owners):<6}" for t in rows[r])
        lines += [names, codes]
    return lines


def tile_code(view, tile, owners) -> str:
    """A tile in three letters: its kind, the lord of its farm, warriors."""
    kind = {"forest": ".", "fields": "f", "village": "v"}[tile["kind"]]
    place = owners.get(tile["place"])
    owner = ""
    if place and place["owner"] == "free":
        owner = "F"
    elif place and place["owner"]:
        owner = mark(view, place["owner"])
    troops = "*" if place and place["warriors"] else ""
    return kind + owner + troops


def bag_text(bag) -> str:
    """A jacquerie bag in words: '1 neutral token, 0 jacquerie tokens'."""
    return ", ".join((
        ngettext("{num} neutral token", "{num} neutral tokens", bag["neutral"]).format(
            num=bag["neutral"]),
        ngettext("{num} jacquerie token", "{num} jacquerie tokens", bag["jacquerie"]).format(
            num=bag["jacquerie"])))


def place_line(view, p) -> str:
    """One place in words."""
    where = "-".join(p["tiles"])
    if p["village"]:
        what = ngettext("village of {lord} ({farms} farm)", "village of {lord} ({farms} farms)",
                        p["village_farms"]).format(lord=p["village"], farms=p["village_farms"])
    elif p["owner"] == "free":
        what = _("free farm")
    elif p["owner"]:
        what = _("farm of {lord}").format(lord=p["owner"])
    else:
        what = _("forest")
    parts = [f"{where}: {what}"]
    if p["farm_goods"]:
        parts += farm_lines(p)
    elif p["goods"]:
        parts.append(goods_text(p["goods"]))
    for t in p["warriors"]:
        parts.append(troop_text(t))
    return _("; ").join(parts)


def farm_lines(p) -> list[str]:
    """A village's farms, each with what it holds (and its famine), then what lies there
    besides them."""
    lines = []
    for number, goods in enumerate(p["farm_goods"], start=1):
        held = goods_text(goods)
        if number - 1 in p["famine"]:
            held = _("{goods}, in famine").format(goods=held)
        lines.append(_("farm {number}: {goods}").format(number=number, goods=held))
    if p["lying"]:
        lines.append(_("lying there: {goods}").format(goods=goods_text(p["lying"])))
    return lines


def troop_text(t) -> str:
    """'ann 3 warriors (1 armed, 1 out of action)'."""
    total = t["fit"] + t["out"]
    text = ngettext("{seat} {number} warrior", "{seat} {number} warriors", total).format(
        seat=t["seat"], number=total)
    notes = []
    if t["armed"]:
        notes.append(ngettext("{number} armed", "{number} armed", t["armed"]).format(
            number=t["armed"]))
    if t["out"]:
        notes.append(_("{number} out of action").format(number=t["out"]))
    if t["load"]:
        notes.append(ngettext("carrying {number} resource", "carrying {number} resources",
                              t["load"]).format(number=t["load"]))
    return text + (f" ({', '.join(notes)})" if notes else "")


# ---------------------------------------------------------------- the board as SVG

def svg_context(view) -> dict:
    """Hexagons, farms, warriors and a legend for board.svg.j2: each tile as tile.svg.j2
    draws it."""
    places = {p["name"]: p for p in view["places"]}
    xs, ys = zip(*(pixel((tile["q"], tile["r"]), SIZE) for tile in view["tiles"]))
    left, top = corner(view)
    hexes = [tile_drawing(view, tile, places.get(tile["place"]), left, top)
             for tile in view["tiles"]]
    width = round(max(xs) - min(xs) + SIZE * 2.4 + 150, 1)
    height = round(max(ys) - min(ys) + SIZE * 2.6, 1)
    keys = [(s, seat_colour(view, s)) for s in view["lords"] + [view["barbarian"]]]
    keys += [(_("free farm"), FREE_COLOUR)] + [(_(name), KIND_FILL[kind])
                                               for kind, name in KIND_NAMES.items()]
    legend = [{"name": name, "fill": fill, "y": 24 + 18 * i}
              for i, (name, fill) in enumerate(keys)]
    return {"hexes": hexes, "at_rest": AT_REST, "width": width, "height": height,
            "legend": legend,
            "legend_x": round(width - 140, 1),
            "title": _("Seigneurs, turn {turn} of {turns}").format(turn=view["turn"],
                                                                   turns=view["turns"])}


def corner(view) -> tuple[float, float]:
    """The valley's top left corner on the map: where its SVG starts."""
    xs, ys = zip(*(pixel((tile["q"], tile["r"]), SIZE) for tile in view["tiles"]))
    return min(xs) - SIZE * 1.2, min(ys) - SIZE * 1.3


def own_area(view) -> list:
    """The tiles of the viewing seat's places and of those its warriors stand on (the
    barbarian's: the free farms and its invaders), in the board's SVG units: what its
    close-up shows."""
    you = view.get("you")
    if not you:
        return []
    seat = you["seat"]
    held = "free" if seat == view["barbarian"] else seat
    tiles = {name for place in view["places"] if place["owner"] == held
             or any(w.get("seat") == seat for w in place["warriors"]) for name in place["tiles"]}
    left, top = corner(view)
    return [outline(t["q"], t["r"], left, top)[:2] for t in view["tiles"] if t["name"] in tiles]


Troop = namedtuple("Troop", "fill count seat")  # a lord's warriors on a place
AT_REST = {"fill": KIND_FILL["forest"], "owner": None, "goods": 0, "troops": (),
           "buildings": ""}  # a tile as the ground shows it: an empty forest


def tile_drawing(view, tile, place, left: float, top: float) -> dict:
    """A tile as tile.svg.j2 draws it: its kind and its holder's colour; the goods and
    troops of its place on the place's first tile, a village's buildings on its others."""
    x, y, points = outline(tile["q"], tile["r"], left, top)
    first = place is not None and place["tiles"][0] == tile["name"]
    return {
        "name": tile["name"], "x": x, "y": y, "points": points,
        "fill": KIND_FILL[tile["kind"]], "owner": holder_colour(view, place),
        "goods": sum(place["goods"].values()) if first else 0,
        "troops": tuple(Troop(seat_colour(view, t["seat"]), t["fit"] + t["out"], t["seat"])
                        for t in place["warriors"]) if first else (),
        "buildings": building_marks(view, place["village"])
        if place and place["village"] and not first else "",
    }


@lru_cache(maxsize=1024)
def outline(q: int, r: int, left: float, top: float) -> tuple:
    """A tile's centre and hexagon on the map whose corner is (left, top): the same on
    every board of the valley. The map is drawn a unit a pixel, and the centre is on a
    pixel's corner: what stands on a tile (a lord's mark, a count of warriors) is the
    same pixels on every tile, drawn once for all."""
    x, y = pixel((q, r), SIZE)
    return round(x - left), round(y - top), shift(polygon((q, r), SIZE), left, top)


def holder_colour(view, place) -> str | None:
    """The colour a place's tiles are outlined in: its lord's, white for a free farm (the
    barbarian's black is its own warriors'), none for a forest."""
    if place and place["owner"] == "free":
        return FREE_COLOUR
    if place and place["owner"]:
        return seat_colour(view, place["owner"])
    return None


def building_marks(view, lord: str) -> str:
    """A village's finished buildings as letters (their names in a title)."""
    done = [row["building"] for row in view["buildings"].get(lord, [])
            if row["building"] in BUILDINGS and row["done"] is not None]
    return "".join(building_name(b)[0].upper() for b in done)


def seat_colour(view, seat: str) -> str:
    """A seat's colour on the map."""
    if seat == view["barbarian"]:
        return BARBARIAN_COLOUR
    return COLOURS[view["lords"].index(seat) % len(COLOURS)]


def shift(points: str, left: float, top: float) -> str:
    """An SVG points string moved so the map starts at 0, 0."""
    out = []
    for pair in points.split():
        x, y = pair.split(",")
        out.append(f"{float(x) - left:.1f},{float(y) - top:.1f}")
    return " ".join(out)

