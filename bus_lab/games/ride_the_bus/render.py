"""Drawing a Ride the Bus table from ``State.view()``: SVG/HTML for notebooks and widgets, text
for terminals and logs.

Every table setting has its own drawing: the pyramid (RTB-P-*) or the Give & Take board
(RTB-GT-*) in Part 2, the higher/lower bus (RTB-B-*) or the questions bus (RTB-QB-*) in Part 3,
and, in the solo gauntlet (RTB-SG-*), the ride order and the current ride instead of Parts 2
and 3. Row points are printed as numbers on every row (escalating or flat, RTB-P-POINTS).

Size: the drawing is ``BUS_X + BUS_W`` (854) pixels wide and has a ``viewBox``, ``max-width:100%``
and ``height:auto`` and no minimum width, so in a narrower output area (a 1024 px window with the
file browser open leaves about 600-760 px) it shrinks to fit instead of scrolling sideways.

Accessibility: suits are told by their symbol (♣ ♦ ♥ ♠), never by colour alone (red suits use
Okabe-Ito vermilion, black suits black); the card in play has a thicker outline *and* a text
marker; everywhere the board or its description names a card it prints rank and suit symbol
(``"8♠"``, :func:`code_label`); every SVG has ``role="img"`` and an ``aria-label`` describing the
table in words.
"""

from __future__ import annotations

from html import escape
from typing import Any

from bus_lab.games.ride_the_bus.cards import card_label, is_red, parse_card

CARD_W, CARD_H = 40, 56
#: Red suits in a darker vermilion than Okabe-Ito's (#D55E00) so the text has 5:1 contrast on white.
RED_INK, BLACK_INK = "#B34700", "#111111"
HIGHLIGHT = "#0072B2"  # Okabe-Ito blue
BACK = "#56B4E9"
MUTED = "#333"
#: Horizontal layout (pixels): seats' rows, then the Part 2 board (or the gauntlet's ride order),
#: then the bus (or the current ride).
ROWS_X, ROWS_CARDS_X = 10, 130
MID_X = ROWS_CARDS_X + 4 * (CARD_W + 6) + 20
MID_W = 226
BUS_X = MID_X + MID_W + 24
BUS_W = 6 * (CARD_W + 4) + 6
ROW_H = CARD_H + 22
#: How the rider's questions read on the questions bus (they compare against the run, RTB-QB-COMPARE).
BUS_QUESTIONS = (
    "red or black?",
    "higher or lower than the run's 1st card?",
    "inside or outside the run's first two?",
    "which suit?",
)


def _label(code: str) -> tuple[str, str, str]:
    """Rank and suit symbol as printed (:func:`~bus_lab.games.ride_the_bus.cards.card_label`), and the ink."""
    card = parse_card(code)
    name = card_label(card)
    return name[:-1], name[-1], RED_INK if is_red(card) else BLACK_INK


def card_svg(code: str | None, x: float, y: float, highlight: bool = False, faded: bool = False) -> str:
    """One card at ``(x, y)`` (pixels): face up when ``code`` is given, else face down.

    Args:
        code (str | None): card code such as ``"7H"``; ``None`` draws the back of a card.
        x, y (float): top-left corner in pixels.
        highlight (bool): a thick blue outline (callers add a text marker too).
        faded (bool): a card already resolved: grey background and a dashed edge.
    """
    stroke = HIGHLIGHT if highlight else "#444"
    width = 3 if highlight else 1
    if code is None:
        return (
            f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="5" fill="{BACK}" '
            f'stroke="{stroke}" stroke-width="{width}"/>'
            f'<rect x="{x + 5}" y="{y + 5}" width="{CARD_W - 10}" height="{CARD_H - 10}" rx="3" '
            f'fill="none" stroke="white" stroke-dasharray="3 2"/>'
        )
    rank, symbol, ink = _label(code)
    if faded and not highlight:
        stroke = "#999"
    # A resolved card is grey-backed with a dashed edge; its ink keeps full contrast (no fading).
    fill, dash = ("#ececec", ' stroke-dasharray="4 3"') if faded else ("white", "")
    return (
        f'<g><rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="5" fill="{fill}" '
        f'stroke="{stroke}" stroke-width="{width}"{dash}/><g>'
        f'<text x="{x + CARD_W / 2}" y="{y + 24}" font-size="17" font-weight="bold" text-anchor="middle" '
        f'fill="{ink}" font-family="sans-serif">{rank}</text>'
        f'<text x="{x + CARD_W / 2}" y="{y + 46}" font-size="20" text-anchor="middle" fill="{ink}" '
        f'font-family="sans-serif">{symbol}</text></g></g>'
    )


