"""Seigneurs' material: the goods, their words in English and French, and the data files.

The valley, the building table, the event deck and the numbers the original
leaves open are TOML data beside this module (valley.toml, buildings.toml,
events.toml, material.toml). A game copies them into its state when it is set
up, so replacing a file never changes a game under way.
"""

from functools import lru_cache
from pathlib import Path
import tomllib
import unicodedata

from pbem.adjudicator import hexgrid
from pbem.i18n import N_, _

HERE = Path(__file__).parent
RESOURCES = ("wood", "stone", "food", "metal")
GOODS = RESOURCES + ("coins", "weapons")
BUILDINGS = ("church", "oven", "forge", "mill", "walls", "house", "watchtower", "keep")
ROWS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
# The bag of the rules' first two editions (docs/rules/seigneurs.md, "Editions").
EARLIER_BAG = {"wood": 12, "stone": 12, "food": 12, "metal": 12}

GOOD_NAMES = {"wood": N_("wood"), "stone": N_("stone"), "food": N_("food"),
              "metal": N_("metal"), "coins": N_("coins"), "weapons": N_("forged weapons")}
BUILDING_NAMES = {"church": N_("church"), "oven": N_("oven"), "forge": N_("forge"),
                  "mill": N_("mill"), "walls": N_("walls"), "house": N_("warrior house"),
                  "watchtower": N_("watchtower"), "keep": N_("keep")}

# The default deck's cards by name, as a seat reads and writes them (a card a referee's own
# deck adds is named by its id in every language).
CARD_NAMES = {"quiet-spring": N_("quiet-spring"), "border-raid": N_("border-raid"),
              "great-pilgrimage": N_("great-pilgrimage"), "horde": N_("horde"),
              "salt-road": N_("salt-road"), "wolves-winter": N_("wolves-winter"),
              "relic": N_("relic"), "fair": N_("fair"),
              "raiders-from-the-hills": N_("raiders-from-the-hills"),
              "plague-rumour": N_("plague-rumour"), "war-band": N_("war-band"),
              "bishop": N_("bishop")}

GOOD_WORDS = {
    "wood": "wood", "bois": "wood",
    "stone": "stone", "stones": "stone", "pierre": "stone", "pierres": "stone",
    "food": "food", "nourriture": "food", "vivres": "food", "ble": "food",
    "metal": "metal", "metaux": "metal",
    "coins": "coins", "coin": "coins", "piece": "coins", "pieces": "coins",
    "monnaie": "coins", "or": "coins", "sous": "coins",
    "weapons": "weapons", "weapon": "weapons", "arme": "weapons", "armes": "weapons",
}
# Each building by its names and the everyday words people use for it ("caserne").
BUILDING_WORDS = {
    "church": "church", "eglise": "church", "chapel": "church", "chapelle": "church",
    "oven": "oven", "four": "oven", "bakery": "oven", "fournil": "oven",
    "boulangerie": "oven",
    "forge": "forge", "smithy": "forge",
    "mill": "mill", "moulin": "mill",
    "walls": "walls", "wall": "walls", "murailles": "walls", "muraille": "walls",
    "murs": "walls", "mur": "walls", "remparts": "walls", "rempart": "walls",
    "enceinte": "walls",
    "house": "house", "warrior-house": "house", "maison": "house", "warrior": "house",
    "warriors": "house", "barracks": "house", "caserne": "house",
    "watchtower": "watchtower", "tower": "watchtower", "tour": "watchtower",
    "guet": "watchtower",
    "keep": "keep", "donjon": "keep", "castle": "keep", "chateau": "keep",
}
# The words after the first of a building's name as mails write it ("tour de guet",
# "maison de guerriers", "warrior house"): read past.
BUILDING_TAILS = {"watchtower": {"guet"}, "house": {"guerriers", "guerrier", "house"}}


def plain(text: str) -> str:
    """Lower case without accents: 'Métal' -> 'metal'."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@lru_cache(maxsize=None)
def data_file(name: str) -> dict:
    """One of the TOML data files beside this module."""
    return tomllib.loads((HERE / f"{name}.toml").read_text(encoding="utf-8"))


def default_data(number: int) -> dict:
    """Every data table a new game of the rules' edition `number` copies into its state."""
    return {"valley": data_file("valley"), "material": material_table(number),
            "buildings": data_file("buildings"), "deck": data_file("events")["cards"]}


