"""No lord ever sees what the rules keep from it: other lords' stocks and jacquerie bags,
offers and peace proposals between others, the event card before it takes
effect (unless its warrior stands in a watchtower). The barbarian sees everything.

Random bot games run through the referee. Around every phase:

- a lord's view is the public view plus a part about that lord alone;
- its view, and what it is asked, stay the same when its secrets change
  (``shuffled_secrets``: other lords' stocks and bags dealt anew, other seats'
  offers and proposals changed, an unseen card swapped for another with the
  same merchants);
- an event that is not public is shown to the seats it concerns and the
  barbarian only;
- no mail to a lord holds a line pbem narrates of an event it may not see, or
  another seat's own section ("Your stock: ...").
"""

import copy
import json
import random

import pytest

from pbem.adjudicator.contract import Event
from pbem.games import seigneurs
from pbem.store import row_event

from conftest import make_referee
from leaks import mail_lines
from test_seigneurs_games import play_game

RESOURCES = ("wood", "stone", "food", "metal")


def shuffled_secrets(game, seat, rng) -> dict:
    """The game as it could be for all this lord knows."""
    state = copy.deepcopy(game)
    for other in state["seats"]:
        if other == seat:
            continue
        state["stocks"][other] = {g: rng.randrange(9) for g in RESOURCES + ("coins",)}
        if other in state["jacquerie"]:
            state["jacquerie"][other] = {"neutral": rng.randrange(1, 9),
                                         "jacquerie": rng.randrange(9)}
        state["merchant_use"][other] = {"buy:wood": rng.randrange(3)}
    for offer in state["offers"]:
        if seat not in (offer["from"], offer["to"]):
            offer["give"] = {rng.choice(RESOURCES): rng.randrange(1, 5)}
            offer["status"] = rng.choice(["open", "refused", "accepted"])
    for proposal in state["proposals"]:
        if seat not in (proposal["from"], proposal["to"]):
            proposal["terms"] = "something else entirely"
    drawn = next((c for c in state["data"]["deck"] if c["id"] == state["card"]), None)
    if drawn and seat not in state["seen"] and "invaders" not in state["revealed"]:
        twins = [c["id"] for c in state["data"]["deck"] if c["merchants"] == drawn["merchants"]
                 and c["id"] != drawn["id"]]
        if twins:
            state["card"] = rng.choice(twins)
    return state


def check_event(event, game) -> None:
    """A hidden event is for the seats it concerns and the barbarian only."""
    if event.visible_to in ("all", "referee"):
        return
    seen = set(event.visible_to)
    p = event.payload
    barbarian = game["barbarian"]
    assert barbarian in seen, f"{event.type} hidden from the barbarian"
    concerned = {"stock_changed": lambda: {p["seat"]},
                 "merchant_trade": lambda: {p["seat"]},
                 "merchant_refused": lambda: {p["seat"]},
                 "offer_made": lambda: {p["offer"]["from"], p["offer"]["to"]},
                 "traded": lambda: {p["from"], p["to"]},
                 "proposed": lambda: {p["proposal"]["from"], p["proposal"]["to"]},
                 "card_chosen": lambda: set(p["seen"])}
    if event.type in concerned:
        assert seen == concerned[event.type]() | {barbarian}, \
            f"{event.type} shown to {sorted(seen)}: {p}"
    elif event.type == "offer_closed":
        assert len(seen) <= 3
    else:
        raise AssertionError(f"unexpected hidden event {event.type}")


