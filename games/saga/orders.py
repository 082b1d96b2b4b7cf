"""SAGA campaign orders: reading a mail for what is asked now, checking it, saying it back.

One order per line; English or French words, accents optional:

    faction vikings / homeland Man / host 2 hearthguards 2 warriors 1 levies / reserve 1 warriors
    move host Mercia          deplacer host Mercie
    scout Mercia [host]       reconnaissance Mercie
    stay                      rester
    army host+reserve         armee host+reserve (merge)
    split host 2 [warriors] [raiders]       diviser host 2 raiders
    recruit warriors [Jorvik|host]          recruter guerriers Jorvik
    disband host 1 levies     licencier host 1 levees
    ransom / release bob      rancon / liberer bob
    retreat reserve Jorvik    retraite reserve Jorvik (small armies, or the loser's fall-back)
    withdraw reserve Jorvik / fight / scenario bridge
    lose 1 warriors 1 levies / promote warriors|levies|none
    result won [points 12]    resultat gagne [points 12]

Every line a mail cannot use gets an error naming its line, why, and the
closest valid word.
"""

from difflib import get_close_matches
import re

from pbem.adjudicator.contract import OrderError, plain_copy
from pbem.adjudicator import numbers
from pbem.adjudicator.results import LEAD, parse_result
from pbem.adjudicator.spelling import aside
from pbem.i18n import _, current, ngettext

from .army import cheapest, has, points
from .material import (DEFAULT_HOST, DEFAULT_RESERVE, HOST_POINTS, LORD_WORDS, RESERVE_POINTS,
                       SCENARIO_NAMES, UNIT_TYPES, army_name, faction_name, faction_of,
                       faction_word, plain, points_text, scenario_name, scenario_of, unit_count,
                       unit_name, unit_of, units_text)
from . import choices
from .moves import events as step_events
from .moves import (default_where, is_outward, problem, problem_after_scouting,
                    recruit_problem)
from .rules import (aftermath_asks, fall_back_options, give_way, scenario_chooser,
                    withdraw_options)
from .start import signup_options
from .state import apply, board_of, owner_of

# Each order's words, English and French, the French verbs also as a player writes them
# after "je" ("Je perds 2 guerriers").
VERBS = {
    "move": "move", "deplacer": "move", "deplace": "move", "bouger": "move", "aller": "move",
    "marcher": "move",
    "scout": "scout", "reconnaissance": "scout", "reconnaitre": "scout", "eclairer": "scout",
    "stay": "stay", "rester": "stay", "reste": "stay",
    "army": "merge", "merge": "merge", "armee": "merge", "fusion": "merge",
    "fusionner": "merge", "reunir": "merge",
    "split": "split", "diviser": "split", "divise": "split", "scinder": "split",
    "separer": "split",
    "recruit": "recruit", "recruter": "recruit", "recrute": "recruit", "enroler": "recruit",
    "disband": "disband", "licencier": "disband", "licencie": "disband", "dissoudre": "disband",
    "ransom": "ransom", "rancon": "ransom", "racheter": "ransom",
    "release": "release", "liberer": "release", "libere": "release", "relacher": "release",
    "retreat": "retreat", "retraite": "retreat", "repli": "retreat", "replier": "retreat",
    "fallback": "retreat", "reculer": "retreat",
    "withdraw": "withdraw", "retirer": "withdraw", "retire": "withdraw", "retrait": "withdraw",
    "fight": "fight", "combattre": "fight", "combats": "fight", "combat": "fight",
    "scenario": "scenario",
    "lose": "lose", "perdre": "lose", "perds": "lose", "pertes": "lose", "perte": "lose",
    "promote": "promote", "promouvoir": "promote", "promeus": "promote", "promotion": "promote",
    "faction": "faction", "camp": "faction",
    "homeland": "homeland", "patrie": "homeland",
    "host": "host", "ost": "host",
    "reserve": "reserve",
}
# Each order as a French reader writes it (what a refusal lists as accepted now).
FRENCH_VERBS = {"move": "déplacer", "scout": "reconnaissance", "stay": "rester",
                "merge": "armée", "split": "diviser", "recruit": "recruter",
                "disband": "licencier", "ransom": "rançon", "release": "libérer",
                "retreat": "retraite", "withdraw": "retirer", "fight": "combattre",
                "scenario": "scénario", "lose": "perdre", "promote": "promouvoir",
                "faction": "faction", "homeland": "patrie", "host": "ost", "reserve": "réserve"}
