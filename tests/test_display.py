"""Tables and sentences shown to students: exact cell texts, escaping, text/plain and the app-view check."""

from __future__ import annotations

from fractions import Fraction

import nbformat
import numpy as np
import pytest
from app_view import app_view_problems
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from bus_lab.display import (
    Markdown,
    Odds,
    Percent,
    Sentence,
    Table,
    cell_text,
    fraction_text,
    percent_text,
    show_markdown,
    show_sentence,
    show_table,
    table,
)

# ----------------------------------------------------------------------------- cells


@pytest.mark.parametrize(
    "value, text",
    [
        (Fraction(28, 51), "28/51"),
        (Fraction(4, 2), "2"),
        (Odds(Fraction(28, 51)), "28/51 (54.9%)"),
        (Percent(Fraction(1, 16)), "6.3%"),
        (True, "yes"),
        (False, "no"),
        (None, "—"),
        (3, "3"),
        (1234, "1234"),
        (100000, "100,000"),
        (np.int64(7), "7"),
        (2.0, "2"),
        (0.5490196, "0.549"),
        (3.14159, "3.14"),
        (1234.56, "1,234.6"),
        (np.float64(0.25), "0.25"),
        (float("nan"), "—"),
        ("<b>", "<b>"),
        (["red", "black"], "red, black"),
        ((Fraction(1, 2), True), "1/2, yes"),
    ],
)
def test_cells_are_formatted_for_people(value, text):
    assert cell_text(value) == text


@pytest.mark.parametrize("value", [{"red": 1}, {1, 2}])
def test_a_dict_or_set_in_a_cell_is_refused(value):
    with pytest.raises(TypeError, match="one value per cell"):
        cell_text(value)


def test_fraction_text_reuses_the_boards_odds_wording():
    assert fraction_text(Fraction(28, 51)) == "28/51 (54.9%)"
    assert fraction_text(Fraction(28, 51), percent=False) == "28/51"
    assert fraction_text(Fraction(1, 16)) == "1/16 (6.3%)"  # halves round up
    assert fraction_text(0) == "0 (impossible)"
    assert fraction_text(1) == "1 (certain)"
    assert fraction_text(0.25) == "1/4 (25.0%)"
    assert percent_text(Fraction(1, 3)) == "33.3%"
    assert percent_text(Fraction(-1, 8)) == "-12.5%"


@pytest.mark.parametrize("bad, error", [("1/2", TypeError), (True, TypeError), (float("inf"), ValueError)])
def test_fraction_text_refuses_non_numbers(bad, error):
    with pytest.raises(error):
        fraction_text(bad)


def test_a_chance_above_one_has_no_percentage():
    with pytest.raises(ValueError, match="between 0 and 1"):
        fraction_text(Fraction(3, 2))
    assert fraction_text(Fraction(3, 2), percent=False) == "3/2"


# ----------------------------------------------------------------------------- tables


def test_the_text_table_is_aligned_and_deterministic():
    t = table(
        [["red", Odds(Fraction(1, 2))], ["hearts", Odds(Fraction(13, 52))], ["joker", None]],
        ["Guess", "Chance"],
        "Question 1",
    )
    assert repr(t) == (
        "Question 1\n"
        "Guess        Chance\n"
        "------  -----------\n"
        "red     1/2 (50.0%)\n"
        "hearts  1/4 (25.0%)\n"
        "joker             —"
    )
    assert str(t) == repr(t)
    assert t.cells == [["red", "1/2 (50.0%)"], ["hearts", "1/4 (25.0%)"], ["joker", "—"]]


def test_the_html_table_escapes_text_and_aligns_numbers_right():
    t = table([{"Name": "<Ann & Bo>", "Score": 3}], ["Name", "Score"], caption="Scores <1>")
    markup = t._repr_html_()
    assert "<caption" in markup and "Scores &lt;1&gt;</caption>" in markup
    assert '<th scope="col" style="text-align:left">Name</th>' in markup
    assert '<td style="text-align:left">&lt;Ann &amp; Bo&gt;</td>' in markup
    assert '<td style="text-align:right">3</td>' in markup
    assert "<Ann" not in markup


def test_dict_rows_fill_missing_columns_with_a_dash():
    t = table([{"a": 1}], ["a", "b"])
    assert t.cells == [["1", "—"]]


def test_alignment_can_be_given_as_letters_or_words():
    assert table([[1, 2]], ["a", "b"], align="lc").align == ["left", "center"]
    assert table([[1, 2]], ["a", "b"], align=["Right", "left"]).align == ["right", "left"]
    assert repr(table([["x"]], ["wide"], align="c")).splitlines()[-1] == " x"


@pytest.mark.parametrize(
    "rows, columns, kwargs, error, message",
    [
        ([[1]], ["a", "b"], {}, ValueError, "row 0 has 1 cells for 2 columns"),
        ([{"c": 1}], ["a"], {}, ValueError, "not columns"),
        ([1], ["a"], {}, TypeError, "row 0"),
        ("ab", ["a"], {}, TypeError, "rows must be"),
        ([[1]], "a", {}, TypeError, "columns"),
        ([], [], {}, ValueError, "at least one column"),
        ([[1]], ["a"], {"align": "lr"}, ValueError, "2 alignments for 1 columns"),
        ([[1]], ["a"], {"align": "x"}, ValueError, "unknown alignment"),
        ([[{"k": 1}]], ["a"], {}, TypeError, "one value per cell"),
    ],
)
def test_badly_shaped_tables_say_what_is_wrong(rows, columns, kwargs, error, message):
    with pytest.raises(error, match=message):
        Table(rows, columns, **kwargs)


