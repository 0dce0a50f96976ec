"""Port of clients/src/main/java/org/apache/kafka/common/requests/FetchResponse.java (Kafka 3.7).

The records of each fetched partition with its high watermark, last stable offset, log start offset,
aborted transactions and preferred read replica; a top-level error and the fetch session id (v7+).
Record sets are written as they are (FileRecords slices stay zero-copy parts of the send).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from kafka.common.message import FetchResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.topic_id_partition import TopicIdPartition

INVALID_HIGH_WATERMARK = -1
INVALID_LAST_STABLE_OFFSET = -1
INVALID_LOG_START_OFFSET = -1
INVALID_PREFERRED_REPLICA_ID = -1


class FetchResponse(AbstractResponse):
    API_KEY = ApiKeys.FETCH
    CLIENT_THROTTLE_SINCE = 8
    INVALID_HIGH_WATERMARK = INVALID_HIGH_WATERMARK

    def __init__(self, data: Any) -> None:
        super().__init__(data)
        self._response_data: dict[tuple[str, int], Any] | None = None

    def error(self) -> Errors:
        return Errors.for_code(self._data.error_code)

    def session_id(self) -> int:
        return int(self._data.session_id)

    def response_data(self, topic_names: Mapping[Any, str], version: int) -> dict[tuple[str, int], Any]:
        """Partition data keyed by (topic, partition) in response order; from v13 topics are named through
        `topic_names` (by id) and topics with an unknown id are left out."""
        result = self._response_data
        if result is None:
            result = {}
            for topic in self._data.responses:
                name = topic.topic if version < 13 else topic_names.get(topic.topic_id)
                if name is not None:
                    for partition in topic.partitions:
                        result[(name, partition.partition_index)] = partition
            self._response_data = result
        return result

    def error_counts(self) -> dict[Errors, int]:
        counts: dict[Errors, int] = {}
        self._update_error_counts(counts, self.error())
        for topic in self._data.responses:
            for partition in topic.partitions:
                self._update_error_counts(counts, Errors.for_code(partition.error_code))
        return counts

    @staticmethod
    def partition_response(partition: int, error: Errors) -> Any:
        """The partition data that reports only `error`."""
        return FetchResponseData.PartitionData(
            partition_index=partition, error_code=error.code, high_watermark=INVALID_HIGH_WATERMARK
        )

    @staticmethod
    def is_preferred_replica(partition_response: Any) -> bool:
        return bool(partition_response.preferred_read_replica != INVALID_PREFERRED_REPLICA_ID)

    @staticmethod
    def records_or_fail(partition: Any) -> Any:
        """The partition's records; an empty record set when it has none."""
        records = partition.records
        if records is None:
            from kafka.common.record.memory_records import MemoryRecords

            empty = getattr(MemoryRecords, "EMPTY", None)
            return empty if empty is not None else MemoryRecords.readable_records(b"")
        return records

    @staticmethod
    def records_size(partition: Any) -> int:
        records = partition.records
        if records is None:
            return 0
        if isinstance(records, (bytes, bytearray, memoryview)):
            return len(records)
        return int(records.size_in_bytes())

    @classmethod
    def of(
        cls,
        error: Errors,
        throttle_time_ms: int,
        session_id: int,
        response_data: Mapping[TopicIdPartition, Any],
        node_endpoints: Iterable[Any] = (),
    ) -> FetchResponse:
        """The response for partition data keyed by TopicIdPartition. Consecutive partitions of the same topic are
        grouped, so the input order is kept."""
        return cls(_to_message(error, throttle_time_ms, session_id, response_data.items(), node_endpoints))

    @staticmethod
    def size_of(version: int, partitions: Iterable[tuple[TopicIdPartition, Any]]) -> int:
        """The size of a response with these partitions, including the 4-byte frame size."""
        data = _to_message(Errors.NONE, 0, 0, partitions, ())
        return 4 + int(data.size(version))


def _to_message(
    error: Errors,
    throttle_time_ms: int,
    session_id: int,
    partitions: Iterable[tuple[TopicIdPartition, Any]],
    node_endpoints: Iterable[Any],
) -> Any:
    topics: list[Any] = []
    for tip, partition_data in partitions:
        topic_id = tip.topic_id
        tp = tip.topic_partition
        topic = tp.topic
        partition_data.partition_index = tp.partition
        previous = topics[-1] if topics else None
        if previous is not None and previous.topic == topic and previous.topic_id == topic_id:
            previous.partitions.append(partition_data)
        else:
            topics.append(
                FetchResponseData.FetchableTopicResponse(topic=topic, topic_id=topic_id, partitions=[partition_data])
            )
    data = FetchResponseData(throttle_time_ms=throttle_time_ms, error_code=error.code, session_id=session_id)
    data.responses = topics
    for node in node_endpoints:
        data.node_endpoints.append(
            FetchResponseData.NodeEndpoint(node_id=node.id, host=node.host, port=node.port, rack=node.rack)
        )
    return data
