"""Hostile mail: what an attacker, or a careless mail server, sends a referee.

A mail is built from explicit choices (who it claims to be from, what its
headers and body hold, how deep its parts nest, which charsets it names), so
hypothesis strategies (`mails()`) and a seeded random stream (`random_mail`)
build mails from the same parts. Mails are written as raw bytes, because the
standard library refuses to write most of what is here.

`Fuzz` stores and ticks such mails one by one on a real referee, with a
player's ordinary order mail after every few, and tallies what became of
each: the figures the robust-mail tests assert on.

A forged JOIN (`forged_join`) asks to join an open game with a victim's
address; the victim's mailbox then answers the code's mail as careless
mailboxes do, without an Auto-Submitted header (`AUTO_REPLIES`, in every
shape `auto_reply` builds): none of these may enrol the victim.
"""

from dataclasses import dataclass, field
import email
from email import policy
import random

from hypothesis import strategies as st

from pbem.adjudicator.rng import PhaseRng
from pbem.identity import reply_address, subject_tag
from pbem.mail import intake
from pbem.timeutil import later

# One line as long as the mail: an order repeated, chat, an order padded with spaces, a
# mistyped order with chat, a command's words, a press message.
LONG_LINES = {
    "long-line-order": lambda n: ("red: move GUR HAC " * (n // 18 + 1))[:n],
    "long-line-chat": lambda n: ("sorry about that, thanks all, " * (n // 30 + 1))[:n],
    "long-line-padded": lambda n: " " * n + "red: move GUR HAC",
    "long-line-refused": lambda n: "red: move GUR Xyzq, " + "lol " * (n // 4),
    "long-line-command": lambda n: "HISTORY " + "12 " * (n // 3),
    "long-line-press": lambda n: "PRESS bob\n" + "blah " * (n // 5),
}
# Charset labels that are no charset, or no codec at all.
CHARSETS = ["idna", "punycode", "rot13", "base64", "zlib", "utf\x00-8", "x-no-such-charset",
            "utf-7", "unicode_escape", "raw_unicode_escape", "undefined", "utf-16", "utf-32",
            "cp1252", "iso-8859-1", "\x1b[31m", "utf-8" * 40, "", "us-ascii", "utf-8"]
# How a charset is written in a Content-Type: plain, quoted, RFC 2231, RFC 2231 continued.
CHARSET_STYLES = ["charset={}", 'charset="{}"', "charset*={}''%41",
                  "charset*0*={}''a; charset*1*=b"]
SENDERS = ["seat", "seat-no-code", "other-seat-code", "stranger", "display-address",
           "paren", "two-addresses", "two-froms", "no-from", "escapes", "nested-comments",
           "bogus-encoded-name"]
BODIES = ["orders", "bad-lines", "quote-bomb", "long-line-quotes", "alternating-quotes", "flowed",
          "html-open-tags", "html-comments", "html-deep", "nul", "random", "base64-broken",
          "qp-broken", "commands", "empty", "table", *LONG_LINES]
MESSAGE_IDS = ["plain", "space", "paren", "semicolon", "bracket", "backslash", "control",
               "huge", "missing", "two"]
HEADERS = ["none", "huge-references", "many-recipients", "encoded-subject", "many-lines",
           "long-line", "nul", "8bit", "auto-submitted", "reply-to-ours", "bogus-param"]
NESTINGS = ["single", "alternative", "deep", "very-deep", "many-parts", "dsn"]


@dataclass
class Seat:
    """A seat the hostile mail can claim, or steal from."""

    name: str
    email: str
    token: str


@dataclass
class Cast:
    """Who and what the mails are about: pbem's address, a game, its seats."""

    address: str
    game: str
    seats: list
    ours: list = field(default_factory=list)  # Message-IDs pbem sent (for replies)


@dataclass
class Recipe:
    """Every choice that makes one hostile mail."""

    sender: str = "seat"
    body: str = "orders"
    message_id: str = "plain"
    header: str = "none"
    nesting: str = "single"
    charset: str = "utf-8"
    charset_style: str = "charset={}"
    size: int = 100
    seat: int = 0
    number: int = 0
    orders: str = "WAIT\nred: move GUR HAC\n"  # the text of an "orders" body


def build(recipe: Recipe, cast: Cast) -> bytes:
    """The raw bytes of the mail a recipe describes."""
    seat = cast.seats[recipe.seat % len(cast.seats)]
    other = cast.seats[(recipe.seat + 1) % len(cast.seats)]
    lines = sender_lines(recipe.sender, seat, other)
    code = {"seat": seat.token, "seat-no-code": "", "other-seat-code": other.token}.get(
        recipe.sender, seat.token)
    to = reply_address(cast.address, cast.game, code) if code else cast.address
    lines += [f"To: {to}", f"Subject: Re: {subject_tag(cast.game, code) if code else 'orders'} "
              "your turn", "Date: Tue, 01 Dec 2026 13:00:00 +0000"]
    lines += message_id_lines(recipe.message_id, recipe.number, recipe.size)
    lines += header_lines(recipe.header, recipe.size, cast, recipe.number)
    head = "\r\n".join(lines).encode("utf-8", "surrogateescape")
    content_type, body = part(recipe)
    return head + b"\r\n" + nest(recipe.nesting, content_type, body, recipe.size)


def sender_lines(kind: str, seat: Seat, other: Seat) -> list[str]:
    """The From header(s) of a mail claiming to come from `seat`."""
    ann = seat.email
    return {
        "seat": [f"From: {seat.name.title()} <{ann}>"],
        "seat-no-code": [f"From: {seat.name.title()} <{ann}>"],
        "other-seat-code": [f"From: {seat.name.title()} <{ann}>"],
        "stranger": ["From: Eve <eve@evil.example>"],
        "display-address": [f"From: {ann} <eve@evil.example>"],
        "paren": [f"From: {ann})<eve@evil.example>"],
        "two-addresses": [f"From: {ann}, eve@evil.example"],
        "two-froms": [f"From: {ann}", "From: eve@evil.example"],
        "no-from": [],
        "escapes": [f"From: Ann\x1b[2J\x07 <{ann}>"],
        "nested-comments": ["From: " + "(" * 3000 + ann],
        "bogus-encoded-name": [f"From: =?idna?q?xn--?= =?punycode?b?!!?= <{ann}>",
                               f"Sender: {other.email}"],
    }[kind]


def message_id_lines(kind: str, number: int, size: int) -> list[str]:
    """The Message-ID header(s) of a mail."""
    mid = {
        "plain": f"<h{number}@players.example>",
        "space": f"<h {number}@players.example>",
        "paren": f"<h({number})@players.example>",
        "semicolon": f"<h;{number}@players.example>",
        "bracket": f"<h[{number}]@players.example>",
        "backslash": f"<h\\{number}@players.example>",
        "control": f"<h\x1b{number}\x00@players.example>",
        "huge": f"<h{number}." + "x" * size + "@players.example>",
        "two": f"<h{number}@players.example>\r\nMessage-ID: <second{number}@players.example>",
    }.get(kind)
    return [f"Message-ID: {mid}"] if mid else []


def header_lines(kind: str, size: int, cast: Cast, number: int) -> list[str]:
    """Extra headers that are too big, too many, or otherwise hostile."""
    if kind == "huge-references":
        return ["References: " + " ".join(f"<r{i}@x.example>" for i in range(size // 10 + 1))]
    if kind == "many-recipients":
        return ["Cc: " + ", ".join(f"U{i} <u{i}@x.example>" for i in range(size // 20 + 1))]
    if kind == "encoded-subject":
        return ["X-Subject: " + " ".join("=?utf-8?q?=C3=A9t=C3=A9?=" for _ in range(size // 25))]
    if kind == "many-lines":
        return [f"X-Line-{i}: x" for i in range(size // 8 + 1)]
    if kind == "long-line":
        return ["X-Long: " + "y" * size]
    if kind == "nul":
        return ["X-Nul: a\x00b", "Comments: \x00\x00"]
    if kind == "8bit":
        return ["X-Name: \udcc3\udca9t\udcc3\udca9 \udcff\udcfe"]
    if kind == "auto-submitted":
        return ["Auto-Submitted: auto-replied"]
    if kind == "reply-to-ours" and cast.ours:
        ours = cast.ours[number % len(cast.ours)]
        return [f"In-Reply-To: {ours}", f"References: {ours}"]
    if kind == "bogus-param":
        return ["Content-Disposition: inline; filename*=idna''%ff%fe"]
    return []


# The table's commands as players write them, hostile or careless: every form of date
# and number, typos, both languages, huge messages.
DAYS = ["2026-12-20", "20/12/2026", "20.12.2026", "20-12-2026", "20/12", "20.12", "1/1", "29/02",
        "31/02", "00/00/0000", "32/13/2026", "9999-12-31", "31/12/9999", "0001-01-01",
        "01/01/0001", "20/12/26", "2026-12-20T10:00", "٢٠/١٢/٢٠٢٦", "２０/１２", "9" * 40 + "/12",
        "1" * 5000, "demain", "tomorrow", "20/12/2026,", "-", "du", "2027-02-28", "2027-12-02"]
NUMBERS = ["", "1", "2", "03", "#1", "1.", "phase 1", "²", "³", "½", "٣", "３", "-1", "+2", "1e3",
           "5,000", "1_000", "7" * 5000, "0", "999999999", "4294967296", "Ⅻ", "three", "deux",
           "1 2", "NaN"]
WHOM = ["bob", "bob, cat", "bob,cat:", "ALL", "tous", "Caesar", "pompey", "bbo", "ann", "",
        "eve@evil.example", "bob\u202e", "; ;"]
GREETING = ["", "Hello all,", "Bonjour à tous,", "Hi bob!", "Salut,"]
SIGN_OFF = ["", "Cheers,\nAnn", "Cordialement,\nJean Dupont\n06 12 34 56 78",
            "-- \nsent from my phone"]


def table_text(rng: random.Random, seat: int, size: int) -> str:
    """A mail of table commands from the seat at index `seat`: greetings and chat around one
    to three of PRESS, ABSENCE, HISTORY, DRAW, CONCEDE (PRESS last: it takes the rest).

    Only the fourth seat concedes and the third never votes for a draw, so the game goes
    on however many mails come.
    """
    lines = [rng.choice(GREETING)]
    kinds = ["absence", "history", "draw" if seat != 2 else "history", "press"]
    if seat == 3:
        kinds.append("concede")
    for kind in rng.sample(kinds, rng.randint(1, 3)):
        if kind == "absence":
            days = rng.sample(DAYS, rng.choice((1, 2, 2, 3)))
            lines.append(rng.choice(["ABSENCE", "VACANCES", "absence du", "Away from"]) + " "
                         + f" {rng.choice(['', 'au', 'to', '-'])} ".join(days))
        elif kind == "history":
            lines.append(f"{rng.choice(['HISTORY', 'HISTORIQUE', 'history'])} "
                         f"{rng.choice(NUMBERS)}".strip())
        elif kind == "draw":
            lines.append(rng.choice(["DRAW", "NULLE", "Nulle !", "DRAW please"]))
        elif kind == "concede":
            lines.append(rng.choice(["CONCEDE", "ABANDON", "Abandonne"]))
    if "press" in kinds and rng.random() < 0.6:
        body = rng.choice(["Let us ally.", "On s'allie ?\nRéponds vite.", "",
                           "\u202eevil\x1b[2J", "x" * rng.choice((size, 25_000, 300_000))])
        lines += [f"{rng.choice(['PRESS', 'PRESSE', 'press'])} {rng.choice(WHOM)}".strip(), body]
    lines.append(rng.choice(SIGN_OFF))
    return "\n".join(lines) + "\n"


def text(recipe: Recipe) -> str:
    """The text of a mail's body."""
    n = recipe.size
    if recipe.body == "table":
        return table_text(random.Random(recipe.number), recipe.seat % 4, n)
    if recipe.body in LONG_LINES:
        return LONG_LINES[recipe.body](n)
    return {
        "orders": recipe.orders,
        "bad-lines": "".join(f"nonsense order {i}\n" for i in range(max(1, n // 20))),
        "quote-bomb": "\n" * (n // 2) + "> quoted\n" * (n // 9 + 1),
        "long-line-quotes": "z" * n + "\n" + "> q\n" * (n // 4 + 1),
        "alternating-quotes": "\n> q\n" * (n // 5 + 1),
        "flowed": "word " * (n // 5 + 1) + "\nred: hold\n",
        "html-open-tags": "<a" * (n // 2 + 1),
        "html-comments": "<!--" * (n // 4 + 1),
        "html-deep": "<div>" * (n // 5 + 1) + "red: hold",
        "nul": "red:\x00 move GUR HAC\x00\n\x1b[31mhold\x07\n",
        "commands": "HELP\nSTATUS\nSLOW\n",
        "empty": "",
    }.get(recipe.body, "")


def part(recipe: Recipe) -> tuple[str, bytes]:
    """(Content-Type value with its parameters, encoded body) of the mail's text part."""
    charset = recipe.charset_style.format(recipe.charset)
    body = text(recipe)
    if recipe.body == "random":
        rng = random.Random(recipe.number)
        return f"text/plain; {charset}", bytes(rng.randrange(256) for _ in range(recipe.size))
    if recipe.body == "base64-broken":
        return f"text/plain; {charset}\r\nContent-Transfer-Encoding: base64", \
            b"@@@" + b"QUJD" * (recipe.size // 4) + b"=\r\n=="
    if recipe.body == "qp-broken":
        return f"text/plain; {charset}\r\nContent-Transfer-Encoding: quoted-printable", \
            b"=ZZ=\r\n=" + b"=4" * (recipe.size // 2)
    subtype = "html" if recipe.body.startswith("html") else "plain"
    flowed = "; format=flowed; delsp=yes" if recipe.body == "flowed" else ""
    return f"text/{subtype}; {charset}{flowed}\r\nContent-Transfer-Encoding: 8bit", \
        body.encode("utf-8")


def nest(kind: str, content_type: str, body: bytes, size: int) -> bytes:
    """The mail's MIME structure around its text part, with the blank line that starts it."""
    leaf = f"Content-Type: {content_type}\r\n\r\n".encode() + body + b"\r\n"
    if kind == "single":
        return f"MIME-Version: 1.0\r\nContent-Type: {content_type}\r\n\r\n".encode() + body
    if kind == "alternative":
        return multipart("alternative", "alt", [leaf, leaf.replace(b"text/plain", b"text/html")])
    if kind in ("deep", "very-deep"):
        levels = 40 if kind == "deep" else 1200
        inner = leaf
        for level in range(levels):
            inner = multipart("mixed", f"b{level}", [inner], top=False)
        return b"MIME-Version: 1.0\r\n" + inner
    if kind == "many-parts":
        small = b"Content-Type: text/plain\r\n\r\nx\r\n"
        return multipart("mixed", "many", [small] * (size // 1000 + 250) + [leaf])
    return dsn(leaf)


def multipart(subtype: str, boundary: str, parts: list[bytes], top: bool = True) -> bytes:
    """A multipart entity: its Content-Type header, a blank line, its parts."""
    head = (b"MIME-Version: 1.0\r\n" if top else b"") + \
        f"Content-Type: multipart/{subtype}; boundary=\"{boundary}\"\r\n\r\n".encode()
    inner = b"".join(f"--{boundary}\r\n".encode() + p for p in parts)
    return head + inner + f"--{boundary}--\r\n".encode()


def dsn(leaf: bytes) -> bytes:
    """A forged delivery failure report naming the seat, quoting no mail of pbem's."""
    status = (b"Content-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; evil.example\r\n"
              b"\r\nFinal-Recipient: rfc822; ann@players.example\r\nAction: failed\r\n"
              b"Status: 5.1.1\r\n")
    return multipart("report", "dsn", [leaf, status])


def recipes() -> st.SearchStrategy:
    """Hypothesis: any recipe, sizes kept small enough for the default suite."""
    return st.builds(
        Recipe, sender=st.sampled_from(SENDERS), body=st.sampled_from(BODIES),
        message_id=st.sampled_from(MESSAGE_IDS), header=st.sampled_from(HEADERS),
        nesting=st.sampled_from(NESTINGS), charset=st.sampled_from(CHARSETS),
        charset_style=st.sampled_from(CHARSET_STYLES), size=st.integers(0, 20_000),
        seat=st.integers(0, 3), number=st.integers(0, 10**6))


def table_recipe(rng: random.Random, number: int) -> Recipe:
    """A seat's mail of table commands (see table_text), now and then a reply to one of
    pbem's mails, in one MIME shape or another."""
    return Recipe(body="table", seat=rng.randrange(4), number=number,
                  size=int(10 ** rng.uniform(0, 4.5)),
                  header=rng.choice(["none", "none", "reply-to-ours", "encoded-subject"]),
                  nesting=rng.choice(["single", "single", "alternative"]),
                  charset=rng.choice(["utf-8", "utf-8", "iso-8859-1", "us-ascii"]))


def table_recipes() -> st.SearchStrategy:
    """Hypothesis: mails of table commands, as table_recipe makes them."""
    return st.builds(lambda number: table_recipe(random.Random(number), number),
                     st.integers(0, 10**6))


def random_recipe(rng: random.Random, number: int, big: bool) -> Recipe:
    """A recipe from a seeded stream; with `big`, sizes up to past the size cap."""
    return Recipe(
        sender=rng.choice(SENDERS), body=rng.choice(BODIES), message_id=rng.choice(MESSAGE_IDS),
        header=rng.choice(HEADERS), nesting=rng.choice(NESTINGS), charset=rng.choice(CHARSETS),
        charset_style=rng.choice(CHARSET_STYLES),
        size=int(10 ** rng.uniform(0, 6.1 if big else 4.3)), seat=rng.randrange(4),
        number=number)


# What a mailbox sends back to a mail, without saying it is automatic: out-of-office texts,
# read receipts, a bare "thanks" or "ok", nothing at all.
AUTO_REPLIES = [
    "", "Thanks!", "Ok", "OK.", "Merci", "Merci !", "Thank you for your message.",
    "I am out of the office until Monday 7 December, with no access to mail.",
    "Je suis absent jusqu'au 7 décembre. En cas d'urgence, appelez le standard.",
    "Your message has been received and will be read soon.", "Bien reçu, merci.",
    "Ok merci", "Received.", "Thanks, I'll get back to you.",
    "This mailbox is not monitored.", "Réponse automatique : je suis en congés.",
]
SIGNATURES = ["", "\nZoé Martin", "\n-- \nZoé Martin\nSent from my phone",
              "\nCordialement,\nJean Dupont\n06 12 34 56 78"]


def forged_join(cast: Cast, victim: str, game: str, number: int) -> bytes:
    """A JOIN of an open game sent with a victim's address, under a name of the forger's."""
    return "\r\n".join([
        f"From: Victim <{victim}>", f"To: {cast.address}", "Subject: join",
        "Date: Tue, 01 Dec 2026 13:00:00 +0000", f"Message-ID: <forged{number}@evil.example>",
        "Received: from evil.example by mx", "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=utf-8", "",
        f"JOIN {game}", "NAME mallory-was-here", ""]).encode()


def auto_reply(cast: Cast, victim: str, answered: dict, said: str, quoted: bool, html: bool,
               number: int) -> bytes:
    """The victim's mailbox answering the mail `answered` (an outbox row, its text part at
    "text"), with no header that says it is automatic."""
    body = said
    if quoted:
        body += "\n\nOn Tue, 1 Dec 2026, pbem wrote:\n" + "\n".join(
            "> " + line for line in answered["text"].splitlines())
    if html:
        content = "text/html; charset=utf-8"
        body = "<html><body><div>" + said.replace("\n", "<br>") + "</div>" + (
            f"<blockquote class=\"gmail_quote\">{answered['text']}</blockquote>"
            if quoted else "") + "</body></html>"
    else:
        content = "text/plain; charset=utf-8"
    return "\r\n".join([
        f"From: Victim <{victim}>", f"To: {cast.address}",
        f"Subject: Re: {answered['subject']}", "Date: Tue, 01 Dec 2026 13:05:00 +0000",
        f"Message-ID: <auto{number}@victims.example>",
        f"In-Reply-To: {answered['message_id']}", f"References: {answered['message_id']}",
        "MIME-Version: 1.0", f"Content-Type: {content}", "Content-Transfer-Encoding: 8bit",
        "", body.replace("\n", "\r\n"), ""]).encode()


ANSWERS = ("ack", "help", "status", "notice", "history", "signup")
MARKS = ", ".join("?" for _ in ANSWERS)
ENDINGS = {"done", "rejected", "quarantined", "ignored", "duplicate", "bounce"}


@dataclass
class Tally:
    """What became of the mails of a fuzz run."""

    mails: int = 0
    crashes: list = field(default_factory=list)      # exceptions, and mails whose handling raised
    unanswered: list = field(default_factory=list)   # done/rejected with no answer, or no ending
    stuck: list = field(default_factory=list)        # a player's mail after a hostile one not taken
    enrolled: list = field(default_factory=list)     # victims of a forged JOIN who joined
    statuses: dict = field(default_factory=dict)
    quarantined: list = field(default_factory=list)  # the reasons mails were set aside

    def line(self) -> str:
        """The figures in one line."""
        return (f"fuzz: {self.mails} mails, {len(self.crashes)} crashes, "
                f"{len(self.unanswered)} unanswered, {len(self.stuck)} players' mails not taken, "
                f"{len(self.enrolled)} victims of a forged JOIN enrolled; "
                + ", ".join(f"{n} {s}" for s, n in sorted(self.statuses.items())))


class Fuzz:
    """Stores and ticks mails one by one on a referee, a player's order mail after every few."""

    def __init__(self, referee, game: str, start: str, every: int = 5, step: float = 1 / 180):
        self.referee, self.game, self.now, self.every = referee, game, start, every
        self.step = step  # hours between two mails
        seats = referee.store.seats(game)
        ours = [s["thread_id"] for s in seats]
        self.cast = Cast(referee.config["address"], game,
                         [Seat(s["name"], s["email"], s["token"]) for s in seats], ours)
        self.tally = Tally()
        self.hostiles = self.players = 0

    def deliver(self, raw: bytes) -> dict | None:
        """Store and tick one mail; its inbox row, None when an exception escaped."""
        store = self.referee.store
        before = store.one("SELECT MAX(id) AS id FROM outbox")["id"] or 0
        self.now = later(self.now, self.step)
        try:
            row_id = intake.ingest(store, raw, "fuzz", self.now)
            self.referee.tick(self.now, send=False)
        except Exception as problem:  # the figure this run exists to find
            self.tally.crashes.append(f"{type(problem).__name__}: {problem}")
            return None
        self.tally.mails += 1
        row = store.one("SELECT id, status, reason FROM inbox WHERE id = ?", [row_id])
        self.tally.statuses[row["status"]] = self.tally.statuses.get(row["status"], 0) + 1
        if row["status"] == "quarantined":
            self.tally.quarantined.append(row["reason"])
        answers = store.one(
            f"SELECT COUNT(*) AS n FROM outbox WHERE id > ? AND kind IN ({MARKS}) "
            "AND to_addr != ?", [before, *ANSWERS, self.referee.config["referee"]])["n"]
        self.cast.ours += [r["message_id"] for r in store.all(  # press to answer, later
            "SELECT message_id FROM outbox WHERE id > ? AND kind = 'press'", [before])]
        if (row["reason"] or "").startswith("could not be handled"):
            self.tally.crashes.append(f"inbox {row['id']}: {row['reason']}")
        if row["status"] not in ENDINGS or not row["reason"] or \
                (row["status"] in ("done", "rejected") and not answers):
            self.tally.unanswered.append(f"inbox {row['id']}: {row['status']} {row['reason']}")
        return row

    def forged(self, game: str, rng: random.Random) -> None:
        """A forged JOIN with a new victim's address, then the victim's mailbox answering
        the code's mail in one of the shapes careless mailboxes use: the victim must not
        be enrolled."""
        self.hostiles += 1
        victim = f"victim{self.hostiles}@victims.example"
        self.deliver(forged_join(self.cast, victim, game, self.hostiles))
        store = self.referee.store
        row = store.one("SELECT * FROM outbox WHERE to_addr = ? ORDER BY id DESC LIMIT 1",
                        [victim])
        if row is None:
            self.tally.unanswered.append(f"forged JOIN for {victim}: no code mailed")
            return
        raw = store.outbox_mail(row)
        answered = {**row, "text": email.message_from_bytes(raw, policy=policy.default)
                    .get_body(preferencelist=("plain",)).get_content()}
        said = rng.choice(AUTO_REPLIES) + rng.choice(SIGNATURES)
        self.deliver(auto_reply(self.cast, victim, answered, said, rng.random() < 0.7,
                                rng.random() < 0.3, self.hostiles))
        if store.one("SELECT 1 FROM signups WHERE email = ? UNION SELECT 1 FROM seats "
                     "WHERE email = ?", [victim, victim]):
            self.tally.enrolled.append(f"{victim}: {said!r}")

    def hostile(self, raw: bytes) -> None:
        """One hostile mail; then, every few, a player's own order mail, which must be taken."""
        self.deliver(raw)
        self.hostiles += 1
        if self.hostiles % self.every == 0:
            self.player()

    def player(self) -> None:
        """A player's ordinary order mail, from a seat still playing: it must be recorded and
        answered."""
        self.players += 1
        table = self.referee.table(self.game)
        playing = [index for index, seat in enumerate(self.cast.seats)
                   if seat.name not in table.state["engine"].get("conceded", [])]
        index = playing[self.players % len(playing)]
        seat = self.cast.seats[index]
        orders = table.game.bot_orders(table.state["game"], seat.name,
                                       PhaseRng("fuzz", seat.name, self.players))
        raw = build(Recipe(seat=index, orders="WAIT\n" + orders, number=10**7 + self.players),
                    self.cast)
        row = self.deliver(raw)
        if row is None or row["status"] != "done" or "orders recorded" not in (row["reason"] or ""):
            self.tally.stuck.append(f"{seat.name}: {row and (row['status'], row['reason'])}")
