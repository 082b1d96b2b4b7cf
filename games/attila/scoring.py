"""Century scoring: who scores what for one people, and for the whole board."""

from .material import PEOPLES
from .rules import holding, on_board


def ceil_div(points: int, ways: int) -> int:
    """points / ways, rounded up."""
    return -(-points // ways)


def people_points(influence: dict, pawns: int, provinces: int, two_players: bool) -> dict:
    """{seat: points} for one people.

    influence: {seat: value} of the seats on that people's track (value >= 1);
    pawns (a): its pawns on the board; provinces (b): the provinces holding them.
    """
    track = {seat: value for seat, value in influence.items() if value > 0}
    if not track:
        return {}
    top = max(track.values())
    firsts = sorted(seat for seat, value in track.items() if value == top)
    if len(track) == 1:
        return {firsts[0]: pawns + provinces}
    if len(firsts) > 1:
        share = ceil_div(pawns + provinces, len(firsts))
        return {seat: share for seat in firsts}
    points = {firsts[0]: pawns}
    second = max(value for seat, value in track.items() if value < top)
    if two_players and top - second > 1:
        return points
    seconds = sorted(seat for seat, value in track.items() if value == second)
    for seat in seconds:
        points[seat] = ceil_div(provinces, len(seconds))
    return points


def score_board(state) -> list[dict]:
    """One row per people, in scoring order: its pawns, provinces and everyone's points."""
    rows = []
    two = len(state["seats"]) == 2
    for people in PEOPLES:
        pawns, provinces = on_board(state, people), len(holding(state, people))
        points = people_points(state["influence"][people], pawns, provinces, two)
        rows.append({"people": people, "pawns": pawns, "provinces": provinces,
                     "points": {seat: n for seat, n in sorted(points.items()) if n > 0}})
    return rows
