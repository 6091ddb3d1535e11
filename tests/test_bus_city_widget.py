"""The BUS widget, headless: build it, tap street cards and choices as the page does, read the frame.

Scenarios use the scripted grid of ``test_bus_city_rules.py`` (same labels), so the reachable
cards and the choices are worked out by hand from its picture::

    a1 --stop1/S-- b1 ---red/N--- c1
    |              |              |
   blue/E        site/E        green/W
    |              |              |
    a2 -yellow/N-- b2 --stop2/S-- c2
    |              |              |
   plain1/W      pink/W        orange/E
    |              |              |
    a3 --stop3/N-- b3 --plain2/S- c3
"""

from __future__ import annotations

import html
import re

import pytest

from bus_lab import ParameterError
from bus_lab.games.bus_city.moves import drive_action
from bus_lab.games.bus_city.render import grid_svg
from bus_lab.widgets import BusCityWidget, GameWidget

LAYOUT = [
    "stop1/S",
    "red/N",
    "blue/E",
    "site/E",
    "green/W",
    "yellow/N",
    "stop2/S",
    "plain1/W",
    "pink/W",
    "orange/E",
    "stop3/N",
    "plain2/S",
]
FACEUP = ["red-pink", "yellow-green"]


def moves_at(w, *path: str) -> list[dict]:
    """The frame's moves whose path is exactly ``path``."""
    return [m for m in w.frame["moves"] if m["path"] == list(path)]


def first_targets(w) -> set[str]:
    """The board targets a first tap can start a move on (the highlighted ones)."""
    return {m["path"][0] for m in w.frame["moves"] if m["path"]}


def choices_at(w, *path: str) -> list[str]:
    """The choice buttons shown after tapping ``path``."""
    return [m["choice"] for m in moves_at(w, *path)]


def tap(w, *path: str, choice: str | None = None) -> None:
    """Tap ``path`` on the board (then the button ``choice``): send what the page sends."""
    found = [m for m in moves_at(w, *path) if m["choice"] == choice]
    assert len(found) == 1, (path, choice, [(m["path"], m["choice"]) for m in w.frame["moves"]])
    w.handle_message({"type": "move", "action": found[0]["action"], "seq": w.frame["seq"]})
    assert w.last_error is None, w.message_text


def scripted(players=2, **options):
    """Every seat human on the scripted grid, with the refills scripted too: nothing random
    happens before the first move."""
    w = BusCityWidget(
        players=players,
        humans=tuple(range(players)),
        seed=0,
        deck=LAYOUT + FACEUP + ["green-blue", "orange-pink", "blue-red"],
        **options,
    )
    while not w.session.waiting_for_human():
        w.step()
    return w


def test_BUS_START_tap_a_bus_stop_then_a_heading():
    """BUS-START: only the three bus stops can be tapped; a stop offers its two headings; then a
    face-up card or the deck is tapped; other cards say why not."""
    w = scripted()
    assert first_targets(w) == {"slot:a1-b1", "slot:b2-c2", "slot:a3-b3"}
    assert len(w.frame["moves"]) == 6
    assert choices_at(w, "slot:a1-b1") == ["facing E", "facing W"]
    assert (
        "BUS-START" in w.frame["blocked"]["slot:b1-c1"]
        and "red destination" in w.frame["blocked"]["slot:b1-c1"]
    )
    tap(w, "slot:a1-b1", choice="facing E")
    assert first_targets(w) == {"faceup:red-pink", "faceup:yellow-green", "deck"}
    assert all(m["choice"] is None for m in w.frame["moves"])  # one tap takes a card
    tap(w, "faceup:red-pink")
    w.step()  # refill
    tap(w, "slot:a3-b3", choice="facing W")
    tap(w, "faceup:yellow-green")
    w.step()
    assert w.session.state.node == "move" and w.last_error is None
    assert w.session.state.view()["seats"][0]["bus"]["slot"] == "a1-b1"


def _to_first_move(**options):
    w = scripted(**options)
    for stop, heading, pick in (("a1-b1", "E", "red-pink"), ("a3-b3", "W", "yellow-green")):
        tap(w, f"slot:{stop}", choice=f"facing {heading}")
        tap(w, f"faceup:{pick}")
        w.step()
    return w


