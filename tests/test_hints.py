"""Every hint a seat is shown is an order its game's parser takes, there and then.

Whole bot games of every game run through a real referee, half the seats in
French, one seat a phase asking for HELP. After every phase, every mail to a
seat that is asked something (for itself, or for a seat whose orders it
gives) is read as the player reads it, in the seat's language and, as it
would read after LANGUAGE, in the other:

- its HELP: each example row (the first column of a row indented by two
  spaces; " / " parts are examples each; a row that starts with "+ " is a
  step read after the row above it, as Attila's influence after a play);
- its "what you may send now" lines (the orders its game's view lists for it
  and for each seat whose orders it gives), each shown in the mail, and each
  such line copied whole as it stands in the mail (without its note in
  brackets), when it offers one order and not several ("a | b");
- the hints in the answers to mistaken lines: the first word of an order it
  could send misspelt ("did you mean ...?": the line with the word put right),
  each order word it is shown alone, and each line of an order of several
  lines alone (the example each answer gives: in place of the line when it is
  the same order, else a line to add to it; an answer about the whole mail,
  such as a ruling's missing keys, gives a line to add to it).

Each is fed to the game's parser for that seat, in that position, in that
language: not one may be refused.
"""

import re

import pytest

from pbem import render
from pbem.adjudicator.contract import REFEREE
from pbem.adjudicator.rng import PhaseRng
from pbem.app import SeatSpec
from pbem import inbound
from pbem.i18n import speaking
from pbem.reading import plain
import pbem.games
from pbem.timeutil import later

from conftest import START, make_referee
from players import text_of

GAMES = {
    "auguste": (["ann", "bob", "cat", "dan"], {"preset": "4-2", "trumps": "yes",
                                               "max_turns": "5"}),
    "attila": (["ann", "bob", "cat"], {}),
    "diplomacy": (["ann", "bob", "cat", "dan"], {"years": "3"}),
    "saga": (["ann", "bob", "cat", "dan"], {"rounds": "6"}),
    "seigneurs": (["ann", "bob", "cat", "zed"], {"judge": "zed", "turns": "2"}),
}
MAX_PHASES = 400
ROW = re.compile(r"^  (\S.*?)(?: {2,}|$)")
MEANT = re.compile(r"(?:did you mean|vouliez-vous dire) ([^?]+?)\s?\?", re.IGNORECASE)
EXAMPLE = re.compile(r"(?:e\.g\.|for example|par exemple)\s+(.+?)"
                     r"(?:,? (?:or send|ou envoyez) \w+)?\.?$")


def language(name: str) -> str:
    """Every other seat reads French."""
    return "fr" if name in ("bob", "dan", "zed") else "en"


def help_hints(text: str) -> list[str]:
    """The examples of a HELP: a row's first column, split at ' / '; a "+ " row is read
    after the first example of the row above it."""
    found, parent = [], None
    for line in text.splitlines():
        row = ROW.match(line)
        if not row:
            continue
        step = row.group(1).startswith("+ ")
        examples = [part.strip() for part in row.group(1).removeprefix("+ ").split(" / ")]
        if not step:
            parent = examples[0]
            found += examples
        elif parent is not None:
            found += [f"{parent}\n{example}" for example in examples]
    return found


