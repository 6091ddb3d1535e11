"""Links between notebooks: every relative link in a notebook's Markdown leads to a file that exists,
and the start page links every lesson and teacher guide."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
START = NOTEBOOKS / "00_start_here.ipynb"
#: [text](target) or [text](<target with spaces>) in Markdown, with an optional "title".
LINK = re.compile(r"\[[^\]]*\]\(\s*(?:<([^>]+)>|([^)\s]+))(?:\s+\"[^\"]*\")?\s*\)")


def notebooks() -> list[Path]:
    return sorted(p for p in NOTEBOOKS.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def relative_links(path: Path) -> list[str]:
    """The relative link targets (no scheme, no anchor-only links) in a notebook's Markdown cells."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    targets = []
    for cell in cells:
        if cell["cell_type"] != "markdown":
            continue
        for bracketed, bare in LINK.findall("".join(cell["source"])):
            target = bracketed or bare
            parts = urlsplit(target)
            if parts.scheme or parts.netloc or not parts.path:
                continue
            targets.append(unquote(parts.path))
    return targets


def test_the_link_reader_finds_relative_links_only(tmp_path):
    nb = tmp_path / "x.ipynb"
    source = (
        "[a](ride_the_bus/01_rules.ipynb) [b](<bus city/02 routes.ipynb>) [c](https://example.org/x.ipynb)"
        ' [d](#going-further) [e](../README.md#quick-start "title") [f](a%20b.ipynb)'
    )
    nb.write_text(json.dumps({"cells": [{"cell_type": "markdown", "source": [source]}]}), encoding="utf-8")
    assert relative_links(nb) == [
        "ride_the_bus/01_rules.ipynb",
        "bus city/02 routes.ipynb",
        "../README.md",
        "a b.ipynb",
    ]


@pytest.mark.parametrize("path", notebooks(), ids=lambda p: p.relative_to(NOTEBOOKS).as_posix())
def test_every_relative_link_leads_to_a_file(path):
    missing = [t for t in relative_links(path) if not (path.parent / t).resolve().exists()]
    assert missing == [], f"{path.relative_to(ROOT)} links to files that do not exist: {missing}"


def test_the_start_page_links_every_lesson():
    linked = {(START.parent / t).resolve() for t in relative_links(START)}
    lessons = [p for p in notebooks() if p != START]
    assert [p.relative_to(NOTEBOOKS).as_posix() for p in lessons if p.resolve() not in linked] == []
