"""Starting a campaign: the options, signup in seat order, or a given position (docs/positions.md).

Signup is first come, first served, made deterministic: each seat in seat
order picks its faction, its homeland and its two armies, seeing the
earlier picks. A faction is taken once; a homeland is never next to
another one, unless the map leaves a seat no such choice (the default map
holds at most 7 homelands apart); and no pick may leave a later seat
without any faction and homeland at all.
"""

from pbem.adjudicator.contract import SetupError, public, secret
from pbem.adjudicator.editions import edition, recorded
from pbem.adjudicator.options import number_option, yes_no_option

from . import board as boards
from .army import new_army, points, valid_name
from .material import DEFAULT_HOST, DEFAULT_RESERVE, MAX_ARMY, MAX_ZONE, UNIT_TYPES, faction_of
from .state import blank_state, new_turn, told
from .tables import tables_for

MIN_SEATS, MAX_SEATS = 2, 10
DEFAULT_ZONES_TO_WIN = 10
DEFAULT_BATTLE_HOURS = 168.0


def setup(options, seats, rng, position=None) -> list:
    """The public setup; then signup phases, or the position's campaign (a secret event)."""
    if not MIN_SEATS <= len(seats) <= MAX_SEATS:
        raise SetupError(f"a SAGA campaign is for {MIN_SEATS} to {MAX_SEATS} players, "
                         f"not {len(seats)}")
    position = dict(position or {})
    spec = position.get("board", options.get("board", "default"))
    board = board_for(spec)
    if len(board.factions) < len(seats):
        raise SetupError(f"map {board.name} has {len(board.factions)} factions for "
                         f"{len(seats)} players")
    payload = {"board": spec, "tables": tables_for(position.get("tables")),
               "seats": list(seats), "fog": fog_option(options),
               "battle_hours": number_option(options, "battle_hours", DEFAULT_BATTLE_HOURS,
                                             positive=True), **end_options(options),
               **recorded(edition(options))}
    goal = payload["zones_to_win"]
    if goal is not None and goal > len(board.order):
        raise SetupError(f"zones_to_win is {goal}, but map {board.name} has only "
                         f"{len(board.order)} zones")
    events = [public("setup", **payload)]
    if position:
        state = blank_state(payload)
        read_position(state, board, position)
        events.append(secret("realm_set", state=state))
        events.append(public("turn_began", seat=state["turn"]["seat"],
                             number=state["turn"]["number"], round=state["round"]))
    return events


def board_for(spec):
    """The map named or given; SetupError when it is not a usable map."""
    if isinstance(spec, dict):
        boards.check(spec)
    elif not isinstance(spec, str):
        raise SetupError("board: give a map name or a [board] table")
    return boards.load(spec)


def fog_option(options) -> bool:
    """fog: on unless the option says off."""
    return "fog" not in options or yes_no_option(options, "fog")


def end_options(options) -> dict:
    """zones_to_win (default 10) or rounds: how the campaign ends."""
    if "zones_to_win" in options and "rounds" in options:
        raise SetupError("give zones_to_win or rounds, not both")
    if "rounds" in options:
        return {"zones_to_win": None,
                "rounds": number_option(options, "rounds", 0, whole=True, positive=True)}
    return {"rounds": None, "zones_to_win": number_option(
        options, "zones_to_win", DEFAULT_ZONES_TO_WIN, whole=True, positive=True)}


# ---------------------------------------------------------------- signup

def signup_options(state, seat=None) -> dict:
    """{faction: [zones]} the seat choosing now may pick."""
    board = boards.load(state["board"])
    taken = set(state["homelands"].values())
    free = [f for f in board.factions if f not in state["factions"].values()]
    later = len(state["seats"]) - len(state["factions"]) - 1

    def fits(faction, zone, apart):
        if zone in taken or (apart and any(board.adjacent(zone, h) for h in taken)):
            return False
        rest = [f for f in free if f != faction]
        return matching(board, rest, taken | {zone}) >= later

    for apart in (True, False):
        options = {f: [z for z in board.homelands[f] if fits(f, z, apart)] for f in free}
        options = {f: zones for f, zones in options.items() if zones}
        if options:
            return options
    return {}


def matching(board, factions, taken) -> int:
    """How many of these factions can each get a different free homeland at once."""
    holder = {}

    def place(faction, seen):
        for zone in board.homelands[faction]:
            if zone in taken or zone in seen:
                continue
            seen.add(zone)
            if zone not in holder or place(holder[zone], seen):
                holder[zone] = faction
                return True
        return False

    return sum(1 for faction in factions if place(faction, set()))


def default_pick(state) -> tuple[str, str]:
    """A silent seat's pick: the first free faction of the map, and its first homeland."""
    options = signup_options(state)
    faction = next(iter(options))
    return faction, options[faction][0]


