"""Outgoing mail as the database keeps it: compressed, each shared part once.

An outbox row holds its mail compressed (``mail``) with the bodies of its
shared parts left out, and where each goes (``parts``, JSON
``[[offset, digest], ...]``). A shared part is one row of ``mail_parts``
for every mail that carries it:

- ``board``: a board image, kept as its SVG (compressed, about a quarter
  of the PNG's size) and drawn as a PNG when the mail is read, once per
  process;
- ``close-up``: a part of a board image, kept as JSON (the board's part,
  the zoom and the window it is cut to) and drawn with the board;
- ``body``: a body as the mail carries it (the rules attachment of every
  welcome, an image of a mail stored before parts were shared);
- ``model``: a whole mail (shared parts left out) that the later mails of
  its game and kind are compressed against (``outbox.model``): a turn
  report differs from the last one by a few hundred bytes. ``mail_models``
  names the model of each game and kind, and the latest of each kind (a new
  game's first mails are compressed against it); a mail that its model no
  longer fits well becomes the new one.

``message_bytes`` puts a mail back together, the same bytes every time:
every reader of outgoing mail (the senders, the tests, the tools) goes
through it (``Store.outbox_mail``).
"""

import base64
import email
from functools import lru_cache
import hashlib
import json
import lzma
import zlib

from .compose import Board, CloseUp, Draft, Holes, Shared

LEVEL = 9  # zlib: mails are written once and read once or twice
BOARD_LEVEL = 6  # a board's SVG, one a turn: 1% larger than at 9 (and 3% than xz), in 60%
#                  of the time (a third of xz's)
XZ_MAGIC = b"\xfd7zXZ\x00"
WINDOW = 32768  # zlib uses the last 32 KB of a dictionary
REFIT = 6  # a mail compressed to more than 1/REFIT of its size becomes its kind's model
SHARED = "*"  # no game has this name: the mail_models row of each kind's latest model
CACHED_PARTS = 64
_parts: dict = {}  # digest -> content as stored: a turn's board is drawn once for its mails


def digest(kind: str, content: bytes) -> str:
    """The key of a shared part: the SHA-256 of its kind and content."""
    return hashlib.sha256(kind.encode() + b"\0" + content).hexdigest()


def keep_part(db, kind: str, content: bytes) -> str:
    """Store a shared part unless it is stored already; return its digest."""
    key = digest(kind, content)
    put_part(db, key, kind, lambda: content)
    return key


def keep_board(db, svg: str) -> str:
    """Store a board's SVG unless it is stored already; return its digest."""
    key = board_digest(svg)
    put_part(db, key, "board", svg.encode)
    return key


def put_part(db, key: str, kind: str, content) -> None:
    """Store a part under its digest unless it is stored already (`content` gives it)."""
    if db.execute("SELECT 1 FROM mail_parts WHERE digest = ?", [key]).fetchone() is None:
        level = BOARD_LEVEL if kind == "board" else LEVEL
        db.execute("INSERT INTO mail_parts (digest, kind, data) VALUES (?, ?, ?)",
                   [key, kind, zlib.compress(content(), level)])


@lru_cache(maxsize=CACHED_PARTS)
def board_digest(svg: str) -> str:
    """The digest of a board part, reckoned once for the mails of a turn, which all carry
    it (and each its close-up of it)."""
    return digest("board", svg.encode())


def unpacked(data: bytes) -> bytes:
    """A stored part's content: zlib, or xz (a board kept when boards were kept as xz)."""
    return lzma.decompress(data) if data.startswith(XZ_MAGIC) else zlib.decompress(data)


def shared_part(db, shared) -> str:
    """Store a Board, CloseUp or Shared part; return its digest."""
    if isinstance(shared, Board):
        return keep_board(db, shared.svg)
    if isinstance(shared, CloseUp):
        board = keep_board(db, shared.svg)
        return keep_part(db, "close-up", json.dumps(
            {"board": board, "zoom": shared.zoom, "window": list(shared.window)},
            sort_keys=True).encode())
    return keep_part(db, "body", shared.body)


def columns(db, draft: Draft, game: str | None, kind: str) -> dict:
    """The outbox columns of a composed mail (its shared parts, and its model, stored on the
    way).

    A game's first mail of a kind is compressed against the latest model of that kind,
    whatever its game (``mail_models`` row ``SHARED``): one game's acknowledgement differs
    from another's by a few names, so a new game stores no model of its own until its
    mails stop fitting the shared one.
    """
    owner = game or ""
    own = model_of(db, owner, kind)
    model = own or model_of(db, SHARED, kind)
    packed = model and squeeze(draft.data, content(db, model))
    if not packed or len(packed) * REFIT > len(draft.data):
        model = keep_part(db, "model", draft.data)
        packed = squeeze(draft.data, draft.data)
        set_model(db, SHARED, kind, model)
    if model != own:
        set_model(db, owner, kind, model)
    return {"mail": packed, "model": model,
            "parts": json.dumps([[offset, shared_part(db, shared)]
                                 for offset, shared in draft.parts])}


def model_of(db, owner: str, kind: str) -> str | None:
    """The digest of the model mail of a game (or SHARED) and kind, or None."""
    row = db.execute("SELECT digest FROM mail_models WHERE game = ? AND kind = ?",
                     [owner, kind]).fetchone()
    return row[0] if row else None