def test_BUS_MOVE_reachable_cards_are_the_targets():
    """BUS-MOVE, BUS-SPEED, BUS-MOVE-END: from a1-b1 E at speed 5 every card but the start can be
    reached: those are the targets; the start card says why it cannot be the end."""
    w = _to_first_move()
    view = w.frame["view"]
    assert first_targets(w) == {f"slot:{s}" for s in view["reachable"]}
    assert "slot:a1-b1" not in first_targets(w) and len(first_targets(w)) == 11
    assert "BUS-MOVE-END" in w.frame["blocked"]["slot:a1-b1"]
    assert "BUS-PICKUP" in w.frame["blocked"]["faceup:green-blue"]  # not a bus stop yet


def test_BUS_DROPOFF_tapping_a_card_with_several_outcomes_offers_them():
    """BUS-DROPOFF: b2-b3 is the pink destination, so every way there drops pink; heading S it can
    be reached via b1-b2 (pink only) or via b1-c1 (red too), and heading N as well: the choices
    are exactly the ways to end there, all different."""
    w = _to_first_move()
    state = w.session.state
    expected = sorted(
        state.action_to_string(a)
        for a in state.legal_actions()
        if state.action_to_string(a).startswith("b2-b3")
    )
    here = moves_at(w, "slot:b2-b3")
    assert sorted(m["label"] for m in here) == expected
    choices = [m["choice"] for m in here]
    assert len(set(choices)) == len(choices) == len(expected) > 1
    both = next(m for m in here if m["label"] == "b2-b3 S drop red+pink")
    assert both["choice"].endswith("(heading S): drops off red, pink")
    assert "completes red-pink: +1 point" in both["hint"]
    pink = next(m for m in here if m["label"] == "b2-b3 S drop pink")
    assert pink["choice"].endswith("(heading S): drops off pink") and "completes" not in pink["hint"]
    tap(w, "slot:b2-b3", choice=both["choice"])
    assert w.session.state.returns()[0] == 1  # red-pink complete


def test_BUS_MOVE_a_card_with_one_outcome_moves_at_once():
    """BUS-MOVE, BUS-SPEED: with blue-pink (speed 1) seat 0 on a1-b1 E can reach b1-c1 E or b1-b2 S,
    one way each: tapping b1-c1 drives there at once; farther cards say the limit stops them."""
    w = BusCityWidget(
        players=2,
        humans=(0, 1),
        seed=0,
        deck=LAYOUT + ["blue-pink", "yellow-green", "green-blue", "orange-pink"],
    )
    while not w.session.waiting_for_human():
        w.step()
    for stop, heading, pick in (("a1-b1", "E", "blue-pink"), ("a3-b3", "W", "yellow-green")):
        tap(w, f"slot:{stop}", choice=f"facing {heading}")
        tap(w, f"faceup:{pick}")
        w.step()
    assert first_targets(w) == {"slot:b1-c1", "slot:b1-b2"}
    assert choices_at(w, "slot:b1-c1") == [None]
    assert "speed limit of 1 (BUS-SPEED)" in w.frame["blocked"]["slot:b3-c3"]
    tap(w, "slot:b1-c1")
    assert w.session.state.view()["seats"][0]["bus"] == {"slot": "b1-c1", "heading": "E", "site_used": False}
    assert w.session.state.current_player() == 1