FILLER = {"to", "in", "into", "on", "with", "from", "a", "en", "dans", "vers", "sur", "avec",
          "de", "du", "depuis", "the", "le", "la", "les", "l", "au", "and", "et", "as",
          "comme", "units", "unit", "unites", "unite"}
# The armies every seat starts with, by their French names (réserve reads as reserve).
ARMY_WORDS = {"ost": "host"}
NOTHING = {"none", "no", "nothing", "non", "rien", "aucune", "aucun", "decline", "refuse"}
# What each phase accepts.
ACCEPTS = {
    "signup": ("faction", "homeland", "host", "reserve"),
    "orders": ("move", "scout", "merge", "split", "recruit", "disband", "ransom", "release",
               "stay"),
    "move": ("move", "stay", "recruit"),
    "retreat": ("retreat",),
    "setup": ("withdraw", "fight", "scenario"),
    "aftermath": ("lose", "retreat", "promote"),
    "disband": ("disband",),
}


def words(line: str) -> list[str]:
    """A line as lower-case words without accents or punctuation ('+' splits too)."""
    return [t for t in re.split(r"[\s,;:.!()+]+", plain(line)) if t]


def stage_of(state) -> str:
    """The phase a mail answers now."""
    if state["stage"] == "signup":
        return "signup"
    stage = state["turn"]["stage"]
    return "result" if stage == "battle" else stage


def parse(state, seat, text):
    """Read a seat's mail for what is asked of it now; one error per line not accepted."""
    if state["stage"] == "over":
        return {}, [OrderError(1, "", _("the campaign is over"))]
    stage = stage_of(state)
    if stage == "result":
        return parse_result(text, with_points=bool(state["turn"]["battle"].get("points_rule")))
    reader = Reader(state, seat, stage)
    for number, line in enumerate(text.splitlines(), start=1):
        for tokens in reader.pieces(words(line)):
            reader.line(number, line.strip(), tokens)
    return reader.finish()


def written(verbs) -> str:
    """Orders as the reader writes them, in capitals: "MOVE, SCOUT" or "DÉPLACER, ..."."""
    french = current() == "fr"
    return ", ".join((FRENCH_VERBS[v] if french else v).upper() for v in verbs)


