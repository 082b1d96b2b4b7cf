"""No seat ever sees another seat's hand or a bid before it is revealed.

Random bot games run through the referee. Around every phase, everything a
seat can get is checked against what it must not know at that moment:

- its view (``pbem show --seat --json``) and the log lines it may read
  (``pbem log --seat``), once the bids of a conflict are in but not revealed;
- every mail to the seat in the outbox (text and HTML parts).

The secrets are: each other seat's hand, written as the mails write hands
("Your hand (5 cards): Franks, Goths, ..."), before and after the phase;
what pbem narrates of events the seat may not see (cards dealt, drawn,
discarded by EXCHANGE, orders kept over a conflict); and the other seats'
bids, as pbem says them back ("your bid for the conflict in ...").
Anything the seat legitimately knows in the same words (its own hand or bid,
a draw of its own) is not a secret to it. A seat's view must be the public
view plus a part about that seat alone.

Whatever words a leak would take, two checks do not depend on them:

- every view and request is the same when the secrets change: the other
  seats' hands, the draw pile and the discards dealt anew, another seat's
  kept orders dropped (``shuffled_secrets``);
- an event that is not public is shown to one seat alone, the one it is
  about; a public event names cards only when the rules reveal them (a card
  played, the bids of a conflict once resolved).
"""

import copy
import json
import random

import pytest

from pbem import inbound
from pbem.adjudicator.contract import REFEREE, Event
from pbem.games import attila
from pbem.games.attila import present
from pbem.games.attila.material import in_order
from pbem.games.attila.present import hand_text
from pbem.store import row_event

from conftest import START, make_referee, seats
from leaks import mail_lines
from test_attila_games import play_game


OWNERS_ONLY = {"dealt", "drew", "discarded", "orders_kept", "orders_void_reason"}
REVEALING = {"pawn_placed": {"card"}, "conflict_resolved": {"bids"}}
CARD_KEYS = {"card", "cards", "bids", "hand", "hands", "deck"}


def shuffled_secrets(game, seat, rng) -> dict:
    """The game as it could be for all this seat knows: the other hands, pile and discards
    dealt anew from the same cards, in the same numbers; another seat's kept orders gone."""
    state = copy.deepcopy(game)
    others = [s for s in state["seats"] if s != seat]
    unseen = [c for s in others for c in state["hands"][s]] + state["deck"] + state["discards"]
    rng.shuffle(unseen)
    for s in others:
        size = len(state["hands"][s])
        state["hands"][s], unseen = in_order(unseen[:size]), unseen[size:]
    size = len(state["deck"])
    state["deck"], state["discards"] = unseen[:size], unseen[size:]
    if state["turn"]["seat"] != seat:
        state["turn"]["kept"] = []
    return state


def check_event(event, seats) -> None:
    """A hidden event is for its own seat alone (press for its sender and recipients); a
    public one names cards only to reveal them."""
    if event.visible_to == REFEREE:
        return
    if event.type == "press":  # between its sender and its recipients, nobody else
        assert event.visible_to == sorted({event.payload["from"], *event.payload["to"]})
        return
    if event.visible_to != "all":
        assert list(event.visible_to) == [event.payload["seat"]], \
            f"{event.type} shown to {event.visible_to}: {event.payload}"
        return
    named = CARD_KEYS & set(event.payload) - REVEALING.get(event.type, set())
    assert not named, f"the public {event.type} names {sorted(named)}: {event.payload}"
    if event.type == "setup":
        start = event.payload["state"]
        assert not start["deck"] and not any(start["hands"][s] for s in seats), \
            "the public setup holds cards"


def hand_line(cards) -> str:
    """A hand as yours.txt.j2 writes it."""
    return f"Your hand ({len(cards)} card{'' if len(cards) == 1 else 's'}): {hand_text(cards)}."


def assert_no_secret(lines: set[str], secrets: set[str], where: str) -> None:
    """Fail when any whole line shown is a secret."""
    found = sorted(lines & secrets)
    assert not found, f"{where} shows what it must not: {found[:3]}"


