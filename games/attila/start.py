"""Setting up a game of Attila: the normal deal, or a given position (docs/positions.md)."""

from pbem.adjudicator.contract import SetupError, private, public, secret
from pbem.adjudicator.options import number_option

from . import board as boards
from .material import (ACTION_TILES, CARDS_PER_PEOPLE, HAND_SIZE, MAX_INFLUENCE,
                       PAWNS_PER_PEOPLE, PEOPLES, PROVINCE_LIMIT, TRACK, full_deck, people_of)
from .rules import DEFAULT_BID_HOURS, plays_per_turn

MIN_SEATS, MAX_SEATS = 2, 5


def setup(options, seats, rng, position=None) -> list:
    """The public setup, the secret deck, each seat's private hand, the first turn."""
    if not MIN_SEATS <= len(seats) <= MAX_SEATS:
        raise SetupError(f"Attila is for {MIN_SEATS} to {MAX_SEATS} players, not {len(seats)}")
    position = dict(position or {})
    spec = position.get("board", options.get("board", "default"))
    board = board_for(spec)
    state = blank_state(spec, seats, bid_hours(options))
    if position:
        read_position(state, board, position)
    given = read_hands(position.get("hands") or {}, seats)
    pile = read_cards(position["deck"], "deck") if "deck" in position else None
    if pile is None:
        pile = rng.shuffle(unused_cards(list(given.values()) + [state["discards"]]))
    hands = {}
    for seat in seats:
        hands[seat], pile = (given[seat], pile) if seat in given else \
            (pile[:HAND_SIZE], pile[HAND_SIZE:])
    check_counts(list(hands.values()) + [pile, state["discards"]])
    first = position.get("first") or rng.choice(seats)
    if first not in seats:
        raise SetupError(f"first = {first!r} is not a seat ({', '.join(seats)})")
    number = int(position.get("turn", 1))
    dealt = [card for seat in seats for card in hands[seat]]
    events = [public("setup", state=state), secret("deck_prepared", deck=dealt + pile)]
    events += [private([seat], "dealt", seat=seat, cards=hands[seat]) for seat in seats]
    events.append(public("turn_began", seat=first, number=number,
                         allowed=plays_per_turn(state)))
    return events


def board_for(spec):
    """The board named or given; SetupError when it is not a usable board."""
    if isinstance(spec, dict):
        boards.check(spec)
    elif not isinstance(spec, str):
        raise SetupError("board: give a board name or a [board] table")
    return boards.load(spec)


def bid_hours(options) -> float:
    """The bid_hours option: how long a conflict's sealed bids stay open."""
    return number_option(options, "bid_hours", DEFAULT_BID_HOURS, positive=True)


def blank_state(spec, seats, hours) -> dict:
    """The state before any card is dealt or pawn placed."""
    return {
        "board": spec,
        "seats": list(seats),
        "hands": {seat: [] for seat in seats},
        "deck": [],
        "discards": [],
        "pawns": {},
        "pacified": {},
        "placed": 0,
        "influence": {people: {} for people in PEOPLES},
        "scores": {seat: 0 for seat in seats},
        "tiles": {seat: list(ACTION_TILES) for seat in seats},
        "turn": None,
        "last_conflict": None,
        "chronicle": [],
        "bid_hours": hours,
        "result": None,
    }


# ---------------------------------------------------------------- positions

def read_cards(values, where: str) -> list[str]:
    """A list of people words as cards; SetupError on anything else."""
    if not isinstance(values, list):
        raise SetupError(f"{where}: give a list of peoples, e.g. [\"goths\", \"huns\"]")
    cards = []
    for value in values:
        people = people_of(str(value))
        if people is None:
            raise SetupError(f"{where}: {value!r} is not a people")
        cards.append(people)
    return cards


def read_hands(table: dict, seats) -> dict:
    """The hands a position gives, by seat."""
    hands = {}
    for seat, cards in table.items():
        if seat not in seats:
            raise SetupError(f"hands: {seat!r} is not a seat ({', '.join(seats)})")
        hands[seat] = sorted(read_cards(cards, f"hands.{seat}"), key=PEOPLES.index)
        if len(hands[seat]) > HAND_SIZE:
            raise SetupError(f"hands.{seat}: a hand holds at most {HAND_SIZE} cards")
    return hands


