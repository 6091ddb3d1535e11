"""The BUS widget, headless: build it, click street cards and buttons, read what it shows.

Scenarios use the scripted grid of ``test_bus_city_rules.py`` (same labels), so the reachable
cards and the choices are worked out by hand from its picture.
"""

from __future__ import annotations

import html
import re

import pytest

from bus_lab import ParameterError
from bus_lab.games.bus_city import default_sheet_dict
from bus_lab.widgets import BusCityWidget, GameWidget
from bus_lab.widgets import bus_city as bus_city_widget

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


def shown(w) -> list[str]:
    """Descriptions of the move buttons in use."""
    return [b.description for b in w.action_buttons if b.layout.display != "none"]


def click_shown(w, description: str) -> None:
    for b in w.action_buttons:
        if b.layout.display != "none" and b.description == description:
            b.click()
            return
    raise AssertionError(f"no button {description!r} among {shown(w)}")


def enabled_streets(w) -> set[str]:
    return {name for name, b in w.street_buttons.items() if not b.disabled}


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
        w.step_button.click()
    return w


def test_BUS_START_click_a_bus_stop_then_a_heading():
    """BUS-START: only the three bus stops can be clicked; a stop shows its two headings."""
    w = scripted()
    assert enabled_streets(w) == {"a1-b1", "b2-c2", "a3-b3"}
    assert len(shown(w)) == 6
    w.street_buttons["a1-b1"].click()
    assert shown(w) == ["start a1-b1 E", "start a1-b1 W"]
    assert "chosen" in w.board.value
    click_shown(w, "start a1-b1 E")
    assert sorted(shown(w)) == ["draw blind", "take red-pink", "take yellow-green"]
    click_shown(w, "take red-pink")
    w.step_button.click()  # refill
    w.street_buttons["a3-b3"].click()
    click_shown(w, "start a3-b3 W")
    click_shown(w, "take yellow-green")
    w.step_button.click()
    assert w.session.state.node == "move" and w.last_error is None


def _to_first_move(**options):
    w = scripted(**options)
    for stop, heading, pick in (("a1-b1", "E", "take red-pink"), ("a3-b3", "W", "take yellow-green")):
        w.street_buttons[stop].click()
        click_shown(w, f"start {stop} {heading}")
        click_shown(w, pick)
        w.step_button.click()
    return w


def test_BUS_MOVE_reachable_cards_are_the_enabled_street_buttons():
    """BUS-MOVE, BUS-SPEED, BUS-MOVE-END: from a1-b1 E at speed 5 every card but the start can be
    reached; the board marks them "reach"; no move button shows before a card is chosen."""
    w = _to_first_move()
    view = w.session.state.view()
    assert enabled_streets(w) == set(view["reachable"])
    assert "a1-b1" not in enabled_streets(w) and len(enabled_streets(w)) == 11
    assert w.board.value.count(">reach<") == 11
    assert shown(w) == []


def test_BUS_DROPOFF_clicking_a_card_with_several_outcomes_offers_them():
    """BUS-DROPOFF: b2-b3 is the pink destination, so every way there drops pink; heading S it can
    be reached via b1-b2 (pink only) or via b1-c1 (red too), and heading N as well: the buttons list
    exactly the ways to end there."""
    w = _to_first_move()
    w.street_buttons["b2-b3"].click()
    options = shown(w)
    state = w.session.state
    expected = sorted(
        state.action_to_string(a)
        for a in state.legal_actions()
        if state.action_to_string(a).startswith("b2-b3")
    )
    assert sorted(options) == expected
    assert "b2-b3 S drop red+pink" in options and "b2-b3 S drop pink" in options
    click_shown(w, "b2-b3 S drop red+pink")
    assert w.session.state.returns()[0] == 1  # red-pink complete
    assert w.selection == []


