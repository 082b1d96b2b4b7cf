"""Orders in the judges' notation: reading a power's lines, checking them, writing them back.

One order per line, in any case, provinces by abbreviation or by name
(English or French), "-" or "->" or TO for a move::

    A PAR - BUR             A Paris -> Burgundy        F SPA/SC - MAO
    A MUN H                 F LON S A WAL - BEL        A TYR S A VEN
    F NTH C A LON - BEL     A LON - BEL VIA CONVOY
    A BUR - PAR  /  A BUR DISBAND                       (retreats)
    BUILD A PAR  /  BUILD F STP/NC  /  REMOVE A BER  /  WAIVE   (winter)

and as other engines and phones write them: ``F Bot → Swe``, ``The army at Munich
hold.`` (webDiplomacy), ``Fleet North Sea support Fleet Sweden move to Denmark``,
``A BUL - RUM VIA``, ``F BRE B``, ``A TUS D``; a bare ``disband`` or ``hold`` when one
unit alone can be meant; and in French words: ``A PAR - BOU``, ``A PAR VERS BOU``, ``A MUN TIENT``,
``F LON SOUTIENT A PDG - BEL``, ``F MDN CONVOIE A LON - BEL``,
``A LON - BEL PAR CONVOI``, ``A BOU DISSOUS``, ``CONSTRUIT F SPB/CN``,
``RETIRE A BER``, ``RENONCE`` (docs/rules/diplomacy.md lists them).

Every order is checked against the position when it is read: an order that
could not succeed whatever the others do (no such unit, not adjacent, a
fleet sent inland, a coast it cannot reach, a convoy no route needs...) is
refused with its line and the reason, and the unit holds. What depends on
the other orders (a support the supported unit does not follow, a convoy
that is disrupted) is the adjudicator's, not the reader's. The choices
follow the DATC's preferences (docs/rules/diplomacy.md): the unit type as
written does not matter, a missing coast is read when only one is possible,
a nationality ("German A MUN") or a convoy route written out ("A LON - NTH -
BEL") is read past, two orders for one unit are both refused.

A seat may play several powers: each line is its unit's power's (a build's,
its home centre's), and a WAIVE names its power when more than one builds.
"""

from functools import lru_cache
import re
import unicodedata

from pbem.adjudicator.contract import OrderError
from pbem.adjudicator.spelling import aside, closest, unknown_word
from pbem.i18n import _, current, ngettext

from .board import ARMY, FLEET, Board, coast_of, province_of
from .position import adjustment, place_of, unit_text

UNIT_WORDS = {"A": ARMY, "ARMY": ARMY, "ARMEE": ARMY, "F": FLEET, "FLEET": FLEET,
              "FLOTTE": FLEET}
HOLD = {"H", "HOLD", "HOLDS", "STAND", "STANDS", "T", "TIENT", "TIENNENT", "TENIR"}
MOVE = {"-", "TO", "M", "MOVE", "MOVES", "VERS"}
SUPPORT = {"S", "SUPPORT", "SUPPORTS", "SOUTIENT", "SOUTIEN", "SOUTENIR"}
CONVOY = {"C", "CONVOY", "CONVOYS", "CONVOIE", "CONVOI", "CONVOYER"}
DISBAND = {"D", "DISBAND", "DISBANDS", "DISSOUS", "DISSOUDRE"}
RETREAT = {"R", "RETREAT", "RETREATS", "RETRAITE", "RECULE"}
BUILD = {"B", "BUILD", "BUILDS", "CONSTRUIT", "CONSTRUIRE"}
REMOVE = {"REMOVE", "REMOVES", "DESTROY", "RETIRE", "RETIRER"} | DISBAND
WAIVE = {"WAIVE", "WAIVES", "RENONCE", "RENONCER"}
VIA = {"VIA", "BY", "PAR"}  # A LON - BEL VIA CONVOY, A LON - BEL PAR CONVOI; A LON - BEL VIA
# Words other engines put around a unit and its province, read past: webDiplomacy's "The army
# at Munich hold.", "Build fleet at St. Petersburg (North coast)".
ARTICLE, AT = "THE", "AT"
# The move words webDiplomacy and Diplicity write before a place: "move to Denmark".
TO = "TO"
# A power's name or adjective, in English or French: read past before a unit, and naming
# the power of a WAIVE.
NATIONALITIES = {
    **dict.fromkeys(("AUSTRIA", "AUSTRIAN", "AUTRICHE", "AUTRICHIEN", "AUTRICHIENNE"),
                    "austria"),
    **dict.fromkeys(("ENGLAND", "ENGLISH", "BRITISH", "ANGLETERRE", "ANGLAIS", "ANGLAISE"),
                    "england"),
    **dict.fromkeys(("FRANCE", "FRENCH", "FRANCAIS", "FRANCAISE"), "france"),
    **dict.fromkeys(("GERMANY", "GERMAN", "ALLEMAGNE", "ALLEMAND", "ALLEMANDE"), "germany"),
    **dict.fromkeys(("ITALY", "ITALIAN", "ITALIE", "ITALIEN", "ITALIENNE"), "italy"),
    **dict.fromkeys(("RUSSIA", "RUSSIAN", "RUSSIE", "RUSSE"), "russia"),
    **dict.fromkeys(("TURKEY", "TURKISH", "TURQUIE", "TURC", "TURQUE"), "turkey"),
}
COAST_WORDS = {"NC": "NC", "SC": "SC", "EC": "EC", "N": "NC", "S": "SC", "E": "EC",
               "NORTH": "NC", "SOUTH": "SC", "EAST": "EC",
               "CN": "NC", "CS": "SC", "CE": "EC", "NORD": "NC", "SUD": "SC", "EST": "EC"}
