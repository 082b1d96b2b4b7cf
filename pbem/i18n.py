"""French and English: the current language, gettext catalogues, dates and numbers.

Every string a player reads is an English msgid marked with ``_()`` (or
``ngettext()``; ``N_()`` marks a string defined at import time, translated
later with ``_()``). The language is a context variable, English unless a
``speaking(lang)`` block says otherwise, so the same code and templates write
every seat's mail in its own language.

The French catalogues are the ``.po`` files in the repository, read with
Babel the first time a French string is asked for: pbem's own
(``pbem/locale/fr.po``), then each game's (``games/<game>/locale/fr.po``)
merged after it. English needs no catalogue: the msgid is the English text.
Babel itself is loaded only when a mail or a date is written, so commands
that write none (an idle tick) never load it. See docs/i18n.md.
"""

from contextlib import contextmanager
from contextvars import ContextVar
from datetime import timezone
from functools import lru_cache
import gettext
from importlib.resources import files
import io
import re
import unicodedata
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import pbem.games

from .timeutil import parse_time

LANGUAGES = ("en", "fr")
NAMES = {
    "en": "en", "english": "en", "anglais": "en",
    "fr": "fr", "french": "fr", "francais": "fr", "français": "fr",
}
DATE_PATTERN = "EEE d MMM y HH:mm"
MSGID = "msgid"  # the key of a stored sentence's English text

_language: ContextVar[str] = ContextVar("pbem_language", default="en")
_reader: ContextVar[tuple] = ContextVar("pbem_reader", default=(None, None))


def current() -> str:
    """The language mail is being written in now ("en" or "fr")."""
    return _language.get()


@contextmanager
def speaking(lang: str):
    """Write in `lang` ("en" or "fr") inside the block; the language before comes back after."""
    if lang not in LANGUAGES:
        raise ValueError(f"pbem does not speak {lang!r}; it speaks {', '.join(LANGUAGES)}")
    token = _language.set(lang)
    try:
        yield
    finally:
        _language.reset(token)


def reader() -> str | None:
    """The seat being written for (None: the public, an observer, the referee)."""
    return _reader.get()[0]


def reader_zone() -> str | None:
    """The time zone of the reader being written for (None: UTC)."""
    return _reader.get()[1]


@contextmanager
def for_reader(seat: str | None, tz_name: str | None):
    """Write for `seat` (None: the public), its times in `tz_name` (None: UTC), inside the
    block, where a sentence cannot be given its reader itself (an event narrated for its
    reader: "you" to the seat it names, times in its zone)."""
    token = _reader.set((seat, tz_name))
    try:
        yield
    finally:
        _reader.reset(token)


def normal_language(text: str) -> str | None:
    """The language a player or referee names ("fr", "Français", "english", "fr-FR"), or None."""
    word = unicodedata.normalize("NFC", text.strip().lower()).replace("-", "_")
    base = word.partition("_")[0]
    return NAMES.get(word) or (base if base in LANGUAGES else None)


def _(message: str) -> str:
    """The message in the current language."""
    return elidable(catalogue(current()).gettext(message))


def again(text: str) -> str:
    """A sentence kept in English, in the current language: a phase's prompt in the log,
    found by its msgid, or by the msgid it was filled in from ("Orders for turn 3.", from
    "Orders for turn {turn}.", reads "Ordres du tour 3.")."""
    said = _(text)
    if said != text or current() == "en":
        return said
    for pattern, msgid in filled_in(current()):
        found = pattern.fullmatch(text)
        if found:
            return _(msgid).format(**found.groupdict())
    return text


@lru_cache(maxsize=None)
def filled_in(lang: str) -> list[tuple]:
    """[(a pattern that reads a msgid filled in, the msgid)] of a language's catalogue, for
    each msgid with named values ("{turn}"), the one with the most words of its own
    first."""
    found = []
    for msgid in catalogue(lang)._catalog:
        if not isinstance(msgid, str) or "{" not in msgid:
            continue
        parts = re.split(r"\{(\w+)\}", msgid)
        names = parts[1::2]
        if not names or len(set(names)) < len(names) or "{" in "".join(parts[::2]):
            continue
        pattern = "".join(re.escape(part) if at % 2 == 0 else f"(?P<{part}>.+?)"
                          for at, part in enumerate(parts))
        found.append((len("".join(parts[::2])), re.compile(pattern, re.DOTALL), msgid))
    return [(pattern, msgid) for _length, pattern, msgid in
            sorted(found, key=lambda item: (-item[0], item[2]))]


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural message, by the current language's plural rule for n."""
    return elidable(catalogue(current()).ngettext(singular, plural, n))


# French "de" and "que" before a value: elided when the value starts with a vowel.
ELISION = re.compile(r"\b([Dd]e|[Qq]ue) \{(\w+)([^{}]*)\}")
VOWELS = frozenset("aeiouàâäéèêëîïôöùûüAEIOUÀÂÉÈÊÎÔÙÛ")  # y: "de Yann"


