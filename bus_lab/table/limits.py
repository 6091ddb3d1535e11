"""Every limit of the class table in one place, with its unit.

A :class:`Limits` is frozen: a hub and its tables share one. Tests and benchmarks make their own
(``Limits(pace_s=0)``, ``Limits(max_tables=2)``) with :func:`dataclasses.replace` or keywords.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_LIMITS", "Limits"]


@dataclass(frozen=True)
class Limits:
    """The limits of a hub and its tables.

    Attributes:
        max_tables (int): tables open at once on one hub.
        max_connections_per_table (int): websocket connections to one table at once (seats,
            projectors and hosts together).
        max_projectors_per_table (int): projector pages of one table at once (watching needs
            only the code, so they are capped apart: the seats and the host always find room).
        max_name_chars (int): characters kept of a person's name (longer names are cut).
        max_message_chars (int): characters of one message from a page (checked before parsing).
        rate_per_second (float): messages per second one connection may send on average.
        rate_burst (int): messages one connection may send at once before the rate applies.
        flood_close_after (int): refused messages within one minute before the socket is closed.
        hello_timeout_s (float): seconds a new connection has to send its first message.
        idle_close_s (float): seconds without any change after which a started table is closed.
        lobby_idle_close_s (float): seconds without any change after which a table still in its
            lobby is closed.
        ended_close_s (float): seconds after the game ended (phase ``"over"``) before the table
            is closed.
        failed_joins_per_minute (int): failed joins (unknown code, bad token) per client address
            per minute before that address is refused for a while. Behind a proxy (JupyterHub)
            a whole class shares one address, so it is generous: guessing one of 31**5 codes at
            this rate would still take years.
        pace_s (float): seconds between automatic steps (cards drawn, bots' moves) so people can
            follow them; 0 runs them all at once.
    """

    max_tables: int = 40
    max_connections_per_table: int = 60
    max_projectors_per_table: int = 8
    max_name_chars: int = 20
    max_message_chars: int = 2000
    rate_per_second: float = 8.0
    rate_burst: int = 30
    flood_close_after: int = 200
    hello_timeout_s: float = 10.0
    idle_close_s: float = 2 * 3600
    lobby_idle_close_s: float = 3600
    ended_close_s: float = 1800
    failed_joins_per_minute: int = 60
    pace_s: float = 0.7


#: The limits a hub or table uses when none are given.
DEFAULT_LIMITS = Limits()
