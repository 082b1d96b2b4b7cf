"""What players see of an Attila game: views, the text board, the SVG data, narration.

A seat's view adds to the public one only what that seat may know: its own
hand and where each of its cards could go, what it may bid, and its own
orders kept over a conflict. Nobody's view holds another seat's hand, the
draw pile's order, or a bid before the conflict reveals it.
"""

from collections import namedtuple
import textwrap

from pbem.adjudicator.contract import Event
from pbem.i18n import _, ngettext, reader, said
from pbem.raster import frame_of

from .material import (CENTURIES, MAX_INFLUENCE, PAWNS_PER_PEOPLE, PEOPLE_COLOURS, PEOPLES,
                       TRACK, cards_text, century_of, in_order, one_of, people_name)
from .orders import examples
from .rules import board_of, gain, on_board, playable, supply
from .sketch import TILE_NAMES, say_step

BOX_WIDTH, BOX_HEIGHT = 92, 40
TEXT_WIDTH = 78


def view(state, seat=None) -> dict:
    """The game as a seat (or the public, seat=None) may see it.

    The view is data: every word a player reads is written from it when a
    mail is (in the reader's language), except a seat's own sentences.
    """
    board = board_of(state)
    turn = state["turn"]
    provinces = []
    for name in board.order:
        here = state["pawns"].get(name, {})
        x, y = board.xy[name]
        provinces.append({
            "name": name, "north": name in board.north, "x": x, "y": y,
            "pawns": [{"people": p, "count": here[p]} for p in PEOPLES if p in here],
            "total": sum(here.values()),
            "pacified": name in state["pacified"],
            "tile": state["pacified"].get(name),
        })
    conflict = None
    if turn["stage"] == "bid":
        where = turn["conflicts"][0]
        here = state["pawns"][where]
        conflict = {"province": where, "pawns": dict(here),
                    "peoples": [p for p in PEOPLES if p in here],
                    "waiting": list(turn["conflicts"][1:])}
    out = {
        "game": "attila",
        "board": {"name": board.name, "title": board.title, "width": board.width,
                "height": board.height, "land": [list(x) for x in board.links("land")],
                "sea": [list(x) for x in board.links("sea")]},
        "seats": list(state["seats"]),
        "turn": turn["number"],
        "active": turn["seat"],
        "stage": turn["stage"],
        "played": turn["played"],
        "allowed": turn["allowed"],
        "tile_this_turn": turn["tile"],
        "century": century_of(state["placed"]),
        "gain": gain(state),
        "track": {c: sum(1 for t in TRACK[state["placed"]:] if t == c) for c in CENTURIES},
        "provinces": provinces,
        "peoples": [{"people": p, "on_board": on_board(state, p), "supply": supply(state, p)}
                    for p in PEOPLES],
        "influence": {p: dict(sorted(state["influence"][p].items())) for p in PEOPLES},
        "scores": dict(state["scores"]),
        "hand_counts": {s: len(state["hands"][s]) for s in state["seats"]},
        "deck": len(state["deck"]),
        "discards": len(state["discards"]),
        "tiles": {s: list(state["tiles"][s]) for s in state["seats"]},
        "conflict": conflict,
        "last_conflict": state["last_conflict"],
        "result": state["result"],
    }
    if seat is not None and seat in state["seats"]:
        out["you"] = own_view(state, seat)
    return out