WRITTEN_COASTS = {"NC", "SC", "EC", "CN", "CS", "CE"}  # a coast that needs no slash before it
ORDER_MARKS = {"-", "S", "C"} | HOLD | SUPPORT | CONVOY
KEYWORDS = HOLD | MOVE | SUPPORT | CONVOY | DISBAND | RETREAT | BUILD | REMOVE | WAIVE | VIA | \
    {"/"}
# How an order is said back, in each language: A MUN H, A MUN TIENT.
SAID = {"en": {"hold": "H", "support": "S", "convoy": "C", "disband": "DISBAND",
               "build": "BUILD", "remove": "REMOVE", "waive": "WAIVE", "via": "VIA CONVOY"},
        "fr": {"hold": "TIENT", "support": "S", "convoy": "C", "disband": "DISSOUS",
               "build": "CONSTRUIT", "remove": "RETIRE", "waive": "RENONCE",
               "via": "PAR CONVOI"}}


class Unreadable(ValueError):
    """A line that is no order in the judges' notation; the message says why."""


class Talk(Unreadable):
    """A line that talks about an order ("F Lon - Eng is tempting, but no"): a remark."""


# The words after an order that make its line talk about it, not give it: "F Lon - Eng
# is tempting", "A Par - Bur would be rude", "A Mun - Ber serait une trahison".
TALK = frozenset("""
    IS ISN WAS WOULD WOULDN COULD SHOULD MIGHT LOOKS SEEMS SOUNDS
    EST SERAIT ETAIT SERA SEMBLE
""".split())


# The arrows people write for a move, as phones, Macs and other engines write them.
ARROWS = re.compile(r"-+>|=+>|[\u2192\u21d2\u27f6\u27f9\u2794\u279c\u27a1\u21e8\u21fe\u21a6]")


def words(line: str) -> list:
    """A line as upper-case words without accents, with "-" and "/" as words of their own;
    an arrow ("->", "=>", "→", "⇒") is a "-"."""
    plain = unicodedata.normalize("NFKD", ARROWS.sub(" - ", line))
    plain = plain.encode("ascii", "ignore").decode().upper()
    return re.findall(r"[A-Z0-9]+|[-/]", plain)


@lru_cache(maxsize=4)
def name_index(board: Board) -> dict:
    """Every way to write a province (key, alias, English or French name) as a word tuple."""
    index = {}
    for key, province in board.provinces.items():
        for text in (key, *province.aliases, province.name, province.french):
            variants = {tuple(words(text))}
            variants |= {tuple(w for w in v if w != "-") for v in variants}
            variants |= {tuple("SAINT" if w == "ST" else w for w in v) for v in variants}
            variants |= {tuple("ST" if w == "SAINT" else w for w in v) for v in variants}
            for variant in variants:
                index[variant] = key
    for key, province in board.provinces.items():
        for text in (province.name, province.french):
            short = sea_adjective(text)
            if short and short not in index:
                index[short] = key
    return index


@lru_cache(maxsize=4)
def longest_name(board: Board) -> int:
    """The most words a province's name is written in."""
    return max(len(name) for name in name_index(board))


def sea_adjective(name: str) -> tuple | None:
    """A sea's name as players shorten it, its one word without "Sea" or "Mer" ("Ionian",
    "Ionienne", "Adriatique"), or None for a name that does not shorten so."""
    named = words(name)
    if len(named) == 2 and named[0] == "MER":
        short = named[1]
    elif len(named) == 2 and named[1] == "SEA":
        short = named[0]
    else:
        return None
    return None if short in COAST_WORDS or short in KEYWORDS else (short,)


@lru_cache(maxsize=4)
def first_words(board: Board) -> frozenset:
    """The words an order may start with: a unit type, a nationality, a winter's order
    word, a province's abbreviation or the first word of its name."""
    return frozenset(UNIT_WORDS) | frozenset(NATIONALITIES) | BUILD | REMOVE | WAIVE | \
        {name[0] for name in name_index(board)}


@lru_cache(maxsize=4)
def order_words(board: Board) -> tuple:
    """Every word of every order, in both languages and lower case: what a line's first
    word may be a typing mistake for (spelling.aside)."""
    found = set(first_words(board)) | KEYWORDS | {w for name in name_index(board) for w in name}
    return tuple(sorted(word.lower() for word in found if word.isalpha()))


def remark_of(board: Board, number: int, line: str) -> OrderError | None:
    """The remark a line is (chat between the orders: its first word can start no order
    and is no typing mistake for an order's word; a line of no word at all, ":)"), or
    None."""
    first = words(line)[:2]
    if not line.strip():
        return None
    if first[:1] == [ARTICLE] and first[1:] and first[1] in UNIT_WORDS:
        return None  # webDiplomacy's "The army at Munich hold."
    first = first[:1]
    if first and first[0] in first_words(board):
        return talk_about_place(board, number, line)
    return aside(number, line, first[0].lower() if first else "", order_words(board))


