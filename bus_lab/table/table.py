"""``Table``: one game of a class table, its seats and its rules.

A table goes through phases: ``"lobby"`` (the host chooses the game and its options, students
join with the code), ``"playing"`` (or ``"paused"``), ``"over"`` and ``"closed"``. Each seat is a
person's or a bot's; a person keeps their seat with a secret *token* (their page stores it), so
they can come back after a reload. The game itself is a :class:`~bus_lab.engine.Session`.

The methods are plain synchronous Python and not thread-safe: the server calls them on its one
event loop. They never call :meth:`Table.changed` themselves: whoever changed the table calls it,
which bumps :attr:`Table.version` and tells the listeners (the server re-sends frames). A refused
call raises a :class:`TableError` whose text is said to the device that caused it, and changes
nothing.
"""

from __future__ import annotations

import json
import secrets
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bus_lab.engine.core import Game, State
from bus_lab.engine.errors import IllegalActionError, ParameterError
from bus_lab.engine.registry import load_game, registered_games
from bus_lab.engine.session import Session
from bus_lab.table.codes import new_secret, same_secret
from bus_lab.table.limits import DEFAULT_LIMITS, Limits

__all__ = [
    "HostOnlyError",
    "NotYourTurnError",
    "SeatInfo",
    "StaleMoveError",
    "Table",
    "TableClosedError",
    "TableError",
    "TableFullError",
    "UnknownTableError",
    "clean_name",
]

#: The phases of a table, in the order they come.
PHASES = ("lobby", "playing", "paused", "over", "closed")
#: Bot policies tried, in order, when the one asked for is the default and the game has no such bot.
FALLBACK_BOTS = ("best_odds", "greedy", "bidder", "random")
#: Ride the Bus events of a Part 2 flip that matched someone (points given or taken): the table
#: holds before the next flip until the host taps Continue (RTB-P-MATCH, RTB-GT-GIVE, RTB-GT-TAKE).
MATCH_RULES = frozenset({"RTB-P-MATCH", "RTB-GT-GIVE", "RTB-GT-TAKE"})
#: Ride the Bus events of a Part 2 flip (a pyramid card, RTB-P-FLIP; a Give & Take spot, RTB-GT-LAYOUT).
FLIP_RULES = frozenset({"RTB-P-FLIP", "RTB-GT-LAYOUT"})
#: Ride the Bus phases (values) of the card flipped after a Part 2 flip: the next pyramid card
#: (RTB-P-FLIP), the next Give & Take spot (RTB-GT-LAYOUT) or the bus's first card (RTB-B-FLIP).
NEXT_FLIP_PHASES = frozenset({"flip", "spot_flip", "bus_start"})
#: What the table says while it holds for the host's Continue.
HOLDING_TEXT = "Points changed hands on that flip: the host taps Continue to flip the next card."


class TableError(Exception):
    """A refused request; its text is said to the device that caused it (plain words)."""


class UnknownTableError(TableError):
    """No open table has that code."""


class TableFullError(TableError):
    """Every person's seat is taken."""


class NotYourTurnError(TableError):
    """A move from a seat that is not the one to move (or is played by a bot now)."""


class StaleMoveError(TableError):
    """A move made on a board that has changed since (its ``seq`` is not the table's version)."""


class TableClosedError(TableError):
    """The table is closed."""


class HostOnlyError(TableError):
    """Only the host may do that."""


@dataclass
class SeatInfo:
    """One seat of a table.

    Attributes:
        seat (int): the seat number (0-based, as the game numbers seats).
        kind (str): ``"person"`` or ``"bot"``.
        name (str): ``"Seat 2"`` until a person joins, then their name (plain text, made unique:
            ``"Ana (2)"``).
        bot (str): the bot policy that plays the seat when ``kind == "bot"`` (also while a person
            is away and the host handed the seat to a bot: then ``away_person`` is True).
        token (str | None): the seat's secret (``None`` until a person claims it); never in a frame.
        claimed (bool): a person has joined this seat.
        connections (int): pages open on this seat now (the server counts them).
        away_person (bool): a person's seat handed to a bot by the host (:meth:`Table.set_bot`).
    """

    seat: int
    kind: str
    name: str
    bot: str
    token: str | None = None
    claimed: bool = False
    connections: int = 0
    away_person: bool = False

    def public(self) -> dict[str, Any]:
        """The seat for a frame: ``seat``, ``name``, ``kind`` (``"person"``, ``"bot"`` or
        ``"away"``), ``bot``, ``claimed``, ``connected`` (no token)."""
        return {
            "seat": self.seat,
            "name": self.name,
            "kind": "away" if self.away_person else self.kind,
            "bot": self.bot if self.kind == "bot" else None,
            "claimed": self.claimed,
            "connected": self.connections > 0,
        }


