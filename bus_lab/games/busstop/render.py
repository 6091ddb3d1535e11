"""Drawing a Busstop table from ``State.view()``: SVG/HTML for notebooks and widgets, text for
terminals and logs.

The picture: the player-order zone with its icons (black arrows to queue slots, a white icon, the
conductor symbol, BSB-COMP-ZONE) and the tiles played this round (face down until the reveal,
BSB-ROUND-BID), the line-up (queue slots q1…qQ, BSB-ROUND-LINEUP) with the tiles left for the
white icons, then one block per board: who and what they know (left), the three buses with their
seats and sort (BSB-BOARD-SORT; the third one locked until BSB-EXTRA-BUS) and the score (right);
under the buses the temporary queue with its 13 spaces and the overflow (BSB-QUEUE), then the
passengers still to place.

Size: the drawing is :data:`WIDTH` (880) pixels wide, so it fits a notebook output area (about
900-960 px) at full size without scrolling sideways, and its smallest text is
:data:`SMALLEST_TEXT` (11) pixels; it shrinks to fit a narrower output area (``viewBox``,
``max-width:100%``, ``height:auto``).

Accessibility: every passenger shows its sort as letters (Ba, Ch, Gi, Sa, Gr; a VIP adds a star,
an ET reads ET; a player tile shows its number), so colour (the Okabe-Ito palette) is never the only
cue; the SVG has ``role="img"`` and an ``aria-label`` describing the table in words (see
:func:`table_summary`).
"""

from __future__ import annotations

from html import escape
from typing import Any

from bus_lab.games.busstop.components import KIND_CODES
from bus_lab.games.busstop.state import KIND_LABELS
from bus_lab.games.textfit import fit_text as _fit
from bus_lab.games.textfit import text_px, wrap_text

SORTS = ("baby", "child", "girl", "salaryman", "granny")
SHORT = {"baby": "Ba", "child": "Ch", "girl": "Gi", "salaryman": "Sa", "granny": "Gr"}
#: Okabe-Ito colours, one per sort (letters are always printed too).
FILL = {
    "baby": "#E69F00",
    "child": "#56B4E9",
    "girl": "#CC79A7",
    "salaryman": "#009E73",
    "granny": "#F0E442",
    "ET": "#BBBBBB",
}
INK = "#111111"
MUTED = "#444444"
HIGHLIGHT = "#0072B2"
SEAT_COLOURS = ("#D55E00", "#0072B2", "#009E73", "#CC79A7", "#E69F00")
T = 30  # a passenger or player tile on a bus, in the line-up or played (pixels)
GAP = 3
SMALL = 28  # a passenger in a queue or still to place (pixels)
#: Width of the drawing in pixels: every part of the table fits inside (it is at most 900, the width of a
#: notebook output area, so the table never scrolls sideways); see :func:`table_svg`.
WIDTH = 880
#: The smallest font size used anywhere on the board (pixels at full size).
SMALLEST_TEXT = 11
BUSES_X = 160  # where each board's first bus starts; the column left of it names the board
SCORE_X = 612  # where each board's score column starts (right of the buses)
ZONE_X = 70  # where the zone's positions and the line-up's slots start
ZONE_COL = 104  # one zone position (pixels, with its gap)
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


