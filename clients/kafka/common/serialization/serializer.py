"""Port of clients/src/main/java/org/apache/kafka/common/serialization/Serializer.java (Kafka 3.7).

Turns a key or value into the bytes the producer writes into a record.

# PORT: Java overloads `serialize(topic, data)` and `serialize(topic, headers, data)`. Python has no
overloading, so the second is `serialize_with_headers`; by default it ignores the headers and calls
`serialize`, as Java's default method does. The producer always calls `serialize_with_headers`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from kafka.common.header.headers import Headers

T = TypeVar("T", contravariant=True)

__all__ = ["Serializer"]


class Serializer(ABC, Generic[T]):
    """Bytes for a key or value of type T; None stays None (a null key or value)."""

    def configure(self, configs: Mapping[str, Any], is_key: bool) -> None:
        """Receives the client's settings once, before first use; `is_key` tells key from value."""

    @abstractmethod
    def serialize(self, topic: str, data: T | None) -> bytes | None:
        """The bytes of `data` for a record bound to `topic`. Raise TypeError for a value of the wrong type."""

    def serialize_with_headers(self, topic: str, headers: Headers | None, data: T | None) -> bytes | None:
        """As `serialize`, with the record's headers at hand (a serializer may add to them)."""
        return self.serialize(topic, data)

    def close(self) -> None:
        """Releases whatever the serializer holds; called once when the producer closes."""

    def __enter__(self) -> Serializer[T]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