class LeakWatch:
    """Checks, phase after phase, that nothing shown to a seat holds another seat's secrets.

    An observer follows the game from its first phase: its mails may hold no
    seat's secret at all. Each phase, one seat sends press to another: no
    third seat and no observer may ever read it.
    """

    OBSERVER = "kibitzer@watchers.example"

    def __init__(self, referee, game_id):
        self.referee = referee
        self.game_id = game_id
        self.last_mail = 0
        self.last_event = 0
        self.narrated = {}       # seat (None: the public): (lines it may not see, lines it may)
        self.checked = {"mails": 0, "views": 0, "log lines": 0, "observer mails": 0}
        self.observing = False
        self.press = {}          # the text of each press: (sender, recipient)

    def read_log(self) -> dict:
        """Take in the new events; return {seat: the new log lines it may read}."""
        seats = self.referee.table(self.game_id).state["engine"]["seats"]
        new = {seat: set() for seat in seats}
        for row in self.referee.store.event_rows(self.game_id, after=self.last_event):
            event = row_event(row)
            self.last_event = row["seq"]
            check_event(event, seats)
            for seat in seats:
                if event.visible(seat) and event.type in OWNERS_ONLY:
                    assert event.payload["seat"] == seat, f"{seat} may see {event.to_dict()}"
            line = attila.narrate(event)
            if not line:
                continue
            for seat in seats + [None]:
                hidden, seen = self.narrated.setdefault(seat, (set(), set()))
                if event.visible(seat):
                    seen.add(line)
                    new.get(seat, set()).add(line)
                else:
                    hidden.add(line)
        return new

    def secrets(self, seat, states, bids) -> set[str]:
        """What this seat (None: an observer) must not find in anything it is shown now."""
        own, others = set(), set()
        for state in states:
            hands = state["game"]["hands"]
            if seat is not None:
                own.add(hand_line(hands[seat]))
            others |= {hand_line(hands[s]) for s in hands if s != seat}
        for bidder, lines in bids.items():
            (own if bidder == seat else others).update(lines)
        hidden, seen = self.narrated.get(seat, (set(), set()))
        whispers = {text for text, between in self.press.items() if seat not in between}
        return (others - own) | (hidden - seen) | whispers

    def whisper(self, state) -> None:
        """One seat sends press to the next one; remember who may read it."""
        seats = state["engine"]["seats"]
        number = len(self.press)
        sender, recipient = seats[number % len(seats)], seats[(number + 1) % len(seats)]
        text = f"press {number}: for {recipient} alone, from {sender}"
        answer = inbound.submit(self.referee, self.game_id, sender, f"PRESS {recipient}\n{text}",
                                state["engine"]["opened"])
        assert answer["notes"] == [f"Press sent to {recipient}."], answer
        self.press[text] = (sender, recipient)

    def __call__(self, before, after, bids):
        """Called by play_game with the bids in (after=None), then once the phase is resolved."""
        if not self.observing:
            from pbem.observers import observe
            observe(self.referee, self.game_id, self.OBSERVER, before["engine"]["opened"])
            self.observing = True
        if after is None:
            self.whisper(before)
            self.check_views_and_logs([before], bids)
            return
        self.read_log()
        rows = self.referee.store.all(
            "SELECT * FROM outbox WHERE game = ? AND id > ? ORDER BY id",
            [self.game_id, self.last_mail])
        for row in rows:
            self.last_mail = row["id"]
            if row["seat"] is None and row["to_addr"] == self.referee.config["referee"]:
                continue  # the referee's own notices: the referee may know everything
            secrets = self.secrets(row["seat"], [before, after], bids)
            assert_no_secret(mail_lines(self.referee.store.outbox_mail(row)), secrets,
                             f"mail {row['id']} to {row['seat'] or row['to_addr']}")
            self.checked["observer mails" if row["seat"] is None else "mails"] += 1
            self.last_mail = row["id"]

    def check_views_and_logs(self, states, bids) -> None:
        """Every seat's view, and the log lines it may read, now."""
        new_lines = self.read_log()
        game = self.referee.table(self.game_id).state["game"]
        public = self.referee.view(self.game_id, None)
        self.check_blind(game, None)
        for seat, lines in new_lines.items():
            secrets = self.secrets(seat, states, bids)
            self.check_view(seat, game["hands"][seat], public, secrets)
            self.check_blind(game, seat)
            assert_no_secret(lines, secrets, f"the log of {seat}")
            self.checked["log lines"] += len(lines)

    def check_blind(self, game, seat) -> None:
        """The seat's view and request stay the same when what it may not know changes."""
        rng = random.Random(f"{self.last_event}:{seat}")
        other = shuffled_secrets(game, seat, rng)
        assert attila.view(other, seat) == attila.view(game, seat), \
            f"the view of {seat or 'the public'} changes with the other seats' secrets"
        assert attila.pending(other).get(seat) == attila.pending(game).get(seat), \
            f"what {seat} is asked changes with the other seats' secrets"

    def check_view(self, seat, hand, public, secrets) -> None:
        """The seat's view is the public view plus its own hand, bid options and kept orders."""
        view = self.referee.view(self.game_id, seat)
        yours = view.pop("you")
        assert view == public, f"the view of {seat} differs from the public view"
        assert yours["seat"] == seat and yours["hand"] == hand
        for card in set(yours["bid_options"] or []):
            assert yours["bid_options"].count(card) <= hand.count(card)
        text = json.dumps(yours, ensure_ascii=False)
        found = sorted(s for s in secrets if s in text)
        assert not found, f"the view of {seat} holds {found[:3]}"
        self.checked["views"] += 1


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("number", [0, 1, 2])
def test_no_seat_sees_another_seats_hand_or_an_unrevealed_bid(tmp_path, players, number):
    referee = make_referee(tmp_path)
    watch = LeakWatch(referee, "leak")
    play_game(referee, "leak", players, seed=f"leak-{players}-{number}", watch=watch)
    final = referee.table("leak").state
    assert final["engine"]["over"]
    watch.check_views_and_logs([final], {})
    assert watch.checked["mails"] > 50 * players
    assert watch.checked["observer mails"] > 20
    assert len(watch.press) > 20
    assert watch.checked["views"] > 20 * players
    hidden = {e["type"] for e in referee.events("leak", REFEREE) if e["visible_to"] != "all"}
    assert hidden >= {"dealt", "drew", "orders_set", "deck_prepared"}


