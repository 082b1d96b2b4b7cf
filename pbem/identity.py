"""Who a mail is from: per-seat tokens, the subject tag and the plus-address.

Every mail pbem sends to a seat carries that seat's token twice: in the
subject tag ``[pbem G #token]`` and in the Reply-To plus-address
``local+G.token@domain``. An order counts only if its mail comes from the
seat's own address and carries the seat's token.
"""

from dataclasses import dataclass
import hmac
import re
import secrets

from .errors import PbemError

GAME_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,31}$")
TAG = re.compile(r"\[pbem\s+([a-z0-9][a-z0-9-]{0,31})\s+#([a-z0-9]{4,32})\]", re.IGNORECASE)
TOKEN_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"


def new_token() -> str:
    """A fresh secret token (10 characters, about 50 bits)."""
    return "".join(secrets.choice(TOKEN_ALPHABET) for _ in range(10))


def valid_game_id(game_id: str) -> bool:
    """Game ids are short, lower-case, and safe in subjects and addresses."""
    return bool(GAME_ID.match(game_id))


def valid_address(address: str) -> bool:
    """Does this look like a mail address a seat can have (local@domain, no spaces)?"""
    local, at, domain = address.strip().rpartition("@")
    return bool(at and local and domain) and not any(c.isspace() for c in address.strip())


def mail_address(text: str) -> str:
    """A seat's or observer's mail address as pbem keeps it; PbemError when it is none."""
    email = text.strip().lower()
    if not valid_address(email):
        raise PbemError(f"{email!r} is not a mail address")
    return email


def subject_tag(game_id: str, token: str) -> str:
    """The tag a seat's mails carry in their subject."""
    return f"[pbem {game_id} #{token}]"


def without_tokens(subject: str) -> str:
    """A subject with every seat's token blanked out of its tag, for listings."""
    return TAG.sub(lambda m: subject_tag(m.group(1), "…"), subject or "")


def reply_address(address: str, game_id: str, token: str) -> str:
    """The plus-address a seat replies to: local+game.token@domain."""
    local, _, domain = address.partition("@")
    return f"{local}+{game_id}.{token}@{domain}"


@dataclass
class Claim:
    """The game and the tokens a mail carries."""

    game: str | None
    tokens: list


def claim(subject: str, recipients: list[str], address: str) -> Claim:
    """Find the game id and candidate tokens in a subject and in our plus-addresses."""
    game, tokens = None, []
    for match in TAG.finditer(subject or ""):
        game = game or match.group(1).lower()
        tokens.append(match.group(2).lower())
    local, _, domain = address.lower().partition("@")
    plus = re.compile(rf"^{re.escape(local)}\+([a-z0-9-]+)\.([a-z0-9]+)@{re.escape(domain)}$")
    for recipient in recipients:
        match = plus.match(recipient.lower())
        if match:
            game = game or match.group(1)
            if match.group(1) == game:
                tokens.append(match.group(2))
    return Claim(game, tokens)


def token_matches(expected: str, offered: list[str]) -> bool:
    """Does any offered token equal the expected one? (constant-time per comparison)"""
    found = False
    for token in offered:
        found |= hmac.compare_digest(expected.encode(), token.encode())
    return found
