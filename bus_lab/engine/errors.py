"""Errors raised by the engine.

Every error is a ``ValueError`` subclass (or ``NotImplementedError`` for options that are
designed but not built yet), so callers can catch the family they care about. Messages say what
went wrong and what is allowed instead.
"""

from __future__ import annotations


class BusLabError(Exception):
    """Base class of every error raised by ``bus_lab``."""


class UnknownGameError(BusLabError, ValueError):
    """``load_game`` was given a name that is not registered.

    The message lists the registered names.
    """


class ParameterError(BusLabError, ValueError):
    """A game parameter is unknown or outside its allowed values.

    The message names the parameter and the allowed values or range.
    """


class PositionError(ParameterError):
    """A position (``game.state_from_position``) that cannot be set up: a missing key or one of
    the wrong type, or a table that no game could reach (a card twice, more cards than the deck,
    a bus over its seats, an unknown seat).

    The message names the field (``seats[1].bus``) and says what it should be.
    """


class OptionNotBuiltError(BusLabError, NotImplementedError):
    """A rule option is part of the design but this version does not play it yet.

    The message names the option, the value asked for and the values that are playable now.
    """


class InputTypeError(BusLabError, TypeError):
    """A value of the wrong type was given where the engine expects a seat, an action, a label or
    a parameter (``view("0")``, ``string_to_action(None)``).

    The message says what type is expected.
    """


class IllegalActionError(BusLabError, ValueError):
    """An action that may not be applied to the current state.

    Raised by ``State.apply_action`` before anything changes, so the state is exactly as it was.

    Attributes:
        action: the action that was refused (whatever the caller passed).
        reason (str): why it is illegal, in words.
        legal_actions (list[int]): the legal actions at this state.
        labels (list[str]): readable labels of ``legal_actions``, in the same order.
    """

    def __init__(self, action: object, reason: str, legal_actions: list[int], labels: list[str]) -> None:
        self.action = action
        self.reason = reason
        self.legal_actions = list(legal_actions)
        self.labels = list(labels)
        if legal_actions:
            shown = ", ".join(f"{a} ({lab})" for a, lab in zip(legal_actions, labels))
            legal_text = f"Legal actions: {shown}."
        else:
            legal_text = "There are no legal actions (the game is over)."
        super().__init__(f"Illegal action {action!r}: {reason}. {legal_text}")


class ActionTypeError(IllegalActionError, InputTypeError):
    """``apply_action`` was given something that is not an action at all (a string, ``None``, a
    float): both an :class:`IllegalActionError` (the state is unchanged, the legal actions are
    listed) and an :class:`InputTypeError`. For a label, the message points to
    ``string_to_action``."""

    def __init__(self, action: object, reason: str, legal_actions: list[int], labels: list[str]) -> None:
        super().__init__(action, reason, legal_actions, labels)
        if isinstance(action, str):
            hint = f"To make a move by its name, use state.string_to_action({action!r})."
            self.args = (f"{self.args[0]} {hint}",)