def slot_svg(x: float, y: float, label: str = "", highlight: bool = False) -> str:
    """An empty place for a card (dashed outline) with an optional short label inside."""
    stroke = HIGHLIGHT if highlight else "#888"
    width = 3 if highlight else 1
    text = (
        (
            f'<text x="{x + CARD_W / 2}" y="{y + CARD_H / 2 + 4}" font-size="11" text-anchor="middle" '
            f'fill="{MUTED}" font-family="sans-serif">{escape(label)}</text>'
        )
        if label
        else ""
    )
    return (
        f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="5" fill="#fbfcfa" stroke="{stroke}" '
        f'stroke-width="{width}" stroke-dasharray="4 3"/>{text}'
    )


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
        f'<text x="{x}" y="{y}" font-size="{size}" font-weight="{weight}" text-anchor="{anchor}" '
        f'fill="{fill}" font-family="sans-serif">{escape(s)}</text>'
    )


def _plural(k: int, word: str) -> str:
    return f"{k} {word}{'' if k == 1 else 's'}"


def _row_points_words(view: dict[str, Any]) -> str:
    if view["options"].get("row_points") == "flat":
        return "flat row points: 1 point per card played on every row"
    return "escalating row points: row 1 = 1 point per card played … row 4 = 4"


def _gauntlet(view: dict[str, Any]) -> dict[str, Any] | None:
    return view.get("gauntlet")


def _ride_text(view: dict[str, Any]) -> str:
    """Which ride is on (RTB-SG-RIDES), or how the rides ended (RTB-SG-WIN)."""
    g, bus = view["gauntlet"], view["bus"]
    if view["phase"] != "over":
        return f"Ride {g['ride']} of {g['total_rides']}"
    if bus["streak"] >= bus["target"]:  # won on the spot: that ride did not end with a miss
        return f"Won on ride {g['ride'] + 1} of {g['total_rides']}"
    return f"All {g['total_rides']} rides used"


def code_label(code: str | None) -> str | None:
    """A card as the board prints it, rank and suit symbol (``"TD"`` → ``"10♦"``); ``None`` stays ``None``."""
    if code is None:
        return None
    return card_label(parse_card(code))


def _names(codes: list[str]) -> list[str]:
    return [code_label(c) for c in codes]


