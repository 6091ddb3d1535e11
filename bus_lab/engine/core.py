"""The game-agnostic core: parameters, ``Game`` and ``State``.

The protocol follows OpenSpiel's: a state is either a *chance node* (a card is about to be drawn
or revealed; :meth:`State.chance_outcomes` gives every outcome with its exact probability), a
*decision node* of one seat, or *terminal*. Every change of state is one call of
:meth:`State.apply_action`, so the list of actions applied (:meth:`State.history`) is the whole
game: replaying it rebuilds the state, which gives save/load, undo and exact odds.

Standard library only.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import json
import math
import operator
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from bus_lab.engine.errors import (
    ActionTypeError,
    IllegalActionError,
    InputTypeError,
    OptionNotBuiltError,
    ParameterError,
)
from bus_lab.engine.events import Event, Narrator
from bus_lab.engine.moves import Actor, Move, Phase, PhaseRule

#: ``current_player()`` at a chance node (a draw or reveal).
CHANCE = -1
#: ``current_player()`` once the game is over.
TERMINAL = -4


@functools.lru_cache(maxsize=256)
def _one_in(n: int) -> Fraction:
    """``Fraction(1, n)``, made once per ``n`` (fractions are immutable, so sharing is safe)."""
    return Fraction(1, n)


@dataclass(frozen=True)
class Param:
    """One game parameter: its default and what it may be.

    Attributes:
        name (str): keyword used in ``load_game(name, **params)``.
        default: value used when the parameter is not given.
        doc (str): one line for the settings panel and error messages.
        choices (tuple | None): the allowed values, when they are a list.
        bounds (tuple[int, int] | None): inclusive integer range, when they are a range.
        built (tuple | None): the values playable in this version; other allowed values raise
            :class:`OptionNotBuiltError`. ``None`` means every allowed value is built.
    """

    name: str
    default: Any
    doc: str = ""
    choices: tuple | None = None
    bounds: tuple[int, int] | None = None
    built: tuple | None = None

    def allowed_text(self) -> str:
        """Describe the allowed values in words, e.g. ``"an integer from 2 to 8"``."""
        if self.choices is not None:
            return "one of " + ", ".join(repr(c) for c in self.choices)
        if self.bounds is not None:
            return f"an integer from {self.bounds[0]} to {self.bounds[1]}"
        return "any value"

    def check(self, value: Any) -> Any:
        """Return ``value`` if allowed.

        Raises:
            ParameterError: the value is not allowed (the message names the allowed values).
            OptionNotBuiltError: allowed by the rules but not playable in this version.
        """
        if self.choices is not None and not any(
            type(value) is type(choice) and value == choice for choice in self.choices
        ):
            # compared with the type too: 1 is not True and 5.0 is not 5 here, so two games
            # that compare equal also hash alike and save alike
            raise ParameterError(
                f"{self.name}={value!r} is not allowed: use {self.allowed_text()}"
                + (f" ({_a(type(value).__name__)} is not accepted)" if value in self.choices else "")
            )
        if self.bounds is not None:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ParameterError(f"{self.name}={value!r} is not allowed: use {self.allowed_text()}")
            lo, hi = self.bounds
            if not lo <= value <= hi:
                raise ParameterError(f"{self.name}={value!r} is out of range: use {self.allowed_text()}")
        if self.built is not None and value not in self.built:
            playable = ", ".join(repr(b) for b in self.built)
            raise OptionNotBuiltError(
                f"{self.name}={value!r} is part of the rules but not playable in this version yet; "
                f"playable now: {playable}"
            )
        return value


class Game:
    """A game with its parameters fixed: the factory of states.

    Subclasses set ``name`` (the registry name), ``title``, ``PARAMS`` (a tuple of
    :class:`Param`), ``state_class`` and ``lower_score_wins``, and may override
    :meth:`_check_params` for checks that involve several parameters.

    Args:
        **params: values for the names in ``PARAMS``; missing ones take their defaults.

    Raises:
        ParameterError: an unknown parameter name or a value outside its allowed values.
        OptionNotBuiltError: an option value the rules allow but this version does not play.
    """

    name: str = ""
    title: str = ""
    PARAMS: tuple[Param, ...] = ()
    state_class: type = None  # type: ignore[assignment]
    lower_score_wins: bool = False

    def __init__(self, **params: Any):
        specs = {p.name: p for p in self.PARAMS}
        unknown = sorted(set(params) - set(specs))
        if unknown:
            raise ParameterError(
                f"unknown parameter(s) {', '.join(unknown)} for {self.name}: "
                f"allowed parameters are {', '.join(specs)}"
            )
        values = {p.name: p.default for p in self.PARAMS}
        values.update(params)
        self._check_params(values)
        for p in self.PARAMS:
            p.check(values[p.name])
        self.params: dict[str, Any] = values

    def _check_params(self, values: dict[str, Any]) -> None:
        """Checks across parameters (override). Raise :class:`ParameterError` on failure."""

    @property
    def num_players(self) -> int:
        """Number of seats (the ``players`` parameter)."""
        return int(self.params["players"])

    def new_initial_state(self) -> State:
        """Return the state before anything has happened (usually a chance node: the first draw)."""
        return self.state_class(self)

    def state_from_dict(self, data: dict[str, Any]) -> State:
        """Rebuild a state from :meth:`State.to_dict` output by replaying its history.

        Raises:
            ValueError: the dict is for another game or other parameters.
            IllegalActionError: the history contains an action that is not legal when replayed.
        """
        if data.get("game") != self.name:
            raise ValueError(f"this dict is for game {data.get('game')!r}, not {self.name!r}")
        if dict(data.get("params", {})) != self.params:
            raise ValueError(f"this dict has params {data.get('params')!r}, the game has {self.params!r}")
        state = self.new_initial_state()
        for action in data.get("history", []):
            state.apply_action(action)
        return state

    def check_scripted_deck(self, labels: list[str]) -> list[int]:
        """The chance actions a scripted deck names, checked before any is drawn.

        Each label must name a chance outcome of this game (a card, a passenger...) in any
        spelling :meth:`State.string_to_action` reads. Whether it can still come up when its turn
        comes is checked at that draw. Games refine this (Ride the Bus also refuses a card twice).

        Args:
            labels (list[str]): the deck, by outcome label, in order.

        Raises:
            ParameterError: an entry that names no chance outcome (its position and label).
        """
        probe = self.new_initial_state()
        actions = []
        for position, label in enumerate(labels):
            action = probe._parse_label(probe._normalize_label(_fold(label)))
            move = None if action is None else probe._decode_move(action)
            if action is None or move is None or not move.chance:
                raise ParameterError(
                    f"scripted deck entry #{position} {label!r} is not something drawn in {self.title}: "
                    "a scripted deck lists chance outcomes by their labels"
                )
            actions.append(action)
        return actions

    def policies(self) -> dict[str, Callable]:
        """Named bot policies for this game: ``{name: policy}``; each ``policy(state, rng) -> action``."""
        from bus_lab.engine.policies import random_policy

        return {"random": random_policy}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and (self.name, self.params) == (other.name, other.params)

    def __hash__(self) -> int:
        return hash((self.name, json.dumps(self.params, sort_keys=True, default=str)))

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"load_game({self.name!r}, {args})"


class State:
    """The state of one game in progress.

    Subclasses implement ``current_player``, ``_legal_actions`` (decision nodes),
    ``_chance_outcomes`` (chance nodes), ``_apply_action``, ``action_to_string``, ``returns``,
    ``score_breakdown``, ``view`` and ``clone``. This base class adds validation, history and
    events, so an illegal action never touches the state.
    """

    def __init__(self, game: Game):
        self._game = game
        self._history: list[int] = []
        self._events: list[Event] = []
        self._chance_steps = 0

    # -- the protocol --------------------------------------------------------------------
    def get_game(self) -> Game:
        """The :class:`Game` (with its parameters) this state belongs to."""
        return self._game

    def current_player(self) -> int:
        """The seat to act (0-based), or :data:`CHANCE`, or :data:`TERMINAL`."""
        raise NotImplementedError

    def is_chance_node(self) -> bool:
        """True when the next action is a draw or reveal chosen by chance."""
        return self.current_player() == CHANCE

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.current_player() == TERMINAL

    def chance_outcomes(self) -> list[tuple[int, Fraction]]:
        """Every outcome of this chance node with its exact probability.

        Returns:
            list of ``(action, Fraction)`` sorted by action; the probabilities sum to exactly 1.
            Empty at decision and terminal nodes.
        """
        if not self.is_chance_node():
            return []
        return sorted(self._chance_outcomes())

    def chance_weights(self) -> tuple[list[int], list[int] | None]:
        """The outcomes of this chance node with integer weights, for drawing one quickly.

        The probability of ``actions[i]`` is ``weights[i] / sum(weights)``: the same as
        :meth:`chance_outcomes` gives, without building a :class:`~fractions.Fraction` per outcome.
        This base version derives the weights from :meth:`chance_outcomes` (over their common
        denominator); a game may override it with a faster equivalent, which
        ``tests/test_fast_paths.py`` checks against this one.

        Returns:
            ``(actions, weights)``: the outcomes that can come up, sorted; ``weights`` is a list
            of positive ints, or ``None`` when every outcome is equally likely. ``([], None)`` at
            decision and terminal nodes.
        """
        outcomes = [(a, p) for a, p in self.chance_outcomes() if p]
        actions = [a for a, _ in outcomes]
        if all(p == outcomes[0][1] for _, p in outcomes):
            return actions, None
        denominator = math.lcm(*(p.denominator for _, p in outcomes))
        return actions, [p.numerator * (denominator // p.denominator) for _, p in outcomes]

    def legal_actions(self) -> list[int]:
        """The legal actions, sorted and unique (at a chance node: the possible outcomes)."""
        if self.is_terminal():
            return []
        if self.is_chance_node():
            return [a for a, _ in self.chance_outcomes()]
        return sorted(set(self._legal_actions()))

    def why_illegal(self, action: Any, seat: int | None = None) -> str | None:
        """Why ``action`` may not be applied now (``None`` when it may).

        Args:
            action: the candidate action: an ``int`` (any integer type, e.g. ``numpy.int64``) or
                a :class:`~bus_lab.engine.moves.Move`.
            seat: optionally, the seat that wants to act; a different seat is refused.

        Games refine this through :meth:`_is_legal` and :meth:`_why_not_legal`, not by overriding
        it: :meth:`apply_action` accepts a legal plain ``int`` without calling it.
        """
        number = _as_action(action)
        if number is None:
            return f"an action is an integer or a move, not {type(action).__name__}"
        if self.is_terminal():
            return "the game is over"
        player = self.current_player()
        if seat is not None and seat != player:
            whose = "chance's (a card is to be drawn)" if player == CHANCE else f"seat {player}'s"
            return f"it is {whose} turn, not seat {seat}'s"
        if not self._is_legal(number):
            return self._why_not_legal(number)
        return None

    def _is_legal(self, action: int) -> bool:
        """Whether the int ``action`` is among :meth:`legal_actions`, at a chance or decision node.

        Games may override it with a faster test that gives the same answer for every int
        (``tests/test_fast_paths.py`` checks each game's against ``action in legal_actions()``).
        """
        return action in self.legal_actions()

    def _why_not_legal(self, action: int) -> str:
        """Reason for an action that is not among the legal ones (override for detail)."""
        if self.is_chance_node():
            return "that outcome cannot come up at this draw"
        return "that is not one of the moves allowed now"

    def apply_action(self, action: int | Move, seat: int | None = None) -> None:
        """Apply one action (a decision, or a chance outcome at a chance node).

        Args:
            action (int | Move): one of :meth:`legal_actions` (any integer type, such as
                ``numpy.int64``), or one of :meth:`legal_moves`.
            seat (int | None): optionally, the seat that claims to act; checked against
                :meth:`current_player`.

        Raises:
            IllegalActionError: wrong seat, not legal now, game over or not an action; the
                message gives the reason and the legal actions, and the state is unchanged.
        """
        player = self.current_player()
        # The checks of why_illegal, cheapest first for the usual case of a legal plain int;
        # anything else goes to why_illegal, which says why (or accepts an int subclass).
        if not (
            type(action) is int
            and player != TERMINAL
            and (seat is None or seat == player)
            and self._is_legal(action)
        ):
            reason = self.why_illegal(action, seat)
            if reason is not None:
                legal = self.legal_actions()
                labels = [self.action_to_string(a) for a in legal]
                if _as_action(action) is None:
                    raise ActionTypeError(action, reason, legal, labels)
                raise IllegalActionError(action, reason, legal, labels)
        number = action if type(action) is int else _as_action(action)
        assert number is not None  # why_illegal accepted it, so it is an integer
        self._apply_action(number)
        self._history.append(number)
        if player == CHANCE:
            self._chance_steps += 1

    def history(self) -> list[int]:
        """All actions applied so far, in order (chance outcomes included)."""
        return list(self._history)

    def num_chance_steps(self) -> int:
        """How many entries of :meth:`history` were chance outcomes (draws and reveals)."""
        return self._chance_steps

    def events(self) -> list[Event]:
        """Every :class:`Event` so far, in order; each names the rule it applied."""
        return list(self._events)

    def action_to_string(self, action: int) -> str:
        """A short readable label for ``action`` (a card code such as ``"7H"`` for a draw)."""
        raise NotImplementedError

    def string_to_action(self, text: str) -> int:
        """The legal action whose label is ``text``, read as people type it.

        Case, surrounding spaces and repeated spaces are ignored, and each game adds its
        own forgiving spellings through :meth:`_normalize_label` (for cards ``10H``, ``TH`` and
        ``10♥`` name the same card; ``pink+red`` and ``red+pink`` the same pair).

        Raises:
            InputTypeError: ``text`` is not a string.
            IllegalActionError: the label names a move that is not legal now (the message gives
                the rule's reason, as :meth:`apply_action` does), or names no move at all; either
                way the message lists the legal moves.
        """
        if isinstance(text, Move):
            text = text.label
        if not isinstance(text, str):
            raise InputTypeError(
                f"a move is named by a string such as {self._example_label()!r}, not {type(text).__name__}"
            )
        wanted = self._normalize_label(_fold(text))
        legal = self.legal_actions()
        labels = [self.action_to_string(a) for a in legal]
        for action, label in zip(legal, labels):
            if self._normalize_label(_fold(label)) == wanted:
                return action
        named = self._parse_label(wanted)
        if named is not None:
            reason = self.why_illegal(named) or "that is not one of the moves allowed now"
            raise IllegalActionError(text, reason, legal, labels)
        raise IllegalActionError(text, "no move has that name", legal, labels)

    def _example_label(self) -> str:
        legal = self.legal_actions()
        return self.action_to_string(legal[0]) if legal else "red"

    def _normalize_label(self, text: str) -> str:
        """A game's forgiving spelling of a label already folded to lower case with single
        spaces (override: card aliases, pairs in either order). Applied to both what was typed
        and every legal label, so it only has to map each spelling to one canonical form."""
        return text

    def _parse_label(self, text: str) -> int | None:
        """The action (legal now or not) that the normalized label ``text`` names, or ``None``
        (override, so a label of an illegal move is refused with the rule's reason)."""
        return None

    # -- typed moves and phases ------------------------------------------------------------
    def move(self, action: int) -> Move:
        """The typed move of ``action`` at this state, labelled as :meth:`action_to_string` labels it.

        Args:
            action (int): an action of this game (normally one of :meth:`legal_actions`).

        Raises:
            InputTypeError: ``action`` is not an integer.
            IllegalActionError: this game has no move with that number.
        """
        number = _as_action(action)
        if number is None:
            raise InputTypeError(f"an action is an integer, not {type(action).__name__}")
        decoded = self._decode_move(number)
        if decoded is None:
            legal = self.legal_actions()
            raise IllegalActionError(
                action, "no move has that number", legal, [self.action_to_string(a) for a in legal]
            )
        return dataclasses.replace(decoded, label=self.action_to_string(number))

    def legal_moves(self, labelled: bool = True) -> list[Move]:
        """The legal moves as typed values, in the order of :meth:`legal_actions`
        (``[m.action for m in state.legal_moves()] == state.legal_actions()``); at a chance node,
        the outcomes that can come up (a card dealt, a passenger drawn...).

        Args:
            labelled (bool): fill each move's label (``str(move)``); bots, which read only the
                moves' fields, pass ``False`` and skip making the sentences.
        """
        if not labelled:
            return [m for m in map(self._decode_move, self.legal_actions()) if m is not None]
        return [self.move(a) for a in self.legal_actions()]

    def _decode_move(self, action: int) -> Move | None:
        """The game's typed move for the int ``action`` (override with the game's ``moves``
        module), or ``None`` when no move has that number."""
        return None

    #: The game's phase table: ``{phase: PhaseRule}`` (set by each game).
    PHASES: dict[Phase, PhaseRule] = {}

    def phase(self) -> Phase | None:
        """The phase the game is in (a member of the game's :class:`~bus_lab.engine.moves.Phase`
        enum), or ``None`` once the game is over (override)."""
        return None

    def decision_kind(self) -> Phase | None:
        """What kind of choice a seat must make now: the current phase when a seat is to act,
        ``None`` at a chance node (a draw) or at the end. Front ends choose how to offer the
        moves from it instead of testing phase strings."""
        phase = self.phase()
        if phase is None or self.PHASES.get(phase, _SEAT_RULE).actor is not Actor.SEAT:
            return None
        return phase

    def _check_seat(self, seat: Any, *, spectator: bool = True) -> int | None:
        """``seat`` as an int after checking it names a seat of this game.

        Args:
            seat: a seat number (0-based), or ``None`` for the all-seeing spectator when
                ``spectator`` is true.

        Raises:
            InputTypeError: not an integer (``"0"``, ``True``, ``1.0``).
            ParameterError: no such seat.
        """
        if seat is None and spectator:
            return None
        number = None if isinstance(seat, (bool, float, str, bytes)) or seat is None else _as_action(seat)
        if number is None:
            allowed = "a seat number or None" if spectator else "a seat number"
            raise InputTypeError(f"a seat is {allowed}, not {seat!r}")
        seat = number
        n = self._game.num_players
        if not 0 <= seat < n:
            raise ParameterError(f"there is no seat {seat}: seats are 0 to {n - 1}")
        return seat

    def returns(self) -> list[int]:
        """Points of every seat so far, indexed by seat (final once terminal)."""
        raise NotImplementedError

    def winners(self) -> list[int]:
        """Seats that win (share the win) at a terminal state; empty before the end."""
        if not self.is_terminal():
            return []
        scores = self.returns()
        best = min(scores) if self._game.lower_score_wins else max(scores)
        return [seat for seat, s in enumerate(scores) if s == best]

    def winners_by_total(self) -> bool:
        """True when the winners are among the seats with the best total (``returns()``), as in
        most games; a game whose goal is something else (a streak, say) returns False."""
        return True

    def score_breakdown(self, seat: int) -> list[dict[str, Any]]:
        """Lines ``{"label", "rule", "points"}`` whose points add up to ``returns()[seat]``."""
        raise NotImplementedError

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` may see, as a JSON-safe dict (``None``: everything, for a spectator
        with all cards shown). The only way hidden information reaches a renderer or widget."""
        raise NotImplementedError

    def public_view(self) -> dict[str, Any]:
        """The table as everyone may see it (a projector, the class): like :meth:`view` but
        without anything any single seat's view hides (a hand, a face-down tile, the deck's
        order). Each game overrides it; ``view(None)`` is NOT public (it shows every card).

        Raises:
            NotImplementedError: the game has no public view.
        """
        raise NotImplementedError(f"{self._game.name} has no public view")

    def clone(self) -> State:
        """An independent copy (applying actions to it leaves this state alone)."""
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe ``{"game", "params", "history"}``; :meth:`Game.state_from_dict` reverses it."""
        return {"game": self._game.name, "params": dict(self._game.params), "history": self.history()}

    # -- what each game implements --------------------------------------------------------
    def _legal_actions(self) -> Iterable[int]:
        """The legal actions at a decision node (any order; the base sorts them)."""
        raise NotImplementedError

    def _chance_outcomes(self) -> list[tuple[int, Fraction]]:
        """``[(action, Fraction)]`` at a chance node, summing to exactly 1."""
        raise NotImplementedError

    def _apply_action(self, action: int) -> None:
        """Change the state by the legal action ``action`` and record its events."""
        raise NotImplementedError

    # -- helpers for subclasses ----------------------------------------------------------
    #: The game's narrator: turns an :class:`Event` (its rule and data) into a sentence. Set by
    #: each game to a module-level function of its ``narrate`` module.
    NARRATE: Narrator | None = None

    def _log(self, rule: str, text: str | None = None, **data: Any) -> None:
        """Record an :class:`Event` for the action now being applied.

        Args:
            rule (str): the rule ID applied.
            text (str | None): the sentence, or ``None`` to have the game's narrator
                (:attr:`NARRATE`) make it from ``rule`` and ``data`` when it is read.
            **data: the facts of the event (JSON-safe values).
        """
        if text is None:
            self._events.append(Event(rule, None, len(self._history), data, narrator=type(self).NARRATE))
        else:
            self._events.append(Event(rule, text, len(self._history), data))

    def _copy_base_into(self, other: State) -> None:
        other._game = self._game
        other._history = list(self._history)
        other._events = list(self._events)
        other._chance_steps = self._chance_steps

    @staticmethod
    def _uniform(actions: Iterable[int]) -> list[tuple[int, Fraction]]:
        """``[(action, Fraction(1, n)), ...]`` for the ``n`` equally likely ``actions``, sorted."""
        items = sorted(actions)
        p = _one_in(len(items))
        return [(a, p) for a in items]

    #: ``(module, html function, text function)`` that draw ``view(None)``; the module is
    #: imported on first display, so the engine stays free of rendering code.
    RENDER: tuple[str, str, str] | None = None

    def _render(self, which: int) -> str:
        assert self.RENDER is not None
        module = importlib.import_module(self.RENDER[0])
        drawn: str = getattr(module, self.RENDER[which])(self.view(None))
        return drawn

    def _repr_html_(self) -> str:
        """The table as HTML (SVG), for notebooks: the game's HTML renderer over ``view(None)``."""
        if self.RENDER is None:
            return f"<pre>{self}</pre>"
        return self._render(1)

    def __str__(self) -> str:
        if self.RENDER is None:
            return f"<{self._game.name} state after {len(self._history)} actions>"
        return self._render(2)


_SEAT_RULE = PhaseRule(Actor.SEAT, "")


def _as_action(action: Any) -> int | None:
    """``action`` as a plain int (any integer type, or a move's ``.action``), or ``None``."""
    if type(action) is int:
        return action
    if isinstance(action, Move):
        return action.action
    if isinstance(action, (bool, float, str, bytes)) or action is None:
        return None
    try:
        return operator.index(action)
    except TypeError:
        return None


def _fold(text: str) -> str:
    """Lower case (NFKC), surrounding and repeated spaces dropped (``" Red  "`` -> ``"red"``)."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(text.split())


def _a(noun: str) -> str:
    """``"an int"``, ``"a float"``: the noun with its indefinite article."""
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun
