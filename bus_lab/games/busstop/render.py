"""Drawing a Busstop table from ``State.view()``: SVG/HTML for notebooks and widgets, text for
terminals and logs.

The picture: the line-up (queue slots q1…qQ, BSB-ROUND-LINEUP) under the player-order zone with
its icons (black arrows to slots, a white icon, the conductor symbol, BSB-COMP-ZONE), the tiles
played this round (face down until the reveal, BSB-ROUND-BID), then one row per board: the three
buses with their seats and sort (BSB-BOARD-SORT; the third one locked until BSB-EXTRA-BUS), the
temporary queue with its 13 spaces and the overflow (BSB-QUEUE) with the passengers still to place
below it, and the score. The drawing is :data:`WIDTH` (880) pixels wide, so it fits a notebook
output area (about 900-960 px) without scrolling sideways, and it shrinks to fit a narrower one.

Accessibility: every passenger shows its sort as letters (Ba, Ch, Gi, Sa, Gr; a VIP adds a star,
an ET reads ET; a player tile shows its number), so colour (the Okabe-Ito palette) is never the only
cue; the SVG has ``role="img"`` and an ``aria-label`` describing the table in words.
"""
from __future__ import annotations

from html import escape
from typing import Any

from bus_lab.games.busstop.components import KIND_CODES
from bus_lab.games.busstop.state import KIND_LABELS

SORTS = ("baby", "child", "girl", "salaryman", "granny")
SHORT = {"baby": "Ba", "child": "Ch", "girl": "Gi", "salaryman": "Sa", "granny": "Gr"}
#: Okabe-Ito colours, one per sort (letters are always printed too).
FILL = {"baby": "#E69F00", "child": "#56B4E9", "girl": "#CC79A7", "salaryman": "#009E73", "granny": "#F0E442",
        "ET": "#BBBBBB"}
INK = "#111111"
MUTED = "#444444"
HIGHLIGHT = "#0072B2"
SEAT_COLOURS = ("#D55E00", "#0072B2", "#009E73", "#CC79A7", "#E69F00")
T = 24  # passenger tile size (pixels)
GAP = 3
SMALL = 17  # a passenger in a queue or still to place (pixels)
#: Width of the drawing in pixels: every part of the table fits inside (it is at most 900, the width of a
#: notebook output area, so the table never scrolls sideways); see :func:`table_svg`.
WIDTH = 880
BUSES_X = 150  # where each board's first bus starts; the column left of it names the board
BOARDS_Y = 150
ROW_H = 66
KIND_BY_CODE = {c: ("ET" if c == "ET" else SORTS[i % 5], 5 <= i < 10) for i, c in enumerate(KIND_CODES)}
#: The letters printed on a passenger of each kind code (``"VGi"`` reads ``"Gi★"``); the log uses the same.
LABEL_BY_CODE = dict(zip(KIND_CODES, KIND_LABELS))


def describe(code: str, tile_sorts: dict[str, str]) -> tuple[str, bool, int | None, int | None]:
    """``(sort or "ET", is VIP, owner, number)`` of a passenger written as in a view: a kind code
    (``"Gi"``, ``"VGi"``, ``"ET"``) or a player tile ``"owner/number"``."""
    if "/" in code:
        owner, number = code.split("/")
        return tile_sorts[number], False, int(owner), int(number)
    sort, vip = KIND_BY_CODE[code]
    return sort, vip, None, None


def passenger_words(code: str, tile_sorts: dict[str, str], names: list[str] | None = None) -> str:
    """A passenger in words: ``"girl"``, ``"VIP girl"``, ``"ET"``, ``"tile 7 (salaryman)"``."""
    sort, vip, owner, number = describe(code, tile_sorts)
    if number is not None:
        whose = f"{names[owner]}'s " if names else ""
        return f"{whose}tile {number} ({sort})"
    return f"VIP {sort}" if vip else sort


def passenger_svg(code: str, x: float, y: float, tile_sorts: dict[str, str], size: int = T) -> str:
    """One passenger tile at ``(x, y)``: sort colour and letters; a VIP has a star and a thick
    border; a player tile shows its number with the sort's letters below; an ET reads ET."""
    sort, vip, owner, number = describe(code, tile_sorts)
    fill = FILL[sort]
    stroke = SEAT_COLOURS[owner % 5] if owner is not None else INK
    width = 3 if vip or owner is not None else 1
    words = escape(passenger_words(code, tile_sorts))
    out = [f'<g><title>{words}</title><rect x="{x}" y="{y}" width="{size}" height="{size}" rx="4" fill="{fill}" '
           f'stroke="{stroke}" stroke-width="{width}"/>']
    mid = x + size / 2
    if number is not None:
        out.append(f'<text x="{mid}" y="{y + size * 0.5}" font-size="{size * 0.42:.0f}" font-weight="bold" '
                   f'text-anchor="middle" fill="{INK}" font-family="sans-serif">{number}</text>'
                   f'<text x="{mid}" y="{y + size * 0.9}" font-size="{size * 0.3:.0f}" text-anchor="middle" '
                   f'fill="{INK}" font-family="sans-serif">{SHORT[sort]}</text>')
    else:
        label = LABEL_BY_CODE[code]
        out.append(f'<text x="{mid}" y="{y + size * 0.65}" font-size="{size * (0.36 if vip else 0.42):.0f}" '
                   f'font-weight="bold" text-anchor="middle" fill="{INK}" font-family="sans-serif">{label}</text>')
    out.append("</g>")
    return "".join(out)


