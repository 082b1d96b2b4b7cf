"""What a long mail costs to read and answer: time that grows with its size, not its square.

For each game and each shape of text a player, or an attacker, may send (one
line repeating a valid order, many lines of orders, a line of chat, many
refused lines, a command on many lines, a press message on one line, an
order padded with spaces...), a seat's mail of each size is stored and
handled by a real referee as `pbem tick` does: identity, commands, orders
read and recorded, the answer written. Timed in CPU time, the least of
--repeat runs. Beside it, a floor measured in the same run: the standard
library reading the same mail (the email parser, the text part decoded,
split into lines and words), the least any reader of it does.

Printed for each: pbem's time, the floor's, their ratio, and the growth:
pbem's time per byte against that at the smallest size (1.0 is linear;
tests/test_long_mail.py asserts at most 3), and the answer's size.

    python benchmarks/long_lines.py [--sizes 10000,100000,1000000] [--games all]
                                    [--shapes all] [--repeat 3]
"""

import argparse
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
import sys
import tempfile
import time

import pbem.games
from pbem.adjudicator.rng import PhaseRng
from pbem.app import Referee, SeatSpec
from pbem.config import load
from pbem.identity import reply_address, subject_tag
from pbem.mail import intake
from pbem.store import Store
from pbem.timeutil import later

START = "2030-01-01T00:00:00Z"
SETTINGS = ('db = "bench.db"\naddress = "pbem@bench.example"\n'
            '[mail]\nrate_per_hour = 1000000\nmax_bytes = 50000000\nhandle_seconds = 0\n')


def shapes(order: str, size: int) -> dict:
    """Texts of about `size` characters, each a shape a reader of a line may meet."""
    def line(piece: str, end: str = " ") -> str:
        return (piece + end) * max(1, size // (len(piece) + len(end)))
    return {
        "an order, repeated on one line": line(order),
        "an order on each line": line(order, "\n"),
        "an order and chat, on each line": line(f"{order} sorry about that, thanks all", "\n"),
        "a line of chat": line("sorry about that, thanks all,"),
        "a refused order on each line": line(f"{order.rpartition(' ')[0]} Xyzq, lol", "\n"),
        "a greeting on each line": line("Hi all, Xyz lol", "\n"),
        "a command on each line": line("HISTORY", "\n"),
        "a command's words on one line": "HISTORY " + line("12"),
        "a press message on one line": "PRESS all\n" + line("blah"),
        "an order padded with spaces": " " * size + order,
        "an order with spaces inside": order.replace(" ", " " * size, 1),
    }


def referee_with(game_name: str, folder: Path) -> tuple:
    """(referee, the seat asked first, its code, a valid order line of its) in a new game."""
    folder.mkdir(parents=True)
    (folder / "pbem.toml").write_text(SETTINGS, encoding="utf-8")
    config = load(str(folder / "pbem.toml"), env={})
    referee = Referee(Store(config.path("db")), config)
    game = pbem.games.load(game_name)
    seats = [SeatSpec(n, f"{n}@players.example") for n in game.DEMO_SEATS]
    referee.new_game(game_name, "g", seats, START, game.demo_options(60), seed="bench")
    table = referee.table("g")
    seat = sorted(table.state["engine"]["requests"])[0]
    orders = game.bot_orders(table.state["game"], seat, PhaseRng("bench", seat, 1))
    token = referee.store.seat("g", seat)["token"]
    return referee, seat, token, [line for line in orders.splitlines() if line.strip()][0]


def mail(referee: Referee, seat: str, token: str, text: str, number: int) -> bytes:
    """The seat's mail with this text, as a phone would send it."""
    msg = EmailMessage()
    msg["From"] = f"{seat.title()} <{seat}@players.example>"
    msg["To"] = reply_address(referee.config["address"], "g", token)
    msg["Subject"] = f"Re: {subject_tag('g', token)} your turn"
    msg["Message-ID"] = f"<long{number}@players.example>"
    msg.set_content(text)
    return msg.as_bytes()


def handled(referee: Referee, raw: bytes, now: str) -> tuple[float, int]:
    """CPU seconds to store and handle one mail, and the size of its answer's text."""
    started = time.process_time()
    intake.ingest(referee.store, raw, "bench", now)
    referee.tick(now, send=False)
    seconds = time.process_time() - started
    row = referee.store.one("SELECT * FROM outbox ORDER BY id DESC LIMIT 1")
    return seconds, len(referee.store.outbox_mail(row))


def floor(raw: bytes) -> int:
    """The least a reader of the mail does: parse it, decode its text, split it into lines
    and words."""
    text = message_from_bytes(raw, policy=policy.default).get_body().get_content()
    return sum(len(line.split()) for line in text.splitlines())


def least(run, repeat: int) -> float:
    """The least CPU time of a few runs, in seconds."""
    times = []
    for _ in range(repeat):
        started = time.process_time()
        run()
        times.append(time.process_time() - started)
    return min(times)


def main(argv=None) -> int:
    """Time pbem and the floor on each game, shape and size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--games", default="all", help="comma-separated, or all")
    parser.add_argument("--shapes", default="all", help="numbers from 1, comma-separated")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    games = pbem.games.names() if args.games == "all" else args.games.split(",")
    names = list(shapes("x", 10))
    chosen = names if args.shapes == "all" else [names[int(n) - 1] for n in
                                                  args.shapes.split(",")]
    print(f"{'game':10} {'shape':34} {'size':>9} {'pbem ms':>9} {'floor ms':>9} "
          f"{'ratio':>7} {'growth':>7} {'answer':>8}")
    with tempfile.TemporaryDirectory() as name:
        for game in games:
            referee, seat, token, order = referee_with(game, Path(name) / game)
            now, number = later(START, 0.01), 0
            handled(referee, mail(referee, seat, token, order, number), now)  # templates read
            for shape in chosen:
                first = None
                for size in sizes:
                    text = shapes(order, size)[shape]
                    times, answer = [], 0
                    for _ in range(args.repeat):
                        number += 1
                        now = later(now, 0.01)
                        seconds, answer = handled(referee, mail(referee, seat, token, text,
                                                                number), now)
                        times.append(seconds)
                    ours = min(times)
                    raw = mail(referee, seat, token, text, 0)
                    base = least(lambda: floor(raw), args.repeat)
                    per_byte = ours / len(text)
                    first = first or per_byte
                    print(f"{game:10} {shape:34} {len(text):>9} {ours * 1000:9.1f} "
                          f"{base * 1000:9.1f} {ours / base:6.1f}x {per_byte / first:6.2f}x "
                          f"{answer:>8}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
