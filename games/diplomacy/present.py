"""What players see of a Diplomacy game: views, the board as text, reports, orders in words.

Diplomacy hides nothing on the board: every seat sees the public view, plus
its own part (its powers, what it may send now, its HELP's examples). The
orders of a phase are secret until the phase is resolved; the engine keeps
them (orders_set is the referee's), and the reports then tell every
power's orders with their results, as the judges do.
"""

import textwrap

from pbem.i18n import N_, _, current, ngettext

from . import hints
from .board import board
from .orders import SAID, order_text, place_words, power_in_sentence, power_words
from .adjustments import disorder_removals
from .position import adjustment, powers_units, unit_text
from .rules import SEASONS, YEAR, free_homes, seat_powers, turn_of

WIDTH = 78
NBSP = "\u00a0"
RESULTS = {"succeeded": N_("succeeded"), "bounced": N_("bounced"), "cut": N_("cut"),
           "dislodged": N_("dislodged"), "void": N_("void"), "no convoy": N_("no convoy")}
# What a support or a convoy did when it was neither cut nor void: a move it helped may
# still bounce, so it is not said to have "succeeded".
HELPED = {"support": N_("given"), "convoy": N_("convoyed")}
VOID = {"unmatched": N_("void: the unit it helps was ordered otherwise"),
        "overland": N_("void: the army goes over land")}


PHASES = {"movement": N_("movement"), "retreat": N_("retreats"),
          "adjustment": N_("adjustments")}


def turn_words(turn: int, round_=None) -> str:
    """A turn (rules.turn_of) as players name it, in the current language: "Spring 1901,
    movement", "Automne 1901, retraites", "Winter 1901, adjustments"."""
    year, at = divmod(turn, len(YEAR))
    season, phase = YEAR[at]
    return _("{season} {year}, {phase}").format(season=_(SEASONS[season]), year=year,
                                                phase=_(PHASES[phase]))


def when_words(position: dict) -> str:
    """A phase in words: "Spring 1901, movement", "Printemps 1901, mouvements"."""
    return turn_words(turn_of({"position": position})[0])


def who(power: str, seat: str | None) -> str:
    """A power and its player: "England (ann)", "Italy (not played)"."""
    if seat is None:
        return _("{power} (not played)").format(power=power_words(board(), power))
    return _("{power} ({seat})").format(power=power_words(board(), power), seat=seat)


def view(state: dict, seat: str | None = None) -> dict:
    """The board and the game as a seat (or the public, seat=None) sees it, with the orders
    of the phases resolved last and their results (what the board draws)."""
    position = state["position"]
    the_board = board()
    powers = []
    for power in the_board.powers:
        units = powers_units(position, power)
        powers.append({
            "key": power, "seat": state["powers"][power],
            "centres": sorted(c for c, owner in position["centres"].items() if owner == power),
            "units": [unit_text(p, position["units"][p]) for p in units],
            "owed": adjustment(position, power) if position["phase"] == "adjustment" else 0})
    out = {
        "game": "diplomacy",
        "turn": turn_of(state)[0],
        "when": {"year": position["year"], "season": position["season"],
                 "phase": position["phase"]},
        "powers": powers,
        "units": position["units"],
        "dislodged": position.get("dislodged", {}),
        "centres": position["centres"],
        "neutral": sorted(p for p, province in the_board.provinces.items()
                          if province.centre and p not in position["centres"]),
        "last_year": state["last_year"],
        "result": state["result"],
        "resolved": state.get("resolved"),
    }
    if seat is not None:
        out["you"] = yours(state, seat)
    return out


def yours(state: dict, seat: str) -> dict:
    """A seat's own part of its view: its powers, what it may send now, HELP's examples."""
    mine = seat_powers(state, seat)
    position = state["position"]
    return {"seat": seat, "powers": mine,
            "names": together([power_in_sentence(board(), p) for p in mine]),
            "options": hints.options(position, mine) if not state["result"] else [],
            "examples": hints.examples(position, mine) if not state["result"] else [],
            "said": SAID[current()]}


def briefing(state: dict, seat: str) -> dict:
    """A seat's welcome: its powers, how to win, and that every other seat is a rival."""
    lines = [_("How to win: own {num} of the 34 supply centres after a Fall turn.").format(
                 num=board().victory)]
    if state["last_year"]:
        lines.append(_("The game ends after the Fall of {year}: the power with the most "
                       "supply centres then wins.").format(year=state["last_year"]))
    lines.append(_("Every Spring and Fall all powers order their units at once; dislodged "
                   "units then retreat, and each Winter a power builds or removes units "
                   "until it has as many as it owns supply centres."))
    return {"text": "\n".join(lines), "allies": []}


