"""What a game is, for the engine.

A game is a module (``pbem.games.<name>``) exposing plain, pure functions.
None of them does I/O, reads the clock or uses global randomness; the random
stream arrives as an argument.

    TITLE                               human name of the game (marked N_, translated for seats)
    OPTIONS = {name: help}              the game's own --option keys (the engine adds
                                        turn_hours, reminder_hours, slow)
    setup(options, seats, rng, position=None) -> list[Event]
    apply(state, event) -> state        the reducer (may update state in place)
    pending(state) -> {seat: Request}   who must answer now, and what
    parse(state, seat, text) -> (orders, errors)   errors: OrderError, a line of chat
                                        marked a remark (spelling.aside)
    resolve(state, orders, rng) -> list[Event]   orders = {seat: orders}
    default_orders(state, seat) -> orders        what a silent seat does
    view(state, seat | None) -> dict    what that seat may see; None = public
    outcome(state) -> None | dict       {"winners": [...], "scores": {...}, "reason": str}
    describe_orders(state, seat, orders) -> list[str]   orders in plain words
    narrate(event, state) -> str | None one event as a sentence for reports, for the seat
                                        that reads it (pbem.i18n.reader(); None: the public);
                                        `state`: the game's state now, which names its
                                        places (None: told without it)
    board_text(view) -> str             the board as monospace text
    svg_context(view) -> dict           what the game's board.svg.j2 draws (see
                                        docs/architecture.md, "Boards in layers")
    own_area(view) -> [(x, y)]          the points of the board (SVG units) that are the
                                        viewing seat's own (its pieces, its home): what
                                        its close-up shows; [] for the public view
    timing(options) -> dict             engine defaults this game prefers
    EDITION = n                         (optional) the edition of the game's rules new games
                                        are set up under (default 1); setup finds it in
                                        options["edition"] when it is not the first, keeps it
                                        in its state, and the rules ask it which way to go
                                        (pbem/adjudicator/editions.py)
    POSITION_KEYS = (...)               (optional) the keys of a position file's top table
                                        (docs/positions.md): the engine refuses any other
                                        by name before setup reads the position
    bot_orders(state, seat, rng) -> str a legal order mail, for demos and tests
    BRIEF_UPDATES = True                (optional) reports to seats asked nothing omit the board
    SEAT_BOARDS = True                  (optional) each seat's board is drawn from its own
                                        view (fog of war), not from the public one
    controller(state, seat) -> str|None (optional) the seat whose mails give this seat's
                                        orders (a vassal's overlord); None: its own
    private_requests(state) -> bool     (optional) True: who is asked what is known only to
                                        the seats asked (fog of war); the phase_opened
                                        event is then the referee's alone
    RULING_WORDS = {key: N_(word)}      (optional) the words a reader sees for the keys and
                                        values of the game's rulings (see rulings.py)
    RESULT_REASONS = {key: N_(words)}   (optional) what a result's reason says, when
                                        outcome gives it as a plain key ("judged")
    bot_ruling(state, request, rng)     (optional) (values, reasons): a scripted referee's
                                        ruling, for demos and tests
    teams(state) -> {team: [seats]}     (optional) the groups of seats a PRESS may name,
                                        each under every name players write for it: teams
                                        (Auguste's Caesar, Pompey...) or the roles seats
                                        play (Diplomacy's powers: France, Turquie, FRA);
                                        without it PRESS takes a seat or ALL
    order_keys(state, seat, text)       (optional) {line: [keys]}: what each line of a
                                        seat's orders gives an order for (Diplomacy: a unit,
                                        by its province). A game that has it keeps the
                                        orders on file for what a new mail does not order
                                        again (the judges' way; CLEAR withdraws them all);
                                        without it a new mail replaces the whole set
    survivors(state) -> [seats]         (optional) the seats still playing, whose votes a
                                        DRAW needs (a seat that conceded never counts);
                                        without it, every seat
    roles(options, count) -> {seat: [words]}  (optional) the seats of a game of `count`
                                        players when each is named for its role (Diplomacy's
                                        powers: "france"; "austria-france" for a seat that
                                        plays two), with the words (lower case) a player asks
                                        for it by; setup gives a seat so named its role. An
                                        open game deals them (see pbem/signup.py); {} or
                                        without it, its players' seats take the names they
                                        choose
    turn_of(state) -> (turn, round)     (optional) the numbers a mail's subject names: the
                                        turn (None before the first: the setup) and the
                                        round within it when its phase repeats (rounds.py;
                                        None otherwise). Late replies and HISTORY name turns
                                        the same way. Without it, the public view's "turn",
                                        else the phase's number
    turn_words(turn, round) -> str      (optional) a turn's name as players say it, in the
                                        current language, from turn_of's numbers alone
                                        ("Spring 1901, movement"); subjects, reports,
                                        HISTORY, late replies and the archive say it
                                        (engine.told_words). Without it, "turn 3"

``pending`` may ask the referee (key ``REFEREE``) or a seat for a *ruling*
(``Request(kind="ruling", ...)``): see ``pbem/adjudicator/rulings.py``. A
phase that asks only the referee has no deadline: it waits for
``pbem ruling``.

Events are :class:`Event` values. ``visible_to`` is ``"all"``, ``"referee"``
or a sorted list of seat names.
"""

