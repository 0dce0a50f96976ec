"""Port of clients/src/main/java/org/apache/kafka/clients/producer/internals/StickyPartitionCache.java (Kafka 3.7).

The sticky partition of each topic for the deprecated DefaultPartitioner and UniformStickyPartitioner
(KIP-480): records without a key all go to one partition until a new batch is started there.
"""

from __future__ import annotations

import random
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kafka.common.cluster import Cluster

__all__ = ["StickyPartitionCache"]


class StickyPartitionCache:
    """topic -> current sticky partition; changed only by the caller that saw the old one."""

    def __init__(self) -> None:
        self._index_cache: dict[str, int] = {}
        self._lock = threading.Lock()

    def partition(self, topic: str, cluster: Cluster) -> int:
        """The sticky partition of `topic`, choosing one the first time."""
        part = self._index_cache.get(topic)
        if part is None:
            return self.next_partition(topic, cluster, -1)
        return part

    def next_partition(self, topic: str, cluster: Cluster, prev_partition: int) -> int:
        """Moves `topic` to another random available partition if its sticky partition is still `prev_partition`."""
        partitions = cluster.partitions_for_topic(topic)
        old_part = self._index_cache.get(topic)
        new_part = old_part
        # Only the first caller to report a new batch on the current sticky partition moves it.
        if old_part is None or old_part == prev_partition:
            available_partitions = cluster.available_partitions_for_topic(topic)
            if len(available_partitions) < 1:
                new_part = _random_positive() % len(partitions)
            elif len(available_partitions) == 1:
                new_part = available_partitions[0].partition
            else:
                while new_part is None or new_part == old_part:
                    new_part = available_partitions[_random_positive() % len(available_partitions)].partition
            with self._lock:
                if old_part is None:
                    self._index_cache.setdefault(topic, new_part)
                elif self._index_cache.get(topic) == prev_partition:
                    self._index_cache[topic] = new_part
                return self._index_cache[topic]
        return self._index_cache[topic]


def _random_positive() -> int:
    # Utils.toPositive(ThreadLocalRandom.nextInt()): uniform over [0, 2^31).
    return random.getrandbits(31)