def talk_about_place(board: Board, number: int, line: str) -> OrderError | None:
    """The remark a line opening with a province's name is when no word of it is a unit's
    or an order's ("Norway back!", "Belgique enfin"), or None."""
    reader = Reader(board, line)
    if reader.peek() in NATIONALITIES or KEYWORDS.union(UNIT_WORDS).intersection(reader.words):
        return None
    try:
        reader.place()
    except Unreadable:
        return None
    after = reader.peek()
    if after is None or after in KEYWORDS or after in UNIT_WORDS or after in COAST_WORDS:
        return None
    return aside(number, line, after.lower(), order_words(board))


class Reader:
    """Reads one line's words, left to right."""

    def __init__(self, board: Board, line: str):
        self.board = board
        self.words = words(line)
        self.at = 0
        self.index = name_index(board)
        self.longest = longest_name(board)

    def peek(self) -> str | None:
        return self.words[self.at] if self.at < len(self.words) else None

    def take(self, choices) -> str | None:
        """The next word if it is one of `choices` (consumed), else None."""
        word = self.peek()
        if word in choices:
            self.at += 1
            return word
        return None

    def done(self) -> bool:
        return self.at >= len(self.words)

    def unit(self) -> str | None:
        """An optional unit type (A, ARMY, F or FLEET), after an optional nationality
        ("German A MUN"), which is not needed and not checked; "the army at Munich" as
        webDiplomacy writes it."""
        self.nationality()
        if self.peek() == ARTICLE and self.words[self.at + 1:self.at + 2] and \
                self.words[self.at + 1] in UNIT_WORDS:
            self.at += 1
        word = self.take(UNIT_WORDS)
        if word:
            self.take({AT})
        return UNIT_WORDS[word] if word else None

    def moving(self) -> bool:
        """A move's word, and the "to" after it ("-", "move to", "moves to"), taken."""
        if self.take(MOVE):
            self.take({TO})
            return True
        return False

    def nationality(self) -> str | None:
        """The power a nationality word here names (consumed), or None; "English Channel"
        is a province, not a nationality."""
        if self.peek() in NATIONALITIES and not self.names_place():
            self.at += 1
            return NATIONALITIES[self.words[self.at - 1]]
        return None

    def names_place(self) -> bool:
        """Do the words here begin with a province's name ("English Channel")?"""
        return any(tuple(self.words[self.at:self.at + size]) in self.index
                   for size in range(2, self.longest + 1))

    def place(self) -> str:
        """A province, with the coast if one is written ("SPA/NC", "Spain (nc)")."""
        for size in range(min(self.longest, len(self.words) - self.at), 0, -1):
            key = self.index.get(tuple(self.words[self.at:self.at + size]))
            if key:
                self.at += size
                return key + self.coast()
        raise Unreadable(self.unknown())

    def coast(self) -> str:
        """An optional coast after a province: "/NC", "(nc)", " NC", "/north coast",
        "/CN", "(côte nord)"."""
        slash = self.take({"/"})
        ahead = self.words[self.at:self.at + 2]
        if ahead[:1] == ["COTE"] and ahead[1:] in (["NORD"], ["SUD"], ["EST"]):
            self.at += 2
            return "/" + COAST_WORDS[ahead[1]]
        word = self.peek()
        spelt = word in ("NORTH", "SOUTH", "EAST") and ahead[1:] == ["COAST"]
        if word in COAST_WORDS and (slash or word in WRITTEN_COASTS or spelt):
            self.at += 2 if spelt else 1
            return "/" + COAST_WORDS[word]
        if slash:
            raise Unreadable(_("a coast is written NC, SC or EC, as in SPA/NC"))
        return ""

    def unknown(self) -> str:
        """Why the words here name no province, and the closest names."""
        span = []
        for word in self.words[self.at:]:
            if word in KEYWORDS and span:
                break
            span.append(word)
        if not span:
            return _("a province is missing at the end of the line")
        said = " ".join(span)
        near = nearest_provinces(self.board, said)
        if near:
            return _("there is no province {word}; did you mean {names}?").format(
                word=said, names=_(" or ").join(place_words(self.board, n) for n in near))
        return _("there is no province {word}").format(word=said)


@lru_cache(maxsize=4)
def province_spellings(board: Board) -> dict:
    """{abbreviation or name, in words: province} for the closest names to a mistyped one."""
    names = {k: k for k in board.provinces}
    for key, province in board.provinces.items():
        names[" ".join(words(province.name))] = key
        names[" ".join(words(province.french))] = key
    return names


@lru_cache(maxsize=1024)
def nearest_provinces(board: Board, said: str) -> tuple:
    """The provinces whose names are closest to words that name none, best first (looked
    up once for each word: a mail may make the same mistake on thousands of lines)."""
    names = province_spellings(board)
    return tuple(dict.fromkeys(names[n] for n in closest(said, names)))


def place_words(board: Board, place: str) -> str:
    """A place for a message, in the reader's language: "Spain (north coast) (SPA/NC)"."""
    return f"{board.name(place, french=current() == 'fr')} ({place})"


def power_words(board: Board, power: str) -> str:
    """A power's name in the reader's language."""
    return board.powers[power].french if current() == "fr" else board.powers[power].name


def power_in_sentence(board: Board, power: str) -> str:
    """A power's name inside a sentence, in the reader's language: "Turkey builds 1",
    "la Turquie construit 1"."""
    found = board.powers[power]
    return found.french_the if current() == "fr" else found.name


