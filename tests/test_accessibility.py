"""Accessibility of every game widget, checked headless on the widget tree.

Every game widget class exported by ``bus_lab.widgets`` (each ``GameWidget`` subclass; a new game's
widget is picked up automatically) is built with its default table and with each non-default
choice of every game option, then looked at in several states: fresh, a human seat to move (a few
turns in a row), at points through a bots-only game and at the game's end, as the spectator and
as seat 0. In every state:

* every button that can be seen (or opened, in a collapsed panel) has a text label and a tooltip;
  no ``Play`` control is visible (in the browser its buttons are icons with no accessible name:
  auto-play is started and paused by a labelled toggle button that drives a hidden ``Play``);
* every input control has a label (``description``) or a tooltip; no slider but the timeline (a
  slider's label is not linked to its handle, so a screen reader reads it unnamed; the timeline's
  job is also done by the named Back and Forward buttons);
* every SVG drawn (the board) carries a text description: ``role="img"`` and a non-empty
  ``aria-label``; every ``<img>`` has a non-empty ``alt``;
* the status line is a ``role="status"`` element with a sentence in it.

The checker itself is tested on a deliberately faulty widget, so it is known to catch each fault.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from typing import Any

import ipywidgets as W
import pytest

import bus_lab.widgets as widgets
from bus_lab.widgets import FoldingPanel, GameWidget

#: Positions along a bots-only game where the widget is checked (fractions of the game's length).
FRACTIONS = (0, 1 / 6, 2 / 6, 3 / 6, 4 / 6, 5 / 6, 1)
#: Human turns played (first legal move button) and checked in each human-seat game.
HUMAN_TURNS = 3
#: Steps taken at most to reach a human seat's turn.
MAX_STEPS_TO_HUMAN = 400


def game_widget_classes() -> list[type[GameWidget]]:
    """Every GameWidget subclass that bus_lab.widgets exports, by name."""
    found = {}
    for name in widgets.__all__:
        obj = getattr(widgets, name)
        if isinstance(obj, type) and issubclass(obj, GameWidget) and obj is not GameWidget:
            found[name] = obj
    return [found[name] for name in sorted(found)]


def option_variants(cls: type[GameWidget]) -> list[dict[str, Any]]:
    """The default table, then each non-default choice of each game option on its own."""
    game = cls(humans=(), seed=0).session.game
    variants: list[dict[str, Any]] = [{}]
    for param in type(game).PARAMS:
        if param.choices is None or param.name == "players":
            continue
        playable = param.built if param.built is not None else param.choices
        variants += [
            {param.name: value} for value in param.choices if value != param.default and value in playable
        ]
    return variants


CASES = [(cls, options) for cls in game_widget_classes() for options in option_variants(cls)]


def case_id(case: tuple[type, dict]) -> str:
    cls, options = case
    return cls.__name__ + ("[" + ",".join(f"{k}={v}" for k, v in options.items()) + "]" if options else "")


# -- the checker ----------------------------------------------------------------------------------


class _MarkupScan(HTMLParser):
    """Collects problems with SVG and <img> text descriptions in one HTML string."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.svg_depth = 0
        self.svgs = 0
        self.problems: list[str] = []
        self.status_depth = 0
        self.status_text: list[str] = []
        self.status_seen = False
        self._stack: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k.lower(): (v or "") for k, v in attrs}
        if tag == "svg":
            if self.svg_depth == 0:  # an svg inside an svg is part of the outer picture
                self.svgs += 1
                if a.get("role") != "img" or not a.get("aria-label", "").strip():
                    self.problems.append(
                        f'<svg> without role="img" and an aria-label '
                        f"(role={a.get('role')!r}, aria-label={a.get('aria-label')!r})"
                    )
            self.svg_depth += 1
        elif tag == "img" and not a.get("alt", "").strip():
            self.problems.append(f"<img> without alt text (src={a.get('src', '')[:40]!r})")
        if a.get("role") == "status":
            self.status_seen = True
            self.status_depth += 1
            self._stack.append("status")
        elif tag not in ("br", "img", "hr", "input", "meta", "link"):
            self._stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag == "svg" and self.svg_depth:
            self.svg_depth -= 1
        if tag in ("br", "img", "hr", "input", "meta", "link"):
            return
        if self._stack:
            if self._stack.pop() == "status":
                self.status_depth -= 1

    def handle_data(self, data: str) -> None:
        if self.status_depth:
            self.status_text.append(data)


