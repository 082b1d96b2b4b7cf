"""A movement phase: every order of a Spring or Fall turn resolved at once.

The resolution is the DATC's (section 5, Lucas Kruijswijk): each move,
support and convoy route is a yes-or-no *decision* that depends on others
through the strengths below. A decision is resolved by guessing: guess it
fails and work out what follows; if the answer never looked at the guess,
it stands. If it did, guess again that it succeeds: when both guesses give
the same answer, that is the answer; when they differ (two consistent
outcomes, or none) the decisions caught in the cycle get the backup rule:
a cycle through a convoy route is a convoy paradox, settled by the Szykman
rule (the convoys in the cycle fail, so their armies neither move nor cut
support); any other cycle is circular movement, and its moves succeed.

    attack strength   1 + supports, 0 if the route failed; against a unit that
                      stays, 0 if it is the attacker's own and without the
                      supports of its owner
    hold strength     0 for an empty province or a unit that moves away,
                      1 if its move failed, else 1 + hold supports
    defend strength   1 + supports, of a unit in a head-to-head battle
    prevent strength  1 + supports of a rival move to the same province, 0 if
                      its route failed or it lost its head-to-head battle

A move succeeds when its attack beats the hold strength of its destination
(the defend strength of the unit coming the other way, in a head-to-head
battle: two units swapping over land) and the prevent strength of every
rival. A support is cut by a foreign unit moving against the supporter
(unless from the province the support goes into), or when the supporter is
dislodged. A convoyed army gets there when some chain of its convoying
fleets, none of them dislodged, leads there. An army is convoyed when it
cannot go by land, when ordered VIA CONVOY, or when a fleet of its own power
convoys it (DATC 4.A.3, the 2023 rules); a move by convoy never falls back
to the land route.
"""

from .board import ARMY, Board, coast_of, province_of
from .orders import Refused, check_movement
from .position import next_phase, place_of, retreat_places, unit_record

UNRESOLVED, GUESSING, RESOLVED = 0, 1, 2


class Guesses:
    """Kruijswijk's guess-and-check resolver over yes-or-no decisions."""

    def __init__(self, adjudicate, backup):
        self.adjudicate = adjudicate  # decision -> bool, calling resolve() for what it needs
        self.backup = backup          # the decisions of a cycle -> {decision: bool} it settles
        self.state = {}
        self.value = {}
        self.depends = []

    def resolve(self, decision) -> bool:
        """The decision's outcome, guessing through cycles and settling paradoxes."""
        state = self.state.get(decision, UNRESOLVED)
        if state == RESOLVED:
            return self.value[decision]
        if state == GUESSING:
            if decision not in self.depends:
                self.depends.append(decision)
            return self.value[decision]
        before = len(self.depends)
        self.value[decision], self.state[decision] = False, GUESSING
        first = self.adjudicate(decision)
        if len(self.depends) == before:
            if self.state[decision] != RESOLVED:
                self.value[decision], self.state[decision] = first, RESOLVED
            return self.value[decision]
        if self.depends[before] != decision:
            self.depends.append(decision)
            self.value[decision] = first
            return first
        self._forget(before)
        self.value[decision], self.state[decision] = True, GUESSING
        second = self.adjudicate(decision)
        if first == second:
            self._forget(before)
            self.value[decision], self.state[decision] = first, RESOLVED
            return first
        cycle = self.depends[before:]
        self._forget(before)
        for settled, outcome in self.backup(cycle).items():
            self.value[settled], self.state[settled] = outcome, RESOLVED
        return self.resolve(decision)

    def _forget(self, before: int):
        for decision in self.depends[before:]:
            self.state[decision] = UNRESOLVED
        del self.depends[before:]


def backup_rule(cycle) -> dict:
    """Szykman for a convoy paradox (its routes fail), else circular movement (moves succeed)."""
    routes = [d for d in cycle if d[0] == "route"]
    if routes:
        return {d: False for d in routes}
    moves = [d for d in cycle if d[0] == "move"]
    return {d: True for d in moves} if moves else {d: False for d in cycle}


