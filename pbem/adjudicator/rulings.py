"""Rulings: what a game cannot settle alone, answered by the referee or by a judge seat.

A game asks by returning, from ``pending``, a ``Request(kind="ruling", ...)``
for ``REFEREE`` or for the seat it names as its judge, with:

- ``prompt``: the question, in words;
- ``choices``: each value the ruling sets, and the words it may take
  (``{"winner": ["ann", "bob"], "points": []}``; ``[]`` takes any word or
  number);
- ``concerns``: the seats that are told the ruling (``None``: everyone).

The keys and values are the game's own English words. A game gives the words
a reader sees for them in ``RULING_WORDS`` (``{"winner": N_("winner")}``,
marked for its catalogue): a French seat reads « vainqueur : ann » and a
French judge may write ``décision vainqueur ann``. Names, tiles and numbers
need no entry.

The answer is the asked party's orders, always of this form::

    {"set": {"winner": "ann"}, "text": "the reasoning", "by": "referee"}

A judge seat answers by mail (the game's ``parse`` calls :func:`parse_ruling`
for it); the referee answers with ``pbem ruling G ID --set k=v --text ...``,
for its own questions and, when a judge is slow, in the judge's place. A
phase that asks only the referee has no deadline. When the phase resolves,
the engine records a ``ruling_given`` event (seen by the seats concerned and
the judge) before the game's own events, so the log tells who ruled what and
why; replay re-derives it from the recorded orders like any other event.
"""

from difflib import get_close_matches
import re
import unicodedata

from ..i18n import LANGUAGES, _, catalogue
from ..reading import courteous
from .contract import ALL, REFEREE, Event, OrderError, Request

LEAD_WORDS = ("ruling", "rule", "decision", "arbitrage", "jugement", "verdict",
              "judgement", "judgment")
SILENT = "default"  # `by` of a ruling the judge did not give (its default applied)


def ruling_words(game) -> dict:
    """The words a game gives for its ruling keys and values ({} when it gives none)."""
    return getattr(game, "RULING_WORDS", {})


def folded(word: str) -> str:
    """A word as rulings compare it: lower case, no accents, no colon ('Décision:')."""
    decomposed = unicodedata.normalize("NFKD", word.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).strip(":")


def heard(words: dict) -> dict:
    """{a key's or value's word in any language, folded: the key or value itself}."""
    said = {}
    for own, english in sorted(words.items()):
        for lang in LANGUAGES:
            said[folded(catalogue(lang).gettext(english))] = own
    return said


def setting_text(key: str, value: str, words: dict) -> str:
    """One value a ruling sets, in the reader's words: 'winner: ann', 'vainqueur : ann'."""
    return _("{key}: {value}").format(key=_(words[key]) if key in words else key,
                                      value=_(words[value]) if value in words else value)


def ruling_request(prompt: str, choices: dict, concerns=None, hours=None,
                   facts=None) -> Request:
    """A request for a ruling: the question, what it may set, who is told, and what the one
    who rules should know (`facts`, English sentences for the referee)."""
    return Request("ruling", prompt, hours=hours,
                   choices={key: list(words) for key, words in choices.items()},
                   concerns=None if concerns is None else sorted(set(concerns)),
                   facts=None if facts is None else list(facts))


def value_problem(choices: dict, key: str, value: str) -> str | None:
    """Why `key=value` cannot be part of a ruling, or None (in the current language)."""
    if key not in choices:
        return _("this ruling sets {keys}, not '{key}'").format(
            keys=_(" and ").join(sorted(choices)), key=key)
    allowed = choices[key]
    if allowed and value not in allowed:
        close = get_close_matches(value, allowed, n=1)
        hint = _("; did you mean {name}?").format(name=close[0]) if close else ""
        return _("{key} must be one of {values}, not '{value}'{hint}").format(
            key=key, values=", ".join(allowed), value=value, hint=hint)
    return None


def missing(choices: dict, values: dict) -> list[str]:
    """The keys a ruling must set and does not."""
    return [key for key in sorted(choices) if key not in values]


def example_setting(choices: dict, keys, words: dict) -> str:
    """', e.g. KEY VALUE KEY VALUE' with a value each of these keys may take (different
    ones where it can), in the reader's words; '' when any value will do for one of them."""
    said, used = [], set()
    for key in keys:
        if not choices.get(key):
            return ""
        value = next((v for v in choices[key] if v not in used), choices[key][0])
        used.add(value)
        said += [_(words[w]) if w in words else w for w in (key, value)]
    return _(", e.g. {setting}").format(setting=" ".join(said))


