"""The end of the game: the barbarian's judgement and the record of agreements.

Every agreement (a parley's, a peace) is kept in the state with its parties,
their words and its turn. pbem marks a peace broken when one of its parties
later declares war on the other; the barbarian's final ruling may name other
breaches (``broken 2 5``). The winner is published with the whole record.
"""

from pbem.adjudicator.contract import public

from .seasons import default_winner


def judge_the_game(run, ruling: dict) -> None:
    """The barbarian names the winner (silent: the lord with the most prestige wins); every
    agreement is published, kept or broken."""
    state = run.state
    winner = ruling.get("set", {}).get("winner")
    if winner not in state["lords"]:
        winner = default_winner(state)
    numbers = {a["id"] for a in state["agreements"]}
    for number in sorted(set(ruling.get("broken") or []) & numbers):
        agreement = next(a for a in run.state["agreements"] if a["id"] == number)
        if not agreement.get("broken"):
            run.emit(public("agreement_broken", id=number, by=None, turn=state["turn"],
                            how="judged"))
    for agreement in run.state["agreements"]:
        run.emit(public("agreement_recorded", agreement=dict(agreement)))
    run.emit(public("game_decided", winners=[winner],
                    reason="prestige" if ruling.get("silent") else "judged",
                    text=ruling.get("text", ""), by=ruling.get("by")))
    run.emit(public("stage_set", stage="over", round=None, turn=state["turn"]))
