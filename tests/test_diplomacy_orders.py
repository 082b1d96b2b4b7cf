"""Reading Diplomacy orders in the judges' notation, and writing them back."""

import pytest

from pbem.games.diplomacy.board import board
from pbem.games.diplomacy.orders import name_index, order_text, read, read_orders
from pbem.games.diplomacy.position import start, unit_record
from pbem.i18n import speaking

MAP = board()


def position(units: dict, phase="movement", **more) -> dict:
    """A position with these units ({"france": ["A PAR"]}) and the home centres owned."""
    out = start(MAP)
    out["phase"] = phase
    out["units"] = {}
    for power, texts in units.items():
        for text in texts:
            kind, place = text.split()
            out["units"][place.partition("/")[0]] = unit_record(power, kind, place)
    return {**out, **more}


def said(text: str, power: str = "france", where=None) -> list:
    """The lines as the reader understood them, and the errors as "line N: message"."""
    orders, errors = read(MAP, where or start(MAP), power, text)
    return [order_text(o) for o in orders] + [str(e) for e in errors]


@pytest.mark.parametrize("line", [
    "A PAR-BUR", "A PAR - BUR", "a par - bur", "A Paris - Burgundy", "A Paris -> Burgundy",
    "A PAR TO BUR", "Army Paris to Burgundy", "PAR - BUR", "A Paris - Bourgogne",
])
def test_a_move_is_read_in_every_usual_form(line):
    assert said(line) == ["A PAR - BUR"]


@pytest.mark.parametrize("line, understood", [
    ("A MAR H", "A MAR H"),
    ("A Marseilles Hold", "A MAR H"),
    ("F BRE - Mid-Atlantic Ocean", "F BRE - MAO"),
    ("F Brest - mid atlantic ocean", "F BRE - MAO"),
    ("F BRE - MID", "F BRE - MAO"),
    ("A MAR S A PAR - BUR", "A MAR S A PAR - BUR"),
    ("A Marseilles Supports A Paris - Burgundy", "A MAR S A PAR - BUR"),
    ("A PAR S BRE", "A PAR S F BRE"),
    ("A PAR S F BRE H", "A PAR S F BRE"),
    ("A Marseille soutient... ", None),
])
def test_holds_supports_and_names(line, understood):
    got = said(line)
    if understood is None:
        assert got[0].startswith("line 1: ")
    else:
        assert got == [understood]


def test_coasts_are_written_with_a_slash_brackets_or_a_word():
    russia = [
        ("F STP/SC - BOT", "F STP/SC - BOT"),
        ("F St Petersburg(sc) - Gulf of Bothnia", "F STP/SC - BOT"),
        ("F Saint-Pétersbourg/SC - Golfe de Botnie", "F STP/SC - BOT"),
        ("F STP SC - FIN", "F STP/SC - FIN"),
        ("F STP (south coast) - LVN", "F STP/SC - LVN"),
    ]
    for line, understood in russia:
        assert said(line, "russia") == [understood], line
    spain = position({"france": ["F SPA/SC", "F POR"]})
    assert said("F SPA/SC - MAO", where=spain) == ["F SPA/SC - MAO"]
    assert said("F POR - SPA/NC", where=spain) == ["F POR - SPA/NC"]


def test_convoys_and_via_convoy():
    where = position({"england": ["A LON", "F NTH", "F ENG"]})
    assert said("F NTH C A LON - BEL\nA LON - BEL", "england", where) == [
        "F NTH C A LON - BEL", "A LON - BEL"]
    assert said("A LON - YOR VIA CONVOY", "england", where) == ["A LON - YOR VIA CONVOY"]
    assert said("F North Sea convoys A London - Belgium", "england", where) == [
        "F NTH C A LON - BEL"]