def passenger_svg(
    code: str, x: float, y: float, tile_sorts: dict[str, str], size: int = T, names: list[str] | None = None
) -> str:
    """One passenger tile at ``(x, y)``, ``size`` pixels square: sort colour and letters; a VIP has a
    star and a thick border; a player tile shows its number with the sort's letters below (both at
    least :data:`SMALLEST_TEXT` px, one above the other); an ET reads ET.

    Args:
        code (str): a kind code (``"Gi"``, ``"VGi"``, ``"ET"``) or a player tile ``"owner/number"``.
        x, y (float): top-left corner (pixels).
        tile_sorts (dict[str, str]): the sort of each player tile number (the view's ``tile_sorts``).
        size (int): side of the tile (pixels); 28 or more keeps a player tile's two lines apart.
        names (list[str] | None): the participants' names, to say whose tile it is in its tooltip.
    """
    sort, vip, owner, number = describe(code, tile_sorts)
    fill = FILL[sort]
    stroke = SEAT_COLOURS[owner % 5] if owner is not None else INK
    width = 3 if vip or owner is not None else 1
    words = escape(passenger_words(code, tile_sorts, names))
    out = [
        f'<g><title>{words}</title><rect x="{x:g}" y="{y:g}" width="{size}" height="{size}" rx="4" fill="{fill}" '
        f'stroke="{stroke}" stroke-width="{width}"/>'
    ]
    mid = x + size / 2
    if number is not None:
        # two lines of text: the number (bold) above the sort's letters, each box inside the tile
        big = max(SMALLEST_TEXT, min(14, int((size - 2 - 1.17 * SMALLEST_TEXT) / 1.17)))
        out.append(
            f'<text x="{mid:g}" y="{y + 1 + 0.93 * big:.1f}" font-size="{big}" font-weight="bold" '
            f'text-anchor="middle" fill="{INK}" font-family="sans-serif">{number}</text>'
            f'<text x="{mid:g}" y="{y + size - 1 - 0.24 * SMALLEST_TEXT:.1f}" font-size="{SMALLEST_TEXT}" '
            f'text-anchor="middle" fill="{INK}" font-family="sans-serif">{SHORT[sort]}</text>'
        )
    else:
        label = LABEL_BY_CODE[code]
        font = max(SMALLEST_TEXT, min(int(size * 0.5), int((size - 5) / (text_px(label, 1)))))
        out.append(
            f'<text x="{mid:g}" y="{y + size / 2 + 0.35 * font:.1f}" font-size="{font}" '
            f'font-weight="bold" text-anchor="middle" fill="{INK}" font-family="sans-serif">{label}</text>'
        )
    out.append("</g>")
    return "".join(out)


def _empty(
    x: float, y: float, label: str = "", size: int = T, dashed: bool = True, stroke: str = "#999"
) -> str:
    dash = ' stroke-dasharray="3 2"' if dashed else ""
    text = (
        (
            f'<text x="{x + size / 2:g}" y="{y + size / 2 + 4:g}" font-size="{SMALLEST_TEXT}" text-anchor="middle" '
            f'fill="{MUTED}" font-family="sans-serif">{escape(label)}</text>'
        )
        if label
        else ""
    )
    return (
        f'<rect x="{x:g}" y="{y:g}" width="{size}" height="{size}" rx="4" fill="#fbfbf8" stroke="{stroke}"'
        f"{dash}/>{text}"
    )


def _text(
    x: float,
    y: float,
    text: str,
    size: int = 12,
    weight: str = "normal",
    anchor: str = "start",
    fill: str = INK,
) -> str:
    return (
        f'<text x="{x:g}" y="{y:g}" font-size="{size}" font-weight="{weight}" text-anchor="{anchor}" '
        f'fill="{fill}" font-family="sans-serif">{escape(text)}</text>'
    )


def _tile_card(x: float, y: float, number: int | None, owner: int, hidden: bool = False) -> str:
    """A played player tile, :data:`T` pixels square: its number (face up) or a back (face down)."""
    colour = SEAT_COLOURS[owner % 5]
    if hidden:
        return (
            f'<g><title>a tile chosen face down</title><rect x="{x:g}" y="{y:g}" width="{T}" height="{T}" '
            f'rx="4" fill="{colour}" stroke="{INK}"/><text x="{x + T / 2:g}" y="{y + T / 2 + 5:g}" '
            f'font-size="15" font-weight="bold" text-anchor="middle" fill="white" '
            f'font-family="sans-serif">?</text></g>'
        )
    return (
        f'<g><rect x="{x:g}" y="{y:g}" width="{T}" height="{T}" rx="4" fill="white" stroke="{colour}" '
        f'stroke-width="3"/>{_text(x + T / 2, y + T / 2 + 5, str(number), 15, "bold", "middle")}</g>'
    )


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _hand_words(view: dict[str, Any], k: int) -> str:
    """A board's hand as the table shows it: the proxy's tiles are face down (only how many)."""
    hand = view["boards"][k]["hand"]
    if k == view["proxy"]:
        return f"{len(hand)} tile{'' if len(hand) == 1 else 's'} face down"
    if not hand:
        return "no tiles in hand"
    return f"hand {_join([str(t) for t in hand])}"


