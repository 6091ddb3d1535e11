"""Fixed-length observation vectors built from a seat's view, field by field.

Each game's ``encoding`` module describes its observation as a :class:`Layout`: named fields, each
a block of numbers with a one-line meaning (``Layout.describe()`` prints the table). Its encoder
fills a :class:`Vector` of that layout from ``state.view(seat)`` only, so the vector can show no
more than the view shows: a face-down tile or the deck's order never reach it.

Every number is a ``float32``: one-hot blocks and sets are 0/1, counts and points are plain
numbers (not scaled), so the table documents the units.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class Field:
    """One block of an observation vector.

    Attributes:
        name (str): the field's name (unique in its layout).
        size (int): how many numbers it takes.
        doc (str): what the numbers mean, with units and what an all-zero block means.
    """

    name: str
    size: int
    doc: str


@dataclass
class Layout:
    """The fields of a game's observation vector, in order (their offsets follow from the sizes)."""

    fields: list[Field] = field(default_factory=list)

    def add(self, name: str, size: int, doc: str) -> Layout:
        """Append a field of ``size`` numbers; returns the layout, so calls chain."""
        if any(f.name == name for f in self.fields):
            raise ValueError(f"field {name!r} is already in the layout")
        self.fields.append(Field(name, int(size), doc))
        return self

    @property
    def size(self) -> int:
        """The length of the vector."""
        return sum(f.size for f in self.fields)

    def offsets(self) -> dict[str, tuple[int, int]]:
        """``{name: (start, stop)}`` of every field."""
        out, start = {}, 0
        for f in self.fields:
            out[f.name] = (start, start + f.size)
            start += f.size
        return out

    def describe(self) -> str:
        """A plain-text table of the fields: offset, size, name and meaning."""
        lines = [f"{'offset':>6}  {'size':>4}  {'field':<24} meaning"]
        for f, (start, _stop) in zip(self.fields, self.offsets().values()):
            lines.append(f"{start:>6}  {f.size:>4}  {f.name:<24} {f.doc}")
        return "\n".join(lines)

    def vector(self) -> Vector:
        """An all-zero vector of this layout, to fill."""
        return Vector(self)


class Vector:
    """An observation vector being filled, field by field (every field starts at zero)."""

    def __init__(self, layout: Layout):
        self.layout = layout
        self.values = np.zeros(layout.size, dtype=np.float32)
        self._offsets = layout.offsets()

    def _block(self, name: str) -> np.ndarray:
        start, stop = self._offsets[name]
        return self.values[start:stop]

    def one_hot(self, name: str, index: int | None) -> None:
        """Set position ``index`` of the field to 1 (``None``: leave the field all zero)."""
        if index is not None:
            self._block(name)[index] = 1.0

    def choice(self, name: str, value: object, choices: Sequence[object]) -> None:
        """One-hot of ``value``'s position in ``choices`` (a value not among them leaves zeros)."""
        if value in choices:
            self.one_hot(name, list(choices).index(value))

    def count(self, name: str, indices: Iterable[int], at: int = 0) -> None:
        """Add 1 at ``at + i`` for every ``i`` in ``indices`` (a multiset as counts; a set as 0/1)."""
        block = self._block(name)
        for i in indices:
            block[at + i] += 1.0

    def put(self, name: str, numbers: Sequence[float] | float, at: int = 0) -> None:
        """Write ``numbers`` (or one number) into the field from position ``at``."""
        block = self._block(name)
        if isinstance(numbers, (int, float)):
            block[at] = float(numbers)
        else:
            block[at : at + len(numbers)] = np.asarray(numbers, dtype=np.float32)

    def done(self) -> np.ndarray:
        """The finished vector."""
        return self.values