def test_retreats_and_disbands():
    where = position({"germany": ["A PAR"]}, phase="retreat",
                     dislodged={"BUR": {"power": "france", "type": "A", "from": "MUN",
                                        "retreats": ["GAS", "PIC"]}})
    assert said("A BUR DISBAND", where=where) == ["A BUR DISBAND"]
    assert said("A BUR D", where=where) == ["A BUR DISBAND"]
    assert said("A BUR - MUN", where=where) == [
        "line 1: no unit may retreat to Munich (MUN), where its attacker came from"]
    assert said("A BUR - PAR", where=where) == ["line 1: Paris (PAR) is occupied"]
    assert said("A BUR - PIC", where=where) == ["A BUR - PIC"]
    assert said("A BUR retreats to Picardy", where=where) == ["A BUR - PIC"]
    assert said_in("fr", "A BOU recule vers PIC", where=where) == ["A BUR - PIC"]
    assert said("A BUR - ROM", where=where) == [
        "line 1: Burgundy (BUR) does not border Rome (ROM); it may retreat to GAS, PIC"]
    assert said("A BUR H", where=where) == ["line 1: a dislodged unit can only retreat or disband"]


def test_builds_removals_and_waives():
    winter = position({"russia": ["A MOS"], "germany": ["A BER", "A MUN", "A KIE", "A HOL"]},
                      phase="adjustment", season="winter")
    assert said("BUILD F STP/NC\nbuild a war\nBUILD SEV\nWAIVE", "russia", winter) == [
        "BUILD F STP/NC", "BUILD A WAR", "WAIVE", "line 3: say A or F to build in Sevastopol (SEV)"]
    assert said("BUILD STP/SC", "russia", winter) == ["BUILD F STP/SC"]
    assert said("REMOVE A HOL", "germany", winter) == ["REMOVE A HOL"]
    assert said("REMOVE A Holland", "germany", winter) == ["REMOVE A HOL"]
    assert said("BUILD A BER", "germany", winter) == ["line 1: Germany has no build this winter"]


def test_every_error_names_its_line_and_why_and_the_closest_name():
    text = "A PAR - BUR\n\nA Pars - GAS\nF BRE - BUR\nA MAR - Burgandy\nmoev A MAR GAS"
    assert said(text) == [
        "A PAR - BUR",
        "line 3: there is no province PARS; did you mean Paris (PAR)?",
        "line 4: a fleet cannot enter Burgundy (BUR), an inland province",
        "line 5: there is no province BURGANDY; did you mean Burgundy (BUR)?",
        "line 6: I do not understand 'MOEV'; did you mean MOVE or MOVES? Write for example "
        "F BRE H, or send HELP",
    ]


@pytest.mark.parametrize("line", [
    "Hello France!", "Great game last night, Bea!", "Allez, on y va !",
    "I'll attack Munich next spring", "Bonne chance à tous", "Je te laisse la Belgique",
    "Two builds, lovely.", "Merci Bob, message reçu.", ":)", "—",
    "Oups, Venise ne touche pas Vienne. Alors :",
])
def test_a_line_of_chat_between_the_orders_is_a_remark_not_an_error(line):
    orders, errors = read(MAP, start(MAP), "france", f"A PAR - BUR\n{line}\nF BRE - MAO")
    assert [order_text(o) for o in orders] == ["A PAR - BUR", "F BRE - MAO"]
    assert [(e.line, e.remark) for e in errors] == [(2, True)]


@pytest.mark.parametrize("line", ["moev A PAR BUR", "BULD A PAR", "Pars - BUR", "flet BRE H"])
def test_a_mistyped_order_word_is_an_error_not_a_remark(line):
    _orders, errors = read(MAP, start(MAP), "france", line)
    assert len(errors) == 1 and not errors[0].remark


def test_an_error_reads_in_french_names_for_a_french_seat():
    with speaking("fr"):
        assert said("F BRE - BUR") == [
            "line 1: une flotte ne peut pas entrer dans une province intérieure\u00a0: "
            "Bourgogne (BUR)"]


