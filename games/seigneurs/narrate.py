"""Seigneurs' events as sentences for reports, in the reader's language."""

from pbem.i18n import N_, _, ngettext

from .material import building_name, card_name, good_name, goods_text, offered_text

STAGE_NAMES = {
    "villages": N_("setup: villages"), "farms": N_("setup: farms"),
    "taxation": N_("economy: taxation"), "opposition": N_("economy: opposition"),
    "parley": N_("economy: parley"), "combat": N_("combat"),
    "event": N_("development: the event card"), "market": N_("development: market"),
    "construction": N_("development: construction"), "movement": N_("war: movement"),
    "aftermath": N_("war: pillage and peace"), "growth": N_("growth"),
    "revolt": N_("revolt"), "judgement": N_("the barbarian's judgement"),
    "over": N_("the game is over"),
}
TOKEN_WHY = {
    "famine": N_("famine on {place}"), "protection": N_("a collector took from {place}"),
    "free-farm": N_("a collector took from the free farm {place}"),
    "oath": N_("the free farm {place} lost its freedom"),
}
REFUSED = {
    "taxed": N_("{place} was visited by a collector already"),
    "not-free": N_("{place} is no longer a free farm"),
    "no-warrior": N_("no warrior was free to go along"),
    "no-farm": N_("there is no farm on {place}"),
}
STOCK_WHY = {"domain": N_("{seat}'s domain produced {goods}."),
             "village-farm": N_("{seat}'s new village farm gave {goods}.")}
CLOSED = {"agreed": N_("the claim on {place} is withdrawn by agreement"),
          "blocked": N_("the claim on {place} is blocked by the opposition"),
          "done": None, "void": None}
OFFER_STATUS = {"accepted": N_("offer {number} accepted"),
                "refused": N_("offer {number} refused"),
                "failed": N_("offer {number} accepted but not carried out: {seat} lacks "
                             "{goods}"),
                "lapsed": N_("offer {number} lapsed when the market closed")}
REASONS = {"barbarian": N_("the barbarian's family heads every domain"),
           "dynasty": N_("one family heads every domain"),
           "judged": N_("the barbarian's judgement"),
           "prestige": N_("the most prestige: the barbarian sent no judgement")}
# The sides of the valley an event card may send the barbarian's invaders in from.
SIDES = {"north": N_("north"), "north-east": N_("north-east"), "east": N_("east"),
         "south-east": N_("south-east"), "south": N_("south"), "south-west": N_("south-west"),
         "west": N_("west"), "north-west": N_("north-west")}


def told(table: dict, key: str) -> str:
    """One of the phrases of a table, in the current language."""
    phrase = table[key]
    return _(phrase)


def narrate(event, state=None) -> str | None:
    """One event as a sentence; None for events players need not read (the game's state
    names nothing an event does not)."""
    handler = HANDLERS.get(event.type)
    return handler(event.payload) if handler else None


def stage_set(p):
    """Only the turn's setup phases are told; a round's own mail says what it asks."""
    if p["stage"] not in ("villages", "farms"):
        return None
    stage = p["stage"]
    name = _(STAGE_NAMES[stage])
    return _("Now: {stage}.").format(stage=name)


def produced(p):
    parts = [f"{place} {goods_text(g)}" for place, g in sorted(p["draws"].items())]
    text = _("Production: {draws}.").format(draws=_("; ").join(parts) or "-")
    if p.get("baked"):
        text += " " + _("Ovens and mills add food on {places}.").format(
            places=", ".join(sorted(p["baked"])))
    if p.get("short"):
        text += " " + ran_dry(p["short"])
    elif p["bag_left"] == 0:
        text += " " + _("The bag is empty.")
    return text


def ran_dry(short: list[dict]) -> str:
    """The farms a dry bag left without their share: nothing at all, or only part of it."""
    nothing = farm_names([f for f in short if not f["got"]])
    part = farm_names([f for f in short if f["got"]])
    pieces = ([_("nothing for {farms}").format(farms=and_list(nothing))] if nothing else []) + \
        ([_("less than a full share for {farms}").format(farms=and_list(part))] if part
         else [])
    return _("The bag ran dry: {who}.").format(who=_("; ").join(pieces))


