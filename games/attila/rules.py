"""Attila: the state, the reducer, the questions the rules ask of a board, the phases.

The state is plain data:

    board        built-in board name, or inline board data
    seats        the players, in play order
    hands        {seat: [cards]} (a card is its people's name); secret
    deck         the draw pile, top first; secret
    discards     the discard pile; its content is secret (exchanged cards)
    pawns        {province: {people: count}}
    pacified     {province: peace tile ("IV".."VII"), or None after the last tile}
    placed       how many peace tiles have left the century track
    influence    {people: {seat: 1..22}}; a seat not on a track is absent
    scores       {seat: points}
    tiles        {seat: [action tiles not used yet]}
    turn         the turn under way (see new_turn)
    last_conflict, chronicle   what everybody saw lately, for reports
    bid_hours    the length of a conflict's bidding phase
    result       None, or {"winners", "scores", "reason"} once the game is over
"""

import copy

from pbem.adjudicator.contract import ALL, Request
from pbem.i18n import Said, _, ngettext

from . import board as boards
from .material import (GAIN, MAX_INFLUENCE, PAWNS_PER_PEOPLE, PEOPLE_NAMES, PEOPLES,
                       PROVINCE_LIMIT, ONE_OF, century_of, in_order)

DEFAULT_BID_HOURS = 24.0


def new_turn(number: int, seat: str, allowed: int) -> dict:
    """A turn at its start.

    stage: "turn" (the active player's orders), "bid" (a conflict's sealed bids)
    or "confirm" (the active player confirms the orders kept over a conflict);
    allowed/played: cards this turn; tile: the action tile used this turn;
    conflicts: provinces waiting for their conflict, the current one first;
    kept: the active player's steps kept over a conflict; auto: pbem plays the
    rest of the turn (default turn); vii_last: the last thing that happened
    was the scoring of century VII.
    """
    return {"number": number, "seat": seat, "stage": "turn", "allowed": allowed, "played": 0,
            "tile": None, "conflicts": [], "kept": [], "auto": False, "vii_last": False}


def plays_per_turn(state) -> int:
    """Cards a turn plays before DOUBLE: two in a two-player game, else one."""
    return 2 if len(state["seats"]) == 2 else 1


# ---------------------------------------------------------------- reducer

def apply(state: dict, event) -> dict:
    """Fold one Attila event into the state."""
    if event.type == "setup":
        return copy.deepcopy(event.payload["state"])
    handler = REDUCERS.get(event.type)
    if handler:
        handler(state, event.payload)
    if event.visible_to == ALL:
        remember(state, event)
    return state


def remember(state, event) -> None:
    """Keep the public events of the last round of turns, for 'since your last turn'."""
    if event.type == "turn_began":
        state["chronicle"].append({"turn": event.payload["number"],
                                   "seat": event.payload["seat"], "events": []})
        del state["chronicle"][:-len(state["seats"])]
    elif state["chronicle"]:
        state["chronicle"][-1]["events"].append({"type": event.type, "payload": event.payload})


def _take_from_hand(state, seat, cards):
    hand = state["hands"][seat]
    for card in cards:
        hand.remove(card)


def _deck_prepared(state, p):
    state["deck"] = list(p["deck"])


def _deck_shuffled(state, p):
    state["deck"] = list(p["deck"])
    state["discards"] = []


def _drew(state, p):
    count = len(p["cards"])
    state["hands"][p["seat"]] = in_order(state["hands"][p["seat"]] + list(p["cards"]))
    state["deck"] = state["deck"][count:]


def _discarded(state, p):
    _take_from_hand(state, p["seat"], p["cards"])
    state["discards"] += list(p["cards"])


def _turn_began(state, p):
    state["turn"] = new_turn(p["number"], p["seat"], p["allowed"])


def _tile_used(state, p):
    state["tiles"][p["seat"]].remove(p["tile"])
    state["turn"]["tile"] = p["tile"]
    if p["tile"] == "double":
        state["turn"]["allowed"] += 1


def _pawn_placed(state, p):
    if p["card"]:
        _take_from_hand(state, p["seat"], [p["people"]])
        state["discards"].append(p["people"])
        state["turn"]["played"] += 1
    here = state["pawns"].setdefault(p["province"], {})
    here[p["people"]] = here.get(p["people"], 0) + 1
    state["pawns"][p["province"]] = {k: here[k] for k in PEOPLES if k in here}
    state["turn"]["vii_last"] = False


def _influence_gained(state, p):
    state["influence"][p["people"]][p["seat"]] = p["value"]
    state["turn"]["vii_last"] = False


def _conflict_opened(state, p):
    state["turn"]["stage"] = "bid"
    state["turn"]["conflicts"] = list(p["queue"])


