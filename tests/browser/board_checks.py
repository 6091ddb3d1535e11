"""Accessibility checks of a drawn board, shared by the Jupyter tests and the per-game board tests.

* :func:`axe_violations` runs axe-core (the copy shipped in the ``axe_playwright_python`` package,
  nothing is fetched) with the WCAG 2.0/2.1 A and AA rules on the board roots of a page, and
  :func:`assert_no_serious_axe` fails on any ``serious`` or ``critical`` violation, naming the
  rule, the elements and axe's own summary of what is wrong.
* :func:`svg_text_contrast` computes, in the page, the contrast of every visible ``<text>`` of the
  boards' SVG against what is painted under its centre (WCAG 2 relative luminance: ratio
  ``(L1 + 0.05) / (L2 + 0.05)``), and :func:`assert_svg_text_contrast` fails below 4.5:1 (WCAG 1.4.3,
  normal text), reporting the text, its colour and the background colour.

Example::

    from board_checks import assert_no_serious_axe, assert_svg_text_contrast
    assert_no_serious_axe(page, "before the first move")
    assert_svg_text_contrast(page)
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

#: The WCAG levels checked by axe (A and AA of 2.0 and 2.1).
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
#: Violations of these impacts fail a test.
FAILING_IMPACTS = ("serious", "critical")
#: WCAG 1.4.3 minimum contrast for normal text.
MIN_CONTRAST = 4.5
#: What the checks look at: every board root on the page (the lab's own output around it is not ours).
ROOT_SELECTOR = ".bl-root"


@cache
def axe_source() -> str:
    """The text of ``axe.min.js`` shipped in the installed ``axe_playwright_python`` package.

    Raises:
        ImportError: the package is not installed (it is in the test pins).
        FileNotFoundError: the package has no ``axe.min.js``.
    """
    import axe_playwright_python

    return (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text(encoding="utf-8")


def inject_axe(page: Any) -> None:
    """Define ``window.axe`` in ``page`` (once); a page loader's AMD ``define`` is hidden from it so
    it always becomes a global."""
    if page.evaluate("() => typeof window.axe !== 'undefined' && typeof window.axe.run === 'function'"):
        return
    page.evaluate(
        "(function (define, module, exports) {\n"
        + axe_source()
        + "\n}).call(window, undefined, undefined, undefined)"
    )
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        raise RuntimeError("axe-core did not load in the page")


AXE_RUN_JS = """async ([selector, tags]) => {
  const roots = document.querySelectorAll(selector);
  if (!roots.length) return {roots: 0, violations: []};
  const result = await window.axe.run({include: [[selector]]},
    {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
  return {roots: roots.length, violations: result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({target: n.target.join(' '), html: n.html.slice(0, 160),
                              summary: (n.failureSummary || '').replace(/\\s+/g, ' ').slice(0, 300),
                              impact: n.impact}))}))};
}"""


def axe_violations(page: Any, selector: str = ROOT_SELECTOR) -> list[dict[str, Any]]:
    """axe-core's WCAG 2.0/2.1 A and AA violations inside the elements matching ``selector``.

    Args:
        page: a Playwright ``Page``.
        selector (str): CSS selector of the parts checked (default: every board root).

    Returns:
        list[dict]: ``id``, ``impact``, ``help`` and ``nodes`` (``target``, ``html``, ``summary``).

    Raises:
        AssertionError: nothing on the page matches ``selector`` (a check of nothing cannot pass).
    """
    inject_axe(page)
    result = page.evaluate(AXE_RUN_JS, [selector, AXE_TAGS])
    assert result["roots"], f"no {selector} on the page to check with axe"
    return result["violations"]


def describe_violations(violations: list[dict[str, Any]]) -> str:
    """One paragraph per violation: rule, impact, help text and up to five offending elements."""
    lines = []
    for v in violations:
        lines.append(f"- {v['id']} ({v['impact']}): {v['help']}")
        for node in v["nodes"][:5]:
            lines.append(f"    {node['target']}: {node['summary']}\n      {node['html']}")
        if len(v["nodes"]) > 5:
            lines.append(f"    … and {len(v['nodes']) - 5} more elements")
    return "\n".join(lines)


def assert_no_serious_axe(page: Any, when: str = "", selector: str = ROOT_SELECTOR) -> list[dict[str, Any]]:
    """Fail when axe finds a ``serious`` or ``critical`` WCAG A/AA violation in the boards.

    Args:
        page: a Playwright ``Page``.
        when (str): words for the failure message (e.g. ``"JupyterLab, after 3 moves"``).
        selector (str): the parts checked.

    Returns:
        list[dict]: every violation found (the minor and moderate ones too), for printing.
    """
    violations = axe_violations(page, selector)
    bad = [v for v in violations if v["impact"] in FAILING_IMPACTS]
    assert not bad, f"axe: serious or critical WCAG A/AA violations {when}:\n{describe_violations(bad)}"
    return violations


CONTRAST_JS = """(selector) => {
  // WCAG 2 relative luminance of an sRGB colour {r, g, b} (0-255).
  const lin = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); };
  const lum = (c) => 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
  const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  const parse = (text) => {
    const m = /rgba?\\(([^)]*)\\)/.exec(text || '');
    if (!m) return null;
    const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(parseFloat);
    return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1};
  };
  const over = (top, under) => ({r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a),
                                b: top.b * top.a + under.b * (1 - top.a), a: 1});
  const hex = (c) => '#' + [c.r, c.g, c.b].map(v => Math.round(v).toString(16).padStart(2, '0')).join('');
  // The opacity an element is painted with: its own and every ancestor's, up to the svg.
  const opacity = (el) => { let o = 1; for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
    const cs = getComputedStyle(e); o *= parseFloat(cs.opacity || '1'); if (e.tagName.toLowerCase() === 'svg') break; } return o; };
  const SHAPES = new Set(['rect', 'circle', 'ellipse', 'path', 'polygon', 'polyline', 'line', 'image', 'use']);
  // The colour painted under a point: shapes with a fill (alpha-blended), then HTML backgrounds, then the page.
  const background = (x, y, text) => {
    const layers = [];
    for (const el of document.elementsFromPoint(x, y)) {
      if (el === text || text.contains(el)) continue;
      const tag = el.tagName.toLowerCase();
      let c = null;
      if (el instanceof SVGElement && SHAPES.has(tag)) {
        const cs = getComputedStyle(el);
        if (cs.fill && cs.fill !== 'none' && !cs.fill.startsWith('url')) {
          c = parse(cs.fill);
          if (c) c.a *= parseFloat(cs.fillOpacity || '1') * opacity(el);
        }
      } else if (!(el instanceof SVGElement)) {
        c = parse(getComputedStyle(el).backgroundColor);
      }
      if (c && c.a > 0) { layers.push({c, el: tag + (el.getAttribute('class') ? '.' + el.getAttribute('class').split(' ')[0] : '')}); if (c.a >= 1) break; }
    }
    let bg = {r: 255, g: 255, b: 255, a: 1};
    if (!layers.length || layers[layers.length - 1].c.a < 1) {
      const page = parse(getComputedStyle(document.body).backgroundColor);
      if (page && page.a > 0) bg = over(page, bg);
    }
    for (let i = layers.length - 1; i >= 0; i--) bg = over(layers[i].c, bg);
    return {bg, under: layers.length ? layers[0].el : 'page'};
  };
  const style = document.createElement('style');
  style.textContent = selector + ' svg * { pointer-events: visiblePainted !important; }';
  document.head.append(style);
  const out = [];
  try {
    for (const text of document.querySelectorAll(selector + ' .bl-board svg text')) {
      const content = (text.textContent || '').trim();
      if (!content) continue;
      const cs = getComputedStyle(text);
      if (cs.display === 'none' || cs.visibility !== 'visible') continue;
      let box = text.getBoundingClientRect();
      if (box.width < 1 || box.height < 1) continue;
      let x = box.left + box.width / 2, y = box.top + box.height / 2;
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) {
        text.scrollIntoView({block: 'center', inline: 'center'});
        box = text.getBoundingClientRect();
        x = box.left + box.width / 2; y = box.top + box.height / 2;
      }
      const fill = parse(cs.fill);
      if (!fill) continue;  // no fill (an outline only): nothing to measure
      const alpha = opacity(text) * parseFloat(cs.fillOpacity || '1') * fill.a;
      if (alpha <= 0) continue;
      const {bg, under} = background(x, y, text);
      const fg = over({...fill, a: alpha}, bg);
      out.push({text: content.slice(0, 40), fill: hex(fill), alpha: Math.round(alpha * 100) / 100,
                background: hex(bg), under, ratio: Math.round(ratio(fg, bg) * 100) / 100,
                size: Math.round(box.height * 10) / 10});
    }
  } finally { style.remove(); }
  return out;
}"""


def svg_text_contrast(page: Any, selector: str = ROOT_SELECTOR) -> list[dict[str, Any]]:
    """Every visible SVG ``<text>`` in the boards with its contrast against what lies under its centre.

    The background is the first painted thing under the text's centre (``document.elementsFromPoint``):
    an SVG shape with a fill other than ``none`` (alpha-blended with its fill-opacity and opacity,
    and with what lies under it when not opaque), an HTML background colour, else the page's.

    Args:
        page: a Playwright ``Page``.
        selector (str): the board roots looked into.

    Returns:
        list[dict]: per text ``text``, ``fill`` and ``background`` (``#rrggbb``), ``alpha``,
        ``under`` (the element giving the background), ``ratio`` (WCAG, 1–21) and ``size`` (px).
    """
    return page.evaluate(CONTRAST_JS, selector)


def assert_svg_text_contrast(
    page: Any, when: str = "", selector: str = ROOT_SELECTOR
) -> list[dict[str, Any]]:
    """Fail when a visible SVG text of a board has a contrast below 4.5:1 (WCAG 1.4.3).

    Returns:
        list[dict]: every text measured (see :func:`svg_text_contrast`).
    """
    measured = svg_text_contrast(page, selector)
    low = [m for m in measured if m["ratio"] < MIN_CONTRAST]
    assert not low, f"SVG text below {MIN_CONTRAST}:1 contrast {when}:\n" + "\n".join(
        f"- {m['text']!r}: fill {m['fill']} (alpha {m['alpha']}) on {m['background']} ({m['under']}): "
        f"{m['ratio']}:1"
        for m in low
    )
    return measured


#: HTML text on the board (``.bl-board``) whose contrast with the nearest painted background is
#: below 4.5:1, as ``"text ratio"`` strings (empty: every text passes).
LOW_CONTRAST_JS = """() => {
  const rgb = (c) => c.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const back = (el) => { for (; el; el = el.parentElement) { const c = rgb(getComputedStyle(el).backgroundColor);
    if (c.length < 4 || c[3] > 0) return c.slice(0, 3); } return [255, 255, 255]; };
  const low = [];
  for (const el of document.querySelectorAll('.bl-board *')) {
    const text = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent.trim()).join('');
    if (!text || el.tagName === 'STYLE') continue;
    const [a, b] = [lum(rgb(getComputedStyle(el).color)), lum(back(el))];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < 4.5) low.push(text + ' ' + ratio.toFixed(2));
  }
  return low;
}"""
