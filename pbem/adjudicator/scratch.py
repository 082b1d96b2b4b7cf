"""The scratch state a game resolves a phase on, with the events that built it.

A phase resolves on a copy of the state: every event is folded into the copy
as soon as it is emitted, so each rule sees exactly what the previous one
left, and the events, in order, are the phase's resolution. A game subclasses
:class:`Scratch` to add what its rules ask of the phase under way.
"""

from .contract import plain_copy


class Scratch:
    """A phase being resolved: a copy of the game's state, its random stream, the events."""

    def __init__(self, state: dict, apply, rng=None):
        self.state = plain_copy(state)
        self.rng = rng
        self.events = []
        self._apply = apply

    def emit(self, event) -> None:
        """Record an event and fold it into the scratch state."""
        self.events.append(event)
        self.state = self._apply(self.state, event)
