"""The random streams of a seeded game: which generator each step draws from.

A :class:`~bus_lab.engine.session.Session` and :func:`bus_lab.simulate.simulate` give every step of
a game its own generator, derived from the game's seed, the step number and the kind of step
(``"chance"``: a card or tile drawn; ``"bot"``: a bot's decision). So the same seed gives the same
game, undo-and-step-again gives the same card, and any step can be replayed on its own.

Two versions exist; a saved session records the one it used (``"streams"`` in its JSON):

* **Version 2** (:data:`STREAMS`, new sessions): a game's seed seeds one Mersenne Twister, which
  deals a 64-bit *word* per step, 64 at a time (:class:`StepWords`); the step's generator is a
  :class:`StepRandom` started from that word (a bot's word is the step's word with
  :data:`BOT_SALT` xor-ed in). Making it and drawing once cost well under a microsecond.
* **Version 1** (:data:`LEGACY_STREAMS`, sessions saved before version 2 existed):
  ``random.Random(f"{seed}:{kind}:{step}")``, a Mersenne Twister seeded afresh at every step
  (about 5 µs each, as much as a Ride the Bus step itself).

Both give ``random.Random`` objects, so a policy ``policy(state, rng)`` uses every method it knows
(``randrange``, ``choice``, ``shuffle``, ``random``, ...).
"""

from __future__ import annotations

import random
import struct

__all__ = ["STREAMS", "LEGACY_STREAMS", "BOT_SALT", "StepRandom", "StepWords", "step_rng", "check_streams"]

#: The streams version new sessions and simulations use.
STREAMS = 2
#: The version of sessions saved before the ``"streams"`` field existed.
LEGACY_STREAMS = 1
#: Xor-ed into a step's word for a bot's decision, so a bot never draws what a chance step would.
BOT_SALT = 0x5BD1E9955BD1E995

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15  # SplitMix64's increment (the golden ratio in 64 bits)
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
_BLOCK = 64  # words dealt at a time (the words do not depend on it: 64-bit blocks of one stream)
_UNPACK = struct.Struct(f"<{_BLOCK}Q").unpack
_TWO_TO_MINUS_53 = 1.0 / (1 << 53)
_TWO_TO_64 = 1 << 64
_TWO_TO_32 = 1 << 32
_SURE_BELOW = _TWO_TO_64 - _TWO_TO_32


def check_streams(version: object) -> int:
    """``version`` if it is a streams version this lab knows (1 or 2).

    Raises:
        ValueError: any other value (the message gives the known versions).
    """
    if isinstance(version, int) and not isinstance(version, bool) and version in (LEGACY_STREAMS, STREAMS):
        return version
    raise ValueError(
        f"streams={version!r}: use {STREAMS} (new games) or {LEGACY_STREAMS} (games saved before "
        f"version {STREAMS})"
    )


