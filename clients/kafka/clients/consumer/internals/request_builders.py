"""The client-side request builders the consumer needs beyond those in kafka.common.requests: ports of the
`Builder` classes nested in Java's clients/src/main/java/org/apache/kafka/common/requests/{JoinGroup,
SyncGroup,Heartbeat,OffsetsForLeaderEpoch,Fetch}Request.java (Kafka 3.7).

Each builds the request at the version the NetworkClient negotiated and raises UnsupportedVersionException
where that version cannot carry what is asked (a group.instance.id before static membership), as Java's do.

# PORT: in Java these are nested in the request classes; the request modules of kafka.common.requests are
shared with the broker, so the consumer's builders live here (the ListOffsets, OffsetCommit and OffsetFetch
builders are shared with the admin client, kafka.clients.admin.internals.request_builders).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kafka.common.errors import UnsupportedVersionException
from kafka.common.isolation_level import IsolationLevel
from kafka.common.message import FetchRequestData, OffsetForLeaderEpochRequestData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.record.record_batch import NO_PARTITION_LEADER_EPOCH
from kafka.common.requests.abstract_request import Builder
from kafka.common.requests.fetch_metadata import FetchMetadata
from kafka.common.requests.fetch_request import (
    CONSUMER_REPLICA_ID,
    DEFAULT_RESPONSE_MAX_BYTES,
    FetchRequest,
    PartitionData,
)
from kafka.common.requests.heartbeat_request import HeartbeatRequest
from kafka.common.requests.join_group_request import JoinGroupRequest
from kafka.common.requests.offsets_for_leader_epoch_request import (
    CONSUMER_REPLICA_ID as EPOCH_CONSUMER_REPLICA_ID,
)
from kafka.common.requests.offsets_for_leader_epoch_request import OffsetsForLeaderEpochRequest
from kafka.common.requests.sync_group_request import SyncGroupRequest
from kafka.common.topic_id_partition import TopicIdPartition
from kafka.common.topic_partition import TopicPartition

__all__ = [
    "FetchRequestBuilder",
    "HeartbeatRequestBuilder",
    "JoinGroupRequestBuilder",
    "OffsetsForLeaderEpochRequestBuilder",
    "SyncGroupRequestBuilder",
    "supports_topic_permission",
]


class JoinGroupRequestBuilder(Builder[JoinGroupRequest]):
    def __init__(self, data: Any) -> None:
        super().__init__(ApiKeys.JOIN_GROUP)
        self.data = data

    def _build(self, version: int) -> JoinGroupRequest:
        if self.data.group_instance_id is not None and version < 5:
            raise UnsupportedVersionException(
                f"The broker join group protocol version {version} does not support usage of config group.instance.id."
            )
        return JoinGroupRequest(self.data, version)

    def __str__(self) -> str:
        return repr(self.data)


class SyncGroupRequestBuilder(Builder[SyncGroupRequest]):
    def __init__(self, data: Any) -> None:
        super().__init__(ApiKeys.SYNC_GROUP)
        self.data = data

    def _build(self, version: int) -> SyncGroupRequest:
        if self.data.group_instance_id is not None and version < 3:
            raise UnsupportedVersionException(
                f"The broker sync group protocol version {version} does not support usage of config group.instance.id."
            )
        return SyncGroupRequest(self.data, version)

    def __str__(self) -> str:
        return repr(self.data)


class HeartbeatRequestBuilder(Builder[HeartbeatRequest]):
    def __init__(self, data: Any) -> None:
        super().__init__(ApiKeys.HEARTBEAT)
        self.data = data

    def _build(self, version: int) -> HeartbeatRequest:
        if self.data.group_instance_id is not None and version < 3:
            raise UnsupportedVersionException(
                f"The broker heartbeat protocol version {version} does not support usage of config group.instance.id."
            )
        return HeartbeatRequest(self.data, version)

    def __str__(self) -> str:
        return repr(self.data)


def supports_topic_permission(latest_used_version: int) -> bool:
    """From v3 OffsetsForLeaderEpoch needs only Describe on the topics (earlier: ClusterAction), so consumers
    use it only from v3 (Java's OffsetsForLeaderEpochRequest.supportsTopicPermission)."""
    return latest_used_version >= 3


class OffsetsForLeaderEpochRequestBuilder(Builder[OffsetsForLeaderEpochRequest]):
    def __init__(self, oldest_allowed_version: int, latest_allowed_version: int, data: Any) -> None:
        super().__init__(ApiKeys.OFFSET_FOR_LEADER_EPOCH, oldest_allowed_version, latest_allowed_version)
        self.data = data

    @classmethod
    def for_consumer(cls, epochs_by_partition: Any) -> OffsetsForLeaderEpochRequestBuilder:
        """A consumer's request: v3+ only, which needs no cluster permission."""
        data = OffsetForLeaderEpochRequestData(replica_id=EPOCH_CONSUMER_REPLICA_ID, topics=epochs_by_partition)
        return cls(3, ApiKeys.OFFSET_FOR_LEADER_EPOCH.latest_version(False), data)

    def _build(self, version: int) -> OffsetsForLeaderEpochRequest:
        if version < self.oldest_allowed_version or version > self.latest_allowed_version:
            raise UnsupportedVersionException(f"Cannot build {self} with version {version}")
        return OffsetsForLeaderEpochRequest(self.data, version)

    def __str__(self) -> str:
        return repr(self.data)


class FetchRequestBuilder(Builder[FetchRequest]):
    """Java's FetchRequest.Builder: partitions to fetch (in order, grouped into topics when consecutive), the
    fetch session, and the partitions the session should forget."""

    def __init__(
        self,
        min_version: int,
        max_version: int,
        replica_id: int,
        replica_epoch: int,
        max_wait: int,
        min_bytes: int,
        fetch_data: Mapping[TopicPartition, PartitionData],
    ) -> None:
        super().__init__(ApiKeys.FETCH, min_version, max_version)
        self.replica_id = replica_id
        self.replica_epoch = replica_epoch
        self.max_wait = max_wait
        self.min_bytes = min_bytes
        self.to_fetch = fetch_data
        self.isolation_level = IsolationLevel.READ_UNCOMMITTED
        self.max_bytes = DEFAULT_RESPONSE_MAX_BYTES
        self.metadata = FetchMetadata.LEGACY
        self.removed: Sequence[TopicIdPartition] = ()
        self.replaced: Sequence[TopicIdPartition] = ()
        self.rack_id = ""

    @classmethod
    def for_consumer(
        cls, max_version: int, max_wait: int, min_bytes: int, fetch_data: Mapping[TopicPartition, PartitionData]
    ) -> FetchRequestBuilder:
        return cls(ApiKeys.FETCH.oldest_version, max_version, CONSUMER_REPLICA_ID, -1, max_wait, min_bytes, fetch_data)

    @staticmethod
    def _add_to_forgotten_topic_map(to_forget: Sequence[TopicIdPartition], forgotten_topic_map: dict[str, Any]) -> None:
        for tip in to_forget:
            tp = tip.topic_partition  # the consumer's partitions always have their topic name
            forgotten = forgotten_topic_map.get(tp.topic)
            if forgotten is None:
                forgotten = FetchRequestData.ForgottenTopic(topic=tp.topic, topic_id=tip.topic_id)
                forgotten_topic_map[tp.topic] = forgotten
            forgotten.partitions.append(tp.partition)

    def _build(self, version: int) -> FetchRequest:
        max_bytes = DEFAULT_RESPONSE_MAX_BYTES if version < 3 else self.max_bytes
        data = FetchRequestData(
            max_wait_ms=self.max_wait,
            min_bytes=self.min_bytes,
            max_bytes=max_bytes,
            isolation_level=int(self.isolation_level),
        )
        if version < 15:
            data.replica_id = self.replica_id
        else:
            data.replica_state = FetchRequestData.ReplicaState(
                replica_id=self.replica_id, replica_epoch=self.replica_epoch
            )
        forgotten_topic_map: dict[str, Any] = {}
        self._add_to_forgotten_topic_map(self.removed, forgotten_topic_map)
        # Before v13 a replaced partition (same name, new topic id) is sent again, not forgotten.
        if version >= 13:
            self._add_to_forgotten_topic_map(self.replaced, forgotten_topic_map)
        data.forgotten_topics_data = list(forgotten_topic_map.values())
        fetch_topic = None
        for tp, partition_data in self.to_fetch.items():
            if fetch_topic is None or tp.topic != fetch_topic.topic:
                fetch_topic = FetchRequestData.FetchTopic(topic=tp.topic, topic_id=partition_data.topic_id)
                data.topics.append(fetch_topic)
            fetch_topic.partitions.append(
                FetchRequestData.FetchPartition(
                    partition=tp.partition,
                    current_leader_epoch=_epoch(partition_data.current_leader_epoch),
                    last_fetched_epoch=_epoch(partition_data.last_fetched_epoch),
                    fetch_offset=partition_data.fetch_offset,
                    log_start_offset=partition_data.log_start_offset,
                    partition_max_bytes=partition_data.max_bytes,
                )
            )
        if self.metadata is not None:
            data.session_epoch = self.metadata.epoch
            data.session_id = self.metadata.session_id
        data.rack_id = self.rack_id
        return FetchRequest(data, version)

    def __str__(self) -> str:
        return (
            f"(type=FetchRequest, replicaId={self.replica_id}, maxWait={self.max_wait}, minBytes={self.min_bytes}, "
            f"maxBytes={self.max_bytes}, fetchData={ {str(k): v for k, v in self.to_fetch.items()} }, "
            f"isolationLevel={self.isolation_level.name}, removed={', '.join(map(str, self.removed))}, "
            f"replaced={', '.join(map(str, self.replaced))}, metadata={self.metadata}, rackId={self.rack_id})"
        )


def _epoch(epoch: int | None) -> int:
    return NO_PARTITION_LEADER_EPOCH if epoch is None else epoch