def own_view(state, seat) -> dict:
    """What only this seat knows: its hand, where its cards can go, its bid options, kept orders.

    Its sentences (hand, tiles, the recap, the kept orders, examples of
    orders from its own hand) are in the current language.
    """
    turn = state["turn"]
    hand = in_order(state["hands"][seat])
    yours = {"seat": seat, "hand": hand, "hand_text": hand_text(hand),
             "tiles_text": ", ".join(tile_name(t) for t in state["tiles"][seat]) or
             _("none left"),
             "active": turn["seat"] == seat, "options": [], "bid_options": None,
             "kept": [], "recap": [], "examples": examples(state, seat)}
    if turn["seat"] == seat and turn["stage"] in ("turn", "confirm"):
        where = playable(state, seat)
        for people in sorted(set(hand), key=PEOPLES.index):
            yours["options"].append({"people": people, "name": people_name(people),
                                     "count": hand.count(people),
                                     "provinces": where.get(people, []),
                                     "no_pawn": supply(state, people) <= 0})
        if turn["stage"] == "turn" and turn["played"] == 0 and turn["tile"] is None:
            yours["recap"] = recap(state, seat)
    if turn["stage"] == "bid":
        present = state["pawns"][turn["conflicts"][0]]
        yours["bid_options"] = [c for c in hand if c in present]
        yours["bid_text"] = cards_text(yours["bid_options"])
        yours["conflict_text"] = pawns_text(present)
        yours["conflict_peoples"] = ", ".join(people_name(p) for p in PEOPLES if p in present)
    if turn["seat"] == seat and turn["stage"] == "confirm":
        yours["kept"] = [str(say_step(step)) for step in turn["kept"]]
    return yours


def briefing(state, seat) -> dict:
    """What a seat must know to play, for its welcome: how to win and how scoring works.

    {"text": short paragraphs in the current language, "allies": None} (no teams).
    """
    seats = state["seats"]
    lines = [
        _("How to win: have the most points at the end. Points are scored each time a "
          "century's last peace tile is placed (IV, V, VI, VII), and once more at the end of "
          "the game."),
        _("Each scoring goes people by people. The seat with the most influence over a "
          "people scores one point per pawn of it on the board; the seat second in influence "
          "scores one point per province holding its pawns. Seats tied first share both "
          "(rounded up) and nobody scores second; seats tied second share the provinces; a "
          "seat alone on a people's track scores both."),
        _("So a report line 'Goths (6 pawns in 3 provinces): ann 6, bob 3' means that ann "
          "leads the Goths and bob is second."),
        _("Influence comes from your pawns: each pawn you place gives +{gain} over its "
          "people now (+1 in century IV, up to +4 in century VII), unless you renounce it for "
          "a second pawn.").format(gain=gain(state)),
    ]
    if len(seats) == 2:
        lines.append(_("With two players, the second scores the provinces only when one "
                       "step behind the first on the track."))
    lines.append(_("The game ends after the turn in which the last peace tile is placed, all "
                   "20 pawns of a people stand on the board, or an influence reaches 22. "
                   "Order of play: {seats}.").format(seats=", ".join(seats)))
    return {"text": "\n".join(lines), "allies": None}


def hand_text(cards) -> str:
    """A hand as its owner's mails show it: 'Franks, Goths, Goths, Huns'."""
    return cards_text(cards)


def recap(state, seat) -> list[str]:
    """What everybody saw happen since this seat's last turn, one line per event."""
    entries = state["chronicle"][:-1]
    mine = [i for i, entry in enumerate(entries) if entry["seat"] == seat]
    since = entries[mine[-1] + 1:] if mine else entries
    lines = []
    for entry in since:
        lines.append(_("turn {turn} ({seat}):").format(turn=entry["turn"], seat=entry["seat"]))
        for item in entry["events"]:
            line = narrate(Event(item["type"], item["payload"]))
            if line and item["type"] not in ("turn_ended",):
                lines.append("  " + line)
    return lines


def tile_name(tile: str) -> str:
    """An action tile's name in the current language (DOUBLE, ÉCHANGE, INFLUENCE)."""
    return _(TILE_NAMES[tile])


# ---------------------------------------------------------------- the board as text

