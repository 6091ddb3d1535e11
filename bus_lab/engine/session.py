"""``Session``: the controller a widget or lesson binds to.

A session holds a timeline (the action of every step), so it can step forward, undo, redo and
jump to any step. It keeps the current state, changed in place as the game goes on, and a snapshot
every ``SNAPSHOT_EVERY`` steps; any other step is rebuilt from the snapshot before it by replaying
actions. A state handed to a caller (``state``, ``state_at``, ``goto``) is never changed
afterwards: it is copied first, so reading costs a clone per step and bots-only play none. Chance steps are drawn from a seed (or from a scripted list of outcomes, the
"rigged deck" lessons use); bots play their seats. The random generator of each step is derived
from the seed and the step number (:mod:`bus_lab.engine.streams`), so the same seed gives the
same game, undo-and-step again gives the same card, and no global random state is touched.
"""

from __future__ import annotations

import json
import random
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence

from bus_lab.engine.core import Game, State
from bus_lab.engine.errors import IllegalActionError, InputTypeError
from bus_lab.engine.policies import sample_chance
from bus_lab.engine.registry import load_game
from bus_lab.engine.streams import LEGACY_STREAMS, STREAMS, StepWords, check_streams, step_rng

#: A snapshot (an untouched clone) of the state is kept every this many steps; any other step is
#: rebuilt from the snapshot before it by replaying the timeline's actions (apply_action is
#: deterministic), so stepping forward costs one clone per this many steps, not one per step.
SNAPSHOT_EVERY = 32

Policy = Callable[[State, random.Random], int]


