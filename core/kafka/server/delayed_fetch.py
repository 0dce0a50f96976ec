"""Port of core/src/main/scala/kafka/server/DelayedFetch.scala (Kafka 2.8).

A fetch that found fewer than `fetch.min.bytes` waits, up to its max wait, for more data. It is watched under its
partitions in the `Fetch` purgatory; a produce (or a high watermark move) on one of them re-checks it. The check
counts the bytes now readable between each partition's fetch position and its readable end (log end for
followers, high watermark or last stable offset for consumers) using segment positions, without reading the log.
Once done (enough bytes, an error on a partition, a segment change, a diverging epoch, or expiry) it reads the
logs again and answers with whatever is there.

Metrics: DelayedFetchMetrics' ExpiresPerSec meters (kafka.server:type=DelayedFetchMetrics,fetcherType=follower or
consumer), marked when a fetch expires.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from kafka.common.errors import (
    FencedLeaderEpochException,
    KafkaStorageException,
    NotLeaderOrFollowerException,
    UnknownTopicOrPartitionException,
)
from kafka.common.protocol.errors import Errors
from kafka.common.requests.fetch_request import PartitionData
from kafka.common.requests.offsets_for_leader_epoch_response import UNDEFINED_EPOCH, UNDEFINED_EPOCH_OFFSET
from kafka.common.topic_partition import TopicPartition
from kafka.metrics.kafka_metrics_group import KafkaMetricsGroup
from kafka.metrics.yammer import Meter
from kafka.server.delayed_operation import DelayedOperation
from kafka.server.fetch_data_info import FetchIsolation
from kafka.server.log_offset_metadata import LogOffsetMetadata
from kafka.utils.time_unit import TimeUnit

if TYPE_CHECKING:
    from kafka.server.replica_manager import FetchPartitionData, ReplicaManager

_NONE_CODE: Final = Errors.NONE.code


@dataclass(frozen=True, slots=True)
class FetchPartitionStatus:
    """One partition of a delayed fetch: where the first read started, and what the request asked for."""

    start_offset_metadata: LogOffsetMetadata
    fetch_info: PartitionData

    def __str__(self) -> str:
        return f"[startOffsetMetadata: {self.start_offset_metadata}, fetchInfo: {self.fetch_info}]"


@dataclass(frozen=True, slots=True)
class FetchMetadata:
    """The parameters of a delayed fetch (Kafka's kafka.server.FetchMetadata, not the session's FetchMetadata)."""

    fetch_min_bytes: int
    fetch_max_bytes: int
    hard_max_bytes_limit: bool
    fetch_only_leader: bool
    fetch_isolation: FetchIsolation
    is_from_follower: bool
    replica_id: int
    fetch_partition_status: Sequence[tuple[TopicPartition, FetchPartitionStatus]]

    def __str__(self) -> str:
        return (
            f"FetchMetadata(minBytes={self.fetch_min_bytes}, maxBytes={self.fetch_max_bytes}, "
            f"onlyLeader={self.fetch_only_leader}, fetchIsolation={self.fetch_isolation}, "
            f"replicaId={self.replica_id}, partitionStatus={list(self.fetch_partition_status)})"
        )


class DelayedFetch(DelayedOperation):
    """A fetch waiting for `fetch_min_bytes`; answers through `response_callback` with per-partition data."""

    logger_name = "kafka.server.DelayedFetch"

    def __init__(
        self,
        delay_ms: int,
        fetch_metadata: FetchMetadata,
        replica_manager: ReplicaManager,
        quota: Any,
        client_metadata: Any,
        response_callback: Callable[[list[tuple[TopicPartition, FetchPartitionData]]], None],
    ) -> None:
        super().__init__(delay_ms)
        self.fetch_metadata = fetch_metadata
        self._replica_manager = replica_manager
        self._quota = quota
        self._client_metadata = client_metadata
        self._response_callback = response_callback

    def try_complete(self) -> bool:
        """Completes when, for some partition, this broker no longer leads or hosts it (A-D), the fetcher's epoch
        is fenced (E), the fetch position and the readable end are on different segments (F), the fetcher's
        epoch diverged (H); or when the bytes readable over all partitions reach fetch_min_bytes (G).

        # PORT: Kafka checks H inside the loop, partition by partition; here the H checks (an epoch lookup each)
        # come after it, and only when nothing else completed the fetch: completing for one reason or another is
        # the same completion (on_complete reads again and reports the divergence), and a fetch that new records
        # complete, the usual case for a follower, skips the lookups."""
        fetch_metadata = self.fetch_metadata
        replica_manager = self._replica_manager
        accumulated_size = 0
        epoch_checks: list[tuple[TopicPartition, Any, FetchPartitionStatus]] = []
        for topic_partition, fetch_status in fetch_metadata.fetch_partition_status:
            fetch_offset = fetch_status.start_offset_metadata
            fetch_leader_epoch = fetch_status.fetch_info.current_leader_epoch
            try:
                if fetch_offset == LogOffsetMetadata.UNKNOWN_OFFSET_METADATA:
                    continue
                partition = replica_manager.get_partition_or_exception(topic_partition)
                # PORT: the one offset of the snapshot that the fetch's isolation reads to (see
                # Partition.fetch_end_offset_metadata).
                end_offset = partition.fetch_end_offset_metadata(
                    fetch_leader_epoch, fetch_metadata.fetch_only_leader, fetch_metadata.fetch_isolation
                )

                # Equal offsets go straight to the byte count: right after a roll the readable end sits at the
                # start of the new segment while the fetch position is at the end of the old one.
                if end_offset.message_offset != fetch_offset.message_offset:
                    if end_offset.on_older_segment(fetch_offset):
                        # Case F: the log was truncated below the fetch position.
                        self.debug(
                            f"Satisfying fetch {fetch_metadata} since it is fetching later segments of "
                            f"partition {topic_partition}."
                        )
                        return self.force_complete()
                    elif fetch_offset.on_older_segment(end_offset):
                        # Case F: the fetcher lags behind the active segment, or a segment was just rolled.
                        self.debug(
                            f"Satisfying fetch {fetch_metadata} immediately since it is fetching older segments."
                        )
                        if not replica_manager.should_leader_throttle(
                            self._quota, partition, fetch_metadata.replica_id
                        ):
                            return self.force_complete()
                    elif fetch_offset.message_offset < end_offset.message_offset:
                        # At most the partition's max bytes count towards the minimum.
                        bytes_available = min(end_offset.position_diff(fetch_offset), fetch_status.fetch_info.max_bytes)
                        if not replica_manager.should_leader_throttle(
                            self._quota, partition, fetch_metadata.replica_id
                        ):
                            accumulated_size += bytes_available

                if fetch_status.fetch_info.last_fetched_epoch is not None:
                    epoch_checks.append((topic_partition, partition, fetch_status))
            except NotLeaderOrFollowerException:  # Case A or B
                self.debug(
                    f"Broker is no longer the leader or follower of {topic_partition}, satisfy {fetch_metadata} "
                    "immediately"
                )
                return self.force_complete()
            except UnknownTopicOrPartitionException:  # Case C
                self.debug(
                    f"Broker no longer knows of partition {topic_partition}, satisfy {fetch_metadata} immediately"
                )
                return self.force_complete()
            except KafkaStorageException:  # Case D
                self.debug(
                    f"Partition {topic_partition} is in an offline log directory, satisfy {fetch_metadata} immediately"
                )
                return self.force_complete()
            except FencedLeaderEpochException:  # Case E
                self.debug(
                    f"Broker is the leader of partition {topic_partition}, but the requested epoch "
                    f"{fetch_leader_epoch} is fenced by the latest leader epoch, satisfy {fetch_metadata} immediately"
                )
                return self.force_complete()

        # Case G
        if accumulated_size >= fetch_metadata.fetch_min_bytes:
            return self.force_complete()

        # Case H: a truncation while waiting made the fetcher's last fetched epoch diverge.
        for topic_partition, partition, fetch_status in epoch_checks:
            fetch_epoch = fetch_status.fetch_info.last_fetched_epoch
            epoch_end_offset = partition.last_offset_for_leader_epoch(
                fetch_status.fetch_info.current_leader_epoch, fetch_epoch, False
            )
            if (
                epoch_end_offset.error_code != _NONE_CODE
                or epoch_end_offset.end_offset == UNDEFINED_EPOCH_OFFSET
                or epoch_end_offset.leader_epoch == UNDEFINED_EPOCH
            ):
                self.debug(
                    f"Could not obtain last offset for leader epoch for partition {topic_partition}, "
                    f"epochEndOffset={epoch_end_offset}."
                )
                return self.force_complete()
            elif (
                epoch_end_offset.leader_epoch < fetch_epoch
                or epoch_end_offset.end_offset < fetch_status.fetch_info.fetch_offset
            ):
                self.debug(
                    f"Satisfying fetch {fetch_metadata} since it has diverging epoch requiring truncation "
                    f"for partition {topic_partition} epochEndOffset={epoch_end_offset} "
                    f"fetchEpoch={fetch_epoch} fetchOffset={fetch_status.fetch_info.fetch_offset}."
                )
                return self.force_complete()
        return False

    def on_expiration(self) -> None:
        DelayedFetchMetrics.meter(self.fetch_metadata.is_from_follower).mark()

    def on_complete(self) -> None:
        """Reads the logs again and answers with whatever they hold now."""
        fetch_metadata = self.fetch_metadata
        replica_manager = self._replica_manager
        log_read_results = replica_manager.read_from_local_log(
            replica_id=fetch_metadata.replica_id,
            fetch_only_from_leader=fetch_metadata.fetch_only_leader,
            fetch_isolation=fetch_metadata.fetch_isolation,
            fetch_max_bytes=fetch_metadata.fetch_max_bytes,
            hard_max_bytes_limit=fetch_metadata.hard_max_bytes_limit,
            read_partition_info=[(tp, status.fetch_info) for tp, status in fetch_metadata.fetch_partition_status],
            quota=self._quota,
            client_metadata=self._client_metadata,
        )
        fetch_partition_data = []
        for tp, result in log_read_results:
            is_reassignment_fetch = fetch_metadata.is_from_follower and replica_manager.is_adding_replica(
                tp, fetch_metadata.replica_id
            )
            fetch_partition_data.append((tp, result.to_fetch_partition_data(is_reassignment_fetch)))
        self._response_callback(fetch_partition_data)


class DelayedFetchMetrics(KafkaMetricsGroup):
    """Kafka's `object DelayedFetchMetrics`: the expiry meters of fetches, by fetcher type."""

    FETCHER_TYPE_KEY: Final = "fetcherType"

    @classmethod
    def meter(cls, from_follower: bool) -> Meter:
        fetcher_type = "follower" if from_follower else "consumer"
        # The registry hands back the registered meter after the first call.
        return cls().new_meter("ExpiresPerSec", "requests", TimeUnit.SECONDS, {cls.FETCHER_TYPE_KEY: fetcher_type})
