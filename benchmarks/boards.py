"""What drawing a board's PNG costs, against the floor of writing a PNG of the same image.

Each game is played by its bots (`pbem demo`); the boards its mails kept are
then drawn again in turn by a process that forgot every drawing, as a
running pbem meets them: the first board draws its ground (or reads it from
the grounds an earlier process kept on disk), each later one only the
pieces that moved. Interleaved with each board, and on the same
image, the floors:

- the floor: Pillow writing the board's own indexed image as a PNG, at the
  compression level pbem uses (what any referee mailing a PNG of that board pays);
  the median sizes of both PNGs are printed last, as a faster writer that wrote
  bigger mails would be no gain;
- resvg alone, drawing the whole SVG to its own PNG (what pbem did before).

Times are CPU milliseconds (the machine is shared), each board's alone, the
least of --repeats runs (each from a process's start); the medians, the
spread (10th to 90th percentile) and the ratio to the floor are printed per
game, with the first board of the run apart, and the close-ups of the seats'
own areas likewise. Target: a new position within 5 ms.

    python benchmarks/boards.py [--turns 6] [--boards 40] [--repeats 5] [--games auguste,attila,saga,seigneurs,diplomacy]
"""

import argparse
import io
from pathlib import Path
import sqlite3
import statistics
import tempfile
import time

from PIL import Image
import resvg_py

from pbem import demo, raster
from pbem.mail import stored

GAMES = ("auguste", "attila", "saga", "seigneurs", "diplomacy")
TURNS = {"seigneurs": 1}  # a Seigneurs turn is some twenty phases, each with its boards


def kept(folder: Path) -> tuple[list[str], list[dict]]:
    """The boards and the close-ups (with their board's SVG) a demo's mails kept, in order."""
    db = sqlite3.connect(folder / "demo.db")
    try:
        return stored.boards_kept(db)
    finally:
        db.close()


def cpu(work) -> tuple[float, object]:
    """CPU milliseconds of a call, and what it returned."""
    started = time.process_time()
    out = work()
    return (time.process_time() - started) * 1000, out


def floor(png: bytes) -> tuple[float, int]:
    """CPU milliseconds Pillow takes to write this PNG's own indexed image again, and the
    size of what it writes."""
    image = Image.open(io.BytesIO(png))
    image.load()
    out = io.BytesIO()
    return cpu(lambda: image.save(out, "PNG", compress_level=raster.COMPRESS_LEVEL))[0], \
        len(out.getvalue())


def resvg_alone(svg: str) -> float:
    """CPU milliseconds resvg takes to draw the whole SVG to its own PNG."""
    return cpu(lambda: resvg_py.svg_to_bytes(
        svg_string=svg, shape_rendering="crisp_edges",
        text_rendering="optimize_legibility", **raster.FONTS))[0]


def spread(values: list[float]) -> str:
    """Median and 10th to 90th percentile."""
    ordered = sorted(values)
    low, high = ordered[len(ordered) // 10], ordered[(len(ordered) * 9) // 10]
    return f"{statistics.median(ordered):6.2f} ({low:.2f}-{high:.2f})"


def measure(draw, items: list, repeats: int) -> dict:
    """pbem's, the floor's and resvg's CPU times for each item, interleaved, after the
    first (timed apart: it draws the ground); the whole run is made `repeats` times,
    each from a process's start (every drawing forgotten), and each item keeps its
    least time (the run least disturbed by other work on the machine)."""
    runs = []
    for _ in range(repeats):
        raster.forget()
        first, png = cpu(lambda: draw(items[0]))
        times = {"first": [first], "pbem": [], "floor": [], "resvg": [], "size": [],
                 "floor size": []}
        for item in items[1:]:
            ms, png = cpu(lambda: draw(item))
            times["pbem"].append(ms)
            floor_ms, floor_size = floor(png)
            times["floor"].append(floor_ms)
            times["size"].append(len(png))
            times["floor size"].append(floor_size)
            times["resvg"].append(resvg_alone(item if isinstance(item, str) else item["svg"]))
        runs.append(times)
    least = {key: [min(values) for values in zip(*(run[key] for run in runs))]
             for key in runs[0]}
    return {**least, "first": least["first"][0]}


def report(game: str, what: str, found: dict) -> None:
    """One line of figures."""
    if not found["pbem"]:
        print(f"{game:10} {what:9} too few to measure")
        return
    ratio = statistics.median(found["pbem"]) / statistics.median(found["floor"])
    print(f"{game:10} {what:9} {len(found['pbem']) + 1:4} | first {found['first']:6.1f} | "
          f"pbem {spread(found['pbem'])} | floor {spread(found['floor'])} | "
          f"ratio {ratio:.2f} | resvg alone {spread(found['resvg'])} | "
          f"kB {statistics.median(found['size']) / 1000:.1f} "
          f"(floor {statistics.median(found['floor size']) / 1000:.1f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=6)
    parser.add_argument("--boards", type=int, default=40, help="at most this many per game")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--repeats", type=int, default=5,
                        help="runs of each game's boards; each board keeps its least time")
    args = parser.parse_args()
    print("CPU ms per PNG: median (10th-90th percentile); the floor is Pillow writing the same "
          "image as a PNG")
    print(f"{'game':10} {'what':9} {'n':>4} | first board (its ground drawn or read) | "
          "a new position | floor | pbem / floor | resvg on the whole SVG | PNG size")
    with tempfile.TemporaryDirectory() as folder:
        for game in args.games.split(","):
            played = Path(folder) / game
            demo.play(game, "bench", played, TURNS.get(game, args.turns))
            boards, close_ups = kept(played)
            report(game, "board", measure(raster.png, boards[:args.boards], args.repeats))
            report(game, "close-up", measure(
                lambda c: raster.close_up(c["svg"], c["zoom"], tuple(c["window"])),
                close_ups[:args.boards], args.repeats))


if __name__ == "__main__":
    main()
