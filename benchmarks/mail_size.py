"""How big a turn report is, and what composing it costs: a 6-seat Auguste game's report.

Prints pbem's figures beside floors measured in the same run, and the ratios:

- the mail's size, board PNG included, beside the board PNG alone,
  base64-encoded as a mail carries it (the design target: under 60 KB);
- what the database keeps of it (compressed against the model mail of its
  kind, the board kept once per turn as SVG) beside the mail's own size;
- the time to compose it (pbem's `compose` and the outbox columns), beside
  the standard library's default-policy `EmailMessage` building the same
  mail with its PNG (how pbem composed before): medians of interleaved
  repetitions;
- the time to draw its board as the PNG the mail carries (once per turn and
  process; drawn again, its ground and pieces kept: benchmarks/boards.py
  times new positions), beside resvg drawing the SVG to its own PNG alone.

    python benchmarks/mail_size.py [--seats 6] [--repeat 21]
"""

import argparse
import base64
import email
from email import policy
from email.message import EmailMessage
from pathlib import Path
import statistics
import tempfile
import time

from pbem import inbound, render
from pbem.app import Referee, SeatSpec
from pbem.config import load
from pbem.letters import BOARD_CID
from pbem.mail import stored
from pbem.mail.compose import Board, compose
from pbem.raster import FONTS
from pbem.store import Store

START = "2030-01-01T00:00:00Z"


def default_policy(fields: dict, png: bytes) -> bytes:
    """The same mail built with the standard library's default policy, PNG inline."""
    msg = EmailMessage()
    for name in ("From", "To", "Subject", "Date", "Message-ID", "Reply-To", "References"):
        if fields[name]:
            msg[name] = fields[name]
    msg.set_content(fields["text"])
    msg.add_alternative(fields["html"], subtype="html")
    msg.get_payload()[-1].add_related(png, maintype="image", subtype="png", cid=BOARD_CID,
                                      disposition="inline", filename="board.png")
    return msg.as_bytes()


def pbem_compose(store, fields: dict, svg: str) -> dict:
    """pbem's way: compose, then the outbox columns (compressed, the board apart)."""
    draft = compose(sender=("pbem", "pbem@bench.example"), to=fields["To"],
                    subject=fields["Subject"], text=fields["text"], html=fields["html"],
                    msg_id=fields["Message-ID"], date=START, reply_to=fields["Reply-To"],
                    references=[fields["References"]], images={BOARD_CID: Board(svg)})
    return stored.columns(store.db, draft, "bench", "report")


def raster(svg: str) -> bytes:
    """The floor of drawing a board: resvg's own PNG of the SVG, as pbem asks resvg for it."""
    import resvg_py
    return resvg_py.svg_to_bytes(svg_string=svg, shape_rendering="crisp_edges",
                                 text_rendering="optimize_legibility", **FONTS)


def timed(work, repeat: int) -> list[float]:
    """Seconds of each call."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=6, choices=[3, 4, 5, 6])
    parser.add_argument("--repeat", type=int, default=21)
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
        kept = len(row["mail"]) + len(row["parts"]) + len(row["model"])
        [(svg,)] = referee.store.db.execute(
            "SELECT data FROM mail_parts WHERE kind = 'board' ORDER BY rowid DESC LIMIT 1")
        svg = stored.unpacked(svg).decode()
        msg = email.message_from_bytes(raw, policy=policy.default)
        png = next(p.get_content() for p in msg.walk() if p.get_content_type() == "image/png")
        fields = {name: str(msg[name]) if msg[name] else None
                  for name in ("From", "To", "Subject", "Date", "Message-ID", "Reply-To",
                               "References")}
        fields["text"] = msg.get_body(preferencelist=("plain",)).get_content()
        fields["html"] = msg.get_body(preferencelist=("html",)).get_content()
        ours, theirs = [], []
        for _ in range(args.repeat):
            theirs += timed(lambda: default_policy(fields, png), 1)
            with referee.store.transaction():
                ours += timed(lambda: pbem_compose(referee.store, fields, svg), 1)
        drawn, rasterised = [], []
        for _ in range(max(3, args.repeat // 4)):
            drawn += timed(lambda: render.board_png.__wrapped__(svg), 1)
            rasterised += timed(lambda: raster(svg), 1)
        floor = len(base64.encodebytes(png))
        size = len(raw)
    print(f"turn report, {args.seats} seats: {size / 1024:.1f} KB (PNG {len(png) / 1024:.1f} KB); "
          f"floor (the PNG as mailed): {floor / 1024:.1f} KB; ratio {size / floor:.2f}")
    print(f"kept in the database: {kept / 1024:.2f} KB of the mail's {size / 1024:.1f} KB "
          f"(ratio {kept / size:.3f}; the board once per turn besides, for every report)")
    ours_ms, theirs_ms = statistics.median(ours) * 1000, statistics.median(theirs) * 1000
    print(f"composing it: stdlib default policy {theirs_ms:.2f} ms, pbem {ours_ms:.2f} ms "
          f"(ratio {ours_ms / theirs_ms:.2f})")
    drawn_ms, raster_ms = statistics.median(drawn) * 1000, statistics.median(rasterised) * 1000
    print(f"drawing its board PNG: resvg alone {raster_ms:.0f} ms, pbem {drawn_ms:.0f} ms "
          f"(ratio {drawn_ms / raster_ms:.2f})")


if __name__ == "__main__":
    main()
