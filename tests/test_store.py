"""The SQLite store: migrations, the append-only hash-chained log, transactions."""

from email.message import EmailMessage
import hashlib
from pathlib import Path
import sqlite3
import tomllib

import pytest

from pbem import __version__
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
        ("030_observers",), ("031_players",), ("04m_outbox_parts",), ("05r_outbox_seq",),
        ("08c_outbox_turn",), ("08j_archive",), ("08j_open_games",), ("09a_outages",),
        ("09s_signup_wishes",)]


# The schema each version of pbem makes (see `schema`): a schema change raises the version, so
# an older pbem refuses a database a newer one changed, and names both versions.
SCHEMAS = {"0.1.0": "873b17cef77d433b", "0.2.0": "6cf97af552bc4470",
           "0.3.0": "3369a0ac9ebb3eb0"}


def schema(path) -> str:
    """A short digest of what a database file's schema is: its tables, indexes, triggers."""
    rows = sqlite3.connect(path).execute(
        "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' "
        "ORDER BY type, name").fetchall()
    return hashlib.sha256(repr(rows).encode()).hexdigest()[:16]


def test_each_schema_change_raises_pbems_version(tmp_path):
    Store(tmp_path / "pbem.db")
    made = schema(tmp_path / "pbem.db")
    assert SCHEMAS.get(__version__) == made, (
        f"pbem {__version__} made a new schema ({made}): raise the version in pyproject.toml "
        "and pbem/__init__.py, and add it to SCHEMAS")
    assert len(set(SCHEMAS.values())) == len(SCHEMAS)
    project = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())
    assert project["project"]["version"] == __version__


def old_mail(number: int, png: bytes) -> bytes:
    """A mail as pbem stored it whole before 04m: text, HTML, the board PNG inline."""
    msg = EmailMessage()
    msg["From"] = "pbem <pbem@referee.example>"
    msg["To"] = f"seat{number}@players.example"
    msg["Subject"] = f"[pbem g #code{number}] Tour 2 : vos ordres d’ici jeudi"
    msg["Message-ID"] = f"<g.{number}@referee.example>"
    msg.set_content(f"Bonjour {number}, é\n" + "a long line " * 20 + "\n")
    msg.add_alternative('<p>é</p><img src="cid:board@pbem">', subtype="html")
    msg.get_payload()[-1].add_related(png, maintype="image", subtype="png",
                                      cid="<board@pbem>", disposition="inline",
                                      filename="board.png")
    return msg.as_bytes()


def test_the_outbox_migration_keeps_every_mail_byte_for_byte_and_each_board_once(tmp_path):
    path = tmp_path / "pbem.db"
    store = Store(path)
    plain = sqlite3.connect(path)   # back to the file as 031 left it
    plain.executescript("DROP TABLE mail_parts; DROP TABLE mail_models; "
                        "ALTER TABLE outbox DROP COLUMN mail; ALTER TABLE outbox DROP COLUMN model; "
                        "ALTER TABLE outbox DROP COLUMN parts; "
                        "ALTER TABLE outbox ADD COLUMN raw BLOB NOT NULL DEFAULT x''; "
                        "DELETE FROM _migrations WHERE name = '04m_outbox_parts';")
    board, other = bytes(range(256)) * 40, bytes(range(255, -1, -1)) * 40
    raws = [old_mail(n, board if n < 4 else other) for n in range(6)]
    raws.append(b"Subject: a mail with no image\n\nhello\n")
    for number, raw in enumerate(raws):
        plain.execute("INSERT INTO outbox (game, seat, kind, to_addr, subject, message_id, raw, "
                      "created_at) VALUES ('g', 'ann', 'report', 'a@b', 's', ?, ?, 'now')",
                      [f"<{number}@x>", raw])
    plain.commit()
    plain.close()
    store = Store(path)
    rows = store.all("SELECT * FROM outbox ORDER BY id")
    assert [store.outbox_mail(row) for row in rows] == raws
    assert "raw" not in rows[0]
    shared = store.all("SELECT kind, COUNT(*) AS n FROM mail_parts GROUP BY kind ORDER BY kind")
    assert shared[0] == {"kind": "body", "n": 2}   # two boards, each once for its mails
    stored = sum(len(row["mail"]) for row in rows) + sum(
        len(row["data"]) for row in store.all("SELECT data FROM mail_parts"))
    assert stored < sum(map(len, raws)) / 4


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


def test_a_board_kept_as_xz_before_boards_were_kept_as_zlib_is_read_as_it_was(tmp_path):
    import lzma
    from pbem.mail import stored
    store = Store(tmp_path / "pbem.db")
    old, new = b'<svg id="old">' + b"<g/>" * 500 + b"</svg>", b'<svg id="new"></svg>'
    with store.transaction():
        old_key = stored.keep_part(store.conn, "board", old)
        new_key = stored.keep_part(store.conn, "board", new)
        store.conn.execute("UPDATE mail_parts SET data = ? WHERE digest = ?",
                           [lzma.compress(old), old_key])
    stored._parts.clear()
    assert stored.content(store.conn, old_key) == old
    assert stored.content(store.conn, new_key) == new
    assert stored.boards_kept(store.conn)[0] == [old.decode(), new.decode()]
