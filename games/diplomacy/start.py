"""A new game of Diplomacy: who plays which power, and where the game starts.

Seven players play a power each. With fewer, the rulebook's usual
assignments give some players several powers and leave others out (a power
nobody plays stays on the board in civil disorder). The referee may instead
give the powers out himself (``--option powers=ann:england,bob:france+germany``);
otherwise the seats are drawn onto the assignment from the game's stream.

A position file (``--position``, docs/positions.md) gives the phase, the
units and the owned supply centres by power, and optionally who plays which
power: the same tables as the DATC's case files. A retreat phase also gives
its dislodged units, where each one's attacker came from, and the provinces a
standoff left empty.
"""

from pbem.adjudicator.contract import SetupError, public
from pbem.adjudicator.options import number_option

from .board import ARMY, FLEET, Board, board, coast_of, province_of
from .orders import NATIONALITIES, words
from .position import retreat_places, start, unit_record

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
    if len(phase) != 3 or not phase[1].isdigit() or (phase[0], phase[2]) not in PHASES:
        raise SetupError(f"phase {given.get('phase')!r}: write for example \"fall 1901 "
                         "movement\", \"fall 1901 retreat\" or \"winter 1901 adjustment\"")
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
    if not units and phase[2] == "movement":
        raise SetupError("units: a movement phase needs units on the board; give each "
                         "power's, e.g. [units] germany = [\"A BER\", \"F KIE\"]")
    where = {"year": int(phase[1]), "season": phase[0], "phase": phase[2],
             "units": dict(sorted(units.items())), "centres": dict(sorted(centres.items()))}
    if phase[2] == "retreat":
        where["dislodged"] = dislodged_from(the_board, given, units)
    elif given.get("dislodged") or given.get("standoffs"):
        raise SetupError("dislodged units and standoffs are written only in a retreat phase, "
                         "e.g. phase = \"fall 1901 retreat\"")
    return where


def dislodged_from(the_board: Board, given: dict, units: dict) -> dict:
    """A retreat phase's dislodged units, from "A SER from BUL" ("... by convoy" when the
    attacker was convoyed) by power, each with the places it may retreat to, none of
    them a province a standoff left empty (``standoffs``). SetupError when they cannot
    be."""
    standoffs = sorted({str(p).strip().upper() for p in given.get("standoffs", [])})
    for province in standoffs:
        if province not in the_board.provinces:
            raise SetupError(f"standoffs: there is no province {province!r}")
        if province in units:
            raise SetupError(f"standoffs: {province} holds a unit, and a standoff leaves "
                             "its province empty")
    dislodged = {}
    for power, texts in sorted(given.get("dislodged", {}).items()):
        power = power_named(the_board, power)
        for text in texts:
            province, record = dislodged_unit(the_board, power, text, units)
            if province in dislodged:
                raise SetupError(f"two units dislodged from {province}")
            record["retreats"] = retreat_places(the_board, province, record, units, standoffs)
            dislodged[province] = record
    if not any(unit["retreats"] for unit in dislodged.values()):
        raise SetupError("a retreat phase needs a dislodged unit with somewhere to go, e.g. "
                         "[dislodged] austria = [\"A SER from BUL\"]; a unit with nowhere "
                         "to go is disbanded at once, so start at the next phase")
    return dict(sorted(dislodged.items()))


def dislodged_unit(the_board: Board, power: str, text: str, units: dict) -> tuple:
    """(province, record) of a dislodged unit written "A SER from BUL" or "A SER from BUL
    by convoy": its province must hold the unit of another power that dislodged it."""
    unit, marker, attack = str(text).strip().upper().partition(" FROM ")
    start, _by, convoy = attack.strip().partition(" BY ")
    if not marker or convoy.strip() not in ("", "CONVOY") or \
            start.strip() not in the_board.provinces:
        raise SetupError(f"{text!r}: write a dislodged unit and where its attacker came "
                         "from, e.g. \"A SER from BUL\" (or \"A SER from BUL by convoy\")")
    province, record = unit_from(the_board, power, unit)
    attacker = units.get(province)
    if attacker is None or attacker["power"] == power:
        raise SetupError(f"{text!r}: {province} must hold the unit of another power that "
                         "dislodged it")
    if convoy and attacker["type"] != ARMY:
        raise SetupError(f"{text!r}: only an army is convoyed, and {province} holds a fleet")
    return province, {**record, "from": start.strip(), "convoyed": bool(convoy)}


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
