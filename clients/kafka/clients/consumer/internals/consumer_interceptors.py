"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/ConsumerInterceptors.java (Kafka 3.7).

The configured ConsumerInterceptors, called in order; an interceptor's error is logged and the next one
is called.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Generic, TypeVar

from kafka.clients.consumer.consumer_interceptor import ConsumerInterceptor
from kafka.clients.consumer.consumer_records import ConsumerRecords
from kafka.clients.consumer.offset_and_metadata import OffsetAndMetadata
from kafka.common.topic_partition import TopicPartition

K = TypeVar("K")
V = TypeVar("V")

__all__ = ["ConsumerInterceptors"]

_log = logging.getLogger("org.apache.kafka.clients.consumer.internals.ConsumerInterceptors")


class ConsumerInterceptors(Generic[K, V]):
    def __init__(self, interceptors: Sequence[ConsumerInterceptor[K, V]]) -> None:
        self._interceptors = list(interceptors)

    def on_consume(self, records: ConsumerRecords[K, V]) -> ConsumerRecords[K, V]:
        intercepted = records
        for interceptor in self._interceptors:
            try:
                intercepted = interceptor.on_consume(intercepted)
            except Exception as e:
                # Not propagated: the next interceptor still runs.
                _log.warning("Error executing interceptor onConsume callback", exc_info=e)
        return intercepted

    def on_commit(self, offsets: Mapping[TopicPartition, OffsetAndMetadata]) -> None:
        for interceptor in self._interceptors:
            try:
                interceptor.on_commit(offsets)
            except Exception as e:
                _log.warning("Error executing interceptor onCommit callback", exc_info=e)

    def close(self) -> None:
        for interceptor in self._interceptors:
            try:
                interceptor.close()
            except Exception as e:
                _log.error("Failed to close consumer interceptor ", exc_info=e)
