"""The generic core: fold events into state, open and close phases.

State is ``{"engine": {...}, "game": {...}}``. The engine's part records the
seats, the timing, the open phase and the result; the game's part belongs to
the game module and changes only through its ``apply``.

Nothing here reads the clock: every function that needs the time takes ``now``
(an ISO UTC string) as an argument.
"""

import hashlib
import json
import re

from ..i18n import Said, _, format_date, reader_zone
from .contract import (ALL, REFEREE, Event, Request, SetupError, canonical, plain_copy, public,
                       secret)
from .deadlines import on_schedule, schedule_option, zone_option
from .editions import FIRST, recorded
from .options import number_option
from .rng import PhaseRng, seed_digest
from .rulings import narrate_ruling, ruling_event, ruling_words
from .spelling import did_you_mean
from ..timeutil import after_seconds, later, parse_time, seconds_between

ENGINE_EVENTS = ("game_created", "position_given", "phase_opened", "orders_set",
                 "ruling_given", "deadline_extended", "game_over", "game_stopped",
                 "game_paused", "game_resumed", "seats_late", "seat_replaced", "press",
                 "absence_declared", "draw_voted", "game_drawn", "seat_conceded",
                 "phase_rolled_back", "state_restored", "game_conceded")
# The events that end a game.
ENDINGS = ("game_over", "game_stopped", "game_drawn", "game_conceded")
# Events about the people at the table, not the turns: a rollback does not undo them.
TABLE_EVENTS = ("press", "absence_declared", "seat_conceded", "seat_replaced")
# What the engine's state keeps through a rollback: the table, not the turns.
KEPT_THROUGH_ROLLBACK = ("absences", "conceded")

DEFAULT_TIMING = {"turn_hours": 48.0, "reminder_hours": 12.0, "slow": 0}
TIMING_OPTIONS = {
    "turn_hours": "hours a turn stays open (default 48)",
    "reminder_hours": "hours before the deadline that silent seats are reminded (default 12)",
    "slow": "how many times each seat may say SLOW to give a turn more time (default 0)",
    "press": "messages between seats (PRESS): open, anonymous, either (each message open, "
             "or grey when its PRESS line says GREY) or none (default open)",
    "disorder_turns": "silent turns in a row that put a seat in civil disorder "
                      "(default 2; 0: never)",
    "absences": "how many absences (ABSENCE) each seat may declare (default 2)",
    "absence_days": "how many days of absence each seat may declare in all (default 14)",
    "deadlines": "fixed deadline days and times, e.g. \"mon,thu 20:00\": a phase stays open "
                 "turn_hours at least, then to the next of them (default: none)",
    "tz": "the game's time zone, for its deadline days (default UTC)",
    "grace_hours": "hours a phase waits past its deadline for the orders still missing "
                   "(default 0)",
}
# Engine settings kept in the game's timing only when given, so that older logs replay
# as they were written: read them with setting().
TABLE_DEFAULTS = {"press": "open", "disorder_turns": 2, "absences": 2, "absence_days": 14,
                  "deadlines": None, "tz": "UTC", "grace_hours": 0}
PRESS = ("open", "anonymous", "either", "none")


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
        draw_heard(engine, p["requests"])
    elif event.type == "orders_set":
        engine.update(requests={}, deadline=None, remind_at=None)
        engine.pop("grace", None)
    elif event.type == "deadline_extended":
        engine["deadline"] = p["deadline"]
        engine["remind_at"] = p["remind_at"]
        if "grace" in p:  # the deadline that passed, for the next to count from
            engine["grace"] = p["grace"]
        if p["seat"] is not None:  # None: the referee gave the time, no seat's SLOW
            engine["slow_used"][p["seat"]] = engine["slow_used"].get(p["seat"], 0) + 1
    elif event.type in ENDINGS:
        engine.update(over=True, result=final_result(event), requests={}, deadline=None,
                      remind_at=None)
        engine.pop("paused", None)
    elif event.type == "state_restored":
        return restore(state, p["state"])
    else:
        apply_table(engine, event)
    return state


