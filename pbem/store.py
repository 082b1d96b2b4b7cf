"""The SQLite store: schema as named migrations, queries, short transactions.

Every table can be read with any SQLite tool under the name it has here.
Writes that belong together happen inside ``Store.transaction()``, which
takes the write lock at once (``BEGIN IMMEDIATE``), so two pbem processes
never interleave, and a crash leaves either all of a step or none of it.

pbem talks to SQLite through the standard library's sqlite3, rows read as
dicts (``Store.one``, ``Store.all``, ``Store.query``) and written with plain
SQL (``Store.insert``, ``Store.update``, ``Store.execute``), so a command that
finds nothing to do opens the file and asks one query. ``Store.db`` is the
same connection seen through sqlite-utils, for exploring a database by hand;
its table methods commit on their own and so are never used inside a
transaction.
"""

from contextlib import contextmanager
from difflib import get_close_matches
from functools import cached_property
import hashlib
import json
import logging
import os
from pathlib import Path
import sqlite3

from . import __version__
from .adjudicator.contract import Event, canonical
from .errors import Misconfigured, PbemError, disk_full

log = logging.getLogger(__name__)

GENESIS = "0" * 64
SQLITE_MAX = 2 ** 63 - 1  # the largest integer SQLite keeps (an id, a seq)


def _m001_initial(db) -> None:
    db.executescript(
        """
        CREATE TABLE games (
            id TEXT PRIMARY KEY,
            ruleset TEXT NOT NULL,
            seed TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'running',
            phase INTEGER NOT NULL DEFAULT 0,
            deadline TEXT,
            remind_at TEXT,
            reminded_phase INTEGER NOT NULL DEFAULT 0,
            dirty INTEGER NOT NULL DEFAULT 0,
            last_seq INTEGER NOT NULL DEFAULT 0,
            last_hash TEXT NOT NULL DEFAULT '0000000000000000000000000000000000000000000000000000000000000000',
            created_at TEXT NOT NULL
        );
        CREATE INDEX games_deadline ON games(status, deadline);
        CREATE INDEX games_remind ON games(status, remind_at);
        CREATE INDEX games_dirty ON games(dirty);

        CREATE TABLE seats (
            game TEXT NOT NULL REFERENCES games(id),
            name TEXT NOT NULL,
            position INTEGER NOT NULL,
            email TEXT NOT NULL,
            token TEXT NOT NULL,
            tz TEXT,
            thread_id TEXT NOT NULL,
            bouncing INTEGER NOT NULL DEFAULT 0,
            wait_phase INTEGER NOT NULL DEFAULT 0,
            ready_phase INTEGER NOT NULL DEFAULT 0,
            reported_seq INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (game, name)
        );
        CREATE INDEX seats_email ON seats(email);

        CREATE TABLE inbox (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            message_id TEXT,
            source TEXT NOT NULL,
            received_at TEXT NOT NULL,
            raw BLOB NOT NULL,
            size INTEGER NOT NULL,
            sender TEXT,
            status TEXT NOT NULL DEFAULT 'new',
            reason TEXT,
            game TEXT,
            seat TEXT,
            source_key TEXT,
            folder TEXT,
            uidvalidity INTEGER,
            uid INTEGER
        );
        CREATE UNIQUE INDEX inbox_source_key ON inbox(source, source_key)
            WHERE source_key IS NOT NULL;
        CREATE INDEX inbox_status ON inbox(status, id);
        CREATE INDEX inbox_message_id ON inbox(message_id);
        CREATE UNIQUE INDEX inbox_imap_uid ON inbox(folder, uidvalidity, uid)
            WHERE uid IS NOT NULL;

        CREATE TABLE submissions (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            game TEXT NOT NULL,
            seat TEXT NOT NULL,
            phase INTEGER NOT NULL,
            inbox_id INTEGER,
            text TEXT NOT NULL,
            orders TEXT NOT NULL,
            errors TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'current',
            received_at TEXT NOT NULL
        );
        CREATE INDEX submissions_phase ON submissions(game, phase, seat, status);

        CREATE TABLE events (
            game TEXT NOT NULL,
            seq INTEGER NOT NULL,
            type TEXT NOT NULL,
            payload TEXT NOT NULL,
            visible_to TEXT NOT NULL,
            at TEXT NOT NULL,
            prev_hash TEXT NOT NULL,
            hash TEXT NOT NULL,
            state_hash TEXT NOT NULL,
            PRIMARY KEY (game, seq)
        );
        CREATE TRIGGER events_no_update BEFORE UPDATE ON events
            BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
        CREATE TRIGGER events_no_delete BEFORE DELETE ON events
            BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;

        CREATE TABLE snapshots (
            game TEXT PRIMARY KEY,
            seq INTEGER NOT NULL,
            state TEXT NOT NULL
        );

        CREATE TABLE outbox (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            game TEXT,
            seat TEXT,
            kind TEXT NOT NULL,
            to_addr TEXT NOT NULL,
            subject TEXT NOT NULL,
            message_id TEXT NOT NULL UNIQUE,
            raw BLOB NOT NULL,
            status TEXT NOT NULL DEFAULT 'pending',
            attempts INTEGER NOT NULL DEFAULT 0,
            next_attempt TEXT,
            last_error TEXT,
            created_at TEXT NOT NULL,
            sent_at TEXT
        );
        CREATE INDEX outbox_status ON outbox(status, id);

        CREATE TABLE senders (
            address TEXT PRIMARY KEY,
            window_start TEXT NOT NULL,
            count INTEGER NOT NULL,
            last_stranger_reply TEXT
        );

        CREATE TABLE imap_folders (
            folder TEXT PRIMARY KEY,
            uidvalidity INTEGER NOT NULL,
            last_uid INTEGER NOT NULL
        );
        """
    )