def clean_name(text: Any, max_chars: int) -> str:
    """A person's name as plain text: NFKC; spaces of every kind (tabs, new lines) become one
    space; control, format (invisible, text-direction) and unpaired surrogate characters are
    removed; surrounding spaces dropped; at most ``max_chars`` characters. ``<`` and ``>`` are
    dropped too, so a name never looks like markup wherever it is shown (pages still set it as
    text, never as HTML).

    Args:
        text: what the person typed (a non-string gives ``""``).
        max_chars (int): the longest name kept, in characters.

    Returns:
        str: the cleaned name (may be ``""``).
    """
    if not isinstance(text, str):
        return ""
    text = unicodedata.normalize("NFKC", text[: max_chars * 8])
    kept = (
        " " if ch.isspace() else "" if ch in "<>" or unicodedata.category(ch) in ("Cc", "Cf", "Cs") else ch
        for ch in text
    )
    return " ".join("".join(kept).split())[:max_chars].strip()


def resolve_bot(game: Game, bot: str) -> str:
    """The bot policy of ``game`` named ``bot``; the default ``"best_odds"`` stands for the game's
    best bot when it has none of that name (``greedy``, ``bidder``, then ``random``).

    Raises:
        TableError: ``bot`` is not a policy of the game (the text lists them).
    """
    named = game.policies()
    if isinstance(bot, str) and bot in named:
        return bot
    if bot == FALLBACK_BOTS[0]:
        return next(name for name in (*FALLBACK_BOTS, *sorted(named)) if name in named)
    raise TableError(
        f"there is no bot {str(bot)[:40]!r} for {game.title}: choose one of {', '.join(sorted(named))}"
    )


def options_schema(game_name: str) -> list[dict[str, Any]]:
    """The options a host may set for a game, for the lobby form: ``name``, ``default``, ``doc``,
    ``choices`` (list or ``None``), ``bounds`` (``[low, high]`` or ``None``). Parameters with
    neither (a sheet's path) are left out.

    Raises:
        TableError: no game of that name.
    """
    if game_name not in registered_games():
        raise TableError(
            f"there is no game {str(game_name)[:40]!r}: choose one of {', '.join(registered_games())}"
        )
    game = load_game(game_name)
    return [
        {
            "name": p.name,
            "default": p.default,
            "doc": p.doc,
            "choices": None if p.choices is None else list(p.choices),
            "bounds": None if p.bounds is None else list(p.bounds),
        }
        for p in game.PARAMS
        if p.choices is not None or p.bounds is not None
    ]


def players_kept(game_name: str, current: int) -> int | None:
    """How many players a lobby keeps when the host switches to ``game_name``: the ``current``
    number, brought within that game's bounds (5 players switched to a game of 2 to 3 give 3), so
    as many seats as possible stay. The host page does the same in ``table.js``.

    Args:
        game_name (str): the game switched to.
        current (int): seats before the switch.

    Returns:
        int | None: the number of players; ``None`` when the game has no ``players`` option.

    Raises:
        TableError: no game of that name.
    """
    players = next((o for o in options_schema(game_name) if o["name"] == "players"), None)
    if players is None or players["bounds"] is None:
        return None
    low, high = players["bounds"]
    return int(min(max(current, low), high))


def check_settable(game_name: str, options: dict[str, Any]) -> None:
    """Refuse options a class table may not set: a name the game does not have, or a parameter
    with neither a list of choices nor a range (such as a component sheet, which may be a file
    path on the server). The values themselves are checked by the game.

    Raises:
        TableError: the first such option, said in words.
    """
    params = {p.name: p for p in load_game(game_name).PARAMS}
    for name in options:
        param = params.get(name)
        if param is None:
            raise TableError(
                f"{load_game(game_name).title or game_name} has no option {str(name)[:40]!r}: "
                f"its options are {', '.join(p['name'] for p in options_schema(game_name))}"
            )
        if param.choices is None and param.bounds is None:
            raise TableError(
                f"the option {name!r} cannot be set at a class table: only options with a list of "
                "choices or a range can (a sheet or a file path stays in the notebook)"
            )


