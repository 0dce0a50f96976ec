"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/Consumer.java (Kafka 3.7).

The consumer interface KafkaConsumer implements (and test doubles may).
"""

from __future__ import annotations

import abc
import re
from collections.abc import Collection, Iterable, Mapping
from typing import Generic, TypeVar, overload

from kafka.clients.consumer.consumer_group_metadata import ConsumerGroupMetadata
from kafka.clients.consumer.consumer_rebalance_listener import ConsumerRebalanceListener
from kafka.clients.consumer.consumer_records import ConsumerRecords
from kafka.clients.consumer.offset_and_metadata import OffsetAndMetadata
from kafka.clients.consumer.offset_and_timestamp import OffsetAndTimestamp
from kafka.clients.consumer.offset_commit_callback import OffsetCommitCallbackLike
from kafka.common.metric import Metric
from kafka.common.metric_name import MetricName
from kafka.common.partition_info import PartitionInfo
from kafka.common.topic_partition import TopicPartition

K = TypeVar("K")
V = TypeVar("V")

__all__ = ["Consumer"]


class Consumer(abc.ABC, Generic[K, V]):
    """# PORT: Java's overloads are optional arguments; timeouts are milliseconds (None: default.api.timeout.ms)."""

    @abc.abstractmethod
    def assignment(self) -> set[TopicPartition]: ...

    @abc.abstractmethod
    def subscription(self) -> set[str]: ...

    @abc.abstractmethod
    def subscribe(
        self, topics: Collection[str] | re.Pattern[str], listener: ConsumerRebalanceListener | None = None
    ) -> None: ...

    @abc.abstractmethod
    def assign(self, partitions: Collection[TopicPartition]) -> None: ...

    @abc.abstractmethod
    def unsubscribe(self) -> None: ...

    @abc.abstractmethod
    def poll(self, timeout_ms: int) -> ConsumerRecords[K, V]: ...

    @abc.abstractmethod
    def commit_sync(
        self, offsets: Mapping[TopicPartition, OffsetAndMetadata] | None = None, timeout_ms: int | None = None
    ) -> None: ...

    @abc.abstractmethod
    def commit_async(
        self,
        offsets: Mapping[TopicPartition, OffsetAndMetadata] | None = None,
        callback: OffsetCommitCallbackLike | None = None,
    ) -> None: ...

    @abc.abstractmethod
    def seek(self, partition: TopicPartition, offset: int | OffsetAndMetadata) -> None: ...

    @abc.abstractmethod
    def seek_to_beginning(self, partitions: Collection[TopicPartition]) -> None: ...

    @abc.abstractmethod
    def seek_to_end(self, partitions: Collection[TopicPartition]) -> None: ...

    @abc.abstractmethod
    def position(self, partition: TopicPartition, timeout_ms: int | None = None) -> int: ...

    @overload
    def committed(self, partitions: TopicPartition, timeout_ms: int | None = None) -> OffsetAndMetadata | None: ...

    @overload
    def committed(
        self, partitions: set[TopicPartition], timeout_ms: int | None = None
    ) -> dict[TopicPartition, OffsetAndMetadata | None]: ...

    @abc.abstractmethod
    def committed(
        self, partitions: TopicPartition | set[TopicPartition], timeout_ms: int | None = None
    ) -> dict[TopicPartition, OffsetAndMetadata | None] | OffsetAndMetadata | None: ...

    @abc.abstractmethod
    def metrics(self) -> Mapping[MetricName, Metric]: ...

    @abc.abstractmethod
    def partitions_for(self, topic: str, timeout_ms: int | None = None) -> list[PartitionInfo]: ...

    @abc.abstractmethod
    def list_topics(self, timeout_ms: int | None = None) -> dict[str, list[PartitionInfo]]: ...

    @abc.abstractmethod
    def paused(self) -> set[TopicPartition]: ...

    @abc.abstractmethod
    def pause(self, partitions: Iterable[TopicPartition]) -> None: ...

    @abc.abstractmethod
    def resume(self, partitions: Iterable[TopicPartition]) -> None: ...

    @abc.abstractmethod
    def offsets_for_times(
        self, timestamps_to_search: Mapping[TopicPartition, int], timeout_ms: int | None = None
    ) -> dict[TopicPartition, OffsetAndTimestamp | None]: ...

    @abc.abstractmethod
    def beginning_offsets(
        self, partitions: Collection[TopicPartition], timeout_ms: int | None = None
    ) -> dict[TopicPartition, int]: ...

    @abc.abstractmethod
    def end_offsets(
        self, partitions: Collection[TopicPartition], timeout_ms: int | None = None
    ) -> dict[TopicPartition, int]: ...

    @abc.abstractmethod
    def current_lag(self, topic_partition: TopicPartition) -> int | None: ...

    @abc.abstractmethod
    def group_metadata(self) -> ConsumerGroupMetadata: ...

    @abc.abstractmethod
    def enforce_rebalance(self, reason: str | None = None) -> None: ...

    @abc.abstractmethod
    def close(self, timeout_ms: int | None = None) -> None: ...

    @abc.abstractmethod
    def wakeup(self) -> None: ...