class Reader:
    """Reads one mail's lines into the orders of the phase, checking them on a sketch."""

    def __init__(self, state, seat, stage):
        self.state = state
        self.sketch = plain_copy(state)
        self.seat = seat
        self.stage = stage
        self.board = board_of(state)
        self.errors = []
        self.steps = []
        self.deferred = []      # the move out (or scouting), checked after every other step
        self.orders = {}
        self.lines = {}         # what each kind of line was given on
        self.texts = {}         # each line read, by its number
        self.said = []          # the words after the verb of the order being read

    def error(self, number, line, message) -> None:
        """Record one line that cannot be accepted."""
        self.errors.append(OrderError(number, line, message))

    def pieces(self, tokens) -> list[list[str]]:
        """A line's orders: the line itself, or at the signup, a line that starts with an
        order, each of its orders as the mail shows them side by side ("faction normands
        patrie Normandie")."""
        if self.stage != "signup" or not tokens or VERBS.get(tokens[0]) not in ACCEPTS["signup"]:
            return [tokens] if tokens else []
        out = []
        for token in tokens:
            if not out or VERBS.get(token) in ACCEPTS["signup"]:
                out.append([])
            out[-1].append(token)
        return out

    def line(self, number, line, tokens) -> None:
        """Read one line (or one order of it)."""
        self.texts[number] = line
        self.said = tokens[1:]
        verb = VERBS.get(tokens[0])
        args = [t for t in tokens[1:] if t not in FILLER]
        remark = aside(number, line, tokens[0], [*VERBS, *LEAD]) \
            if verb is None and tokens[0] not in LEAD else None
        if remark:
            self.errors.append(remark)
            return
        if verb is None or verb not in ACCEPTS[self.stage]:
            self.error(number, line, self.unknown(tokens[0], verb))
            return
        try:
            getattr(self, f"read_{verb}")(number, line, args)
        except ValueError as problem_:
            self.error(number, line, str(problem_))

    def unknown(self, word, verb) -> str:
        """Why a line's first word is not an order of this phase."""
        allowed = ACCEPTS[self.stage]
        if verb is not None:
            return _("{verb} is not an order for now; now you may send: {allowed}").format(
                verb=word.upper(), allowed=written(allowed))
        close = get_close_matches(word, [w for w, v in VERBS.items() if v in allowed], n=1)
        hint = _("; did you mean {word}?").format(word=close[0].upper()) if close else ""
        return _("I do not understand {word!r}; now you may send: {allowed}").format(
            word=word, allowed=written(allowed)) + hint

    # ------------------------------------------------------------ names

    def zone(self, tokens) -> str:
        """The zone some words name; ValueError with the closest zone."""
        text = " ".join(tokens)
        found = self.board.lookup(text) if text else None
        if found:
            return found
        if not text:
            raise ValueError(_("name a zone (its name or its number)"))
        close = self.board.closest(text)
        hint = _("; did you mean {zone}?").format(zone=self.board.label(close)) if close else ""
        raise ValueError(_("there is no zone called {word!r}").format(word=text) + hint)

    def army(self, word, seat=None) -> str:
        """One of the seat's armies (on the sketch); ValueError with the closest name. The
        army named host answers to its French name too (ost)."""
        armies = self.sketch["armies"][seat or self.seat]
        if word in armies:
            return word
        if ARMY_WORDS.get(word) in armies:
            return ARMY_WORDS[word]
        close = get_close_matches(word, sorted(armies), n=1)
        hint = _("; did you mean {army}?").format(army=close[0]) if close else ""
        names = ", ".join(sorted(armies)) or _("none")
        raise ValueError(_("you have no army called {army} (your armies: {names})").format(
            army=word, names=names) + hint)

    def units(self, tokens, army=None, allow_name=False) -> tuple[dict, bool, str | None]:
        """(units, lord, name): '2 warriors 1 levies', '2' (the cheapest), 'lord', a name."""
        units = {t: 0 for t in UNIT_TYPES}
        lord, name, count, cheap = False, None, None, 0
        for token in tokens:
            if numbers.number(token) is not None or token == "an":  # "je perds une levée"
                if count is not None:
                    cheap += count
                count = 1 if token == "an" else numbers.number(token)
                continue
            kind = unit_of(token)
            if kind:
                units[kind] += 1 if count is None else count
                count = None
            elif token in LORD_WORDS:
                lord = True
            elif allow_name and name is None:
                name = token
            else:
                close = get_close_matches(token, ["hearthguards", "warriors", "levies", "lord"],
                                          n=1)
                hint = _("; did you mean {word}?").format(word=close[0]) if close else ""
                raise ValueError(_("{word!r} is not a unit type: hearthguards, warriors or "
                                   "levies").format(word=token) + hint)
        cheap += count or 0
        if cheap:
            if army is None:
                raise ValueError(_("say which units: 1 hearthguards 2 warriors 1 levies"))
            rest = {t: army["units"][t] - units[t] for t in UNIT_TYPES}
            extra, _lord = cheapest({**army, "units": rest, "lord": False}, cheap)
            if sum(extra.values()) < cheap:
                raise ValueError(_("the army does not hold that many units"))
            units = {t: units[t] + extra[t] for t in UNIT_TYPES}
        return units, lord, name

    def once(self, kind, number) -> None:
        """ValueError if a line of this kind was given already."""
        if kind in self.lines:
            raise ValueError(_("line {line} says this already").format(line=self.lines[kind]))
        self.lines[kind] = number

    # ------------------------------------------------------------ signup

    def read_faction(self, number, line, args) -> None:
        """FACTION vikings (or its name in either language: "faction bretons de
        strathclyde")."""
        self.once("faction", number)
        faction = (faction_of(" ".join(self.said)) or faction_of(" ".join(args))) \
            if args else None
        options = signup_options(self.state)
        free = [faction_word(f) for f in options]
        if faction is None:
            close = get_close_matches("-".join(args), free, n=1)
            hint = _("; did you mean {word}?").format(word=close[0]) if close else ""
            raise ValueError(_("name a faction: {names}").format(names=", ".join(free)) + hint)
        if faction not in options:
            raise ValueError(_("{faction} cannot be chosen now; free: {names}").format(
                faction=faction_name(faction), names=", ".join(free)))
        self.orders["faction"] = faction

    def read_homeland(self, number, line, args) -> None:
        """HOMELAND Man (checked against the faction once both are read)."""
        self.once("homeland", number)
        self.orders["homeland"] = self.zone(args)

    def read_host(self, number, line, args) -> None:
        """HOST 1 hearthguards 2 warriors 1 levies: 4 or 5 points, with the Lord."""
        self.read_army("host", number, args, HOST_POINTS)

    def read_reserve(self, number, line, args) -> None:
        """RESERVE 1 warriors: 1 or 2 points."""
        self.read_army("reserve", number, args, RESERVE_POINTS)

    def read_army(self, key, number, args, limits) -> None:
        """An army's composition at signup."""
        self.once(key, number)
        units, _lord, _name = self.units([a for a in args if a not in LORD_WORDS])
        total = sum(units.values())
        if total not in limits:
            raise ValueError(_("this army has {points}; it must have {low} or {high}").format(
                points=points_text(total), low=limits[0], high=limits[1]))
        self.orders[key] = units

    def finish_signup(self) -> None:
        """Faction and homeland go together: both, and an allowed pair. A homeland alone is
        completed only by the one free faction it fits (else it is refused, naming them);
        a faction alone by its first free homeland, when no other line was refused."""
        options = signup_options(self.state)
        faction, homeland = self.orders.get("faction"), self.orders.get("homeland")
        if faction and homeland and homeland not in options.get(faction, []):
            self.orders.pop("homeland")
            self.error(self.lines["homeland"], self.texts[self.lines["homeland"]], _(
                "{zone} cannot be the homeland of the {faction} now; free: {zones}").format(
                zone=self.board.label(homeland), faction=faction_name(faction),
                zones=", ".join(self.board.labels(options[faction]))))
        elif faction and not homeland and "homeland" not in self.lines and not self.errors:
            self.orders["homeland"] = options[faction][0]
        elif homeland and not faction:
            fits = [f for f, zones in options.items() if homeland in zones]
            if len(fits) == 1:
                self.orders["faction"] = fits[0]
                return
            self.orders.pop("homeland")
            self.error(self.lines["homeland"], self.texts[self.lines["homeland"]], _(
                "no free faction may have {zone} as its homeland now").format(
                    zone=self.board.label(homeland))
                if not fits else _("{zone} may be the homeland of the {factions}: name your "
                                   "faction too, e.g. faction {faction}").format(
                zone=self.board.label(homeland),
                factions=_(" or ").join(faction_name(f) for f in fits),
                faction=faction_word(fits[-1])))

    # ------------------------------------------------------------ the turn

    def take(self, number, line, step) -> None:
        """Check a step on the sketch; apply it there; or defer the move out to the end."""
        if self.stage == "orders" and is_outward(self.sketch, self.seat, step):
            self.deferred.append((number, line, step))
            return
        trouble = problem(self.sketch, self.seat, step)
        if trouble:
            raise ValueError(trouble)
        for event in step_events(self.sketch, self.seat, step):
            apply(self.sketch, event)
        self.steps.append(step)

    def read_move(self, number, line, args) -> None:
        """MOVE army zone."""
        if len(args) < 2:
            raise ValueError(_("MOVE needs an army and a zone{example}").format(
                example=example_of(self.state, self.seat, "move")))
        step = {"do": "move", "army": self.army(args[0]), "to": self.zone(args[1:])}
        if self.stage == "move":
            self.after_scouting(step)
            self.once("move", number)
            self.steps.append(step)
            return
        self.take(number, line, step)

    def after_scouting(self, step) -> None:
        """After a scouting, MOVE goes into the scouted zone (with an army that may)."""
        trouble = problem_after_scouting(self.sketch, self.seat, step)
        if trouble:
            zone = self.state["turn"]["scout"]["zone"]
            raise ValueError(_("after your scouting, move into {zone} or STAY: {why}").format(
                zone=self.board.label(zone), why=trouble))

    def read_stay(self, number, line, args) -> None:
        """STAY: no move out this turn."""
        self.once("move", number)
        if self.stage == "move":
            self.steps.append({"do": "stay"})

    def read_scout(self, number, line, args) -> None:
        """SCOUT zone [army]."""
        if not args:
            raise ValueError(_("SCOUT needs a zone{example}").format(
                example=example_of(self.state, self.seat, "scout")))
        name = None
        if len(args) > 1 and args[-1] in self.sketch["armies"][self.seat]:
            name, args = args[-1], args[:-1]
        self.take(number, line, {"do": "scout", "zone": self.zone(args), "army": name})

    def read_merge(self, number, line, args) -> None:
        """ARMY A+B (MERGE A B)."""
        if len(args) != 2:
            raise ValueError(_("name the two armies{example}").format(
                example=example_of(self.state, self.seat, "merge")))
        self.take(number, line, {"do": "merge", "army": self.army(args[0]),
                                 "other": self.army(args[1])})

    def read_split(self, number, line, args) -> None:
        """SPLIT army 2 [units] [new name]."""
        if len(args) < 2:
            raise ValueError(_("SPLIT needs an army and what leaves it{example}").format(
                example=example_of(self.state, self.seat, "split")))
        name = self.army(args[0])
        units, lord, new = self.units(args[1:], self.sketch["armies"][self.seat][name],
                                      allow_name=True)
        self.take(number, line, {"do": "split", "army": name, "units": units, "lord": lord,
                                 "new": new})

    def read_disband(self, number, line, args) -> None:
        """DISBAND army 1 levies."""
        if not args:
            raise ValueError(_("DISBAND needs an army and units{example}").format(
                example=example_of(self.state, self.seat, "disband")))
        name = self.army(args[0])
        units, lord, _name = self.units(args[1:] or ["1"], self.sketch["armies"][self.seat][name])
        if lord:
            raise ValueError(_("the Lord is never disbanded"))
        self.take(number, line, {"do": "disband", "army": name, "units": units, "lord": False})

    def read_recruit(self, number, line, args) -> None:
        """RECRUIT [1] type [zone|army]: one unit of each type per turn ("recruter une
        levée", "recruit 1 warrior")."""
        if args and numbers.number(args[0]) == 1:
            args = args[1:]
        kind = unit_of(args[0]) if args else None
        if kind is None:
            raise ValueError(_("RECRUIT needs a unit type{example}").format(
                example=example_of(self.state, self.seat, "recruit")))
        self.once(f"recruit {kind}", number)
        place = None
        if args[1:]:
            place = args[1] if len(args) == 2 and args[1] in self.sketch["armies"][self.seat] \
                else self.zone(args[1:])
        step = {"do": "recruit", "type": kind, "place": place}
        trouble = recruit_problem(self.sketch, self.seat, step)
        if trouble:
            raise ValueError(trouble)
        self.steps.append(step)

    def read_ransom(self, number, line, args) -> None:
        """RANSOM: buy back the Lord."""
        self.once("ransom", number)
        self.take(number, line, {"do": "ransom"})

    def read_release(self, number, line, args) -> None:
        """RELEASE seat: free a captive Lord."""
        if not args:
            raise ValueError(_("RELEASE needs the seat whose Lord you free{example}").format(
                example=example_of(self.state, self.seat, "release")))
        self.take(number, line, {"do": "release", "seat": args[0]})

    def finish_turn(self) -> None:
        """The move out (or scouting), checked once every other step is done: the first
        that may be made is, any other is refused."""
        taken = None
        for number, line, step in self.deferred:
            trouble = problem(self.sketch, self.seat, step)
            if taken is not None:
                trouble = _("line {line} already moves out (or scouts): one per turn").format(
                    line=taken)
            if trouble:
                self.error(number, line, trouble)
            else:
                taken = number
                self.steps.append(step)

    # ------------------------------------------------------------ questions

    def read_retreat(self, number, line, args) -> None:
        """RETREAT [army] zone: a small army's retreat, or the loser's fall-back."""
        if self.stage == "aftermath":
            if "fall_back" not in aftermath_asks(self.state).get(self.seat, []):
                raise ValueError(_("your army does not fall back now"))
            zone = self.zone(args[1:] if len(args) > 1 and args[0] in
                             self.state["armies"][self.seat] else args)
            options = fall_back_options(self.state)
            if zone not in options:
                raise ValueError(_("your army may fall back to {zones}, not {zone}").format(
                    zones=", ".join(self.board.labels(options)), zone=self.board.label(zone)))
            self.once("fall_back", number)
            self.orders["fall_back"] = zone
            return
        asked = self.state["turn"]["retreats"]
        named = ARMY_WORDS.get(args[0], args[0]) if args else None
        if named in self.state["armies"][self.seat]:
            name, rest = named, args[1:]
        elif len(asked) == 1:
            name, rest = asked[0], args
        else:
            raise ValueError(_("name the army and the zone{example}").format(
                example=example_of(self.state, self.seat, "retreat")))
        if name not in asked:
            raise ValueError(_("{army} is not asked to retreat (asked: {names})").format(
                army=name, names=", ".join(asked)))
        zone = self.zone(rest)
        army = self.state["armies"][self.seat][name]
        options = give_way(self.state, self.seat, army["zone"], points(army))
        if zone not in options:
            raise ValueError(_("{army} may retreat to {zones}, not {zone}").format(
                army=name, zones=", ".join(self.board.labels(options)),
                zone=self.board.label(zone)))
        self.once(f"retreat {name}", number)
        self.orders.setdefault("retreats", {})[name] = zone

    def read_withdraw(self, number, line, args) -> None:
        """WITHDRAW army zone: an army leaves before the battle."""
        options = withdraw_options(self.state) if self.seat == \
            self.state["turn"]["battle"]["defender"] else {}
        if not options:
            raise ValueError(_("you have no army that may withdraw from this battle"))
        if len(args) < 2:
            raise ValueError(_("WITHDRAW needs an army and a zone{example}").format(
                example=example_of(self.state, self.seat, "withdraw")))
        name = self.army(args[0])
        zone = self.zone(args[1:])
        if name not in options or zone not in options[name]:
            said = _("; ").join(_("{army}: {zones}").format(
                army=n, zones=", ".join(self.board.labels(z))) for n, z in sorted(options.items()))
            raise ValueError(_("this withdrawal is not possible; possible: {said}").format(
                said=said))
        if "fight" in self.lines or self.orders.get("withdraw"):
            raise ValueError(_("one army at most withdraws, or FIGHT with all"))
        self.orders["withdraw"] = {name: zone}
        self.lines["withdraw"] = number

    def read_fight(self, number, line, args) -> None:
        """FIGHT: every army in the zone fights, as one."""
        if "withdraw" in self.lines:
            raise ValueError(_("line {line} withdraws an army; FIGHT keeps them all").format(
                line=self.lines["withdraw"]))
        self.once("fight", number)
        self.orders["withdraw"] = {}

    def read_scenario(self, number, line, args) -> None:
        """SCENARIO bridge (or its number on the scenario die, or both, as the options
        list them: "scenario 1 face to face")."""
        if scenario_chooser(self.state) != self.seat:
            raise ValueError(_("you do not choose this battle's scenario"))
        named = words(line)[1:]  # "scenario 1 face to face": the words after the verb
        found = (scenario_of(" ".join(args)) or scenario_of(" ".join(named))) if args else None
        if found is None and args and scenario_of(args[0]) and \
                scenario_of(" ".join(named[1:])) == scenario_of(args[0]):
            found = scenario_of(args[0])
        if found is None:
            raise ValueError(_("name a scenario: {names}").format(names=", ".join(
                f"{i} {scenario_name(k)}" for i, k in enumerate(SCENARIO_NAMES, start=1))))
        self.once("scenario", number)
        self.orders["scenario"] = found

    def read_lose(self, number, line, args) -> None:
        """LOSE 1 warriors 1 levies: the units lost after a heavy defeat."""
        if "losses" not in aftermath_asks(self.state).get(self.seat, []):
            raise ValueError(_("you do not choose the units you lose now"))
        battle = self.state["turn"]["battle"]
        army = self.state["armies"][self.seat][battle["forces"][self.seat]["army"]]
        count = battle["rolls"]["loser"]["lose"]
        units, lord, _name = self.units(args)
        if lord and battle["forces"][self.seat]["lord_sits_out"]:
            raise ValueError(_("your Lord sat this battle out: he is not lost"))
        if sum(units.values()) + lord != count or not has(army, units, lord):
            raise ValueError(ngettext(
                "name {num} unit of {units}", "name {num} units of {units}", count).format(
                num=count, units=units_text(army["units"], army["lord"])) +
                example_of(self.state, self.seat, "lose"))
        self.once("losses", number)
        self.orders["losses"] = {"units": units, "lord": lord}

    def read_promote(self, number, line, args) -> None:
        """PROMOTE warriors|levies|none, after a total victory."""
        if "promote" not in aftermath_asks(self.state).get(self.seat, []):
            raise ValueError(_("there is no promotion to choose now"))
        if not args or args[0] in NOTHING:
            choice = "none"
        else:
            choice = unit_of(args[0])
            if choice not in ("warriors", "levies"):
                raise ValueError(_("promote warriors (to hearthguards), levies (to warriors), "
                                   "or none"))
        self.once("promote", number)
        self.orders["promote"] = choice

    # ------------------------------------------------------------ the end of the mail

    def finish(self):
        """(orders, errors) for the whole mail."""
        if self.stage == "signup":
            self.finish_signup()
            return self.orders, self.errors
        if self.stage == "orders":
            self.finish_turn()
        if self.stage in ("orders", "move", "disband"):
            return {"steps": self.steps}, sorted(self.errors, key=lambda e: e.line)
        return self.orders, self.errors