def final_result(event: Event) -> dict:
    """The result an event that ends the game records."""
    p = event.payload
    if event.type == "game_over":
        return p["result"]
    if event.type == "game_drawn":
        return {"winners": [], "draw": p["seats"], "reason": p["reason"]}
    if event.type == "game_conceded":
        return {"winners": [p["winner"]], "reason": p["reason"]}
    return {"winners": [], "reason": p["reason"]}


def apply_table(engine: dict, event: Event) -> None:
    """Fold an event about the table (pauses, lateness, seats, absences, votes) into the engine."""
    p = event.payload
    if event.type == "game_paused":
        engine["paused"] = {"reason": p["reason"], "left": p["left"], "remind": p["remind"]}
        engine.update(deadline=None, remind_at=None)
    elif event.type == "game_resumed":
        engine.pop("paused", None)
        engine.update(deadline=p["deadline"], remind_at=p["remind_at"])
    elif event.type == "seats_late":
        silent = engine.setdefault("silent", {})
        disorder = engine.setdefault("disorder", [])
        for seat in p["answered"]:
            silent.pop(seat, None)
            if seat in disorder:
                disorder.remove(seat)
        for seat in p["late"]:
            silent[seat] = silent.get(seat, 0) + 1
        disorder.extend(seat for seat in p["disorder"] if seat not in disorder)
        disorder.sort()
    elif event.type == "seat_replaced":
        engine.get("silent", {}).pop(p["seat"], None)
        for key in ("disorder", "conceded"):
            if p["seat"] in engine.get(key, []):
                engine[key].remove(p["seat"])
    elif event.type == "seat_conceded":
        engine["conceded"] = sorted(set(engine.get("conceded", [])) | {p["seat"]})
    elif event.type == "absence_declared":
        away = engine.setdefault("absences", {}).setdefault(p["seat"], [])
        away.append({"start": p["start"], "end": p["end"], "by": p["by"]})
        away.sort(key=lambda a: (a["start"], a["end"]))
    elif event.type == "draw_voted":
        engine["draw"] = {"phase": p["phase"], "votes": p["votes"]}
        if "unasked" in p:
            engine["draw"]["unasked"] = p["unasked"]


def draw_heard(engine: dict, requests: dict) -> None:
    """A phase opens: the draw vote lapses once every seat it waited for has been asked in
    a phase since it was cast (each had a turn to hear of it and answer); until then the
    seats asked now are no longer waited for. A vote recorded without that list (older
    logs) lapsed at the next phase."""
    draw = engine.get("draw")
    if draw is None:
        return
    if not draw.get("unasked"):
        engine.pop("draw")
        return
    draw["unasked"] = [seat for seat in draw["unasked"] if seat not in requests]


def restore(state: dict, earlier: dict) -> dict:
    """The state a rollback returns to, keeping what it does not undo (absences, concessions)."""
    restored = plain_copy(earlier)
    for key in KEPT_THROUGH_ROLLBACK:
        if key in state["engine"]:
            restored["engine"][key] = plain_copy(state["engine"][key])
        else:
            restored["engine"].pop(key, None)
    restored["engine"].pop("paused", None)
    return restored


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
    """Engine settings for a new game: defaults, then the game's, then explicit options.

    The table's settings (press, civil disorder, absences) are kept only when given.
    """
    timing = dict(DEFAULT_TIMING)
    timing.update(game.timing(options))
    for key in DEFAULT_TIMING:
        if key in options:
            timing[key] = number_option(options, key, DEFAULT_TIMING[key],
                                        whole=isinstance(DEFAULT_TIMING[key], int),
                                        positive=key == "turn_hours")
    for key, default in TABLE_DEFAULTS.items():
        if key == "press" and key in options:
            timing[key] = str(options[key]).strip().lower()
            if timing[key] not in PRESS:
                raise SetupError(f"press must be {', '.join(PRESS)}: {options[key]!r}")
        elif key == "deadlines" and key in options:
            timing[key] = schedule_option(options[key])
        elif key == "tz" and key in options:
            timing[key] = zone_option(options[key])
        elif key == "grace_hours" and key in options:
            timing[key] = number_option(options, key, default, positive=True)
        elif key in options:
            timing[key] = number_option(options, key, default, whole=True)
    return timing


def setting(state: dict, key: str):
    """One of the table's settings of a game (press, disorder_turns, absences, absence_days)."""
    return state["engine"]["timing"].get(key, TABLE_DEFAULTS[key])


