"""The fair floor: what any correct referee does per incoming mail, with no game logic.

For each mail waiting in a Maildir's new/ folder, oldest name first:

- parse it with the standard library's email package (sender, subject,
  Message-ID, the text part) and keep its first lines, as orders;
- render a short answer, text and HTML, with Jinja2 (templates compiled once);
- compose the answer as multipart/alternative (the standard MIME classes);
- store the raw mail and the answer's row in one transaction, with pbem's own
  SQLite settings (pbem.store.connect);
- write the answer into the outgoing Maildir with pbem's own sync policy
  (pbem.mail.maildir.Delivery, batches of pbem's size), marking each batch
  sent in one transaction.

With --seats N, the Nth mail to a game closes its turn: one report mail per
seat (rendered, composed, stored in one transaction, written out), so the
floor sends as many mails as pbem does. Nothing is drawn: a board is game
logic.

    python benchmarks/fair_floor.py INBOX OUTBOX DB [--seats N]
"""

import argparse
from email import message_from_bytes, policy
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.utils import formatdate, make_msgid, parseaddr
import os
from pathlib import Path
import re
import sys

import jinja2

from pbem.mail.maildir import Delivery, key_for
from pbem.mail.outbox import MAILDIR_BATCH
from pbem.store import connect

TEMPLATES = {
    "answer.txt": "{{ heading }}\n\nHello {{ name }}, I read your mail \"{{ subject }}\":\n"
                  "{% for line in lines %}  {{ line }}\n{% endfor %}\n"
                  "Until the deadline a new mail replaces these orders.\n\n"
                  "-- \nGame {{ game }}. Reply to this mail to answer.\n",
    "answer.html": "<html><body><h1>{{ heading }}</h1><p>Hello {{ name }}, I read your mail "
                   "&laquo;&nbsp;{{ subject }}&nbsp;&raquo;:</p><ul>{% for line in lines %}"
                   "<li>{{ line }}</li>{% endfor %}</ul><p>Until the deadline a new mail "
                   "replaces these orders.</p><p><small>Game {{ game }}. Reply to this mail to "
                   "answer.</small></p></body></html>",
    "report.txt": "{{ heading }}\n\nTurn {{ turn }} of game {{ game }} is over; these orders "
                  "were used:\n{% for seat in seats %}  {{ seat }}\n{% endfor %}\n"
                  "-- \nGame {{ game }}. Reply to this mail with your next orders.\n",
    "report.html": "<html><body><h1>{{ heading }}</h1><p>Turn {{ turn }} of game {{ game }} "
                   "is over; these orders were used:</p><ul>{% for seat in seats %}<li>"
                   "{{ seat }}</li>{% endfor %}</ul><p><small>Game {{ game }}. Reply to this mail "
                   "with your next orders.</small></p></body></html>",
}
TAG = re.compile(r"\[pbem ([a-z0-9-]+) #")
FROM = "pbem referee <pbem@bench.example>"
SCHEMA = """
CREATE TABLE IF NOT EXISTS inbox (id INTEGER PRIMARY KEY, message_id TEXT, sender TEXT,
                                  raw BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS outbox (id INTEGER PRIMARY KEY, inbox_id INTEGER, to_addr TEXT,
                                   message_id TEXT UNIQUE, raw BLOB NOT NULL,
                                   status TEXT NOT NULL DEFAULT 'pending');
"""


