"""Fixed deadline days: a club's schedule, and the next deadline on it.

``--option deadlines="mon,thu 20:00"`` puts every deadline of a game on those
days and times, in the game's time zone (``--option tz=Europe/Paris``; UTC
by default): a phase stays open at least its length (``turn_hours``, or the
phase's own hours), then until the next time on the schedule. Each day may
have its own time ("mon 20:00, thu 18:30"); days are written in English or
French, short or whole ("mon", "monday", "lun", "lundi"). Nothing here reads
the clock: every function takes the moment it counts from.
"""

from datetime import datetime, time, timedelta
import re
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .contract import SetupError
from ..timeutil import iso, parse_time

DAYS = {name: number for number, names in enumerate((
    ("mon", "monday", "lun", "lundi"), ("tue", "tuesday", "mar", "mardi"),
    ("wed", "wednesday", "mer", "mercredi"), ("thu", "thursday", "jeu", "jeudi"),
    ("fri", "friday", "ven", "vendredi"), ("sat", "saturday", "sam", "samedi"),
    ("sun", "sunday", "dim", "dimanche"))) for name in names}
SHORT = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
CLOCK = re.compile(r"^([01]?\d|2[0-3])[:hH.]([0-5]\d)$")


def schedule_option(text: str) -> list:
    """The schedule written "mon,thu 20:00" as [["mon", "20:00"], ["thu", "20:00"]], by day;
    SetupError with what is wrong."""
    days, slots = [], {}
    for word in re.split(r"[\s,;]+", str(text).strip().lower()):
        if word in DAYS:
            days.append(DAYS[word])
        elif CLOCK.match(word):
            if not days:
                raise SetupError(f"deadlines: {word} follows no day; write for example "
                                 "deadlines=\"mon,thu 20:00\"")
            hour, minute = CLOCK.match(word).groups()
            slots.update({day: f"{int(hour):02d}:{minute}" for day in days})
            days = []
        elif word:
            raise SetupError(f"deadlines: {word!r} is neither a day (mon, tue... or lun, "
                             "mar...) nor a time (20:00); write for example "
                             "deadlines=\"mon,thu 20:00\"")
    if days or not slots:
        raise SetupError("deadlines: give each day a time, e.g. deadlines=\"mon,thu 20:00\"")
    return [[SHORT[day], slots[day]] for day in sorted(slots)]


def zone_option(text: str) -> str:
    """A time zone's IANA name, checked; SetupError otherwise."""
    try:
        ZoneInfo(str(text))
    except (ZoneInfoNotFoundError, ValueError):
        raise SetupError(f"tz: unknown time zone {text!r} (e.g. Europe/Paris)") from None
    return str(text)


def on_schedule(schedule: list, zone: str, moment: str) -> str:
    """The first time on the schedule at or after `moment` (ISO UTC), in the zone's clock:
    a 20:00 deadline stays at 20:00 across a change of summer time."""
    where = ZoneInfo(zone)
    local = parse_time(moment).astimezone(where)
    slots = {DAYS[day]: time.fromisoformat(at) for day, at in schedule}
    for ahead in range(8):
        day = local.date() + timedelta(days=ahead)
        if day.weekday() in slots:
            found = datetime.combine(day, slots[day.weekday()], tzinfo=where)
            if found >= local:
                return iso(found)
    raise ValueError(f"no time on the schedule {schedule}")  # a schedule has a day a week
