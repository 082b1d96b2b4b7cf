"""The pure helpers games share: dice tables, bags, offers, reported results, rounds, knowledge."""

from collections import Counter

from hypothesis import given, settings, strategies as st
import pytest

from pbem.adjudicator import bags, dice, knowledge, numbers, offers, results, rounds
from pbem.adjudicator.contract import OrderError
from pbem.adjudicator.rng import PhaseRng
from pbem.adjudicator.rulings import parse_ruling

GOODS = {"wood": "wood", "bois": "wood", "metal": "metal", "stone": "stone",
         "pierre": "stone"}


def rng(phase=1):
    return PhaseRng("seed", "g", phase)


def test_a_die_gives_every_face_and_nothing_else():
    stream = rng()
    seen = Counter(dice.roll(stream) for _ in range(6000))
    assert set(seen) == set(range(1, 7))
    assert min(seen.values()) > 850


def test_dice_tables_cover_each_face_once_and_give_the_row():
    table = {"1": "disaster", "2-4": "heavy", "5": "sacrifice", "6": "orderly"}
    assert dice.check_table(table, 1, 6) == []
    assert [dice.row_for(table, f) for f in range(1, 7)] == [
        "disaster", "heavy", "heavy", "heavy", "sacrifice", "orderly"]
    assert dice.check_table({"1-3": "a", "3-5": "b"}, 1, 6) == [
        "face 3 is in both '1-3' and '3-5'", "face 6 is in no row"]


def test_the_same_stream_rolls_the_same_dice():
    assert dice.roll_dice(rng(4), 10) == dice.roll_dice(rng(4), 10)
    assert dice.roll_dice(rng(4), 10) != dice.roll_dice(rng(5), 10)


def test_a_bag_draws_without_replacement_whatever_its_key_order():
    bag = {"wood": 2, "stone": 1}
    drawn, left = bags.draw(bag, 2, rng())
    assert bags.size(left) == 1 and Counter(drawn) + Counter(left) == Counter(bag)
    assert bags.draw({"stone": 1, "wood": 2}, 2, rng()) == (drawn, left)
    everything, empty = bags.draw(bag, 10, rng())
    assert sorted(everything) == ["stone", "wood", "wood"] and empty == {}


def test_a_bag_draws_until_the_stop_token():
    drawn, left = bags.draw_until({"jacquerie": 3, "neutral": 1}, "neutral", rng())
    assert drawn[-1] == "neutral" and drawn.count("neutral") == 1
    assert bags.size(left) == 4 - len(drawn)
    with pytest.raises(ValueError, match="holds 0 metal"):
        bags.take({"wood": 1}, "metal")


@settings(max_examples=200, deadline=None)
@given(bag=st.dictionaries(st.sampled_from(["wood", "stone", "food", "metal"]),
                           st.integers(0, 6)),
       wants=st.lists(st.integers(0, 3), max_size=8), phase=st.integers(1, 10 ** 6))
def test_a_shared_bag_serves_round_by_round_and_loses_nothing(bag, wants, phase):
    dealt, left = bags.share(bag, wants, rng(phase))
    assert bags.share(bag, wants, rng(phase)) == (dealt, left)
    got = [len(tokens) for tokens in dealt]
    assert sum(got) == min(bags.size(bag), sum(wants))
    assert all(g <= w for g, w in zip(got, wants))
    assert Counter(t for tokens in dealt for t in tokens) + Counter(left) == \
        Counter({k: n for k, n in bag.items() if n})
    for g, w in zip(got, wants):
        if g < w:  # served a round less than it wanted: nobody got two rounds more
            assert bags.size(left) == 0
            assert all(other <= g + 1 for other in got)


def test_a_dry_bag_leaves_out_whom_the_drawn_order_puts_last():
    served = Counter()
    last = Counter()
    for phase in range(1, 3001):
        dealt, _left = bags.share({"food": 3}, [1] * 5, rng(phase))
        served.update(i for i, tokens in enumerate(dealt) if tokens)
        last.update(i for i, tokens in enumerate(dealt) if not tokens)
    assert sorted(served) == sorted(last) == list(range(5))
    for claimant in range(5):  # 3 in 5 served: 1800 of 3000, give or take
        assert 1650 < served[claimant] < 1950, served


