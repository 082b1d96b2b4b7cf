"""What a SAGA campaign is made of: factions, units, scenarios, and the words for them.

Names a player reads are marked for translation here (``N_``) and translated
where they are shown (``_``); the keys (``"warriors"``, ``"bridge"``) are what
the state, the events and the data files hold.
"""

from functools import lru_cache
import unicodedata

from pbem.adjudicator import numbers
from pbem.i18n import LANGUAGES, N_, _, current, ngettext, speaking

# Unit types, from the most valuable to the cheapest; one point buys one unit.
UNIT_TYPES = ("hearthguards", "warriors", "levies")
FIGURES = {"hearthguards": 4, "warriors": 8, "levies": 12}
LOSS_ORDER = ("levies", "warriors", "hearthguards")  # what goes first; the Lord last
UNIT_NAMES = {"hearthguards": N_("Hearthguards"), "warriors": N_("Warriors"),
              "levies": N_("Levies")}
UNIT_WORDS = {
    "hearthguards": "hearthguards", "hearthguard": "hearthguards", "guards": "hearthguards",
    "guard": "hearthguards", "gardes": "hearthguards", "garde": "hearthguards",
    "warriors": "warriors", "warrior": "warriors", "guerriers": "warriors",
    "guerrier": "warriors",
    "levies": "levies", "levy": "levies", "levees": "levies", "levee": "levies",
}
LORD_WORDS = ("lord", "seigneur")

MAX_ARMY = 8        # points in one army
MAX_ZONE = 8        # points in one zone, all its armies together
MIN_FIGHT = 4       # points an army needs to leave its owner's zones and to fight
POINT_COST = 5      # gold for one unit (one point)
ZONE_INCOME = 5     # gold per zone controlled, at upkeep
UPKEEP = 1          # gold per army point, at upkeep
HOST_POINTS = (4, 5)
RESERVE_POINTS = (1, 2)
DEFAULT_HOST = {"hearthguards": 1, "warriors": 2, "levies": 1}
DEFAULT_RESERVE = {"hearthguards": 0, "warriors": 1, "levies": 0}

FACTION_NAMES = {
    "vikings": N_("Vikings"), "anglo-danes": N_("Anglo-Danes"), "welsh": N_("Welsh"),
    "normans": N_("Normans"), "scots": N_("Scots"), "hiberno-norse": N_("Hiberno-Norse"),
    "strathclyde": N_("Strathclyde Britons"), "irish": N_("Irish"), "franks": N_("Franks"),
    "bretons": N_("Bretons"),
}
FACTION_WORDS = {
    "viking": "vikings", "vikings": "vikings",
    "anglodanes": "anglo-danes", "anglodane": "anglo-danes", "anglodanois": "anglo-danes",
    "welsh": "welsh", "gallois": "welsh",
    "normans": "normans", "norman": "normans", "normands": "normans", "normand": "normans",
    "scots": "scots", "scot": "scots", "ecossais": "scots",
    "hibernonorse": "hiberno-norse", "hibernonorrois": "hiberno-norse",
    "strathclyde": "strathclyde", "strathclydebritons": "strathclyde",
    "bretonsdestrathclyde": "strathclyde",
    "irish": "irish", "irlandais": "irish",
    "franks": "franks", "frank": "franks", "francs": "franks", "franc": "franks",
    "bretons": "bretons", "breton": "bretons",
}

SCENARIO_NAMES = {
    "face_to_face": N_("Face to face"), "bridge": N_("The bridge"),
    "monastery": N_("The monastery"), "homeland": N_("Homeland"),
    "abduction": N_("The abduction"), "coastal_raid": N_("Coastal raid"),
}
SCENARIO_WORDS = {
    "facetoface": "face_to_face", "face": "face_to_face", "faceaface": "face_to_face",
    "poutre": "face_to_face",
    "bridge": "bridge", "pont": "bridge", "monastery": "monastery", "monastere": "monastery",
    "homeland": "homeland", "terrenatale": "homeland", "patrie": "homeland",
    "abduction": "abduction", "rapt": "abduction",
    "coastalraid": "coastal_raid", "raid": "coastal_raid", "pillagecotier": "coastal_raid",
    "pillage": "coastal_raid",
    # the names as the mails show them
    "thebridge": "bridge", "bataillepourlepont": "bridge", "themonastery": "monastery",
    "lemonastere": "monastery", "theabduction": "abduction", "lerapt": "abduction",
}

