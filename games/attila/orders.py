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

import re

from pbem.adjudicator.contract import OrderError

from .material import ONE_OF, PEOPLE_NAMES, PEOPLES, cards_text, people_of, plain
from .rules import board_of
from .sketch import Sketch, missing_cards, say_step

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
FILLER = {"to", "in", "into", "on", "a", "en", "dans", "vers", "sur", "and", "et", "the",
          "le", "la", "les", "card", "cards", "carte", "cartes", "coup", "of", "de", "des"}
TURN_EXAMPLE = "play goths pannonia"


def words(line: str) -> list[str]:
    """A line as lower-case words without accents, punctuation or filler."""
    tokens = re.split(r"[\s,:;.!()]+", plain(line))
    return [t for t in tokens if t and t not in FILLER]


def peoples_in(tokens, what: str) -> list[str]:
    """Peoples named by words; ValueError naming the first word that is not one."""
    out = []
    for token in tokens:
        people = people_of(token)
        if people is None:
            raise ValueError(f"{token!r} is not a people; {what} takes Franks, Huns, Goths, "
                             "Saxons, Teutons or Vandals")
        out.append(people)
    return out


def province_in(state, token: str) -> str:
    """The province a word names; ValueError when there is none."""
    province = board_of(state).lookup(token)
    if province is None:
        raise ValueError(f"there is no province called {token!r} (send STATUS for the board)")
    return province


# ---------------------------------------------------------------- reading lines

def read_line(state, tokens) -> dict:
    """One line's words as {"verb": ..., ...}; ValueError with a player's explanation."""
    verb = VERBS.get(tokens[0])
    args = tokens[1:]
    if verb is None:
        raise ValueError(f"I do not understand {tokens[0]!r}; write for example "
                         f"'{TURN_EXAMPLE}', or send HELP")
    if verb == "tile":
        return read_tile(state, args)
    if verb == "play":
        if len(args) < 2:
            raise ValueError(f"PLAY needs a people and a province: {TURN_EXAMPLE}")
        people = peoples_in(args[:1], "PLAY")[0]
        return {"verb": "play", "people": people,
                "province": province_in(state, " ".join(args[1:]))}
    if verb == "influence":
        if args:
            raise ValueError("'influence' alone takes the normal gain; for the INFLUENCE tile "
                             "write 'tile influence franks' or 'tile influence franks saxons'")
        return {"verb": "influence"}
    if verb == "renounce":
        if not args:
            raise ValueError("RENOUNCE needs the province of the second pawn: renounce dacia")
        return {"verb": "renounce", "province": province_in(state, " ".join(args))}
    if verb == "exchange":
        return read_exchange(args)
    if verb == "double":
        if args:
            raise ValueError("DOUBLE takes nothing after it: tile double")
        return {"verb": "double"}
    if verb == "bid":
        return read_bid(args)
    if args:
        raise ValueError("CONFIRM takes nothing after it")
    return {"verb": "confirm"}


def read_tile(state, args) -> dict:
    """'tile double', 'tile exchange huns', 'tile influence franks [saxons]'."""
    kind = VERBS.get(args[0]) if args else None
    if kind == "double":
        return read_line(state, args)
    if kind == "exchange":
        return read_exchange(args[1:])
    if kind != "influence":
        raise ValueError("TILE is followed by double, exchange or influence, e.g. "
                         "tile influence franks saxons")
    peoples = peoples_in(args[1:], "the INFLUENCE tile")
    if len(peoples) == 1:
        peoples = peoples * 2
    if len(peoples) != 2:
        raise ValueError("the INFLUENCE tile gives +2 to one people (tile influence franks) "
                         "or +1 to each of two (tile influence franks saxons)")
    return {"verb": "boost", "peoples": sorted(peoples, key=PEOPLES.index)}


def read_exchange(args) -> dict:
    """'exchange huns goths': the cards to discard."""
    if not args:
        raise ValueError("name the cards to discard: exchange: huns, goths")
    return {"verb": "exchange", "cards": peoples_in(args, "EXCHANGE")}


def read_bid(args) -> dict:
    """'bid goths goths franks' or 'bid none'."""
    if not args or (len(args) == 1 and args[0] in NOTHING):
        return {"verb": "bid", "cards": []}
    return {"verb": "bid", "cards": peoples_in(args, "a bid")}


# ---------------------------------------------------------------- parse

def parse(state, seat, text):
    """Read a seat's mail for what is asked of it now; one error per line not accepted."""
    lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1)]
    if state["result"]:
        return {}, [OrderError(1, "", "the game is over")]
    if state["turn"]["stage"] == "bid":
        return parse_bid(state, seat, lines)
    if seat != state["turn"]["seat"]:
        return {}, [OrderError(1, "", f"it is {state['turn']['seat']}'s turn, not yours")]
    return TurnReader(state, seat).read(lines)


