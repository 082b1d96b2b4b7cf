"""Shared fixtures: a referee on a real SQLite file with local Maildir folders."""

from pathlib import Path

import pytest

from pbem.app import Referee, SeatSpec
from pbem.config import load
from pbem.store import Store
from pbem.timeutil import later

START = "2026-12-01T12:00:00Z"
# The start of a script for a child process that kills itself (SIGKILL) at its nth write to
# the database (Store.execute, insert, update; n is sys.argv[1]): what it runs follows.
KILLED_AT_WRITE = """
import os, signal, sys
from pbem.store import Store
count = [0]
def killing(real):
    def write(self, *args, **kwargs):
        count[0] += 1
        if count[0] == int(sys.argv[1]):
            os.kill(os.getpid(), signal.SIGKILL)
        return real(self, *args, **kwargs)
    return write
for name in ("execute", "insert", "update"):
    setattr(Store, name, killing(getattr(Store, name)))
"""


def make_referee(folder: Path, **settings) -> Referee:
    """A Referee whose db and mail folders live in `folder`."""
    lines = ['db = "pbem.db"', 'address = "pbem@referee.example"',
             'referee = "boss@referee.example"']
    lines += [f"{k} = {v!r}".replace("'", '"') for k, v in settings.items()]
    (folder / "pbem.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "pbem.toml").chmod(0o600)  # as pbem init makes it
    config = load(str(folder / "pbem.toml"), env={})
    return Referee(Store(config.path("db")), config)


@pytest.fixture
def referee(tmp_path) -> Referee:
    """A fresh referee in a temporary folder."""
    return make_referee(tmp_path)


def next_phase(referee: Referee, game_id: str, now: str) -> str:
    """Tick an hour after `now` (resolving a phase whose orders are all in); when that
    resolves nothing, tick at the open phase's deadline, which must. The time after."""
    now = later(now, 1)
    if not referee.tick(now, send=False).phases:
        now = referee.table(game_id).state["engine"]["deadline"]
        assert referee.tick(now, send=False).phases, "a due phase was not resolved"
    return now


def seats(*names) -> list[SeatSpec]:
    """SeatSpecs name@players.example for each name."""
    return [SeatSpec(name, f"{name}@players.example") for name in names]


@pytest.fixture
def auguste_game(referee):
    """A four-player Auguste game 'rome' (preset 4-2), welcome mails queued."""
    referee.new_game("auguste", "rome", seats("ann", "bob", "cat", "dan"), START,
                     {"preset": "4-2"}, seed="fixed-seed")
    return referee


def pytest_addoption(parser):
    """--slow: also run the longest runs (10,000 hostile mails), which are skipped otherwise."""
    parser.addoption("--slow", action="store_true", default=False,
                     help="also run the 10,000-mail fuzz run")
