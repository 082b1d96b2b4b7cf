"""The referee's digest of refused mail: at most once a day, only when something was refused.

Mail pbem refuses or sets aside (quarantined, rejected, ignored, bounces)
is listed for the referee by kind of reason, with a few examples. Whether a
digest is due is a read-only look, so an idle tick takes no write lock for it
and loads nothing that writes mail.
"""

from collections import Counter
from datetime import timedelta

from .i18n import counted
from .timeutil import iso, parse_time

DIGEST_EVERY = timedelta(days=1)
DIGESTED = ("quarantined", "rejected", "ignored", "bounce")
DIGEST_EXAMPLES = 5
EPOCH = "1970-01-01T00:00:00Z"
WHERE = f"FROM inbox WHERE id > ? AND status IN ({', '.join('?' for _ in DIGESTED)})"


def since(store, now: str) -> int | None:
    """The inbox id the next digest starts after, or None when a digest was sent in the
    last day."""
    last = store.one("SELECT * FROM referee_digests ORDER BY id DESC LIMIT 1")
    if last and parse_time(now) - parse_time(last["sent_at"]) < DIGEST_EVERY:
        return None
    return last["upto"] if last else 0


def due(store, now: str) -> bool:
    """Is a digest due at `now`: none in the last day, and some mail refused since?"""
    after = since(store, now)
    return after is not None and store.one(f"SELECT 1 {WHERE} LIMIT 1",
                                           [after, *DIGESTED]) is not None


def next_time(store) -> str | None:
    """When the next digest falls due: a day after the last one, once something was refused
    since (at once when none was ever sent); None while nothing new was refused."""
    last = store.one("SELECT * FROM referee_digests ORDER BY id DESC LIMIT 1")
    if store.one(f"SELECT 1 {WHERE} LIMIT 1", [last["upto"] if last else 0, *DIGESTED]) is None:
        return None
    return iso(parse_time(last["sent_at"]) + DIGEST_EVERY) if last else EPOCH


def digest(referee, now: str) -> bool:
    """Mail the referee what was refused since the last digest: at most once a day,
    nothing when nothing new was refused. True when a digest was queued."""
    store = referee.store
    if not due(store, now):
        return False
    from . import letters
    from .mail.parse import shorten, visible
    with store.transaction():
        after = since(store, now)
        if after is None:
            return False
        statuses, kinds, upto = Counter(), Counter(), after
        for row in store.query(f"SELECT id, status, reason {WHERE}", [after, *DIGESTED]):
            statuses[row["status"]] += 1
            kinds[reason_kind(row["reason"])] += 1
            upto = max(upto, row["id"])
        if not statuses:
            return False
        examples = store.all(
            f"SELECT id, sender, status, reason, game, seat {WHERE} "
            "ORDER BY status = 'ignored', id DESC LIMIT ?", [after, *DIGESTED, DIGEST_EXAMPLES])
        total = sum(statuses.values())
        letters.notice(referee, referee.config["referee"], f"{counted(total, 'mail')} refused", [
            f"Since the last digest, {counted(total, 'mail')} "
            f"{'was' if total == 1 else 'were'} refused or set aside: "
            + ", ".join(f"{n} {status}" for status, n in sorted(statuses.items())) + ".",
            "Why: " + "; ".join(f"{kind} ({n})" for kind, n in kinds.most_common(10)) + ".",
            "For example: " + "; ".join(
                f"inbox {row['id']} from {visible(row['sender'] or '(no sender)')}"
                f"{where(row)}: {shorten(visible(row['reason'] or ''), 120)}"
                for row in examples) + ".",
            "pbem inbox lists them; pbem inbox --release ID hands one to the next tick.",
        ], now, kind="digest")
        store.insert("referee_digests", {"sent_at": now, "upto": upto})
    return True


def where(row: dict) -> str:
    """The game and seat a refused mail was for, as the digest names them (" to game
    rome, seat ann"), or ""."""
    if not row["game"]:
        return ""
    return f" to game {row['game']}" + (f", seat {row['seat']}" if row["seat"] else "")


def reason_kind(reason: str | None) -> str:
    """The kind of a refusal: its reason's first words."""
    return (reason or "no reason").split(":")[0].split(" (")[0].strip()
