"""bus_lab's games as OpenSpiel games (``pip install bus_lab[interop]``).

Importing this module registers every bus_lab game with OpenSpiel as ``bus_lab_<name>``::

    import pyspiel
    import bus_lab.interop.openspiel  # registers the games
    game = pyspiel.load_game("bus_lab_busstop", {"players": 3})

Parameters are the bus_lab game's, in OpenSpiel's flat form: ``None`` is ``""`` for a sheet (the
built-in one; any other string is the path of a sheet file) and ``0`` for an integer option
(``empty_speed=0``: no limit). Actions are the game's dense indices
(:meth:`~bus_lab.engine.core.Game.action_index`; chance outcomes
:meth:`~bus_lab.engine.core.Game.chance_index`), returns are the win shares of
:meth:`~bus_lab.engine.core.Game.utility` (higher is better in every mode). Observation strings and
tensors come from ``view(seat)``; the information-state string of a seat is its history with the
actions it has not seen masked (Busstop's face-down tiles).
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

import bus_lab
from bus_lab.engine.core import CHANCE, TERMINAL
from bus_lab.engine.registry import game_class, registered_games
from bus_lab.interop import flat_spec, from_flat_params

__all__ = ["short_name", "BusLabGame", "BusLabState", "BusLabObserver", "wrap_state", "register"]

PREFIX = "bus_lab_"


def short_name(name: str) -> str:
    """OpenSpiel's name for the bus_lab game ``name`` (``"bus_lab_busstop"``)."""
    return PREFIX + name


def _players_bounds(cls) -> tuple[int, int]:
    spec = next(p for p in cls.PARAMS if p.name == "players")
    return spec.bounds if spec.bounds else (min(spec.choices), max(spec.choices))


def _has_hidden(name: str) -> bool:
    """Whether a seat's view ever hides a past action (more than the deck's order)."""
    cls = game_class(name)
    module = __import__(cls.ENCODING, fromlist=["_"])
    return hasattr(module, "hidden_positions")


def _game_type(name: str, constant_sum: bool) -> pyspiel.GameType:
    cls = game_class(name)
    low, high = _players_bounds(cls)
    hidden = _has_hidden(name)
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"bus_lab {cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if hidden
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=(
            pyspiel.GameType.Utility.CONSTANT_SUM if constant_sum else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=flat_spec(cls.PARAMS),
    )


class BusLabGame(pyspiel.Game):
    """A bus_lab game as an OpenSpiel game (made by ``pyspiel.load_game("bus_lab_<name>", params)``).

    Attributes:
        bus_game (bus_lab.Game): the bus_lab game with these parameters.
    """

    name: str = ""

    def __init__(self, params: dict[str, Any] | None = None):
        cls = game_class(self.name)
        defaults = flat_spec(cls.PARAMS)
        flat = {**defaults, **(params or {})}
        self.bus_game = bus_lab.load_game(self.name, **from_flat_params(cls.PARAMS, flat))
        g = self.bus_game
        total = g.utility_sum()
        info = pyspiel.GameInfo(
            num_distinct_actions=g.num_distinct_actions(),
            max_chance_outcomes=g.max_chance_outcomes(),
            num_players=g.num_players,
            min_utility=g.min_utility(),
            max_utility=g.max_utility(),
            utility_sum=total,
            max_game_length=g.max_game_length(),
        )
        super().__init__(_game_type(self.name, total is not None), info, flat)

    def new_initial_state(self) -> BusLabState:
        """The state before anything has happened."""
        return BusLabState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> BusLabObserver:
        """The observer OpenSpiel asks for observation and information-state strings and tensors."""
        return BusLabObserver(self, iig_obs_type, params)


class _Held:
    """The bus_lab state and game inside an OpenSpiel state. OpenSpiel clones a Python state by
    deep-copying its attributes; this copies the bus_lab state with its own ``clone()`` and shares
    the (immutable) game."""

    __slots__ = ("state", "game")

    def __init__(self, state, game):
        self.state = state
        self.game = game

    def __deepcopy__(self, memo) -> _Held:
        return _Held(self.state.clone(), self.game)


