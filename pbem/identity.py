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


# An address is one addr-spec of RFC 5322 whose two parts are dot-atoms: no quoted local
# part, no [domain literal], no comment, and so no comma, space or second address anywhere;
# UTF-8 letters are allowed (RFC 6532). The standard library's parser is not used: it
# rewrites comments and quotes away, and refuses UTF-8 local parts.
ATOM_CHARACTER = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]|[^\x00-\x7f]")
LONGEST_ADDRESS = 254


def address_problem(address: str) -> str | None:
    """Why `address` is not exactly one mail address (local@domain), or None when it is."""
    if not address:
        return "it is empty"
    if len(address) > LONGEST_ADDRESS:
        return f"it is longer than {LONGEST_ADDRESS} characters"
    odd = next((c for c in address if c not in ".@" and not ATOM_CHARACTER.fullmatch(c)
                or not c.isprintable()), None)
    if odd is not None:
        return f"{odd!r} cannot be in a mail address"
    if address.count("@") != 1:
        return "it has no @" if "@" not in address else "it has more than one @"
    if any(not word for part in address.split("@") for word in part.split(".")):
        return "each side of the @ is words joined by single dots"
    return None


def valid_address(address: str) -> bool:
    """Is this exactly one mail address, as a seat, an observer or pbem itself can have?"""
    return address_problem(address) is None


def mail_address(text: str) -> str:
    """A seat's or observer's mail address as pbem keeps it (lower case, without the spaces
    around it); PbemError saying why when it is not exactly one address."""
    email = text.strip().lower()
    problem = address_problem(email)
    if problem is not None:
        raise PbemError(f"{email!r} is not a mail address: {problem}")
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