def farm_names(farms: list[dict]) -> list[str]:
    """Plain farms by their tile; a village's farms together, by their numbers."""
    names, villages = [], {}
    for farm in farms:
        if "farm" not in farm:
            names.append(farm["place"])
        elif farm["place"] not in villages:
            villages[farm["place"]] = [str(f["farm"] + 1) for f in farms
                                       if f["place"] == farm["place"] and "farm" in f]
            numbers = villages[farm["place"]]
            names.append(ngettext("the village {place} (farm {farms})",
                                  "the village {place} (farms {farms})", len(numbers)).format(
                place=farm["place"], farms=and_list(numbers)))
    return names


def famine(p):
    """A place, or farms of a village, left empty by a collector."""
    farms = [str(i + 1) for i in p.get("farms", [])]
    if not farms:
        return _("Famine on {place}: nothing is left there.").format(place=p["place"])
    return ngettext("Famine on {place}: nothing is left on farm {farms} of the village.",
                    "Famine on {place}: nothing is left on farms {farms} of the village.",
                    len(farms)).format(place=p["place"], farms=and_list(farms))


def and_list(items: list[str]) -> str:
    """'1', '1 and 3', '1, 2 and 3' in the current language."""
    if len(items) < 2:
        return "".join(items)
    return _("{first} and {last}").format(first=", ".join(items[:-1]), last=items[-1])


def stock_changed(p):
    why = STOCK_WHY.get(p["why"])
    if why:
        return _(why).format(seat=p["seat"], goods=goods_text(p["change"]))
    return None


def claimed(p):
    c = p["claim"]
    if c["kind"] == "oath":
        return _("{seat}'s collector and a warrior go to the free farm {place} to swear it "
                 "to {seat}.").format(seat=c["seat"], place=c["place"])
    what = _("everything") if c["take"] == "all" else goods_text(c["take"])
    return _("{seat}'s collector claims {goods} on {place}.").format(
        seat=c["seat"], goods=what, place=c["place"])


def warriors_sent(p):
    number = len(p["ids"])
    if p["side"] == "opposer":
        text = ngettext("{seat} sends {number} warrior to oppose the claim on {place}.",
                        "{seat} sends {number} warriors to oppose the claim on {place}.",
                        number)
    else:
        text = ngettext("{seat} sends {number} warrior to support the claim on {place}.",
                        "{seat} sends {number} warriors to support the claim on {place}.",
                        number)
    return text.format(seat=p["seat"], number=number, place=p["place"])


def combat_rolled(p):
    if not p["rolls"]:
        return _("The fight on {place} dies out: nobody scored in twelve rounds.").format(
            place=p["place"])
    dice = ", ".join(f"{r['seat']} {r['die']}" + (f"+{r['bonus']}" if r["bonus"] else "")
                     + ("!" if r["hit"] else "") for r in p["rolls"])
    hits = ", ".join(f"{s} {n}" for s, n in sorted(p["hits"].items()))
    text = _("Fight on {place}, round {round}: {dice}. Hits: {hits}.").format(
        place=p["place"], round=p["round"], dice=dice, hits=hits)
    if p["empty"]:
        text = ngettext("({number} round before it without a hit.)",
                        "({number} rounds before it without a hit.)", p["empty"]).format(
            number=p["empty"]) + " " + text
    return text


def warriors_hit(p):
    """How many warriors each seat's hits put out of action."""
    counts = {}
    for seat in p["by"].values():
        counts[seat] = counts.get(seat, 0) + 1
    return " ".join(ngettext("{seat}'s hits put {number} warrior out of action on {place}.",
                             "{seat}'s hits put {number} warriors out of action on {place}.",
                             number).format(seat=seat, number=number, place=p["place"])
                    for seat, number in sorted(counts.items()))


def fight_ended(p):
    if p["how"] == "stopped":
        return _("The fight on {place} stops.").format(place=p["place"])
    return _("The fight on {place} is over, won by {winners}.").format(
        place=p["place"], winners=", ".join(p["winners"]) or "-")