class StepRandom(random.Random):
    """A ``random.Random`` whose numbers are a 64-bit word, then SplitMix64 started at it.

    The first 64 output bits are the word itself (already random: a step's word comes from the
    Mersenne Twister, :class:`StepWords`), so the usual single draw of a step costs a shift. Later
    bits come from SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
    generators", OOPSLA 2014), started at the word: the state goes up by a fixed odd constant at
    every draw and is mixed into 64 output bits. ``random()`` gives 53-bit floats from the top
    bits of the next 64, ``getrandbits(k)`` the top ``k`` bits (64 at a time for larger ``k``),
    and a whole number below ``n`` (what ``randrange``, ``choice``, ``shuffle`` and ``sample`` pick
    with) is the next 64 bits modulo ``n``, without bias (:meth:`_randbelow`). Every other method
    (``uniform``, ``gauss``, ...) is ``random.Random``'s own, built on these.

    Args:
        word (int): the starting state, 0 ≤ word < 2**64 (larger ints are cut to their low 64 bits).
    """

    _word: int
    _first: int | None  # the word until the first draw takes it
    gauss_next: float | None  # random.Random's cached second normal deviate (gauss())

    def __init__(self, word: int) -> None:  # no call to Random.__init__: nothing to seed
        self._word = self._first = word & _MASK
        self.gauss_next = None  # what random.Random.seed resets (used by gauss())

    def restart(self, word: int) -> None:
        """Start again from ``word`` (as a new ``StepRandom(word)`` would), in place."""
        self._word = self._first = word & _MASK
        self.gauss_next = None

    def seed(self, a: object = None, version: int = 2) -> None:
        """Start again from ``a`` (an int; ``None`` is 0). Other seeds are refused.

        Raises:
            TypeError: ``a`` is not an int.
        """
        if a is None:
            a = 0
        if not isinstance(a, int):
            raise TypeError(f"a StepRandom is seeded with an int, not {type(a).__name__}")
        self.restart(a)

    def _next64(self) -> int:
        """The next 64 output bits: the word first, then SplitMix64's outputs."""
        first = self._first
        if first is not None:
            self._first = None
            return first
        z = self._word = (self._word + _GAMMA) & _MASK
        z = ((z ^ (z >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        return z ^ (z >> 31)

    def random(self) -> float:
        """A float in [0, 1) with 53 random bits."""
        return (self._next64() >> 11) * _TWO_TO_MINUS_53

    def getrandbits(self, k: int) -> int:
        """An int with ``k`` random bits (0 ≤ result < 2**k).

        Raises:
            ValueError: ``k`` < 0.
        """
        first = self._first
        if 0 < k <= 64:
            if first is not None:  # the step's usual single draw
                self._first = None
                return first >> (64 - k)
            return self._next64() >> (64 - k)
        if k <= 0:
            if k < 0:
                raise ValueError("number of bits must be non-negative")
            return 0
        out = 0
        for shift in range(0, k, 64):
            out |= self._next64() << shift
        return out & ((1 << k) - 1)

    def _randbelow(self, n: int) -> int:
        """A whole number in [0, n) from one 64-bit draw: ``draw % n``, drawing again only in the
        top ``2**64 % n`` values (a chance below ``n / 2**64``), so every result has the same
        chance. ``randrange``, ``choice``, ``shuffle`` and ``sample`` all pick through this; ``n``
        over ``2**64`` goes the standard way (:meth:`getrandbits`)."""
        draw = self._first
        if draw is not None and n <= _TWO_TO_32 and draw < _SURE_BELOW:  # the usual single draw
            self._first = None  # (below 2**64 - 2**32, a draw is under the top for any n <= 2**32)
            return draw % n
        if n > _TWO_TO_64:
            return super()._randbelow_with_getrandbits(n)  # type: ignore[misc]
        top = _TWO_TO_64 - _TWO_TO_64 % n
        draw = self._next64()
        while draw >= top:
            draw = self._next64()
        return draw % n

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        """``random.Random.randrange``, the same number from the same state, with a short cut for
        the call a step makes most, ``randrange(n)`` with ``0 < n <= 2**32`` on a fresh generator:
        the word modulo ``n`` (:meth:`_randbelow`).

        Raises:
            ValueError: an empty range (as ``random.Random.randrange``).
        """
        if stop is None and step == 1 and type(start) is int and 0 < start <= _TWO_TO_32:
            draw = self._first
            if draw is not None and draw < _SURE_BELOW:
                self._first = None
                return draw % start
            return self._randbelow(start)
        return super().randrange(start, stop, step)

    def getstate(self) -> tuple[int, int, int | None, float | None]:  # type: ignore[override]
        """The state, for :meth:`setstate`: ``(2, word, first, gauss_next)``."""
        return (2, self._word, self._first, self.gauss_next)

    def setstate(self, state: tuple[int, int, int | None, float | None]) -> None:  # type: ignore[override]
        """Go back to a state from :meth:`getstate`.

        Raises:
            ValueError: not a StepRandom state.
        """
        if not (isinstance(state, tuple) and len(state) == 4 and state[0] == 2):
            raise ValueError("not a StepRandom state")
        self._word, self._first, self.gauss_next = state[1], state[2], state[3]


class StepWords:
    """The 64-bit words of one game's steps (streams version 2), dealt 64 at a time.

    Word ``k`` is the ``k``-th 64-bit block of ``random.Random(f"bus_lab streams 2:{seed}")``'s
    ``getrandbits`` output (little-endian), so it depends only on the seed and ``k``, whatever
    order the steps are asked for in.

    Args:
        seed (int): the game's seed.
    """

    __slots__ = ("_source", "_words")

    def __init__(self, seed: int) -> None:
        self._source = random.Random(f"bus_lab streams 2:{seed}")
        self._words: list[int] = []

    @property
    def words(self) -> list[int]:
        """The words dealt so far (step ``k``'s at index ``k``): the same list object all along,
        growing as :meth:`word` deals more. For reading only."""
        return self._words

    def word(self, step: int) -> int:
        """The word of step ``step`` (≥ 0); the chance generator of that step starts from it."""
        words = self._words
        while step >= len(words):
            words.extend(_UNPACK(self._source.getrandbits(64 * _BLOCK).to_bytes(8 * _BLOCK, "little")))
        return words[step]


def step_rng(version: int, seed: int, kind: str, step: int, words: StepWords | None = None) -> random.Random:
    """The generator of one step: what a Session gives a chance draw or a bot at that step.

    Args:
        version (int): the streams version (:data:`STREAMS` or :data:`LEGACY_STREAMS`).
        seed (int): the game's seed.
        kind (str): ``"chance"`` or ``"bot"``.
        step (int): actions taken so far (``len(state.history())``).
        words (StepWords | None): the game's words, to reuse between steps (version 2; made from
            ``seed`` when ``None``).

    Raises:
        ValueError: an unknown version or kind.
    """
    if kind not in ("chance", "bot"):
        raise ValueError(f"kind={kind!r}: use 'chance' or 'bot'")
    if version == LEGACY_STREAMS:
        return random.Random(f"{seed}:{kind}:{step}")
    check_streams(version)
    word = (words if words is not None else StepWords(seed)).word(step)
    return StepRandom(word ^ BOT_SALT if kind == "bot" else word)
