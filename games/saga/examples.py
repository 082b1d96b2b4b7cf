"""The order examples a seat's HELP shows: orders it could really send now, in its words.

They are the first order of each line of what the seat may send now
(choices.py), built from its own realm (its armies, where they stand, what
they hold, its captives) in the reader's language, each read by the game's
parser from that seat in that position; with what each does. A seat asked
nothing now is shown its next turn's, as if it were its turn.
"""

from pbem.i18n import N_, _

from .choices import choices
from .orders import VERBS, reads, words
from .rules import pending
from .state import new_turn

# What each kind of order does, as the HELP says it.
SAYS = {"move": N_("an army moves to an adjacent zone"),
        "scout": N_("fog of war: scout before your move out"),
        "stay": N_("no move out: stay where you are"),
        "merge": N_("merge two armies in one zone"),
        "split": N_("units leave an army as a new one"),
        "recruit": N_("at upkeep: 5 gold a unit"),
        "disband": N_("units leave your army"),
        "ransom": N_("buy your captive Lord back"),
        "release": N_("free a captive Lord"),
        "retreat": N_("where your army goes"),
        "withdraw": N_("an army leaves before the battle"),
        "fight": N_("every army there fights, as one"),
        "scenario": N_("the battle's scenario"),
        "lose": N_("the units you lose"),
        "promote": N_("a unit one step up, or none"),
        "faction": N_("your faction"), "homeland": N_("your homeland"),
        "host": N_("your Main Host"), "reserve": N_("your Reserve")}


def examples(state, seat) -> list[dict]:
    """[{"order", "says"}] for the HELP: an order of each line the seat may send now."""
    kind = asked(state, seat)
    if kind is None:
        return []
    if seat not in pending(state):     # its next turn, as if it were its turn now
        turn = state["turn"]
        state = {**state, "turn": new_turn(turn["number"], turn["round"], seat)}
    rows = []
    for choice in choices(state, seat, kind, reads):
        for order in choice["orders"][0].split("\n"):
            if not reads(state, seat, order):
                continue    # a part of a pair that needs the other (a homeland)
            verb = VERBS.get(words(order)[0])
            says = _(SAYS[verb]) if verb in SAYS else _("your battle's result")
            if all(row["order"] != order for row in rows):
                rows.append({"order": order, "says": says})
    return rows


def asked(state, seat) -> str | None:
    """What the seat answers now (its next turn's orders when it is asked nothing)."""
    request = pending(state).get(seat)
    if request is not None:
        return "result" if request.kind == "result" else request.kind
    if state["stage"] == "campaign" and seat in state["factions"] and state["armies"][seat]:
        return "orders"
    return None
