"""The scratch state of one phase, with the events that built it.

A phase resolves on a copy of the state: every event is folded into it as
soon as it is emitted, so each rule sees exactly the valley the previous one
left.
"""

from pbem.adjudicator.scratch import Scratch

from .rules import apply


class Runner(Scratch):
    """A phase being resolved: the scratch state, the random stream, the events so far."""

    def __init__(self, state, rng):
        super().__init__(state, apply, rng)