def table_summary(view: dict[str, Any]) -> str:
    """The table in words (the SVG's ``aria-label``): the round and status; the line-up (who turned
    up in each queue slot); the zone's positions taken; the tiles played (a tile chosen face down
    is only said to be face down) and those left for the white icons; then each board: its buses,
    queue, what it still has to place, score pile and hand of tiles (the proxy's are face down:
    only how many). It says only what ``view`` shows to its viewer."""
    names = view["names"]
    tile_sorts = view["tile_sorts"]
    parts = [f"Busstop, round {view['round']} of {view['rounds']}.", view["status"]]
    lineup = view["lineup"]
    if lineup:
        slots = []
        for s in range(view["slots"]):
            if s >= len(lineup):
                slots.append(f"q{s + 1} empty")
            elif lineup[s] is None:
                slots.append(f"q{s + 1} taken")
            else:
                slots.append(f"q{s + 1} {passenger_words(lineup[s], tile_sorts, names)}")
        parts.append(f"Line-up: {', '.join(slots)}.")
    else:
        parts.append("Line-up: nobody has turned up yet.")
    taken = [
        f"P{i + 1} {names[pos['holder']]} with tile {pos['tile']}"
        for i, pos in enumerate(view["zone"])
        if pos["holder"] is not None
    ]
    if taken:
        parts.append(f"Zone: {', '.join(taken)}.")
    bids = []
    for k, bid in enumerate(view["bids"]):
        if bid["state"] == "shown":
            bids.append(f"{names[k]} tile {bid['tile']}")
        elif bid["state"] == "hidden":
            bids.append(f"{names[k]} a tile face down")
    parts.append(f"Tiles played: {', '.join(bids)}." if bids else "Tiles played: none yet.")
    if view["played"]:
        left = [passenger_words(f"{t['owner']}/{t['tile']}", tile_sorts, names) for t in view["played"]]
        parts.append(f"Left for white icons: {', '.join(left)}.")
    for k, board in enumerate(view["boards"]):
        buses = "; ".join(
            f"bus {b + 1} {len(bus['passengers'])}/{bus['seats']}"
            + (f" {bus['sort']}" if bus["sort"] else "")
            + ("" if bus["open"] else " locked")
            for b, bus in enumerate(board["buses"])
        )
        extra = f"; {len(board['received'])} to place" if board["received"] else ""
        parts.append(
            f"{names[k]}: {buses}; queue {len(board['queue'])}{extra}; score pile {len(board['pile'])}; "
            f"{_hand_words(view, k)}."
        )
    return " ".join(parts)


def _zone_position(view: dict[str, Any], i: int, x: float, y: float) -> list[str]:
    """One position of the zone (a box ``ZONE_COL - 6`` wide, 72 high at ``(x, y)``): its number,
    the conductor symbol, its icons (black arrows labelled with their queue slot, a white icon "W")
    and, once taken, the tile on it and whose it is."""
    pos = view["zone"][i]
    names = view["names"]
    w = ZONE_COL - 6
    current = view["take_position"] == i
    out = [
        f'<rect x="{x:g}" y="{y:g}" width="{w}" height="72" rx="5" fill="#f2f6fa" '
        f'stroke="{HIGHLIGHT if current else "#889"}" stroke-width="{3 if current else 1}"/>',
        _text(x + 5, y + 15, f"P{i + 1}" + (" ▶" if current else ""), 12, "bold"),
    ]
    if pos["conductor"]:
        out.append(_text(x + w - 5, y + 15, "♛ cond.", 11, anchor="end", fill=MUTED))
    icons = [(f"q{slot}", True) for slot in pos["black"]] + ([("W", False)] if pos["white"] else [])
    room = w - 10 - T - 4  # left of the tile
    if len(icons) * 18 <= room:
        for j, (label, black) in enumerate(icons):
            cx = x + 12 + 18 * j
            out.append(
                f'<circle cx="{cx:g}" cy="{y + 29:g}" r="6" fill="{INK if black else "white"}" '
                f'stroke="{INK}"/>' + _text(cx, y + 48, label, 11, anchor="middle")
            )
    else:  # too many icons to draw: say them, on up to two lines
        lines = [" ".join(line) for line in wrap_text([label for label, _black in icons], 11, room)]
        if len(lines) > 2:
            lines = [lines[0], _fit(" ".join(lines[1:]), 11, room)]
        for j, text in enumerate(lines):
            out.append(_text(x + 5, y + 33 + 14 * j, text, 11))
    if pos["holder"] is not None:
        out.append(_tile_card(x + w - 5 - T, y + 21, pos["tile"], pos["holder"]))
        who = names[pos["holder"]].replace("the proxy bus", "proxy")
        out.append(_text(x + 5, y + 65, _fit(who, 11, w - 10), 11, fill=MUTED))
    return out


