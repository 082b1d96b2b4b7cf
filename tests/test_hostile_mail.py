"""No mail anyone can send stops, stalls or fools pbem.

Hostile mails (tests/hostile.py: bad charsets, deep nesting, NULs, huge
headers, mixed and broken encodings, ambiguous senders, quote and HTML bombs,
single lines of a megabyte)
are stored and ticked one by one on a real referee, with a player's ordinary
order mail after every few. Nothing may raise, every mail must end answered,
quarantined or ignored with a reason, and every player's mail after a
hostile one must be recorded and answered.

The table's commands (PRESS, ABSENCE with every form of date, HISTORY with
every form of number, DRAW, CONCEDE) get runs of their own, from seats with
their codes: every such mail is answered, and none is set aside unless the
mail itself cannot be read.

Forged JOINs of the club's open game, each answered by its victim's mailbox
without an Auto-Submitted header (out-of-office texts, "thanks", "ok",
nothing, the quote alone, in plain text or HTML), are mixed in: no victim is
ever enrolled.

The 10,000-mail run: pytest --slow -s tests/test_hostile_mail.py -k ten_thousand
The table run: pytest --slow -s tests/test_hostile_mail.py -k table_commands_at_length
"""

import random

from hypothesis import HealthCheck, given, settings, strategies as st
import pytest

from conftest import START, make_referee, seats
import hostile
from hostile import AUTO_REPLIES, SIGNATURES, Fuzz, build, random_recipe, table_recipe
from pbem.signup import open_game

BEGIN = "2026-12-01T12:30:00Z"


def fuzz(folder, **options) -> Fuzz:
    """A four-seat Auguste game whose welcome mails are out, ready for mail (one mail every
    20 seconds unless `step` says how many hours), and an Attila game open for players."""
    referee = make_referee(folder)
    referee.new_game("auguste", "rome", seats("ann", "bob", "cat", "dan"), START,
                     {"preset": "4-2"}, seed="fuzz")
    referee.tick(START)
    open_game(referee, "attila", "gaul", START, players=(3, 5))
    return Fuzz(referee, "rome", BEGIN, **options)


def assert_nothing_stopped(tally) -> None:
    """The figures of a run that nothing stopped, stalled or fooled."""
    assert tally.crashes == []
    assert tally.unanswered == []
    assert tally.stuck == []
    assert tally.enrolled == []


@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(st.lists(hostile.recipes(), min_size=5, max_size=25))
def test_hostile_mail_never_stops_stalls_or_fools_pbem(tmp_path_factory, recipes):
    run = fuzz(tmp_path_factory.mktemp("fuzz"))
    for recipe in recipes:
        run.hostile(build(recipe, run.cast))
    assert_nothing_stopped(run.tally)


def test_two_hundred_hostile_mails_in_a_row(tmp_path):
    run = fuzz(tmp_path)
    rng = random.Random(2026)
    for number in range(200):
        if number % 20 == 19:
            run.forged("gaul", rng)
        else:
            run.hostile(build(random_recipe(rng, number, big=False), run.cast))
    assert_nothing_stopped(run.tally)
    assert run.tally.mails == 210 + run.players and run.players >= 30
    assert set(run.tally.statuses) >= {"done", "rejected", "quarantined", "ignored"}


@pytest.mark.slow
@pytest.mark.skipif("not config.getoption('--slow')", reason="run with --slow")
def test_ten_thousand_hostile_mails(tmp_path):
    run = fuzz(tmp_path)
    rng = random.Random(10_000)
    for number in range(10_000):
        if number % 50 == 49:
            run.forged("gaul", rng)
        else:
            run.hostile(build(random_recipe(rng, number, big=True), run.cast))
    print(run.tally.line())
    assert_nothing_stopped(run.tally)
    assert run.tally.mails == 10_200 + run.players


def test_no_auto_reply_to_a_forged_join_enrols_its_victim_whatever_its_shape(tmp_path):
    run = fuzz(tmp_path, step=1 / 30)
    shapes = [(said, signed, quoted, html) for said in AUTO_REPLIES for signed in SIGNATURES
              for quoted in (False, True) for html in (False, True)]
    for number, shape in enumerate(shapes):
        run.forged("gaul", ShapeChooser(shape))
    print(run.tally.line())
    assert_nothing_stopped(run.tally)
    assert run.tally.mails == 2 * len(shapes) >= 200
    assert not run.referee.store.all("SELECT * FROM signups")


class ShapeChooser:
    """Stands for the random stream `Fuzz.forged` draws a reply's shape from: gives one
    shape, (text, signature, quoted, html)."""

    def __init__(self, shape):
        self.said, self.signed, self.quoted, self.html = shape
        self.choices = iter([self.said, self.signed])
        self.draws = iter([0.0 if self.quoted else 1.0, 0.0 if self.html else 1.0])

    def choice(self, items):
        return next(self.choices)

    def random(self):
        return next(self.draws)


@pytest.mark.parametrize("body", hostile.LONG_LINES)
def test_a_line_of_a_megabyte_is_answered_in_its_time(tmp_path, body):
    """One line of nearly 1 MB (the most a mail may be), of each shape, from each kind of
    sender: read and answered within the mail's time budget, or answered that it took too
    long; never stopped, never unanswered."""
    run = fuzz(tmp_path)
    for sender in ("seat", "seat-no-code", "stranger"):
        run.hostile(build(hostile.Recipe(sender=sender, body=body, size=990_000,
                                         number=len(sender)), run.cast))
    run.player()
    assert_nothing_stopped(run.tally)
    assert run.tally.statuses.get("quarantined", 0) == 0, run.tally.quarantined


# A mail every two minutes: a seat's thirty an hour are never passed.
TABLE_STEP = 1 / 30


def assert_every_table_mail_answered(tally) -> None:
    """A run of table commands: nothing stopped, and nothing set aside but mail that could
    not be read."""
    assert_nothing_stopped(tally)
    assert [r for r in tally.quarantined if not r.startswith(("unreadable", "too large"))] == []


def table_run(folder, mails: int, seed: int) -> Fuzz:
    """`mails` seeded mails of table commands, a player's orders after every five."""
    run = fuzz(folder, step=TABLE_STEP)
    rng = random.Random(seed)
    for number in range(mails):
        run.hostile(build(table_recipe(rng, number), run.cast))
    return run


def test_table_commands_in_any_form_are_all_answered(tmp_path):
    run = table_run(tmp_path, 150, 21)
    assert_every_table_mail_answered(run.tally)
    assert run.tally.mails == 150 + run.players
    events = {r["type"] for r in run.referee.store.all("SELECT type FROM events")}
    assert {"press", "absence_declared", "draw_voted", "seat_conceded"} <= events
    assert run.referee.store.all("SELECT 1 FROM outbox WHERE kind = 'history'")


@settings(max_examples=5, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(hostile.table_recipes(), min_size=3, max_size=15))
def test_table_commands_never_stop_or_lose_a_mail(tmp_path_factory, recipes):
    run = fuzz(tmp_path_factory.mktemp("table"), step=TABLE_STEP)
    for recipe in recipes:
        run.hostile(build(recipe, run.cast))
    assert_every_table_mail_answered(run.tally)


@pytest.mark.slow
@pytest.mark.skipif("not config.getoption('--slow')", reason="run with --slow")
def test_table_commands_at_length(tmp_path):
    run = table_run(tmp_path, 3_390, 3_390)
    print(run.tally.line())
    assert_every_table_mail_answered(run.tally)