def describe(view: dict[str, Any]) -> str:
    """A sentence-level description of the table for screen readers (the SVG's aria-label); cards
    are named as the board prints them and as the event log names them (``"10♦"``).

    Args:
        view (dict): ``state.view(seat)``.
    """
    gauntlet = _gauntlet(view)
    rows = "; ".join(
        f"seat {s}: {' '.join(_names(r)) or 'no cards'}, {_plural(p, 'point')}"
        for s, (r, p) in enumerate(zip(view["rows"], view["points"]))
    )
    parts = [f"Ride the Bus table{' (solo gauntlet)' if gauntlet else ''}. {view['status']} Rows: {rows}."]
    if gauntlet:
        parts.append("Part 1 points only set the ride order.")
    if view.get("pyramid"):
        flipped = [f"{code_label(s['card'])} on row {s['row']}" for s in view["pyramid"] if s["card"]]
        parts.append(
            f"Pyramid, {_row_points_words(view)}: {', '.join(flipped) if flipped else 'no card flipped yet'}."
        )
    if view.get("spots"):
        spots = [
            f"row {s['row']} {s['kind']} spot ({s['points']} per card): "
            f"{' then '.join(_names(s['cards'])) if s['cards'] else 'not flipped'}"
            for s in view["spots"]
        ]
        parts.append("Give and Take board: " + "; ".join(spots) + ".")
    bus = view["bus"]
    if gauntlet:
        order = ", ".join(f"seat {s} (best ride {gauntlet['best'][s]})" for s in gauntlet["order"])
        if order:
            parts.append(f"Ride order: {order}. {_ride_text(view)}; {bus['target']} hits in a row win.")
        if bus["rider"] is not None and gauntlet["order"]:
            parts.append(
                f"Seat {bus['rider']} rides, streak {bus['streak']}, card to beat "
                f"{code_label(bus['card_to_beat']) or 'not flipped yet'}."
            )
    elif bus["rider"] is not None:
        if bus["kind"] == "questions":
            parts.append(
                f"Questions bus: seat {bus['rider']} rides, run so far "
                f"{' '.join(_names(bus['run'])) or 'empty'}, guess {bus['guesses']} of {bus['max_guesses']} "
                "used."
            )
        else:
            beat = code_label(bus["card_to_beat"]) or "not flipped yet"
            parts.append(
                f"Bus: seat {bus['rider']} rides, card to beat {beat}, "
                f"streak {bus['streak']} of {bus['target']}, guesses {bus['guesses']} of "
                f"{bus['max_guesses']}."
            )
    return " ".join(parts)


# -- the parts of the picture -------------------------------------------------------------------
def _rows_svg(view: dict[str, Any]) -> list[str]:
    n = view["players"]
    to_move = view["to_move"]
    winners = set(view["winners"])
    gauntlet = _gauntlet(view)
    out = [_text(ROWS_X, 20, "Players' rows" + (" (Part 1)" if gauntlet else ""), 14, "bold")]
    for seat in range(n):
        y = 30 + seat * ROW_H
        marker = "▶ " if seat == to_move else ("★ " if seat in winners else "")
        rider = " (rider)" if view["bus"]["rider"] == seat else ""
        out.append(
            _text(ROWS_X, y + 24, f"{marker}Seat {seat}{rider}", 13, "bold" if seat == to_move else "normal")
        )
        out.append(_text(ROWS_X, y + 42, _plural(view["points"][seat], "point"), 12, fill=MUTED))
        if gauntlet and n > 1:
            out.append(_text(ROWS_X, y + 56, "(sets ride order)", 10, fill=MUTED))
        for i, code in enumerate(view["rows"][seat]):
            out.append(card_svg(code, ROWS_CARDS_X + i * (CARD_W + 6), y))
    return out


def _pyramid_svg(view: dict[str, Any]) -> list[str]:
    """RTB-P-LAYOUT: the bottom row (row 1, four cards) at the bottom; points per row on the right."""
    out = [_text(MID_X, 20, "Pyramid", 14, "bold")]
    width = 4 * (CARD_W + 8)
    index = 0
    for row, size in enumerate((4, 3, 2, 1), start=1):
        y = 30 + (4 - row) * (CARD_H + 8)
        x0 = MID_X + (4 - size) * (CARD_W + 8) / 2
        for k in range(size):
            spot = view["pyramid"][index]
            out.append(
                card_svg(
                    spot["card"],
                    x0 + k * (CARD_W + 8),
                    y,
                    highlight=spot["current"],
                    faded=spot["card"] is not None and not spot["current"],
                )
            )
            if spot["current"]:
                out.append(
                    _text(x0 + k * (CARD_W + 8) + CARD_W / 2, y - 2, "▼ now", 10, "bold", "middle", HIGHLIGHT)
                )
            index += 1
        worth = view["pyramid"][index - 1]["points"]
        out.append(_text(MID_X + width + 2, y + CARD_H / 2 - 2, f"row {row}", 11, fill=MUTED))
        out.append(_text(MID_X + width + 2, y + CARD_H / 2 + 12, f"×{worth}", 12, "bold"))
    return out


