"""Attila orders: reading a player's mail, checking it, saying it back.

The active player's mail holds the whole turn, one step per line:

    exchange: huns, goths        EXCHANGE tile (these cards are discarded)
    play goths pannonia          a card and its pawn
    influence                    (or: renounce dacia, a second Goth pawn)
    tile influence franks saxons INFLUENCE tile, in step 2 of the play above
    tile double                  DOUBLE tile: one more card
    play saxons raetia
    influence

During a conflict every seat bids (``bid goths goths franks`` or ``bid
none``); after it, the active player may ``confirm`` the orders kept over it
or send new ones. Keywords are case-insensitive, accents optional, French
accepted.
"""

from contextvars import ContextVar
import re

from pbem.adjudicator import numbers
from pbem.adjudicator.contract import OrderError
from pbem.adjudicator.spelling import aside, closest, unknown_word
from pbem.i18n import N_, Said, _, current, ngettext

from .material import (ONE_OF, PEOPLE_WORDS, PEOPLE_WORDS_BY_LANGUAGE, PEOPLES,
                       cards_text, people_name, people_of, plain)
from .rules import board_of, open_north, playable, reach
from .sketch import Sketch, missing_cards, say_step

# While parse reads a mail: each seat's examples, worked out once.
READING_EXAMPLES = ContextVar("attila_reading_examples", default=None)
VERBS = {
    "play": "play", "jouer": "play", "joue": "play", "jouez": "play",
    "influence": "influence",
    "renounce": "renounce", "renoncer": "renounce", "renonce": "renounce",
    "exchange": "exchange", "echange": "exchange", "echanger": "exchange",
    "double": "double",
    "tile": "tile", "tuile": "tile", "plaquette": "tile", "action": "tile",
    "bid": "bid", "mise": "bid", "miser": "bid",
    "confirm": "confirm", "confirme": "confirm", "confirmer": "confirm", "ok": "confirm",
}
NOTHING = {"none", "nothing", "pass", "rien", "aucune", "aucun", "passe", "no", "zero"}
FILLER = {"to", "in", "into", "on", "a", "an", "en", "dans", "vers", "sur", "and", "et", "the",
          "le", "la", "les", "un", "une", "card", "cards", "carte", "cartes", "coup", "of", "de",
          "des"}
# How orders are written in each language, for examples.
ORDER_WORDS = {
    "en": {"play": "play", "renounce": "renounce", "exchange": "exchange", "tile": "tile",
           "influence": "influence", "double": "double", "bid": "bid", "none": "none",
           "confirm": "confirm"},
    "fr": {"play": "jouer", "renounce": "renoncer", "exchange": "echange", "tile": "tuile",
           "influence": "influence", "double": "double", "bid": "mise", "none": "rien",
           "confirm": "confirme"},
}
# The lines that are step 2 of a play, as sentences name them.
STEP_TWO = {"influence": N_("INFLUENCE"), "renounce": N_("RENOUNCE"),
            "boost": N_("the INFLUENCE tile")}
# What takes peoples, as a sentence names it: "'gauls' is not a people; PLAY takes ...".
TAKERS = {"play": N_("PLAY"), "tile": N_("the INFLUENCE tile"), "exchange": N_("EXCHANGE"),
          "bid": N_("a bid")}


def words(line: str) -> list[str]:
    """A line as lower-case words without accents, punctuation or filler (the "+" that
    starts a play's second step in the mails' examples, "+ renounce raetia", included)."""
    tokens = re.split(r"[\s,:;.!()+]+", plain(line))
    return [t for t in tokens if t and t not in FILLER]


def either(names) -> str:
    """'Franks, Huns or Goths', in the current language."""
    names = list(names)
    return names[0] if len(names) == 1 else \
        ", ".join(names[:-1]) + _(" or ") + names[-1]


def peoples_in(tokens, taker: str) -> list[str]:
    """Peoples named by words, each as many times as a number before it says ("bid two
    goths franks", "mise 2 goths"); ValueError naming the first word that is not one."""
    out, count = [], None
    for token in tokens:
        people = people_of(token)
        if people is None and numbers.number(token) and count is None:
            count = numbers.number(token)
            continue
        if people is None:
            raise ValueError(not_a_people(token, taker))
        out += [people] * (count or 1)
        count = None
    if count is not None:
        raise ValueError(not_a_people(tokens[-1], taker))
    return out


