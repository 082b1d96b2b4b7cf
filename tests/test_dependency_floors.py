"""The dependency floors pyproject.toml declares are true: exactly those versions, installed
in a fresh venv, play a whole game (`pbem demo`) and a French seat's mail with its time zone,
with zoneinfo reading the tzdata package alone."""

from email import message_from_bytes, policy
from importlib.metadata import version
import json
import os
from pathlib import Path
import re
import shutil
import subprocess
import sys
import tomllib

import pytest

ROOT = Path(__file__).parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
FLOOR = re.compile(r"^([A-Za-z0-9_.-]+)>=([0-9][0-9A-Za-z.]*)$")


def floors() -> dict[str, str]:
    """Each dependency and its declared lowest version."""
    found = {}
    for requirement in PROJECT["dependencies"]:
        match = FLOOR.match(requirement)
        assert match, f"{requirement}: declare every dependency as name>=version"
        found[match.group(1)] = match.group(2)
    return found


def release(text: str) -> tuple:
    """A version's numbers, trailing zeros dropped: 3.1 and 3.1.0 are the same release."""
    numbers = [int(part) for part in re.findall(r"\d+", text)]
    while numbers and numbers[-1] == 0:
        numbers.pop()
    return tuple(numbers)


def test_every_dependency_has_a_floor_and_python_agrees_with_the_readme():
    assert {"click", "sqlite-utils", "tzdata"} <= set(floors())
    assert PROJECT["requires-python"] == ">=3.11"
    assert "Python 3.11 or later" in (ROOT / "README.md").read_text()
    assert sys.version_info >= (3, 11)
    for name, low in floors().items():  # what this venv has is at least the floor
        assert release(version(name)) >= release(low), (name, version(name))


@pytest.mark.slow
def test_the_lowest_declared_versions_play_a_game(tmp_path):
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "__pycache__", "build", "*.egg-info", ".pytest_cache", "pbem-demo"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pins = [f"{name}=={low}" for name, low in floors().items()]
    install = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q",
                              *pins, str(source)],   # the pip cache makes a second run quick
                             capture_output=True, text=True, timeout=900)
    assert install.returncode == 0, install.stderr[-3000:]
    listed = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "list", "--format",
                             "json"], capture_output=True, text=True, check=True).stdout
    have = {row["name"].lower().replace("_", "-"): row["version"] for row in json.loads(listed)}
    for name, low in floors().items():
        assert release(have[name.lower()]) == release(low), f"{name} {have[name.lower()]}"

    env = {**os.environ, "PYTHONTZPATH": ""}  # zones from the tzdata package only
    env.pop("PBEM_CONFIG", None)
    pbem = str(venv / "bin" / "pbem")

    def run(*args, cwd=tmp_path) -> str:
        done = subprocess.run([pbem, *args], cwd=cwd, env=env, capture_output=True,
                              text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stdout
    assert "Replay: verified, byte for byte" in run("demo", "--dir", "demo", "--turns", "8")
    club = tmp_path / "club"
    run("init", "--dir", str(club))
    run("new", "auguste", "--id", "rome", "--seat", "ann=ann@x.example", "--seat",
        "bob=bob@x.example", "--tz", "ann=Europe/Paris", "--lang", "ann=fr",
        "--now", "2026-12-01T12:00Z", cwd=club)
    assert "mails sent: 2" in run("tick", "-v", "--now", "2026-12-01T12:00Z", cwd=club)
    mails = [message_from_bytes(path.read_bytes(), policy=policy.default)
             for path in (club / "mail" / "outbox" / "new").iterdir()]
    to_ann = next(m for m in mails if m["To"] == "ann@x.example")
    text = to_ann.get_body(("plain",)).get_content()
    assert "avant jeudi 13:00" in text  # Thursday 12:00 UTC, in Paris, in French
