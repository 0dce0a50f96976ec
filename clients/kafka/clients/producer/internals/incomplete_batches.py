"""Port of clients/src/main/java/org/apache/kafka/clients/producer/internals/IncompleteBatches.java (Kafka 3.7).

The batches not yet acknowledged (queued or in flight), so that flush() can wait for them and a forced
close can fail them.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kafka.clients.producer.internals.produce_request_result import ProduceRequestResult
    from kafka.clients.producer.internals.producer_batch import ProducerBatch

__all__ = ["IncompleteBatches"]


class IncompleteBatches:
    """A thread-safe set of batches (kept in insertion order)."""

    def __init__(self) -> None:
        self._incomplete: dict[ProducerBatch, None] = {}
        self._lock = threading.Lock()

    def add(self, batch: ProducerBatch) -> None:
        with self._lock:
            self._incomplete[batch] = None

    def remove(self, batch: ProducerBatch) -> None:
        with self._lock:
            if self._incomplete.pop(batch, _MISSING) is _MISSING:
                raise RuntimeError("Remove from the incomplete set failed. This should be impossible.")

    def copy_all(self) -> list[ProducerBatch]:
        with self._lock:
            return list(self._incomplete)

    def request_results(self) -> list[ProduceRequestResult]:
        """The results of the batches incomplete now (what flush waits for)."""
        with self._lock:
            return [batch.produce_future for batch in self._incomplete]

    def is_empty(self) -> bool:
        with self._lock:
            return not self._incomplete


_MISSING = object()