def _orders_kept(state, p):
    state["turn"]["kept"] = p["steps"]


def _conflict_resolved(state, p):
    for bid in p["bids"]:
        _take_from_hand(state, bid["seat"], bid["cards"])
        state["discards"] += bid["cards"]
    here = state["pawns"][p["province"]]
    for people in p["leaving"]:
        here.pop(people, None)
    if not here:
        del state["pawns"][p["province"]]
    state["turn"]["conflicts"].pop(0)
    state["turn"].update(stage="turn", vii_last=False)
    state["last_conflict"] = dict(p)


def _province_pacified(state, p):
    state["pacified"][p["province"]] = p["tile"]
    if p["tile"] is not None:
        state["placed"] += 1


def _century_scored(state, p):
    for row in p["peoples"]:
        for seat, points in row["points"].items():
            state["scores"][seat] += points
    state["turn"]["vii_last"] = p["century"] == "VII"


def _play_lost(state, p):
    state["turn"]["played"] += 1


def _orders_void(state, p):
    state["turn"].update(kept=[], auto=True, stage="turn")


def _orders_resumed(state, p):
    state["turn"].update(kept=[], stage="turn")


def _set_stage(stage):
    def handler(state, p):
        state["turn"]["stage"] = stage
    return handler


def _default_turn(state, p):
    state["turn"]["auto"] = True


def _game_decided(state, p):
    state["result"] = {"winners": list(p["winners"]), "scores": dict(p["scores"]),
                       "reason": p["reason"]}


REDUCERS = {
    "deck_prepared": _deck_prepared,
    "deck_shuffled": _deck_shuffled,
    "dealt": _drew,
    "drew": _drew,
    "discarded": _discarded,
    "turn_began": _turn_began,
    "tile_used": _tile_used,
    "pawn_placed": _pawn_placed,
    "influence_gained": _influence_gained,
    "conflict_opened": _conflict_opened,
    "orders_kept": _orders_kept,
    "conflict_resolved": _conflict_resolved,
    "province_pacified": _province_pacified,
    "century_scored": _century_scored,
    "play_lost": _play_lost,
    "orders_void": _orders_void,
    "orders_resumed": _orders_resumed,
    "confirm_asked": _set_stage("confirm"),
    "turn_continues": _set_stage("turn"),
    "default_turn": _default_turn,
    "game_decided": _game_decided,
}


# ---------------------------------------------------------------- the board

def board_of(state) -> boards.Board:
    """The board this game is played on."""
    return boards.load(state["board"])


def pawns_in(state, province: str) -> int:
    """How many pawns, of all peoples, stand in a province."""
    return sum(state["pawns"].get(province, {}).values())


def on_board(state, people: str) -> int:
    """How many pawns of a people stand on the board."""
    return sum(here.get(people, 0) for here in state["pawns"].values())


def supply(state, people: str) -> int:
    """How many pawns of a people are still in the supply."""
    return PAWNS_PER_PEOPLE - on_board(state, people)


def holding(state, people: str) -> list[str]:
    """The provinces (pacified ones included) holding at least one pawn of a people."""
    return [p for p in board_of(state).order if state["pawns"].get(p, {}).get(people)]


def is_open(state, province: str) -> bool:
    """May a pawn go to this province at all: not pacified, fewer than five pawns?"""
    return province not in state["pacified"] and pawns_in(state, province) < PROVINCE_LIMIT


def reach(state, people: str) -> list[str]:
    """Every province a pawn of this people may go to now, in board order."""
    board = board_of(state)
    sources = holding(state, people)
    allowed = set(board.north)
    for province in sources:
        allowed.add(province)
        allowed.update(board.neighbours[province])
    return [p for p in board.order if p in allowed and is_open(state, p)]


def open_north(state) -> list[str]:
    """The northern provinces a first pawn may still go to."""
    return [p for p in board_of(state).north if is_open(state, p)]


def placement_problem(state, people: str, province: str) -> Said | None:
    """Why a pawn of this people may not go to this province now, or None."""
    peoples, one = Said(PEOPLE_NAMES[people]), Said(ONE_OF[people])
    if province in state["pacified"]:
        tile = state["pacified"][province]
        if tile:
            return Said("{province} is pacified (peace tile {tile}): no pawn may go there any "
                        "more", province=province, tile=tile)
        return Said("{province} is closed after the last peace tile: no pawn may go there any "
                    "more", province=province)
    if pawns_in(state, province) >= PROVINCE_LIMIT:
        return Said("{province} already holds 5 pawns: a sixth pawn is never allowed",
                    province=province)
    if province in reach(state, people):
        return None
    if not holding(state, people):
        north = ", ".join(open_north(state))
        if not north:
            return Said("{peoples} have no pawn on the board yet, and no northern "
                        "province is open for their first pawn", peoples=peoples)
        return Said("{peoples} have no pawn on the board yet, so the first {people} pawn "
                    "must go to a northern province ({north})", peoples=peoples, people=one,
                    north=north)
    where = ", ".join(reach(state, people))
    if not where:
        return Said("{province} is not northern, holds no {people} pawn and is not next to a "
                    "province that does; no province is open to {peoples}",
                    province=province, people=one, peoples=peoples)
    return Said("{province} is not northern, holds no {people} pawn and is not next to a "
                "province that does; {peoples} may go to {where}", province=province,
                people=one, peoples=peoples, where=where)