def table_svg(view: dict[str, Any]) -> str:
    """The whole table as one SVG string, drawn from ``view`` (see :meth:`BusstopState.view`),
    :data:`WIDTH` pixels wide (it shrinks to fit a narrower container)."""
    tile_sorts = view["tile_sorts"]
    names = view["names"]
    out: list[str] = [
        _text(10, 20, f"Round {view['round']} of {view['rounds']}", 15, "bold"),
        _text(
            160,
            20,
            f"Conductor: {names[view['conductor']]}   ·   Stack: {view['stack']['left']} face down",
            13,
        ),
    ]
    # the zone, then the tiles played this round right of it
    y = 32
    out.append(_text(10, y + 20, "Zone", 13, "bold"))
    for i in range(len(view["zone"])):
        out.extend(_zone_position(view, i, ZONE_X + i * ZONE_COL, y))
    bx = ZONE_X + len(view["zone"]) * ZONE_COL + 14
    out.append(_text(bx, y + 15, "Tiles played", 12, "bold"))
    for k, bid in enumerate(view["bids"]):
        x, ty = bx + k * (T + 12), y + 21
        if bid["state"] == "none":
            out.append(_empty(x, ty, "–"))
        else:
            out.append(_tile_card(x, ty, bid["tile"], k, hidden=bid["state"] == "hidden"))
        short = "proxy" if k == view["proxy"] else f"S{k}"
        out.append(_text(x + T / 2, y + 65, short, 11, anchor="middle", fill=MUTED))
    # the line-up, then the tiles left for the white icons right of it
    y = 114
    out.append(_text(10, y + 20, "Line-up", 13, "bold"))
    pitch = T + 10
    for s in range(view["slots"]):
        x = ZONE_X + s * pitch
        code = view["lineup"][s] if s < len(view["lineup"]) else None
        out.append(passenger_svg(code, x, y, tile_sorts, names=names) if code else _empty(x, y))
        out.append(_text(x + T / 2, y + T + 14, f"q{s + 1}", 11, anchor="middle", fill=MUTED))
    lineup_h = T + 18
    if view["played"]:
        px = ZONE_X + view["slots"] * pitch + 16
        title = "Left for white icons:"
        width = text_px(title, 12) + 8 + len(view["played"]) * (T + GAP)
        ly = y
        if px + width > WIDTH - 10:  # no room right of the line-up: on a line of its own
            px, ly = ZONE_X, y + lineup_h + 4
            lineup_h += T + 8
        out.append(_text(px, ly + T / 2 + 4, title, 12, "bold"))
        tx = px + text_px(title, 12) + 8
        for i, tile in enumerate(view["played"]):
            code = f"{tile['owner']}/{tile['tile']}"
            out.append(passenger_svg(code, tx + i * (T + GAP), ly, tile_sorts, names=names))
    # the boards
    y += lineup_h + 10
    acting = view["acting"] if view["node"] in ("place", "board") else None
    for k, board in enumerate(view["boards"]):
        row, h = _board_row(view, k, board, y, acting == k)
        out.append(row)
        y += h
    height = round(y + 2)
    label = escape(table_summary(view))
    # At most WIDTH pixels wide (it fits a 900-pixel notebook output area at full size); in a
    # narrower area it shrinks with its container (viewBox, max-width, height:auto).
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" style="max-width:100%;height:auto;background:white" '
        f'role="img" aria-label="{label}">{"".join(out)}</svg>'
    )