def read_line(board: Board, phase: str, line: str, example: str) -> dict:
    """One line as an order, not yet checked against the position. Raises Unreadable."""
    reader = Reader(board, line)
    if phase == "adjustment":
        order = read_adjustment(reader, example)
    else:
        # the verb first, as in a retreat phase people write: "retreat A BUR - PIC",
        # "disband F KIE"
        first = reader.take(RETREAT | DISBAND) if phase == "retreat" else None
        unit = reader.unit()
        if unit is None and reader.peek() in BUILD | WAIVE | {"REMOVE", "REMOVES", "RETIRE"}:
            raise Unreadable(_("builds, removals and waives are written in winter; now write "
                               "for example {example}").format(example=example))
        if unit is None and phase == "movement" and reader.peek() in RETREAT | DISBAND:
            raise Unreadable(_("retreats and disbands are written when a unit is dislodged; "
                               "now write for example {example}").format(example=example))
        try:
            place = reader.place()
        except Unreadable:
            if unit or ORDER_MARKS.intersection(reader.words):
                raise
            raise Unreadable(unknown_word(reader.words[0], sorted(
                w for w in KEYWORDS | set(UNIT_WORDS) if w.isalpha()), example)) from None
        if first in DISBAND and reader.done():
            order = {"type": "disband", "unit": unit, "at": place}
        else:
            order = read_unit_order(reader, {"unit": unit, "at": place}, phase)
    if reader.peek() in TALK:
        raise Talk(_("not an order: set aside as a remark"))
    if not reader.done():
        raise Unreadable(_("I do not understand {words!r} at the end of the line").format(
            words=" ".join(reader.words[reader.at:])))
    return order


def read_unit_order(reader: Reader, order: dict, phase: str) -> dict:
    """What follows the unit: hold, move, support, convoy (or retreat, disband)."""
    if reader.take(HOLD):
        return {"type": "hold", **order}
    if reader.take(DISBAND):
        return {"type": "disband", **order}
    if reader.take(MOVE | RETREAT):
        reader.take(MOVE)  # "F SWE RETREATS TO BOT", "A BUR RECULE VERS PIC"
        order = {"type": "retreat" if phase == "retreat" else "move", **order,
                 "to": reader.place()}
        while reader.moving():  # a convoy route written out: only its end counts
            order["to"] = reader.place()
        via = reader.take(VIA)
        if via and not reader.take(CONVOY) and (via != "VIA" or not reader.done()):
            raise Unreadable(_("write VIA CONVOY after a move that takes a convoy"))
        return {**order, "via": True} if via else order
    if reader.take(SUPPORT):
        return {"type": "support", **order, **supported(reader)}
    if reader.take(CONVOY):
        return {"type": "convoy", **order, **convoyed(reader)}
    if reader.done():
        raise Unreadable(_("the order is missing: H, -, S or C after the unit"))
    raise Unreadable(_("I do not understand {word!r}: write H, -, S or C after the unit").format(
        word=reader.peek()))


def supported(reader: Reader) -> dict:
    """The unit a support helps, and where it moves (keys of_unit, of, and to for a move):
    "A VEN - TRI", "A VEN", "Fleet Sweden move to Denmark", or as webDiplomacy writes
    them, "support move to Denmark from Sweden", "support hold to Norway"."""
    if reader.take(HOLD):
        reader.take({TO})
        return {"of_unit": reader.unit(), "of": reader.place()}
    if reader.moving():
        to = reader.place()
        if not reader.take({"FROM"}):
            raise Unreadable(_("a support names the unit it helps: F NTH S F SWE - DEN"))
        return {"of_unit": reader.unit(), "of": reader.place(), "to": to}
    helped = {"of_unit": reader.unit(), "of": reader.place()}
    if reader.moving():
        return {**helped, "to": reader.place()}
    reader.take(HOLD)
    return helped


def convoyed(reader: Reader) -> dict:
    """The army a convoy carries and where (keys of_unit, of, to): "A LON - BEL", or as
    webDiplomacy writes it, "convoy to Norway from Yorkshire"."""
    if reader.take({TO}):
        to = reader.place()
        if not reader.take({"FROM"}):
            raise Unreadable(_("a convoy names the army and where it goes: F NTH C A LON - BEL"))
        return {"of_unit": reader.unit(), "of": reader.place(), "to": to}
    carried = {"of_unit": reader.unit(), "of": reader.place()}
    if not reader.moving():
        raise Unreadable(_("a convoy names the army and where it goes: F NTH C A LON - BEL"))
    return {**carried, "to": reader.place()}


def read_adjustment(reader: Reader, example: str) -> dict:
    """BUILD A PAR, BUILD F STP/NC, BUILD STP/NC (a fleet), REMOVE A BER, WAIVE; a power
    may be named first ("France: BUILD A PAR"), or after WAIVE ("WAIVE FRANCE")."""
    named = reader.nationality()
    if reader.take(WAIVE):
        named = reader.nationality() or named
        return {"type": "waive", **({"power": named} if named else {})}
    if reader.take(BUILD):
        return {"type": "build", "unit": reader.unit(), "at": reader.place()}
    if reader.take(REMOVE):
        return {"type": "remove", "unit": reader.unit(), "at": reader.place()}
    unit = reader.unit()
    if unit:  # the verb after the unit, as other engines write it: "F BRE B", "A TUS D"
        at = reader.place()
        if reader.take(BUILD):
            return {"type": "build", "unit": unit, "at": at}
        if reader.take(REMOVE):
            return {"type": "remove", "unit": unit, "at": at}
        raise Unreadable(_("write BUILD or REMOVE: for example {example}").format(
            example=example))
    raise Unreadable(unknown_word(reader.peek() or "", sorted(BUILD | REMOVE | WAIVE),
                                  example))


