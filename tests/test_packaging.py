"""A plain `pip install .` ships every game and every data file (checked against pyproject)."""

from fnmatch import fnmatch
from pathlib import Path
import tomllib

ROOT = Path(__file__).parent.parent
SETUP = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def test_every_game_folder_is_an_installed_package():
    games = sorted(p.parent.name for p in (ROOT / "games").glob("*/__init__.py"))
    assert games, "no games found"
    for name in games:
        assert f"pbem.games.{name}" in SETUP["packages"], f"games/{name} missing from pyproject"


def test_every_data_file_matches_a_package_data_pattern():
    patterns = SETUP["package-data"]["*"]
    for top in ("pbem", "games", "templates"):
        for path in (ROOT / top).rglob("*"):
            if path.is_dir() or path.suffix in (".py", ".pyc") or "__pycache__" in path.parts:
                continue
            package = next(p for p in path.parents if p in package_folders())
            relative = path.relative_to(package).as_posix()
            assert any(matches(relative, p) for p in patterns), f"{path} would not be installed"


def package_folders() -> set[Path]:
    """The folder of every package pyproject installs (through its package-dir)."""
    mapping = SETUP["package-dir"]
    folders = set()
    for name in SETUP["packages"]:
        prefix = max((p for p in mapping if name == p or name.startswith(p + ".")), key=len)
        rest = name[len(prefix):].lstrip(".").replace(".", "/")
        folders.add(ROOT / mapping[prefix] / rest if rest else ROOT / mapping[prefix])
    return folders


def matches(relative: str, pattern: str) -> bool:
    """Does setuptools' package-data glob take this file? Its '*' stops at a folder."""
    parts, wanted = relative.split("/"), pattern.split("/")
    return len(parts) == len(wanted) and all(fnmatch(a, b) for a, b in zip(parts, wanted))



def test_the_ci_runs_the_readme_test_command_which_installs_every_real_part():
    readme = [line.strip() for line in (ROOT / "README.md").read_text().splitlines()
              if "pytest" in line and "apt-get" in line]
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()
          if "pytest" in line]
    assert len(readme) == 1 and ci == readme, (readme, ci)
    for package in ("dovecot-imapd", "chromium", "chromium-driver"):
        assert f" {package} " in readme[0], f"the test command does not install {package}"
    assert "'.[test]'" in readme[0]
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]["test"]
    assert any(req.startswith("selenium") for req in extra), "selenium not in the test extra"
