"""What writing the club's archive costs, against the floor of writing the same pages.

Builds a club of bot games (20 by default, every game in turn, each played
to its end or to its 40th turn, straight through the engine and the store,
a press to every seat now and then), a tick at a time: each tick plays one
phase of every game still playing, then publishes what changed into the
club's publish_dir (`publish_changed`), as a running club's ticks do. Those
publishes fill the archive's cache beside the database (docs/archive.md):
the pages and boards of every finished turn. Then it times, each on an
empty folder, beside the floor:

- the first publish of a club whose cache is empty (the cache the ticks
  filled set aside): every game's log folded, each phase narrated and its
  board drawn in both languages, every page written; printed with its
  ratio;
- a cold publish (repeated), with the cache as the club's ticks filled it:
  the finished turns written from the cache; each game's open turn folded
  and drawn, its page, the club's index and the rules written fresh. This
  is the target line;
- the floor: what any archive of these pages must do: render each page pbem
  wrote with Jinja from its strings (its title and its body, known in
  advance: no game logic, nothing drawn) and write it, and every board file,
  whole (written beside its place and renamed into it, as pbem does).

It prints the archive's size per game-turn, and then what a tick costs once a
game has played one more turn: `publish_changed` (only that game's pages from
the turn its new events begin in), and its look at whether anything changed
when nothing did, beside the idle tick's own due-games query.

Targets: at most 60 KiB per game-turn; a cold publish (with the cache the
ticks filled) within 2x the floor.

    python benchmarks/publish.py [--games 20] [--turns 40] [--repeat 3]
"""

import argparse
from pathlib import Path
import re
import shutil
import statistics
import sys
import tempfile
import time

from jinja2 import Environment

import pbem.games
from pbem import inbound
from pbem.adjudicator import engine
from pbem.adjudicator.contract import REFEREE
from pbem.adjudicator.rng import PhaseRng
from pbem.app import Referee, SeatSpec
from pbem.config import load
from pbem.archive_cache import TurnCache
from pbem.publish import publish, publish_changed, story
from pbem.store import Store
from pbem.timeutil import later

START = "2030-01-01T00:00:00Z"
RULESETS = ["auguste", "attila", "saga", "seigneurs", "diplomacy"]
PRESS_EVERY = 5      # a phase in this many, a seat writes to every seat
FLOOR_PAGE = Environment(autoescape=False).from_string(
    "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{{ title }}</title>"
    "</head>\n<body>{{ body }}</body></html>\n")
TITLE = re.compile(r"<title>(.*?)</title>", re.DOTALL)
BODY = re.compile(r"<body>(.*)</body>", re.DOTALL)


def club(folder: Path, games: int, turns: int) -> Referee:
    """A referee whose database holds `games` bot games, every game in turn, played a
    tick at a time: each tick plays a phase of every game still playing and publishes
    what changed into publish_dir."""
    (folder / "pbem.toml").write_text(
        'db = "bench.db"\naddress = "pbem@club.example"\npublish_dir = "site"\n',
        encoding="utf-8")
    config = load(str(folder / "pbem.toml"), env={})
    referee = Referee(Store(config.path("db")), config)
    playing = {}
    for number in range(games):
        ruleset = RULESETS[number % len(RULESETS)]
        game = pbem.games.load(ruleset)
        options = {**game.demo_options(turns), **({"max_turns": str(turns)}
                                                  if ruleset == "auguste" else {})}
        game_id = f"{ruleset}-{number}"
        referee.new_game(ruleset, game_id, [SeatSpec(n, f"{n}@club.example")
                                            for n in game.DEMO_SEATS], START, options,
                         seed=game_id)
        playing[game_id] = (START, set())
    while playing:
        for game_id, (now, told) in list(playing.items()):
            if play_phase(referee, game_id, turns, now, told):
                del playing[game_id]
            else:
                playing[game_id] = (later(now, 1), told)
        publish_changed(referee)
    return referee


def play_phase(referee, game_id: str, turns: int, now: str, told: set) -> bool:
    """Play one phase of a game with its bots (the referee's rulings by its script);
    True once the game is over or past its `turns`th turn (`told`: the turns seen)."""
    table = referee.table(game_id)
    game, state = table.game, table.state
    eng = state["engine"]
    told.add(table.turn()[0])
    if eng["over"] or len(told - {None, 0}) > turns:
        return True
    if REFEREE in eng["requests"]:
        values, text = game.bot_ruling(state["game"], eng["requests"][REFEREE],
                                       PhaseRng(game_id, "bot:referee", eng["phase"]))
        [ruling] = [r for r in referee.rulings(game_id) if r["asked"] == REFEREE]
        referee.rule(game_id, ruling["id"], text, values, now)
        return False
    if eng["phase"] % PRESS_EVERY == 1:
        inbound.submit(referee, game_id, eng["seats"][0],
                       f"PRESS ALL\nHear ye, all of {game_id}, phase {eng['phase']}!", now)
        table = referee.table(game_id)
        state = table.state
    with referee.store.transaction():
        given = {}
        for seat in sorted(state["engine"]["requests"]):
            text = game.bot_orders(state["game"], seat, PhaseRng(game_id, seat, eng["phase"]))
            given[seat], _errors = game.parse(state["game"], seat, text)
        events = engine.close_phase(game, state, given, game_id)
        table = referee.record(table, events, now)
        referee.record(table, engine.after_resolution(game, table.state, now, game_id), now)
    return False