# Checking an order against the position.

class Refused(ValueError):
    """An order that cannot be given in this position; the message says why."""


def own_unit(board: Board, position: dict, power: str, place: str) -> tuple:
    """(province, unit record) of the power's unit at a place. Refused if there is none."""
    province = province_of(place)
    unit = position["units"].get(province)
    if unit is None:
        yours = [unit_text(p, u) for p, u in sorted(position["units"].items())
                 if u["power"] == power]
        if yours:
            raise Refused(_("there is no unit in {place}; your units: {units}").format(
                place=place_words(board, province), units=", ".join(yours)))
        raise Refused(_("there is no unit in {place}").format(place=place_words(board, province)))
    if unit["power"] != power:
        raise Refused(_("the unit in {place} is {owner}'s: you order only your own units").format(
            place=place_words(board, province), owner=power_in_sentence(board, unit["power"])))
    return province, unit


def fleet_seas(position: dict, board: Board) -> frozenset:
    """The seas where a fleet stands: the only provinces a convoy can go through."""
    return frozenset(p for p, u in position["units"].items()
                     if u["type"] == FLEET and board.is_sea(p))


def move_target(board: Board, position: dict, unit: str, place: str, to: str,
                via: bool = False, without: str | None = None, any_coast: bool = False) -> str:
    """Where a unit at `place` would end when ordered to `to`: for a fleet, the coast it
    can reach. Refused when the move is impossible whatever the other orders. `without`
    is a sea that may not take part in a convoy (the supporter's own); `any_coast` lets
    a fleet's move name no coast where two are possible (what a support may do)."""
    start, province = province_of(place), province_of(to)
    if province == start:
        raise Refused(_("a unit cannot move to the province it stands in"))
    if unit == FLEET:
        if via:
            raise Refused(_("only armies can be convoyed"))
        return fleet_target(board, place, to, any_coast)
    if board.is_sea(province):
        raise Refused(_("an army cannot go to sea: {place}").format(
            place=place_words(board, province)))
    if province in board.army[start] and not via:
        return province
    seas = fleet_seas(position, board) - {without}
    if not board.convoy_route(start, province, seas):
        if province in board.army[start]:
            raise Refused(_("no fleets stand at sea between {start} and {end} to convoy the "
                            "army").format(start=place_words(board, start),
                                           end=place_words(board, province)))
        raise Refused(_("{start} does not border {end}, and no fleets stand at sea between "
                        "them to convoy the army; it may move to {places}").format(
                            start=place_words(board, start), end=place_words(board, province),
                            places=", ".join(sorted(board.army[start]))))
    return province


def fleet_target(board: Board, place: str, to: str, any_coast: bool = False) -> str:
    """The place a fleet at `place` reaches when ordered to `to` (coast given or not);
    with `any_coast`, the province alone when the order names no coast."""
    province = province_of(to)
    if board.is_land(province):
        raise Refused(_("a fleet cannot enter {place}, an inland province").format(
            place=place_words(board, province)))
    targets = board.fleet_targets(place, province)
    if not targets:
        raise Refused(_("a fleet in {start} cannot reach {end}; it can reach {targets}").format(
            start=place_words(board, place), end=place_words(board, province),
            targets=", ".join(sorted(board.fleet[place]))))
    coast = coast_of(to)
    if coast and board.provinces[province].coasts:
        if to not in targets:
            raise Refused(_("a fleet in {start} cannot reach {end}; it can reach {targets}")
                          .format(start=place_words(board, place), end=place_words(board, to),
                                  targets=", ".join(targets)))
        return to
    if any_coast:
        return province
    if len(targets) > 1:
        raise Refused(_("say which coast of {place}: {targets}").format(
            place=place_words(board, province), targets=_(" or ").join(targets)))
    return targets[0]


def check_movement(board: Board, position: dict, power: str, order: dict) -> dict:
    """The order as it will be played (real unit types and places, coasts filled in).
    Refused if it is impossible in this position whatever the other orders."""
    province, unit = own_unit(board, position, power, order["at"])
    kind, place = unit["type"], place_of(province, unit)
    checked = {"type": order["type"], "unit": kind, "at": place}
    if order["type"] == "hold":
        return checked
    if order["type"] == "move":
        checked["to"] = move_target(board, position, kind, place, order["to"], order.get("via"))
        return {**checked, "via": True} if order.get("via") else checked
    if order["type"] == "support":
        return {**checked, **support_target(board, position, province, kind, order)}
    if order["type"] == "convoy":
        return {**checked, **convoy_target(board, position, province, kind, order)}
    raise Refused(_("a unit holds (H), moves (-), supports (S) or convoys (C) now"))


