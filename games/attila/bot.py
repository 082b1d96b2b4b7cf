"""A simple Attila player, for demos and tests: legal mails, drawn from the phase's dice.

It writes what a player would: a whole turn (sometimes with a tile, a
renounced influence, or French words), a bid, or CONFIRM. Lines after a
conflict are provisional, so it sometimes writes some to exercise them.
"""

from .material import ONE_OF, PEOPLE_WORDS_BY_LANGUAGE, PEOPLES, plain
from .sketch import Sketch

FRENCH_PEOPLE = PEOPLE_WORDS_BY_LANGUAGE["fr"]


def bot_orders(state, seat, rng) -> str:
    """A mail body of legal orders for whatever this seat is asked now."""
    stage = state["turn"]["stage"]
    if stage == "bid":
        return bid(state, seat, rng)
    if stage == "confirm" and rng.below(4):
        return "confirm\n" if Sketch(state, seat).check(state["turn"]["kept"]) is None \
            else turn(state, seat, rng)
    return turn(state, seat, rng)


def bid(state, seat, rng) -> str:
    """Usually nothing; sometimes some of the cards that may be bid."""
    present = state["pawns"][state["turn"]["conflicts"][0]]
    cards = [c for c in state["hands"][seat] if c in present]
    chosen = [c for c in cards if rng.below(3) == 0]
    if not chosen:
        return "mise rien\n" if rng.below(5) == 0 else "bid none\n"
    return "bid " + " ".join(chosen) + "\n"


def turn(state, seat, rng) -> str:
    """A whole turn: maybe a tile, then cards and pawns until the plays are done."""
    sketch = Sketch(state, seat)
    french = rng.below(6) == 0
    lines = []
    if sketch.exchange_problem(sketch.hand[:1]) is None and rng.below(8) == 0:
        dropped = [c for c in sketch.hand if rng.below(3) == 0] or sketch.hand[:1]
        lines.append(("echange: " if french else "exchange: ") + ", ".join(dropped))
        sketch.exchange(dropped)
        if rng.below(2):
            return "\n".join(lines) + "\n"
    if sketch.double_problem() is None and rng.below(10) == 0:
        lines.append("tuile double" if french else "tile double")
        sketch.use_tile("double")
    while sketch.left() > 0:
        pick = next_play(sketch, rng)
        if pick is None:
            break
        lines += play_lines(sketch, pick, rng, french)
        if sketch.blind and rng.below(2):
            break
    return "\n".join(lines) + "\n" if lines else "ready\n"


def next_play(sketch, rng):
    """A (people, province) the next card can go to, or None."""
    if sketch.blind:
        held = sorted(set(sketch.hand), key=PEOPLES.index)
        if not held:
            return None
        people = rng.choice(held)
        places = [p for p in sketch.state["pawns"]
                  if p not in sketch.state["pacified"] and p not in sketch.conflicts]
        return (people, rng.choice(sorted(places))) if places else None
    options = sketch.options()
    if not options:
        return None
    people = rng.choice(sorted(options, key=PEOPLES.index))
    return people, rng.choice(options[people])


def play_lines(sketch, pick, rng, french) -> list[str]:
    """The lines of one play, applied to the sketch."""
    people, province = pick
    word = FRENCH_PEOPLE[people] if french else rng.choice([people, ONE_OF[people].lower()])
    where = plain(province) if rng.below(2) else province.upper()
    lines = [f"{'jouer' if french else 'play'} {word} {where}"]
    sketch.play(people, province)
    second = [] if sketch.blind else sketch.renounce_options(people)
    if second and rng.below(6) == 0:
        target = rng.choice(second)
        lines.append(f"{'renoncer' if french else 'renounce'} {target}")
        sketch.place(people, target)
    elif rng.below(2):
        lines.append("influence")
    if sketch.boost_problem() is None and rng.below(8) == 0:
        targets = sorted({rng.choice(PEOPLES), rng.choice(PEOPLES)}, key=PEOPLES.index)
        lines.append(f"{'tuile' if french else 'tile'} influence " + " ".join(targets))
        sketch.use_tile("influence")
    sketch.end_play()
    return lines