def material_table(number: int) -> dict:
    """material.toml as a game of edition `number` keeps it: before the third edition, the
    table gave the bag 12 of each resource, whatever the number of lords (EARLIER_BAG)."""
    table = data_file("material")
    if number >= 3:
        return table
    return {**{k: v for k, v in table.items() if k != "bag_turns"},
            "bag": table.get("bag", EARLIER_BAG)}


def starting_bag(table: dict, lords: int) -> dict:
    """The resource bag at setup: the material table's `bag` when it gives one, else enough
    for every farm the setup places (`farms` a lord, `free_farms`) to draw `plain_draw` for
    `bag_turns` turns, shared evenly among the resources."""
    if "bag" in table:
        return dict(table["bag"])
    farms = lords * table["farms"] + table["free_farms"]
    each = -(-table["bag_turns"] * farms * table["plain_draw"] // len(RESOURCES))
    return {good: each for good in RESOURCES}


def tile_names(radius: int) -> dict:
    """{name: (q, r)} for a hexagonal valley: rows A.. top to bottom, numbered from the left."""
    names = {}
    for row, r in enumerate(range(-radius, radius + 1)):
        qs = [q for q in range(-radius, radius + 1) if hexgrid.distance((q, r), (0, 0)) <= radius]
        for number, q in enumerate(qs, start=1):
            names[f"{ROWS[row]}{number}"] = (q, r)
    return names


class Valley:
    """The valley's geometry: tile names, coordinates, neighbours, distances, entries."""

    def __init__(self, data: dict):
        self.radius = int(data["radius"])
        self.coords = tile_names(self.radius)
        self.names = sorted(self.coords, key=lambda n: (self.coords[n][1], self.coords[n][0]))
        self.at = {xy: name for name, xy in self.coords.items()}
        self.entries = dict(data.get("entries", {}))

    def neighbours(self, name: str) -> list[str]:
        """The tiles next to a tile, in a fixed order."""
        return [self.at[h] for h in hexgrid.neighbours(self.coords[name]) if h in self.at]

    def distance(self, a: str, b: str) -> int:
        """Steps between two tiles."""
        return hexgrid.distance(self.coords[a], self.coords[b])

    def edge(self, name: str) -> bool:
        """Is the tile on the valley's rim (where warriors may leave it)?"""
        return hexgrid.distance(self.coords[name], (0, 0)) == self.radius

    def lookup(self, word: str) -> str | None:
        """The tile a word names ('c3', 'C3'), or None."""
        name = word.strip().upper()
        return name if name in self.coords else None


@lru_cache(maxsize=8)
def valley_of(radius: int, entries: tuple) -> Valley:
    """A cached Valley for these data (games keep their data as plain dicts)."""
    return Valley({"radius": radius, "entries": dict(entries)})


def valley(state) -> Valley:
    """The valley of a game."""
    data = state["data"]["valley"]
    return valley_of(int(data["radius"]), tuple(sorted(data.get("entries", {}).items())))


def good_name(good: str) -> str:
    """A good's name in the current language."""
    return _(GOOD_NAMES[good])


def card_name(card: str) -> str:
    """An event card's name in the current language."""
    return _(CARD_NAMES[card]) if card in CARD_NAMES else card


def building_name(building: str) -> str:
    """A building's name in the current language."""
    return _(BUILDING_NAMES[building])


def goods_text(goods: dict) -> str:
    """'wood 2, food 1' in the current language (a dash for nothing)."""
    parts = [f"{good_name(g)} {goods[g]}" for g in GOODS if goods.get(g)]
    return ", ".join(parts) or "-"


def offered_text(goods: dict) -> str:
    """One side of an offer in words: 'wood 2', or 'nothing' (a gift)."""
    return goods_text(goods) if any(goods.values()) else _("nothing")


def count(goods: dict) -> int:
    """How many resources (not coins or weapons) a pile holds."""
    return sum(goods.get(g, 0) for g in RESOURCES)


def add(pile: dict, more: dict) -> dict:
    """A new pile with more goods in it (empty counts dropped)."""
    out = dict(pile)
    for good, n in more.items():
        out[good] = out.get(good, 0) + n
    return {g: n for g, n in sorted(out.items()) if n}


def remove(pile: dict, less: dict) -> dict:
    """A new pile with fewer goods; ValueError if the pile lacks some."""
    out = dict(pile)
    for good, n in less.items():
        if out.get(good, 0) < n:
            raise ValueError(good)
        out[good] -= n
    return {g: n for g, n in sorted(out.items()) if n}


def holds(pile: dict, wanted: dict) -> bool:
    """Does the pile hold all of wanted?"""
    return all(pile.get(g, 0) >= n for g, n in wanted.items())