def support_target(board: Board, position: dict, province: str, kind: str,
                   order: dict) -> dict:
    """The supported unit and destination of a support (keys of, of_unit, to)."""
    of = province_of(order["of"])
    target = position["units"].get(of)
    if target is None:
        raise Refused(_("there is no unit in {place} to support").format(
            place=place_words(board, of)))
    if of == province:
        raise Refused(_("a unit cannot support itself"))
    checked = {"of": place_of(of, target), "of_unit": target["type"]}
    if "to" not in order:
        if not board.reaches(kind, place_of(province, position["units"][province]), of):
            raise Refused(_("the unit in {start} cannot reach {end}, so it cannot support "
                            "there").format(start=place_words(board, province),
                                            end=place_words(board, of)))
        return checked
    to = province_of(order["to"])
    if to == province:
        raise Refused(_("a unit cannot support a move into its own province"))
    if not board.reaches(kind, place_of(province, position["units"][province]), to):
        raise Refused(_("the unit in {start} cannot reach {end}, so it cannot support a move "
                        "there").format(start=place_words(board, province),
                                        end=place_words(board, to)))
    try:
        reached = move_target(board, position, target["type"], checked["of"], order["to"],
                              without=province, any_coast=True)
    except Refused as why:
        if board.is_sea(province) and board.convoy_route(of, to, fleet_seas(position, board)):
            raise Refused(_("the army in {start} could reach {end} only through {place}, and a "
                            "fleet cannot both convoy and support").format(
                                start=place_words(board, of), end=place_words(board, to),
                                place=place_words(board, province))) from None
        raise Refused(_("the move it supports is impossible: {why}").format(why=why)) from None
    return {**checked, "to": reached}


def convoy_target(board: Board, position: dict, province: str, kind: str,
                  order: dict) -> dict:
    """The convoyed army and its destination (keys of, of_unit, to)."""
    if kind != FLEET:
        raise Refused(_("only fleets convoy"))
    if not board.is_sea(province):
        raise Refused(_("a fleet convoys only from open sea, not from {place}").format(
            place=place_words(board, province)))
    of, to = province_of(order["of"]), province_of(order["to"])
    target = position["units"].get(of)
    if target is None:
        raise Refused(_("there is no army in {place} to convoy").format(
            place=place_words(board, of)))
    if target["type"] != ARMY:
        raise Refused(_("only armies can be convoyed"))
    if to == of:
        raise Refused(_("a unit cannot move to the province it stands in"))
    if board.is_sea(to) or board.is_land(to):
        raise Refused(_("an army is convoyed only to a coastal province, not to {place}").format(
            place=place_words(board, to)))
    if province not in board.needed_seas(of, to, fleet_seas(position, board)):
        raise Refused(_("no convoy from {start} to {end} needs the fleet in {place}").format(
            start=place_words(board, of), end=place_words(board, to),
            place=place_words(board, province)))
    return {"of": of, "of_unit": ARMY, "to": to}


def check_retreat(board: Board, position: dict, power: str, order: dict) -> dict:
    """A dislodged unit's retreat or disband, as it will be played. Refused if impossible."""
    province = province_of(order["at"])
    unit = position.get("dislodged", {}).get(province)
    if unit is None or unit["power"] != power:
        if position["units"].get(province, {}).get("power") == power:
            raise Refused(_("only dislodged units move now; the unit in {place} was not "
                            "dislodged").format(place=place_words(board, province)))
        raise Refused(_("you have no dislodged unit in {place}").format(
            place=place_words(board, province)))
    kind, place = unit["type"], place_of(province, unit)
    if order["type"] == "disband":
        return {"type": "disband", "unit": kind, "at": place}
    if order["type"] not in ("retreat", "move"):
        raise Refused(_("a dislodged unit can only retreat or disband"))
    if order.get("via"):
        raise Refused(_("a retreat cannot be convoyed"))
    to = province_of(order["to"])
    if to == province_of(unit["from"]) and not unit.get("convoyed"):
        raise Refused(_("no unit may retreat to {place}, where its attacker came from").format(
            place=place_words(board, to)))
    if kind == FLEET:
        target = fleet_target(board, place, order["to"])
    elif to in board.army[province]:
        target = to
    else:
        raise Refused(_("{start} does not border {end}; it may retreat to {places}").format(
            start=place_words(board, province), end=place_words(board, to),
            places=", ".join(unit["retreats"]) or _("nowhere: disband it")))
    if target not in unit["retreats"]:
        if to in position["units"]:
            raise Refused(_("{place} is occupied").format(place=place_words(board, to)))
        raise Refused(_("{place} was left empty by a standoff: no unit may retreat there")
                      .format(place=place_words(board, to)))
    return {"type": "retreat", "unit": kind, "at": place, "to": target}


