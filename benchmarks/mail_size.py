"""How big a turn report is: a 6-seat Auguste game's report, board PNG included.

Prints pbem's figure beside a floor measured in the same run (the board
PNG alone, base64-encoded as a mail carries it), and the ratio. The design
target is a report under 60 KB.

    python benchmarks/mail_size.py [--seats 6]
"""

import argparse
import base64
import email
from email import policy
from pathlib import Path
import tempfile

from pbem import inbound
from pbem.app import Referee, SeatSpec
from pbem.config import load
from pbem.store import Store

START = "2030-01-01T00:00:00Z"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=6, choices=[3, 4, 5, 6])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "pbem.toml").write_text('db = "bench.db"\n', encoding="utf-8")
        config = load(str(Path(folder) / "pbem.toml"), env={})
        referee = Referee(Store(config.path("db")), config)
        names = ["ann", "bob", "cat", "dan", "eve", "fay"][:args.seats]
        referee.new_game("auguste", "g", [SeatSpec(n, f"{n}@bench.example") for n in names],
                         START, seed="bench")
        for name in names:
            inbound.submit(referee, "g", name, "pass", START)
        referee.tick(START, send=False)
        row = referee.store.one("SELECT * FROM outbox WHERE kind = 'report' ORDER BY id "
                                "DESC LIMIT 1")
        raw = referee.store.outbox_mail(row)
    msg = email.message_from_bytes(raw, policy=policy.default)
    png = next(p.get_content() for p in msg.walk() if p.get_content_type() == "image/png")
    floor = len(base64.encodebytes(png))
    size = len(raw)
    print(f"turn report, {args.seats} seats: {size / 1024:.1f} KB (PNG {len(png) / 1024:.1f} KB); "
          f"floor (the PNG as mailed): {floor / 1024:.1f} KB; ratio {size / floor:.2f}")


if __name__ == "__main__":
    main()
