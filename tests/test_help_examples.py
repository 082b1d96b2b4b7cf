"""The order examples HELP shows a seat are orders the game's parser reads, in each language.

Every game builds its examples from the seat's own position, in the seat's
words. Here SAGA's and Seigneurs' are fed to the real parser, for the seat,
in a real game at each stage: each must be read without an error, and the
old fixed examples are refused where the seat could not give them (so they
are not shown). Whole bot games of every game are read the same way by
tests/test_hints.py; Auguste's laurel example is checked here.
"""

import re
import tomllib

import pytest

from conftest import START, make_referee, seats
from mailkinds import OWN_MAP_FRENCH, SAGA_OWN_MAP, SAGA_START
from players import answer_to, flat, reply, text_of
from pbem.games.auguste.orders import parse as auguste_parse
from pbem.games.auguste.state import board_of
from pbem.games.saga import orders as saga_orders
from pbem.games.saga.material import army_name
from pbem.games.saga.material import plain as saga_plain
from pbem.games.seigneurs import orders as seigneurs_orders
from pbem.games.seigneurs.material import GOOD_WORDS
from pbem import inbound, render
from pbem.adjudicator import offers
from pbem.adjudicator.results import parse_result
from pbem.app import SeatSpec
from pbem.i18n import _, speaking
from pbem.timeutil import later

SEATS = ["ann", "bob", "zed"]


def examples(ruleset: str, view: dict, lang: str) -> list[str]:
    """The examples of a HELP text: the first column of its indented rows, split at ' / '."""
    with speaking(lang):
        text = render.render(ruleset, "help.txt.j2", view=view)
    found = []
    for line in text.splitlines():
        row = re.match(r"^  (\S.*?)(?: {2,}|$)", line)
        if row:
            found += [part.strip() for part in row.group(1).split(" / ")]
    return found


def saga_problem(example: str) -> str | None:
    """Why SAGA's parser would not read this example, or None."""
    words = saga_orders.words(example)
    if saga_plain(words[0]) in ("result", "resultat"):
        return "; ".join(e.message for e in parse_result(example)[1]) or None
    verb = saga_orders.VERBS.get(words[0])
    if verb not in saga_orders.ACCEPTS["orders"]:
        return f"{words[0]!r} is not an order of a turn"
    return None


def seigneurs_problem(example: str, stage: str) -> str | None:
    """Why the Seigneurs parser would not read this example in `stage`, or None."""
    words = seigneurs_orders.words(example)
    verb = seigneurs_orders.VERBS.get(words[0])
    if verb not in seigneurs_orders.STAGE_VERBS[stage]:
        return f"{words[0]!r} is not an order of the {stage} stage"
    if verb == "offer":
        try:
            offers.read_offer([w for w in words[1:] if w not in seigneurs_orders.FILLER],
                              ["bob", "zed"], GOOD_WORDS)
        except ValueError as problem:
            return str(problem)
    return None


def game_at(folder, ruleset: str, names: list[str], position: dict, options=None,
            play=()) -> tuple:
    """(referee, table) of a real game from a position, after each step of `play`: a
    {seat: orders} mail each, then a tick; or {"until": stage}, ticking past deadlines."""
    folder.mkdir(parents=True, exist_ok=True)
    referee = make_referee(folder)
    referee.new_game(ruleset, "g", seats(*names), START, dict(options or {}), seed="help",
                     position=position)
    now = START
    for step in play:
        if "until" in step:
            for _ in range(20):
                if referee.table("g").state["game"]["stage"] == step["until"]:
                    break
                now = later(referee.table("g").state["engine"]["deadline"], 1)
                referee.tick(now, send=False)
            assert referee.table("g").state["game"]["stage"] == step["until"]
            continue
        for seat, text in step.items():
            assert not inbound.submit(referee, "g", seat, text, now)["errors"], text
        now = later(now, 1)
        referee.tick(now, send=False)
    return referee, referee.table("g")


def seat_examples(table, seat: str, lang: str) -> list[str]:
    """The examples of the HELP this seat gets now, in its language."""
    with speaking(lang):
        view = table.game.view(table.state["game"], seat)
    return examples(table.ruleset, view, lang)


def refused(parse, state, seat: str, shown: list[str], lang: str) -> list[str]:
    """The examples the game's real parser refuses from this seat in this position."""
    with speaking(lang):
        return [example for example in shown if parse(state, seat, example)[1]]


