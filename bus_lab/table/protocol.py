"""The class table's websocket messages: validation (pure functions) and a rate limiter.

Every message a browser sends is a JSON object in a text frame. Nothing a page sends is trusted:
:func:`parse_hello` and :func:`parse_message` check the raw length BEFORE decoding, then that the
text is one JSON object whose fields are exactly those of its ``type`` (no missing, no extra
field), with the right types (``true`` is not an integer here) and bounded sizes. They return a
small frozen dataclass, or raise :class:`ProtocolError` whose text is said to the sender only.

The first message of a connection (the hello) says who is connecting::

    {"type": "join",   "code": "ABCDE", "name": "Ana"}      a new seat (lobby only)
    {"type": "resume", "code": "ABCDE", "token": "..."}     the seat of that token (any phase)
    {"type": "watch",  "code": "ABCDE"}                     the projector (public view)
    {"type": "host",   "code": "ABCDE", "key": "..."}       the host of that table

Then, by role:

- seat: ``{"type": "move", "action": int, "seq": int}``,
  ``{"type": "control", "name": "log", "value": bool, "seq": int}``;
- host: ``{"type": "command", "name": NAME, "value": VALUE}`` (see :data:`COMMANDS`);
- every role: ``{"type": "ping"}`` (the board adds ``"seq"`` to everything it sends, so a ping may
  carry it too).

:class:`RateLimiter` is a token bucket per connection, with a count of refused messages over the
last minute so a flooding socket can be closed.
"""

from __future__ import annotations

import json
import math
import re
import time
import unicodedata
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

#: The roles a connection can have after its hello.
Role = Literal["seat", "projector", "host"]

#: The longest join code accepted as text before normalising (codes are 5 characters; spaces and
#: dashes a person types around them are forgiven by ``normalize_code``).
MAX_CODE_CHARS = 16
#: The longest seat token or host key (``secrets.token_urlsafe(24)`` is 32 characters).
MAX_SECRET_CHARS = 64
#: Characters of a seat token or host key (URL-safe base64).
SECRET_RE = re.compile(r"[A-Za-z0-9_-]+")
#: The largest action or seat number a page may send (actions are small non-negative ints).
MAX_ACTION = 2**31 - 1
#: Table versions are counted from 0; the board sends -1 before its first frame.
MIN_SEQ, MAX_SEQ = -1, 2**53
#: The most seats a table can have (no game has more than 8).
MAX_SEATS = 16
#: Bounds for a host's configure command.
MAX_OPTIONS = 32
MAX_WORD_CHARS = 40
MAX_OPTION_TEXT_CHARS = 100
MAX_OPTION_INT = 10**9
MAX_SEED = 2**63 - 1
WORD_RE = re.compile(r"[a-z][a-z0-9_]*")

#: The host's commands and the type of their ``value``: ``None`` for a command that takes none
#: (the field may then be left out or be ``null``), ``"seat"`` for a seat number, ``"config"`` for
#: the configure form ``{game, options, people, bot, seed}``.
COMMANDS: dict[str, Literal["none", "seat", "config"]] = {
    "configure": "config",
    "start": "none",
    "pause": "none",
    "resume": "none",
    "continue": "none",
    "bot": "seat",
    "person": "seat",
    "end": "none",
    "again": "none",
    "close": "none",
    "kick": "seat",
    "record": "none",
}

#: The message types each role may send after its hello.
ROLE_TYPES: dict[str, frozenset[str]] = {
    "seat": frozenset({"move", "control", "ping"}),
    "projector": frozenset({"ping"}),
    "host": frozenset({"command", "ping"}),
}


class ProtocolError(ValueError):
    """A message that does not follow the protocol.

    Attributes:
        text (str): what is wrong, in words for the person at the device that sent it.
    """

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


