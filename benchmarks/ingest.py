"""What `pbem poll && pbem tick` costs on a batch of order mails, beside two floors.

pbem: the real commands as cron runs them, `pbem poll` from the local Maildir,
then `pbem tick` (identity, orders recorded, acknowledgements queued, due
turns resolved and reported, the outbox delivered into the outgoing Maildir).

The fair floor (benchmarks/fair_floor.py) does per mail what any correct
referee must, with no game logic: parse it, store it and its answer in one
transaction, render a short text and HTML answer with Jinja2, compose it,
write it into a Maildir, with pbem's own SQLite settings and sync policy; in
the turns scenarios it also writes one report per seat per resolved turn, so
it sends as many mails as pbem. The old floor only parses and stores each
mail (one commit per mail); it is printed for comparison.

Three scenarios, each with four-seat Auguste games:

- spread: one order mail to each of N games, so no turn is due;
- turns: four order mails to each of N/4 games, so every turn resolves and
  every seat gets its report; the games are copies of one and every seat
  passes, so every board is the same and its PNG is drawn once in the run;
- boards: as turns, but each game starts from a position of its own (the
  first game's, eight legionaries moved elsewhere) and each seat gives real
  orders (the demo's bots, seeded by game), so each turn ends on a board of
  its own, each drawn as a PNG (benchmarks/boards.py times drawing one).

Each runs --runs times; each time pbem and both floors run on fresh copies of
one prepared folder, in an order that turns from one time to the next
(fair, pbem, old; pbem, old, fair; old, fair, pbem), so the machine's ups
and downs fall on all of them. Printed: the medians and
spreads (lowest-highest) of wall time, of the ratio to the fair floor in
each repetition, of that ratio in processor time (user + system, steadier on
a busy machine), pbem's peak RSS, and the ratio of the fastest runs of each
(on a machine others share, the run least disturbed by their disk and
processor use). Targets (pbem / fair floor): spread
1.3x, turns 1.5x, boards 2.5x.

    python benchmarks/ingest.py [--mails 1000] [--runs 5] [--scenario spread|turns|boards|all]
"""

import argparse
from pathlib import Path
import shutil
import sqlite3
import sys
import tempfile

from copies import SEATS, build, measured, median, pbem, prepare

NOW = "2030-01-01T01:00:00Z"
SCENARIOS = {"spread": "{mails} order mails to {games} games, no turn due",
             "turns": "{mails} mails, {games} turns, every game on the same position",
             "boards": "{mails} mails, {games} turns, each game its own board"}
TARGETS = {"spread": 1.3, "turns": 1.5, "boards": 2.5}
FAIR_FLOOR = Path(__file__).parent / "fair_floor.py"
OLD_FLOOR = """
import email, os, sqlite3, sys
from email import policy
new = os.path.join(sys.argv[1], "new")
conn = sqlite3.connect(sys.argv[2], isolation_level=None)
conn.execute("PRAGMA journal_mode=WAL")
conn.execute("CREATE TABLE inbox (id INTEGER PRIMARY KEY, message_id TEXT, raw BLOB)")
for name in sorted(os.listdir(new)):
    with open(os.path.join(new, name), "rb") as handle:
        raw = handle.read()
    msg = email.message_from_bytes(raw, policy=policy.default)
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("INSERT INTO inbox (message_id, raw) VALUES (?, ?)", [msg["Message-ID"], raw])
    conn.execute("COMMIT")
"""


def order_mail(game: str, seat: dict, number: int, orders: str = "pass") -> bytes:
    """A player's reply carrying orders, as a mail client writes it."""
    from pbem.identity import reply_address, subject_tag
    return (f"From: {seat['name']} <{seat['email']}>\r\n"
            f"To: {reply_address('pbem@bench.example', game, seat['token'])}\r\n"
            f"Subject: Re: {subject_tag(game, seat['token'])} Orders for turn 1.\r\n"
            f"Message-ID: <m{number}@players.example>\r\n"
            "Date: Tue, 01 Jan 2030 00:30:00 +0000\r\n"
            "Content-Type: text/plain; charset=utf-8\r\n\r\n"
            + orders.replace("\n", "\r\n")
            + "\r\n\r\nOn Tue, pbem wrote:\r\n> ## pbem: write your reply above this line ##\r\n"
            + "> the last report, quoted\r\n" * 40).encode()