def scan_markup(markup: str) -> _MarkupScan:
    scan = _MarkupScan()
    scan.feed(markup)
    scan.close()
    return scan


def _hidden(widget: W.Widget) -> bool:
    layout = getattr(widget, "layout", None)
    return isinstance(layout, W.Layout) and (layout.display == "none" or layout.visibility == "hidden")


def walk(widget: W.Widget, hidden: bool = False, openable: bool = False) -> Iterator[tuple[W.Widget, bool]]:
    """Every widget in the tree with whether it is hidden (itself or a parent has display none).

    The contents of a closed FoldingPanel (and of an Accordion or a Tab) are not hidden: the user
    can open them, so they are checked too.
    """
    hidden = hidden or (_hidden(widget) and not openable)
    yield widget, hidden
    for child in getattr(widget, "children", ()) or ():
        yield from walk(child, hidden, openable=isinstance(widget, FoldingPanel) and child is widget.body)


def accessibility_problems(root: W.Widget) -> list[str]:
    """Everything in the widget tree under ``root`` that fails the checks in the module docstring."""
    problems: list[str] = []
    for widget, hidden in walk(root):
        kind = type(widget).__name__
        if isinstance(widget, (W.Button, W.ToggleButton)):
            if hidden:
                continue
            label = (widget.description or "").strip()
            if not label:
                problems.append(f"{kind} without a text label (tooltip={widget.tooltip!r})")
            if not (widget.tooltip or "").strip():
                problems.append(f"{kind} {label!r} without a tooltip")
        elif isinstance(widget, W.Play):
            if not hidden:
                problems.append(
                    f"a visible Play control ({widget.description!r}): its buttons are icons "
                    "with no accessible name; drive a hidden Play from a labelled ToggleButton"
                )
        elif isinstance(widget, (W.IntSlider, W.FloatSlider, W.SelectionSlider)) and not hidden:
            # ipywidgets does not link a slider's label to its handle: a screen reader announces it
            # unnamed. Only the timeline may be one, since Back and Forward (named buttons) do its job.
            if widget.description != "Timeline":
                problems.append(
                    f"a slider ({widget.description!r}) has no spoken name: use a number box "
                    "or a dropdown, whose label ipywidgets links"
                )
        elif isinstance(widget, (W.HTML, W.HTMLMath, W.Label)):
            scan = scan_markup(widget.value or "")
            problems += [f"{kind}: {p}" for p in scan.problems]
        elif isinstance(widget, W.ValueWidget) and hasattr(widget, "description") and not hidden:
            if not ((widget.description or "").strip() or (getattr(widget, "tooltip", None) or "").strip()):
                problems.append(f"{kind} (value {widget.value!r}) without a label or a tooltip")
    return problems


def status_problems(w: GameWidget) -> list[str]:
    scan = scan_markup(w.status.value or "")
    if not scan.status_seen:
        return ['the status line has no role="status" element']
    if len(" ".join(scan.status_text).split()) < 2:
        return [f"the status line says nothing in words: {w.status.value!r}"]
    return []


def board_svg_count(w: GameWidget) -> int:
    return scan_markup(w.board.value or "").svgs


def check(w: GameWidget, where: str, found: dict[str, list[str]]) -> None:
    """Check ``w`` as the spectator and as seat 0; add problems to ``found`` under ``where``."""
    for viewer in (w.viewer.options[0][1], w.viewer.options[1][1]):
        if w.viewer.value != viewer:
            w.viewer.value = viewer  # redraws the widget for that viewer
        assert w.last_error is None, f"{where}: the widget shows an error: {w.last_error!r}"
        label = f"{where}, viewer {w.viewer.label!r}"
        problems = accessibility_problems(w.widget) + status_problems(w)
        if board_svg_count(w) == 0:
            problems.append("the board is not drawn as an SVG picture")
        if problems:
            found[label] = sorted(set(problems))


def first_visible_move(w: GameWidget) -> W.Button | None:
    """The first enabled, visible button among the human's move controls."""
    for widget, hidden in walk(w.widget):
        if isinstance(widget, W.Button) and not hidden and not widget.disabled and widget in w.action_buttons:
            return widget
    return None


