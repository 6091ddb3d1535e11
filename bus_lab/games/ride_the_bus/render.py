"""Drawing a Ride the Bus table from ``State.view()``: SVG/HTML for notebooks and widgets, text
for terminals and logs.

Suits are told by their symbol (♣ ♦ ♥ ♠), never by colour alone; red suits use Okabe-Ito
vermilion, black suits black.
"""
from __future__ import annotations

from html import escape
from typing import Any

from bus_lab.games.ride_the_bus.cards import SUIT_SYMBOLS, SUITS

CARD_W, CARD_H = 40, 56
RED_INK, BLACK_INK = "#D55E00", "#111111"
HIGHLIGHT = "#0072B2"  # Okabe-Ito blue
BACK = "#56B4E9"


def _label(code: str) -> tuple[str, str, str]:
    rank = "10" if code[0] == "T" else code[0]
    symbol = SUIT_SYMBOLS[SUITS.index(code[1])]
    ink = RED_INK if code[1] in "DH" else BLACK_INK
    return rank, symbol, ink


def card_svg(code: str | None, x: float, y: float, highlight: bool = False, faded: bool = False) -> str:
    """One card at ``(x, y)`` (pixels): face up when ``code`` is given, else face down."""
    stroke = HIGHLIGHT if highlight else "#444"
    width = 3 if highlight else 1
    if code is None:
        return (f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="5" fill="{BACK}" '
                f'stroke="{stroke}" stroke-width="{width}"/>'
                f'<rect x="{x + 5}" y="{y + 5}" width="{CARD_W - 10}" height="{CARD_H - 10}" rx="3" '
                f'fill="none" stroke="white" stroke-dasharray="3 2"/>')
    rank, symbol, ink = _label(code)
    opacity = ' opacity="0.6"' if faded else ""
    return (f'<g{opacity}><rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="5" fill="white" '
            f'stroke="{stroke}" stroke-width="{width}"/>'
            f'<text x="{x + CARD_W / 2}" y="{y + 24}" font-size="17" font-weight="bold" text-anchor="middle" '
            f'fill="{ink}" font-family="sans-serif">{rank}</text>'
            f'<text x="{x + CARD_W / 2}" y="{y + 46}" font-size="20" text-anchor="middle" fill="{ink}" '
            f'font-family="sans-serif">{symbol}</text></g>')


def _text(x: float, y: float, s: str, size: int = 13, weight: str = "normal", anchor: str = "start",
          fill: str = "#111") -> str:
    return (f'<text x="{x}" y="{y}" font-size="{size}" font-weight="{weight}" text-anchor="{anchor}" '
            f'fill="{fill}" font-family="sans-serif">{escape(s)}</text>')


def describe(view: dict[str, Any]) -> str:
    """A sentence-level description of the table for screen readers (the SVG's aria-label)."""
    rows = "; ".join(f"seat {s}: {' '.join(r) or 'no cards'}, {p} points"
                     for s, (r, p) in enumerate(zip(view["rows"], view["points"])))
    return f"Ride the Bus table. {view['status']} Rows: {rows}."


