"""Formulas in the app view with no internet: a lesson opened in Voilà under the lab's server (the
``/voila/render/…`` path a Binder Voilà link uses) typesets its ``$…$`` maths with the MathJax bundled in
Voilà, never the CDN copy (binder/jupyter_server_config.py sets that up; the ``lab_server`` fixture uses it
as ``tasks.py lab`` and Binder do).

Every request to another host than the server is blocked and logged, as on a classroom network with
no internet; the formulas must still be rendered (``mjx-container`` elements) and no raw ``$$``,
``\\frac`` or ``\\(`` may be left in the text on the page.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, Route, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
LOCAL_HOSTS = ("127.0.0.1", "localhost")
FORMULA = re.compile(r"\$\$.+?\$\$|\$[^$\n]+\$", re.S)


def formula_count(path: Path) -> int:
    """How many ``$…$`` / ``$$…$$`` formulas the Markdown cells of a notebook hold."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return sum(len(FORMULA.findall("".join(c["source"]))) for c in cells if c["cell_type"] == "markdown")


def maths_lesson() -> str:
    """The lesson with the most formulas (path relative to notebooks/)."""
    lessons = sorted(p for p in NOTEBOOKS.glob("*/*.ipynb") if ".ipynb_checkpoints" not in p.parts)
    best = max(lessons, key=formula_count)
    assert formula_count(best) > 0, "no lesson has a formula to render"
    return best.relative_to(NOTEBOOKS).as_posix()


def test_a_lesson_in_voila_renders_its_formulas_with_no_internet(page: Page, lab_server) -> None:
    lesson = maths_lesson()
    blocked: list[str] = []

    def offline(route: Route) -> None:
        url = route.request.url
        parts = urlsplit(url)
        if parts.scheme in ("http", "https", "ws", "wss") and parts.hostname not in LOCAL_HOSTS:
            blocked.append(url)
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.route("**/*", offline)
    page.goto(lab_server.voila_url(lesson), wait_until="domcontentloaded", timeout=60_000)
    page.wait_for_load_state("load", timeout=180_000)  # Voilà streams the cells; "load" after the last
    body = page.locator("body")
    expect(body).not_to_contain_text("There was an error when executing cell", timeout=1_000)
    try:
        page.wait_for_function("document.querySelectorAll('mjx-container').length > 0", timeout=30_000)
    except PlaywrightTimeoutError:
        pytest.fail(f"{lesson}: no formula typeset in Voilà; outside requests blocked: {blocked}")
    rendered = page.locator("mjx-container").count()
    print(f"{lesson}: {rendered} formulas rendered; blocked outside requests: {blocked}")
    assert rendered >= formula_count(NOTEBOOKS / lesson), f"{lesson}: some formulas were not typeset"
    text = body.inner_text()
    for raw in ("$$", "\\frac", "\\("):
        assert raw not in text, f"{lesson}: raw {raw} left on the page in Voilà"
    assert not [url for url in blocked if "mathjax" in url.lower()], (
        f"Voilà asked a CDN for MathJax: {blocked}"
    )
