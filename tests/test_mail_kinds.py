"""Every kind of mail, for every game and both languages: within 78 columns, and French
mail without English sentences (rulings, offers and reported results included)."""

import re

import pytest

from mailkinds import GAMES, KINDS, english_lines, html_of, long_lines, text_of, write_all


@pytest.fixture(scope="module")
def mails(tmp_path_factory):
    """Every mail of every kind, by (game, language)."""
    return {(game, lang): write_all(tmp_path_factory.mktemp(f"{game}-{lang}"), game, lang)
            for game in GAMES for lang in ("en", "fr")}


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_kind_of_mail_is_written(mails, game, lang):
    assert sorted({name.split(".")[0] for name in mails[(game, lang)]}) == sorted(KINDS)


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


def said_to_the_reader(mails, game, lang) -> str:
    """Every text part the reader of a game got, one after the other, lines unwrapped."""
    return re.sub(r"[ \n]+", " ", "\n".join(text_of(msg)
                                            for msg in mails[(game, lang)].values()))


def test_a_referees_ruling_is_told_in_the_readers_language(mails):
    english = (said_to_the_reader(mails, "saga", "en"))
    assert "Ruling by the referee on \u201cThe reports of a battle disagree: who won?\u201d: " \
           "winner: bob (la photo montre bob sur la colline)." in english
    french = (said_to_the_reader(mails, "saga", "fr"))
    assert "Décision de l'arbitre sur «\u00a0Les comptes rendus d'une bataille " \
           "divergent\u00a0: qui a gagné\u00a0?\u00a0»\u00a0: vainqueur\u00a0: bob (la photo " \
           "montre bob sur la colline)." in french


@pytest.mark.parametrize("lang, ruling, battle, referee", [
    ("en", "Ruling by the referee on", "bob won the battle of Wessex against ann", "referee"),
    ("fr", "Décision de l'arbitre sur", "bob a gagné la bataille de Wessex contre ann",
     "arbitre")])
def test_a_saga_report_tells_the_referees_ruling_once(mails, lang, ruling, battle, referee):
    reports = [re.sub(r"[ \n]+", " ", text_of(msg)) for msg in mails[("saga", lang)].values()]
    [report] = [text for text in reports if ruling in text]
    happened = report[report.index(ruling):]
    happened = happened[:happened.index(battle) + len(battle)]
    assert happened.count(referee) == 1, happened


def test_a_judge_seats_ruling_and_a_failed_offer_are_told_in_the_readers_language(mails):
    english = (said_to_the_reader(mails, "seigneurs", "en"))
    assert "offer 2 accepted but not carried out: ann lacks wood 2" in english
    assert "Ruling by zed on \u201cThe end: name the winner\u201d: winner: ann" in english
    french = (said_to_the_reader(mails, "seigneurs", "fr"))
    assert "offre 2 acceptée mais non exécutée\u00a0: il manque à ann bois 2" in french
    # zed wrote the ruling in French words: "Décision : vainqueur Ann".
    assert "Décision de zed sur «\u00a0La fin\u00a0: nommez le vainqueur\u00a0»\u00a0: " \
           "vainqueur\u00a0: ann (ann a tenu parole)." in french


WELCOME_SAYS = {
    ("saga", "en"): ["How to win: be the first to hold 10 zones.",
                     "You hold 2 zones now: Kent, Normandy.",
                     "both of you mail the result",
                     "You have no ally: every other seat plays against you.",
                     "PRESS bob at the start of a line"],
    ("saga", "fr"): ["Pour gagner\u00a0: soyez le premier à tenir 10 zones.",
                     "Vous tenez 2 zones maintenant\u00a0: Kent, Normandie.",
                     "Vous n'avez pas d'allié", "PRESSE bob en début de ligne"],
    ("seigneurs", "en"): ["How to win: the game ends at once when one family heads every "
                          "domain.", "the barbarian (zed) judges", "Your prestige now: 4.",
                          "PRESS bob at the start of a line"],
    ("seigneurs", "fr"): ["Pour gagner\u00a0: la partie s'arrête aussitôt",
                          "le barbare (zed) juge", "Votre prestige actuel\u00a0: 4.",
                          "PRESSE bob en début de ligne"],
}


@pytest.mark.parametrize("game, lang", sorted(WELCOME_SAYS))
def test_the_welcome_tells_how_to_win_the_seats_own_goal_and_how_to_reach_the_others(
        mails, game, lang):
    text = re.sub(r"[ \n]+", " ", text_of(mails[(game, lang)]["welcome"]))
    missing = [said for said in WELCOME_SAYS[(game, lang)] if said not in text]
    assert not missing, (missing, text[:1500])


# SAGA's unit types are names ("1 Hearthguards": one unit of Hearthguards); French words
# that end in s in the singular, or never change ("1 hors de combat").
PLURAL_NAMES = {"Hearthguards", "Warriors", "Levies", "Gardes", "Guerriers", "Levées",
                "warriors", "levies", "hearthguards", "bois", "fois", "mois", "pas", "hors"}


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_one_of_a_thing_is_said_in_the_singular(mails, game, lang):
    one = r"\b[01] (\w+s)\b" if lang == "fr" else r"\b1 (\w+s)\b"
    wrong = [f"{kind}: {line}" for kind, msg in sorted(mails[(game, lang)].items())
             for line in text_of(msg).splitlines()
             if set(re.findall(one, line)) - PLURAL_NAMES]
    assert not wrong, "\n".join(dict.fromkeys(wrong))


def test_the_jacquerie_bag_counts_its_tokens(mails):
    assert "Your jacquerie bag: 1 neutral token, 0 jacquerie tokens." in \
        said_to_the_reader(mails, "seigneurs", "en")
    assert "Votre sac à jacquerie\u00a0: 1 jeton neutre, 0 jeton jacquerie." in \
        said_to_the_reader(mails, "seigneurs", "fr")


@pytest.mark.parametrize("lang, title, colon, header", [
    ("en", "SAGA campaign", ": ", "Zone             Held by              Armies"),
    ("fr", "Campagne SAGA", "\u00a0: ", "Zone             Tenue par            Armées")])
def test_saga_mails_name_the_game_and_head_the_zone_table_in_the_readers_language(
        mails, lang, title, colon, header):
    status = mails[("saga", lang)]["status"]
    text = re.sub(r"[ \n]+", " ", text_of(status))
    assert f"{title} wessex{colon}" in text and text.split("--")[-1].strip().startswith(title)
    assert f"{title} wessex" in html_of(status)
    assert header in text_of(status).splitlines()
    other = "SAGA campaign" if lang == "fr" else "Campagne SAGA"
    assert other not in said_to_the_reader(mails, "saga", lang)


def test_the_merchants_are_listed_with_the_readers_separator(mails):
    assert "métal\u00a0: vente 4, achat 2\u00a0; pierre\u00a0: vente 3" in \
        said_to_the_reader(mails, "seigneurs", "fr")
    assert "metal sold at 4, bought at 2; stone sold at 3" in \
        said_to_the_reader(mails, "seigneurs", "en")
