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

Size: the drawing is :data:`WIDTH` (890) pixels wide, so it fits a notebook output area (about
900-960 px) at full size, and its smallest text is :data:`SMALLEST_TEXT` (11) pixels, for a
classroom projector; no text overlaps another or runs out of its badge, card or street (a card
id too long for its street is shortened with "…"). It shrinks to fit a narrower output area
(``viewBox``, ``max-width:100%``, ``height:auto``).

Accessibility: colours are never the only cue (every passenger colour also has its initial
letter, bus stops say "STOP", the site "WORK"); Okabe-Ito colours; every SVG has ``role="img"``
and an ``aria-label`` describing the table in words.
"""

from __future__ import annotations

from html import escape
from typing import Any

from bus_lab.games.textfit import fit_text, text_px

#: Okabe-Ito colours for the passenger colours of the built-in sheet (others fall back to grey).
COLOUR_INK = {
    "red": "#D55E00",
    "orange": "#E69F00",
    "yellow": "#F0E442",
    "green": "#009E73",
    "blue": "#0072B2",
    "pink": "#CC79A7",
}
#: Text colour drawn on each passenger colour (dark on light fills).
COLOUR_TEXT = {"yellow": "#000", "orange": "#000", "pink": "#000"}
SEAT_INK = ("#222222", "#6A3D9A", "#8C510A")
HIGHLIGHT = "#0072B2"
STREET = "#d9d9d9"
EMPTY_STREET = "#fafafa"
BLOCK = "#eef5e9"
#: The smallest font size used anywhere on the board (pixels at full size).
SMALLEST_TEXT = 11
#: Geometry (pixels): intersection (row, col) is at (GRID_X + col * SPAN, GRID_Y + row * SPAN);
#: a street is ROAD wide and its card leaves INSET at each end, so a card is SPAN - 2 * INSET
#: (106) long: LABEL_ROOM of it for the symbol, the id and "reach", the rest for the buses.
GRID_X, GRID_Y, SPAN = 232, 128, 180
ROAD = 64
INSET = ROAD / 2 + 5
#: Width of the drawing: at most 900, so a notebook output area shows it at full size.
WIDTH, HEIGHT = 890, 624
PANEL_X = 644
#: The part of a card (pixels along it from its west or north end) holding its symbol, id and
#: "reach"; the buses keep to the rest.
LABEL_ROOM = 56
#: A symbol badge (STOP, WORK): width and height; a destination circle's radius.
BADGE_W, BADGE_H, DOT_R = 44, 16, 10
#: A bus marker: its length along the card (at most; shorter when several share a lane), its width
#: across, and how far its lane's middle is from the middle of the street.
BUS_LONG, BUS_WIDE, LANE = 23, 16, 15
#: A passenger card (face up and in the progress areas): width and height, and the pitch of a row of them.
CARD_W, CARD_H, CARD_PITCH = 90, 34, 98


def _t(
    x: float,
    y: float,
    text: str,
    size: int = SMALLEST_TEXT,
    anchor: str = "middle",
    weight: str = "normal",
    fill: str = "#111",
    halo: str | None = None,
) -> str:
    """A ``<text>``; ``halo``: a colour drawn round the letters (the street's own colour), so the
    dashed route passing under a label does not cut through it."""
    ring = f' stroke="{halo}" stroke-width="3" paint-order="stroke"' if halo else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" font-weight="{weight}" '
        f'fill="{fill}"{ring} font-family="sans-serif">{escape(text)}</text>'
    )


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

    A card keeps one end free for the buses (see :func:`_bus` and :func:`_bus_room`): the first
    :data:`LABEL_ROOM` pixels from its west or north end hold the rest. On an east-west card the
    symbol is in the half of the street on its side, the id with "reach" under it in the other
    half; on a north-south card "reach", the symbol (moved towards its side) and the id are one
    under the other. So a bus marker never covers a STOP badge, the id or "reach". An id wider
    than the room is shortened with "…".
    """
    x, y, w, h = slot_box(entry)
    cx, cy = _centre(entry)
    side = entry["side"]
    halo = STREET if entry["card"] is not None else EMPTY_STREET
    word = "reach" if reach else ""
    if entry["kind"] == "h":
        sx = x + LABEL_ROOM / 2
        sy = cy + LANE if side == "S" else cy - LANE
        # the id, then "reach" under it, in the other half of the street (baselines)
        label_y, mark_y = (cy - 19.5, cy - 6) if side == "S" else (cy + 12.5, cy + 26)
        lx = sx
    else:  # one under the other; the symbol towards its side as far as the street allows
        sx, sy = cx, y + 28
        label_y, mark_y = y + 51, y + 13
        lx = cx
    mark = _t(lx, mark_y, word, weight="bold", fill=HIGHLIGHT, halo=halo) if word else ""
    if entry["card"] is None:
        return mark
    label = (
        _t(lx, label_y, fit_text(entry["card"], SMALLEST_TEXT, LABEL_ROOM - 4), fill="#333", halo=halo) + mark
    )
    symbol = entry["symbol"]
    if entry["kind"] == "v":
        half = DOT_R if symbol == "destination" else BADGE_W / 2
        sx += min(LANE, ROAD / 2 - 2 - half) * (1 if side == "E" else -1)
    if symbol == "destination":
        colour = entry["colour"]
        ink = COLOUR_INK.get(colour, "#999")
        text = COLOUR_TEXT.get(colour, "#fff")
        return (
            label + f'<circle class="symbol" cx="{sx:.1f}" cy="{sy:.1f}" r="{DOT_R}" fill="{ink}" '
            f'stroke="#111"/>' + _t(sx, sy + 4, colour[:1].upper(), weight="bold", fill=text)
        )
    if symbol == "stop":
        return (
            label + f'<rect class="symbol" x="{sx - BADGE_W / 2:.1f}" y="{sy - BADGE_H / 2:.1f}" '
            f'width="{BADGE_W}" height="{BADGE_H}" rx="3" fill="#fff" stroke="#0072B2" stroke-width="1.5"/>'
            + _t(sx, sy + 4, "STOP", weight="bold", fill="#0072B2")
        )
    if symbol == "site":
        return (
            label + f'<rect class="symbol" x="{sx - BADGE_W / 2:.1f}" y="{sy - BADGE_H / 2:.1f}" '
            f'width="{BADGE_W}" height="{BADGE_H}" fill="#F0E442" stroke="#111" stroke-dasharray="3 2"/>'
            + _t(sx, sy + 4, "WORK", weight="bold")
        )
    return label


def _bus_room(entry: dict[str, Any]) -> tuple[float, float]:
    """The stretch of a card (pixels along it: x on an east-west card, y on a north-south one) left
    free for the buses by its symbol, id and "reach" (see :func:`_symbol`)."""
    x, y, w, h = slot_box(entry)
    if entry["kind"] == "h":
        return x + LABEL_ROOM, x + w - 2
    return y + LABEL_ROOM, y + h - 2


def _bus(entry: dict[str, Any], heading: str, seat: int, k: int, used: bool, n: int = 1) -> str:
    """A bus: an arrow along ``heading`` in the right-hand lane (a body with the seat number and a
    pointed nose), in the free end of the card (the east end of an east-west card, the south end
    of a north-south one), clear of the card's symbol, id and "reach" (see :func:`_symbol`).

    Args:
        entry (dict): the card's ``grid`` entry of the view.
        heading (str): ``"N"``, ``"E"``, ``"S"`` or ``"W"``.
        seat (int): whose bus (its colour and number).
        k (int): how many buses in the same lane of this card are drawn before it (nearer the end).
        used (bool): the bus has used its construction site (a dashed outline).
        n (int): how many buses share its lane on this card: the arrows get shorter (at most
            :data:`BUS_LONG` px) so that all of them fit the free end, one behind the other.
    """
    cx, cy = _centre(entry)
    lo, hi = _bus_room(entry)
    long = min(BUS_LONG, (hi - lo - (n - 1)) / n)
    dx, dy = {"E": (1, 0), "W": (-1, 0), "S": (0, 1), "N": (0, -1)}[heading]
    forward = dx + dy  # +1 heading east or south, -1 west or north
    end = hi - k * (long + 1)  # the far end of this arrow along the card
    back, tip = (end - long, end) if forward > 0 else (end, end - long)
    shoulder = tip - forward * 0.3 * long
    # the seat number: in the middle of the body, moved towards the nose as far as it must to stay
    # on the marker when several buses share the lane and the markers are short
    digit = (0.93 + 0.24) * SMALLEST_TEXT / 2 if entry["kind"] == "v" else text_px("0", SMALLEST_TEXT) / 2
    middle = min(max((back + shoulder) / 2, min(back, tip) + digit), max(back, tip) - digit)
    # right-hand lane: rotate the heading clockwise (screen y grows downwards)
    lane = (cy + dx * LANE) if entry["kind"] == "h" else (cx - dy * LANE)
    half = BUS_WIDE / 2
    outline = (
        (back, lane - half),
        (shoulder, lane - half),
        (tip, lane),
        (shoulder, lane + half),
        (back, lane + half),
    )
    if entry["kind"] == "v":  # (along, across) -> (x, y)
        outline = tuple((a, b) for b, a in outline)
        nx, ny = lane, middle
    else:
        nx, ny = middle, lane
    ink = SEAT_INK[seat % len(SEAT_INK)]
    dash = ' stroke-dasharray="2 2"' if used else ""
    pts = " ".join(f"{px:.1f},{py:.1f}" for px, py in outline)
    return (
        f'<g class="bus" data-seat="{seat}"><polygon points="{pts}" fill="{ink}" stroke="#fff" '
        f'stroke-width="1.5"{dash}/>' + _t(nx, ny + 4, str(seat), weight="bold", fill="#fff") + "</g>"
    )


def _mini_card(card: dict[str, Any], x: float, y: float, state: str) -> str:
    """A passenger card, :data:`CARD_W` × :data:`CARD_H` px: its two passengers (dropped ones
    ticked), value and speed."""
    fill = {"complete": "#f2f2f2", "half": "#fff", "picked": "#fff", "faceup": "#fff"}[state]
    out = [
        f'<g class="passenger" data-card="{escape(card["id"])}"><rect x="{x}" y="{y}" width="{CARD_W}" '
        f'height="{CARD_H}" rx="4" fill="{fill}" stroke="#444"/>'
    ]
    for i, colour in enumerate(card["colours"]):
        px = x + 15 + i * 23
        ink = COLOUR_INK.get(colour, "#999")
        done = colour in card["dropped"]
        faded = ' opacity="0.45"' if done else ""
        out.append(f'<circle cx="{px}" cy="{y + CARD_H / 2}" r="{DOT_R}" fill="{ink}" stroke="#111"{faded}/>')
        out.append(
            _t(
                px,
                y + CARD_H / 2 + 4,
                "✓" if done else colour[:1].upper(),
                weight="bold",
                fill=COLOUR_TEXT.get(colour, "#fff"),
            )
        )
    out.append(_t(x + 70, y + 15, f"{card['value']} pt", weight="bold"))
    out.append(_t(x + 70, y + 29, f"spd {card['speed']}", fill="#333"))
    out.append("</g>")
    return "".join(out)


def _progress(seat_view: dict[str, Any], x: float, y: float, vertical: bool, active: bool) -> str:
    """One seat's progress area: picked up, half (one passenger dropped), complete (face down).

    ``(x, y)``: the start of its heading's baseline. Across the top or bottom of the grid the
    cards in progress are side by side; in a column beside it (``vertical``) one under the other,
    and the complete cards are said on two lines so the column stays narrow.
    """
    seat = seat_view["seat"]
    ink = SEAT_INK[seat % len(SEAT_INK)]
    done = seat_view["complete"]
    total = sum(c["value"] for c in done)
    head = f"Seat {seat} ({seat_view['side']}): {seat_view['points']} pts"
    if active:
        head = "▶ " + head
    out = [_t(x, y, head, anchor="start", weight="bold", fill=ink)]
    count = f"complete: {len(done)} card{'s' if len(done) != 1 else ''}"
    lines = [count, f"face down ({total} pts)"] if vertical else [f"{count} face down ({total} pts)"]
    for i, line in enumerate(lines):
        out.append(_t(x, y + 15 * (i + 1), line, anchor="start", fill="#333"))
    top = y + 15 * len(lines) + 4  # where the cards in progress start
    cards = [(c, "picked up", "picked") for c in seat_view["picked_up"]] + [
        (c, "half", "half") for c in seat_view["half"]
    ]
    if not cards:
        out.append(_t(x, top + 13, "nothing in progress", anchor="start", fill="#333"))
    for i, (card, tag, state) in enumerate(cards):
        cx, cy = (x, top + i * (CARD_H + 22)) if vertical else (x + i * CARD_PITCH, top)
        out.append(_t(cx, cy + 13, tag, anchor="start", fill="#333"))
        out.append(_mini_card(card, cx, cy + 17, state))
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
        parts.append(
            f"Seat {s['seat']}: {where}, {len(s['picked_up']) + len(s['half'])} cards in progress, "
            f"{len(s['complete'])} complete, {s['points']} points."
        )
    if view["reachable"]:
        parts.append("Reachable this move: " + ", ".join(view["reachable"]) + ".")
    return " ".join(parts)


def grid_svg(view: dict[str, Any], *, status: bool = True) -> str:
    """The whole table as one SVG string, drawn from ``view`` (``State.view(seat)``).

    Args:
        view (dict): a BUS view.
        status (bool): put the status sentence in the ``aria-label`` too (see :func:`describe`).
    """
    reach = set(view["reachable"])
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(describe(view, status))}" '
        f'style="max-width:100%;height:auto;background:#fff;font-family:sans-serif">'
    ]
    out += _blocks()
    out += [_street(entry, entry["slot"] in reach) for entry in view["grid"]]
    out += _route(view)  # under the symbols and labels
    out += [_symbol(e, reach=e["slot"] in reach) for e in view["grid"]]
    out += _intersections()
    out += _buses(view)
    out += _progress_areas(view)
    out += _panel(view)
    out.append("</svg>")
    return "".join(out)


