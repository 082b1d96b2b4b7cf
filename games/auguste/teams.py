"""Legions, teams and who commands what: the presets of the rules page.

Corners are numbered 0-5 around the board. In every preset, two legions of
one team never sit in adjacent corners.
"""

from pbem.adjudicator.contract import SetupError

COLOURS = ("red", "orange", "yellow", "green", "blue", "purple")
TEAM_NAMES = ("Caesar", "Pompey", "Crassus", "Brutus", "Antony")

# preset: [(legion, corner, team index)], lone legion or None
PRESETS = {
    "4-2": ([("red", 0, 0), ("orange", 1, 1), ("green", 3, 0), ("blue", 4, 1)], None),
    "6-2": ([("red", 0, 0), ("orange", 1, 1), ("yellow", 2, 0), ("green", 3, 1),
             ("blue", 4, 0), ("purple", 5, 1)], None),
    "6-3": ([("red", 0, 0), ("orange", 1, 1), ("yellow", 2, 2), ("green", 3, 0),
             ("blue", 4, 1), ("purple", 5, 2)], None),
    "3-3": ([("red", 0, 0), ("yellow", 2, 1), ("blue", 4, 2)], None),
    "5-5": ([("red", 0, 0), ("orange", 1, 1), ("yellow", 2, 2), ("green", 3, 3),
             ("blue", 4, 4)], None),
    "2-2-1": ([("red", 0, 0), ("orange", 1, 1), ("yellow", 2, 2), ("green", 3, 0),
               ("blue", 4, 1)], "yellow"),
}

# the preset a number of players gets when none is named (the original's advice)
DEFAULT_PRESET = {2: "4-2", 3: "3-3", 4: "4-2", 5: "5-5", 6: "6-2"}


def preset_for(options: dict, seat_count: int) -> str:
    """The preset named in the options, or the rules' advice for this many players."""
    name = str(options.get("preset") or DEFAULT_PRESET.get(seat_count, ""))
    if name not in PRESETS:
        known = ", ".join(PRESETS)
        raise SetupError(f"no Auguste preset for {seat_count} players; choose one of {known}"
                         if not options.get("preset") else
                         f"unknown preset {name!r}; choose one of {known}")
    return name


def legions_for(preset: str, seats: list[str], assign: str | None = None) -> dict:
    """{legion: {corner, team, seat}} for a preset, commanded by these seats."""
    rows, _ = PRESETS[preset]
    legions = {colour: {"corner": corner, "team": TEAM_NAMES[team], "seat": None}
               for colour, corner, team in rows}
    return assign_seats(legions, seats, assign)


def assign_seats(legions: dict, seats: list[str], assign: str | None = None) -> dict:
    """Give every legion a seat, filling only those without one.

    One seat per legion, or one seat per team (each commands its whole team),
    or an explicit ``assign`` such as "red=ann,green=ann,orange=bob,blue=bob".
    """
    legions = {c: dict(legion) for c, legion in legions.items()}
    if assign:
        for pair in assign.split(","):
            colour, _, seat = pair.partition("=")
            colour, seat = colour.strip().lower(), seat.strip()
            if colour not in legions:
                raise SetupError(f"assign: there is no {colour!r} legion in this game")
            legions[colour]["seat"] = seat
    free = [c for c, legion in legions.items() if legion["seat"] is None]
    teams = list(dict.fromkeys(legions[c]["team"] for c in free))
    if free and len(seats) == len(legions):
        for seat, colour in zip(seats, legions):
            legions[colour]["seat"] = legions[colour]["seat"] or seat
    elif free and len(seats) == len(teams):
        for seat, team in zip(seats, teams):
            for colour in free:
                if legions[colour]["team"] == team:
                    legions[colour]["seat"] = seat
    elif free:
        counts = sorted({len(legions), len(teams)})
        raise SetupError(
            f"{len(legions)} legions in {len(teams)} teams: give "
            f"{' or '.join(map(str, counts))} seats, or --option assign=red=ann,orange=bob,...")
    strangers = sorted({legion["seat"] for legion in legions.values()} - set(seats))
    if strangers:
        raise SetupError(f"{', '.join(strangers)} is not a seat of this game")
    unused = sorted(set(seats) - {legion["seat"] for legion in legions.values()})
    if unused:
        raise SetupError(f"seat(s) {', '.join(unused)} command no legion")
    return legions
