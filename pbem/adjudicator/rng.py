"""Fair, replayable dice.

Every random draw of a game comes from a byte stream that anyone can
recompute from the game's seed once it is revealed:

    block_i = HMAC-SHA256(key=seed, msg=f"{game_id}:{phase}:{i}")   i = 0, 1, 2...

The stream is the concatenation of the blocks. On top of it:

- ``below(n)`` reads the fewest whole bytes k with 256**k >= n as a big-endian
  integer x and returns x mod n, rejecting (and reading again) any x at or
  above the largest multiple of n that fits, so every result is equally likely;
- ``shuffle(items)`` is Fisher-Yates from the last position down: for
  i = len-1 .. 1, swap items[i] with items[below(i + 1)];
- ``choice(items)`` is ``items[below(len(items))]``.

docs/dice.md explains how a player re-checks a game with any tool.
"""

import hashlib
import hmac


class PhaseRng:
    """The random stream for one phase of one game."""

    def __init__(self, seed: str, game_id: str, phase: int):
        self._key = seed.encode()
        self._label = f"{game_id}:{phase}"
        self._block = 0
        self._buffer = b""

    def _more(self) -> None:
        msg = f"{self._label}:{self._block}".encode()
        self._buffer += hmac.new(self._key, msg, hashlib.sha256).digest()
        self._block += 1

    def read(self, n: int) -> bytes:
        """The next n bytes of the stream."""
        while len(self._buffer) < n:
            self._more()
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        size = max(1, (n - 1).bit_length() + 7 >> 3)
        span = 256 ** size
        limit = span - span % n
        while True:
            x = int.from_bytes(self.read(size), "big")
            if x < limit:
                return x % n

    def choice(self, items):
        """One item, uniformly."""
        if not items:
            raise ValueError("choice() from an empty sequence")
        return items[self.below(len(items))]

    def shuffle(self, items) -> list:
        """A shuffled copy of items (Fisher-Yates, last position first)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


def seed_digest(seed: str) -> str:
    """The SHA-256 of a seed, published in a game's first mail."""
    return hashlib.sha256(seed.encode()).hexdigest()
