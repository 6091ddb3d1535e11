"""Accessibility of every game widget, checked headless on the frames the board draws.

The board is drawn in the browser by one front end (``bus_lab/board/static/core.js``) from the
frames Python sends, so what a screen reader can say is decided by the frame: every name, reason
and sentence the page shows comes from it. Checked for the shared :class:`GameWidget` over each
registered game, and for every game widget class exported by ``bus_lab.widgets`` (each
``GameWidget`` subclass; a new game's widget is picked up automatically) with its default table and
each non-default choice of every game option, in several states: fresh, a person's turns (a few
in a row), points through a bots-only game and its end, as the spectator and as seat 0:

* every move has a label, and a way to make it: a choice button's text, or the board targets
  tapped (core names each from the drawer's accessible name);
* every blocked target has a reason in words (its hover/focus text and ``aria-description``);
* the status line (a live region) says in words what happens now and what to do;
* the scores table has a caption, column headers and a row header (the seat's name) per row;
* every log event has its rule ID and its text;
* every "View as" choice has a label;
* any ipywidgets panel beside the board (the Ride the Bus table settings, a component sheet)
  keeps every control labelled, has no slider and no visible ``Play``, and describes its pictures.

Each checker is tested on deliberately faulty input, so it is known to catch each fault. The
browser side (every button, box and list core builds has an accessible name; the status is a
polite live region; the log can be reached with Tab) is checked in
``tests/browser/test_board_accessibility.py``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from typing import Any

import ipywidgets as W
import pytest

import bus_lab
import bus_lab.widgets as widgets
from bus_lab import Session, load_game
from bus_lab.widgets import FoldingPanel, GameWidget
from bus_lab.widgets.base import SPECTATOR, BoardWidget

#: Positions along a bots-only game where the widget is checked (fractions of the game's length).
FRACTIONS = (0, 1 / 6, 2 / 6, 3 / 6, 4 / 6, 5 / 6, 1)
#: Human turns played (a legal move each) and checked in each human-seat game.
HUMAN_TURNS = 3
#: Steps taken at most to reach a human seat's turn.
MAX_STEPS_TO_HUMAN = 400
#: A rule ID as the rule catalogue writes them (``RTB-Q1``, ``BSB-ROUND-BID``, ``BUS-MOVE``).
RULE_ID = re.compile(r"^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+$")
#: Players at a GameWidget table (every game seats 3).
PLAYERS = 3

Factory = Callable[..., GameWidget]


def game_widget_classes() -> list[type[GameWidget]]:
    """Every GameWidget subclass that bus_lab.widgets exports, by name."""
    found = {}
    for name in widgets.__all__:
        obj = getattr(widgets, name)
        if isinstance(obj, type) and issubclass(obj, GameWidget) and obj is not GameWidget:
            found[name] = obj
    return [found[name] for name in sorted(found)]


def plain_widget(game: str) -> Factory:
    """Builds a plain :class:`GameWidget` over ``game`` (3 seats; the ``humans`` seats are people,
    the others random bots), with the same call as a game widget class."""

    def build(humans: tuple[int, ...] = (0,), seed: int | None = None, **options: Any) -> GameWidget:
        bots = {s: "random" for s in range(PLAYERS) if s not in humans}
        return GameWidget(Session(load_game(game, players=PLAYERS, **options), seed=seed, bots=bots))

    build.__name__ = f"GameWidget[{game}]"
    return build


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


def _class_cases() -> list[tuple[Factory, dict[str, Any]]]:
    cases = []
    for cls in game_widget_classes():
        try:
            variants = option_variants(cls)
        except Exception:  # a class that cannot be built: its case fails below with the error
            variants = [{}]
        cases += [(cls, options) for options in variants]
    return cases


CASES: list[tuple[Factory, dict[str, Any]]] = [
    (plain_widget(game), {}) for game in bus_lab.registered_games()
] + _class_cases()


def case_id(case: tuple[Factory, dict]) -> str:
    factory, options = case
    return factory.__name__ + (
        "[" + ",".join(f"{k}={v}" for k, v in options.items()) + "]" if options else ""
    )


# -- the frame checker ------------------------------------------------------------------------------


def _words(text: Any) -> int:
    return len(str(text).split()) if isinstance(text, str) else 0


def frame_problems(frame: dict[str, Any]) -> list[str]:
    """Everything in a frame that fails the checks in the module docstring."""
    problems: list[str] = []
    for move in frame["moves"]:
        label = move.get("label")
        if not (isinstance(label, str) and label.strip()):
            problems.append(f"move {move.get('action')} has no label")
        choice, path = move.get("choice"), move.get("path") or []
        if choice is None and not path:
            problems.append(f"move {label!r} has neither a choice button nor a board target")
        if choice is not None and not (isinstance(choice, str) and choice.strip()):
            problems.append(f"move {label!r} has a choice button with no text")
        if any(not (isinstance(key, str) and key.strip()) for key in path):
            problems.append(f"move {label!r} goes through a target with no key: {path!r}")
    for key, reason in frame["blocked"].items():
        if _words(reason) < 2:
            problems.append(f"blocked target {key!r} does not say why: {reason!r}")
    status = frame["status"]
    if _words(status.get("now")) < 2 or _words(status.get("hint")) < 2:
        problems.append(f"the status line says nothing in words: {status!r}")
    if frame["moves"] and _words(frame.get("prompt")) < 2:
        problems.append(f"moves to make but no prompt: {frame.get('prompt')!r}")
    if not (isinstance(frame.get("title"), str) and frame["title"].strip()):
        problems.append("the board has no title")
    scores = frame["scores"]
    if _words(scores.get("caption")) < 1:
        problems.append("the scores table has no caption")
    columns = scores.get("columns") or []
    if not columns or any(_words(c) < 1 for c in columns):
        problems.append(f"the scores table lacks column headers: {columns!r}")
    for row in scores.get("rows", []):
        if _words(row.get("name")) < 1:
            problems.append(f"a scores row has no row header (seat name): {row!r}")
        if len(row.get("cells", [])) != len(columns) - 1:
            problems.append(f"a scores row does not fit the columns: {row!r} under {columns!r}")
    if _words(scores.get("result")) < 2:
        problems.append(f"the scores table has no result sentence: {scores.get('result')!r}")
    for event in frame["log"]["events"]:
        if not RULE_ID.match(str(event.get("rule"))) or _words(event.get("text")) < 1:
            problems.append(f"a log event without its rule ID or text: {event!r}")
    viewers = frame["controls"]["viewers"]
    for label, _value in viewers:
        if _words(label) < 1:
            problems.append(f'a "View as" choice has no label: {label!r}')
    if len({value for _, value in viewers}) != len(viewers):
        problems.append(f'"View as" has the same choice twice: {viewers!r}')
    for seat in frame["seats"]:
        if _words(seat.get("name")) < 1:
            problems.append(f"seat {seat.get('seat')} has no name")
    return problems


# -- the ipywidgets checker (panels beside the board) -----------------------------------------------


class _MarkupScan(HTMLParser):
    """Collects problems with SVG and <img> text descriptions in one HTML string."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.svg_depth = 0
        self.svgs = 0
        self.problems: list[str] = []

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

    def handle_endtag(self, tag: str) -> None:
        if tag == "svg" and self.svg_depth:
            self.svg_depth -= 1


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

    The contents of a closed FoldingPanel are not hidden: the user can open them, so they are
    checked too.
    """
    hidden = hidden or (_hidden(widget) and not openable)
    yield widget, hidden
    for child in getattr(widget, "children", ()) or ():
        yield from walk(child, hidden, openable=isinstance(widget, FoldingPanel) and child is widget.body)


def panel_problems(root: W.Widget) -> list[str]:
    """Every ipywidgets control under ``root`` (the board itself excepted: core.js draws it) that
    has no label, every slider and visible ``Play``, and every picture without a description."""
    problems: list[str] = []
    for widget, hidden in walk(root):
        kind = type(widget).__name__
        if isinstance(widget, BoardWidget):
            continue
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
                problems.append(f"a visible Play control ({widget.description!r}): its buttons have no names")
        elif isinstance(widget, (W.IntSlider, W.FloatSlider, W.SelectionSlider, W.IntRangeSlider)):
            if not hidden:  # ipywidgets does not link a slider's label to its handle
                problems.append(f"a slider ({widget.description!r}) has no spoken name: use a number box")
        elif isinstance(widget, (W.HTML, W.HTMLMath, W.Label)):
            problems += [f"{kind}: {p}" for p in scan_markup(widget.value or "").problems]
        elif isinstance(widget, W.ValueWidget) and hasattr(widget, "description") and not hidden:
            if not ((widget.description or "").strip() or (getattr(widget, "tooltip", None) or "").strip()):
                problems.append(f"{kind} (value {widget.value!r}) without a label or a tooltip")
    return problems


# -- checking a widget in a state ------------------------------------------------------------------


def check(w: GameWidget, where: str, found: dict[str, list[str]]) -> None:
    """Check ``w`` as the spectator and as seat 0; add problems to ``found`` under ``where``."""
    for viewer in (None, 0):
        w.set_viewer(viewer)
        assert w.last_error is None, f"{where}: the widget shows an error: {w.last_error!r}"
        frame = w.frame
        assert frame["controls"]["viewer"] == (SPECTATOR if viewer is None else viewer)
        problems = frame_problems(frame) + panel_problems(w.widget)
        if problems:
            found[f"{where}, viewer {viewer}"] = sorted(set(problems))
    w.set_viewer(None)


# -- the tests ---------------------------------------------------------------------------------


def test_every_game_has_a_widget_class_under_test():
    """Each registered game has its widget here, so a new game cannot slip past these checks."""
    tested = {cls(humans=(), seed=0).session.game.name for cls in game_widget_classes()}
    assert set(bus_lab.registered_games()) <= tested, (
        f"games without an exported widget class: {set(bus_lab.registered_games()) - tested}"
    )


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_widget_is_accessible_in_every_state(case):
    factory, options = case
    found: dict[str, list[str]] = {}

    fresh = factory(humans=(), seed=0, **options)
    check(fresh, "fresh", found)

    # A human seat's turns: reach one, check, play a legal move as the page does, repeat.
    w = factory(humans=(0,), seed=1, **options)
    turns = 0
    for _ in range(MAX_STEPS_TO_HUMAN):
        if w.session.state.is_terminal() or turns >= HUMAN_TURNS:
            break
        if w.session.waiting_for_human():
            check(w, f"human turn {turns + 1} (step {w.session.position})", found)
            assert w.frame["moves"], "a person to move has no moves on the board"
            moves = w.frame["moves"]
            w.handle_message(
                {"type": "move", "action": moves[len(moves) // 2]["action"], "seq": w.frame["seq"]}
            )
            turns += 1
        else:
            w.step()
        assert w.last_error is None, f"{w.last_error!r}"
    assert turns >= 1, "seat 0 never had a move to make"

    # Points through a bots-only game, up to the end, reached with the timeline.
    bots = factory(humans=(), seed=2, **options)
    bots.session.run_to_end()
    bots.refresh()
    length = bots.session.position
    assert bots.session.state.is_terminal() and length > 0
    for fraction in FRACTIONS:
        position = round(length * fraction)
        bots.goto(position)
        assert bots.session.position == position
        check(bots, f"bots-only game at step {position} of {length}", found)
    assert bots.frame["scores"]["result"].startswith("Result:")  # the end really was reached

    assert not found, "accessibility problems:\n" + "\n".join(
        f"  {where}: {'; '.join(problems)}" for where, problems in found.items()
    )


def _good_frame() -> dict[str, Any]:
    """A frame of a real widget at a person's turn (so it has moves), to be spoiled below."""
    w = plain_widget("busstop")(humans=(0,), seed=3)
    while not w.session.waiting_for_human():
        w.step()
    w.step()  # a refused Step: the message line is used too
    return w.frame


