"""Drawing a BUS table from ``State.view()``: SVG/HTML for notebooks and widgets, text for
terminals and logs.

The grid (BUS-GRID) is drawn as four blocks with the 12 street cards between them; each symbol
sits on its side of the street (BUS-COMP-STREETS, BUS-CH-SIDE); buses are arrows pointing along
their heading with the seat number on them, in the right-hand lane at the free end of their card
(one behind the other when they share a lane), so they never cover a STOP badge, a symbol or a
label (see :func:`_symbol` and :func:`_bus`); the cards the bus to move can reach this turn are
outlined and marked "reach" (BUS-MOVE, BUS-SPEED); the last move's route is a dashed line. Each
seat's progress area (picked up / half / complete, BUS-PROGRESS) is drawn along its side, and the
face-up passenger cards, the deck count and the speed limit beside the grid.

Accessibility: colours are never the only cue (every passenger colour also has its initial
letter, bus stops say "STOP", the site "WORK"); Okabe-Ito colours; every SVG has ``role="img"``
and an ``aria-label`` describing the table in words.
"""
from __future__ import annotations

from html import escape
from typing import Any

#: Okabe-Ito colours for the passenger colours of the built-in sheet (others fall back to grey).
COLOUR_INK = {"red": "#D55E00", "orange": "#E69F00", "yellow": "#F0E442", "green": "#009E73",
              "blue": "#0072B2", "pink": "#CC79A7"}
#: Text colour drawn on each passenger colour (dark on light fills).
COLOUR_TEXT = {"yellow": "#000", "orange": "#000", "pink": "#000"}
SEAT_INK = ("#222222", "#6A3D9A", "#8C510A")
HIGHLIGHT = "#0072B2"
STREET = "#d9d9d9"
BLOCK = "#eef5e9"
#: Geometry (pixels): intersection (row, col) is at (GRID_X + col * SPAN, GRID_Y + row * SPAN).
GRID_X, GRID_Y, SPAN = 190, 140, 150
ROAD = 46
INSET = ROAD / 2 + 5
WIDTH, HEIGHT = 780, 590
PANEL_X = 560
#: Where a street card's symbol sits along an east-west card (fraction of its length from the west
#: end); the buses keep to the other end.
SYMBOL_AT = 0.24


def _t(x: float, y: float, text: str, size: int = 11, anchor: str = "middle", weight: str = "normal",
       fill: str = "#111") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" font-weight="{weight}" '
            f'fill="{fill}" font-family="sans-serif">{escape(text)}</text>')


def point(rc) -> tuple[float, float]:
    """Pixel centre of intersection ``(row, col)``."""
    return GRID_X + rc[1] * SPAN, GRID_Y + rc[0] * SPAN


def slot_box(entry: dict[str, Any]) -> tuple[float, float, float, float]:
    """``(x, y, width, height)`` of a street card from a view's ``grid`` entry."""
    ax, ay = point(entry["a"])
    bx, by = point(entry["b"])
    if entry["kind"] == "h":
        return ax + INSET, ay - ROAD / 2, bx - ax - 2 * INSET, ROAD
    return ax - ROAD / 2, ay + INSET, ROAD, by - ay - 2 * INSET


def _centre(entry: dict[str, Any]) -> tuple[float, float]:
    x, y, w, h = slot_box(entry)
    return x + w / 2, y + h / 2