def parse_bid(state, seat, lines):
    """A seat's sealed bid for the conflict under way."""
    province = state["turn"]["conflicts"][0]
    present = [p for p in PEOPLES if p in state["pawns"][province]]
    cards, errors, nothing_line = [], [], None
    for number, line in lines:
        tokens = words(line)
        if not tokens:
            continue
        if tokens[0] in NOTHING and len(tokens) == 1:
            tokens = ["bid", tokens[0]]
        try:
            order = read_line(state, tokens)
        except ValueError as problem:
            errors.append(OrderError(number, line.strip(), str(problem)))
            continue
        if order["verb"] != "bid":
            errors.append(OrderError(number, line.strip(), (
                f"now is the sealed bid for the conflict in {province}: write 'bid "
                f"{present[0]}' or 'bid none'; the turn goes on after it")))
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
        return f"line {nothing_line} already bids nothing"
    if not more and cards:
        return "this line bids nothing, but an earlier line bids cards"
    present = state["pawns"][province]
    for people in more:
        if people not in present:
            allowed = " or ".join(PEOPLE_NAMES[p] for p in PEOPLES if p in present)
            return (f"there is no {ONE_OF[people]} pawn in {province}: you may bid only "
                    f"{allowed} cards there")
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
            try:
                order = read_line(self.state, tokens)
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
            self.error(self.confirm_line, "confirm", (
                f"your kept orders no longer work ({problem}); send new orders, or the "
                "default turn will be played"))
        return {"confirm": True}, sorted(self.errors, key=lambda e: e.line)

    def take(self, number, order) -> str | None:
        """Check one line's order against the sketch; apply it; its problem, or None."""
        verb = order["verb"]
        if verb == "confirm":
            return self.take_confirm(number)
        if self.confirm_line:
            return "with CONFIRM the kept orders stand; send new orders without CONFIRM"
        if verb == "bid":
            return "there is no conflict to bid on now"
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
            return "there are no kept orders to confirm now"
        if self.steps or self.errors:
            return "CONFIRM stands alone: either confirm the kept orders or send new ones"
        self.confirm_line = number
        return None

    def take_step_two(self, number, order) -> str | None:
        """influence / renounce / tile influence: step 2 of the play just above."""
        verb = order["verb"]
        if self.play is None:
            if self.failed_play:
                return f"this goes with the play on line {self.failed_play}, which was not accepted"
            word = {"influence": "INFLUENCE", "renounce": "RENOUNCE",
                    "boost": "the INFLUENCE tile"}[verb]
            return f"{word} goes right after a play line (it is step 2 of that play)"
        current = self.play
        step = current["step"]
        if verb == "influence":
            if current["renounce"]:
                return f"line {current['renounce']} renounces this influence already"
            if current["influence"]:
                return f"line {current['influence']} takes this influence already"
            current["influence"] = number
            return None
        if verb == "renounce":
            if current["influence"]:
                return (f"line {current['influence']} takes the influence: you cannot also "
                        "renounce it")
            if current["renounce"]:
                return f"line {current['renounce']} renounces this influence already"
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
    """A seat's orders in plain words, one line per step."""
    if "bid" in orders:
        province = state["turn"]["conflicts"][0] if state["turn"]["conflicts"] else None
        where = f" for the conflict in {province}" if province else ""
        return [f"your bid{where}: {cards_text(orders['bid'])}"]
    if orders.get("default"):
        return ["no orders: pbem plays the default turn (a random legal card and pawn, "
                "influence, no tile)"]
    if orders.get("confirm") or orders.get("silent"):
        said = "CONFIRM" if orders.get("confirm") else "no answer"
        return [f"{said}: your kept orders stand:"] + describe_steps(state, seat,
                                                                     state["turn"]["kept"])
    return describe_steps(state, seat, orders.get("steps", []))


def describe_steps(state, seat, steps) -> list[str]:
    """Steps in words, marking where a conflict makes the rest provisional."""
    sketch = Sketch(state, seat)
    lines = []
    for index, step in enumerate(steps):
        lines.append(say_step(step))
        was_blind = sketch.blind
        if sketch.step_problem(step) is None and sketch.blind and not was_blind:
            names = ", ".join(sketch.conflicts)
            rest = ("the lines below are kept, and you confirm them (or send new ones) after it"
                    if index + 1 < len(steps) else "your turn goes on after it")
            lines.append(f"-> a conflict breaks out in {names}: every seat bids first; {rest}")
    left = sketch.left()
    if left > 0:
        cards = "one more card" if left == 1 else f"{left} more cards"
        lines.append(f"then I will ask you for {cards}")
    return lines