def not_a_people(word: str, taker: str) -> Said:
    """A word that names no people: the closest people, and the six to choose from."""
    near = list(dict.fromkeys(people_of(w) for w in closest(word, PEOPLE_WORDS)))
    every = either(people_name(p) for p in PEOPLES)
    if near:
        return Said("{word!r} is not a people; did you mean {near}? {taker} takes {peoples}",
                    word=word, near=_(" or ").join(people_word(p) for p in near),
                    taker=Said(TAKERS[taker]), peoples=every)
    return Said("{word!r} is not a people; {taker} takes {peoples}", word=word,
                taker=Said(TAKERS[taker]), peoples=every)


def province_in(state, token: str) -> str:
    """The province a word names; ValueError when there is none."""
    board = board_of(state)
    province = board.lookup(token)
    if province is None:
        near = board.closest(token)
        if near:
            raise ValueError(Said("there is no province called {word!r}; did you mean "
                                  "{near}?", word=token, near=_(" or ").join(near)))
        raise ValueError(Said("there is no province called {word!r} (send STATUS for the "
                              "board)", word=token))
    return province


# ---------------------------------------------------------------- examples

def order_word(verb: str) -> str:
    """An order's word in the current language ("play", "jouer")."""
    return ORDER_WORDS.get(current(), ORDER_WORDS["en"])[verb]


def people_word(people: str) -> str:
    """A people as orders name it in the current language ("vandals", "vandales")."""
    return PEOPLE_WORDS_BY_LANGUAGE.get(current(), PEOPLE_WORDS_BY_LANGUAGE["en"])[people]


def examples(state, seat) -> dict:
    """Orders this seat could really write now (see find_examples); once per mail read."""
    known = READING_EXAMPLES.get()
    if known is None:
        return find_examples(state, seat)
    if seat not in known:
        known[seat] = find_examples(state, seat)
    return known[seat]


def find_examples(state, seat) -> dict:
    """Orders this seat could really write now, in the reader's words, from its own hand.

    "play": a card it holds and a province its pawn may go to ("play goths
    pannonia"), "people" and "province" the same in sentences, "renounce": a
    second pawn for that play, "boost" and "boost_two": the INFLUENCE tile,
    "exchange": cards it holds, "bid": the cards it may bid in the conflict
    under way (or none), "none": bidding nothing, "tiles": the action tiles it may
    still use this turn.
    """
    hand = list(state["hands"].get(seat, []))
    options = playable(state, seat)
    if options:
        people = next(iter(options))
        places = options[people]
    else:
        people = hand[0] if hand else PEOPLES[0]
        places = reach(state, people) or open_north(state) or board_of(state).north
    province = places[0]
    second = reach(state, people) if options else places
    second = [p for p in second if p != province] or [province]
    held = sorted(set(hand), key=PEOPLES.index) or [people]
    others = [p for p in PEOPLES if p != held[0]]
    pair = held[:2] if len(held) > 1 else [held[0], others[0]]
    out = {
        "people": people_name(people), "one": _(ONE_OF[people]), "province": province,
        "second": second[0], "boost_people": people_name(held[0]),
        "boost_pair": [people_name(p) for p in pair],
        "play": f"{order_word('play')} {people_word(people)} {province.lower()}",
        "renounce": f"{order_word('renounce')} {second[0].lower()}",
        "boost": f"{order_word('tile')} influence {people_word(held[0])}",
        "boost_two": f"{order_word('tile')} influence " + " ".join(map(people_word, pair)),
        "double": f"{order_word('tile')} double",
        "exchange": f"{order_word('exchange')}: " + ", ".join(
            people_word(c) for c in (hand[:2] or [people])),
        "none": f"{order_word('bid')} {order_word('none')}",
        "confirm": order_word("confirm"),
    }
    out["tiles"] = [t for t in state["tiles"].get(seat, []) if state["turn"]["tile"] is None
                    and (t != "exchange" or hand)]
    out["bid"] = out["none"]
    out["bid_cards"] = []
    if state["turn"]["stage"] == "bid":
        present = state["pawns"][state["turn"]["conflicts"][0]]
        cards = [c for c in hand if c in present][:3]
        if cards:
            out["bid"] = f"{order_word('bid')} " + " ".join(map(people_word, cards))
            out["bid_cards"] = cards
    return out


def example(state, seat) -> str:
    """The order this seat is most likely to need now: its bid, or a play."""
    said = examples(state, seat)
    return said["bid"] if state["turn"]["stage"] == "bid" else said["play"]


# ---------------------------------------------------------------- reading lines