# Seigneurs: ann and bob the lords, zed the barbarian; ann's village is far from C3.
VALLEY = {"villages": {"ann": ["G2", "G3"], "bob": ["C6", "C7"]},
          "farms": {"H2": "ann", "D6": "bob", "F1": "free"}}
# At the taxation, ann's village (D4-D5) stands next to bob's farm D6.
TAXATION = {**VALLEY, "villages": {"ann": ["D4", "D5"], "bob": ["C6", "C7"]},
            "stage": "taxation", "goods": {"H2": {"wood": 2}, "D6": {"food": 2}}}
OPPOSED = ({"ann": "tax D6 all", "bob": "pass"}, {"bob": "oppose D6 1", "ann": "support D6 1"},
           {"until": "parley"})
SEIGNEURS_STAGES = {
    # stage: (position, play, seat)
    "villages": ({"stage": "villages"}, (), "ann"),
    "farms": ({"stage": "villages"}, ({"ann": "village G2 G3", "bob": "village C6 C7"},),
              "ann"),
    "taxation": (TAXATION, (), "ann"),
    "opposition": (TAXATION, ({"ann": "tax D6 all", "bob": "pass"},), "bob"),
    "parley": (TAXATION, OPPOSED, "ann"),
    "combat": (TAXATION, OPPOSED + ({"ann": "fight D6", "bob": "fight D6"},
                                    {"until": "combat"}), "ann"),
    "market": ({**VALLEY, "stage": "market", "card": "fair",
                "stocks": {"ann": {"wood": 4, "coins": 5}}},
               ({"ann": "pass", "bob": "offer ann give wood 1 take coins 1", "zed": "pass"},),
               "ann"),
    "movement": ({**VALLEY, "stage": "movement", "relations": {"ann|bob": "war"},
                  "warriors": {"ann": {"G2": 3}}}, (), "ann"),
    "barbarian": ({**VALLEY, "stage": "movement", "stocks": {"zed": {"wood": 4}},
                   "warriors": {"zed": {"A1": 2}}}, (), "zed"),
    "aftermath": ({**VALLEY, "stage": "movement", "relations": {"ann|bob": "war"},
                   "goods": {"D6": {"food": 2}}, "warriors": {"ann": {"D6": 2}, "bob": {}}},
                  ({"ann": "pass", "bob": "pass", "zed": "pass"}, {"until": "aftermath"}),
                  "ann"),
    "growth": ({**VALLEY, "stage": "growth", "goods": {"H2": {"food": 4}}}, (), "ann"),
}


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("case", sorted(SEIGNEURS_STAGES))
def test_every_seigneurs_example_is_read_in_the_seats_own_position(lang, case, tmp_path):
    position, play, seat = SEIGNEURS_STAGES[case]
    _referee, table = game_at(tmp_path, "seigneurs", SEATS, position, {"judge": "zed"}, play)
    shown = seat_examples(table, seat, lang)
    assert shown
    wrong = refused(seigneurs_orders.parse, table.state["game"], seat, shown, lang)
    assert wrong == [], shown


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_seigneurs_help_no_longer_shows_a_move_the_seat_cannot_make(lang, tmp_path):
    position, play, seat = SEIGNEURS_STAGES["movement"]
    _referee, table = game_at(tmp_path, "seigneurs", SEATS, position, {"judge": "zed"}, play)
    state = table.state["game"]
    with speaking(lang):
        fixed = _("move C3 D4 2")
    assert seigneurs_orders.parse(state, seat, fixed)[1], "the old example is refused here"
    shown = seat_examples(table, seat, lang)
    assert fixed not in shown
    move = next(e for e in shown if seigneurs_orders.VERBS[seigneurs_orders.words(e)[0]]
                == "move")
    assert move.split()[1:] == ["G2", "F2", "2"] and not refused(
        seigneurs_orders.parse, state, seat, [move], lang)


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("stage", ["event", "construction", "revolt", "judgement"])
def test_every_other_seigneurs_example_is_an_order_of_its_stage(lang, stage, tmp_path):
    position = {"villages": {"ann": ["C2", "C3"], "bob": ["C6", "C7"]}, "stage": "growth",
                "farms": {"B2": "ann", "D2": "ann"}, "goods": {"B2": {"wood": 1}},
                "jacquerie": {"ann": {"jacquerie": 1}}, "tokens": {"ann": 1}}
    play = ({"until": "revolt"}, {"zed": "ruling ann-1 b2"}) if stage == "judgement" else \
        ({"until": "revolt"},) if stage == "revolt" else ()
    if stage in ("event", "construction"):
        position = {**VALLEY, "stage": "turn"}
        play = ({"until": stage},)
    _referee, table = game_at(tmp_path, "seigneurs", SEATS, position,
                              {"judge": "zed", "turns": "1"}, play)
    seat = "zed" if stage in ("event", "revolt", "judgement") else "ann"
    shown = seat_examples(table, seat, lang)
    assert shown
    if stage in ("revolt", "judgement"):
        assert not refused(seigneurs_orders.parse, table.state["game"], seat, shown, lang)
        return
    wrong = [f"{example}: {seigneurs_problem(example, stage)}" for example in shown
             if seigneurs_problem(example, stage)]
    assert not wrong, "\n".join(wrong)