def check_options(game, options: dict, seats=()) -> None:
    """SetupError when an option is neither the engine's nor the game's.

    A game that names one of its seats as its judge declares the option
    ``judge``; its value must be one of the seats.
    """
    known = sorted(set(TIMING_OPTIONS) | set(game.OPTIONS))
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise SetupError(f"{game.TITLE} has no option {', '.join(unknown)}; "
                         f"its options are {', '.join(sorted(game.OPTIONS))}, and every "
                         f"game's {', '.join(sorted(TIMING_OPTIONS))}")
    if "judge" in options and options["judge"] not in seats:
        raise SetupError(f"the judge {options['judge']!r} is not one of the seats "
                         f"({', '.join(seats)})")


def edition_of(game) -> int:
    """The edition of a game's rules a new game is set up under: its EDITION, else the
    first (see editions.py)."""
    return getattr(game, "EDITION", FIRST)


def creation_events(game, game_id, ruleset, options, seats, seed, position=None,
                    edition=None) -> list[Event]:
    """The game_created event and the game's own setup events.

    `edition` is the edition of the game's rules to set it up under: a new game's is the
    game's own (the default); replay gives the one the log records (see editions.py).
    """
    check_options(game, options, list(seats))
    edition = edition_of(game) if edition is None else edition
    game_options = {k: v for k, v in options.items()
                    if k not in DEFAULT_TIMING and k not in TABLE_DEFAULTS}
    created = public(
        "game_created",
        game=game_id,
        ruleset=ruleset,
        options=game_options,
        seats=list(seats),
        timing=timing_for(game, options),
        seed_sha256=seed_digest(seed),
        **recorded(edition),
    )
    given = [] if position is None else [secret("position_given", position=position)]
    rng = PhaseRng(seed, game_id, 0)
    if position is not None:
        check_position(game, position)
    try:
        events = list(game.setup({**game_options, **recorded(edition)}, list(seats), rng,
                                 position))
    except (TypeError, AttributeError, KeyError, IndexError, ValueError) as problem:
        if position is None or isinstance(problem, SetupError):
            raise
        raise SetupError(f"the position holds a value of a kind {game.TITLE} does not read "
                         f"({type(problem).__name__}: {problem}); see docs/positions.md") \
            from None
    return [created] + given + events


def check_position(game, position: dict) -> None:
    """SetupError naming a key of a position's top table that the game does not read (its
    POSITION_KEYS), with the closest it reads: "unit" for "units"."""
    known = getattr(game, "POSITION_KEYS", None)
    unknown = sorted(set(position) - set(known)) if known is not None else []
    if unknown:
        raise SetupError(f"{game.TITLE} reads no {unknown[0]!r} in a position (it reads "
                         f"{', '.join(sorted(known))}){did_you_mean(unknown[0], known)}")


def open_phase(game, state: dict, now: str, since: str | None = None) -> Event:
    """The phase_opened event for whatever the game asks next.

    A phase that asks only the referee (a ruling) has no deadline and no
    reminder: it waits for the referee; nor has a phase that asks nobody (see
    opening). When the game keeps its requests private (fog of war), the event
    is the referee's alone. `since` is the deadline of the phase just resolved:
    on a game's fixed deadline days, a phase opened after that deadline passed
    counts its time from it, not from the tick that resolved it (see
    deadline_for).
    """
    requests = game.pending(state["game"])
    timing = state["engine"]["timing"]
    deadline = remind = None
    if requests and set(requests) != {REFEREE}:
        hours = [r.hours for seat, r in requests.items() if r.hours and seat != REFEREE]
        deadline = deadline_for(state, now, min(hours) if hours else timing["turn_hours"],
                                requests, since)
        remind = later(deadline, -timing["reminder_hours"])
    return (secret if private_requests(game, state) else public)(
        "phase_opened",
        phase=state["engine"]["phase"] + 1,
        requests={seat: requests[seat].to_dict() for seat in sorted(requests)},
        opened=now,
        deadline=deadline,
        remind_at=remind if remind and parse_time(remind) > parse_time(now) else None,
    )


