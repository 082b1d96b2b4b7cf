"""Quiet outages: a mail server down (or its token helper) is said when the outage begins,
once a day while it lasts, and when it ends; not at every run that finds it down.

Each outage is a row of the ``outages`` table (IMAP or SMTP), so it is said once whether
cron runs `pbem poll && pbem tick` every few minutes or `pbem run` tries again every few
seconds: from cron, on standard error (cron mails it to the referee); from `pbem run` and
`pbem poll --watch`, by a mail to the referee as well as in the log.
"""

from datetime import timedelta
import logging
import sqlite3

from .timeutil import parse_time

log = logging.getLogger(__name__)

SAY_AGAIN = timedelta(days=1)
NOTE = " (said again in a day if it lasts, and when it is over)"


def failing(store, server: str, problem: str, now: str) -> bool:
    """Record that `server` ("IMAP", "SMTP") fails at `now` with `problem`. True when the
    referee should be told: the outage begins, or it was last said a day ago or more (also
    when the database cannot record it: better said twice than never)."""
    try:
        with store.transaction():
            row = store.one("SELECT * FROM outages WHERE server = ?", [server])
            if row is None:
                store.insert("outages", {"server": server, "since": now, "told_at": now,
                                         "problem": problem})
                return True
            due = parse_time(now) - parse_time(row["told_at"]) >= SAY_AGAIN
            store.update("outages", {"server": server},
                         {"problem": problem, **({"told_at": now} if due else {})})
            return due
    except sqlite3.Error as trouble:
        log.debug("the outage could not be recorded: %s", trouble)
        return True


def working(store, server: str) -> dict | None:
    """`server` works: close its outage. The outage that ended (since, problem), or None
    when there was none."""
    try:
        row = store.one("SELECT * FROM outages WHERE server = ?", [server])
        if row is not None:
            with store.transaction():
                store.execute("DELETE FROM outages WHERE server = ?", [server])
        return row
    except sqlite3.Error as trouble:
        log.debug("the outage could not be closed: %s", trouble)
        return None


def begun_line(problem: str, since: str, now: str) -> str:
    """What the referee is told of an outage that begins or lasts."""
    if since == now:
        return f"{problem} (pbem tries again; it says so again in a day if this lasts, " \
            "and when it is over)"
    return f"{problem} (since {since}; pbem tries again, and says when it is over)"


def over_line(server: str, where: str, ended: dict, now: str) -> str:
    """What the referee is told when an outage ends."""
    return f"{where} works again, after failing from {ended['since']} to {now} " \
        f"(last: {ended['problem']})"


def mail_referee(referee, headline: str, line: str, now: str) -> None:
    """Tell the referee by mail (`pbem run`, `poll --watch`: no one reads their log)."""
    from .letters import notice
    try:
        with referee.store.transaction():
            notice(referee, referee.config["referee"], headline, [line], now, kind="outage")
    except sqlite3.Error as trouble:
        log.warning("the referee could not be told by mail: %s", trouble)


def since(store, server: str) -> str | None:
    """When the outage of `server` began, or None."""
    row = store.one("SELECT since FROM outages WHERE server = ?", [server])
    return row["since"] if row else None