def parse_ruling(text: str, choices: dict, by: str, words: dict | None = None):
    """(orders, errors) for a judge's ruling mail.

    Each line ``[ruling] KEY VALUE [KEY VALUE...] [reasons...]`` sets values;
    ``KEY=VALUE`` works too; a key or value may be written in any language the
    game gives `words` for (see ``RULING_WORDS``). Any other line is reasoning,
    kept whole, but for the mail's courtesies around it (see :func:`courtesies`),
    which are remarks. Every key of `choices` must be set.
    """
    words = words or {}
    values, reasons, errors, settings = {}, [], [], []
    known = heard(words)
    for number, line in enumerate(text.splitlines(), start=1):
        tokens = line.replace("=", " = ").split()
        if tokens and folded(tokens[0]) in LEAD_WORDS:
            tokens = tokens[1:]
        tokens = [w for w in tokens if w not in ("=", ":")]
        key = known.get(folded(tokens[0]), folded(tokens[0])) if tokens else ""
        if key not in choices:
            if line.strip():
                reasons.append((number, line.strip()))
            continue
        settings.append(number)
        while key in choices:
            if len(tokens) < 2:
                errors.append(OrderError(number, line.strip(), _(
                    "say what {key} is{example}").format(
                        key=tokens[0], example=example_setting(choices, [key], words))))
                break
            value = tokens[1].strip(",.;")
            if choices[key]:
                value = known.get(folded(value), value.lower())
            problem = value_problem(choices, key, value)
            if problem:
                errors.append(OrderError(number, line.strip(), problem))
                break
            values[key] = value
            tokens = tokens[2:]
            key = known.get(folded(tokens[0]), folded(tokens[0])) if tokens else ""
        else:
            if tokens:
                reasons.append((number, " ".join(tokens)))
    polite = courtesies(reasons, settings, by)
    errors += [OrderError(number, line, _("not an order: set aside as a remark"), remark=True)
               for number, line in reasons if number in polite]
    left = missing(choices, values)
    if left and not any(not error.remark for error in errors):
        named = [_(words[k]) if k in words else k for k in left]
        keys = _("{first} and {last}").format(first=", ".join(named[:-1]), last=named[-1]) \
            if len(named) > 1 else named[0]
        errors.append(OrderError(0, "", _("the ruling must set {keys}{example}").format(
            keys=keys, example=example_setting(choices, left, words))))
    errors.sort(key=lambda error: error.line)
    said = joined([line for number, line in reasons if number not in polite])
    return {"set": values, "text": said, "by": by}, errors


def joined(lines: list[str]) -> str:
    """Lines of reasoning as one text: a line that ends without a mark ends with ';'."""
    return " ".join(line if line[-1] in ".!?;:,…" or at == len(lines) - 1 else f"{line};"
                    for at, line in enumerate(lines))


# Words that, with a ruling's own word, make a line that only announces the ruling or
# calls its readers: "Voici mon jugement, mes seigneurs.", "Here is my final ruling:".
ANNOUNCING = frozenset("""
    here is here's heres this my our the final as follows below
    voici voila mon ma notre le la final finale definitif definitive comme suit ci dessous
    ci-dessous mes seigneurs lords gentlemen messieurs all tous
""".split())


def courtesies(reasons: list, settings: list, by: str) -> set[int]:
    """The numbers of the reasoning's lines that are the mail's courtesies, not reasons:
    before the first line that sets a value, a greeting or a line that only announces the
    ruling ("Voici mon jugement, mes seigneurs."); after the last, a sign-off and every
    line below it ("Bien à vous,", "Zed le Barbare"), or the judge's name alone."""
    first = min(settings, default=0)
    last = max(settings, default=0)
    polite = {number for number, line in reasons if number < first and (
        courteous(line, {by}) or announces(line))}
    below = [(number, line) for number, line in reasons if number > last]
    signed = next((at for at, (_number, line) in enumerate(below)
                   if courteous(line, {by})), None)
    if signed is not None:
        polite |= {number for number, _line in below[signed:]}
    return polite


def announces(line: str) -> bool:
    """Does a line only announce the ruling, or call its readers ("My ruling:", "Voici mon
    jugement.", "Mes seigneurs,")?"""
    said = re.findall(r"[\w-]+", folded(line))
    return bool(said) and all(word in LEAD_WORDS or word in ANNOUNCING for word in said)


def ruling_event(phase: int, asked: str, request: dict, orders: dict,
                 defaulted: bool = False) -> Event:
    """The ruling_given event for one answered (or, when silent, defaulted) ruling request."""
    concerns = request.get("concerns")
    if concerns is None:
        visible = ALL
    else:
        visible = sorted(set(concerns) | ({asked} if asked != REFEREE else set()))
    return Event("ruling_given", {
        "phase": phase, "asked": asked,
        "by": SILENT if defaulted else orders.get("by") or asked,
        "question": request["prompt"], "set": orders.get("set", {}),
        "text": orders.get("text", ""),
    }, visible)


def narrate_ruling(payload: dict, words: dict | None = None) -> str:
    """A ruling in one sentence (in the current language), for reports and the log.

    The question is stored in English, as the game asked it, and said again in
    the reader's language, and so are the values set, in the game's `words`
    (see ``RULING_WORDS``); the reasoning stays in the ruler's own words.
    """
    question = payload["question"]
    said = {"question": _(question), "by": payload["by"],
            "values": ", ".join(setting_text(k, v, words or {})
                                for k, v in sorted(payload["set"].items()))
            or _("nothing set"),
            "reasons": f" ({payload['text']})" if payload["text"] else ""}
    if payload["by"] == REFEREE:
        return _("Ruling by the referee on \u201c{question}\u201d: {values}{reasons}.").format(
            **said)
    if payload["by"] == SILENT:
        return _("No ruling came on \u201c{question}\u201d: the default applies, "
                 "{values}{reasons}.").format(**said)
    return _("Ruling by {by} on \u201c{question}\u201d: {values}{reasons}.").format(**said)