def read_line(state, seat, tokens) -> dict:
    """One line's words as {"verb": ..., ...}; ValueError with a player's explanation."""
    verb = VERBS.get(tokens[0])
    args = tokens[1:]
    if verb is None:
        raise ValueError(unknown_word(tokens[0], VERBS, f"'{example(state, seat)}'"))
    if verb == "tile":
        return read_tile(state, seat, args)
    if verb == "play":
        if len(args) < 2:
            raise ValueError(Said("PLAY needs a people and a province: {example}",
                                  example=examples(state, seat)["play"]))
        people = peoples_in(args[:1], "play")[0]
        return {"verb": "play", "people": people,
                "province": province_in(state, " ".join(args[1:]))}
    if verb == "influence":
        if args:
            said = examples(state, seat)
            raise ValueError(Said("'influence' alone takes the normal gain; for the INFLUENCE "
                                  "tile write '{boost}' or '{boost_two}'",
                                  boost=said["boost"], boost_two=said["boost_two"]))
        return {"verb": "influence"}
    if verb == "renounce":
        if not args:
            raise ValueError(Said("RENOUNCE needs the province of the second pawn: {example}",
                                  example=examples(state, seat)["renounce"]))
        return {"verb": "renounce", "province": province_in(state, " ".join(args))}
    if verb == "exchange":
        return read_exchange(state, seat, args)
    if verb == "double":
        if args:
            raise ValueError(Said("DOUBLE takes nothing after it: {example}",
                                  example=examples(state, seat)["double"]))
        return {"verb": "double"}
    if verb == "bid":
        return read_bid(args)
    if args:
        raise ValueError(Said("CONFIRM takes nothing after it"))
    return {"verb": "confirm"}


def read_tile(state, seat, args) -> dict:
    """'tile double', 'tile exchange huns', 'tile influence franks [saxons]'."""
    kind = VERBS.get(args[0]) if args else None
    if kind == "double":
        return read_line(state, seat, args)
    if kind == "exchange":
        return read_exchange(state, seat, args[1:])
    said = examples(state, seat)
    if kind != "influence":
        alone = [said[t] for t in ("double", "exchange") if t in said["tiles"]]
        if alone:
            raise ValueError(Said("TILE is followed by double, exchange or influence, e.g. "
                                  "{example}", example=alone[0]))
        raise ValueError(Said("TILE is followed by double, exchange or influence; right "
                              "after a play line: {example}", example=said["boost_two"]))
    peoples = peoples_in(args[1:], "tile")
    if len(peoples) == 1:
        peoples = peoples * 2
    if len(peoples) != 2:
        raise ValueError(Said("the INFLUENCE tile gives +2 to one people ({boost}) or +1 to "
                              "each of two ({boost_two})", boost=said["boost"],
                              boost_two=said["boost_two"]))
    return {"verb": "boost", "peoples": sorted(peoples, key=PEOPLES.index)}


def read_exchange(state, seat, args) -> dict:
    """'exchange huns goths': the cards to discard."""
    if not args:
        raise ValueError(Said("name the cards to discard: {example}",
                              example=examples(state, seat)["exchange"]))
    return {"verb": "exchange", "cards": peoples_in(args, "exchange")}


def read_bid(args) -> dict:
    """'bid goths goths franks' or 'bid none'."""
    if not args or (len(args) == 1 and args[0] in NOTHING):
        return {"verb": "bid", "cards": []}
    return {"verb": "bid", "cards": peoples_in(args, "bid")}


# ---------------------------------------------------------------- parse

def parse(state, seat, text):
    """Read a seat's mail for what is asked of it now; one error per line not accepted."""
    lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1)]
    if state["result"]:
        return {}, [OrderError(1, "", Said("the game is over"))]
    reading = READING_EXAMPLES.set({})
    try:
        if state["turn"]["stage"] == "bid":
            return parse_bid(state, seat, lines)
        if seat != state["turn"]["seat"]:
            return {}, not_asked(lines, Said("it is {seat}'s turn, not yours",
                                             seat=state["turn"]["seat"]))
        return TurnReader(state, seat).read(lines)
    finally:
        READING_EXAMPLES.reset(reading)


def remark_of(number, line, tokens):
    """The remark a line is (chat, not an order and close to none), or None. A line that
    starts with a people ("goths pannonia") is an order short of its verb, not chat."""
    return None if tokens[0] in VERBS else aside(number, line, tokens[0],
                                                   [*VERBS, *PEOPLE_WORDS])


