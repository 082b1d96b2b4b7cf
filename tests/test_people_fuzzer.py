"""The people fuzzer: the bots' valid orders, written the way people write mail.

At each phase of a bot game of every game, each seat asked (or the seat that gives
its orders) mails its bot's orders wrapped in human noise drawn from tables:
greetings; chat before, between and after the orders; sign-offs and signatures;
quoted replies; PRESS blocks before and after the orders, with and without ENDPRESS;
bullets; upper and lower case; French without accents, numbers in words and "→" for
a dash, each kept on an order line only where the game reads the line so. Every mail
goes through real RFC 822 mail (tests/players.py). Mail by mail, it asserts:

- every order is recorded exactly once: the orders on file are the bot's, from as
  many lines as the bot wrote;
- no order and no private press reaches another seat: each press block's words go
  to its own recipients alone, no press carries an order, and the public archive
  shows only the press to ALL;
- every line the player wrote is accounted for, exactly once, in the answer's
  "Line by line": its orders as orders, its press as press to its recipients, its
  chat as remarks, its greetings and signature as remarks or set aside;
- a phase whose asked seats all sent valid orders is resolved at once.

The generator is seeded: each run writes the same mails.
"""

from dataclasses import dataclass, field
import json
import random
import re
import unicodedata

import pytest

from pbem.adjudicator.contract import REFEREE
from pbem.adjudicator.rng import PhaseRng
from pbem.app import SeatSpec
from pbem.demo import scripted_rulings
from pbem.publish import publish
from pbem.reading import command_of
from pbem.timeutil import later
import pbem.games

from conftest import START, make_referee
from players import flat, parsed, reply, text_of

GAME = "demo"  # scripted_rulings settles what waits for the referee in the game of this id
# The games, and how many of their phases each run fuzzes.
PHASES = {"auguste": 8, "attila": 12, "saga": 14, "seigneurs": 16, "diplomacy": 6}

GREETINGS = {"en": ["Hi all,", "Hello everyone!", "Hey", "Good evening,", "Hi referee"],
             "fr": ["Bonjour à tous,", "Salut !", "Bonsoir", "Coucou tout le monde",
                    "Bonjour a tous"]}
CHAT = {"en": ["Sorry for the late orders, busy week.", "Great game so far!",
               "I think Bob is bluffing.", "Let's see how this goes.", "Ouch. Fair enough.",
               "No hard feelings, I hope.", "That was close last turn!"],
        "fr": ["Désolé pour le retard, semaine chargée.", "Belle partie jusqu'ici !",
               "Je crois que Bob bluffe.", "On verra bien ce que ça donne.",
               "Aïe. Bon, d'accord.", "Sans rancune j'espère.", "Desole pour le retard.",
               "C'était serré au dernier tour !"]}
SIGN_OFFS = {"en": ["Cheers,", "Best,", "Thanks,", "Good luck all"],
             "fr": ["Merci,", "A+", "Amitiés,", "Bonne soirée", "Bises"]}
NUMBERS = {"en": "one two three four five six seven eight nine ten eleven twelve".split(),
           "fr": "un deux trois quatre cinq six sept huit neuf dix onze douze".split()}


@dataclass
class Mail:
    """A mail a player writes, and what pbem must make of it."""

    lines: list = field(default_factory=list)   # (text, kind): "order", "chat", "aside",
    #                                             "command", ("press", "bob, cat"), None
    secrets: list = field(default_factory=list)  # (secret, recipients, to ALL)
    orders: list = field(default_factory=list)   # the order lines as written

    def add(self, text: str, kind) -> None:
        self.lines.append((text, kind))

    @property
    def body(self) -> str:
        return "\n".join(text for text, _kind in self.lines)


def unaccented(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text)
                   if not unicodedata.combining(c))