# -- the tests ---------------------------------------------------------------------------------


def test_every_game_has_a_widget_class_under_test():
    """Each registered game has its widget here, so a new game cannot slip past these checks."""
    import bus_lab

    tested = {cls(humans=(), seed=0).session.game.name for cls in game_widget_classes()}
    assert set(bus_lab.registered_games()) <= tested, (
        f"games without an exported widget class: {set(bus_lab.registered_games()) - tested}"
    )


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_widget_is_accessible_in_every_state(case):
    cls, options = case
    found: dict[str, list[str]] = {}

    fresh = cls(seed=0, **options)
    check(fresh, "fresh", found)

    # A human seat's turns: reach one, check, play the first legal move button, repeat.
    w = cls(humans=(0,), seed=1, **options)
    turns = 0
    for _ in range(MAX_STEPS_TO_HUMAN):
        if w.session.state.is_terminal() or turns >= HUMAN_TURNS:
            break
        if w.session.waiting_for_human():
            check(w, f"human turn {turns + 1} (step {w.session.position})", found)
            button = first_visible_move(w)
            if button is None:  # a game's own move panel; play the first legal move directly
                w.session.play(w.session.state.legal_actions()[0])
                w.refresh()
            else:
                button.click()
            turns += 1
        else:
            w.step_button.click()
        assert w.last_error is None, f"{w.last_error!r}"
    assert turns >= 1, "seat 0 never had a move to make"

    # Points through a bots-only game, up to the end, moved along with the timeline.
    bots = cls(humans=(), seed=2, **options)
    bots.session.run_to_end()
    bots.refresh()
    length = bots.session.position
    assert bots.session.state.is_terminal() and length > 0
    for fraction in FRACTIONS:
        position = round(length * fraction)
        bots.timeline.value = position
        assert bots.session.position == position
        check(bots, f"bots-only game at step {position} of {length}", found)
    assert "Result:" in bots.scores.value  # the end really was reached and shown

    assert not found, "accessibility problems:\n" + "\n".join(
        f"  {where}: {'; '.join(problems)}" for where, problems in found.items()
    )


def test_the_checker_catches_each_fault():
    """A widget with one of each fault: the checker names them all (so the tests above can fail)."""
    faulty = W.VBox(
        [
            W.Button(description="", tooltip="does something"),
            W.Button(description="Go", tooltip=""),
            W.Button(description="", tooltip="", layout=W.Layout(display="none")),  # hidden: not counted
            W.HTML("<svg width='10' height='10'><rect width='10' height='10'/></svg>"),
            W.HTML("<svg role='img' aria-label=''><svg role='img' aria-label='inner'></svg></svg>"),
            W.HTML("<div><img src='chart.png'></div><img src='ok.png' alt='A bar chart of points per seat'>"),
            W.Play(description="Auto-play", tooltip="Play the game"),
            W.Play(description="", tooltip="", layout=W.Layout(display="none")),  # hidden: not counted
            W.Dropdown(options=["a", "b"]),
            W.IntSlider(description="Players", tooltip="How many play"),
            W.HTML("<svg role='img' aria-label='A table with four seats'><svg></svg></svg>"),  # fine
        ]
    )
    problems = accessibility_problems(faulty)
    assert sorted(problems) == sorted(
        [
            "Button without a text label (tooltip='does something')",
            "Button 'Go' without a tooltip",
            'HTML: <svg> without role="img" and an aria-label (role=None, aria-label=None)',
            "HTML: <svg> without role=\"img\" and an aria-label (role='img', aria-label='')",
            "HTML: <img> without alt text (src='chart.png')",
            "a visible Play control ('Auto-play'): its buttons are icons with no accessible name; drive a "
            "hidden Play from a labelled ToggleButton",
            "Dropdown (value 'a') without a label or a tooltip",
            "a slider ('Players') has no spoken name: use a number box or a dropdown, whose label ipywidgets links",
        ]
    )
    assert scan_markup("<div role='status'><b>Seat 0 guessed red.</b></div>").status_text
    assert not scan_markup("<div>no status here</div>").status_seen


