"""How long a player waits for pbem's answer, with `pbem run` and no cron.

A real Dovecot (the test suite's, tests/servers.py) and an SMTP sink (aiosmtpd)
on 127.0.0.1; `pbem run` reads the Dovecot mailbox with IDLE and sends through
the sink. Each order mail is appended to the mailbox (as the player's mail
server delivers it), one at a time, and timed from the append to its answer
reaching the sink. The floor: Dovecot's own IDLE delay, measured alone, from
an append to an IDLE client hearing of it. Then the same with the mails
arriving through pbem's own SMTP server (`pbem run --source smtpd`), timed
from the sender's DATA to the answer reaching the sink.

Dovecot runs with its defaults: it tells an IDLE client of new mail within
about half a second (inotify, then its own short delay), as hosted services
do; nothing is tuned.

Targets: through IMAP, median <= 1.5 s and max <= 3 s; through pbem's SMTP
server, median <= 0.5 s. Run as root (Dovecot drops privileges itself).

    python benchmarks/latency.py [--mails 20]
"""

import argparse
from pathlib import Path
import smtplib
import subprocess
import sys
import tempfile
import threading
import time

from aiosmtpd.controller import Controller

from copies import SEATS, build, median

sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))
from servers import free_port, start_dovecot, finish, wait_for_port  # noqa: E402

TARGETS = {"imap": (1.5, 3.0), "smtpd": (0.5, None)}
START = "2030-01-01T00:00:00Z"


class Sink:
    """An SMTP server that notes when each answer arrives, by the mail it answers."""

    def __init__(self):
        self.port = free_port()
        self.arrived = {}
        self.changed = threading.Condition()
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)

    async def handle_DATA(self, server, session, envelope):
        """Note the time, and which mail this one answers."""
        at = time.monotonic()
        for line in envelope.original_content.split(b"\r\n\r\n", 1)[0].split(b"\r\n"):
            if line.lower().startswith(b"in-reply-to:"):
                with self.changed:
                    self.arrived[line.split(b":", 1)[1].strip().decode()] = at
                    self.changed.notify_all()
        return "250 OK"

    def wait(self, message_id: str, timeout: float = 30.0) -> float:
        """When the answer to `message_id` arrived (time.monotonic)."""
        with self.changed:
            if not self.changed.wait_for(lambda: message_id in self.arrived, timeout):
                raise SystemExit(f"no answer to {message_id} within {timeout:g} s")
            return self.arrived[message_id]


def order_mail(folder: Path, number: int) -> tuple[str, bytes]:
    """(Message-ID, bytes) of seat number % 4's order mail to game number // 4."""
    import sqlite3
    conn = sqlite3.connect(folder / "bench.db")
    game = f"g{number // len(SEATS)}"
    name = SEATS[number % len(SEATS)]
    token, = conn.execute("SELECT token FROM seats WHERE game = ? AND name = ?",
                          [game, name]).fetchone()
    conn.close()
    message_id = f"<latency.{number}.{time.time_ns()}@players.example>"
    raw = (f"From: {name} <{name}@players.example>\r\n"
           f"To: pbem+{game}.{token}@bench.example\r\n"
           f"Subject: Re: [pbem {game} #{token}] Orders for turn 1.\r\n"
           f"Message-ID: {message_id}\r\nDate: Tue, 01 Jan 2030 00:30:00 +0000\r\n"
           "Content-Type: text/plain; charset=utf-8\r\n\r\nHello!\r\npass\r\n"
           f"-- \r\n{name}\r\n").encode()
    return message_id, raw


def settings(dovecot, sink: Sink, listen: str) -> str:
    """pbem.toml for the benchmark: the Dovecot mailbox in, the sink out."""
    return (f'db = "bench.db"\naddress = "pbem@bench.example"\n[mail]\nrate_per_hour = 1000000\n'
            f'[imap]\nhost = "127.0.0.1"\nport = {dovecot.port}\nsecurity = "none"\n'
            f'user = "tester"\npassword = "secret"\n'
            f'[smtp]\nhost = "127.0.0.1"\nport = {sink.port}\nsecurity = "none"\n'
            f'[smtpd]\nlisten = "{listen}"\n')


