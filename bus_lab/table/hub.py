"""``Hub``: the tables of one server, their limits, and closing the idle ones.

Like :class:`~bus_lab.table.table.Table`, a hub is plain synchronous Python, called only on the
server's event loop (or in tests with no server at all).
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from bus_lab.table.codes import new_code, new_secret, normalize_code
from bus_lab.table.limits import DEFAULT_LIMITS, Limits
from bus_lab.table.table import Table, TableError, UnknownTableError

__all__ = ["Hub"]

#: The window of :meth:`Hub.note_failed_join`, in seconds.
FAILED_JOIN_WINDOW_S = 60.0
#: Client addresses whose failed joins are remembered at most (the oldest are forgotten first).
MAX_ADDRESSES = 10_000


class Hub:
    """The tables of one server.

    Args:
        limits (Limits): the limits of the hub and its tables.
        clock (Callable[[], float]): the clock, in seconds (:func:`time.monotonic`).
        pace_s (float | None): seconds between automatic steps; ``None``: ``limits.pace_s``.

    Attributes:
        host_key (str): the host's secret (a host page sends it to act as host); never in a frame.
        tables (dict[str, Table]): the tables by join code (closed ones are removed by
            :meth:`sweep`).
        limits (Limits). pace_s (float).
    """

    def __init__(
        self,
        limits: Limits = DEFAULT_LIMITS,
        clock: Callable[[], float] = time.monotonic,
        pace_s: float | None = None,
    ) -> None:
        self.limits = limits
        self.clock = clock
        self.pace_s: float = limits.pace_s if pace_s is None else float(pace_s)
        if self.pace_s < 0:
            raise ValueError(f"pace_s={pace_s} is negative: use seconds from 0")
        self.host_key = new_secret()
        self.tables: dict[str, Table] = {}
        self._failed: dict[str, deque[float]] = {}

    def create_table(
        self,
        game: str = "ride_the_bus",
        options: dict[str, Any] | None = None,
        people: list[bool] | None = None,
        bot: str = "best_odds",
        seed: int | None = None,
    ) -> Table:
        """A new table in its lobby, with a fresh join code (arguments as :class:`Table`).

        Raises:
            TableError: ``limits.max_tables`` tables are open already, or the game settings are
                refused (unknown game, bad options).
        """
        open_tables = sum(1 for t in self.tables.values() if t.phase != "closed")
        if open_tables >= self.limits.max_tables:
            raise TableError(
                f"this server already has {open_tables} tables open (the most it takes): close one first"
            )
        code = new_code(self.tables)
        table = Table(
            code,
            game=game,
            options=options,
            people=people,
            bot=bot,
            seed=seed,
            limits=self.limits,
            clock=self.clock,
        )
        self.tables[code] = table
        return table

    def table(self, code_text: str) -> Table:
        """The open table whose code was typed (read forgivingly: case, spaces, dashes).

        Raises:
            UnknownTableError: not a well-formed code, or no open table has it.
        """
        code = normalize_code(code_text)
        table = None if code is None else self.tables.get(code)
        if table is None or table.phase == "closed":
            raise UnknownTableError("no table has that code: check the code on the board")
        return table

    async def drive(self, table: Table) -> int:
        """Take the table's automatic steps (cards drawn, bots' moves) at the hub's pace: wait
        :attr:`pace_s`, take one step, call :meth:`Table.changed`, again while
        :meth:`Table.next_automatic`. With a pace of 0 every step is taken at once and the table
        changes once. Run it on the server's loop as one task per table, started after every
        move or host command (a pause, a hold or a person's turn stops it).

        Args:
            table (Table): the table to drive.

        Returns:
            int: the steps taken.
        """
        if self.pace_s <= 0:
            taken = table.run_automatic()
            if taken:
                table.changed()
            return taken
        taken = 0
        while table.next_automatic():
            await asyncio.sleep(self.pace_s)
            if not table.advance():  # paused, held or ended while waiting
                break
            table.changed()
            taken += 1
        return taken

    def sweep(self) -> list[str]:
        """Close the tables idle too long and forget closed ones: a lobby idle for
        ``lobby_idle_close_s``, a game idle for ``idle_close_s``, a game over for
        ``ended_close_s``. Each table closed here gets :meth:`Table.changed` (its pages are told).

        Returns:
            list[str]: the codes closed now.
        """
        now = self.clock()
        closed = []
        for code, table in list(self.tables.items()):
            if table.phase == "closed":
                del self.tables[code]
                continue
            idle = now - table.last_activity
            if table.phase == "lobby":
                stale = idle >= self.limits.lobby_idle_close_s
            elif table.phase == "over":
                ended = table.ended_at if table.ended_at is not None else table.last_activity
                stale = now - ended >= self.limits.ended_close_s or idle >= self.limits.idle_close_s
            else:
                stale = idle >= self.limits.idle_close_s
            if stale:
                table.close()
                table.notice = "This table was closed after a long time without play."
                table.changed()
                del self.tables[code]
                closed.append(code)
        cutoff = now - FAILED_JOIN_WINDOW_S
        for address, times in list(self._failed.items()):
            while times and times[0] <= cutoff:
                times.popleft()
            if not times:
                del self._failed[address]
        return closed

    def note_failed_join(self, address: str) -> bool:
        """Count a failed join (unknown code, bad token or key) from a client address.

        Args:
            address (str): the client's address (e.g. its IP).

        Returns:
            bool: False when that address has failed more than ``failed_joins_per_minute`` times
            within the last minute (refuse it), else True.
        """
        now = self.clock()
        times = self._failed.get(address)
        if times is None:
            if len(self._failed) >= MAX_ADDRESSES:
                del self._failed[next(iter(self._failed))]
            times = self._failed[address] = deque()
        while times and times[0] <= now - FAILED_JOIN_WINDOW_S:
            times.popleft()
        times.append(now)
        if len(times) > self.limits.failed_joins_per_minute + 1:
            times.popleft()  # keep the window small: only the count matters past the limit
        return len(times) <= self.limits.failed_joins_per_minute

    def joins_blocked(self, address: str) -> bool:
        """Whether ``address`` is over its failed-join limit now (without counting a new failure)."""
        times = self._failed.get(address)
        if not times:
            return False
        recent = sum(1 for t in times if t > self.clock() - FAILED_JOIN_WINDOW_S)
        return recent > self.limits.failed_joins_per_minute
