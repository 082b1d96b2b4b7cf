"""What a seat may send now, and the HELP's examples, from its own position in its words.

Every order shown is one the reader accepts from that seat in that phase
(each is read back through orders.read_orders before it is shown), so a
player who copies a line never gets an error for it.
"""

import textwrap

from pbem.i18n import _, current, ngettext

from .board import ARMY, FLEET, board, province_of
from .orders import SAID, order_text, power_in_sentence, read_orders
from .position import adjustment, place_of, powers_units, unit_text

WIDTH = 78


def accepted(position: dict, powers, line: str) -> bool:
    """Does the reader take this line from these powers now, without an error?"""
    orders, errors = read_orders(board(), position, powers, line)
    return bool(orders) and not errors


def targets(position: dict, province: str, unit: dict) -> list:
    """The places a unit could move to by land or along the coast, sorted."""
    the_board = board()
    if unit["type"] == ARMY:
        return sorted(the_board.army[province])
    return sorted(the_board.fleet[place_of(province, unit)])


def options(position: dict, powers) -> list[str]:
    """The lines of "what you may send now": one order per unit (or build, removal), in the
    reader's words, with the others it could give instead in brackets, each line folded
    within the text width between orders, never inside one."""
    lines = []
    for order, others in choices(position, powers):
        line = f"  {order}" + (f"   ({others})" if others else "")
        kept = [line[:2]] + [whole(part) for part in line[2:].split(", ")]
        lines += [folded.replace("\0", " ") for folded in textwrap.wrap(
            kept[0] + ", ".join(kept[1:]), WIDTH, subsequent_indent=" " * 6,
            break_long_words=False, break_on_hyphens=False)]
    return lines


def whole(text: str) -> str:
    """An order, or a clause of a line, kept on one line when the line is folded."""
    return text if len(text) > WIDTH // 2 else text.replace(" ", "\0")


def choices(position: dict, powers) -> list[tuple]:
    """[(an order the powers may give now, what else that unit may do, in words)]."""
    said = SAID[current()]
    phase = position["phase"]
    out = []
    if phase == "movement":
        for province in sorted(p for power in powers for p in powers_units(position, power)):
            unit = position["units"][province]
            where = [t for t in targets(position, province, unit)
                     if accepted(position, powers, f"{unit_text(province, unit)} - {t}")]
            hold = f"{unit_text(province, unit)} {said['hold']}"
            if not where:
                out.append((hold, ""))
                continue
            rest = where[1:]
            out.append((f"{unit_text(province, unit)} - {where[0]}",
                        _("or to {places}; or {hold}").format(places=", ".join(rest), hold=hold)
                        if rest else _("or {hold}").format(hold=hold)))
    elif phase == "retreat":
        for province, unit in sorted(position["dislodged"].items()):
            if unit["power"] not in powers or not unit["retreats"]:
                continue
            disband = f"{unit_text(province, unit)} {said['disband']}"
            first, rest = unit["retreats"][0], unit["retreats"][1:]
            out.append((f"{unit_text(province, unit)} - {first}",
                        _("or to {places}; or {disband}").format(places=", ".join(rest),
                                                                 disband=disband)
                        if rest else _("or {disband}").format(disband=disband)))
    else:
        for power in powers:
            out += winter_choices(position, power, len(powers) > 1)
    return out


def builds(position: dict, power: str) -> list[str]:
    """Every build a power may order now, in the reader's words, by home centre."""
    the_board, said = board(), SAID[current()]
    found = []
    for province in the_board.powers[power].home:
        if position["centres"].get(province) != power or province in position["units"]:
            continue
        if not the_board.is_sea(province):
            found.append(f"{said['build']} {ARMY} {province}")
        if not the_board.is_land(province):
            found += [f"{said['build']} {FLEET} {place}" for place in the_board.places(province)]
    return found


def winter_choices(position: dict, power: str, named: bool) -> list[tuple]:
    """A power's winter lines: each home centre's builds and WAIVE, or each removal."""
    said = SAID[current()]
    owed = adjustment(position, power)
    out = []
    if owed > 0:
        by_centre = {}
        for build in builds(position, power):
            by_centre.setdefault(build.split()[-1].partition("/")[0], []).append(build)
        for found in by_centre.values():
            out.append((found[0], _("or {orders}").format(orders=", ".join(found[1:]))
                        if found[1:] else ""))
        if out:
            waive = said["waive"] + (f" {power_name(power).upper()}" if named else "")
            out.append((waive, ngettext("one build fewer; {power} may build {num}",
                                        "one build fewer; {power} may build {num}",
                                        owed).format(power=power_in_sentence(board(), power), num=owed)))
    elif owed < 0:
        removals = [f"{said['remove']} {unit_text(p, position['units'][p])}"
                    for p in powers_units(position, power)]
        out.append((removals[0], ngettext("or {orders}; {power} removes {num}",
                                          "or {orders}; {power} removes {num}", -owed).format(
                                              orders=", ".join(removals[1:]),
                                              power=power_in_sentence(board(), power), num=-owed)))
    return out