def not_asked(lines, why) -> list:
    """The errors of a mail from a seat asked nothing: each line's, a remark or `why`."""
    errors = []
    for number, line in lines:
        tokens = words(line)
        if tokens:
            errors.append(remark_of(number, line, tokens) or OrderError(number, line.strip(), why))
    return errors or [OrderError(1, "", why)]


def parse_bid(state, seat, lines):
    """A seat's sealed bid for the conflict under way."""
    province = state["turn"]["conflicts"][0]
    cards, errors, nothing_line = [], [], None
    for number, line in lines:
        tokens = words(line)
        if not tokens:
            continue
        if tokens[0] in NOTHING and len(tokens) == 1:
            tokens = ["bid", tokens[0]]
        remark = remark_of(number, line, tokens)
        if remark:
            errors.append(remark)
            continue
        try:
            order = read_line(state, seat, tokens)
        except ValueError as problem:
            errors.append(OrderError(number, line.strip(), str(problem)))
            continue
        if order["verb"] != "bid":
            said = examples(state, seat)
            bid = [] if said["bid"] == said["none"] else [said["bid"]]
            errors.append(OrderError(number, line.strip(), Said(
                "now is the sealed bid for the conflict in {province}: write {bids}; the turn "
                "goes on after it", province=province,
                bids=_(" or ").join(f"'{b}'" for b in bid + [said["none"]]))))
            continue
        problem = bid_problem(state, seat, province, cards, order["cards"], nothing_line)
        if problem:
            errors.append(OrderError(number, line.strip(), problem))
            continue
        if not order["cards"]:
            nothing_line = number
        cards += order["cards"]
    return {"bid": sorted(cards, key=PEOPLES.index)}, errors


def bid_problem(state, seat, province, cards, more, nothing_line) -> str | None:
    """Why these cards cannot be added to the bid so far, or None."""
    if nothing_line and more:
        return Said("line {line} already bids nothing", line=nothing_line)
    if not more and cards:
        return Said("this line bids nothing, but an earlier line bids cards")
    present = state["pawns"][province]
    for people in more:
        if people not in present:
            return Said("there is no {people} pawn in {province}: you may bid only {allowed} "
                        "cards there", people=Said(ONE_OF[people]), province=province,
                        allowed=_(" or ").join(people_name(p) for p in PEOPLES
                                               if p in present))
    return missing_cards(state["hands"][seat], cards + more)