class Player:
    """One seat's player: its language, name and habits, drawn from a seeded stream."""

    def __init__(self, game, state, seat: str, lang: str, rng: random.Random, others):
        self.game, self.state, self.seat, self.lang = game, state, seat, lang
        self.rng, self.others = rng, others

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def pick(self, items):
        return self.rng.choice(items)

    def variant(self, target: str, order_lines: list, at: int) -> str:
        """The order line at `at` written another way people write it, when the game reads
        the whole set of lines to the same orders (else as the bot wrote it)."""
        line = order_lines[at]
        ways = [str.lower, str.upper, unaccented,
                lambda s: s.replace(" - ", " → "),
                lambda s: re.sub(r"\b([1-9]|1[0-2])\b",
                                 lambda m: NUMBERS[self.lang][int(m.group(1)) - 1], s)]
        written = self.pick(ways)(line) if self.chance(0.5) else line
        if self.chance(0.3):
            written = self.pick(["- ", "* ", "• "]) + written
        if written == line:
            return line
        want = self.game.parse(self.state["game"], target, "\n".join(order_lines))
        trial = order_lines[:at] + [written.lstrip("-*• ")] + order_lines[at + 1:]
        return written if self.game.parse(self.state["game"], target,
                                          "\n".join(trial)) == want else line

    def press(self, mail: Mail, number: int, before_orders: bool) -> None:
        """A PRESS block to another seat or to ALL, its secret words, with or without
        ENDPRESS (without, before the orders, it ends at the first order)."""
        everyone = self.chance(0.25)
        to = sorted(self.others) if everyone else [self.pick(sorted(self.others))]
        secret = f"zq{number}x{self.seat}{len(mail.secrets)}"
        kind = ("press", ", ".join(to))
        mail.add(f"PRESS {'ALL' if everyone else to[0]}", kind)
        mail.add(self.pick(CHAT[self.lang]), kind)
        mail.add(f"Between us ({secret}): I will keep to my side.", kind)
        mail.secrets.append((secret, set(to), everyone))
        if self.chance(0.5):
            mail.add("ENDPRESS" if self.lang == "en" or self.chance(0.5) else "FINPRESSE",
                     kind)
            return
        if before_orders and self.chance(0.5):
            mail.add("", None)
        self.open_block = kind  # it runs on to the first order, or to the mail's end

    def mail(self, parts: list, number: int) -> Mail:
        """The mail: `parts` are (seat or None for the writer's own, bot text)."""
        mail, self.open_block = Mail(), None
        if self.chance(0.6):
            mail.add(self.pick(GREETINGS[self.lang]), "aside")
        if self.chance(0.3):
            self.press(mail, number, before_orders=True)
        if self.open_block is None and self.chance(0.4):
            mail.add(self.pick(CHAT[self.lang]), "chat")
        for target, text in parts:
            lines = [line for line in text.splitlines() if line.strip()]
            if target is not None:
                mail.add(f"for {target}:", "order")
            for at, line in enumerate(lines):
                command = command_of(line, 1) is not None
                written = line if command else self.variant(target or self.seat, lines, at)
                mail.add(written, "command" if command else "order")
                if not command:
                    mail.orders.append(written)
                if at + 1 < len(lines) and self.chance(0.15):
                    mail.add(self.pick(CHAT[self.lang]), "chat")
        self.open_block = None
        if self.chance(0.3):
            mail.add(self.pick(CHAT[self.lang]), "chat")
        if self.chance(0.3):
            self.press(mail, number, before_orders=False)
        tail = self.open_block or "aside"
        if self.chance(0.6):
            mail.add(self.pick(SIGN_OFFS[self.lang]), tail)
            mail.add(self.seat.title(), tail)
        elif self.chance(0.3):
            mail.add("-- ", None)  # a signature under "-- " is no part of the text
            mail.add(f"{self.seat.title()} · club de jeux", None)
        while mail.lines and mail.lines[-1][0] == "":
            mail.lines.pop()
        return mail


