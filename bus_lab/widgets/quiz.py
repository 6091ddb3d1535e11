"""``AnswerBox``: a self-check question a student answers by typing, in JupyterLab or in Voilà.

The lessons' "Your turn" questions can be answered in code (``my_answer = …``), which the Voilà
app view hides. An answer box works in both: type the answer, press Enter or *Check*, and read the
verdict below it (a ``role="status"`` line, so a screen reader announces it).

Answers are read as a student writes them:

* numbers: ``28/51``, ``0.549``, ``55%`` or ``1 1/2`` are all numbers; a decimal close to an exact
  answer (within ``tolerance``) counts as right, and the verdict gives the exact value;
* words: compared without regard to case or surrounding spaces (``" More "`` is ``"more"``).

Example::

    from fractions import Fraction
    from bus_lab.widgets import AnswerBox

    box = AnswerBox(Fraction(28, 51), hint="count the cards that beat a 7", why="28 of 51 cards win.")
    box                      # in a notebook: the question's input, Check button and verdict line
    box.check("28/51")       # True, and the verdict line says so
"""
from __future__ import annotations

import re
from fractions import Fraction
from html import escape
from typing import Any

import ipywidgets as W

__all__ = ["AnswerBox", "read_number"]

_MIXED = re.compile(r"^\s*(-?\d+)\s+(\d+)\s*/\s*(\d+)\s*$")


def read_number(text: str) -> Fraction:
    """A number as a student types it, exactly: ``"28/51"``, ``"0.549"``, ``"55%"``, ``"1 1/2"``, ``"-3"``.

    Args:
        text (str): the typed answer.

    Returns:
        Fraction: the exact value (``"55%"`` is 11/20).

    Raises:
        ValueError: the text is not a number in one of these forms (the message says which forms).
    """
    raw = str(text).strip().replace(",", "").replace("−", "-")
    try:
        if raw.endswith("%"):
            return Fraction(raw[:-1].strip()) / 100
        mixed = _MIXED.match(raw)
        if mixed:
            whole, num, den = (int(g) for g in mixed.groups())
            sign = -1 if whole < 0 else 1
            return whole + sign * Fraction(num, den)
        return Fraction(raw.replace(" ", ""))
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"could not read {text!r} as a number: type a fraction like 3/7, a decimal like "
                         "0.25 or a percentage like 25%") from None


class AnswerBox:
    """A typed answer to a self-check question, checked against the true value.

    Args:
        truth (Fraction | int | float | str): the right answer. A number is compared as a number
            (exact, or within ``tolerance`` for a typed decimal); a string as a word or phrase
            (case and surrounding spaces ignored).
        hint (str): shown after a wrong answer (a nudge, not the answer).
        why (str): shown after a right answer (the reason); optional.
        tolerance (Fraction): how far a typed decimal may be from a numeric ``truth`` and still
            count as right (default 1/1000, in the units of the answer).
        placeholder (str): the greyed example in the empty input.
        description (str): the input's label.

    Raises:
        TypeError: ``truth`` is not a number or a string.

    Attributes:
        widget (VBox): what is displayed. answer (Text), check_button (Button), verdict (HTML),
        last_right (bool | None): the verdict of the last check, ``None`` before any.
    """

    def __init__(self, truth: Any, hint: str, *, why: str = "", tolerance: Fraction = Fraction(1, 1000),
                 placeholder: str | None = None, description: str = "Your answer"):
        if isinstance(truth, bool) or not isinstance(truth, (int, float, Fraction, str)):
            raise TypeError(f"truth must be a number or a string, not {type(truth).__name__}")
        self.truth = truth if isinstance(truth, str) else Fraction(truth)
        self.hint = hint
        self.why = why
        self.tolerance = Fraction(tolerance)
        self.last_right: bool | None = None
        if placeholder is None:
            placeholder = "a word" if isinstance(truth, str) else "a fraction like 3/7, a decimal or a %"
        self.answer = W.Text(value="", placeholder=placeholder, description=description,
                             tooltip="Type your answer, then press Enter or Check", continuous_update=False,
                             style={"description_width": "initial"}, layout=W.Layout(width="320px"))
        self.check_button = W.Button(description="Check", icon="check", layout=W.Layout(width="auto"),
                                     tooltip="Check the answer typed in the box")
        self.verdict = W.HTML("<div role='status'></div>")
        self.widget = W.VBox([W.HBox([self.answer, self.check_button]), self.verdict])
        self.check_button.on_click(lambda _b: self.check(self.answer.value))
        self.answer.observe(self._on_typed, names="value")

    def _on_typed(self, change: dict) -> None:
        """Enter in the box checks the answer; clearing the box clears the verdict."""
        if change["new"].strip():
            self.check(change["new"])
        else:
            self.verdict.value = "<div role='status'></div>"
            self.last_right = None

    def _repr_mimebundle_(self, **kwargs: Any):
        return self.widget._repr_mimebundle_(**kwargs)

    def is_right(self, text: str) -> bool:
        """Whether ``text`` is a right answer (no display).

        Raises:
            ValueError: a numeric question and ``text`` is not a number (see :func:`read_number`).
        """
        if isinstance(self.truth, str):
            return " ".join(str(text).split()).casefold() == " ".join(self.truth.split()).casefold()
        value = read_number(text)
        if value == self.truth:
            return True
        decimal = "." in str(text) or "%" in str(text)
        return decimal and abs(value - self.truth) <= self.tolerance

    def check(self, text: str) -> bool:
        """Check ``text`` and show the verdict under the box.

        Returns:
            bool: whether it is right (``False`` also for an empty or unreadable answer, whose
            verdict line says what to type).
        """
        if not str(text).strip():
            self._show("Type your answer in the box first.", "#0b3d66")
            self.last_right = False
            return False
        try:
            right = self.is_right(text)
        except ValueError as exc:
            message = str(exc)
            self._show(f"{message[:1].upper()}{message[1:]}.", "#8a2a00")
            self.last_right = False
            return False
        self.last_right = right
        if right:
            exact = "" if isinstance(self.truth, str) or read_number(text) == self.truth else \
                f" The exact value is {self.truth}."
            self._show(f"Right!{exact} {self.why}".strip(), "#1b5e20")
        else:
            self._show(f"Not quite. Hint: {self.hint}", "#8a2a00")
        return right

    def _show(self, text: str, colour: str) -> None:
        self.verdict.value = f"<div role='status' style='color:{colour}'>{escape(text, quote=False)}</div>"