def set_model(db, owner: str, kind: str, model: str) -> None:
    """Make `model` the model mail of a game (or SHARED) and kind."""
    db.execute("INSERT OR REPLACE INTO mail_models (game, kind, digest) VALUES (?, ?, ?)",
               [owner, kind, model])


def squeeze(data: bytes, model: bytes | None) -> bytes:
    """Compress a mail, against its model when it has one."""
    packer = zlib.compressobj(LEVEL, zdict=model[-WINDOW:]) if model else \
        zlib.compressobj(LEVEL)
    return packer.compress(data) + packer.flush()


def unsqueeze(packed: bytes, model: bytes | None) -> bytes:
    """A mail's bytes from `squeeze`."""
    unpacker = zlib.decompressobj(zdict=model[-WINDOW:]) if model else zlib.decompressobj()
    return unpacker.decompress(packed) + unpacker.flush()


def mail_data(db, row: dict) -> bytes:
    """An outbox row's mail with its shared parts left out."""
    return unsqueeze(row["mail"], content(db, row["model"]) if row["model"] else None)


def message_bytes(db, row: dict) -> bytes:
    """The whole RFC 822 mail of an outbox row (one with its ``mail``, ``model``, ``parts``).

    `db` is the database's connection (``Store.conn``); ``Store.outbox_mail`` says it shorter.
    """
    data = mail_data(db, row)
    out, start = bytearray(), 0
    for offset, key in json.loads(row["parts"]):
        out += data[start:offset] + part_body(db, key)
        start = offset
    return bytes(out + data[start:])


def content(db, key: str) -> bytes:
    """A stored part's content (a board's SVG, a body, a model)."""
    return stored_part(db, key)[1]


def part_body(db, key: str) -> bytes:
    """A shared part's body as the mail carries it (a board or a close-up drawn as its base64
    PNG)."""
    kind, data = stored_part(db, key)
    if kind not in ("board", "close-up"):
        return data
    drawn = _parts.get(("drawn", key))
    if drawn is None:
        from .. import render  # drawing loads resvg and Pillow: only when a board is read
        if kind == "board":
            png = render.board_png(data.decode())
        else:
            spec = json.loads(data)
            png = render.close_up_png(content(db, spec["board"]).decode(), spec["zoom"],
                                      tuple(spec["window"]))
        drawn = remember(("drawn", key), base64.encodebytes(png))
    return drawn


def stored_part(db, key: str) -> tuple[str, bytes]:
    """(kind, content) of a stored part, read once per process."""
    found = _parts.get(key)
    if found is None:
        kind, data = db.execute("SELECT kind, data FROM mail_parts WHERE digest = ?",
                                [key]).fetchone()
        found = remember(key, (kind, unpacked(data)))
    return found


def boards_kept(db) -> tuple[list[str], list[dict]]:
    """Every board (its SVG) and every close-up (its board, zoom and window, with the
    board's "svg") kept, in the order they were kept: what benchmarks and tests draw."""
    boards = {key: unpacked(data).decode() for key, data in db.execute(
        "SELECT digest, data FROM mail_parts WHERE kind = 'board' ORDER BY rowid")}
    close_ups = [json.loads(zlib.decompress(data)) for (data,) in db.execute(
        "SELECT data FROM mail_parts WHERE kind = 'close-up' ORDER BY rowid")]
    return list(boards.values()), [{**c, "svg": boards[c["board"]]} for c in close_ups]


def remember(key, value):
    """Keep a part read or drawn, for the next mails that carry it."""
    if len(_parts) >= CACHED_PARTS:
        _parts.clear()
    _parts[key] = value
    return value


def rewrite(db, row: dict, change) -> dict:
    """The ``mail`` and ``parts`` of an outbox row after `change` (bytes to bytes).

    `change` sees the mail with a mark in place of each shared body, and must
    leave the marks as they are (it may change headers, and text in the parts).
    The mail stays compressed against the model it had.
    """
    holes = Holes()
    marked = holes.put(mail_data(db, row), json.loads(row["parts"]))
    data, parts = holes.cut(change(marked))
    model = content(db, row["model"]) if row["model"] else None
    return {"mail": squeeze(data, model), "parts": json.dumps([list(p) for p in parts])}


def pack_raw(db, raw: bytes, game: str | None, kind: str) -> dict:
    """The outbox columns of a mail that was stored whole: the base64 body of each of its
    images kept once (a turn's board, in every mail of the turn), the rest compressed."""
    cuts = []
    for part in email.message_from_bytes(raw).walk():  # a mail pbem wrote: trusted
        body = part.get_payload() if part.get_content_maintype() == "image" else None
        if isinstance(body, str) and body and body.isascii() and raw.count(body.encode()) == 1:
            start = raw.index(body.encode())
            cuts.append((start, start + len(body)))
    data, parts, start = bytearray(), [], 0
    for begin, end in sorted(cuts):
        data += raw[start:begin]
        parts.append((len(data), Shared(raw[begin:end])))
        start = end
    return columns(db, Draft(bytes(data + raw[start:]), tuple(parts)), game, kind)
