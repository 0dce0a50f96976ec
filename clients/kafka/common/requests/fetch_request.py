"""Port of clients/src/main/java/org/apache/kafka/common/requests/FetchRequest.java (Kafka 3.7).

Fetch: from consumers and follower replicas, the partitions and offsets to read, how long to wait for
how many bytes, the isolation level, and the fetch session (v7+). From v13 topics are named by id;
from v15 a follower's id and epoch travel in ReplicaState instead of ReplicaId.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kafka.common.isolation_level import IsolationLevel
from kafka.common.message import FetchResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.fetch_metadata import FetchMetadata
from kafka.common.requests.fetch_response import FetchResponse
from kafka.common.topic_id_partition import TopicIdPartition

CONSUMER_REPLICA_ID = -1
DEFAULT_RESPONSE_MAX_BYTES = 2**31 - 1
INVALID_LOG_START_OFFSET = -1
ORDINARY_CONSUMER_ID = -1
DEBUGGING_CONSUMER_ID = -2
FUTURE_LOCAL_REPLICA_ID = -3


@dataclass(frozen=True, slots=True)
class PartitionData:
    """What a fetch asks of one partition (Java's FetchRequest.PartitionData); absent epochs are None."""

    topic_id: Any
    fetch_offset: int
    log_start_offset: int
    max_bytes: int
    current_leader_epoch: int | None
    last_fetched_epoch: int | None = None


def _optional_epoch(raw: int) -> int | None:
    return None if raw < 0 else raw


class FetchRequest(AbstractRequest[FetchResponse]):
    API_KEY = ApiKeys.FETCH

    def __init__(self, data: Any, version: int) -> None:
        super().__init__(data, version)
        self._metadata = FetchMetadata(data.session_id, data.session_epoch)
        self._fetch_data: dict[TopicIdPartition, PartitionData] | None = None
        self._to_forget: list[TopicIdPartition] | None = None

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> FetchResponse:
        # Before v13 the error is repeated in every partition, for clients that only read partition errors;
        # from v13 the top-level error code alone says it.
        error = Errors.for_exception(e)
        topics = []
        if self._version < 13:
            for topic in self._data.topics:
                topics.append(
                    FetchResponseData.FetchableTopicResponse(
                        topic=topic.topic,
                        topic_id=topic.topic_id,
                        partitions=[FetchResponse.partition_response(p.partition, error) for p in topic.partitions],
                    )
                )
        return FetchResponse(
            FetchResponseData(
                throttle_time_ms=throttle_time_ms,
                error_code=error.code,
                session_id=self._data.session_id,
                responses=topics,
            )
        )

    @staticmethod
    def replica_id_of(data: Any) -> int:
        """The replica id of request data at any version (ReplicaId before v15, ReplicaState after)."""
        return int(data.replica_id) if data.replica_id != -1 else int(data.replica_state.replica_id)

    def replica_id(self) -> int:
        if self._version < 15:
            return int(self._data.replica_id)
        return int(self._data.replica_state.replica_id)

    def replica_epoch(self) -> int:
        return int(self._data.replica_state.replica_epoch)

    def max_wait(self) -> int:
        return int(self._data.max_wait_ms)

    def min_bytes(self) -> int:
        return int(self._data.min_bytes)

    def max_bytes(self) -> int:
        return int(self._data.max_bytes)

    def fetch_data(self, topic_names: Mapping[Any, str]) -> dict[TopicIdPartition, PartitionData]:
        """The partitions to fetch keyed by TopicIdPartition, in request order. From v13 names are looked up by
        id in `topic_names` (None for an unknown id)."""
        result = self._fetch_data
        if result is None:
            result = {}
            for topic in self._data.topics:
                name = topic.topic if self._version < 13 else topic_names.get(topic.topic_id)
                for p in topic.partitions:
                    result[TopicIdPartition.of(topic.topic_id, p.partition, name)] = PartitionData(
                        topic.topic_id,
                        p.fetch_offset,
                        p.log_start_offset,
                        p.partition_max_bytes,
                        _optional_epoch(p.current_leader_epoch),
                        _optional_epoch(p.last_fetched_epoch),
                    )
            self._fetch_data = result
        return result

    def forgotten_topics(self, topic_names: Mapping[Any, str]) -> list[TopicIdPartition]:
        """The partitions to drop from the fetch session (named as in `fetch_data`)."""
        result = self._to_forget
        if result is None:
            result = []
            for topic in self._data.forgotten_topics_data:
                name = topic.topic if self._version < 13 else topic_names.get(topic.topic_id)
                result.extend(TopicIdPartition.of(topic.topic_id, p, name) for p in topic.partitions)
            self._to_forget = result
        return result

    def is_from_follower(self) -> bool:
        return self.replica_id() >= 0

    def isolation_level(self) -> IsolationLevel:
        return IsolationLevel.for_id(self._data.isolation_level)

    def metadata(self) -> FetchMetadata:
        return self._metadata

    def rack_id(self) -> str:
        return str(self._data.rack_id)

    @staticmethod
    def is_valid_broker_id(broker_id: int) -> bool:
        return broker_id >= 0

    @staticmethod
    def is_consumer(replica_id: int) -> bool:
        return replica_id < 0 and replica_id != FUTURE_LOCAL_REPLICA_ID

    @staticmethod
    def describe_replica_id(replica_id: int) -> str:
        if replica_id == ORDINARY_CONSUMER_ID:
            return "consumer"
        if replica_id == DEBUGGING_CONSUMER_ID:
            return "debug consumer"
        if replica_id == FUTURE_LOCAL_REPLICA_ID:
            return "future local replica"
        if replica_id >= 0:
            return f"replica [{replica_id}]"
        return f"invalid replica [{replica_id}]"
