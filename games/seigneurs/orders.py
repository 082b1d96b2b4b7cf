"""Seigneurs orders: reading a seat's mail for the open phase, checking it, saying it back.

One order a line; English or French words; tiles by name (``C3``), a village
by a tile of it, by its lord's name, or ``village`` for one's own. Every line
that cannot be used gets an error with its number, why, and the closest
valid word. Free text (the terms of an agreement or a peace) is kept as
written.
"""

from functools import partial
import re

from pbem.adjudicator import numbers
from pbem.adjudicator import offers as trade
from pbem.adjudicator.contract import OrderError
from pbem.adjudicator.editions import edition
from pbem.adjudicator.rulings import parse_ruling, setting_text
from pbem.adjudicator.spelling import aside, closest, did_you_mean
from pbem.i18n import LANGUAGES, _, current, ngettext, speaking

from . import development, economy, examples, war
from .flow import RULING_WORDS, asked, revolt_choices
from .founding import open_tile, village_problem
from .material import (BUILDINGS, BUILDING_TAILS, BUILDING_WORDS, GOOD_WORDS, GOODS, RESOURCES,
                       building_name, card_name, good_name, goods_text, offered_text, plain,
                       valley)
from .rules import (at_war, material, neighbours, place_of, place_owner, stock, village_of,
                    warriors_at)

VERBS = {
    "village": "village", "villages": "village",
    "farm": "farm", "ferme": "farm",
    "produce": "produce", "produire": "produce", "produis": "produce", "production": "produce",
    "tax": "tax", "taxe": "tax", "taxer": "tax", "prelever": "tax", "preleve": "tax",
    "oath": "oath", "serment": "oath",
    "pass": "pass", "passe": "pass", "passer": "pass", "rien": "pass", "nothing": "pass",
    "passing": "pass", "passes": "pass", "skip": "pass",
    "oppose": "oppose", "opposer": "oppose",
    "support": "support", "soutien": "support", "soutenir": "support", "soutiens": "support",
    "agree": "agree", "accord": "agree", "daccord": "agree",
    "fight": "fight", "combat": "fight", "combattre": "fight", "bataille": "fight",
    "hit": "hit", "frappe": "hit", "frapper": "hit", "victime": "hit", "victimes": "hit",
    "stop": "stop", "arret": "stop", "arreter": "stop",
    "kill": "kill", "tuer": "kill", "tue": "kill",
    "spare": "spare", "epargner": "spare", "epargne": "spare", "grace": "spare",
    "card": "card", "carte": "card",
    "offer": "offer", "offre": "offer", "propose": "offer",
    "accept": "accept", "accepte": "accept", "accepter": "accept",
    "refuse": "refuse", "refuser": "refuse", "decline": "refuse",
    "buy": "buy", "acheter": "buy", "achete": "buy",
    "sell": "sell", "vendre": "sell", "vends": "sell",
    "peace": "peace", "paix": "peace",
    "build": "build", "construire": "build", "batir": "build", "construis": "build",
    "forge": "forge", "forger": "forge",
    "raise": "raise", "lever": "raise", "recruter-guerrier": "raise",
    "arm": "arm", "armer": "arm",
    "donate": "donate", "donner": "donate", "offrande": "donate",
    "move": "move", "deplacer": "move", "deplace": "move", "aller": "move",
    "leave": "leave", "partir": "leave", "quitter": "leave",
    "war": "war", "guerre": "war",
    "recruit": "recruit", "recruter": "recruit",
    "pillage": "pillage", "piller": "pillage",
    "raze": "raze", "raser": "raze",
    "found": "found", "fonder": "found",
}
STAGE_VERBS = {
    "villages": ("village",),
    "farms": ("farm",),
    "taxation": ("produce", "tax", "oath", "pass"),
    "opposition": ("oppose", "support", "pass"),
    "parley": ("agree", "fight", "pass"),
    "combat": ("hit", "stop", "kill", "spare", "pass"),
    "event": ("card", "pass"),
    "market": ("offer", "accept", "refuse", "buy", "sell", "peace", "pass"),
    "construction": ("build", "forge", "raise", "arm", "donate", "pass"),
    "movement": ("move", "leave", "war", "peace", "recruit", "pass"),
    "aftermath": ("pillage", "raze", "peace", "pass"),
    "growth": ("found", "pass"),
}
# Each order as a French reader writes it (what a refusal lists as accepted now).
FRENCH_VERBS = {"village": "village", "farm": "ferme", "produce": "produire", "tax": "taxer",
                "oath": "serment", "pass": "passer", "oppose": "opposer",
                "support": "soutenir", "agree": "accord", "fight": "combattre",
                "hit": "frapper", "stop": "arrêter", "kill": "tuer", "spare": "épargner",
                "card": "carte", "offer": "offre", "accept": "accepter", "refuse": "refuser",
                "buy": "acheter", "sell": "vendre", "peace": "paix", "build": "construire",
                "forge": "forger", "raise": "lever", "arm": "armer", "donate": "donner",
                "move": "déplacer", "leave": "partir", "war": "guerre", "recruit": "recruter",
                "pillage": "piller", "raze": "raser", "found": "fonder"}
ALL = ("all", "tout", "tous", "everything")
ARMED = {"armed": True, "arme": True, "plain": False, "unarmed": False, "nu": False}
FILLER = {"to", "on", "at", "in", "a", "sur", "vers", "en", "de", "du", "the", "le", "la"}
# The articles a building's name may come with.
ARTICLES = {"a", "an", "the", "my", "un", "une", "le", "la", "les", "mon", "ma"}