def _blocks() -> list[str]:
    """The four blocks of houses between the streets."""
    out = []
    for r in range(2):
        for c in range(2):
            x, y = point((r, c))
            out.append(
                f'<rect x="{x + ROAD / 2 + 4}" y="{y + ROAD / 2 + 4}" width="{SPAN - ROAD - 8}" '
                f'height="{SPAN - ROAD - 8}" rx="6" fill="{BLOCK}" stroke="#cfe0c3"/>'
            )
    return out


def _street(entry: dict[str, Any], reach: bool) -> str:
    """A street card's outline: thick blue when the bus to move can reach it."""
    x, y, w, h = slot_box(entry)
    stroke, width = "#888", 1.0
    if reach:
        stroke, width = HIGHLIGHT, 3.5
    fill = STREET if entry["card"] is not None else EMPTY_STREET
    return (
        f'<rect class="street" data-slot="{entry["slot"]}" x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" '
        f'height="{h:.1f}" rx="4" fill="{fill}" stroke="{stroke}" stroke-width="{width:g}"/>'
    )


def _route(view: dict[str, Any]) -> list[str]:
    """The last move's route as a dashed line through the intersections it crossed."""
    if len(view["route"]) <= 1:
        return []
    by_name = {e["slot"]: e for e in view["grid"]}
    points = []
    for k, label in enumerate(view["route"]):
        name, heading = label.split()
        entry = by_name[name]
        if k:
            points.append(point(entry["b"] if heading in ("W", "N") else entry["a"]))
        points.append(_centre(entry))
    pts = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
    return [
        f'<polyline points="{pts}" fill="none" stroke="#555" stroke-width="2" stroke-dasharray="5 4" '
        f'opacity="0.7"/>'
    ]


