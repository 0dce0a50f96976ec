"""Port of core/src/main/scala/kafka/server/DelayedCreatePartitions.scala (Kafka 2.8).

CreateTopics and CreatePartitions write to ZooKeeper and leave the rest to the controller, which elects a leader
for every new partition and tells the brokers. The request is answered when this broker's metadata cache shows a
leader for every partition of every topic that was written without error, or after its timeout, when the topics
whose partitions still lack a leader get REQUEST_TIMED_OUT (they were created; they are not ready yet). Watched in
the `topic` purgatory under each topic (TopicKey); ZkAdminManager.try_complete_delayed_topic_operations(topic)
re-checks them when the metadata of a topic changes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from kafka.common.protocol.errors import Errors
from kafka.common.requests.api_error import ApiError
from kafka.server.delayed_operation import DelayedOperation

if TYPE_CHECKING:
    from kafka.server.metadata_cache import MetadataCache

__all__ = ["CreatePartitionsMetadata", "DelayedCreatePartitions"]

# kafka.api.LeaderAndIsr.NoLeader
_NO_LEADER = -1


@dataclass(frozen=True, slots=True)
class CreatePartitionsMetadata:
    """A topic of a create request: the partitions it should end up with, or the error that stopped it."""

    topic: str
    partitions: frozenset[int]
    error: ApiError

    @classmethod
    def of(cls, topic: str, partitions: Iterable[int]) -> CreatePartitionsMetadata:
        """A topic written without error (the companion's `apply(topic, partitions)`)."""
        return cls(topic, frozenset(partitions), ApiError.NONE)

    @classmethod
    def of_error(cls, topic: str, error: Errors | BaseException) -> CreatePartitionsMetadata:
        """A topic that failed (the companion's `apply(topic, error)` and `apply(topic, throwable)`)."""
        api_error = ApiError(error, None) if isinstance(error, Errors) else ApiError.from_throwable(error)
        return cls(topic, frozenset(), api_error)


class _AdminManager(Protocol):
    """What the delayed operation reads of ZkAdminManager: its metadata cache."""

    @property
    def metadata_cache(self) -> MetadataCache: ...


class DelayedCreatePartitions(DelayedOperation):
    """A CreateTopics or CreatePartitions request waiting for the leaders of its new partitions."""

    logger_name = "kafka.server.DelayedCreatePartitions"

    def __init__(
        self,
        delay_ms: int,
        create_metadata: Sequence[CreatePartitionsMetadata],
        admin_manager: _AdminManager,
        response_callback: Callable[[dict[str, ApiError]], None],
    ) -> None:
        super().__init__(delay_ms)
        self.create_metadata = list(create_metadata)
        self._admin_manager = admin_manager
        self._response_callback = response_callback

    def try_complete(self) -> bool:
        """Completes once no topic written without error has a partition without a leader."""
        self.trace(f"Trying to complete operation for {self.create_metadata}")
        leaderless_partition_count = sum(
            self._missing_leader_count(metadata.topic, metadata.partitions)
            for metadata in self.create_metadata
            if metadata.error.is_success()
        )
        if leaderless_partition_count == 0:
            self.trace("All partitions have a leader, completing the delayed operation")
            return self.force_complete()
        self.trace(
            f"{leaderless_partition_count} partitions do not have a leader, not completing the delayed operation"
        )
        return False

    def on_complete(self) -> None:
        """Answers: REQUEST_TIMED_OUT for topics still missing a leader, each topic's own error otherwise."""
        self.trace(f"Completing operation for {self.create_metadata}")
        results: dict[str, ApiError] = {}
        for metadata in self.create_metadata:
            if metadata.error.is_success() and self._missing_leader_count(metadata.topic, metadata.partitions) > 0:
                results[metadata.topic] = ApiError(Errors.REQUEST_TIMED_OUT, None)
            else:
                results[metadata.topic] = metadata.error
        self._response_callback(results)

    def on_expiration(self) -> None:
        pass

    def _missing_leader_count(self, topic: str, partitions: Iterable[int]) -> int:
        return sum(1 for partition in partitions if self._is_missing_leader(topic, partition))

    def _is_missing_leader(self, topic: str, partition: int) -> bool:
        partition_info = self._admin_manager.metadata_cache.get_partition_info(topic, partition)
        return partition_info is None or partition_info.leader == _NO_LEADER