def _empty(x: float, y: float, label: str = "", size: int = T, dashed: bool = True, stroke: str = "#999") -> str:
    dash = ' stroke-dasharray="3 2"' if dashed else ""
    text = (f'<text x="{x + size / 2}" y="{y + size * 0.62}" font-size="9" text-anchor="middle" fill="{MUTED}" '
            f'font-family="sans-serif">{escape(label)}</text>') if label else ""
    return (f'<rect x="{x}" y="{y}" width="{size}" height="{size}" rx="4" fill="#fbfbf8" stroke="{stroke}"'
            f'{dash}/>{text}')


def _text(x: float, y: float, text: str, size: int = 12, weight: str = "normal", anchor: str = "start",
          fill: str = INK) -> str:
    return (f'<text x="{x}" y="{y}" font-size="{size}" font-weight="{weight}" text-anchor="{anchor}" '
            f'fill="{fill}" font-family="sans-serif">{escape(text)}</text>')


def _tile_card(x: float, y: float, number: int | None, owner: int, hidden: bool = False) -> str:
    """A played player tile: its number (face up) or a back (face down)."""
    colour = SEAT_COLOURS[owner % 5]
    if hidden:
        return (f'<g><title>a tile chosen face down</title><rect x="{x}" y="{y}" width="{T}" height="{T}" rx="4" '
                f'fill="{colour}" stroke="{INK}"/><text x="{x + T / 2}" y="{y + T * 0.68}" font-size="13" '
                f'text-anchor="middle" fill="white" font-family="sans-serif">?</text></g>')
    return (f'<g><rect x="{x}" y="{y}" width="{T}" height="{T}" rx="4" fill="white" stroke="{colour}" '
            f'stroke-width="3"/>{_text(x + T / 2, y + T * 0.7, str(number), 13, "bold", "middle")}</g>')


def table_summary(view: dict[str, Any]) -> str:
    """The table in one or two sentences (the SVG's ``aria-label``)."""
    names = view["names"]
    parts = [f"Busstop, round {view['round']} of {view['rounds']}.", view["status"]]
    for k, board in enumerate(view["boards"]):
        buses = "; ".join(
            f"bus {b + 1} {len(bus['passengers'])}/{bus['seats']}" + (f" {bus['sort']}" if bus["sort"] else "")
            + ("" if bus["open"] else " locked") for b, bus in enumerate(board["buses"]))
        parts.append(f"{names[k]}: {buses}; queue {len(board['queue'])}; score pile {len(board['pile'])}.")
    return " ".join(parts)


