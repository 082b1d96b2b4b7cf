"""Answers to a mistyped word: the closest valid names (the standard library's matcher)."""

from difflib import get_close_matches

from ..i18n import Said, _


def closest(word: str, names, count: int = 2) -> list[str]:
    """The valid names closest to a mistyped one (BUW: BUV, gots: goths), best first."""
    return get_close_matches(word, sorted(names), n=count, cutoff=0.6)


def did_you_mean(word: str, names, cutoff: float = 0.6) -> str:
    """'; did you mean X?' for the closest of the names, in the current language; or ''."""
    found = get_close_matches(word, list(names), n=1, cutoff=cutoff)
    return _("; did you mean {name}?").format(name=found[0]) if found else ""


def unknown_word(word: str, words, example: str) -> Said:
    """Why a line's first word is no order: the closest order words, and a real example."""
    near = closest(word, words)
    if near:
        return Said("I do not understand {word!r}; did you mean {near}? Write for example "
                    "{example}, or send HELP", word=word, near=_(" or ").join(near),
                    example=example)
    return Said("I do not understand {word!r}; write for example {example}, or send HELP",
                word=word, example=example)
