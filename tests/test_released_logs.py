"""Games played by earlier releases replay byte for byte under this one, and go on under the
rules they were set up with (docs/architecture.md, "Rules that change").

The fixtures (tests/released/<release>/) are demo games of every game the release played,
kept as that release recorded them: see tests/released.py.
"""

from click.testing import CliRunner
import pytest

import pbem.games
from pbem.adjudicator.contract import REFEREE, canonical
from pbem.adjudicator.editions import FIRST
from pbem.demo import bot_mails, scripted_rulings
from pbem import inbound
from pbem.cli import main
from pbem.replay import replay

from conftest import make_referee, next_phase
import released

FIXTURES = released.fixtures()
BOT_PHASES = 4   # the phases this release's bots play on an old game
# Games pbem plays that no release has played yet: their first games come with the next one.
UNRELEASED = {"diplomacy"}


def named(path) -> str:
    """A fixture's test id: release/game-seed."""
    return f"{path.parent.name}/{path.name.split('.')[0]}"


def test_every_game_a_release_played_has_games_kept():
    kept = {p.name.split("-")[0] for p in FIXTURES}
    assert set(pbem.games.names()) - kept == UNRELEASED


@pytest.mark.parametrize("path", FIXTURES, ids=named)
def test_a_released_game_replays_byte_for_byte(tmp_path, path):
    referee = make_referee(tmp_path)
    game_id = released.load(referee, path)
    verdict = replay(referee.store, game_id, verify=True)
    assert verdict.ok, verdict.problems[:5]
    assert verdict.events == len(released.read(path)[1])