def table_svg(view: dict[str, Any]) -> str:
    """The whole table as one SVG string, drawn from ``view`` (see :meth:`BusstopState.view`)."""
    tile_sorts = view["tile_sorts"]
    names = view["names"]
    n = view["participants"]
    out: list[str] = []
    y = 18
    out.append(_text(10, y, f"Round {view['round']} of {view['rounds']}", 14, "bold"))
    out.append(_text(150, y, f"Conductor: {names[view['conductor']]}   ·   Stack: {view['stack']['left']} "
                     "face down", 12))
    # the zone above the line-up
    y = 34
    col = 96
    x0 = 60
    out.append(_text(10, y + 16, "Zone", 12, "bold"))
    for i, pos in enumerate(view["zone"]):
        x = x0 + i * col
        current = view["take_position"] == i
        out.append(f'<rect x="{x}" y="{y}" width="{col - 6}" height="52" rx="5" fill="#f2f6fa" '
                   f'stroke="{HIGHLIGHT if current else "#889"}" stroke-width="{3 if current else 1}"/>')
        out.append(_text(x + 4, y + 13, f"P{i + 1}" + (" ▶" if current else ""), 11, "bold"))
        if pos["conductor"]:
            out.append(_text(x + col - 10, y + 13, "♛ cond.", 9, anchor="end", fill=MUTED))
        icons = []
        for slot in pos["black"]:
            icons.append(f'<circle cx="{x + 10 + 16 * len(icons)}" cy="{y + 25}" r="6" fill="{INK}"/>'
                         f'{_text(x + 10 + 16 * len(icons), y + 41, f"q{slot}", 9, anchor="middle")}')
        if pos["white"]:
            icons.append(f'<circle cx="{x + 10 + 16 * len(icons)}" cy="{y + 25}" r="6" fill="white" stroke="{INK}"/>'
                         f'{_text(x + 10 + 16 * len(icons), y + 41, "W", 9, anchor="middle")}')
        out.extend(icons)
        if pos["holder"] is not None:
            out.append(_tile_card(x + col - 6 - T - 3, y + 25, pos["tile"], pos["holder"]))
            out.append(_text(x + 4, y + 50, names[pos["holder"]].replace("the proxy bus", "proxy"), 9, fill=MUTED))
    # the line-up
    y = 96
    out.append(_text(10, y + 16, "Line-up", 12, "bold"))
    for s in range(view["slots"]):
        x = x0 + s * (T + 14)
        code = view["lineup"][s] if s < len(view["lineup"]) else None
        out.append(passenger_svg(code, x, y, tile_sorts) if code else _empty(x, y, f"q{s + 1}"))
        out.append(_text(x + T / 2, y + T + 11, f"q{s + 1}", 9, anchor="middle", fill=MUTED))
    # tiles played this round, right of the zone
    bx = x0 + n * col + 20
    out.append(_text(bx, 44, "Tiles played", 11, "bold"))
    for k, bid in enumerate(view["bids"]):
        x, ty = bx + k * (T + 24), 50
        if bid["state"] == "none":
            out.append(_empty(x, ty, "–"))
        else:
            out.append(_tile_card(x, ty, bid["tile"], k, hidden=bid["state"] == "hidden"))
        short = "proxy" if k == view["proxy"] else f"S{k}"
        out.append(_text(x + T / 2, ty + T + 11, short, 9, anchor="middle", fill=MUTED))
    if view["played"]:
        px = x0 + view["slots"] * (T + 14) + 30
        out.append(_text(px, y - 4, "Left for white icons", 11, "bold"))
        for i, tile in enumerate(view["played"]):
            code = f"{tile['owner']}/{tile['tile']}"
            out.append(passenger_svg(code, px + i * (T + GAP), y, tile_sorts))
    # the boards
    y = BOARDS_Y
    acting = view["acting"] if view["node"] in ("place", "board") else None
    for k, board in enumerate(view["boards"]):
        out.append(_board_row(view, k, board, y + k * ROW_H, acting == k))
    height = y + n * ROW_H + 4
    label = escape(table_summary(view))
    # At most WIDTH pixels wide (it fits a 900-pixel notebook output area at full size); in a
    # narrower area it shrinks with its container (viewBox, max-width, height:auto).
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}" style="max-width:100%;height:auto;background:white" '
            f'role="img" aria-label="{label}">{"".join(out)}</svg>')


