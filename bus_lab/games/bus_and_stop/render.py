"""Drawing a Bus & Stop table from ``State.view()``: SVG/HTML for notebooks and widgets, text for
terminals and logs.

The table: the bus stop and the deck (BAS-SETUP-STOP) with a legend of the letters, the
destination stacks with their top cards (what each needs, the points for each count, cards left;
BAS-SETUP-STACKS, BAS-COMP-SIDES), then one row per player: a header line (seat, points,
tie-break), the bus with its 10 seats (BAS-PICK-LIMIT), the seniors beside it (BAS-SENIOR),
skedaddled (BAS-SKEDADDLE) and unhappy (BAS-UNHAPPY) passengers, and the destinations claimed
(BAS-DROP-CLAIM).

Size: the drawing is :data:`WIDTH` (900) pixels wide, so a JupyterLab output area (about 940-960
px) shows it at full size, and its smallest text is :data:`SMALLEST_TEXT` (11) pixels; it shrinks
with a narrower output area (``viewBox``, ``max-width:100%``, ``height:auto``). No text runs into
other text or into a shape it does not sit inside: the piles set aside are small chips in a grid
(each with its own letters), not overlapping tokens.

Accessibility: a passenger is never told by colour alone: each token shows its colour letter in
the corner and its type letter in large print (``"y"`` + ``"B"`` for a yellow businessman; a chip
in a pile reads ``"yB"``); the palette is Okabe-Ito (colour-blind safe); every SVG has
``role="img"`` and an ``aria-label`` describing the table in words.
"""

from __future__ import annotations

from html import escape
from typing import Any

from bus_lab.games.textfit import fit_text as _fit
from bus_lab.games.textfit import text_px, wrap_text

#: A passenger token in a bus or at the stop (pixels).
TOKEN_W, TOKEN_H = 28, 40
GAP = 3
#: A passenger chip in a pile set aside (seniors, skedaddled, unhappy): pixels, and the pitch of
#: the two-row grid the chips are laid out in.
CHIP_W, CHIP_H = 26, 18
CHIP_PITCH_X, CHIP_PITCH_Y = CHIP_W + 2, CHIP_H + 4
HIGHLIGHT = "#0072B2"
MUTED = "#333"
BACKGROUND = "#f4f7f0"
#: Width of the drawing (pixels): at most 900, so a notebook output area shows it unscaled.
WIDTH = 900
#: The smallest font size used anywhere on the board (pixels at full size).
SMALLEST_TEXT = 11
MARGIN = 10
#: Destination cards: size (pixels) and how many fit on one line of the table.
STACK_W, STACK_GAP = 168, 8
STACKS_PER_LINE = 5
#: Player rows: where each part starts (pixels from the left) and the least row height.
BUS_X = MARGIN
SENIORS_X = BUS_X + 10 * (TOKEN_W + GAP) + 13
SKEDADDLED_X = SENIORS_X + 5 * CHIP_PITCH_X + 12
UNHAPPY_X = SKEDADDLED_X + 5 * CHIP_PITCH_X + 12
CLAIMS_X = UNHAPPY_X + 3 * CHIP_PITCH_X + 12
ROW_H = 98
#: Lines of destinations claimed in the column right of the piles (more go under the bus).
CLAIM_LINES = 3


def _wrap(items: list[str], size: float, room: float, sep: str = " · ") -> list[str]:
    """Join ``items`` with ``sep`` into lines at most ``room`` pixels wide at ``size`` px (see
    :func:`~bus_lab.games.textfit.wrap_text`)."""
    return [sep.join(line) for line in wrap_text(items, size, room, sep)]


def _text(
    x: float,
    y: float,
    s: str,
    size: int = 13,
    weight: str = "normal",
    anchor: str = "start",
    fill: str = "#111",
) -> str:
    return (
        f'<text x="{x:g}" y="{y:g}" font-size="{size}" font-weight="{weight}" text-anchor="{anchor}" '
        f'fill="{fill}" font-family="sans-serif">{escape(s)}</text>'
    )


def _plural(k: int, word: str) -> str:
    return f"{k} {word}{'' if k == 1 else 's'}"


def _legend(view: dict[str, Any]) -> tuple[dict[str, dict], dict[str, dict]]:
    colours = {c["code"]: c for c in view["colours"]}
    types = {t["code"]: t for t in view["types"]}
    return colours, types


