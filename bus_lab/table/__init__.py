"""``bus_lab.table``: class tables that a teacher hosts and students join from a browser.

The names are imported on first use (the server's modules need Starlette and uvicorn only
when a server runs)::

    from bus_lab.table import Hub, Table, Limits, TableError
    from bus_lab.table import TableServer, serve     # the server (runner)
    from bus_lab.table import TableHost              # the notebook widget
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "HostOnlyError",
    "Hub",
    "Limits",
    "NotYourTurnError",
    "SeatInfo",
    "StaleMoveError",
    "Table",
    "TableClosedError",
    "TableError",
    "TableFullError",
    "TableHost",
    "TableServer",
    "UnknownTableError",
    "serve",
]

#: Where each public name lives (module inside this package).
_WHERE = {
    "Hub": "hub",
    "Limits": "limits",
    "Table": "table",
    "SeatInfo": "table",
    "TableError": "table",
    "UnknownTableError": "table",
    "TableFullError": "table",
    "NotYourTurnError": "table",
    "StaleMoveError": "table",
    "TableClosedError": "table",
    "HostOnlyError": "table",
    "TableServer": "runner",
    "serve": "runner",
    "TableHost": "host_widget",
}


def __getattr__(name: str) -> Any:
    """Import a public name on first use (``from bus_lab.table import Hub``).

    Raises:
        AttributeError: not a public name of the package.
    """
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'bus_lab.table' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
