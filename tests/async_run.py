"""Running a coroutine from a test, whatever the test process already runs.

A browser test earlier in the same worker process leaves Playwright's event loop running in the
main thread, and ``asyncio.run`` refuses to start inside a running loop. :func:`run_async` runs the
coroutine on a fresh loop in a thread of its own, so a test gets the same result either way.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coroutine)`` in a new thread; returns its result or raises its exception."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()