def test_BUS_MOVE_a_card_with_one_outcome_moves_at_once():
    """BUS-MOVE, BUS-SPEED: with blue-pink (speed 1) seat 0 on a1-b1 E can reach b1-c1 E or b1-b2 S,
    one way each: clicking b1-c1 drives there at once."""
    w = BusCityWidget(
        players=2,
        humans=(0, 1),
        seed=0,
        deck=LAYOUT + ["blue-pink", "yellow-green", "green-blue", "orange-pink"],
    )
    while not w.session.waiting_for_human():
        w.step_button.click()
    for stop, heading, pick in (("a1-b1", "E", "take blue-pink"), ("a3-b3", "W", "take yellow-green")):
        w.street_buttons[stop].click()
        click_shown(w, f"start {stop} {heading}")
        click_shown(w, pick)
        w.step_button.click()
    assert enabled_streets(w) == {"b1-c1", "b1-b2"}
    w.street_buttons["b1-c1"].click()
    assert w.session.state.view()["seats"][0]["bus"] == {"slot": "b1-c1", "heading": "E", "site_used": False}
    assert w.session.state.current_player() == 1


def test_BUS_CONSTRUCTION_chooser_swaps_two_free_cards():
    """BUS-CONSTRUCTION: on the site, the free cards are clickable (not the site, not seat 1's
    a3-b3); two clicks swap them; the site is then used."""
    w = _to_first_move()
    state = w.session.state
    one_step_site = [a for a in state.legal_actions() if state.action_to_string(a) == "b1-b2 S"]
    w.session.play(one_step_site[0])
    w.refresh()
    assert w.session.state.node == "construction"
    assert enabled_streets(w) == {
        "a1-b1",
        "b1-c1",
        "a1-a2",
        "c1-c2",
        "a2-b2",
        "b2-c2",
        "a2-a3",
        "b2-b3",
        "c2-c3",
        "b3-c3",
    }
    assert shown(w) == ["pass"]
    w.street_buttons["b1-c1"].click()
    assert w.selection == ["b1-c1"]
    w.street_buttons["b2-b3"].click()
    grid = {e["slot"]: e["card"] for e in w.session.state.view()["grid"]}
    assert grid["b1-c1"] == "pink" and grid["b2-b3"] == "red"
    assert w.session.state.site_used[0]


def test_BUS_CH_ROTATE_challenging_chooser_offers_sides_and_turning():
    """BUS-CH-ROTATE: in challenging play one chosen card offers "turn", two offer the 4 side choices."""
    w = _to_first_move(challenging=True)
    state = w.session.state
    w.session.play(state.string_to_action("b1-b2 N"))
    w.refresh()
    assert w.session.state.node == "construction"
    w.street_buttons["b1-c1"].click()
    assert sorted(shown(w)) == ["pass", "turn b1-c1"]
    w.street_buttons["b2-c2"].click()
    assert sorted(shown(w)) == [
        "pass",
        "swap b1-c1 b2-c2 sides N N",
        "swap b1-c1 b2-c2 sides N S",
        "swap b1-c1 b2-c2 sides S N",
        "swap b1-c1 b2-c2 sides S S",
        "turn b1-c1",
        "turn b2-c2",
    ]
    w.clear_button.click()
    assert w.selection == [] and shown(w) == ["pass"]


def test_a_three_player_game_with_one_human_plays_to_the_end_by_clicking():
    """BUS-TURN, BUS-END, BUS-WIN: you play seat 0 against two greedy bots, by clicking street cards
    and buttons only; the game ends and the scores panel names the winner."""
    w = BusCityWidget(players=3, humans=(0,), seed=3)
    pool = len(w.action_buttons)
    for _ in range(3000):
        state = w.session.state
        if state.is_terminal():
            break
        if w.session.waiting_for_human() and state.node == "move":
            streets = sorted(enabled_streets(w))
            w.street_buttons[streets[len(state.history()) % len(streets)]].click()
            if w.session.state is state:
                w.action_buttons[[b.layout.display for b in w.action_buttons].index(None)].click()
        elif w.session.waiting_for_human():
            w.action_buttons[0].click()
        else:
            w.step_button.click()
        assert w.last_error is None, w.last_error
    state = w.session.state
    assert state.is_terminal()
    assert any(e.rule == "BUS-MOVE" and e.data["seat"] == 0 for e in state.events())
    assert "bus-lab-winners" in w.scores.value and "winner" in w.scores.value
    assert len(w.action_buttons) == pool  # no widget created per step
    w.back_button.click()
    assert not w.session.state.is_terminal()