def test_show_functions_display_one_rich_output_each(monkeypatch):
    shown = []
    monkeypatch.setattr("bus_lab.display._display", shown.append)
    assert show_table([[Fraction(1, 2)]], ["p"]) is None
    show_sentence("Red wins <sometimes>.")
    show_markdown("The chance is $\\frac{1}{2}$.")
    table_, sentence, markdown = shown
    assert isinstance(table_, Table) and table_.cells == [["1/2"]]
    assert isinstance(sentence, Sentence) and repr(sentence) == "Red wins <sometimes>."
    assert sentence._repr_html_() == "<p>Red wins &lt;sometimes&gt;.</p>"
    assert isinstance(markdown, Markdown) and markdown._repr_markdown_() == "The chance is $\\frac{1}{2}$."


def test_in_a_kernel_a_table_is_one_display_with_html_and_the_text_table(tmp_path):
    from nbclient import NotebookClient

    nb = new_notebook(
        cells=[
            new_code_cell(
                "from fractions import Fraction\n"
                "from bus_lab.display import show_table, Odds\n"
                "show_table([['red', Odds(Fraction(1, 2))]], ['Guess', 'Chance'])"
            )
        ]
    )
    NotebookClient(
        nb, timeout=60, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    outputs = nb.cells[0].outputs
    assert [o.output_type for o in outputs] == ["display_data"]
    assert outputs[0].data["text/plain"] == "Guess       Chance\n-----  -----------\nred    1/2 (50.0%)"
    assert "<table" in outputs[0].data["text/html"]
    assert app_view_problems(nb) == []


# ----------------------------------------------------------------------------- app view check


def _nb(*outputs, cell_type="code", source=""):
    nb = new_notebook()
    nb.cells.append(new_markdown_cell("# Title with $$x$$ and \\frac{1}{2}: rendered, not checked"))
    cell = new_code_cell(source)
    cell.outputs = list(outputs)
    nb.cells.append(cell)
    return nbformat.from_dict(nb)


def _result(**data):
    return new_output("execute_result", data=data, execution_count=1)


def test_a_clean_notebook_has_no_problems():
    nb = _nb(
        new_output("stream", name="stdout", text="Red came up 26 times in 50 games.\n"),
        _result(**{"text/plain": "Guess  Chance", "text/html": "<table><tr><td>1/2</td></tr></table>"}),
        new_output(
            "display_data",
            data={
                "text/plain": "HBox(children=(Button(...)))",
                "application/vnd.jupyter.widget-view+json": {},
            },
        ),
    )
    assert app_view_problems(nb) == []


@pytest.mark.parametrize(
    "output, what",
    [
        (
            new_output("stream", name="stdout", text="table: {'red': Fraction(1, 2)}\n"),
            "Fraction repr in stdout text",
        ),
        (new_output("stream", name="stdout", text="table: {'red': 1}\n"), "dict repr in stdout text"),
        (new_output("stream", name="stdout", text='{"red" : 1}'), "dict repr"),
        (_result(**{"text/plain": "['red — 1/2 (50.0%)', 'black']"}), "list repr of strings in text"),
        (
            _result(**{"text/plain": "<bus_lab.games.x.State object at 0x7f00aa>"}),
            "Python object repr in text",
        ),
        (_result(**{"text/plain": "$$p = \\frac{1}{2}$$"}), "raw LaTeX $$ in text"),
        (new_output("stream", name="stderr", text="p = \\frac{1}{2}"), "raw LaTeX \\frac in stderr text"),
        (new_output("stream", name="stdout", text="\\(x\\)"), "raw LaTeX \\( in stdout text"),
        (_result(**{"text/html": "<p>{&#x27;red&#x27;: 1}</p>", "text/plain": "x"}), "dict repr in HTML"),
        (
            _result(**{"text/html": "<td><bus_lab.Thing object at 0x1f></td>"}),
            "Python object repr in HTML source",
        ),
        (_result(**{"text/markdown": "Fraction(1, 2)", "text/plain": "x"}), "Fraction repr in Markdown"),
        (
            new_output("error", ename="ValueError", evalue="bad", traceback=[]),
            "error output: ValueError: bad",
        ),
    ],
)
def test_each_raw_python_output_is_reported_with_its_cell_and_a_snippet(output, what):
    problems = app_view_problems(_nb(output))
    assert problems, "expected a problem"
    assert all(p.startswith("cell 1: ") for p in problems)
    assert any(what in p for p in problems), problems


def test_plain_text_hidden_behind_a_richer_view_is_not_reported():
    nb = _nb(_result(**{"text/plain": "{'red': Fraction(1, 2)}", "text/html": "<b>red: 1/2</b>"}))
    assert app_view_problems(nb) == []


def test_scripts_and_styles_inside_html_are_not_text():
    nb = _nb(
        _result(**{"text/html": '<script>var x = {"a": 1}; y = ["b"]</script><style>a{}</style><p>ok</p>'})
    )
    assert app_view_problems(nb) == []


def test_the_snippet_shows_the_neighbourhood_of_the_problem():
    long = "x" * 100 + " table: {'red': 1} " + "y" * 100
    (problem,) = app_view_problems(_nb(new_output("stream", name="stdout", text=long)))
    assert problem.startswith("cell 1: dict repr in stdout text: …")
    assert "table: {'red': 1}" in problem and problem.endswith("…")
    assert len(problem) < 120


def test_every_problem_in_every_cell_is_listed():
    nb = _nb(new_output("stream", name="stdout", text="['a'] and Fraction(1, 2)"))
    nb.cells.append(nbformat.from_dict(new_code_cell("")))
    nb.cells[-1].outputs = [new_output("stream", name="stdout", text="{'k': 2}")]
    problems = app_view_problems(nb)
    assert [p.split(":")[0] for p in problems] == ["cell 1", "cell 1", "cell 2"]
