"""What the active player's orders would do, checked step by step before anything happens.

A turn's orders are a list of steps:

    {"do": "exchange", "cards": ["huns", "goths"]}
    {"do": "double"}
    {"do": "play", "people": "goths", "province": "Pannonia",
     "renounce": None | "Dacia",            # the second pawn, instead of influence
     "boost": None | ["franks", "saxons"]}  # INFLUENCE tile: +1 per entry

A sketch follows them on a copy of the board. Up to the first conflict it
knows everything, so its checks are exact. A conflict's bids are not known
when the orders are written: after it the sketch is *blind* and checks only
what a conflict cannot change (the cards in hand, the tiles, the number of
plays, pacified provinces); those steps are checked again, exactly, when the
turn comes back to them.
"""

from pbem.i18n import N_, Said

from .material import ONE_OF, PEOPLE_NAMES, PEOPLES, PROVINCE_LIMIT, in_order
from .rules import pawns_in, placement_problem, playable, reach, supply

# The action tiles by name, as sentences say them (DOUBLE, ÉCHANGE).
TILE_NAMES = {"double": N_("DOUBLE"), "exchange": N_("EXCHANGE"), "influence": N_("INFLUENCE")}


class Sketch:
    """A scratch copy of the board that the active player's steps are played on."""

    def __init__(self, state, seat):
        self.seat = seat
        self.state = {
            **state,
            "pawns": {k: dict(v) for k, v in state["pawns"].items()},
            "pacified": dict(state["pacified"]),
            "hands": {**state["hands"], seat: list(state["hands"][seat])},
            "tiles": {**state["tiles"], seat: list(state["tiles"][seat])},
            "turn": dict(state["turn"]),
        }
        self.blind = False
        self.exchanged = False
        self.conflicts = []      # provinces whose conflict this sketch ran into, in order
        self.placed = []         # provinces that got a pawn in the play under way

    @property
    def hand(self) -> list:
        """The cards the player is known to hold at this point."""
        return self.state["hands"][self.seat]

    @property
    def turn(self) -> dict:
        """The sketched turn (plays, tile)."""
        return self.state["turn"]

    def left(self) -> int:
        """Cards still to play this turn."""
        return self.turn["allowed"] - self.turn["played"]

    # ------------------------------------------------------------ checks

    def tile_problem(self, tile: str) -> str | None:
        """Why this action tile may not be used now, or None."""
        if tile not in self.state["tiles"][self.seat]:
            return Said("you have already used your {tile} tile (each once per game)",
                        tile=Said(TILE_NAMES[tile]))
        used = self.turn["tile"]
        if used:
            return Said("one action tile per turn, and this turn already uses {tile}",
                        tile=Said(TILE_NAMES[used]))
        return None

    def cards_problem(self, cards) -> str | None:
        """Why the player does not hold all these cards, or None."""
        problem = missing_cards(self.hand, cards, shown=not self.exchanged)
        if problem and self.exchanged:
            return Said("{problem} at this point (the cards EXCHANGE draws are not known yet: "
                        "send the exchange alone and you will be asked for the rest of your "
                        "turn)", problem=problem)
        return problem

    def exchange_problem(self, cards) -> str | None:
        """Why EXCHANGE of these cards is not possible now, or None."""
        return self.tile_problem("exchange") or self.cards_problem(cards)

    def double_problem(self) -> str | None:
        """Why DOUBLE is not possible now, or None."""
        return self.tile_problem("double")

    def play_problem(self, people: str, province: str) -> str | None:
        """Why this card and pawn may not be played now, or None."""
        if self.left() <= 0:
            done = self.turn["played"]
            played = Said("you have already played 1 card this turn") if done == 1 else \
                Said("you have already played {num} cards this turn", num=done)
            if self.tile_problem("double") is None:
                return Said("{problem}; with your DOUBLE tile you may play one more: write "
                            "'tile double' first", problem=played)
            return played
        return self.cards_problem([people]) or self.pawn_problem(people, province)

    def pawn_problem(self, people: str, province: str) -> str | None:
        """Why one more pawn of this people may not go there, or None."""
        if self.blind:
            if province in self.conflicts:
                return Said("{province} holds 5 pawns: its conflict comes first and pacifies it "
                            "(a sixth pawn is never allowed)", province=province)
            if province in self.state["pacified"]:
                return placement_problem(self.state, people, province)
            return None
        if supply(self.state, people) <= 0:
            return Said("no {people} pawn is left in the supply (all 20 are on the board)",
                        people=Said(ONE_OF[people]))
        return placement_problem(self.state, people, province)

    def renounce_problem(self, people: str, province: str) -> str | None:
        """Why the second pawn (renouncing influence) may not go there, or None."""
        return self.pawn_problem(people, province)

    def boost_problem(self) -> str | None:
        """Why the INFLUENCE tile may not be used now, or None."""
        return self.tile_problem("influence")

    # ------------------------------------------------------------ moves

    def exchange(self, cards) -> None:
        """Discard the cards (the ones drawn are unknown)."""
        for card in cards:
            self.hand.remove(card)
        self.use_tile("exchange")
        self.exchanged = True

    def use_tile(self, tile: str) -> None:
        """Spend an action tile for this turn."""
        self.state["tiles"][self.seat].remove(tile)
        self.turn["tile"] = tile
        if tile == "double":
            self.turn["allowed"] += 1

    def place(self, people: str, province: str) -> None:
        """One more pawn on the sketched board."""
        here = self.state["pawns"].setdefault(province, {})
        here[people] = here.get(people, 0) + 1
        self.placed.append(province)

    def play(self, people: str, province: str) -> None:
        """Play a card and place its pawn."""
        self.hand.remove(people)
        self.turn["played"] += 1
        self.placed = []
        self.place(people, province)

    def end_play(self) -> list[str]:
        """Close the play under way; return the provinces it starts a conflict in."""
        fights = []
        for province in self.placed:
            if province not in fights and pawns_in(self.state, province) >= PROVINCE_LIMIT:
                fights.append(province)
        self.placed = []
        if fights:
            self.blind = True
            self.conflicts += fights
        return fights

    # ------------------------------------------------------------ whole steps

    def step_problem(self, step) -> str | None:
        """Check one step and play it on the sketch; the first problem, or None."""
        kind = step.get("do")
        if kind == "exchange":
            problem = self.exchange_problem(step["cards"])
            if problem is None:
                self.exchange(step["cards"])
            return problem
        if kind == "double":
            problem = self.double_problem()
            if problem is None:
                self.use_tile("double")
            return problem
        people = step["people"]
        problem = self.play_problem(people, step["province"])
        if problem:
            return problem
        self.play(people, step["province"])
        if step.get("renounce"):
            problem = self.renounce_problem(people, step["renounce"])
            if problem:
                return problem
            self.place(people, step["renounce"])
        if step.get("boost"):
            problem = self.boost_problem()
            if problem:
                return problem
            self.use_tile("influence")
        self.end_play()
        return None

    def check(self, steps) -> str | None:
        """The first problem of a list of steps (with the step it is in), or None."""
        for step in steps:
            problem = self.step_problem(step)
            if problem:
                return Said("{step}: {problem}", step=say_step(step), problem=problem)
        return None

    def options(self) -> dict:
        """{people: [provinces]} the next card could go to (exact sketches only)."""
        if self.left() <= 0:
            return {}
        return playable(self.state, self.seat)

    def renounce_options(self, people: str) -> list[str]:
        """Where the second pawn of the play under way could go (exact sketches only)."""
        if supply(self.state, people) <= 0:
            return []
        return reach(self.state, people)


