"""CompletedFetch's batch selection: the one-unpack check of a common v2 batch returns what the full checks do."""

from __future__ import annotations

from typing import Any

import pytest

from kafka.clients.consumer.internals import completed_fetch
from kafka.clients.consumer.internals.completed_fetch import CompletedFetch
from kafka.clients.consumer.internals.deserializers import Deserializers
from kafka.clients.consumer.internals.fetch_config import FetchConfig
from kafka.clients.consumer.internals.subscription_state import SubscriptionState
from kafka.clients.consumer.offset_reset_strategy import OffsetResetStrategy
from kafka.common.isolation_level import IsolationLevel
from kafka.common.message import FetchResponseData
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.control_record_type import ControlRecordType
from kafka.common.record.end_transaction_marker import EndTransactionMarker
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.simple_record import SimpleRecord
from kafka.common.serialization.byte_array_deserializer import ByteArrayDeserializer
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext

TP = TopicPartition("t", 0)


def _records(offset: int, n: int, **kwargs: Any) -> bytes:
    records = [SimpleRecord(1000 + i, None, f"v{offset + i}".encode()) for i in range(n)]
    return bytes(MemoryRecords.with_records(CompressionType.NONE, *records, initial_offset=offset, **kwargs).buffer())


def _section() -> bytes:
    """Plain v2 batches with and without a leader epoch, a transactional batch and its abort marker, a committed
    transaction, gzip, the old formats, then a batch whose CRC is wrong."""
    parts = [
        _records(0, 3),
        _records(3, 2, partition_leader_epoch=7),
        _records(
            5, 2, producer_id=11, producer_epoch=0, base_sequence=0, is_transactional=True, partition_leader_epoch=7
        ),
        bytes(
            MemoryRecords.with_end_transaction_marker(
                11, 0, EndTransactionMarker(ControlRecordType.ABORT, 7), 7, 7
            ).buffer()
        ),
        _records(8, 2, producer_id=12, producer_epoch=0, base_sequence=0, is_transactional=True),
        bytes(
            MemoryRecords.with_end_transaction_marker(
                12, 0, EndTransactionMarker(ControlRecordType.COMMIT, 7), 10, 7
            ).buffer()
        ),
        bytes(
            MemoryRecords.with_records(
                CompressionType.GZIP, SimpleRecord(1, None, b"z"), SimpleRecord(2, None, b"zz"), initial_offset=11
            ).buffer()
        ),
        _records(13, 1, magic=1),
        _records(14, 1, magic=0),
        _records(15, 2),
    ]
    corrupt = bytearray(_records(17, 2))
    corrupt[-1] ^= 0xFF
    parts.append(bytes(corrupt))
    parts.append(_records(19, 1))
    return b"".join(parts)


def _drain(check_crcs: bool, isolation: IsolationLevel, start: int) -> list[Any]:
    """What the application gets, poll by poll (at most 2 records a poll): offsets, the last epoch, the position,
    or the error."""
    subscriptions = SubscriptionState(LogContext(), OffsetResetStrategy.EARLIEST)
    subscriptions.assign_from_user({TP})
    data = FetchResponseData.PartitionData(
        partition_index=0,
        high_watermark=20,
        last_stable_offset=20,
        records=MemoryRecords.readable_records(memoryview(bytearray(_section()))),
    )
    aborted = FetchResponseData.AbortedTransaction(producer_id=11, first_offset=5)
    data.aborted_transactions = [aborted]
    fetch: CompletedFetch = CompletedFetch(LogContext(), subscriptions, TP, data, start, 12)
    config = FetchConfig(1, 2**20, 500, 2**20, 2, check_crcs, "", isolation)
    deserializers = Deserializers(ByteArrayDeserializer(), ByteArrayDeserializer())
    seen: list[Any] = []
    for _ in range(20):
        try:
            records = fetch.fetch_records(config, deserializers, 2)
        except Exception as e:
            seen.append((type(e).__name__, str(e)))
            break
        seen.append(([r.offset for r in records], fetch.last_epoch(), fetch.next_fetch_offset()))
        if fetch.is_consumed():
            break
    return seen


@pytest.mark.parametrize("check_crcs", [True, False])
@pytest.mark.parametrize("isolation", [IsolationLevel.READ_UNCOMMITTED, IsolationLevel.READ_COMMITTED])
@pytest.mark.parametrize("start", [0, 1, 4, 9])
def test_the_one_unpack_check_selects_batches_as_the_full_checks(
    check_crcs: bool, isolation: IsolationLevel, start: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = _drain(check_crcs, isolation, start)
    # No batch is long enough for the one-unpack check: every batch takes the full checks.
    monkeypatch.setattr(completed_fetch, "_RECORD_BATCH_OVERHEAD", 1 << 62)
    assert _drain(check_crcs, isolation, start) == fast
    assert any(offsets for offsets, *_ in fast[:-1])
    if check_crcs:
        assert fast[-1][0] == "KafkaException"
