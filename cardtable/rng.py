"""The project's own seeded PRNG: splitmix64 seeding a xoshiro256** generator.

Python's `random` module makes no promise that a seed gives the same shuffle across versions, and a game
number must deal the same cards everywhere, forever. These algorithms are fixed and tested against
pinned vectors.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

MASK64 = (1 << 64) - 1
MAX_SEED = MASK64

T = TypeVar("T")


def splitmix64(state: int) -> tuple[int, int]:
    """One splitmix64 step: returns (output, next_state)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31), state


def mix(*values: int) -> int:
    """Derive one 64-bit seed from several integers (e.g. match seed, hand number, salt)."""
    state = 0x6A09E667F3BCC908
    for value in values + (0,):     # splitmix64 of each value in turn, written inline; then one more step
        state = ((state ^ (value & MASK64)) + 0x9E3779B97F4A7C15) & MASK64
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        state ^= z ^ (z >> 31)
    return z ^ (z >> 31)


# below(n)'s rejection limit, the largest multiple of n not above 2^64, for the bounds of every deal.
_LIMITED = 257
_LIMITS = [0] + [18446744073709551616 - 18446744073709551616 % n for n in range(1, _LIMITED)]


_STEPS: dict[int, tuple[tuple[int, int, int], ...]] = {}


def _steps(length: int) -> tuple[tuple[int, int, int], ...]:
    """Fisher–Yates' steps for ``length`` items: ``(i, i + 1, below(i + 1)'s rejection limit)`` from the
    end, made once per length."""
    steps = _STEPS.get(length)
    if steps is None:
        steps = tuple((i, i + 1, _LIMITS[i + 1] if i + 1 < _LIMITED else
                       18446744073709551616 - 18446744073709551616 % (i + 1)) for i in range(length - 1, 0, -1))
        if length <= 4096:
            _STEPS[length] = steps
    return steps


# _OUTPUT: xoshiro256**'s output rotl(s1 * 5, 7) * 9 (mod 2^64), as the inlined steps compute it with
# fewer operations on 64-bit ints: rotating u = s1 * 5 (mod 2^64) left by 7 is u * 2^7 plus the top 7 bits
# of u (they do not overlap), so the output is s1 * 5 * 2^7 * 9 + (top 7 bits of u) * 9 (mod 2^64); the top
# 7 bits of u are bits 57-63 of s1 * 5 (s1 < 2^64). Pinned by the tests against next64.


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & MASK64


class Rng:
    """xoshiro256** seeded through splitmix64. Deterministic on every platform."""

    __slots__ = ("_s",)

    def __init__(self, seed: int) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
            raise ValueError(f"seed must be an integer from 0 to {MAX_SEED}, not {seed!r}")
        words = []
        for _ in range(4):      # splitmix64, written inline
            seed = (seed + 0x9E3779B97F4A7C15) & MASK64
            z = ((seed ^ (seed >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            words.append(z ^ (z >> 31))
        self._s = words

    def next64(self) -> int:
        s = self._s
        result = (_rotl((s[1] * 5) & MASK64, 7) * 9) & MASK64
        t = (s[1] << 17) & MASK64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 45)
        return result

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = _LIMITS[n] if n < _LIMITED else 18446744073709551616 - 18446744073709551616 % n
        s0, s1, s2, s3 = self._s
        while True:     # next64, written inline (the same numbers, pinned by the tests)
            x = (s1 * 5760 + (s1 * 5 >> 57 & 127) * 9) & MASK64     # rotl(s1 * 5, 7) * 9: see _OUTPUT
            t = s1 << 17 & MASK64
            s2 ^= s0
            s3 ^= s1
            s1 ^= s2
            s0 ^= s3
            s2 ^= t
            s3 = ((s3 << 45) | (s3 >> 19)) & MASK64
            if x < limit:
                self._s = [s0, s1, s2, s3]
                return x % n

    def random(self) -> float:
        """A float in [0, 1) with 53 random bits."""
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def choice(self, items: list[T] | tuple[T, ...]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates, in place, from the end: ``j = below(i + 1)`` for each ``i``, with the generator
        step written inline (the same numbers as ``next64``/``below``, pinned by the tests)."""
        s0, s1, s2, s3 = self._s
        for i, n, limit in _steps(len(items)):
            while True:
                x = (s1 * 5760 + (s1 * 5 >> 57 & 127) * 9) & MASK64
                t = s1 << 17 & MASK64
                s2 ^= s0
                s3 ^= s1
                s1 ^= s2
                s0 ^= s3
                s2 ^= t
                s3 = ((s3 << 45) | (s3 >> 19)) & MASK64
                if x < limit:
                    break
            j = x % n
            items[i], items[j] = items[j], items[i]
        self._s = [s0, s1, s2, s3]

    def clone(self) -> Rng:
        twin = Rng.__new__(Rng)
        twin._s = list(self._s)
        return twin