class BusLabState(pyspiel.State):
    """A bus_lab state seen through OpenSpiel's API (dense actions, win-share returns).

    Attributes:
        inner (bus_lab.State): the bus_lab state it wraps.
    """

    def __init__(self, game: BusLabGame, inner=None):
        super().__init__(game)
        self._held = _Held(game.bus_game.new_initial_state() if inner is None else inner, game.bus_game)

    @property
    def inner(self):
        """The bus_lab state."""
        return self._held.state

    @property
    def _bus_game(self):
        return self._held.game

    # -- the protocol ----------------------------------------------------------------------
    def current_player(self) -> int:
        player = self.inner.current_player()
        if player == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        if player == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        return player

    def _legal_actions(self, player: int) -> list[int]:
        index = self._bus_game.action_index
        return [index(a) for a in self.inner.legal_actions()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        index = self._bus_game.chance_index
        return [(index(a), float(p)) for a, p in self.inner.chance_outcomes()]

    def _bus_action(self, action: int, chance: bool) -> int:
        g = self._bus_game
        return g.index_chance(action) if chance else g.index_action(action)

    def _apply_action(self, action: int) -> None:
        self.inner.apply_action(self._bus_action(int(action), self.inner.is_chance_node()))

    def _action_to_string(self, player: int, action: int) -> str:
        chance = player == pyspiel.PlayerId.CHANCE
        try:
            bus_action = self._bus_action(int(action), chance)
        except (ValueError, IndexError):
            return f"action {action}"
        try:
            return self.inner.action_to_string(bus_action)
        except Exception:  # a label that only makes sense where the move is legal (e.g. whose tile)
            return f"action {bus_action}"

    def is_terminal(self) -> bool:
        return self.inner.is_terminal()

    def returns(self) -> list[float]:
        return self.inner.utility()

    def resample_from_infostate(self, player_id: int, probability_sampler=None) -> BusLabState:
        """A state ``player_id`` cannot tell from this one (Busstop: the other seats' face-down
        tiles drawn again; games with nothing hidden: a copy). ``probability_sampler`` (a callable
        giving numbers in [0, 1), such as OpenSpiel's ``UniformProbabilitySampler``) seeds the draw."""
        positions = self.hidden_positions(player_id)
        if not positions:
            return self.clone()
        module = self._bus_game._encoding()
        seed = int((probability_sampler() if probability_sampler else random.random()) * 2**31)
        inner = module.resample_hidden(self.inner, player_id, random.Random(seed))
        # the actions before the first hidden one are the same: start from that point (kept for
        # the next call) and play the rest, so OpenSpiel's history is the sample's
        start = positions[0]
        game = self.get_game()
        key = tuple(inner.history()[:start])
        cached = getattr(game, "_resample_prefix", None)
        if cached is None or cached[0] != key:
            prefix = game.new_initial_state()
            g = self._bus_game
            for action in key:
                prefix.apply_action(
                    g.chance_index(action) if prefix.is_chance_node() else g.action_index(action)
                )
            cached = game._resample_prefix = (key, prefix)
        sample = cached[1].clone()
        g = self._bus_game
        for action in inner.history()[start:]:
            sample.apply_action(g.chance_index(action) if sample.is_chance_node() else g.action_index(action))
        return sample

    def hidden_positions(self, player: int) -> list[int]:
        """Positions of :meth:`history` that ``player`` has not seen."""
        module = self._bus_game._encoding()
        if not hasattr(module, "hidden_positions") or player < 0:
            return []
        return module.hidden_positions(self.inner, player)

    def __str__(self) -> str:
        return str(self.inner)


class BusLabObserver:
    """Observation strings and tensors from a view of the table, OpenSpiel's ``PyObserver`` protocol.

    ``private_info``: ``SINGLE_PLAYER`` (the default) shows ``view(player)``; ``ALL_PLAYERS`` the
    spectator's ``view(None)``; ``NONE`` only what every seat sees (Busstop: no face-down tile).
    With ``perfect_recall`` (OpenSpiel's information state) the string is the history with every
    action this observer has not seen shown as ``?``; otherwise it is the view as JSON. The tensor is
    the view's observation vector (:meth:`bus_lab.State.observation_tensor`), ``dict`` its fields.
    """

    def __init__(self, game: BusLabGame, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self.private = (
            pyspiel.PrivateInfoType.SINGLE_PLAYER if iig_obs_type is None else iig_obs_type.private_info
        )
        self._game = game.bus_game
        self._encoding = game.bus_game._encoding()
        layout = game.bus_game.observation_layout()
        self.tensor = np.zeros(layout.size, np.float32)
        self.dict = {name: self.tensor[a:b] for name, (a, b) in layout.offsets().items()}

    def _view(self, state: BusLabState, player: int) -> dict:
        if self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            return state.inner.view(None)
        if self.private == pyspiel.PrivateInfoType.NONE:
            return state.inner.public_view()
        return state.inner.view(player)

    def _masked(self, state: BusLabState, player: int) -> set[int]:
        if self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            return set()
        if self.private == pyspiel.PrivateInfoType.NONE:
            return {i for seat in range(self._game.num_players) for i in state.hidden_positions(seat)}
        return set(state.hidden_positions(player))

    def set_from(self, state: BusLabState, player: int) -> None:
        self.tensor[:] = self._encoding.encode(self._view(state, player), self._game)

    def string_from(self, state: BusLabState, player: int) -> str:
        if self.perfect_recall:
            masked = self._masked(state, player)
            history = state.history()
            return f"p{player}:" + " ".join("?" if i in masked else str(a) for i, a in enumerate(history))
        return json.dumps(self._view(state, player), sort_keys=True, separators=(",", ":"))


def wrap_state(game: BusLabGame, inner) -> BusLabState:
    """An OpenSpiel state of ``game`` that has played the history of the bus_lab state ``inner``
    (e.g. one from a Session), with OpenSpiel's own history in dense actions."""
    if inner.get_game() != game.bus_game:
        raise ValueError("the state is of another game or other parameters")
    g = game.bus_game
    state = game.new_initial_state()
    for action in inner.history():
        state.apply_action(g.chance_index(action) if state.is_chance_node() else g.action_index(action))
    return state


def register() -> list[str]:
    """Register every bus_lab game with OpenSpiel (done once on import); returns their names."""
    names = []
    for name in registered_games():
        game_cls = type(f"BusLab_{name}", (BusLabGame,), {"name": name, "__module__": __name__})
        globals()[game_cls.__name__] = game_cls  # picklable by its module and name
        # the registered type; each game's own type says whether its win shares add up to 1
        constant_sum = name != "ride_the_bus"  # a lone gauntlet rider may win nothing
        if short_name(name) not in pyspiel.registered_names():
            pyspiel.register_game(_game_type(name, constant_sum), game_cls)
        names.append(short_name(name))
    return names


GAMES = register()