def test_the_watch_catches_a_hand_a_hidden_draw_and_a_bid_shown_to_another_seat(tmp_path):
    referee = make_referee(tmp_path)
    spy = LeakWatch(referee, "leak")
    caught = []

    def watch(before, after, bids):
        spy.read_log()
        state = before["game"]
        ann, other = state["seats"][0], state["seats"][1]
        hidden, seen = spy.narrated.get(ann, (set(), set()))
        draws = sorted(line for line in hidden - seen if line.startswith("you drew"))
        others_bids = [lines for seat, lines in sorted(bids.items()) if seat != ann]
        if caught or after is None or not draws or not others_bids:
            return
        secrets = spy.secrets(ann, [before, after], bids)
        leaked = {"hand": hand_line(state["hands"][other]), "draw": draws[0],
                  "bid": others_bids[0][0]}
        for what, line in leaked.items():
            mail = {"Attila case: update", line, "Scores: ann 0, bob 0, cat 0"}
            with pytest.raises(AssertionError, match="shows what it must not"):
                assert_no_secret(mail, secrets, what)
            caught.append(what)

    play_game(referee, "leak", 3, seed="leak-caught", watch=watch)
    assert caught == ["hand", "draw", "bid"]


def test_the_watch_stops_a_view_that_holds_every_hand_in_any_words(tmp_path, monkeypatch):
    real = attila.view

    def leaky(state, seat=None):
        return {**real(state, seat), "cards in play": {s: {c: h.count(c) for c in h}
                                                       for s, h in state["hands"].items()}}

    monkeypatch.setattr(attila, "view", leaky)
    referee = make_referee(tmp_path)
    with pytest.raises(AssertionError, match="the view of the public changes"):
        play_game(referee, "leak", 3, seed="leak-3-0", watch=LeakWatch(referee, "leak"))


def test_the_watch_stops_a_public_event_that_names_a_hand(tmp_path):
    referee = make_referee(tmp_path)
    referee.new_game("attila", "leak", seats("ann", "bob", "cat"), START, {}, seed="leak")
    watch = LeakWatch(referee, "leak")
    hand = referee.table("leak").state["game"]["hands"]["bob"]
    with pytest.raises(AssertionError, match="the public play_lost names \\['cards'\\]"):
        check_event(Event("play_lost", {"seat": "bob", "count": 6, "cards": hand}),
                    ["ann", "bob", "cat"])
    with pytest.raises(AssertionError, match="drew shown to"):
        check_event(Event("drew", {"seat": "bob", "cards": hand}, ["ann", "bob"]),
                    ["ann", "bob", "cat"])
    watch.check_views_and_logs([referee.table("leak").state], {})


class MailWatch(LeakWatch):
    """A watch on mails alone, to show that its mail check stands on its own."""

    def check_views_and_logs(self, states, bids) -> None:
        """Skips the view and log checks: only mails are checked."""


@pytest.mark.parametrize("watch_class,caught", [
    (LeakWatch, "the view of ann changes with the other seats' secrets"),
    (MailWatch, "shows what it must not: \\['Your hand"),
])
def test_the_watch_stops_a_game_that_shows_a_seat_the_next_seats_hand(
        tmp_path, monkeypatch, watch_class, caught):
    real = present.own_view

    def leaky(state, seat):
        yours = real(state, seat)
        seats = state["seats"]
        following = seats[(seats.index(seat) + 1) % len(seats)]
        return {**yours, "hand_text": hand_text(state["hands"][following])}

    monkeypatch.setattr(present, "own_view", leaky)
    referee = make_referee(tmp_path)
    with pytest.raises(AssertionError, match=caught):
        play_game(referee, "leak", 3, seed="leak-3-0", watch=watch_class(referee, "leak"))
