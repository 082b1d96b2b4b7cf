"""Order mails as people write them, played through `pbem poll && pbem tick` on real mail files.

Each tests/corpus/<game>.toml is one game at a club: seats reading English
or French, and the mails they send, one after the other, as they write
them: greetings, chat between the orders, replies to press and to old
mails, signatures, typos, French. Each mail is written as its player's
mail client writes a reply to the pbem mail it answers (quoting it below),
dropped as a file into the incoming Maildir, and read by `pbem poll` and
`pbem tick` at the command line. What it must yield is beside it:

    [[mail]]
    from = "bea"                 # the seat writing
    answers = "press"            # the pbem mail it replies to, the seat's latest of that
                                 # kind ("report:1": its first report); none: a new mail
    client = "gmail"             # plain (default), gmail (text and HTML), outlook, phone
    after_deadline = true        # the open phase's deadline passes first (a tick)
    body = "..."                 # what the player typed above the quote
    [mail.expect]
    reason = "orders recorded; 1 remark set aside"   # the inbox row's reason, exactly
    status = "rejected"          # the inbox row's status (default done)
    says = ["..."]               # pieces of pbem's answer (its text on one line)
    orders = ["..."]             # pieces of the orders said back
    remarks = ["line 4: ..."]    # pieces of the lines set aside as remarks
    errors = ["line 3: ..."]     # pieces of the refused lines
    not_says = ["..."]           # pieces the answer must not hold
    relayed = ["cid"]            # the seats this mail reached as press (default none)
    resolved = true              # the tick after it resolved the open phase

The game's log must replay byte for byte at the end.
"""

from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import format_datetime
from html import escape
from pathlib import Path
import tomllib

from click.testing import CliRunner
import pytest

from pbem.app import Referee, SeatSpec
from pbem.cli import main
from pbem.config import load
from pbem.mail import maildir
from pbem.store import Store
from pbem.timeutil import later, parse_time

from conftest import START

CORPORA = sorted((Path(__file__).parent / "corpus").glob("*.toml"))


def pbem(*args) -> str:
    """One pbem command in the current folder, as cron runs it; its output."""
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


class Club:
    """A referee's folder with one game from a corpus, and the mails it sent."""

    def __init__(self, corpus: dict):
        pbem("init")
        self.corpus = corpus
        self.game = corpus["id"]
        self.referee = Referee(Store("pbem.db"), load("pbem.toml"))
        self.referee.new_game(corpus["game"], self.game, [
            SeatSpec(name, f"{name}@players.example", tz=seat.get("tz"), lang=seat["lang"])
            for name, seat in corpus["seats"].items()], START, corpus.get("options", {}),
            seed=corpus.get("seed", "corpus"), position=corpus.get("position"))
        pbem("tick", "--now", START)  # the welcome mails

    @property
    def store(self) -> Store:
        return Store("pbem.db")

    def sent(self, message_id: str):
        """The mail pbem sent with this Message-ID, read back from the outgoing Maildir."""
        for path in sorted(Path("mail/outbox/new").iterdir()):
            mail = message_from_bytes(path.read_bytes(), policy=policy.default)
            if mail["Message-ID"] == message_id:
                return mail
        raise AssertionError(f"{message_id} is not in the outgoing Maildir")

    def answered(self, seat: str, which: str | None):
        """The pbem mail a seat replies to: its latest of a kind, or "kind:N", or None."""
        if not which:
            return None
        kind, _, rank = which.partition(":")
        rows = self.store.all("SELECT message_id FROM outbox WHERE game = ? AND seat = ? "
                              "AND kind = ? ORDER BY id", [self.game, seat, kind])
        assert rows, f"{seat} got no {kind} mail to answer"
        return self.sent(rows[int(rank) - 1 if rank else -1]["message_id"])

    def phase(self) -> int:
        return self.store.game(self.game)["phase"]

    def deadline(self) -> str:
        return self.store.game(self.game)["deadline"]


def quoted(answered) -> str:
    """The answered mail's text as a reply quotes it."""
    text = answered.get_body(preferencelist=("plain",)).get_content()
    return "\n".join(("> " + line).rstrip() for line in text.splitlines())