def _ink_for(fill: str) -> str:
    """Black or white text, whichever reads better on ``fill`` (``"#RRGGBB"``)."""
    r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return "#000" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#fff"


def _pale(fill: str, keep: float = 0.45) -> str:
    """``fill`` (``"#RRGGBB"``) mixed with white: ``keep`` of the colour (a card set aside)."""
    r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(c * keep + 255 * (1 - keep)):02x}" for c in (r, g, b))


def token_svg(
    code: str, x: float, y: float, view: dict[str, Any], faded: bool = False, highlight: bool = False
) -> str:
    """One passenger card as a token, :data:`TOKEN_W` × :data:`TOKEN_H` pixels: colour fill, the
    colour letter (11 px) in the top-left corner, the type letter (18 px) below it; a senior has a
    dot in the top-right corner. No letter overlaps another or the dot.

    Args:
        code (str): passenger code such as ``"YB"`` (colour code, then type code).
        x, y (float): top-left corner in pixels.
        view (dict): the view it belongs to (for the colour and type legend).
        faded (bool): a pale fill with a dashed outline (a card set aside: skedaddled, unhappy,
            dropped); the letters stay at full contrast.
        highlight (bool): thick blue outline.
    """
    colours, types = _legend(view)
    colour, ptype = colours[code[0]], types[code[1]]
    fill = _pale(colour["ink"]) if faded else colour["ink"]
    ink = _ink_for(fill)
    stroke, width = (HIGHLIGHT, 3) if highlight else ("#222", 1)
    dash = ' stroke-dasharray="3 2"' if faded and not highlight else ""
    title = f"{colour['name']} {ptype['name']}"
    senior_mark = (
        f'<circle cx="{x + TOKEN_W - 7:g}" cy="{y + 8:g}" r="3.5" fill="{ink}"/>' if ptype["senior"] else ""
    )
    return (
        f"<g><title>{escape(title)}</title>"
        f'<rect x="{x:g}" y="{y:g}" width="{TOKEN_W}" height="{TOKEN_H}" rx="4" fill="{fill}" stroke="{stroke}" '
        f'stroke-width="{width}"{dash}/>'
        f"{_text(x + 4, y + 12, colour['code'].lower(), 11, 'bold', 'start', ink)}"
        f"{_text(x + TOKEN_W / 2, y + 33, ptype['code'], 18, 'bold', 'middle', ink)}{senior_mark}</g>"
    )


def chip_svg(code: str, x: float, y: float, view: dict[str, Any], faded: bool = False) -> str:
    """One passenger card in a pile set aside, as a chip :data:`CHIP_W` × :data:`CHIP_H` pixels
    reading colour letter then type letter (``"yB"``, 11 px bold) on the colour.

    Args:
        code (str): passenger code such as ``"YB"``.
        x, y (float): top-left corner in pixels.
        view (dict): the view it belongs to (for the legend).
        faded (bool): a pale fill and a dashed outline (skedaddled, unhappy).
    """
    colours, types = _legend(view)
    colour, ptype = colours[code[0]], types[code[1]]
    fill = _pale(colour["ink"]) if faded else colour["ink"]
    ink = _ink_for(fill)
    dash = ' stroke-dasharray="3 2"' if faded else ""
    return (
        f"<g><title>{escape(colour['name'] + ' ' + ptype['name'])}</title>"
        f'<rect x="{x:g}" y="{y:g}" width="{CHIP_W}" height="{CHIP_H}" rx="3" fill="{fill}" stroke="#222"{dash}/>'
        f"{_text(x + CHIP_W / 2, y + 13.5, colour['code'].lower() + ptype['code'], 11, 'bold', 'middle', ink)}"
        f"</g>"
    )


def _slot(x: float, y: float) -> str:
    return (
        f'<rect x="{x:g}" y="{y:g}" width="{TOKEN_W}" height="{TOKEN_H}" rx="4" fill="#fbfcfa" stroke="#aaa" '
        f'stroke-dasharray="3 3"/>'
    )


