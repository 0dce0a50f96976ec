"""Port of clients/src/main/java/org/apache/kafka/common/replica/ReplicaSelector.java (Kafka 2.8).

The plug-in (`replica.selector.class`) a leader asks which replica a consumer should fetch from. It is configured
with the broker's configuration and closed when the broker shuts down.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any

from kafka.common.replica.client_metadata import ClientMetadata
from kafka.common.replica.partition_view import PartitionView
from kafka.common.replica.replica_view import ReplicaView
from kafka.common.topic_partition import TopicPartition


class ReplicaSelector(ABC):
    @abstractmethod
    def select(
        self, topic_partition: TopicPartition, client_metadata: ClientMetadata, partition_view: PartitionView
    ) -> ReplicaView | None:
        """The replica the client should fetch from, or None if no replica is available."""

    def configure(self, configs: Mapping[str, Any]) -> None:  # noqa: B027 - Java's default method does nothing
        pass

    def close(self) -> None:  # noqa: B027 - Java's default method does nothing
        pass
