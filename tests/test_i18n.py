"""French and English: the current language, the catalogues, dates and numbers, templates."""

import pytest

from pbem import i18n, render
from pbem.i18n import N_, _, format_date, format_number, ngettext, normal_language, speaking

NB = "\u00a0"


def test_english_is_the_msgid_and_french_comes_from_the_catalogue():
    assert _("Reply address:") == "Reply address:"
    with speaking("fr"):
        assert _("Reply address:") == f"Adresse de réponse{NB}:"
        assert _("a sentence nobody marked") == "a sentence nobody marked"


def test_a_sentence_kept_in_english_filled_in_is_translated_again():
    assert i18n.again("Orders for turn 12.") == "Orders for turn 12."
    with speaking("fr"):
        assert i18n.again("Orders for turn 12.") == "Ordres du tour 12."
        assert i18n.again("Reply address:") == f"Adresse de réponse{NB}:"
        assert i18n.again("a sentence nobody marked 3") == "a sentence nobody marked 3"


def test_plurals_follow_each_language_rule():
    one, many = "{num} line could not be accepted", "{num} lines could not be accepted"
    assert [ngettext(one, many, n).format(num=n) for n in (0, 1, 2)] == [
        "0 lines could not be accepted", "1 line could not be accepted",
        "2 lines could not be accepted"]
    with speaking("fr"):   # French: 0 and 1 are singular
        assert [ngettext(one, many, n).format(num=n) for n in (0, 1, 2)] == [
            "0 ligne n'a pas pu être acceptée", "1 ligne n'a pas pu être acceptée",
            "2 lignes n'ont pas pu être acceptées"]


def test_a_string_marked_at_import_is_translated_when_used():
    label = N_("Subject tag:")
    assert label == "Subject tag:"
    with speaking("fr"):
        assert _(label) == f"Étiquette de l'objet{NB}:"


def test_speaking_nests_and_restores_the_language_even_after_an_error():
    assert i18n.current() == "en"
    with speaking("fr"):
        with speaking("en"):
            assert i18n.current() == "en"
        assert i18n.current() == "fr"
        with pytest.raises(RuntimeError):
            with speaking("en"):
                raise RuntimeError("boom")
        assert i18n.current() == "fr"
    assert i18n.current() == "en"


def test_speaking_refuses_a_language_pbem_does_not_write():
    with pytest.raises(ValueError, match="does not speak 'de'"):
        with speaking("de"):
            pass
    assert i18n.current() == "en"


@pytest.mark.parametrize("text, lang", [
    ("fr", "fr"), ("FR", "fr"), ("français", "fr"), ("Français", "fr"), ("francais", "fr"),
    ("french", "fr"), (" fr-FR ", "fr"), ("en", "en"), ("English", "en"), ("anglais", "en"),
    ("en_GB", "en"), ("de", None), ("deutsch", None), ("", None), ("frenglish", None)])
def test_normal_language_reads_the_names_players_use(text, lang):
    assert normal_language(text) == lang


def test_dates_are_in_the_seat_zone_and_the_current_language():
    assert format_date("2026-12-01T18:00Z", "Europe/Paris") == \
        "Tue 1 Dec 2026 19:00 (Europe/Paris)"
    assert format_date("2026-12-01T18:00Z", None) == "Tue 1 Dec 2026 18:00 (UTC)"
    assert format_date("2026-12-01T18:00Z", "Mars/Olympus") == "Tue 1 Dec 2026 18:00 (UTC)"
    with speaking("fr"):
        assert format_date("2026-12-01T18:00Z", "Europe/Paris") == \
            "mar. 1 déc. 2026 19:00 (Europe/Paris)"
        assert format_date("2026-05-03T18:00Z", "Europe/Paris") == \
            "dim. 3 mai 2026 20:00 (Europe/Paris)"


def test_numbers_are_written_as_each_language_writes_them():
    assert format_number(12345.5) == "12,345.5"
    with speaking("fr"):
        assert format_number(12345.5) == "12\u202f345,5"


def test_templates_translate_and_still_escape_player_text_in_html():
    context = {"request": None, "waiting": ["<b>bob</b>"], "seat": {"tz": None}}
    with speaking("fr"):
        html = render.render("auguste", "_request.html.j2", **context)
        text = render.render("auguste", "_request.txt.j2", **context)
    assert f"Rien ne vous est demandé pour l'instant{NB}; on attend &lt;b&gt;bob&lt;/b&gt;." \
        in html
    assert "<b>bob</b>." in text and "Rien ne vous est demandé" in text


def test_templates_may_use_trans_blocks():
    template = render.environment().from_string("{% trans n=2 %}{{ n }} seats{% endtrans %}")
    assert template.render() == "2 seats"


def test_french_elides_de_and_que_before_a_name_that_starts_with_a_vowel():
    """'Le village de ann', 'Reçu des ordres de ann', 'ann dit que ann a gagné'."""
    with speaking("fr"):
        said = _("the battle of {zone} goes to the referee: {reports}")
        assert said.format(zone="Alba", reports="x") == \
            "la bataille d'Alba va à l'arbitre\u00a0: x"
        assert said.format(zone="Mercia", reports="x").startswith("la bataille de Mercia")
        assert said.format(zone="Yorkshire", reports="x").startswith("la bataille de York")
        assert _("{seat} says {winner} won").format(seat="bea", winner="ann") == \
            "bea dit qu'ann a gagné"
    assert _("{seat} says {winner} won").format(seat="bea", winner="ann") == "bea says ann won"