def _spot_svg(spot: dict[str, Any], x: float, y: float) -> list[str]:
    """One Give & Take spot: the latest card on top of the earlier flips (up to three shown)."""
    cards = spot["cards"]
    marked = spot["current"]
    out = []
    if not cards:
        out.append(slot_svg(x, y, ""))
    else:
        behind = cards[:-1][-3:]
        for k, code in enumerate(behind):
            out.append(card_svg(code, x + 5 * k, y, faded=True))
        out.append(card_svg(cards[-1], x + 5 * len(behind), y, highlight=marked, faded=not spot["current"]))
    notes = []
    if spot["current"]:
        notes.append("▲ now")
    if len(cards) > 1:
        notes.append(f"{len(cards)} flips")
    if notes:
        out.append(
            _text(
                x,
                y + CARD_H + 12,
                " · ".join(notes),
                10,
                "bold" if marked else "normal",
                fill=HIGHLIGHT if marked else MUTED,
            )
        )
    return out


def _give_take_svg(view: dict[str, Any]) -> list[str]:
    """RTB-GT-LAYOUT: four rows of a Give spot then a Take spot, row 1 at the bottom."""
    out = [_text(MID_X, 20, "Give & Take board", 14, "bold")]
    label_w = 48
    col_w = CARD_W + 52
    give_x, take_x = MID_X + label_w, MID_X + label_w + col_w
    out.append(_text(give_x + CARD_W / 2, 40, "Give", 12, "bold", "middle"))
    out.append(_text(take_x + CARD_W / 2, 40, "Take", 12, "bold", "middle"))
    row_gap = CARD_H + 18
    for spot in view["spots"]:
        row = spot["row"]
        y = 48 + (4 - row) * row_gap
        x = give_x if spot["kind"] == "give" else take_x
        out.extend(_spot_svg(spot, x, y))
        if spot["kind"] == "give":
            out.append(_text(MID_X, y + CARD_H / 2 - 2, f"row {row}", 11, fill=MUTED))
            out.append(_text(MID_X, y + CARD_H / 2 + 12, f"×{spot['points']}", 12, "bold"))
    return out


def _gauntlet_svg(view: dict[str, Any]) -> list[str]:
    """RTB-SG-ORDER: the ride order (current rider marked), each player's best ride and the target."""
    g = view["gauntlet"]
    bus = view["bus"]
    winners = set(view["winners"])
    out = [
        _text(MID_X, 20, "Solo gauntlet", 14, "bold"),
        _text(MID_X, 40, f"{bus['target']} hits in a row win on the spot", 12),
        _text(MID_X, 56, "No pyramid, no bus (RTB-SG-FLOW)", 11, fill=MUTED),
    ]
    if not g["order"]:
        if view["players"] == 1:
            out.append(_text(MID_X, 84, f"One rider: {g['total_rides']} rides", 12))
        else:
            out.append(_text(MID_X, 84, "Ride order: set by Part 1", 12))
            out.append(_text(MID_X, 100, "points, most first", 12))
        return out
    out.append(_text(MID_X, 84, _ride_text(view), 13, "bold"))
    out.append(_text(MID_X, 106, "Ride order", 12, "bold"))
    out.append(_text(MID_X + MID_W - 8, 106, "best ride", 12, "bold", "end"))
    riding = bus["rider"] if view["phase"] == "rides" else None
    for k, seat in enumerate(g["order"]):
        y = 126 + k * 20
        mark = "▶" if seat == riding else ("★" if seat in winners else "")
        out.append(_text(MID_X, y, mark, 12, "bold"))
        out.append(_text(MID_X + 16, y, f"{k + 1}. Seat {seat}", 12, "bold" if seat == riding else "normal"))
        out.append(
            _text(
                MID_X + MID_W - 8, y, f"{g['best'][seat]}", 12, "bold" if seat == riding else "normal", "end"
            )
        )
    return out


