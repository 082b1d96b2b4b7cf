"""The SQLite store: migrations, the append-only hash-chained log, transactions."""

import sqlite3

import pytest

from pbem.adjudicator.contract import public
from pbem.store import GENESIS, Store, chain_hash, raw_digest


def game_row(store, game_id="g1"):
    with store.transaction():
        store.insert("games", {"id": game_id, "ruleset": "auguste", "seed": "s",
                               "created_at": "2026-12-01T00:00:00Z"})


def test_migrations_run_once_and_tables_have_their_names(tmp_path):
    path = tmp_path / "pbem.db"
    store = Store(path)
    assert store.migrate() == []
    names = set(Store(path).db.table_names())
    assert {"games", "seats", "inbox", "submissions", "events", "snapshots", "outbox"} <= names
    plain = sqlite3.connect(path)
    assert plain.execute("SELECT name FROM _migrations ORDER BY name").fetchall() == [
        ("001_initial",), ("002_refusals",), ("003_inbox_digest",), ("010_outbox_phase",),
        ("011_inbox_body_digest",), ("012_referee_digests",), ("020_seat_language",),
        ("030_observers",), ("031_players",)]


def test_the_digest_migration_fills_in_mail_stored_before_it(tmp_path):
    path = tmp_path / "pbem.db"
    store = Store(path)
    with store.transaction():
        store.insert("inbox", {"source": "maildir", "received_at": "2026-12-01T00:00:00Z",
                               "raw": b"Subject: old\n\nhold\n", "size": 18})
    plain = sqlite3.connect(path)   # back to the file as 002 left it
    plain.executescript("DROP INDEX inbox_digest; DROP INDEX inbox_raw_digest; "
                        "ALTER TABLE inbox DROP COLUMN digest; "
                        "DELETE FROM _migrations WHERE name = '003_inbox_digest';")
    plain.close()
    assert Store(path).one("SELECT digest FROM inbox")["digest"] == \
        raw_digest(b"Subject: old\n\nhold\n")


def test_seats_from_before_languages_get_their_mail_in_english(tmp_path):
    path = tmp_path / "pbem.db"
    store = Store(path)
    game_row(store)
    plain = sqlite3.connect(path)   # back to the file as 003 left it
    plain.executescript("ALTER TABLE seats DROP COLUMN lang; "
                        "DELETE FROM _migrations WHERE name = '020_seat_language';")
    plain.execute("INSERT INTO seats (game, name, position, email, token, thread_id) "
                  "VALUES ('g1', 'ann', 0, 'ann@x.example', 't', '<t@x>')")
    plain.commit()
    plain.close()
    assert Store(path).seat("g1", "ann")["lang"] == "en"


def test_events_are_chained_and_cannot_be_changed(tmp_path):
    store = Store(tmp_path / "pbem.db")
    game_row(store)
    with store.transaction():
        store.append_events("g1", [public("a", n=1), public("b", n=2)], ["h1", "h2"],
                            "2026-12-01T00:00:00Z")
    rows = list(store.event_rows("g1"))
    assert [r["seq"] for r in rows] == [1, 2]
    assert rows[0]["prev_hash"] == GENESIS
    assert rows[1]["prev_hash"] == rows[0]["hash"]
    assert rows[1]["hash"] == chain_hash(rows[0]["hash"], "g1", 2, "b", '{"n":2}', '"all"',
                                         "2026-12-01T00:00:00Z")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        store.db.execute("UPDATE events SET payload = '{}' WHERE seq = 1")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        store.db.execute("DELETE FROM events")


def test_a_second_writer_with_the_same_seq_fails_instead_of_forking(tmp_path):
    store = Store(tmp_path / "pbem.db")
    game_row(store)
    row = {"game": "g1", "seq": 1, "type": "a", "payload": "{}", "visible_to": '"all"',
           "at": "t", "prev_hash": GENESIS, "hash": "x", "state_hash": "y"}
    with store.transaction():
        store.insert("events", row)
    with pytest.raises(sqlite3.IntegrityError):
        with store.transaction():
            store.insert("events", row)


def test_a_failed_transaction_leaves_nothing_behind(tmp_path):
    store = Store(tmp_path / "pbem.db")
    with pytest.raises(RuntimeError):
        with store.transaction():
            store.insert("games", {"id": "g2", "ruleset": "auguste", "seed": "s",
                                   "created_at": "t"})
            raise RuntimeError("crash in the middle of a step")
    assert store.game("g2") is None


def test_one_writer_at_a_time(tmp_path):
    first = Store(tmp_path / "pbem.db")
    second = Store(tmp_path / "pbem.db")
    second.db.conn.execute("PRAGMA busy_timeout = 100")
    with first.transaction():
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            second.db.execute("BEGIN IMMEDIATE")
