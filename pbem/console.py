"""How pbem's commands speak and end: the conventions cron and systemd rely on.

A run that did nothing prints nothing. What a command did goes to standard
output only when asked (``-v``, or ``--json``); every warning and error goes
to standard error, a warning unless ``-q``. The exit code says what to do
next (the sysexits convention):

    0   done, or nothing to do
    1   refused: the command could not do what was asked (the line says why),
        or a mail was given up for good (``pbem outbox`` shows why)
    2   the command line is wrong (an unknown option, a missing argument)
    75  EX_TEMPFAIL: a temporary failure, worth running again later: a mail
        server that cannot be reached or refuses for now, a password or token
        program that fails, a full disk, a mail that will be tried again,
        another tick or poll running on the same database
    78  EX_CONFIG: the settings must change first: a login or token refused,
        a certificate not trusted, a password or token program that cannot be
        run,
        an unknown setting, a database written by a newer pbem

Long-running commands (``poll --watch``, ``smtpd``) log through ``logging``
at the level ``log_level`` gives.
"""

import logging

import click

from .config import ConfigError
from .errors import Misconfigured, TryLater

OK = 0
REFUSED = 1
USAGE = 2
TEMPFAIL = TryLater.exit_code   # 75, EX_TEMPFAIL
CONFIG = Misconfigured.exit_code  # 78, EX_CONFIG

EXIT_CODES = {
    OK: "done, or nothing to do",
    REFUSED: "refused (the line says why), or a mail given up for good",
    USAGE: "the command line is wrong",
    TEMPFAIL: "a temporary failure (mail server down, a token program failing, another run "
              "going on): run again later",
    CONFIG: "the settings must change (login, token, certificate, a password program not "
            "there, unknown setting, newer database)",
}
EXIT_HELP = "Exit codes: " + "; ".join(f"{code} {text}" for code, text in EXIT_CODES.items())


def exit_code(problem: Exception) -> int:
    """The exit code for an error that ends a command."""
    if isinstance(problem, ConfigError):
        return CONFIG
    return getattr(problem, "exit_code", REFUSED)


class Fail(click.ClickException):
    """An error line on standard error, begun by 'pbem: ' as every error and warning is,
    and the exit code its kind calls for."""

    def __init__(self, message: str, code: int = REFUSED):
        super().__init__(message)
        self.exit_code = code

    def show(self, file=None) -> None:
        click.echo(f"pbem: {self.format_message()}", err=True)


def failure(problem: Exception) -> Fail:
    """The click exception that ends a command on this error."""
    return Fail(str(problem), exit_code(problem))


def verbosity(command):
    """Add -v/--verbose and -q/--quiet to a command (they also work before the command)."""
    def remember(ctx, param, value):
        if value:
            ctx.find_root().meta["pbem.verbosity"] = 1 if param.name == "verbose" else -1
        return value
    command = click.option("-q", "--quiet", is_flag=True, expose_value=False, callback=remember,
                           help="Print errors only, no warnings.")(command)
    return click.option("-v", "--verbose", is_flag=True, expose_value=False, callback=remember,
                        help="Also print what was done.")(command)


def level() -> int:
    """1 with -v, -1 with -q, 0 otherwise."""
    ctx = click.get_current_context(silent=True)
    return ctx.find_root().meta.get("pbem.verbosity", 0) if ctx else 0


def done(line: str) -> None:
    """What a command did: on standard output with -v only."""
    if level() > 0:
        click.echo(line)


def error(line: str) -> None:
    """An error on standard error, even with -q."""
    click.echo(f"pbem: {line}", err=True)


def log_level() -> int:
    """The logging level of a long-running command: INFO with -v, ERROR with -q, else
    WARNING."""
    return {1: logging.INFO, -1: logging.ERROR}.get(level(), logging.WARNING)


def start_logging(with_time: bool = False) -> None:
    """Send pbem's log to standard error at the level -v/-q chose (with the time for a
    long-running command). Only pbem's own loggers: a library's chatter stays out."""
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s" if with_time
                                           else "pbem: %(message)s"))
    logger = logging.getLogger("pbem")
    logger.handlers[:] = [handler]
    logger.setLevel(log_level())
    logger.propagate = False