def _higher_lower_bus_svg(view: dict[str, Any], title: str, gauntlet: bool) -> list[str]:
    bus = view["bus"]
    out = [_text(BUS_X, 20, title, 14, "bold")]
    if bus["rider"] is None:
        out.append(_text(BUS_X, 50, "Waits for Part 3", 12, fill=MUTED))
        return out
    if gauntlet:
        out.append(_text(BUS_X, 44, f"Rider: Seat {bus['rider']}", 12))
        out.append(_text(BUS_X, 62, f"Streak {bus['streak']} of {bus['target']} this ride", 12))
        out.append(_text(BUS_X, 80, _ride_text(view), 12))
    else:
        out.append(_text(BUS_X, 44, f"Rider: Seat {bus['rider']}", 12))
        out.append(_text(BUS_X, 62, f"Streak {bus['streak']} of {bus['target']}", 12))
        out.append(_text(BUS_X, 80, f"Guesses {bus['guesses']} of {bus['max_guesses']}", 12))
    recent = bus["cards"][-6:]
    for i, code in enumerate(recent):
        last = i == len(recent) - 1
        out.append(card_svg(code, BUS_X + i * (CARD_W + 4), 92, highlight=last, faded=not last))
    if bus["card_to_beat"]:
        beat = code_label(bus["card_to_beat"])
        out.append(_text(BUS_X, 92 + CARD_H + 18, f"Card to beat: {beat} (the last card)", 12, "bold"))
    if len(bus["cards"]) > len(recent):
        out.append(
            _text(
                BUS_X,
                92 + CARD_H + 36,
                f"(the last {len(recent)} of {len(bus['cards'])} cards dealt)",
                11,
                fill=MUTED,
            )
        )
    return out


def _questions_bus_svg(view: dict[str, Any]) -> list[str]:
    """RTB-QB-ORDER: the run's cards in four places Q1…Q4, the question being asked marked."""
    bus = view["bus"]
    out = [_text(BUS_X, 20, "The questions bus", 14, "bold")]
    if bus["rider"] is None:
        out.append(_text(BUS_X, 50, "Waits for Part 3", 12, fill=MUTED))
        return out
    run = bus["run"]
    asked = bus["question"]
    out.append(_text(BUS_X, 44, f"Rider: Seat {bus['rider']}", 12))
    out.append(_text(BUS_X, 62, f"Guesses used: {bus['guesses']} of {bus['max_guesses']}", 12))
    if asked is not None:
        out.append(_text(BUS_X, 80, f"Now question {asked} of 4:", 12, "bold"))
        out.append(_text(BUS_X, 96, BUS_QUESTIONS[asked - 1], 12))
    elif len(run) == 4:
        out.append(_text(BUS_X, 80, "All four right in a row:", 12, "bold"))
        out.append(_text(BUS_X, 96, "the rider gets off the bus", 12))
    gap = CARD_W + 14
    y = 106
    for k in range(4):
        x = BUS_X + k * gap
        now = asked == k + 1
        if k < len(run):
            out.append(card_svg(run[k], x, y))
        else:
            out.append(slot_svg(x, y, f"Q{k + 1}", highlight=now))
        out.append(
            _text(
                x + CARD_W / 2,
                y + CARD_H + 14,
                ("▲ " if now else "") + f"Q{k + 1}",
                11,
                "bold" if now else "normal",
                "middle",
                HIGHLIGHT if now else MUTED,
            )
        )
    y += CARD_H + 36
    out.append(_text(BUS_X, y, f"Run: {len(run)} right in a row (best {bus['best_streak']})", 12))
    if not run and bus["cards"]:
        out.append(_text(BUS_X, y + 18, f"Last card {code_label(bus['cards'][-1])}: a miss, back to Q1", 12))
    return out