def test_bots_only_demo_steps_and_the_log_cites_rules():
    """BUS-SETUP: a demo with bots only; Step draws, the log shows rule IDs, Back undoes."""
    w = BusCityWidget(players=2, humans=(), bot="random", seed=2)
    for _ in range(20):
        w.step_button.click()
    assert "[BUS-SETUP]" in w.log.value
    assert w.session.position == 20
    w.back_button.click()
    assert w.session.position == 19
    assert isinstance(w, GameWidget)
    assert all(b.tooltip for b in w.street_buttons.values())
    assert 'role="img"' in w.board.value
    assert "red-pink" in w.sheet_panel.body.value  # the component sheet panel


def test_bad_arguments_raise():
    """BUS-SETUP: bad options or seats are refused when the widget is built."""
    with pytest.raises(ParameterError):
        BusCityWidget(players=4)
    with pytest.raises(ParameterError, match="not a seat"):
        BusCityWidget(players=2, humans=(2,))


# -- fitting a JupyterLab output area ---------------------------------------------------------
def visible_text(markup: str) -> str:
    """The text a reader sees in an HTML fragment: tags (and their attributes) removed."""
    return html.unescape(re.sub(r"<[^>]*>", " ", markup))


def test_street_chooser_labels_fit_their_buttons():
    """BUS-GRID: the chooser's five columns are 140 px each (712 px with the gaps: inside a 900 px
    output area) and each street button's text -- slot and card, as on the board -- fits inside
    its button, so no label is cut off with an ellipsis; the tooltip says the same and more."""
    assert bus_city_widget.STREET_COLUMN_PX == 140
    assert bus_city_widget.STREET_TEXT_PX == 140 - 20 - 4 - 6  # less padding, margin and slack
    w = scripted()
    template = w.street_grid.layout.grid_template_columns
    assert template == "repeat(5, 140px)"
    assert 5 * 140 + 4 * 3 <= 900
    cards = dict(
        zip(
            [
                "a1-b1",
                "b1-c1",
                "a1-a2",
                "b1-b2",
                "c1-c2",
                "a2-b2",
                "b2-c2",
                "a2-a3",
                "b2-b3",
                "c2-c3",
                "a3-b3",
                "b3-c3",
            ],
            [lab.split("/")[0] for lab in LAYOUT],
        )
    )
    for slot, button in w.street_buttons.items():
        assert button.description == f"{slot} {cards[slot]}"  # e.g. "a1-a2 blue", in full
        assert bus_city_widget.text_px(button.description) <= bus_city_widget.STREET_TEXT_PX
        assert button.tooltip.startswith(f"Street {slot} {cards[slot]}: ")
        assert "…" not in button.description
    # the longest names of the packaged sheet, and the widest letters, still fit
    for name in ("orange", "yellow", "plain2", "stop3"):
        assert bus_city_widget.street_label("b2-b3", name) == f"b2-b3 {name}"
    assert bus_city_widget.text_px("b2-b3 yellow") < bus_city_widget.STREET_TEXT_PX
    assert bus_city_widget.street_label("a1-b1", None) == "a1-b1 —"  # an empty slot before the setup


def test_a_long_card_name_is_shortened_on_its_button_and_given_in_full_in_the_tooltip():
    """BUS-COMP-STREETS: a teacher's sheet may name a card with up to 24 characters; its button shows
    the slot and the start of the name with "…", the tooltip the whole name."""
    sheet = default_sheet_dict()
    sheet["streets"][0]["id"] = "red-destination-corner"
    w = BusCityWidget(
        players=2,
        humans=(0, 1),
        seed=0,
        sheet=sheet,
        deck=LAYOUT[:1] + ["red-destination-corner/N"] + LAYOUT[2:] + FACEUP,
    )
    while not w.session.waiting_for_human():
        w.step_button.click()
        assert w.last_error is None, w.error.value
    button = w.street_buttons["b1-c1"]
    assert button.description == "b1-c1 red-des…"
    assert bus_city_widget.text_px(button.description) <= bus_city_widget.STREET_TEXT_PX
    assert "Street b1-c1 red-destination-corner: red destination" in button.tooltip
    for b in w.street_buttons.values():
        assert bus_city_widget.text_px(b.description) <= bus_city_widget.STREET_TEXT_PX
    assert bus_city_widget.street_label("a1-b1", "W" * 24).endswith("…")


