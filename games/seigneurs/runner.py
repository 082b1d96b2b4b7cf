"""The scratch state of one phase, with the events that built it.

A phase resolves on a copy of the state: every event is folded into it as
soon as it is emitted, so each rule sees exactly the valley the previous one
left.
"""

import copy

from .rules import apply


class Runner:
    """A phase being resolved: the scratch state, the random stream, the events so far."""

    def __init__(self, state, rng):
        self.state = copy.deepcopy(state)
        self.rng = rng
        self.events = []

    def emit(self, event) -> None:
        """Record an event and fold it into the scratch state."""
        self.events.append(event)
        apply(self.state, event)
