"""Resolving a phase of Attila: the active player's steps, a conflict's bids, the turn's end.

A phase resolves on a scratch copy of the state: every event is folded into
it as soon as it is emitted, so each rule sees exactly the board the previous
one left. The turn runs until something must be asked (a conflict's bids, the
confirmation of orders kept over a conflict, the rest of a turn whose mail
stopped early) or until the turn, and maybe the game, ends.
"""


from pbem.adjudicator.contract import private, public, secret
from pbem.adjudicator.scratch import Scratch

from .material import HAND_SIZE, PEOPLES, PROVINCE_LIMIT, century_of, last_of_century
from .rules import (apply, can_exchange, end_reasons, gain, next_seat, pawns_in, playable,
                    plays_per_turn, raised)
from .scoring import score_board
from .sketch import Sketch, missing_cards


class Runner(Scratch):
    """The scratch state of one phase, with the events that built it."""

    def __init__(self, state, rng):
        super().__init__(state, apply, rng)

    @property
    def turn(self) -> dict:
        """The turn under way."""
        return self.state["turn"]

    @property
    def seat(self) -> str:
        """The active player."""
        return self.state["turn"]["seat"]


def resolve(state, orders, rng) -> list:
    """The events of one phase: bids settle a conflict, or the active player's orders run."""
    run = Runner(state, rng)
    if state["turn"]["stage"] == "bid":
        settle_conflict(run, orders)
        after_conflict(run)
    else:
        play_turn(run, chosen_steps(run, orders.get(run.seat, {})))
    return run.events


# ---------------------------------------------------------------- which steps run

def chosen_steps(run, orders) -> list | None:
    """The steps to run now; None when pbem plays the default turn instead."""
    seat, turn = run.seat, run.turn
    confirming = turn["stage"] == "confirm"
    steps = orders.get("steps") or []
    if confirming and not steps:
        steps = turn["kept"]
        run.emit(public("orders_resumed", seat=seat,
                        how="confirmed" if orders.get("confirm") else "silence"))
    elif confirming:
        run.emit(public("orders_resumed", seat=seat, how="replaced"))
    elif not steps:
        run.emit(public("default_turn", seat=seat))
        return None
    problem = Sketch(run.state, seat).check(steps)
    if problem:
        run.emit(public("orders_void", seat=seat))
        run.emit(private([seat], "orders_void_reason", seat=seat, reason=problem.stored()))
        return None
    return list(steps)


def play_turn(run, steps) -> None:
    """Run the active player's steps, then pbem's own, turn after turn while nobody has a choice."""
    while True:
        if not run_steps(run, steps):
            return
        if finish_turn(run):
            return
        if has_choice(run.state, run.seat):
            return
        steps = []


def has_choice(state, seat) -> bool:
    """Is there anything to ask the active player at the start of a turn?"""
    return bool(playable(state, seat)) or can_exchange(state, seat)


def run_steps(run, steps) -> bool:
    """Run steps (None: the default turn) until the turn is done (True) or a question is open."""
    if steps is None:
        steps = []
    while True:
        turn = run.turn
        if steps:
            fights = run_step(run, steps.pop(0))
        elif turn["played"] >= turn["allowed"]:
            return True
        elif not playable(run.state, run.seat):
            lose_play(run)
            continue
        elif turn["auto"]:
            fights = default_play(run)
        else:
            run.emit(public("turn_continues", seat=run.seat,
                            left=turn["allowed"] - turn["played"]))
            return False
        if fights:
            open_conflict(run, fights)
            if steps:
                run.emit(private([run.seat], "orders_kept", seat=run.seat, steps=steps))
            return False


def run_step(run, step) -> list[str]:
    """One step of the active player; return the provinces it starts a conflict in."""
    kind = step["do"]
    if kind == "exchange":
        exchange(run, step["cards"])
        return []
    if kind == "double":
        run.emit(public("tile_used", seat=run.seat, tile="double"))
        return []
    return play(run, step["people"], step["province"], step.get("renounce"), step.get("boost"))


# ---------------------------------------------------------------- steps

def play(run, people, province, renounce=None, boost=None) -> list[str]:
    """Card and pawn, then influence or a second pawn, then the INFLUENCE tile."""
    seat = run.seat
    run.emit(public("pawn_placed", seat=seat, people=people, province=province, card=True))
    placed = [province]
    if renounce:
        run.emit(public("influence_renounced", seat=seat, people=people))
        run.emit(public("pawn_placed", seat=seat, people=people, province=renounce, card=False))
        placed.append(renounce)
    else:
        amount = gain(run.state)
        run.emit(public("influence_gained", seat=seat, people=people, gain=amount,
                        value=raised(run.state, people, seat, amount), why="pawn"))
    if boost:
        run.emit(public("tile_used", seat=seat, tile="influence"))
        for target in sorted(set(boost), key=PEOPLES.index):
            amount = boost.count(target)
            run.emit(public("influence_gained", seat=seat, people=target, gain=amount,
                            value=raised(run.state, target, seat, amount), why="tile"))
    fights = []
    for where in placed:
        if where not in fights and pawns_in(run.state, where) >= PROVINCE_LIMIT:
            fights.append(where)
    return fights