def written(verbs) -> str:
    """Orders as the reader writes them: "offer, accept" or "offre, accepter"."""
    french = current() == "fr"
    return ", ".join(FRENCH_VERBS[v] if french else v for v in verbs)


class LineError(ValueError):
    """A line that cannot be used, and why (in the seat's language)."""


close = partial(did_you_mean, cutoff=0.5)  # '; did you mean X?' (a looser match: short words)


def words(line: str) -> list[str]:
    """A line's words: lower case, no accents, no punctuation."""
    return [w for w in re.split(r"[\s,;:.!()]+", plain(line)) if w]


def rest_of(line: str, skip: int) -> str:
    """The line's own text after its first `skip` words (free text, as written)."""
    parts = line.strip().split(None, skip)
    return parts[skip].strip() if len(parts) > skip else ""


# ---------------------------------------------------------------- small readers

class Reader:
    """Reads one seat's lines for the open phase, one order at a time."""

    def __init__(self, state, seat):
        self.state = state
        self.seat = seat
        self.land = valley(state)
        self.at = (0, "")       # the line being read: its number and text
        self.lines = {}         # {verb: [(number, text)]} of the lines each order came from

    def tile(self, word: str) -> str:
        """A tile named by a word."""
        tile = self.land.lookup(word)
        if tile is None:
            raise LineError(_("there is no tile {tile} in the valley (tiles are A1 to I5)"
                              "{hint}").format(tile=word.upper(),
                                               hint=close(word.upper(), self.land.names)))
        return tile

    def place(self, word: str) -> str:
        """A place: a tile, 'village' (one's own), or a lord's name (its village)."""
        if word == "village" and village_of(self.state, self.seat):
            return village_of(self.state, self.seat)
        if word in self.state["villages"]:
            return village_of(self.state, word)
        return place_of(self.state, self.tile(word))

    def seat_word(self, word: str, seats=None) -> str:
        """A seat named by a word."""
        seats = list(seats if seats is not None else self.state["seats"])
        if word not in seats:
            raise LineError(_("there is no seat {seat} here{hint}").format(
                seat=word, hint=close(word, seats)))
        return word

    def count(self, word: str | None, default=None) -> int:
        """A whole number of 1 or more, in digits or in words ("three", "trois")."""
        if word is None:
            if default is None:
                raise LineError(_("say how many"))
            return default
        said = numbers.number(word)
        if said is None or said < 1:
            raise LineError(_("{word} is not a number of 1 or more").format(word=word))
        return said

    def good(self, word: str, allowed=RESOURCES) -> str:
        """A good named by a word."""
        good = GOOD_WORDS.get(word)
        if good is None or good not in allowed:
            names = [w for w, g in GOOD_WORDS.items() if g in allowed]
            raise LineError(_("{word} is not a resource here{hint}").format(
                word=word, hint=close(word, names)))
        return good

    def goods_list(self, tokens, size=None, allowed=RESOURCES) -> list[str]:
        """Goods one by one ('stone stone food'), or with their numbers ('trois pierres',
        'stone 2 food')."""
        tokens = [t for t in tokens if t not in FILLER]
        if any(numbers.number(t) is not None for t in tokens):
            out = [good for good, many in self.goods(tokens, allowed).items()
                   for _copy in range(many)]
        else:
            out = [self.good(t, allowed) for t in tokens]
        if size is not None and len(out) != size:
            raise LineError(_("name {number} resources, e.g. wood food").format(number=size))
        return out

    def goods(self, tokens, allowed=RESOURCES) -> dict:
        """Goods with counts ('wood 2 food 1')."""
        table = {w: g for w, g in GOOD_WORDS.items() if g in allowed}
        try:
            return trade.read_goods([t for t in tokens if t not in FILLER], table)
        except ValueError:
            bad = next((t for t in tokens if numbers.number(t) is None and t not in table
                        and t not in FILLER), None)
            if bad:
                raise LineError(_("{word} is not a resource here{hint}").format(
                    word=bad, hint=close(bad, table))) from None
            raise LineError(_("write goods with their numbers, e.g. wood 2 food 1")) from None


# ---------------------------------------------------------------- parse

def parse(state, seat, text):
    """(orders, errors) for a seat's mail in the open phase."""
    stage = state["stage"]
    if state["result"] or stage == "over":
        return {}, [OrderError(0, "", _("the game is over"))]
    if stage in ("revolt", "judgement"):
        return parse_judge(state, seat, text)
    if seat not in asked(state):
        return {}, not_asked(text, _("nothing is asked of you in this phase"))
    reader = Reader(state, seat)
    orders, errors = {}, []
    for number, line in enumerate(text.splitlines(), start=1):
        tokens = words(line)
        if not tokens:
            continue
        verb = VERBS.get(tokens[0])
        allowed = STAGE_VERBS[stage]
        remark = aside(number, line, tokens[0], VERBS) if verb is None else None
        if remark:
            errors.append(remark)
            continue
        if verb is None:
            errors.append(OrderError(number, line.strip(), _(
                "{word} is not an order{hint}; now you may write: {verbs}").format(
                    word=tokens[0], hint=close(tokens[0], [v for v in VERBS
                                                           if VERBS[v] in allowed]),
                    verbs=written(allowed))))
            continue
        if verb not in allowed:
            errors.append(OrderError(number, line.strip(), _(
                "{verb} is not ordered in this phase; now you may write: {verbs}").format(
                    verb=tokens[0], verbs=written(allowed))))
            continue
        reader.at = (number, line.strip())
        try:
            READERS[verb](reader, orders, tokens[1:], line)
            reader.lines.setdefault(verb, []).append(reader.at)
        except LineError as problem:
            errors.append(OrderError(number, line.strip(), str(problem)))
    if stage == "construction":
        errors = sorted(errors + unworkable(reader, orders), key=lambda e: e.line)
    if stage == "market" and orders.get("merchants"):
        errors = sorted(errors + unaffordable(reader, orders), key=lambda e: e.line)
    return orders, errors


