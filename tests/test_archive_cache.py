"""The archive's cache (pbem/archive_cache.py): a publish that writes a game's finished
turns from it writes the very bytes a publish without it writes, for every game and
both languages, after a rollback and published whole; and it draws only the open turns.
"""

from pathlib import Path
import shutil
import stat

import pbem.publish
from pbem.archive_cache import TurnCache
from pbem.publish import publish

from conftest import START, make_referee, seats
from test_publish import GAMES, archive_faults, contents, play

PHASES = {"auguste": 10_000, "seigneurs": 30}   # auguste to its end; every game past turn 1


def cache_of(referee) -> Path:
    """The cache folder beside the referee's database."""
    return Path(f"{referee.store.path}.archive-cache")


def published(referee, site: Path, drawn: list, cached: bool = True, **options) -> dict:
    """Every file a publish into the empty folder `site` writes (`cached`: with the cache
    as earlier publishes left it, else with none); the turns it drew go to `drawn`."""
    if not cached:
        shutil.rmtree(cache_of(referee), ignore_errors=True)
    drawn.clear()
    publish(referee, site, **options)
    assert archive_faults(site) == [] and not (site.parent / f".{site.name}.staged").exists()
    return contents(site)


def test_a_page_written_from_the_cache_is_the_page_written_fresh(tmp_path, monkeypatch):
    referee = make_referee(tmp_path)
    for ruleset, game_id, names, options in GAMES:
        referee.new_game(ruleset, game_id, seats(*names), START, options, seed=f"{game_id}-s")
        play(referee, game_id, f"{game_id}-s", phases=PHASES.get(ruleset, 7))
    drawn, telling = [], pbem.publish.turn_context
    monkeypatch.setattr(pbem.publish, "turn_context",
                        lambda drawer, told, turn: drawn.append((told.game_id, turn.number))
                        or telling(drawer, told, turn))

    fresh = published(referee, tmp_path / "fresh", drawn, cached=False)
    turns = {game_id: len(list((tmp_path / "fresh" / game_id).glob("turn-*.fr.html")))
             for _ruleset, game_id, *_rest in GAMES}
    assert sum(turns.values()) == len(drawn) and min(turns.values()) > 1, turns
    assert any(p.name.endswith(".fr.html") for p in fresh) and \
        any(p.name.endswith(".html") and p.suffixes == [".html"] for p in fresh)
    # what other code, templates or club language drew is forgotten
    (cache_of(referee) / "drawn-by-another-pbem").mkdir()
    assert published(referee, tmp_path / "cached", drawn) == fresh
    assert [p.name for p in cache_of(referee).iterdir()] == [TurnCache.beside(
        referee.store.path, referee.config["lang"]).root.name]
    # where a game's new folder cannot be written beside the archive, it is written in
    # place, the same
    with monkeypatch.context() as patched:
        patched.setattr(pbem.publish.Site, "stage", lambda site, folder: False)
        assert published(referee, tmp_path / "in-place", drawn) == fresh
    # the open turn of each game still running alone was drawn again
    running = [row["id"] for row in referee.store.all(
        "SELECT id FROM games WHERE status != 'over' ORDER BY id")]
    assert sorted(g for g, _turn in drawn) == running and len(running) > 1, drawn
    for path in cache_of(referee).rglob("*"):
        assert stat.S_IMODE(path.stat().st_mode) == (0o700 if path.is_dir() else 0o600)

    # a finished game published whole is kept apart, and written the same either way
    whole = published(referee, tmp_path / "whole", drawn, reveal=True)
    assert whole != fresh and whole[Path("rome/turn-1.html")] != fresh[Path("rome/turn-1.html")]
    assert published(referee, tmp_path / "whole-cached", drawn, reveal=True) == whole
    assert sorted(g for g, _turn in drawn) == running
    assert published(referee, tmp_path / "public-again", drawn) == fresh
    assert published(referee, tmp_path / "whole-fresh", drawn, cached=False,
                     reveal=True) == whole

    # a rollback undoes turns the cache holds: what it shows now is what is written
    publish(referee, tmp_path / "refill")
    for game_id in ("huns", "vale"):
        referee.rollback(game_id, 3, "a lost order found", later_than(referee, game_id))
    rolled = published(referee, tmp_path / "rolled", drawn)
    assert rolled != fresh
    assert published(referee, tmp_path / "rolled-fresh", drawn, cached=False) == rolled
    play(referee, "huns", "huns-s", phases=3)
    publish(referee, tmp_path / "refill-2")
    assert published(referee, tmp_path / "on", drawn) == \
        published(referee, tmp_path / "on-fresh", drawn, cached=False)


def later_than(referee, game_id: str) -> str:
    """A moment after a game's last event."""
    from pbem.timeutil import later
    return later(referee.store.one("SELECT max(at) AS at FROM events WHERE game = ?",
                                   [game_id])["at"], 1)