def board_text(view: dict) -> str:
    """The board as the judges list it: each power's supply centres and units, the neutral
    centres, the units dislodged and what each power owes in Winter."""
    lines = [_("Diplomacy, {when}").format(when=when_words(view["when"]))]
    for power in view["powers"]:
        count = len(power["centres"])
        head = ngettext("{power}, {num} supply centre", "{power}, {num} supply centres",
                        count).format(power=who(power["key"], power["seat"]), num=count)
        if power["owed"] > 0:
            head += ngettext(", builds {num}", ", builds {num}", power["owed"]).format(
                num=power["owed"])
        elif power["owed"] < 0:
            head += ngettext(", removes {num}", ", removes {num}", -power["owed"]).format(
                num=-power["owed"])
        lines += fold(_("{power}: {centres}").format(power=head,
                                                     centres=" ".join(power["centres"]) or "-"))
        if power["units"]:
            lines += fold("  " + ", ".join(power["units"]), indent="  ")
    if view["neutral"]:
        lines += fold(ngettext("Neutral supply centre ({num}): {centres}",
                               "Neutral supply centres ({num}): {centres}",
                               len(view["neutral"])).format(num=len(view["neutral"]),
                                                            centres=" ".join(view["neutral"])))
    for province, unit in sorted(view["dislodged"].items()):
        lines += fold(dislodged_words(province, unit))
    return "\n".join(lines)


def fold(line: str, indent: str = "    ") -> list[str]:
    """A line of the text board, folded within the text width."""
    return textwrap.wrap(line, WIDTH, subsequent_indent=indent, break_long_words=False,
                         break_on_hyphens=False) or [""]


def dislodged_words(province: str, unit: dict) -> str:
    """A dislodged unit, where it was attacked from and where it may go."""
    text = _("{unit} ({power}) dislodged from {province} by the unit from {attacker}").format(
        unit=unit_text(province, unit), power=power_words(board(), unit["power"]),
        province=province, attacker=unit["from"])
    if unit["retreats"]:
        return _("{unit}: may retreat to {places}").format(
            unit=text, places=either(unit["retreats"]))
    return _("{unit}: nowhere to retreat, disbanded").format(unit=text)


def either(choices: list) -> str:
    """Choices in words: "ALB", "ALB or TRI", "ALB, RUM or TRI"."""
    if len(choices) < 2:
        return "".join(choices)
    return _("{some} or {last}").format(some=", ".join(choices[:-1]), last=choices[-1])


def together(names: list) -> str:
    """Names together in words: "France", "France and Russia", "Austria, France and Russia"."""
    if len(names) < 2:
        return "".join(names)
    return _("{some} and {last}").format(some=", ".join(names[:-1]), last=names[-1])


def describe_orders(state: dict, seat: str, orders: dict) -> list[str]:
    """A seat's orders for the phase as it will be played, one line each in its words, and
    what happens to each of its units that has no order."""
    mine = seat_powers(state, seat)
    lang = current()
    lines = []
    for power in mine:
        lead = _("{power}: ").format(power=power_words(board(), power)) if len(mine) > 1 else ""
        given = orders.get(power, [])
        lines += [lead + order_text(order, lang) for order in given]
        lines += [lead + line for line in unordered(state, power, given)]
    return lines


def unordered(state: dict, power: str, given: list) -> list[str]:
    """What becomes of a power's units without orders: they hold, a dislodged one is
    disbanded; in Winter, builds not ordered are waived and removals are made for it."""
    position, said = state["position"], SAID[current()]
    ordered = {order["at"].partition("/")[0] for order in given if "at" in order}
    phase = position["phase"]
    if phase == "movement":
        return [_("{order} (no order: it holds)").format(
            order=f"{unit_text(p, position['units'][p])} {said['hold']}")
            for p in powers_units(position, power) if p not in ordered]
    if phase == "retreat":
        return [_("{order} (no order: it is disbanded)").format(
            order=f"{unit_text(p, u)} {said['disband']}")
            for p, u in sorted(position["dislodged"].items())
            if u["power"] == power and u["retreats"] and p not in ordered]
    owed = adjustment(position, power)
    if owed > 0 and free_homes(state, power):
        short = min(owed, len(free_homes(state, power))) - len(given)
        if short > 0:
            return [ngettext("{num} build not ordered: waived", "{num} builds not ordered: "
                             "waived", short).format(num=short)]
    if owed < 0:
        missing = max(-owed - len(ordered), 0)
        return [_("{order} (civil disorder: too few removals)").format(
            order=f"{said['remove']} {unit_text(p, position['units'][p])}")
            for p in disorder_removals(board(), position, power, missing, sorted(ordered))]
    return []


def whole(order: str) -> str:
    """An order kept on one line of a report: its spaces do not break."""
    return order.replace(" ", NBSP)


def result_words(result: dict) -> str:
    """One order and what became of it: "A PAR - BUR (bounced)", "A BUD H (no order)",
    "A BUD S A VIE - GAL (given)"; a hold that stood says no result."""
    order = whole(order_text(result["order"], current()))
    marks = [_("no order")] if result.get("default") else []
    said = VOID.get(result.get("why")) if result["result"] == "void" else None
    if said is None and result["result"] == "succeeded":
        said = HELPED.get(result["order"]["type"])
    if said is None and (result["result"] != "succeeded" or
                         result["order"]["type"] not in ("hold", "waive")):
        said = RESULTS[result["result"]]
    if said:
        marks.append(_(said))
    return _("{order} ({result})").format(order=order, result=", ".join(marks)) if marks \
        else order