def _info_lines(view: dict[str, Any], k: int, board: dict[str, Any]) -> list[str]:
    """The short lines under a board's name (each fits the column left of the buses)."""
    room = BUSES_X - 18
    lines = []
    if k == view["proxy"] and view["proxy_player"] is not None:
        lines.append(f"run by Seat {view['proxy_player']}")
    if board["bonus_sort"]:
        lines.append(f"bonus: {board['bonus_sort']}")
    if board["requirement"]:
        lines.append(f"goal: {board['requirement'].replace('_', ' ')}")
    if k == view["proxy"]:
        lines.append(_hand_words(view, k))
    elif board["hand"]:
        line = "hand"
        for t in board["hand"]:  # wraps onto a second line when the hand is long
            if text_px(f"{line} {t}", 11) > room:
                lines.append(line)
                line = " "
            line = f"{line} {t}"
        lines.append(line)
    return [_fit(line, 11, room) for line in lines]


def _board_row(
    view: dict[str, Any], k: int, board: dict[str, Any], top: float, here: bool
) -> tuple[str, float]:
    """One participant's board as a block of the table, and its height (pixels): who and what they
    know (left), the buses and the score (right); under the buses the queue, then the passengers
    still to place."""
    tile_sorts = view["tile_sorts"]
    names = view["names"]
    colour = SEAT_COLOURS[k % 5]
    out = []
    # left: the name, then one short line each (they never run into the first bus)
    label = board["name"] + (" ♛" if k == view["conductor"] else "") + (" ▶" if here else "")
    out.append(_text(10, top + 18, _fit(label, 13, BUSES_X - 18), 13, "bold", fill=INK))
    info = _info_lines(view, k, board)
    for i, line in enumerate(info):
        out.append(_text(10, top + 35 + 14 * i, line, 11, fill=MUTED))
    # the buses, left to right (a bus that does not fit the line goes on the next one)
    seat_pitch = T + GAP
    room = SCORE_X - 10 - BUSES_X
    x, line_top, line_h = BUSES_X, top, 0.0
    for b, bus in enumerate(board["buses"]):
        per_row = max(1, min(bus["seats"], int((room - 7) // seat_pitch)))
        rows = -(-bus["seats"] // per_row)
        w = per_row * seat_pitch + 7
        h = rows * seat_pitch + 7
        if x > BUSES_X and x + w > SCORE_X - 10:
            x, line_top = BUSES_X, line_top + line_h
            line_h = 0.0
        line_h = max(line_h, 19 + h + 4)
        title = (
            f"bus {b + 1}"
            + (f": {bus['sort']}" if bus["sort"] else "")
            + ("" if bus["open"] else " (locked)")
        )
        out.append(_text(x + 2, line_top + 14, _fit(title, 11, max(w, 60)), 11, fill=MUTED))
        out.append(
            f'<rect x="{x:g}" y="{line_top + 19:g}" width="{w}" height="{h}" rx="8" '
            f'fill="{"#ffffff" if bus["open"] else "#e4e4e4"}" stroke="{MUTED}"/>'
        )
        for s in range(bus["seats"]):
            r, c = divmod(s, per_row)
            sx, sy = x + 5 + c * seat_pitch, line_top + 24 + r * seat_pitch
            if s < len(bus["passengers"]):
                out.append(passenger_svg(bus["passengers"][s], sx, sy, tile_sorts, names=names))
            else:
                out.append(_empty(sx, sy, "" if bus["open"] else "×"))
        x += w + 8
    # the score, right of the buses
    px = SCORE_X
    out.append(_text(px, top + 14, f"score pile {len(board['pile'])}", 11, fill=MUTED))
    if k < view["players"]:
        out.append(_text(px, top + 38, f"{view['scores'][k]} pts", 16, "bold"))
        if board["penalty"]:
            out.append(_text(px, top + 58, f"{len(board['penalty'])} penalty tiles", 11, fill="#8a2a00"))
    # the queue: 13 spaces on the board, the rest off the board (said on its title line)
    qy = max(line_top + line_h, top + 64) + 12
    qx = BUSES_X
    spaces = view["queue_spaces"]
    queue = board["queue"]
    pitch = SMALL + 2
    locked = not board["buses"][-1]["open"]
    # while the third bus is locked, the 9th space is marked: 9 waiting opens it (BSB-EXTRA-BUS)
    out.append(
        _text(
            qx,
            qy,
            f"queue {len(queue)} (−2 each, VIP −6" + ("; 9 opens bus 3)" if locked else ")"),
            11,
            fill=MUTED,
        )
    )
    over = len(queue) - spaces
    if over > 0:
        out.append(
            _text(qx + spaces * pitch - 2, qy, f"+{over} off board", 11, "bold", "end", fill="#8a2a00")
        )
    for s in range(spaces):
        sx = qx + s * pitch
        if s < len(queue):
            out.append(passenger_svg(queue[s], sx, qy + 5, tile_sorts, size=SMALL, names=names))
        else:
            out.append(_empty(sx, qy + 5, "9" if s == 8 and locked else "", size=SMALL))
    # the passengers still to place, right of the queue
    if board["received"]:
        lx = qx + spaces * pitch + 10
        out.append(_text(lx, qy + 5 + SMALL / 2 + 4, "to place", 12, "bold", fill=HIGHLIGHT))
        tx = lx + text_px("to place", 12) + 6
        room = int((WIDTH - 10 - tx) // pitch)
        shown = board["received"] if len(board["received"]) <= room else board["received"][: room - 1]
        for i, code in enumerate(shown):
            out.append(passenger_svg(code, tx + i * pitch, qy + 5, tile_sorts, size=SMALL, names=names))
        if len(shown) < len(board["received"]):
            out.append(
                _text(
                    tx + len(shown) * pitch + SMALL / 2,
                    qy + 5 + SMALL / 2 + 4,
                    f"+{len(board['received']) - len(shown)}",
                    12,
                    "bold",
                    "middle",
                    fill=HIGHLIGHT,
                )
            )
    bottom = max(qy + 5 + SMALL, top + 35 + 14 * (len(info) - 1) + 4) + 6
    h = bottom - top
    frame = (
        f'<rect x="4" y="{top:g}" width="{WIDTH - 8}" height="{h:g}" rx="6" '
        f'fill="{"#eef5fb" if here else "#fafafa"}" stroke="{HIGHLIGHT if here else colour}" '
        f'stroke-width="{3 if here else 1.5}"/>'
    )
    return frame + "".join(out), h + 6


def table_html(view: dict[str, Any]) -> str:
    """The table as HTML (the SVG and the status sentence), for notebooks."""
    return (
        f"<div class='bus-lab-busstop'>{table_svg(view)}"
        f"<div role='status'>{escape(view['status'])}</div></div>"
    )


def table_text(view: dict[str, Any]) -> str:
    """The table as plain text, one block per board (used by ``print(state)``)."""
    tile_sorts = view["tile_sorts"]
    names = view["names"]

    def words(codes: list[str]) -> str:
        return ", ".join(passenger_words(c, tile_sorts, names) for c in codes) or "-"

    lines = [
        f"Busstop, round {view['round']} of {view['rounds']}; conductor {names[view['conductor']]}; "
        f"stack {view['stack']['left']} left.",
        view["status"],
    ]
    if view["lineup"]:
        slots = [
            f"q{i + 1} {passenger_words(c, tile_sorts, names) if c else '(taken)'}"
            for i, c in enumerate(view["lineup"])
        ]
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
            + (f" {bus['sort']}" if bus["sort"] else "")
            + ("" if bus["open"] else ", locked")
            + "]: "
            + words(bus["passengers"])
            for b, bus in enumerate(board["buses"])
        )
        score = f"; {view['scores'][k]} points" if k < view["players"] else ""
        lines.append(f"{board['name']}: {buses}")
        lines.append(
            f"    queue ({len(board['queue'])}): {words(board['queue'])}; pile {len(board['pile'])}{score}"
            + (f"; penalty {len(board['penalty'])}" if board["penalty"] else "")
            + (f"; to place: {words(board['received'])}" if board["received"] else "")
        )
    return "\n".join(lines)
