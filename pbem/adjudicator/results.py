"""Results several seats must report and agree on (a battle fought on a table).

A game asks each seat concerned for a report (``Request(kind="result")``);
each seat's orders are its report, read by :func:`parse_result`::

    RESULT WON [points N]       RESULTAT GAGNE [points N]
    RESULT LOST [points N]      RESULTAT PERDU [points N]

(N in digits, or in words beside "points": "points douze", "twelve points").

The game turns each seat's report into the fact it claims, in the same
words for every seat (for a battle: who won, and the points), and
:func:`agreed` tells whether the facts agree. Agreement is applied; a
disagreement, or a silent seat, becomes a ruling for the referee (see
rulings.py).
"""

import re

from ..i18n import _
from .contract import OrderError
from . import numbers
from .spelling import aside

WON = ("won", "win", "victory", "gagne", "gagné", "victoire")
LOST = ("lost", "lose", "defeat", "perdu", "defaite", "défaite")
LEAD = ("result", "resultat", "résultat")
POINTS = ("points", "point", "pts", "pt")
NO_REPORT = None  # the report of a silent seat


def parse_result(text: str, with_points: bool = False):
    """(report, errors): {"outcome": "won"|"lost", "points": int|None} from a seat's mail."""
    report, errors, unscored = None, [], []
    for number, line in enumerate(text.splitlines(), start=1):
        words = re.findall(r"[\wéè]+", line.lower())
        if not words:
            continue
        remark = None if words[0] in LEAD + WON + LOST else \
            aside(number, line, words[0], LEAD + WON + LOST)
        if remark:
            errors.append(remark)
            continue
        if words[0] in LEAD:
            words = words[1:]
        outcome = "won" if words and words[0] in WON else "lost" if words and words[0] in LOST \
            else None
        if outcome is None:
            errors.append(OrderError(number, line.strip(), _(
                "write RESULT WON or RESULT LOST (RESULTAT GAGNE/PERDU)")))
            continue
        points = points_in(words)
        if with_points and not points:
            unscored.append((number, line.strip(), outcome))
            continue
        said = {"outcome": outcome, "points": points[0] if points else None}
        if report is not None and not same_result(report, said):
            errors.append(OrderError(number, line.strip(), _("one result per mail")))
            continue
        report = {"outcome": outcome, "points": said["points"] if report is None or
                  report["points"] is None else report["points"]}
    # a result without its points ("Lost by a whisker.") is the report's, when another
    # line gives the same result with them
    errors += [OrderError(number, line, _("say the points you left on the field too: "
                                          "RESULT WON POINTS 12"))
               for number, line, outcome in unscored
               if report is None or report["outcome"] != outcome]
    errors.sort(key=lambda error: error.line)
    if report is None and all(error.remark for error in errors):
        errors.append(OrderError(0, "", _("no result found: write RESULT WON or RESULT LOST")))
    return report, errors


def points_in(words: list[str]) -> list[int]:
    """The numbers of points a report's words give after its result: in digits anywhere,
    in words beside "points" ("points douze", "twelve points")."""
    found = []
    for at, word in enumerate(words[1:], start=1):
        beside = {words[at - 1], words[at + 1] if at + 1 < len(words) else ""}
        if word.isdigit() or (beside & set(POINTS) and numbers.number(word) is not None):
            found.append(numbers.number(word))
    return found


def same_result(one: dict, other: dict) -> bool:
    """Do two lines of one mail report the same result ("Lost by a whisker." and "result
    lost"), points given once or alike?"""
    return one["outcome"] == other["outcome"] and (
        None in (one["points"], other["points"]) or one["points"] == other["points"])


def agreed(facts: dict):
    """The fact every seat claims, or None when a seat is silent or two claims differ."""
    claims = list(facts.values())
    if not claims or any(claim is NO_REPORT for claim in claims):
        return None
    first = claims[0]
    return first if all(claim == first for claim in claims[1:]) else None