class Floor:
    """One run of the floor over a Maildir."""

    def __init__(self, outbox: Path, db: Path, seats: int):
        env = jinja2.Environment(loader=jinja2.DictLoader(TEMPLATES),
                                 autoescape=jinja2.select_autoescape(["html"]))
        self.templates = {name: env.get_template(name) for name in TEMPLATES}
        self.conn = connect(db)
        self.conn.executescript(SCHEMA)
        self.outbox = outbox
        self.delivery = Delivery(outbox)
        self.delivered = []
        self.seats = seats
        self.turns = {}  # game -> [(address, first order line)] of its open turn

    def take(self, raw: bytes) -> None:
        """Parse, answer, store and write out one incoming mail (and close its turn)."""
        msg = message_from_bytes(raw, policy=policy.default)
        name, sender = parseaddr(str(msg["From"]))
        subject, message_id = str(msg["Subject"]), str(msg["Message-ID"])
        body = msg.get_body(("plain",))
        text = body.get_content() if body is not None else ""
        lines = [line.strip() for line in text.splitlines()
                 if line.strip() and not line.startswith(">")][:20]
        found = TAG.search(subject)
        game = found.group(1) if found else "?"
        context = {"heading": f"Game {game}: orders received", "name": name or sender,
                   "subject": subject, "lines": lines, "game": game}
        answer = self.compose("answer", context, sender, f"Re: {subject}", message_id)
        self.conn.execute("BEGIN IMMEDIATE")
        row = self.conn.execute("INSERT INTO inbox (message_id, sender, raw) VALUES (?, ?, ?)",
                                [message_id, sender, raw]).lastrowid
        answer_id = self.conn.execute(
            "INSERT INTO outbox (inbox_id, to_addr, message_id, raw) VALUES (?, ?, ?, ?)",
            [row, sender, answer[0], answer[1]]).lastrowid
        self.conn.execute("COMMIT")
        self.write(answer_id, *answer)
        if self.seats:
            turn = self.turns.setdefault(game, [])
            turn.append((sender, lines[0] if lines else ""))
            if len(turn) == self.seats:
                self.report(game, self.turns.pop(game))

    def report(self, game: str, turn: list) -> None:
        """One report mail per seat of a closed turn, stored in one transaction."""
        context = {"heading": f"Game {game}: turn 1 is over", "turn": 1, "game": game,
                   "seats": [f"{address}: {line}" for address, line in turn]}
        mails = [(address, self.compose("report", context, address, context["heading"]))
                 for address, _line in turn]
        self.conn.execute("BEGIN IMMEDIATE")
        ids = [self.conn.execute(
            "INSERT INTO outbox (to_addr, message_id, raw) VALUES (?, ?, ?)",
            [address, mail[0], mail[1]]).lastrowid for address, mail in mails]
        self.conn.execute("COMMIT")
        for mail_id, (_address, mail) in zip(ids, mails):
            self.write(mail_id, *mail)

    def compose(self, kind: str, context: dict, to: str, subject: str,
                replying: str | None = None) -> tuple[str, bytes]:
        """(Message-ID, bytes) of a multipart/alternative mail rendered from `kind`."""
        mail = MIMEMultipart("alternative")
        mail.attach(MIMEText(self.templates[f"{kind}.txt"].render(context), "plain", "utf-8"))
        mail.attach(MIMEText(self.templates[f"{kind}.html"].render(context), "html", "utf-8"))
        message_id = make_msgid(domain="bench.example")
        mail["From"], mail["To"], mail["Subject"] = FROM, to, subject
        mail["Date"], mail["Message-ID"] = formatdate(), message_id
        if replying:
            mail["In-Reply-To"] = mail["References"] = replying
        mail["Auto-Submitted"] = "auto-replied" if replying else "auto-generated"
        return message_id, mail.as_bytes()

    def write(self, mail_id: int, message_id: str, data: bytes) -> None:
        """Write a mail into the outgoing Maildir's batch; deliver a full batch."""
        self.delivery.add(key_for(mail_id, message_id), data)
        self.delivered.append(mail_id)
        if len(self.delivered) >= MAILDIR_BATCH:
            self.finish()

    def finish(self) -> None:
        """Deliver the batch, then mark its mails sent in one transaction."""
        self.delivery.finish()
        self.conn.execute("BEGIN IMMEDIATE")
        self.conn.executemany("UPDATE outbox SET status = 'sent' WHERE id = ?",
                              [[mail_id] for mail_id in self.delivered])
        self.conn.execute("COMMIT")
        self.delivered = []


def main(argv=None) -> int:
    """Take every mail of the inbox Maildir."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("inbox", type=Path)
    parser.add_argument("outbox", type=Path)
    parser.add_argument("db", type=Path)
    parser.add_argument("--seats", type=int, default=0)
    args = parser.parse_args(argv)
    args.db.parent.mkdir(parents=True, exist_ok=True)
    floor = Floor(args.outbox, args.db, args.seats)
    new = args.inbox / "new"
    for name in sorted(os.listdir(new)):
        floor.take((new / name).read_bytes())
    floor.finish()
    return 0


if __name__ == "__main__":
    sys.exit(main())
