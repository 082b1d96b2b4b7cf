"""Every marked string has its French, in the right catalogue, and no catalogue keeps dead ones.

The strings are extracted here as `pybabel extract -F babel.cfg` extracts
them (docs/i18n.md): pbem's own from pbem/ and templates/ belong in
pbem/locale/fr.po, a game's from games/<game>/ in games/<game>/locale/fr.po.
"""

from pathlib import Path
import re

from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po
import pytest

ROOT = Path(__file__).parent.parent
GAMES = sorted(p.parent.name for p in (ROOT / "games").glob("*/__init__.py"))
# Each catalogue and the folders whose strings it holds.
CATALOGUES = {"pbem/locale/fr.po": ["pbem", "templates"],
              **{f"games/{g}/locale/fr.po": [f"games/{g}"] for g in GAMES}}
# What marks a string: gettext's usual words, and Said (a sentence kept for a log).
KEYWORDS = {**DEFAULT_KEYWORDS, "Said": None}
FIELD = re.compile(r"\{(\w*)[^{}]*\}|%\((\w+)\)")


def extracted(folders) -> dict:
    """msgid (the singular of a plural) -> (msgid or (singular, plural), where it is used)."""
    with open(ROOT / "babel.cfg", encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    found = {}
    for folder in folders:
        for filename, lineno, message, _comments, _context in extract_from_dir(
                str(ROOT / folder), method_map, options_map, keywords=KEYWORDS):
            key = message[0] if isinstance(message, tuple) else message
            if key is None:
                continue
            found.setdefault(key, (message, f"{folder}/{filename}:{lineno}"))
    return found


def catalogue(path: str):
    with open(ROOT / path, "rb") as handle:
        return read_po(handle, locale="fr")


def fields(text: str) -> set:
    """The placeholders of a message: {name} for .format, %(name)s for {% trans %}."""
    return {a or b for a, b in FIELD.findall(text)}


def problems(path: str) -> list[str]:
    """What is wrong with one catalogue, one line per msgid."""
    wanted = extracted(CATALOGUES[path])
    po = catalogue(path)
    out = []
    for key, (message, where) in sorted(wanted.items()):
        entry = po.get(key)
        strings = () if entry is None else \
            (entry.string if isinstance(entry.string, tuple) else (entry.string,))
        if entry is None or entry.fuzzy or not all(strings):
            state = "is fuzzy" if entry is not None and entry.fuzzy else "has no French"
            out.append(f"{key!r} ({where}) {state} in {path}")
            continue
        given = fields(" ".join(message) if isinstance(message, tuple) else message)
        for text in strings:
            extra, lost = fields(text) - given, given - fields(text)
            if extra or (lost and not isinstance(message, tuple)):
                out.append(f"{key!r}: its French {text!r} has the placeholders "
                           f"{sorted(fields(text))}, the English {sorted(given)}")
    for entry in po:
        if entry.id and (entry.id[0] if isinstance(entry.id, tuple) else entry.id) not in wanted:
            out.append(f"{entry.id!r} is in {path} but no longer marked anywhere (stale)")
    out += [f"{key!r} is obsolete in {path}" for key in po.obsolete]
    return out


@pytest.mark.parametrize("path", sorted(CATALOGUES))
def test_every_marked_string_has_french_and_no_entry_is_stale(path):
    assert (ROOT / path).is_file(), f"{path} is missing (docs/i18n.md says how to make it)"
    found = problems(path)
    assert not found, "\n".join(found)


def test_pbem_strings_are_extracted_from_python_and_templates():
    found = extracted(CATALOGUES["pbem/locale/fr.po"])
    assert "Reply address:" in found                          # a template
    assert found["{num} line could not be accepted:"][0][1] == \
        "{num} lines could not be accepted:"                 # a plural


def test_a_msgid_in_two_catalogues_has_the_same_french():
    """All catalogues merge into one at run time, so they must agree."""
    seen = {}
    for path in sorted(CATALOGUES):
        for entry in catalogue(path):
            if entry.id:
                key = entry.id[0] if isinstance(entry.id, tuple) else entry.id
                first = seen.setdefault(key, (path, entry.string))
                assert first[1] == entry.string, \
                    f"{key!r} is {first[1]!r} in {first[0]} but {entry.string!r} in {path}"


def test_the_check_finds_what_is_missing_wrong_or_stale(tmp_path, monkeypatch):
    po = tmp_path / "fr.po"
    po.write_text('msgid "Reply address:"\nmsgstr ""\n\n'
                  '#, fuzzy\nmsgid "Subject tag:"\nmsgstr "Étiquette :"\n\n'
                  'msgid "Commands: {commands}."\nmsgstr "Commandes : {ordres}."\n\n'
                  'msgid "an old sentence"\nmsgstr "une vieille phrase"\n', encoding="utf-8")
    monkeypatch.setitem(CATALOGUES, str(po), CATALOGUES["pbem/locale/fr.po"])
    found = "\n".join(problems(str(po)))
    assert "'Reply address:' (templates/_code" in found and "has no French" in found
    assert "'Subject tag:'" in found and "is fuzzy" in found
    assert "'Commands: {commands}.': its French 'Commandes : {ordres}.'" in found
    assert "'an old sentence' is in" in found and "(stale)" in found
    assert "'Deadline: {when}." in found   # absent altogether