class Hints:
    """Reads each new mail of a game as its player does, and keeps the hints refused."""

    def __init__(self, referee, ruleset: str):
        self.referee = referee
        self.ruleset = ruleset
        self.game = pbem.games.load(ruleset)
        self.seen = 0
        self.refused = []
        self.checked = 0
        self.stages = set()      # the stages whose hints were checked
        self.probed = set()      # (phase, seat, language, line) answered already

    def read_new_mails(self) -> None:
        """The mails written since the last call, against the state they were written in."""
        table = self.referee.table("g")
        state = table.state
        for row in self.referee.store.all("SELECT * FROM outbox WHERE id > ? ORDER BY id",
                                          [self.seen]):
            self.seen = row["id"]
            if row["seat"] and not state["engine"]["over"]:
                self.read(table, dict(row, raw=self.referee.store.outbox_mail(row)))

    def answering(self, table, seat: str) -> list[str]:
        """The seats whose orders a mail to this seat asks for: itself, those it gives."""
        ruler = getattr(self.game, "controller", None)
        return [s for s in sorted(table.state["engine"]["requests"]) if s != REFEREE
                and ((ruler(table.state["game"], s) if ruler else None) or s) == seat]

    def read(self, table, row) -> None:
        """Check the hints of one mail to a seat that is asked something now, in each
        language."""
        seat = row["seat"]
        asked = self.answering(table, seat)
        if not asked:
            return
        text = text_of(row)
        state = table.state["game"]
        phase = table.state["engine"]["phase"]
        for lang in (language(seat), other_language(seat)):
            own = lang == language(seat)
            with speaking(lang):
                view = self.game.view(state, seat)
                shown = render.render(self.ruleset, "help.txt.j2", view=view).strip()
            hints = []
            if seat in asked and row["kind"] in ("welcome", "report", "reminder", "status",
                                                 "help"):
                assert not own or shown in text, \
                    f"{row['kind']} to {seat} has not the HELP of its position"
                hints = help_hints(shown)
                self.check(state, seat, lang, hints, f"HELP of {row['kind']}")
            if row["kind"] in ("welcome", "report", "reminder", "status"):
                for who, orders, lines in options_of(view, seat):
                    for line in lines:
                        assert not own or line in text, \
                            f"{row['kind']} to {seat} lacks its option {line!r}"
                    self.check(state, who, lang, orders + as_shown(lines),
                               f"what {who} may send, in {row['kind']}")
                    hints += orders if who == seat else []
            self.probe(state, seat, lang, hints, phase)

    def check(self, state, seat, lang, hints, where, after_mistake=False) -> None:
        """Feed each hint to the parser for the seat; keep those it refuses (a hint of
        two readings, a tuple, is refused when both are). After a mistaken line
        (`after_mistake`), that first line may be set aside as a remark."""
        self.stages.add(stage(state))
        with speaking(lang):
            for hint in hints:
                readings = hint if isinstance(hint, tuple) else (hint,)
                errors = [[e for e in self.game.parse(state, seat, text)[1]
                           if not (after_mistake and e.remark and e.line == 1 and "\n" in text)]
                          for text in readings]
                self.checked += 1
                if all(errors):
                    self.refused.append(f"{self.ruleset} {stage(state)} {seat} ({lang}), "
                                        f"{where}: {readings[0]!r}: {errors[0][0].message}")

    def mistakes(self, state, seat, text: str) -> None:
        """The hints of the answers to a seat's first order misspelt, and its word alone."""
        first = next((line for line in text.splitlines() if line.strip()
                      and not line.lower().startswith(("for ", "pour "))), None)
        if first is None:
            return
        word, _, rest = first.strip().partition(" ")
        lang = language(seat)
        self.answers(state, seat, lang, [word[:-1] + " " + rest if len(word) > 3 else None,
                                         word])

    def probe(self, state, seat, lang, hints, phase) -> None:
        """The hints of the answers to each order word of these hints alone, and to each
        line of a hint of several lines alone (once a phase)."""
        wrong = [hint.split()[0] for hint in hints if hint.split()]
        wrong += [line for hint in hints if "\n" in hint for line in hint.splitlines()]
        self.answers(state, seat, lang, [w for w in dict.fromkeys(wrong)
                                         if (phase, seat, lang, w) not in self.probed])
        self.probed.update((phase, seat, lang, w) for w in wrong)

    def answers(self, state, seat, lang, lines) -> None:
        """Check the hints each of these mistaken lines is answered with."""
        with speaking(lang):
            for wrong in lines:
                if not wrong:
                    continue
                for error in self.game.parse(state, seat, wrong)[1]:
                    hints = error_hints(wrong, str(error.message))
                    if not error.text:      # about the whole mail: a line to add to it
                        hints = [f"{wrong}\n{h[0] if isinstance(h, tuple) else h}"
                                 for h in hints]
                    self.check(state, seat, lang, hints, f"the answer to {wrong!r}",
                               after_mistake=True)


def other_language(name: str) -> str:
    """The language the seat does not read."""
    return "en" if language(name) == "fr" else "fr"


def options_of(view, seat) -> list[tuple]:
    """[(seat, its orders, the lines that show them)] of "what you may send now": the
    lines of each seat whose orders this seat gives (SAGA), or of the seat (Diplomacy)."""
    you = view.get("you") or {}
    shown = you.get("options")
    if you.get("option_orders"):
        return [(who, orders, shown[who]) for who, orders in you["option_orders"].items()]
    if shown and all(isinstance(line, str) for line in shown):
        return [(seat, [], shown)]
    return []


def as_shown(lines: list[str]) -> list[str]:
    """The option lines a player copies whole: each line (not a folded line's rest)
    without its note in brackets, when it offers one order, not "a | b"."""
    copied = [re.sub(r" {3}\(.*$", "", line).strip() for line in lines
              if re.match(r"^  \S", line)]
    return [line for line in copied if line and " | " not in line]


