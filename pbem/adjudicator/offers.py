"""Offers between seats: one proposes a trade, the other accepts or refuses.

An offer is plain data kept in the game's state::

    {"id": 3, "from": "ann", "to": "bob", "give": {"wood": 2}, "take": {"metal": 1},
     "made": 12, "status": "open"}

Order lines, in English or French (goods and seats as the game names them)::

    offer bob give wood 2 take metal 1       offre bob donne bois 2 prend metal 1
    offer bob wood 2 for metal 1             offre bob bois 2 contre metal 1
    accept 3                                 accepte 3
    refuse 3                                 refuse 3

An offer made in one round of a phase can be answered in any later round of
it; the game resolves the answers in offer order and moves goods only when
both sides still hold them (:func:`settle`). What is left open when the phase
ends lapses.
"""


from ..i18n import _
from .numbers import number
from .spelling import did_you_mean

OFFER = ("offer", "offre", "propose")
ACCEPT = ("accept", "accepte", "accepter", "oui")
REFUSE = ("refuse", "refuser", "decline", "non")
GIVE = ("give", "donne", "donnes", "donner")
TAKE = ("take", "prend", "prends", "prendre", "receive", "recois", "reçois", "for", "contre")


def read_goods(words: list[str], goods: dict) -> dict:
    """{good: count} from words like "wood 2 stone 1" (or "2 wood", "trois pierres": see
    numbers.py); ValueError if unclear.

    Every ValueError says why in the current language, as do read_offer's and
    read_answer's.

    `goods` maps every word a player may use for a good to its name
    ("bois" -> "wood").
    """
    out, pending_count, pending_good = {}, None, None
    for word in words:
        count = number(word) if word not in goods else None
        if count is not None:
            if pending_good:
                out[pending_good] = out.get(pending_good, 0) + count
                pending_good = None
            else:
                pending_count = count
            continue
        name = goods.get(word)
        if name is None:
            raise ValueError(_("there is no good called '{word}'{hint}").format(
                word=word, hint=did_you_mean(word, goods)))
        if pending_good:
            out[pending_good] = out.get(pending_good, 0) + 1
        if pending_count is not None:
            out[name] = out.get(name, 0) + pending_count
            pending_count, pending_good = None, None
        else:
            pending_good = name
    if pending_good:
        out[pending_good] = out.get(pending_good, 0) + 1
    if pending_count is not None:
        raise ValueError(_("{number} of what? write e.g. '{good} {number}'").format(
            number=pending_count, good=next(iter(goods), "wood")))
    if any(n <= 0 for n in out.values()):
        raise ValueError(_("a count must be 1 or more"))
    return out


def read_offer(words: list[str], seats: list[str], goods: dict) -> dict:
    """An offer line's words after the verb: "bob give wood 2 take metal 1" (the goods
    before "take", or "for", are given: "bob wood 2 for metal 1")."""
    if not words:
        raise ValueError(_("say to whom: offer SEAT give GOODS take GOODS"))
    to = words[0]
    if to not in seats:
        raise ValueError(_("there is no seat called '{seat}'{hint}").format(
            seat=to, hint=did_you_mean(to, seats)))
    give, take, part = [], [], None
    for word in words[1:]:
        if word in GIVE:
            part = give
        elif word in TAKE:
            part = take
        elif part is None and word not in goods and number(word) is None:
            raise ValueError(_("write 'give ...' and/or 'take ...' after the seat"))
        else:
            part = give if part is None else part
            part.append(word)
    offer = {"to": to, "give": read_goods(give, goods), "take": read_goods(take, goods)}
    if not offer["give"] and not offer["take"]:
        raise ValueError(_("an offer gives or takes something: "
                           "offer bob give wood 2 take metal 1"))
    return offer


# Words that may come between accept (or refuse) and the offer's number.
OFFER_WORDS = {"offer", "offre", "l'offre", "the", "la", "no", "n", "n°", "number", "numero"}


def read_answer(words: list[str], offers: list[dict], seat: str) -> int:
    """The id of the open offer to `seat` that an accept/refuse line names; ValueError if none.

    The number may be a word ("accept two"); words after it are read past when they name
    no other number in digits ("accept 2 - deal, Cyril"); "accept 2 3" names two and is
    refused.
    """
    while words and words[0] in OFFER_WORDS:  # "accept offer 2", "accepter l'offre n° 2"
        words = words[1:]
    if not words or number(words[0].lstrip("#")) is None or \
            any(w.lstrip("#").isdigit() for w in words[1:]):
        raise ValueError(_("name the offer by its number: accept 3"))
    said = number(words[0].lstrip("#"))
    offer = next((o for o in offers if o["id"] == said), None)
    if offer is None or offer["to"] != seat:
        mine = [str(o["id"]) for o in offers if o["to"] == seat and o["status"] == "open"]
        raise ValueError(_("there is no offer {number} to you; open offers to you: "
                           "{numbers}").format(number=said,
                                               numbers=", ".join(mine) or _("none")))
    if offer["status"] != "open":
        raise ValueError(_("offer {number} is closed already").format(number=said))
    return said


def new_offer(offers: list[dict], seat: str, offer: dict, phase: int) -> dict:
    """A new open offer from `seat`, numbered after every earlier one."""
    made = max((o["id"] for o in offers), default=0) + 1
    return {"id": made, "from": seat, "to": offer["to"], "give": offer["give"],
            "take": offer["take"], "made": phase, "status": "open"}


def shortfall(stock: dict, wanted: dict) -> dict:
    """What `stock` lacks to pay `wanted` ({} when it can)."""
    return {good: n - stock.get(good, 0) for good, n in sorted(wanted.items())
            if stock.get(good, 0) < n}


def settle(offer: dict, stocks: dict) -> tuple[dict | None, dict]:
    """(new stocks, {}) when both sides still hold what they trade, else (None, why).

    `why` is data the game words in each reader's language:
    {"seat": "ann", "lacks": {"wood": 1}}.
    """
    giver, taker = offer["from"], offer["to"]
    for who, pays in ((giver, offer["give"]), (taker, offer["take"])):
        short = shortfall(stocks[who], pays)
        if short:
            return None, {"seat": who, "lacks": short}
    out = {seat: dict(stock) for seat, stock in stocks.items()}
    for good, n in offer["give"].items():
        out[giver][good] -= n
        out[taker][good] = out[taker].get(good, 0) + n
    for good, n in offer["take"].items():
        out[taker][good] -= n
        out[giver][good] = out[giver].get(good, 0) + n
    return out, {}