def test_offers_read_in_both_languages_and_suggest_names():
    assert offers.read_offer("bob give wood 2 take metal 1".split(), ["ann", "bob"], GOODS) == \
        {"to": "bob", "give": {"wood": 2}, "take": {"metal": 1}}
    assert offers.read_offer("bob donne 2 bois pierre prend metal".split(), ["bob"], GOODS) == \
        {"to": "bob", "give": {"wood": 2, "stone": 1}, "take": {"metal": 1}}
    for said in ("bob wood 2 for metal 1", "bob bois 2 contre metal 1",
                 "bob donne bois 2 prends metal 1"):
        assert offers.read_offer(said.split(), ["bob"], GOODS) == \
            {"to": "bob", "give": {"wood": 2}, "take": {"metal": 1}}, said
    with pytest.raises(ValueError, match="did you mean bob"):
        offers.read_offer("bbo give wood 1".split(), ["ann", "bob"], GOODS)
    with pytest.raises(ValueError, match="did you mean metal"):
        offers.read_offer("bob give metl 1".split(), ["bob"], GOODS)


def test_an_answer_to_an_offer_reads_past_the_words_after_its_number():
    open_ = [{"id": 2, "from": "cid", "to": "bea", "give": {}, "take": {}, "status": "open"}]
    assert offers.read_answer("2 - deal cyril".split(), open_, "bea") == 2
    with pytest.raises(ValueError, match="by its number"):
        offers.read_answer("2 3".split(), open_, "bea")


def test_an_offer_moves_goods_only_when_both_sides_hold_them():
    offer = offers.new_offer([], "ann", {"to": "bob", "give": {"wood": 2},
                                         "take": {"metal": 1}}, phase=3)
    assert offer["id"] == 1
    stocks = {"ann": {"wood": 2}, "bob": {"metal": 1}}
    after, why = offers.settle(offer, stocks)
    assert why == {} and after == {"ann": {"wood": 0, "metal": 1}, "bob": {"metal": 0, "wood": 2}}
    assert stocks == {"ann": {"wood": 2}, "bob": {"metal": 1}}, "settle never changes its input"
    assert offers.settle(offer, {"ann": {"wood": 1}, "bob": {"metal": 1}}) == \
        (None, {"seat": "ann", "lacks": {"wood": 1}})


def test_an_answer_names_an_open_offer_to_the_seat():
    made = [{"id": 1, "from": "ann", "to": "bob", "status": "open"},
            {"id": 2, "from": "bob", "to": "ann", "status": "open"}]
    assert offers.read_answer(["#1"], made, "bob") == 1
    with pytest.raises(ValueError, match="no offer 2 to you; open offers to you: 1"):
        offers.read_answer(["2"], made, "bob")


def test_results_agree_only_when_every_seat_claims_the_same():
    assert results.agreed({"ann": "ann", "bob": "ann"}) == "ann"
    assert results.agreed({"ann": "ann", "bob": "bob"}) is None
    assert results.agreed({"ann": "ann", "bob": results.NO_REPORT}) is None


def test_a_result_is_read_in_english_or_french_with_points():
    assert results.parse_result("Résultat gagné 14 points") == (
        {"outcome": "won", "points": 14}, [])
    report, errors = results.parse_result("RESULT LOST", with_points=True)
    assert report is None and "points" in errors[0].message
    report, errors = results.parse_result("resutl drawn")
    assert errors[0].line == 1 and "RESULT WON or RESULT LOST" in errors[0].message
    report, errors = results.parse_result("we drew")
    assert report is None and [(e.line, e.remark) for e in errors] == [(1, True), (0, False)]
    assert "no result found: write RESULT WON or RESULT LOST" in errors[1].message
    assert results.parse_result("Bravo à ann.\nrésultat : perdu (9 points)") == (
        {"outcome": "lost", "points": 9},
        [OrderError(1, "Bravo à ann.", "not an order: set aside as a remark", remark=True)])


@given(st.integers(0, 12), st.sampled_from(["en", "fr"]), st.booleans())
def test_a_number_reads_in_digits_and_in_words_in_either_language(n, lang, shout):
    english = "zero one two three four five six seven eight nine ten eleven twelve".split()
    french = "zero un deux trois quatre cinq six sept huit neuf dix onze douze".split()
    word = (english if lang == "en" else french)[n]
    assert numbers.number(str(n)) == n
    if n:
        assert numbers.number(word.upper() if shout else word.title()) == n
    assert numbers.number("une") == 1 and numbers.number("Douze.") == 12
    assert numbers.number("pierre") is None and numbers.number("") is None