def test_BUS_CONSTRUCTION_two_taps_swap_two_free_cards():
    """BUS-CONSTRUCTION: on the site, the free cards are targets (not the site, not seat 1's
    a3-b3, which say a bus is on them); two taps swap them; the site is then used."""
    w = _to_first_move()
    tap(w, "slot:b1-b2", choice=next(c for c in choices_at(w, "slot:b1-b2") if "heading S" in c))
    assert w.session.state.node == "construction"
    free = {"a1-b1", "b1-c1", "a1-a2", "c1-c2", "a2-b2", "b2-c2", "a2-a3", "b2-b3", "c2-c3", "b3-c3"}
    swaps = [m for m in w.frame["moves"] if m["kind"] == "swap"]
    assert {k for m in swaps for k in m["path"]} == {f"slot:{s}" for s in free}
    assert len(swaps) == 45 and all(len(m["path"]) == 2 and m["choice"] is None for m in swaps)
    assert choices_at(w) == ["Pass (do not build)"]
    for busy in ("b1-b2", "a3-b3"):
        assert "a bus is on" in w.frame["blocked"][f"slot:{busy}"]
    tap(w, "slot:b1-c1", "slot:b2-b3")
    grid = {e["slot"]: e["card"] for e in w.session.state.view()["grid"]}
    assert grid["b1-c1"] == "pink" and grid["b2-b3"] == "red"
    assert w.session.state.site_used[0]


def test_BUS_CH_ROTATE_challenging_play_offers_sides_and_turning():
    """BUS-CH-ROTATE: in challenging play one tapped card offers "turn", two offer the 4 side choices."""
    w = _to_first_move(challenging=True)
    w.play("b1-b2 N")
    assert w.session.state.node == "construction"
    assert choices_at(w, "slot:b1-c1") == ["turn this card 180°"]
    assert sorted(choices_at(w, "slot:b1-c1", "slot:b2-c2")) == [
        "symbols N on b1-c1, N on b2-c2",
        "symbols N on b1-c1, S on b2-c2",
        "symbols S on b1-c1, N on b2-c2",
        "symbols S on b1-c1, S on b2-c2",
    ]
    turn = moves_at(w, "slot:b1-c1")[0]
    assert turn["label"] == "turn b1-c1" and "its symbol moves to the S side" in turn["hint"]  # red/N
    tap(w, "slot:b1-c1", choice="turn this card 180°")
    assert w.session.state.view()["grid"][1]["side"] == "S"


def test_a_three_player_game_with_one_human_plays_to_the_end_by_tapping():
    """BUS-TURN, BUS-END, BUS-WIN: you play seat 0 against two greedy bots, by tapping the board
    (messages as the page sends them) only; the game ends and the scores name the winner."""
    w = BusCityWidget(players=3, humans=(0,), seed=3)
    for _ in range(3000):
        state = w.session.state
        if state.is_terminal():
            break
        moves = w.frame["moves"]
        if moves:
            pick = moves[len(state.history()) % len(moves)]
            w.handle_message({"type": "move", "action": pick["action"], "seq": w.frame["seq"]})
        else:
            w.handle_message({"type": "control", "name": "step", "value": None, "seq": w.frame["seq"]})
        assert w.last_error is None, w.message_text
    state = w.session.state
    assert state.is_terminal()
    assert any(e.rule == "BUS-MOVE" and e.data["seat"] == 0 for e in state.events())
    scores = w.frame["scores"]
    assert scores["winners"] == state.winners() and scores["result"].startswith("Result: Seat")
    assert w.frame["heading"].startswith("Game over") and "BUS-WIN" in w.frame["heading"]
    w.back()
    assert not w.session.state.is_terminal()


def test_bots_only_demo_steps_and_the_log_cites_rules():
    """BUS-SETUP: a demo with bots only; Step draws, the log shows rule IDs, Back undoes; nothing
    is offered to tap; the component sheet is beside the board."""
    w = BusCityWidget(players=2, humans=(), bot="random", seed=2)
    for _ in range(20):
        w.step()
    assert any(e["rule"] == "BUS-SETUP" for e in w.frame["log"]["events"]) or w.frame["log"]["total"] > 20
    assert w.session.position == 20
    w.back()
    assert w.session.position == 19
    assert isinstance(w, GameWidget)
    assert w.frame["game"] == "bus_city" and w.frame["moves"] == [] and w.frame["blocked"] == {}
    assert "red-pink" in w.sheet_panel.body.value  # the component sheet panel
    assert w.board in w.widget.children and w.sheet_panel in w.widget.children
    assert "2 players, basic play" in w.frame["title"]


