"""``AnswerBox``: a self-check question a student answers by typing, in JupyterLab or in Voilà.

The lessons' "Your turn" questions can be answered in code (``my_answer = …``), which the Voilà
app view hides. An answer box works in both: type the answer, press Enter or *Check*, and read the
verdict below it (a ``role="status"`` line, so a screen reader announces it).

Answers are read as a student writes them:

* numbers: ``28/51``, ``0.549``, ``55%``, ``1 1/2`` or ``seat 2`` are all numbers; a fraction must be
  exact, and after a right decimal the verdict gives the exact value;
* decimals: right when within ``tolerance`` of the answer, or when they are the answer rounded to
  the decimals typed, with at least two significant digits (``0.69`` or ``69%`` for 9/13); a decimal
  within 5% is told it is close (check the rounding) instead of getting the hint;
* words: compared without regard to case, spaces or a leading "the"/"a" (``" More "`` is ``"more"``,
  ``"higher / lower"`` is ``"higher/lower"``, ``"the lowest"`` is ``"lowest"``); other right answers
  can be given with ``also``;
* yes or no: a ``True``/``False`` answer is typed ``yes``, ``no``, ``true``, ``false``, ``y`` or ``n``
  (any case, a full stop or exclamation mark after it is fine);
* several numbers (one per seat, say): typed with commas or spaces, ``3, 7``, ``3 7`` or ``[3, 7]``,
  each read as above (with commas, a number may hold a space: ``1 1/2, 3``).

Example::

    from fractions import Fraction
    from bus_lab.widgets import AnswerBox

    box = AnswerBox(Fraction(28, 51), hint="count the cards that beat a 7", why="28 of 51 cards win.")
    box                      # in a notebook: the question's input, Check button and verdict line
    box.check("28/51")       # True, and the verdict line says so
"""

from __future__ import annotations

import contextlib
import io
import math
import re
from fractions import Fraction
from html import escape
from typing import Any

import ipywidgets as W

__all__ = ["AnswerBox", "folded_output", "read_number"]

_MIXED = re.compile(r"^\s*(-?\d+)\s+(\d+)\s*/\s*(\d+)\s*$")
_LABELLED = re.compile(r"^[A-Za-z]+\s+(-?[\d.].*)$")
_ARTICLE = re.compile(r"^(the|a|an)\s+", re.IGNORECASE)
#: A typed decimal this close to the answer (relative) is "close": the verdict says so instead of a hint.
CLOSE = Fraction(1, 20)
_YES_NO = {"yes": True, "y": True, "true": True, "no": False, "n": False, "false": False}
#: What a yes/no box asks for (its placeholder and its message after an unreadable answer).
YES_NO_PROMPT = "yes or no (or true/false, y/n)"
_LIST_COMMAS = re.compile(r"\s*[,;]\s*")
_SLASH = re.compile(r"\s*/\s*")


def _plain(x: Any) -> Any:
    """A numpy scalar (``numpy.bool_``, ``numpy.int64``, ...) as the Python value it holds."""
    return x.item() if hasattr(x, "item") and callable(x.item) and getattr(x, "shape", None) == () else x


def _word(text: Any) -> str:
    """A typed word as compared: no spaces, no case, no leading "the", "a" or "an"."""
    return "".join(_ARTICLE.sub("", str(text).strip()).split()).casefold()


def _decimal_places(text: str) -> int | None:
    """How many decimal places a typed decimal or percentage gives, as a fraction of 1 (``"0.69"``
    and ``"69%"``: 2); ``None`` for a whole number or a fraction typed as such."""
    raw = str(text).strip()
    percent = raw.endswith("%")
    body = raw.rstrip("%").strip()
    if "/" in body or not (percent or "." in body):
        return None
    places = len(body.split(".", 1)[1]) if "." in body else 0
    return places + 2 if percent else places


def _parts(text: str) -> list[str]:
    """The numbers of a list answer as typed, separated by commas (or semicolons) or else by spaces:
    ``"[3, 7]"``, ``"3, 7"``, ``"3 7"`` and ``"3 and 7"`` give ``["3", "7"]``; ``"1 1/2, 3"`` gives
    ``["1 1/2", "3"]``; ``"1 / 2 3"`` gives ``["1/2", "3"]``."""
    body = str(text).strip().strip("[]()").strip()
    if not body:
        return []
    if _LIST_COMMAS.search(body):
        return [part for part in _LIST_COMMAS.split(body) if part]
    return [part for part in _SLASH.sub("/", body).split() if part.casefold() not in ("and", "&")]