def signup_events(state, seat, orders) -> list:
    """A seat's pick: public faction and homeland, private armies; the campaign when all are in."""
    if orders.get("default") or not orders.get("faction"):
        faction, homeland = default_pick(state)
    else:
        faction = orders["faction"]
        homeland = orders.get("homeland") or signup_options(state)[faction][0]
    host = orders.get("host") or DEFAULT_HOST
    reserve = orders.get("reserve") or DEFAULT_RESERVE
    armies = {"host": new_army(homeland, host, lord=True, main=True),
              "reserve": new_army(homeland, reserve)}
    events = [public("faction_chosen", seat=seat, faction=faction, homeland=homeland),
              told(state, [seat], "armies_raised", seat=seat, armies=armies,
                        default=bool(orders.get("default")))]
    if state["signup"] + 1 == len(state["seats"]):
        events += [public("campaign_began", seats=list(state["seats"])),
                   public("round_began", round=1, order=list(state["seats"])),
                   public("turn_began", seat=state["seats"][0], number=1, round=1)]
    return events


# ---------------------------------------------------------------- positions

def table(position, key, kind=dict):
    """A position's table (or list), empty when absent; SetupError when it is something else."""
    value = position.get(key)
    if value is None:
        return kind()
    if not isinstance(value, kind):
        what = "a table such as {ann = ...}" if kind is dict else "a list such as [\"ann\"]"
        raise SetupError(f"{key}: give {what}")
    return value


def whole(value, where: str, least: int = 0) -> int:
    """A whole number from a position; SetupError otherwise."""
    if not isinstance(value, int) or isinstance(value, bool) or value < least:
        raise SetupError(f"{where}: give a whole number, {least} or more")
    return value


def read_position(state, board, position) -> None:
    """Fill a blank state with a position's factions, zones, armies, gold and turn."""
    seats = state["seats"]
    for key in ("factions", "homelands"):
        given = position.get(key)
        missing = [s for s in seats if not isinstance(given, dict) or s not in given]
        if missing:
            raise SetupError(f"{key}: give every seat's, {missing[0]!r} has none")
    for seat, word in position["factions"].items():
        check_seat(seats, seat, "factions")
        faction = faction_of(str(word))
        if faction is None or faction not in board.factions:
            raise SetupError(f"factions.{seat}: {word!r} is not a faction of this map")
        state["factions"][seat] = faction
    if len(set(state["factions"].values())) != len(seats):
        raise SetupError("factions: two seats have the same faction")
    for seat, word in position["homelands"].items():
        check_seat(seats, seat, "homelands")
        state["homelands"][seat] = zone_of(board, word, f"homelands.{seat}")
        state["owner"][state["homelands"][seat]] = seat
    if len(set(state["homelands"].values())) != len(seats):
        raise SetupError("homelands: two seats have the same homeland")
    for word, seat in table(position, "owners").items():
        check_seat(seats, seat, "owners")
        state["owner"][zone_of(board, word, "owners")] = seat
    for word in table(position, "free", list):
        state["owner"].pop(zone_of(board, word, "free"), None)
    read_armies(state, board, table(position, "armies"))
    for seat, gold in table(position, "gold").items():
        check_seat(seats, seat, "gold")
        if not isinstance(gold, int) or isinstance(gold, bool) or gold < 0:
            raise SetupError(f"gold.{seat}: give a whole number of gold, 0 or more")
        state["gold"][seat] = gold
    read_lords(state, table(position, "lords"))
    for seat in table(position, "tricks", list):
        check_seat(seats, seat, "tricks")
        state["tricks"][seat] = True
    for vassal, overlord in table(position, "vassals").items():
        check_seat(seats, vassal, "vassals")
        check_seat(seats, overlord, "vassals")
        if vassal == overlord:
            raise SetupError(f"vassals.{vassal}: a seat cannot be its own vassal")
        state["overlord"][vassal] = overlord
    if any(o in state["overlord"] for o in state["overlord"].values()):
        raise SetupError("vassals: a vassal's overlord cannot itself be a vassal")
    read_knowledge(state, board, table(position, "knowledge"))
    read_turn(state, position)


def check_seat(seats, seat, where) -> None:
    """SetupError unless the name is a seat."""
    if seat not in seats:
        raise SetupError(f"{where}: {seat!r} is not a seat ({', '.join(seats)})")


def zone_of(board, word, where: str) -> str:
    """A zone from its name or number; SetupError when the map has none."""
    zone = board.lookup(str(word))
    if zone is None:
        raise SetupError(f"{where}: there is no zone {word!r} on map {board.name}")
    return zone