def test_the_frame_checker_catches_each_fault():
    """A frame with one of each fault: the checker names them all (so the test above can fail)."""
    frame = _good_frame()
    assert frame["moves"] and frame_problems(frame) == []
    unlabelled = frame["moves"][0]["action"]
    frame["moves"][0]["label"] = " "
    frame["moves"][1].update(choice=None, path=[])
    frame["moves"][2].update(choice="")
    frame["blocked"] = {"tile:4": "", "tile:5": "Already played this game (BSB-ROUND-BID)."}
    frame["status"]["now"] = ""
    frame["prompt"] = ""
    frame["scores"]["caption"] = ""
    frame["scores"]["rows"][1]["name"] = ""
    frame["log"]["events"].append({"rule": "", "text": "Something happened."})
    frame["log"]["events"].append({"rule": "BSB-ROUND-BID", "text": ""})
    frame["controls"]["viewers"][1][0] = ""
    problems = frame_problems(frame)
    expected = [
        f"move {unlabelled} has no label",
        "has neither a choice button nor a board target",
        "has a choice button with no text",
        "blocked target 'tile:4' does not say why",
        "the status line says nothing in words",
        "moves to make but no prompt",
        "the scores table has no caption",
        "a scores row has no row header",
        "a log event without its rule ID or text: {'rule': ''",
        "a log event without its rule ID or text: {'rule': 'BSB-ROUND-BID', 'text': ''}",
        'a "View as" choice has no label',
    ]
    for part in expected:
        assert sum(part in p for p in problems) == 1, (part, problems)
    assert len(problems) == len(expected), problems