def offer_made(p):
    o = p["offer"]
    return _("Offer {number}: {seat} offers {to} {give} for {take}.").format(
        number=o["id"], seat=o["from"], to=o["to"], give=offered_text(o["give"]),
        take=offered_text(o["take"]))


def agreement_text(a) -> str:
    """An agreement with its parties' words."""
    words = _("; ").join(_("{seat}: \u00ab{words}\u00bb").format(seat=s, words=t or "-")
                         for s, t in a["terms"].items())
    kind = _("peace") if a["kind"] == "peace" else _("agreement on {place}").format(
        place=a["place"])
    return _("Agreement {number} ({kind}, turn {turn}) between {seats}: {words}").format(
        number=a["id"], kind=kind, turn=a["turn"], seats=" & ".join(a["parties"]), words=words)


def agreement_recorded(p):
    a = p["agreement"]
    broken = a.get("broken")
    if broken and broken["by"]:
        state = _("broken by {seat} in turn {turn}").format(seat=broken["by"],
                                                           turn=broken["turn"])
    elif broken:
        state = _("broken, says the barbarian")
    else:
        state = _("kept")
    return agreement_text(a) + f" [{state}]"


def game_decided(p):
    reason = told(REASONS, p["reason"])
    text = _("The game is over ({reason}): {winners} wins.").format(
        reason=reason, winners=" & ".join(p["winners"]))
    if p.get("text"):
        text += " " + _("The barbarian says: {text}").format(text=p["text"])
    return text


