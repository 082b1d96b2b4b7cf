"""No Diplomacy seat and no observer ever reads another seat's orders before the phase is
resolved, nor press it is not party to, in any mail, view, log or HISTORY.

Bot games run through the referee, followed by an observer. In every phase,
once the bots' orders are in, one seat sends press to another and one asks
for its HISTORY; then:

- every game event is public, but the orders as they were used (the
  referee's) and press (its sender's and recipients');
- a seat's view is the public view plus its own part, and holds no other
  seat's orders;
- no mail written in the phase to anyone but the sender holds one of its
  orders as said back to it, and no mail or log line ever shows press to a
  seat or observer that is not party to it.
"""

import json

import pytest

from pbem import inbound
from pbem.adjudicator.contract import REFEREE
from pbem.observers import observe
from pbem.store import row_event

from conftest import make_referee
from leaks import mail_lines
from test_diplomacy_games import play_game

OBSERVER = "kibitzer@watchers.example"


class LeakWatch:
    """Checks, phase after phase, what every seat and the observer are shown."""

    def __init__(self, referee, game_id):
        self.referee, self.game_id = referee, game_id
        self.press = {}            # each press's text: (sender, recipient)
        self.orders = {}           # phase: {seat: its orders as said back to it}
        self.last_event = self.last_mail = 0
        self.checked = {"mails": 0, "observer mails": 0, "views": 0, "log lines": 0}

    def between(self, state, answers, now) -> None:
        """Once the orders are in: press from one seat to the next, HISTORY, the views."""
        engine = state["engine"]
        if not self.checked["views"]:
            observe(self.referee, self.game_id, OBSERVER, now)
        self.orders[engine["phase"]] = {seat: set(a["understood"]) for seat, a in answers.items()}
        seats = engine["seats"]
        number = len(self.press)
        sender, recipient = seats[number % len(seats)], seats[(number + 1) % len(seats)]
        text = f"press {number}: for {recipient} alone, from {sender}"
        answer = inbound.submit(self.referee, self.game_id, sender, f"PRESS {recipient}\n{text}",
                                now)
        assert answer["notes"] == [f"Press sent to {recipient}."], answer
        self.press[text] = (sender, recipient)
        inbound.submit(self.referee, self.game_id, seats[number % 3], "HISTORY", now)
        self.check_views(state)
        self.check(engine["phase"])

    def secrets(self, seat, phase) -> set[str]:
        """What this seat (None: an observer) may not read in a mail written in `phase`."""
        others = {line for other, lines in self.orders.get(phase, {}).items() if other != seat
                  for line in lines}
        return others | {text for text, between in self.press.items() if seat not in between}

    def check_views(self, state) -> None:
        """Each seat's view is the public view and its own part, with no other's orders."""
        public = self.referee.view(self.game_id, None)
        for seat in state["engine"]["seats"]:
            view = self.referee.view(self.game_id, seat)
            yours = view.pop("you")
            assert view == public, f"the view of {seat} differs from the public view"
            text = json.dumps(yours, ensure_ascii=False)
            found = [line for line in self.secrets(seat, state["engine"]["phase"])
                     if line in text]
            assert not found, f"the view of {seat} shows {found[:3]}"
            self.checked["views"] += 1

    def check(self, phase) -> None:
        """The new events, and every mail queued since the last look."""
        for row in self.referee.store.event_rows(self.game_id, after=self.last_event):
            self.last_event = row["seq"]
            event = row_event(row)
            if event.type == "press":
                assert event.visible_to == sorted({event.payload["from"], *event.payload["to"]})
            elif event.type == "orders_set":
                assert event.visible_to == REFEREE
            else:
                assert event.visible_to == "all", f"{event.type} is shown to {event.visible_to}"
        for row in self.referee.store.all("SELECT * FROM outbox WHERE game = ? AND id > ? "
                                          "ORDER BY id", [self.game_id, self.last_mail]):
            self.last_mail = row["id"]
            if row["seat"] is None and row["to_addr"] == self.referee.config["referee"]:
                continue  # the referee's own copies: the referee may know everything
            shown = mail_lines(self.referee.store.outbox_mail(row))
            found = sorted(shown & self.secrets(row["seat"], row["phase"]))
            assert not found, f"mail {row['id']} ({row['kind']}) to " \
                              f"{row['seat'] or row['to_addr']} shows {found[:3]}"
            self.checked["observer mails" if row["seat"] is None else "mails"] += 1

    def watch(self, table) -> None:
        """After a phase: its reports, the observer's report."""
        self.check(table.state["engine"]["phase"] - 1)


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 7])
def test_no_seat_reads_another_seats_orders_or_press(tmp_path, players):
    referee = make_referee(tmp_path)
    watch = LeakWatch(referee, "leak")
    play_game(referee, "leak", players, f"leak-{players}", {"years": "3"},
              watch=watch.watch, between=watch.between)
    assert referee.table("leak").state["engine"]["over"]
    assert len(watch.press) > 6 and watch.checked["views"] > 6 * players
    assert watch.checked["mails"] > 15 * players and watch.checked["observer mails"] > 6
    assert sum(len(lines) for seats in watch.orders.values() for lines in seats.values()) > 50


def test_the_watch_stops_orders_shown_to_another_seat(tmp_path, monkeypatch):
    from pbem.games import diplomacy
    real = diplomacy.view

    def telling(state, seat=None):
        shown = real(state, seat)
        if seat is not None:
            shown["you"]["told"] = ["A PAR - BUR", "F BRE - MAO", "A MAR - SPA"]
        return shown

    monkeypatch.setattr(diplomacy, "view", telling)
    referee = make_referee(tmp_path)
    watch = LeakWatch(referee, "leak")
    with pytest.raises(AssertionError, match="the view of .* shows"):
        play_game(referee, "leak", 7, "stopped", {"years": "1", "powers": (
            "ann:france,bob:england,cat:germany,dan:italy,eve:austria,fay:russia,gus:turkey")},
                  watch=watch.watch, between=watch.between)
