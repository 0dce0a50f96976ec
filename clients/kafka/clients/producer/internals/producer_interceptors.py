"""Port of clients/src/main/java/org/apache/kafka/clients/producer/internals/ProducerInterceptors.java (Kafka 3.7).

Runs the configured ProducerInterceptors in order, logging and swallowing whatever they raise, so that
a faulty interceptor never fails a send.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Generic, TypeVar

from kafka.clients.producer.producer_interceptor import ProducerInterceptor
from kafka.clients.producer.producer_record import ProducerRecord
from kafka.clients.producer.record_metadata import RecordMetadata
from kafka.common.record.record_batch import NO_TIMESTAMP
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext

K = TypeVar("K")
V = TypeVar("V")

__all__ = ["ProducerInterceptors"]

_log = LogContext().logger("org.apache.kafka.clients.producer.internals.ProducerInterceptors")


class ProducerInterceptors(Generic[K, V]):
    """The interceptor chain of one producer."""

    def __init__(self, interceptors: Sequence[ProducerInterceptor[K, V]]) -> None:
        self._interceptors = list(interceptors)

    def on_send(self, record: ProducerRecord[K, V]) -> ProducerRecord[K, V]:
        """Passes the record through each interceptor; one that fails is skipped (its input goes on)."""
        intercept_record = record
        for interceptor in self._interceptors:
            try:
                intercept_record = interceptor.on_send(intercept_record)
            except Exception as e:
                if record is not None:
                    _log.warn(
                        f"Error executing interceptor onSend callback for topic: {record.topic}, partition: "
                        f"{record.partition}",
                        e,
                    )
                else:
                    _log.warn("Error executing interceptor onSend callback", e)
        return intercept_record

    def on_acknowledgement(self, metadata: RecordMetadata | None, exception: BaseException | None) -> None:
        for interceptor in self._interceptors:
            try:
                interceptor.on_acknowledgement(metadata, exception)
            except Exception as e:
                _log.warn("Error executing interceptor onAcknowledgement callback", e)

    def on_send_error(
        self,
        record: ProducerRecord[K, V] | None,
        intercept_topic_partition: TopicPartition | None,
        exception: BaseException,
    ) -> None:
        """Tells the interceptors about a record that failed before it reached the accumulator."""
        for interceptor in self._interceptors:
            try:
                if record is None and intercept_topic_partition is None:
                    interceptor.on_acknowledgement(None, exception)
                else:
                    if intercept_topic_partition is None:
                        assert record is not None
                        intercept_topic_partition = self.extract_topic_partition(record)
                    interceptor.on_acknowledgement(
                        RecordMetadata(intercept_topic_partition, -1, -1, NO_TIMESTAMP, -1, -1), exception
                    )
            except Exception as e:
                _log.warn("Error executing interceptor onAcknowledgement callback", e)

    @staticmethod
    def extract_topic_partition(record: ProducerRecord[K, V]) -> TopicPartition:
        return TopicPartition(
            record.topic, RecordMetadata.UNKNOWN_PARTITION if record.partition is None else record.partition
        )

    def close(self) -> None:
        for interceptor in self._interceptors:
            try:
                interceptor.close()
            except Exception as e:
                _log.error("Failed to close producer interceptor ", e)

    def __len__(self) -> int:
        return len(self._interceptors)