class LeakWatch:
    """Checks, phase after phase, what every lord is shown."""

    def __init__(self, referee, game_id):
        self.referee = referee
        self.game_id = game_id
        self.last_event = 0
        self.last_mail = 0
        self.narrated = {}
        self.own = {}
        self.checked = {"views": 0, "mails": 0, "events": 0}

    def read_log(self, game) -> None:
        """Every new event: its visibility, and what each seat may or may not read of it."""
        for row in self.referee.store.event_rows(self.game_id, after=self.last_event):
            event = row_event(row)
            self.last_event = row["seq"]
            check_event(event, game)
            self.checked["events"] += 1
            line = seigneurs.narrate(event)
            if not line:
                continue
            for seat in game["seats"]:
                hidden, seen = self.narrated.setdefault(seat, (set(), set()))
                (seen if event.visible(seat) else hidden).add(line)

    def __call__(self, before, after):
        state = (after or before)
        game = state["game"]
        if not game:
            return
        self.read_log(game)
        if after is None:
            self.check_views(game)
            return
        for seat in game["lords"] + [game["barbarian"]]:
            you = seigneurs.view(game, seat).get("you")
            if you:
                self.own.setdefault(seat, set()).update(you["lines"])
        rows = self.referee.store.all(
            "SELECT * FROM outbox WHERE game = ? AND id > ? ORDER BY id",
            [self.game_id, self.last_mail])
        for row in rows:
            self.last_mail = row["id"]
            seat = row["seat"]
            if seat not in game["lords"]:
                continue
            hidden, seen = self.narrated.get(seat, (set(), set()))
            others = set().union(*(lines for s, lines in self.own.items() if s != seat))
            secrets = (hidden - seen) | (others - self.own.get(seat, set()))
            found = sorted(mail_lines(self.referee.store.outbox_mail(row)) & secrets)
            assert not found, f"mail {row['id']} to {seat} shows {found[:3]}"
            self.checked["mails"] += 1

    def check_views(self, game) -> None:
        """Each lord's view is the public view plus its own part, and blind to its secrets."""
        public = seigneurs.view(game, None)
        for seat in game["lords"]:
            view = seigneurs.view(game, seat)
            yours = view.pop("you")
            assert view == public, f"the view of {seat} differs from the public view"
            assert yours["seat"] == seat
            rng = random.Random(f"{self.last_event}:{seat}")
            other = shuffled_secrets(game, seat, rng)
            assert seigneurs.view(other, seat) == seigneurs.view(game, seat), \
                f"the view of {seat} changes with what it may not know"
            assert seigneurs.pending(other).get(seat) == seigneurs.pending(game).get(seat), \
                f"what {seat} is asked changes with what it may not know"
            text = json.dumps(yours, ensure_ascii=False)
            for lord in game["lords"]:
                if lord != seat:
                    assert f'"{lord}": {{"neutral"' not in text
            self.checked["views"] += 1


@pytest.mark.slow
@pytest.mark.parametrize("lords,seed", [(3, "leak-3"), (4, "leak-4")])
def test_no_lord_sees_what_it_may_not(tmp_path, lords, seed):
    referee = make_referee(tmp_path)
    watch = LeakWatch(referee, "leak")
    play_game(referee, "leak", lords, seed=seed, turns=2, watch=watch)
    assert referee.table("leak").state["engine"]["over"]
    assert watch.checked["views"] > 20 * lords
    assert watch.checked["mails"] > 30
    hidden = {e["type"] for e in referee.events("leak", "referee")
              if e["visible_to"] not in ("all", "referee")}
    assert {"stock_changed", "offer_made", "card_chosen"} <= hidden


def test_the_watch_stops_a_view_that_shows_another_lords_stock(tmp_path, monkeypatch):
    real = seigneurs.view

    def leaky(state, seat=None):
        out = real(state, seat)
        if seat in state["lords"]:
            other = state["lords"][(state["lords"].index(seat) + 1) % len(state["lords"])]
            out["you"] = {**out["you"], "neighbour": dict(state["stocks"][other])}
        return out

    monkeypatch.setattr(seigneurs, "view", leaky)
    referee = make_referee(tmp_path)
    with pytest.raises(AssertionError, match="changes with what it may not know"):
        play_game(referee, "leak", 3, seed="leak-3", turns=1, watch=LeakWatch(referee, "leak"))


def test_the_watch_stops_an_offer_shown_to_a_third_lord(tmp_path):
    game = {"barbarian": "zed", "seats": ["ann", "bob", "cat", "zed"]}
    offer = {"id": 1, "from": "ann", "to": "bob", "give": {}, "take": {}}
    with pytest.raises(AssertionError, match="offer_made shown to"):
        check_event(Event("offer_made", {"offer": offer}, ["ann", "bob", "cat", "zed"]), game)
    with pytest.raises(AssertionError, match="hidden from the barbarian"):
        check_event(Event("stock_changed", {"seat": "ann", "change": {}}, ["ann"]), game)