def table_svg(view: dict[str, Any]) -> str:
    """The whole table as one SVG string: every row, the pyramid and the bus."""
    n = view["players"]
    row_h = CARD_H + 22
    left_w = 4 * (CARD_W + 6) + 150
    pyr_x = left_w + 20
    pyr_w = 4 * (CARD_W + 8)
    bus_x = pyr_x + pyr_w + 30
    width = bus_x + 6 * (CARD_W + 4) + 10
    height = max(30 + n * row_h, 30 + 4 * (CARD_H + 8) + 20, 200)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(describe(view))}">',
             f'<rect width="{width}" height="{height}" fill="#f4f7f2" rx="8"/>']
    to_move = view["to_move"]
    winners = set(view["winners"])
    # rows
    parts.append(_text(10, 20, "Players' rows", 14, "bold"))
    for seat in range(n):
        y = 30 + seat * row_h
        marker = "▶ " if seat == to_move else ("★ " if seat in winners else "")
        rider = " (rider)" if view["bus"]["rider"] == seat else ""
        parts.append(_text(10, y + 24, f"{marker}Seat {seat}{rider}", 13, "bold" if seat == to_move else "normal"))
        parts.append(_text(10, y + 42, f"{view['points'][seat]} points", 12, fill="#333"))
        for i, code in enumerate(view["rows"][seat]):
            parts.append(card_svg(code, 130 + i * (CARD_W + 6), y))
    # pyramid: bottom row (row 1, 4 cards) at the bottom
    parts.append(_text(pyr_x, 20, "Pyramid", 14, "bold"))
    index = 0
    for row, size in enumerate((4, 3, 2, 1), start=1):
        y = 30 + (4 - row) * (CARD_H + 8)
        x0 = pyr_x + (4 - size) * (CARD_W + 8) / 2
        for k in range(size):
            spot = view["pyramid"][index]
            parts.append(card_svg(spot["card"], x0 + k * (CARD_W + 8), y, highlight=spot["current"],
                                  faded=spot["card"] is not None and not spot["current"]))
            index += 1
        parts.append(_text(pyr_x + pyr_w + 2, y + CARD_H / 2 + 4, f"×{view['pyramid'][index - 1]['points']}", 11,
                           fill="#333"))
    # bus
    bus = view["bus"]
    parts.append(_text(bus_x, 20, "The bus", 14, "bold"))
    if bus["rider"] is None:
        parts.append(_text(bus_x, 50, "Waits for Part 3", 12, fill="#333"))
    else:
        parts.append(_text(bus_x, 44, f"Rider: Seat {bus['rider']}", 12))
        parts.append(_text(bus_x, 62, f"Streak {bus['streak']} of {bus['target']}", 12))
        parts.append(_text(bus_x, 80, f"Guesses {bus['guesses']} of {bus['max_guesses']}", 12))
        recent = bus["cards"][-6:]
        for i, code in enumerate(recent):
            last = i == len(recent) - 1
            parts.append(card_svg(code, bus_x + i * (CARD_W + 4), 92, highlight=last, faded=not last))
        if bus["card_to_beat"]:
            parts.append(_text(bus_x, 92 + CARD_H + 18, f"Card to beat: {bus['card_to_beat']}", 12, "bold"))
        if len(bus["cards"]) > len(recent):
            parts.append(_text(bus_x, 92 + CARD_H + 36, f"(the last {len(recent)} of {len(bus['cards'])} bus cards)",
                               11, fill="#333"))
    parts.append(_text(pyr_x, height - 12, "×n = points per matched card", 11, fill="#333"))
    parts.append(_text(bus_x, height - 30, f"Draw pile: {view['draw_pile']} cards", 12, fill="#333"))
    parts.append(_text(bus_x, height - 12, f"Discard pile: {len(view['discard'])} cards", 12, fill="#333"))
    parts.append("</svg>")
    return "".join(parts)


def table_html(view: dict[str, Any]) -> str:
    """The SVG table with the status sentence above it, as an HTML fragment."""
    return f'<div class="bus-lab-table"><p><b>{escape(view["status"])}</b></p>{table_svg(view)}</div>'


def table_text(view: dict[str, Any]) -> str:
    """A plain-text table (card codes), for terminals, logs and doctests."""
    lines = [view["status"]]
    for seat in range(view["players"]):
        lines.append(f"Seat {seat}: {' '.join(view['rows'][seat]) or '-':<12} {view['points'][seat]} points")
    pyramid = " ".join(spot["card"] or "##" for spot in view["pyramid"])
    lines.append(f"Pyramid: {pyramid}")
    bus = view["bus"]
    if bus["rider"] is not None:
        lines.append(f"Bus: seat {bus['rider']} rides, card to beat {bus['card_to_beat']}, "
                     f"streak {bus['streak']}/{bus['target']}, guesses {bus['guesses']}/{bus['max_guesses']}")
    lines.append(f"Draw pile {view['draw_pile']}, discard {len(view['discard'])}")
    return "\n".join(lines)
