"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/ConsumerInterceptor.java (Kafka 3.7).

A plug-in (interceptor.classes) that sees, and may replace, the records `poll` returns, and is told of
every successful commit. Errors it raises are logged, not propagated.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping
from typing import Any, Generic, TypeVar

from kafka.clients.consumer.consumer_records import ConsumerRecords
from kafka.clients.consumer.offset_and_metadata import OffsetAndMetadata
from kafka.common.topic_partition import TopicPartition

K = TypeVar("K")
V = TypeVar("V")

__all__ = ["ConsumerInterceptor"]


class ConsumerInterceptor(abc.ABC, Generic[K, V]):
    def configure(self, configs: Mapping[str, Any]) -> None:
        """Receives the consumer's settings once, before first use."""

    @abc.abstractmethod
    def on_consume(self, records: ConsumerRecords[K, V]) -> ConsumerRecords[K, V]:
        """Called with the records `poll` is about to return; returns the records to hand out instead."""

    @abc.abstractmethod
    def on_commit(self, offsets: Mapping[TopicPartition, OffsetAndMetadata]) -> None:
        """Called after offsets were committed."""

    def close(self) -> None:
        """Called once when the consumer closes."""
