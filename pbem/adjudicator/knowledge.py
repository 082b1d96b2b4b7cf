"""What each seat knows under fog of war, and since when.

A game keeps, in its state, ``knowledge = {seat: {subject: {"turn": t,
"fact": {...}}}}``: each fact a seat learned (by scouting, a battle, a
border) with the turn it learned it. Facts are replaced, never merged: a new
look at a subject shows the subject as it is now. A view shows a fact learned
before the current turn as possibly stale, with its turn.

Learning happens only through events whose ``visible_to`` names the seat, so
the log stays the one record of who saw what.
"""


def learn(knowledge: dict, seat: str, subject: str, fact: dict, turn: int) -> dict:
    """A new knowledge table in which `seat` knows `fact` about `subject` since `turn`."""
    known = dict(knowledge.get(seat, {}))
    known[subject] = {"turn": turn, "fact": fact}
    return {**knowledge, seat: known}


def forget(knowledge: dict, seat: str, subject: str) -> dict:
    """A new knowledge table without what `seat` knew of `subject`."""
    known = {k: v for k, v in knowledge.get(seat, {}).items() if k != subject}
    return {**knowledge, seat: known}


def known(knowledge: dict, seat: str, subject: str, turn: int) -> dict | None:
    """What `seat` knows of `subject` as of `turn`: the fact, its turn and whether it is stale."""
    entry = knowledge.get(seat, {}).get(subject)
    if entry is None:
        return None
    return {"fact": entry["fact"], "turn": entry["turn"], "stale": entry["turn"] < turn}


def subjects(knowledge: dict, seat: str) -> list[str]:
    """Every subject a seat knows something about, sorted."""
    return sorted(knowledge.get(seat, {}))
