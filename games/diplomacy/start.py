"""A new game of Diplomacy: who plays which power, and where the game starts.

Seven players play a power each. With fewer, the rulebook's usual
assignments give some players several powers and leave others out (a power
nobody plays stays on the board in civil disorder). The referee may instead
give the powers out himself (``--option powers=ann:england,bob:france+germany``);
otherwise the seats are drawn onto the assignment from the game's stream.

A position file (``--position``, docs/positions.md) gives the phase, the
units and the owned supply centres by power, and optionally who plays which
power: the same tables as the DATC's case files.
"""

from pbem.adjudicator.contract import SetupError, public
from pbem.adjudicator.options import number_option

from .board import ARMY, FLEET, Board, board, coast_of, province_of
from .orders import NATIONALITIES, words
from .position import start, unit_record

# The usual assignments (docs/rules/diplomacy.md): for each number of players, the powers
# each plays; the powers in none of them are not played.
ASSIGNMENTS = {
    7: [["austria"], ["england"], ["france"], ["germany"], ["italy"], ["russia"], ["turkey"]],
    6: [["austria"], ["england"], ["france"], ["germany"], ["russia"], ["turkey"]],
    5: [["austria"], ["england"], ["france"], ["russia"], ["turkey"]],
    4: [["england"], ["austria", "france"], ["germany", "turkey"], ["italy", "russia"]],
    3: [["austria", "england", "germany"], ["italy", "russia"], ["france", "turkey"]],
    2: [["england", "france", "russia"], ["austria", "germany", "turkey"]],
}
PHASES = {("spring", "movement"), ("spring", "retreat"), ("fall", "movement"),
          ("fall", "retreat"), ("winter", "adjustment")}


def setup(options: dict, seats: list, rng, position: dict | None = None) -> list:
    """The setup event: who plays each power, the starting position, the game's limits."""
    the_board = board()
    where = position_from(the_board, position) if position else start(the_board)
    named = (position or {}).get("powers") or options.get("powers")
    if named:
        powers = given_powers(the_board, named, seats)
    elif sorted(seats) == sorted(roles(options, len(seats))):
        powers = {power: next((s for s in seats if power in s.split("-")), None)
                  for power in the_board.powers}
    else:
        powers = drawn_powers(seats, rng)
    years = number_option(options, "years", 0, whole=True)
    hours = number_option(options, "adjust_hours", 0, positive="adjust_hours" in options)
    return [public("setup", powers=powers, position=where,
                   last_year=where["year"] + years - 1 if years else None,
                   adjust_hours=hours or None)]


def roles(options: dict, count: int) -> dict:
    """The seats of a game of `count` players, each named for the powers it plays in the
    usual assignment ("france"; "austria-france" for a seat that plays two), with the
    words a player asks for one by (each power's name and adjective, English and
    French); none when the referee gives the powers out (--option powers)."""
    if options.get("powers") or count not in ASSIGNMENTS:
        return {}
    return {"-".join(group): sorted(word.lower() for word, power in NATIONALITIES.items()
                                    if power in group)
            for group in ASSIGNMENTS[count]}


def drawn_powers(seats: list, rng) -> dict:
    """The usual assignment for this many players, the seats drawn onto it."""
    if len(seats) not in ASSIGNMENTS:
        raise SetupError(f"Diplomacy is played by 2 to 7 players, not {len(seats)} (or give "
                         "the powers out with --option powers=ann:england,bob:france+germany)")
    powers = dict.fromkeys(board().powers)
    for seat, group in zip(rng.shuffle(seats), ASSIGNMENTS[len(seats)]):
        for power in group:
            powers[power] = seat
    return powers


def given_powers(the_board: Board, text, seats: list) -> dict:
    """{power: seat or None} from "ann:england,bob:france+germany" (or a position's
    {power: seat} table); every seat plays at least one power."""
    pairs = sorted(text.items()) if isinstance(text, dict) else \
        [part.partition(":")[::2] for part in str(text).split(",") if part.strip()]
    powers = dict.fromkeys(the_board.powers)
    for first, second in pairs:
        seat, names = (second, first) if isinstance(text, dict) else (first, second)
        seat = str(seat).strip().lower()
        if seat not in seats:
            raise SetupError(f"powers: {seat!r} is not a seat of this game ({', '.join(seats)})")
        for name in str(names).split("+"):
            power = power_named(the_board, name)
            if powers[power] not in (None, seat):
                raise SetupError(f"powers: {power} is given to {powers[power]} and {seat}")
            powers[power] = seat
    idle = [seat for seat in seats if seat not in powers.values()]
    if idle:
        raise SetupError(f"powers: {', '.join(idle)} would play no power; write each seat's "
                         "powers, e.g. powers=ann:england,bob:france+germany")
    return powers


def power_named(the_board: Board, name: str) -> str:
    """A power from its name, English or French, or its adjective; SetupError otherwise."""
    found = NATIONALITIES.get(" ".join(words(name)))
    if found is None:
        raise SetupError(f"powers: no power is called {name.strip()!r}; the powers are "
                         f"{', '.join(the_board.powers)}")
    return found


def position_from(the_board: Board, given: dict) -> dict:
    """A position file's phase, units and owned centres as a position; SetupError with the
    reason when it cannot be one."""
    phase = str(given.get("phase", "spring 1901 movement")).split()
    if len(phase) != 3 or not phase[1].isdigit() or (phase[0], phase[2]) not in PHASES \
            or phase[2] == "retreat":
        raise SetupError(f"phase {given.get('phase')!r}: write for example \"fall 1901 "
                         "movement\" or \"winter 1901 adjustment\"")
    units = {}
    for power, texts in sorted(given.get("units", {}).items()):
        power = power_named(the_board, power)
        for text in texts:
            province, record = unit_from(the_board, power, text)
            if province in units:
                raise SetupError(f"two units in {province}")
            units[province] = record
    centres = {}
    owners = given.get("centres") or {p: list(the_board.powers[p].home)
                                      for p in the_board.powers}
    for power, provinces in sorted(owners.items()):
        for province in provinces:
            key = str(province).upper()
            if key not in the_board.provinces or not the_board.provinces[key].centre:
                raise SetupError(f"{province!r} is not a supply centre")
            centres[key] = power_named(the_board, power)
    return {"year": int(phase[1]), "season": phase[0], "phase": phase[2],
            "units": dict(sorted(units.items())), "centres": dict(sorted(centres.items()))}


def unit_from(the_board: Board, power: str, text: str) -> tuple:
    """(province, unit record) from "F STP/SC" or "A PAR"; SetupError when it cannot stand
    there."""
    kind, _space, place = str(text).strip().upper().partition(" ")
    place = place.strip()
    province = province_of(place)
    if kind not in (ARMY, FLEET) or province not in the_board.provinces:
        raise SetupError(f"{text!r}: write a unit as A or F and a province, e.g. \"F STP/SC\"")
    if kind == ARMY and the_board.is_sea(province) or kind == FLEET and \
            the_board.is_land(province):
        raise SetupError(f"{text!r}: {'an army' if kind == ARMY else 'a fleet'} cannot stand "
                         f"in {province}")
    if kind == FLEET and len(the_board.places(province)) > 1 and \
            place not in the_board.places(province):
        raise SetupError(f"{text!r}: say which coast, e.g. {the_board.places(province)[0]}")
    return province, unit_record(power, kind, place if kind == FLEET and coast_of(place)
                                 else province)
