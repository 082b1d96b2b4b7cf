"""The generic core: fold events into state, open and close phases.

State is ``{"engine": {...}, "game": {...}}``. The engine's part records the
seats, the timing, the open phase and the result; the game's part belongs to
the game module and changes only through its ``apply``.

Nothing here reads the clock: every function that needs the time takes ``now``
(an ISO UTC string) as an argument.
"""

import hashlib
import json

from ..i18n import Said
from .contract import (REFEREE, Event, Request, SetupError, canonical, plain_copy, public,
                       secret)
from .options import number_option
from .rng import PhaseRng, seed_digest
from .rulings import narrate_ruling, ruling_event
from ..timeutil import later, parse_time

ENGINE_EVENTS = ("game_created", "position_given", "phase_opened", "orders_set",
                 "ruling_given", "deadline_extended", "game_over", "game_stopped")

DEFAULT_TIMING = {"turn_hours": 48.0, "reminder_hours": 12.0, "slow": 0}
TIMING_OPTIONS = {
    "turn_hours": "hours a turn stays open (default 48)",
    "reminder_hours": "hours before the deadline that silent seats are reminded (default 12)",
    "slow": "how many times each seat may say SLOW to give a turn more time (default 0)",
}


def new_state() -> dict:
    """The state before a game's first event."""
    return {
        "engine": {
            "game": None,
            "ruleset": None,
            "seats": [],
            "timing": dict(DEFAULT_TIMING),
            "phase": 0,
            "requests": {},
            "opened": None,
            "deadline": None,
            "remind_at": None,
            "slow_used": {},
            "over": False,
            "result": None,
        },
        "game": {},
    }


def apply(game, state: dict, event: Event) -> dict:
    """Fold one event into the state; engine events here, game events to the game."""
    if event.type not in ENGINE_EVENTS:
        state["game"] = game.apply(state["game"], event)
        return state
    engine = state["engine"]
    p = event.payload
    if event.type == "game_created":
        engine.update(game=p["game"], ruleset=p["ruleset"], seats=list(p["seats"]),
                      timing=dict(p["timing"]))
    elif event.type == "phase_opened":
        engine.update(phase=p["phase"], requests=p["requests"], opened=p["opened"],
                      deadline=p["deadline"], remind_at=p["remind_at"])
    elif event.type == "orders_set":
        engine.update(requests={}, deadline=None, remind_at=None)
    elif event.type == "deadline_extended":
        engine["deadline"] = p["deadline"]
        engine["remind_at"] = p["remind_at"]
        if p["seat"] is not None:  # None: the referee gave the time, no seat's SLOW
            engine["slow_used"][p["seat"]] = engine["slow_used"].get(p["seat"], 0) + 1
    elif event.type == "game_over":
        engine.update(over=True, result=p["result"], requests={}, deadline=None, remind_at=None)
    elif event.type == "game_stopped":
        engine.update(over=True, result={"winners": [], "reason": p["reason"]}, requests={},
                      deadline=None, remind_at=None)
    return state


def step(game, state: dict, event: Event) -> tuple[dict, str]:
    """Apply one event; return the new state in canonical key order, and its hash."""
    text = canonical(apply(game, state, event))
    return json.loads(text), hashlib.sha256(text.encode()).hexdigest()


def fold(game, events, state=None) -> dict:
    """Apply events, in order, to a copy of state (or to a new state)."""
    state = new_state() if state is None else plain_copy(state)
    for event in events:
        state, _ = step(game, state, event)
    return state


def state_hash(state: dict) -> str:
    """SHA-256 of the canonical JSON of the state: what replay compares."""
    return hashlib.sha256(canonical(state).encode()).hexdigest()


def timing_for(game, options: dict) -> dict:
    """Engine timing for a new game: defaults, then the game's, then explicit options."""
    timing = dict(DEFAULT_TIMING)
    timing.update(game.timing(options))
    for key in DEFAULT_TIMING:
        if key in options:
            timing[key] = number_option(options, key, DEFAULT_TIMING[key],
                                        whole=isinstance(DEFAULT_TIMING[key], int),
                                        positive=key == "turn_hours")
    return timing


def check_options(game, options: dict, seats=()) -> None:
    """SetupError when an option is neither the engine's nor the game's.

    A game that names one of its seats as its judge declares the option
    ``judge``; its value must be one of the seats.
    """
    known = sorted(set(TIMING_OPTIONS) | set(game.OPTIONS))
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise SetupError(f"{game.TITLE} has no option {', '.join(unknown)}; "
                         f"its options are {', '.join(known)}")
    if "judge" in options and options["judge"] not in seats:
        raise SetupError(f"the judge {options['judge']!r} is not one of the seats "
                         f"({', '.join(seats)})")


def creation_events(game, game_id, ruleset, options, seats, seed, position=None) -> list[Event]:
    """The game_created event and the game's own setup events."""
    check_options(game, options, list(seats))
    game_options = {k: v for k, v in options.items() if k not in DEFAULT_TIMING}
    created = public(
        "game_created",
        game=game_id,
        ruleset=ruleset,
        options=game_options,
        seats=list(seats),
        timing=timing_for(game, options),
        seed_sha256=seed_digest(seed),
    )
    given = [] if position is None else [secret("position_given", position=position)]
    rng = PhaseRng(seed, game_id, 0)
    return [created] + given + list(game.setup(game_options, list(seats), rng, position))


