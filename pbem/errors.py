"""The error pbem reports to the referee in plain words."""


class PbemError(ValueError):
    """Something the referee asked for cannot be done; the message says why."""