@dataclass(frozen=True)
class Hello:
    """A validated first message.

    Attributes:
        kind (str): ``"join"``, ``"resume"``, ``"watch"`` or ``"host"``.
        code (str): the join code as typed (at most :data:`MAX_CODE_CHARS` characters); the hub
            normalises it.
        name (str | None): the person's name (``join`` only), stripped, inner spaces collapsed,
            cut to ``max_name_chars`` characters, no control characters.
        token (str | None): the seat's secret (``resume`` only).
        key (str | None): the host key (``host`` only).
    """

    kind: Literal["join", "resume", "watch", "host"]
    code: str
    name: str | None = None
    token: str | None = None
    key: str | None = None

    @property
    def role(self) -> Role:
        """The role this hello asks for: ``"seat"`` (join, resume), ``"projector"`` or ``"host"``."""
        if self.kind in ("join", "resume"):
            return "seat"
        return "projector" if self.kind == "watch" else "host"


@dataclass(frozen=True)
class MoveMessage:
    """A seat's move: ``action`` (the legal action's int) made on the frame numbered ``seq``."""

    action: int
    seq: int


@dataclass(frozen=True)
class ControlMessage:
    """A seat's page control: ``name`` (only ``"log"``: the log opened or folded), ``value``."""

    name: str
    value: bool
    seq: int


@dataclass(frozen=True)
class PingMessage:
    """A keep-alive; answered with ``{"type": "pong"}``."""


@dataclass(frozen=True)
class CommandMessage:
    """A host's command.

    Attributes:
        name (str): one of :data:`COMMANDS`.
        value: ``None``, a seat number (int) or, for ``configure``, a :class:`ConfigureValue`.
    """

    name: str
    value: None | int | ConfigureValue


@dataclass(frozen=True)
class ConfigureValue:
    """The lobby form of a ``configure`` command.

    Attributes:
        game (str): the registered game name (lower-case word).
        options (dict[str, bool | int | str | None]): game parameters by name (scalars only;
            ``None`` where the game's parameter allows no value, e.g. BUS's ``empty_speed``).
        people (list[bool]): per seat, True when a person plays it (1 to :data:`MAX_SEATS`).
        bot (str): the bot policy for the other seats.
        seed (int | None): a fixed seed (0 to 2**63 - 1), or None for a secret random one.
    """

    game: str
    options: dict[str, bool | int | str | None]
    people: list[bool]
    bot: str
    seed: int | None


Message = MoveMessage | ControlMessage | PingMessage | CommandMessage


# --------------------------------------------------------------------------------- decoding


def _reject_constant(name: str) -> Any:
    raise ProtocolError(f"{name} is not a number this table accepts")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise ProtocolError(f"the field {key!r} is given twice")
        result[key] = value
    return result


