"""Structured events: what happened at each step, and which numbered rule made it happen.

A game's handlers record the facts (``Event(rule, data)``); the sentence is made from them by the
game's narration module when it is first read, so the rules hold no wording and a front end can use
the data directly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: ``narrator(event) -> str``: a module-level function of a game's ``narrate`` module.
Narrator = Callable[["Event"], str]


class Event:
    """One thing that happened in a game.

    Args and attributes:
        rule (str): the ID of the numbered rule applied, e.g. ``"RTB-Q2"`` (see the rule
            catalogue of each game).
        text (str): one plain sentence describing what happened; given, or made from ``rule``
            and ``data`` by ``narrator`` when first read.
        step (int): the index in the history of the action that caused it (0-based).
        data (dict): structured details (JSON-safe values: ints, strings, lists); ``None`` or
            left out: an empty dict.
        narrator (callable | None): makes the sentence when ``text`` is ``None``.

    Events are immutable: compare, hash and pickle by ``(rule, text, step, data)``.
    """

    __slots__ = ("rule", "step", "data", "_text", "_narrator")

    rule: str
    step: int
    data: dict[str, Any]
    _text: str | None
    _narrator: Narrator | None

    def __init__(
        self,
        rule: str,
        text: str | None = None,
        step: int = 0,
        data: dict[str, Any] | None = None,
        *,
        narrator: Narrator | None = None,
    ) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "rule", rule)
        setattr_(self, "step", step)
        setattr_(self, "data", {} if data is None else data)
        setattr_(self, "_text", text)
        setattr_(self, "_narrator", narrator)

    @property
    def text(self) -> str:
        """The sentence (made once, by the game's narrator, when not given)."""
        text = self._text
        if text is None:
            narrator = self._narrator
            text = narrator(self) if narrator is not None else f"{self.rule}: {self.data}"
            object.__setattr__(self, "_text", text)
        return text

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("an Event cannot be changed")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return (self.rule, self.step, self.data, self.text) == (
            other.rule,
            other.step,
            other.data,
            other.text,
        )

    def __hash__(self) -> int:
        return hash((self.rule, self.step, self.text))

    def __reduce__(self) -> tuple[Any, ...]:
        return (Event, (self.rule, self.text, self.step, self.data))

    def __repr__(self) -> str:
        return f"Event(rule={self.rule!r}, text={self.text!r}, step={self.step!r}, data={self.data!r})"

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-safe dict with keys ``rule``, ``text``, ``step`` and ``data``."""
        return {"rule": self.rule, "text": self.text, "step": self.step, "data": dict(self.data)}

    def __str__(self) -> str:
        return f"[{self.rule}] {self.text}"