from dataclasses import dataclass, field
import json
import marshal


ALL = "all"
REFEREE = "referee"


@dataclass(frozen=True)
class Event:
    """One immutable fact in a game's log."""

    type: str
    payload: dict = field(default_factory=dict)
    visible_to: object = ALL

    def to_dict(self) -> dict:
        """The event as plain data."""
        return {"type": self.type, "payload": self.payload, "visible_to": self.visible_to}

    def visible(self, seat) -> bool:
        """May this seat (None = the public, "referee" = the referee) see it?"""
        if seat == REFEREE or self.visible_to == ALL:
            return True
        if self.visible_to == REFEREE or seat is None:
            return False
        return seat in self.visible_to


def public(type_: str, **payload) -> Event:
    """An event everybody sees."""
    return Event(type_, payload, ALL)


def private(seats, type_: str, **payload) -> Event:
    """An event only the given seats (and the referee) see."""
    return Event(type_, payload, sorted(set(seats)))


def secret(type_: str, **payload) -> Event:
    """An event only the referee sees."""
    return Event(type_, payload, REFEREE)


@dataclass(frozen=True)
class Request:
    """What the engine asks of one seat (or of the referee) in the current phase.

    ``kind`` names the answer expected ("orders", "bid", "seer", "confirm",
    "ruling"); ``hours``, when set, overrides the game's turn length for this
    phase; ``prompt`` is a short sentence for the player. A ruling request
    also gives ``choices`` (each value the ruling may set, and the words it
    may take, or ``[]`` for any number or word), ``concerns`` (the seats
    that are told the ruling) and, when the one who rules needs them,
    ``facts``: what it should know to rule, a sentence each (in English, for
    the referee: what each side of a dispute reported, say).
    """

    kind: str = "orders"
    prompt: str = ""
    hours: float | None = None
    choices: dict | None = None
    concerns: list | None = None
    facts: list | None = None

    def to_dict(self) -> dict:
        """The request as plain data (the ruling fields only when set)."""
        out = {"kind": self.kind, "prompt": self.prompt, "hours": self.hours}
        if self.choices is not None:
            out["choices"] = self.choices
        if self.concerns is not None:
            out["concerns"] = sorted(self.concerns)
        if self.facts is not None:
            out["facts"] = list(self.facts)
        return out


@dataclass(frozen=True)
class OrderError:
    """One line of a mail pbem could not accept, and why.

    ``remark`` marks a line that is no order and close to none (chat: "Great
    game last night, Bea!"), found with ``spelling.aside``: the seat's answer
    lists it as a remark, set aside, and it holds no turn up. Every other
    refused line is an error the seat must correct.
    """

    line: int
    text: str
    message: str
    remark: bool = False

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"

    def to_dict(self) -> dict:
        """The error as plain data (``remark`` only when set)."""
        out = {"line": self.line, "text": self.text, "message": self.message}
        if self.remark:
            out["remark"] = True
        return out


class SetupError(ValueError):
    """A game cannot be created with these options, seats or position."""


def canonical(data) -> str:
    """JSON with sorted keys and no spaces: the byte form we hash and compare."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def plain_copy(data):
    """A deep copy of plain JSON data (dicts, lists, text, numbers), keys in the same order.

    Several times faster than copy.deepcopy, which matters where every turn
    of a long game copies its state (a turn's scratch board, replay).
    """
    return marshal.loads(marshal.dumps(data))
