"""A player's mail from end to end on the embedded default (local Maildir folders).

pbem mails its welcome into the outgoing Maildir; the player's client answers
it (orders on top, the welcome quoted below); the answer is dropped into the
incoming Maildir, polled, and the tick after the deadline moves the legion and
acknowledges the order in a threaded, well-formed multipart/alternative mail.
"""

from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import format_datetime
from html import escape

from pbem.mail import fetch, maildir
from pbem.timeutil import parse_time

from conftest import START

DEADLINE = "2026-12-03T12:00:00Z"
UNDERSTOOD = "red: move the legionary on GUR to HAC"


def sent_mails(referee) -> list:
    """Every mail in the outgoing Maildir, parsed."""
    folder = referee.config.path("mail", "outbox") / "new"
    return [message_from_bytes(path.read_bytes(), policy=policy.default)
            for path in sorted(folder.iterdir())]


def welcome_of(referee, seat: str):
    """The welcome mail pbem sent a seat (the tick at the start sends it)."""
    referee.tick(START)
    return next(m for m in sent_mails(referee)
                if m["To"] == f"{seat}@players.example" and "the game begins" in m["Subject"])


def reply_headers(welcome, message_id: str, agent: str) -> list[tuple[str, str]]:
    """The headers a client writes when replying to a mail."""
    return [("From", "Ann <ann@players.example>"), ("To", str(welcome["Reply-To"])),
            ("Subject", f"Re: {welcome['Subject']}"),
            ("Date", format_datetime(parse_time("2026-12-01T13:05:00Z"))),
            ("Message-ID", message_id), ("In-Reply-To", str(welcome["Message-ID"])),
            ("References", str(welcome["Message-ID"])), ("User-Agent", agent)]


def thunderbird_reply(welcome, orders: str) -> bytes:
    """Thunderbird's plain-text reply: format=flowed, attribution line, '> ' quotes."""
    quoted = welcome.get_body(preferencelist=("plain",)).get_content()
    head = "".join(f"{name}: {value}\r\n" for name, value in reply_headers(
        welcome, "<tb.1@players.example>", "Mozilla/5.0 Thunderbird/115.0"))
    body = (f"{orders}\r\n\r\nOn 01/12/2026 13:00, pbem referee wrote:\r\n"
            + "".join(f"> {line}".rstrip() + "\r\n" for line in quoted.splitlines()))
    return (head + "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=UTF-8; "
            "format=flowed\r\nContent-Transfer-Encoding: 8bit\r\n\r\n" + body).encode()


def apple_latin1_reply(welcome, orders: str) -> bytes:
    """An Apple Mail reply in ISO-8859-1, quoted-printable, French attribution."""
    quoted = welcome.get_body(preferencelist=("plain",)).get_content()
    msg = EmailMessage()
    for name, value in reply_headers(welcome, "<apple.1@players.example>", "Apple Mail"):
        msg[name] = value
    msg.set_content(f"{orders}\n\nCordialement,\nAnne\n\n> Le 1 déc. 2026 à 13:00, pbem "
                    "referee <pbem@referee.example> a écrit :\n> \n"
                    + "".join(f"> {line}\n" for line in quoted.splitlines()),
                    charset="iso-8859-1", cte="quoted-printable")
    return msg.as_bytes()


def gmail_html_only_reply(welcome, orders: str) -> bytes:
    """A reply whose only body is HTML, with the welcome in Gmail's quote block."""
    quoted = welcome.get_body(preferencelist=("html",)).get_content()
    msg = EmailMessage()
    for name, value in reply_headers(welcome, "<gm.1@players.example>", "Gmail"):
        msg[name] = value
    lines = "".join(f"<div>{escape(line)}</div>" for line in orders.splitlines())
    msg.set_content(f'<div dir="ltr">{lines}</div><br><div class="gmail_quote">'
                    '<div class="gmail_attr">On Tue, Dec 1, 2026 at 1:00 PM pbem referee '
                    '&lt;pbem@referee.example&gt; wrote:<br></div><blockquote class="gmail_quote">'
                    f'{quoted}</blockquote></div>', subtype="html")
    return msg.as_bytes()


