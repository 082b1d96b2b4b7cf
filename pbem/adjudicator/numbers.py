"""Numbers as people write them: in digits, or in words from one to twelve.

Players count in words as often as in digits: "recruter une levée",
"produire trois pierres", "oppose E8 three", "sell metal one". A game reads a
count with :func:`number` wherever it would read digits (offers.read_goods
does, for goods with their counts). English and French, any case, accents
optional ("DEUX", "douze"); "un" and "une" are one.
"""

import unicodedata

WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    "un": 1, "une": 1, "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "sept": 7, "huit": 8,
    "neuf": 9, "dix": 10, "onze": 11, "douze": 12,
}


def folded(word: str) -> str:
    """A word as numbers are compared: lower case, no accents, no punctuation around it."""
    word = unicodedata.normalize("NFKD", word.casefold())
    return "".join(c for c in word if not unicodedata.combining(c)).strip(".,;:!?()")


def number(word: str) -> int | None:
    """The whole number a word writes ("3", "three", "trois"), or None."""
    said = folded(word)
    if said.isdigit():
        return int(said)
    return WORDS.get(said)