def default_play(run) -> list[str]:
    """The default turn's play: a seeded-random card, a seeded-random legal province."""
    options = playable(run.state, run.seat)
    people = run.rng.choice(sorted(options, key=PEOPLES.index))
    return play(run, people, run.rng.choice(options[people]))


def lose_play(run) -> None:
    """No card in hand can be placed: the hand is discarded face down, the play is lost."""
    hand = list(run.state["hands"][run.seat])
    run.emit(public("play_lost", seat=run.seat, count=len(hand)))
    run.emit(private([run.seat], "discarded", seat=run.seat, cards=hand, why="the play is lost"))


def exchange(run, cards) -> None:
    """EXCHANGE: discard the cards, draw as many."""
    seat = run.seat
    run.emit(public("tile_used", seat=seat, tile="exchange", count=len(cards)))
    run.emit(private([seat], "discarded", seat=seat, cards=list(cards), why="EXCHANGE"))
    draw(run, seat, len(cards))


def draw(run, seat, count) -> int:
    """Draw cards, shuffling the discards into a new pile when it runs out; return how many."""
    drawn = 0
    while drawn < count:
        if not run.state["deck"]:
            discards = run.state["discards"]
            if not discards:
                break
            run.emit(secret("deck_shuffled", deck=run.rng.shuffle(discards)))
            run.emit(public("discards_reshuffled", count=len(discards)))
        cards = run.state["deck"][:count - drawn]
        run.emit(private([seat], "drew", seat=seat, cards=cards))
        drawn += len(cards)
    return drawn


# ---------------------------------------------------------------- conflicts

def open_conflict(run, provinces) -> None:
    """The sealed bids of the first province's conflict; the others wait their turn."""
    province = provinces[0]
    run.emit(public("conflict_opened", province=province,
                    pawns=dict(run.state["pawns"][province]), queue=list(provinces)))


def settle_conflict(run, orders) -> None:
    """Reveal the bids; the weakest peoples leave; the province is pacified; maybe scoring."""
    province = run.turn["conflicts"][0]
    present = run.state["pawns"][province]
    bids = []
    for seat in run.state["seats"]:
        cards = [c for c in orders.get(seat, {}).get("bid", []) if c in present]
        if missing_cards(run.state["hands"][seat], cards):
            cards = []
        bids.append({"seat": seat, "cards": sorted(cards, key=PEOPLES.index)})
    strength = {people: present[people] + sum(bid["cards"].count(people) for bid in bids)
                for people in PEOPLES if people in present}
    weakest = min(strength.values())
    leaving = [people for people in PEOPLES if strength.get(people) == weakest]
    run.emit(public("conflict_resolved", province=province, pawns=dict(present), bids=bids,
                    strength=strength, leaving=leaving,
                    removed={people: present[people] for people in leaving}))
    tile = century_of(run.state["placed"])
    run.emit(public("province_pacified", province=province, tile=tile))
    if tile and last_of_century(run.state["placed"]):
        run.emit(public("century_scored", century=tile, peoples=score_board(run.state)))


def after_conflict(run) -> None:
    """The next conflict, or the kept orders to confirm, or the rest of the turn."""
    turn = run.turn
    if turn["conflicts"]:
        open_conflict(run, turn["conflicts"])
    elif turn["kept"]:
        run.emit(public("confirm_asked", seat=run.seat))
    else:
        play_turn(run, None if turn["auto"] else [])


# ---------------------------------------------------------------- end of turn

def finish_turn(run) -> bool:
    """Refill the active player's hand, then end the game or begin the next turn (True: over)."""
    seat = run.seat
    missing = HAND_SIZE - len(run.state["hands"][seat])
    if missing > 0:
        run.emit(public("refilled", seat=seat, count=draw(run, seat, missing)))
    reasons = end_reasons(run.state)
    run.emit(public("turn_ended", seat=seat, number=run.turn["number"]))
    if reasons:
        end_game(run, reasons)
        return True
    following = next_seat(run.state)
    run.emit(public("turn_began", seat=following, number=run.turn["number"] + 1,
                    allowed=plays_per_turn(run.state)))
    return False


def end_game(run, reasons) -> None:
    """Final scoring (unless century VII was just scored), then the winners."""
    if not run.turn["vii_last"]:
        run.emit(public("century_scored", century=None, peoples=score_board(run.state)))
    scores = dict(sorted(run.state["scores"].items()))
    best = max(scores.values())
    winners = sorted(seat for seat, points in scores.items() if points == best)
    run.emit(public("game_decided", winners=winners, scores=scores, reason=[r.stored() for r in reasons]))
