"""The Ride the Bus lessons keep a one-period core path: short prose before "Going further", the rhythm
predict → play → count → check, rule IDs in small print rather than in the running prose, and a teacher
guide that lists every lesson."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

FOLDER = Path(__file__).resolve().parents[1] / "notebooks" / "ride_the_bus"
LESSONS = ["01_rules", "02_guess_odds", "03_pyramid", "04_getting_off_the_bus", "05_gauntlet_and_variants"]
#: Words of markdown a 45–50 minute core path may hold (before the "Going further" heading).
CORE_WORDS = 1000
RULE_ID = re.compile(r"\bRTB-[A-Z0-9]+(?:-[A-Z0-9]+)*")
SMALL_PRINT = re.compile(r"<small>Rules:[^<]*</small>")


def cells(name: str) -> list[dict]:
    return json.loads((FOLDER / f"{name}.ipynb").read_text(encoding="utf-8"))["cells"]


def core_path(name: str) -> list[dict]:
    """The cells before the "## Going further" heading."""
    found = cells(name)
    for index, cell in enumerate(found):
        if cell["cell_type"] == "markdown" and re.search(r"^## Going further", "".join(cell["source"]), re.M):
            return found[:index]
    raise AssertionError(f"{name} has no '## Going further' heading")


@pytest.mark.parametrize("name", LESSONS)
def test_the_core_path_is_short_and_follows_predict_play_count_check(name):
    core = core_path(name)
    markdown = "\n".join("".join(c["source"]) for c in core if c["cell_type"] == "markdown")
    assert len(markdown.split()) < CORE_WORDS
    headings = re.findall(r"^## \d+\. (\w+)", markdown, re.M)
    for step in ("Predict", "Play", "Count", "Check"):
        assert step in headings, f"{name}: no '{step}' section in the core path"
    assert (
        headings.index("Predict") < headings.index("Play") < headings.index("Count") < headings.index("Check")
    )
    code = "\n".join("".join(c["source"]) for c in core if c["cell_type"] == "code")
    assert "RideTheBusWidget(" in code and "AnswerBox(" in code and "show_table(" in code


@pytest.mark.parametrize("name", LESSONS)
def test_rule_ids_are_cited_in_small_print_not_in_the_prose(name):
    for index, cell in enumerate(cells(name)):
        if cell["cell_type"] != "markdown":
            continue
        prose = SMALL_PRINT.sub("", "".join(cell["source"]))
        assert not RULE_ID.search(prose), f"{name} cell {index}: a rule ID in the running prose"


def test_the_teacher_guide_lists_and_links_every_lesson():
    guide = "\n".join("".join(c["source"]) for c in cells("00_teacher_guide") if c["cell_type"] == "markdown")
    for name in LESSONS:
        assert f"]({name}.ipynb)" in guide, name
    assert "06_why_websites_disagree" in guide
    for heading in ("Objectives", "Timings", "Misconceptions", "Answers to the self-checks"):
        assert guide.count(heading) >= len(LESSONS), heading
