"""Port of clients/src/main/java/org/apache/kafka/common/serialization/Deserializer.java (Kafka 3.7).

Turns the bytes of a record's key or value back into an object.

# PORT: Java overloads `deserialize` with a headers argument (and a ByteBuffer one); here the variant
with headers is `deserialize_with_headers`, which by default ignores them. A memoryview may be passed
wherever Java passes a ByteBuffer.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from kafka.common.header.headers import Headers

T = TypeVar("T", covariant=True)

Buffer = bytes | bytearray | memoryview

__all__ = ["Deserializer"]


class Deserializer(ABC, Generic[T]):
    """An object of type T from bytes; None (a null key or value) stays None."""

    def configure(self, configs: Mapping[str, Any], is_key: bool) -> None:
        """Receives the client's settings once, before first use; `is_key` tells key from value."""

    @abstractmethod
    def deserialize(self, topic: str, data: Buffer | None) -> T | None:
        """The object encoded in `data`, read from a record of `topic`."""

    def deserialize_with_headers(self, topic: str, headers: Headers | None, data: Buffer | None) -> T | None:
        """As `deserialize`, with the record's headers at hand."""
        return self.deserialize(topic, data)

    def close(self) -> None:
        """Releases whatever the deserializer holds; called once when the client closes."""

    def __enter__(self) -> Deserializer[T]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
