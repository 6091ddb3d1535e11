"""Self-check answer boxes: answers read as students write them, verdicts shown in words."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bus_lab.widgets import AnswerBox
from bus_lab.widgets.quiz import read_number


@pytest.mark.parametrize(
    "text, value",
    [
        ("28/51", Fraction(28, 51)),
        (" 0.5 ", Fraction(1, 2)),
        ("55%", Fraction(11, 20)),
        ("1 1/2", Fraction(3, 2)),
        ("-1 1/2", Fraction(-3, 2)),
        ("−3", Fraction(-3)),
        ("1,000", Fraction(1000)),
        ("3 / 4", Fraction(3, 4)),
    ],
)
def test_numbers_are_read_as_students_write_them(text, value):
    assert read_number(text) == value


@pytest.mark.parametrize("text", ["abc", "1/0", "", "5 %%"])
def test_unreadable_numbers_say_what_to_type(text):
    with pytest.raises(ValueError, match="a fraction like 3/7"):
        read_number(text)


@given(st.fractions(min_value=-10, max_value=10))
def test_a_fraction_written_out_is_read_back_exactly(value):
    assert read_number(f"{value.numerator}/{value.denominator}") == value


def test_exact_and_close_decimal_answers_are_right_and_the_exact_value_is_given():
    box = AnswerBox(Fraction(28, 51), hint="count the cards above a 7", why="28 of the 51 cards win.")
    assert box.check("28/51") and "Right! 28 of the 51 cards win." in box.verdict.value
    assert box.check("0.549") and "The exact value is 28/51." in box.verdict.value
    assert box.check("54.9%")
    assert not box.check("0.6") and "Not quite. Hint: count the cards above a 7" in box.verdict.value
    assert not box.check("29/51")  # an exact answer must be exact
    assert box.last_right is False
    assert "role='status'" in box.verdict.value


def test_words_ignore_case_and_spaces_and_bad_input_is_explained():
    box = AnswerBox("more", hint="compare the two averages")
    assert box.check("  More ") and box.check("MORE")
    assert AnswerBox("higher/lower", hint="").check("Higher / Lower")  # spaces never matter
    assert not box.check("less") and "Hint: compare the two averages" in box.verdict.value
    numeric = AnswerBox(4, hint="count them")
    assert not numeric.check("four") and "Could not read 'four' as a number" in numeric.verdict.value
    assert not numeric.check("  ") and "Type your answer" in numeric.verdict.value
    assert numeric.check("4") and not numeric.check("4.002") and numeric.check("4.0")


def test_typing_and_enter_or_the_button_check_the_answer():
    box = AnswerBox(Fraction(1, 2), hint="half the deck is red")
    box.answer.value = "1/2"  # Enter in the box sends the value
    assert box.last_right is True
    box.answer.value = "1/3"
    box.check_button.click()
    assert box.last_right is False and "Not quite" in box.verdict.value
    box.answer.value = ""  # clearing the box clears the verdict
    assert box.last_right is None and "Not quite" not in box.verdict.value
    assert "3/7" in box.answer.placeholder
    assert box.check_button.description == "Check" and box.check_button.tooltip
    assert box.answer.description and box.answer.tooltip


def test_yes_no_questions_take_yes_no_true_or_false_in_any_case():
    import numpy as np

    box = AnswerBox(np.bool_(True), hint="compare the two shares")  # a numpy bool is a bool
    assert box.truth is True and box.answer.placeholder == "yes or no (or true/false, y/n)"
    assert box.check("Yes") and box.check(" TRUE ") and box.check("y") and box.check("Yes.")
    assert box.check("True!") and box.check("Y")
    assert not box.check("no") and "Hint: compare the two shares" in box.verdict.value
    assert not box.check("maybe") and (
        "Could not read 'maybe' as yes or no: type yes or no (or true/false, y/n)." in box.verdict.value
    )
    false = AnswerBox(False, hint="")
    assert false.check("false") and false.check("N") and false.check("no.") and not false.check("t rue")


def test_several_numbers_are_typed_with_commas_and_checked_one_by_one():
    import numpy as np

    box = AnswerBox([3, np.int64(7)], hint="points go to the guesser when wrong", why="seat 1 took 7 points.")
    assert box.truth == (Fraction(3), Fraction(7))
    assert box.answer.placeholder == "2 numbers separated by commas or spaces"
    assert box.check("3, 7") and box.check("[3,7]") and "Right! Seat 1 took 7 points." in box.verdict.value
    assert box.check("3 7") and box.check("  3   7 ") and box.check("3 and 7") and box.check("3; 7")
    assert not box.check("7, 3") and "Not quite" in box.verdict.value
    assert not box.check("3") and (
        "Type 2 numbers separated by commas or spaces (read 1 number: 3)." in box.verdict.value
    )
    assert not box.check("3 7 9") and "(read 3 numbers: 3, 7, 9)" in box.verdict.value
    close = AnswerBox((Fraction(1, 3), 0), hint="")
    assert close.check("0.333, 0") and "The exact values are 1/3, 0." in close.verdict.value
    assert not close.check("0.34, 0")


def test_a_list_of_numbers_typed_with_spaces_is_read_number_by_number():
    """Typing ``4 16`` for two numbers reads 4 and 16 (it was once read as one answer)."""
    box = AnswerBox([4, 16], hint="")
    assert box.check("4 16") and box.last_right is True
    assert box.check("4,16") and box.check("(4, 16)")
    halves = AnswerBox([Fraction(3, 2), Fraction(1, 2)], hint="")
    assert halves.check("1 1/2, 1/2")  # with commas a mixed number keeps its space
    assert halves.check("3/2 1 / 2")  # spaces around a fraction's slash are not separators
    thirds = AnswerBox([Fraction(1, 3), Fraction(1, 2)], hint="")
    assert thirds.check("0.333 0.5") and "The exact values are 1/3, 1/2." in thirds.verdict.value
    assert not halves.check("1.5 x") and "Could not read 'x' as a number" in halves.verdict.value
    assert not box.check("[]") and "(read 0 numbers: nothing)" in box.verdict.value


@pytest.mark.parametrize("truth", [None, [], ["a", 1], {"x": 1}, object()])
def test_a_truth_that_cannot_be_checked_is_refused(truth):
    with pytest.raises(TypeError, match="truth must|a list truth"):
        AnswerBox(truth, hint="")


# -- the lessons use answer boxes --------------------------------------------------------------------
def test_every_your_turn_question_in_the_lessons_is_answered_in_a_box():
    """Every "### Your turn" question of every lesson is followed by an AnswerBox (so it can be
    answered in the Voilà app view, where code is hidden); no lesson asks for an answer in code
    (``my_answer = None`` and a ``check`` helper)."""
    import json
    import re
    from pathlib import Path

    lessons = sorted((Path(__file__).resolve().parents[1] / "notebooks").rglob("*.ipynb"))
    questions = boxed = 0
    in_code = []
    for path in lessons:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for index, cell in enumerate(cells):
            source = "".join(cell["source"])
            if cell["cell_type"] == "code" and re.search(r"^def check\(|^my_\w+ = None", source, re.M):
                in_code.append(f"{path.name} cell {index}")
            if cell["cell_type"] == "markdown" and re.search(r"^### Your turn", source, re.M):
                questions += 1
                later = [c for c in cells[index + 1 :] if c["cell_type"] == "code"]
                follows = [c for c in later if "AnswerBox(" in "".join(c["source"])]
                if follows and later.index(follows[0]) <= 4:
                    boxed += 1
                else:
                    in_code.append(f"{path.name} cell {index}: a question without an answer box")
    assert questions >= 45 and not in_code, in_code
    assert boxed == questions


def test_a_decimal_rounded_as_typed_is_right_and_a_near_miss_is_told_it_is_close():
    """0.69 and 69% are 9/13 rounded to two places: right, with the exact value. One significant
    digit is not enough, and a decimal within 5% gets "close" (check the rounding), not the hint
    that suggests a wrong method."""
    box = AnswerBox(Fraction(9, 13), hint="count the ranks above a 5")
    for typed in ("0.69", "69%", "0.692", "69.2%", ".692"):
        assert box.check(typed) and "The exact value is 9/13." in box.verdict.value, typed
    for typed in ("0.7", "0.68", "70%"):
        assert (
            not box.check(typed)
            and "Close, but not quite" in box.verdict.value
            and "Hint" not in box.verdict.value
        ), typed
    assert not box.check("0.6") and "Hint: count the ranks above a 5" in box.verdict.value
    assert not box.check("9/14") and "Hint" in box.verdict.value  # a fraction must be exact
    eighth = AnswerBox(Fraction(1, 8), hint="")
    assert eighth.check("0.13") and eighth.check("0.12") and eighth.check("12.5%")  # a half rounds either way
    whole = AnswerBox(16, hint="about one try in six succeeds")
    assert not whole.check("16.4") and "Close" in whole.verdict.value and whole.check("16")


def test_other_right_answers_a_leading_article_and_a_labelled_number_count():
    heading = AnswerBox("N", hint="drive on the right", also=("north",))
    assert heading.check("n") and heading.check("North") and not heading.check("south")
    assert AnswerBox("lowest", hint="").check("the lowest") and AnswerBox("streak 7", hint="").check(
        "Streak7"
    )
    seat = AnswerBox(2, hint="most cards first")
    assert seat.check("seat 2") and seat.check("Seat 2") and not seat.check("seat 1")
    assert read_number("row 3") == 3 and read_number("seat -1/2") == Fraction(-1, 2)
    with pytest.raises(ValueError, match="a fraction like 3/7"):
        read_number("two seats")
    assert AnswerBox(Fraction(1, 2), hint="", also=(Fraction(1, 3),)).check("1/3")


def test_folded_output_shows_printed_text_under_a_closed_fold(monkeypatch):
    """What is printed inside ``folded_output`` is displayed once, escaped, in a closed
    ``<details>`` under the given summary; nothing reaches the page unfolded."""
    import contextlib
    import io

    import IPython.display

    from bus_lab.widgets import folded_output

    shown = []
    monkeypatch.setattr(IPython.display, "display", lambda obj: shown.append(obj))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        with folded_output("Show the table"):
            print("9  lower  28/51 <best>")
    assert out.getvalue() == ""
    assert len(shown) == 1
    html = shown[0].data
    assert html.startswith("<details><summary>Show the table</summary>") and "<details open" not in html
    assert "9  lower  28/51 &lt;best&gt;\n</pre>" in html