def _symbol(entry: dict[str, Any], reach: bool = False) -> str:
    """The symbol of a street card on its side of the street, the card's id and, on a card the bus
    to move can reach, the word "reach".

    A card keeps one end free for the buses (see :func:`_bus` and :func:`_bus_room`): on an
    east-west card the symbol (on its side of the street) and the id with "reach" under it (on
    the other side) take the western part; on a north-south card "reach", the symbol and the id
    take the upper part. So a bus marker never covers a STOP badge, the id or "reach".
    """
    x, y, w, h = slot_box(entry)
    cx, cy = _centre(entry)
    side = entry["side"]
    if entry["kind"] == "h":
        off = ROAD / 2 - 10
        sx = x + SYMBOL_AT * w
        sy = cy + off if side == "S" else cy - off
        # the id, then "reach" under it, on the other side of the street (baselines)
        label_y, reach_y = (cy - 14.5, cy - 4.5) if side == "S" else (cy + 10, cy + 20.5)
        mark = _t(sx, reach_y, "reach", size=8, weight="bold", fill=HIGHLIGHT) if reach else ""
        if entry["card"] is None:
            return mark
        label = _t(sx, label_y, entry["card"], size=9, fill="#444")
    else:  # nearer the middle than on an east-west card: a STOP or WORK badge stays on the street
        off = ROAD / 2 - 16
        sx = cx + off if side == "E" else cx - off
        sy = y + 22
        mark = _t(cx, y + 10, "reach", size=8, weight="bold", fill=HIGHLIGHT) if reach else ""
        if entry["card"] is None:
            return mark
        label = _t(cx, y + 39, entry["card"], size=8, fill="#444")
    label += mark
    symbol = entry["symbol"]
    if symbol == "destination":
        colour = entry["colour"]
        ink = COLOUR_INK.get(colour, "#999")
        text = COLOUR_TEXT.get(colour, "#fff")
        return (label + f'<circle cx="{sx:.1f}" cy="{sy:.1f}" r="8" fill="{ink}" stroke="#111"/>'
                + _t(sx, sy + 4, colour[:1].upper(), size=10, weight="bold", fill=text))
    if symbol == "stop":
        return (label + f'<rect x="{sx - 14:.1f}" y="{sy - 7:.1f}" width="28" height="14" rx="3" fill="#fff" '
                f'stroke="#0072B2" stroke-width="1.5"/>' + _t(sx, sy + 4, "STOP", size=8, weight="bold",
                                                              fill="#0072B2"))
    if symbol == "site":
        return (label + f'<rect x="{sx - 15:.1f}" y="{sy - 7:.1f}" width="30" height="14" fill="#F0E442" '
                f'stroke="#111" stroke-dasharray="3 2"/>' + _t(sx, sy + 4, "WORK", size=8, weight="bold"))
    return label


def _bus_room(entry: dict[str, Any]) -> tuple[float, float]:
    """The stretch of a card (pixels along it: x on an east-west card, y on a north-south one) left
    free for the buses by its symbol, id and "reach" (see :func:`_symbol`)."""
    x, y, w, h = slot_box(entry)
    if entry["kind"] == "h":
        return x + SYMBOL_AT * w + 19, x + w - 2
    return y + 43, y + h - 2


def _bus(entry: dict[str, Any], heading: str, seat: int, k: int, used: bool, n: int = 1) -> str:
    """A bus: an arrow along ``heading`` in the right-hand lane, with its seat number, in the free
    end of the card (the east end of an east-west card, the south end of a north-south one), clear
    of the card's symbol, id and "reach" (see :func:`_symbol`).

    Args:
        entry (dict): the card's ``grid`` entry of the view.
        heading (str): ``"N"``, ``"E"``, ``"S"`` or ``"W"``.
        seat (int): whose bus (its colour and number).
        k (int): how many buses in the same lane of this card are drawn before it (nearer the end).
        used (bool): the bus has used its construction site (a dashed outline).
        n (int): how many buses share its lane on this card: the arrows get shorter (at most 11 px
            from centre to tip) so that all of them fit the free end, one behind the other.
    """
    cx, cy = _centre(entry)
    lane = 9
    lo, hi = _bus_room(entry)
    size = min(11.0, (hi - lo - (n - 1)) / n / 1.7)  # an arrow is 1.7 × size long
    dx, dy = {"E": (1, 0), "W": (-1, 0), "S": (0, 1), "N": (0, -1)}[heading]
    forward = dx + dy  # +1 heading east or south, -1 west or north
    end = hi - k * (1.7 * size + 1)  # the far end of this arrow along the card
    along = end - (size if forward > 0 else 0.7 * size)
    # right-hand lane: rotate the heading clockwise (screen y grows downwards)
    rx, ry = -dy, dx
    if entry["kind"] == "h":
        x, y = along, cy + ry * lane
    else:
        x, y = cx + rx * lane, along
    tip = (x + dx * size, y + dy * size)
    left = (x - dx * size * 0.7 + rx * size * 0.7, y - dy * size * 0.7 + ry * size * 0.7)
    right = (x - dx * size * 0.7 - rx * size * 0.7, y - dy * size * 0.7 - ry * size * 0.7)
    ink = SEAT_INK[seat % len(SEAT_INK)]
    dash = ' stroke-dasharray="2 2"' if used else ""
    pts = " ".join(f"{px:.1f},{py:.1f}" for px, py in (tip, left, right))
    font = 9 if size > 10 else 8  # the seat number, in the wide back part of the arrow
    back = 0.17 * size
    return (f'<g class="bus" data-seat="{seat}"><polygon points="{pts}" fill="{ink}" stroke="#fff" '
            f'stroke-width="1.5"{dash}/>' + _t(x - dx * back, y - dy * back + 0.39 * font, str(seat), size=font,
                                                weight="bold", fill="#fff") + "</g>")


