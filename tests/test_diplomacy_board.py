"""The board after a phase draws that phase's orders and what became of them, from the
public view: arrows for moves (crossed out when they failed), dashed lines for supports,
a convoy's arrow through its fleets, a dislodged unit beside its province and its
retreat, builds ringed and removals crossed out."""

from math import dist
import re

from hypothesis import given, strategies as st

from pbem import raster, render
from pbem.adjudicator.rng import PhaseRng
from pbem.games import diplomacy
from pbem.games.diplomacy import drawing, rules
from pbem.games.diplomacy.board import board

MAP = board()
SEATS = {"england": "ann", "france": "bob", "germany": "cat", "austria": "dan"}
TEXT = re.compile(r">([^<>]+)</text>")


def played(units: dict, phase: str = "spring 1901 movement", centres: dict | None = None):
    """A game set up at a position, and a function playing one phase of it by mail text."""
    position = {"phase": phase, "units": units, "powers": SEATS}
    if centres:
        position["centres"] = centres
    state = {}
    for event in diplomacy.setup({}, sorted(SEATS.values()), PhaseRng("board", "g", 1), position):
        state = rules.apply(state, event)

    def play(**texts):
        nonlocal state
        orders = {}
        for power, text in texts.items():
            seat = SEATS[power]
            read, errors = diplomacy.parse(state, seat, text)
            assert not errors, errors
            orders[seat] = read
        for event in rules.resolve(state, orders, PhaseRng("board", "g", 1)):
            state = rules.apply(state, event)
        return state
    return play


def drawn(state: dict) -> dict:
    """The public board's drawing."""
    return drawing.svg_context(diplomacy.view(state, None))


def board_of(state: dict) -> str:
    """The public board's SVG."""
    return render.board_svg("diplomacy", diplomacy, diplomacy.view(state, None))


def near(points: str, spot: tuple, within: float) -> bool:
    """Does some point of a path pass within `within` units of the spot?"""
    found = [tuple(map(float, p.split(","))) for p in points.replace("M", " ").replace(
        "L", " ").replace("Z", " ").split()]
    return any(dist(p, spot) <= within for p in found)


def test_moves_supports_and_a_convoy_are_drawn_with_what_became_of_them():
    play = played({"england": ["A YOR", "F NTH"], "france": ["A PAR", "A MAR"],
                   "germany": ["A MUN"], "austria": ["A VIE", "A BUD"]})
    state = play(england="F NTH C A YOR - NWY\nA YOR - NWY",
                 france="A PAR - BUR\nA MAR S A PAR - BUR", germany="A MUN - BUR",
                 austria="A VIE H\nA BUD S A VIE")
    board_ = drawn(state)
    orders = board_["orders"]
    moves = [o for o in orders if o["kind"] == "move"]
    supports = [o for o in orders if o["kind"] == "support"]
    assert len(moves) == 3 and len(supports) == 2
    colour = {power: drawing.COLOURS[power] for power in SEATS}
    [paris] = [m for m in moves if m["colour"] == colour["france"]]
    [munich] = [m for m in moves if m["colour"] == colour["germany"]]
    [york] = [m for m in moves if m["colour"] == colour["england"]]
    assert paris["cross"] is None and munich["cross"] is not None  # Munich bounced
    assert near(york["d"], drawing.spot("NTH"), 3)  # the army goes through its fleet
    assert near(york["d"], drawing.spot("NWY"), drawing.BADGE + drawing.HEAD + 4)
    [marseilles] = [s for s in supports if s["colour"] == colour["france"]]
    [budapest] = [s for s in supports if s["colour"] == colour["austria"]]
    middle = [(a + b) / 2 for a, b in zip(drawing.spot("PAR"), drawing.spot("BUR"))]
    assert near(marseilles["d"], middle, 4) and marseilles["ring"] is None
    assert budapest["ring"] == drawing.spot("VIE") and budapest["cross"] is None
    assert diplomacy.view(state, None)["resolved"]["phases"] == [
        {"year": 1901, "season": "spring", "phase": "movement"}]


def test_a_dislodged_unit_stands_beside_its_province_then_its_retreat_is_drawn():
    play = played({"france": ["A BUR", "A RUH"], "germany": ["A MUN"],
                   "england": ["F LON"], "austria": ["A VIE"]})
    state = play(france="A BUR - MUN\nA RUH S A BUR - MUN", germany="A MUN H")
    units = drawn(state)["units"]
    [dislodged] = [u for u in units if u["ring"] == "dislodged"]
    assert (dislodged["x"], dislodged["y"]) == drawing.beside("MUN")
    assert dislodged["letter"] == "G" and dislodged["fill"] == drawing.COLOURS["germany"]
    state = play(germany="A MUN - BOH")
    [retreat] = drawn(state)["orders"]
    assert near(retreat["d"], drawing.beside("MUN"), drawing.BADGE + 3)
    assert retreat["cross"] is None
    assert not [u for u in drawn(state)["units"] if u["ring"]]


def test_a_winter_marks_the_units_built_and_removed():
    play = played({"france": ["A PAR", "A PIC", "A BUR"], "germany": ["A MUN", "A BER"]},
                  phase="winter 1901 adjustment",
                  centres={"france": ["PAR", "BRE", "MAR", "SPA"], "germany": ["MUN"]})
    state = play(france="BUILD F BRE", germany="REMOVE A BER")
    marks = {(u["ring"], u["letter"]): (u["x"], u["y"]) for u in drawn(state)["units"]
             if u["ring"]}
    assert marks == {("new", "F"): drawing.spot("BRE"), ("gone", "G"): drawing.spot("BER")}


@given(st.lists(st.text(alphabet="AFSWaefgimnorstvwéè0123456789,:;…", min_size=1, max_size=12),
                min_size=1, max_size=8))
def test_a_legend_line_is_laid_word_by_word_on_whole_pixels(words):
    line = " ".join(words)
    x = drawing.LEGEND[0] + drawing.MARGIN
    laid = drawing.words(line, x, 10)
    assert [word for _at, word in laid] == words
    start = 0
    for at, word in laid:  # where the whole line draws the word, to half a pixel
        start = line.index(word, start)
        assert at == int(at) and abs(at - (x + raster.text_width(line[:start], 10))) <= 0.5
        start += len(word)
    right = drawing.LEGEND[2] - drawing.MARGIN  # a count of centres, laid to end there
    at, word = drawing.words(line, right - raster.text_width(line, 10), 10)[-1]
    assert abs(at + raster.text_width(word, 10) - right) <= 1


def test_a_word_of_the_arrows_line_drawn_before_is_not_drawn_again(monkeypatch):
    play = played({"france": ["A PAR", "A MAR"], "germany": ["A MUN", "A BER"]})
    after_spring = board_of(play(france="A PAR - BUR", germany="A MUN - RUH"))
    after_fall = board_of(play(france="A BUR - BEL", germany="A BER - KIE"))
    raster.forget()
    raster.png(after_spring)
    drawn_texts = []
    draw = raster.draw_sprites

    def noted(head, parts, *rest):
        drawn_texts.extend(TEXT.findall("".join(parts)))
        return draw(head, parts, *rest)
    monkeypatch.setattr(raster, "draw_sprites", noted)
    raster.png(after_fall)
    assert "Fall" in drawn_texts
    assert not {"Arrows:", "1901,", "movement"} & set(drawn_texts), drawn_texts