def test_two_orders_for_one_unit_are_both_refused_and_the_unit_holds():
    assert said("A PAR - BUR\nA PAR - PIC\nF BRE H") == [
        "F BRE H",
        "line 1: A PAR has more than one order: none of them counts",
        "line 2: A PAR has more than one order: none of them counts",
    ]


def test_an_order_for_another_powers_unit_or_an_empty_province_is_refused():
    assert said("A BER - SIL") == [
        "line 1: the unit in Berlin (BER) is Germany's: you order only your own units"]
    assert said("A BUR - PAR") == [
        "line 1: there is no unit in Burgundy (BUR); your units: F BRE, A MAR, A PAR"]
    assert said("A PAR - MUN") == [
        "line 1: Paris (PAR) does not border Munich (MUN), and no fleets stand at sea between "
        "them to convoy the army; it may move to BRE, BUR, GAS, PIC"]
    assert said("F BRE - NTH") == [
        "line 1: a fleet in Brest (BRE) cannot reach North Sea (NTH); it can reach ENG, GAS, "
        "MAO, PIC"]


def test_the_unit_type_written_does_not_matter_and_is_said_back_right():
    assert said("F PAR - BUR\nA BRE - MAO") == ["A PAR - BUR", "F BRE - MAO"]


@pytest.mark.parametrize("text, where", [
    ("A MAR S A PAR - BUR\nF BRE - PIC\nA PAR - GAS", start(MAP)),
    ("F NTH C A LON - BEL\nA LON - BEL VIA CONVOY\nF ENG S A LON - BEL",
     position({"france": ["A LON", "F NTH", "F ENG"]})),
    ("F MAO - SPA/NC\nF POR S F MAO - SPA\nF WES S F MAO - SPA/NC",
     position({"france": ["F MAO", "F POR", "F WES"]})),
])
def test_an_order_said_back_reads_as_the_same_order(text, where):
    power = "france"
    first, errors = read(MAP, where, power, text)
    assert not errors
    again, errors = read(MAP, where, power, "\n".join(order_text(o) for o in first))
    assert again == first and not errors


def test_a_written_convoy_route_and_a_nationality_are_read_past():
    where = position({"england": ["A LON", "F NTH", "F ENG", "F EDI"]})
    assert said("A LON - NTH - BEL\nF EDI S English A LON - YOR\nEngland: F ENG H\n"
                "F NTH S English Channel", "england", where) == [
        "A LON - BEL", "F EDI S A LON - YOR", "F ENG H", "F NTH S F ENG"]


def said_in(lang: str, text: str, power: str = "france", where=None) -> list:
    """The lines as understood, said back in `lang`, and the errors in `lang`."""
    with speaking(lang):
        orders, errors = read(MAP, where or start(MAP), power, text)
        return [order_text(o, lang) for o in orders] + [f"{e.line}: {e.message}" for e in errors]


@pytest.mark.parametrize("line", [
    "A PAR - BOU", "A PAR VERS BOU", "A Paris -> Bourgogne", "armée Paris vers Bourgogne",
    "A PAR - BUR", "Français : A PAR - BOU", "A par-bou",
])
def test_a_move_in_french_words_and_abbreviations(line):
    assert said_in("fr", line) == ["A PAR - BUR"]


@pytest.mark.parametrize("line, understood", [
    ("A MAR TIENT", "A MAR TIENT"),
    ("A MAR T", "A MAR TIENT"),
    ("armée Marseille tient", "A MAR TIENT"),
    ("A MAR SOUTIENT A PAR - BOU", "A MAR S A PAR - BUR"),
    ("A Marseille soutient A Paris vers Bourgogne", "A MAR S A PAR - BUR"),
    ("A PAR S F BRE", "A PAR S F BRE"),
    ("flotte Brest - Atlantique moyen", "F BRE - MAO"),
    ("F BRE - AMO", "F BRE - MAO"),
    ("F BRE - Manche", "F BRE - ENG"),
])
def test_holds_supports_and_french_names(line, understood):
    assert said_in("fr", line) == [understood]


