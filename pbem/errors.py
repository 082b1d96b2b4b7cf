"""The errors pbem reports to the referee in plain words, each with the exit code it calls
for (see pbem/console.py)."""

import os


class PbemError(ValueError):
    """Something the referee asked for cannot be done; the message says why."""

    exit_code = 1


class TryLater(PbemError):
    """A failure that running the same command later may cure: a server down (exit 75)."""

    exit_code = os.EX_TEMPFAIL


class Misconfigured(PbemError):
    """A failure only new settings can cure: a login refused, a certificate not trusted
    (exit 78)."""

    exit_code = os.EX_CONFIG
