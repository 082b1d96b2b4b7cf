"""The scratch state of one phase, and the dice rolled in it.

A phase resolves on a copy of the state: every event is folded into it as
soon as it is emitted, so each rule sees exactly what the previous one left.
"""


from pbem.adjudicator.scratch import Scratch

from .state import apply, between, told
from .tables import roll_die

TRICK_TABLES = ("scouting", "winner", "loser", "lord")


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

    def roll(self, seat: str, table: str, audience, kept=False) -> tuple[int, int | None]:
        """(die, first): a die for a seat on a table; a dirty trick rerolls a 1, once.

        `first` is the 1 the trick rerolled, or None. The trick is told to the
        audience (and their overlords, unless the roll is `kept` between them).
        """
        die = roll_die(self.rng)
        if die == 1 and table in TRICK_TABLES and self.state["tricks"].get(seat):
            again = roll_die(self.rng)
            self.emit((between if kept else told)(self.state, audience, "trick_used",
                                                  seat=seat, table=table, first=die,
                                                  die=again))
            return again, die
        return die, None