def test_heading_names_the_round_the_turn_and_the_speed_limit():
    """BUS-SETUP, BUS-START, BUS-TURN, BUS-SPEED: the heading says the part of the game with its rule."""
    w = scripted()
    assert w.frame["heading"] == "Start: Seat 0 places the bus on a bus stop [BUS-START]"
    w = _to_first_move()
    assert w.frame["heading"] == (
        "Round 1 of at most 50: Seat 0 drives the bus (speed limit 5) [BUS-MOVE, BUS-SPEED]"
    )  # red-pink is value 1, speed 6 - 1 = 5
    w = BusCityWidget(players=2, humans=(), seed=0)
    assert w.frame["heading"].startswith("Setup") and "[BUS-SETUP]" in w.frame["heading"]


def test_bad_arguments_raise():
    """BUS-SETUP: bad options or seats are refused when the widget is built."""
    with pytest.raises(ParameterError):
        BusCityWidget(players=4)
    with pytest.raises(ParameterError, match="not a seat"):
        BusCityWidget(players=2, humans=(2,))


def test_a_stale_or_illegal_tap_changes_nothing():
    """BUS-MOVE-END: a move sent from an older board, or to the start card, is refused with a reason."""
    w = _to_first_move()
    position = w.session.position
    w.handle_message({"type": "move", "action": w.frame["moves"][0]["action"], "seq": w.frame["seq"] - 1})
    assert w.session.position == position and "board changed" in w.message_text
    w.handle_message({"type": "move", "action": drive_action(1, 0), "seq": w.frame["seq"]})  # a1-b1 W
    assert w.session.position == position and "BUS-MOVE-END" in w.message_text


def test_the_status_sentence_is_shown_once():
    """BUS-TURN: the status sentence is in the status line only -- not again in the heading, the
    prompt or the message -- at every step of a game; the table shown on its own
    (``state._repr_html_()``) keeps its status line and ``print(state)`` its text."""
    w = BusCityWidget(players=3, humans=(), seed=4)
    for step in range(60):
        state = w.session.state
        sentence = state.status()
        frame = w.frame
        parts = [frame["heading"], frame["status"]["now"], w.message_text, frame["prompt"], frame["title"]]
        assert sum(part.count(sentence) for part in parts) == 1, (step, sentence)
        assert frame["status"]["now"] == sentence
        if state.is_terminal():
            break
        w.step()
    assert w.session.position > 30
    alone = w.session.state._repr_html_()
    assert visible_text(alone).count(w.session.state.status()) == 1 and 'role="img"' in alone
    assert str(w.session.state).startswith(w.session.state.status())


def visible_text(markup: str) -> str:
    """The text a reader sees in an HTML fragment: tags (and their attributes) removed."""
    return html.unescape(re.sub(r"<[^>]*>", " ", markup))


def table_svg(w) -> str:
    """The table as ``state._repr_html_()`` draws it (the SVG of :mod:`bus_lab.games.bus_city.render`)."""
    return grid_svg(w.session.state.view(None))


# -- bus markers and street symbols both readable --------------------------------------------------
from bus_lab.games.textfit import text_px  # noqa: E402


def _attributes(tag: str) -> dict[str, str]:
    return dict(re.findall(r'([a-z][\w-]*)="([^"]*)"', tag))


def _text_box(tag: str, body: str) -> tuple[float, float, float, float]:
    """Left, top, right, bottom of a ``<text>`` (width an upper bound; DejaVu Sans ascent and descent)."""
    a = _attributes(tag)
    size = float(a["font-size"])
    wide = text_px(html.unescape(body), size)
    left = float(a["x"]) - {"start": 0, "middle": wide / 2, "end": wide}[a.get("text-anchor", "start")]
    return left, float(a["y"]) - 0.93 * size, left + wide, float(a["y"]) + 0.24 * size


