"""Diplomacy for the engine: the state, the reducer, who is asked what, and each phase.

The game's state is plain data::

    {"powers": {"england": "ann", "italy": None, ...},   # who plays each power
     "position": {...},           # the position of the phase under way (position.py)
     "last_year": 1910 | None,    # --option years: the game ends after this year's Fall
     "adjust_hours": 24 | None,   # --option adjust_hours: retreats' and winters' length
     "resolved": {"phases": [{"year", "season", "phase"}], "results": [...], "asked": bool},
                                  # the orders of the phases resolved since a phase last asked
                                  # someone, with their results: what the board draws
     "result": None | {"winners": [powers], "reason": "solo" | "years",
                       "centres": {power: count}}}

A phase resolves into public events, each told in the reports: every
power's orders with their results (``orders_resolved``), the units
dislodged and where they may go (``dislodged``), the provinces a standoff
left empty (``standoffs``), once each Fall is over the supply centres
that changed hands (if any) and every power's count (``centres_changed``),
then ``phase_begun`` with the next position (marked ``final`` when the game
ends there), and ``game_won`` or ``game_ended`` when the game is over. A phase that asks no
seat anything (a retreat or a winter of powers nobody plays) is resolved at
once, with the phase before it.
"""

from pbem.adjudicator.contract import Request, public
from pbem.adjudicator.scratch import Scratch
from pbem.i18n import N_, _

from . import adjustments, movement, retreats
from .board import board
from .orders import read_orders
from .position import adjustment, centre_count, powers_units, winner

RESOLVERS = {"movement": movement.resolve, "retreat": retreats.resolve,
             "adjustment": adjustments.resolve}
SEASONS = {"spring": N_("Spring"), "fall": N_("Fall"), "winter": N_("Winter")}
PROMPTS = {
    "movement": N_("{season} {year}: orders for your units"),
    "retreat": N_("{season} {year}: retreats of your dislodged units"),
    "adjustment": N_("{season} {year}: your builds or removals"),
}


def apply(state: dict, event) -> dict:
    """Fold one Diplomacy event into the state; the others only tell what happened."""
    p = event.payload
    if event.type == "setup":
        return {"powers": dict(p["powers"]), "position": p["position"],
                "last_year": p["last_year"], "adjust_hours": p["adjust_hours"],
                "result": None}
    if event.type == "orders_resolved":
        shown(state, p)
    elif event.type == "phase_begun":
        state["position"] = p["position"]
        if "resolved" in state:
            state["resolved"]["asked"] = bool(pending(state))
    elif event.type == "game_won":
        state["result"] = {"winners": [p["power"]], "reason": "solo", "centres": p["centres"]}
    elif event.type == "game_ended":
        state["result"] = {"winners": p["leaders"], "reason": p["reason"],
                           "centres": p["centres"]}
    return state


def shown(state: dict, p: dict) -> None:
    """Keep a power's results for the board: those of the phases resolved at once, since
    the last phase that asked someone (a Spring's moves and the retreats nobody could
    make are drawn together)."""
    resolved = state.get("resolved")
    if resolved is None or resolved["asked"]:
        resolved = state["resolved"] = {"phases": [], "results": [], "asked": False}
    when = {"year": p["year"], "season": p["season"], "phase": p["phase"]}
    if when not in resolved["phases"]:
        resolved["phases"].append(when)
    resolved["results"] += [{"power": p["power"], **result} for result in p["results"]]


def seat_powers(state: dict, seat: str) -> list:
    """The powers a seat plays, in the map's order."""
    return [power for power, player in state["powers"].items() if player == seat]


def teams(state: dict) -> dict:
    """The powers a PRESS may name, each by its English and French names and its
    three-letter code ("PRESS France", "PRESSE Turquie", "PRESS FRA, ENG"): {name: [the
    seat playing it]}. A power nobody plays is no one to write to."""
    out = {}
    for key, power in board().powers.items():
        seat = state["powers"][key]
        if seat:
            for name in (power.name, power.french, power.name[:3].upper()):
                out[name] = [seat]
    return dict(sorted(out.items()))


def acts(state: dict, power: str) -> bool:
    """Has this power something to order in the phase under way?"""
    position = state["position"]
    if position["phase"] == "movement":
        return bool(powers_units(position, power))
    if position["phase"] == "retreat":
        return any(u["power"] == power and u["retreats"]
                   for u in position["dislodged"].values())
    owed = adjustment(position, power)
    return owed < 0 or owed > 0 and bool(free_homes(state, power))


def free_homes(state: dict, power: str) -> list:
    """The home supply centres a power owns with no unit in them: where it may build."""
    position = state["position"]
    return [p for p in board().powers[power].home
            if position["centres"].get(p) == power and p not in position["units"]]


def pending(state: dict) -> dict:
    """Every seat with a power that has something to order in this phase."""
    if state["result"]:
        return {}
    position = state["position"]
    hours = state["adjust_hours"] if position["phase"] != "movement" else None
    asked = {}
    for power, seat in state["powers"].items():
        if seat and acts(state, power):
            asked[seat] = Request("orders", prompt(position), hours)
    return asked


def prompt(position: dict) -> str:
    """What a phase asks, in the current language: "Spring 1901: orders for your units"."""
    asked, season = PROMPTS[position["phase"]], SEASONS[position["season"]]
    return _(asked).format(season=_(season), year=position["year"])