def _intersections() -> list[str]:
    """The nine intersections with their names (a1 to c3)."""
    out = []
    for r in range(3):
        for c in range(3):
            px, py = point((r, c))
            out.append(f'<circle cx="{px}" cy="{py}" r="4" fill="#bbb"/>')
            out.append(_t(px - 15, py - 10, f"{'abc'[c]}{r + 1}", fill="#666"))
    return out


def _buses(view: dict[str, Any]) -> list[str]:
    """Every bus on its card, one behind the other when several share a lane."""
    out = []
    for entry in view["grid"]:
        buses = [(seat, view["seats"][seat]["bus"]) for seat in entry["buses"]]
        headings = [bus["heading"] for _, bus in buses]
        drawn: dict[str, int] = {}  # buses already drawn in each lane (heading) of this card
        for seat, bus in buses:
            heading = bus["heading"]
            k = drawn.get(heading, 0)
            drawn[heading] = k + 1
            out.append(_bus(entry, heading, seat, k, bus["site_used"], headings.count(heading)))
    return out


def _progress_areas(view: dict[str, Any]) -> list[str]:
    """Each seat's progress area: across the top and the bottom of the grid, in a column left of
    it, and (a fourth seat) under the panel."""
    left = GRID_X - ROAD / 2
    places = {
        "south": (left, GRID_Y + 2 * SPAN + ROAD / 2 + 26, False),
        "north": (left, 18, False),
        "west": (8, GRID_Y - 14, True),
        "east": (PANEL_X, GRID_Y + 170, True),
    }
    out = []
    for s in view["seats"]:
        x, y, vertical = places[s["side"]]
        out.append(_progress(s, x, y, vertical, view["to_move"] == s["seat"]))
    return out


