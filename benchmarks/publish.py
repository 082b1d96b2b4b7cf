"""What rewriting a game's archive costs at a tick, against the floor of writing its pages.

Builds one Auguste game of N turns (bots move now and then) straight through
the engine and the store, publishes its archive once, plays one more turn,
then times, interleaved and repeated, on copies of the archive as it was:

- the floor: what any archive must do after a turn: draw the new turn's
  board (SVG to PNG, both languages) and write every page of the game as
  this run writes them (their bytes known in advance);
- pbem: `publish` of that game, which reads its log, folds it, renders every
  page in both languages, draws only the boards it has not drawn, and
  writes only the files that changed.

It also times the tick's look at whether anything needs publishing when
nothing changed (one query), beside the idle tick's own due-games query.

    python benchmarks/publish.py [--turns 60] [--repeat 3]
"""

import argparse
from pathlib import Path
import shutil
import statistics
import sys
import tempfile
import time

from pbem import render
from pbem.adjudicator import engine
from pbem.i18n import speaking
from pbem.publish import publish, publish_changed
from pbem.timeutil import later

from replay import SEED, build


def timed(action) -> float:
    """Seconds one call takes."""
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def one_more_turn(referee) -> None:
    """Resolve the open turn with every seat's default orders, an hour after the last event."""
    with referee.store.transaction():
        table = referee.table("g")
        now = later(list(referee.store.event_rows("g"))[-1]["at"], 1)
        events = engine.close_phase(table.game, table.state, {}, SEED)
        table = referee.record(table, events, now)
        referee.record(table, engine.after_resolution(table.game, table.state, now, SEED), now)


def floor(referee, site: Path, pages: dict) -> None:
    """Draw the last board in both languages and write the game's pages, each whole."""
    table = referee.table("g")
    for lang in ("en", "fr"):
        with speaking(lang):
            render.board_png.__wrapped__(render.board_svg("auguste", table.game, table.public))
    for path, data in pages.items():
        temporary = site / path.with_name(f".{path.name}.tmp")
        temporary.write_bytes(data)
        temporary.replace(site / path)


def main(argv=None) -> int:
    """Build the game and its archive, then time a tick's rewrite beside the floor."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        referee = build(folder, args.turns + 1)
        (folder / "before").mkdir()
        cold = timed(lambda: publish(referee, folder / "before"))
        one_more_turn(referee)
        last = referee.store.game("g")["last_seq"]
        pages = {}
        ours, floors = [], []
        for round_ in range(args.repeat):
            site = folder / f"site-{round_}"
            shutil.copytree(folder / "before", site)
            render.board_png.cache_clear()
            ours.append(timed(lambda: publish(referee, site, ["g"])))
            pages = {p.relative_to(site): p.read_bytes() for p in site.rglob("*.html")}
            copy = folder / f"floor-{round_}"
            shutil.copytree(folder / "before", copy)
            floors.append(timed(lambda: floor(referee, copy, pages)))
        referee.config.data["publish_dir"] = str(folder / "before")
        publish_changed(referee)
        idle = statistics.median(timed(lambda: publish_changed(referee)) for _ in range(20))
        due = statistics.median(timed(lambda: referee.due_games(
            "2030-01-01T00:00:00Z")) for _ in range(20))
        ours_s, floor_s = statistics.median(ours), statistics.median(floors)
        print(f"archive of one game, {last} events, {len(pages)} pages, median of "
              f"{args.repeat}:")
        print(f"  first publish {cold:.2f} s (every board drawn)")
        print(f"  pbem publish after a turn {ours_s * 1000:.0f} ms, floor "
              f"{floor_s * 1000:.0f} ms, ratio {ours_s / floor_s:.1f}x")
        print(f"  a tick with nothing to publish {idle * 1000:.2f} ms, beside its due-games "
              f"query {due * 1000:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