def not_asked(text: str, why: str) -> list:
    """The errors of a mail from a seat asked nothing: each line's, a remark or `why`."""
    errors = []
    for number, line in enumerate(text.splitlines(), start=1):
        tokens = words(line)
        if tokens:
            errors.append((aside(number, line, tokens[0], VERBS) if tokens[0] not in VERBS
                           else None) or OrderError(number, line.strip(), why))
    return errors or [OrderError(0, "", why)]


def parse_judge(state, seat, text):
    """The barbarian's ruling: which farms turn free, or the winner (and breaches)."""
    if seat != state["barbarian"]:
        return {}, not_asked(text, _("only the barbarian rules now"))
    if state["stage"] == "revolt":
        return parse_ruling(text, revolt_choices(state), by=seat, words=RULING_WORDS)
    broken, rest = [], []
    for line in text.splitlines():
        tokens = words(line)
        if tokens and tokens[0] in ("broken", "rompu", "rompus", "breach", "breaches"):
            named = agreements_named(tokens[1:])
            broken += [numbers.number(t) for t in named if numbers.number(t)]
            # "rompu 2 : bob a pillé les fermes d'ann": the line is a reason too
            line = line if len(tokens) > len(named) + 1 else ""
        rest.append(line)
    orders, errors = parse_ruling("\n".join(rest), {"winner": list(state["lords"])}, by=seat,
                                  words=RULING_WORDS)
    orders["broken"] = sorted(set(broken))
    return orders, errors


def agreements_named(tokens: list[str]) -> list[str]:
    """The words that number the agreements a "broken" line names, up to its reasons:
    "2 et 5" of "rompus 2 et 5 : ..."."""
    named = []
    for token in tokens:
        if not numbers.number(token) and not (named and token in ("and", "et")):
            break
        named.append(token)
    return named


# ---------------------------------------------------------------- one reader per verb

def read_village(r, orders, args, line):
    tiles = [r.tile(a) for a in args if a not in FILLER]
    problem = village_problem(r.state, tiles)
    if problem:
        raise LineError({
            "two": _("name two different tiles{example}").format(
                example=example_for(r.state, r.seat, "village")),
            "adjoining": _("the two village tiles must adjoin"),
            "taken": _("one of these tiles is taken already"),
            "distance": _("a village stands 3 tiles at least from any other village"),
        }[problem])
    orders["tiles"] = tiles


def read_farm(r, orders, args, line):
    farms = orders.setdefault("farms", [])
    mat = material(r.state)
    barbarian = r.seat == r.state["barbarian"]
    most = mat["free_farms"] if barbarian else mat["farms"]
    if len(farms) >= most:
        raise LineError(_("you place {number} farms, no more").format(number=most))
    if not args:
        raise LineError(_("say where{example}").format(example=example_for(r.state, r.seat,
                                                                             "farm")))
    if args[0] == "village" and not barbarian:
        gift = r.goods_list(args[1:], 1)
        farms.append({"tile": None, "gift": gift[0]})
        return
    tile = r.tile(args[0])
    if not open_tile(r.state, tile) or any(f["tile"] == tile for f in farms):
        raise LineError(_("{tile} is not free forest").format(tile=tile))
    farms.append({"tile": tile, "bag": r.goods_list(args[1:], 2)})


def read_produce(r, orders, args, line):
    if r.state["round"]["number"] != 1:
        raise LineError(_("your domain produced in the first round already"))
    if not args:
        raise LineError(_("name your domain's {number} resources{example}").format(
            number=material(r.state)["domain"], example=example_for(r.state, r.seat,
                                                                    "produce")))
    orders["produce"] = r.goods_list(args, material(r.state)["domain"])


def take_act(r, orders, act):
    if orders.get("act"):
        raise LineError(_("your collector goes to one place a round"))
    orders["act"] = act


def read_tax(r, orders, args, line):
    if not args:
        raise LineError(_("say where and what{example}").format(
            example=example_for(r.state, r.seat, "tax")))
    place = r.place(args[0])
    if place in r.state["taxed"]:
        raise LineError(_("{place} was visited by a collector this turn already").format(
            place=place))
    if not place_owner(r.state, place) and place not in r.state["farms"]:
        raise LineError(_("there is no farm on {place}").format(place=place))
    rest = [a for a in args[1:] if a not in FILLER]
    take = "all" if not rest or rest[0] in ALL else r.goods(rest)
    take_act(r, orders, {"kind": "tax", "place": place, "take": take})


def read_oath(r, orders, args, line):
    if not args:
        raise LineError(_("say which free farm{example}").format(
            example=example_for(r.state, r.seat, "oath")))
    place = r.place(args[0])
    if r.state["farms"].get(place, "") is not None:
        raise LineError(_("{place} is not a free farm").format(place=place))
    if place in r.state["taxed"]:
        raise LineError(_("{place} was visited by a collector this turn already").format(
            place=place))
    if not economy.available(r.state, r.seat):
        raise LineError(_("an oath needs a warrior beside your collector, and none is free"))
    take_act(r, orders, {"kind": "oath", "place": place})


