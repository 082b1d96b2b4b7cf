"""What players see of an Attila game: views, the text board, the SVG data, narration.

A seat's view adds to the public one only what that seat may know: its own
hand and where each of its cards could go, what it may bid, and its own
orders kept over a conflict. Nobody's view holds another seat's hand, the
draw pile's order, or a bid before the conflict reveals it.
"""

import textwrap

from pbem.adjudicator.contract import Event

from .material import (CENTURIES, MAX_INFLUENCE, ONE_OF, PAWNS_PER_PEOPLE, PEOPLE_COLOURS,
                       PEOPLE_NAMES, PEOPLES, TRACK, cards_text, century_of, in_order)
from .rules import board_of, gain, on_board, playable, supply
from .sketch import TILE_NAMES, say_step

BOX_WIDTH, BOX_HEIGHT = 92, 40


def view(state, seat=None) -> dict:
    """The game as a seat (or the public, seat=None) may see it."""
    board = board_of(state)
    turn = state["turn"]
    provinces = []
    for name in board.order:
        here = state["pawns"].get(name, {})
        x, y = board.xy[name]
        provinces.append({
            "name": name, "north": name in board.north, "x": x, "y": y,
            "pawns": [{"people": p, "name": PEOPLE_NAMES[p], "count": here[p]}
                      for p in PEOPLES if p in here],
            "total": sum(here.values()),
            "pacified": name in state["pacified"],
            "tile": state["pacified"].get(name),
        })
    conflict = None
    if turn["stage"] == "bid":
        where = turn["conflicts"][0]
        here = state["pawns"][where]
        conflict = {"province": where, "pawns": dict(here),
                    "pawns_text": pawns_text(here),
                    "peoples": [PEOPLE_NAMES[p] for p in PEOPLES if p in here],
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
        "peoples": [{"people": p, "name": PEOPLE_NAMES[p], "on_board": on_board(state, p),
                     "supply": supply(state, p)} for p in PEOPLES],
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
    """What only this seat knows: its hand, where its cards can go, its bid options, kept orders."""
    turn = state["turn"]
    hand = in_order(state["hands"][seat])
    yours = {"seat": seat, "hand": hand, "hand_text": hand_text(hand),
             "active": turn["seat"] == seat, "options": [], "bid_options": None,
             "kept": [], "recap": []}
    if turn["seat"] == seat and turn["stage"] in ("turn", "confirm"):
        where = playable(state, seat)
        for people in sorted(set(hand), key=PEOPLES.index):
            yours["options"].append({"people": people, "name": PEOPLE_NAMES[people],
                                     "count": hand.count(people),
                                     "provinces": where.get(people, []),
                                     "no_pawn": supply(state, people) <= 0})
        if turn["stage"] == "turn" and turn["played"] == 0 and turn["tile"] is None:
            yours["recap"] = recap(state, seat)
    if turn["stage"] == "bid":
        present = state["pawns"][turn["conflicts"][0]]
        yours["bid_options"] = [c for c in hand if c in present]
        yours["bid_text"] = cards_text(yours["bid_options"])
    if turn["seat"] == seat and turn["stage"] == "confirm":
        yours["kept"] = [say_step(step) for step in turn["kept"]]
    return yours


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
        lines.append(f"turn {entry['turn']} ({entry['seat']}):")
        for item in entry["events"]:
            line = narrate(Event(item["type"], item["payload"]))
            if line and item["type"] not in ("turn_ended",):
                lines.append("  " + line)
    return lines


# ---------------------------------------------------------------- the board as text

def board_text(view) -> str:
    """The board as monospace text: provinces, the track, influence, scores, tiles."""
    seats = view["seats"]
    century = view["century"]
    head = (f"Attila, turn {view['turn']}: {view['active']} plays"
            if not view["result"] else f"Attila, after turn {view['turn']}: the game is over")
    track = ", ".join(f"{c}: {view['track'][c]}" for c in CENTURIES)
    when = f"century {century}, +{view['gain']} influence per pawn" if century else \
        "no peace tile left"
    lines = [head, *textwrap.wrap(f"Peace tiles left on the track: {track} ({when}).", 78,
                                  subsequent_indent="  "), ""]
    width = max(len(p["name"]) for p in view["provinces"]) + 6
    lines.append("Province".ljust(width) + "Pawns")
    empty = []
    for p in view["provinces"]:
        name = p["name"] + (" (N)" if p["north"] else "")
        if not p["pawns"] and not p["pacified"]:
            empty.append(name)
            continue
        pawns = ", ".join(f"{x['name']} {x['count']}" for x in p["pawns"]) or "-"
        peace = f"[peace {p['tile']}] " if p["tile"] else ("[closed] " if p["pacified"] else "")
        lines.append(f"{name.ljust(width)}{peace}{pawns}")
    if empty:
        lines += textwrap.wrap("No pawn yet: " + ", ".join(empty) + ".", 78,
                               subsequent_indent="  ")
    lines += ["(N) northern province; [peace V] pacified: no new pawn may go there.", ""]
    lines += influence_lines(view)
    lines.append("")
    said = ["Pawns on the board: " + ", ".join(
        f"{p['name']} {p['on_board']}/{PAWNS_PER_PEOPLE}" for p in view["peoples"]) + ".",
        "Scores: " + ", ".join(f"{s} {view['scores'][s]}" for s in seats) + ".",
        "Cards in hand: " + ", ".join(f"{s} {view['hand_counts'][s]}" for s in seats)
        + f"; draw pile {view['deck']}, discards {view['discards']}.",
        "Action tiles left: " + "; ".join(
            f"{s} {', '.join(TILE_NAMES[t] for t in view['tiles'][s]) or 'none'}"
            for s in seats) + "."]
    if view["conflict"]:
        c = view["conflict"]
        said.append(f"Conflict under way in {c['province']} ({c['pawns_text']}): every seat "
                    "bids.")
    for sentence in said:
        lines += textwrap.wrap(sentence, 78, subsequent_indent="  ")
    return "\n".join(line.rstrip() for line in lines)


def influence_lines(view) -> list[str]:
    """The influence table: one row per people, one column per seat ('-': not on the track)."""
    seats = view["seats"]
    cols = [max(len(s), 3) for s in seats]
    lines = [f"Influence (1 to {MAX_INFLUENCE})".ljust(22) +
             "  ".join(s.rjust(w) for s, w in zip(seats, cols))]
    for people in PEOPLES:
        row = view["influence"][people]
        cells = [str(row.get(s, "-")).rjust(w) for s, w in zip(seats, cols)]
        lines.append(f"  {PEOPLE_NAMES[people]}".ljust(22) + "  ".join(cells))
    return lines


# ---------------------------------------------------------------- the board as SVG

def svg_context(view) -> dict:
    """Boxes, links, pawns, the century track and the legend for board.svg.j2."""
    where = {p["name"]: (p["x"], p["y"]) for p in view["provinces"]}
    boxes = []
    for p in view["provinces"]:
        marks = [{**pawn, "x": p["x"] - BOX_WIDTH / 2 + 12 + 15 * i, "y": p["y"] + 9,
                  "fill": PEOPLE_COLOURS[pawn["people"]],
                  "ink": "#111" if pawn["people"] in ("goths", "teutons") else "#fff"}
                 for i, pawn in enumerate(p["pawns"])]
        boxes.append({**p, "left": p["x"] - BOX_WIDTH / 2, "top": p["y"] - BOX_HEIGHT / 2,
                      "marks": marks})
    width, height = view["board"]["width"], view["board"]["height"]
    return {
        "boxes": boxes,
        "land": [link(where, a, b) for a, b in view["board"]["land"]],
        "sea": [link(where, a, b) for a, b in view["board"]["sea"]],
        "track": [{"century": c, "left": view["track"][c], "x": 16 + 50 * i,
                   "current": c == view["century"]} for i, c in enumerate(CENTURIES)],
        "legend": [{"name": PEOPLE_NAMES[p], "fill": PEOPLE_COLOURS[p], "x": width - 96,
                    "y": 24 + 16 * i} for i, p in enumerate(PEOPLES)],
        "influence_rows": [{"name": PEOPLE_NAMES[p],
                            "cells": [view["influence"][p].get(s) for s in view["seats"]]}
                           for p in PEOPLES],
        "width": width, "height": height, "box_width": BOX_WIDTH, "box_height": BOX_HEIGHT,
        "title": f"Attila, turn {view['turn']}",
    }


def link(where, a, b) -> dict:
    """A link between two boxes, from edge to edge rather than centre to centre."""
    (x1, y1), (x2, y2) = where[a], where[b]
    dx, dy = x2 - x1, y2 - y1
    cut = min(BOX_WIDTH / 2 / abs(dx) if dx else 1, BOX_HEIGHT / 2 / abs(dy) if dy else 1, 0.45)
    return {"x1": round(x1 + dx * cut, 1), "y1": round(y1 + dy * cut, 1),
            "x2": round(x2 - dx * cut, 1), "y2": round(y2 - dy * cut, 1)}


# ---------------------------------------------------------------- narration

def pawns_text(counts: dict) -> str:
    """'Franks 2, Huns 1', in scoring order."""
    return ", ".join(f"{PEOPLE_NAMES[p]} {counts[p]}" for p in PEOPLES if p in counts)


def points_text(points: dict) -> str:
    """'ann 5, bob 3' or 'nobody'."""
    return ", ".join(f"{seat} {points[seat]}" for seat in sorted(points)) or "nobody"


def narrate(event) -> str | None:
    """One event as a sentence for a report; None for events players do not read."""
    p = event.payload
    t = event.type
    if t == "setup":
        return f"Attila with {', '.join(p['state']['seats'])}, in this order of play"
    if t == "dealt":
        return f"you were dealt {cards_text(p['cards'])}"
    if t == "drew":
        return f"you drew {cards_text(p['cards'])}"
    if t == "discarded":
        return f"you discarded {cards_text(p['cards'])} ({p['why']})"
    if t == "turn_began":
        return f"turn {p['number']}: {p['seat']} plays"
    if t == "tile_used":
        if p["tile"] == "exchange":
            return f"{p['seat']} used EXCHANGE: discarded {p['count']} card(s) and drew as many"
        return f"{p['seat']} used {TILE_NAMES[p['tile']]}"
    if t == "pawn_placed":
        how = f"played a {ONE_OF[p['people']]} card" if p["card"] else \
            f"placed a second {ONE_OF[p['people']]} pawn"
        return f"{p['seat']} {how}: a pawn to {p['province']}"
    if t == "influence_gained":
        why = " (INFLUENCE tile)" if p["why"] == "tile" else ""
        return (f"{p['seat']}: +{p['gain']} influence over the {PEOPLE_NAMES[p['people']]}"
                f"{why}, now {p['value']}")
    if t == "influence_renounced":
        return f"{p['seat']} renounced influence for a second {ONE_OF[p['people']]} pawn"
    if t == "conflict_opened":
        return (f"conflict in {p['province']} ({pawns_text(p['pawns'])}): every seat bids "
                "in secret")
    if t == "orders_kept":
        return ("your orders after the conflict are kept: " +
                "; ".join(say_step(step) for step in p["steps"]))
    if t == "conflict_resolved":
        return conflict_text(p)
    if t == "province_pacified":
        if p["tile"] is None:
            return f"{p['province']} is closed (no peace tile was left)"
        return f"{p['province']} is pacified with a peace tile of century {p['tile']}"
    if t == "century_scored":
        return scoring_text(p)
    if t == "play_lost":
        return (f"{p['seat']} cannot place a pawn with any card in hand, discards all "
                f"{p['count']} face down: the play is lost")
    if t == "orders_void":
        return f"{p['seat']}'s orders are no longer legal: pbem plays the default turn"
    if t == "orders_void_reason":
        return f"why your orders could not be played: {p['reason']}"
    if t == "orders_resumed":
        return {"confirmed": f"{p['seat']} confirmed the orders kept over the conflict",
                "silence": f"{p['seat']} was silent: the orders kept over the conflict stand",
                "replaced": f"{p['seat']} sent new orders for the rest of the turn"}[p["how"]]
    if t == "confirm_asked":
        return f"{p['seat']} is asked to confirm the rest of the turn"
    if t == "turn_continues":
        return f"{p['seat']} is asked for the rest of the turn ({p['left']} card(s) to play)"
    if t == "default_turn":
        return f"{p['seat']} sent no usable orders in time: pbem plays the default turn for them"
    if t == "discards_reshuffled":
        return (f"the draw pile ran out: the {p['count']} discarded cards were shuffled into "
                "a new one")
    if t == "refilled":
        return f"{p['seat']} drew {p['count']} card(s)"
    if t == "turn_ended":
        return f"end of turn {p['number']}"
    if t == "game_decided":
        verb = "win" if len(p["winners"]) > 1 else "wins"
        points = p["scores"][p["winners"][0]]
        return (f"the game is over ({p['reason']}): {' and '.join(p['winners'])} {verb} "
                f"with {points} points")
    return None


def conflict_text(p) -> str:
    """The revealed bids and what they did."""
    bids = "; ".join(f"{bid['seat']} {cards_text(bid['cards'])}" for bid in p["bids"])
    strength = pawns_text(p["strength"])
    gone = " and ".join(PEOPLE_NAMES[x] for x in p["leaving"])
    return (f"conflict in {p['province']}: bids {bids}. Strength {strength}. "
            f"Leaving: {gone} ({sum(p['removed'].values())} pawn(s) back to the supply)")


def scoring_text(p) -> str:
    """A century's (or the final) scoring, people by people."""
    title = f"scoring of century {p['century']}" if p["century"] else "final scoring"
    rows = [f"{PEOPLE_NAMES[r['people']]} ({r['pawns']} pawns, {r['provinces']} provinces): "
            f"{points_text(r['points'])}" for r in p["peoples"]]
    return f"{title}: " + "; ".join(rows)
