"""Helpers for tests, as Kafka's TestUtils: waiting on a condition instead of sleeping; both paths of an optional
compiled module."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest


def wait_until_true(condition: Callable[[], bool], msg: str, timeout: float = 15.0, pause: float = 0.05) -> None:
    """Polls `condition` until it is true; fails with `msg` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        if condition():
            return
        if time.monotonic() >= deadline:
            raise AssertionError(f"Condition not met within {timeout} s: {msg}")
        time.sleep(pause)


def compiled_or_python(
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
    compiled: object,
    extension: str,
    *python: tuple[object, str],
) -> str:
    """For a fixture parametrised over ["compiled", "python"]: the compiled case is skipped where the optional
    `extension` is not built (`compiled`, what the code under test loaded from it, is None), and the python case sets
    each (module, attribute) of `python` to None, which sends the code down its Python path. Returns the case."""
    if request.param == "compiled":
        if compiled is None:
            pytest.skip(f"the optional {extension} extension is not built")
    else:
        for module, name in python:
            monkeypatch.setattr(module, name, None)
    return str(request.param)
