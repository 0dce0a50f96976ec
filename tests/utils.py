"""Helpers for tests, as Kafka's TestUtils: waiting on a condition instead of sleeping."""

from __future__ import annotations

import time
from collections.abc import Callable


def wait_until_true(condition: Callable[[], bool], msg: str, timeout: float = 15.0, pause: float = 0.05) -> None:
    """Polls `condition` until it is true; fails with `msg` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        if condition():
            return
        if time.monotonic() >= deadline:
            raise AssertionError(f"Condition not met within {timeout} s: {msg}")
        time.sleep(pause)
