"""Every kind of mail, for both games and both languages: within 78 columns, and French
mail without English sentences."""

import pytest

from mailkinds import GAMES, KINDS, english_lines, long_lines, text_of, write_all


@pytest.fixture(scope="module")
def mails(tmp_path_factory):
    """Every mail of every kind, by (game, language)."""
    return {(game, lang): write_all(tmp_path_factory.mktemp(f"{game}-{lang}"), game, lang)
            for game in GAMES for lang in ("en", "fr")}


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_kind_of_mail_is_written(mails, game, lang):
    assert sorted(mails[(game, lang)]) == sorted(KINDS)


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_no_text_line_is_over_78_columns(mails, game, lang):
    long = [f"{kind}: {line}" for kind, msg in sorted(mails[(game, lang)].items())
            for line in long_lines(msg)]
    assert not long, "\n".join(long)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_french_seat_reads_no_english_sentence(mails, game):
    english = [f"{kind}: {line}" for kind, msg in sorted(mails[(game, "fr")].items())
               for line in english_lines(msg)]
    assert not english, "\n".join(dict.fromkeys(english))


def test_game_over_mails_carry_no_reply_instructions(mails):
    for (game, lang), kinds in mails.items():
        text = text_of(kinds["over"])
        assert "## pbem" not in text and "Reply to this mail" not in text
        assert "Commands" not in text and "Commandes" not in text


def test_the_reminder_says_what_to_do_shows_the_board_and_what_silence_does(mails):
    text = text_of(mails[("auguste", "en")]["reminder"])
    assert "] Turn 1: reminder: your orders by" in str(mails[("auguste", "en")]["reminder"]
                                                        ["Subject"])
    assert "Your orders on file have errors" in text or "no usable orders" in text
    assert "If you send nothing by the deadline:" in text and "red: no order, so it passes" \
        in text
    assert "Legions: R red" in text and "How to write Auguste orders" in text
    french = text_of(mails[("auguste", "fr")]["reminder"])
    assert "Si vous n'envoyez rien avant la date limite" in french
    assert "rouge\u00a0: aucun ordre, elle passe donc" in french


def test_help_is_in_the_language_of_the_word(tmp_path):
    from pbem import inbound
    from pbem.app import SeatSpec
    from conftest import START, make_referee
    referee = make_referee(tmp_path)
    referee.new_game("auguste", "rome", [SeatSpec("ann", "ann@x.example"),
                                         SeatSpec("bob", "bob@x.example")], START, seed="h")
    inbound.submit(referee, "rome", "ann", "aide", START)
    row = referee.store.one("SELECT * FROM outbox WHERE kind = 'help'")
    raw = referee.store.outbox_mail(row)
    assert "comment jouer par courriel" in row["subject"]
    assert "Comment écrire vos ordres d'Auguste" in raw.decode("utf-8", "replace") or \
        b"Comment" in raw
