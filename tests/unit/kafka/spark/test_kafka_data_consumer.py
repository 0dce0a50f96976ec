"""KafkaDataConsumer tells lost records from invisible ones as Spark's does: a gap above the partition's log start
(compaction, transaction markers, aborted records) is skipped quietly; offsets below the log start or out of range
are data loss, fatal with failOnDataLoss and skipped with it off; a poll that brings nothing is a timeout."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from kafka.clients.consumer.consumer_record import ConsumerRecord
from kafka.clients.consumer.internals.fetched_batch_decoder import RecordColumns
from kafka.clients.consumer.offset_out_of_range_exception import OffsetOutOfRangeException
from kafka.common.topic_partition import TopicPartition
from kafka.spark.consumer.kafka_data_consumer import AvailableOffsetRange, KafkaDataConsumer
from kafka.spark.kafka_exceptions import KafkaIllegalStateException, TimeoutException

TP = TopicPartition("t", 0)


class FakeConsumer:
    """A partition holding records at `offsets` (in [earliest, latest)); each poll returns up to `per_poll`."""

    def __init__(self, offsets: Sequence[int], earliest: int, latest: int, per_poll: int = 3) -> None:
        self.offsets = sorted(offsets)
        self.range = AvailableOffsetRange(earliest, latest)
        self.per_poll = per_poll
        self.closed = False

    def fetch(self, offset: int, poll_timeout_ms: int, columns: RecordColumns, max_records: int) -> tuple[int, int]:
        if offset < self.range.earliest or offset > self.range.latest:
            raise OffsetOutOfRangeException({TP: offset})
        found = [o for o in self.offsets if o >= offset][: self.per_poll]
        columns.append_records([ConsumerRecord("t", 0, o, b"k", b"v") for o in found])
        position = found[-1] + 1 if found else offset
        return len(found), position

    def get_available_offset_range(self) -> AvailableOffsetRange:
        return self.range

    def close(self) -> None:
        self.closed = True


def _read(fake: FakeConsumer, start: int, until: int, fail_on_data_loss: bool, batch_rows: int = 4) -> list[int]:
    consumer = KafkaDataConsumer(TP, {"group.id": "g"})
    consumer._consumer = fake  # type: ignore[assignment]
    consumer._get_or_retrieve_consumer = lambda: fake  # type: ignore[method-assign,assignment,return-value]  # a fake
    try:
        offsets = []
        seen: list[RecordColumns] = []
        for columns, rows in consumer.get_column_batches(start, until, 1000, fail_on_data_loss, False, batch_rows):
            assert rows > 0 and all(columns is not c for c in seen)
            seen.append(columns)
            offsets += [columns.offset_at(i) for i in range(rows)]
        return offsets
    finally:
        consumer.release()


def test_reads_the_range_and_stops_at_its_end() -> None:
    """Records of [from, until) come out in order; those at and past `until` are not returned, whatever the
    columns' size."""
    for batch_rows in (1, 2, 4, 100):
        assert _read(FakeConsumer(range(10), 0, 10), 2, 8, True, batch_rows) == list(range(2, 8))
        assert _read(FakeConsumer(range(10), 0, 10, per_poll=5), 2, 8, True, batch_rows) == list(range(2, 8))


def test_gaps_above_log_start_are_not_loss() -> None:
    """Offsets missing above the log start (compacted away, transaction markers) are skipped without error."""
    assert _read(FakeConsumer([0, 1, 4, 5, 9], 0, 10), 0, 10, True) == [0, 1, 4, 5, 9]


def test_records_below_log_start_are_loss() -> None:
    """A range starting below the log start fails with KAFKA_DATA_LOSS when failOnDataLoss, else resumes at it."""
    fake = FakeConsumer(range(5, 10), 5, 10)
    with pytest.raises(KafkaIllegalStateException, match=r"Could not read records in offset \[2, 10\)"):
        _read(fake, 2, 10, True)
    assert _read(FakeConsumer(range(5, 10), 5, 10), 2, 10, False) == list(range(5, 10))


def test_gap_at_log_start_detected_after_poll() -> None:
    """A poll that starts past the requested offset while the log start is past it too is data loss."""
    fake = FakeConsumer(range(6, 10), 3, 10)  # offsets 3..5 invisible: no loss
    assert _read(fake, 3, 10, True) == list(range(6, 10))

    class Moved(FakeConsumer):
        def fetch(self, offset: int, poll_timeout_ms: int, columns: RecordColumns, max_records: int) -> tuple[int, int]:
            rows, position = super().fetch(offset, poll_timeout_ms, columns, max_records)
            self.range = AvailableOffsetRange(7, 10)  # retention moved the log start during the poll
            return rows, position

    with pytest.raises(KafkaIllegalStateException, match=r"COULD_NOT_READ_OFFSET_RANGE"):
        _read(Moved(range(7, 10), 3, 10), 3, 10, True)


def test_range_gone_entirely() -> None:
    """A range wholly below the log start reads nothing without failOnDataLoss."""
    assert _read(FakeConsumer(range(20, 30), 20, 30), 2, 10, False) == []


def test_nothing_fetched_is_a_timeout() -> None:
    """No record within the poll timeout although the range is available is Spark's TimeoutException."""

    class Silent(FakeConsumer):
        def fetch(self, offset: int, poll_timeout_ms: int, columns: RecordColumns, max_records: int) -> tuple[int, int]:
            return 0, offset

    with pytest.raises(TimeoutException, match="Cannot fetch record for offset 2 in 1000 milliseconds"):
        _read(Silent(range(10), 0, 10), 2, 8, True)