def read_armies(state, board, table) -> None:
    """armies.<seat>.<name> = {zone, hearthguards, warriors, levies, lord, main}."""
    lords = set()
    for seat, armies in table.items():
        check_seat(state["seats"], seat, "armies")
        if not isinstance(armies, dict):
            raise SetupError(f"armies.{seat}: give its armies, e.g. [armies.{seat}.host]")
        for name, row in armies.items():
            where = f"armies.{seat}.{name}"
            if not isinstance(row, dict):
                raise SetupError(f"{where}: each army is a table, e.g. {{zone = \"Kent\", "
                                 "warriors = 2}")
            if not valid_name(name):
                raise SetupError(f"{where}: an army's name is lower-case letters and digits")
            zone = zone_of(board, row.get("zone", ""), where)
            if state["owner"].get(zone) != seat:
                raise SetupError(f"{where}: {zone} is not a zone {seat} controls")
            units = {}
            for kind in UNIT_TYPES:
                count = row.get(kind, 0)
                if not isinstance(count, int) or count < 0:
                    raise SetupError(f"{where}.{kind}: give a whole number of units")
                units[kind] = count
            army = new_army(zone, units, lord=bool(row.get("lord")), main=bool(row.get("main")))
            if points(army) > MAX_ARMY:
                raise SetupError(f"{where}: an army holds at most {MAX_ARMY} points")
            if not points(army) and not army["lord"]:
                raise SetupError(f"{where}: an army needs a unit or the Lord")
            if army["lord"]:
                if seat in lords:
                    raise SetupError(f"armies.{seat}: only one army has the Lord")
                lords.add(seat)
            state["armies"][seat][name] = army
    for zone in board.order:
        total = sum(points(a) for s in state["seats"] for a in state["armies"][s].values()
                    if a["zone"] == zone)
        if total > MAX_ZONE:
            raise SetupError(f"armies: {zone} holds {total} points, more than {MAX_ZONE}")
    for seat in state["seats"]:
        if seat not in lords:
            state["lords"][seat]["status"] = "waiting"


def read_lords(state, table) -> None:
    """lords.<seat> = {status = "captured", captor = "bob", wounded = true}."""
    for seat, row in table.items():
        check_seat(state["seats"], seat, "lords")
        if not isinstance(row, dict):
            raise SetupError(f"lords.{seat}: give a table, e.g. {{status = \"captured\"}}")
        lord = state["lords"][seat]
        if row.get("status") == "captured":
            check_seat(state["seats"], row.get("captor"), f"lords.{seat}.captor")
            if lord["status"] == "army":
                raise SetupError(f"lords.{seat}: a captured Lord is in none of its armies")
            lord.update(status="captured", captor=row["captor"])
        elif row.get("status") not in (None, "army", "waiting"):
            raise SetupError(f"lords.{seat}.status: army, waiting or captured")
        lord["wounded"] = bool(row.get("wounded"))


def read_knowledge(state, board, table) -> None:
    """knowledge.<seat>.<zone> = {turn, owner, armies = [{points, units, lord}], homeland}."""
    for seat, facts in table.items():
        check_seat(state["seats"], seat, "knowledge")
        if not isinstance(facts, dict):
            raise SetupError(f"knowledge.{seat}: give a table of zones")
        for word, row in facts.items():
            zone = zone_of(board, word, f"knowledge.{seat}")
            if not isinstance(row, dict) or not isinstance(row.get("armies", []), list):
                raise SetupError(f"knowledge.{seat}.{word}: give {{turn, owner, armies = "
                                 "[{points = 4}], homeland}")
            armies = row.get("armies")
            fact = {"owner": row.get("owner"), "homeland": row.get("homeland"),
                    "armies": None if armies is None else [
                        {"points": a.get("points"), "units": a.get("units"),
                         "lord": a.get("lord")} for a in armies]}
            turn = whole(row.get("turn", 0), f"knowledge.{seat}.{word}.turn")
            state["knowledge"].setdefault(seat, {})[zone] = {"turn": turn, "fact": fact}


def read_turn(state, position) -> None:
    """The round, its order, whose turn it is, and how many turns each seat has played."""
    seats = state["seats"]
    round_ = whole(position.get("round", 1), "round", 1)
    shift = (round_ - 1) % len(seats)
    order = list(table(position, "order", list) or seats[shift:] + seats[:shift])
    if sorted(order) != sorted(seats):
        raise SetupError("order: give every seat once")
    active = position.get("active", order[0])
    check_seat(seats, active, "active")
    state.update(stage="campaign", round=round_, order=order)
    played = table(position, "played")
    for seat in seats:
        before = order.index(seat) < order.index(active)
        state["played"][seat] = whole(played.get(seat, round_ - 1 + (1 if before else 0)),
                                      f"played.{seat}")
    state["turn"] = new_turn(whole(position.get("turn", 1), "turn", 1), round_, active)