def test_auto_play_is_a_labelled_toggle_that_drives_the_hidden_play_timer():
    """Keyboard and screen-reader users start and pause auto-play with a named button: the toggle
    and ``Play.playing`` follow each other both ways, and the toggle says what a press will do."""
    from bus_lab.widgets import RideTheBusWidget

    w = RideTheBusWidget(players=3, humans=(2,), seed=9)
    assert w.play.layout.display == "none" and w.autoplay.layout.display != "none"
    assert (w.autoplay.description, w.autoplay.icon) == ("Auto-play", "play")
    assert "500 ms" in w.autoplay.tooltip
    w.autoplay.value = True  # what a click (or Enter) on the toggle sends
    assert w.play.playing
    assert (w.autoplay.description, w.autoplay.icon) == ("Pause", "pause")
    assert "Pause" in w.autoplay.tooltip
    ticks = 0
    while w.play.playing:  # the browser's timer ticks the hidden Play
        w.play.value += 1
        ticks += 1
        assert ticks < 100
    assert w.session.waiting_for_human()  # stopped by itself: seat 2 must choose
    assert not w.autoplay.value and w.autoplay.description == "Auto-play" and w.autoplay.disabled
    # A press that reaches the kernel after the stop (the page still showed "Pause") is refused in
    # words; the toggle does not stay on "Pause" with no timer behind it.
    position = w.session.position
    w.autoplay.value = True
    assert (w.autoplay.value, w.play.playing, w.autoplay.description) == (False, False, "Auto-play")
    assert "auto-play stopped" in w.error.value and "must choose a move" in w.error.value
    assert w.session.position == position
    w.action_buttons[0].click()  # the human moves; bots may go on again
    assert not w.autoplay.disabled
    w.autoplay.value = True
    w.autoplay.value = False  # Pause
    assert not w.play.playing and w.autoplay.description == "Auto-play"
    w.play.playing = True  # the timer itself started or stopped: the toggle follows
    assert w.autoplay.value and w.autoplay.description == "Pause"
    w.play.playing = False
    assert not w.autoplay.value and w.autoplay.description == "Auto-play"


def test_scores_and_log_wrap_below_each_other_and_keep_rule_ids_on_one_line():
    """In a narrow output area the log goes below the scores instead of squeezing both, and a rule
    ID such as [RTB-P-GIVE] is never broken over two lines."""
    from bus_lab.widgets import RideTheBusWidget

    w = RideTheBusWidget(players=4, humans=(), seed=3)
    w.session.run_to_end()
    w.refresh()
    panels = w.widget.children[-1]
    assert panels.layout.flex_flow == "row wrap"
    assert [box.layout.flex for box in panels.children] == ["1 1 460px", "1 1 380px"]
    for html in (w.scores.value, w.log.value):
        codes = re.findall(r"<code([^>]*)>\[[A-Z0-9-]+\]</code>", html)
        assert codes and all("white-space:nowrap" in attrs for attrs in codes)


@pytest.mark.parametrize("cls", game_widget_classes(), ids=lambda c: c.__name__)
def test_the_status_line_says_in_words_what_the_last_step_did(cls):
    """After every step the status line (a live region) repeats the events of that step, with
    their rule IDs; at the start of a game there is no last step to tell."""
    w = cls(humans=(), seed=5)
    assert "Last step" not in w.status.value
    for _ in range(12):
        before = len(w.session.state.events())
        w.step_button.click()
        new = w.session.state.events()[before:]
        assert new, "a step recorded no event"
        scan = scan_markup(w.status.value)
        said = " ".join(" ".join(scan.status_text).split())
        first = new[0]
        assert f"Last step: {' '.join(first.text.split())} [{first.rule}]" in said, (said, first)
    w.back_button.click()  # going back tells the step before, from the timeline
    state = w.session.state
    previous = w.session.state_at(w.session.position - 1)
    expected = state.events()[len(previous.events())]
    assert f"[{expected.rule}]" in w.status.value


