"""The only orchestration with side effects: new games, orders, ticks, replay.

Every change is one short transaction: load the game's state inside it, append
events with the state hash after each, move the game's due times, queue the
mails that report the change, save a snapshot. A crash leaves all of a step or
none of it, and running the step again is safe.

The letters (templates, boards) are imported by the steps that write mail,
not with this module: a tick with nothing due never loads them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
import json
import math
import os
import secrets
from typing import TYPE_CHECKING

import pbem.games

from .adjudicator import engine
from .adjudicator.contract import REFEREE, SetupError, plain_copy
from .adjudicator.options import MAX_HOURS
from .adjudicator.rulings import missing, value_problem
from . import outages
from .digest import digest, next_time as digest_time
from .errors import PbemError, ServerDown, TryLater
from .i18n import counted, normal_language, speaking
from .identity import new_token
from .locks import job_lock
from .newgame import SeatSpec, check_new_game, game_language, ruleset_module
from .receipts import receipt
from .store import Store, row_event
from .timeutil import iso, later, parse_time

if TYPE_CHECKING:
    from .letters import Table

MAX_PHASES_PER_TICK = 50
@dataclass
class TickReport:
    """What one tick did, and what it could not do."""

    mails_read: int = 0
    started: list = field(default_factory=list)
    phases: dict = field(default_factory=dict)
    reminders: int = 0
    published: list = field(default_factory=list)
    sent: int = 0
    failed: int = 0
    later: int = 0
    problems: list = field(default_factory=list)
    error: str | None = None
    exit_code: int = 0
    down: ServerDown | None = None   # the mail server that failed, when it is to be said
    quiet: bool = False              # the failure is an outage said already (pbem/outages.py)
    recovered: str | None = None     # the line that says an outage is over

    def lines(self) -> list[str]:
        """What was done, as short lines for the terminal."""
        out = [f"mails read: {self.mails_read}"]
        out += [f"game {g}: started with the players who joined" for g in self.started]
        out += [f"game {g}: {counted(n, 'phase')} resolved" for g, n in sorted(self.phases.items())]
        out += [f"reminders: {self.reminders}", f"mails sent: {self.sent}"]
        if self.published:
            out.append(f"archive rewritten for {', '.join(self.published)}")
        if self.failed:
            out.append(f"mails failed: {self.failed} (see pbem outbox)")
        return out

    def trouble(self) -> list[str]:
        """What went wrong, one line each, for standard error; an outage said already is
        not said again (but once a day, and when it ends)."""
        said = self.error and not self.quiet
        note = outages.NOTE if self.down else ""
        return self.problems + ([f"mail not sent: {self.error}{note}"] if said else []) + \
            ([self.recovered] if self.recovered else [])

    def as_dict(self) -> dict:
        """The report as plain data (pbem tick --json)."""
        return {"mails_read": self.mails_read, "phases": dict(sorted(self.phases.items())),
                "reminders": self.reminders, "sent": self.sent, "failed": self.failed,
                "retrying": self.later, "problems": self.trouble(), "exit_code": self.exit_code,
                "started": self.started, "published": self.published}

    def sending(self, done) -> None:
        """Take in what sending the outbox did; set the exit code it calls for."""
        self.sent, self.failed, self.later = done.sent, done.failed, done.later
        self.problems = list(done.problems)
        if done.stopped is not None:
            self.error = str(done.stopped)
            self.exit_code = done.stopped.exit_code
        elif self.failed:
            self.exit_code = PbemError.exit_code
        elif self.later:
            self.exit_code = TryLater.exit_code


class Referee:
    """pbem's operations on one database, with one set of settings."""

    def __init__(self, store: Store, config):
        self.store = store
        self.config = config

    # ------------------------------------------------------------ loading

    def game_row(self, game_id: str) -> dict:
        """The games row; PbemError if there is no such game."""
        row = self.store.game(game_id)
        if row is None:
            raise PbemError(f"no game called {game_id!r} (see pbem list)")
        return row

    def table(self, game_id: str, row: dict | None = None) -> Table:
        """The game's row, module and current state (snapshot plus newer events).

        `row` is the games row when the caller read it already in this transaction.
        """
        from . import letters
        row = row or self.game_row(game_id)
        game = pbem.games.load(row["ruleset"])
        snap = self.store.snapshot(game_id)
        state = snap["state"] if snap else None
        after = snap["seq"] if snap else 0
        events = [row_event(r) for r in self.store.event_rows(game_id, after=after)]
        if events or state is None:
            state = engine.fold(game, events, state)
        return letters.Table(self, row, game, state)

    def record(self, table: Table, events, now: str) -> Table:
        """Append events to a game inside the current transaction; return the new table."""
        from . import letters
        game, state = table.game, plain_copy(table.state)
        hashes = []
        for event in events:
            state, digest = engine.step(game, state, event)
            hashes.append(digest)
        game_id = table.game_row["id"]
        self.store.append_events(game_id, events, hashes, now)
        eng = state["engine"]
        self.store.update("games", {"id": game_id}, {
            "status": "over" if eng["over"] else "running",
            "phase": eng["phase"],
            "deadline": eng["deadline"],
            "remind_at": eng["remind_at"],
        })
        self.store.save_snapshot(game_id, self.store.game(game_id)["last_seq"], state)
        return letters.Table(self, self.store.game(game_id), game, state)

    # ------------------------------------------------------------ new game

    def new_game(self, ruleset: str, game_id: str, seats: list[SeatSpec], now: str,
                 options: dict | None = None, seed: str | None = None,
                 position: dict | None = None) -> str:
        """Create a game, mail every seat its welcome, and open the first phase."""
        with self.store.transaction():
            return self.create_game(ruleset, game_id, seats, now, options, seed, position)

    def create_game(self, ruleset: str, game_id: str, seats: list[SeatSpec], now: str,
                    options: dict | None = None, seed: str | None = None,
                    position: dict | None = None) -> str:
        """`new_game` inside the caller's transaction (an open game that starts)."""
        from . import letters
        from .mail.compose import message_id
        now = iso(parse_time(now))
        game = ruleset_module(ruleset)
        check_new_game(game_id, seats)
        options = dict(options or {})
        default_lang = game_language(options.pop("lang", "en"))
        waiting = self.store.open_game(game_id)
        if self.store.game(game_id) or (waiting and waiting["status"] == "open"):
            raise PbemError(f"there is already a game called {game_id!r}")
        seed = seed or secrets.token_hex(16)
        domain = self.config["address"].partition("@")[2] or "localhost"
        try:
            with speaking("en"):  # the log is written in English, whoever is reading
                events = engine.creation_events(game, game_id, ruleset, options,
                                                [s.name for s in seats], seed, position)
                state = engine.fold(game, events)
                events.append(engine.open_phase(game, state, now))
        except SetupError as problem:
            raise PbemError(str(problem)) from None
        self.store.insert("games", {"id": game_id, "ruleset": ruleset, "seed": seed,
                                    "created_at": now})
        for position_index, seat in enumerate(seats):
            self.store.insert("seats", {
                "game": game_id, "name": seat.name, "position": position_index,
                "email": seat.email.lower(), "token": new_token(), "tz": seat.tz,
                "lang": normal_language(seat.lang) if seat.lang else default_lang,
                "player": seat.player,
                "thread_id": message_id(domain, f"{game_id}.{seat.name}", seed,
                                        ["thread", seat.name]),
            })
        blank = letters.Table(self, self.store.game(game_id), game, engine.new_state())
        table = self.record(blank, events, now)
        letters.welcome(table, self.store.seats(game_id), now)
        letters.ask_referee(table, now)
        return game_id

    # ------------------------------------------------------------ phases

    def due_games(self, now: str) -> list[str]:
        """Games with something to do at `now`: new orders, a deadline, a reminder."""
        rows = self.store.all(
            "SELECT id FROM games WHERE status = 'running' AND deadline <= ? "
            "UNION SELECT id FROM games WHERE status = 'running' AND dirty = 1 "
            "UNION SELECT id FROM games WHERE status = 'running' AND remind_at <= ? "
            "AND reminded_phase < phase ORDER BY id", [now, now])
        return [row["id"] for row in rows]

    def settled(self, table: Table, seat: dict, given: dict | None = None) -> bool:
        """Has this seat said READY, or sent orders without errors, for the open phase?

        `given`: the phase's current submissions, when read already (see
        current_submissions)."""
        phase = table.state["engine"]["phase"]
        if seat["ready_phase"] == phase:
            return True
        if given is None:
            sub = self.current_submission(table.game_row["id"], seat["name"], phase)
        else:
            sub = given.get(seat["name"])
        return sub is not None and sub["errors"] == "[]"

    def ready(self, table: Table) -> bool:
        """Has every pending seat sent error-free orders (or READY), and nobody WAIT?

        A ruling asked of the referee is ready once the referee has given it; a
        seat that conceded never holds a turn up.
        """
        phase = table.state["engine"]["phase"]
        seats = {s["name"]: s for s in self.store.seats(table.game_row["id"])}
        given = self.current_submissions(table.game_row["id"], phase)
        for name in table.state["engine"]["requests"]:
            if name == REFEREE:
                if REFEREE not in given:
                    return False
                continue
            if name in table.state["engine"].get("conceded", []):
                continue
            seat = seats[name]
            if seat["wait_phase"] == phase or not self.settled(table, seat, given):
                return False
        return True

    def current_submission(self, game_id: str, seat: str, phase: int) -> dict | None:
        """The seat's latest orders for a phase, or None."""
        return self.store.one(
            "SELECT * FROM submissions WHERE game = ? AND seat = ? AND phase = ? "
            "AND status = 'current' ORDER BY id DESC LIMIT 1", [game_id, seat, phase])

    def current_submissions(self, game_id: str, phase: int) -> dict:
        """Every seat's latest orders for a phase, in one query: {seat: submissions row}."""
        rows = self.store.all(
            "SELECT * FROM submissions WHERE game = ? AND phase = ? AND status = 'current' "
            "ORDER BY id", [game_id, phase])
        return {row["seat"]: row for row in rows}

    def step(self, game_id: str, now: str) -> int:
        """Resolve every phase of a game that is due at `now`, each in a transaction of its
        own; return how many."""
        resolved = 0
        while resolved < MAX_PHASES_PER_TICK:
            with self.store.transaction():
                table = self.table(game_id)
                if not self.due(table, now):
                    self.store.update("games", {"id": game_id}, {"dirty": 0})
                    break
                if self.grace(table, now):
                    continue  # the phase waits on for the orders still missing
                table = self.resolve_phase(table, now)
                resolved += 1
            if not self.due(table, now):  # the phase just opened waits, as most do
                break
        return resolved

    def due(self, table: Table, now: str) -> bool:
        """Is the open phase to be resolved at `now`: past its deadline, or ready, and the
        game neither over nor paused?"""
        eng = table.state["engine"]
        if eng["over"] or not eng["requests"] or eng.get("paused"):
            return False
        return (eng["deadline"] is not None and eng["deadline"] <= now) or self.ready(table)

    def grace(self, table: Table, now: str) -> bool:
        """At a deadline that passed with orders still missing, the game's grace
        (``grace_hours``), once: the deadline moved, and each seat still silent told. Were
        they given?"""
        from . import letters
        event = None if self.ready(table) else engine.grace(table.state, now)
        if event is None:
            return False
        table = self.record(table, [event], now)
        given = self.current_submissions(table.game_row["id"], table.state["engine"]["phase"])
        for seat in self.store.seats(table.game_row["id"]):
            if seat["name"] in table.state["engine"]["requests"] and seat["name"] not in given:
                letters.grace(table, seat, now)
        return True

    def resolve_phase(self, table: Table, now: str) -> Table:
        """Close the open phase with the orders in, report it, open what comes next."""
        from . import letters
        game_id, phase = table.game_row["id"], table.state["engine"]["phase"]
        given, texts = {}, {}
        current = self.current_submissions(game_id, phase)
        for seat in table.state["engine"]["requests"]:
            sub = current.get(seat)
            if sub is not None:
                given[seat] = json.loads(sub["orders"])
                if sub["text"].strip():
                    texts[seat] = receipt(sub["text"])
        seed = table.game_row["seed"]
        since = table.state["engine"].get("grace") or table.state["engine"]["deadline"]
        with speaking("en"):  # the log is written in English, whoever is reading
            events = engine.close_phase(table.game, table.state, given, seed, texts)
            table = self.record(table, events, now)
            late = engine.lateness(table.game, table.state, events[0].payload)
            if late is not None:
                table = self.record(table, [late], now)
                if late.payload["disorder"]:
                    letters.disorder_notice(table, late.payload["disorder"], now)
            table = self.record(table, [engine.after_resolution(table.game, table.state, now,
                                                                seed, since)], now)
        self.store.update("games", {"id": game_id}, {"dirty": 0})
        letters.reports(table, self.store.seats(game_id), now)
        letters.ask_referee(table, now)
        return table

    # ------------------------------------------------------------ rulings

    def rulings(self, game_id: str) -> list[dict]:
        """The rulings the open phase waits for: the referee's, and any judge seat's."""
        table = self.table(game_id)
        eng = table.state["engine"]
        return [{"id": ruling_id(eng["phase"], asked), "asked": asked, "since": eng["opened"],
                 "prompt": request["prompt"], "choices": request.get("choices") or {},
                 "concerns": request.get("concerns"), "facts": request.get("facts") or []}
                for asked, request in sorted(eng["requests"].items())
                if request["kind"] == "ruling"]

    def rule(self, game_id: str, which: str, text: str, values: dict, now: str) -> dict:
        """Settle an open ruling with the referee's reasoning and values; resolve the phase.

        The referee may settle a judge seat's ruling in its place. Returns the
        ruling as listed by :meth:`rulings`.
        """
        now = iso(parse_time(now))
        if not text.strip():
            raise PbemError("say why (--text): the seats concerned read your reasoning")
        with self.store.transaction():
            open_ones = {r["id"]: r for r in self.rulings(game_id)}
            if which not in open_ones:
                raise PbemError(f"game {game_id} has no open ruling {which!r}; open: "
                                f"{', '.join(open_ones) or 'none'} (see pbem ruling {game_id})")
            ruling = open_ones[which]
            values = {k: (v.lower() if ruling["choices"].get(k) else v)
                      for k, v in values.items()}
            problems = [p for p in (value_problem(ruling["choices"], k, v)
                                    for k, v in sorted(values.items())) if p]
            problems += [f"set {key} (--set {key}=...)"
                         for key in missing(ruling["choices"], values)]
            if problems:
                raise PbemError("; ".join(problems))
            orders = {"set": values, "text": " ".join(text.split()), "by": REFEREE}
            self.store_orders(game_id, ruling["asked"], self.table(game_id), orders, now)
        self.step(game_id, now)
        return ruling

    def store_orders(self, game_id: str, seat: str, table, orders, now: str,
                     text: str = "", errors=()) -> None:
        """Make these the seat's current orders for the open phase (inside a transaction).

        When they make the phase ready, the game is marked for the tick to resolve
        (a game still waiting for other seats costs the tick nothing).
        """
        phase = table.state["engine"]["phase"]
        self.store.execute(
            "UPDATE submissions SET status = 'replaced' WHERE game = ? AND seat = ? "
            "AND phase = ? AND status = 'current'", [game_id, seat, phase])
        self.store.insert("submissions", {
            "game": game_id, "seat": seat, "phase": phase, "text": text,
            "orders": json.dumps(orders, sort_keys=True),
            "errors": json.dumps([e.to_dict() for e in errors]),
            "status": "current", "received_at": now,
        })
        if self.ready(table):
            self.store.update("games", {"id": game_id}, {"dirty": 1})

    def withdraw_orders(self, game_id: str, seat: str, phase: int) -> bool:
        """Withdraw a seat's orders for a phase (CLEAR, inside a transaction); were there
        any?"""
        return bool(self.store.execute(
            "UPDATE submissions SET status = 'withdrawn' WHERE game = ? AND seat = ? "
            "AND phase = ? AND status = 'current'", [game_id, seat, phase]).rowcount)

    def remind(self, game_id: str, now: str) -> int:
        """Remind seats with no orders yet, once per phase; return how many mails."""
        if not reminder_due(self.store.game(game_id), now):
            return 0  # known from the games row, without a write transaction
        from . import letters
        count = 0
        with self.store.transaction():
            table = self.table(game_id)
            eng = table.state["engine"]
            row = table.game_row
            if eng["over"] or not eng["remind_at"] or eng["remind_at"] > now \
                    or row["reminded_phase"] >= eng["phase"]:
                return 0
            seats = {seat["name"]: seat for seat in self.store.seats(game_id)}
            given = self.current_submissions(game_id, eng["phase"])
            late = [seat for seat in seats.values() if seat["name"] in eng["requests"]
                    and seat["name"] not in eng.get("conceded", [])
                    and not self.settled(table, seat, given)]
            # a seat whose orders another gives: that one is reminded (once), in its place
            for name in dict.fromkeys(table.given_by(s["name"]) or s["name"] for s in late):
                letters.reminder(table, seats[name], now)
                count += 1
            self.store.update("games", {"id": game_id}, {"reminded_phase": eng["phase"]})
        return count

    def extend(self, game_id: str, hours: float, now: str) -> str:
        """Give the open turn `hours` more, tell every seat asked; return the new deadline."""
        from . import letters
        now = iso(parse_time(now))
        check_hours(hours)
        with self.store.transaction():
            table = self.table(game_id)
            eng = table.state["engine"]
            if eng.get("paused"):
                raise PbemError(f"game {game_id} is paused: resume it first (pbem resume "
                                f"{game_id}); it then has the time it had left")
            if eng["over"] or not eng["deadline"]:
                raise PbemError(f"game {game_id} has no open turn to give more time to")
            deadline = later(eng["deadline"], hours)
            if deadline <= now:
                raise PbemError(f"the deadline {eng['deadline']} plus {hours:g} h is still past; "
                                "give more hours")
            table = self.record(table, [engine.deadline_moved(table.state, deadline)], now)
            for seat in self.store.seats(game_id):
                if seat["name"] in eng["requests"]:
                    letters.more_time(table, seat, now)
        return deadline

    def end(self, game_id: str, reason: str, now: str) -> None:
        """End a game before its rules do (nobody wins); mail every seat the end and the seed."""
        from . import letters
        now = iso(parse_time(now))
        if not reason.strip():
            raise PbemError("say why the game ends (--reason), for the players' last mail")
        with self.store.transaction():
            table = self.table(game_id)
            if table.state["engine"]["over"]:
                raise PbemError(f"game {game_id} is over already")
            table = self.record(table, [engine.stopped(" ".join(reason.split()),
                                                       table.game_row["seed"])], now)
            letters.reports(table, self.store.seats(game_id), now)

    def pause(self, game_id: str, reason: str, now: str) -> dict:
        """Stop the clock of a game (deadlines and reminders) and tell every seat why.

        Mail is still read while a game is paused; no turn is resolved. Returns
        the engine's record of the pause (the reason, the seconds that were left).
        """
        from . import letters
        now = iso(parse_time(now))
        reason = " ".join(reason.split())
        if not reason:
            raise PbemError("say why the game is paused (--reason): every seat is told")
        with self.store.transaction():
            table = self.table(game_id)
            eng = table.state["engine"]
            if eng["over"]:
                raise PbemError(f"game {game_id} is over")
            if eng.get("paused"):
                raise PbemError(f"game {game_id} is paused already ({eng['paused']['reason']}); "
                                f"pbem resume {game_id} starts it again")
            table = self.record(table, [engine.paused(table.state, reason, now)], now)
            letters.paused(table, self.store.seats(game_id), reason, now)
        return table.state["engine"]["paused"]

    def resume(self, game_id: str, now: str) -> str | None:
        """Start a paused game's clock again with the time that was left; tell every seat.

        Returns the open turn's new deadline (None for a phase that waits for a ruling).
        """
        from . import letters
        now = iso(parse_time(now))
        with self.store.transaction():
            table = self.table(game_id)
            if not table.state["engine"].get("paused"):
                raise PbemError(f"game {game_id} is not paused")
            table = self.record(table, [engine.resumed(table.state, now)], now)
            self.store.update("games", {"id": game_id}, {"dirty": 1})
            letters.resumed(table, self.store.seats(game_id), now)
        return table.state["engine"]["deadline"]

    def rollback(self, game_id: str, phase: int, reason: str, now: str) -> dict:
        """Reopen `phase` from the state the game had just before it opened; tell every seat.

        Nothing leaves the log: the events since are kept and marked undone (an
        absence, a concession, press and a new player are not undone), the
        orders sent for the phases undone are marked so, and replay checks the
        state returned to against the log's own hash. A finished game cannot
        be taken back: its seed is known. Returns {"phase", "from_seq", "to_seq"}.
        """
        from . import letters
        now = iso(parse_time(now))
        reason = " ".join(reason.split())
        if not reason:
            raise PbemError("say why (--reason): every seat is told")
        with self.store.transaction():
            table = self.table(game_id)
            eng = table.state["engine"]
            if eng["over"]:
                raise PbemError(f"game {game_id} is over and its seed was revealed, so it "
                                "cannot be taken back")
            rows = list(self.store.event_rows(game_id))
            phases = engine.live_phases(rows)
            if phase not in phases:
                raise PbemError(f"game {game_id} has no phase {phase}; its phases are 1 to "
                                f"{eng['phase']}")
            to_seq = phases[phase]["start"] - 1
            earlier = engine.fold(table.game, [row_event(r) for r in rows if r["seq"] <= to_seq])
            if engine.state_hash(earlier) != rows[to_seq - 1]["state_hash"]:
                raise PbemError(f"the log of {game_id} does not give its own state at seq "
                                f"{to_seq}: run pbem replay {game_id} --verify")
            held = eng.get("paused")
            told = letters.turn_of(table.game, earlier)
            table = self.record(table, engine.rollback(phase, to_seq, reason, earlier, told), now)
            table = self.record(table, [engine.open_phase(table.game, table.state, now)], now)
            if held:
                table = self.record(table, [engine.paused(table.state, held["reason"], now)],
                                    now)
            self.undo_orders(game_id, phase)
            letters.reports(table, self.store.seats(game_id), now)
            letters.ask_referee(table, now)
        return {"phase": phase, "from_seq": to_seq + 1, "to_seq": rows[-1]["seq"]}

    def undo_orders(self, game_id: str, phase: int) -> None:
        """Mark the orders sent for `phase` and later as undone, and forget WAIT and READY."""
        self.store.execute("UPDATE submissions SET status = 'undone' WHERE game = ? "
                              "AND phase >= ? AND status != 'undone'", [game_id, phase])
        for key in ("wait_phase", "ready_phase"):
            self.store.execute(f"UPDATE seats SET {key} = 0 WHERE game = ? AND {key} >= ?",
                                  [game_id, phase])
        self.store.execute("UPDATE games SET reminded_phase = ?, dirty = 0 WHERE id = ? "
                              "AND reminded_phase >= ?", [phase - 1, game_id, phase])

    def preview(self, game_id: str) -> dict:
        """What the open phase would resolve to with the orders in now; nothing is recorded.

        For the referee's eyes: the events (narrated, secrets included), the
        seats that would get default orders, the public board after, and the
        result if the game would end.
        """
        table = self.table(game_id)
        eng = table.state["engine"]
        if eng["over"] or not eng["requests"]:
            raise PbemError(f"game {game_id} has no open phase to preview")
        given = {}
        for seat in eng["requests"]:
            sub = self.current_submission(game_id, seat, eng["phase"])
            if sub is not None:
                given[seat] = json.loads(sub["orders"])
        events = engine.close_phase(table.game, table.state, given, table.game_row["seed"])
        after = engine.fold(table.game, events, table.state)
        lines = [line for line in (engine.narrate(e, table.game, after["game"]) for e in events)
                 if line]
        return {"game": game_id, "phase": eng["phase"],
                "defaulted": events[0].payload["defaulted"], "events": lines,
                "board": table.game.board_text(table.game.view(after["game"], None)),
                "result": table.game.outcome(after["game"])}

    def orders_in(self, game_id: str, with_orders: bool = False, public: bool = False) -> dict:
        """Which seats the open phase asks have sent orders, when, and (with_orders) what.

        `public`: as anyone may know it; in a game that keeps who is asked secret
        (fog of war), "seats" is then None.
        """
        table = self.table(game_id)
        eng = table.state["engine"]
        if public and engine.private_requests(table.game, table.state):
            return {"game": game_id, "phase": eng["phase"], "deadline": eng["deadline"],
                    "paused": (eng.get("paused") or {}).get("reason"), "seats": None}
        seats = {s["name"]: s for s in self.store.seats(game_id)}
        rows = []
        for name, request in sorted(eng["requests"].items()):
            sub = self.current_submission(game_id, name, eng["phase"])
            seat = seats.get(name, {})
            row = {"seat": name, "kind": request["kind"], "sent": sub is not None,
                   "at": sub["received_at"] if sub else None,
                   "errors": len(json.loads(sub["errors"])) if sub else 0,
                   "ready": seat.get("ready_phase") == eng["phase"],
                   "wait": seat.get("wait_phase") == eng["phase"],
                   "conceded": name in eng.get("conceded", [])}
            if with_orders:
                row["orders"] = self.described(table, name, sub)
            rows.append(row)
        return {"game": game_id, "phase": eng["phase"], "deadline": eng["deadline"],
                "paused": (eng.get("paused") or {}).get("reason"), "seats": rows}

    def described(self, table, seat: str, sub: dict | None) -> list[str]:
        """A submission's orders in words (a ruling as what it sets and why)."""
        if sub is None:
            return []
        orders = json.loads(sub["orders"])
        if seat == REFEREE or table.state["engine"]["requests"][seat]["kind"] == "ruling":
            values = ", ".join(f"{k}={v}" for k, v in sorted(orders.get("set", {}).items()))
            return [f"ruling: {values or 'nothing set'} ({orders.get('text', '')})"]
        return table.game.describe_orders(table.state["game"], seat, orders)

    def poll(self, now: str | None, watch: bool = False) -> int:
        """Store the new mail of the Maildir or IMAP folder; return how many were stored.

        Only one poll runs at a time on a database: a second one stops at once
        with PbemError. `now` and `watch` are as for `pbem.mail.fetch.poll`.
        """
        from .mail import fetch
        with poll_lock(self.store.path):
            return fetch.poll(self, now, watch=watch)

    def tick(self, now: str, send: bool = True) -> TickReport:
        """Read the inbox, start the open games that are full (or due), resolve what is due,
        send reminders, send the outbox, then rewrite the archive (publish_dir) of the
        games that changed.

        Only one tick runs at a time on a database: a second one (cron firing
        while a slow tick still runs, or while `pbem run` runs) stops at once
        with TryLater. The referee's digest of refused mail goes out with it,
        once a day at most.
        """
        with tick_lock(self.store.path):
            return self.round(iso(parse_time(now)), send)

    def round(self, now: str, send: bool = True, stop=None) -> TickReport:
        """One tick's work, under the caller's tick lock (see `tick`).

        `stop` (a function) is asked between mails and between games: once it says
        True, the mail in hand is finished (and the mail being sent), and the rest
        waits, queued, for the next start.
        """
        stop = stop or (lambda: False)
        report = TickReport()
        if self.store.one("SELECT 1 FROM inbox WHERE status = 'new' LIMIT 1"):
            from . import inbound
            report.mails_read = inbound.process_inbox(self, now, stop)
        if not stop():
            digest(self, now)
        if not stop() and self.store.one("SELECT 1 FROM open_games WHERE status = 'open' "
                                         "LIMIT 1"):
            from . import signup
            report.started = signup.start_due(self, now)
        for game_id in self.due_games(now):
            if stop():
                break
            count = self.step(game_id, now)
            if count:
                report.phases[game_id] = count
            report.reminders += self.remind(game_id, now)
        if send and self.store.one("SELECT 1 FROM outbox WHERE status = 'pending' "
                                   "AND next_attempt <= ? LIMIT 1", [now]):
            from .mail import outbox
            done = outbox.Sending()
            try:
                outbox.flush(self, now, done, stop)
            except PbemError as problem:
                done.stopped = problem
            report.sending(done)
            self.outage(report, done, now)
        if self.config["publish_dir"]:
            self.publish_archive(report)
        return report

    def outage(self, report: TickReport, done, now: str) -> None:
        """Record whether the SMTP server failed in this round or worked: an outage is
        said when it begins, once a day, and when it ends (pbem/outages.py)."""
        if isinstance(done.stopped, ServerDown):
            if outages.failing(self.store, "SMTP", str(done.stopped), now):
                report.down = done.stopped
            else:
                report.quiet = True
        elif done.stopped is None and (done.sent or done.failed or done.later):
            ended = outages.working(self.store, "SMTP")
            if ended is not None:
                report.recovered = outages.over_line("SMTP", self.sending_to(), ended, now)

    def sending_to(self) -> str:
        """Where mail goes out, for the referee: SMTP host:port."""
        from .mail.outbox import PORTS
        part = self.config["smtp"]
        return f"SMTP {part['host']}:{part['port'] or PORTS.get(part['security'], 0)}"

    def next_due(self, now: str) -> str | None:
        """When a tick next has something to do: `now` when mail or a ready turn waits,
        else the earliest deadline, reminder, mail to retry, game to start or digest;
        None when nothing ever falls due by itself.

        Each time is read from an index, without loading any game.
        """
        store = self.store
        if store.one("SELECT 1 FROM inbox WHERE status = 'new' LIMIT 1") or \
                store.one("SELECT 1 FROM games WHERE dirty = 1 AND status = 'running' LIMIT 1"):
            return now
        times = [store.one("SELECT deadline AS at FROM games WHERE status = 'running' "
                           "AND deadline IS NOT NULL ORDER BY deadline LIMIT 1"),
                 store.one("SELECT remind_at AS at FROM games WHERE status = 'running' "
                           "AND remind_at IS NOT NULL AND reminded_phase < phase "
                           "ORDER BY remind_at LIMIT 1"),
                 store.one("SELECT min(next_attempt) AS at FROM outbox "
                           "WHERE status = 'pending'"),
                 store.one("SELECT min(starts) AS at FROM open_games WHERE status = 'open' "
                           "AND starts > ?", [now])]
        due = [row["at"] for row in times if row and row["at"]]
        due += [at for at in [digest_time(store)] if at]
        return min(due) if due else None

    def publish_archive(self, report: TickReport) -> None:
        """Rewrite the archive in publish_dir for the games that changed; a failure is the
        report's problem (the tick's other work is done)."""
        from .publish import publish_changed
        try:
            report.published = publish_changed(self)
        except (OSError, PbemError) as problem:
            report.problems.append(f"archive not written: {problem}")
            report.exit_code = report.exit_code or getattr(problem, "exit_code", os.EX_IOERR)

    # ------------------------------------------------------------ reading

    def view(self, game_id: str, seat: str | None) -> dict:
        """The view a seat (None: the public; REFEREE: everything) has of a game."""
        table = self.table(game_id)
        if seat == REFEREE:
            return {"engine": table.state["engine"], "game": table.state["game"]}
        if seat is not None:
            self.store.existing_seat(game_id, seat)
        view = table.game.view(table.state["game"], seat)
        eng = table.state["engine"]
        view["phase"] = {"number": eng["phase"], "deadline": eng["deadline"],
                         "waiting_for": engine.waiting_for(table.game, table.state, seat)}
        return view

    def events(self, game_id: str, seat: str | None):
        """The events a seat (None: the public; REFEREE: all) may see, as dicts, each as
        that seat reads it (engine.as_seen: anonymous press names no sender).

        `undone` marks the events a rollback undid.
        """
        self.game_row(game_id)
        if seat not in (None, REFEREE):
            self.store.existing_seat(game_id, seat)
        spans = engine.undone_spans(self.store.event_rows(game_id, of_type="phase_rolled_back"))
        for row in self.store.event_rows(game_id):
            event = row_event(row)
            if event.visible(seat):
                seen = engine.as_seen(event, seat)
                yield {"seq": row["seq"], "at": row["at"], "type": row["type"],
                       "payload": seen.payload, "visible_to": seen.visible_to,
                       "undone": engine.is_undone(spans, row)}

    def seat_sheet(self, game_id: str, seat: str) -> dict:
        """What a seat's mails show of the game now: its board, its own part, what it is asked."""
        from . import render
        table = self.table(game_id)
        self.store.existing_seat(game_id, seat)
        view = table.game.view(table.state["game"], seat)
        own_board = getattr(table.game, "SEAT_BOARDS", False)
        request = table.state["engine"]["requests"].get(seat)
        return {"board": table.game.board_text(view if own_board else table.public),
                "yours": render.render(table.ruleset, "yours.txt.j2", view=view,
                                       seat=seat).strip(),
                "asked": request["prompt"] if request else None}


def ruling_id(phase: int, asked: str) -> str:
    """How the referee names an open ruling: the phase, and the judge seat if not the referee."""
    return str(phase) if asked == REFEREE else f"{phase}-{asked}"


def reminder_due(row: dict, now: str) -> bool:
    """Does the games row say a reminder round is due at `now`? (Its state says for sure.)"""
    return row["status"] == "running" and bool(row["remind_at"]) and row["remind_at"] <= now \
        and row["reminded_phase"] < row["phase"]


def tick_lock(db_path: str):
    """The lock a tick holds on a database file for its whole length (see pbem/locks.py)."""
    return job_lock(db_path, "tick")


def poll_lock(db_path: str):
    """The lock a poll holds on a database file for its whole length (a watching one, for
    ever)."""
    return job_lock(db_path, "poll")


def check_hours(hours: float) -> None:
    """PbemError unless `hours` is a number of hours a deadline may move by."""
    if not (math.isfinite(hours) and 0 < hours <= MAX_HOURS):
        raise PbemError(f"give a number of hours above 0 and at most {MAX_HOURS} (a year), "
                        f"not {hours:g}")
