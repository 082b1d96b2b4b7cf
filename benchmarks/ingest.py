"""What receiving a mail costs, against the floor of parsing it and storing one row.

The floor: parse each message with the standard library's email package and
commit one SQLite row for it. pbem: store the raw mail (`ingest`), then handle
it in a tick (identity, orders, acknowledgement queued). Also prints the peak
memory of the handling, which should not grow with the number of mails.

    python benchmarks/ingest.py [--mails 500]
"""

import argparse
import email
from email import policy
from pathlib import Path
import sqlite3
import sys
import tempfile
import time
import tracemalloc

from pbem import inbound
from pbem.app import Referee, SeatSpec
from pbem.config import load
from pbem.identity import reply_address, subject_tag
from pbem.store import Store

NOW = "2030-01-01T01:00:00Z"


def order_mail(seat: dict, number: int) -> bytes:
    """A player's reply carrying orders, as a mail client writes it."""
    return (f"From: {seat['name']} <{seat['email']}>\r\n"
            f"To: {reply_address('pbem@bench.example', 'g', seat['token'])}\r\n"
            f"Subject: Re: {subject_tag('g', seat['token'])} Orders for turn 1.\r\n"
            f"Message-ID: <m{number}@players.example>\r\n"
            "Date: Tue, 01 Jan 2030 00:30:00 +0000\r\n"
            "Content-Type: text/plain; charset=utf-8\r\n\r\n"
            "pass\r\n\r\nOn Tue, pbem wrote:\r\n> ## pbem: write your reply above this line ##\r\n"
            + "> the last report, quoted\r\n" * 40).encode()


def floor(mails: list[bytes], folder: Path) -> float:
    """Seconds to parse every mail with the stdlib and commit one row each."""
    conn = sqlite3.connect(folder / "floor.db", isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE inbox (id INTEGER PRIMARY KEY, message_id TEXT, raw BLOB)")
    started = time.perf_counter()
    for raw in mails:
        msg = email.message_from_bytes(raw, policy=policy.default)
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO inbox (message_id, raw) VALUES (?, ?)", [msg["Message-ID"], raw])
        conn.execute("COMMIT")
    return time.perf_counter() - started


def main(argv=None) -> int:
    """Time the floor and pbem on the same mails."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mails", type=int, default=500)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        (folder / "pbem.toml").write_text(
            'db = "bench.db"\naddress = "pbem@bench.example"\n[mail]\nrate_per_hour = 1000000\n',
            encoding="utf-8")
        config = load(str(folder / "pbem.toml"), env={})
        referee = Referee(Store(config.path("db")), config)
        seats = [SeatSpec(n, f"{n}@players.example") for n in ("ann", "bob", "cat", "dan")]
        referee.new_game("auguste", "g", seats, "2030-01-01T00:00:00Z", seed="bench")
        rows = referee.store.seats("g")
        mails = [order_mail(rows[i % 4], i) for i in range(args.mails)]
        base = floor(mails, folder)
        started = time.perf_counter()
        for raw in mails:
            inbound.ingest(referee.store, raw, "bench", NOW)
        stored = time.perf_counter() - started
        tracemalloc.start()
        started = time.perf_counter()
        handled = inbound.process_inbox(referee, NOW)
        handling = time.perf_counter() - started
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        per = lambda seconds: seconds / args.mails * 1000
        print(f"floor (stdlib parse + one row): {per(base):.2f} ms/mail")
        print(f"pbem store raw:                 {per(stored):.2f} ms/mail "
              f"({stored / base:.1f}x floor)")
        print(f"pbem handle (orders + answer):  {per(handling):.2f} ms/mail "
              f"({handling / base:.1f}x floor), {handled} mails, peak {peak / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