def test_french_coasts_convoys_retreats_and_winter():
    assert said_in("fr", "F SPB/CS - Golfe de Botnie", "russia") == ["F STP/SC - BOT"]
    assert said_in("fr", "F Saint-Pétersbourg (côte sud) - BOT", "russia") == [
        "F STP/SC - BOT"]
    assert said_in("fr", "F SEB - NOI\nA VAR - UKR", "russia") == [
        "F SEV - BLA", "A WAR - UKR"]
    sea = position({"england": ["A LON", "F NTH", "F ENG"]})
    assert said_in("fr", "F MDN CONVOIE A LON - BEL\nA LON - BEL PAR CONVOI", "england",
                   sea) == ["F NTH C A LON - BEL", "A LON - BEL PAR CONVOI"]
    assert said_in("fr", "F Mer du Nord convoie A Londres vers Belgique", "england", sea) == [
        "F NTH C A LON - BEL"]
    retreat = position({"germany": ["A PAR"]}, phase="retreat",
                       dislodged={"BUR": {"power": "france", "type": "A", "from": "MUN",
                                          "retreats": ["GAS", "PIC"]}})
    assert said_in("fr", "A BOU DISSOUS", where=retreat) == ["A BUR DISSOUS"]
    assert said_in("fr", "A BOU RETRAITE PIC", where=retreat) == ["A BUR - PIC"]
    winter = position({"russia": ["A MOS"]}, phase="adjustment", season="winter")
    assert said_in("fr", "CONSTRUIT F SPB/CN\nconstruit A Varsovie\nRENONCE", "russia",
                   winter) == ["CONSTRUIT F STP/NC", "CONSTRUIT A WAR", "RENONCE"]
    removal = position({"germany": ["A BER", "A MUN", "A KIE", "A HOL"]}, phase="adjustment",
                       season="winter")
    assert said_in("fr", "RETIRE A Hollande", "germany", removal) == ["RETIRE A HOL"]


def test_the_names_players_write_beside_the_judges_abbreviations():
    """'Tunisie', as a French player calls Tunis, and LPL, the old abbreviation of
    Liverpool, were refused."""
    ionian = position({"italy": ["F ION"]})
    assert said_in("fr", "F ION - Tunisie", "italy", ionian) == ["F ION - TUN"]
    assert said("A Lpl - Yor", "england") == ["A LVP - YOR"]


def test_french_errors_name_the_line_why_and_the_closest_name():
    assert said_in("fr", "A PAR - Bourgone\nF BRE - BOU\ntenit A PAR") == [
        "1: il n'y a pas de province BOURGONE\u00a0; vouliez-vous dire "
        "Bourgogne (BUR)\u00a0?",
        "2: une flotte ne peut pas entrer dans une province intérieure\u00a0: "
        "Bourgogne (BUR)",
        "3: Je ne comprends pas 'TENIT'\u00a0; vouliez-vous dire TIENT ou TENIR\u00a0? "
        "Écrivez par exemple F BRE TIENT, ou envoyez AIDE"]


def test_every_french_abbreviation_names_its_province_and_no_other():
    keys = {p.key for p in MAP.provinces.values()}
    index = name_index(MAP)
    for province in MAP.provinces.values():
        assert province.french_key == province.key or province.french_key not in keys
        assert index[(province.french_key,)] == province.key


def test_a_seat_playing_several_powers_orders_them_all_in_one_mail():
    orders, errors = read_orders(MAP, start(MAP), ("france", "germany"),
                                 "A PAR - BUR\nA MUN - RUH\nF KIE - DEN\nA VIE - GAL")
    assert {p: [order_text(o) for o in given] for p, given in orders.items()} == {
        "france": ["A PAR - BUR"], "germany": ["A MUN - RUH", "F KIE - DEN"]}
    assert [str(e) for e in errors] == [
        "line 4: the unit in Vienna (VIE) is Austria's: you order only your own units"]