def power_name(power: str) -> str:
    """A power's name in the reader's language."""
    found = board().powers[power]
    return found.french if current() == "fr" else found.name


def examples(position: dict, powers) -> list[tuple]:
    """The HELP's rows: (an order the seat may give now, what it does), in its words; each
    kind of order that its position allows, each checked by the reader."""
    phase = position["phase"]
    if phase == "movement":
        rows = movement_examples(position, powers)
    elif phase == "retreat":
        rows = retreat_examples(position, powers)
    else:
        rows = winter_examples(position, powers)
    return [(order, what) for order, what in rows if accepted(position, powers, order)]


def retreat_examples(position: dict, powers) -> list[tuple]:
    """A retreat and a disband the seat's dislodged units could give now."""
    said = SAID[current()]
    for province, unit in sorted(position["dislodged"].items()):
        if unit["power"] in powers and unit["retreats"]:
            return [(f"{unit_text(province, unit)} - {unit['retreats'][0]}",
                     _("a retreat to a place left to the unit")),
                    (f"{unit_text(province, unit)} {said['disband']}",
                     _("the unit is disbanded"))]
    return []


def winter_examples(position: dict, powers) -> list[tuple]:
    """A build, a waive or a removal the seat's powers could give this winter."""
    said = SAID[current()]
    what = {said["build"]: _("a build in a free home centre you own"),
            said["remove"]: _("a removal"), said["waive"]: _("one build fewer")}
    rows = {}
    for power in powers:
        for order, _others in winter_choices(position, power, len(powers) > 1):
            rows.setdefault(order.split()[0], (order, what[order.split()[0]]))
    return list(rows.values())


def movement_examples(position: dict, powers) -> list[tuple]:
    """A move, a hold, supports and convoys the seat's units could give now."""
    said = SAID[current()]
    units = {p: position["units"][p] for power in powers for p in powers_units(position, power)}
    rows = []
    for province, unit in sorted(units.items()):
        where = targets(position, province, unit)
        move = next((f"{unit_text(province, unit)} - {t}" for t in where
                     if accepted(position, powers, f"{unit_text(province, unit)} - {t}")), None)
        if move:
            rows += [(move, _("a move to a province next to the unit")),
                     (f"{unit_text(province, unit)} {said['hold']}",
                      _("the unit holds (as it does with no order)"))]
            break
    rows += supports(position, powers, units)
    rows += convoys(position, powers, units)
    return rows


def supports(position: dict, powers, units: dict) -> list[tuple]:
    """A support of a unit that stays, and of a move, by one of the seat's units."""
    the_board, said = board(), SAID[current()]
    found = {}
    for province, unit in sorted(units.items()):
        place = place_of(province, unit)
        for other, helped in sorted(position["units"].items(),
                                    key=lambda item: (item[0] not in units, item[0])):
            if other == province:
                continue
            text = f"{unit_text(province, unit)} {said['support']} {unit_text(other, helped)}"
            if "hold" not in found and the_board.reaches(unit["type"], place, other) and \
                    accepted(position, powers, text):
                found["hold"] = (text, _("supports the unit there where it stands"))
            into = sorted({province_of(t) for t in targets(position, other, helped)} - {province})
            for target in into:
                if "move" not in found and the_board.reaches(unit["type"], place, target) and \
                        accepted(position, powers, f"{text} - {target}"):
                    found["move"] = (f"{text} - {target}", _("supports that unit's move"))
            if len(found) == 2:
                return [found["hold"], found["move"]]
    return list(found.values())


def convoys(position: dict, powers, units: dict) -> list[tuple]:
    """A fleet of the seat's convoying an army across one sea, and that army's move."""
    the_board, said = board(), SAID[current()]
    for province, unit in sorted(units.items()):
        if unit["type"] != FLEET or not the_board.is_sea(province):
            continue
        for start, army in sorted(position["units"].items()):
            if army["type"] != ARMY or province not in the_board.neighbours[start]:
                continue
            for end in sorted(the_board.neighbours[province]):
                convoy = f"{unit_text(province, unit)} {said['convoy']} A {start} - {end}"
                if end == start or not accepted(position, powers, convoy):
                    continue
                rows = [(convoy, _("a fleet at sea carries an army"))]
                move = order_text({"type": "move", "unit": ARMY, "at": start, "to": end,
                                   "via": True}, current())
                if accepted(position, powers, move):
                    rows.append((move, _("the army's move by that convoy")))
                return rows
    return []
