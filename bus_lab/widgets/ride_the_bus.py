"""``RideTheBusWidget``: play Ride the Bus move by move, with exact odds on every guess button.

Example::

    from bus_lab.widgets import RideTheBusWidget

    w = RideTheBusWidget(players=4, humans=(0,), seed=3)   # you play seat 0, three bots
    w                                  # in a notebook: shows the table and the controls
    w.action_buttons[0].description    # 'red — 1/2 (50.0%)' (RTB-Q1 on a fresh deck)
    w.action_buttons[0].click()        # answer "red"; then Step (or Play) deals the card

    demo = RideTheBusWidget(humans=(), seed=7)             # four bots: a spectator demo
    demo.play.value += 1               # what one tick of Play does: one step

Rules are cited by their IDs (``RTB-…``, see the rule catalogue) in the event log and tooltips.
"""
from __future__ import annotations

from fractions import Fraction
from html import escape
from typing import Any, Iterable, Sequence

from bus_lab.engine.core import State
from bus_lab.engine.errors import ParameterError
from bus_lab.engine.registry import load_game
from bus_lab.engine.session import Session
from bus_lab.games.ride_the_bus.render import table_svg
from bus_lab.games.ride_the_bus.state import GIVE_BASE, QUESTIONS
from bus_lab.widgets.base import GameWidget, format_odds


class RideTheBusWidget(GameWidget):
    """A Ride the Bus table you can play, step through and rewind.

    Args:
        players (int): number of seats, 2–8 (RTB-SETUP-PLAYERS).
        humans (Iterable[int]): seats you play with the move buttons; the others are bots.
            ``()`` makes every seat a bot (a demo to watch).
        bot (str): the bots' policy, ``"best_odds"`` (default) or ``"random"``.
        seed (int | None): seed of the cards and the bots' tie-breaks (same seed, same game).
        deck (Sequence[str] | None): a scripted deck, card codes such as ``"7H"`` dealt in order
            before random draws take over (for lessons).
        title (str | None), max_log (int), interval (int, ms ≥ 200), pick_cards (bool): see
            :class:`~bus_lab.widgets.base.GameWidget`.
        **options: game options (``row_points``, ``streak``, ``board``, ``bus``, ``mode``).

    Raises:
        ParameterError: a bad game option, or a human seat that is not at the table.
        OptionNotBuiltError: an option value this version does not play yet.
        ValueError: an unknown bot policy, or a bad ``interval``/``max_log``.
    """

    def __init__(self, players: int = 4, humans: Iterable[int] = (0,), bot: str = "best_odds",
                 seed: int | None = 0, deck: Sequence[str] | None = None, *, title: str | None = None,
                 max_log: int = 40, interval: int = 500, pick_cards: bool = False, **options: Any):
        game = load_game("ride_the_bus", players=players, **options)
        humans = tuple(humans)
        for seat in humans:
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.num_players:
                raise ParameterError(f"humans={humans!r}: {seat!r} is not a seat at the table; "
                                     f"seats are 0 to {game.num_players - 1}")
        bots = {s: bot for s in range(game.num_players) if s not in humans}
        session = Session(game, seed=seed, bots=bots, deck=deck)
        super().__init__(session, title=title, max_log=max_log, interval=interval, pick_cards=pick_cards)

    # -- hooks -----------------------------------------------------------------------------
    def render_board(self, state: State, viewer: int | None) -> str:
        """The table as one SVG (rows, pyramid, bus) from ``state.view(viewer)``."""
        return f"<div class='bus-lab-table'>{table_svg(state.view(viewer))}</div>"

    def header_html(self, state: State) -> str:
        """Title and which part of the game is on (Part 1 questions, Part 2 pyramid, Part 3 bus)."""
        phase = state.phase
        if phase == "questions":
            q = QUESTIONS[state.q_round]
            part = (f"Part 1 of 3 — the four questions: Q{q.number} of 4 ({q.text}, "
                    f"{q.points} point{'s' if q.points > 1 else ''}) [{q.rule}]")
        elif phase == "pyramid":
            index = min(state.pyramid_index, 9)
            part = (f"Part 2 of 3 — the pyramid: card {index + 1} of 10, row {state.pyramid_row(index)} "
                    f"[RTB-P-FLIP]")
        elif phase == "bus":
            part = (f"Part 3 of 3 — the bus: Seat {state.rider} rides, streak {state.streak} of "
                    f"{state.target} [RTB-B-GUESS]")
        else:
            part = "Game over: lowest total wins [RTB-SCORE-LOW]"
        return (f"<h3 style='margin:4px 0'>{escape(self._title)}</h3>"
                f"<div class='bus-lab-part' style='font-weight:bold'>{escape(part)}</div>")

    def action_pool_size(self) -> int:
        """Enough buttons for the longest list: 4 suits (RTB-Q4) or n − 1 give-to choices."""
        return max(4, self.session.game.num_players - 1)

    def action_odds(self, state: State, actions: list[int]) -> dict[int, Fraction]:
        """Exact chance each guess is right (:func:`bus_lab.prob.guess_odds`); ``{}`` for gives."""
        if not any(state.is_guess(a) for a in actions):
            return {}
        from bus_lab.prob.ride_the_bus import guess_odds

        return guess_odds(state)

    def action_tooltip(self, state: State, action: int, odds: Fraction | None) -> str:
        """What the move does, with its rule ID, points at stake and exact odds."""
        if action >= GIVE_BASE:
            giver, points, rule, _ = state.gives[0]
            taker = action - GIVE_BASE
            return (f"Give {points} point{'s' if points > 1 else ''} to Seat {taker}, who has "
                    f"{state.points[taker]} now ({rule})")
        label = state.action_to_string(action)
        chance = f"right with chance {format_odds(odds)}, counting every card on the table as seen" \
            if odds is not None else ""
        if state.phase == "questions":
            q = QUESTIONS[state.q_round]
            return (f"Answer {label} ({q.rule}): {chance}. Wrong: you take {q.points}; "
                    f"right: you give {q.points} to another player (RTB-Q-RIGHT).")
        return f"Call {label} than the card to beat (RTB-B-GUESS): {chance}. A miss costs 1 point (RTB-B-STREAK)."