def test_the_panel_checker_catches_each_fault():
    """An ipywidgets panel with one of each fault: the checker names them all."""
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
            FoldingPanel(
                "Table settings", W.VBox([W.IntText()]), tooltip="The table"
            ),  # closed, still checked
            BoardWidget(),  # drawn by core.js, checked in the browser
        ]
    )
    problems = panel_problems(faulty)
    assert sorted(problems) == sorted(
        [
            "Button without a text label (tooltip='does something')",
            "Button 'Go' without a tooltip",
            'HTML: <svg> without role="img" and an aria-label (role=None, aria-label=None)',
            "HTML: <svg> without role=\"img\" and an aria-label (role='img', aria-label='')",
            "HTML: <img> without alt text (src='chart.png')",
            "a visible Play control ('Auto-play'): its buttons have no names",
            "Dropdown (value 'a') without a label or a tooltip",
            "a slider ('Players') has no spoken name: use a number box",
            "IntText (value 0) without a label or a tooltip",
        ]
    )


@pytest.mark.parametrize("game", bus_lab.registered_games())
def test_the_status_line_says_in_words_what_the_last_step_did(game):
    """After every step the status line (a live region) repeats the events of that step, with
    their rule IDs; at the start of a game there is no last step to tell."""
    w = plain_widget(game)(humans=(), seed=5)
    assert w.frame["status"]["last"] == "" and "Last step" not in w.status_text
    for _ in range(12):
        before = len(w.session.state.events())
        w.step()
        new = w.session.state.events()[before:]
        assert new, "a step recorded no event"
        first = new[0]
        assert w.status_text.startswith(f"Last step: {first.text} [{first.rule}]"), (w.status_text, first)
        assert w.session.state.status() in w.status_text
    w.back()  # going back tells the step before, from the timeline
    previous = w.session.state_at(w.session.position - 1)
    expected = w.session.state.events()[len(previous.events())]
    assert w.frame["status"]["last"].startswith(f"{expected.text} [{expected.rule}]")


