"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/KafkaConsumer.java (Kafka 3.7).

The Kafka consumer: subscribe to topics (by list or pattern, with a consumer group that divides the
partitions among its members) or assign partitions yourself, then `poll` for records. Positions are
committed to the group (automatically, or with commit_sync/commit_async) so that consumption resumes where
it left off. Java 3.7 has two implementations behind this class, chosen by group.protocol; this port has
the classic one (LegacyKafkaConsumer).

```
consumer = KafkaConsumer({"bootstrap.servers": "localhost:9092", "group.id": "g"},
                         StringDeserializer(), StringDeserializer())
consumer.subscribe(["topic"])
for record in consumer.poll(1000):
    print(record.offset, record.key, record.value)
consumer.close()
```

# PORT: group.protocol=consumer (KIP-848) is refused with a ConfigException; timeouts are
milliseconds (Java's Durations), None meaning default.api.timeout.ms.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any, TypeVar, overload

from kafka.clients.consumer.consumer import Consumer
from kafka.clients.consumer.consumer_config import ConsumerConfig
from kafka.clients.consumer.consumer_group_metadata import ConsumerGroupMetadata
from kafka.clients.consumer.consumer_partition_assignor import ConsumerPartitionAssignor
from kafka.clients.consumer.consumer_rebalance_listener import ConsumerRebalanceListener
from kafka.clients.consumer.consumer_records import ConsumerRecords
from kafka.clients.consumer.group_protocol import GroupProtocol
from kafka.clients.consumer.internals.consumer_metadata import ConsumerMetadata
from kafka.clients.consumer.internals.fetched_batch_decoder import RecordColumns
from kafka.clients.consumer.internals.legacy_kafka_consumer import LegacyKafkaConsumer
from kafka.clients.consumer.internals.subscription_state import SubscriptionState
from kafka.clients.consumer.offset_and_metadata import OffsetAndMetadata
from kafka.clients.consumer.offset_and_timestamp import OffsetAndTimestamp
from kafka.clients.consumer.offset_commit_callback import OffsetCommitCallbackLike
from kafka.clients.kafka_client import KafkaClient
from kafka.common.config.config_exception import ConfigException
from kafka.common.metric import Metric
from kafka.common.metric_name import MetricName
from kafka.common.partition_info import PartitionInfo
from kafka.common.serialization.deserializer import Deserializer
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import Time

K = TypeVar("K")
V = TypeVar("V")

__all__ = ["KafkaConsumer"]


class KafkaConsumer(Consumer[K, V]):
    """Not thread-safe: use one consumer per thread (any thread may call `wakeup`)."""

    def __init__(
        self,
        configs: Mapping[str, Any] | ConsumerConfig,
        key_deserializer: Deserializer[K] | None = None,
        value_deserializer: Deserializer[V] | None = None,
        *,
        time: Time = Time.SYSTEM,
        kafka_client: KafkaClient | None = None,
        subscriptions: SubscriptionState | None = None,
        metadata: ConsumerMetadata | None = None,
        assignors: Sequence[ConsumerPartitionAssignor] | None = None,
    ) -> None:
        """`configs` uses Java's key names; deserializers given here take precedence over key.deserializer and
        value.deserializer. The keyword arguments after them are for tests."""
        if isinstance(configs, ConsumerConfig):
            config = configs
        else:
            config = ConsumerConfig(
                ConsumerConfig.append_deserializer_to_config(configs, key_deserializer, value_deserializer)
            )
        group_protocol = GroupProtocol.of(config.get_string(ConsumerConfig.GROUP_PROTOCOL_CONFIG))
        if group_protocol is GroupProtocol.CONSUMER:
            raise ConfigException(
                ConsumerConfig.GROUP_PROTOCOL_CONFIG,
                config.get_string(ConsumerConfig.GROUP_PROTOCOL_CONFIG),
                "the consumer group protocol (KIP-848) is not supported by this client; use classic",
            )
        self._delegate: LegacyKafkaConsumer[K, V] = LegacyKafkaConsumer(
            config,
            key_deserializer,
            value_deserializer,
            time=time,
            kafka_client=kafka_client,
            subscriptions=subscriptions,
            metadata=metadata,
            assignors=assignors,
        )

    def assignment(self) -> set[TopicPartition]:
        """The partitions currently assigned to this consumer."""
        return self._delegate.assignment()

    def subscription(self) -> set[str]:
        """The topics subscribed to (those matching the pattern, for a pattern subscription)."""
        return self._delegate.subscription()

    def subscribe(
        self, topics: Collection[str] | re.Pattern[str], listener: ConsumerRebalanceListener | None = None
    ) -> None:
        """Subscribes to a list of topics or to every topic matching a compiled pattern (all of the name must
        match), replacing any previous subscription; partitions are assigned by the group on the next poll."""
        self._delegate.subscribe(topics, listener)

    def assign(self, partitions: Collection[TopicPartition]) -> None:
        """Takes exactly these partitions, without group management (an empty collection unsubscribes)."""
        self._delegate.assign(partitions)

    def unsubscribe(self) -> None:
        self._delegate.unsubscribe()

    def poll(self, timeout_ms: int) -> ConsumerRecords[K, V]:
        return self._delegate.poll(timeout_ms)

    def poll_columns(self, timeout_ms: int, columns: RecordColumns, max_records: int) -> int:
        """Like poll, but the records fetched are appended to `columns` as Arrow columns (their raw key and value
        bytes, whatever the deserializers) and their number is returned: whole batches, until `max_records` are
        reached. Positions move as poll moves them; interceptors see an empty poll.

        # PORT: no Java counterpart. For readers that want columns (the Spark source): no record object per row
        (CompletedFetch.fetch_columns)."""
        fetcher = self._delegate._require_fetcher()
        before = len(columns)
        fetcher.set_columns(columns, max_records)
        try:
            self._delegate.poll(timeout_ms)
        finally:
            fetcher.set_columns(None)
        return len(columns) - before

    def commit_sync(
        self, offsets: Mapping[TopicPartition, OffsetAndMetadata] | None = None, timeout_ms: int | None = None
    ) -> None:
        self._delegate.commit_sync(offsets, timeout_ms)

    def commit_async(
        self,
        offsets: Mapping[TopicPartition, OffsetAndMetadata] | None = None,
        callback: OffsetCommitCallbackLike | None = None,
    ) -> None:
        self._delegate.commit_async(offsets, callback)

    def seek(self, partition: TopicPartition, offset: int | OffsetAndMetadata) -> None:
        self._delegate.seek(partition, offset)

    def seek_to_beginning(self, partitions: Collection[TopicPartition]) -> None:
        self._delegate.seek_to_beginning(partitions)

    def seek_to_end(self, partitions: Collection[TopicPartition]) -> None:
        self._delegate.seek_to_end(partitions)

    def position(self, partition: TopicPartition, timeout_ms: int | None = None) -> int:
        return self._delegate.position(partition, timeout_ms)

    @overload
    def committed(self, partitions: TopicPartition, timeout_ms: int | None = None) -> OffsetAndMetadata | None: ...

    @overload
    def committed(
        self, partitions: set[TopicPartition], timeout_ms: int | None = None
    ) -> dict[TopicPartition, OffsetAndMetadata | None]: ...

    def committed(
        self, partitions: TopicPartition | set[TopicPartition], timeout_ms: int | None = None
    ) -> dict[TopicPartition, OffsetAndMetadata | None] | OffsetAndMetadata | None:
        return self._delegate.committed(partitions, timeout_ms)

    def metrics(self) -> Mapping[MetricName, Metric]:
        return self._delegate.metrics()

    def partitions_for(self, topic: str, timeout_ms: int | None = None) -> list[PartitionInfo]:
        return self._delegate.partitions_for(topic, timeout_ms)

    def list_topics(self, timeout_ms: int | None = None) -> dict[str, list[PartitionInfo]]:
        return self._delegate.list_topics(timeout_ms)

    def paused(self) -> set[TopicPartition]:
        return self._delegate.paused()

    def pause(self, partitions: Iterable[TopicPartition]) -> None:
        self._delegate.pause(partitions)

    def resume(self, partitions: Iterable[TopicPartition]) -> None:
        self._delegate.resume(partitions)

    def offsets_for_times(
        self, timestamps_to_search: Mapping[TopicPartition, int], timeout_ms: int | None = None
    ) -> dict[TopicPartition, OffsetAndTimestamp | None]:
        return self._delegate.offsets_for_times(timestamps_to_search, timeout_ms)

    def beginning_offsets(
        self, partitions: Collection[TopicPartition], timeout_ms: int | None = None
    ) -> dict[TopicPartition, int]:
        return self._delegate.beginning_offsets(partitions, timeout_ms)

    def end_offsets(
        self, partitions: Collection[TopicPartition], timeout_ms: int | None = None
    ) -> dict[TopicPartition, int]:
        return self._delegate.end_offsets(partitions, timeout_ms)

    def current_lag(self, topic_partition: TopicPartition) -> int | None:
        return self._delegate.current_lag(topic_partition)

    def group_metadata(self) -> ConsumerGroupMetadata:
        return self._delegate.group_metadata()

    def enforce_rebalance(self, reason: str | None = None) -> None:
        self._delegate.enforce_rebalance(reason)

    def close(self, timeout_ms: int | None = None) -> None:
        self._delegate.close(timeout_ms)

    def wakeup(self) -> None:
        self._delegate.wakeup()

    def client_id(self) -> str:
        return self._delegate.client_id()

    def delegate(self) -> LegacyKafkaConsumer[K, V]:
        """For tests."""
        return self._delegate

    def __enter__(self) -> KafkaConsumer[K, V]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