class Table:
    """One class table: a game, its seats, and what people and the host may do.

    Args:
        code (str): the join code (see :mod:`bus_lab.table.codes`).
        game (str): a registered game name (``"ride_the_bus"``, ``"bus_and_stop"``, ``"busstop"``,
            ``"bus_city"``).
        options (dict | None): the game's options (``Game.PARAMS`` names); missing ones default.
        people (list[bool] | None): per seat, True for a person's seat; default every seat. The
            number of seats comes from the options (``players``).
        bot (str): the bot policy for seats no person plays (``"best_odds"``: the game's best).
        seed (int | None): the game's seed; ``None``: a fresh secret one at :meth:`start`.
        limits (Limits): the limits (names' length).
        clock (Callable[[], float]): the clock, in seconds (:func:`time.monotonic`).

    Raises:
        TableError: unknown game, options the game refuses, or ``people`` of the wrong length.

    Attributes:
        code (str), game_name (str), options (dict: every option, defaults filled in),
        seats (list[SeatInfo]), phase (str: ``"lobby"``, ``"playing"``, ``"paused"``, ``"over"``,
        ``"closed"``), version (int: bumped by :meth:`changed`; frames carry it as ``seq``),
        people (list[bool]: per seat, a person's seat as configured),
        session (Session | None: ``None`` in the lobby), created_at and last_activity (clock
        seconds), ended_at (clock seconds when the phase became ``"over"``, else ``None``),
        notice (str | None: the latest thing the table says to everyone), bot (str),
        animate (bool: the last change was a step of the game, so pages may show it moving).
    """

    def __init__(
        self,
        code: str,
        *,
        game: str = "ride_the_bus",
        options: dict[str, Any] | None = None,
        people: list[bool] | None = None,
        bot: str = "best_odds",
        seed: int | None = None,
        limits: Limits = DEFAULT_LIMITS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.code = code
        self.limits = limits
        self._clock = clock
        self.phase = "lobby"
        self.version = 0
        self.session: Session | None = None
        self.created_at = self.last_activity = clock()
        self.ended_at: float | None = None
        self.notice: str | None = None
        self.seats: list[SeatInfo] = []
        self.game_name = ""
        self.options: dict[str, Any] = {}
        self.bot = "best_odds"
        self.seed: int | None = None
        self.people: list[bool] = []
        self._game: Game | None = None
        self._preview: State | None = None
        self._listeners: list[Callable[[Table], None]] = []
        self._presence_listeners: list[Callable[[Table], None]] = []
        self._events_before = 0
        self._released_at = -1
        self._stepped = False
        self.animate = False
        self._last_record: str | None = None  # the game before :meth:`again`, for record()
        self._configure(game, options or {}, people, bot, seed)

    # -- reading -----------------------------------------------------------------------------------
    @property
    def game(self) -> Game:
        """The game with its options (a :class:`~bus_lab.engine.core.Game`)."""
        assert self._game is not None
        return self._game

    @property
    def title(self) -> str:
        """The game's title (``"Ride the Bus"``)."""
        return self.game.title or self.game_name

    def state(self) -> State:
        """The position shown: the game's current state, or in the lobby its initial state (a
        preview of the board, nothing dealt)."""
        if self.session is not None:
            return self.session.state
        if self._preview is None:
            self._preview = self.game.new_initial_state()
        return self._preview

    def seat_info(self, seat: Any) -> SeatInfo:
        """The :class:`SeatInfo` of ``seat``.

        Raises:
            TableError: not a seat number of this table.
        """
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise TableError(f"there is no seat {str(seat)[:20]}: seats are 0 to {len(self.seats) - 1}")
        return self.seats[seat]

    def people_count(self) -> int:
        """How many seats people have joined."""
        return sum(1 for s in self.seats if s.claimed)

    # -- the lobby (host) ----------------------------------------------------------------------
    def _require(self, *phases: str, doing: str) -> None:
        if self.phase == "closed":
            raise TableClosedError("this table is closed")
        if self.phase not in phases:
            why = {
                "lobby": "the game has not started yet",
                "playing": "the game has started",
                "paused": "the game is paused",
                "over": "the game is over",
            }[self.phase]
            raise TableError(f"{doing} is not possible now: {why}")

    def configure(
        self,
        game: str,
        options: dict[str, Any],
        people: list[bool],
        bot: str = "best_odds",
        seed: int | None = None,
    ) -> None:
        """Choose the game, its options, which seats are people's, the bot and the seed (lobby only).

        People who have joined keep their names and tokens, and their seats when those stay
        people's seats; the others move, in seat order, onto the free person seats (a page finds
        its seat again from its token with :meth:`resume`).

        Args:
            game (str): a registered game name.
            options (dict): the game's options by name (missing ones default).
            people (list[bool]): per seat, True for a person's seat (its length is the number of
                seats the options give).
            bot (str): the bot policy for the other seats.
            seed (int | None): a fixed seed (the same deal again), or ``None`` for a secret one.

        Raises:
            TableError: not in the lobby, an unknown game or bot, an option a table may not set
                (:func:`check_settable`: one with neither choices nor a range, e.g. ``sheet``),
                options the game refuses (the game's own words), ``people`` of the wrong length, or fewer person seats than
                people who have joined. Nothing changes then.
        """
        self._require("lobby", doing="changing the game")
        self._configure(game, options, people, bot, seed)

    def _configure(
        self, game: str, options: dict[str, Any], people: list[bool] | None, bot: str, seed: int | None
    ) -> None:
        if not isinstance(game, str) or game not in registered_games():
            raise TableError(
                f"there is no game {str(game)[:40]!r}: choose one of {', '.join(registered_games())}"
            )
        if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
            raise TableError("the options are a list of names and values")
        check_settable(game, options)
        try:
            loaded = load_game(game, **options)
        except (ParameterError, TypeError, ValueError) as exc:
            raise TableError(f"{exc}") from None
        n = loaded.num_players
        if people is None:
            people = [True] * n
        if not isinstance(people, list) or not all(isinstance(p, bool) for p in people):
            raise TableError("say for each seat whether a person plays it (true or false)")
        if len(people) != n:
            raise TableError(f"{loaded.title} with these options has {n} seats, not {len(people)}")
        chosen_bot = resolve_bot(loaded, bot)
        if seed is not None and (
            isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63
        ):
            raise TableError("the seed is a whole number from 0, or empty for a random deal")
        joined = [s for s in self.seats if s.claimed]
        person_seats = [i for i, p in enumerate(people) if p]
        if len(joined) > len(person_seats):
            raise TableError(
                f"{len(joined)} people have joined, but these settings have only {len(person_seats)} "
                "seats for people"
            )
        seats = [SeatInfo(i, "person" if p else "bot", f"Seat {i}", chosen_bot) for i, p in enumerate(people)]
        staying = [info for info in joined if info.seat < n and people[info.seat]]
        moving = [info for info in joined if info not in staying]
        free = [i for i in person_seats if i not in {info.seat for info in staying}]
        for info, i in [(info, info.seat) for info in staying] + list(zip(moving, free)):
            seats[i] = SeatInfo(i, "person", info.name, chosen_bot, info.token, True, info.connections)
        self.game_name = game
        self.options = dict(loaded.params)
        self._game = loaded
        self._preview = None
        self.bot = chosen_bot
        self.seed = seed
        self.people = list(people)
        self.seats = seats

    def join(self, name: str) -> tuple[int, str]:
        """A person joins: the first free person's seat becomes theirs (lobby only).

        Args:
            name (str): the name they typed (cleaned by :func:`clean_name` and made unique:
                a second ``"Ana"`` becomes ``"Ana (2)"``).

        Returns:
            tuple[int, str]: the seat and its secret token (give it only to that person).

        Raises:
            TableClosedError: the table is closed.
            TableError: the game has started (join is for the lobby; a person who was seated
                resumes with their token), or the name is empty after cleaning.
            TableFullError: every person's seat is taken.
        """
        if self.phase == "closed":
            raise TableClosedError("this table is closed")
        if self.phase != "lobby":
            raise TableError("the game has started: new players can no longer join this table")
        clean = clean_name(name, self.limits.max_name_chars)
        if not clean:
            raise TableError("please type your name")
        free = [s for s in self.seats if s.kind == "person" and not s.claimed]
        if not free:
            raise TableFullError("this table is full: every seat for a person is taken")
        info = free[0]
        info.name = self._unique(clean)
        info.token = new_secret()
        info.claimed = True
        return info.seat, info.token

    def _unique(self, name: str) -> str:
        taken = {s.name.casefold() for s in self.seats if s.claimed}
        taken |= {f"seat {s.seat}" for s in self.seats}
        if name.casefold() not in taken:
            return name
        n = 2
        while True:
            suffix = f" ({n})"
            candidate = name[: self.limits.max_name_chars - len(suffix)].rstrip() + suffix
            if candidate.casefold() not in taken:
                return candidate
            n += 1

    def resume(self, token: str) -> int:
        """The seat a person's token holds (a page reloaded, or back after a break).

        Args:
            token (str): the token :meth:`join` gave.

        Returns:
            int: the seat.

        Raises:
            TableClosedError: the table is closed.
            TableError: no seat has that token (compared in constant time).
        """
        if self.phase == "closed":
            raise TableClosedError("this table is closed")
        found = None
        for info in self.seats:
            if info.token is not None and same_secret(info.token, token):
                found = info.seat
        if found is None:
            raise TableError("this device's seat is not at this table any more: join again")
        return found

    def leave(self, seat: int) -> None:
        """Free a person's seat in the lobby (the person left, or the host removed them); their
        token no longer works.

        Raises:
            TableError: not in the lobby, or no such seat.
        """
        self._require("lobby", doing="leaving a seat")
        info = self.seat_info(seat)
        self.seats[seat] = SeatInfo(
            info.seat, info.kind, f"Seat {info.seat}", info.bot, connections=info.connections
        )

    def start(self) -> None:
        """Start the game: person seats nobody joined are played by the bot from now on (the
        table's notice says so); the seed is fixed or a fresh secret one of 64 bits (``secrets``).

        Raises:
            TableError: not in the lobby.
        """
        self._require("lobby", doing="starting")
        empty = [s for s in self.seats if s.kind == "person" and not s.claimed]
        for info in empty:
            info.kind = "bot"
        bots = {s.seat: s.bot for s in self.seats if s.kind == "bot"}
        # A secret deal is 64 bits: a seat that sees some cards cannot search every seed for
        # the one that deals them (and so learn every later card).
        seed = secrets.randbits(64) if self.seed is None else self.seed
        self.session = Session(self.game, seed=seed, bots=bots)
        self._last_record = None
        self.phase = "playing"
        self._events_before = len(self.session.state.events())
        if empty:
            names = ", ".join(s.name for s in empty)
            verb = "has" if len(empty) == 1 else "have"
            self.notice = f"The game has started. {names} {verb} nobody, so the {self.bot} bot plays there."
        else:
            self.notice = "The game has started."
        self._check_over()

    def pause(self) -> None:
        """Pause the game: no moves and no automatic steps until :meth:`resume_play`.

        Raises:
            TableError: the game is not being played.
        """
        self._require("playing", doing="pausing")
        self.phase = "paused"
        self.notice = "The host has paused the game."

    def resume_play(self) -> None:
        """Go on after :meth:`pause`.

        Raises:
            TableError: the game is not paused.
        """
        self._require("paused", doing="resuming")
        self.phase = "playing"
        self.notice = "The game goes on."

    def holding(self) -> str | None:
        """Why the table waits for the host's Continue, or ``None``.

        Ride the Bus, Part 2 (the pyramid, or the Give & Take board): after a flip that matched
        someone (RTB-P-MATCH, then RTB-P-GIVE; RTB-GT-GIVE or RTB-GT-TAKE) and once the points
        are handed over, the table holds before the next card is flipped, so everyone can see
        who played what ("After a flip that matches someone, the host taps Continue to flip the
        next card"). A flip that matched nobody moves straight on (RTB-P-NOMATCH). Other games
        never hold.
        """
        if (
            self.session is None
            or self.game_name != "ride_the_bus"
            or self.phase not in ("playing", "paused")
        ):
            return None
        state = self.session.state
        phase = state.phase()
        if phase is None or phase.value not in NEXT_FLIP_PHASES or self._released_at == self.session.position:
            return None
        # the chance step before a flip phase was the last Part 2 flip, if any (only gives between)
        events = state.events()
        for i in range(len(events) - 1, -1, -1):
            if events[i].rule in FLIP_RULES:
                step = events[i].step
                matched = any(e.rule in MATCH_RULES for e in events[i:] if e.step == step)
                return HOLDING_TEXT if matched else None
        return None

    def continue_(self) -> None:
        """The host's Continue: flip the next card after a hold (see :meth:`holding`).

        Raises:
            TableError: the table is not holding.
        """
        self._require("playing", "paused", doing="Continue")
        if self.holding() is None:
            raise TableError("nothing is waiting for Continue now")
        assert self.session is not None
        self._released_at = self.session.position

    def set_bot(self, seat: int, on: bool) -> None:
        """Hand a person's seat to the table's bot while the person is away (``on=True``), or
        give it back to them (``on=False``). During the game only.

        Args:
            seat (int): a person's seat (one a person joined).
            on (bool): True: the bot plays it from the next step; False: the person again.

        Raises:
            TableError: the game is not on, no such seat, or not a seat a person joined (a seat
                nobody joined stays the bot's), or it is already so.
        """
        self._require("playing", "paused", doing="handing a seat over")
        info = self.seat_info(seat)
        assert self.session is not None
        if not info.claimed:
            raise TableError(f"{info.name} has no person: the {info.bot} bot plays it")
        if on:
            if info.kind == "bot":
                raise TableError(f"the {info.bot} bot already plays for {info.name}")
            self.session.set_bot(seat, info.bot)
            info.kind, info.away_person = "bot", True
            self.notice = f"The {info.bot} bot plays for {info.name} for now."
        else:
            if info.kind == "person":
                raise TableError(f"{info.name} already plays their own seat")
            self.session.set_bot(seat, None)
            info.kind, info.away_person = "person", False
            self.notice = f"{info.name} plays their own seat again."

    def end(self) -> None:
        """End the game now (phase ``"over"``); an unfinished game is allowed, and the notice
        says so.

        Raises:
            TableError: the game is not on (lobby, over or closed).
        """
        self._require("playing", "paused", doing="ending the game")
        assert self.session is not None
        finished = self.session.state.is_terminal()
        self.phase = "over"
        self.ended_at = self._clock()
        self.notice = "The game is over." if finished else "The host ended the game before its end."

    def again(self) -> None:
        """Back to the lobby after a game, for another one with the same people (phase
        ``"lobby"``): everyone who joined keeps their seat, name and token, so their pages follow
        without a new code; seats handed to a bot are theirs again, and seats nobody joined are
        open to join again. The game, options and people seats stay as they were, and the host may
        change them (:meth:`configure`) before :meth:`start`. The game just played stays
        downloadable (:meth:`record`) until the next one starts.

        Raises:
            TableError: the game is not over (or the table is closed).
        """
        self._require("over", doing="playing again")
        self._last_record = self.record()
        self.seats = [
            SeatInfo(info.seat, "person", info.name, self.bot, info.token, True, info.connections)
            if info.claimed
            else SeatInfo(
                info.seat,
                "person" if self.people[info.seat] else "bot",
                f"Seat {info.seat}",
                self.bot,
                connections=info.connections,
            )
            for info in self.seats
        ]
        self.session = None
        self.phase = "lobby"
        self.ended_at = None
        self._preview = None
        self._events_before = 0
        self._released_at = -1
        self._stepped = False
        self.notice = "Back in the lobby for another game: everyone keeps their seat."

    def close(self) -> None:
        """Close the table (phase ``"closed"``): every page is told; nothing more can happen.
        Closing a closed table does nothing."""
        if self.phase != "closed":
            self.phase = "closed"
            self.notice = "The host closed this table."

    # -- play ------------------------------------------------------------------------------------
    def _check_playing(self, doing: str) -> Session:
        if self.phase == "closed":
            raise TableClosedError("this table is closed")
        if self.phase == "lobby":
            raise TableError(f"{doing} is not possible yet: the game has not started")
        if self.phase == "over":
            raise TableError(f"{doing} is not possible: the game is over")
        if self.phase == "paused":
            raise TableError(f"{doing} must wait: the host has paused the game")
        assert self.session is not None
        return self.session

    def move(self, seat: int, action: int, seq: int) -> None:
        """A person's move from their seat's page.

        Args:
            seat (int): the seat the page holds.
            action (int): the move's action (one of the moves in that seat's frame).
            seq (int): the frame's ``seq`` the move was made on (must be :attr:`version`).

        Raises:
            TableClosedError: the table is closed.
            TableError: the game is not on or is paused; ``action`` or ``seq`` not a whole number;
                an illegal move (the text gives the reason and the legal moves: say it only to
                that seat).
            NotYourTurnError: another seat (or chance) is to move, or a bot plays this seat now.
            StaleMoveError: the board changed before the move arrived.

        A refused move changes nothing (not even :attr:`version`).
        """
        session = self._check_playing("a move")
        info = self.seat_info(seat)
        if isinstance(action, bool) or not isinstance(action, int):
            raise TableError("a move is sent as its action number")
        if isinstance(seq, bool) or not isinstance(seq, int):
            raise TableError("a move carries the number of the board it was made on")
        state = session.state
        if state.is_terminal():
            raise TableError("the game is over")
        if info.kind != "person":
            raise NotYourTurnError(f"the {info.bot} bot plays for {info.name} now")
        player = state.current_player()
        if player != seat:
            if state.is_chance_node():
                raise NotYourTurnError("it is not your turn: a card is about to be drawn")
            raise NotYourTurnError(f"it is not your turn: {self.seats[player].name} is to move")
        if seq != self.version:
            raise StaleMoveError(
                "the board changed before your move arrived, so it was not played: look again"
            )
        events_before = len(state.events())
        try:
            session.play(action)
        except IllegalActionError as exc:
            raise TableError(str(exc)) from None
        self._events_before = events_before
        self._stepped = True
        self._check_over()

    def next_automatic(self) -> bool:
        """Whether the next step is automatic (a card drawn, or a bot's move) and may be taken
        now: the game is being played (not paused, not over) and the table is not holding."""
        if self.phase != "playing" or self.session is None:
            return False
        state = self.session.state
        if state.is_terminal():
            return False
        if not (state.is_chance_node() or state.current_player() in self.session.bots):
            return False
        return self.holding() is None

    def advance(self) -> bool:
        """Take ONE automatic step (see :meth:`next_automatic`).

        Returns:
            bool: whether a step was taken. The caller waits ``limits.pace_s`` between steps and
            calls :meth:`changed` after each.
        """
        if not self.next_automatic():
            return False
        assert self.session is not None
        events_before = len(self.session.state.events())
        if self.session.step() is None:
            return False
        self._events_before = events_before
        self._stepped = True
        self._check_over()
        return True

    def run_automatic(self, max_steps: int = 10_000) -> int:
        """Take every automatic step now, with no pause (tests, the benchmark, pace 0).

        Args:
            max_steps (int): the most steps taken.

        Returns:
            int: the number of steps taken.
        """
        taken = 0
        while taken < max_steps and self.advance():
            taken += 1
        return taken

    def _check_over(self) -> None:
        if self.session is not None and self.phase == "playing" and self.session.state.is_terminal():
            self.phase = "over"
            self.ended_at = self._clock()
            self.notice = "The game is over."

    def last_events_count(self) -> int:
        """How many events the game had before its last step (the status line tells the rest)."""
        return self._events_before

    # -- listeners ----------------------------------------------------------------------------
    def changed(self) -> None:
        """Say the table changed: :attr:`version` + 1, :attr:`last_activity` = now,
        :attr:`animate` tells whether a step of the game was taken since the last change, and every
        listener is called with the table (in the order they were added; a listener that raises
        does not stop the others)."""
        self.version += 1
        self.last_activity = self._clock()
        self.animate, self._stepped = self._stepped, False
        for listener in list(self._listeners):
            try:
                listener(self)
            except Exception:  # one page's trouble must not stop the others
                continue

    def add_listener(self, fn: Callable[[Table], None]) -> None:
        """Call ``fn(table)`` after every :meth:`changed` (on the caller's thread)."""
        self._listeners.append(fn)

    def remove_listener(self, fn: Callable[[Table], None]) -> None:
        """Stop calling ``fn``; a listener not added is ignored."""
        if fn in self._listeners:
            self._listeners.remove(fn)

    def presence_changed(self) -> None:
        """Say who is connected changed (a page of a seat opened or closed): every presence
        listener is called with the table. Nothing of the table changed, so :attr:`version` stays
        (a move sent with the current version is still current) and :meth:`changed`'s listeners
        are not called."""
        for listener in list(self._presence_listeners):
            try:
                listener(self)
            except Exception:  # one listener's trouble must not stop the others
                continue

    def add_presence_listener(self, fn: Callable[[Table], None]) -> None:
        """Call ``fn(table)`` after every :meth:`presence_changed` (on the caller's thread)."""
        self._presence_listeners.append(fn)

    def remove_presence_listener(self, fn: Callable[[Table], None]) -> None:
        """Stop calling ``fn`` on presence changes; a listener not added is ignored."""
        if fn in self._presence_listeners:
            self._presence_listeners.remove(fn)

    # -- frames and summaries ------------------------------------------------------------------
    def seat_frame(self, seat: int, message: dict[str, str] | None = None) -> dict[str, Any]:
        """The frame of ``seat``'s page: that seat's view and, when it is to move, its moves
        (see :mod:`bus_lab.table.frames`).

        Args:
            seat (int): the seat.
            message (dict | None): ``{"kind": "error" | "note", "text": ...}`` for this page only.

        Raises:
            TableError: no such seat.
        """
        from bus_lab.table.frames import seat_frame

        self.seat_info(seat)
        return seat_frame(self, seat, message)

    def projector_frame(self) -> dict[str, Any]:
        """The projector's frame: the public view only, no moves."""
        from bus_lab.table.frames import projector_frame

        return projector_frame(self)

    def host_frame(self) -> dict[str, Any]:
        """The host's frame: the projector frame plus the lobby (seats without tokens, the
        options schema, the table's settings)."""
        from bus_lab.table.frames import host_frame

        return host_frame(self)

    def lobby_info(self) -> dict[str, Any]:
        """The lobby in short: ``code``, ``game``, ``title``, ``options`` (name -> value, without
        options that are neither choices nor ranges), ``people`` (per seat: a person's seat),
        ``bot``, ``seats`` (public seat info, no tokens), ``phase``, ``fixed_seed`` (whether a
        seed was fixed; never the seed)."""
        shown = {o["name"] for o in options_schema(self.game_name)}
        return {
            "code": self.code,
            "game": self.game_name,
            "title": self.title,
            "options": {k: v for k, v in self.options.items() if k in shown},
            "people": list(self.people),
            "bot": self.bot,
            "seats": [s.public() for s in self.seats],
            "phase": self.phase,
            "fixed_seed": self.seed is not None,
        }

    def record(self) -> str:
        """The game as a record (host only): :meth:`Session.to_json` plus ``"names"`` (the seats'
        names). ``Session.from_json(record)`` replays it (the extra key is ignored).

        In the lobby after :meth:`again`, it is the game just played.

        Raises:
            TableError: no game has started yet.
        """
        if self.session is None:
            if self._last_record is not None:
                return self._last_record
            raise TableError("there is no game to save yet: it has not started")
        data = json.loads(self.session.to_json())
        data["names"] = [s.name for s in self.seats]
        return json.dumps(data)

    def has_record(self) -> bool:
        """Whether :meth:`record` has a game to give (one started, or the one before :meth:`again`)."""
        return self.session is not None or self._last_record is not None

    def public_summary(self) -> dict[str, Any]:
        """The table in the hub's list: ``code``, ``game``, ``title``, ``phase``, ``people``
        (joined), ``seats`` and ``created`` (clock seconds)."""
        return {
            "code": self.code,
            "game": self.game_name,
            "title": self.title,
            "phase": self.phase,
            "people": self.people_count(),
            "seats": len(self.seats),
            "created": self.created_at,
        }

    def __repr__(self) -> str:
        return f"<Table {self.code} {self.game_name} {self.phase} v{self.version}>"
