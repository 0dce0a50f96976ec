"""Port of core/src/main/scala/kafka/server/DelayedProduce.scala (Kafka 2.8).

A produce with acks=-1 answers only once every in-sync replica holds the appended records (the leader's high
watermark has passed them) or its timeout expires. Each partition of the request is settled on its own: reached,
failed (the broker stopped leading it, or the ISR shrank below min.insync.replicas), or still pending; the request
completes when no partition is pending, and on expiry the pending ones answer REQUEST_TIMED_OUT.

Metrics: DelayedProduceMetrics' ExpiresPerSec meters (kafka.server:type=DelayedProduceMetrics), one for all and one
per partition, marked for each partition still waiting for acks when the request expires.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from kafka.common.protocol.errors import Errors
from kafka.common.requests.produce_response import PartitionResponse
from kafka.common.topic_partition import TopicPartition
from kafka.metrics.kafka_metrics_group import KafkaMetricsGroup
from kafka.server.delayed_operation import DelayedOperation, LockLike
from kafka.utils.time_unit import TimeUnit

if TYPE_CHECKING:
    from kafka.server.replica_manager import ReplicaManager


class ProducePartitionStatus:
    """One partition of a delayed produce: the offset the ISR must reach and the answer so far."""

    __slots__ = ("acks_pending", "required_offset", "response_status")

    def __init__(self, required_offset: int, response_status: PartitionResponse) -> None:
        self.required_offset = required_offset
        self.response_status = response_status
        self.acks_pending = False

    def __str__(self) -> str:
        return (
            f"[acksPending: {self.acks_pending}, error: {self.response_status.error.code}, "
            f"startOffset: {self.response_status.base_offset}, requiredOffset: {self.required_offset}]"
        )

    __repr__ = __str__


class ProduceMetadata:
    """The acks a delayed produce was sent with, and the status of each of its partitions."""

    __slots__ = ("produce_required_acks", "produce_status")

    def __init__(self, produce_required_acks: int, produce_status: Mapping[TopicPartition, ProducePartitionStatus]):
        self.produce_required_acks = produce_required_acks
        self.produce_status = produce_status

    def __str__(self) -> str:
        return f"[requiredAcks: {self.produce_required_acks}, partitionStatus: {dict(self.produce_status)}]"


class DelayedProduce(DelayedOperation):
    """A produce waiting for the ISR to acknowledge; watched in the `Produce` purgatory under its partitions."""

    logger_name = "kafka.server.DelayedProduce"

    def __init__(
        self,
        delay_ms: int,
        produce_metadata: ProduceMetadata,
        replica_manager: ReplicaManager,
        response_callback: Callable[[dict[TopicPartition, PartitionResponse]], None],
        lock_opt: LockLike | None = None,
    ) -> None:
        super().__init__(delay_ms, lock_opt)
        self.produce_metadata = produce_metadata
        self._replica_manager = replica_manager
        self._response_callback = response_callback
        # Partitions whose local append succeeded wait for acks and answer REQUEST_TIMED_OUT unless they get them;
        # those that failed already carry their error.
        for topic_partition, status in produce_metadata.produce_status.items():
            if status.response_status.error == Errors.NONE:
                status.acks_pending = True
                status.response_status.error = Errors.REQUEST_TIMED_OUT
            else:
                status.acks_pending = False
            if self.is_trace_enabled():
                self.trace(f"Initial partition status for {topic_partition} is {status}")

    def try_complete(self) -> bool:
        """Completes once every partition is settled: this broker no longer leads it (its error), the ISR hit
        an error checking the offset (that error), or the ISR reached the offset (no error)."""
        for topic_partition, status in self.produce_metadata.produce_status.items():
            if self.is_trace_enabled():
                self.trace(f"Checking produce satisfaction for {topic_partition}, current status {status}")
            if status.acks_pending:
                partition_or_error = self._replica_manager.get_partition_or_error(topic_partition)
                if isinstance(partition_or_error, Errors):
                    has_enough, error = False, partition_or_error
                else:
                    has_enough, error = partition_or_error.check_enough_replicas_reach_offset(status.required_offset)
                if error != Errors.NONE or has_enough:
                    status.acks_pending = False
                    status.response_status.error = error
        if not any(s.acks_pending for s in self.produce_metadata.produce_status.values()):
            return self.force_complete()
        return False

    def on_expiration(self) -> None:
        for topic_partition, status in self.produce_metadata.produce_status.items():
            if status.acks_pending:
                self.debug(f"Expiring produce request for partition {topic_partition} with status {status}")
                DelayedProduceMetrics.record_expiration(topic_partition)

    def on_complete(self) -> None:
        """Answers with each partition's status as it stands."""
        response_status = {tp: status.response_status for tp, status in self.produce_metadata.produce_status.items()}
        self._response_callback(response_status)


class DelayedProduceMetrics(KafkaMetricsGroup):
    """Kafka's `object DelayedProduceMetrics`: the expiry meters of produce requests."""

    @classmethod
    def record_expiration(cls, partition: TopicPartition) -> None:
        # The registry hands back the registered meters after the first expiration.
        group = cls()
        group.new_meter("ExpiresPerSec", "requests", TimeUnit.SECONDS).mark()
        tags = {"topic": partition.topic, "partition": str(partition.partition)}
        group.new_meter("ExpiresPerSec", "requests", TimeUnit.SECONDS, tags).mark()
