"""Port of clients/src/main/java/org/apache/kafka/clients/producer/UniformStickyPartitioner.java (Kafka 3.7).

Sends every record, keyed or not, to one sticky partition per topic until a new batch starts
(KIP-480). Deprecated in Java since KIP-794: `partitioner.ignore.keys=true` with the built-in
partitioner does the same better.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from kafka.clients.producer.internals.sticky_partition_cache import StickyPartitionCache
from kafka.clients.producer.partitioner import Partitioner

if TYPE_CHECKING:
    from kafka.common.cluster import Cluster

__all__ = ["UniformStickyPartitioner"]


class UniformStickyPartitioner(Partitioner):
    """The sticky partition of the topic, ignoring keys."""

    def __init__(self) -> None:
        self._sticky_partition_cache = StickyPartitionCache()

    def configure(self, configs: Mapping[str, Any]) -> None:
        pass

    def partition(
        self, topic: str, key: Any, key_bytes: bytes | None, value: Any, value_bytes: bytes | None, cluster: Cluster
    ) -> int:
        return self._sticky_partition_cache.partition(topic, cluster)

    def close(self) -> None:
        pass

    def on_new_batch(self, topic: str, cluster: Cluster, prev_partition: int) -> None:
        self._sticky_partition_cache.next_partition(topic, cluster, prev_partition)
