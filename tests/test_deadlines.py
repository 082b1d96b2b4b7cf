"""Fixed deadline days (pbem/adjudicator/deadlines.py): reading a schedule, finding the next
time on it, and games that keep to it."""

from datetime import timedelta
from zoneinfo import ZoneInfo

from hypothesis import given, settings, strategies as st
import pytest

from pbem.adjudicator.contract import SetupError
from pbem.adjudicator.deadlines import on_schedule, schedule_option, zone_option
from pbem.errors import PbemError
from pbem.timeutil import iso, parse_time

from conftest import START, make_referee, seats


@pytest.mark.parametrize("text, schedule", [
    ("mon,thu 20:00", [["mon", "20:00"], ["thu", "20:00"]]),
    ("Thursday 18h30, Monday 20:00", [["mon", "20:00"], ["thu", "18:30"]]),
    ("lun, jeu 20h00", [["mon", "20:00"], ["thu", "20:00"]]),
    ("sun 9:05", [["sun", "09:05"]]),
])
def test_a_schedule_is_days_each_with_a_time(text, schedule):
    assert schedule_option(text) == schedule


@pytest.mark.parametrize("text, said", [
    ("mon,thu", "give each day a time"), ("20:00", "follows no day"),
    ("mon 25:00", "neither a day"), ("someday 20:00", "neither a day"), ("", "give each day"),
])
def test_a_schedule_that_cannot_be_read_says_why(text, said):
    with pytest.raises(SetupError, match=said):
        schedule_option(text)
    with pytest.raises(SetupError, match="unknown time zone"):
        zone_option("Europe/Atlantis")


def test_a_deadline_keeps_its_hour_across_summer_time():
    schedule = [["sun", "20:00"]]
    assert on_schedule(schedule, "Europe/Paris", "2027-03-20T12:00:00Z") == \
        "2027-03-21T19:00:00Z"
    assert on_schedule(schedule, "Europe/Paris", "2027-03-27T12:00:00Z") == \
        "2027-03-28T18:00:00Z"


DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


@settings(max_examples=200, deadline=None)
@given(days=st.sets(st.sampled_from(DAYS), min_size=1),
       clock=st.tuples(st.integers(0, 23), st.integers(0, 59)),
       zone=st.sampled_from(["UTC", "Europe/Paris", "America/New_York", "Asia/Kolkata"]),
       minutes=st.integers(0, 60 * 24 * 800), share=st.floats(0, 1))
def test_the_deadline_is_the_first_time_on_the_schedule_from_the_moment(days, clock, zone,
                                                                        minutes, share):
    schedule = schedule_option(f"{','.join(days)} {clock[0]:02d}:{clock[1]:02d}")
    moment = parse_time("2026-01-01T00:00:00Z") + timedelta(minutes=minutes)
    found = parse_time(on_schedule(schedule, zone, iso(moment)))
    local = found.astimezone(ZoneInfo(zone))
    assert moment <= found < moment + timedelta(days=7, hours=2)
    assert DAYS[local.weekday()] in days
    assert (local.hour, local.minute) == clock or local.dst() != (
        found - timedelta(hours=3)).astimezone(ZoneInfo(zone)).dst()  # a summer-time gap
    between = moment + (found - moment) * share
    assert on_schedule(schedule, zone, iso(between)) == iso(found)  # none earlier


def test_a_game_with_deadline_days_opens_every_phase_on_them(tmp_path):
    referee = make_referee(tmp_path)
    referee.new_game("auguste", "a", seats("ann", "bob"), START,
                     {"deadlines": "wed 18:00", "turn_hours": "24"}, seed="days")
    assert referee.table("a").state["engine"]["deadline"] == "2026-12-02T18:00:00Z"
    with pytest.raises(PbemError, match="deadlines: give each day a time"):
        referee.new_game("auguste", "b", seats("ann", "bob"), START, {"deadlines": "wed"})