def read_pass(r, orders, args, line):
    orders["pass"] = True


def read_send(r, orders, args, line, side):
    if not args:
        raise LineError(_("say where and how many{example}").format(
            example=example_for(r.state, r.seat, side)))
    place = r.place(args[0])
    claim = next((c for c in economy.open_claims(r.state) if c["place"] == place), None)
    if claim is None:
        raise LineError(_("no collector claims {place} this round").format(place=place))
    if side == "oppose" and claim["seat"] == r.seat:
        raise LineError(_("you cannot oppose your own collector; write support"))
    number = r.count(args[1] if len(args) > 1 else None, 1)
    free = len([w for w in economy.available(r.state, r.seat, place)
                if str(w["id"]) not in r.state["engaged"]])
    if number > free:
        raise LineError(ngettext("you have {number} warrior free to send",
                                 "you have {number} warriors free to send", free).format(
                                     number=free))
    orders.setdefault("send", []).append({"place": place, "side": side, "count": number})


def read_parley(r, orders, args, line, agree):
    if not args:
        raise LineError(_("say which place{example}").format(
            example=example_for(r.state, r.seat, "agree" if agree else "fight")))
    place = r.place(args[0])
    if not any(c["place"] == place for c in economy.contested(r.state)):
        raise LineError(_("there is no opposed claim on {place}").format(place=place))
    orders.setdefault("parley", {})[place] = {"agree": rest_of(line, 2)} if agree \
        else {"fight": True}


def fight_place(r, args, kind) -> str:
    if not args:
        raise LineError(_("say which fight{example}").format(
            example=example_for(r.state, r.seat, kind)))
    place = r.place(args[0])
    if place not in r.state["fights"]:
        raise LineError(_("there is no fight on {place}").format(place=place))
    return place


def read_hit(r, orders, args, line):
    place = fight_place(r, args, "hit")
    if not r.state["fights"][place]["hits"].get(r.seat):
        raise LineError(_("you scored no hit on {place} this round: you have no victim to "
                          "name").format(place=place))
    specs = []
    for word in args[1:]:
        if word in ARMED and specs:
            specs[-1]["armed"] = ARMED[word]
            continue
        specs.append({"seat": r.seat_word(word, [s for s in r.state["seats"] if s != r.seat])})
    orders.setdefault("hits", {})[place] = specs


def read_stop(r, orders, args, line):
    orders.setdefault("stop", []).append(fight_place(r, args, "stop"))


def read_kill(r, orders, args, line):
    orders.setdefault("kill", []).append(fight_place(r, args, "kill"))


def read_spare(r, orders, args, line):
    place = fight_place(r, args, "kill")
    orders["kill"] = [p for p in orders.get("kill", []) if p != place]


def read_card(r, orders, args, line):
    if r.seat != r.state["barbarian"]:
        raise LineError(_("only the barbarian chooses the card"))
    if not args:
        raise LineError(_("name a card of your deck{example}").format(
            example=example_for(r.state, r.seat, "card")))
    orders["card"] = deck_card(r.state["deck"], [a for a in args if a not in FILLER])


def deck_card(deck: list[str], args: list[str]) -> str:
    """The card left in the deck that these words name, in English or French: its whole
    name ("plague-rumour", "rumeur de peste"), or words of its name that fit it alone
    ("plague"); LineError naming the cards they could be, or the closest."""
    names = {card: card_words(card) for card in deck}
    wanted = "-".join(args)
    for card, said in names.items():
        if wanted in said:
            return card
    fits = [card for card, said in names.items()
            if args and all(any(a in name.split("-") for name in said) for a in args)]
    if len(fits) == 1:
        return fits[0]
    shown = ", ".join(card_name(c) for c in (fits or deck))
    if fits:
        raise LineError(_("{word} names several cards of your deck: {cards}; write one "
                          "whole").format(word=" ".join(args), cards=shown))
    parts = {piece: card for card in deck for name in names[card]
             for piece in [name] + name.split("-") if len(piece) > 2}
    near = closest(wanted, parts, 1)
    hint = _("; did you mean {name}?").format(name=card_name(parts[near[0]])) if near else ""
    raise LineError(_("there is no card {word} left in your deck; it holds: "
                      "{cards}{hint}").format(word=" ".join(args) or "-", cards=shown, hint=hint))


def card_words(card: str) -> set[str]:
    """A card's name as it may be written: its id and its name in each language."""
    said = {card}
    for lang in LANGUAGES:
        with speaking(lang):
            said.add("-".join(words(card_name(card).replace("-", " "))))
    return said


def read_offer(r, orders, args, line):
    others = [s for s in r.state["seats"] if s != r.seat]
    table = {w: g for w, g in GOOD_WORDS.items()}
    try:
        offer = trade.read_offer([a for a in args if a not in FILLER], others, table)
    except ValueError as problem:
        raise LineError(str(problem)) from None
    if not trade.shortfall(stock(r.state, r.seat), offer["give"]) == {}:
        raise LineError(_("you do not hold {goods}").format(goods=goods_text(offer["give"])))
    orders.setdefault("offers", []).append(offer)


def read_answer(r, orders, args, line, accept):
    try:
        number = trade.read_answer([a for a in args if a not in FILLER], r.state["offers"],
                                   r.seat)
    except ValueError:
        mine = [str(o["id"]) for o in r.state["offers"]
                if o["to"] == r.seat and o["status"] == "open"]
        if not mine:
            raise LineError(_("no offer to you is open now")) from None
        raise LineError(_("name an open offer to you by its number ({numbers}){example}").format(
            numbers=", ".join(mine), example=example_for(r.state, r.seat, "accept"))) from None
    orders.setdefault("answers", []).append({"id": number, "accept": accept})


