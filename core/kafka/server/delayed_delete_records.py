"""Port of core/src/main/scala/kafka/server/DelayedDeleteRecords.scala (Kafka 2.8).

A DeleteRecords request moves the leader's log start offset at once, but answers only when every live replica's
log start offset has followed (the partition's low watermark has reached the requested offset) or its timeout
expires. Watched in the `DeleteRecords` purgatory under its partitions.

Metrics: DelayedDeleteRecordsMetrics' ExpiresPerSec meter (kafka.server:type=DelayedDeleteRecordsMetrics), marked
for each partition still waiting when the request expires.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from kafka.common.protocol.errors import Errors
from kafka.common.requests.delete_records_response import INVALID_LOW_WATERMARK
from kafka.common.topic_partition import TopicPartition
from kafka.metrics.kafka_metrics_group import KafkaMetricsGroup
from kafka.server.delayed_operation import DelayedOperation
from kafka.utils.time_unit import TimeUnit

if TYPE_CHECKING:
    from kafka.server.replica_manager import ReplicaManager


class DeleteRecordsPartitionStatus:
    """One partition of a delayed delete: the offset the low watermark must reach, and the answer so far (a
    DeleteRecordsResponseData.DeleteRecordsPartitionResult)."""

    __slots__ = ("acks_pending", "required_offset", "response_status")

    def __init__(self, required_offset: int, response_status: Any) -> None:
        self.required_offset = required_offset
        self.response_status = response_status
        self.acks_pending = False

    def __str__(self) -> str:
        return (
            f"[acksPending: {str(self.acks_pending).lower()}, "
            f"error: {Errors.for_code(self.response_status.error_code)}, "
            f"lowWatermark: {self.response_status.low_watermark}, requiredOffset: {self.required_offset}]"
        )

    __repr__ = __str__


class DelayedDeleteRecords(DelayedOperation):
    """A DeleteRecords waiting for the replicas' log start offsets."""

    logger_name = "kafka.server.DelayedDeleteRecords"

    def __init__(
        self,
        delay_ms: int,
        delete_records_status: Mapping[TopicPartition, DeleteRecordsPartitionStatus],
        replica_manager: ReplicaManager,
        response_callback: Callable[[dict[TopicPartition, Any]], None],
    ) -> None:
        super().__init__(delay_ms)
        self.delete_records_status = delete_records_status
        self._replica_manager = replica_manager
        self._response_callback = response_callback
        # Partitions deleted locally wait for the replicas and answer REQUEST_TIMED_OUT unless they catch up.
        for topic_partition, status in delete_records_status.items():
            if status.response_status.error_code == Errors.NONE.code:
                status.acks_pending = True
                status.response_status.error_code = Errors.REQUEST_TIMED_OUT.code
            else:
                status.acks_pending = False
            if self.is_trace_enabled():
                self.trace(f"Initial partition status for {topic_partition} is {status}")

    def try_complete(self) -> bool:
        """Completes once every partition has an error or a low watermark at or past its required offset."""
        # Imported here: replica_manager imports this module.
        from kafka.server.replica_manager import Offline, Online

        for topic_partition, status in self.delete_records_status.items():
            self.trace(f"Checking delete records satisfaction for {topic_partition}, current status {status}")
            if not status.acks_pending:
                continue
            hosted = self._replica_manager.get_partition(topic_partition)
            if isinstance(hosted, Online):
                if hosted.partition.leader_log_if_local is not None:
                    leader_lw = hosted.partition.low_watermark_if_leader()
                    low_watermark_reached, error, lw = leader_lw >= status.required_offset, Errors.NONE, leader_lw
                else:
                    low_watermark_reached, error, lw = False, Errors.NOT_LEADER_OR_FOLLOWER, INVALID_LOW_WATERMARK
            elif isinstance(hosted, Offline):
                low_watermark_reached, error, lw = False, Errors.KAFKA_STORAGE_ERROR, INVALID_LOW_WATERMARK
            else:
                low_watermark_reached, error, lw = False, Errors.UNKNOWN_TOPIC_OR_PARTITION, INVALID_LOW_WATERMARK
            if error != Errors.NONE or low_watermark_reached:
                status.acks_pending = False
                status.response_status.error_code = error.code
                status.response_status.low_watermark = lw
        if not any(s.acks_pending for s in self.delete_records_status.values()):
            return self.force_complete()
        return False

    def on_expiration(self) -> None:
        for status in self.delete_records_status.values():
            if status.acks_pending:
                DelayedDeleteRecordsMetrics.record_expiration()

    def on_complete(self) -> None:
        """Answers with each partition's result as it stands."""
        self._response_callback({tp: status.response_status for tp, status in self.delete_records_status.items()})


class DelayedDeleteRecordsMetrics(KafkaMetricsGroup):
    """Kafka's `object DelayedDeleteRecordsMetrics`: the expiry meter of DeleteRecords requests."""

    @classmethod
    def record_expiration(cls) -> None:
        # The registry hands back the registered meter after the first call.
        cls().new_meter("ExpiresPerSec", "requests", TimeUnit.SECONDS).mark()
