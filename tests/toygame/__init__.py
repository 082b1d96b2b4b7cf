"""Duel: a toy game that exercises the engine's tools for games played partly off the board.

Two duelists fight on a table and report the result; when they disagree the
referee rules; a judge seat (option ``judge``) then rules who fought with
honour; one seat's orders may come from another's mails (option
``vassal=SEAT:OVERLORD``); each seat holds a secret only it sees, on its own
board. Used by tests/test_engine_tools.py only.
"""

from pbem.adjudicator.contract import REFEREE, Request, private, public
from pbem.adjudicator.results import agreed, parse_result
from pbem.adjudicator.rulings import parse_ruling, ruling_request

TITLE = "Duel"
SUMMARY = "two duelists report a fight; the referee settles disputes"
DEMO_SEATS = ["ann", "bob", "cat"]
OPTIONS = {"judge": "the seat that rules on honour", "vassal": "SEAT:OVERLORD"}
SEAT_BOARDS = True


def setup(options, seats, rng, position=None):
    """Who duels, who judges, who orders for whom, and each seat's secret."""
    judge = options.get("judge")
    vassal = dict([options["vassal"].split(":")]) if options.get("vassal") else {}
    duelists = [s for s in seats if s != judge][:2]
    events = [public("setup", seats=seats, duelists=duelists, judge=judge, vassal=vassal)]
    events += [private([s], "secret_dealt", seat=s, secret=rng.below(100)) for s in seats]
    return events


def apply(state, event):
    """The reducer."""
    p = event.payload
    if event.type == "setup":
        return {"seats": p["seats"], "duelists": p["duelists"], "judge": p["judge"],
                "vassal": p["vassal"], "stage": "report", "winner": None, "honour": None,
                "secrets": {}}
    if event.type == "secret_dealt":
        state["secrets"][p["seat"]] = p["secret"]
    elif event.type == "disputed":
        state["stage"] = "dispute"
    elif event.type == "duel_won":
        state["winner"] = p["winner"]
        state["stage"] = "honour" if state["judge"] else "over"
    elif event.type == "honour_given":
        state["honour"] = p["seat"]
        state["stage"] = "over"
    return state


def pending(state):
    """The duelists report; the referee settles a dispute; the judge rules on honour."""
    duelists = state["duelists"]
    if state["stage"] == "report":
        return {d: Request("result", "Report the duel: RESULT WON or RESULT LOST")
                for d in duelists}
    if state["stage"] == "dispute":
        return {REFEREE: ruling_request("The duelists disagree: who won the duel?",
                                        {"winner": duelists}, concerns=duelists)}
    if state["stage"] == "honour":
        return {state["judge"]: ruling_request("Who fought with honour?",
                                               {"honour": duelists}, hours=6)}
    return {}


def parse(state, seat, text):
    """A duelist's report, or the judge's ruling."""
    if state["stage"] == "honour":
        return parse_ruling(text, {"honour": state["duelists"]}, by=seat)
    return parse_result(text)


def default_orders(state, seat):
    """A silent duelist reports nothing; a silent judge honours the first duelist."""
    if state["stage"] == "honour":
        return {"set": {"honour": state["duelists"][0]}, "text": "", "by": seat}
    return None


def resolve(state, orders, rng):
    """Agreeing reports name the winner; disagreement goes to the referee."""
    duelists = state["duelists"]
    if state["stage"] == "report":
        facts = {}
        for seat in duelists:
            report = orders.get(seat)
            if report is not None:
                other = duelists[1 - duelists.index(seat)]
                facts[seat] = seat if report["outcome"] == "won" else other
            else:
                facts[seat] = None
        winner = agreed(facts)
        if winner is None:
            return [private(duelists, "disputed", claims=facts)]
        return [public("duel_won", winner=winner, by="agreement")]
    if state["stage"] == "dispute":
        return [public("duel_won", winner=orders[REFEREE]["set"]["winner"], by="ruling")]
    return [public("honour_given", seat=orders[state["judge"]]["set"]["honour"])]


def outcome(state):
    """Over once the duel (and the honour, with a judge) is settled."""
    if state["stage"] != "over":
        return None
    return {"winners": [state["winner"]], "reason": "won the duel"}


def view(state, seat):
    """Public: the stage and the results; a seat also sees its own secret."""
    shown = {"stage": state["stage"], "winner": state["winner"], "honour": state["honour"]}
    if seat in state["secrets"]:
        shown["secret"] = state["secrets"][seat]
    return shown


def controller(state, seat):
    """The overlord whose mails give this seat's orders, if any."""
    return state["vassal"].get(seat)


def describe_orders(state, seat, orders):
    """Orders in words."""
    if orders is None:
        return ["no report"]
    if "set" in orders:
        return [f"honour to {orders['set']['honour']}"]
    return [f"result: {orders['outcome']}"]


def narrate(event, state=None):
    """Events in words (the state names nothing an event does not)."""
    p = event.payload
    return {"disputed": lambda: f"the reports disagree: {p['claims']}",
            "duel_won": lambda: f"{p['winner']} won the duel",
            "honour_given": lambda: f"{p['seat']} fought with honour",
            "secret_dealt": lambda: f"your secret is {p['secret']}"}.get(
        event.type, lambda: None)()


def board_text(view):
    """The board: the stage, and the secret when the view holds one."""
    secret = f"\nsecret: {view['secret']}" if "secret" in view else ""
    return f"duel: {view['stage']}{secret}"


def svg_context(view):
    """Nothing beyond the view."""
    return {}


def timing(options):
    """The engine's defaults."""
    return {}


def bot_orders(state, seat, rng):
    """Every bot claims the win."""
    return "RESULT WON"