def deadline_for(state: dict, now: str, hours: float, seats, since: str | None = None) -> str:
    """A phase's deadline: `hours` from now, past the absences of the seats asked; on the
    game's fixed deadline days (``deadlines``), the first of them at least `hours` after the
    phase opened, or after the deadline it opened at (`since`, when that passed): an early
    resolution, or a tick a few minutes late, keeps the schedule."""
    engine = state["engine"]
    schedule = setting(state, "deadlines")
    if not schedule:
        return past_absences(engine, later(now, hours), seats)
    start = min(now, since) if since else now
    deadline = None
    moment = later(start, hours)
    while deadline != moment:  # each absence moves it to the next time on the schedule
        deadline = on_schedule(schedule, setting(state, "tz"), moment)
        moment = past_absences(engine, deadline, seats)
    return deadline


# The most phases in a row that may ask nobody: past it, the game is taken to ask nothing
# ever again.
UNASKED_PHASES = 100


def opening(game, state: dict, now: str, seed: str, since: str | None = None
            ) -> list[Event]:
    """The events that open what the game asks next: its phase_opened, after any phases
    that ask nobody anything (a winter with nothing to build or remove), each opened and
    resolved at once with no orders; or, when such a phase ends the game, game_over
    (`since`: the deadline of the phase resolved, see open_phase).

    SetupError when the game asks nobody, phase after phase, and never ends.
    """
    events = []
    for _ in range(UNASKED_PHASES):
        opened = open_phase(game, state, now, since)
        events.append(opened)
        if opened.payload["requests"]:
            return events
        state = fold(game, [opened], state)
        closed = close_phase(game, state, {}, seed)
        state = fold(game, closed, state)
        events += closed
        result = game.outcome(state["game"])
        if result is not None:
            return events + [public("game_over", result=result, seed=seed)]
    raise SetupError(f"the game asks nothing of anyone for {UNASKED_PHASES} phases in a row "
                     "and is not over")


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


def close_phase(game, state: dict, given: dict, seed: str, texts: dict | None = None
                ) -> list[Event]:
    """orders_set, a ruling_given for each ruling asked, and the game's resolution.

    `texts` are the receipts of the seats' order texts (see pbem/receipts.py),
    recorded in orders_set when there are any.
    """
    orders, defaulted = orders_for_phase(game, state, given)
    eng = state["engine"]
    marker = secret("orders_set", phase=eng["phase"], orders=orders, defaulted=defaulted,
                    **({"texts": texts} if texts else {}))
    rulings = [ruling_event(eng["phase"], asked, request, orders[asked], asked in defaulted)
               for asked, request in sorted(eng["requests"].items())
               if request["kind"] == "ruling"]
    resolved = game.resolve(plain_copy(state["game"]), orders, phase_rng(seed, state))
    return [marker] + rulings + list(resolved)


def narrate(event: Event, game=None, state=None) -> str | None:
    """An event in one sentence (in the current language), or None when players need not
    read it: the engine's own events, and with `game` given, the game's too, told by the
    game's state now (`state`, its rules' part: what names its places)."""
    return narrate_engine(event, game) or \
        (game.narrate(event, state) if game is not None else None)


def narrate_engine(event: Event, game=None) -> str | None:
    """An engine event in one sentence; a ruling in the words `game` gives for it."""
    p = event.payload
    if event.type == "ruling_given":
        return narrate_ruling(p, ruling_words(game))
    if event.type == "game_paused":
        return _("The referee paused the game: {reason}. No deadline runs until it "
                 "resumes.").format(reason=p["reason"])
    if event.type == "game_resumed":
        return _("The referee resumed the game.")
    if event.type == "seats_late":
        return narrate_lateness(p)
    if event.type == "seat_replaced":
        return _("A new player takes seat {seat}.").format(seat=p["seat"])
    if event.type == "seat_conceded":
        return _("{seat} concedes: the seat plays its default orders from now on.").format(
            seat=p["seat"])
    if event.type == "absence_declared":
        return _("{seat} is away from {start} to {end}: no deadline of theirs falls in that "
                 "time.").format(seat=p["seat"], start=format_date(p["start"], reader_zone()),
                                 end=format_date(p["end"], reader_zone()))
    if event.type == "draw_voted":
        return _("{seat} votes for a draw; votes so far: {votes}.").format(
            seat=p["seat"], votes=", ".join(p["votes"]))
    if event.type == "game_drawn":
        return _("Every seat still playing voted for a draw: the game ends in a draw between "
                 "{seats}.").format(seats=", ".join(p["seats"]))
    if event.type == "phase_rolled_back" and "told" in p:
        return _("The referee took the game back to {told}: {reason}. What happened since is "
                 "undone, and {told} is open again.").format(told=told_words(*p["told"], game),
                                                            reason=p["reason"])
    if event.type == "game_conceded":
        return _("{seat} is the only seat still playing, every other has conceded or is out: "
                 "{seat} wins the game.").format(seat=p["winner"])
    if event.type == "phase_rolled_back":
        return _("The referee took the game back to the start of phase {phase}: {reason}. "
                 "What happened since is undone; phase {phase} is open again.").format(
                     phase=p["phase"], reason=p["reason"])
    if event.type == "press":
        return narrate_press(p)
    return None


