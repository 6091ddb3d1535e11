"""The app-view check of every notebook, run inside the notebook tests (nbval) at no extra cost.

nbval runs each notebook under ``notebooks/`` cell by cell in one kernel (one test item per code cell)
and keeps each cell's outputs. After a notebook's last cell, one more item, ``<notebook>::app view``,
puts those outputs back into the notebook and fails listing everything a student would see as raw
Python in the app view (Voilà): ``Fraction(…)``, dict and list reprs, object reprs, raw LaTeX, errors
(``tests/app_view.py``). Nothing is executed a second time.

Notebooks whose output is not formatted yet are listed below: their check is an expected failure, and a
strict one, so once a notebook is clean its check fails until its line is removed from the list.
"""

from __future__ import annotations

import copy
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
NOTEBOOKS = ROOT / "notebooks"

NOT_YET_CLEAN_REASON = "output not yet formatted"
#: Notebooks (paths from the repository root) whose app view still shows raw Python.
#: One line per notebook, e.g. "notebooks/ride_the_bus/02_guess_odds.ipynb"; empty when all are clean.
NOT_YET_CLEAN: list[str] = []


def _app_view_problems():
    spec = importlib.util.spec_from_file_location("bus_lab_app_view", ROOT / "tests" / "app_view.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.app_view_problems


class AppViewProblems(Exception):
    """Raw Python a student would see in a notebook's app view (one line per problem)."""


class AppViewItem(pytest.Item):
    """Checks the outputs nbval collected from a notebook's cells (see the module docstring)."""

    def __init__(self, *, cells: list[pytest.Item], **kwargs) -> None:
        super().__init__(**kwargs)
        self.cells = cells

    def runtest(self) -> None:
        not_run = [cell.name for cell in self.cells if cell.test_outputs is None]
        if not_run:
            pytest.skip(f"not every cell ran ({', '.join(not_run[:3])}…): no app view to check")
        nb = copy.deepcopy(self.parent.nb)
        code_cells = [cell for cell in nb.cells if cell.cell_type == "code"]
        for item in self.cells:
            code_cells[item.cell_num].outputs = list(item.test_outputs)
        problems = _app_view_problems()(nb)
        if problems:
            raise AppViewProblems("\n".join(problems))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, AppViewProblems):
            return f"{self.path.relative_to(ROOT)} shows raw Python in the app view:\n{excinfo.value}"
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.path, None, f"{self.path.name}::app view"


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]):
    """Add an ``app view`` item after the last cell of each notebook under notebooks/."""
    by_file: dict[pytest.Collector, list[pytest.Item]] = {}
    for item in items:
        if type(item).__name__ == "IPyNbCell" and Path(item.path).resolve().is_relative_to(NOTEBOOKS):
            by_file.setdefault(item.parent, []).append(item)
    for nb_file, cells in by_file.items():
        check = AppViewItem.from_parent(nb_file, name="app view", cells=cells)
        if Path(nb_file.path).resolve().relative_to(ROOT).as_posix() in NOT_YET_CLEAN:
            check.add_marker(pytest.mark.xfail(strict=True, reason=NOT_YET_CLEAN_REASON))
        items.insert(items.index(cells[-1]) + 1, check)