EFFECT_NAMES = {
    # scouting
    "nothing": N_("Nothing found, chief"), "presence": N_("Enemy army, or not"),
    "numbers": N_("They are many"), "report": N_("Report"), "outrun": N_("We shall outrun them"),
    # winner
    "pyrrhic": N_("Pyrrhic victory"), "limited": N_("Limited victory"),
    "tactical": N_("Tactical victory"), "total": N_("Total victory"),
    # loser
    "disaster": N_("Disaster"), "heavy": N_("Heavy defeat"), "sacrifice": N_("Sacrifice"),
    "orderly": N_("Orderly retreat"),
    # the Lord
    "slain": N_("slain"), "captured": N_("captured"), "wounded": N_("grievous wound"),
    "unhurt": N_("light wound"), "trick": N_("escapes with a dirty trick"),
}


def plain(word: str) -> str:
    """A word in lower case, without accents."""
    return unicodedata.normalize("NFKD", word).encode("ascii", "ignore").decode().lower()


def squash(word: str) -> str:
    """A name as it is compared: lower case, no accents, no spaces, dashes or quotes."""
    return "".join(ch for ch in plain(word) if ch.isalnum())


def unit_of(word: str) -> str | None:
    """The unit type a word names (English or French), or None."""
    return UNIT_WORDS.get(squash(word))


def faction_of(word: str) -> str | None:
    """The faction a word names (its key, or its name in English or French), or None."""
    key = squash(word)
    return FACTION_WORDS.get(key) or next(
        (f for f in FACTION_NAMES if key in faction_keys(f)), None)


@lru_cache(maxsize=None)
def faction_keys(faction: str) -> frozenset:
    """A faction's key and its names in every language, as faction_of compares them."""
    keys = {squash(faction)}
    for lang in LANGUAGES:
        with speaking(lang):
            keys.add(squash(_(FACTION_NAMES[faction])))
    return frozenset(keys)


def faction_word(faction: str) -> str:
    """A faction as an order writes it in the current language ('anglo-danes')."""
    return faction_name(faction).lower().replace(" ", "-")


def scenario_of(word: str) -> str | None:
    """The scenario a word or a die face names, or None."""
    key = squash(word)
    face = numbers.number(key)
    if face is not None and 1 <= face <= len(SCENARIO_NAMES):
        return list(SCENARIO_NAMES)[face - 1]
    return SCENARIO_WORDS.get(key)


# The two armies every seat starts with are named "host" and "reserve"; a French player
# reads and writes them "ost" and "réserve" (orders read both names in both languages).
FRENCH_ARMY_NAMES = {"host": "ost", "reserve": "réserve"}


def army_name(name: str) -> str:
    """An army's name as its reader writes it: the Main Host's 'host' is 'ost' in French."""
    return FRENCH_ARMY_NAMES.get(name, name) if current() == "fr" else name


def faction_name(key: str) -> str:
    """A faction's name in the current language."""
    return _(FACTION_NAMES[key]) if key in FACTION_NAMES else key


def unit_name(key: str) -> str:
    """A unit type's name in the current language."""
    return _(UNIT_NAMES[key])


def scenario_name(key: str | None) -> str:
    """A scenario's name in the current language."""
    return _(SCENARIO_NAMES[key]) if key in SCENARIO_NAMES else str(key)


def effect_name(key: str) -> str:
    """A table row's name in the current language."""
    return _(EFFECT_NAMES[key]) if key in EFFECT_NAMES else key


def unit_count(kind: str, number: int) -> str:
    """Units of a type with their number, in the current language ('2 Warriors')."""
    if kind == "hearthguards":
        return ngettext("{num} Hearthguards", "{num} Hearthguards", number).format(num=number)
    if kind == "warriors":
        return ngettext("{num} Warriors", "{num} Warriors", number).format(num=number)
    return ngettext("{num} Levies", "{num} Levies", number).format(num=number)


def units_text(units: dict, lord: bool = False) -> str:
    """'1 Hearthguards, 2 Warriors, the Lord' or 'no unit'."""
    parts = [unit_count(t, units[t]) for t in UNIT_TYPES if units.get(t)]
    if lord:
        parts.append(_("the Lord"))
    return ", ".join(parts) or _("no unit")


def points_text(points: int) -> str:
    """'1 point', '5 points'."""
    return ngettext("{num} point", "{num} points", points).format(num=points)