def parse(state: dict, seat: str, text: str) -> tuple:
    """A seat's orders for the phase ({power: [order, ...]}) and an error for each line
    that cannot be one (orders.py)."""
    return read_orders(board(), state["position"], seat_powers(state, seat), text)


def order_keys(state: dict, seat: str, text: str) -> dict:
    """What each line of a seat's orders gives an order for, as the judges count it: {line
    number: [the provinces of the units it orders, or of its builds; "WAIVE" and the power
    for a waive]}. A line that gives no order has none: a new mail replaces the orders of
    the units it names, and the others stand."""
    powers = seat_powers(state, seat)
    keys = {}
    for number, line in enumerate(text.splitlines(), 1):
        orders, errors = read_orders(board(), state["position"], powers, line)
        if not errors:
            keys[number] = [f"WAIVE {power}" if order["type"] == "waive" else
                            order["at"].partition("/")[0]
                            for power, given in orders.items() for order in given]
    return {number: found for number, found in keys.items() if found}


def default_orders(state: dict, seat: str) -> dict:
    """A silent seat gives no order: its units hold, its dislodged units are disbanded, it
    builds nothing, and removes by civil disorder (adjustments.py)."""
    return {}


def resolve(state: dict, orders: dict, rng) -> list:
    """The phase resolved with the orders of every seat asked ({seat: {power: [order]}}),
    then every phase after it that asks nobody anything."""
    scratch = Scratch(state, apply, rng)
    given = {}
    for seat, mine in sorted(orders.items()):
        for power, lines in sorted(mine.items()):
            if state["powers"].get(power) == seat:
                given[power] = lines
    resolve_phase(scratch, given)
    while scratch.state["result"] is None and not pending(scratch.state):
        if scratch.state["position"]["phase"] == "movement":
            scratch.emit(ending(scratch.state, "nobody"))
            break
        resolve_phase(scratch, {})
    return scratch.events


def resolve_phase(scratch: Scratch, given: dict) -> None:
    """One phase: each power's results, the dislodged units, the standoffs, the centres that
    changed hands, the next position, and the end of the game if it has come."""
    the_board, state = board(), scratch.state
    position = state["position"]
    report = RESOLVERS[position["phase"]](the_board, position, given)
    when = {"year": position["year"], "season": position["season"], "phase": position["phase"]}
    for power in the_board.powers:
        results = [{k: v for k, v in r.items() if k != "power"}
                   for r in report["results"] if r["power"] == power]
        if results:
            scratch.emit(public("orders_resolved", power=power, seat=state["powers"][power],
                                results=results, **when))
    if report.get("dislodged"):
        scratch.emit(public("dislodged", units=report["dislodged"], **when))
    if report.get("contested"):
        scratch.emit(public("standoffs", provinces=report["contested"], **when))
    after = report["position"]
    if position["season"] == "fall" and after["season"] != "fall":
        scratch.emit(public("centres_changed", year=position["year"],
                            changes=centre_changes(position["centres"], after["centres"]),
                            centres={p: centre_count(after, p) for p in the_board.powers}))
    solo = winner(the_board, after)
    last = state["last_year"]
    over = solo or last is not None and (after["year"] > last or after["season"] == "winter"
                                         and after["year"] == last)
    scratch.emit(public("phase_begun", position=after, **({"final": True} if over else {})))
    if solo:
        scratch.emit(public("game_won", power=solo, seat=state["powers"][solo],
                            centres={p: centre_count(after, p) for p in the_board.powers}))
    elif over:
        scratch.emit(ending(scratch.state, "years"))


def centre_changes(before: dict, after: dict) -> list:
    """[{"centre", "from", "to"}] for each supply centre that changed hands (from None when
    it was neutral), by centre."""
    return [{"centre": c, "from": before.get(c), "to": after[c]}
            for c in sorted(after) if before.get(c) != after[c]]


def ending(state: dict, reason: str):
    """game_ended: the game stops here (the last year played, or no seat left to order
    anything); the powers with the most supply centres lead."""
    position = state["position"]
    centres = {p: centre_count(position, p) for p in board().powers}
    most = max(centres.values())
    return public("game_ended", reason=reason, year=position["year"], centres=centres,
                  leaders=[p for p, n in centres.items() if n == most])


def outcome(state: dict) -> dict | None:
    """The winning seats (the power with 18 centres; or, when the last year is played, the
    powers with the most), every seat's supply centres as its score."""
    result = state["result"]
    if result is None:
        return None
    scores = {}
    for power, seat in state["powers"].items():
        if seat:
            scores[seat] = scores.get(seat, 0) + result["centres"][power]
    winners = sorted({state["powers"][p] for p in result["winners"] if state["powers"][p]})
    return {"winners": winners, "scores": dict(sorted(scores.items())),
            "reason": result["reason"]}


def survivors(state: dict) -> list:
    """The seats still in the game: those with a power that owns a supply centre or has a
    unit. Only they vote on a DRAW."""
    position = state["position"]
    alive = set(position["centres"].values()) | {u["power"] for u in position["units"].values()}
    return sorted({seat for power, seat in state["powers"].items() if seat and power in alive})


# A year's phases in order: a turn's number is the year's five phases counted from year 0.
YEAR = (("spring", "movement"), ("spring", "retreat"), ("fall", "movement"),
        ("fall", "retreat"), ("winter", "adjustment"))


def turn_of(state: dict) -> tuple:
    """The turn a mail names: each phase of each year is one (turn_words names it). No
    rounds."""
    position = state["position"]
    return position["year"] * len(YEAR) + YEAR.index((position["season"],
                                                       position["phase"])), None