def _mini_card(card: dict[str, Any], x: float, y: float, state: str) -> str:
    """A passenger card, 74×30 px: its two passengers (dropped ones ticked), value and speed."""
    fill = {"complete": "#f2f2f2", "half": "#fff", "picked": "#fff", "faceup": "#fff"}[state]
    out = [f'<g class="passenger" data-card="{escape(card["id"])}"><rect x="{x}" y="{y}" width="74" height="30" '
           f'rx="4" fill="{fill}" stroke="#444"/>']
    for i, colour in enumerate(card["colours"]):
        px = x + 11 + i * 19
        ink = COLOUR_INK.get(colour, "#999")
        done = colour in card["dropped"]
        faded = ' opacity="0.45"' if done else ""
        out.append(f'<circle cx="{px}" cy="{y + 15}" r="7.5" fill="{ink}" stroke="#111"{faded}/>')
        out.append(_t(px, y + 19, "✓" if done else colour[:1].upper(), size=9, weight="bold",
                      fill=COLOUR_TEXT.get(colour, "#fff")))
    out.append(_t(x + 56, y + 13, f"{card['value']} pt", size=9, weight="bold"))
    out.append(_t(x + 56, y + 25, f"spd {card['speed']}", size=8, fill="#333"))
    out.append("</g>")
    return "".join(out)


def _progress(seat_view: dict[str, Any], x: float, y: float, vertical: bool, active: bool) -> str:
    """One seat's progress area: picked up, half (one passenger dropped), complete (face down)."""
    seat = seat_view["seat"]
    ink = SEAT_INK[seat % len(SEAT_INK)]
    done = seat_view["complete"]
    total = sum(c["value"] for c in done)
    head = f"Seat {seat} ({seat_view['side']}): {seat_view['points']} pts"
    if active:
        head = "▶ " + head
    out = [_t(x, y, head, size=11, anchor="start", weight="bold", fill=ink),
           _t(x, y + 13, f"complete: {len(done)} card{'s' if len(done) != 1 else ''} face down ({total} pts)",
              size=9, anchor="start", fill="#333")]
    cards = [(c, "picked up", "picked") for c in seat_view["picked_up"]] + \
            [(c, "half", "half") for c in seat_view["half"]]
    if not cards:
        out.append(_t(x, y + 27, "nothing in progress", size=9, anchor="start", fill="#333"))
    for i, (card, tag, state) in enumerate(cards):
        cx, cy = (x, y + 20 + i * 46) if vertical else (x + i * 82, y + 20)
        out.append(_t(cx, cy + 9, tag, size=8, anchor="start", fill="#333"))
        out.append(_mini_card(card, cx, cy + 12, state))
    return "".join(out)


