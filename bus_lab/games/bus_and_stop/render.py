"""Drawing a Bus & Stop table from ``State.view()``: SVG/HTML for notebooks and widgets, text for
terminals and logs.

The table: the bus stop and the deck (BAS-SETUP-STOP), the destination stacks with their top
cards (what each needs, the points for each count, cards left; BAS-SETUP-STACKS, BAS-COMP-SIDES),
then one row per player: the bus with its 10 seats (BAS-PICK-LIMIT), the seniors beside it
(BAS-SENIOR), skedaddled (BAS-SKEDADDLE) and unhappy (BAS-UNHAPPY) passengers, and the destinations
claimed (BAS-DROP-CLAIM) with the running points.

Accessibility: a passenger is never told by colour alone: each token shows its type letter in
large print and its colour letter in the corner (``"B"`` + ``"y"`` for a yellow businessman); the
palette is Okabe-Ito (colour-blind safe); every SVG has ``role="img"`` and an ``aria-label``
describing the table in words.
"""
from __future__ import annotations

from html import escape
from typing import Any

TOKEN_W, TOKEN_H = 26, 34
GAP = 3
HIGHLIGHT = "#0072B2"
MUTED = "#333"
WIDTH = 960


def _text(x: float, y: float, s: str, size: int = 13, weight: str = "normal", anchor: str = "start",
          fill: str = "#111") -> str:
    return (f'<text x="{x}" y="{y}" font-size="{size}" font-weight="{weight}" text-anchor="{anchor}" '
            f'fill="{fill}" font-family="sans-serif">{escape(s)}</text>')


def _plural(k: int, word: str) -> str:
    return f"{k} {word}{'' if k == 1 else 's'}"


def _legend(view: dict[str, Any]) -> tuple[dict[str, dict], dict[str, dict]]:
    colours = {c["code"]: c for c in view["colours"]}
    types = {t["code"]: t for t in view["types"]}
    return colours, types


def _ink_for(fill: str) -> str:
    """Black or white text, whichever reads better on ``fill`` (``"#RRGGBB"``)."""
    r, g, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    return "#000" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#fff"


def token_svg(code: str, x: float, y: float, view: dict[str, Any], faded: bool = False,
              highlight: bool = False) -> str:
    """One passenger card as a small token: colour fill, type letter, colour letter.

    Args:
        code (str): passenger code such as ``"YB"`` (colour code, then type code).
        x, y (float): top-left corner in pixels.
        view (dict): the view it belongs to (for the colour and type legend).
        faded (bool): draw at 55 % opacity (a card set aside: skedaddled, unhappy, dropped).
        highlight (bool): thick blue outline.
    """
    colours, types = _legend(view)
    colour, ptype = colours[code[0]], types[code[1]]
    fill = colour["ink"]
    ink = _ink_for(fill)
    stroke, width = (HIGHLIGHT, 3) if highlight else ("#222", 1)
    opacity = ' opacity="0.55"' if faded else ""
    title = f"{colour['name']} {ptype['name']}"
    senior_mark = (f'<circle cx="{x + TOKEN_W - 6}" cy="{y + TOKEN_H - 6}" r="3" fill="{ink}"/>'
                   if ptype["senior"] else "")
    return (f'<g{opacity}><title>{escape(title)}</title>'
            f'<rect x="{x}" y="{y}" width="{TOKEN_W}" height="{TOKEN_H}" rx="4" fill="{fill}" stroke="{stroke}" '
            f'stroke-width="{width}"/>'
            f'{_text(x + TOKEN_W / 2, y + 22, ptype["code"], 16, "bold", "middle", ink)}'
            f'{_text(x + 4, y + 10, colour["code"].lower(), 9, "bold", "start", ink)}{senior_mark}</g>')


def _slot(x: float, y: float) -> str:
    return (f'<rect x="{x}" y="{y}" width="{TOKEN_W}" height="{TOKEN_H}" rx="4" fill="#fbfcfa" stroke="#aaa" '
            f'stroke-dasharray="3 3"/>')


