"""Port of clients/src/main/java/org/apache/kafka/clients/producer/RoundRobinPartitioner.java (Kafka 3.7).

Spreads records over the available partitions of a topic one after another, whatever their keys.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from kafka.clients.producer.partitioner import Partitioner
from kafka.common.utils.utils import to_positive

if TYPE_CHECKING:
    from kafka.common.cluster import Cluster

__all__ = ["RoundRobinPartitioner"]


class RoundRobinPartitioner(Partitioner):
    """A per-topic counter modulo the number of available partitions (all partitions when none is available).

    As in Java, the producer calls `partition` a second time when a record starts a new batch
    (abortOnNewBatch), which skips a partition then (KAFKA-9965).
    """

    def __init__(self) -> None:
        self._topic_counter_map: dict[str, int] = {}
        self._lock = threading.Lock()

    def configure(self, configs: Mapping[str, Any]) -> None:
        pass

    def partition(
        self, topic: str, key: Any, key_bytes: bytes | None, value: Any, value_bytes: bytes | None, cluster: Cluster
    ) -> int:
        next_value = self._next_value(topic)
        available_partitions = cluster.available_partitions_for_topic(topic)
        if available_partitions:
            part = to_positive(next_value) % len(available_partitions)
            return available_partitions[part].partition
        num_partitions = len(cluster.partitions_for_topic(topic))
        return to_positive(next_value) % num_partitions

    def _next_value(self, topic: str) -> int:
        # Java's AtomicInteger.getAndIncrement: the counter wraps from 2^31 - 1 to -2^31.
        with self._lock:
            n = self._topic_counter_map.get(topic, 0)
            self._topic_counter_map[topic] = -(2**31) if n == 2**31 - 1 else n + 1
        return n

    def close(self) -> None:
        pass
