"""Rebuilding a game from its log, and proving the log is what the rules produce.

``verify`` checks, for every row: the hash chain; the state hash after it; and
that every event the rules derive (setup, each phase's resolution, each
phase's requests, who was late, the result) comes out byte-identical when the
recorded orders are run again. Times, the orders and the referee's and seats'
acts on the table (pauses, absences, press, votes, concessions, replacements)
are the log's inputs. A rollback's restored state must be, hash for hash, the
state the log had after the event it returns to, and the phase it reopens
must be the one that opened just after that event.

A log that does not verify ends in a report, never in an exception: each
event that differs says how (its type, the first part of its payload that
differs, or who sees it), and an event the rules cannot fold or re-derive
says so with the reason (folding stops there).
"""

from dataclasses import dataclass, field

import pbem.games

from .adjudicator import engine
from .adjudicator.contract import canonical
from .adjudicator.editions import edition
from .store import GENESIS, chain_hash, row_event


@dataclass
class Verdict:
    """The outcome of a replay."""

    game: str
    events: int = 0
    phases: int = 0
    problems: list = field(default_factory=list)
    state: dict | None = None
    state_hash: str | None = None
    broken: bool = False    # the rules could not fold the whole log: state is where they stopped

    @property
    def ok(self) -> bool:
        """True when nothing differed."""
        return not self.problems


def replay(store, game_id: str, upto: int | None = None, verify: bool = False) -> Verdict:
    """Fold a game's log (up to seq `upto`); with verify, re-derive and compare everything."""
    game_row = store.game(game_id)
    game = pbem.games.load(game_row["ruleset"])
    rows = list(store.event_rows(game_id, upto=upto))
    verdict = Verdict(game_id)
    state = engine.new_state()
    expected = {}
    prev = GENESIS
    for index, row in enumerate(rows):
        event = row_event(row)
        if verify:
            prev = check_chain(verdict, row, prev)
            try:
                derive(verdict, game, game_row, state, rows, index, expected)
            except Exception as problem:  # a log the rules cannot read is reported, not raised
                verdict.problems.append(f"seq {row['seq']}: the rules cannot derive what "
                                        f"follows {row['type']}: {failure(problem)}")
            if row["seq"] in expected:
                difference = differs(row, expected[row["seq"]])
                if difference:
                    verdict.problems.append(f"seq {row['seq']}: {difference}")
        try:
            state, digest = engine.step(game, state, event)
        except Exception as problem:  # likewise: the report says where folding stopped
            verdict.problems.append(f"seq {row['seq']}: the rules cannot fold {row['type']}: "
                                    f"{failure(problem)}; the replay stops there")
            verdict.broken = True
            break
        if verify and digest != row["state_hash"]:
            verdict.problems.append(f"seq {row['seq']}: state hash differs after {row['type']}")
        verdict.events += 1
        verdict.phases += event.type == "orders_set"
    verdict.state = state
    verdict.state_hash = engine.state_hash(state)
    return verdict


def failure(problem: Exception) -> str:
    """An exception as a short reason: its kind and its message."""
    return f"{type(problem).__name__}: {problem}"[:200]


def differs(row: dict, event) -> str | None:
    """How a stored row differs from the event the rules derive, in a line; None when they
    are byte-identical."""
    if row["type"] != event.type:
        return f"the log has {row['type']}, the rules give {event.type}"
    if row["payload_text"] != canonical(event.payload):
        return f"the log has {row['type']} with {apart(row['payload'], event.payload)}"
    if row["visible_to_text"] != canonical(event.visible_to):
        return (f"the log has {row['type']} seen by {canonical(row['visible_to'])}, the rules "
                f"show it to {canonical(event.visible_to)}")
    return None


def apart(logged, derived) -> str:
    """'KEY = X, the rules give Y': where two pieces of data first differ, and how."""
    where, logged, derived = first_difference(logged, derived)
    return (f"{where or 'all'} = {canonical(logged)[:150]}, the rules give "
            f"{canonical(derived)[:150]}")


def first_difference(logged, derived, where: str = "") -> tuple:
    """(path, logged part, derived part): the first place two pieces of data differ."""
    if isinstance(logged, dict) and isinstance(derived, dict):
        for key in sorted(set(logged) | set(derived)):
            if key not in logged or key not in derived:
                return (f"{where}.{key}".lstrip("."), logged.get(key, "(nothing)"),
                        derived.get(key, "(nothing)"))
            if canonical(logged[key]) != canonical(derived[key]):
                return first_difference(logged[key], derived[key], f"{where}.{key}")
    if isinstance(logged, list) and isinstance(derived, list) and len(logged) == len(derived):
        for index, (a, b) in enumerate(zip(logged, derived)):
            if canonical(a) != canonical(b):
                return first_difference(a, b, f"{where}[{index}]")
    return where.lstrip("."), logged, derived