def running(folder: Path, *args: str) -> subprocess.Popen:
    """`pbem run` in the folder, once it is up."""
    log = folder / f"run{len(args)}.log"
    with open(log, "wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "pbem", "run", "-v", *args], cwd=folder,
                                   stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while b"pbem run: mail from" not in log.read_bytes():
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            process.wait()
            raise SystemExit(f"pbem run did not start:\n{log.read_text()}")
        time.sleep(0.02)
    return process


def idle_delays(dovecot, mails: int) -> list[float]:
    """Dovecot alone: from an append to an IDLE client hearing of it, `mails` times."""
    client = dovecot.client()
    if not client.folder_exists("Idle"):
        client.create_folder("Idle")
    client.select_folder("Idle", readonly=True)
    delays = []
    for number in range(mails):
        client.idle()
        started = time.monotonic()
        dovecot.append(b"Subject: idle\r\n\r\nhello\r\n", folder="Idle")
        while not any(b"EXISTS" in response for response in client.idle_check(timeout=10)):
            if time.monotonic() - started > 10:
                raise SystemExit("Dovecot said nothing of a new mail within 10 s")
        delays.append(time.monotonic() - started)
        client.idle_done()
    client.logout()
    return delays


def answered(sink: Sink, deliver, folder: Path, first: int, mails: int) -> list[float]:
    """Seconds from each mail's delivery (`deliver(raw)`) to its answer at the sink."""
    waits = []
    for number in range(first, first + mails):
        message_id, raw = order_mail(folder, number)
        started = time.monotonic()
        deliver(raw)
        waits.append(sink.wait(message_id) - started)
        time.sleep(0.2)
    return waits


def line(what: str, waits: list[float], targets=(None, None)) -> str:
    """Median and max of some waits, with their targets."""
    wanted = [f"median <= {targets[0]:g} s" if targets[0] else "",
              f"max <= {targets[1]:g} s" if targets[1] else ""]
    wanted = ", ".join(w for w in wanted if w)
    return (f"  {what}: median {median(waits):.2f} s, max {max(waits):.2f} s"
            + (f" (target {wanted})" if wanted else ""))


def main(argv=None) -> int:
    """Start the servers and pbem run; time the answers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mails", type=int, default=20)
    args = parser.parse_args(argv)
    dovecot = start_dovecot()
    sink = Sink()
    sink.controller.start()
    try:
        with tempfile.TemporaryDirectory() as name:
            folder = Path(name)
            build(folder, max(1, (2 * args.mails + len(SEATS) - 1) // len(SEATS)))
            listen = f"127.0.0.1:{free_port()}"
            (folder / "pbem.toml").write_text(settings(dovecot, sink, listen), encoding="utf-8")
            floor = idle_delays(dovecot, args.mails)
            process = running(folder)
            try:
                imap = answered(sink, dovecot.append, folder, 0, args.mails)
            finally:
                process.terminate()
                process.wait(timeout=30)
            process = running(folder, "--source", "smtpd")
            host, port = listen.split(":")
            wait_for_port(int(port))

            def send(raw: bytes) -> None:
                with smtplib.SMTP(host, int(port), timeout=10) as smtp:
                    smtp.sendmail("ann@players.example", ["pbem@bench.example"], raw)
            try:
                smtpd = answered(sink, send, folder, args.mails, args.mails)
            finally:
                process.terminate()
                process.wait(timeout=30)
    finally:
        sink.controller.stop()
        finish(dovecot)
    print(f"latency of pbem run's answers, {args.mails} order mails each way:")
    print(line("IMAP (Dovecot IDLE) to SMTP", imap, TARGETS["imap"]))
    print(line("floor: Dovecot's own IDLE delay", floor))
    print(line("pbem's SMTP server to SMTP", smtpd, TARGETS["smtpd"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
