"""UTC timestamps as text: the only form time takes in the store and the log."""

from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

# The moments pbem may be told it is (--now): a game's deadlines, a year or so after them,
# stay well within what a datetime can count, and every year has four digits.
EARLIEST = datetime(1970, 1, 1, tzinfo=timezone.utc)
LATEST = datetime(9000, 1, 1, tzinfo=timezone.utc)


def parse_time(text: str) -> datetime:
    """Read '2026-12-01T18:00Z', '2026-12-01T18:00:00+01:00' or '2026-12-01' as UTC."""
    value = text.strip().replace("z", "Z")
    if value.endswith("Z"):
        value = value[:-1] + "+00:00"
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise ValueError(f"not a date and time: {text!r} (try 2026-12-01T18:00Z)") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc)


def iso(moment: datetime) -> str:
    """A UTC moment as '2026-12-01T18:00:00Z'."""
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def later(text: str, hours: float) -> str:
    """The ISO time `hours` after the ISO time `text`."""
    return iso(parse_time(text) + timedelta(hours=hours))


def after_seconds(text: str, seconds: int) -> str:
    """The ISO time a whole number of seconds after the ISO time `text`."""
    return iso(parse_time(text) + timedelta(seconds=seconds))


def seconds_between(start: str, end: str) -> int:
    """Whole seconds from one ISO time to another (negative when `end` is earlier)."""
    return int((parse_time(end) - parse_time(start)).total_seconds())


def system_now() -> str:
    """The real current time; used only at the CLI edge, never in adjudication."""
    return iso(datetime.now(timezone.utc))


def valid_timezone(tz_name: str) -> bool:
    """Is this an IANA timezone name this machine knows?"""
    try:
        ZoneInfo(tz_name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True