def describe(view: dict[str, Any]) -> str:
    """A sentence-level description of the table for screen readers (the SVG's aria-label)."""
    colours, types = _legend(view)

    def words(codes: list[str]) -> str:
        if not codes:
            return "none"
        return ", ".join(f"{colours[c[0]]['name']} {types[c[1]]['name']}" for c in codes)

    stacks = "; ".join(
        f"{s['name']}: {s['cards_left']} left" + (
            "" if s["top"] is None else f", top card {'/'.join(map(str, s['top']['counts']))} for "
            f"{'/'.join(map(str, s['top']['points']))} points") for s in view["stacks"])
    seats = "; ".join(
        f"seat {i}: {b['points']} points, bus {words(b['bus'])}, {_plural(len(b['seniors']), 'senior')}, "
        f"{len(b['skedaddled'])} skedaddled, {len(b['unhappy'])} unhappy, "
        f"{_plural(len(b['claimed']), 'destination')}" for i, b in enumerate(view["buses"]))
    return (f"Bus & Stop. {view['status']} Bus stop: {words(view['stop'])}; {view['deck']} cards in the deck. "
            f"Destinations: {stacks}. {seats}.")


def _stop_svg(view: dict[str, Any], y: float) -> list[str]:
    out = [_text(10, y + 14, "Bus stop", 14, "bold")]
    x0 = 10
    for i in range(5):
        x = x0 + i * (TOKEN_W + GAP + 4)
        out.append(token_svg(view["stop"][i], x, y + 22, view) if i < len(view["stop"]) else _slot(x, y + 22))
    dx = x0 + 5 * (TOKEN_W + GAP + 4) + 10
    out.append(f'<rect x="{dx}" y="{y + 22}" width="{TOKEN_W}" height="{TOKEN_H}" rx="4" fill="#56B4E9" '
               f'stroke="#222"/>')
    out.append(_text(dx + TOKEN_W + 6, y + 36, "deck", 11, fill=MUTED))
    out.append(_text(dx + TOKEN_W + 6, y + 50, f"{view['deck']} cards", 11, "bold"))
    return out


def _stacks_svg(view: dict[str, Any], x0: float, y: float) -> list[str]:
    out = [_text(x0, y + 14, f"Destinations ({view['destinations_left']} cards left; the end comes at 6)", 14,
                 "bold")]
    types = {t["name"]: t for t in view["types"]}
    w, h = 128, 98
    pending = view.get("pending_drop") or {}
    for i, stack in enumerate(view["stacks"]):
        x = x0 + i * (w + 8)
        top = stack["top"]
        focus = pending.get("stack") == stack["name"]
        stroke, width = (HIGHLIGHT, 3) if focus else ("#444", 1)
        fill = "#ffffff" if top is not None else "#eeeeee"
        out.append(f'<rect x="{x}" y="{y + 22}" width="{w}" height="{h}" rx="6" fill="{fill}" stroke="{stroke}" '
                   f'stroke-width="{width}"/>')
        out.append(_text(x + 6, y + 38, stack["name"] + (" ◀" if focus else ""), 13, "bold"))
        need = (f"type {types[stack['type']]['code']}: {stack['type']}" if stack["type"] else "all colours different")
        out.append(_text(x + 6, y + 53, need, 10, fill=MUTED))
        if top is None:
            out.append(_text(x + 6, y + 80, "stack empty", 12, fill=MUTED))
        else:
            out.append(_text(x + 6, y + 70, "count", 10, fill=MUTED))
            out.append(_text(x + 6, y + 86, "points", 10, "bold"))
            for j, (c, p) in enumerate(zip(top["counts"], top["points"])):
                cx = x + 58 + j * 20
                out.append(_text(cx, y + 70, str(c), 11, anchor="middle"))
                out.append(_text(cx, y + 86, str(p), 11, "bold", "middle"))
        out.append(_text(x + 6, y + 112, f"{_plural(stack['cards_left'], 'card')} in the stack", 10, fill=MUTED))
    return out