def decode_object(text: object, max_chars: int) -> dict[str, Any]:
    """Decode one message: a JSON object in at most ``max_chars`` characters.

    The length is checked on the raw text before any decoding, so an oversized message costs
    nothing. ``NaN``/``Infinity`` and repeated field names are refused.

    Args:
        text (str): the text frame as received (anything else, e.g. bytes, is refused).
        max_chars (int): the longest message accepted (``Limits.max_message_chars``).

    Returns:
        dict: the decoded object, with a ``"type"`` field that is a string.

    Raises:
        ProtocolError: not text, too long, not JSON, not an object, or no string ``type``.
    """
    if not isinstance(text, str):
        raise ProtocolError("messages must be JSON text")
    if len(text) > max_chars:
        raise ProtocolError(f"the message is too long ({len(text)} characters; at most {max_chars})")
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_reject_constant)
    except ProtocolError:
        raise
    except (ValueError, RecursionError):
        raise ProtocolError("the message is not valid JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("a message must be a JSON object")
    if not isinstance(data.get("type"), str):
        raise ProtocolError('a message needs a "type" that is a string')
    return data


def check_fields(data: dict[str, Any], required: set[str], optional: frozenset[str] = frozenset()) -> None:
    """Check that ``data`` has every ``required`` field and nothing outside ``required | optional``.

    Args:
        data (dict): a decoded message.
        required (set[str]): fields that must be present (``"type"`` included).
        optional (frozenset[str]): fields that may be present.

    Raises:
        ProtocolError: a field is missing or unexpected (the text names it).
    """
    keys = set(data)
    missing = sorted(required - keys)
    if missing:
        raise ProtocolError(f'a "{data.get("type")}" message needs the field {missing[0]!r}')
    extra = sorted(keys - required - optional)
    if extra:
        shown = extra[0] if len(extra[0]) <= MAX_WORD_CHARS else extra[0][:MAX_WORD_CHARS] + "..."
        raise ProtocolError(f'a "{data.get("type")}" message has no field {shown!r}')


def check_int(value: object, field: str, low: int, high: int) -> int:
    """Return ``value`` if it is an ``int`` (not a ``bool``) in ``[low, high]``.

    Raises:
        ProtocolError: wrong type or out of range (the text names ``field``).
    """
    if type(value) is not int:
        raise ProtocolError(f"{field} must be a whole number")
    if not low <= value <= high:
        raise ProtocolError(f"{field} must be from {low} to {high}")
    return value


def check_bool(value: object, field: str) -> bool:
    """Return ``value`` if it is ``True`` or ``False``.

    Raises:
        ProtocolError: any other value (``0`` and ``1`` included).
    """
    if type(value) is not bool:
        raise ProtocolError(f"{field} must be true or false")
    return value


def check_text(value: object, field: str, max_chars: int, min_chars: int = 1) -> str:
    """Return ``value`` if it is a string of ``min_chars`` to ``max_chars`` characters.

    Raises:
        ProtocolError: not a string, or too short or too long.
    """
    if not isinstance(value, str):
        raise ProtocolError(f"{field} must be text")
    if len(value) < min_chars:
        raise ProtocolError(f"{field} is empty")
    if len(value) > max_chars:
        raise ProtocolError(f"{field} is too long (at most {max_chars} characters)")
    return value


def check_code(value: object) -> str:
    """A join code as typed: a string of 1 to :data:`MAX_CODE_CHARS` characters.

    Raises:
        ProtocolError: not a string, empty or too long.
    """
    return check_text(value, "the table code", MAX_CODE_CHARS)


def check_secret(value: object, field: str) -> str:
    """A seat token or host key: 1 to :data:`MAX_SECRET_CHARS` URL-safe characters.

    Raises:
        ProtocolError: not a string, empty, too long, or another character.
    """
    text = check_text(value, field, MAX_SECRET_CHARS)
    if not SECRET_RE.fullmatch(text):
        raise ProtocolError(f"{field} is not well formed")
    return text


def clean_name(value: object, max_chars: int) -> str:
    """A person's name: stripped, runs of spaces collapsed to one, cut to ``max_chars`` characters.

    Args:
        value: the name as sent.
        max_chars (int): ``Limits.max_name_chars`` (longer names are cut, as the table does).

    Returns:
        str: the cleaned name (1 to ``max_chars`` characters).

    Raises:
        ProtocolError: not a string, empty once stripped, far too long (more than four times
            ``max_chars``: refused before any work), or it holds a control or formatting
            character (line breaks, bidirectional overrides, zero-width marks).
    """
    if not isinstance(value, str):
        raise ProtocolError("the name must be text")
    if len(value) > 4 * max_chars:
        raise ProtocolError(f"the name is too long (at most {max_chars} characters)")
    for ch in value:
        if ch != " " and unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            raise ProtocolError("the name may only hold letters, digits, spaces and punctuation")
    name = " ".join(value.split())
    if not name:
        raise ProtocolError("type your name first")
    return name[:max_chars].rstrip()


# ------------------------------------------------------------------------------ messages


def parse_hello(text: object, max_chars: int = 2000, max_name_chars: int = 20) -> Hello:
    """Validate a connection's first message.

    Args:
        text (str): the raw text frame.
        max_chars (int): ``Limits.max_message_chars``.
        max_name_chars (int): ``Limits.max_name_chars``.

    Returns:
        Hello: the validated hello.

    Raises:
        ProtocolError: anything else than one of the four hellos, exactly (see the module doc).
    """
    data = decode_object(text, max_chars)
    kind = data["type"]
    if kind == "join":
        check_fields(data, {"type", "code", "name"})
        return Hello("join", check_code(data["code"]), name=clean_name(data["name"], max_name_chars))
    if kind == "resume":
        check_fields(data, {"type", "code", "token"})
        return Hello("resume", check_code(data["code"]), token=check_secret(data["token"], "the seat token"))
    if kind == "watch":
        check_fields(data, {"type", "code"})
        return Hello("watch", check_code(data["code"]))
    if kind == "host":
        check_fields(data, {"type", "code", "key"})
        return Hello("host", check_code(data["code"]), key=check_secret(data["key"], "the host key"))
    raise ProtocolError('the first message must be "join", "resume", "watch" or "host"')


def parse_configure(value: object, max_seats: int = MAX_SEATS) -> ConfigureValue:
    """Validate the value of a ``configure`` command (shape and types; the table checks the rules).

    Args:
        value: ``{"game": str, "options": {name: bool|int|str|null}, "people": [bool, ...],
            "bot": str, "seed": int|null}``.
        max_seats (int): the most entries ``people`` may have.

    Returns:
        ConfigureValue: the validated form.

    Raises:
        ProtocolError: wrong shape, types or sizes.
    """
    if not isinstance(value, dict):
        raise ProtocolError("configure needs {game, options, people, bot, seed}")
    missing = sorted({"game", "options", "people", "bot", "seed"} - set(value))
    extra = sorted(set(value) - {"game", "options", "people", "bot", "seed"})
    if missing or extra:
        raise ProtocolError("configure needs exactly {game, options, people, bot, seed}")
    game = check_text(value["game"], "the game", MAX_WORD_CHARS)
    if not WORD_RE.fullmatch(game):
        raise ProtocolError("the game name is not well formed")
    options_in = value["options"]
    if not isinstance(options_in, dict):
        raise ProtocolError("the options must be an object")
    if len(options_in) > MAX_OPTIONS:
        raise ProtocolError(f"too many options (at most {MAX_OPTIONS})")
    options: dict[str, bool | int | str | None] = {}
    for key, option in options_in.items():
        if not WORD_RE.fullmatch(key) or len(key) > MAX_WORD_CHARS:
            raise ProtocolError("an option name is not well formed")
        if option is None:  # "no value" (BUS's empty_speed); the game's Param says if it may be
            options[key] = None
        elif type(option) is bool:
            options[key] = option
        elif type(option) is int:
            options[key] = check_int(option, f"the option {key}", -MAX_OPTION_INT, MAX_OPTION_INT)
        elif isinstance(option, str):
            options[key] = check_text(option, f"the option {key}", MAX_OPTION_TEXT_CHARS, 0)
        else:
            raise ProtocolError(f"the option {key} must be true/false, a whole number, a word or null")
    people_in = value["people"]
    if not isinstance(people_in, list) or not 1 <= len(people_in) <= max_seats:
        raise ProtocolError(f"people must list 1 to {max_seats} seats")
    people = [check_bool(p, "each seat of people") for p in people_in]
    bot = check_text(value["bot"], "the bot", MAX_WORD_CHARS)
    if not WORD_RE.fullmatch(bot):
        raise ProtocolError("the bot name is not well formed")
    seed = None if value["seed"] is None else check_int(value["seed"], "the seed", 0, MAX_SEED)
    return ConfigureValue(game, options, people, bot, seed)


def parse_message(text: object, role: str, max_chars: int = 2000) -> Message:
    """Validate a message sent after the welcome by a connection of ``role``.

    Args:
        text (str): the raw text frame.
        role (str): ``"seat"``, ``"projector"`` or ``"host"``.
        max_chars (int): ``Limits.max_message_chars``.

    Returns:
        MoveMessage | ControlMessage | PingMessage | CommandMessage: the validated message.

    Raises:
        ProtocolError: too long, not a JSON object, a type this role may not send, or fields
            that are not exactly those of the type (see the module doc).
    """
    data = decode_object(text, max_chars)
    kind = data["type"]
    if kind not in ROLE_TYPES.get(role, frozenset()):
        shown = kind if len(kind) <= MAX_WORD_CHARS else kind[:MAX_WORD_CHARS] + "..."
        raise ProtocolError(f'this page cannot send a "{shown}" message')
    if kind == "ping":
        check_fields(data, {"type"}, frozenset({"seq"}))
        if "seq" in data:
            check_int(data["seq"], "seq", MIN_SEQ, MAX_SEQ)
        return PingMessage()
    if kind == "move":
        check_fields(data, {"type", "action", "seq"})
        return MoveMessage(
            check_int(data["action"], "the action", 0, MAX_ACTION),
            check_int(data["seq"], "seq", MIN_SEQ, MAX_SEQ),
        )
    if kind == "control":
        check_fields(data, {"type", "name", "value", "seq"})
        if data["name"] != "log":
            raise ProtocolError('the only page control is "log"')
        return ControlMessage(
            "log",
            check_bool(data["value"], "the log control"),
            check_int(data["seq"], "seq", MIN_SEQ, MAX_SEQ),
        )
    # command (host)
    check_fields(data, {"type", "name"}, frozenset({"value"}))
    name = data["name"]
    if not isinstance(name, str) or name not in COMMANDS:
        raise ProtocolError("unknown command; the commands are " + ", ".join(COMMANDS))
    takes = COMMANDS[name]
    value = data.get("value")
    if takes == "none":
        if value is not None:
            raise ProtocolError(f"the command {name} takes no value")
        return CommandMessage(name, None)
    if takes == "seat":
        if "value" not in data:
            raise ProtocolError(f"the command {name} needs a seat number")
        return CommandMessage(name, check_int(value, "the seat", 0, MAX_SEATS - 1))
    if "value" not in data:
        raise ProtocolError("configure needs {game, options, people, bot, seed}")
    return CommandMessage(name, parse_configure(value))


# ------------------------------------------------------------------------------ rate limit


class RateLimiter:
    """A token bucket for one connection, and a count of its refused messages over a minute.

    Each message takes one token; tokens come back at ``rate`` per second up to ``burst``.
    :meth:`refuse` records a refused message (over the rate, or invalid) and tells when there
    have been more than ``flood_after`` within the last ``window_s`` seconds: the socket is then
    closed.

    Args:
        rate (float): tokens per second (``Limits.rate_per_second``), > 0.
        burst (int): bucket size (``Limits.rate_burst``), >= 1; the bucket starts full.
        flood_after (int): refused messages within the window before closing
            (``Limits.flood_close_after``).
        clock (Callable[[], float]): seconds, monotonic (``time.monotonic``; tests inject one).
        window_s (float): the flood window in seconds (60).

    Raises:
        ValueError: ``rate`` <= 0 or ``burst`` < 1.
    """

    def __init__(
        self,
        rate: float,
        burst: int,
        flood_after: int = 200,
        clock: Callable[[], float] = time.monotonic,
        window_s: float = 60.0,
    ) -> None:
        if not rate > 0 or not math.isfinite(rate) or burst < 1:
            raise ValueError("rate must be > 0 and burst >= 1")
        self.rate = float(rate)
        self.burst = int(burst)
        self.flood_after = int(flood_after)
        self.window_s = float(window_s)
        self.clock = clock
        self.tokens = float(burst)
        self.updated = clock()
        self.refused: deque[float] = deque()

    def allow(self) -> bool:
        """Take a token for one message.

        Returns:
            bool: True if the message may be handled, False when over the rate (nothing taken).
        """
        now = self.clock()
        elapsed = max(0.0, now - self.updated)
        self.updated = now
        self.tokens = min(float(self.burst), self.tokens + elapsed * self.rate)
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def refuse(self) -> bool:
        """Record one refused message.

        Returns:
            bool: True when more than ``flood_after`` messages were refused within the last
            ``window_s`` seconds (the connection should be closed).
        """
        now = self.clock()
        self.refused.append(now)
        while self.refused and self.refused[0] <= now - self.window_s:
            self.refused.popleft()
        return len(self.refused) > self.flood_after
