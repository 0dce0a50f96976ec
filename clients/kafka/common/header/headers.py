"""Port of clients/src/main/java/org/apache/kafka/common/header/Headers.java (Kafka 3.7).

The ordered, multi-valued headers of one record, as producers and consumers see them.

# PORT: the single-header type (Java's Header and RecordHeader) already lives in
kafka.common.record.record_header, where the record layer reads and writes it; it is re-exported here.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator

from kafka.common.record.record_header import Header, RecordHeader

__all__ = ["Header", "Headers", "RecordHeader"]


class Headers(ABC):
    """Headers in insertion order; a key may repeat."""

    @abstractmethod
    def add(self, header: Header | str, value: bytes | None = None) -> Headers:
        """Appends a header (or a key and value) and returns self; fails once the headers are read-only."""

    @abstractmethod
    def remove(self, key: str) -> Headers:
        """Removes every header with `key` and returns self; fails once the headers are read-only."""

    @abstractmethod
    def last_header(self, key: str) -> Header | None:
        """The header with `key` added last, or None."""

    @abstractmethod
    def headers(self, key: str) -> Iterable[Header]:
        """Every header with `key`, in order."""

    @abstractmethod
    def to_array(self) -> tuple[Header, ...]:
        """All headers, in order."""

    @abstractmethod
    def __iter__(self) -> Iterator[Header]: ...