class Adjustments:
    """A power's winter orders, checked one by one in the order given (DATC 4.D.4-4.D.6)."""

    def __init__(self, board: Board, position: dict, power: str):
        self.board, self.position, self.power = board, position, power
        self.allowed = adjustment(position, power)
        self.used = 0
        self.taken = set()

    def check(self, order: dict) -> dict:
        """The order as it will be played, counted; Refused if it cannot be."""
        if order["type"] in ("build", "waive"):
            checked = self.build(order)
        elif order["type"] == "remove":
            checked = self.remove(order)
        else:
            raise Refused(_("in winter, orders are BUILD, REMOVE or WAIVE"))
        self.used += 1
        if checked["type"] != "waive":
            self.taken.add(province_of(checked["at"]))
        return checked

    def build(self, order: dict) -> dict:
        board, power = self.board, self.power
        if self.allowed <= 0:
            raise Refused(_("{power} has no build this winter").format(
                power=power_in_sentence(board, power)))
        if self.used >= self.allowed:
            raise Refused(ngettext("one build too many: {power} may build {num} unit",
                                   "one build too many: {power} may build {num} units",
                                   self.allowed).format(power=power_in_sentence(board, power),
                                                        num=self.allowed))
        if order["type"] == "waive":
            return {"type": "waive"}
        province = province_of(order["at"])
        where = place_words(board, province)
        if board.home_of.get(province) != power:
            raise Refused(_("{place} is not a home supply centre of {power}").format(
                place=where, power=power_in_sentence(board, power)))
        if self.position["centres"].get(province) != power:
            raise Refused(_("{power} does not own {place} now").format(
                place=where, power=power_in_sentence(board, power)))
        if province in self.position["units"]:
            raise Refused(_("{place} is occupied").format(place=where))
        if province in self.taken:
            raise Refused(_("{place} already has a build").format(place=where))
        unit = order["unit"] or (FLEET if coast_of(order["at"]) else None)
        if unit is None and board.is_land(province):
            unit = ARMY
        if unit is None:
            raise Refused(_("say A or F to build in {place}").format(place=where))
        if unit == ARMY:
            return {"type": "build", "unit": ARMY, "at": province}
        if board.is_land(province):
            raise Refused(_("a fleet cannot be built in {place}, an inland province").format(
                place=where))
        places = board.places(province)
        if len(places) > 1 and order["at"] not in places:
            raise Refused(_("say which coast of {place}: {targets}").format(
                place=where, targets=_(" or ").join(places)))
        return {"type": "build", "unit": FLEET, "at": order["at"] if len(places) > 1
                else province}

    def remove(self, order: dict) -> dict:
        board, power = self.board, self.power
        if self.allowed >= 0:
            raise Refused(_("{power} has no unit to remove this winter").format(
                power=power_in_sentence(board, power)))
        if self.used >= -self.allowed:
            raise Refused(ngettext("one removal too many: {power} removes {num} unit",
                                   "one removal too many: {power} removes {num} units",
                                   -self.allowed).format(power=power_in_sentence(board, power),
                                                         num=-self.allowed))
        province, unit = own_unit(board, self.position, power, order["at"])
        if province in self.taken:
            raise Refused(_("the unit in {place} is already removed").format(
                place=place_words(board, province)))
        return {"type": "remove", "unit": unit["type"], "at": place_of(province, unit)}


def order_text(order: dict, lang: str = "en") -> str:
    """An order as a judge writes it: "F NTH C A LON - BEL", "BUILD F STP/NC"; in French
    words with lang "fr": "A MUN TIENT", "CONSTRUIT F STP/NC"."""
    said = SAID[lang]
    kind = order["type"]
    if kind == "waive":
        return said["waive"]
    if kind in ("build", "remove"):
        return f"{said[kind]} {order['unit']} {order['at']}"
    unit = f"{order['unit']} {order['at']}"
    if kind in ("hold", "disband"):
        return f"{unit} {said[kind]}"
    if kind in ("move", "retreat"):
        return f"{unit} - {order['to']}" + (f" {said['via']}" if order.get("via") else "")
    target = f"{order['of_unit']} {order['of']}"
    return f"{unit} {said[kind]} {target}" + (f" - {order['to']}" if "to" in order else "")


CHECKS = {"movement": check_movement, "retreat": check_retreat}


def example(board: Board, position: dict, powers) -> str:
    """An order these powers could give now, in the reader's words, to show how orders are
    written."""
    said = SAID[current()]
    if position["phase"] == "retreat":
        units = {p: u for p, u in position["dislodged"].items() if u["power"] in powers}
        return next((f"{unit_text(p, u)} {said['disband']}" for p, u in sorted(units.items())),
                    "A BUR - PAR")
    if position["phase"] == "adjustment":
        return winter_example(board, position, powers)
    units = {p: u for p, u in position["units"].items() if u["power"] in powers}
    return next((f"{unit_text(p, u)} {said['hold']}" for p, u in sorted(units.items())),
                "A PAR - BUR")


def winter_example(board: Board, position: dict, powers) -> str:
    """A removal, or an army built in a free home centre, or a waive, these powers may
    order this winter."""
    said = SAID[current()]
    for power in powers:
        owed = adjustment(position, power)
        units = [p for p, u in sorted(position["units"].items()) if u["power"] == power]
        if owed < 0 and units:
            return f"{said['remove']} {unit_text(units[0], position['units'][units[0]])}"
        free = [p for p in board.powers[power].home
                if position["centres"].get(p) == power and p not in position["units"]]
        if owed > 0 and free:
            return f"{said['build']} {ARMY} {free[0]}"
    return said["waive"]


def read(board: Board, position: dict, power: str, text: str) -> tuple:
    """One power's orders for the phase from its lines: (orders, [OrderError])."""
    orders, errors = read_orders(board, position, (power,), text)
    return orders.get(power, []), errors


