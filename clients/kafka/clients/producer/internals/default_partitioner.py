"""Port of clients/src/main/java/org/apache/kafka/clients/producer/internals/DefaultPartitioner.java (Kafka 3.7).

The pre-KIP-794 default partitioner, deprecated: murmur2 of the key for keyed records, the
StickyPartitionCache for the rest. Leaving `partitioner.class` unset gives the better built-in logic.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from kafka.clients.producer.internals.built_in_partitioner import BuiltInPartitioner
from kafka.clients.producer.internals.sticky_partition_cache import StickyPartitionCache
from kafka.clients.producer.partitioner import Partitioner

if TYPE_CHECKING:
    from kafka.common.cluster import Cluster

__all__ = ["DefaultPartitioner"]


class DefaultPartitioner(Partitioner):
    """Key hash, or the topic's sticky partition for a null key."""

    def __init__(self) -> None:
        self._sticky_partition_cache = StickyPartitionCache()

    def configure(self, configs: Mapping[str, Any]) -> None:
        pass

    def partition(
        self,
        topic: str,
        key: Any,
        key_bytes: bytes | None,
        value: Any,
        value_bytes: bytes | None,
        cluster: Cluster,
        num_partitions: int | None = None,
    ) -> int:
        if num_partitions is None:
            num_partitions = len(cluster.partitions_for_topic(topic))
        if key_bytes is None:
            return self._sticky_partition_cache.partition(topic, cluster)
        return BuiltInPartitioner.partition_for_key(key_bytes, num_partitions)

    def close(self) -> None:
        pass

    def on_new_batch(self, topic: str, cluster: Cluster, prev_partition: int) -> None:
        self._sticky_partition_cache.next_partition(topic, cluster, prev_partition)