def _m002_refusals(db) -> None:
    db.execute("ALTER TABLE seats ADD COLUMN last_refusal TEXT")


def _m003_inbox_digest(db) -> None:
    db.execute("ALTER TABLE inbox ADD COLUMN digest TEXT")
    for row in db.execute("SELECT id, raw FROM inbox").fetchall():
        db.execute("UPDATE inbox SET digest = ? WHERE id = ?", [raw_digest(row[1]), row[0]])
    db.execute("CREATE INDEX inbox_digest ON inbox(folder, digest)")


def _m020_seat_language(db) -> None:
    db.execute("ALTER TABLE seats ADD COLUMN lang TEXT NOT NULL DEFAULT 'en'")


def _m010_outbox_phase(db) -> None:
    # The phase each mail was written in, and whether its seat was asked something then:
    # a reply to a mail of a phase that is over is not taken for the open one.
    db.execute("ALTER TABLE outbox ADD COLUMN phase INTEGER")
    db.execute("ALTER TABLE outbox ADD COLUMN asked INTEGER")


def _m011_inbox_body_digest(db) -> None:
    db.execute("ALTER TABLE inbox ADD COLUMN body_digest TEXT")
    for row in db.execute("SELECT id, raw FROM inbox").fetchall():
        db.execute("UPDATE inbox SET body_digest = ? WHERE id = ?", [body_digest(row[1]), row[0]])
    db.execute("CREATE INDEX inbox_raw_digest ON inbox(digest)")


def _m012_referee_digests(db) -> None:
    # One row per daily digest of refused mail sent to the referee: up to which inbox row.
    db.execute("CREATE TABLE referee_digests (id INTEGER PRIMARY KEY AUTOINCREMENT, "
               "sent_at TEXT NOT NULL, upto INTEGER NOT NULL)")


def _m030_observers(db) -> None:
    db.executescript(
        """
        CREATE TABLE observers (
            game TEXT NOT NULL REFERENCES games(id),
            email TEXT NOT NULL,
            lang TEXT NOT NULL DEFAULT 'en',
            tz TEXT,
            added_at TEXT NOT NULL,
            reported_seq INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (game, email)
        );
        """
    )


def _m031_players(db) -> None:
    db.execute("ALTER TABLE seats ADD COLUMN player TEXT")