def test_a_result_and_an_offer_read_numbers_in_words():
    assert results.parse_result("résultat gagné, douze points", with_points=True)[0] == \
        {"outcome": "won", "points": 12}
    assert results.parse_result("result lost points nine", with_points=True)[0] == \
        {"outcome": "lost", "points": 9}
    assert results.parse_result("result won, one more for the Lord") == \
        ({"outcome": "won", "points": None}, [])
    goods = {"wood": "wood", "bois": "wood", "pierres": "stone", "stone": "stone"}
    assert offers.read_goods(["trois", "pierres", "bois"], goods) == {"stone": 3, "wood": 1}
    assert offers.read_goods(["wood", "two"], goods) == {"wood": 2}


def test_a_ruling_mail_sets_values_and_keeps_the_reasons():
    orders, errors = parse_ruling("Ruling winner ann kept every oath\nA fine game.",
                                  {"winner": ["ann", "bob"]}, by="barb")
    assert errors == []
    assert orders == {"set": {"winner": "ann"}, "text": "kept every oath; A fine game.",
                      "by": "barb"}
    _, errors = parse_ruling("I cannot decide", {"winner": ["ann", "bob"]}, by="barb")
    assert errors[0].message == "the ruling must set winner, e.g. winner ann"
    _, errors = parse_ruling("winner", {"winner": ["ann", "bob"]}, by="barb")
    assert errors[0].message == "say what winner is, e.g. winner ann"
    _, errors = parse_ruling("I cannot decide", {"points": []}, by="barb")
    assert errors[0].message == "the ruling must set points"


def test_a_rulings_reasons_are_whole_and_its_courtesies_are_remarks():
    orders, errors = parse_ruling(
        "Hi all,\nHere is my final ruling:\nMes seigneurs,\nwinner ann\nbob burnt the mill\n"
        "Cheers,\nBarb the Great\n", {"winner": ["ann", "bob"]}, by="barb")
    assert orders["text"] == "bob burnt the mill"
    assert [(e.line, e.remark) for e in errors] == [(1, True), (2, True), (3, True),
                                                   (6, True), (7, True)]
    orders, errors = parse_ruling("The winner is plain.\nwinner bob\nbarb",
                                  {"winner": ["ann", "bob"]}, by="barb")
    assert orders["text"] == "The winner is plain." and [e.line for e in errors] == [3]
    _, errors = parse_ruling("Hello,\nbarb", {"winner": ["ann", "bob"]}, by="barb")
    assert errors[0].message == "the ruling must set winner, e.g. winner ann"


def test_a_ruling_sets_several_values_on_a_line_and_names_every_one_missing():
    farms = {"ann-1": ["c5", "d4"], "ann-2": ["c5", "d4"], "bob-1": ["g4"]}
    orders, errors = parse_ruling("ruling ann-1 c5 ann-2 d4 the poorest rise\nbob-1 g4",
                                  farms, by="barb")
    assert errors == [] and orders["set"] == {"ann-1": "c5", "ann-2": "d4", "bob-1": "g4"}
    assert orders["text"] == "the poorest rise"
    _, errors = parse_ruling("ruling", farms, by="barb")
    assert [e.message for e in errors] == [
        "the ruling must set ann-1, ann-2 and bob-1, e.g. ann-1 c5 ann-2 d4 bob-1 g4"]
    assert not parse_ruling("ann-1 c5 ann-2 d4 bob-1 g4", farms, by="barb")[1]


def test_rounds_end_with_a_round_in_which_nobody_acts():
    taxation = rounds.start("taxation", ["ann", "bob"])
    taxation = rounds.acted(taxation, "bob")
    assert not rounds.quiet(taxation)
    second = rounds.following(taxation)
    assert second["number"] == 2 and rounds.quiet(second)
    assert rounds.round_hours({}) == 12.0 and rounds.round_hours({"round_hours": "3"}) == 3.0


def test_knowledge_is_stamped_and_shown_stale_later():
    table = knowledge.learn({}, "ann", "Mercia", {"army": 5}, turn=2)
    assert knowledge.known(table, "ann", "Mercia", 2) == {"fact": {"army": 5}, "turn": 2,
                                                          "stale": False}
    assert knowledge.known(table, "ann", "Mercia", 4)["stale"]
    assert knowledge.known(table, "bob", "Mercia", 4) is None
    assert knowledge.subjects(knowledge.forget(table, "ann", "Mercia"), "ann") == []
