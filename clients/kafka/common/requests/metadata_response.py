"""Port of clients/src/main/java/org/apache/kafka/common/requests/MetadataResponse.java (Kafka 3.7).

Brokers, cluster id, controller id and per-topic partition metadata (leader, epoch, replicas, ISR,
offline replicas), with a per-topic and per-partition error.

PORT: Java's client-side views (Cluster, TopicMetadata, PartitionMetadata) are left to the client port.
"""

from __future__ import annotations

from typing import Any, Self

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import ZERO_UUID
from kafka.common.requests.abstract_response import AbstractResponse

NO_CONTROLLER_ID = -1
NO_LEADER_ID = -1
AUTHORIZED_OPERATIONS_OMITTED = -(2**31)


class MetadataResponse(AbstractResponse):
    API_KEY = ApiKeys.METADATA
    CLIENT_THROTTLE_SINCE = 6

    def __init__(self, data: Any, version: int | None = None, has_reliable_leader_epochs: bool | None = None) -> None:
        """Leader epochs are reliable from v9 (or as `has_reliable_leader_epochs` says)."""
        super().__init__(data)
        if has_reliable_leader_epochs is None:
            has_reliable_leader_epochs = version is not None and version >= 9
        self._has_reliable_leader_epochs = has_reliable_leader_epochs

    @classmethod
    def _from_data(cls, data: Any, version: int) -> Self:
        return cls(data, version)

    def errors(self) -> dict[str, Errors]:
        """The topics with an error, by name."""
        result = {}
        for topic in self._data.topics:
            if topic.name is None:
                raise RuntimeError("Use errors_by_topic_id() when managing topic using topic id")
            if topic.error_code != Errors.NONE.code:
                result[topic.name] = Errors.for_code(topic.error_code)
        return result

    def errors_by_topic_id(self) -> dict[Any, Errors]:
        result = {}
        for topic in self._data.topics:
            if topic.topic_id == ZERO_UUID:
                raise RuntimeError("Use errors() when managing topic using topic name")
            if topic.error_code != Errors.NONE.code:
                result[topic.topic_id] = Errors.for_code(topic.error_code)
        return result

    def error_counts(self) -> dict[Errors, int]:
        counts: dict[Errors, int] = {}
        for topic in self._data.topics:
            for partition in topic.partitions:
                self._update_error_counts(counts, Errors.for_code(partition.error_code))
            self._update_error_counts(counts, Errors.for_code(topic.error_code))
        return counts

    def topics_by_error(self, error: Errors) -> set[str]:
        return {t.name for t in self._data.topics if t.error_code == error.code}

    def topic_authorized_operations(self, topic_name: str) -> int | None:
        topic = self._data.topics.find(topic_name)
        return None if topic is None else int(topic.topic_authorized_operations)

    def cluster_authorized_operations(self) -> int:
        return int(self._data.cluster_authorized_operations)

    def cluster_id(self) -> str | None:
        return self._data.cluster_id

    def has_reliable_leader_epochs(self) -> bool:
        return self._has_reliable_leader_epochs
