"""The phases of Seigneurs, in order, and who is asked what in each.

    villages      setup: each lord names its two village tiles
    farms         setup: each lord places 5 farms, the barbarian 3 free farms
    taxation      economy, round after round (round 1 also asks the domain's production)
    opposition    warriors sent to oppose or support the round's claims, round after round
    parley        the parties of an opposed claim agree or fight
    combat        a fight's round: victims, kill, stop (economy or war)
    event         the barbarian chooses the event card
    market        offers, answers and merchants, round after round
    construction  projects, forge, warriors raised and armed, church gifts
    movement      war: wars declared, peace, moves, departures, recruits
    aftermath     pillage or raze; peace for a lord about to lose its lineage
    growth        farms with 4 resources found new farms
    revolt        the barbarian rules which farms turn free (a ruling)
    judgement     the barbarian names the winner (a ruling)

Between them, production, invasion, pilgrimage and the revolts' draws
happen by themselves. A phase resolves, then :func:`advance` runs every
automatic step until a phase must ask someone again.
"""

from pbem.adjudicator import rounds
from pbem.adjudicator.contract import Request, private, public
from pbem.adjudicator.editions import edition
from pbem.adjudicator.rulings import ruling_request
from pbem.i18n import N_, _

from . import development, economy, founding, seasons, war
from .material import valley
from .record import judge_the_game
from .rules import card, place_of, secret_for
from .runner import Runner

# The words of the barbarian's rulings, as seats read and write them (a revolt's
# keys are a lord's farms, "ann-1", and its values tiles: they need none).
RULING_WORDS = {"winner": N_("winner")}
PROMPTS = {
    "villages": N_("Setup: name your two village tiles"),
    "farms": N_("Setup: place your farms"),
    "taxation": N_("Economy: tax, swear an oath, or pass"),
    "opposition": N_("Economy: oppose or support the claims with warriors, or pass"),
    "parley": N_("Economy: agree or fight over the opposed claims"),
    "combat": N_("Combat: choose your victims, or stop"),
    "event": N_("Development: choose the event card"),
    "market": N_("Market: offers, answers and merchants"),
    "construction": N_("Development: build, forge, raise and arm"),
    "movement": N_("War: move your warriors"),
    "aftermath": N_("War: pillage or raze, or make peace"),
    "growth": N_("Growth: found new farms"),
    "revolt": N_("Revolt: which farms turn free?"),
    "judgement": N_("The end: name the winner"),
}
ROUND_STAGES = ("opposition", "parley", "combat", "event", "aftermath", "growth", "revolt")


# ---------------------------------------------------------------- who is asked


def asked(state) -> list[str]:
    """The seats the open phase asks, in seat order."""
    stage = state["stage"]
    lords, barbarian = state["lords"], state["barbarian"]
    if state["result"] or stage == "over":
        return []
    if stage == "villages":
        return list(lords)
    if stage in ("farms", "market", "movement"):
        return list(state["seats"])
    if stage in ("taxation", "construction"):
        return list(lords)
    if stage == "opposition":
        return economy.opposers_asked(state)
    if stage == "parley":
        involved = {s for c in economy.contested(state) for s in economy.parties(state, c)}
        return [s for s in state["seats"] if s in involved]
    if stage == "combat":
        involved = {s for p in state["fights"] for s in war.fighters(state, p)}
        return [s for s in state["seats"] if s in involved]
    if stage == "aftermath":
        return war.aftermath_asked(state)
    if stage == "growth":
        return seasons.growth_asked(state)
    return [barbarian]


def revolt_choices(state) -> dict:
    """The ruling's keys for the farms that turn free: "ann-1" = a farm of ann's."""
    choices = {}
    for entry in state["freeing"]:
        words = [t.lower() for t in seasons.candidates(state, entry["lord"])]
        words = sorted(set(words))
        for i in range(1, entry["count"] + 1):
            choices[f"{entry['lord']}-{i}"] = words
    return choices


