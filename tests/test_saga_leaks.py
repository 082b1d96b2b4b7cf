"""Under fog of war no seat ever sees another seat's gold, armies, positions or battles
that it has not learned by the rules.

Random bot campaigns run through the referee with fog on. After every
phase, for every seat (and for the public):

- its view (`pbem show --seat --json`), what it is asked, and everything a
  mail to it is made of (its part, the map as text and as SVG, the request,
  who it is told the game waits for) stay the same when everything it may
  not know changes: the other seats' gold, army compositions, Lords, tricks
  and knowledge, who holds the zones outside its fealty, the other seats'
  turn and battle (``shuffled_secrets``);
- the seats `pbem show --seat` says the game waits for are the seat itself
  and the seats whose orders it gives; `pbem list` and `pbem orders`
  without --referee name none (as `pbem show` does);
- every event that is not public is shown only to the seats it names (and
  their overlords; a battle's events to its two players alone, never to an
  overlord), and the public events under fog are the few the rules make
  public (signup picks, whose turn it is, the end);
- no mail to a seat holds a line pbem narrates only of events hidden from it.
"""

import copy
import json
import random
import re

from click.testing import CliRunner
import pytest

from pbem import letters
from pbem.adjudicator.contract import REFEREE, Event
from pbem.games import saga
from pbem.games.saga import present
from pbem.games.saga.material import UNIT_TYPES
from pbem.cli import main
from pbem.games.saga.state import liege, vassals_of
from pbem.store import row_event

from conftest import START, make_referee, seats
from leaks import mail_lines
from test_saga_games import play_campaign

SEAT_KEYS = ("seat", "owner", "previous", "attacker", "defender", "captor", "lord_of", "vassal",
             "overlord", "with", "winner", "loser")
# Events of a battle, seen by its two players whichever of them they name.
BATTLE = {"scenario_chosen", "battle_set", "battle_disputed", "battle_won", "table_rolled",
          "units_lost", "unit_promoted", "lord_slain", "lord_captured", "lord_wounded",
          "lord_healed", "trick_gained", "trick_used", "army_lost", "battle_over",
          "ruling_given"}
# What the rules keep between a battle's two players: not even an overlord sees it.
KEPT = BATTLE - {"trick_used"} | {"battle_joined", "army_withdrawn", "army_fell_back"}
PUBLIC = {"game_created", "game_over", "setup", "faction_chosen", "campaign_began",
          "round_began", "turn_began", "turn_ended", "campaign_won"}


def shuffled_secrets(game, seat, rng) -> dict:
    """The campaign as it could be for all this seat (None: the public) knows: the other
    seats' gold, Lords, tricks, knowledge, army compositions and positions (outside its
    own zones), who holds the zones outside its fealty, another seat's turn and battle."""
    state = copy.deepcopy(game)
    realm = {seat, *vassals_of(state, seat)} if seat else set()
    fealty = {s for s in state["seats"] if seat and liege(state, s) == liege(state, seat)}
    others = [s for s in state["seats"] if s not in realm]
    for other in others:
        state["gold"][other] = rng.randrange(60)
        state["knowledge"][other] = {}
        state["lords"][other]["wounded"] = rng.random() < 0.5
        if rng.random() < 0.5:
            state["tricks"][other] = True
        else:
            state["tricks"].pop(other, None)
        for army in state["armies"][other].values():
            total = sum(army["units"].values())
            units = {t: 0 for t in UNIT_TYPES}
            for _ in range(total):
                units[rng.choice(UNIT_TYPES)] += 1
            army["units"] = units
    outside = [z for z in sorted(present.board_of(state).order)
               if state["owner"].get(z) not in realm]
    for other in others:
        for army in state["armies"][other].values():
            if state["owner"].get(army["zone"]) not in realm:
                army["zone"] = rng.choice(outside)
    strangers = [s for s in state["seats"] if s not in fealty] + [None]
    for zone in sorted(state["owner"]):
        holder = state["owner"][zone]
        if holder not in fealty and not any(a["zone"] == zone for s in realm
                                            for a in state["armies"][s].values()):
            choice = rng.choice(strangers)
            if choice is None:
                state["owner"].pop(zone)
            else:
                state["owner"][zone] = choice
    turn = state["turn"]
    if turn and turn["seat"] not in realm:
        turn["recruits"], turn["moved"] = [], []
        if turn["scout"]:
            turn["scout"]["reveal"] = rng.randrange(4)
    battle = turn and turn["battle"]
    if battle and seat not in (battle["attacker"], battle["defender"]):
        battle["dice"] = [rng.randrange(1, 7), rng.randrange(1, 7)]
        battle["bonus"] = not battle["bonus"]
    return state


