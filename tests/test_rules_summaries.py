"""Each game's rules in short, in English and French, shipped in its folder and attached to
every seat's welcome mail in the seat's language."""

import email
from email import policy
from pathlib import Path

import pytest

from pbem.app import SeatSpec

from conftest import START, make_referee
from mailkinds import ENGLISH, GAMES as MAIL_GAMES, KEPT

ROOT = Path(__file__).parent.parent
# Each game's rules attachment is named by its title in the reader's language.
TITLES = {"auguste": {"en": "auguste", "fr": "auguste"}, "attila": {"en": "attila", "fr": "attila"},
          "saga": {"en": "saga-campaign", "fr": "campagne-saga"},
          "seigneurs": {"en": "seigneurs", "fr": "seigneurs"},
          "diplomacy": {"en": "diplomacy", "fr": "diplomatie"}}
GAMES = sorted(p.parent.name for p in (ROOT / "games").glob("*/__init__.py"))
MAX_LINES = 150
# What every summary tells: how to win (a section of its own), and the mail commands.
HEADINGS = {"en": "How to win", "fr": "Pour gagner"}
COMMANDS = {"en": ("HELP", "STATUS", "LANGUAGE"), "fr": ("AIDE", "ÉTAT", "LANGUE")}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_game_has_a_short_summary_within_78_columns(game, lang):
    path = ROOT / "games" / game / f"rules.{lang}.md"
    assert path.is_file(), f"{path} is missing"
    lines = path.read_text(encoding="utf-8").splitlines()
    assert 30 < len(lines) <= MAX_LINES, f"{path}: {len(lines)} lines"
    long = [f"{n}: {line}" for n, line in enumerate(lines, 1) if len(line) > 78]
    assert not long, f"{path}:\n" + "\n".join(long)
    assert HEADINGS[lang] in lines, f"{path} has no {HEADINGS[lang]!r} section"
    for command in COMMANDS[lang]:
        assert command in " ".join(lines), f"{path} does not name the command {command}"
    if lang == "fr":
        english = [line for line in lines if ENGLISH.search(KEPT.sub(" ", line))]
        assert not english, f"{path} has English sentences:\n" + "\n".join(english)


@pytest.mark.parametrize("game", sorted(MAIL_GAMES))
def test_the_welcome_carries_the_summary_in_the_seats_language(tmp_path, game):
    spec = MAIL_GAMES[game]
    referee = make_referee(tmp_path)
    names = spec["seats"]
    referee.new_game(game, spec["id"], [SeatSpec(n, f"{n}@players.example",
                                                 lang="fr" if n == names[0] else "en")
                                        for n in names], START, dict(spec["options"]),
                     seed="rules")
    for row in referee.store.all("SELECT * FROM outbox WHERE kind = 'welcome'"):
        msg = email.message_from_bytes(referee.store.outbox_mail(row), policy=policy.default)
        lang = "fr" if row["seat"] == names[0] else "en"
        [attached] = list(msg.iter_attachments())
        name = f"{TITLES[game][lang]}-{'regles' if lang == 'fr' else 'rules'}.txt"
        assert attached.get_filename() == name and attached.get_content_type() == "text/plain"
        assert attached.get_content() == \
            (ROOT / "games" / game / f"rules.{lang}.md").read_text(encoding="utf-8")
        text = msg.get_body(preferencelist=("plain",)).get_content()
        assert name in " ".join(text.split()), "the welcome says what is attached"