def _m04m_outbox_parts(db) -> None:
    # Outgoing mail compressed against a model mail of its game and kind, each part several
    # mails share (a turn's board) stored once: see pbem/mail/stored.py.
    from .mail import stored
    db.execute("CREATE TABLE mail_parts (digest TEXT PRIMARY KEY, kind TEXT NOT NULL, "
               "data BLOB NOT NULL)")
    db.execute("CREATE TABLE mail_models (game TEXT NOT NULL, kind TEXT NOT NULL, "
               "digest TEXT NOT NULL, PRIMARY KEY (game, kind))")
    db.execute("ALTER TABLE outbox ADD COLUMN mail BLOB NOT NULL DEFAULT x''")
    db.execute("ALTER TABLE outbox ADD COLUMN model TEXT")
    db.execute("ALTER TABLE outbox ADD COLUMN parts TEXT NOT NULL DEFAULT '[]'")
    for mail_id, game, kind, raw in db.execute(
            "SELECT id, game, kind, raw FROM outbox ORDER BY id").fetchall():
        packed = stored.pack_raw(db, raw, game, kind)
        db.execute("UPDATE outbox SET mail = ?, model = ?, parts = ? WHERE id = ?",
                   [packed["mail"], packed["model"], packed["parts"], mail_id])
    db.execute("ALTER TABLE outbox DROP COLUMN raw")


def _m08j_open_games(db) -> None:
    # Games that wait for players to join by mail, the players who joined (or wait on a
    # game's standby list), the requests that wait for a CONFIRM from their address, and
    # when each stranger was last answered about each command and game.
    db.executescript(
        """
        CREATE TABLE open_games (
            id TEXT PRIMARY KEY,
            ruleset TEXT NOT NULL,
            options TEXT NOT NULL,
            min_players INTEGER NOT NULL,
            max_players INTEGER NOT NULL,
            starts TEXT,
            seed TEXT,
            status TEXT NOT NULL DEFAULT 'open',
            created_at TEXT NOT NULL,
            version INTEGER NOT NULL DEFAULT 0,
            problem TEXT
        );
        CREATE TABLE signups (
            game TEXT NOT NULL,
            email TEXT NOT NULL,
            name TEXT NOT NULL,
            player TEXT,
            lang TEXT NOT NULL,
            tz TEXT,
            standby INTEGER NOT NULL DEFAULT 0,
            joined_at TEXT NOT NULL,
            number INTEGER NOT NULL,
            PRIMARY KEY (game, email)
        );
        CREATE TABLE confirmations (
            code TEXT PRIMARY KEY,
            email TEXT NOT NULL,
            game TEXT NOT NULL,
            action TEXT NOT NULL,
            detail TEXT NOT NULL DEFAULT '{}',
            lang TEXT NOT NULL,
            asked_at TEXT NOT NULL
        );
        CREATE INDEX confirmations_email ON confirmations(email, game, action);
        CREATE TABLE stranger_answers (
            address TEXT NOT NULL,
            topic TEXT NOT NULL,
            answered_at TEXT NOT NULL,
            PRIMARY KEY (address, topic)
        );
        """
    )


def _m08j_archive(db) -> None:
    # What the public archive (publish_dir) last showed of each game: its last event, or an
    # open game's version.
    db.execute("CREATE TABLE published (name TEXT PRIMARY KEY, mark TEXT NOT NULL)")
def _m05r_outbox_seq(db) -> None:
    # The game's last event when each mail was written: a reply to a mail of a phase a
    # rollback undid is known for one, whatever number the phase reopened has.
    db.execute("ALTER TABLE outbox ADD COLUMN seq INTEGER")


def _m08c_outbox_turn(db) -> None:
    # The turn and round a seat's mail named in its subject (turn 0: the setup; NULL in
    # mails written before): an answer to a late reply names them as the seat read them.
    db.execute("ALTER TABLE outbox ADD COLUMN turn INTEGER")
    db.execute("ALTER TABLE outbox ADD COLUMN round INTEGER")


def _m09a_outages(db) -> None:
    # A mail server that fails, from when, when the referee was last told, and why: see
    # pbem/outages.py.
    db.execute("CREATE TABLE outages (server TEXT PRIMARY KEY, since TEXT NOT NULL, "
               "told_at TEXT NOT NULL, problem TEXT NOT NULL)")


