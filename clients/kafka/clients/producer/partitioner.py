"""Port of clients/src/main/java/org/apache/kafka/clients/producer/Partitioner.java (Kafka 3.7).

The plug-in (`partitioner.class`) that picks a partition for each record. Without one the producer
uses its built-in logic (murmur2 of the key, or sticky partitions for records without a key).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kafka.common.cluster import Cluster

__all__ = ["Partitioner"]


class Partitioner(ABC):
    """Chooses the partition of a record from its key, value and the cluster's metadata."""

    def configure(self, configs: Mapping[str, Any]) -> None:
        """Receives the producer's settings once, before first use."""
        return None

    @abstractmethod
    def partition(
        self,
        topic: str,
        key: Any,
        key_bytes: bytes | None,
        value: Any,
        value_bytes: bytes | None,
        cluster: Cluster,
    ) -> int:
        """The partition for this record: a number from 0 to the topic's partition count - 1."""

    def close(self) -> None:
        """Called once when the producer closes."""
        return None

    def on_new_batch(self, topic: str, cluster: Cluster, prev_partition: int) -> None:
        """Told that a new batch is about to be created for `prev_partition` (deprecated in Java, still called)."""
        return None
