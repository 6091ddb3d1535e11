"""Small pieces of the games' English, shared by their status lines and narrations."""

from __future__ import annotations

__all__ = ["points_text"]


def points_text(n: int) -> str:
    """``n`` with its unit, singular for one: ``"1 point"``, ``"-1 point"``, ``"12 points"``.

    Args:
        n (int): a number of points (may be negative: Busstop's passengers left waiting).

    Returns:
        str: the number and "point" or "points".
    """
    return f"{n} point" if abs(n) == 1 else f"{n} points"