def board_text(view) -> str:
    """The board as monospace text: provinces, the track, influence, scores, tiles."""
    seats = view["seats"]
    century = view["century"]
    head = _("Attila, turn {turn}: {seat} plays").format(turn=view["turn"], seat=view["active"]) \
        if not view["result"] else \
        _("Attila, after turn {turn}: the game is over").format(turn=view["turn"])
    track = ", ".join(_("{century}: {num}").format(century=c, num=view["track"][c])
                      for c in CENTURIES)
    if century:
        said_track = _("Peace tiles left on the track: {track} (century {century}, +{gain} "
                       "influence per pawn).").format(track=track, century=century,
                                                      gain=view["gain"])
    else:
        said_track = _("Peace tiles left on the track: {track} (no peace tile left).").format(
            track=track)
    lines = [head, *wrapped(said_track), ""]
    width = max(len(p["name"]) for p in view["provinces"]) + 6
    lines.append(_("Province").ljust(width) + _("Pawns"))
    empty = []
    for p in view["provinces"]:
        name = p["name"] + (" (N)" if p["north"] else "")
        if not p["pawns"] and not p["pacified"]:
            empty.append(name)
            continue
        pawns = pawns_text({x["people"]: x["count"] for x in p["pawns"]}) or "-"
        peace = _("[peace {tile}]").format(tile=p["tile"]) + " " if p["tile"] else \
            (_("[closed]") + " " if p["pacified"] else "")
        lines.append(f"{name.ljust(width)}{peace}{pawns}")
    if empty:
        lines += wrapped(_("No pawn yet: {provinces}.").format(provinces=", ".join(empty)))
    lines += wrapped(_("(N) northern province; [peace V] pacified: no new pawn may go "
                       "there.")) + [""]
    lines += influence_lines(view)
    lines.append("")
    said_lines = [
        _("Pawns on the board: {pawns}.").format(pawns=", ".join(
            f"{people_name(p['people'])} {p['on_board']}/{PAWNS_PER_PEOPLE}"
            for p in view["peoples"])),
        _("Scores: {scores}.").format(scores=", ".join(f"{s} {view['scores'][s]}"
                                                       for s in seats)),
        _("Cards in hand: {hands}; draw pile {deck}, discards {discards}.").format(
            hands=", ".join(f"{s} {view['hand_counts'][s]}" for s in seats),
            deck=view["deck"], discards=view["discards"]),
        _("Action tiles left: {tiles}.").format(tiles=_("; ").join(
            f"{s} {', '.join(tile_name(t) for t in view['tiles'][s]) or _('none')}"
            for s in seats))]
    if view["conflict"]:
        c = view["conflict"]
        said_lines.append(_("Conflict under way in {province} ({pawns}): every seat "
                            "bids.").format(province=c["province"],
                                            pawns=pawns_text(c["pawns"])))
    for sentence in said_lines:
        lines += wrapped(sentence)
    return "\n".join(line.rstrip() for line in lines)


def wrapped(sentence: str) -> list[str]:
    """A sentence of the text board in lines within 78 columns, the next ones indented."""
    return textwrap.wrap(sentence, TEXT_WIDTH, subsequent_indent="  ",
                         break_on_hyphens=False)


def influence_lines(view) -> list[str]:
    """The influence table: one row per people, one column per seat ('-': not on the track)."""
    seats = view["seats"]
    cols = [max(len(s), 3) for s in seats]
    lines = [_("Influence (1 to {num})").format(num=MAX_INFLUENCE).ljust(22) +
             "  ".join(s.rjust(w) for s, w in zip(seats, cols))]
    for people in PEOPLES:
        row = view["influence"][people]
        cells = [str(row.get(s, "-")).rjust(w) for s, w in zip(seats, cols)]
        lines.append(f"  {people_name(people)}".ljust(22) + "  ".join(cells))
    return lines


# ---------------------------------------------------------------- the board as SVG