def told_words(turn, round_, game=None) -> str:
    """A turn (and round) as a mail named it, inside a sentence, in the current language:
    the name `game` gives it when it names its turns (``turn_words``: 'Spring 1901,
    movement'), else 'turn 3', 'turn 1, round 2'; 'the setup' for turn None or 0. The one
    way pbem names a turn: subjects, reports, HISTORY, late replies and the archive."""
    if not turn:
        return _("the setup")
    named = getattr(game, "turn_words", None)
    if named is not None:
        return named(turn, round_)
    if round_:
        return _("turn {turn}, round {round}").format(turn=turn, round=round_)
    return _("turn {turn}").format(turn=turn)


def initials(name: str) -> str:
    """A turn's name as players shorten it: each word's first letter, numbers whole
    ("Spring 1901, movement": "S1901M"). HISTORY reads it back."""
    return "".join(word if word.isdigit() else word[:1].upper()
                   for word in re.findall(r"\w+", name))


def narrate_lateness(p: dict) -> str | None:
    """Who sent no orders, and who fell into civil disorder for it."""
    lines = []
    if p["late"]:
        lines.append(_("No orders came from {seats}: default orders were used.").format(
            seats=", ".join(p["late"])))
    for seat in p["disorder"]:
        lines.append(_("{seat} has sent no orders for several turns in a row and is in civil "
                       "disorder: the referee may give the seat to a new player.").format(
                           seat=seat))
    return " ".join(lines) or None


def narrate_press(p: dict) -> str:
    """A press message, as its sender and recipients read it in their history (see as_seen)."""
    to = ", ".join(p["to"])
    if p["anonymous"] and not to:
        return _("Your anonymous answer to an anonymous press: {text}").format(text=p["text"])
    if p["anonymous"]:
        return _("Anonymous press to {to}: {text}").format(to=to, text=p["text"])
    return _("Press from {sender} to {to}: {text}").format(sender=p["from"], to=to,
                                                             text=p["text"])


def as_seen(event: Event, viewer) -> Event:
    """An event as `viewer` (a seat, None for the public, REFEREE) may read it.

    Anonymous press names its sender to nobody but the referee: a recipient
    reads it as sent to itself alone, and the sender of an answer to
    anonymous press (``answers``: that press's seq) does not learn whom it
    went to. Every other event is read as it was recorded.
    """
    p = event.payload
    if event.type != "press" or not p["anonymous"] or viewer == REFEREE:
        return event
    seen = {key: value for key, value in p.items() if key not in ("from", "to")}
    if viewer == p["from"]:
        seen.update({"from": viewer, "to": [] if p.get("answers") else p["to"]})
    else:
        seen["to"] = [viewer]
    return Event(event.type, seen, [viewer])


def after_resolution(game, state: dict, now: str, seed: str, since: str | None = None
                     ) -> list[Event]:
    """game_over (revealing the seed) if the game has ended, else what opens next (see
    opening; `since`: the deadline of the phase resolved, see open_phase)."""
    result = game.outcome(state["game"])
    if result is not None:
        return [public("game_over", result=result, seed=seed)]
    return opening(game, state, now, seed, since)