def open_phase(game, state: dict, now: str) -> Event:
    """The phase_opened event for whatever the game asks next.

    A phase that asks only the referee (a ruling) has no deadline and no
    reminder: it waits for the referee. When the game keeps its requests
    private (fog of war), the event is the referee's alone.
    """
    requests = game.pending(state["game"])
    if not requests:
        raise RuntimeError("the game asks nothing of anyone but is not over")
    timing = state["engine"]["timing"]
    deadline = remind = None
    if set(requests) != {REFEREE}:
        hours = [r.hours for seat, r in requests.items() if r.hours and seat != REFEREE]
        deadline = later(now, min(hours) if hours else timing["turn_hours"])
        remind = later(deadline, -timing["reminder_hours"])
    return (secret if private_requests(game, state) else public)(
        "phase_opened",
        phase=state["engine"]["phase"] + 1,
        requests={seat: requests[seat].to_dict() for seat in sorted(requests)},
        opened=now,
        deadline=deadline,
        remind_at=remind if remind and parse_time(remind) > parse_time(now) else None,
    )


def private_requests(game, state: dict) -> bool:
    """Does the game keep who is asked what to the seats asked (its optional
    ``private_requests(state)``, fog of war), or is it public?"""
    hook = getattr(game, "private_requests", None)
    return bool(hook and hook(state["game"]))


def waiting_for(game, state: dict, viewer) -> list[str]:
    """The seats (and the referee) the open phase waits for, as a viewer may know them.

    Everyone knows them, unless the game keeps its requests private: then a
    seat knows only of itself and of the seats whose orders it gives, the
    public of nobody, the referee of all.
    """
    asked = sorted(state["engine"]["requests"])
    if viewer == REFEREE or not private_requests(game, state):
        return asked
    ruler = getattr(game, "controller", None)
    return [s for s in asked if viewer is not None and
            (s == viewer or (ruler is not None and ruler(state["game"], s) == viewer))]


def requests_of(state: dict) -> dict:
    """The open phase's requests as Request values."""
    return {seat: Request(**r) for seat, r in state["engine"]["requests"].items()}


def phase_rng(seed: str, state: dict) -> PhaseRng:
    """The random stream for the open phase."""
    return PhaseRng(seed, state["engine"]["game"], state["engine"]["phase"])


def orders_for_phase(game, state: dict, given: dict) -> tuple[dict, list]:
    """Every pending seat's orders: what it sent, or its default (NMR)."""
    orders, defaulted = {}, []
    for seat in sorted(state["engine"]["requests"]):
        if seat in given:
            orders[seat] = given[seat]
        else:
            orders[seat] = game.default_orders(state["game"], seat)
            defaulted.append(seat)
    return orders, defaulted


def close_phase(game, state: dict, given: dict, seed: str) -> list[Event]:
    """orders_set, a ruling_given for each ruling asked, and the game's resolution."""
    orders, defaulted = orders_for_phase(game, state, given)
    eng = state["engine"]
    marker = secret("orders_set", phase=eng["phase"], orders=orders, defaulted=defaulted)
    rulings = [ruling_event(eng["phase"], asked, request, orders[asked], asked in defaulted)
               for asked, request in sorted(eng["requests"].items())
               if request["kind"] == "ruling"]
    resolved = game.resolve(plain_copy(state["game"]), orders, phase_rng(seed, state))
    return [marker] + rulings + list(resolved)


def narrate(event: Event) -> str | None:
    """An engine event in one sentence, or None when players need not read it."""
    if event.type == "ruling_given":
        return narrate_ruling(event.payload)
    return None


def after_resolution(game, state: dict, now: str, seed: str) -> Event:
    """game_over (revealing the seed) if the game has ended, else the next phase."""
    result = game.outcome(state["game"])
    if result is not None:
        return public("game_over", result=result, seed=seed)
    return open_phase(game, state, now)


def stopped(reason: str, seed: str) -> Event:
    """The referee ends a game before the rules do: nobody wins, the seed is revealed."""
    return public("game_stopped", reason=Said("stopped by the referee: {reason}",
                                              reason=reason).stored(), seed=seed)


def extension(state: dict, seat: str) -> Event | None:
    """A deadline_extended event if this seat may still slow the turn, else None."""
    engine = state["engine"]
    if engine["over"] or seat not in engine["requests"] or not engine["deadline"]:
        return None
    if engine["slow_used"].get(seat, 0) >= engine["timing"]["slow"]:
        return None
    length = (parse_time(engine["deadline"]) - parse_time(engine["opened"])).total_seconds()
    return deadline_moved(state, later(engine["deadline"], length / 3600), seat)


def deadline_moved(state: dict, deadline: str, seat: str | None = None) -> Event:
    """The open turn's deadline set to `deadline`, at a seat's SLOW or (seat None) by the referee."""
    engine = state["engine"]
    remind = later(deadline, -engine["timing"]["reminder_hours"])
    return public("deadline_extended", phase=engine["phase"], seat=seat, deadline=deadline,
                  remind_at=remind)