def svg_context(view) -> dict:
    """Boxes, links, pawns, the century track and the legend for board.svg.j2: each
    province's box as province.svg.j2 draws it, each link as link.svg.j2 does."""
    where = {p["name"]: (p["x"], p["y"]) for p in view["provinces"]}
    width, height = view["board"]["width"], view["board"]["height"]
    pixels_high = round(PIXELS * height / width)
    frame = frame_of({"viewBox": f"0 0 {width} {height}", "width": str(PIXELS),
                      "height": str(pixels_high)})
    return {
        "boxes": [box(p, frame) for p in view["provinces"]],
        "at_rest": AT_REST,
        "links": [link(where, a, b, sea=kind == "sea") for kind in ("land", "sea")
                  for a, b in view["board"][kind]],
        "track": [{"century": c, "left": view["track"][c], "x": 16 + 50 * i,
                   "current": c == view["century"]} for i, c in enumerate(CENTURIES)],
        "legend": [{"name": people_name(p), "fill": PEOPLE_COLOURS[p], "x": width - 96,
                    "y": 24 + 16 * i} for i, p in enumerate(PEOPLES)],
        "influence_rows": [{"name": people_name(p),
                            "cells": [view["influence"][p].get(s) for s in view["seats"]]}
                           for p in PEOPLES],
        "width": width, "height": height, "pixels": PIXELS, "pixels_high": pixels_high,
        "title": _("Attila, turn {turn}").format(turn=view["turn"]),
    }


def own_area(view) -> list:
    """The provinces of the peoples the viewing seat leads on the influence track (ties
    included; else those of its hand; else the north, where peoples enter), in the
    board's SVG units: what its close-up shows."""
    you = view.get("you")
    if not you:
        return []
    led = set()
    for people, track in view["influence"].items():
        steps = [step for step in track.values() if step is not None]
        if track.get(you["seat"]) is not None and track[you["seat"]] == max(steps):
            led.add(people)
    for peoples in (led, set(you["hand"])):
        found = [(p["x"], p["y"]) for p in view["provinces"]
                 if any(pawn["people"] in peoples for pawn in p["pawns"])]
        if found:
            return found
    return [(p["x"], p["y"]) for p in view["provinces"] if p["north"]]


Mark = namedtuple("Mark", "name count x y fill ink")  # a people's pawns in a box
AT_REST = {"pacified": False, "tile": None, "marks": ()}  # a box as the ground shows it
PIXELS = 640  # the board's width in mails; it shrinks to fit a phone


def box(province, frame) -> dict:
    """A province's box as province.svg.j2 draws it: its place, its peace tile and a mark
    for each people's pawns in it, on a pixel's corner of the board's `frame` (a mark is
    then drawn once for every box it stands in)."""
    left, top = province["x"] - BOX_WIDTH / 2, province["y"] - BOX_HEIGHT / 2
    marks = tuple(Mark(people_name(pawn["people"]), pawn["count"],
                       *frame.snapped(left + 12 + 15 * i, province["y"] + 9),
                       PEOPLE_COLOURS[pawn["people"]],
                       "#111" if pawn["people"] in ("goths", "teutons") else "#fff")
                  for i, pawn in enumerate(province["pawns"]))
    return {"name": province["name"], "x": province["x"], "left": left, "top": top,
            "box_width": BOX_WIDTH, "box_height": BOX_HEIGHT, "north": province["north"],
            "pacified": province["pacified"], "tile": province["tile"], "marks": marks}


def link(where, a, b, sea: bool) -> dict:
    """A link between two boxes, from edge to edge rather than centre to centre; a sea
    link has an arrow at each end."""
    (x1, y1), (x2, y2) = where[a], where[b]
    dx, dy = x2 - x1, y2 - y1
    cut = min(BOX_WIDTH / 2 / abs(dx) if dx else 1, BOX_HEIGHT / 2 / abs(dy) if dy else 1, 0.45)
    return {"x1": round(x1 + dx * cut, 1), "y1": round(y1 + dy * cut, 1),
            "x2": round(x2 - dx * cut, 1), "y2": round(y2 - dy * cut, 1), "sea": sea}


# ---------------------------------------------------------------- narration

def pawns_text(counts: dict) -> str:
    """'Franks 2, Huns 1', in scoring order."""
    return ", ".join(f"{people_name(p)} {counts[p]}" for p in PEOPLES if p in counts)


def points_text(points: dict) -> str:
    """'ann 5, bob 3' or 'nobody'."""
    return ", ".join(f"{seat} {points[seat]}" for seat in sorted(points)) or _("nobody")