# SAGA: ann's turn; her host (Kent) and reserve (Normandy) stand apart, she holds no Lord.
def saga_game(folder, position=SAGA_START):
    return game_at(folder, "saga", ["ann", "bob", "cat"], position)[1]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_saga_example_is_read_in_the_seats_own_position(lang, tmp_path):
    table = saga_game(tmp_path)
    shown = seat_examples(table, "ann", lang)
    assert len(shown) >= 6, shown
    wrong = [f"{example}: {saga_problem(example)}" for example in shown
             if saga_problem(example)]
    assert not wrong, "\n".join(wrong)
    assert refused(saga_orders.parse, table.state["game"], "ann", shown, lang) == []
    with speaking(lang):
        assert _("ransom") not in shown and _("army {army}+{other}").format(
            army=army_name("host"), other=army_name("reserve")) not in shown


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_saga_help_merges_the_seats_own_armies_when_they_share_a_zone(lang, tmp_path):
    armies = {**SAGA_START["armies"], "ann": {
        "host": SAGA_START["armies"]["ann"]["host"],
        "reserve": {"zone": "Kent", "warriors": 1}}}
    table = saga_game(tmp_path, {**SAGA_START, "armies": armies})
    shown = seat_examples(table, "ann", lang)
    with speaking(lang):
        assert _("army {army}+{other}").format(army=army_name("host"),
                                               other=army_name("reserve")) in shown
        assert _("move host Jorvik") not in shown
        assert saga_orders.parse(table.state["game"], "ann", _("move host Jorvik"))[1]
    assert not refused(saga_orders.parse, table.state["game"], "ann", shown, lang)


@pytest.mark.parametrize("lang, said, other", [
    ("en", "move host Frisia", OWN_MAP_FRENCH.values()),
    ("fr", "déplacer ost Frise", OWN_MAP_FRENCH)], ids=["en", "fr"])
def test_saga_examples_on_a_referees_own_map_name_its_zones_as_the_seat_reads_them(
        lang, said, other, tmp_path):
    """On a position file's map, a French seat's examples name the zones by the map's
    French names, an English seat's by their names; each is read back."""
    table = game_at(tmp_path, "saga", ["ann", "bob"], tomllib.loads(SAGA_OWN_MAP),
                    {"rounds": "3"})[1]
    shown = seat_examples(table, "ann", lang)
    assert said in shown, shown
    assert not [e for e in shown for name in other if re.search(rf"\b{name}\b", e)], shown
    assert refused(saga_orders.parse, table.state["game"], "ann", shown, lang) == []


@pytest.mark.parametrize("case, said", [
    ("saga", ["déplacer ost Mercie", "recruter guerriers Kent", "diviser ost 2 pillards"]),
    ("market", ["offre bob donne bois 1 prend pierre 1", "accepter 1", "paix zed"]),
    ("movement", ["déplacer G2 F2 2", "paix bob"])])
def test_a_french_seat_sees_french_order_words(case, said, tmp_path):
    def shown(lang):
        if case == "saga":
            return " ".join(seat_examples(saga_game(tmp_path / lang), "ann", lang))
        position, play, seat = SEIGNEURS_STAGES[case]
        table = game_at(tmp_path / lang, "seigneurs", SEATS, position, {"judge": "zed"},
                        play)[1]
        return " ".join(seat_examples(table, seat, lang))
    french, english = shown("fr"), shown("en")
    assert all(words in french for words in said), french
    assert not any(words in english for words in said), english


