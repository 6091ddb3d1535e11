"""``RideTheBusWidget``: play Ride the Bus by tapping the board, with exact odds on every answer,
with any table settings.

Example::

    from bus_lab.widgets import RideTheBusWidget

    w = RideTheBusWidget(players=4, humans=(0,), seed=3)   # you play seat 0, three bots
    w                                  # in a notebook: the settings panel and the board
    w.frame["moves"][0]["odds"]        # '1/2 (50.0%)': red on a fresh deck (RTB-Q1)
    w.play("red")                      # answer "red" (on the board: tap Red beside the next card)
    w.step()                           # Step deals the card (or a bot moves)

    demo = RideTheBusWidget(humans=(), seed=7)             # four bots: a spectator demo
    demo.step()

    # Any table settings; the "Table settings" panel starts filled in with them:
    RideTheBusWidget(players=3, board="give_and_take", bus="questions", streak=4)
    RideTheBusWidget(players=1, mode="gauntlet")           # the solo gauntlet

    # The panel, from code (what a learner does with the mouse):
    w.settings["players"].value = 5
    w.settings["bus"].value = "questions"
    w.seat_controls[1].value = "human"
    w.deal_button.click()              # a new game with these settings (errors show in the message line)

The board (:mod:`bus_lab.board`, drawer ``static/games/ride_the_bus.js``) is played by touch: an
answer is a button beside the card about to be dealt, a give is a tap on the taker's row. Rules
are cited by their IDs (``RTB-…``, see the rule catalogue) in the heading, the event log and on
every move's explanation.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import ipywidgets as W

from bus_lab.engine.core import State
from bus_lab.engine.registry import load_game
from bus_lab.engine.session import Session
from bus_lab.widgets.base import FoldingPanel, GameWidget

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
    "ties": {"lose": "same rank loses", "win": "same rank wins"},
    "inside": {"strict": "strictly between", "inclusive": "edges count as inside"},
    "aces": {"high": "aces high", "low": "aces low"},
    "pyramid_order": {"bottom_up": "bottom row first", "top_down": "top card first"},
    "played_cards": {"leave": "leave the row", "stay": "stay in the row"},
}
#: The house rules (RTB-HR-*), in the order of the panel, with their words in the heading.
HOUSE_RULES = ("ties", "inside", "aces", "pyramid_order", "played_cards")
HOUSE_WORDS = {
    ("ties", "win"): "ties win",
    ("inside", "inclusive"): "inclusive inside",
    ("aces", "low"): "aces low",
    ("pyramid_order", "top_down"): "pyramid top down",
    ("played_cards", "stay"): "played cards stay",
}
#: What each house rule means, in plain words (shown under the house rule dropdowns).
HOUSE_HELP = (
    "<b>House rules</b> (people play Ride the Bus in different ways; the odds follow what you pick):"
    "<ul style='margin:2px 0'>"
    "<li><b>Same rank</b>: on higher or lower, is a card of the same rank wrong, or right whichever you "
    "called? <small>(RTB-HR-TIES)</small></li>"
    "<li><b>Inside</b>: does a card matching one of your first two cards count as inside? "
    "<small>(RTB-HR-INSIDE)</small></li>"
    "<li><b>Aces</b>: is an ace the highest card or the lowest? <small>(RTB-HR-ACES)</small></li>"
    "<li><b>Pyramid order</b>: flip the bottom row first, or the top card first (each row keeps its "
    "points)? <small>(RTB-HR-FLIP)</small></li>"
    "<li><b>Played cards</b>: does a card you play on the pyramid leave your row, or stay and play again? "
    "<small>(RTB-HR-STAY)</small></li></ul>"
)
#: Settings that do not apply in the solo gauntlet (RTB-SG-FLOW, RTB-HR-FLIP, RTB-HR-STAY).
CLASSIC_ONLY = ("board", "row_points", "bus", "pyramid_order", "played_cards")
GIVE_AND_TAKE_TOOLTIP = "Does not apply on the Give & Take board: it has no pyramid (RTB-HR-FLIP)"
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
    "ties": "A card of the same rank on higher/lower (question 2 and the bus): wrong (the standard rule) or "
    "right whichever was called (RTB-HR-TIES)",
    "inside": "A card matching one of your first two on inside/outside: wrong both ways (the standard rule) "
    "or it counts as inside (RTB-HR-INSIDE)",
    "aces": "Aces high (2 lowest, A highest: the standard rule) or aces low (A lowest, K highest) (RTB-HR-ACES)",
    "pyramid_order": "Flip the pyramid from the bottom row of four (the standard rule) or from the single top "
    "card down; each row keeps its points (RTB-HR-FLIP)",
    "played_cards": "A card played in Part 2 leaves your row (the standard rule) or stays and is played again "
    "on every later match (RTB-HR-STAY)",
}


def _plural(k: int, word: str) -> str:
    return f"{k} {word}{'' if k == 1 else 's'}"


class RideTheBusWidget(GameWidget):
    """A Ride the Bus table you can play, step through and rewind, with a "Table settings" panel.

    Args:
        players (int): number of seats, 2–8, or 1–8 with ``mode="gauntlet"`` (RTB-SETUP-PLAYERS).
        humans (Iterable[int]): seats you play by tapping the board; the others are bots.
            ``()`` makes every seat a bot (a demo to watch).
        bot (str): the bots' policy, ``"best_odds"`` (default) or ``"random"``.
        seed (int | None): seed of the cards and the bots' tie-breaks (same seed, same game).
        deck (Sequence[str] | None): a scripted deck, cards such as ``"7H"`` (or ``"10♥"``,
            ``"TH"``: any spelling of a card label) dealt in order before random draws take over
            (for lessons). Games dealt from the settings panel do not use it.
        title (str | None), max_log (int), interval (int, ms ≥ 200), pick_cards (bool): see
            :class:`~bus_lab.widgets.base.GameWidget`.
        start (dict | None): a position to begin from (passed to :class:`~bus_lab.engine.Session`)
            when the game has positions; New game returns to it.
        **options: game options ``board``, ``row_points``, ``bus``, ``streak``, ``mode`` (see
            :class:`~bus_lab.games.ride_the_bus.game.RideTheBusGame`); they also fill in the
            settings panel.

    Raises:
        PositionError: ``start`` cannot be set up (the message names the field).
        NotImplementedError: ``start`` given while Ride the Bus has no positions to set up.
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
        widget (VBox): what is displayed: the settings panel above the board.
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
        start: dict[str, Any] | None = None,
        **options: Any,
    ):
        game = load_game("ride_the_bus", players=players, **options)
        session = self.table_session(game, humans, bot, seed, deck, start)
        self._params = {p.name: p for p in type(game).PARAMS}
        super().__init__(session, title=title, max_log=max_log, interval=interval, pick_cards=pick_cards)
        self._build_settings(bot)
        self.widget = W.VBox([self.settings_panel, self.board, *self._position_panels()])

    # -- the settings panel ----------------------------------------------------------------
    def _build_settings(self, bot: str) -> None:
        params = self.session.game.params
        style = {"description_width": "110px"}
        wide = W.Layout(width="340px")

        def choice(name: str) -> W.Dropdown:
            labels = SETTING_LABELS[name]
            return W.Dropdown(
                options=[(labels.get(v, v), v) for v in self._params[name].choices],
                value=params.get(name, self._params[name].default),
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
            **{name: choice(name) for name in HOUSE_RULES},
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
                    tooltip=f"Who plays seat {seat}: you (human, tapping the "
                    "board) or a bot (best_odds: the likeliest guess; random: any legal move)",
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
        self.settings["board"].observe(self._on_board, names="value")
        self.deal_button.on_click(lambda _b: self._guarded(self.deal_new_game))
        # One seed for the next game, whichever box it is typed in (New game or Deal uses it).
        self.settings["seed"].observe(self._on_seed, names="value")

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
                W.HTML(HOUSE_HELP),
                W.HBox(
                    [
                        W.VBox([s["ties"], s["inside"], s["aces"]]),
                        W.VBox([s["pyramid_order"], s["played_cards"]]),
                    ],
                    layout=W.Layout(flex_flow="row wrap"),
                ),
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

    def _on_seed(self, change: dict) -> None:
        """A seed typed in the panel is the next game's seed (the board's Seed box shows it)."""
        if change["new"] != self.next_seed:
            self.next_seed = int(change["new"])
            self.refresh()

    def reset(self, seed: int | None = None) -> None:
        """Start a new game with the same table (New game), with ``seed`` or the seed last chosen;
        the panel's Seed box follows."""
        super().reset(seed)
        if "seed" in getattr(self, "settings", {}) and self.settings["seed"].value != self.next_seed:
            self.settings["seed"].value = self.next_seed

    def set_session(self, session: Session) -> None:
        """Show another session (see :meth:`GameWidget.set_session`); the panel's Seed box follows."""
        super().set_session(session)
        if "seed" in getattr(self, "settings", {}) and self.settings["seed"].value != self.next_seed:
            self.settings["seed"].value = self.next_seed

    @staticmethod
    def _describe(name: str) -> str:
        return {
            "mode": "Mode",
            "board": "Board (Part 2)",
            "row_points": "Row points",
            "bus": "Bus (Part 3)",
            "ties": "Same rank",
            "inside": "Inside",
            "aces": "Aces",
            "pyramid_order": "Pyramid order",
            "played_cards": "Played cards",
        }[name]

    def _on_board(self, change: dict) -> None:
        """The Give & Take board has no pyramid: its flip order goes back to the standard one
        (RTB-HR-FLIP)."""
        if change["new"] == "give_and_take":
            self.settings["pyramid_order"].value = self._params["pyramid_order"].default
        self._sync_settings()

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
        if not gauntlet and self.settings["board"].value == "give_and_take":
            self.settings["pyramid_order"].disabled = True
            self.settings["pyramid_order"].tooltip = GIVE_AND_TAKE_TOOLTIP
        self.settings_note.value = (
            "<small><i>Board, row points, bus, pyramid order and played cards do not apply in the solo "
            "gauntlet: after Part 1 everyone rides a higher/lower bus in turn (RTB-SG-FLOW).</i></small>"
            if gauntlet
            else ""
        )
        for seat, control in enumerate(self.seat_controls):
            control.layout.display = None if seat < players.value else "none"

    def settings_values(self) -> dict[str, Any]:
        """The game options chosen in the panel, as ``load_game`` takes them (no checks here).

        Returns:
            ``{"players", "board", "row_points", "bus", "streak", "mode"}``, and each house rule
            (``"ties"``, ``"inside"``, ``"aces"``, ``"pyramid_order"``, ``"played_cards"``,
            RTB-HR-*) chosen other than the standard one.
        """
        values = {
            name: self.settings[name].value
            for name in ("players", "board", "row_points", "bus", "streak", "mode")
        }
        for name in HOUSE_RULES:  # only the house rules that differ from the standard game
            if self.settings[name].value != self._params[name].default:
                values[name] = self.settings[name].value
        return values

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

    @staticmethod
    def options_text(params: dict[str, Any]) -> str:
        """The table settings in words, e.g. ``"3 players, Give & Take board, flat row points,
        questions bus, streak 4"``; house rules other than the standard ones follow, e.g.
        ``"…, streak 5; house rules: ties win, aces low"`` (RTB-HR-*)."""
        players = _plural(params["players"], "player")
        house = [HOUSE_WORDS[(k, params[k])] for k in HOUSE_RULES if (k, params.get(k)) in HOUSE_WORDS]
        extra = f"; house rules: {', '.join(house)}" if house else ""
        if params["mode"] == "gauntlet":
            return f"solo gauntlet, {players}, {params['streak']} in a row to win{extra}"
        board = "Give & Take board" if params["board"] == "give_and_take" else "pyramid"
        bus = "questions bus" if params["bus"] == "questions" else "higher/lower bus"
        return (
            f"{players}, {board}, {params['row_points']} row points, {bus}, streak {params['streak']}{extra}"
        )

    # -- hooks -----------------------------------------------------------------------------
    def heading(self, state: State) -> str:
        """The table settings, then which part of the game is on with its rule ID (the board
        adapter's :func:`~bus_lab.board.adapters.ride_the_bus.part_line`), e.g. ``"Table: 3 players,
        pyramid, escalating row points, higher/lower bus, streak 5 · Part 1 of 3 — …"``."""
        return f"Table: {self.options_text(self.session.game.params)} · {super().heading(state)}"

    def scores(self, state: State) -> dict[str, Any]:
        """The scores table. In a classic game, points and where they came from (lowest total
        wins, RTB-SCORE-LOW). In the solo gauntlet, each seat's Part 1 points (they only set the
        ride order, RTB-SG-QUESTIONS) and best ride; the result is by streak: the target streak
        wins on the spot, otherwise the longest ride, and a lone rider who never made the target
        has no win (RTB-SG-WIN). Each gauntlet row also has ``best`` (hits in a row)."""
        return super().scores(state)  # the board adapter scores the gauntlet by streak