def table_svg(view: dict[str, Any]) -> str:
    """The whole table as one SVG string, laid out for the game's settings.

    Args:
        view (dict): ``state.view(seat)`` (its ``"options"`` choose the layout).

    Returns:
        ``<svg role="img" aria-label="…">…</svg>``: every seat's row and points; then the pyramid
        or the Give & Take board, or in the gauntlet the ride order; then the bus (higher/lower
        or questions) or the current ride; a footer with the piles and the row points.
    """
    n = view["players"]
    gauntlet = _gauntlet(view)
    bus = view["bus"]
    mid_h = 48 + 4 * (CARD_H + 18) if view.get("spots") else 30 + 4 * (CARD_H + 8) + 10
    if gauntlet:
        mid_h = 126 + n * 20
    bus_h = 106 + CARD_H + 60
    height = max(30 + n * ROW_H, mid_h, bus_h, 200) + 30
    width = BUS_X + BUS_W
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" style="max-width:100%;height:auto" role="img" '
        f'aria-label="{escape(describe(view))}">',
        f'<rect width="{width}" height="{height}" fill="#f4f7f2" rx="8"/>',
    ]
    parts.extend(_rows_svg(view))
    if gauntlet:
        parts.extend(_gauntlet_svg(view))
        parts.extend(_higher_lower_bus_svg(view, "The ride", True))
    else:
        if view.get("spots"):
            parts.extend(_give_take_svg(view))
        else:
            parts.extend(_pyramid_svg(view))
        if bus["kind"] == "questions":
            parts.extend(_questions_bus_svg(view))
        else:
            parts.extend(_higher_lower_bus_svg(view, "The bus", False))
    footer = f"Draw pile: {_plural(view['draw_pile'], 'card')} · Discard pile: {_plural(len(view['discard']), 'card')}"
    if not gauntlet:
        footer += f" · ×n = {_row_points_words(view)}"
    parts.append(_text(ROWS_X, height - 12, footer, 12, fill=MUTED))
    parts.append("</svg>")
    return "".join(parts)


def table_html(view: dict[str, Any]) -> str:
    """The SVG table with the status sentence above it, as an HTML fragment."""
    return f'<div class="bus-lab-table"><p><b>{escape(view["status"])}</b></p>{table_svg(view)}</div>'


def table_text(view: dict[str, Any]) -> str:
    """A plain-text table, for terminals, logs and doctests; cards are named as the board prints them
    (``"10♦"``, see :func:`code_label`), hidden cards as ``##``."""
    lines = [view["status"]]
    for seat in range(view["players"]):
        lines.append(
            f"Seat {seat}: {' '.join(_names(view['rows'][seat])) or '-':<12} {view['points'][seat]} points"
        )
    if view.get("pyramid"):
        lines.append("Pyramid: " + " ".join(code_label(spot["card"]) or "##" for spot in view["pyramid"]))
    if view.get("spots"):
        spots = [
            f"{s['kind'][0].upper()}{s['row']}:{'/'.join(_names(s['cards'])) or '##'}" for s in view["spots"]
        ]
        lines.append("Give & Take: " + " ".join(spots))
    bus = view["bus"]
    gauntlet = _gauntlet(view)
    if gauntlet and gauntlet["order"]:
        order = " ".join(f"{s}(best {gauntlet['best'][s]})" for s in gauntlet["order"])
        lines.append(
            f"Gauntlet: {_ride_text(view).lower()}, order {order}, "
            f"seat {bus['rider']} rides, card to beat {code_label(bus['card_to_beat']) or '-'}, streak "
            f"{bus['streak']}/{bus['target']}"
        )
    elif not gauntlet and bus["rider"] is not None:
        if bus["kind"] == "questions":
            lines.append(
                f"Questions bus: seat {bus['rider']} rides, run {' '.join(_names(bus['run'])) or '-'}, "
                f"guesses {bus['guesses']}/{bus['max_guesses']}"
            )
        else:
            lines.append(
                f"Bus: seat {bus['rider']} rides, card to beat {code_label(bus['card_to_beat']) or '-'}, "
                f"streak {bus['streak']}/{bus['target']}, guesses {bus['guesses']}/{bus['max_guesses']}"
            )
    lines.append(f"Draw pile {view['draw_pile']}, discard {len(view['discard'])}")
    return "\n".join(lines)