def play(referee, raw: bytes) -> None:
    """Drop the player's mail in the incoming Maildir, poll it, tick after the deadline."""
    maildir.deliver(referee.config.path("mail", "inbox"), raw)
    assert fetch.poll_maildir(referee, "2026-12-01T13:06:00Z") == 1
    referee.tick(DEADLINE)


def unit_on(referee, cell: str):
    """The legion on a cell of the public board, or None."""
    [found] = [c for c in referee.view("rome", None)["cells"] if c["name"] == cell]
    return found["unit"] and found["unit"]["legion"]


def acknowledgement(referee, message_id: str):
    """The mail pbem sent in reply to the player's mail."""
    [ack] = [m for m in sent_mails(referee) if m["In-Reply-To"] == message_id]
    return ack


def test_a_thunderbird_reply_moves_the_legion_and_is_acknowledged(auguste_game):
    welcome = welcome_of(auguste_game, "ann")
    assert (unit_on(auguste_game, "GUR"), unit_on(auguste_game, "HAC")) == ("red", None)
    play(auguste_game, thunderbird_reply(welcome, "red: move GUR HAC"))

    assert (unit_on(auguste_game, "GUR"), unit_on(auguste_game, "HAC")) == (None, "red")
    ack = acknowledgement(auguste_game, "<tb.1@players.example>")
    assert ack["To"] == "ann@players.example"
    assert ack["Subject"].strip() == \
        f"{welcome['Subject'].strip().split(']')[0]}] Turn 1: orders received"
    assert str(welcome["Message-ID"]) in str(ack["References"])
    assert "<tb.1@players.example>" in str(ack["References"])
    assert ack.get_content_type() == "multipart/alternative"
    assert [p.get_content_type() for p in ack.iter_parts()] == ["text/plain", "text/html"]
    assert all(not part.defects for part in ack.walk())
    text = ack.get_body(preferencelist=("plain",)).get_content()
    html = ack.get_body(preferencelist=("html",)).get_content()
    assert f"Your orders as I understood them:\n  {UNDERSTOOD}\n" in text
    assert f"<li>{UNDERSTOOD}</li>" in html
    inbox = auguste_game.store.one("SELECT * FROM inbox")
    assert (inbox["status"], inbox["reason"], inbox["seat"]) == ("done", "orders recorded", "ann")


def test_a_latin1_reply_moves_the_legion(auguste_game):
    welcome = welcome_of(auguste_game, "ann")
    raw = apple_latin1_reply(welcome, "rouge : déplace GUR HAC")
    assert b"charset=\"iso-8859-1\"" in raw and b"d=E9place" in raw
    play(auguste_game, raw)
    assert (unit_on(auguste_game, "GUR"), unit_on(auguste_game, "HAC")) == (None, "red")
    ack = acknowledgement(auguste_game, "<apple.1@players.example>")
    assert f"  {UNDERSTOOD}\n" in ack.get_body(preferencelist=("plain",)).get_content()
    [sub] = auguste_game.store.all("SELECT text, errors FROM submissions")
    assert (sub["text"], sub["errors"]) == ("rouge : déplace GUR HAC\n\n\n", "[]"), \
        "the signature (Cordialement, Anne) is set aside, not counted as errors"


def test_an_html_only_reply_moves_the_legion(auguste_game):
    welcome = welcome_of(auguste_game, "ann")
    play(auguste_game, gmail_html_only_reply(welcome, "red: move GUR HAC"))
    assert (unit_on(auguste_game, "GUR"), unit_on(auguste_game, "HAC")) == (None, "red")
    ack = acknowledgement(auguste_game, "<gm.1@players.example>")
    assert f"  {UNDERSTOOD}\n" in ack.get_body(preferencelist=("plain",)).get_content()
    [sub] = auguste_game.store.all("SELECT text FROM submissions")
    assert sub["text"] == "red: move GUR HAC"