def count_pawns(count: int) -> str:
    """'1 pawn', '3 pawns', in the current language."""
    return ngettext("{num} pawn", "{num} pawns", count).format(num=count)


# Why a seat discarded cards, as stored in its `discarded` event.
DISCARDED_WHY = {"the play is lost": lambda: _("the play is lost"),
                 "EXCHANGE": lambda: tile_name("exchange")}


def narrate(event, state=None) -> str | None:
    """One event as a sentence for a report, in the current language; None for the others
    (the game's state names nothing an event does not)."""
    p = event.payload
    t = event.type
    told = NARRATION.get(t)
    return told(p) if told else None


def _setup(p):
    return _("Attila with {seats}, in this order of play").format(
        seats=", ".join(p["state"]["seats"]))


def _discarded(p):
    why = DISCARDED_WHY.get(p["why"])
    return _("you discarded {cards} ({why})").format(cards=cards_text(p["cards"]),
                                                     why=why() if why else said(p["why"]))


def _tile_used(p):
    if p["tile"] == "exchange":
        return ngettext("{seat} used EXCHANGE: discarded {num} card and drew another",
                        "{seat} used EXCHANGE: discarded {num} cards and drew as many",
                        p["count"]).format(seat=p["seat"], num=p["count"])
    return _("{seat} used {tile}").format(seat=p["seat"], tile=tile_name(p["tile"]))


def _pawn_placed(p):
    if p["card"]:
        return _("{seat} played a {people} card: a pawn to {province}").format(
            seat=p["seat"], people=one_of(p["people"]), province=p["province"])
    return _("{seat} placed a second {people} pawn, in {province}").format(
        seat=p["seat"], people=one_of(p["people"]), province=p["province"])


def _influence_gained(p):
    if p["why"] == "tile":
        text = _("{seat}: +{gain} influence over the {peoples} (INFLUENCE tile), now {value}")
    else:
        text = _("{seat}: +{gain} influence over the {peoples}, now {value}")
    return text.format(seat=p["seat"], gain=p["gain"], peoples=people_name(p["people"]),
                       value=p["value"])


def _province_pacified(p):
    if p["tile"] is None:
        return _("{province} is closed (no peace tile was left)").format(province=p["province"])
    return _("{province} is pacified with a peace tile of century {tile}").format(
        province=p["province"], tile=p["tile"])


def _orders_resumed(p):
    said_how = {"confirmed": _("{seat} confirmed the orders kept over the conflict"),
                "silence": _("{seat} was silent: the orders kept over the conflict stand"),
                "replaced": _("{seat} sent new orders for the rest of the turn")}
    return said_how[p["how"]].format(seat=p["seat"])


def _game_decided(p):
    points = p["scores"][p["winners"][0]]
    winners = _(" and ").join(p["winners"])
    return ngettext("the game is over ({reason}): {winners} wins with {num} points",
                    "the game is over ({reason}): {winners} win with {num} points",
                    len(p["winners"])).format(reason=said(p["reason"]), winners=winners,
                                              num=points)


def _turn_continues(p):
    """The seat asked reads it of itself, the others of that seat."""
    if reader() == p["seat"]:
        return ngettext("you are asked for the rest of your turn ({num} card to play)",
                        "you are asked for the rest of your turn ({num} cards to play)",
                        p["left"]).format(num=p["left"])
    return ngettext("{seat} is asked for the rest of the turn ({num} card to play)",
                    "{seat} is asked for the rest of the turn ({num} cards to play)",
                    p["left"]).format(seat=p["seat"], num=p["left"])


def _refilled(p):
    """The seat that drew reads which cards (its own "drew" events), not how many."""
    if reader() == p["seat"]:
        return None
    return ngettext("{seat} drew {num} card", "{seat} drew {num} cards",
                    p["count"]).format(seat=p["seat"], num=p["count"])