class TurnReader:
    """Reads the active player's lines into steps, checking each on a sketch of the turn."""

    def __init__(self, state, seat):
        self.state = state
        self.seat = seat
        self.sketch = Sketch(state, seat)
        self.steps = []
        self.errors = []
        self.play = None        # the step whose step-2 lines may follow, with its line numbers
        self.failed_play = None  # the line of a play that was not accepted
        self.confirm_line = None

    def error(self, number, line, message) -> None:
        """Record one line that cannot be accepted."""
        self.errors.append(OrderError(number, line.strip(), message))

    def read(self, lines):
        """(orders, errors) for the mail's lines."""
        for number, line in lines:
            tokens = words(line)
            if not tokens:
                continue
            remark = remark_of(number, line, tokens)
            if remark:
                self.errors.append(remark)
                continue
            try:
                order = read_line(self.state, self.seat, tokens)
            except ValueError as problem:
                self.error(number, line, str(problem))
                if VERBS.get(tokens[0]) == "play":
                    self.close_play()
                    self.failed_play = number
                continue
            problem = self.take(number, order)
            if problem:
                self.error(number, line, problem)
        self.close_play()
        if self.confirm_line:
            return self.confirmation()
        return {"steps": self.steps}, self.errors

    def confirmation(self):
        """CONFIRM: the kept orders stand, checked again now."""
        problem = Sketch(self.state, self.seat).check(self.state["turn"]["kept"])
        if problem:
            self.error(self.confirm_line, "confirm", Said(
                "your kept orders no longer work ({problem}); send new orders, or the "
                "default turn will be played", problem=problem))
        return {"confirm": True}, sorted(self.errors, key=lambda e: e.line)

    def take(self, number, order) -> str | None:
        """Check one line's order against the sketch; apply it; its problem, or None."""
        verb = order["verb"]
        if verb == "confirm":
            return self.take_confirm(number)
        if self.confirm_line:
            return Said("with CONFIRM the kept orders stand; send new orders without CONFIRM")
        if verb == "bid":
            return Said("there is no conflict to bid on now")
        if verb in ("influence", "renounce", "boost"):
            return self.take_step_two(number, order)
        self.close_play()
        sketch = self.sketch
        if verb == "exchange":
            problem = sketch.exchange_problem(order["cards"])
            if problem is None:
                sketch.exchange(order["cards"])
                self.steps.append({"do": "exchange", "cards": order["cards"]})
            return problem
        if verb == "double":
            problem = sketch.double_problem()
            if problem is None:
                sketch.use_tile("double")
                self.steps.append({"do": "double"})
            return problem
        problem = sketch.play_problem(order["people"], order["province"])
        if problem:
            self.failed_play = number
            return problem
        sketch.play(order["people"], order["province"])
        step = {"do": "play", "people": order["people"], "province": order["province"],
                "renounce": None, "boost": None}
        self.steps.append(step)
        self.play = {"step": step, "line": number, "influence": None, "renounce": None}
        return None

    def take_confirm(self, number) -> str | None:
        """A CONFIRM line: only in the confirm phase, and alone."""
        if self.state["turn"]["stage"] != "confirm":
            return Said("there are no kept orders to confirm now")
        if self.steps or self.errors:
            return Said("CONFIRM stands alone: either confirm the kept orders or send new ones")
        self.confirm_line = number
        return None

    def take_step_two(self, number, order) -> str | None:
        """influence / renounce / tile influence: step 2 of the play just above."""
        verb = order["verb"]
        if self.play is None:
            if self.failed_play:
                return Said("this goes with the play on line {line}, which was not accepted",
                            line=self.failed_play)
            return Said("{order} goes right after a play line (it is step 2 of that play)",
                        order=Said(STEP_TWO[verb]))
        current = self.play
        step = current["step"]
        if verb == "influence":
            if current["renounce"]:
                return Said("line {line} renounces this influence already",
                            line=current["renounce"])
            if current["influence"]:
                return Said("line {line} takes this influence already", line=current["influence"])
            current["influence"] = number
            return None
        if verb == "renounce":
            if current["influence"]:
                return Said("line {line} takes the influence: you cannot also renounce it",
                            line=current["influence"])
            if current["renounce"]:
                return Said("line {line} renounces this influence already",
                            line=current["renounce"])
            problem = self.sketch.renounce_problem(step["people"], order["province"])
            if problem:
                return problem
            self.sketch.place(step["people"], order["province"])
            step["renounce"] = order["province"]
            current["renounce"] = number
            return None
        problem = self.sketch.boost_problem()
        if problem:
            return problem
        self.sketch.use_tile("influence")
        step["boost"] = order["peoples"]
        return None

    def close_play(self) -> None:
        """The play above is complete: note whether it starts a conflict."""
        if self.play is not None:
            self.sketch.end_play()
        self.play = None
        self.failed_play = None


# ---------------------------------------------------------------- saying it back

def describe_orders(state, seat, orders) -> list[str]:
    """A seat's orders in plain words (current language), one line per step."""
    if "bid" in orders:
        province = state["turn"]["conflicts"][0] if state["turn"]["conflicts"] else None
        if province:
            return [_("your bid for the conflict in {province}: {cards}").format(
                province=province, cards=cards_text(orders["bid"]))]
        return [_("your bid: {cards}").format(cards=cards_text(orders["bid"]))]
    if orders.get("default"):
        return [_("no orders: pbem plays the default turn (a random legal card and pawn, "
                  "influence, no tile)")]
    if orders.get("confirm") or orders.get("silent"):
        said = _("CONFIRM: your kept orders stand:") if orders.get("confirm") else \
            _("no answer: your kept orders stand:")
        return [said] + describe_steps(state, seat, state["turn"]["kept"])
    return describe_steps(state, seat, orders.get("steps", []))


def describe_steps(state, seat, steps) -> list[str]:
    """Steps in words, marking where a conflict makes the rest provisional."""
    sketch = Sketch(state, seat)
    lines = []
    for index, step in enumerate(steps):
        lines.append(str(say_step(step)))
        was_blind = sketch.blind
        if sketch.step_problem(step) is None and sketch.blind and not was_blind:
            names = ", ".join(sketch.conflicts)
            if index + 1 < len(steps):
                lines.append(_("-> a conflict breaks out in {provinces}: every seat bids "
                               "first; the lines below are kept, and you confirm them (or "
                               "send new ones) after it").format(provinces=names))
            else:
                lines.append(_("-> a conflict breaks out in {provinces}: every seat bids "
                               "first; your turn goes on after it").format(provinces=names))
    left = sketch.left()
    if left > 0:
        lines.append(ngettext("then I will ask you for one more card",
                              "then I will ask you for {num} more cards", left).format(num=left))
    return lines