def read_merchant(r, orders, args, line, kind):
    merchants = r.state["merchants"]
    if not merchants:
        raise LineError(_("no merchants came to the valley this turn"))
    if not args:
        raise LineError(_("say what and how many{example}").format(
            example=example_for(r.state, r.seat, kind)))
    if GOOD_WORDS.get(args[0]) in GOODS and GOOD_WORDS[args[0]] not in merchants["goods"]:
        raise LineError(_("the merchants of this turn trade only {goods}").format(
            goods=", ".join(good_name(g) for g in merchants["goods"])))
    good = r.good(args[0], merchants["goods"])
    number = r.count(args[1] if len(args) > 1 else None, 1)
    orders.setdefault("merchants", []).append({"kind": kind, "good": good, "count": number})


def read_peace(r, orders, args, line):
    if not args:
        raise LineError(_("say with whom and on what terms{example}").format(
            example=example_for(r.state, r.seat, "peace")))
    other = r.seat_word(args[0], [s for s in r.state["seats"] if s != r.seat])
    if not at_war(r.state, r.seat, other):
        raise LineError(_("you are not at war with {seat}").format(seat=other))
    if r.state["stage"] == "market" and edition(r.state) < 2:
        raise LineError(_("in this game peace is made in the war's movement, not at the "
                          "market"))
    orders.setdefault("peace", []).append({"to": other, "terms": rest_of(line, 2)})


def building_named(args: list[str]) -> list[str]:
    """The words of a build order from the building's name on, its article and the word
    before its payment left out: "construire un four avec bois 1", "build the mill with
    wood 1", "construire l'eglise"."""
    while args and args[0] in ARTICLES:
        args = args[1:]
    if args and args[0][:2] in ("l'", "d'"):
        args = [args[0][2:], *args[1:]]
    return [a for a in args if a not in ("avec", "with")]


def read_build(r, orders, args, line):
    if r.seat not in r.state["lords"]:
        raise LineError(_("only lords build"))
    args = building_named(args)
    if not args:
        raise LineError(_("name a building{example}").format(
            example=example_for(r.state, r.seat, "build")))
    if args[0] not in BUILDING_WORDS:
        raise LineError(_("{word} is not a building; buildings: {names}{hint}").format(
            word=args[0], names=", ".join(building_name(b) for b in BUILDINGS),
            hint=close(args[0], BUILDING_WORDS)))
    building = BUILDING_WORDS[args[0]]
    args = args[1:]
    tails = BUILDING_TAILS.get(building, ())
    while args and (args[0] in tails or args[0] in FILLER and args[1:2] and args[1] in tails):
        args = args[2:] if args[0] in FILLER else args[1:]
    if development.done_building(r.state, r.seat, building):
        raise LineError(_("your {building} is finished already").format(
            building=building_name(building)))
    owed = development.still_owed(r.state, r.seat, building)
    if not owed:
        raise LineError(_("your {building} project is paid in full: it is finished in "
                          "the construction of turn {turn}").format(
            building=building_name(building),
            turn=development.finished_in(r.state, r.seat, building)))
    goods = r.goods(args) if args else owed
    orders.setdefault("build", []).append({"building": building,
                                           "goods": [[g, n] for g, n in goods.items()]})


def read_flag(name):
    def reader(r, orders, args, line):
        building = {"forge": "forge", "raise": "house"}.get(name)
        if building and not development.done_building(r.state, r.seat, building):
            raise LineError(_("you need a finished {building} for that").format(
                building=building_name(building)))
        orders[name] = True
    return reader


def read_arm(r, orders, args, line):
    orders["arm"] = r.count(args[0] if args else None, 1)


def read_donate(r, orders, args, line):
    if not development.done_building(r.state, r.seat, "church"):
        raise LineError(_("you need a finished {building} for that").format(
            building=building_name("church")))
    if not args:
        raise LineError(_("say what you give{example}").format(
            example=example_for(r.state, r.seat, "donate")))
    orders["donate"] = r.goods(args, RESOURCES + ("coins",))


WORKS = ("donate", "build", "forge", "raise", "arm")  # the orders development.works plans


def unaffordable(r, orders) -> list[OrderError]:
    """The purchases from the merchants that the seat's coins cannot pay, even with what its
    sales and the offers it accepts in this mail could bring: refused at once with the
    price (their orders are dropped); the others stand."""
    state, seat = r.state, r.seat
    held = stock(state, seat)

    def traded(deal) -> int:  # the merchants deal in so many of a good with each seat
        return min(deal["count"], development.merchant_left(state, seat, deal["good"],
                                                             deal["kind"]))

    coins = held.get("coins", 0) + sum(
        development.merchant_price(state, d["good"], "sell") * min(traded(d), held.get(
            d["good"], 0)) for d in orders["merchants"] if d["kind"] == "sell")
    accepted = {a["id"] for a in orders.get("answers", []) if a["accept"]}
    coins += sum(o["give"].get("coins", 0) for o in state["offers"] if o["id"] in accepted)
    buys = iter(r.lines.get("buy", []))
    errors, kept = [], []
    for deal in orders["merchants"]:
        if deal["kind"] == "buy":
            number, text = next(buys)
            price = traded(deal) * development.merchant_price(state, deal["good"], "buy")
            if price > coins:
                errors.append(OrderError(number, text, ngettext(
                    "{goods} costs {price} coins, and you have {coins} coin",
                    "{goods} costs {price} coins, and you have {coins} coins", coins).format(
                        goods=goods_text({deal["good"]: traded(deal)}), price=price,
                        coins=coins)))
                continue
            coins -= price
        kept.append(deal)
    orders["merchants"] = kept
    if not kept:
        orders.pop("merchants")
    return errors