def check_event(event, parties, overlords) -> None:
    """A hidden event is shown only to the seats it names (and their overlords); under fog
    only the few public events are public."""
    if event.visible_to == REFEREE:
        return
    if event.visible_to == "all":
        assert event.type in PUBLIC, f"the public {event.type} under fog: {event.payload}"
        return
    named = set(parties) if event.type in BATTLE else set()
    for key in SEAT_KEYS:
        value = event.payload.get(key)
        named |= set(value) if isinstance(value, list) else ({value} if value else set())
    allowed = named if event.type in KEPT else \
        named.union(*(overlords.get(s, set()) for s in named))
    assert set(event.visible_to) <= allowed, \
        f"{event.type} is shown to {event.visible_to}, about {sorted(named)}: {event.payload}"


class LeakWatch:
    """Checks, phase after phase, that what each seat is shown depends only on what it knows."""

    def __init__(self, referee, game_id):
        self.referee = referee
        self.game_id = game_id
        self.last_mail = 0
        self.last_event = 0
        self.narrated = {}       # seat: (lines of events it may not see, lines it may see)
        self.checked = {"views": 0, "mails": 0, "events": 0}
        self.rng = random.Random(game_id)

    def __call__(self, before, after) -> None:
        """After a phase: the events, every seat's view and mail parts, the new mails."""
        self.read_log(before, after)
        for seat in [None] + after["engine"]["seats"]:
            self.check_blind(after, seat)
        self.check_mails()

    def read_log(self, before, after) -> None:
        """Check the new events' audiences; remember what each seat may and may not read."""
        seats_ = after["engine"]["seats"]
        battle = (before["game"]["turn"] or {}).get("battle") or {}
        parties = [battle[k] for k in ("attacker", "defender") if k in battle]
        overlords = {}           # every overlord a seat had before the phase or after it
        for fealty in (before["game"]["overlord"], after["game"]["overlord"]):
            for vassal, overlord in fealty.items():
                overlords.setdefault(vassal, set()).add(overlord)
        for row in self.referee.store.event_rows(self.game_id, after=self.last_event):
            event = row_event(row)
            self.last_event = row["seq"]
            if event.type == "battle_joined":
                parties = [event.payload["attacker"], event.payload["defender"]]
            check_event(event, parties, overlords)
            self.checked["events"] += 1
            line = saga.narrate(event)
            if not line:
                continue
            for seat in seats_:
                hidden, seen = self.narrated.setdefault(seat, (set(), set()))
                (seen if event.visible(seat) else hidden).add(line)

    def context(self, state, seat) -> dict:
        """Everything a mail to this seat is made of, but what happened."""
        row = self.referee.store.game(self.game_id)
        table = letters.Table(self.referee, row, saga, state)
        seat_row = self.referee.store.seat(self.game_id, seat)
        return table.context(seat_row, with_board=True)

    def check_blind(self, state, seat) -> None:
        """The seat's view, request and mail parts stay the same when its secrets change."""
        other = {"engine": state["engine"],
                 "game": shuffled_secrets(state["game"], seat, self.rng)}
        who = seat or "the public"
        assert saga.view(other["game"], seat) == saga.view(state["game"], seat), \
            f"the view of {who} changes with what it may not know"
        assert saga.pending(other["game"]).get(seat) == saga.pending(state["game"]).get(seat), \
            f"what {who} is asked changes with what it may not know"
        if seat is not None:
            assert self.context(other, seat) == self.context(state, seat), \
                f"the mail of {seat} changes with what it may not know"
            shown = self.referee.view(self.game_id, seat)["phase"]["waiting_for"]
            mine = {seat} | {s for s in shown if saga.controller(state["game"], s) == seat}
            assert set(shown) <= mine, f"{seat} is told the game waits for {shown}"
        else:
            self.check_command_line()
        self.checked["views"] += 1

    def check_command_line(self) -> None:
        """pbem list and pbem orders, without --referee, name no seat asked."""
        def run(*args):
            result = CliRunner().invoke(main, [*args, "--db", self.referee.store.path])
            assert result.exit_code == 0, result.output
            return result.output
        [listed] = json.loads(run("list", "--json"))
        assert (listed["waiting_for"], listed["orders_in"], listed["disorder"]) == \
            (None, None, None), f"pbem list tells {listed}"
        assert json.loads(run("orders", self.game_id, "--json"))["seats"] is None
        assert not re.search(r"waiting for (?!others)", run("list"))

    def check_mails(self) -> None:
        """No mail to a seat holds a line narrated only of events hidden from it."""
        rows = self.referee.store.all(
            "SELECT * FROM outbox WHERE game = ? AND id > ? ORDER BY id",
            [self.game_id, self.last_mail])
        for row in rows:
            self.last_mail = row["id"]
            if row["seat"] is None:
                continue
            hidden, seen = self.narrated.get(row["seat"], (set(), set()))
            lines = mail_lines(self.referee.store.outbox_mail(row))
            found = sorted(lines & (hidden - seen))
            assert not found, f"mail {row['id']} to {row['seat']} shows {found[:3]}"
            self.checked["mails"] += 1