# ---------------------------------------------------------------- examples

def reads(state, seat, text: str) -> bool:
    """Does the parser read this order text from this seat now, without an error?"""
    return not parse(state, seat, text)[1]


def example_of(state, seat, verb: str) -> str:
    """', e.g. ORDER': an order of this kind the seat may send now, or ''."""
    stage = stage_of(state)
    if stage not in choices.LINES:
        return ""
    for choice in choices.choices(state, seat, stage, reads):
        for order in choice["orders"]:
            line = order.split("\n")[0]
            if VERBS.get(words(line)[0]) == verb:
                return _(", e.g. {order}").format(order=line)
    return ""


# ---------------------------------------------------------------- saying it back

def describe_orders(state, seat, orders) -> list[str]:
    """A seat's orders in plain words, one line each."""
    if orders is None:
        return [_("no report")]
    if "outcome" in orders:
        said = _("you won") if orders["outcome"] == "won" else _("you lost")
        if orders.get("points") is not None:
            said += " " + _("({points} left on the field)").format(
                points=points_text(orders["points"]))
        return [_("battle report: {said}").format(said=said)]
    if orders.get("default"):
        return [_("no orders: pbem does what a silent player does (see the rules page)")]
    stage = stage_of(state)
    if stage == "signup":
        return describe_signup(state, orders)
    label = board_of(state).label
    lines = [say_step(state, seat, step) for step in orders.get("steps", [])]
    for name, zone in sorted((orders.get("retreats") or {}).items()):
        lines.append(_("{army} retreats to {zone}").format(army=army_name(name),
                                                           zone=label(zone)))
    for name, zone in sorted((orders.get("withdraw") or {}).items()):
        lines.append(_("{army} withdraws to {zone} before the battle").format(
            army=army_name(name), zone=label(zone)))
    if orders.get("withdraw") == {}:
        lines.append(_("all your armies there fight, as one"))
    if orders.get("scenario"):
        lines.append(_("scenario: {name}").format(name=scenario_name(orders["scenario"])))
    if orders.get("losses"):
        lost = orders["losses"]
        lines.append(_("you lose {units}").format(units=units_text(lost["units"], lost["lord"])))
    if orders.get("fall_back"):
        lines.append(_("your army falls back to {zone}").format(
            zone=label(orders["fall_back"])))
    if orders.get("promote"):
        lines.append(_("promotion: none") if orders["promote"] == "none" else
                     _("promotion: one unit of {units}").format(units=unit_name(orders["promote"])))
    if stage in ("orders", "move") and not any(
            s["do"] in ("scout", "stay") or (s["do"] == "move" and is_outward(state, seat, s))
            for s in orders.get("steps", [])):
        lines.append(_("no move out of your lands this turn"))
    return lines or [_("nothing")]