NARRATION = {
    "setup": _setup,
    "dealt": lambda p: _("you were dealt {cards}").format(cards=cards_text(p["cards"])),
    "drew": lambda p: _("you drew {cards}").format(cards=cards_text(p["cards"])),
    "discarded": _discarded,
    "turn_began": lambda p: _("turn {turn}: {seat} plays").format(turn=p["number"],
                                                                  seat=p["seat"]),
    "tile_used": _tile_used,
    "pawn_placed": _pawn_placed,
    "influence_gained": _influence_gained,
    "influence_renounced": lambda p: _(
        "{seat} renounced influence for a second {people} pawn").format(
            seat=p["seat"], people=one_of(p["people"])),
    "conflict_opened": lambda p: _(
        "conflict in {province} ({pawns}): every seat bids in secret").format(
            province=p["province"], pawns=pawns_text(p["pawns"])),
    "orders_kept": lambda p: _("your orders after the conflict are kept: {steps}").format(
        steps=_("; ").join(say_step(step) for step in p["steps"])),
    "conflict_resolved": lambda p: conflict_text(p),
    "province_pacified": _province_pacified,
    "century_scored": lambda p: scoring_text(p),
    "play_lost": lambda p: ngettext(
        "{seat} cannot place a pawn with any card in hand, discards {num} card face down: "
        "the play is lost",
        "{seat} cannot place a pawn with any card in hand, discards all {num} face down: "
        "the play is lost", p["count"]).format(seat=p["seat"], num=p["count"]),
    "orders_void": lambda p: _(
        "{seat}'s orders are no longer legal: pbem plays the default turn").format(
            seat=p["seat"]),
    "orders_void_reason": lambda p: _("why your orders could not be played: {reason}").format(
        reason=said(p["reason"])),
    "orders_resumed": _orders_resumed,
    "confirm_asked": lambda p: _("{seat} is asked to confirm the rest of the turn").format(
        seat=p["seat"]),
    "turn_continues": _turn_continues,
    "default_turn": lambda p: _(
        "{seat} sent no usable orders in time: pbem plays the default turn for them").format(
            seat=p["seat"]),
    "discards_reshuffled": lambda p: ngettext(
        "the draw pile ran out: the {num} discarded card was shuffled into a new one",
        "the draw pile ran out: the {num} discarded cards were shuffled into a new one",
        p["count"]).format(num=p["count"]),
    "refilled": _refilled,
    "turn_ended": lambda p: _("end of turn {turn}").format(turn=p["number"]),
    "game_decided": _game_decided,
}


def conflict_text(p) -> str:
    """The revealed bids and what they did."""
    bids = _("; ").join(f"{bid['seat']} {cards_text(bid['cards'])}" for bid in p["bids"])
    removed = sum(p["removed"].values())
    return ngettext(
        "conflict in {province}: bids {bids}. Strength {strength}. Leaving: {leaving} "
        "({num} pawn back to the supply)",
        "conflict in {province}: bids {bids}. Strength {strength}. Leaving: {leaving} "
        "({num} pawns back to the supply)", removed).format(
            province=p["province"], bids=bids, strength=pawns_text(p["strength"]),
            leaving=_(" and ").join(people_name(x) for x in p["leaving"]), num=removed)


def scoring_text(p) -> str:
    """A century's (or the final) scoring, people by people: what each scored, and why.

    Peoples with no pawn on the board (who score nothing) are left out.
    """
    title = _("scoring of century {century}").format(century=p["century"]) if p["century"] \
        else _("final scoring")
    rows = [_("{peoples} ({pawns} in {provinces}): {points}").format(
        peoples=people_name(r["people"]), pawns=count_pawns(r["pawns"]),
        provinces=ngettext("{num} province", "{num} provinces", r["provinces"]).format(
            num=r["provinces"]), points=points_text(r["points"]))
            for r in p["peoples"] if r["pawns"] or r["points"]]
    if not rows:
        return _("{title}: no people on the board, nobody scores").format(title=title)
    return _("{title}: {rows}").format(title=title, rows=_("; ").join(rows))