def grace(state: dict, now: str) -> Event | None:
    """The grace a phase gets when its deadline passes with orders still missing
    (``grace_hours``): its deadline moved that much later, once, the deadline that passed
    kept for the next phase to count from. None when the game has no grace, it was given
    already, or it would end in the past."""
    engine, hours = state["engine"], setting(state, "grace_hours")
    if not hours or "grace" in engine or not engine["deadline"]:
        return None
    deadline = later(engine["deadline"], hours)
    if deadline <= now:
        return None
    event = deadline_moved(state, deadline)
    return public(event.type, **event.payload, grace=engine["deadline"])


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


def past_absences(engine: dict, deadline: str, seats) -> str:
    """The deadline, moved to the end of every absence of these seats that it falls in."""
    moved = True
    while moved:
        moved = False
        for seat in sorted(seats):
            for away in engine.get("absences", {}).get(seat, []):
                if away["start"] <= deadline < away["end"]:
                    deadline, moved = away["end"], True
    return deadline


def paused(state: dict, reason: str, now: str) -> Event:
    """The referee stops the clock: the time left before the deadline and the reminder."""
    engine = state["engine"]
    left = remind = None
    if engine["deadline"]:
        left = max(0, seconds_between(now, engine["deadline"]))
    if engine["remind_at"] and engine["remind_at"] > now:
        remind = seconds_between(now, engine["remind_at"])
    return public("game_paused", phase=engine["phase"], reason=reason, left=left, remind=remind)


def resumed(state: dict, now: str) -> Event:
    """The clock runs again: the deadline is now plus the time that was left (past absences)."""
    engine = state["engine"]
    held = engine["paused"]
    deadline = remind = None
    if held["left"] is not None:
        deadline = past_absences(engine, after_seconds(now, held["left"]), engine["requests"])
        if held["remind"] is not None:
            remind = min(after_seconds(now, held["remind"]), deadline)
    return public("game_resumed", phase=engine["phase"], deadline=deadline, remind_at=remind)


def lateness(game, state: dict, orders_set: dict) -> Event | None:
    """After a phase: who sent nothing (and who falls into civil disorder), who came back.

    `orders_set` is the payload of the phase's orders_set event. A seat that
    conceded is not late; `disorder_turns` silent phases in a row put a seat in
    civil disorder, until it sends orders again or a new player takes it. The
    event is public, unless the game keeps who is asked private: then it is
    the referee's.
    """
    engine = state["engine"]
    asked = sorted(seat for seat in orders_set["orders"] if seat != REFEREE)
    conceded = engine.get("conceded", [])
    late = [seat for seat in asked if seat in orders_set["defaulted"] and seat not in conceded]
    silent, disorder = engine.get("silent", {}), engine.get("disorder", [])
    back = [seat for seat in asked if seat not in orders_set["defaulted"]
            and (silent.get(seat) or seat in disorder)]
    limit = setting(state, "disorder_turns")
    falling = [seat for seat in late if limit and seat not in disorder
               and silent.get(seat, 0) + 1 >= limit]
    if not (late or back):
        return None
    payload = {"phase": orders_set["phase"], "late": late, "answered": back,
               "disorder": falling}
    return Event("seats_late", payload, REFEREE if private_requests(game, state) else ALL)


def survivors(game, state: dict) -> list[str]:
    """The seats still playing (whose votes a draw needs): the game's own list when it
    gives one (``survivors(state)``), else every seat; never a seat that conceded."""
    named = getattr(game, "survivors", None)
    seats = named(state["game"]) if named else state["engine"]["seats"]
    return sorted(seat for seat in seats if seat not in state["engine"].get("conceded", []))


def draw_vote(game, state: dict, seat: str, seed: str) -> list[Event]:
    """A seat's DRAW (a first vote, or one cast again): its vote, and the drawn game
    (revealing the seed) when every seat still playing agrees.

    The votes stand until each seat still playing that has not voted (its
    `unasked`) has been asked in a phase opened after the last vote (see
    draw_heard): in a game of sequential turns, a full round. Each vote starts
    that time again, so a vote cast again is never lost to an earlier one's lapse.
    """
    engine = state["engine"]
    votes = sorted(set(engine.get("draw", {}).get("votes", [])) | {seat})
    voted = public("draw_voted", phase=engine["phase"], seat=seat, votes=votes,
                   unasked=sorted(set(survivors(game, state)) - set(votes)))
    agreed = draw_agreed(game, fold(game, [voted], state), seed)
    return [voted] + ([agreed] if agreed else [])