class Movement:
    """One movement phase: the orders as played, their decisions and what follows."""

    def __init__(self, board: Board, position: dict, orders: dict):
        self.board, self.position = board, position
        self.units = position["units"]
        self.orders, self.defaults = self._orders(orders)
        self.convoys, self.stranded, self.void = {}, set(), {}
        self._match()
        self.moves_to, self.supporters = {}, {}
        for province, order in sorted(self.orders.items()):
            if order["type"] == "move":
                self.moves_to.setdefault(province_of(order["to"]), []).append(province)
            elif order["type"] == "support" and province not in self.void:
                self.supporters.setdefault(province_of(order["of"]), []).append(province)
        self.guesses = Guesses(self._adjudicate, backup_rule)

    def _orders(self, given: dict) -> tuple:
        """Each unit's order by province, and the provinces of the units holding by default
        (given no order, or none that could be given, or two)."""
        orders, defaults, seen = {}, set(), {}
        for power in sorted(given):
            for order in given[power]:
                province = province_of(order.get("at", ""))
                try:
                    order = check_movement(self.board, self.position, power, order)
                except (Refused, KeyError):
                    continue
                seen.setdefault(province, []).append(order)
        for province, unit in sorted(self.units.items()):
            chosen = seen.get(province, [])
            if len(chosen) == 1:
                orders[province] = chosen[0]
                continue
            orders[province] = {"type": "hold", "unit": unit["type"],
                                "at": place_of(province, unit)}
            defaults.add(province)
        return orders, defaults

    def _match(self):
        """Which moves go by convoy and the fleets convoying each (self.convoys), which have
        no route at all (self.stranded), which supports and convoys are void because the
        unit they help was ordered otherwise (self.void)."""
        intent = {(province_of(o["of"]), o["to"], self.units[p]["power"])
                  for p, o in self.orders.items() if o["type"] == "convoy"}
        for origin, order in self.orders.items():
            if order["type"] != "move" or order["unit"] != ARMY:
                continue
            to = order["to"]
            if order.get("via") or to not in self.board.army[origin] or \
                    (origin, to, self.units[origin]["power"]) in intent:
                self.convoys[origin] = []
        for province, order in sorted(self.orders.items()):
            target = self.orders.get(province_of(order.get("of", "")))
            if order["type"] == "support":
                if "to" in order:
                    matched = target["type"] == "move" and \
                        province_of(target["to"]) == province_of(order["to"]) and \
                        (not coast_of(order["to"]) or target["to"] == order["to"])
                else:
                    matched = target["type"] != "move"
                if not matched:
                    self.void[province] = "unmatched"
            elif order["type"] == "convoy":
                of = province_of(order["of"])
                if target["type"] != "move" or target["to"] != order["to"]:
                    self.void[province] = "unmatched"
                elif of not in self.convoys:
                    self.void[province] = "overland"
                else:
                    self.convoys[of].append(province)
        for origin, fleets in self.convoys.items():
            if not self.board.convoy_route(origin, self.orders[origin]["to"], fleets):
                self.stranded.add(origin)

    # The strengths and decisions of DATC section 5.

    def resolve(self, decision) -> bool:
        """A decision's outcome: ("move" | "support" | "route", province)."""
        return self.guesses.resolve(decision)

    def _adjudicate(self, decision) -> bool:
        kind, province = decision
        if kind == "move":
            return self._move_succeeds(province)
        if kind == "support":
            return self._support_given(province)
        return self._route_open(province)

    def _route_open(self, origin: str) -> bool:
        if origin in self.stranded:
            return False
        fleets = [f for f in self.convoys[origin] if not self.dislodged(f)]
        return self.board.convoy_route(origin, self.orders[origin]["to"], fleets)

    def _moves(self, origin: str) -> bool:
        """Does the unit at `origin` get where it is ordered to go? (False unless it moves.)"""
        order = self.orders.get(origin)
        return bool(order) and order["type"] == "move" and self.resolve(("move", origin))

    def dislodged(self, province: str) -> bool:
        """Is the unit in the province dislodged (it stays, and a move into it succeeds)?"""
        if self._moves(province):
            return False
        return any(self.resolve(("move", m)) for m in self.moves_to.get(province, ()))

    def _route(self, origin: str) -> bool:
        """Does the move from `origin` get its way there (by land, or by an open route)?"""
        return origin not in self.convoys or self.resolve(("route", origin))

    def _supports(self, province: str, but: str | None = None) -> int:
        """Supports given to the unit in the province (not those of power `but`)."""
        return sum(1 for s in self.supporters.get(province, ())
                   if self.units[s]["power"] != but and self.resolve(("support", s)))

    def _opponent(self, origin: str) -> str | None:
        """The unit moving the other way in a head-to-head battle (both by land), or None."""
        to = province_of(self.orders[origin]["to"])
        other = self.orders.get(to)
        if other and other["type"] == "move" and province_of(other["to"]) == origin and \
                origin not in self.convoys and to not in self.convoys:
            return to
        return None

    def attack(self, origin: str) -> int:
        """The attack strength of the move from `origin`."""
        if not self._route(origin):
            return 0
        to = province_of(self.orders[origin]["to"])
        defender = self.units.get(to)
        if defender is None or self._moves(to):
            return 1 + self._supports(origin)
        if defender["power"] == self.units[origin]["power"]:
            return 0
        return 1 + self._supports(origin, but=defender["power"])

    def hold(self, province: str) -> int:
        """The hold strength of a province."""
        if province not in self.units:
            return 0
        if self.orders[province]["type"] == "move":
            return 0 if self.resolve(("move", province)) else 1
        return 1 + self._supports(province)

    def prevent(self, origin: str) -> int:
        """The prevent strength of the move from `origin` against its rivals."""
        if not self._route(origin):
            return 0
        opponent = self._opponent(origin)
        if opponent and self.resolve(("move", opponent)):
            return 0
        return 1 + self._supports(origin)

    def _move_succeeds(self, origin: str) -> bool:
        if not self._route(origin):
            return False
        strength = self.attack(origin)
        opponent = self._opponent(origin)
        to = province_of(self.orders[origin]["to"])
        if opponent:
            if strength <= 1 + self._supports(opponent):
                return False
        elif strength <= self.hold(to):
            return False
        return all(strength > self.prevent(rival)
                   for rival in self.moves_to[to] if rival != origin)

    def _support_given(self, province: str) -> bool:
        order, power = self.orders[province], self.units[province]["power"]
        into = province_of(order["to"]) if "to" in order else None
        for attacker in self.moves_to.get(province, ()):
            if self.units[attacker]["power"] != power and attacker != into and \
                    self._route(attacker):
                return False
        return not self.dislodged(province)

    # What follows.

    def outcome(self) -> dict:
        """The phase's results, dislodged units, standoffs and the next position."""
        for origin in sorted(self.orders):
            if self.orders[origin]["type"] == "move":
                self.resolve(("move", origin))
        dislodged = {p: self._dislodgement(p) for p in sorted(self.units) if self.dislodged(p)}
        units = {}
        for province, unit in sorted(self.units.items()):
            order = self.orders[province]
            if order["type"] == "move" and self.resolve(("move", province)):
                to = order["to"]
                units[province_of(to)] = unit_record(unit["power"], unit["type"], to)
            elif province not in dislodged:
                units.setdefault(province, unit)
        contested = sorted(p for p, rivals in self.moves_to.items()
                           if p not in units and any(self.prevent(r) for r in rivals))
        for province, unit in dislodged.items():
            unit["retreats"] = retreat_places(self.board, province, unit, units, contested)
        after = {**self.position, "units": dict(sorted(units.items()))}
        report = {"results": self._results(dislodged), "contested": contested,
                  "dislodged": dislodged, "disbanded": []}
        if any(unit["retreats"] for unit in dislodged.values()):
            report["position"] = {**after, "phase": "retreat", "dislodged": dislodged}
        else:
            report["disbanded"] = sorted(dislodged)
            report["position"] = next_phase(self.board, after)
        return report

    def _dislodgement(self, province: str) -> dict:
        winner = next(m for m in self.moves_to[province] if self.resolve(("move", m)))
        unit = dict(self.units[province])
        return {**unit, "from": winner, "convoyed": winner in self.convoys}

    def _results(self, dislodged: dict) -> list:
        results = []
        for province, order in sorted(self.orders.items()):
            result = {"power": self.units[province]["power"], "order": order,
                      "result": self._result(province, order, dislodged)}
            if province in self.void and result["result"] == "void":
                result["why"] = self.void[province]
            if province in self.defaults:
                result["default"] = True
            results.append(result)
        return results

    def _result(self, province: str, order: dict, dislodged: dict) -> str:
        if province in dislodged:
            return "dislodged"
        kind = order["type"]
        if kind == "move":
            if self.resolve(("move", province)):
                return "succeeded"
            return "bounced" if self._route(province) else "no convoy"
        if province in self.void:
            return "void"
        if kind == "support":
            return "succeeded" if self.resolve(("support", province)) else "cut"
        if kind == "convoy":
            return "succeeded" if self._route(province_of(order["of"])) else "no convoy"
        return "succeeded"


def resolve(board: Board, position: dict, orders: dict) -> dict:
    """Resolve a movement phase: orders = {power: [order, ...]} (checked or not; an order
    that cannot be given is left out, and its unit holds). Returns {"position": the next
    phase's position, "results": [...], "dislodged": {province: unit and its retreats},
    "contested": [provinces left empty by a standoff], "disbanded": [provinces whose
    dislodged unit had nowhere to go]}."""
    return Movement(board, position, orders).outcome()