def covered_by_buses(svg: str) -> list[str]:
    """What the bus markers cover: another bus, a street symbol (STOP or WORK badge, destination
    circle) or any text outside the bus markers (card ids, STOP, WORK, "reach", corner names)."""
    buses = []
    for seat, points in re.findall(r'<g class="bus" data-seat="(\d+)"><polygon points="([^"]*)"', svg):
        xs, ys = zip(*(map(float, p.split(",")) for p in points.split()))
        buses.append((f"bus {seat}", min(xs), min(ys), max(xs), max(ys)))
    rest = re.sub(r'<g class="bus".*?</g>', "", svg)
    things = [
        (f"text {html.unescape(body)!r}", *_text_box(tag, body))
        for tag, body in re.findall(r"<text ([^>]*)>([^<]*)</text>", rest)
    ]
    for tag in re.findall(r'<rect class="symbol" [^>]*>', rest):  # a STOP or WORK badge
        a = _attributes(tag)
        x, y = float(a["x"]), float(a["y"])
        things.append(("badge", x, y, x + float(a["width"]), y + float(a["height"])))
    for tag in re.findall(r'<circle class="symbol" [^>]*>', rest):  # a destination symbol
        a = _attributes(tag)
        cx, cy, r = float(a["cx"]), float(a["cy"]), float(a["r"])
        things.append(("destination circle", cx - r, cy - r, cx + r, cy + r))
    problems = []
    for i, (name, *b) in enumerate(buses):
        for other, *t in things + buses[i + 1 :]:
            if b[0] < t[2] and t[0] < b[2] and b[1] < t[3] and t[1] < b[3]:
                problems.append(f"{name} covers {other}")
    return problems


def test_bus_markers_never_cover_a_stop_badge_or_a_label():
    """BUS-COMP-STREETS, BUS-START: a bus waiting on a bus stop leaves its STOP badge (and the card's
    id, "reach", the other symbols) readable: buses keep to the free end of their card, one behind
    the other in the same lane -- all game long, in basic and challenging play, and with every bus
    on one bus-stop card (two in the same lane) of either direction."""
    for seed, options in ((1, {}), (4, {}), (2, {"challenging": True})):
        w = BusCityWidget(players=3, humans=(), seed=seed, **options)
        for step in range(200):
            assert covered_by_buses(table_svg(w)) == [], (seed, step)
            if w.session.state.is_terminal():
                break
            w.step()
    w = BusCityWidget(players=3, humans=(), seed=6)  # a grid with bus stops of both directions
    for _ in range(6):
        w.step()
    view = w.session.state.view(None)
    assert {e["kind"] for e in view["grid"] if e["symbol"] == "stop"} == {"h", "v"}
    for entry in view["grid"]:
        entry["buses"] = []
    stops = [e for e in view["grid"] if e["symbol"] == "stop"]
    for kind, heading, back in (("h", "E", "W"), ("v", "S", "N")):
        for side_first in (True, False):
            view_copy = {
                **view,
                "grid": [dict(e) for e in view["grid"]],
                "reachable": [e["slot"] for e in stops],
            }
            stop = next(e for e in view_copy["grid"] if e["symbol"] == "stop" and e["kind"] == kind)
            stop["side"] = {"h": "N" if side_first else "S", "v": "W" if side_first else "E"}[kind]
            stop["buses"] = [0, 1, 2]
            view_copy["seats"] = [
                dict(s, bus={"slot": stop["slot"], "heading": h, "site_used": False})
                for s, h in zip(view["seats"], (heading, heading, back))
            ]
            svg = grid_svg(view_copy)
            assert svg.count('class="bus"') == 3 and ">reach<" in svg and ">STOP<" in svg
            symbols = [e["symbol"] for e in view_copy["grid"]]  # every badge and circle is checked
            assert svg.count('<rect class="symbol"') == symbols.count("stop") + symbols.count("site") >= 2
            assert svg.count('<circle class="symbol"') == symbols.count("destination")
            assert covered_by_buses(svg) == [], (kind, stop["side"])


# -- classroom-size text ---------------------------------------------------------------------------
from svg_layout import crowding, overflow, smallest_text_on_screen, text_boxes  # noqa: E402


