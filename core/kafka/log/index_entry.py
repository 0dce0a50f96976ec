"""Port of core/src/main/scala/kafka/log/IndexEntry.scala (Kafka 2.8).

The two kinds of index entry: an offset with the byte position of its batch (offset index), and
a timestamp with the offset from which every later record is at least that recent (time index).
Both expose a key and a value so that the index search can compare either.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar

# ListOffsetsResponse.UNKNOWN_TIMESTAMP and UNKNOWN_OFFSET.
_UNKNOWN_TIMESTAMP = -1
_UNKNOWN_OFFSET = -1


class IndexEntry(ABC):
    """An entry of an offset or time index, seen as a (key, value) pair of integers."""

    __slots__ = ()

    @property
    @abstractmethod
    def index_key(self) -> int:
        """The field entries are sorted by: the offset, or the timestamp."""

    @property
    @abstractmethod
    def index_value(self) -> int:
        """The other field: the file position, or the offset."""


@dataclass(frozen=True, slots=True)
class OffsetPosition(IndexEntry):
    """An offset and the byte position in the segment file of the batch holding it."""

    offset: int
    position: int

    @property
    def index_key(self) -> int:
        return self.offset

    @property
    def index_value(self) -> int:
        return self.position


@dataclass(frozen=True, slots=True)
class TimestampOffset(IndexEntry):
    """A timestamp and an offset: records after the offset are not older than the timestamp."""

    timestamp: int
    offset: int

    UNKNOWN: ClassVar[TimestampOffset]

    @property
    def index_key(self) -> int:
        return self.timestamp

    @property
    def index_value(self) -> int:
        return self.offset


TimestampOffset.UNKNOWN = TimestampOffset(_UNKNOWN_TIMESTAMP, _UNKNOWN_OFFSET)
