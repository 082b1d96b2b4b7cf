"""Receipts: proof that the referee adjudicated exactly the orders a seat sent.

A receipt is the SHA-256 of a seat's order text as pbem stored it, in one
canonical form: its non-blank lines, each without trailing spaces, each ended
by a newline, in UTF-8. The acknowledgement of the orders shows that text
between two rules, its hash, and where the game's hash chain stood (the last
event's number and hash); when the phase is resolved, its ``orders_set``
event records the receipt of every seat's orders it used. Later, ``pbem
receipt G --check FILE`` says which phase used the orders in FILE, and a
player can check by hand with any SHA-256 tool: save the lines between the
rules to a file and run ``sha256sum FILE``.
"""

import hashlib

from .adjudicator import engine


def receipt_text(text: str) -> str:
    """Order text in the form its receipt is the hash of."""
    return "".join(line.rstrip() + "\n" for line in text.splitlines() if line.strip())


def receipt(text: str) -> str:
    """The receipt of an order text: the SHA-256 of its canonical form."""
    return hashlib.sha256(receipt_text(text).encode("utf-8")).hexdigest()


def adjudicated(store, game_id: str) -> list[dict]:
    """Every receipt the game's phases used: {phase, seat, sha256, seq}, in order.

    Phases a rollback undid are left out.
    """
    rows = list(store.event_rows(game_id, of_type="orders_set"))
    spans = engine.undone_spans(store.event_rows(game_id, of_type="phase_rolled_back"))
    return [{"phase": row["payload"]["phase"], "seat": seat, "sha256": digest,
             "seq": row["seq"]}
            for row in rows if not engine.is_undone(spans, row)
            for seat, digest in sorted(row["payload"].get("texts", {}).items())]


def check(store, game_id: str, text: str) -> list[dict]:
    """The phases (as in `adjudicated`) that used exactly this order text."""
    digest = receipt(text)
    return [r for r in adjudicated(store, game_id) if r["sha256"] == digest]
