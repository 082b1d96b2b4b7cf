"""The phase dice: reproducible, uniform, and the algorithm docs/dice.md describes."""

from collections import Counter
import hashlib
import hmac

import pytest

from pbem.adjudicator.rng import PhaseRng, seed_digest


def test_stream_is_hmac_sha256_of_game_phase_and_block():
    rng = PhaseRng("s3cret", "rome", 4)
    expected = b"".join(hmac.new(b"s3cret", f"rome:4:{i}".encode(), hashlib.sha256).digest()
                        for i in range(2))
    assert rng.read(64) == expected


def test_same_seed_game_and_phase_give_the_same_draws():
    def draws(seed, game, phase):
        return PhaseRng(seed, game, phase).shuffle(range(20))
    assert draws("x", "g", 3) == draws("x", "g", 3)
    assert draws("x", "g", 3) != draws("x", "g", 4)
    assert draws("x", "g", 3) != draws("y", "g", 3)
    assert draws("x", "g", 3) != draws("x", "h", 3)


def test_below_rejects_bytes_that_would_bias_the_result():
    # below(200) reads one byte; bytes 200..255 must be thrown away, not folded.
    rng = PhaseRng("bias", "g", 1)
    raw = PhaseRng("bias", "g", 1).read(64)
    accepted = [b % 200 for b in raw if b < 200]
    assert [rng.below(200) for _ in range(len(accepted))] == accepted


def test_below_is_roughly_uniform():
    rng = PhaseRng("uniform", "g", 0)
    counts = Counter(rng.below(6) for _ in range(6000))
    assert set(counts) == set(range(6))
    assert all(850 < n < 1150 for n in counts.values())


def test_shuffle_is_fisher_yates_from_the_end():
    items = list("abcdef")
    rng = PhaseRng("fy", "g", 2)
    expected = list(items)
    check = PhaseRng("fy", "g", 2)
    for i in range(len(expected) - 1, 0, -1):
        j = check.below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert rng.shuffle(items) == expected
    assert items == list("abcdef")


def test_below_refuses_an_empty_range():
    with pytest.raises(ValueError):
        PhaseRng("x", "g", 0).below(0)


def test_seed_digest_is_sha256_hex():
    assert seed_digest("abc") == hashlib.sha256(b"abc").hexdigest()