def read_orders(board: Board, position: dict, powers, text: str) -> tuple:
    """The orders of a seat playing `powers` from its lines: ({power: [order, ...]},
    [OrderError]), each power in the order its lines were written.

    Blank lines are skipped; a line of chat is a remark (remark_of); every
    other line is one order. A refused line gives no order (the unit holds, or
    in a retreat is disbanded); two lines for one unit are both refused and
    the unit holds.
    """
    phase = position["phase"]
    winter = {p: Adjustments(board, position, p) for p in powers} \
        if phase == "adjustment" else None
    written_example = example(board, position, powers)
    taken, errors = {}, []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        remark = remark_of(board, number, line)
        if remark:
            errors.append(remark)
            continue
        for piece in several(board, phase, line, written_example) or [line]:
            try:
                written = read_line(board, phase, lone(position, powers, piece),
                                    written_example)
                power = power_of(board, position, powers, written)
                if winter:
                    order = winter[power].check(written)
                else:
                    order = CHECKS[phase](board, position, power, written)
            except (Unreadable, Refused) as why:
                errors.append(OrderError(number, piece.strip(), str(why),
                                         remark=isinstance(why, Talk)))
                continue
            key = province_of(order["at"]) if winter is None else (number, piece)
            taken.setdefault(key, []).append((number, piece.strip(), power, order))
    orders = {}
    for given in taken.values():
        if len(given) == 1:
            orders.setdefault(given[0][2], []).append(given[0][3])
            continue
        for number, line, _power, order in given:
            errors.append(OrderError(number, line, _(
                "{unit} has more than one order: none of them counts").format(
                    unit=f"{order['unit']} {order['at']}")))
    errors.sort(key=lambda e: e.line)
    return orders, errors


def lone(position: dict, powers, line: str) -> str:
    """A bare HOLD, DISBAND or REMOVE ("disband", "tient") as the order of the one unit it
    can be meant for now ("A BUR DISBAND"); the line itself when it is no bare verb.
    Unreadable when several units could be meant."""
    said = words(line)
    verb = said[0] if len(said) == 1 else None
    phase = position["phase"]
    if phase == "movement" and verb in HOLD:
        units = {p: u for p, u in position["units"].items() if u["power"] in powers}
    elif phase == "retreat" and verb in DISBAND:
        units = {p: u for p, u in position["dislodged"].items()
                 if u["power"] in powers and u["retreats"]}
    elif phase == "adjustment" and verb in REMOVE:
        units = {p: u for p, u in position["units"].items()
                 if u["power"] in powers and adjustment(position, u["power"]) < 0}
    else:
        return line
    written = {p: f"{verb} {unit_text(p, u)}" if phase == "adjustment" else
               f"{unit_text(p, u)} {verb}" for p, u in sorted(units.items())}
    choices = list(written.values())
    if len(choices) == 1:
        return choices[0]
    raise Unreadable(_("say which unit: {orders}").format(orders=_("{some} or {last}").format(
        some=", ".join(choices[:-1]), last=choices[-1]) if choices else verb))


# What separates orders written on one line: "A Vie - Gal; A Bud - Ser, F Tri - Alb",
# "A Par - Bur and A Mar S A Par - Bur".
SEPARATORS = re.compile(r"\s*[;,]\s*(?:(?:and|et|then|puis)\s+)?|\s+(?:and|et)\s+",
                        re.IGNORECASE)


def several(board: Board, phase: str, line: str, example: str) -> list | None:
    """The orders of a line that holds several, each readable alone, or None when the
    line does not read so (one order, or orders with chat between them)."""
    # its spaces made one first: the separators' spaces, tried at each space of a long run,
    # would cost the run's length each time
    pieces = [piece for piece in SEPARATORS.split(" ".join(line.split())) if piece]
    if len(pieces) < 2:
        return None
    try:
        read_line(board, phase, line, example)
        return None
    except Unreadable:
        pass
    last = words(pieces[-1])
    if last and last[-1] in HOLD:  # "A Vie, A Bud et F Tri tiennent": each holds
        pieces = [piece if piece is pieces[-1] else f"{piece} {last[-1]}" for piece in pieces]
    verb = words(pieces[0])[0]
    found = [readable(board, phase, piece, example, verb) for piece in pieces]
    return found if all(found) else None


def readable(board: Board, phase: str, piece: str, example: str, verb: str) -> str | None:
    """A piece of a line as an order: itself, or in winter with the verb of the line's
    first order ("Build A Ber, F Kie": "BUILD F Kie"), or None."""
    tries = [piece] + ([f"{verb} {piece}"] if phase == "adjustment" and
                       verb in BUILD | REMOVE else [])
    for order in tries:
        try:
            read_line(board, phase, order, example)
            return order
        except Unreadable:
            continue
    return None


def power_of(board: Board, position: dict, powers, written: dict) -> str:
    """Which of a seat's powers a line is for: its unit's power (a build's, its home
    centre's; a WAIVE's, the power it names or the only one that builds). The first of
    `powers` when none of them fits, so that the check says why."""
    if written["type"] == "waive":
        return waiving_power(board, position, powers, written.get("power"))
    if len(powers) == 1:
        return powers[0]
    province = province_of(written["at"])
    if written["type"] == "build":
        owner = board.home_of.get(province)
    else:
        unit = position.get("dislodged", {}).get(province) if position["phase"] == "retreat" \
            else position["units"].get(province)
        owner = unit and unit["power"]
    return owner if owner in powers else powers[0]


def waiving_power(board: Board, position: dict, powers, named: str | None) -> str:
    """The power a WAIVE is for: the one named, or the only one of `powers` that builds."""
    if named in powers:
        return named
    if named is not None:
        raise Refused(_("you do not play {power}").format(
            power=power_in_sentence(board, named)))
    building = [p for p in powers if adjustment(position, p) > 0]
    if len(building) > 1:
        raise Refused(_("say which power waives a build: {choices}").format(
            choices=_(" or ").join(f"{SAID[current()]['waive']} {power_words(board, p).upper()}"
                                   for p in building)))
    return building[0] if building else powers[0]