RUN = re.compile(r"^(\d+)(?:-(\d+))? (.+)$")


def line_by_line(said: str) -> dict:
    """{line: what became of it} from an answer's "Line by line" sentence."""
    found = re.search(r"(?:Line by line|Ligne par ligne) ?: (.*?)\.(?: |$)", said)
    assert found, f"the answer does not account for the lines: {said}"
    runs = {}
    for item in found.group(1).split("; "):
        first, last, what = RUN.match(item.strip()).groups()
        for number in range(int(first), int(last or first) + 1):
            assert number not in runs, f"line {number} is accounted for twice: {said}"
            runs[number] = what
    return runs


WORDS = {"order": ("order", "orders", "ordre", "ordres"),
         "chat": ("remark", "remarks", "remarque", "remarques"),
         "aside": ("remark", "remarks", "remarque", "remarques", "line set aside",
                   "lines set aside", "mise de côté", "mises de côté")}


def accounted(mail: Mail, said: str, press_on: bool) -> list[str]:
    """How the answer's account of the mail's lines differs from what they were."""
    runs = line_by_line(said)
    problems = []
    for number, (text, kind) in enumerate(mail.lines, start=1):
        if kind is None:
            if text.strip() and number in runs:
                problems.append(f"line {number} ({text!r}) is no part of the text")
            continue
        what = runs.pop(number, None)
        if kind == "command":
            ok = what is not None and what.isupper()
        elif isinstance(kind, tuple):
            ok = what in ((f"press to {kind[1]}", f"message à {kind[1]}") if press_on else
                          ("press not sent", "message non envoyé"))
        else:
            ok = what in WORDS[kind]
        if not ok:
            problems.append(f"line {number} ({text!r}) is {kind}, the answer says {what!r}")
    problems += [f"line {number} is not in the mail" for number in runs
                 if number > len(mail.lines) or mail.lines[number - 1][0].strip()]
    return problems


def writers(game, state) -> dict:
    """{writer: [(seat or None, its bot's text)]} for the seats asked now."""
    ruler = getattr(game, "controller", None)
    parts = {}
    for name in sorted(state["engine"]["requests"]):
        if name == REFEREE:
            continue
        text = game.bot_orders(state["game"], name, PhaseRng("fuzz", f"bot:{name}",
                                                              state["engine"]["phase"]))
        writer = (ruler(state["game"], name) if ruler else None) or name
        parts.setdefault(writer, []).append((None if writer == name else name, text))
    return parts


def latest_mail(referee, seat: str, phase: int):
    """The seat's latest mail of the open phase that a reply may answer (no press)."""
    row = referee.store.one("SELECT * FROM outbox WHERE game = ? AND seat = ? AND phase = ? "
                            "AND kind NOT IN ('press', 'draw') ORDER BY id DESC LIMIT 1",
                            [GAME, seat, phase])
    return dict(row, raw=referee.store.outbox_mail(row)) if row else None


def answer(referee, row: dict) -> dict:
    """pbem's answer to an inbox row's mail."""
    wanted = parsed(row)["Message-ID"]
    for found in referee.store.all("SELECT * FROM outbox WHERE seat IS NOT NULL AND kind = "
                                   "'ack' ORDER BY id DESC LIMIT 20"):
        mail = dict(found, raw=referee.store.outbox_mail(found))
        if parsed(mail)["In-Reply-To"] == wanted:
            return mail
    raise AssertionError("the mail got no answer")


def press_since(referee, after: int) -> list[dict]:
    """The press mails queued after outbox row `after`."""
    return [dict(r, raw=referee.store.outbox_mail(r)) for r in referee.store.all(
        "SELECT * FROM outbox WHERE id > ? AND kind = 'press' ORDER BY id", [after])]


