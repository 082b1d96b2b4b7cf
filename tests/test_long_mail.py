"""A mail's cost grows with its size, no faster, for every reader of a line.

A seat's mail of 10 kB, 100 kB and 1 MB of one shape (one line repeating a
valid order, an order on each line, chat, refused orders and their hints,
greetings, commands, a press message, spaces) is stored and handled by a real
referee, as `pbem tick` does. Its CPU time per byte at 100 kB and at 1 MB may
be at most 3 times that at 10 kB: a ratio, not a time limit. Each time is the
least of a few runs, so that a busy machine does not fail it; the mail of 1 MB
runs again only while its ratio is over. Each shape is read by one game here
(benchmarks/long_lines.py prints every game's figures).
"""

from pathlib import Path
import sys

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
from long_lines import handled, mail, referee_with, shapes  # noqa: E402
from pbem.timeutil import later  # noqa: E402

SIZES = (10_000, 100_000, 1_000_000)
GROWTH = 3.0
RUNS = {10_000: 5, 100_000: 3, 1_000_000: 3}  # the most runs at each size
READERS = {
    "an order, repeated on one line": "diplomacy",
    "an order on each line": "seigneurs",
    "an order and chat, on each line": "attila",
    "a line of chat": "saga",
    "a refused order on each line": "auguste",
    "a greeting on each line": "auguste",
    "a command on each line": "diplomacy",
    "a command's words on one line": "seigneurs",
    "a press message on one line": "saga",
    "an order padded with spaces": "attila",
    "an order with spaces inside": "diplomacy",
}


def test_every_shape_of_the_benchmark_is_read_here():
    assert set(READERS) == set(shapes("x", 10))


@pytest.mark.parametrize("shape", READERS)
def test_a_mail_costs_time_in_proportion_to_its_size(tmp_path, shape):
    referee, seat, token, order = referee_with(READERS[shape], tmp_path / "club")
    now, number = "2030-01-01T00:30:00Z", 0
    per_byte = {}
    for size in SIZES:
        text = shapes(order, size)[shape]
        least = None
        for _ in range(RUNS[size]):
            number += 1
            now = later(now, 0.01)
            seconds, _answer = handled(referee, mail(referee, seat, token, text, number), now)
            least = seconds if least is None else min(least, seconds)
            per_byte[size] = least / len(text)
            if size == SIZES[-1] and per_byte[size] <= GROWTH * per_byte[SIZES[0]]:
                break
        status = referee.store.one("SELECT status, reason FROM inbox ORDER BY id DESC LIMIT 1")
        assert status["status"] == "done", status
    growth = {size: round(per_byte[size] / per_byte[SIZES[0]], 2) for size in SIZES}
    assert max(growth.values()) <= GROWTH, growth