def timed(action) -> tuple[float, float]:
    """(wall, CPU) seconds one call takes."""
    wall, cpu = time.perf_counter(), time.process_time()
    action()
    return time.perf_counter() - wall, time.process_time() - cpu


def floor(files: dict, site: Path) -> None:
    """Write every file of the archive as pbem wrote it: each page rendered with Jinja
    from its title and body, each board file from its bytes; each written beside its
    place and renamed into it."""
    for path, data in files.items():
        if path.suffix == ".html":
            text = data.decode()
            data = FLOOR_PAGE.render(title=TITLE.search(text).group(1),
                                     body=BODY.search(text).group(1)).encode()
        target = site / path
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.with_name(f".{target.name}.tmp")
        temporary.write_bytes(data)
        temporary.replace(target)


def main(argv=None) -> int:
    """Build the club, then time cold publishes beside the floor, and a tick's."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        built = time.perf_counter()
        referee = club(folder, args.games, args.turns)
        print(f"club of {args.games} games built in {time.perf_counter() - built:.0f} s, "
              "a tick at a time, each tick publishing what changed (which fills the "
              "archive's cache)")
        cache = TurnCache.beside(referee.store.path, referee.config["lang"]).top
        cache.rename(folder / "ticks-cache")
        first, files = beside_floor(referee, folder, "first")
        shutil.rmtree(cache)
        (folder / "ticks-cache").rename(cache)
        ours, floors = [], []
        for round_ in range(args.repeat):
            cold, files = beside_floor(referee, folder, f"cold-{round_}")
            ours.append(cold[0])
            floors.append(cold[1])
            site = folder / f"cold-{round_}"
            if round_ + 1 < args.repeat:
                shutil.rmtree(site)
        turns = sum(len(story(referee, g["id"]).turns)
                    for g in referee.store.all("SELECT id FROM games"))
        size = sum(len(data) for data in files.values())
        pages = sum(1 for path in files if path.suffix == ".html")
        wall, cpu = (statistics.median(t[i] for t in ours) for i in (0, 1))
        floor_wall, floor_cpu = (statistics.median(t[i] for t in floors) for i in (0, 1))
        print(f"archive: {args.games} games, {turns} turns, {len(files)} files ({pages} "
              f"pages), {size / 2 ** 20:.1f} MiB: {size / turns / 1024:.1f} KiB per "
              f"game-turn (target: at most 60)")
        print(f"first publish, the archive's cache empty: pbem {first[0][0]:.2f} s wall, "
              f"{first[0][1]:.2f} s CPU; floor {first[1][0]:.2f} s wall, {first[1][1]:.2f} s "
              f"CPU; ratio {first[0][0] / first[1][0]:.2f}x wall, "
              f"{first[0][1] / first[1][1]:.2f}x CPU")
        print(f"cold publish (an empty folder, the cache as the ticks filled it), median of "
              f"{args.repeat}: pbem {wall:.2f} s wall, {cpu:.2f} s CPU; floor "
              f"{floor_wall:.2f} s wall, {floor_cpu:.2f} s CPU; ratio {wall / floor_wall:.2f}x "
              f"wall, {cpu / floor_cpu:.2f}x CPU (target: within 2x)")
        tick(referee, folder, site)
    return 0


def beside_floor(referee, folder: Path, name: str) -> tuple:
    """((wall, CPU) of a publish into the empty folder `name`, (wall, CPU) of the floor
    writing the same files), and those files {path: bytes}."""
    site = folder / name
    ours = timed(lambda: publish(referee, site))
    files = {p.relative_to(site): p.read_bytes() for p in site.rglob("*") if p.is_file()}
    copy = folder / f"floor-{name}"
    floors = timed(lambda: floor(files, copy))
    shutil.rmtree(copy)
    return (ours, floors), files


def tick(referee, folder: Path, site: Path) -> None:
    """A tick's publish after one game played one more phase, and with nothing to do."""
    referee.config.data["publish_dir"] = str(site)
    publish_changed(referee)
    game_id = referee.store.all("SELECT id FROM games WHERE status = 'running' "
                                "ORDER BY id")[:1] or referee.store.all(
        "SELECT id FROM games ORDER BY id")[:1]
    game_id = game_id[0]["id"]
    last = referee.store.one("SELECT max(at) AS at FROM events WHERE game = ?",
                             [game_id])["at"]
    play_phase(referee, game_id, 10 ** 6, later(last, 1), set())
    whole = timed(lambda: publish(referee, folder / "whole", [game_id]))
    changed = timed(lambda: publish_changed(referee))
    idle = statistics.median(timed(lambda: publish_changed(referee))[0] for _ in range(20))
    due = statistics.median(timed(lambda: referee.due_games("2040-01-01T00:00:00Z"))[0]
                            for _ in range(20))
    print(f"a tick after one more phase of {game_id}: {changed[0] * 1000:.0f} ms wall, "
          f"{changed[1] * 1000:.0f} ms CPU (that game published whole: "
          f"{whole[0] * 1000:.0f} ms wall, {whole[1] * 1000:.0f} ms CPU)")
    print(f"a tick with nothing to publish {idle * 1000:.2f} ms, beside its due-games "
          f"query {due * 1000:.2f} ms")


if __name__ == "__main__":
    sys.exit(main())
