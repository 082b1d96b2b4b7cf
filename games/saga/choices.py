"""What a seat may send now: every order it may give in its position, in its words.

A choice is a line of a seat's mail ("move host Kent | Wessex   (your one
move out)") and the orders it offers ("move host Kent", "move host Wessex"),
each one the game's parser takes from that seat now (`reads`, the parser's
verdict, is given by the caller: orders.reads): an order it would refuse is
left out, and so is a line left with none. The HELP's examples
(examples.py) and the examples of the parser's answers are the first order
of each line.
"""

from pbem.i18n import N_, _, ngettext

from .army import cheapest, points
from .material import (SCENARIO_NAMES, UNIT_TYPES, army_name, faction_word, points_text,
                       scenario_name, unit_name)
from .moves import captives, default_where, ransom_of
from .rules import (aftermath_asks, fall_back_options, give_way, internal_moves,
                    outward_targets, scout_targets, withdraw_options)
from .start import signup_options
from .state import board_of, zones_of

# One unit of a type, as an order writes it ("1 levy", "1 levée").
ONE_UNIT = {"hearthguards": N_("hearthguard"), "warriors": N_("warrior"), "levies": N_("levy")}
# Names for the new army of a split, in the reader's words (no unit word, no accent: a name
# is kept as it is read).
NEW_NAMES = (N_("raiders"), N_("band"), N_("riders"), N_("troop"))


def choices(state, seat, kind: str, reads) -> list[dict]:
    """[{"line", "note", "orders"}] a seat asked `kind` now may send: each order one
    reads(state, seat, text) accepts."""
    out = []
    for line, note, orders in LINES[kind](state, seat, reads):
        taken = [o for o in orders if reads(state, seat, o)]
        if taken:
            shown = line if len(taken) == len(orders) else alternatives(taken)
            out.append({"line": shown.replace("\n", "   "), "note": note, "orders": taken})
    return out


def alternatives(orders: list[str]) -> str:
    """'move host Kent | Wessex': orders that differ in their last word, as one line."""
    head = orders[0].rpartition(" ")[0]
    if all(o.rpartition(" ")[0] == head for o in orders):
        return f"{head} " + " | ".join(o.rpartition(" ")[2] for o in orders)
    return " | ".join(orders)


def one_of(template: str, words: list[str], **values) -> tuple[str, list[str]]:
    """(the line, its orders) for an order template whose {last} takes one of the words."""
    orders = [template.format(last=w, **values) for w in words]
    return template.format(last=" | ".join(words), **values), orders


def unit_word(kind: str, number: int = 2) -> str:
    """A unit type as an order writes it in the current language ('warriors', 'guerrier')."""
    return _(ONE_UNIT[kind]) if number == 1 else unit_name(kind).lower()


def units_said(units: dict, lord: bool = False) -> str:
    """Units as an order writes them: '1 warrior 2 levies' (and 'lord')."""
    said = [f"{units[k]} {unit_word(k, units[k])}" for k in UNIT_TYPES if units.get(k)]
    return " ".join(said + ([_("lord")] if lord else []))


def armies(state, seat) -> list[tuple[str, dict]]:
    """The seat's armies, by name."""
    return sorted(state["armies"][seat].items())


def free_names(state, seat) -> list[str]:
    """Names no army of the seat has yet, for the new army of a split."""
    return [name for name in map(_, NEW_NAMES) if name not in state["armies"][seat]]


# ---------------------------------------------------------------- one maker per question

def signup(state, seat, reads):
    board = board_of(state)
    for faction, zones in signup_options(state).items():
        orders = [_("faction {faction}").format(faction=faction_word(faction)) + "\n" +
                  _("homeland {zone}").format(zone=z) for z in board.labels(zones)]
        yield (_("faction {faction}   homeland {zones}").format(
            faction=faction_word(faction), zones=" | ".join(board.labels(zones))), "", orders)
    yield (_("host 1 hearthguards 2 warriors 1 levies"), _("(4 or 5 points, with the Lord)"),
           [_("host 1 hearthguards 2 warriors 1 levies")])
    yield _("reserve 1 warriors"), _("(1 or 2 points)"), [_("reserve 1 warriors")]


def turn(state, seat, reads):
    board = board_of(state)
    for name, _army in armies(state, seat):
        line, orders = one_of(_("move {army} {last}"),
                              board.labels(internal_moves(state, seat, name)),
                              army=army_name(name))
        yield line, "", orders
    for name, _army in armies(state, seat):
        line, orders = one_of(_("move {army} {last}"),
                              board.labels(outward_targets(state, seat, name)),
                              army=army_name(name))
        yield line, _("(the one move out)"), orders
    line, orders = one_of(_("scout {last}"), board.labels(scout_targets(state, seat)))
    yield line, _("(instead of moving out; then MOVE or STAY)"), orders
    yield from reorganising(state, seat, reads)
    yield from recruiting(state, seat)
    if state["lords"][seat]["status"] == "captured":
        yield (_("ransom"), _("({gold} gold: your Lord comes back)").format(
            gold=ransom_of(state, seat)), [_("ransom")])
    for other in captives(state, seat):
        order = _("release {seat}").format(seat=other)
        yield order, _("(its Lord goes home)"), [order]