def unworkable(r, orders) -> list[OrderError]:
    """The construction lines that would do nothing, refused at once with the reason (their
    orders are dropped); the others stand, a partial one said back with what it does."""
    errors = []
    plan = development.works(r.state, r.seat, orders)
    builds = iter(r.lines.get("build", []))
    for step in plan:
        number, text = next(builds) if step["kind"] == "build" else r.lines[step["kind"]][-1]
        if step["done"]:
            continue
        errors.append(OrderError(number, text, work_reason(r.state, r.seat, step)))
        if step["kind"] != "build":
            orders.pop(step["kind"])
    if "build" in orders:
        steps = [s for s in plan if s["kind"] == "build"]
        orders["build"] = [p for p, step in zip(orders["build"], steps) if step["done"]]
        if not orders["build"]:
            orders.pop("build")
    return errors


def work_reason(state, seat, step) -> str:
    """Why a construction order does less than it says (see development.works), in words."""
    why = step["why"]
    if why in ("church", "forge", "house"):
        return _("you need a finished {building} for that").format(
            building=building_name(why))
    if step["kind"] == "build":
        return payment_reason(step)
    if why == "stock" and step["kind"] == "donate":
        return _("you hold {goods}").format(goods=goods_text(step["held"]))
    if why == "stock":
        text = _("a weapon takes 1 metal and 1 wood") if step["kind"] == "forge" else \
            _("a warrior takes {number} food").format(number=step["asked"]["food"])
        return _("{cost}, and after the orders above you hold {goods}").format(
            cost=text, goods=goods_text(step["held"]))
    if why == "bare":
        return ngettext("you have {number} unarmed warrior at home",
                        "you have {number} unarmed warriors at home", step["bare"]).format(
                            number=step["bare"])
    return ngettext("you will have {number} forged weapon",
                    "you will have {number} forged weapons",
                    step["held"].get("weapons", 0)).format(number=step["held"].get(
                        "weapons", 0))


def payment_reason(step) -> str:
    """Why a payment puts less on its building than written."""
    building = building_name(step["building"])
    if step["why"] == "owed":
        return _("your {building} needs only {goods} more").format(
            building=building, goods=goods_text(step["owed"]))
    if step["why"] == "stock":
        return _("you hold {goods}").format(goods=", ".join(
            f"{good_name(g)} {step['held'].get(g, 0)}" for g in GOODS
            if step["asked"].get(g, 0) > step["held"].get(g, 0)))
    if not step["limit"]:
        return _("nothing goes on your projects this turn: every farm of your village is "
                 "in famine (or you have none)")
    said = ngettext("at most {number} resource a turn goes on your projects (one per "
                    "village farm not in famine)",
                    "at most {number} resources a turn go on your projects (one per "
                    "village farm not in famine)", step["limit"]).format(number=step["limit"])
    if step["room"] < step["limit"]:
        said = _("{said}; your lines above use {number}").format(
            said=said, number=step["limit"] - step["room"])
    return said


def read_move(r, orders, args, line):
    if len(args) < 2:
        raise LineError(_("say from where to where{example}").format(
            example=example_for(r.state, r.seat, "move")))
    source, target = r.place(args[0]), r.place(args[1])
    if source == target:
        raise LineError(_("{first} and {second} are the same place ({place}): name a place "
                          "next to it").format(first=args[0].upper(), second=args[1].upper(),
                                               place=source))
    if target not in neighbours(r.state, source):
        raise LineError(_("{target} is not next to {source}; next to it: {places}").format(
            target=target, source=source, places=", ".join(neighbours(r.state, source))))
    fit = len(war.movable(r.state, r.seat, source))
    if not fit:
        raise LineError(_("you have no warrior fit to move on {place}").format(place=source))
    number = r.count(args[2] if len(args) > 2 else None, fit)
    if number > fit:
        raise LineError(ngettext("you have {number} warrior fit to move on {place}",
                                 "you have {number} warriors fit to move on {place}", fit).format(
                                     number=fit, place=source))
    orders.setdefault("moves", []).append({"from": source, "to": target, "count": number})


def read_leave(r, orders, args, line):
    if r.seat != r.state["barbarian"]:
        raise LineError(_("only the barbarian's warriors leave the valley"))
    if not args:
        raise LineError(_("say from which tile on the rim{example}").format(
            example=example_for(r.state, r.seat, "leave")))
    place = r.place(args[0])
    if not r.land.edge(place):
        raise LineError(_("{place} is not on the rim of the valley").format(place=place))
    if not warriors_at(r.state, place, r.seat, fit=True):
        raise LineError(_("you have no warrior fit to move on {place}").format(place=place))
    number = r.count(args[1] if len(args) > 1 else None, 0) if len(args) > 1 else 0
    orders.setdefault("leave", []).append({"from": place, "count": number})


def read_war(r, orders, args, line):
    if not args:
        raise LineError(_("say on whom{example}").format(
            example=example_for(r.state, r.seat, "war")))
    other = r.seat_word(args[0], [s for s in r.state["seats"] if s != r.seat])
    orders.setdefault("war", []).append(other)