@pytest.mark.parametrize("ruleset", sorted(PHASES))
def test_people_s_noise_never_costs_an_order_leaks_nothing_and_stalls_nothing(
        ruleset, tmp_path):
    game = pbem.games.load(ruleset)
    referee = make_referee(tmp_path)
    names = game.DEMO_SEATS
    langs = {name: ("fr" if at % 2 else "en") for at, name in enumerate(names)}
    referee.new_game(ruleset, GAME, [SeatSpec(n, f"{n}@players.example", lang=langs[n])
                                     for n in names], START, game.demo_options(40),
                     seed=f"fuzz-{ruleset}")
    rng = random.Random(f"people-{ruleset}")
    now, number, secrets, fuzzed = START, 0, [], 0
    for _ in range(PHASES[ruleset]):
        table = referee.table(GAME)
        if table.state["engine"]["over"]:
            break
        scripted_rulings(referee, game, table.state, "fuzz", now)
        table = referee.table(GAME)
        state, phase = table.state, table.state["engine"]["phase"]
        if state["engine"]["over"]:
            break
        press_on = state["engine"]["timing"].get("press", "open") != "none"
        for writer, parts in writers(game, state).items():
            number += 1
            kinds = {state["engine"]["requests"][target or writer]["kind"]
                     for target, _text in parts}
            player = Player(game, state, writer, langs[writer], rng,
                            [n for n in names if n != writer])
            if "ruling" in kinds:  # a judge's ruling takes its reasons from the mail's words
                reply(referee, GAME, writer, "\n".join(text for _t, text in parts), now)
                continue
            mail = player.mail(parts, number)
            before = referee.store.one("SELECT MAX(id) AS n FROM outbox")["n"]
            seq = referee.store.game(GAME)["last_seq"]
            answering = latest_mail(referee, writer, phase) if player.chance(0.7) else None
            row = reply(referee, GAME, writer, mail.body, now, answering=answering)
            said = flat(answer(referee, row))
            where = f"{ruleset}, phase {phase}, {writer}'s mail:\n{mail.body}\n--- answer: {said}"
            assert row["status"] == "done", where
            problems = accounted(mail, said, press_on)
            assert not problems, "\n".join(problems) + "\n" + where
            for target, text in parts:
                seat = target or writer
                if all(command_of(line, 1) for line in text.splitlines() if line.strip()):
                    continue
                sub = referee.current_submission(GAME, seat, phase)
                want = game.parse(state["game"], seat, text)[0]
                assert sub is not None and json.loads(sub["orders"]) == json.loads(
                    json.dumps(want)), f"the orders on file are not the bot's: {where}"
                assert len([t for t in sub["text"].splitlines() if t.strip()]) == len(
                    [t for t in text.splitlines() if t.strip() and not command_of(t, 1)]), \
                    f"an order was read twice or lost: {sub['text']!r}\n{where}"
            sent = press_since(referee, before)
            for secret, to, _everyone in mail.secrets:
                reached = {r["seat"] for r in sent if secret in text_of(r)}
                assert reached == (to if press_on else set()), f"{secret}: {reached}\n{where}"
            for event in referee.events(GAME, "referee"):
                if event["type"] == "press" and event["seq"] > seq:
                    said = {line.strip() for line in event["payload"]["text"].splitlines()}
                    assert not said & {order.lstrip("-*• ") for order in mail.orders}, \
                        f"an order went as press: {where}"
            secrets += mail.secrets
            fuzzed += 1
        if REFEREE in referee.table(GAME).state["engine"]["requests"]:
            continue
        now = later(now, 0.05)
        resolved = referee.tick(now, send=False).phases
        assert resolved, f"{ruleset}: phase {phase} waits although every seat asked sent " \
            f"valid orders"
    assert fuzzed >= PHASES[ruleset] // 2
    site = tmp_path / "site"
    publish(referee, site)
    archive = " ".join(p.read_text(encoding="utf-8") for p in site.rglob("*.html"))
    for secret, _to, everyone in secrets:
        assert (secret in archive) == everyone, f"{secret} in the archive: {secret in archive}"