def _m09s_signup_wishes(db) -> None:
    # The roles a player waiting for an open game asked for (JOIN dip as France), dealt
    # when the game starts: a JSON list of words, NULL when none.
    db.execute("ALTER TABLE signups ADD COLUMN wishes TEXT")


# A new step changes the schema, and so raises pbem's version (pyproject.toml and
# pbem/__init__.py; tests/test_store.py keeps each version's schema): an older pbem then
# refuses the database, naming both versions.
# Each step gets the database as sqlite-utils sees it (its executescript keeps the
# migration's transaction open, from sqlite-utils 4.0), and runs inside that transaction.
# Each name is recorded in _migrations with the version of the pbem that applied it.
MIGRATIONS = [("001_initial", _m001_initial), ("002_refusals", _m002_refusals),
              ("003_inbox_digest", _m003_inbox_digest), ("020_seat_language", _m020_seat_language),
              ("010_outbox_phase", _m010_outbox_phase),
              ("011_inbox_body_digest", _m011_inbox_body_digest),
              ("012_referee_digests", _m012_referee_digests),
              ("030_observers", _m030_observers), ("031_players", _m031_players),
              ("04m_outbox_parts", _m04m_outbox_parts), ("05r_outbox_seq", _m05r_outbox_seq),
              ("08c_outbox_turn", _m08c_outbox_turn), ("08j_open_games", _m08j_open_games),
              ("08j_archive", _m08j_archive), ("09a_outages", _m09a_outages),
              ("09s_signup_wishes", _m09s_signup_wishes)]


