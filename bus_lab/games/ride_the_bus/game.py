"""Ride the Bus: parameters and the game object.

Rules: ``shared/rules/ride_the_bus.md`` (IDs ``RTB-…``), from the points version of the card game
(lowest total wins). Every option of the rules is playable: the Give & Take board, flat row points,
the questions bus, the streak target and the solo gauntlet.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bus_lab.engine.core import Game, Param
from bus_lab.engine.errors import InputTypeError, ParameterError


class _Params(dict):
    """The game's params: a house rule at its standard value is not stored (so it is not saved,
    compared or shown), but reading it gives that standard value (``params["ties"] == "lose"``)."""

    def __missing__(self, key: str) -> Any:
        for p in RideTheBusGame.PARAMS:
            if p.name == key and key in RideTheBusGame.HOUSE_RULES:
                return p.default
        raise KeyError(key)


class RideTheBusGame(Game):
    """Ride the Bus with its table settings.

    Args:
        players (int): 2–8 in classic mode, 1–8 in the solo gauntlet (RTB-SETUP-PLAYERS).
        board (str): ``"pyramid"`` (default) or ``"give_and_take"`` (RTB-GT-*).
        row_points (str): ``"escalating"`` (default: 1–4 points per card by row) or ``"flat"``
            (1 point per card) (RTB-P-POINTS).
        bus (str): ``"higher_lower"`` (default) or ``"questions"`` (RTB-QB-*).
        streak (int): hits in a row that end the bus, 3–7, default 5 (RTB-B-END).
        mode (str): ``"classic"`` (default) or ``"gauntlet"`` (RTB-SG-*: Part 1, then 10 rides each;
            ``board``, ``row_points`` and ``bus`` must stay at their defaults).

    House rules (RTB-HR-*; the defaults are the base rules, and every exact figure of
    :mod:`.odds` follows them):

        ties (str): ``"lose"`` (default) or ``"win"``: the same rank is right for higher and for
            lower, on question 2, the bus and the gauntlet's rides (RTB-HR-TIES).
        inside (str): ``"strict"`` (default) or ``"inclusive"``: a card matching either of the
            first two ranks counts as inside, on question 3 and the questions bus (RTB-HR-INSIDE).
        aces (str): ``"high"`` (default) or ``"low"``: A below 2, K highest (RTB-HR-ACES).
        pyramid_order (str): ``"bottom_up"`` (default) or ``"top_down"``: the top card first,
            each row keeping its points (RTB-HR-FLIP). Only on the pyramid board in classic mode:
            the Give & Take board and the gauntlet have no pyramid, so a non-default value there is
            refused.
        played_cards (str): ``"leave"`` (default) or ``"stay"``: a card played in Part 2 stays in
            its row and plays again on every later flip of its rank (RTB-HR-STAY). Only in classic
            mode (either board): the gauntlet has no Part 2, so ``"stay"`` is refused there.

    A house rule at its standard value is not stored in :attr:`params` (so ``load_game("ride_the_bus")``
    has the same params, equality, ``repr`` and saved records as before these options existed), but
    ``params["ties"]`` still reads ``"lose"``; :meth:`house_rules` gives all five.

    Raises:
        ParameterError: unknown name or a value outside the allowed ones.
    """

    name = "ride_the_bus"
    title = "Ride the Bus"
    lower_score_wins = True  # RTB-SCORE-LOW
    ENCODING = "bus_lab.games.ride_the_bus.encoding"
    POSITIONS = "bus_lab.games.ride_the_bus.positions"
    PARAMS = (
        Param("players", 4, "number of players (2-8; solo gauntlet 1-8)", bounds=(1, 8)),
        Param("board", "pyramid", "Part 2 board", choices=("pyramid", "give_and_take")),
        Param("row_points", "escalating", "points per card by row", choices=("escalating", "flat")),
        Param("bus", "higher_lower", "Part 3 bus", choices=("higher_lower", "questions")),
        Param("streak", 5, "hits in a row to get off the bus", bounds=(3, 7)),
        Param("mode", "classic", "classic game or solo gauntlet", choices=("classic", "gauntlet")),
        Param("ties", "lose", "a card of the same rank on higher/lower", choices=("lose", "win")),
        Param("inside", "strict", "a card matching the first two ranks", choices=("strict", "inclusive")),
        Param("aces", "high", "where aces rank", choices=("high", "low")),
        Param("pyramid_order", "bottom_up", "pyramid flip order", choices=("bottom_up", "top_down")),
        Param("played_cards", "leave", "cards played in Part 2", choices=("leave", "stay")),
    )

    #: The house rules (RTB-HR-*), by option name.
    HOUSE_RULES = ("ties", "inside", "aces", "pyramid_order", "played_cards")

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        defaults = {p.name: p.default for p in self.PARAMS}
        kept = {k: v for k, v in self.params.items() if k not in self.HOUSE_RULES or v != defaults[k]}
        self.params = _Params(kept)

    def house_rules(self) -> dict[str, str]:
        """All five house rules in force, standard ones included, e.g. ``{"ties": "lose", "inside":
        "strict", "aces": "high", "pyramid_order": "bottom_up", "played_cards": "leave"}``."""
        defaults = {p.name: p.default for p in self.PARAMS}
        return {name: self.params.get(name, defaults[name]) for name in self.HOUSE_RULES}

    def _check_params(self, values: dict[str, Any]) -> None:
        if values["mode"] == "gauntlet":
            defaults = {p.name: p.default for p in self.PARAMS}
            clash = [k for k in ("board", "row_points", "bus") if values[k] != defaults[k]]
            if clash:
                raise ParameterError(
                    f"{', '.join(f'{k}={values[k]!r}' for k in clash)} does not apply in mode='gauntlet': the "
                    f"gauntlet has no Part 2 and always rides higher/lower; leave it at its default (RTB-SG-FLOW)"
                )
            house = [k for k in ("pyramid_order", "played_cards") if values[k] != defaults[k]]
            if house:
                raise ParameterError(
                    f"{', '.join(f'{k}={values[k]!r}' for k in house)} does not apply in mode='gauntlet': the "
                    "gauntlet has no Part 2, so no card is flipped on a pyramid or played from a row; leave it "
                    "at its default (RTB-SG-FLOW, RTB-HR-FLIP, RTB-HR-STAY)"
                )
            return
        if values["board"] == "give_and_take" and values["pyramid_order"] != "bottom_up":
            raise ParameterError(
                f"pyramid_order={values['pyramid_order']!r} does not apply with board='give_and_take': that "
                "board has no pyramid (its spots are played in order, RTB-GT-LAYOUT); leave it at "
                "'bottom_up' (RTB-HR-FLIP)"
            )
        if values["mode"] != "classic":
            return
        players = values["players"]
        is_int = isinstance(players, int) and not isinstance(players, bool)
        if is_int and players == 1:
            raise ParameterError(
                "players=1 is not allowed in classic mode: use an integer from 2 to 8 "
                "(one player needs mode='gauntlet') (RTB-SETUP-PLAYERS)"
            )
        if not is_int or not 2 <= players <= 8:
            problem = "is out of range" if is_int else "is not allowed"
            raise ParameterError(
                f"players={players!r} {problem} in classic mode: use an integer from 2 to 8 "
                "(RTB-SETUP-PLAYERS)"
            )

    def check_scripted_deck(self, labels: list) -> list[int]:
        """The card actions of a scripted deck, checked before the game starts.

        Each entry is a card in any spelling a label accepts (``"10H"``, ``"TH"``, ``"10♥"``,
        ``"th"``, ``"ten of hearts"``). The first 52 entries are dealt from one full deck, so no
        card may come twice among them; later entries are drawn after a reshuffle of the discard
        pile (RTB-DECK-EMPTY), where whether a card can come up depends on the play, so they are
        checked when they are dealt.

        Args:
            labels (list[str]): the scripted cards, in the order they are to come up.

        Returns:
            list[int]: the card action of each entry, in order.

        Raises:
            InputTypeError: an entry is not a string.
            ParameterError: an entry is not a card (``"ZZ"``), or repeats a card among the first
                52; the message names the entry and its position (counted from 0).
        """
        from bus_lab.games.ride_the_bus.cards import DECK, card_code
        from bus_lab.games.ride_the_bus.moves import fold_label, is_card, normalize_label, parse_label

        actions: list[int] = []
        first_at: dict[int, int] = {}
        for position, label in enumerate(labels):
            if not isinstance(label, str):
                raise InputTypeError(
                    f"scripted deck entry #{position} {label!r} is not a card label: use a string such as '7H'"
                )
            action = parse_label(normalize_label(fold_label(label)))
            if action is None or not is_card(action):
                raise ParameterError(
                    f"scripted deck entry #{position} {label!r} is not a card: use rank 2-10, J, Q, K, A "
                    "then suit C, D, H, S or its symbol (e.g. '7H', '10♦', 'TD')"
                )
            if position < len(DECK):
                if action in first_at:
                    raise ParameterError(
                        f"scripted deck entry #{position} {label!r} repeats entry #{first_at[action]} "
                        f"({card_code(action)}): one 52-card deck has each card once (RTB-SETUP-DECK)"
                    )
                first_at[action] = position
            actions.append(action)
        return actions

    def utility_sum(self) -> float | None:
        """1 (the win is shared among the winners), except for a lone gauntlet rider, who wins
        (1) or not (0) (RTB-SG-WIN)."""
        if self.params["mode"] == "gauntlet" and self.num_players == 1:
            return None
        return 1.0

    @property
    def state_class(self):  # type: ignore[override]
        from bus_lab.games.ride_the_bus.state import RideTheBusState

        return RideTheBusState

    def policies(self) -> dict[str, Callable]:
        """Bots: ``"random"`` (any legal move) and ``"best_odds"`` (the guess most likely to be
        right; points go to the current leader)."""
        from bus_lab.games.ride_the_bus.policies import best_odds_policy, random_policy

        return {"random": random_policy, "best_odds": best_odds_policy}