def test_classroom_polish_of_the_controls():
    """Odds at the ends read in words; Step is disabled while a person must move (the move buttons
    make that move); Reset comes after the seed box; the two seed boxes of Ride the Bus agree."""
    from fractions import Fraction

    from bus_lab.widgets import RideTheBusWidget, format_odds

    assert format_odds(Fraction(0)) == "0 (impossible)" and format_odds(Fraction(1)) == "1 (certain)"
    assert format_odds(Fraction(28, 51)) == "28/51 (54.9%)"
    assert format_odds(Fraction(1, 16)) == "1/16 (6.3%)"  # 6.25: a half rounds up
    w = RideTheBusWidget(players=2, humans=(0,), seed=4)
    assert w.session.waiting_for_human() and w.step_button.disabled
    w.action_buttons[0].click()  # seat 0 answers; a card is to be dealt
    assert not w.session.waiting_for_human() and not w.step_button.disabled
    controls = next(c for c in w.widget.children if isinstance(c, W.HBox) and w.reset_button in c.children)
    order = list(controls.children)
    assert order.index(w.seed_box) + 1 == order.index(w.reset_button)
    w.seed_box.value = 123
    assert w.settings["seed"].value == 123
    w.settings["seed"].value = 77
    assert w.seed_box.value == 77
    w.reset_button.click()
    assert w.session.seed == 77 and w.settings["seed"].value == 77


def test_view_as_says_when_a_seat_sees_the_whole_table():
    """Switching "View as" to a seat that sees everything changes nothing on the board, so a note
    says why; where a seat's view hides something (Busstop's face-down tiles), no note."""
    from bus_lab.widgets import BusstopWidget, RideTheBusWidget

    w = RideTheBusWidget(players=3, humans=(), seed=2)
    w.viewer.value = 1
    assert "Seat 1 sees the whole table" in w.viewer_note.value
    w.viewer.value = w.viewer.options[0][1]  # the spectator: no note
    assert w.viewer_note.value == ""

    def hidden_from_seat_0(state) -> list[str]:
        seat, spectator = state.view(0), state.view(None)
        return [key for key in spectator if key != "viewer" and seat.get(key) != spectator[key]]

    b = BusstopWidget(players=3, humans=(), seed=2)
    b.viewer.value = 0
    assert "Seat 0 sees the whole table" in b.viewer_note.value  # nothing hidden at the start
    for _ in range(40):
        b.step_button.click()
        if hidden_from_seat_0(b.session.state):
            break
    assert hidden_from_seat_0(b.session.state), "no hidden information found in 40 steps"
    assert b.viewer_note.value == ""


@pytest.mark.parametrize("cls", game_widget_classes(), ids=lambda c: c.__name__)
def test_keyboard_focus_goes_where_the_next_press_belongs(cls, monkeypatch):
    """After a person's move the pressed button may vanish; focus then moves to the next move
    control (or Step), never to the top of the page. Back, Forward and auto-play ticks that go
    on leave focus alone."""
    focused: list[W.Widget] = []
    monkeypatch.setattr(W.DOMWidget, "focus", lambda self: focused.append(self))
    w = cls(humans=(0,), seed=1)
    w.session.run_to_end()  # to seat 0's first move
    w.refresh()
    assert w.session.waiting_for_human()
    for _ in range(3):
        control = w.focus_next_control()
        assert control in w.move_controls() and not control.disabled
        focused.clear()
        control.click()  # the move (or a first selection, in BUS)
        if w.session.waiting_for_human() and focused == []:
            continue  # a selection: nothing moved yet
        assert focused, "no focus after a move"
        target = focused[-1]
        assert not target.disabled and target.layout.display != "none"
        assert target in w.move_controls() or target in (w.step_button, w.back_button)
        if not w.session.waiting_for_human():
            assert target is w.step_button
            w.session.run_to_end()
            w.refresh()
    focused.clear()
    w.back_button.click()
    w.forward_button.click()
    assert focused == []


def _luminance(hex_colour: str) -> float:
    """WCAG 2 relative luminance of ``#rrggbb``."""
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two colours."""
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_card_ink_keeps_text_contrast_on_live_and_resolved_cards():
    """Card ranks and suits meet the WCAG AA ratio 4.5:1 on a live (white) card and on a resolved
    (grey) one, and resolved cards are not faded with opacity."""
    from bus_lab.games.ride_the_bus import render

    for ink in (render.RED_INK, render.BLACK_INK):
        assert contrast(ink, "#FFFFFF") >= 4.5 and contrast(ink, "#ECECEC") >= 4.5, ink
    w = widgets.RideTheBusWidget(players=3, humans=(), seed=2)
    w.session.run_to_end()
    w.refresh()
    assert "#ececec" in w.board.value and "opacity" not in w.board.value