def _pile(out: list[str], view: dict[str, Any], title: str, codes: list[str], x: float, y: float,
          faded: bool, most: int = 6) -> None:
    """A pile of tokens set aside (overlapping), with its title and count above it."""
    out.append(_text(x, y + 10, f"{title}: {len(codes)}", 10, fill=MUTED))
    for j, code in enumerate(codes[:most]):
        out.append(token_svg(code, x + j * 12, y + 14, view, faded=faded))
    if len(codes) > most:
        out.append(_text(x + most * 12 + TOKEN_W - 6, y + 40, f"+{len(codes) - most}", 10, "bold"))


def _player_svg(view: dict[str, Any], seat: int, y: float) -> list[str]:
    bus = view["buses"][seat]
    to_move = view["to_move"] == seat
    out = []
    label = f"Seat {seat}" + (" ◀ to move" if to_move else "")
    out.append(_text(10, y + 14, label, 13, "bold", fill=HIGHLIGHT if to_move else "#111"))
    out.append(_text(10, y + 30, f"{bus['points']} point{'' if bus['points'] == 1 else 's'}", 12))
    out.append(_text(10, y + 46, f"tie-break {bus['tie_break']}", 10, fill=MUTED))
    x0 = 100
    out.append(_text(x0, y + 10, f"Bus: {bus['seats_used']} of {bus['seats']} seats", 10, fill=MUTED))
    for i in range(bus["seats"]):
        x = x0 + i * (TOKEN_W + GAP)
        out.append(token_svg(bus["bus"][i], x, y + 14, view) if i < len(bus["bus"]) else _slot(x, y + 14))
    _pile(out, view, "seniors", bus["seniors"], 404, y, False)
    _pile(out, view, "skedaddled", bus["skedaddled"], 514, y, True)
    _pile(out, view, "unhappy", bus["unhappy"], 624, y, True, most=4)
    claims = [f"{c['stack']} ×{c['count']} = {c['points']}" for c in bus["claimed"]]
    out.append(_text(716, y + 10, f"destinations claimed: {len(claims)}", 10, fill=MUTED))
    lines, line = [], ""
    for claim in claims:
        if line and len(line) + len(claim) > 34:
            lines.append(line)
            line = ""
        line = f"{line}, {claim}" if line else claim
    lines.append(line or "none yet")
    for j, text in enumerate(lines[:3]):
        out.append(_text(716, y + 25 + 13 * j, text, 11))
    return out


def table_svg(view: dict[str, Any]) -> str:
    """The whole table as one SVG string (``role="img"`` with a description in words)."""
    parts: list[str] = []
    parts += _stop_svg(view, 4)
    parts += _stacks_svg(view, 270, 4)
    y = 136
    row_h = TOKEN_H + 28
    for seat in range(view["players"]):
        parts += _player_svg(view, seat, y)
        y += row_h
    height = y + 6
    label = escape(describe(view), quote=True)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{label}" width="{WIDTH}" '
            f'height="{height}" viewBox="0 0 {WIDTH} {height}" style="max-width:100%;height:auto;background:#f4f7f0">'
            + "".join(parts) + "</svg>")


def table_html(view: dict[str, Any]) -> str:
    """The table as HTML: the SVG, then the status sentence."""
    return (f"<div class='bus-lab-bas'>{table_svg(view)}"
            f"<div role='status'><b>{escape(view['status'])}</b></div></div>")


def table_text(view: dict[str, Any]) -> str:
    """The table as plain text (for terminals, logs and ``print(state)``)."""
    lines = [f"Bus & Stop — {view['status']}",
             f"Stop: {' '.join(view['stop']) or '(empty)'}   deck: {view['deck']} cards"]
    for s in view["stacks"]:
        top = "empty" if s["top"] is None else (f"{'/'.join(map(str, s['top']['counts']))} → "
                                               f"{'/'.join(map(str, s['top']['points']))}")
        lines.append(f"  {s['name']:<14} {s['cards_left']} left, top {top}")
    for i, b in enumerate(view["buses"]):
        lines.append(f"Seat {i}: {b['points']:>3} pts | bus {' '.join(b['bus']) or '-'} | seniors "
                     f"{len(b['seniors'])} skedaddled {len(b['skedaddled'])} unhappy {len(b['unhappy'])} | "
                     f"claimed {len(b['claimed'])}")
    return "\n".join(lines)