def reorganising(state, seat, reads):
    """Merging two armies, splitting one, disbanding units: the first each seat may give."""
    mine = armies(state, seat)
    merges = [_("army {army}+{other}").format(army=army_name(a), other=army_name(b))
              for a, one in mine
              for b, two in mine if a != b and one["zone"] == two["zone"]]
    yield first_line(state, seat, merges, _("(merge two armies in one zone)"), reads)
    for new in free_names(state, seat)[:1]:
        splits = [(_("split {army} {number} {new}").format(army=army_name(a), number=n,
                                                                  new=new), a, n)
                  for a, _army in mine for n in (2, 1)]
        found = next((s for s in splits if reads(state, seat, s[0])), None)
        if found:
            yield found[0], ngettext("({number} unit, the cheapest, leaves {army})",
                                     "({number} units, the cheapest, leave {army})",
                                     found[2]).format(number=found[2], army=army_name(found[1])), \
                [found[0]]
    disbands = [_("disband {army} 1 {units}").format(army=army_name(a),
                                                         units=unit_word(kind, 1))
                for a, army in mine for kind in reversed(UNIT_TYPES) if army["units"][kind]]
    yield first_line(state, seat, disbands, _("(units leave your army)"), reads)


def first_line(state, seat, orders: list[str], note: str, reads) -> tuple:
    """(line, note, [order]) for the first of these orders the parser reads, or an empty
    choice."""
    found = next((o for o in orders if reads(state, seat, o)), None)
    return (found, note, [found]) if found else ("", "", [])


def recruiting(state, seat):
    """Recruits at upkeep: each type, and where they go."""
    line, orders = one_of(_("recruit {last}"), [unit_word(k) for k in reversed(UNIT_TYPES)])
    where = default_where(state, seat)
    yield line, (_("(at upkeep, one of each type; 5 gold a unit; in your homeland)")
                 if where == _("your homeland") else
                 _("(at upkeep, one of each type; 5 gold a unit; in {zone})").format(
                     zone=where)), orders
    zones = board_of(state).labels(zones_of(state, seat))
    line, orders = one_of(_("recruit {units} {last}"), zones, units=unit_word("warriors"))
    yield line, _("(or in another zone of yours)"), orders


def after_scouting(state, seat, reads):
    zone = board_of(state).label(state["turn"]["scout"]["zone"])
    moves = [_("move {army} {zone}").format(army=army_name(n), zone=zone) for n, _army in
             armies(state, seat)]
    yield " | ".join(moves), _("(into the zone you scouted)"), moves
    yield _("stay"), _("(no move out this turn)"), [_("stay")]
    yield from recruiting(state, seat)


def retreat(state, seat, reads):
    zone = state["turn"]["contact"]["zone"]
    for name in state["turn"]["retreats"]:
        army = state["armies"][seat][name]
        line, orders = one_of(_("retreat {army} {last}"),
                              board_of(state).labels(give_way(state, seat, zone, points(army))),
                              army=army_name(name))
        yield line, "", orders


def setup(state, seat, reads):
    options = withdraw_options(state) if seat == state["turn"]["battle"]["defender"] else {}
    for name, zones in sorted(options.items()):
        line, orders = one_of(_("withdraw {army} {last}"), board_of(state).labels(zones),
                              army=army_name(name))
        yield line, _("(it leaves before the battle)"), orders
    if options:  # the choice not to: without an army that may leave, there is none
        yield _("fight"), _("(every army there fights, as one)"), [_("fight")]
    line, orders = one_of(_("scenario {last}"), [str(i) for i in range(1, 7)])
    yield line, "(" + ", ".join(f"{i} {scenario_name(k)}" for i, k in
                                enumerate(SCENARIO_NAMES, start=1)) + ")", orders


def aftermath(state, seat, reads):
    asks = aftermath_asks(state).get(seat, [])
    battle = state["turn"]["battle"]
    if "losses" in asks:
        army = state["armies"][seat][battle["forces"][seat]["army"]]
        units, lord = cheapest(army, battle["rolls"]["loser"]["lose"])
        order = _("lose {units}").format(units=units_said(units, lord))
        yield order, _("(the units you lose, your choice)"), [order]
    if "fall_back" in asks:
        line, orders = one_of(_("retreat {last}"),
                              board_of(state).labels(fall_back_options(state)))
        yield line, _("(where your army falls back)"), orders
    if "promote" in asks:
        won = state["armies"][seat][battle["forces"][seat]["army"]]
        kinds = [unit_word(k) for k in ("warriors", "levies") if won["units"][k]]
        line, orders = one_of(_("promote {last}"), kinds + [_("none")])
        yield line, _("(one unit one step up, or none)"), orders


def disband(state, seat, reads):
    note = _("({points} to disband)").format(points=points_text(state["turn"]["short"]))
    for name, army in armies(state, seat):
        kinds = [k for k in UNIT_TYPES if army["units"][k]]
        line, orders = one_of(_("disband {army} 1 {last}"), [unit_word(k, 1) for k in kinds],
                              army=army_name(name))
        yield line, note, orders


def result(state, seat, reads):
    if state["turn"]["battle"].get("points_rule"):
        orders = [_("result won points 14"), _("result lost points 9")]
        yield " / ".join(orders), _("(the points you left on the field)"), orders
        return
    orders = [_("result won"), _("result lost")]
    yield " / ".join(orders), "", orders


LINES = {"signup": signup, "orders": turn, "move": after_scouting, "retreat": retreat,
         "setup": setup, "aftermath": aftermath, "disband": disband, "result": result}