def pending(state) -> dict:
    """{seat: Request} for the open phase."""
    stage = state["stage"]
    seats = asked(state)
    if not seats:
        return {}
    number = (state.get("round") or {}).get("number", 1)
    hours = state["round_hours"] if stage in ROUND_STAGES or number > 1 else None
    if stage == "revolt":
        return {state["barbarian"]: ruling_request(prompt("revolt"),
                                                   revolt_choices(state), hours=hours)}
    if stage == "judgement":
        return {state["barbarian"]: ruling_request(prompt("judgement"),
                                                   {"winner": list(state["lords"])})}
    return {seat: Request("orders", prompt(stage), hours=hours) for seat in seats}


def prompt(stage: str) -> str:
    """What a stage asks, in the current language (the log keeps it in English)."""
    return _(PROMPTS[stage])


def default_orders(state, seat) -> dict:
    """What a silent seat does: pass (the rules' defaults are applied when resolving)."""
    if state["stage"] == "revolt":
        return {"set": {}, "text": "", "by": seat}
    if state["stage"] == "judgement":  # the first edition did not say the barbarian was silent
        return {"set": {"winner": seasons.default_winner(state)}, "text": "", "by": seat,
                "broken": [], **({"silent": True} if edition(state) >= 2 else {})}
    return {}


def outcome(state) -> dict | None:
    """Who won, once the game is over."""
    return dict(state["result"]) if state["result"] else None


# ---------------------------------------------------------------- resolving a phase

def resolve(state, orders, rng) -> list:
    """The events of the open phase and of every automatic step after it."""
    run = Runner(state, rng)
    RESOLVERS[state["stage"]](run, orders)
    return run.events


def set_stage(run, stage: str, order=None, round_number=None) -> None:
    """Open a stage (a round-repeating one with its round)."""
    state = run.state
    if order is None:
        record = None
    elif round_number is None:
        record = rounds.start(stage, order)
    else:
        record = {**rounds.start(stage, order), "number": round_number}
    run.emit(public("stage_set", stage=stage, round=record, turn=state["turn"]))


def next_round(run, stage: str) -> None:
    """The same stage again, one round later."""
    number = (run.state["round"] or {}).get("number", 1) + 1
    set_stage(run, stage, run.state["lords"] if stage != "market" else run.state["seats"],
              number)


# -- setup

def resolve_villages(run, orders) -> None:
    founding.place_villages(run, orders)
    set_stage(run, "farms")


def resolve_farms(run, orders) -> None:
    founding.place_farms(run, orders)
    begin_turn(run, 1)


def begin_turn(run, number: int) -> None:
    """A new turn: warriors back in action, production, the first taxation round."""
    run.emit(public("turn_began", turn=number))
    economy.production(run)
    set_stage(run, "taxation", run.state["lords"], 1)


# -- economy

def resolve_taxation(run, orders) -> None:
    if not economy.taxation_round(run, orders):
        end_economy(run)
    elif economy.opposers_asked(run.state):
        set_stage(run, "opposition", run.state["lords"], 1)
    else:
        after_opposition(run)


def resolve_opposition(run, orders) -> None:
    if economy.opposition_round(run, orders) and economy.opposers_asked(run.state):
        next_round(run, "opposition")
    else:
        after_opposition(run)


def after_opposition(run) -> None:
    """Opposed claims go to the parley; unopposed ones are carried out."""
    if economy.contested(run.state):
        set_stage(run, "parley")
    else:
        after_claims(run)


def resolve_parley(run, orders) -> None:
    fights = economy.parley(run, orders)
    for place in fights:
        claim = next(c for c in economy.open_claims(run.state) if c["place"] == place)
        war.begin(run, place, "economy", sides=claim["sides"], claim=claim["id"])
    start_combat(run, lambda: after_claims(run))


def after_claims(run) -> None:
    """The round's claims are carried out; the next taxation round."""
    economy.carry_out(run)
    next_round(run, "taxation")


def end_economy(run) -> None:
    """Development: the barbarian's event card (if any is left), then the market."""
    if run.state["deck"]:
        set_stage(run, "event")
    else:
        set_stage(run, "market", run.state["seats"], 1)


# -- fights

def start_combat(run, then) -> None:
    """Roll the first round of every fight; ask for victims, or go on."""
    war.roll_all(run)
    if run.state["fights"]:
        set_stage(run, "combat")
    else:
        then()