def describe(view: dict[str, Any]) -> str:
    """A sentence-level description of the table for screen readers (the SVG's aria-label)."""
    colours, types = _legend(view)

    def words(codes: list[str]) -> str:
        if not codes:
            return "none"
        return ", ".join(f"{colours[c[0]]['name']} {types[c[1]]['name']}" for c in codes)

    stacks = "; ".join(
        f"{s['name']}: {s['cards_left']} left"
        + (
            ""
            if s["top"] is None
            else f", top card {'/'.join(map(str, s['top']['counts']))} for "
            f"{'/'.join(map(str, s['top']['points']))} points"
        )
        for s in view["stacks"]
    )
    seats = "; ".join(
        f"seat {i}: {b['points']} points, bus {words(b['bus'])}, {_plural(len(b['seniors']), 'senior')}, "
        f"{len(b['skedaddled'])} skedaddled, {len(b['unhappy'])} unhappy, "
        f"{_plural(len(b['claimed']), 'destination')}"
        for i, b in enumerate(view["buses"])
    )
    return (
        f"Bus & Stop. {view['status']} Bus stop: {words(view['stop'])}; {view['deck']} cards in the deck. "
        f"Destinations: {stacks}. {seats}."
    )


def _stop_svg(view: dict[str, Any], y: float) -> tuple[list[str], float]:
    """The bus stop, the deck and the legend of the letters; returns the parts and the bottom."""
    out = [_text(MARGIN, y + 16, "Bus stop", 15, "bold")]
    ty = y + 26
    for i in range(5):
        x = MARGIN + i * (TOKEN_W + 6)
        out.append(token_svg(view["stop"][i], x, ty, view) if i < len(view["stop"]) else _slot(x, ty))
    dx = MARGIN + 5 * (TOKEN_W + 6) + 10
    out.append(
        f'<rect x="{dx}" y="{ty}" width="{TOKEN_W}" height="{TOKEN_H}" rx="4" fill="#56B4E9" stroke="#222"/>'
    )
    out.append(_text(dx + TOKEN_W + 6, ty + 16, "deck", 12, fill=MUTED))
    out.append(_text(dx + TOKEN_W + 6, ty + 33, _plural(view["deck"], "card"), 12, "bold"))
    # the legend: what the letters on a token mean (colour is never the only cue)
    lx = dx + TOKEN_W + 90
    room = WIDTH - MARGIN - lx
    types = [
        f"{t['code']} {t['name']}" + (" (●: sits beside the bus)" if t["senior"] else "")
        for t in view["types"]
    ]
    colours = [f"{c['code'].lower()} {c['name']}" for c in view["colours"]]
    lines = _wrap(["Token letters — types: " + types[0]] + types[1:], 12, room) + _wrap(
        ["colours: " + colours[0]] + colours[1:], 12, room
    )
    for j, line in enumerate(lines):
        out.append(_text(lx, y + 16 + 17 * j, line, 12, fill=MUTED))
    bottom = max(ty + TOKEN_H, y + 16 + 17 * (len(lines) - 1) + 4)
    return out, bottom