def games_for(scenario: str, mails: int) -> int:
    """How many games a scenario spreads its mails over."""
    return mails if scenario == "spread" else max(1, mails // len(SEATS))


def build_folder(folder: Path, scenario: str, mails: int) -> None:
    """The games, and the mails waiting in the Maildir inbox: mail i goes to game i
    (spread) or to seat i % 4 of game i // 4 (turns, boards)."""
    from pbem.adjudicator.rng import PhaseRng
    games = games_for(scenario, mails)
    referee = build(folder, 1 if scenario == "boards" else games)
    if scenario == "boards":
        scattered(referee, games)
    seats = referee.store.seats("g0")
    new = folder / "mail" / "inbox" / "new"
    for sub in ("tmp", "new", "cur"):
        (new.parent / sub).mkdir(parents=True, exist_ok=True)
    for i in range(mails):
        game = f"g{i}" if scenario == "spread" else f"g{i // len(SEATS)}"
        seat = seats[i % len(SEATS)]
        orders = "pass"
        if scenario == "boards":  # each game's own seats, codes and position
            seat = referee.store.seats(game)[i % len(SEATS)]
            table = referee.table(game)
            orders = table.game.bot_orders(table.state["game"], seat["name"],
                                           PhaseRng("bench", game, 1))
        (new / f"{i:06d}.bench").write_bytes(order_mail(game, seat, i, orders))


def scattered(referee, games: int) -> None:
    """Games g1..g{games-1} beside g0, each from g0's position with eight legionaries
    moved to other cells (drawn from the game's number), every welcome mail sent: each
    game's board is its own."""
    from pbem.app import SeatSpec
    import random
    state = referee.table("g0").state["game"]
    seats = [SeatSpec(s["name"], s["email"]) for s in referee.store.seats("g0")]
    taken = {state["laurel"], *state["shields"]}
    for n in range(1, games):
        rng = random.Random(n)
        units = dict(state["units"])
        free = sorted(set(cells(state["board"])) - taken - set(units))
        for cell in rng.sample(sorted(units), 8):
            units[free.pop(rng.randrange(len(free)))] = units.pop(cell)
        legions = {colour: {"team": legion["team"], "corner": legion["corner"],
                            "seat": legion["seat"],
                            "units": sorted(c for c, u in units.items() if u["legion"] == colour)}
                   for colour, legion in state["legions"].items()}
        referee.new_game("auguste", f"g{n}", seats, "2030-01-01T00:00:00Z", seed=f"bench{n}",
                         position={"board": state["board"], "laurel": state["laurel"],
                                   "shields": state["shields"], "trumps": state["trumps"],
                                   "legions": legions})
    with referee.store.transaction():
        referee.store.execute("UPDATE outbox SET status = 'sent'")


def cells(board: str) -> list[str]:
    """The names of an Auguste board's cells."""
    from pbem.games.auguste import board as boards
    return list(boards.load(board).cells)


def counts(folder: Path) -> dict:
    """What the run left in the database: inbox rows by status, turns, mails delivered,
    boards drawn."""
    conn = sqlite3.connect(folder / "bench.db")
    inbox = dict(conn.execute("SELECT status, count(*) FROM inbox GROUP BY status"))
    turns = conn.execute("SELECT count(*) FROM games WHERE phase > 1").fetchone()[0]
    sent = conn.execute("SELECT count(*) FROM outbox WHERE status = 'sent' "
                        "AND sent_at = ?", [NOW]).fetchone()[0]
    boards = conn.execute("SELECT count(*) FROM mail_parts WHERE kind = 'board'").fetchone()[0]
    conn.close()
    return {"inbox": inbox, "turns": turns, "sent": sent, "boards": boards}


def delivered(folder: Path) -> int:
    """How many mails a run wrote into its outgoing Maildir."""
    return len(list((folder / "new").iterdir()))


def spread(values: list[float], form: str) -> str:
    """The median, then the lowest and highest, of some figures."""
    low, high = min(values), max(values)
    return f"{form.format(median(values))} ({form.format(low)}-{form.format(high)})"


def run(scenario: str, mails: int, runs: int, root: Path) -> None:
    """Time pbem and the floors on fresh copies of one prepared folder, interleaved."""
    template = root / scenario
    prepare(__file__, str(template), "--scenario", scenario, "--mails", str(mails))
    seats = 0 if scenario == "spread" else len(SEATS)
    boards_before = counts(template)["boards"]
    figures = {"pbem": [], "fair": [], "old": []}
    cpu = {"pbem": [], "fair": []}
    peak, seen, fair_sent = 0.0, None, 0
    for n in range(runs):
        copy = root / f"{scenario}-{n}"
        shutil.copytree(template, copy)
        floor_dir = root / f"floor-{scenario}-{n}"
        inbox = floor_dir / "inbox"
        shutil.copytree(copy / "mail" / "inbox", inbox)  # the same mails, for the floors

        def fair():
            wall, _rss, used = measured([sys.executable, str(FAIR_FLOOR), str(inbox),
                                         str(floor_dir / "outbox"), str(floor_dir / "fair.db"),
                                         "--seats", str(seats)], root)
            figures["fair"].append(wall)
            cpu["fair"].append(used)

        def old():
            figures["old"].append(measured([sys.executable, "-c", OLD_FLOOR, str(inbox),
                                            str(floor_dir / "old.db")], root)[0])

        def ours():
            nonlocal peak
            polled, rss_poll, cpu_poll = measured(pbem("poll", "--now", NOW), copy)
            ticked, rss_tick, cpu_tick = measured(pbem("tick", "--now", NOW), copy)
            figures["pbem"].append(polled + ticked)
            cpu["pbem"].append(cpu_poll + cpu_tick)
            peak = max(peak, rss_poll, rss_tick)

        for step in ((fair, ours, old), (ours, old, fair), (old, fair, ours))[n % 3]:
            step()
        seen = counts(copy)
        fair_sent = delivered(floor_dir / "outbox")
        assert seen["inbox"] == {"done": mails}, seen
        assert fair_sent == seen["sent"], (fair_sent, seen)  # as many mails as pbem
        shutil.rmtree(copy)
        shutil.rmtree(floor_dir)
    ratios = [p / f for p, f in zip(figures["pbem"], figures["fair"])]
    cpu_ratios = [p / f for p, f in zip(cpu["pbem"], cpu["fair"])]
    games = games_for(scenario, mails)
    print(f"{scenario}: {SCENARIOS[scenario].format(mails=mails, games=games)}; "
          f"{seen['turns']} turns resolved, {seen['sent']} mails sent, "
          f"{seen['boards'] - boards_before} new boards drawn; median (lowest-highest) of "
          f"{runs}:")
    print(f"  pbem poll && pbem tick {spread(figures['pbem'], '{:.2f}')} s, "
          f"fair floor {spread(figures['fair'], '{:.2f}')} s, "
          f"old floor {spread(figures['old'], '{:.2f}')} s")
    print(f"  ratio to the fair floor {spread(ratios, '{:.2f}')}x "
          f"(target <= {TARGETS[scenario]:g}x), in CPU time {spread(cpu_ratios, '{:.2f}')}x; "
          f"peak RSS {peak:.0f} MB")
    fastest = min(figures["pbem"]) / min(figures["fair"])
    print(f"  the fastest of each (the least disturbed by other work on the machine): "
          f"{min(figures['pbem']):.2f} s and {min(figures['fair']):.2f} s, "
          f"ratio {fastest:.2f}x")


def main(argv=None) -> int:
    """Prepare each scenario, then time it beside the floors."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mails", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--scenario", choices=(*SCENARIOS, "all"), default="all")
    parser.add_argument("--prepare", metavar="FOLDER", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.prepare:
        build_folder(Path(args.prepare), args.scenario, args.mails)
        return 0
    scenarios = list(SCENARIOS) if args.scenario == "all" else [args.scenario]
    with tempfile.TemporaryDirectory() as name:
        for scenario in scenarios:
            run(scenario, args.mails, args.runs, Path(name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
