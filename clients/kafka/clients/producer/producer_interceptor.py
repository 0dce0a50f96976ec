"""Port of clients/src/main/java/org/apache/kafka/clients/producer/ProducerInterceptor.java (Kafka 3.7).

A plug-in (`interceptor.classes`) that may see and change each record before it is serialized, and
that hears of every acknowledgement and failure.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from kafka.clients.producer.producer_record import ProducerRecord
    from kafka.clients.producer.record_metadata import RecordMetadata

K = TypeVar("K")
V = TypeVar("V")

__all__ = ["ProducerInterceptor"]


class ProducerInterceptor(ABC, Generic[K, V]):
    """Hooks around every send. Exceptions they raise are logged and otherwise ignored."""

    def configure(self, configs: Mapping[str, Any]) -> None:
        """Receives the producer's settings once, before first use."""

    @abstractmethod
    def on_send(self, record: ProducerRecord[K, V]) -> ProducerRecord[K, V]:
        """Called on the caller's thread before serialization; returns the record to send (maybe another one)."""

    @abstractmethod
    def on_acknowledgement(self, metadata: RecordMetadata | None, exception: BaseException | None) -> None:
        """Called on the I/O thread when a record is acknowledged or fails, before the user's callback."""

    def close(self) -> None:
        """Called once when the producer closes."""