def say_step(step) -> Said:
    """One step in words (kept as a sentence: a log may quote it)."""
    kind = step.get("do")
    if kind == "exchange":
        cards = in_order(step["cards"])
        return Said("EXCHANGE tile: discard {cards} and draw {num}", num=len(cards),
                    cards=peoples_said(cards))
    if kind == "double":
        return Said("DOUBLE tile: one more card this turn")
    played, province = step["people"], step["province"]
    people = Said(ONE_OF[played])
    if step.get("renounce"):
        play = Said("play a {people} card, its pawn to {province}; renounce influence: a "
                    "second {people} pawn to {second}", people=people, province=province,
                    second=step["renounce"])
    else:
        play = Said("play a {people} card, its pawn to {province}; take influence over the "
                    "{peoples}", people=people, province=province,
                    peoples=Said(PEOPLE_NAMES[played]))
    if step.get("boost"):
        return Said("{play}; INFLUENCE tile: {boost}", play=play, boost=boost_text(step["boost"]))
    return play


def peoples_said(cards) -> Said:
    """Cards named by their peoples, as a sentence part: 'Huns, Goths'."""
    said = Said(PEOPLE_NAMES[cards[0]])
    for card in cards[1:]:
        said = Said("{first}, {second}", first=said, second=Said(PEOPLE_NAMES[card]))
    return said


def boost_text(boost) -> Said:
    """'+2 Franks' or '+1 Franks, +1 Saxons'."""
    counts = {}
    for people in boost:
        counts[people] = counts.get(people, 0) + 1
    parts = [Said("+{num} {peoples}", num=n, peoples=Said(PEOPLE_NAMES[p]))
             for p, n in counts.items()]
    return parts[0] if len(parts) == 1 else Said("{first}, {second}", first=parts[0],
                                                  second=parts[1])


def hand_said(hand) -> Said:
    """A hand's cards in scoring order, as a sentence names them ("Franks, Huns, Huns")."""
    names = [Said(PEOPLE_NAMES[people]) for people in in_order(hand)]
    told = names[0]
    for name in names[1:]:
        told = Said("{first}, {second}", first=told, second=name)
    return told


def missing_cards(hand, cards, shown: bool = True) -> Said | None:
    """Why a hand does not hold all these cards ('you hold no Goth card (your hand: ...)',
    the hand `shown` when it is the one the player reads in the mail), or None."""
    for people in sorted(set(cards), key=PEOPLES.index):
        want, held = cards.count(people), hand.count(people)
        if want > held:
            one = Said(ONE_OF[people])
            if held == 0:
                return Said("you hold no {people} card (your hand: {hand})", people=one,
                            hand=hand_said(hand)) if hand and shown else \
                    Said("you hold no {people} card", people=one)
            if held == 1:
                return Said("you hold only one {people} card, not {num}", people=one, num=want)
            return Said("you hold only {held} {people} cards, not {num}", people=one,
                        held=held, num=want)
    return None