def describe(view: dict[str, Any], status: bool = True) -> str:
    """The table in one or two sentences, for ``aria-label`` and screen readers.

    Args:
        view (dict): a BUS view.
        status (bool): start with the status sentence; ``False`` when it is shown next to the
            drawing anyway (the widget's status line), so it is not read out twice.
    """
    parts = [view["status"]] if status else []
    for s in view["seats"]:
        bus = s["bus"]
        where = f"bus on {bus['slot']} heading {bus['heading']}" if bus else "bus not placed"
        parts.append(f"Seat {s['seat']}: {where}, {len(s['picked_up']) + len(s['half'])} cards in progress, "
                     f"{len(s['complete'])} complete, {s['points']} points.")
    if view["reachable"]:
        parts.append("Reachable this move: " + ", ".join(view["reachable"]) + ".")
    return " ".join(parts)


def grid_svg(view: dict[str, Any], selected: list[str] | None = None, *, status: bool = True) -> str:
    """The whole table as one SVG string, drawn from ``view`` (``State.view(seat)``).

    Args:
        view (dict): a BUS view.
        selected (list[str] | None): slot names to mark as chosen (the widget's construction
            chooser), drawn with a thick dashed outline and "chosen".
        status (bool): put the status sentence in the ``aria-label`` too (see :func:`describe`).
    """
    selected = selected or []
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(describe(view, status))}" '
           f'style="max-width:100%;height:auto;background:#fff;font-family:sans-serif">']
    # the four blocks
    for r in range(2):
        for c in range(2):
            x, y = point((r, c))
            out.append(f'<rect x="{x + ROAD / 2 + 4}" y="{y + ROAD / 2 + 4}" width="{SPAN - ROAD - 8}" '
                       f'height="{SPAN - ROAD - 8}" rx="6" fill="{BLOCK}" stroke="#cfe0c3"/>')
    reach = set(view["reachable"])
    for entry in view["grid"]:
        x, y, w, h = slot_box(entry)
        stroke, width, dash = "#888", 1, ""
        if entry["slot"] in reach:
            stroke, width = HIGHLIGHT, 3.5
        if entry["slot"] in selected:
            stroke, width, dash = "#000", 4, ' stroke-dasharray="6 3"'
        fill = STREET if entry["card"] is not None else "#fafafa"
        out.append(f'<rect class="street" data-slot="{entry["slot"]}" x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" '
                   f'height="{h:.1f}" rx="4" fill="{fill}" stroke="{stroke}" stroke-width="{width}"{dash}/>')
        out.append(_symbol(entry, reach=entry["slot"] in reach))
        if entry["slot"] in selected:
            out.append(_t(x + w / 2, y - 3, "chosen", size=9, weight="bold"))
    for r in range(3):
        for c in range(3):
            px, py = point((r, c))
            out.append(f'<circle cx="{px}" cy="{py}" r="4" fill="#bbb"/>')
            out.append(_t(px - 12, py - 10, f"{'abc'[c]}{r + 1}", size=9, fill="#777"))
    # the last move's route
    by_name = {e["slot"]: e for e in view["grid"]}
    if len(view["route"]) > 1:
        points = []
        for k, label in enumerate(view["route"]):
            name, heading = label.split()
            entry = by_name[name]
            if k:
                points.append(point(entry["b"] if heading in ("W", "N") else entry["a"]))
            points.append(_centre(entry))
        pts = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
        out.append(f'<polyline points="{pts}" fill="none" stroke="#555" stroke-width="2" stroke-dasharray="5 4" '
                   f'opacity="0.7"/>')
    # buses
    for entry in view["grid"]:
        headings = [view["seats"][seat]["bus"]["heading"] for seat in entry["buses"]]
        drawn: dict[str, int] = {}  # buses already drawn in each lane (heading) of this card
        for seat, heading in zip(entry["buses"], headings):
            k = drawn.get(heading, 0)
            drawn[heading] = k + 1
            out.append(_bus(entry, heading, seat, k, view["seats"][seat]["bus"]["site_used"],
                            headings.count(heading)))
    # progress areas
    places = {"south": (150, GRID_Y + 2 * SPAN + 50, False), "north": (150, 22, False),
              "west": (6, GRID_Y - 20, True), "east": (PANEL_X, 330, True)}
    for s in view["seats"]:
        x, y, vertical = places[s["side"]]
        out.append(_progress(s, x, y, vertical, view["to_move"] == s["seat"]))
    # the panel: face-up cards, deck, speed limit, round
    px = PANEL_X
    out.append(_t(px, GRID_Y - 8, "Face-up passengers", size=11, anchor="start", weight="bold"))
    for i, card in enumerate(view["faceup"]):
        out.append(_mini_card(card, px + i * 80, GRID_Y, "faceup"))
    out.append(_t(px, GRID_Y + 50, f"Deck: {view['deck']} card{'s' if view['deck'] != 1 else ''}", size=11,
                  anchor="start"))
    limit = view["speed_limit"]
    if view["node"] == "move":
        text = "Speed limit: none" if limit is None else f"Speed limit: {limit}"
        out.append(_t(px, GRID_Y + 68, text + " (this turn)", size=11, anchor="start", weight="bold"))
    if view["round"]:
        final = " — final round" if view["end"]["trigger"] is not None and view["phase"] != "over" else ""
        out.append(_t(px, GRID_Y + 86, f"Round {view['round']} of at most {view['max_rounds']}{final}", size=11,
                      anchor="start"))
    if view["options"]["challenging"]:
        out.append(_t(px, GRID_Y + 104, "Challenging play: drive on the right", size=10, anchor="start",
                      fill="#8a2a00"))
    if view["winners"]:
        names = " and ".join(f"Seat {s}" for s in view["winners"])
        out.append(_t(px, GRID_Y + 122, f"Winner: {names}", size=12, anchor="start", weight="bold"))
    out.append("</svg>")
    return "".join(out)