def unused_cards(piles) -> list[str]:
    """The cards of the box that are in none of these piles, in scoring order."""
    rest = full_deck()
    for pile in piles:
        for card in pile:
            if card in rest:
                rest.remove(card)
    return rest


def check_counts(piles) -> None:
    """SetupError when a people has more than its 9 cards in all the piles together."""
    for people in PEOPLES:
        total = sum(pile.count(people) for pile in piles)
        if total > CARDS_PER_PEOPLE:
            raise SetupError(f"there are only {CARDS_PER_PEOPLE} {people} cards, "
                             f"the position uses {total}")


def province_of(board, name, where: str) -> str:
    """A province from its name; SetupError when the board has none."""
    province = board.lookup(str(name))
    if province is None:
        raise SetupError(f"{where}: there is no province {name!r} on board {board.name}")
    return province


def read_position(state, board, position) -> None:
    """Fill a blank state with a position's board, track, influence, scores and tiles."""
    seats = state["seats"]
    state["discards"] = read_cards(position.get("discards", []), "discards")
    read_pawns(state, board, position.get("pawns") or {})
    read_pacified(state, board, position.get("pacified") or {})
    for name, row in (position.get("influence") or {}).items():
        people = people_of(name)
        if people is None:
            raise SetupError(f"influence: {name!r} is not a people")
        for seat, value in row.items():
            if seat not in seats:
                raise SetupError(f"influence.{name}: {seat!r} is not a seat")
            if not isinstance(value, int) or not 0 <= value <= MAX_INFLUENCE:
                raise SetupError(f"influence.{name}.{seat}: give a whole number 0 to 22")
            if value:
                state["influence"][people][seat] = value
    for seat, value in (position.get("scores") or {}).items():
        if seat not in seats or not isinstance(value, int) or value < 0:
            raise SetupError(f"scores.{seat}: give a seat and a whole number of points")
        state["scores"][seat] = value
    for seat, tiles in (position.get("tiles") or {}).items():
        if seat not in seats:
            raise SetupError(f"tiles: {seat!r} is not a seat")
        unknown = [t for t in tiles if t not in ACTION_TILES]
        if unknown:
            raise SetupError(f"tiles.{seat}: {unknown[0]!r} is not double, exchange or influence")
        state["tiles"][seat] = [t for t in ACTION_TILES if t in tiles]


def read_pawns(state, board, table) -> None:
    """pawns.<province> = {people = count}."""
    totals = dict.fromkeys(PEOPLES, 0)
    for name, row in table.items():
        province = province_of(board, name, "pawns")
        here = {}
        for people_name, count in row.items():
            people = people_of(people_name)
            if people is None:
                raise SetupError(f"pawns.{name}: {people_name!r} is not a people")
            if not isinstance(count, int) or count < 0:
                raise SetupError(f"pawns.{name}.{people_name}: give a whole number")
            if count:
                here[people] = here.get(people, 0) + count
                totals[people] += count
        if sum(here.values()) >= PROVINCE_LIMIT:
            raise SetupError(f"pawns.{name}: at most {PROVINCE_LIMIT - 1} pawns may stand in "
                             "a province (the fifth starts a conflict)")
        if here:
            state["pawns"][province] = {p: here[p] for p in PEOPLES if p in here}
    for people, total in totals.items():
        if total > PAWNS_PER_PEOPLE:
            raise SetupError(f"pawns: {total} {people} pawns, but a people has only "
                             f"{PAWNS_PER_PEOPLE}")


def read_pacified(state, board, table) -> None:
    """pacified.<province> = "IV": the peace tiles taken so far, in track order."""
    tiles = []
    for name, tile in table.items():
        province = province_of(board, name, "pacified")
        state["pacified"][province] = str(tile).upper()
        tiles.append(str(tile).upper())
    placed = len(tiles)
    if placed > len(TRACK):
        raise SetupError(f"pacified: there are only {len(TRACK)} peace tiles")
    if sorted(tiles) != sorted(TRACK[:placed]):
        raise SetupError(f"pacified: the peace tiles placed must be the first {placed} of the "
                         f"track ({', '.join(TRACK[:placed])})")
    state["placed"] = placed