def numbers_off_their_buses(svg: str) -> list[str]:
    """Seat numbers that run out of their bus marker (its polygon's box)."""
    problems = []
    for points, body in re.findall(
        r'<g class="bus" data-seat="\d+"><polygon points="([^"]*)"[^>]*>(.*?)</g>', svg
    ):
        xs, ys = zip(*(map(float, p.split(",")) for p in points.split()))
        for text, left, top, right, bottom, _size in text_boxes(body):
            if left < min(xs) - 0.5 or right > max(xs) + 0.5 or top < min(ys) - 0.5 or bottom > max(ys) + 0.5:
                problems.append(f"seat number {text!r} runs out of its bus")
    return problems


def layout_problems(svg: str) -> list[str]:
    return crowding(svg) + overflow(svg) + numbers_off_their_buses(svg) + covered_by_buses(svg)


def crowded_view() -> dict:
    """A hand-made table fuller than a game usually gets: every card reachable,
    three buses in one lane of a north-south bus stop, three cards in progress per seat, a tie of
    three winners in the final round of 100, 9-point cards, a teacher's sheet with long card ids
    and colours of its own (the widest initials), challenging play."""
    w = BusCityWidget(players=3, humans=(), seed=1, challenging=True)
    while w.session.state.node != "move" or w.session.state.round < 2:
        w.step()
    view = w.session.state.view(None)
    names = ["W" * 24, "red-destination-corner", "M" * 24, "mmmmwwww_mmmmwwww_mmmmww"]
    for entry, name in zip(view["grid"], names * 3):
        entry["card"], entry["buses"] = name, []
    stop = next(e for e in view["grid"] if e["kind"] == "v" and e["symbol"] == "stop")
    stop["side"], stop["buses"] = "W", [0, 1, 2]
    for entry in view["grid"]:
        if entry["symbol"] == "destination":
            entry["colour"] = "white"
    card = {"id": "x", "colours": ["magenta", "white"], "value": 9, "speed": 9, "dropped": []}
    for seat in view["seats"]:
        seat["bus"] = {"slot": stop["slot"], "heading": "S", "site_used": True}
        seat["picked_up"] = [dict(card), dict(card, colours=["white", "white"])]
        seat["half"] = [dict(card, dropped=["white"])]
        seat["complete"] = [dict(card, dropped=["magenta", "white"])] * 15
        seat["points"] = 135
    view["faceup"] = [dict(card), dict(card, colours=["Mauve", "Wine"])]
    view.update(
        reachable=[e["slot"] for e in view["grid"]],
        deck=88,
        round=100,
        max_rounds=100,
        speed_limit=9,
        winners=[0, 1, 2],
        phase="turns",
        node="move",
    )
    view["end"]["trigger"] = 0
    return view


def test_the_board_text_is_classroom_size_and_nothing_overlaps():
    """BUS-GRID, BUS-PROGRESS: at full size (890 px in a 940 px output area) no text on the board is
    smaller than 11 px -- STOP and WORK badges, card ids, "reach", seat numbers on the buses,
    passenger cards, corner names -- no text overlaps another or runs out of its badge, card,
    street or bus, and nothing reaches past the drawing, at every table size all game long (basic
    and challenging play), and on the most crowded table."""
    for players in (2, 3):
        for seed, options in ((players, {}), (players + 10, {"challenging": True})):
            w = BusCityWidget(players=players, humans=(), seed=seed, **options)
            for step in range(3000):
                if step % 5 == 0 or w.session.state.is_terminal():
                    svg = table_svg(w)
                    assert int(re.search(r'width="(\d+)"', svg).group(1)) <= 900
                    assert smallest_text_on_screen(svg) >= 11, (players, seed, step)
                    assert layout_problems(svg) == [], (players, seed, step)
                if w.session.state.is_terminal():
                    break
                w.step()
            assert w.session.state.is_terminal(), (players, seed)
    view = crowded_view()
    svg = grid_svg(view)
    assert smallest_text_on_screen(svg) >= 11
    assert layout_problems(svg) == []
    assert svg.count('class="bus"') == 3 and svg.count(">reach<") == 12
    assert "WWW…" in svg and "red-de…" in svg and "red-destination-corner" not in svg.split(">", 1)[1]
    assert ">Winners:<" in svg and ">Seat 0, Seat 1 and Seat 2<" in svg and "— final round" in svg
