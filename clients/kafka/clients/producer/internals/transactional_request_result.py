"""Port of clients/src/main/java/org/apache/kafka/clients/producer/internals/TransactionalRequestResult.java
(Kafka 3.7).

The outcome of a request the TransactionManager sends on the user's behalf (InitProducerId here),
which a caller may wait for.
"""

from __future__ import annotations

import threading

from kafka.common.errors import TimeoutException

__all__ = ["TransactionalRequestResult"]


class TransactionalRequestResult:
    """A latch plus the error, if the request failed."""

    def __init__(self, operation: str) -> None:
        self._latch = threading.Event()
        self._error: BaseException | None = None
        self._operation = operation
        self._is_acked = False

    def fail(self, error: BaseException) -> None:
        self._error = error
        self._latch.set()

    def done(self) -> None:
        self._latch.set()

    def await_(self, timeout_ms: int | None = None) -> None:
        """Waits for the outcome (at most `timeout_ms`) and raises the request's error, if any."""
        if not self._latch.wait(None if timeout_ms is None else max(0, timeout_ms) / 1000):
            raise TimeoutException(f"Timeout expired after {timeout_ms}ms while awaiting {self._operation}")
        self._is_acked = True
        if self._error is not None:
            raise self._error

    def error(self) -> BaseException | None:
        return self._error

    def is_successful(self) -> bool:
        return self.is_completed() and self._error is None

    def is_completed(self) -> bool:
        return self._latch.is_set()

    def is_acked(self) -> bool:
        return self._is_acked
