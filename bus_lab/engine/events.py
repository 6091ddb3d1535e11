"""Structured events: what happened at each step, and which numbered rule made it happen."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, init=False)
class Event:
    """One thing that happened in a game.

    Attributes:
        rule (str): the ID of the numbered rule applied, e.g. ``"RTB-Q2"`` (see the rule
            catalogue of each game).
        text (str): one plain sentence describing what happened.
        step (int): the index in the history of the action that caused it (0-based).
        data (dict): structured details (JSON-safe values: ints, strings, lists); ``None`` or
            left out: an empty dict.
    """

    rule: str
    text: str
    step: int = 0
    data: dict[str, Any] = field(default_factory=dict)

    def __init__(self, rule: str, text: str, step: int = 0, data: dict[str, Any] | None = None):
        # The generated __init__ of a frozen dataclass sets each field through
        # object.__setattr__; a game logs about two events per action, so the fields are written
        # straight into the instance dict instead (the object is the same; it stays frozen).
        fields = self.__dict__
        fields["rule"] = rule
        fields["text"] = text
        fields["step"] = step
        fields["data"] = {} if data is None else data

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-safe dict with keys ``rule``, ``text``, ``step`` and ``data``."""
        return {"rule": self.rule, "text": self.text, "step": self.step, "data": dict(self.data)}

    def __str__(self) -> str:
        return f"[{self.rule}] {self.text}"
