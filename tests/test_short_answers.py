"""Short answers: an acknowledgement of orders fits a phone screen, and each error sits
under the line it concerns (issue 31), in every game and both languages.

An acknowledgement ran about 35 lines: the orders twice (as understood, then in the
receipt), every greeting and signature line as "Ignored:", the request and the
commands again. Now the orders the game reads as written are shown once, between the
receipt's rules; the "Line by line" sentence says what became of the greetings and
the signature; a recorded set of orders ends with its deadline alone.
"""

import pytest

from pbem.adjudicator.rng import PhaseRng
from pbem.app import SeatSpec
import pbem.games

from conftest import START, make_referee
from players import answer_to, reply, text_of

GREETING = {"en": ("Hi all,", "Cheers\nAnn"), "fr": ("Bonjour à tous,", "Bonne soirée\nAnn")}


def first_orders(tmp_path, ruleset: str, lang: str):
    """A game of `ruleset` whose seats read `lang` (in Paris), and its first seat asked
    with its bot's orders."""
    game = pbem.games.load(ruleset)
    referee = make_referee(tmp_path)
    referee.new_game(ruleset, "g", [SeatSpec(n, f"{n}@players.example", lang=lang,
                                             tz="Europe/Paris") for n in game.DEMO_SEATS],
                     START, game.demo_options(40), seed="short")
    state = referee.table("g").state
    seat = sorted(state["engine"]["requests"])[0]
    return referee, seat, game.bot_orders(state["game"], seat, PhaseRng("short", seat, 1))


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("ruleset", ["auguste", "diplomacy", "seigneurs"])
def test_an_acknowledgement_of_orders_fits_a_phone_screen(tmp_path, ruleset, lang):
    referee, seat, orders = first_orders(tmp_path, ruleset, lang)
    hello, bye = GREETING[lang]
    row = reply(referee, "g", seat, f"{hello}\n{orders}{bye}", START)
    text = text_of(answer_to(referee, row))
    assert len(text.splitlines()) < 20, text
    assert max(len(line) for line in text.splitlines()) <= 78
    for line in orders.splitlines():
        assert text.count(line) == 1 or ruleset != "diplomacy", \
            f"{line!r}: the orders are shown once\n{text}"


@pytest.mark.parametrize("lang,said", [("en", "line 3: there is no province XYZ"),
                                       ("fr", "ligne 3 : il n'y a pas de province XYZ")])
def test_each_error_sits_under_the_line_it_concerns(tmp_path, lang, said):
    referee, seat, orders = first_orders(tmp_path, "diplomacy", lang)
    first, *rest = orders.splitlines()
    row = reply(referee, "g", seat, "\n".join([first, "Good luck!", "A Xyz - Bud", *rest]),
                START)
    lines = [line.strip() for line in text_of(answer_to(referee, row)).splitlines()]
    refused = next(at for at, line in enumerate(lines) if "could not be accepted" in line
                   or "n'a pas pu être acceptée" in line)
    assert lines[refused + 1] == "A Xyz - Bud", lines
    assert " ".join(lines[refused + 2].split()) == said, lines