def read_recruit(r, orders, args, line):
    if r.seat != r.state["barbarian"]:
        raise LineError(_("only the barbarian recruits"))
    if sum(stock(r.state, r.seat).get(g, 0) for g in RESOURCES) < material(r.state)["recruit"]:
        raise LineError(_("a warrior costs {number} resources you carried off").format(
            number=material(r.state)["recruit"]))
    orders["recruit"] = True


def read_loot(r, orders, args, line, kind):
    if not args:
        raise LineError(_("say where{example}").format(
            example=example_for(r.state, r.seat, kind)))
    place = r.place(args[0])
    if place not in war.pillage_options(r.state, r.seat):
        raise LineError(_("you cannot pillage or raze {place}: no fit warrior of yours on "
                          "an enemy farm with resources").format(place=place))
    orders.setdefault(kind, []).append(place)


def read_found(r, orders, args, line):
    if len(args) < 2:
        raise LineError(_("say from which farm and where{example}").format(
            example=example_for(r.state, r.seat, "found")))
    source = r.place(args[0])
    if source not in economy.growth_sources(r.state, r.seat):
        raise LineError(_("{place} does not hold 4 resources of a farm of yours").format(
            place=source))
    before = sum(1 for o in orders.get("found", []) if o["source"] == source)
    if before >= economy.growth_count(r.state, r.seat, source):
        raise LineError(_("every farm of {place} that holds 4 resources founds a farm "
                          "already in this mail (a farm grows once a turn)").format(
                              place=source))
    if args[1] == "village":
        gift = r.goods_list(args[2:], 1)
        order = {"source": source, "tile": None, "gift": gift[0]}
    else:
        tile = r.tile(args[1])
        if not open_tile(r.state, tile):
            raise LineError(_("{tile} is not free forest").format(tile=tile))
        order = {"source": source, "tile": tile, "bag": r.goods_list(args[2:], 2)}
    orders.setdefault("found", []).append(order)


READERS = {
    "village": read_village, "farm": read_farm, "produce": read_produce, "tax": read_tax,
    "oath": read_oath, "pass": read_pass,
    "oppose": lambda r, o, a, l: read_send(r, o, a, l, "oppose"),
    "support": lambda r, o, a, l: read_send(r, o, a, l, "support"),
    "agree": lambda r, o, a, l: read_parley(r, o, a, l, True),
    "fight": lambda r, o, a, l: read_parley(r, o, a, l, False),
    "hit": read_hit, "stop": read_stop, "kill": read_kill, "spare": read_spare,
    "card": read_card, "offer": read_offer,
    "accept": lambda r, o, a, l: read_answer(r, o, a, l, True),
    "refuse": lambda r, o, a, l: read_answer(r, o, a, l, False),
    "buy": lambda r, o, a, l: read_merchant(r, o, a, l, "buy"),
    "sell": lambda r, o, a, l: read_merchant(r, o, a, l, "sell"),
    "peace": read_peace, "build": read_build, "forge": read_flag("forge"),
    "raise": read_flag("raise"), "arm": read_arm, "donate": read_donate, "move": read_move,
    "leave": read_leave, "war": read_war, "recruit": read_recruit,
    "pillage": lambda r, o, a, l: read_loot(r, o, a, l, "pillage"),
    "raze": lambda r, o, a, l: read_loot(r, o, a, l, "raze"),
    "found": read_found,
}


# ---------------------------------------------------------------- examples

def help_rows(state, seat) -> list[dict]:
    """The HELP rows of the open stage for this seat: [{"order", "says"}], each order one
    the parser reads from it now (each part of "a / b" too); a row none fits is left out."""
    rows = []
    for kind, lines in examples.candidates(state, seat):
        found = next(((line, says) for line, says in lines if reads(state, seat, line)), None)
        if found:
            rows.append({"kind": kind, "order": found[0], "says": found[1]})
    return rows


def reads(state, seat, line: str) -> bool:
    """Does the parser read each " / " part of this line from this seat now, without an
    error?"""
    return all(not parse(state, seat, part)[1] for part in line.split(" / "))


def example_for(state, seat, kind: str) -> str:
    """', e.g. ORDER': an order of this kind the seat could send now, or ''."""
    found = next((row["order"] for row in help_rows(state, seat) if row["kind"] == kind), None)
    return _(", e.g. {order}").format(order=found) if found else ""


# ---------------------------------------------------------------- saying it back

def describe_orders(state, seat, orders) -> list[str]:
    """A seat's orders in plain words, one line each."""
    if not orders:
        return [_("no orders: you pass")]
    if "set" in orders:
        return describe_ruling(orders)
    lines = []
    if "tiles" in orders:
        lines.append(_("your village on {tiles}").format(tiles=" ".join(orders["tiles"])))
    for farm in orders.get("farms", []):
        lines.append(_("a farm in your village, which gives you {good}").format(
            good=goods_text({farm["gift"]: 1})) if farm["tile"] is None else
            _("a farm on {tile}, putting {goods} in the bag").format(
                tile=farm["tile"], goods=goods_text(tally(farm["bag"]))))
    if "produce" in orders:
        lines.append(_("your domain produces {goods}").format(
            goods=goods_text(tally(orders["produce"]))))
    act = orders.get("act")
    if act and act["kind"] == "tax":
        what = _("everything") if act["take"] == "all" else goods_text(act["take"])
        lines.append(_("your collector taxes {place}: {goods}").format(place=act["place"],
                                                                      goods=what))
    elif act:
        lines.append(_("your collector and a warrior bring {place} under your oath").format(
            place=act["place"]))
    lines += describe_more(state, seat, orders)
    if orders.get("pass") and not lines:
        lines.append(_("you pass"))
    return lines


