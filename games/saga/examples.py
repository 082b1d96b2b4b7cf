"""The order examples a seat's HELP shows: turn orders it could really send, in its words.

Each example that names an army, a zone, units or a seat is built from the
seat's own realm (its armies, where they stand, what they hold, its
captives) in the reader's language, and kept only if the game's parser reads
it as an order of the seat's turn in this position without an error. When
the seat has nothing that fits (before its armies are chosen, say), the
fixed example of the syntax is shown instead. Armies are tried by name and
zones in map order, so the same position always gives the same examples.
"""

from pbem.i18n import N_, _, ngettext

from .material import UNIT_TYPES, unit_name
from .moves import captives
from .orders import Reader, words
from .rules import scout_targets
from .state import board_of, new_turn, zones_of

# Names for the new army of a split example, in the reader's words (no unit word, no
# accent: a name is kept as it is read).
NEW_NAMES = (N_("raiders"), N_("band"), N_("riders"), N_("troop"))
# One unit of a type, as an order writes it ("1 levy", "1 levée").
ONE_UNIT = {"hearthguards": N_("hearthguard"), "warriors": N_("warrior"), "levies": N_("levy")}


def examples(state, seat) -> dict:
    """{row: text} for the HELP: an order of each kind this seat could send on its turn.

    Every value is a string in the current language.
    """
    out = {"move": _("move host Jorvik"), "scout": _("scout Mercia"),
           "merge": _("army host+reserve"), "split": _("split host 2 raiders"),
           "split_text": _("2 units (the cheapest) leave host"),
           "split_units": _("split host 1 warriors band"),
           "recruit": _("recruit warriors Jorvik"), "disband": _("disband host 1 levies"),
           "captives": _("ransom / release bob")}
    if not state["turn"] or seat not in state["armies"] or not state["armies"][seat]:
        return out
    turn = state["turn"]
    if turn["seat"] != seat:    # another's turn is none of its business: as at its own
        state = {**state, "turn": new_turn(turn["number"], turn["round"], seat)}
    for key, candidates in (("move", moves), ("scout", scouts), ("merge", merges),
                            ("split_units", named_splits),
                            ("recruit", recruits), ("disband", disbands)):
        found = next((line for line in candidates(state, seat) if reads(state, seat, line)),
                     None)
        if found:
            out[key] = found
    split = next((s for s in splits(state, seat) if reads(state, seat, s["line"])), None)
    if split:
        out["split"] = split["line"]
        out["split_text"] = ngettext("{number} unit (the cheapest) leaves {army}",
                                     "{number} units (the cheapest) leave {army}",
                                     split["number"]).format(**split)
    lords = [line for line in [_("ransom")] + [_("release {seat}").format(seat=s)
                                                for s in captives(state, seat)]
             if reads(state, seat, line)]
    if lords:
        out["captives"] = " / ".join(lords)
    return out


def reads(state, seat, line: str) -> bool:
    """Does the game's parser read this line as an order of the seat's turn, without an error?"""
    reader = Reader(state, seat, "orders")
    reader.line(1, line, words(line))
    return not reader.finish()[1]


def armies(state, seat) -> list[tuple[str, dict]]:
    """The seat's armies, by name."""
    return sorted(state["armies"][seat].items())


def unit_word(kind: str, number: int = 2) -> str:
    """A unit type as an order writes it in the current language ('warriors', 'guerrier')."""
    return _(ONE_UNIT[kind]) if number == 1 else unit_name(kind).lower()


def moves(state, seat):
    board = board_of(state)
    for name, army in armies(state, seat):
        for zone in board.neighbours[army["zone"]]:
            yield _("move {army} {zone}").format(army=name, zone=zone)


def scouts(state, seat):
    for zone in scout_targets(state, seat):
        yield _("scout {zone}").format(zone=zone)


def merges(state, seat):
    for name, army in armies(state, seat):
        for other, there in armies(state, seat):
            if other != name and there["zone"] == army["zone"]:
                yield _("army {army}+{other}").format(army=name, other=other)


def free_names(state, seat) -> list[str]:
    """Names no army of the seat has yet, for the new army of a split."""
    return [name for name in map(_, NEW_NAMES) if name not in state["armies"][seat]]


def splits(state, seat):
    for new in free_names(state, seat)[:1]:
        for name, _army in armies(state, seat):
            for count in (2, 1):
                yield {"line": _("split {army} {number} {new}").format(
                    army=name, number=count, new=new), "army": name, "number": count}


def named_splits(state, seat):
    for new in free_names(state, seat)[1:2]:
        for name, army in armies(state, seat):
            for kind in reversed(UNIT_TYPES):
                if army["units"].get(kind):
                    yield _("split {army} 1 {units} {new}").format(
                        army=name, units=unit_word(kind, 1), new=new)


def recruits(state, seat):
    for zone in zones_of(state, seat):
        yield _("recruit {units} {zone}").format(units=unit_word("warriors"), zone=zone)


def disbands(state, seat):
    for name, army in armies(state, seat):
        for kind in reversed(UNIT_TYPES):
            if army["units"].get(kind):
                yield _("disband {army} 1 {units}").format(army=name, units=unit_word(kind, 1))
