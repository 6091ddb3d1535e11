"""The class table's HTML pages (bus_lab.table.pages): whole documents, no inline script (the
server's CSP is ``script-src 'self'``), every URL relative (the pages work behind a path prefix),
everything inserted escaped."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from bus_lab.table import pages

HOSTILE = '<script>alert("x")</script>"\'&'


class Collect(HTMLParser):
    """Tags with their attributes, and the text inside <script> elements."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.script_text: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = False

    def handle_data(self, data):
        if self._in_script and data.strip():
            self.script_text.append(data)


def parse(html: str) -> Collect:
    parser = Collect()
    parser.feed(html)
    return parser


ALL = [
    ("join", lambda: pages.join_page("ABCDE"), ""),
    ("seat", lambda: pages.seat_page("ABCDE"), "../"),
    ("watch", lambda: pages.watch_page("ABCDE"), "../"),
    ("host", lambda: pages.host_page("ABCDE"), "../"),
    ("unknown", lambda: pages.unknown_table_page("ABCDE"), "../"),
]


@pytest.mark.parametrize("name,render,root", ALL, ids=[a[0] for a in ALL])
def test_a_whole_document_with_one_module_and_relative_urls(name, render, root):
    html = render()
    assert html.startswith("<!doctype html>") and html.rstrip().endswith("</html>")
    doc = parse(html)
    body = [attrs for tag, attrs in doc.tags if tag == "body"]
    assert body and body[0]["data-page"] == name
    scripts = [attrs for tag, attrs in doc.tags if tag == "script"]
    assert scripts == [{"type": "module", "src": f"{root}static/table.js"}]
    assert doc.script_text == []  # no inline script
    assert not re.search(r"\son[a-z]+=", html)  # no inline event handler
    sheets = [a["href"] for t, a in doc.tags if t == "link" and a.get("rel") == "stylesheet"]
    assert sheets == [f"{root}static/board.css", f"{root}static/table.css"]
    icons = [a["href"] for t, a in doc.tags if t == "link" and a.get("rel") == "icon"]
    assert icons == [f"{root}static/icon.svg"]  # the tab's icon (no request for a missing favicon)
    for tag, attrs in doc.tags:
        for key in ("href", "src", "action"):
            value = attrs.get(key)
            if value is not None:
                assert not value.startswith(("/", "http:", "https:", "//")), (tag, key, value)
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert '<html lang="en">' in html


def test_the_join_page_fills_in_only_a_code():
    """``?code=`` fills in the code box; anything but the code's letters is dropped, so a link
    cannot put markup or other text into the page."""
    assert 'value="K7QRM"' in pages.join_page("k7qrm")
    html = pages.join_page(HOSTILE)
    assert "<script>alert" not in html and 'alert("x")' not in html
    code = re.search(r'id="tl-code" name="code" value="([^"]*)"', html).group(1)
    assert set(code) <= set(pages.ALPHABET)
    assert 'value=""' in pages.join_page(None)


@pytest.mark.parametrize(
    "render", [pages.seat_page, pages.watch_page, pages.host_page, pages.unknown_table_page]
)
def test_what_an_address_carries_is_escaped(render):
    html = render(HOSTILE)
    assert "<script>alert" not in html
    assert 'alert("x")' not in html
    assert len(parse(html).script_text) == 0


def test_the_unknown_table_page_links_back_to_the_join_page():
    html = pages.unknown_table_page("ZZ9ZZ")
    assert "No table with this code" in html
    assert 'href="../?code=ZZ9ZZ"' in html
    assert "ZZ9ZZ" in html


def test_the_projector_shows_the_address_and_its_qr_code():
    html = pages.watch_page("ABCDE", join_url="http://192.168.1.20:8765/")
    assert ">192.168.1.20:8765</b>" in html
    assert "<svg" in html and "tl-qr" in html
    assert "http://192.168.1.20:8765/?code=ABCDE" in html
    plain = pages.watch_page("ABCDE")
    assert "<svg" not in plain  # the page itself shows where it was reached