@pytest.mark.parametrize("path", FIXTURES, ids=named)
def test_a_released_game_goes_on_as_the_release_played_it(tmp_path, path):
    """The game as it stood a third of the way through: this release's ticks resolve the
    rest, given the orders the release recorded, exactly as the release did: every event,
    every state hash (the release's rules, not this one's); the mails of each turn read."""
    referee = make_referee(tmp_path)
    rows = released.read(path)[1]
    cut = opened_before(rows, len(rows) // 3)
    game_id = released.load(referee, path, upto=cut)
    for row in rows[cut:]:
        if row["type"] == "orders_set":
            give_recorded_orders(referee, game_id, row)
            referee.tick(row["at"], send=False)
    logged = list(referee.store.event_rows(game_id))
    assert len(logged) == len(rows)
    for row, again in zip(rows[cut:], logged[cut:]):
        assert as_recorded(again) == as_recorded(row), f"seq {row['seq']}"
    mails = referee.store.all("SELECT * FROM outbox ORDER BY id")
    assert mails and all(referee.store.outbox_mail(m) for m in mails)


@pytest.mark.parametrize("path", FIXTURES, ids=named)
def test_a_released_game_in_progress_plays_on_by_mail(tmp_path, path):
    """The game as it stood half way through: this release's bots mail their orders, read
    by this release's parser, for a few phases; the whole log verifies, the game keeps the
    rules it was set up with, and every mail reads."""
    referee = make_referee(tmp_path)
    head, rows = released.read(path)
    cut = opened_before(rows, len(rows) // 2)
    game_id = released.load(referee, path, upto=cut)
    now = rows[cut - 1]["at"]
    for _ in range(BOT_PHASES):
        if referee.table(game_id).state["engine"]["over"]:
            break
        now = bots_play(referee, game_id, head["game"]["seed"], now)
    verdict = replay(referee.store, game_id, verify=True)
    assert verdict.ok, verdict.problems[:5]
    assert verdict.phases > sum(1 for r in rows[:cut] if r["type"] == "orders_set")
    assert referee.store.one("SELECT count(*) AS n FROM submissions WHERE text != ''")["n"]
    assert edition_kept(referee.table(game_id).state["game"])
    mails = referee.store.all("SELECT * FROM outbox ORDER BY id")
    assert mails and all(referee.store.outbox_mail(m) for m in mails)


def opened_before(rows: list[dict], seq: int) -> int:
    """The last phase opened at or before an event: where a game waits for orders."""
    return max(r["seq"] for r in rows if r["type"] == "phase_opened" and r["seq"] <= seq)


def give_recorded_orders(referee, game_id: str, orders_set: dict) -> None:
    """The orders a phase of the release used, each seat's (and the referee's) given as it
    gave them; a seat without orders in a phase resolved before its deadline said READY,
    and says it again; the others stay silent."""
    p, at = orders_set["payload"], orders_set["at"]
    with referee.store.transaction():
        table = referee.table(game_id)
        assert table.state["engine"]["phase"] == p["phase"]
        deadline = table.state["engine"]["deadline"]
        early = deadline is None or at < deadline
        for seat, orders in sorted(p["orders"].items()):
            if seat not in p["defaulted"]:
                referee.store_orders(game_id, seat, table, orders, at)
            elif early:
                referee.store.update("seats", {"game": game_id, "name": seat},
                                     {"ready_phase": p["phase"]})
                referee.store.update("games", {"id": game_id}, {"dirty": 1})


def as_recorded(row: dict) -> tuple:
    """An event as both releases must record it: all but the receipts of the order texts,
    which the orders given again have none of."""
    payload = dict(row["payload"])
    if row["type"] == "orders_set":
        payload.pop("texts", None)
    return (row["seq"], row["type"], canonical(payload), canonical(row["visible_to"]),
            row["at"], row["state_hash"])


def bots_play(referee, game_id: str, seed: str, now: str) -> str:
    """This release's bots answer the open phase by mail text, the referee's rulings are
    scripted, and the phase is ticked; the time after."""
    state = referee.table(game_id).state
    game = pbem.games.load(state["engine"]["ruleset"])
    if REFEREE in state["engine"]["requests"]:
        scripted_rulings(referee, game, state, seed, now)
        return now
    for writer, text in bot_mails(game, state, seed, {"silent": 0}).items():
        inbound.submit(referee, game_id, writer, text, now)
    return next_phase(referee, game_id, now)


def edition_kept(state: dict) -> bool:
    """Is the game still under the rules' first edition, as the release set it up?"""
    kept = state.get("edition", FIRST) == FIRST
    if "village_farms" in state:  # Seigneurs' first edition pools a village's resources
        kept = kept and all(isinstance(n, int) for n in state["village_farms"].values())
    return kept


def tampered(tmp_path, game: str, kind: str, change) -> tuple:
    """A released game loaded with its first event of a kind changed: (referee, seq)."""
    referee = make_referee(tmp_path)
    game_id = released.load(referee, next(p for p in FIXTURES if p.name.startswith(game)))
    row = next(r for r in referee.store.event_rows(game_id) if r["type"] == kind)
    conn = referee.store.conn
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute("UPDATE events SET payload = ?, visible_to = ? WHERE seq = ?",
                 [canonical(p) for p in change(row["payload"], row["visible_to"])] + [row["seq"]])
    return referee, row["seq"]


def replay_command(tmp_path, *args) -> tuple[int, str]:
    """`pbem replay demo ARGS` on the referee's settings: (exit code, all it printed)."""
    result = CliRunner().invoke(main, ["replay", "demo", "--config",
                                       str(tmp_path / "pbem.toml"), *args],
                                catch_exceptions=False)
    return result.exit_code, result.output


def test_a_log_the_rules_cannot_fold_ends_in_a_report_not_a_traceback(tmp_path):
    referee, seq = tampered(tmp_path, "seigneurs", "farms_freed",
                            lambda p, seen: ({**p, "village": "all"}, seen))
    verdict = replay(referee.store, "demo", verify=True)
    assert verdict.broken and not verdict.ok
    for args in (["--verify"], []):
        code, said = replay_command(tmp_path, *args)
        assert code == 1 and "Traceback" not in said
        assert "no board: the rules could not fold the whole log" in said
        assert f"MISMATCH seq {seq}: the rules cannot fold farms_freed: TypeError" in said


def test_an_event_shown_to_other_seats_is_reported_with_who_sees_it(tmp_path):
    referee, seq = tampered(tmp_path, "saga", "battle_joined",
                            lambda p, seen: (p, sorted(set(seen) | {"cat"})))
    code, said = replay_command(tmp_path, "--verify")
    assert code == 1
    assert f'MISMATCH seq {seq}: the log has battle_joined seen by ["ann","cat","dan"], the ' \
           'rules show it to ["ann","dan"]' in said