HANDLERS = {
    "stage_set": stage_set,
    "turn_began": lambda p: _("Turn {turn} begins.").format(turn=p["turn"]),
    "villages_placed": lambda p: _("{lord}'s village stands on {tiles}.").format(
        lord=p["lord"], tiles=" ".join(p["tiles"])) + (" " + _(
            "{lord} asked for {wished}, closer than 3 tiles to a village placed before: this "
            "is the nearest village possible.").format(lord=p["lord"], wished=" ".join(
                p["wished"])) if p.get("wished") and sorted(p["wished"]) != sorted(p["tiles"])
            else ""),
    "farm_founded": lambda p: (
        _("{lord} founds a farm in its village.").format(lord=p["lord"]) if p["tile"] is None
        else _("A free farm is founded on {tile}.").format(tile=p["tile"]) if p["lord"] is None
        else _("{lord} founds a farm on {tile}.").format(lord=p["lord"], tile=p["tile"])),
    "stock_changed": stock_changed,
    "produced": produced,
    "claimed": claimed,
    "claim_refused": lambda p: _("{seat}'s collector cannot go to {place}: {why}.").format(
        seat=p["seat"], place=p["place"], why=told(REFUSED, p["why"]).format(place=p["place"])),
    "claim_closed": lambda p: told(CLOSED, p["status"]).format(place=p["place"])
    if CLOSED.get(p["status"]) else None,
    "warriors_sent": warriors_sent,
    "taxed": lambda p: _("{seat}'s collector takes {goods} from {place}.").format(
        seat=p["seat"], goods=goods_text(p["took"]), place=p["place"])
    if any(p["took"].values()) else _("{seat}'s collector finds nothing to take on "
                                      "{place}.").format(seat=p["seat"], place=p["place"]),
    "famine": lambda p: famine(p),
    "tokens_added": lambda p: ngettext(
        "{lord} puts {number} jacquerie token in its bag ({why}).",
        "{lord} puts {number} jacquerie tokens in its bag ({why}).", p["count"]).format(
            lord=p["lord"], number=p["count"], why=told(TOKEN_WHY, p["why"]).format(
                place=p["place"])),
    "oath_sworn": lambda p: _("The farm {place} swears its oath to {seat}.").format(
        place=p["place"], seat=p["seat"]),
    "fight_began": lambda p: _("A fight begins on {place}: {seats}.").format(
        place=p["place"], seats=", ".join(p["seats"])),
    "combat_rolled": combat_rolled,
    "warriors_hit": warriors_hit,
    "kill_ordered": lambda p: _("{seat} orders the enemies lying on {place} killed if it "
                                "wins.").format(seat=p["seat"], place=p["place"]),
    "fight_ended": fight_ended,
    "warriors_killed": lambda p: ngettext(
        "{seat} kills {number} warrior lying on {place}: a hard conflict.",
        "{seat} kills {number} warriors lying on {place}: a hard conflict.",
        len(p["ids"])).format(seat=p["by"], number=len(p["ids"]), place=p["place"]),
    "warriors_home": lambda p: ngettext(
        "{number} warrior lying on {place} is spared and sent home.",
        "{number} warriors lying on {place} are spared and sent home.",
        len(p["ids"])).format(number=len(p["ids"]), place=p["place"]),
    "warrior_joined": lambda p: _("A new warrior joins {seat}.").format(seat=p["seat"]),
    "warriors_joined": lambda p: ngettext(
        "{number} warrior joins {seat}.", "{number} warriors join {seat}.",
        len(p["ids"])).format(number=len(p["ids"]), seat=p["seat"]),
    "card_chosen": lambda p: _("The event card of this turn: {card}.").format(
        card=card_name(p["card"])),
    "card_revealed": lambda p: _("Merchants come to the valley: {goods}, {number} of each, "
                                 "margin {margin}.").format(
        goods=", ".join(good_name(g) for g in p["merchants"]["goods"]),
        number=p["merchants"]["count"], margin=p["merchants"]["margin"]),
    "offer_made": offer_made,
    "offer_closed": lambda p: told(OFFER_STATUS, p["status"]).format(
        number=p["id"], seat=(p["why"] or {}).get("seat"),
        goods=goods_text((p["why"] or {}).get("lacks", {}))),
    "traded": lambda p: _("{seat} gives {to} {give} for {take}.").format(
        seat=p["from"], to=p["to"], give=goods_text(p["give"]), take=goods_text(p["take"])),
    "price_moved": lambda p: _("The reference price of {good} moves from {was} to {price}.")
    .format(good=good_name(p["good"]), was=p["was"], price=p["price"]),
    "merchant_trade": lambda p: (
        ngettext("{seat} buys {goods} from the merchants for {coins} coin.",
                 "{seat} buys {goods} from the merchants for {coins} coins.", p["coins"])
        if p["kind"] == "buy" else
        ngettext("{seat} sells {goods} to the merchants for {coins} coin.",
                 "{seat} sells {goods} to the merchants for {coins} coins.", p["coins"]))
    .format(seat=p["seat"], goods=goods_text({p["good"]: p["count"]}), coins=p["coins"]),
    "merchant_refused": lambda p: (
        ngettext("The merchants would not sell {goods} to {seat}: it costs {coins} coin, "
                 "more than {seat} holds.",
                 "The merchants would not sell {goods} to {seat}: it costs {coins} coins, "
                 "more than {seat} holds.", p["coins"])
        if p["kind"] == "buy" else
        _("The merchants would not buy {goods} from {seat}: {seat} does not hold them."))
    .format(seat=p["seat"], goods=goods_text({p["good"]: p["count"]}), coins=p["coins"]),
    "project_paid": lambda p: _("{lord} puts {goods} on its {building}.").format(
        lord=p["lord"], goods=goods_text(p["goods"]), building=building_name(p["building"])),
    "building_finished": lambda p: _("{lord}'s {building} is finished.").format(
        lord=p["lord"], building=building_name(p["building"])),
    "forged": lambda p: _("{lord}'s forge makes a weapon.").format(lord=p["lord"]),
    "armed": lambda p: ngettext("{seat} arms {number} warrior.", "{seat} arms {number} warriors.",
                                len(p["ids"])).format(seat=p["seat"], number=len(p["ids"])),
    "raised": lambda p: _("{lord}'s warrior house raises a warrior.").format(lord=p["lord"]),
    "recruited": lambda p: _("The barbarian trades its loot for a new warrior."),
    "donated": lambda p: _("{lord} gives {goods} to its church.").format(
        lord=p["lord"], goods=goods_text(p["goods"])),
    "invaders_entered": lambda p: ngettext(
        "Invaders: {number} warrior of the barbarian enters on {place} ({side}).",
        "Invaders: {number} warriors of the barbarian enter on {place} ({side}).",
        len(p["ids"])).format(number=len(p["ids"]), place=p["place"],
                              side=_(SIDES.get(p["side"], p["side"]))) + short_of(p),
    "moved": lambda p: ngettext("{seat} moves {number} warrior from {source} to {target}.",
                                "{seat} moves {number} warriors from {source} to {target}.",
                                len(p["ids"])).format(seat=p["seat"], number=len(p["ids"]),
                                                      source=p["from"], target=p["to"]),
    "left_valley": lambda p: _("The barbarian's warriors leave the valley from {place}, "
                               "carrying {goods}.").format(place=p["from"],
                                                           goods=goods_text(p["load"]))
    if any(p["load"].values()) else _("The barbarian's warriors leave the valley from "
                                      "{place}, empty-handed.").format(place=p["from"]),
    "unloaded": lambda p: _("{seat}'s warriors bring {goods} home.").format(
        seat=p["seat"], goods=goods_text(p["goods"])),
    "relation_set": lambda p: (_("{seat} declares war on {other}.").format(
        seat=p["by"], other=p["b"] if p["a"] == p["by"] else p["a"])
        if p["relation"] == "war" else _("Peace between {a} and {b}.").format(a=p["a"],
                                                                            b=p["b"])),
    "proposed": lambda p: _("{seat} offers peace to {to}: \u00ab{terms}\u00bb").format(
        seat=p["proposal"]["from"], to=p["proposal"]["to"], terms=p["proposal"]["terms"] or "-"),
    "agreement_made": lambda p: agreement_text(p["agreement"]) + ".",
    "agreement_broken": lambda p: (_("{seat} breaks agreement {number}.").format(
        seat=p["by"], number=p["id"]) if p["by"] else
        _("The barbarian finds agreement {number} broken.").format(number=p["id"])),
    "agreement_recorded": agreement_recorded,
    "pillaged": lambda p: _("{seat} pillages {place}: its warriors carry {goods}.").format(
        seat=p["seat"], place=p["place"], goods=goods_text(p["goods"])),
    "razed": lambda p: _("{seat} razes {place}: {goods} destroyed.").format(
        seat=p["seat"], place=p["place"], goods=goods_text(p["goods"])),
    "lineage_lost": lambda p: _("{lord} has no warrior left: the family of {to} now heads "
                                "its domain.").format(lord=p["lord"], to=p["to"]),
    "pilgrims_stopped": lambda p: _("Pilgrims stop at the church of {lords} and leave "
                                    "{goods}.").format(lords=" & ".join(p["churches"]),
                                                       goods=goods_text(p["share"])),
    "pilgrims_passed": lambda p: _("Pilgrims pass through (holiness {holiness} wanted): no "
                                   "church holds them.").format(holiness=p["holiness"])
    if p.get("offering") else _("No pilgrims come this turn."),
    "revolt_drawn": lambda p: ngettext(
        "Revolt: {lord} draws {number} jacquerie token; {freed}.",
        "Revolt: {lord} draws {number} jacquerie tokens; {freed}.",
        p["jacquerie"]).format(lord=p["lord"], number=p["jacquerie"], freed=ngettext(
            "{num} farm turns free", "{num} farms turn free", p["free"]).format(num=p["free"])),
    "founding_refused": lambda p: _("{lord}'s farm on {tile} was not founded: another farm "
                                    "was founded there first.").format(**p),
    "farms_freed": lambda p: _("Farms of {lord} turn free: {tiles}; village farms "
                               "abandoned: {village}.").format(
        lord=p["lord"], tiles=", ".join(p["tiles"]) or "-", village=len(p["village"])
        if isinstance(p["village"], list) else p["village"]),
    "game_decided": game_decided,
}


def short_of(p) -> str:
    """Why fewer invaders entered than the card sends: the others are on the board."""
    if len(p["ids"]) >= p.get("invaders", 0):
        return ""
    return " " + ngettext("The card sends {card}: the barbarian had only {number} warrior "
                          "off the board.", "The card sends {card}: the barbarian had only "
                          "{number} warriors off the board.", len(p["ids"])).format(
                              card=p["invaders"], number=len(p["ids"]))