@pytest.mark.slow
@pytest.mark.parametrize("players,number", [(3, 0), (4, 1), (5, 2)])
def test_no_seat_sees_what_it_has_not_learned(tmp_path, players, number):
    referee = make_referee(tmp_path)
    watch = LeakWatch(referee, "leak")
    play_campaign(referee, "leak", players, seed=f"leak-{players}-{number}",
                  options={"rounds": "8"}, watch=watch)
    assert referee.table("leak").state["engine"]["over"]
    assert watch.checked["mails"] > 20 * players
    assert watch.checked["views"] > 40 * players
    hidden = {e["type"] for e in referee.events("leak", REFEREE) if e["visible_to"] != "all"}
    assert hidden >= {"armies_raised", "moved_out", "upkeep_paid", "orders_set", "phase_opened"}


def test_the_watch_stops_a_view_that_shows_every_treasury(tmp_path, monkeypatch):
    real = present.realm

    def leaky(state, seat):
        return {**real(state, seat), "every treasury": dict(state["gold"])}

    monkeypatch.setattr(present, "realm", leaky)
    referee = make_referee(tmp_path)
    with pytest.raises(AssertionError, match="the view of ann changes"):
        play_campaign(referee, "leak", 3, seed="leak-3-0", options={"rounds": "2"},
                      watch=LeakWatch(referee, "leak"))


def test_the_watch_stops_a_board_that_draws_what_the_seat_never_learned(tmp_path,
                                                                        monkeypatch):
    real = present.zone_view

    def leaky(state, board, zone, viewer, everything, number):
        return real(state, board, zone, viewer, True, number)

    monkeypatch.setattr(present, "zone_view", leaky)
    referee = make_referee(tmp_path)
    with pytest.raises(AssertionError, match="changes with what it may not know"):
        play_campaign(referee, "leak", 3, seed="leak-3-0", options={"rounds": "2"},
                      watch=LeakWatch(referee, "leak"))


def test_the_watch_stops_events_shown_to_the_wrong_seats(tmp_path):
    with pytest.raises(AssertionError, match="the public army_moved under fog"):
        check_event(Event("army_moved", {"seat": "bob", "army": "host"}), [], {})
    with pytest.raises(AssertionError, match="scouted is shown to \\['ann', 'bob'\\]"):
        check_event(Event("scouted", {"seat": "bob", "zone": "Mercia"}, ["ann", "bob"]),
                    [], {})
    check_event(Event("scouted", {"seat": "bob", "zone": "Mercia"}, ["ann", "bob"]),
                [], {"bob": {"ann"}})
    with pytest.raises(AssertionError, match="battle_set is shown to \\['ann', 'bob', 'cat'\\]"):
        check_event(Event("battle_set", {"attacker": "cat", "defender": "bob"},
                          ["ann", "bob", "cat"]), ["cat", "bob"], {"bob": {"ann"}})
    referee = make_referee(tmp_path)
    referee.new_game("saga", "leak", seats("ann", "bob"), START, {}, seed="leak")
    LeakWatch(referee, "leak")(referee.table("leak").state, referee.table("leak").state)