def test_the_status_sentence_is_shown_once():
    """BUS-TURN: the status sentence is in the widget's status line only -- not again above the
    board nor in the header -- at every step of a game (the board's aria-label leaves it out too);
    the table shown on its own (``state._repr_html_()``) keeps its status line."""
    w = BusCityWidget(players=3, humans=(), seed=4)
    for step in range(60):
        state = w.session.state
        sentence = state.status()
        parts = [
            w.header.value,
            w.status.value,
            w.error.value,
            w.board.value,
            w.prompt.value,
            w.chooser_note.value,
        ]
        assert sum(visible_text(part).count(sentence) for part in parts) == 1, (step, sentence)
        assert sentence in visible_text(w.status.value)
        written = {html.escape(sentence, quote=False), html.escape(sentence)}  # as text, as an attribute
        assert sum(max(part.count(form) for form in written) for part in parts) == 1, (step, sentence)
        assert not any(form in w.board.value for form in written)
        if state.is_terminal():
            break
        w.step_button.click()
    assert w.session.position > 30
    alone = w.session.state._repr_html_()
    assert visible_text(alone).count(w.session.state.status()) == 1 and 'role="img"' in alone


# -- bus markers and street symbols both readable --------------------------------------------------
from bus_lab.games.bus_city.render import grid_svg  # noqa: E402
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
            assert covered_by_buses(w.board.value) == [], (seed, step)
            if w.session.state.is_terminal():
                break
            w.step_button.click()
    w = BusCityWidget(players=3, humans=(), seed=1)
    for _ in range(6):
        w.step_button.click()
    view = w.session.state.view(None)
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
    """A hand-made table fuller than a game usually gets: every card reachable and two chosen,
    three buses in one lane of a north-south bus stop, three cards in progress per seat, a tie of
    three winners in the final round of 100, 9-point cards, a teacher's sheet with long card ids
    and colours of its own (the widest initials), challenging play."""
    w = BusCityWidget(players=3, humans=(), seed=1, challenging=True)
    while w.session.state.node != "move" or w.session.state.round < 2:
        w.step_button.click()
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
    and challenging play), with cards chosen in the chooser, and on the most crowded table."""
    for players in (2, 3):
        for seed, options in ((players, {}), (players + 10, {"challenging": True})):
            w = BusCityWidget(players=players, humans=(), seed=seed, **options)
            for step in range(3000):
                if step % 5 == 0 or w.session.state.is_terminal():
                    svg = w.board.value[w.board.value.index("<svg") :]
                    assert int(re.search(r'width="(\d+)"', svg).group(1)) <= 900
                    assert smallest_text_on_screen(svg) >= 11, (players, seed, step)
                    assert layout_problems(svg) == [], (players, seed, step)
                if w.session.state.is_terminal():
                    break
                w.step_button.click()
            assert w.session.state.is_terminal(), (players, seed)
    w = scripted()
    w.street_buttons["a1-b1"].click()  # a bus stop chosen at the start
    assert ">chosen<" in w.board.value and layout_problems(w.board.value) == []
    w = _to_first_move(challenging=True)
    w.session.play(w.session.state.string_to_action("b1-b2 N"))
    w.refresh()
    w.street_buttons["b1-c1"].click()
    w.street_buttons["b2-c2"].click()  # two cards chosen for the construction site
    assert w.board.value.count(">chosen<") == 2 and layout_problems(w.board.value) == []
    view = crowded_view()
    svg = grid_svg(view, selected=[view["grid"][0]["slot"], view["grid"][5]["slot"]])
    assert smallest_text_on_screen(svg) >= 11
    assert layout_problems(svg) == []
    assert svg.count('class="bus"') == 3 and svg.count(">reach<") == 10 and svg.count(">chosen<") == 2
    assert "WWW…" in svg and "red-de…" in svg and "red-destination-corner" not in svg.split(">", 1)[1]
    assert ">Winners:<" in svg and ">Seat 0, Seat 1 and Seat 2<" in svg and "— final round" in svg
