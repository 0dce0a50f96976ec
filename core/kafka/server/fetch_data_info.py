"""Port of core/src/main/scala/kafka/server/FetchDataInfo.scala (Kafka 2.8).

What a read from the log returns: the offset metadata of the first byte read, the records (a
zero-copy FileRecords slice when read from a segment), and, for READ_COMMITTED fetches, the
aborted transactions that overlap the records. Also the isolation levels a fetch can read at.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kafka.server.log_offset_metadata import LogOffsetMetadata

if TYPE_CHECKING:
    from kafka.common.message import FetchResponseData
    from kafka.common.record.records import Records


class FetchIsolation:
    """How far a fetch may read: to the log end, the high watermark, or the last stable offset (a sealed trait:
    the three subclasses are its only values).

    # PORT: not an ABC (it has no abstract methods): isinstance checks against the subclasses, several per
    partition read of every fetch, then stay in C instead of going through ABCMeta.__instancecheck__.
    """

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class FetchLogEnd(FetchIsolation):
    """Read up to the log end offset (followers)."""


@dataclass(frozen=True, slots=True)
class FetchHighWatermark(FetchIsolation):
    """Read up to the high watermark (READ_UNCOMMITTED consumers)."""


@dataclass(frozen=True, slots=True)
class FetchTxnCommitted(FetchIsolation):
    """Read up to the last stable offset (READ_COMMITTED consumers)."""


@dataclass(frozen=True, slots=True)
class FetchDataInfo:
    """The result of reading a log.

    `first_entry_incomplete` is set when the first batch at the fetch offset was larger than the
    bytes allowed and was left out. `aborted_transactions` is None unless the read was at
    FetchTxnCommitted.

    # PORT: Kafka 2.8 carries FetchResponse.AbortedTransaction; this port speaks the 3.7 protocol,
    whose generated FetchResponseData.AbortedTransaction (producer_id, first_offset) is used instead.
    """

    fetch_offset_metadata: LogOffsetMetadata
    records: Records
    first_entry_incomplete: bool = False
    aborted_transactions: list[FetchResponseData.AbortedTransaction] | None = None
