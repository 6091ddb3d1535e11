"""``RideTheBusWidget``: play Ride the Bus move by move, with exact odds on every guess button,
with any table settings.

Example::

    from bus_lab.widgets import RideTheBusWidget

    w = RideTheBusWidget(players=4, humans=(0,), seed=3)   # you play seat 0, three bots
    w                                  # in a notebook: shows the table and the controls
    w.action_buttons[0].description    # 'red — 1/2 (50.0%)' (RTB-Q1 on a fresh deck)
    w.action_buttons[0].click()        # answer "red"; then Step (or Auto-play) deals the card

    demo = RideTheBusWidget(humans=(), seed=7)             # four bots: a spectator demo
    demo.play.value += 1               # what one tick of Play does: one step

    # Any table settings; the "Table settings" panel starts filled in with them:
    RideTheBusWidget(players=3, board="give_and_take", bus="questions", streak=4)
    RideTheBusWidget(players=1, mode="gauntlet")           # the solo gauntlet

    # The panel, from code (what a learner does with the mouse):
    w.settings["players"].value = 5
    w.settings["bus"].value = "questions"
    w.seat_controls[1].value = "human"
    w.deal_button.click()              # a new game with these settings (errors show in w.error)

Rules are cited by their IDs (``RTB-…``, see the rule catalogue) in the event log and tooltips.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from html import escape
from typing import Any

import ipywidgets as W

from bus_lab.engine.core import State
from bus_lab.engine.registry import load_game
from bus_lab.engine.session import Session
from bus_lab.games.ride_the_bus.cards import card_label
from bus_lab.games.ride_the_bus.moves import QUESTIONS, Give, Guess
from bus_lab.games.ride_the_bus.phases import Part, RideTheBusPhase
from bus_lab.games.ride_the_bus.render import table_svg
from bus_lab.games.ride_the_bus.state import MAX_BUS_GUESSES, RIDES_EACH
from bus_lab.widgets.base import FoldingPanel, GameWidget, format_odds

#: The most seats a table has (RTB-SETUP-PLAYERS); the seat controls are built once for all.
MAX_SEATS = 8
#: What a seat can be in the settings panel: (label, value); a value other than "human" is a
#: bot policy name of the game.
SEAT_KINDS = (("human", "human"), ("best_odds bot", "best_odds"), ("random bot", "random"))
#: How each setting's values read in the panel.
SETTING_LABELS = {
    "mode": {"classic": "classic (three parts)", "gauntlet": "solo gauntlet (Part 1, then rides)"},
    "board": {"pyramid": "pyramid", "give_and_take": "Give & Take"},
    "row_points": {"escalating": "escalating (1 to 4 by row)", "flat": "flat (1 per card)"},
    "bus": {"higher_lower": "higher/lower", "questions": "questions (Q1–Q4 again)"},
}
#: Settings that do not apply in the solo gauntlet (RTB-SG-FLOW).
CLASSIC_ONLY = ("board", "row_points", "bus")
GAUNTLET_TOOLTIP = (
    "Does not apply in the solo gauntlet: it goes from Part 1 straight to the rides, "
    "which are always higher/lower (RTB-SG-FLOW)"
)
SETTING_TOOLTIPS = {
    "players": "Number of players: 2 to 8 in a classic game, 1 to 8 in the solo gauntlet (RTB-SETUP-PLAYERS)",
    "mode": "Classic: questions, Part 2 board, bus. Solo gauntlet: questions, then everyone rides in turn "
    "(RTB-SG-FLOW)",
    "board": "Part 2 board: the pyramid (RTB-P-LAYOUT) or the Give & Take board (RTB-GT-LAYOUT)",
    "row_points": "Points per card played in Part 2: escalating by row or 1 on every row (RTB-P-POINTS, "
    "RTB-GT-POINTS)",
    "bus": "Part 3: guess higher/lower (RTB-B-GUESS) or answer the four questions again (RTB-QB-ORDER)",
    "streak": "Hits in a row that end the bus, or that win the gauntlet on the spot (RTB-B-END, RTB-SG-WIN)",
    "seed": "Seed of the new game: the same seed and settings deal the same cards and bot moves",
}


def _plural(k: int, word: str) -> str:
    return f"{k} {word}{'' if k == 1 else 's'}"


class RideTheBusWidget(GameWidget):
    """A Ride the Bus table you can play, step through and rewind, with a "Table settings" panel.

    Args:
        players (int): number of seats, 2–8, or 1–8 with ``mode="gauntlet"`` (RTB-SETUP-PLAYERS).
        humans (Iterable[int]): seats you play with the move buttons; the others are bots.
            ``()`` makes every seat a bot (a demo to watch).
        bot (str): the bots' policy, ``"best_odds"`` (default) or ``"random"``.
        seed (int | None): seed of the cards and the bots' tie-breaks (same seed, same game).
        deck (Sequence[str] | None): a scripted deck, cards such as ``"7H"`` (or ``"10♥"``,
            ``"TH"``: any spelling of a card label) dealt in order before random draws take over
            (for lessons). Games dealt from the settings panel do not use it.
        title (str | None), max_log (int), interval (int, ms ≥ 200), pick_cards (bool): see
            :class:`~bus_lab.widgets.base.GameWidget`.
        **options: game options ``board``, ``row_points``, ``bus``, ``streak``, ``mode`` (see
            :class:`~bus_lab.games.ride_the_bus.game.RideTheBusGame`); they also fill in the
            settings panel.

    Raises:
        ParameterError: a bad game option, or a human seat that is not at the table.
        OptionNotBuiltError: an option value this version does not play yet.
        ValueError: an unknown bot policy, or a bad ``interval``/``max_log``.

    Attributes (besides those of :class:`~bus_lab.widgets.base.GameWidget`):
        settings (dict[str, Widget]): the panel's controls by name: ``"players"``, ``"mode"``,
            ``"board"``, ``"row_points"``, ``"bus"``, ``"streak"`` (values as in ``load_game``)
            and ``"seed"``.
        seat_controls (list[Dropdown]): one per possible seat (8, built once; those beyond the
            number of players are hidden), value ``"human"``, ``"best_odds"`` or ``"random"``.
        deal_button (Button): "Deal a new game with these settings".
        settings_note (HTML): a line in the panel saying which settings do not apply and why.
        settings_panel (FoldingPanel): the collapsible "Table settings" panel (closed at first).
    """

    def __init__(
        self,
        players: int = 4,
        humans: Iterable[int] = (0,),
        bot: str = "best_odds",
        seed: int | None = 0,
        deck: Sequence[str] | None = None,
        *,
        title: str | None = None,
        max_log: int = 40,
        interval: int = 500,
        pick_cards: bool = False,
        **options: Any,
    ):
        game = load_game("ride_the_bus", players=players, **options)
        session = self.table_session(game, humans, bot, seed, deck)
        self._params = {p.name: p for p in type(game).PARAMS}
        super().__init__(session, title=title, max_log=max_log, interval=interval, pick_cards=pick_cards)
        self._build_settings(bot)
        children = list(self.widget.children)
        children.insert(1, self.settings_panel)
        self.widget.children = tuple(children)

    # -- the settings panel ----------------------------------------------------------------
    def _build_settings(self, bot: str) -> None:
        params = self.session.game.params
        style = {"description_width": "110px"}
        wide = W.Layout(width="340px")

        def choice(name: str) -> W.Dropdown:
            labels = SETTING_LABELS[name]
            return W.Dropdown(
                options=[(labels.get(v, v), v) for v in self._params[name].choices],
                value=params[name],
                description=self._describe(name),
                tooltip=SETTING_TOOLTIPS[name],
                style=style,
                layout=wide,
            )

        low, high = self._params["players"].bounds
        self.settings: dict[str, W.Widget] = {
            "mode": choice("mode"),
            # Number boxes, not sliders: a screen reader names a number box by its label (ipywidgets
            # links the two), but announces a slider unnamed. Arrow keys step them all the same.
            "players": W.BoundedIntText(
                value=params["players"],
                min=low,
                max=high,
                description="Players",
                tooltip=SETTING_TOOLTIPS["players"],
                style=style,
                layout=W.Layout(width="200px"),
            ),
            "board": choice("board"),
            "row_points": choice("row_points"),
            "bus": choice("bus"),
            "streak": W.BoundedIntText(
                value=params["streak"],
                min=self._params["streak"].bounds[0],
                max=self._params["streak"].bounds[1],
                description="Streak",
                tooltip=SETTING_TOOLTIPS["streak"],
                style=style,
                layout=W.Layout(width="200px"),
            ),
            "seed": W.IntText(
                value=self.session.seed,
                description="Seed",
                tooltip=SETTING_TOOLTIPS["seed"],
                style=style,
                layout=W.Layout(width="240px"),
            ),
        }
        kinds = [value for _, value in SEAT_KINDS]
        self.seat_controls: list[W.Dropdown] = []
        for seat in range(MAX_SEATS):
            if seat < self.session.game.num_players:
                kind = "human" if seat not in self.session.bots else bot
            else:
                kind = bot if bot in kinds else "best_odds"
            self.seat_controls.append(
                W.Dropdown(
                    options=list(SEAT_KINDS),
                    value=kind if kind in kinds else "best_odds",
                    description=f"Seat {seat}",
                    tooltip=f"Who plays seat {seat}: you (human, with the move "
                    "buttons) or a bot (best_odds: the likeliest guess; random: any legal move)",
                    style={"description_width": "50px"},
                    layout=W.Layout(width="200px"),
                )
            )
        self.deal_button = W.Button(
            description="Deal a new game with these settings",
            icon="play",
            button_style="primary",
            layout=W.Layout(width="auto"),
            tooltip="Start a new game with the settings above (the game on the table "
            "is replaced; a setting that is not allowed is explained and changes nothing)",
        )
        self.settings_note = W.HTML()
        self._classic_choices = {name: self.settings[name].value for name in CLASSIC_ONLY}
        if params["mode"] == "gauntlet":
            self._classic_choices = {name: self._params[name].default for name in CLASSIC_ONLY}
        self._sync_settings()
        self.settings["mode"].observe(self._on_mode, names="value")
        self.settings["players"].observe(lambda _c: self._sync_settings(), names="value")
        self.deal_button.on_click(lambda _b: self._guarded(self.deal_new_game))
        # One seed for the next game, whichever box it is typed in (Reset or Deal uses it).
        self._seed_link = W.link((self.seed_box, "value"), (self.settings["seed"], "value"))

        s = self.settings
        seats = W.HBox(self.seat_controls, layout=W.Layout(flex_flow="row wrap"))
        body = W.VBox(
            [
                W.HTML(
                    "Choose the table, then press the button. Each seat is played by you (human) or by a bot."
                ),
                W.HBox(
                    [
                        W.VBox([s["mode"], s["players"], s["streak"], s["seed"]]),
                        W.VBox([s["board"], s["row_points"], s["bus"]]),
                    ],
                    layout=W.Layout(flex_flow="row wrap"),
                ),
                self.settings_note,
                W.HTML("<b>Who plays each seat</b>"),
                seats,
                self.deal_button,
            ]
        )
        self.settings_panel = FoldingPanel(
            "Table settings",
            body,
            "Open to choose the players, the variant, the seed and who plays each seat, then deal a new game",
        )

    @staticmethod
    def _describe(name: str) -> str:
        return {"mode": "Mode", "board": "Board (Part 2)", "row_points": "Row points", "bus": "Bus (Part 3)"}[
            name
        ]

    def _on_mode(self, change: dict) -> None:
        """Leaving the classic game parks its Part 2/3 choices; coming back restores them."""
        if change["new"] == "gauntlet" and change["old"] != "gauntlet":
            self._classic_choices = {name: self.settings[name].value for name in CLASSIC_ONLY}
            for name in CLASSIC_ONLY:
                self.settings[name].value = self._params[name].default
        elif change["new"] != "gauntlet" and change["old"] == "gauntlet":
            for name in CLASSIC_ONLY:
                self.settings[name].value = self._classic_choices[name]
        self._sync_settings()

    def _sync_settings(self) -> None:
        """Enable what applies to the chosen mode; show one seat control per player."""
        gauntlet = self.settings["mode"].value == "gauntlet"
        players = self.settings["players"]
        with players.hold_sync():
            players.min = 1 if gauntlet else 2  # RTB-SETUP-PLAYERS (a value of 1 moves up to 2)
        for name in CLASSIC_ONLY:
            control = self.settings[name]
            control.disabled = gauntlet
            control.tooltip = GAUNTLET_TOOLTIP if gauntlet else SETTING_TOOLTIPS[name]
        self.settings_note.value = (
            "<small><i>Board, row points and bus do not apply in the solo gauntlet: after Part 1 everyone "
            "rides a higher/lower bus in turn (RTB-SG-FLOW).</i></small>"
            if gauntlet
            else ""
        )
        for seat, control in enumerate(self.seat_controls):
            control.layout.display = None if seat < players.value else "none"

    def settings_values(self) -> dict[str, Any]:
        """The game options chosen in the panel, as ``load_game`` takes them (no checks here).

        Returns:
            ``{"players", "board", "row_points", "bus", "streak", "mode"}``.
        """
        return {
            name: self.settings[name].value
            for name in ("players", "board", "row_points", "bus", "streak", "mode")
        }

    def seat_kinds(self) -> list[str]:
        """Who plays each seat of the chosen table: ``"human"`` or a bot policy name, by seat."""
        return [control.value for control in self.seat_controls[: self.settings["players"].value]]

    def deal_new_game(self) -> str:
        """Replace the game on the table by a new one with the panel's settings (the button).

        Returns:
            a note describing the new table (shown in the message line by the button).

        Raises:
            ParameterError: the settings do not make a game (e.g. ``mode="gauntlet"`` with
                ``board="give_and_take"``, RTB-SG-FLOW; one player in a classic game,
                RTB-SETUP-PLAYERS); the game on the table is left as it was.
            OptionNotBuiltError: an option this version does not play yet.
        """
        game = load_game("ride_the_bus", **self.settings_values())  # raises before anything changes
        kinds = self.seat_kinds()
        bots = {seat: kind for seat, kind in enumerate(kinds) if kind != "human"}
        session = Session(game, seed=int(self.settings["seed"].value), bots=bots)
        self.set_session(session)
        humans = [f"Seat {s}" for s, kind in enumerate(kinds) if kind == "human"]
        who = (
            f"you play {' and '.join(humans)}" if humans else "every seat is a bot (press Step or Auto-play)"
        )
        return f"a new game is dealt: {self.options_text(game.params)}, seed {session.seed}; {who}."

    # -- hooks -----------------------------------------------------------------------------
    def render_board(self, state: State, viewer: int | None) -> str:
        """The table as one SVG from ``state.view(viewer)``: rows, then the pyramid or the Give &
        Take board (or the gauntlet's ride order), then the bus or the current ride."""
        next_spot = state.spot_index if state.phase() is RideTheBusPhase.SPOT_FLIP else None
        return f"<div class='bus-lab-table'>{table_svg(state.view(viewer), next_spot=next_spot)}</div>"

    @staticmethod
    def options_text(params: dict[str, Any]) -> str:
        """The table settings in words, e.g. ``"3 players, Give & Take board, flat row points,
        questions bus, streak 4"``."""
        players = _plural(params["players"], "player")
        if params["mode"] == "gauntlet":
            return f"solo gauntlet, {players}, {params['streak']} in a row to win"
        board = "Give & Take board" if params["board"] == "give_and_take" else "pyramid"
        bus = "questions bus" if params["bus"] == "questions" else "higher/lower bus"
        return f"{players}, {board}, {params['row_points']} row points, {bus}, streak {params['streak']}"

    def header_html(self, state: State) -> str:
        """Title, the table settings, and which part of the game is on (with its rule ID)."""
        n = state.num_players
        if state.gauntlet:
            total = n * RIDES_EACH
            if state.part is Part.QUESTIONS:
                q = QUESTIONS[state.q_round]
                part = (
                    f"Solo gauntlet, Part 1 — the four questions: Q{q.number} of 4 ({q.text}); the points "
                    f"only set the ride order [RTB-SG-QUESTIONS]"
                )
            elif state.part is Part.RIDES:
                part = (
                    f"Solo gauntlet — the rides: ride {state.ride_number + 1} of {total}, Seat {state.rider} "
                    f"rides, streak {state.streak} of {state.target} [RTB-SG-RIDE]"
                )
            else:
                part = (
                    f"Game over: {state.target} in a row wins, otherwise the longest ride"
                    f"{' (a lone rider must make it)' if n == 1 else ''} [RTB-SG-WIN]"
                )
        elif state.part is Part.QUESTIONS:
            q = QUESTIONS[state.q_round]
            part = (
                f"Part 1 of 3 — the four questions: Q{q.number} of 4 ({q.text}, "
                f"{_plural(q.points, 'point')}) [{q.rule}]"
            )
        elif state.part is Part.PYRAMID:
            index = min(state.pyramid_index, 9)
            row = state.pyramid_row(index)
            part = (
                f"Part 2 of 3 — the pyramid: card {index + 1} of 10, row {row} "
                f"({_plural(state.row_points(row), 'point')} per card played) [RTB-P-FLIP]"
            )
        elif state.part is Part.GIVE_AND_TAKE:
            index = min(state.spot_index, 7)
            part = (
                f"Part 2 of 3 — the Give & Take board: the {state.spot_kind(index).capitalize()} spot of row "
                f"{index // 2 + 1} of 4 ({_plural(state.spot_points(index), 'point')} per card played) "
                f"[RTB-GT-{state.spot_kind(index).upper()}]"
            )
        elif state.part is Part.BUS and state.bus_kind == "questions":
            question = len(state.run) + 1 if len(state.run) < 4 else 4
            part = (
                f"Part 3 of 3 — the questions bus: Seat {state.rider} rides, question {question} of 4, "
                f"{state.bus_guesses} of {MAX_BUS_GUESSES} guesses used [RTB-QB-ORDER]"
            )
        elif state.part is Part.BUS:
            part = (
                f"Part 3 of 3 — the bus: Seat {state.rider} rides, streak {state.streak} of "
                f"{state.target} [RTB-B-GUESS]"
            )
        else:
            part = "Game over: lowest total wins [RTB-SCORE-LOW]"
        settings = self.options_text(self.session.game.params)
        return (
            f"<h3 style='margin:4px 0'>{escape(self._title)}</h3>"
            f"<div class='bus-lab-options' style='color:#333'>Table: {escape(settings)}</div>"
            f"<div class='bus-lab-part' style='font-weight:bold'>{escape(part)}</div>"
        )

    def scores_html(self, state: State) -> str:
        """Points and where they came from; in the gauntlet, the Part 1 points (which only set the
        ride order) and each player's best ride, and the result by streak (RTB-SG-WIN)."""
        if not state.gauntlet:
            return super().scores_html(state)
        winners = state.winners()
        over = state.is_terminal()
        rows = []
        for seat in range(state.num_players):
            star = " ★ winner" if seat in winners else ""
            rows.append(
                f"<tr data-seat='{seat}' data-points='{state.points[seat]}' "
                f"data-best='{state.ride_best[seat]}'>"
                f"<td style='padding:2px 6px'>{escape(self.seat_name(seat))} "
                f"<small>({escape(self._seat_kind(seat))})</small>{star}</td>"
                f"<td style='padding:2px 6px;text-align:right'>{state.points[seat]}</td>"
                f"<td style='padding:2px 6px;text-align:right'><b>{state.ride_best[seat]}</b></td></tr>"
            )
        if not over:
            result = "No winner yet: the game is in progress."
        elif not winners:
            result = (
                f"Result: no winner. The lone rider's best ride was {max(state.ride_best)}, short of "
                f"{state.target} in a row (RTB-SG-WIN)."
            )
        else:
            names = " and ".join(self.seat_name(s) for s in winners)
            verb = "share the win" if len(winners) > 1 else "wins"
            result = f"Result: {escape(names)} {verb} with a streak of {max(state.ride_best)}."
        data = ",".join(str(s) for s in winners)
        return (
            f"<table class='bus-lab-scores' style='border-collapse:collapse'>"
            f"<caption style='text-align:left'>Solo gauntlet: {state.target} hits in a row win on the spot; "
            f"otherwise the longest ride wins</caption>"
            f"<tr><th style='text-align:left'>Seat</th><th>Part 1 points<br><small>(ride order)</small></th>"
            f"<th>Best ride<br><small>(hits in a row)</small></th></tr>{''.join(rows)}</table>"
            f"<p class='bus-lab-winners' data-winners='{data}'><b>{result}</b></p>"
        )

    def action_pool_size(self) -> int:
        """Enough buttons for the longest list at any table: 4 suits (RTB-Q4) or 7 give-to choices
        (8 players), so dealing a new game never builds buttons."""
        return max(len(QUESTIONS[3].guesses), MAX_SEATS - 1)

    def action_odds(self, state: State, actions: list[int]) -> dict[int, Fraction]:
        """Exact chance each guess is right (:func:`bus_lab.prob.guess_odds`), on the questions,
        either bus and the gauntlet's rides; ``{}`` for gives."""
        if not any(isinstance(state.move(a), Guess) for a in actions):
            return {}
        from bus_lab.prob.ride_the_bus import guess_odds

        return guess_odds(state)

    def action_tooltip(self, state: State, action: int, odds: Fraction | None) -> str:
        """What the move does, with its rule ID, points at stake and exact odds."""
        move = state.move(action)
        if isinstance(move, Give):
            giver, points, rule, _ = state.gives[0]
            taker = move.seat
            return (
                f"Give {_plural(points, 'point')} to Seat {taker}, who has {state.points[taker]} now ({rule})"
            )
        label = state.action_to_string(action)
        chance = (
            f"right with chance {format_odds(odds)}, counting every card on the table as seen"
            if odds is not None
            else "its chance is not known"
        )
        kind = state.decision_kind()
        if kind is RideTheBusPhase.GUESS:
            q = QUESTIONS[state.q_round]
            if state.num_players == 1:
                after = "right: nothing happens (you play alone)"
            else:
                after = f"right: you give {q.points} to another player (RTB-Q-RIGHT)"
            return f"Answer {label} ({q.rule}): {chance}. Wrong: you take {q.points}; {after}."
        if kind is RideTheBusPhase.QB_GUESS:
            q = QUESTIONS[len(state.run)]
            rule = "RTB-QB-COMPARE" if q.number in (2, 3) else "RTB-QB-ORDER"
            against = ""
            if q.number in (2, 3):
                against = " against " + " and ".join(card_label(c) for c in state.run[: q.number - 1])
            return (
                f"Answer {label} on question {q.number} of the questions bus{against} ({rule}): {chance}. "
                f"A miss costs 1 point and sends you back to question 1 (RTB-QB-MISS)."
            )
        beat = card_label(state.card_to_beat)
        if state.gauntlet:
            return (
                f"Call {label} than {beat} (RTB-SG-RIDE): {chance}. A hit adds 1 to your streak "
                f"({state.streak} of {state.target}); a miss ends this ride."
            )
        return (
            f"Call {label} than {beat} (RTB-B-GUESS): {chance}. A miss costs 1 point and the streak "
            f"goes back to 0 (RTB-B-STREAK)."
        )