def test_a_waive_names_its_power_when_several_of_a_seats_powers_build():
    where = position({"france": ["A MAR", "F BRE"], "germany": ["A BER", "F KIE"]},
                     phase="adjustment", season="winter")
    orders, errors = read_orders(MAP, where, ("france", "germany"),
                                 "WAIVE\nWAIVE GERMANY\nFrance: BUILD A PAR\nWAIVE ITALY")
    assert {p: [order_text(o) for o in given] for p, given in orders.items()} == {
        "germany": ["WAIVE"], "france": ["BUILD A PAR"]}
    assert [str(e) for e in errors] == [
        "line 1: say which power waives a build: WAIVE FRANCE or WAIVE GERMANY",
        "line 4: you do not play Italy"]
    alone, errors = read_orders(MAP, where, ("germany",), "RENONCE ALLEMAGNE")
    assert [order_text(o) for o in alone["germany"]] == ["WAIVE"] and not errors


def test_a_mistyped_winter_order_names_the_word_meant_and_an_order_the_seat_may_give():
    winter = position({"france": ["A MAR", "F BRE"]}, phase="adjustment", season="winter")
    assert said("REMOV A MAR", where=winter) == [
        "line 1: I do not understand 'REMOV'; did you mean REMOVE or REMOVES? Write for "
        "example BUILD A PAR, or send HELP"]
    crowded = position({"france": ["A MAR", "F BRE", "A PAR", "A BUR"]}, phase="adjustment",
                       season="winter")
    assert said("WAIV", where=crowded)[0].endswith("Write for example REMOVE F BRE, or send "
                                                   "HELP")
    assert said("BUILD A PAR") == [
        "line 1: builds, removals and waives are written in winter; now write for example "
        "F BRE H"]


# Orders as other engines and devices write them.

def every_order(where: dict, power: str) -> list[dict]:
    """Every order a power may give in a movement position, as the reader checks them: each
    unit's hold and moves, and supports and convoys of its own units' holds and moves."""
    units = {p: u for p, u in where["units"].items() if u["power"] == power}
    holds = [f"{u['type']} {p}" for p, u in sorted(units.items())]
    moves = [f"{unit} - {to}" for unit in holds for to in sorted(MAP.provinces)]
    lines = [f"{unit} H" for unit in holds] + moves + \
        [f"{unit} S {helped}" for unit in holds for helped in holds + moves] + \
        [f"{unit} C {move}" for unit in holds for move in moves]
    orders = []
    for line in lines:
        got, errors = read(MAP, where, power, line)
        orders += got if not errors else []
    return orders


def web_diplomacy(order: dict) -> str:
    """An order as webDiplomacy's order archive writes it: "The army at Munich hold."."""
    def unit(kind, place):
        return f"the {'army' if kind == 'A' else 'fleet'} at {MAP.name(place)}"
    said = unit(order["unit"], order["at"])[0].upper() + unit(order["unit"], order["at"])[1:]
    kind = order["type"]
    if kind == "hold":
        return f"{said} hold."
    if kind == "move":
        return f"{said} move to {MAP.name(order['to'])}" + \
            (" via convoy." if order.get("via") else ".")
    if kind == "support" and "to" not in order:
        return f"{said} support hold to {MAP.name(order['of'])}."
    verb = "support move to" if kind == "support" else "convoy to"
    return f"{said} {verb} {MAP.name(order['to'])} from {MAP.name(order['of'])}."


def spelt_out(order: dict) -> str:
    """An order in words with an arrow, as Diplicity and phones write them: "Fleet North Sea
    support Fleet Sweden → Denmark"."""
    def unit(kind, place):
        return f"{'Army' if kind == 'A' else 'Fleet'} {MAP.name(place)}"
    said = unit(order["unit"], order["at"])
    kind = order["type"]
    if kind == "hold":
        return f"{said} hold"
    if kind == "move":
        return f"{said} → {MAP.name(order['to'])}" + (" via" if order.get("via") else "")
    helped = unit(order["of_unit"], order["of"])
    verb = "support" if kind == "support" else "convoy"
    return f"{said} {verb} {helped}" + (f" move to {MAP.name(order['to'])}" if "to" in order
                                        else "")