def written(club: Club, number: int, mail: dict, now: str) -> bytes:
    """The mail a player's client sends: headers of a reply, the body typed, the quote."""
    seat = mail["from"]
    row = club.store.seat(club.game, seat)
    answered = club.answered(seat, mail.get("answers"))
    msg = EmailMessage()
    msg["From"] = f"{club.corpus['seats'][seat]['name']} <{seat}@players.example>"
    msg["To"] = str(answered["Reply-To"]) if answered else \
        f"pbem+{club.game}.{row['token']}@referee.example"
    msg["Subject"] = f"Re: {answered['Subject']}" if answered else \
        f"[pbem {club.game} #{row['token']}] orders"
    msg["Date"] = format_datetime(parse_time(now))
    msg["Message-ID"] = f"<{seat}.{number}@players.example>"
    if answered:
        msg["In-Reply-To"] = answered["Message-ID"]
        msg["References"] = f"{answered['References'] or ''} {answered['Message-ID']}".strip()
    body = mail["body"].strip("\n")
    client = mail.get("client", "plain")
    if not answered:
        msg.set_content(body)
    elif client == "outlook":
        msg.set_content(f"{body}\n\n-----Original Message-----\nFrom: pbem referee\n"
                        f"Subject: {answered['Subject']}\n\n"
                        + answered.get_body(preferencelist=("plain",)).get_content())
    elif client == "phone":
        msg.set_content(f"{body}\n\nSent from my phone\n\n> On 1 Dec 2026, at 13:00, pbem "
                        f"referee <pbem@referee.example> wrote:\n>\n{quoted(answered)}\n")
    else:
        msg.set_content(f"{body}\n\nOn Tue, 1 Dec 2026 at 13:00, pbem referee "
                        f"<pbem@referee.example> wrote:\n{quoted(answered)}\n")
    if client == "gmail" and answered:
        lines = "".join(f"<div>{escape(line) or '<br>'}</div>" for line in body.splitlines())
        html = answered.get_body(preferencelist=("html",)).get_content()
        msg.add_alternative(f'<div dir="ltr">{lines}</div><br><div class="gmail_quote">'
                            '<div class="gmail_attr">On Tue, Dec 1, 2026 at 1:00 PM pbem '
                            'referee wrote:<br></div><blockquote class="gmail_quote">'
                            f'{html}</blockquote></div>', subtype="html")
    return msg.as_bytes()


def flat(mail) -> str:
    """A mail's text part on one line."""
    return " ".join(mail.get_body(preferencelist=("plain",)).get_content().split())


def problems(club: Club, number: int, mail: dict, before: dict) -> list[str]:
    """How what pbem did with one mail differs from what it must yield."""
    expect = mail.get("expect", {})
    found = []
    row = club.store.one("SELECT * FROM inbox WHERE message_id = ?",
                         [f"<{mail['from']}.{number}@players.example>"])
    if (row["status"], row["reason"]) != (expect.get("status", "done"),
                                           expect.get("reason", row["reason"])):
        found.append(f"status {row['status']!r}, reason {row['reason']!r}")
    answers = club.store.all("SELECT message_id FROM outbox WHERE id > ? AND seat = ? AND "
                             "kind IN ('ack', 'help', 'status', 'history')",
                             [before["outbox"], mail["from"]])
    said = " ".join(flat(club.sent(a["message_id"])) for a in answers)
    for key in ("says", "orders", "remarks", "errors"):
        found += [f"the answer does not say {piece!r}" for piece in expect.get(key, [])
                  if " ".join(piece.split()) not in said]
    found += [f"the answer says {piece!r}" for piece in expect.get("not_says", [])
              if piece in said]
    relayed = sorted(r["seat"] for r in club.store.all(
        "SELECT seat FROM outbox WHERE id > ? AND kind = 'press'", [before["outbox"]]))
    if relayed != sorted(expect.get("relayed", [])):
        found.append(f"press went to {relayed}")
    if "resolved" in expect and (club.phase() != before["phase"]) != expect["resolved"]:
        found.append("the phase was resolved" if expect["resolved"] is False else
                     "the phase waits still")
    return [f"mail {number} from {mail['from']}: {p}\n    answer: {said[:3000]}"
            for p in found]


@pytest.mark.parametrize("path", CORPORA, ids=lambda p: p.stem)
def test_people_s_mails_lose_no_order_and_stall_no_turn(path, tmp_path, monkeypatch):
    corpus = tomllib.loads(path.read_text(encoding="utf-8"))
    monkeypatch.chdir(tmp_path)
    club = Club(corpus)
    languages = {seat["lang"] for seat in corpus["seats"].values()}
    assert languages == {"en", "fr"}, "a corpus has players of both languages"
    now, found = START, []
    for number, mail in enumerate(corpus["mail"], start=1):
        now = later(club.deadline(), 0.01) if mail.get("after_deadline") else later(now, 0.1)
        if mail.get("after_deadline"):
            pbem("tick", "--now", now)
        before = {"outbox": club.store.one("SELECT MAX(id) AS n FROM outbox")["n"],
                  "phase": club.phase()}
        try:
            raw = written(club, number, mail, now)
        except AssertionError as problem:
            found.append(f"mail {number} from {mail['from']}: {problem}")
            break
        maildir.deliver(Path("mail/inbox"), raw)
        pbem("poll", "--now", now)
        pbem("tick", "--now", now)
        found += problems(club, number, mail, before)
    assert not found, "\n".join(found)
    assert "verified" in pbem("replay", club.game, "--verify")