def error_hints(line: str, message: str) -> list:
    """The orders an answer to a refused line offers: the line with the word it meant put
    right (the first word offered), and the example the answer gives ("e.g. ..."), read
    as a player reads it: in the line's place, or else (as "name your faction too, e.g.
    faction scots" asks) after it."""
    hints = []
    meant = MEANT.search(message)
    if meant and " " in line:
        word = re.split(r" or | ou |, ", meant.group(1))[0].strip("'\" ")
        hints.append(f"{word} {line.partition(' ')[2]}".strip())
    example = EXAMPLE.search(message)
    for part in example.group(1).split(" / ") if example else []:
        part = part.strip().strip("'\u00ab\u00bb ")
        hints.append((part, f"{line}\n{part}"))
    return hints


def stage(state) -> str:
    """The stage a game is at, as the refusals name it."""
    turn = state.get("turn")
    return turn["stage"] if isinstance(turn, dict) else str(state.get("stage"))


def bot_game(folder, ruleset: str, seed: str) -> Hints:
    """A whole bot game, every mail's hints checked; the Hints that read them."""
    names, options = GAMES[ruleset]
    referee = make_referee(folder)
    game = pbem.games.load(ruleset)
    referee.new_game(ruleset, "g", [SeatSpec(n, f"{n}@players.example", lang=language(n))
                                    for n in names], START, dict(options), seed=seed)
    hints = Hints(referee, ruleset)
    now = START
    for _ in range(MAX_PHASES):
        hints.read_new_mails()
        state = referee.table("g").state
        engine = state["engine"]
        if engine["over"]:
            return hints
        if REFEREE in engine["requests"]:
            rng = PhaseRng(seed, "bot:referee", engine["phase"])
            values, text = game.bot_ruling(state["game"], engine["requests"][REFEREE], rng)
            for ruling in referee.rulings("g"):
                referee.rule("g", ruling["id"], text, values, now)
            continue
        asked = [s for s in sorted(engine["requests"]) if s != REFEREE]
        if asked:   # one seat asks for HELP each phase: its HELP mail is read too
            inbound.submit(referee, "g", asked[0], "AIDE" if language(asked[0]) == "fr"
                           else "HELP", now)
            hints.read_new_mails()
        ruler = getattr(game, "controller", None)
        mails = {}
        for name in sorted(engine["requests"]):
            rng = PhaseRng(seed, f"bot:{name}", engine["phase"])
            writer = (ruler(state["game"], name) if ruler else None) or name
            text = game.bot_orders(state["game"], name, rng)
            if writer == name:
                hints.mistakes(state["game"], name, text)
            mails.setdefault(writer, []).append(text if writer == name
                                                else f"for {name}:\n{text}")
        for writer, texts in mails.items():
            inbound.submit(referee, "g", writer, "\n".join(texts), now)
        now = later(now, 1)
        if not referee.tick(now, send=False).phases:
            now = referee.table("g").state["engine"]["deadline"] or now
            referee.tick(now, send=False)
    raise AssertionError(f"{ruleset} did not end in {MAX_PHASES} phases")


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_every_hint_of_every_mail_is_an_order_the_seat_can_send_there(tmp_path, ruleset):
    hints = bot_game(tmp_path, ruleset, seed=f"hints-{ruleset}")
    assert hints.checked > 100
    assert not hints.refused, f"{len(hints.refused)} refused:\n" + "\n".join(
        dict.fromkeys(hints.refused))


def test_a_refused_hint_is_caught(tmp_path):
    hints = Hints(make_referee(tmp_path), "seigneurs")
    state = {"stage": "over", "result": {"winners": []}}
    hints.check(state, "ann", "en", ["pass"], "a test")
    assert hints.refused and "the game is over" in hints.refused[0]
    assert help_hints("  move C3 D4 2   two warriors\n  + influence   after it\n"
                      "  accept 3 / refuse 3\n    continued\nprose") == \
        ["move C3 D4 2", "move C3 D4 2\ninfluence", "accept 3", "refuse 3"]
    assert error_hints("taks B2 wood 1", "taks is not an order; did you mean tax?") == \
        ["tax B2 wood 1"]
    assert error_hints("pla goths x", "I do not understand 'pla'; did you mean play or "
                                      "renounce? Write...") == ["play goths x"]
    assert error_hints("oppose", "say where and how many, e.g. oppose C3 2") == \
        [("oppose C3 2", "oppose\noppose C3 2")]
    assert error_hints("see", "I do not understand 'see'; did you mean seer? Write for "
                              "example 'green: move BIF BAR', or send HELP") == \
        [("green: move BIF BAR", "see\ngreen: move BIF BAR")]
    assert error_hints("accept", "name an open offer to you by its number (2), e.g. "
                                 "accept 2 / refuse 2") == \
        [("accept 2", "accept\naccept 2"), ("refuse 2", "accept\nrefuse 2")]
