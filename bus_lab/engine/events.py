"""Structured events: what happened at each step, and which numbered rule made it happen."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    """One thing that happened in a game.

    Attributes:
        rule (str): the ID of the numbered rule applied, e.g. ``"RTB-Q2"`` (see the rule
            catalogue of each game).
        text (str): one plain sentence describing what happened.
        step (int): the index in the history of the action that caused it (0-based).
        data (dict): structured details (JSON-safe values: ints, strings, lists).
    """

    rule: str
    text: str
    step: int = 0
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-safe dict with keys ``rule``, ``text``, ``step`` and ``data``."""
        return {"rule": self.rule, "text": self.text, "step": self.step, "data": dict(self.data)}

    def __str__(self) -> str:
        return f"[{self.rule}] {self.text}"