def _board_row(view: dict[str, Any], k: int, board: dict[str, Any], top: float, here: bool) -> str:
    """One participant's board as a row of the table: who and what they know (left), the buses,
    the queue with the passengers still to place below it, and the score (right)."""
    tile_sorts = view["tile_sorts"]
    colour = SEAT_COLOURS[k % 5]
    out = [f'<rect x="4" y="{top}" width="{WIDTH - 8}" height="{ROW_H - 6}" rx="6" '
           f'fill="{"#eef5fb" if here else "#fafafa"}" stroke="{HIGHLIGHT if here else colour}" '
           f'stroke-width="{3 if here else 1.5}"/>']
    # left: the name, then one short line each (they never run into the first bus)
    label = board["name"] + (" ♛" if k == view["conductor"] else "") + (" ▶" if here else "")
    out.append(_text(10, top + 15, label, 12, "bold", fill=INK))
    lines = []
    if k == view["proxy"] and view["proxy_player"] is not None:
        lines.append(f"run by Seat {view['proxy_player']}")
    if board["bonus_sort"]:
        lines.append(f"bonus: {board['bonus_sort']}")
    if board["requirement"]:
        lines.append(f"goal: {board['requirement'].replace('_', ' ')}")
    if k == view["proxy"]:
        lines.append(f"{len(board['hand'])} tiles face down")
    elif board["hand"]:
        lines.append("hand " + " ".join(map(str, board["hand"])))
    for i, line in enumerate(lines):  # at most three: bonus, goal and hand (the proxy: two)
        out.append(_text(10, top + 27 + 11 * i, line, 9, fill=MUTED))
    # the buses
    x = BUSES_X
    for b, bus in enumerate(board["buses"]):
        w = bus["seats"] * (T + GAP) + 8
        out.append(f'<rect x="{x}" y="{top + 14}" width="{w}" height="{T + 10}" rx="8" '
                   f'fill="{"#ffffff" if bus["open"] else "#e4e4e4"}" stroke="{MUTED}"/>')
        title = f"bus {b + 1}" + (f": {bus['sort']}" if bus["sort"] else "") + ("" if bus["open"] else " (locked)")
        out.append(_text(x + 2, top + 11, title, 9, fill=MUTED))
        for s in range(bus["seats"]):
            sx, sy = x + 5 + s * (T + GAP), top + 19
            if s < len(bus["passengers"]):
                out.append(passenger_svg(bus["passengers"][s], sx, sy, tile_sorts))
            else:
                out.append(_empty(sx, sy, "" if bus["open"] else "×"))
        x += w + 6
    # the queue: 13 spaces on the board, the rest off the board (said on its title line)
    qx = x + 4
    spaces = view["queue_spaces"]
    queue = board["queue"]
    out.append(_text(qx, top + 11, f"queue {len(queue)} (−2 each, VIP −6)", 9, fill=MUTED))
    over = len(queue) - spaces
    if over > 0:
        out.append(_text(qx + spaces * (SMALL + 2), top + 11, f"+{over} off board", 9, "bold", "end",
                         fill="#8a2a00"))
    for s in range(spaces):
        sx = qx + s * (SMALL + 2)
        if s < len(queue):
            out.append(passenger_svg(queue[s], sx, top + 19, tile_sorts, size=SMALL))
        else:
            out.append(_empty(sx, top + 19, "9" if s == 8 else "", size=SMALL))
    # the passengers still to place, under the queue
    if board["received"]:
        out.append(_text(qx, top + 51, "to place", 9, "bold", fill=HIGHLIGHT))
        room = (spaces * (SMALL + 2) - 44) // (SMALL + 2)
        for i, code in enumerate(board["received"][:room]):
            out.append(passenger_svg(code, qx + 44 + i * (SMALL + 2), top + 39, tile_sorts, size=SMALL))
        if len(board["received"]) > room:
            out.append(_text(qx + spaces * (SMALL + 2), top + 51, f"+{len(board['received']) - room}", 9, "bold",
                             "end", fill=HIGHLIGHT))
    # the score
    px = qx + spaces * (SMALL + 2) + 10
    out.append(_text(px, top + 11, f"score pile {len(board['pile'])}", 9, fill=MUTED))
    if k < view["players"]:
        out.append(_text(px, top + 31, f"{view['scores'][k]} pts", 13, "bold"))
        if board["penalty"]:
            out.append(_text(px, top + 46, f"{len(board['penalty'])} penalty tiles", 9, fill="#8a2a00"))
    return "".join(out)


def table_html(view: dict[str, Any]) -> str:
    """The table as HTML (the SVG and the status sentence), for notebooks."""
    return (f"<div class='bus-lab-busstop'>{table_svg(view)}"
            f"<div role='status'>{escape(view['status'])}</div></div>")


def table_text(view: dict[str, Any]) -> str:
    """The table as plain text, one block per board (used by ``print(state)``)."""
    tile_sorts = view["tile_sorts"]
    names = view["names"]

    def words(codes: list[str]) -> str:
        return ", ".join(passenger_words(c, tile_sorts, names) for c in codes) or "-"

    lines = [f"Busstop, round {view['round']} of {view['rounds']}; conductor {names[view['conductor']]}; "
             f"stack {view['stack']['left']} left.", view["status"]]
    if view["lineup"]:
        slots = [f"q{i + 1} {passenger_words(c, tile_sorts, names) if c else '(taken)'}"
                 for i, c in enumerate(view["lineup"])]
        lines.append("Line-up: " + ", ".join(slots))
    bids = []
    for k, bid in enumerate(view["bids"]):
        if bid["state"] != "none":
            bids.append(f"{names[k]} {bid['tile'] if bid['state'] == 'shown' else '(face down)'}")
    if bids:
        lines.append("Tiles: " + ", ".join(bids))
    for k, board in enumerate(view["boards"]):
        buses = " | ".join(
            f"bus {b + 1} [{len(bus['passengers'])}/{bus['seats']}"
            + (f" {bus['sort']}" if bus["sort"] else "") + ("" if bus["open"] else ", locked") + "]: "
            + words(bus["passengers"]) for b, bus in enumerate(board["buses"]))
        score = f"; {view['scores'][k]} points" if k < view["players"] else ""
        lines.append(f"{board['name']}: {buses}")
        lines.append(f"    queue ({len(board['queue'])}): {words(board['queue'])}; pile {len(board['pile'])}{score}"
                     + (f"; penalty {len(board['penalty'])}" if board["penalty"] else "")
                     + (f"; to place: {words(board['received'])}" if board["received"] else ""))
    return "\n".join(lines)