def lapsed_votes(before: dict, after: dict) -> list[str]:
    """The seats whose vote for a draw stood in the state `before` and no longer does
    `after` (it lapsed, or a rollback undid it), while the game goes on."""
    if after["engine"]["over"]:
        return []
    standing = after["engine"].get("draw", {}).get("votes", [])
    return [seat for seat in before["engine"].get("draw", {}).get("votes", [])
            if seat not in standing]


def draw_agreed(game, state: dict, seed: str) -> Event | None:
    """game_drawn (revealing the seed) when every seat still playing has voted for a draw
    this turn, else None. A "draw" of one seat is that seat's win (see sole_survivor)."""
    votes = state["engine"].get("draw", {}).get("votes", [])
    standing = survivors(game, state)
    if not votes or not standing or not set(standing) <= set(votes):
        return None
    if len(standing) == 1:
        return sole_survivor(game, state, seed)
    return public("game_drawn", seats=standing, seed=seed,
                  reason=Said("a draw agreed by every seat still playing").stored())


def sole_survivor(game, state: dict, seed: str) -> Event | None:
    """game_conceded (revealing the seed) when one seat alone still plays, the others having
    conceded (or being out of the game): it wins. Else None."""
    standing = survivors(game, state)
    if len(standing) != 1:
        return None
    return public("game_conceded", winner=standing[0], seed=seed,
                  reason=Said("every other seat conceded or is out").stored())


def rollback(phase: int, to_seq: int, reason: str, earlier: dict, told=(0, None)
             ) -> list[Event]:
    """Reopen `phase` from the state after event `to_seq` (the state before it opened).

    The announcement is public and names the phase as the seats' mails did
    (`told`: its turn and round). The state it returns to (secrets and all) is
    the referee's.
    Replay checks that state against the log's own hash after `to_seq`, so a
    rollback cannot bring back a state the game never had.
    """
    return [public("phase_rolled_back", phase=phase, to_seq=to_seq, reason=reason,
                   told=list(told)),
            secret("state_restored", state=earlier)]


def undone(rows) -> set[int]:
    """The seqs of the events a rollback among `rows` undid (a game's event rows, in order)."""
    rows = list(rows)
    spans = undone_spans(rows)
    return {row["seq"] for row in rows if is_undone(spans, row)}


def undone_spans(rows) -> list[tuple[int, int]]:
    """(returned to, rolled back at) for every phase_rolled_back row among `rows`."""
    return [(row["payload"]["to_seq"], row["seq"]) for row in rows
            if row["type"] == "phase_rolled_back"]


def is_undone(spans, row) -> bool:
    """Did a rollback undo this event row? Events about the table are never undone."""
    return row["type"] not in TABLE_EVENTS and any(start < row["seq"] < end
                                                   for start, end in spans)


def live_phases(rows: list[dict]) -> dict:
    """{phase: {"opened", "requests", "start": seq of its phase_opened, "closed": seq of its
    orders_set, "end": seq of the event that opened what came next}} for the phases a
    rollback did not undo."""
    gone = undone(rows)
    phases, current = {}, None
    for row in rows:
        if row["seq"] in gone:
            continue
        if row["type"] in ("phase_opened", *ENDINGS) \
                and current is not None and phases[current]["closed"]:
            phases[current]["end"] = row["seq"]
        if row["type"] == "phase_opened":
            current = row["payload"]["phase"]
            phases[current] = {"opened": row["payload"]["opened"], "start": row["seq"],
                               "requests": row["payload"]["requests"], "closed": None,
                               "end": None}
        elif row["type"] == "orders_set" and current is not None:
            phases[current]["closed"] = row["seq"]
    return phases


def deadline_moved(state: dict, deadline: str, seat: str | None = None) -> Event:
    """The open turn's deadline set to `deadline`, at a seat's SLOW or (seat None) by the referee."""
    engine = state["engine"]
    remind = later(deadline, -engine["timing"]["reminder_hours"])
    return public("deadline_extended", phase=engine["phase"], seat=seat, deadline=deadline,
                  remind_at=remind)