def _line(y: float, text: str, size: int = SMALLEST_TEXT, weight: str = "normal", fill: str = "#111") -> str:
    """A line of the panel, shortened with "…" to fit it."""
    room = WIDTH - PANEL_X - 6
    return _t(
        PANEL_X,
        y,
        fit_text(text, size, room, bold=weight == "bold"),
        size=size,
        anchor="start",
        weight=weight,
        fill=fill,
    )


def _panel(view: dict[str, Any]) -> list[str]:
    """The panel beside the grid: face-up cards, deck, speed limit, round, options, winners."""
    out = [_line(GRID_Y - 14, "Face-up passengers", weight="bold")]
    for i, card in enumerate(view["faceup"]):
        out.append(_mini_card(card, PANEL_X + i * CARD_PITCH, GRID_Y - 6, "faceup"))
    y = GRID_Y - 6 + CARD_H + 20
    out.append(_line(y, f"Deck: {view['deck']} card{'s' if view['deck'] != 1 else ''}"))
    limit = view["speed_limit"]
    if view["node"] == "move":
        text = "Speed limit: none" if limit is None else f"Speed limit: {limit}"
        out.append(_line(y + 18, text + " (this turn)", weight="bold"))
    if view["round"]:
        final = " — final round" if view["end"]["trigger"] is not None and view["phase"] != "over" else ""
        out.append(_line(y + 36, f"Round {view['round']} of at most {view['max_rounds']}{final}"))
    if view["options"]["challenging"]:
        out.append(_line(y + 54, "Challenging play: drive on the right", fill="#8a2a00"))
    return out + _winners(view, y + 74)