@pytest.mark.parametrize("where, power", [
    (start(MAP), "germany"), (start(MAP), "russia"),
    (position({"england": ["A LON", "F NTH", "F ENG", "A YOR"]}), "england"),
])
@pytest.mark.parametrize("notation", [web_diplomacy, spelt_out])
def test_every_order_reads_the_same_as_other_engines_write_it(where, power, notation):
    orders = every_order(where, power)
    assert len(orders) > 20
    for order in orders:
        got, errors = read(MAP, where, power, notation(order))
        assert (got, errors) == ([order], []), notation(order)


@pytest.mark.parametrize("line, understood", [
    ("F Kie → Ber", "F KIE - BER"), ("F Kie ⇒ Ber", "F KIE - BER"),
    ("F Kie => Ber", "F KIE - BER"), ("F Kie -> Ber", "F KIE - BER"),
    ("A Mun ⟶ Bur", "A MUN - BUR"), ("A MUN STANDS", "A MUN H"),
    ("Fleet Kiel support Army Munich move to Berlin", "F KIE S A MUN - BER"),
])
def test_arrows_and_words_of_other_engines(line, understood):
    assert said(line, "germany") == [understood]


def test_short_forms_of_other_engines_via_build_and_remove():
    where = position({"england": ["A LON", "F NTH"]})
    assert said("A LON - BEL VIA", "england", where) == ["A LON - BEL VIA CONVOY"]
    assert said("A LON - BEL BY", "england", where) == [
        "line 1: write VIA CONVOY after a move that takes a convoy"]
    winter = {**start(MAP), "season": "winter", "phase": "adjustment",
              "units": {"TUS": unit_record("italy", "A", "TUS")}}
    assert said("F BRE B\nA PAR BUILD\nF MAR B", "france", {**winter, "units": {}}) == [
        "BUILD F BRE", "BUILD A PAR", "BUILD F MAR"]
    assert said("Build army at Paris.\nBuild fleet at Brest.", "france",
                {**winter, "units": {}}) == ["BUILD A PAR", "BUILD F BRE"]
    lost = {**winter, "centres": {"ROM": "italy"},
            "units": {"TUS": unit_record("italy", "A", "TUS"),
                      "VEN": unit_record("italy", "A", "VEN")}}
    assert said("A TUS D", "italy", lost) == ["REMOVE A TUS"]
    assert said("Destroy the army at Tuscany.", "italy", lost) == ["REMOVE A TUS"]


def test_a_bare_hold_disband_or_remove_is_the_one_unit_it_can_mean():
    alone = position({"england": ["F LON"]})
    assert said("hold", "england", alone) == ["F LON H"]
    assert said("hold", "england", position({"england": ["F LON", "A YOR"]})) == [
        "line 1: say which unit: F LON HOLD or A YOR HOLD"]
    retreat = {**alone, "phase": "retreat", "dislodged": {
        "BUR": {**unit_record("england", "A", "BUR"), "from": "PAR", "convoyed": False,
                "retreats": ["BEL", "PIC"]}}}
    assert said("disband", "england", retreat) == ["A BUR DISBAND"]
    with speaking("fr"):
        assert said("dissous", "england", retreat) == ["A BUR DISBAND"]
        assert said("tient", "england", position({"england": ["F LON", "A YOR"]})) == [
            "line 1: dites quelle unité\u00a0: F LON TIENT ou A YOR TIENT"]
    winter = {**start(MAP), "season": "winter", "phase": "adjustment",
              "centres": {}, "units": {"TUS": unit_record("italy", "A", "TUS")}}
    assert said("remove", "italy", winter) == ["REMOVE A TUS"]