@pytest.mark.parametrize("game", bus_lab.registered_games())
def test_step_is_offered_only_when_it_does_something(game):
    """Step is disabled while a person must move (tapping the board makes that move) and at the
    end; the hint says which, in words."""
    w = plain_widget(game)(humans=(0,), seed=4)
    while not w.session.waiting_for_human():
        assert w.frame["controls"]["can_step"] and "press step" in w.frame["status"]["hint"].lower()
        w.step()
    assert not w.frame["controls"]["can_step"] and "tap a highlighted place" in w.frame["status"]["hint"]
    bots = plain_widget(game)(humans=(), seed=4)
    bots.session.run_to_end()
    bots.refresh()
    assert not bots.frame["controls"]["can_step"] and "New game" in bots.frame["status"]["hint"]


def test_odds_read_in_words_at_the_ends():
    from fractions import Fraction

    from bus_lab.widgets import format_odds

    assert format_odds(Fraction(0)) == "0 (impossible)" and format_odds(Fraction(1)) == "1 (certain)"
    assert format_odds(Fraction(28, 51)) == "28/51 (54.9%)"
    assert format_odds(Fraction(1, 16)) == "1/16 (6.3%)"  # 6.25: a half rounds up


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
    """Card ranks and suits of the drawn Ride the Bus table meet the WCAG AA ratio 4.5:1 on a live
    (white) card and on a resolved (grey) one."""
    from bus_lab.games.ride_the_bus import render

    assert contrast("#000000", "#FFFFFF") == pytest.approx(21) and contrast("#777777", "#FFFFFF") < 4.5
    for ink in (render.RED_INK, render.BLACK_INK):
        assert contrast(ink, "#FFFFFF") >= 4.5 and contrast(ink, "#ECECEC") >= 4.5, ink