def describe_signup(state, orders) -> list[str]:
    """A signup in words (a piece missing says what the deadline gives in its place)."""
    board = board_of(state)
    lines = []
    if orders.get("faction"):
        lines.append(_("faction: {name}").format(name=faction_name(orders["faction"])))
    else:
        lines.append(_("faction: none given; at the deadline pbem picks the first free one"))
    if orders.get("homeland"):
        lines.append(_("homeland: {zone}").format(zone=board.label(orders["homeland"])))
    elif orders.get("faction"):
        lines.append(_("homeland: none given; at the deadline, the first free one of the "
                       "{faction} ({zone})").format(
            faction=faction_name(orders["faction"]),
            zone=board.label(signup_options(state)[orders["faction"]][0])))
    for key, label, default in (("host", _("Main Host"), DEFAULT_HOST),
                                ("reserve", _("Reserve"), DEFAULT_RESERVE)):
        if orders.get(key):
            lines.append(_("{army}: {units}").format(army=label, units=units_text(orders[key])))
        elif orders.get("faction") or orders.get("homeland"):
            lines.append(_("{army}: none given, so the usual one: {units}").format(
                army=label, units=units_text(default)))
    return lines or [_("nothing")]


def say_step(state, seat, step) -> str:
    """One step in words."""
    kind, label = step["do"], board_of(state).label
    if kind == "move":
        if owner_of(state, step["to"]) == seat and state["turn"]["stage"] == "orders":
            return _("{army} moves to {zone}").format(army=army_name(step["army"]),
                                                      zone=label(step["to"]))
        return _("{army} moves into {zone}, out of your lands").format(
            army=army_name(step["army"]), zone=label(step["to"]))
    if kind == "scout":
        return _("scout {zone}; then you send MOVE or STAY").format(zone=label(step["zone"]))
    if kind == "stay":
        return _("stay: no move into the scouted zone")
    if kind == "merge":
        return _("{a} and {b} merge into {a}").format(a=army_name(step["army"]),
                                                      b=army_name(step["other"]))
    if kind == "split":
        new = step.get("new") or _("a new army")
        return _("{units} leave {army} as {new}").format(
            units=units_text(step["units"], step["lord"]), army=army_name(step["army"]), new=new)
    if kind == "disband":
        return _("{army} disbands {units}").format(army=army_name(step["army"]),
                                                   units=units_text(step["units"]))
    if kind == "recruit":
        where = label(army_name(step["place"])) if step.get("place") else \
            default_where(state, seat)
        return _("recruit {units} in {where} at upkeep (5 gold)").format(
            units=unit_count(step["type"], 1), where=where)
    if kind == "ransom":
        return _("pay the ransom of your Lord")
    return _("free the Lord of {seat}").format(seat=step["seat"])