def century(state) -> str | None:
    """The current century: the first track box that still holds a peace tile."""
    return century_of(state["placed"])


def gain(state) -> int:
    """Influence a pawn gives now; after the last peace tile, still century VII's."""
    return GAIN[century(state) or "VII"]


def influence_of(state, people: str, seat: str) -> int:
    """A seat's influence over a people (0 when not on that track)."""
    return state["influence"][people].get(seat, 0)


def raised(state, people: str, seat: str, amount: int) -> int:
    """A seat's influence over a people after gaining `amount`, capped at 22."""
    return min(MAX_INFLUENCE, influence_of(state, people, seat) + amount)


def playable(state, seat: str) -> dict:
    """{people: [provinces]} for every card in the seat's hand that can be played now."""
    out = {}
    for people in sorted(set(state["hands"][seat]), key=PEOPLES.index):
        if supply(state, people) > 0:
            where = reach(state, people)
            if where:
                out[people] = where
    return out


def can_exchange(state, seat: str) -> bool:
    """May the active player still use EXCHANGE this turn?"""
    return ("exchange" in state["tiles"][seat] and state["turn"]["tile"] is None
            and bool(state["hands"][seat]))


def end_reasons(state) -> list[Said]:
    """Why the game ends at the end of this turn; empty while it goes on."""
    reasons = []
    if century(state) is None:
        reasons.append(Said("the last peace tile has been placed"))
    for people in PEOPLES:
        if supply(state, people) <= 0:
            reasons.append(Said("all {num} {people} pawns are on the board",
                                num=PAWNS_PER_PEOPLE, people=Said(ONE_OF[people])))
    for people in PEOPLES:
        for seat in state["seats"]:
            if influence_of(state, people, seat) >= MAX_INFLUENCE:
                reasons.append(Said("{seat}'s influence over the {peoples} reached {num}",
                                    seat=seat, peoples=Said(PEOPLE_NAMES[people]),
                                    num=MAX_INFLUENCE))
    in_play = set(state["deck"]) | set(state["discards"])
    for hand in state["hands"].values():
        in_play.update(hand)
    if not any(supply(state, p) > 0 and reach(state, p) for p in in_play):
        reasons.append(Said("no card left in the game can place a pawn any more"))
    return reasons


def next_seat(state) -> str:
    """The seat after the active one, in play order."""
    seats = state["seats"]
    return seats[(seats.index(state["turn"]["seat"]) + 1) % len(seats)]


# ---------------------------------------------------------------- phases

def pending(state) -> dict:
    """Who must answer now: the active player, or every seat during a conflict's bids."""
    if state["result"]:
        return {}
    turn = state["turn"]
    seat = turn["seat"]
    if turn["stage"] == "bid":
        prompt = _("Conflict in {province}: your sealed bid").format(
            province=turn["conflicts"][0])
        return {s: Request("bid", prompt, hours=state["bid_hours"]) for s in state["seats"]}
    if turn["stage"] == "confirm":
        return {seat: Request("confirm", _("Conflict settled: confirm the rest of your turn "
                                           "or send new orders"))}
    left = turn["allowed"] - turn["played"]
    if turn["played"] == 0 and turn["tile"] is None:
        prompt = ngettext("Your turn {turn}: play a card", "Your turn {turn}: play {num} cards",
                          left)
    else:
        prompt = ngettext("Continue your turn {turn}: play a card",
                          "Continue your turn {turn}: play {num} cards", left)
    return {seat: Request("turn", prompt.format(turn=turn["number"], num=left))}


def default_orders(state, seat) -> dict:
    """A silent seat: bids nothing; lets its kept orders stand; otherwise the default turn."""
    stage = state["turn"]["stage"]
    if stage == "bid":
        return {"bid": []}
    if stage == "confirm":
        return {"silent": True}
    return {"default": True}


def outcome(state) -> dict | None:
    """Who won, once the game is over."""
    return copy.deepcopy(state["result"]) if state["result"] else None