def private_file(path: Path) -> None:
    """Create an empty file readable and writable by its owner alone, unless it exists."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass


def newer_database(path: str, names: list[str], applied: dict) -> str:
    """The line refusing a database that a newer pbem migrated (each schema change raises
    pbem's version, so the two versions differ)."""
    versions = sorted({applied[name] for name in names} - {None, __version__})
    by = f"pbem {', '.join(versions)}" if versions else "a newer pbem"
    return (f"{path} was written by {by} (it has {', '.join(names)}), and this is pbem "
            f"{__version__}: run the newer pbem, or restore a backup made before it")


def raw_digest(raw: bytes) -> str:
    """The SHA-256 of a raw mail, which tells a message without a Message-ID apart."""
    return hashlib.sha256(raw).hexdigest()


def body_digest(raw: bytes) -> str:
    """The SHA-256 of a mail's body (all after its header), whatever its line ends.

    The same message delivered twice has the same body, even when the servers
    on the way added different headers on top.
    """
    return hashlib.sha256(raw.replace(b"\r\n", b"\n").partition(b"\n\n")[2]).hexdigest()


def connect(path) -> sqlite3.Connection:
    """A connection with pbem's settings: transactions only when asked for (BEGIN
    IMMEDIATE), write-ahead logging, foreign keys checked, 30 s of patience for a lock."""
    conn = sqlite3.connect(str(path), isolation_level=None, timeout=30)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA foreign_keys=ON")
    return conn


class Store:
    """A pbem database file, created readable by its owner alone (it holds every game's
    secret seed and every seat's code)."""

    def __init__(self, path):
        try:
            private_file(Path(path))
            conn = connect(path)
        except (OSError, sqlite3.Error) as problem:
            raise disk_full(problem, path) or PbemError(
                f"cannot open the database {path}: {problem}") from None
        self.conn = conn
        self.path = str(path)
        self.migrate()

    @cached_property
    def db(self):
        """The connection as a sqlite-utils Database (loaded on first use, never by pbem's
        own steps): ``store.db.table_names()``, ``store.db.execute(sql)``."""
        import sqlite_utils
        return sqlite_utils.Database(self.conn)

    def migrate(self) -> list[str]:
        """Apply the migrations this file has not seen yet; return their names.

        A file that has seen migrations is backed up first, beside it, and the
        backup announced on standard error. A file a newer pbem migrated (it has
        migrations this pbem does not know) is refused as it is (Misconfigured).
        """
        self.conn.execute("CREATE TABLE IF NOT EXISTS [_migrations] "
                          "([name] TEXT PRIMARY KEY, [applied] TEXT)")
        done = dict(self.conn.execute("SELECT name, applied FROM _migrations").fetchall())
        newer = sorted(set(done) - {name for name, _ in MIGRATIONS})
        if newer:
            raise Misconfigured(newer_database(self.path, newer, done))
        pending = [(name, step) for name, step in MIGRATIONS if name not in done]
        if pending and done:
            self.back_up_before(pending[0][0])
        applied = []
        for name, step in pending:
            with self.transaction():
                step(self.db)
                self.insert("_migrations", {"name": name, "applied": __version__})
            applied.append(name)
        return applied

    def back_up_before(self, migration: str) -> Path:
        """Copy the file beside itself before an upgrade (PbemError when it cannot be)."""
        target = Path(f"{self.path}.before-{migration}")
        try:
            self.backup(target)
        except (OSError, sqlite3.Error) as problem:
            raise PbemError(f"{self.path} needs an upgrade, and a backup first, which failed: "
                            f"{problem}; nothing was changed") from None
        log.warning("upgrading the database %s to pbem %s; its copy as it was: %s",
                    self.path, __version__, target)
        return target

    def backup(self, target: Path) -> None:
        """A consistent copy of the whole database into `target` (replaced if it exists),
        readable by its owner alone, with SQLite's online backup: writers may go on. Its
        folder is made (readable by its owner alone) when missing."""
        target = Path(target)
        target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
        partial.unlink(missing_ok=True)
        private_file(partial)
        try:
            copy = sqlite3.connect(str(partial), isolation_level=None)
            try:
                self.conn.backup(copy)
                copy.execute("PRAGMA journal_mode=DELETE")  # one file, nothing beside it
            finally:
                copy.close()
            os.replace(partial, target)
        finally:
            partial.unlink(missing_ok=True)

    @contextmanager
    def transaction(self):
        """One short write transaction, holding the write lock from its start."""
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self
        except BaseException:
            if self.conn.in_transaction:  # SQLite rolls back by itself on a full disk
                self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    def execute(self, sql: str, params=()) -> sqlite3.Cursor:
        """Run one SQL statement (inside the caller's transaction when it writes)."""
        return self.conn.execute(sql, params)

    def insert(self, table: str, row: dict) -> int:
        """Insert a row inside the current transaction; return its rowid."""
        columns = ", ".join(f"[{c}]" for c in row)
        marks = ", ".join("?" for _ in row)
        cursor = self.conn.execute(
            f"INSERT INTO [{table}] ({columns}) VALUES ({marks})", list(row.values()))
        return cursor.lastrowid

    def update(self, table: str, where: dict, values: dict) -> int:
        """Update rows matching `where` inside the current transaction; return the count."""
        sets = ", ".join(f"[{c}] = ?" for c in values)
        cond = " AND ".join(f"[{c}] = ?" for c in where)
        cursor = self.conn.execute(f"UPDATE [{table}] SET {sets} WHERE {cond}",
                                 list(values.values()) + list(where.values()))
        return cursor.rowcount

    def one(self, sql: str, params=()) -> dict | None:
        """The first row of a query, as a dict, or None."""
        for row in self.query(sql, params):
            return row
        return None

    def all(self, sql: str, params=()) -> list[dict]:
        """Every row of a query, as dicts."""
        return list(self.query(sql, params))

    def query(self, sql: str, params=()):
        """Stream the rows of a query, each as a dict."""
        cursor = self.conn.execute(sql, params)
        names = [column[0] for column in cursor.description]
        for values in cursor:
            yield dict(zip(names, values))

    def outbox_mail(self, row: dict) -> bytes:
        """The whole RFC 822 mail of an outbox row, as it is sent (see pbem/mail/stored.py)."""
        from .mail import stored
        return stored.message_bytes(self.conn, row)

    # games and seats

    def game(self, game_id: str) -> dict | None:
        """The games row, or None."""
        return self.one("SELECT * FROM games WHERE id = ?", [game_id])

    def seats(self, game_id: str) -> list[dict]:
        """A game's seats in seat order."""
        return self.all("SELECT * FROM seats WHERE game = ? ORDER BY position", [game_id])

    def seat(self, game_id: str, name: str) -> dict | None:
        """One seat row, or None."""
        return self.one("SELECT * FROM seats WHERE game = ? AND name = ?", [game_id, name])

    def existing_seat(self, game_id: str, name: str) -> dict:
        """One seat row; PbemError when the game has no such seat."""
        seat = self.seat(game_id, name)
        if seat is None:
            names = [row["name"] for row in self.seats(game_id)]
            close = get_close_matches(str(name), names, n=1)
            raise PbemError(f"game {game_id} has no seat called {name!r}"
                            + (f"; did you mean {close[0]}?" if close else
                               f" (its seats: {', '.join(names)})"))
        return seat

    def open_game(self, game_id: str) -> dict | None:
        """The open_games row of a game that waits (or waited) for players, or None."""
        return self.one("SELECT * FROM open_games WHERE id = ?", [game_id])

    def standby(self, game_id: str) -> list[dict]:
        """The players on a game's standby list, first come first."""
        return self.all("SELECT * FROM signups WHERE game = ? AND standby = 1 "
                        "ORDER BY number", [game_id])

    def observers(self, game_id: str) -> list[dict]:
        """The addresses that follow a game without a seat, oldest first."""
        return self.all("SELECT * FROM observers WHERE game = ? ORDER BY added_at, email",
                        [game_id])

    # events

    def append_events(self, game_id: str, events, states_hashes, at: str) -> None:
        """Append events (with the state hash after each) to a game's chain."""
        game = self.game(game_id)
        seq, prev = game["last_seq"], game["last_hash"]
        for event, state_hash in zip(events, states_hashes):
            seq += 1
            payload, visible_to = canonical(event.payload), canonical(event.visible_to)
            digest = chain_hash(prev, game_id, seq, event.type, payload, visible_to, at)
            self.insert("events", {
                "game": game_id, "seq": seq, "type": event.type, "payload": payload,
                "visible_to": visible_to, "at": at, "prev_hash": prev, "hash": digest,
                "state_hash": state_hash,
            })
            prev = digest
        self.update("games", {"id": game_id, "last_seq": game["last_seq"]},
                    {"last_seq": seq, "last_hash": prev})

    def event_rows(self, game_id: str, after: int = 0, upto: int | None = None,
                   of_type: str | None = None):
        """Stream a game's event rows in order (only one type's, if given), payloads decoded.

        Each row also keeps its payload and visible_to as stored (``payload_text``,
        ``visible_to_text``), the canonical JSON its hash was made from.
        """
        sql = "SELECT * FROM events WHERE game = ? AND seq > ?"
        params = [game_id, after]
        if upto is not None:
            sql += " AND seq <= ?"
            params.append(upto)
        if of_type is not None:
            sql += " AND type = ?"
            params.append(of_type)
        for row in self.query(sql + " ORDER BY seq", params):
            row["payload_text"], row["visible_to_text"] = row["payload"], row["visible_to"]
            row["payload"] = json.loads(row["payload"])
            row["visible_to"] = json.loads(row["visible_to"])
            yield row

    def snapshot(self, game_id: str) -> dict | None:
        """The cached state and the seq it was taken at, or None."""
        row = self.one("SELECT * FROM snapshots WHERE game = ?", [game_id])
        if row:
            row["state"] = json.loads(row["state"])
        return row

    def save_snapshot(self, game_id: str, seq: int, state: dict) -> None:
        """Replace the cached state of a game (inside a transaction)."""
        self.conn.execute("INSERT OR REPLACE INTO snapshots (game, seq, state) VALUES (?, ?, ?)",
                        [game_id, seq, canonical(state)])


def chain_hash(prev: str, game_id: str, seq: int, type_: str, payload: str,
               visible_to: str, at: str) -> str:
    """The hash of one event row, chained to the previous row's hash."""
    record = canonical([game_id, seq, type_, payload, visible_to, at])
    return hashlib.sha256((prev + record).encode()).hexdigest()


def row_event(row: dict) -> Event:
    """The Event stored in an events row."""
    return Event(row["type"], row["payload"], row["visible_to"])