def auguste_help(folder, red_units: list[str], lang: str) -> tuple[str, list[str], dict]:
    """(HELP text, its examples, the game's state) for ann's red legion on these cells,
    the laurel crown on FIM."""
    folder.mkdir()
    referee = make_referee(folder)
    referee.new_game("auguste", "g", seats("ann", "bob"), START, seed="help", position={
        "laurel": "FIM", "shields": [],
        "legions": {"red": {"team": "Caesar", "seat": "ann", "units": red_units},
                    "blue": {"team": "Pompey", "seat": "bob", "units": ["ZIJ"]}}})
    table = referee.table("g")
    with speaking(lang):
        view = table.game.view(table.state["game"], "ann")
        text = render.render("auguste", "help.txt.j2", view=view)
    return text, examples("auguste", view, lang), table.state["game"]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_auguste_help_shows_a_laurel_order_the_seat_can_give_now(lang, tmp_path):
    state = auguste_help(tmp_path / "probe", ["MOC"], lang)[2]
    touching = sorted(board_of(state).neighbours["FIM"])[0]
    text, shown, state = auguste_help(tmp_path / "now", [touching], lang)
    laurel = next(e for e in shown if re.search(r"\b(laurel|laurier)\b", e))
    assert not auguste_parse(state, "ann", laurel)[1], laurel
    assert "FIM)" not in " ".join(text.split())


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_auguste_help_says_when_the_laurel_order_can_be_given(lang, tmp_path):
    text, shown, state = auguste_help(tmp_path / "game", ["MOC"], lang)
    assert "MOC" not in board_of(state).neighbours["FIM"]
    assert not any(re.search(r"\b(laurel|laurier)\b", e) for e in shown), \
        "not next to the crown: no laurel order among the examples"
    said = " ".join(text.split())
    assert "(on FIM)" in said or "(sur FIM)" in said
    laurel = re.search(r"(?:next to it|case libre voisine)\s?: (.+?)\.", said).group(1)
    assert auguste_parse(state, "ann", laurel)[1], "the order it will be is refused now"


# What an answer says when a command could not be done as written.
UNDONE = ("not recorded", "I do not know", "did you mean", "was empty", "could not",
          "n'a pas été", "Je ne connais pas", "vouliez-vous", "était vide", "pas pu")


def command_examples(text: str) -> list[str]:
    """The commands a HELP mail shows, as it writes them: each word of its table of
    commands (or the example its line gives: "TZ Europe/Paris", "LANGUE fr"), and each
    table command's example, up to what it says of it ("PRESS bob", "HISTORY 3")."""
    found, items = [], []
    for line in text.splitlines():
        row = re.match(r"^  ([A-ZÉÊ]{2,})\s{2,}(.*)$", line)
        if row:
            given = re.search(r"(?:e\.g\.|par exemple) ([A-ZÉ]+ \S+)", row.group(2)) or \
                re.search(r"\(([A-Z]+ \w+)\s?:", row.group(2))
            found.append(given.group(1) if given else row.group(1))
        elif line.startswith("- "):
            items.append(line[2:])
        elif line.startswith("  ") and items:
            items[-1] += " " + line.strip()
    for item in items:
        for part in item.split("; "):
            if part.split()[0].isupper():
                found.append(re.split(r"\s?[:(,]", part)[0].strip())
    return found


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_command_help_shows_is_done_when_sent_back_as_written(lang, tmp_path):
    """The ABSENCE example named fixed days of 2026, refused once they were past; each
    command HELP shows, with the example it gives, is a command done."""
    referee = make_referee(tmp_path)
    referee.new_game("auguste", "g", [SeatSpec(n, f"{n}@players.example", lang=lang)
                                      for n in ("ann", "bob")], START, seed="help")
    now = later(START, 24 * 400)  # a year on: the examples name days of their own time
    shown = command_examples(text_of(answer_to(referee, reply(
        referee, "g", "ann", "AIDE" if lang == "fr" else "HELP", now))))
    assert len(shown) >= 11 and any(w.startswith("ABSENCE ") for w in shown), shown
    for example in sorted(shown, key=lambda w: w.split()[0] in ("CONCEDE", "ABANDON",
                                                                "LANGUAGE", "LANGUE")):
        body = f"{example}\nsee you soon" if example.split()[0] in ("PRESS", "PRESSE") \
            else example
        row = reply(referee, "g", "ann", body, now)
        said = flat(answer_to(referee, row))
        assert row["reason"].startswith("commands "), (example, said)
        assert not [words for words in UNDONE if words in said], (example, said)
