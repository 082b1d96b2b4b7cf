"""What is in the Attila box: peoples, cards, pawns, peace tiles, action tiles."""

import unicodedata

from pbem.i18n import N_, _

# The six peoples, in scoring order (the influence board, left to right).
PEOPLES = ("franks", "huns", "goths", "saxons", "teutons", "vandals")
PEOPLE_NAMES = {"franks": N_("Franks"), "huns": N_("Huns"), "goths": N_("Goths"),
                "saxons": N_("Saxons"), "teutons": N_("Teutons"), "vandals": N_("Vandals")}
# A people as it qualifies one card or pawn: "a Goth card" ("une carte des Goths").
ONE_OF = {"franks": N_("Frank"), "huns": N_("Hun"), "goths": N_("Goth"), "saxons": N_("Saxon"),
          "teutons": N_("Teuton"), "vandals": N_("Vandal")}
# How orders name each people in each language, for examples ("jouer vandales ...").
PEOPLE_WORDS_BY_LANGUAGE = {
    "en": {p: p for p in PEOPLES},
    "fr": {"franks": "francs", "huns": "huns", "goths": "goths", "saxons": "saxons",
           "teutons": "teutons", "vandals": "vandales"},
}
PEOPLE_COLOURS = {"franks": "#1d4ed8", "huns": "#111111", "goths": "#e9c46a",
                  "saxons": "#2a9d8f", "teutons": "#ffffff", "vandals": "#d62828"}
PEOPLE_WORDS = {
    "franks": "franks", "frank": "franks", "francs": "franks", "franc": "franks",
    "huns": "huns", "hun": "huns",
    "goths": "goths", "goth": "goths",
    "saxons": "saxons", "saxon": "saxons",
    "teutons": "teutons", "teuton": "teutons",
    "vandals": "vandals", "vandal": "vandals", "vandales": "vandals", "vandale": "vandals",
}

CARDS_PER_PEOPLE = 9
PAWNS_PER_PEOPLE = 20
HAND_SIZE = 6
PROVINCE_LIMIT = 5          # the fifth pawn starts a conflict; a sixth is never allowed
MAX_INFLUENCE = 22

# Peace tiles on the century track, in the order they are taken.
TRACK = ("IV", "V", "V", "VI", "VI", "VI", "VII", "VII", "VII", "VII")
CENTURIES = ("IV", "V", "VI", "VII")
GAIN = {"IV": 1, "V": 2, "VI": 3, "VII": 4}

ACTION_TILES = ("double", "exchange", "influence")


def plain(word: str) -> str:
    """A word in lower case, without accents."""
    return unicodedata.normalize("NFKD", word).encode("ascii", "ignore").decode().lower()


def people_of(word: str) -> str | None:
    """The people a word names (English or French, singular or plural), or None."""
    return PEOPLE_WORDS.get(plain(word))


def full_deck() -> list[str]:
    """The 54 cards, 9 per people, in scoring order."""
    return [people for people in PEOPLES for _ in range(CARDS_PER_PEOPLE)]


def in_order(cards) -> list[str]:
    """Cards sorted in scoring order (a hand has no other order)."""
    return sorted(cards, key=PEOPLES.index)


def people_name(people: str) -> str:
    """A people's name in the current language ("Vandals", "Vandales")."""
    return _(PEOPLE_NAMES[people])


def one_of(people: str) -> str:
    """A people as it qualifies a card or a pawn, in the current language ("Goth")."""
    return _(ONE_OF[people])


def cards_text(cards) -> str:
    """Cards as words: 'Franks, Goths, Goths, Huns'; 'no card' when there are none."""
    return ", ".join(people_name(c) for c in in_order(cards)) or _("no card")


def century_of(placed: int) -> str | None:
    """The century whose box holds the next peace tile, or None once all ten are placed."""
    return TRACK[placed] if placed < len(TRACK) else None


def last_of_century(placed: int) -> bool:
    """Did the `placed`-th tile (1-based) empty its century's box?"""
    return placed == len(TRACK) or TRACK[placed] != TRACK[placed - 1]
