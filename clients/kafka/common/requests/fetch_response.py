"""Port of clients/src/main/java/org/apache/kafka/common/requests/FetchResponse.java (Kafka 3.7).

The records of each fetched partition with its high watermark, last stable offset, log start offset,
aborted transactions and preferred read replica; a top-level error and the fetch session id (v7+).
Record sets are written as they are (FileRecords slices stay zero-copy parts of the send).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from kafka.common.message import FetchResponseData
from kafka.common.message._runtime import records_size
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import ZERO_UUID
from kafka.common.protocol.types import size_of_unsigned_varint as _uvarint_size
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.topic_id_partition import TopicIdPartition

INVALID_HIGH_WATERMARK = -1
INVALID_LAST_STABLE_OFFSET = -1
INVALID_LOG_START_OFFSET = -1
INVALID_PREFERRED_REPLICA_ID = -1

_PartitionData = FetchResponseData.PartitionData
_EpochEndOffset = FetchResponseData.EpochEndOffset
_LeaderIdAndEpoch = FetchResponseData.LeaderIdAndEpoch
_SnapshotId = FetchResponseData.SnapshotId
# The highest version whose layout _fast_size_of knows (v13 names topics by id; v16 adds node endpoints, which a
# sized response never has).
_FAST_SIZE_MAX_VERSION = 16


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
        # PORT: Kafka builds the response message and sizes it through its writers. The fetch session sizes every
        # consumer Fetch (for the fetch quota) before the response is built and written, so partitions that carry
        # only fixed-size fields, records and aborted transactions are added up here from per-version constants
        # taken from the writers themselves; anything else (tagged fields, fields the version cannot carry, which
        # the writers reject, a missing topic name) is sized through the message as before.
        partitions = list(partitions)
        size = _fast_size_of(version, partitions)
        if size >= 0:
            return size
        data = _to_message(Errors.NONE, 0, 0, partitions, ())
        return 4 + int(data.size(version))


# version -> (empty response with its frame size, empty topic, partition without records or transactions)
_FIXED_SIZES: dict[int, tuple[int, int, int]] = {}


def _fixed_sizes(version: int) -> tuple[int, int, int]:
    sizes = _FIXED_SIZES.get(version)
    if sizes is None:
        sizes = _FIXED_SIZES[version] = (
            4 + int(FetchResponseData(responses=[]).size(version)),
            int(FetchResponseData.FetchableTopicResponse(topic="", topic_id=ZERO_UUID, partitions=[]).size(version)),
            int(FetchResponseData.PartitionData(aborted_transactions=None, records=None).size(version)),
        )
    return sizes


def _fast_size_of(version: int, partitions: list[tuple[TopicIdPartition, Any]]) -> int:
    """What `size_of` gives, added up without the writers; -1 when a partition needs them (see size_of)."""
    if version < 4 or version > _FAST_SIZE_MAX_VERSION:
        return -1
    flexible = version >= 12
    names = version < 13
    size, topic_size, partition_size = _fixed_sizes(version)
    aborted_size = 17 if flexible else 16
    topics = 0
    previous: tuple[Any, Any] | None = None
    in_topic = 0
    for tip, pd in partitions:
        if type(pd) is not _PartitionData or pd._unknown_tagged_fields:
            return -1
        d = pd.diverging_epoch
        if type(d) is not _EpochEndOffset or d.epoch != -1 or d.end_offset != -1 or d._unknown_tagged_fields:
            return -1
        c = pd.current_leader
        if type(c) is not _LeaderIdAndEpoch or c.leader_id != -1 or c.leader_epoch != -1 or c._unknown_tagged_fields:
            return -1
        snap = pd.snapshot_id
        if type(snap) is not _SnapshotId or snap.end_offset != -1 or snap.epoch != -1 or snap._unknown_tagged_fields:
            return -1
        if version < 11 and pd.preferred_read_replica != -1:
            return -1
        tp = tip.topic_partition
        topic = tp.topic
        key = (topic, tip.topic_id)
        if key != previous:
            if names:
                if topic is None:
                    return -1
                length = len(topic) if topic.isascii() else len(topic.encode())
                size += length + (_uvarint_size(length + 1) - 1 if flexible else 0)
            if flexible and in_topic:
                size += _uvarint_size(in_topic + 1) - 1
            size += topic_size
            topics += 1
            previous = key
            in_topic = 0
        in_topic += 1
        size += partition_size
        aborted = pd.aborted_transactions
        if aborted:
            for txn in aborted:
                if txn._unknown_tagged_fields:
                    return -1
            size += aborted_size * len(aborted) + (_uvarint_size(len(aborted) + 1) - 1 if flexible else 0)
        records = pd.records
        if records is not None:
            n = records_size(records)
            size += n + (_uvarint_size(n + 1) - 1 if flexible else 0)
    if flexible:
        if in_topic:
            size += _uvarint_size(in_topic + 1) - 1
        size += _uvarint_size(topics + 1) - 1
    return size


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