def resolve_combat(run, orders) -> None:
    war.combat_round(run, orders)
    if run.state["fights"]:
        war.roll_all(run)
    if run.state["fights"]:
        set_stage(run, "combat")
    elif run.state["fight_context"] == "economy":
        after_claims(run)
    else:
        after_battles(run)


# -- development

def resolve_event(run, orders) -> None:
    development.choose_card(run, (orders.get(run.state["barbarian"]) or {}).get("card"))
    set_stage(run, "market", run.state["seats"], 1)


def resolve_market(run, orders) -> None:
    if development.market_round(run, orders):
        next_round(run, "market")
        return
    for offer in run.state["offers"]:
        if offer["status"] == "open":
            run.emit(private(secret_for(run.state, offer["from"], offer["to"]),
                             "offer_closed", id=offer["id"], status="lapsed", why={}))
    set_stage(run, "construction")


def resolve_construction(run, orders) -> None:
    development.construction(run, orders)
    invade(run)
    set_stage(run, "movement")


def invade(run) -> None:
    """The card's invaders enter where it says (as many as the barbarian has off the board);
    an entry tile in a village brings them into the village."""
    state = run.state
    drawn = card(state)
    if drawn is None:
        return
    off = [w["id"] for w in state["warriors"] if w["seat"] == state["barbarian"]
           and w["at"] is None]
    ids = off[:drawn["invaders"]]
    entry = place_of(state, valley(state).entries.get(drawn["side"]))
    run.emit(public("invaders_entered", place=entry, ids=ids, side=drawn["side"],
                    invaders=drawn["invaders"]))


# -- war

def resolve_movement(run, orders) -> None:
    war.movement(run, orders)
    for place in war.war_fights(run.state):
        war.begin(run, place, "war")
    start_combat(run, lambda: after_battles(run))


def after_battles(run) -> None:
    """Pillage, raze and last-minute peace; then lineages."""
    if war.aftermath_asked(run.state):
        set_stage(run, "aftermath")
    else:
        end_war(run)


def resolve_aftermath(run, orders) -> None:
    war.aftermath(run, orders)
    end_war(run)


def end_war(run) -> None:
    """Lost lineages; the game may end at once; else growth."""
    war.lineage(run)
    ended = seasons.immediate_end(run.state)
    if ended:
        winner, why = ended
        run.emit(public("game_decided", winners=[winner], reason=why))
        run.emit(public("stage_set", stage="over", round=None, turn=run.state["turn"]))
        return
    if seasons.growth_asked(run.state):
        set_stage(run, "growth")
    else:
        after_growth(run, {})


# -- the end of the turn

def resolve_growth(run, orders) -> None:
    after_growth(run, orders)


def after_growth(run, orders) -> None:
    """Growth (free farms too), pilgrims, the revolts' draws; the barbarian's choice."""
    seasons.growth(run, orders)
    seasons.pilgrimage(run)
    seasons.revolt(run)
    if run.state["freeing"]:
        set_stage(run, "revolt")
    else:
        end_turn(run)


def resolve_revolt(run, orders) -> None:
    ruling = orders.get(run.state["barbarian"]) or {}
    seasons.freeing(run, ruling.get("set", {}))
    end_turn(run)


def end_turn(run) -> None:
    """The next turn, or the barbarian's judgement after the last one."""
    if run.state["turn"] >= run.state["turns"]:
        set_stage(run, "judgement")
    else:
        begin_turn(run, run.state["turn"] + 1)


def resolve_judgement(run, orders) -> None:
    judge_the_game(run, orders.get(run.state["barbarian"]) or {})


RESOLVERS = {
    "villages": resolve_villages, "farms": resolve_farms, "taxation": resolve_taxation,
    "opposition": resolve_opposition, "parley": resolve_parley, "combat": resolve_combat,
    "event": resolve_event, "market": resolve_market, "construction": resolve_construction,
    "movement": resolve_movement, "aftermath": resolve_aftermath, "growth": resolve_growth,
    "revolt": resolve_revolt, "judgement": resolve_judgement,
}
