"""The benchmarks still run (smoke only: nothing here is about time)."""

from pathlib import Path
import re
import subprocess
import sys

import pytest

BENCH = Path(__file__).parent.parent / "benchmarks"


def run(script: str, *args: str) -> str:
    done = subprocess.run([sys.executable, str(BENCH / script), *args], capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_idle_tick_benchmark_runs():
    out = run("idle_tick.py", "--games", "50", "--ticks", "1")
    assert "idle tick over 50 games" in out
    assert "pbem tick" in out and "floor" in out and "ratio" in out and "peak RSS" in out


def test_ingest_benchmark_runs():
    out = run("ingest.py", "--mails", "8", "--runs", "1")
    assert "spread: 8 order mails to 8 games, no turn due; 0 turns resolved, 8 mails sent" in out
    assert "turns: 8 mails, 2 turns, every game on the same position; 2 turns resolved, " \
        "16 mails sent, 1 new boards drawn" in out
    assert "boards: 8 mails, 2 turns, each game its own board; 2 turns resolved, " \
        "16 mails sent, 2 new boards drawn" in out
    assert out.count("fair floor") == 6 and out.count("in CPU time") == 3
    assert out.count("peak RSS") == 3 and out.count("the fastest of each") == 3


@pytest.mark.slow
def test_latency_benchmark_runs():
    out = run("latency.py", "--mails", "2")
    assert "IMAP (Dovecot IDLE) to SMTP: median" in out
    assert "floor: Dovecot's own IDLE delay: median" in out
    assert "pbem's SMTP server to SMTP: median" in out


def test_quote_strip_benchmark_runs():
    out = run("quote_strip.py", "--sizes", "1000,10000")
    assert "blank lines, then quoted lines" in out and "floor ms" in out


def test_long_lines_benchmark_runs():
    out = run("long_lines.py", "--sizes", "1000,2000", "--games", "auguste", "--repeat", "1")
    assert out.count("auguste") == 2 * 11 and "floor ms" in out and "growth" in out


def test_replay_benchmark_runs():
    out = run("replay.py", "--turns", "20", "--repeat", "1")
    assert "pbem replay --verify" in out and "x floor" in out


def test_mail_size_benchmark_runs():
    out = run("mail_size.py", "--seats", "4", "--repeat", "2")
    assert "turn report, 4 seats" in out and "floor" in out and "composing it" in out
    assert "drawing its board PNG" in out


def test_db_growth_benchmark_runs():
    out = run("db_growth.py", "--turns", "2")
    assert "kB/turn" in out and "x floor" in out


def test_new_game_benchmark_runs():
    out = run("new_game.py", "--games", "2")
    assert "pbem new game" in out and "x floor" in out


def test_boards_benchmark_runs():
    out = run("boards.py", "--turns", "1", "--boards", "3")
    for game in ("auguste", "attila", "saga", "seigneurs", "diplomacy"):
        assert f"{game:10} board" in out and f"{game:10} close-up" in out
    assert out.count("ratio") >= 5 and "floor" in out and "resvg alone" in out


def test_diplomacy_resolution_benchmark_runs():
    out = run("diplomacy_resolution.py", "--phases", "5", "--repeat", "1")
    assert "movement phases of 34 units" in out and "x floor" in out


def test_publish_benchmark_runs():
    out = run("publish.py", "--games", "5", "--turns", "2", "--repeat", "1")
    assert "archive: 5 games," in out and "KiB per game-turn" in out
    assert "cold publish" in out and "floor" in out and "ratio" in out
    assert "a tick after one more phase of" in out and "a tick with nothing to publish" in out


def test_diplomacy_game_benchmark_runs():
    out = run("diplomacy_game.py", "--years", "3", "--repeat", "1")
    assert "pbem replay --verify" in out and "ms per phase" in out and "x floor" in out


def test_seigneurs_bag_benchmark_feeds_every_farm_before_turn_5():
    out = run("seigneurs_bag.py", "--games", "4", "--turns", "4")
    for lords in (2, 3, 4, 5):
        assert f"({lords} lords) turn  4: bag wood" in out
    assert "farms short before turn 5: 0" in out and "x floor" in out
    rows = re.findall(r"^ +(\d+) +(\d+)/(\d+) .* (\d+) of 4$", out, re.M)
    assert [int(turn) for turn, *_ in rows] == [1, 2, 3, 4]
    assert all(fed == farms and emptied == "0" for _turn, fed, farms, emptied in rows), rows