def grid_html(view: dict[str, Any], selected: list[str] | None = None, *, status: bool = True) -> str:
    """``<div>`` with the status line and the SVG table (for ``_repr_html_`` and widgets).

    Args:
        view (dict): a BUS view.
        selected (list[str] | None): slots to mark as chosen (see :func:`grid_svg`).
        status (bool): show the status sentence (a line above the drawing, and in its
            ``aria-label``); the widget passes ``False`` because its own status line shows it.
    """
    line = f"<div role='status'><b>{escape(view['status'])}</b></div>" if status else ""
    return f"<div class='bus-city-table'>{line}{grid_svg(view, selected, status=status)}</div>"


def grid_text(view: dict[str, Any]) -> str:
    """The table as plain text: the status, the street cards slot by slot, buses, progress areas,
    face-up cards and deck."""
    lines = [view["status"], "Streets (slot: card, symbol side):"]
    for e in view["grid"]:
        card = "—" if e["card"] is None else e["card"]
        side = f" ({e['side']})" if e["side"] and e["symbol"] != "plain" else ""
        buses = f"  bus {', '.join(str(b) for b in e['buses'])}" if e["buses"] else ""
        reach = "  *reach*" if e["slot"] in view["reachable"] else ""
        lines.append(f"  {e['slot']}: {card}{side}{buses}{reach}")
    for s in view["seats"]:
        bus = s["bus"]
        where = f"{bus['slot']} {bus['heading']}" + (" (site used)" if bus["site_used"] else "") if bus else "—"
        held = ", ".join(c["id"] + (f" [{'+'.join(c['dropped'])} dropped]" if c["dropped"] else "")
                         for c in s["picked_up"] + s["half"]) or "none"
        done = ", ".join(c["id"] for c in s["complete"]) or "none"
        lines.append(f"Seat {s['seat']} ({s['side']}): bus {where}; in progress: {held}; complete: {done}; "
                     f"{s['points']} points")
    faceup = ", ".join(c["id"] for c in view["faceup"]) or "none"
    lines.append(f"Face up: {faceup}; deck: {view['deck']}")
    return "\n".join(lines)