def _winners(view: dict[str, Any], y: float) -> list[str]:
    """The winners, at the end: on one line, or the names on a line of their own when too long."""
    winners = view["winners"]
    if not winners:
        return []
    names = [f"Seat {s}" for s in winners]
    joined = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
    head = f"Winner{'s' if len(winners) > 1 else ''}:"
    if text_px(f"{head} {joined}", 13, bold=True) <= WIDTH - PANEL_X - 6:
        return [_line(y, f"{head} {joined}", size=13, weight="bold")]
    return [_line(y, head, size=13, weight="bold"), _line(y + 18, joined, size=13, weight="bold")]


def grid_html(view: dict[str, Any], *, status: bool = True) -> str:
    """``<div>`` with the status line and the SVG table (for ``_repr_html_`` and widgets).

    Args:
        view (dict): a BUS view.
        status (bool): show the status sentence (a line above the drawing, and in its
            ``aria-label``).
    """
    line = f"<div role='status'><b>{escape(view['status'])}</b></div>" if status else ""
    return f"<div class='bus-city-table'>{line}{grid_svg(view, status=status)}</div>"


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
        where = (
            f"{bus['slot']} {bus['heading']}" + (" (site used)" if bus["site_used"] else "") if bus else "—"
        )
        held = (
            ", ".join(
                c["id"] + (f" [{'+'.join(c['dropped'])} dropped]" if c["dropped"] else "")
                for c in s["picked_up"] + s["half"]
            )
            or "none"
        )
        done = ", ".join(c["id"] for c in s["complete"]) or "none"
        lines.append(
            f"Seat {s['seat']} ({s['side']}): bus {where}; in progress: {held}; complete: {done}; "
            f"{s['points']} points"
        )
    faceup = ", ".join(c["id"] for c in view["faceup"]) or "none"
    lines.append(f"Face up: {faceup}; deck: {view['deck']}")
    return "\n".join(lines)