def _read_as(parts: list[str]) -> str:
    """The parts of a list answer as read, for a message: ``4, 16``."""
    return ", ".join(parts) if parts else "nothing"


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float, Fraction)) and not isinstance(x, bool)


def read_number(text: str) -> Fraction:
    """A number as a student types it, exactly: ``"28/51"``, ``"0.549"``, ``"55%"``, ``"1 1/2"``, ``"-3"``,
    or after one word naming it (``"seat 2"``, ``"row 3"``).

    Args:
        text (str): the typed answer.

    Returns:
        Fraction: the exact value (``"55%"`` is 11/20).

    Raises:
        ValueError: the text is not a number in one of these forms (the message says which forms).
    """
    raw = str(text).strip().replace(",", "").replace("−", "-")
    labelled = _LABELLED.match(raw)
    if labelled:  # "seat 2", "row 3": the number after one leading word
        raw = labelled.group(1)
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
        raise ValueError(
            f"could not read {text!r} as a number: type it in digits, e.g. 3, a fraction like "
            "3/7, a decimal like 0.25 or a percentage like 25%"
        ) from None


class AnswerBox:
    """A typed answer to a self-check question, checked against the true value.

    Args:
        truth (Fraction | int | float | str | bool | Sequence[number]): the right answer. A number
            is compared as a number (exact, or within ``tolerance`` for a typed decimal); a string
            as a word or phrase (case and spaces ignored); a bool as yes/no
            (``yes``/``true``/``y`` or ``no``/``false``/``n``); a list or tuple of numbers (points per
            seat, say) number by number, typed separated by commas or spaces.
        hint (str): shown after a wrong answer (a nudge, not the answer).
        why (str): shown after a right answer (the reason); optional.
        tolerance (Fraction): how far a typed decimal may be from a numeric ``truth`` and still
            count as right (default 1/1000, in the units of the answer).
        placeholder (str): the greyed example in the empty input.
        description (str): the input's label.
        also (Iterable[str | number]): other answers that count as right (``("north",)`` when the truth
            is ``"N"``), compared the same way as the truth.

    Raises:
        TypeError: ``truth`` is not a number, a string, a bool or a non-empty list of numbers.

    Attributes:
        widget (VBox): what is displayed. answer (Text), check_button (Button), verdict (HTML),
        last_right (bool | None): the verdict of the last check, ``None`` before any.
    """

    def __init__(
        self,
        truth: Any,
        hint: str,
        *,
        why: str = "",
        tolerance: Fraction = Fraction(1, 1000),
        placeholder: str | None = None,
        description: str = "Your answer",
        also: Any = (),
    ):
        truth = _plain(truth)
        self.also = tuple(str(a) if isinstance(truth, str) else _plain(a) for a in also)
        if isinstance(truth, (list, tuple)):
            truth = [_plain(x) for x in truth]
            if not truth or not all(_is_number(x) for x in truth):
                raise TypeError(f"a list truth must hold one or more numbers, not {truth!r}")
            self.truth: Any = tuple(Fraction(x) for x in truth)
        elif isinstance(truth, (bool, str)):
            self.truth = truth
        elif _is_number(truth):
            self.truth = Fraction(truth)
        else:
            raise TypeError(
                f"truth must be a number, a string, a bool or a list of numbers, not {type(truth).__name__}"
            )
        self.hint = hint
        self.why = why
        self.tolerance = Fraction(tolerance)
        self.last_right: bool | None = None
        if placeholder is None:
            placeholder = (
                YES_NO_PROMPT
                if isinstance(truth, bool)
                else "a word"
                if isinstance(truth, str)
                else f"{len(self.truth)} numbers separated by commas or spaces"
                if isinstance(self.truth, tuple)
                else "a fraction like 3/7, a decimal or a %"
            )
        self.answer = W.Text(
            value="",
            placeholder=placeholder,
            description=description,
            tooltip="Type your answer, then press Enter or Check",
            continuous_update=False,
            style={"description_width": "initial"},
            layout=W.Layout(width="320px"),
        )
        self.check_button = W.Button(
            description="Check",
            icon="check",
            layout=W.Layout(width="auto"),
            tooltip="Check the answer typed in the box",
        )
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
            ValueError: a numeric question and ``text`` is not a number (see :func:`read_number`);
                a yes/no question and ``text`` is not yes, no, true, false, y or n; a list question
                and ``text`` does not hold as many numbers as the answer (the message says what
                was read).
        """
        if isinstance(self.truth, bool):
            word = str(text).strip().rstrip(".!").strip().casefold()
            if word not in _YES_NO:
                raise ValueError(f"could not read {text!r} as yes or no: type {YES_NO_PROMPT}")
            return _YES_NO[word] == self.truth
        if isinstance(self.truth, str):
            return _word(text) in {_word(w) for w in (self.truth, *self.also)}
        if isinstance(self.truth, tuple):
            parts = _parts(text)
            if len(parts) != len(self.truth):
                count = f"{len(parts)} number" + ("" if len(parts) == 1 else "s")
                raise ValueError(
                    f"type {len(self.truth)} numbers separated by commas or spaces "
                    f"(read {count}: {_read_as(parts)})"
                )
            return all(self._close(part, true) for part, true in zip(parts, self.truth))
        return any(self._close(text, Fraction(t)) for t in (self.truth, *self.also))

    def _close(self, text: str, truth: Fraction) -> bool:
        """One typed number against one true number: exact, or a decimal within ``tolerance``, or
        the true number rounded to the decimals typed (at least two significant digits)."""
        value = read_number(text)
        if value == truth:
            return True
        places = _decimal_places(text)
        if places is None:
            return False
        if abs(value - truth) <= self.tolerance:
            return True
        digits = re.sub(r"\D", "", str(text)).lstrip("0")
        scale = 10**places  # rounded half-up or half-to-even: either is a fair rounding
        half_up = Fraction(math.floor(truth * scale + Fraction(1, 2)), scale)
        return len(digits) >= 2 and value in (round(truth, places), half_up)

    def _nearly(self, text: str) -> bool:
        """A typed decimal within :data:`CLOSE` (5%) of a numeric answer, but not right."""
        if isinstance(self.truth, (bool, str, tuple)) or self.truth == 0 or _decimal_places(text) is None:
            return False
        return abs(read_number(text) - self.truth) <= CLOSE * abs(self.truth)

    def _exact_note(self, text: str) -> str:
        """After a right decimal answer, the exact value (empty when the answer was exact)."""
        if isinstance(self.truth, (bool, str)):
            return ""
        if isinstance(self.truth, tuple):
            typed = tuple(read_number(p) for p in _parts(text))
            return (
                ""
                if typed == self.truth
                else " The exact values are " + ", ".join(str(x) for x in self.truth) + "."
            )
        return "" if read_number(text) == self.truth else f" The exact value is {self.truth}."

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
            why = self.why[:1].upper() + self.why[1:]
            self._show(f"Right!{self._exact_note(text)} {why}".strip(), "#1b5e20")
        elif self._nearly(text):
            self._show(
                "Close, but not quite: your answer is within 5% of the right one. Check the rounding "
                "(or what the question asks to round to), or type the exact value as a fraction.",
                "#8a2a00",
            )
        else:
            self._show(f"Not quite. Hint: {self.hint}", "#8a2a00")
        return right

    def _show(self, text: str, colour: str) -> None:
        self.verdict.value = f"<div role='status' style='color:{colour}'>{escape(text, quote=False)}</div>"


@contextlib.contextmanager
def folded_output(summary: str = "Show the output (answer the question above first)"):
    """Print inside this block to show the text folded: a "Show …" line that opens it on a click.

    For output that would give away the answer of the question just above it (a table with the
    very chance asked): in JupyterLab and in the Voilà app view the student answers first, then
    opens it. The text is shown as it was printed, in a ``<pre>`` block under a ``<details>`` fold.

    Args:
        summary (str): the words of the line that opens the fold.

    Example::

        with folded_output("Show the table"):
            print(table)
    """
    from IPython.display import HTML, display

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        yield
    display(
        HTML(
            f"<details><summary>{escape(summary)}</summary>"
            f"<pre style='margin:4px 0'>{escape(buffer.getvalue(), quote=False)}</pre></details>"
        )
    )