class Session:
    """A game being played step by step, with history, undo and time travel.

    Args:
        game (Game | str): a game, or a registered name (then created with default parameters).
        seed (int | None): seed of every chance draw and bot choice; ``None`` picks a fresh one
            (kept in :attr:`seed`, so the game can be replayed).
        bots (Mapping[int, str | Policy] | str | None): the seats bots play, each with a policy
            name from ``game.policies()`` or a callable ``policy(state, rng) -> action``. A
            single name or callable means every seat. Seats without a bot are human seats.
        deck (Sequence[str] | None): scripted chance outcomes, by label (card codes such as
            ``"7H"``, ``"10H"`` or ``"10♥"`` for Ride the Bus), used in order for the first chance
            steps; later chance steps are drawn from the seed. A game that can check a deck up
            front (Ride the Bus: unknown or repeated cards) does so here.
        start (dict | None): a position to start from instead of the game's initial state (a
            dict as ``state.position()`` gives it; see :meth:`Game.state_from_position`). Step 0
            of the timeline is that position; undo stops there; :meth:`to_json` saves it.
        streams (int): how each step's generator is derived from the seed
            (:mod:`bus_lab.engine.streams`): 2, the default, or 1 to replay a game saved before
            version 2 (:meth:`from_json` picks it from the record).

    Raises:
        PositionError: ``start`` cannot be set up (the message names the field).
        ValueError: an unknown policy name, a seat outside the table, or a scripted outcome that
            cannot come up when its turn comes (raised by :meth:`step` then, state unchanged).
        ParameterError: a scripted deck the game refuses up front (names the entry and why).
        InputTypeError: ``deck`` is not a list of strings.
        ValueError: an unknown ``streams`` version.
    """

    def __init__(
        self,
        game: Game | str,
        seed: int | None = None,
        bots: Mapping[int, str | Policy] | str | Policy | None = None,
        deck: Sequence[str] | None = None,
        start: dict | None = None,
        streams: int = STREAMS,
    ):
        self.streams: int = check_streams(streams)
        self.game: Game = load_game(game) if isinstance(game, str) else game
        self.start: dict | None = None if start is None else self.game.state_from_position(start)._start
        self.seed: int = secrets.randbelow(2**31) if seed is None else int(seed)
        self._words: StepWords | None = None  # the seed's step words (streams 2), made at the first draw
        self._words_seed = self.seed
        self.deck: list[str] = self._check_deck(deck)
        self._bot_specs = self._normalise_bots(bots)
        self.bots: dict[int, Policy] = {seat: self._resolve(spec) for seat, spec in self._bot_specs.items()}
        self._named_bot_seats = {seat for seat, spec in self._bot_specs.items() if isinstance(spec, str)}
        self._start()

    def _start(self) -> None:
        """An empty timeline: the initial state only.

        The timeline is the list of actions ``_actions``; ``_snapshots[j]`` is the state after
        ``j * SNAPSHOT_EVERY`` steps (never changed once stored). ``_live`` is the state after
        ``_live_at`` steps (``-1``: to be rebuilt), changed in place as the session steps on;
        ``_built`` is the last other state built (for :meth:`state_at`), after ``_built_at``
        steps (``-1``: none). An object handed to a caller is marked *shown* and never changed
        again: the session clones it first (copy on write), so what a caller keeps stays put.
        """
        initial = (
            self.game.new_initial_state() if self.start is None else self.game.state_from_position(self.start)
        )
        self._actions: list[int] = []
        self._snapshots: list[State] = [initial]
        self._live: State = initial.clone()
        self._live_at = 0
        self._live_shown = False
        self._built: State = initial
        self._built_at = -1
        self._built_shown = True
        self._position = 0

    # -- set-up --------------------------------------------------------------------------
    def _check_deck(self, deck: Sequence[str] | None) -> list[str]:
        """The scripted deck as a list of labels, checked up front (not at the draw)."""
        if deck is None:
            return []
        if isinstance(deck, (str, bytes)) or not isinstance(deck, Iterable):
            raise InputTypeError(f"deck is a list of outcome labels such as ['7H', 'KD'], not {deck!r}")
        labels = list(deck)
        for i, label in enumerate(labels):
            if not isinstance(label, str):
                raise InputTypeError(f"deck entry #{i} is {label!r}: each entry is a label such as '7H'")
        self.game.check_scripted_deck(labels)  # unknown or impossible outcomes: ParameterError
        return labels

    def _normalise_bots(
        self, bots: Mapping[int, str | Policy] | str | Policy | None
    ) -> dict[int, str | Policy]:
        seats = range(self.game.num_players)
        if bots is None:
            return {}
        if isinstance(bots, str) or callable(bots):
            return {seat: bots for seat in seats}
        out = {}
        for seat, spec in dict(bots).items():
            if seat not in seats:
                raise ValueError(f"bot seat {seat!r} is not at the table: seats are 0 to {len(seats) - 1}")
            out[int(seat)] = spec
        return out

    def _resolve(self, spec: str | Policy) -> Policy:
        if callable(spec):
            return spec
        named = self.game.policies()
        if spec not in named:
            raise ValueError(f"unknown bot policy {spec!r}: choose one of {', '.join(sorted(named))}")
        return named[spec]

    # -- reading -------------------------------------------------------------------------
    @property
    def state(self) -> State:
        """The state at the current position (read it; change it only through the session).

        The session never changes a state it has handed out: after a step, ``state`` is another
        object and the one read before still shows the earlier position. Reading it costs one
        clone at the next step; bots-only play that does not read it (``run_to_end``) costs none.
        """
        state = self._current()
        self._live_shown = True
        return state

    def _current(self) -> State:
        """The live state at the current position, without handing it out."""
        if self._live_at != self._position:
            self._live = self._rebuild(
                self._position, self._live, self._live_at, self._live_shown, self._built, self._built_at
            )
            self._live_at = self._position
            self._live_shown = False
        return self._live

    @property
    def position(self) -> int:
        """Index of the current step in the timeline (0 = before anything happened)."""
        return self._position

    def __len__(self) -> int:
        """Number of states in the timeline (steps taken, including undone ones, plus one)."""
        return len(self._actions) + 1

    def state_at(self, index: int) -> State:
        """The state after ``index`` steps (0 ≤ index < len(session)); at the current position,
        the same object as :attr:`state`.

        Like :attr:`state`, the object returned is never changed by the session. Cheap at and
        next to the current position and for steps read in order (the last state built is kept
        and moved on); otherwise at most ``SNAPSHOT_EVERY - 1`` actions are replayed.

        Raises:
            IndexError: index outside the timeline (the message gives the range).
        """
        self._check_index(index)
        if index == self._position:
            return self.state
        if index == self._live_at:
            self._live_shown = True
            return self._live
        if index != self._built_at:
            self._built = self._rebuild(
                index, self._built, self._built_at, self._built_shown, self._live, self._live_at
            )
            self._built_at = index
        self._built_shown = True
        return self._built

    def _rebuild(
        self, index: int, own: State, own_at: int, own_shown: bool, other: State, other_at: int
    ) -> State:
        """The state after ``index`` steps, made by replaying actions from the nearest of: ``own``
        (after ``own_at`` steps; changed in place unless ``own_shown``, else cloned), a clone of
        ``other`` (after ``other_at`` steps) or a clone of the snapshot before ``index``. A base
        after ``index`` is not used."""
        start = (index // SNAPSHOT_EVERY) * SNAPSHOT_EVERY
        if max(start, other_at) <= own_at <= index:
            state, start = (own.clone() if own_shown else own), own_at
        elif start <= other_at <= index:
            state, start = other.clone(), other_at
        else:
            state = self._snapshots[index // SNAPSHOT_EVERY].clone()
        for action in self._actions[start:index]:
            state.apply_action(action)
        return state

    def set_bot(self, seat: int, name: str | None) -> None:
        """Hand ``seat`` to the bot policy ``name``, or back to a person (``None``), from the
        next step on. Steps already taken stay as they are; :meth:`to_json` saves the bots as
        they are now (a saved game replays its history, whoever made each move).

        Args:
            seat (int): a seat of the game (0-based).
            name (str | None): a policy name from ``game.policies()``, or ``None``: a person
                plays the seat again.

        Raises:
            ValueError: ``seat`` is not a seat of the game (a bool is not a seat), or ``name``
                is not one of the game's policies; nothing changes.
        """
        seats = self.game.num_players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
            raise ValueError(f"bot seat {seat!r} is not at the table: seats are 0 to {seats - 1}")
        if name is None:
            self._bot_specs.pop(seat, None)
            self.bots.pop(seat, None)
            self._named_bot_seats.discard(seat)
            return
        if not isinstance(name, str):
            raise ValueError(f"a bot is named by its policy name, not {type(name).__name__}")
        policy = self._resolve(name)  # ValueError for an unknown name
        self._bot_specs[seat] = name
        self.bots[seat] = policy
        self._named_bot_seats.add(seat)

    def human_seats(self) -> list[int]:
        """Seats with no bot."""
        return [s for s in range(self.game.num_players) if s not in self.bots]

    def waiting_for_human(self) -> bool:
        """True when the next step is a decision of a human seat (``step()`` will not act)."""
        st = self._current()
        return not st.is_terminal() and not st.is_chance_node() and st.current_player() not in self.bots

    def rng_for_step(self, kind: str = "chance") -> random.Random:
        """The generator used at the current position: derived from the seed, the kind of step
        (``"chance"`` or ``"bot"``) and the step number (:func:`bus_lab.engine.streams.step_rng`).

        Raises:
            ValueError: an unknown kind.
        """
        words = None
        if self.streams == STREAMS:  # the seed's words are kept; the seed may have been set anew
            if self._words is None or self._words_seed != self.seed:
                self._words, self._words_seed = StepWords(self.seed), self.seed
            words = self._words
        return step_rng(self.streams, self.seed, kind, self._position, words)  # step == len(history)

    # -- acting --------------------------------------------------------------------------
    def next_action(self) -> int | None:
        """The action :meth:`step` would apply now, or ``None`` (game over or a human's turn)."""
        st = self._current()
        if st.is_terminal():
            return None
        if st.is_chance_node():
            scripted = self._scripted_outcome(st)
            return scripted if scripted is not None else sample_chance(st, self.rng_for_step("chance"))
        seat = st.current_player()
        if seat in self.bots:
            if seat not in self._named_bot_seats:
                self._live_shown = True  # a bot of the caller's own might keep the state it sees
            return self.bots[seat](st, self.rng_for_step("bot"))
        return None

    def _scripted_outcome(self, st: State) -> int | None:
        used = st.num_chance_steps()
        if used >= len(self.deck):
            return None
        label = self.deck[used]
        try:
            return st.string_to_action(label)
        except IllegalActionError as err:
            raise ValueError(
                f"scripted outcome #{used} {label!r} cannot come up now ({err.reason}); "
                f"possible: {', '.join(err.labels)}"
            ) from None

    def step(self) -> int | None:
        """Take one step: a chance draw, or a bot's decision.

        Returns:
            the action applied, or ``None`` when nothing was done (the game is over, or a human
            seat must decide: use :meth:`play`).
        """
        action = self.next_action()
        if action is None:
            return None
        self._advance(action)
        return action

    def play(self, action: int | str) -> int:
        """Apply ``action`` (an int, or a label such as ``"higher"`` or ``"7H"``) for whoever
        is to act, human, bot or chance (a learner may pick the card).

        Returns:
            the action applied (as an int).

        Raises:
            IllegalActionError: not legal now; nothing changes.
        """
        if isinstance(action, str):
            action = self._current().string_to_action(action)
        self._advance(action)
        return action

    def _advance(self, action: int) -> None:
        """Apply ``action`` to the live state in place and cut any undone steps after it."""
        state = self._current()
        if self._live_shown:  # keep the object handed out as it is: it becomes the built state
            self._built, self._built_at, self._built_shown = state, self._position, True
            self._live = state = state.clone()
            self._live_shown = False
        try:
            state.apply_action(action)  # an illegal action raises before the state changes
        except BaseException:
            self._live_at = -1  # rebuilt when next read, in case the state was half changed
            raise
        position = self._position
        if position < len(self._actions):  # a new line of play: the undone steps go
            del self._actions[position:]
            del self._snapshots[position // SNAPSHOT_EVERY + 1 :]
            if self._built_at > position:
                self._built_at = -1
        self._actions.append(action)
        self._position = self._live_at = position + 1
        if self._position % SNAPSHOT_EVERY == 0:
            self._snapshots.append(state.clone())

    def run_to_end(self, max_steps: int = 100_000) -> int:
        """Step until the game ends or a human must decide.

        Returns:
            the number of steps taken.
        """
        taken = 0
        while taken < max_steps and self.step() is not None:
            taken += 1
        return taken

    # -- time travel ---------------------------------------------------------------------
    def undo(self) -> bool:
        """Go back one step (redo keeps the undone steps). Returns False at the start."""
        if self._position == 0:
            return False
        self._position -= 1
        return True

    def redo(self) -> bool:
        """Go forward one undone step. Returns False when there is none."""
        if self._position >= len(self._actions):
            return False
        self._position += 1
        return True

    def goto(self, index: int) -> State:
        """Jump to the state after ``index`` steps (0 ≤ index < len(session)); returns it.

        Raises:
            IndexError: index outside the timeline (the message gives the range).
        """
        self._check_index(index)
        self._position = index
        return self.state

    def _check_index(self, index: int) -> None:
        if not 0 <= index <= len(self._actions):
            raise IndexError(f"step {index} is outside the timeline: use 0 to {len(self._actions)}")

    def reset(self, seed: int | None = None) -> None:
        """Start again from the initial state, with a new seed if given."""
        if seed is not None:
            self.seed = int(seed)
        self._start()

    def fork(self) -> Session:
        """A new, independent session at the current position (same game, seed, bots, deck)."""
        twin = Session(
            self.game,
            seed=self.seed,
            bots=self._bot_specs,
            deck=self.deck,
            start=self.start,
            streams=self.streams,
        )
        position = self._position
        twin._actions = self._actions[:position]
        twin._snapshots = self._snapshots[: position // SNAPSHOT_EVERY + 1]  # never changed: shared
        twin._live = self._current().clone()
        twin._live_at = twin._position = position
        return twin

    # -- saving --------------------------------------------------------------------------
    def to_json(self) -> str:
        """Save as JSON: game, params, seed, streams version, scripted deck, named bots, the whole
        timeline (as the history of its last state) and the current position (the step number);
        for a session started from a position, that position too (``"start"``).

        Raises:
            ValueError: a bot is a callable with no registered name (it cannot be saved).
        """
        names: dict[str, str] = {}
        for seat, spec in self._bot_specs.items():
            name = spec if isinstance(spec, str) else getattr(spec, "name", None)
            if not isinstance(name, str) or name not in self.game.policies():
                raise ValueError(f"the bot of seat {seat} is not a named policy and cannot be saved")
            names[str(seat)] = name
        data = {
            "game": self.game.name,
            "params": self.game.params,
            "seed": self.seed,
            "streams": self.streams,
            "deck": self.deck,
            "bots": names,
            "history": list(self._actions),
            "position": self._position,
        }
        if self.start is not None:
            data["start"] = self.start
        return json.dumps(data)

    @classmethod
    def from_json(cls, text: str) -> Session:
        """Load a session saved by :meth:`to_json` (replaying its history). A record without
        ``"streams"`` was saved before version 2 and goes on with version 1, so the steps after
        its history are drawn as they were then."""
        data = json.loads(text)
        game = load_game(data["game"], **data["params"])
        session = cls(
            game,
            seed=data["seed"],
            bots={int(k): v for k, v in data["bots"].items()},
            deck=data["deck"],
            start=data.get("start"),
            streams=data.get("streams", LEGACY_STREAMS),
        )
        for action in data["history"]:
            session._advance(action)
        session.goto(data["position"])
        return session

    def __repr__(self) -> str:
        return f"Session({self.game!r}, seed={self.seed}, step {self._position} of {len(self._actions)})"