class Elided(str):
    """A French message whose "de {seat}" and "que {seat}" read "d'ann", "qu'ann" when the
    value starts with a vowel ("Le village de {lord}": "Le village d'ann")."""

    def format(self, *args, **kwargs) -> str:
        def elide(found):
            value = kwargs.get(found.group(2))
            if isinstance(value, str) and value[:1] in VOWELS:
                return f"{found.group(1)[:-1]}'{{{found.group(2)}{found.group(3)}}}"
            return found.group(0)
        return str.format(ELISION.sub(elide, self), *args, **kwargs)


def elidable(text: str) -> str:
    """The message, eliding as French does when it is French and takes values."""
    return Elided(text) if current() == "fr" and "{" in text else text


def N_(message: str) -> str:
    """Mark a message for the catalogues without translating it (translate it later with _)."""
    return message


@lru_cache(maxsize=None)
def catalogue(lang: str) -> gettext.NullTranslations:
    """A language's translations: pbem's catalogue with every game's merged after it.

    Read once per process, on first use; English needs none.
    """
    if lang == "en":
        return gettext.NullTranslations()
    merged = _read_po(files("pbem") / "locale" / f"{lang}.po", lang)
    for name in pbem.games.names():
        path = files("pbem.games") / name / "locale" / f"{lang}.po"
        if path.is_file():
            merged.merge(_read_po(path, lang))
    return merged


def _read_po(path, lang: str):
    """A .po file as gettext translations (fuzzy and empty entries left out)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    from babel.support import Translations
    with path.open("rb") as handle:
        po = read_po(handle, locale=lang)
    compiled = io.BytesIO()
    write_mo(compiled, po)
    compiled.seek(0)
    return Translations(compiled)


class Said(str):
    """A sentence in the current language that remembers its English msgid and arguments.

    It reads as a plain string where it is made (an error for the seat whose
    mail is being read), and ``stored()`` keeps it for a game's log as data,
    so ``said()`` can write it again later in any reader's language:
    ``Said("{cell} is blocked", cell="BAK")``. Arguments may be Said too.
    """

    msgid: str
    args: dict

    def __new__(cls, msgid: str, /, **args):
        text = _(msgid).format(**{k: said(v) for k, v in args.items()})
        made = super().__new__(cls, text)
        made.msgid, made.args = msgid, args
        return made

    def stored(self) -> dict:
        """The sentence as plain data for an event: {"msgid": ..., "args": {...}}."""
        return {MSGID: self.msgid,
                "args": {k: _stored(v) for k, v in sorted(self.args.items())}}


def _stored(value):
    """An argument of a Said as plain data (Said and lists of them included)."""
    if isinstance(value, Said):
        return value.stored()
    if isinstance(value, list):
        return [_stored(v) for v in value]
    return value


def said(message) -> str:
    """A stored sentence (``Said.stored()``) in the current language; plain text as it is.

    A list of them is said as one sentence, its parts joined by semicolons.
    """
    if isinstance(message, Said):
        message = message.stored()
    if isinstance(message, list):
        return _("; ").join(said(part) for part in message)
    if isinstance(message, dict) and MSGID in message:
        english = message[MSGID]
        return _(english).format(**{k: said(v) for k, v in message.get("args", {}).items()})
    return str(message)


def short_date(iso_utc: str, tz_name: str | None) -> str:
    """A deadline for a subject line: 'Tue 18:00', 'mardi 18:00', in the seat's zone.

    French days are written whole: their short forms end in a full stop that reads as
    the end of a sentence, and "avant jeu. 13:00" as "before the game"."""
    from babel.dates import format_datetime
    return format_datetime(parse_time(iso_utc), "EEEE HH:mm" if current() == "fr" else
                           "EEE HH:mm", tzinfo=zone_of(tz_name), locale=current())


def zone_of(tz_name: str | None):
    """The zone a seat's times are shown in (UTC when unknown or missing)."""
    try:
        return ZoneInfo(tz_name) if tz_name else timezone.utc
    except (ZoneInfoNotFoundError, ValueError):
        return timezone.utc


def format_date(iso_utc: str, tz_name: str | None) -> str:
    """A UTC time in a seat's time zone and the current language.

    'Tue 1 Dec 2026 19:00 (Europe/Paris)', 'mar. 1 déc. 2026 19:00 (Europe/Paris)';
    an unknown or missing zone shows UTC.
    """
    return formatted_date(iso_utc, tz_name, current())


@lru_cache(maxsize=256)
def formatted_date(iso_utc: str, tz_name: str | None, lang: str) -> str:
    """`format_date` in a given language (a deadline is shown in many mails: formatted once
    per process)."""
    from babel.dates import format_datetime
    zone = zone_of(tz_name)
    label = tz_name if zone is not timezone.utc else "UTC"
    shown = format_datetime(parse_time(iso_utc), DATE_PATTERN, tzinfo=zone, locale=lang)
    return f"{shown} ({label})"


def counted(number: int, noun: str) -> str:
    """A count and its English noun, for the referee's terminal and logs: '1 mail', '2 mails'."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def format_number(n) -> str:
    """A number as the current language writes it: '12,345.5' or '12 345,5'."""
    from babel.numbers import format_decimal
    return format_decimal(n, locale=current())


def format_span(low: int, high: int) -> str:
    """A count that may range, as the current language writes it: '2-7', '2 à 7', or '3'
    alone."""
    return str(low) if low == high else _("{low}-{high}").format(low=low, high=high)