def _counts_per_line(view: dict[str, Any]) -> tuple[float, int]:
    """The pitch (pixels) of the count/points columns on a destination card, and how many fit a line."""
    numbers = [str(v) for s in view["stacks"] if s["top"] for v in s["top"]["counts"] + s["top"]["points"]]
    pitch = max([22.0] + [text_px(v, 12) + 6 for v in numbers])
    return pitch, max(1, int((STACK_W - 64 - 6) // pitch))


def _stacks_svg(view: dict[str, Any], y: float) -> tuple[list[str], float]:
    """The destination stacks, five to a line; returns the parts and the bottom."""
    title = f"Destinations ({view['destinations_left']} cards left; the end comes at 6)"
    out = [_text(MARGIN, y + 16, title, 15, "bold")]
    types = {t["name"]: t for t in view["types"]}
    pitch, per_line = _counts_per_line(view)
    pairs = max([1] + [-(-len(s["top"]["counts"]) // per_line) for s in view["stacks"] if s["top"]])
    h = 64 + 34 * pairs
    pending = view.get("pending_drop") or {}
    top = y + 26
    for i, stack in enumerate(view["stacks"]):
        x = MARGIN + (i % STACKS_PER_LINE) * (STACK_W + STACK_GAP)
        sy = top + (i // STACKS_PER_LINE) * (h + STACK_GAP)
        card = stack["top"]
        focus = pending.get("stack") == stack["name"]
        stroke, width = (HIGHLIGHT, 3) if focus else ("#444", 1)
        fill = "#ffffff" if card is not None else "#eeeeee"
        out.append(
            f'<rect x="{x}" y="{sy}" width="{STACK_W}" height="{h}" rx="6" fill="{fill}" stroke="{stroke}" '
            f'stroke-width="{width}"/>'
        )
        marker = " ◀" if focus else ""
        out.append(
            _text(
                x + 8,
                sy + 19,
                _fit(stack["name"], 14, STACK_W - 16 - text_px(marker, 14)) + marker,
                14,
                "bold",
            )
        )
        need = (
            f"type {types[stack['type']]['code']}: {stack['type']}"
            if stack["type"]
            else "all colours different"
        )
        out.append(_text(x + 8, sy + 36, _fit(need, 11, STACK_W - 16), 11, fill=MUTED))
        if card is None:
            out.append(_text(x + 8, sy + 62, "stack empty", 12, fill=MUTED))
        else:
            for j, (c, p) in enumerate(zip(card["counts"], card["points"])):
                line, col = divmod(j, per_line)
                ly = sy + 56 + 34 * line
                if col == 0:
                    out.append(_text(x + 8, ly, "count", 12, fill=MUTED))
                    out.append(_text(x + 8, ly + 16, "points", 12, "bold"))
                cx = x + 64 + pitch / 2 + col * pitch
                out.append(_text(cx, ly, str(c), 12, anchor="middle"))
                out.append(_text(cx, ly + 16, str(p), 12, "bold", "middle"))
        out.append(
            _text(x + 8, sy + h - 9, f"{_plural(stack['cards_left'], 'card')} in the stack", 11, fill=MUTED)
        )
    lines = -(-len(view["stacks"]) // STACKS_PER_LINE)
    return out, top + lines * (h + STACK_GAP) - STACK_GAP


def _pile(
    out: list[str],
    view: dict[str, Any],
    title: str,
    codes: list[str],
    x: float,
    y: float,
    faded: bool,
    columns: int,
) -> None:
    """A pile set aside: its title and count (at baseline ``y``), then its cards as chips in a grid
    of two rows and ``columns`` columns below; more than fit end with "+k"."""
    out.append(_text(x, y, f"{title}: {len(codes)}", 11, fill=MUTED))
    room = 2 * columns
    shown = codes if len(codes) <= room else codes[: room - 1]
    for j, code in enumerate(shown):
        row, col = divmod(j, columns)
        out.append(chip_svg(code, x + col * CHIP_PITCH_X, y + 6 + row * CHIP_PITCH_Y, view, faded=faded))
    if len(shown) < len(codes):
        col = room - 1 - columns
        out.append(
            _text(
                x + col * CHIP_PITCH_X + CHIP_W / 2,
                y + 6 + CHIP_PITCH_Y + 13.5,
                f"+{len(codes) - len(shown)}",
                11,
                "bold",
                "middle",
            )
        )


def _claim_lines(bus: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The destinations a player claimed, as lines of text: up to :data:`CLAIM_LINES` lines in the
    column right of the piles, then (when there are more) lines across the whole row, under the bus."""
    claims = [f"{c['stack']} ×{c['count']} = {c['points']}" for c in bus["claimed"]]
    if not claims:
        return ["none yet"], []
    groups = wrap_text(claims, 12, WIDTH - MARGIN - CLAIMS_X, ", ")
    if len(groups) <= CLAIM_LINES:
        return [", ".join(g) for g in groups], []
    used = sum(len(g) for g in groups[: CLAIM_LINES - 1])
    column = [", ".join(g) for g in groups[: CLAIM_LINES - 1]] + ["and more below"]
    rest = _wrap(
        ["more destinations: " + claims[used]] + claims[used + 1 :], 12, WIDTH - 2 * MARGIN - 4, ", "
    )
    return column, rest


def _row_height(bus: dict[str, Any]) -> float:
    """The height (pixels) of a player's row: :data:`ROW_H`, more with many destinations claimed."""
    return ROW_H + 16 * len(_claim_lines(bus)[1]) + (6 if _claim_lines(bus)[1] else 0)


def _player_svg(view: dict[str, Any], seat: int, y: float) -> list[str]:
    """One player's row (``y`` is its top): a header line with the seat, who is to move and the
    points; the labels of the parts; the bus, the piles and the destinations claimed below."""
    bus = view["buses"][seat]
    to_move = view["to_move"] == seat
    h = _row_height(bus)
    out = [
        f'<rect x="4" y="{y:g}" width="{WIDTH - 8}" height="{h - 4:g}" rx="6" '
        f'fill="{"#e8f1f8" if to_move else "#fbfcfa"}" stroke="{HIGHLIGHT if to_move else "#c9d3c2"}" '
        f'stroke-width="{3 if to_move else 1}"/>'
    ]
    label = f"Seat {seat}" + (" ◀ to move" if to_move else "")
    out.append(_text(MARGIN + 2, y + 20, label, 15, "bold", fill=HIGHLIGHT if to_move else "#111"))
    points = f"{_plural(bus['points'], 'point')} · tie-break {bus['tie_break']}"
    out.append(_text(MARGIN + 2 + text_px(label, 15) + 16, y + 20, points, 14))
    ly = y + 40  # the labels' baseline
    out.append(_text(BUS_X, ly, f"bus: {bus['seats_used']} of {bus['seats']} seats", 11, fill=MUTED))
    for i in range(bus["seats"]):
        x = BUS_X + i * (TOKEN_W + GAP)
        out.append(token_svg(bus["bus"][i], x, ly + 6, view) if i < len(bus["bus"]) else _slot(x, ly + 6))
    _pile(out, view, "seniors", bus["seniors"], SENIORS_X, ly, False, 5)
    _pile(out, view, "skedaddled", bus["skedaddled"], SKEDADDLED_X, ly, True, 5)
    _pile(out, view, "unhappy", bus["unhappy"], UNHAPPY_X, ly, True, 3)
    out.append(_text(CLAIMS_X, ly, f"destinations: {len(bus['claimed'])}", 11, fill=MUTED))
    column, below = _claim_lines(bus)
    for j, text in enumerate(column):
        out.append(
            _text(
                CLAIMS_X,
                ly + 17 + 16 * j,
                text,
                12,
                fill=MUTED if text in ("none yet", "and more below") else "#111",
            )
        )
    for j, text in enumerate(below):
        out.append(_text(BUS_X + 2, ly + 6 + TOKEN_H + 17 + 16 * j, text, 12))
    return out


def table_svg(view: dict[str, Any]) -> str:
    """The whole table as one SVG string (``role="img"`` with a description in words),
    :data:`WIDTH` pixels wide; it shrinks to fit a narrower container."""
    parts, y = _stop_svg(view, 4)
    stacks, y = _stacks_svg(view, y + 10)
    parts += stacks
    y += 14
    for seat in range(view["players"]):
        parts += _player_svg(view, seat, y)
        y += _row_height(view["buses"][seat])
    height = round(y + 4)
    label = escape(describe(view), quote=True)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{label}" width="{WIDTH}" '
        f'height="{height}" viewBox="0 0 {WIDTH} {height}" '
        f'style="max-width:100%;height:auto;background:{BACKGROUND}">' + "".join(parts) + "</svg>"
    )


def table_html(view: dict[str, Any]) -> str:
    """The table as HTML: the SVG, then the status sentence."""
    return (
        f"<div class='bus-lab-bas'>{table_svg(view)}"
        f"<div role='status'><b>{escape(view['status'])}</b></div></div>"
    )


def table_text(view: dict[str, Any]) -> str:
    """The table as plain text (for terminals, logs and ``print(state)``)."""
    lines = [
        f"Bus & Stop — {view['status']}",
        f"Stop: {' '.join(view['stop']) or '(empty)'}   deck: {view['deck']} cards",
    ]
    for s in view["stacks"]:
        top = (
            "empty"
            if s["top"] is None
            else (f"{'/'.join(map(str, s['top']['counts']))} → {'/'.join(map(str, s['top']['points']))}")
        )
        lines.append(f"  {s['name']:<14} {s['cards_left']} left, top {top}")
    for i, b in enumerate(view["buses"]):
        lines.append(
            f"Seat {i}: {b['points']:>3} pts | bus {' '.join(b['bus']) or '-'} | seniors "
            f"{len(b['seniors'])} skedaddled {len(b['skedaddled'])} unhappy {len(b['unhappy'])} | "
            f"claimed {len(b['claimed'])}"
        )
    return "\n".join(lines)