def check_chain(verdict: Verdict, row: dict, prev: str) -> str:
    """Check one row's link in the hash chain; return its hash."""
    digest = chain_hash(prev, row["game"], row["seq"], row["type"], row["payload_text"],
                        row["visible_to_text"], row["at"])
    if row["prev_hash"] != prev or row["hash"] != digest:
        verdict.problems.append(f"seq {row['seq']}: the hash chain is broken")
    return row["hash"]


def derive(verdict, game, game_row, state, rows, index, expected) -> None:
    """Add to `expected` the events the rules produce from this row on."""
    row = rows[index]
    seq, seed = row["seq"], game_row["seed"]
    if row["type"] == "game_created":
        p = row["payload"]
        options = {**p["options"], **{k: v for k, v in p["timing"].items()}}
        position = next((r["payload"]["position"] for r in rows[index + 1:index + 2]
                         if r["type"] == "position_given"), None)
        derived = engine.creation_events(game, p["game"], p["ruleset"], options, p["seats"],
                                         seed, position, edition=edition(p))
        expected.update({seq + i: e for i, e in enumerate(derived)})
        return
    if row["type"] == "orders_set":
        p = row["payload"]
        given = {s: o for s, o in p["orders"].items() if s not in p["defaulted"]}
        derived = engine.close_phase(game, state, given, seed, p.get("texts"))
        expected.update({seq + i: e for i, e in enumerate(derived)})
        return
    if seq in expected:
        return
    if row["type"] == "seats_late":
        closed = next(r for r in reversed(rows[:index]) if r["type"] == "orders_set")
        expected[seq] = engine.lateness(game, state, closed["payload"])
        return
    if row["type"] in ("state_restored", "game_drawn", "game_conceded"):
        check_table_act(verdict, game, seed, state, rows, index)
        return
    if row["type"] == "phase_opened":
        requests = game.pending(state["game"])
        wanted = {s: requests[s].to_dict() for s in sorted(requests)}
        if row["payload"]["phase"] != state["engine"]["phase"] + 1:
            verdict.problems.append(f"seq {seq}: the phase opened is not what the rules ask: "
                                    f"phase {row['payload']['phase']}, not "
                                    f"{state['engine']['phase'] + 1}")
        elif canonical(row["payload"]["requests"]) != canonical(wanted):
            verdict.problems.append(f"seq {seq}: the phase opened is not what the rules ask: "
                                    f"the log has {apart(row['payload']['requests'], wanted)}")
    elif row["type"] == "game_over":
        wanted = {"result": game.outcome(state["game"]), "seed": seed}
        if canonical(row["payload"]) != canonical(wanted):
            verdict.problems.append(f"seq {seq}: the result is not what the rules give: "
                                    f"the log has {apart(row['payload'], wanted)}")
    elif row["type"] == "game_stopped" and row["payload"]["seed"] != seed:
        verdict.problems.append(f"seq {seq}: the seed revealed is not the game's")


def check_table_act(verdict, game, game_seed, state, rows, index) -> None:
    """A rollback returns to a state the log had; a draw has every surviving seat's vote; a
    game won by concession has one seat still playing."""
    row, seq = rows[index], rows[index]["seq"]
    if row["type"] == "state_restored":
        back = rows[index - 1] if index else None
        if back is None or back["type"] != "phase_rolled_back":
            verdict.problems.append(f"seq {seq}: a state is restored without a rollback")
            return
        to_seq = back["payload"]["to_seq"]
        earlier = next((r for r in rows if r["seq"] == to_seq), None)
        reopened = next((r for r in rows if r["seq"] == to_seq + 1), None)
        if earlier is None or engine.state_hash(row["payload"]["state"]) != earlier["state_hash"]:
            verdict.problems.append(f"seq {seq}: the state restored is not the state after "
                                    f"seq {to_seq}")
        if reopened is None or reopened["type"] != "phase_opened" or \
                reopened["payload"]["phase"] != back["payload"]["phase"]:
            verdict.problems.append(f"seq {seq}: phase {back['payload']['phase']} did not open "
                                    f"after seq {to_seq}")
        return
    standing = engine.survivors(game, state)
    votes = state["engine"].get("draw", {}).get("votes", [])
    if row["type"] == "game_conceded":
        if [row["payload"]["winner"]] != standing:
            verdict.problems.append(f"seq {seq}: {row['payload']['winner']} is not the only "
                                    "seat still playing")
    elif row["payload"]["seats"] != standing or not set(standing) <= set(votes):
        verdict.problems.append(f"seq {seq}: the draw is not every surviving seat's vote")
    if row["payload"]["seed"] != game_seed:
        verdict.problems.append(f"seq {seq}: the seed revealed is not the game's")