def describe_more(state, seat, orders) -> list[str]:
    """The other kinds of orders, in words."""
    lines = []
    for send in orders.get("send", []):
        text = ngettext("{number} warrior opposes the claim on {place}",
                        "{number} warriors oppose the claim on {place}", send["count"]) \
            if send["side"] == "oppose" else \
            ngettext("{number} warrior supports the claim on {place}",
                     "{number} warriors support the claim on {place}", send["count"])
        lines.append(text.format(number=send["count"], place=send["place"]))
    for place, word in sorted(orders.get("parley", {}).items()):
        lines.append(_("on {place} you agree: {terms}").format(place=place, terms=word[
            "agree"] or "-") if "agree" in word else _("on {place} you fight").format(
                place=place))
    for place, specs in sorted(orders.get("hits", {}).items()):
        names = " ".join(s["seat"] for s in specs) or "-"
        lines.append(_("your victims on {place}: {names}, then the strongest").format(
            place=place, names=names))
    for place in orders.get("stop", []):
        lines.append(_("you stop fighting on {place}").format(place=place))
    for place in orders.get("kill", []):
        lines.append(_("if you win on {place}, the enemies lying there are killed").format(
            place=place))
    if "card" in orders:
        lines.append(_("your event card: {card}").format(card=card_name(orders["card"])))
    lines += describe_market(orders)
    lines += describe_building(state, seat, orders)
    lines += describe_war(orders)
    return lines


def describe_market(orders) -> list[str]:
    """Offers, answers, merchants and peace, in words."""
    lines = []
    for offer in orders.get("offers", []):
        lines.append(_("you offer {seat} {give} for {take}").format(
            seat=offer["to"], give=offered_text(offer["give"]),
            take=offered_text(offer["take"])))
    for answer in orders.get("answers", []):
        text = _("you accept offer {number}") if answer["accept"] else \
            _("you refuse offer {number}")
        lines.append(text.format(number=answer["id"]))
    for deal in orders.get("merchants", []):
        text = _("you buy {goods} from the merchants") if deal["kind"] == "buy" else \
            _("you sell {goods} to the merchants")
        lines.append(text.format(goods=goods_text({deal["good"]: deal["count"]})))
    for proposal in orders.get("peace", []):
        lines.append(_("you offer peace to {seat}: {terms}").format(
            seat=proposal["to"], terms=proposal["terms"] or "-"))
    return lines


def describe_building(state, seat, orders) -> list[str]:
    """Construction orders in words: what each does (a payment cut short says why)."""
    if not any(orders.get(k) for k in WORKS):
        return []
    lines = []
    for step in development.works(state, seat, orders):
        kind = step["kind"]
        if kind == "donate":
            lines.append(_("you give {goods} to your church").format(
                goods=goods_text(step["done"] or step["asked"])))
        elif kind == "build":
            said = _("you put {goods} on your {building}").format(
                goods=goods_text(step["done"]), building=building_name(step["building"]))
            if step["why"]:
                said = _("{said} (of {asked} written: {why})").format(
                    said=said, asked=goods_text(step["asked"]), why=payment_reason(step))
            lines.append(said)
        elif kind == "forge":
            lines.append(_("your forge turns 1 metal and 1 wood into a forged weapon"))
        elif kind == "raise":
            lines.append(_("your warrior house raises a warrior for 2 food"))
        else:
            said = ngettext("you arm {number} warrior at home",
                            "you arm {number} warriors at home", step["done"]).format(
                                number=step["done"])
            if step["why"]:
                said = _("{said} (of {asked} written: {why})").format(
                    said=said, asked=step["asked"], why=work_reason(state, seat, step))
            lines.append(said)
    return lines


def describe_war(orders) -> list[str]:
    """Movement, war, pillage and growth orders in words."""
    lines = []
    for enemy in orders.get("war", []):
        lines.append(_("you declare war on {seat}").format(seat=enemy))
    if orders.get("recruit"):
        lines.append(_("you trade 4 resources for a warrior"))
    for move in orders.get("moves", []):
        lines.append(ngettext("{number} warrior from {source} to {target}",
                              "{number} warriors from {source} to {target}", move["count"]).format(
            number=move["count"], source=move["from"], target=move["to"]))
    for leave in orders.get("leave", []):
        lines.append(_("your warriors on {place} leave the valley").format(place=leave["from"]))
    for place in orders.get("pillage", []):
        lines.append(_("you pillage {place}").format(place=place))
    for place in orders.get("raze", []):
        lines.append(_("you raze {place}").format(place=place))
    for order in orders.get("found", []):
        if order["tile"] is None:
            lines.append(_("{source} founds a farm in your village").format(
                source=order["source"]))
        else:
            lines.append(_("{source} founds a farm on {tile}").format(
                source=order["source"], tile=order["tile"]))
    return lines


def describe_ruling(orders) -> list[str]:
    """A ruling said back."""
    values = ", ".join(setting_text(k, v, RULING_WORDS)
                       for k, v in sorted(orders["set"].items())) or "-"
    lines = [_("your ruling: {values}").format(values=values)]
    if orders.get("broken"):
        lines.append(_("agreements you find broken: {numbers}").format(
            numbers=", ".join(str(n) for n in orders["broken"])))
    if orders.get("text"):
        lines.append(_("your reasons: {text}").format(text=orders["text"]))
    return lines


def tally(goods: list[str]) -> dict:
    """['wood', 'wood', 'food'] -> {'wood': 2, 'food': 1}."""
    return {g: goods.count(g) for g in RESOURCES if goods.count(g)}