def results_words(results: list) -> str:
    """A power's orders and their results, or, when it gave none and every unit stood,
    that its units held."""
    if all(r.get("default") and r["order"]["type"] == "hold" and r["result"] == "succeeded"
           for r in results):
        return _("no orders, every unit held: {units}").format(units=", ".join(
            whole(f"{r['order']['unit']} {r['order']['at']}") for r in results))
    return _("; ").join(result_words(r) for r in results)


def narrate(event, state=None) -> str | None:
    """One event as a sentence for the reports, in the current language (the game's state
    names nothing an event does not)."""
    p = event.payload
    kind = event.type
    if kind == "setup":
        return _("Who plays which power: {powers}.").format(powers=_("; ").join(
            who(power, seat) for power, seat in p["powers"].items()))
    if kind == "orders_resolved":
        return _("{when}, {power}: {orders}.").format(
            when=when_words(p), power=who(p["power"], p["seat"]),
            orders=results_words(p["results"]))
    if kind == "dislodged":
        return _("Dislodged: {units}.").format(units=_("; ").join(
            dislodged_words(province, unit) for province, unit in sorted(p["units"].items())))
    if kind == "standoffs":
        return ngettext("Standoff: {places} stays empty, and no unit may retreat there.",
                        "Standoffs: {places} stay empty, and no unit may retreat there.",
                        len(p["provinces"])).format(places=", ".join(
                            place_words(board(), province) for province in p["provinces"]))
    if kind == "centres_changed":
        return centres_words(p)
    if kind == "phase_begun":
        return None if p.get("final") else next_words(p["position"])
    if kind == "game_won":
        return _("{power} owns {num} supply centres and wins the game.").format(
            power=who(p["power"], p["seat"]), num=p["centres"][p["power"]])
    if kind == "game_ended":
        leaders = together([power_in_sentence(board(), power) for power in p["leaders"]])
        most = p["centres"][p["leaders"][0]]
        if p["reason"] == "years":
            return ngettext("The last year, {year}, is over: {powers} own the most supply "
                            "centres ({num}).", "The last year, {year}, is over: {powers} "
                            "own the most supply centres ({num}).", len(p["leaders"])).format(
                                year=p["year"], powers=leaders, num=most)
        return _("No player has a unit left to order: the game ends, {powers} owning the most "
                 "supply centres ({num}).").format(powers=leaders, num=most)
    return None


def centres_words(p: dict) -> str:
    """The supply centres that changed hands after a Fall, then the table of every power's
    centres with the change since last year, one power a line."""
    changes = []
    gained = dict.fromkeys(p["centres"], 0)
    for change in p["changes"]:
        gainer = power_in_sentence(board(), change["to"])
        gained[change["to"]] += 1
        if change["from"]:
            gained[change["from"]] -= 1
            changes.append(_("{centre} to {power} (from {loser})").format(
                centre=change["centre"], power=gainer,
                loser=power_in_sentence(board(), change["from"])))
        else:
            changes.append(_("{centre} to {power}").format(centre=change["centre"],
                                                           power=gainer))
    head = _("Supply centres after the Fall of {year}: {changes}.").format(
        year=p["year"], changes=_("; ").join(changes)) if changes else \
        _("Supply centres after the Fall of {year}: none changed hands.").format(year=p["year"])
    rows = [(power_words(board(), power), count, gained[power])
            for power, count in p["centres"].items() if count or gained[power]]
    width = max(len(name) for name, _count, _change in rows)
    return "\n".join([head, _("Centres, and the change since last year:")] + [
        f"{name.ljust(width)} {count:>2}  {change:+d}" if change else
        f"{name.ljust(width)} {count:>2}   =" for name, count, change in rows])



def next_words(position: dict) -> str:
    """What the next phase asks: every power's orders, the retreats owed, the builds and
    removals owed."""
    when = when_words(position)
    if position["phase"] == "movement":
        return _("Next: {when}; every power orders its units.").format(when=when)
    if position["phase"] == "retreat":
        owed = [unit_text(p, u) for p, u in sorted(position["dislodged"].items())
                if u["retreats"]]
        return ngettext("Next: {when}; {units} must retreat or disband.",
                        "Next: {when}; {units} must retreat or disband.", len(owed)).format(
                            when=when, units=", ".join(owed))
    owed = []
    for power in board().powers:
        count = adjustment(position, power)
        if count > 0:
            owed.append(ngettext("{power} builds {num}", "{power} builds {num}", count).format(
                power=power_in_sentence(board(), power), num=count))
        elif count < 0:
            owed.append(ngettext("{power} removes {num}", "{power} removes {num}",
                                 -count).format(power=power_in_sentence(board(), power), num=-count))
    return _("Next: {when}; {owed}.").format(when=when, owed=_("; ").join(owed))
