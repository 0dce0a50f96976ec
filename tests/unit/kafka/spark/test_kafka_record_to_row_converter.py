"""Fetched columns become Arrow batches of Spark's Kafka schema: binary key and value (null stays null), the
partition's topic and number on every row, offsets, timestamps in microseconds (UTC) and each record's own
timestamp type id, also when a batch mixes CreateTime and LogAppendTime records; headers when asked; only the rows
of the range. Columns filled by the consumer's compiled loop and by its Python path give the same batch."""

from __future__ import annotations

import datetime
import random

import pytest

from kafka.clients.consumer.consumer_record import ConsumerRecord
from kafka.clients.consumer.internals import fetched_batch_decoder
from kafka.clients.consumer.internals.fetched_batch_decoder import RecordColumns, decode_default_batch
from kafka.common.header.internals.record_headers import RecordHeaders
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.default_record_batch import DefaultRecordBatch
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.simple_record import SimpleRecord
from kafka.common.record.timestamp_type import TimestampType
from kafka.spark.kafka_record_to_row_converter import arrow_schema, to_record_batch

pytest.importorskip("pyarrow")

CREATE, APPEND = TimestampType.CREATE_TIME, TimestampType.LOG_APPEND_TIME


def _record(
    offset: int, key: bytes | None, timestamp_type: TimestampType, headers: RecordHeaders | None = None
) -> ConsumerRecord[bytes, bytes]:
    value = b"v%d" % offset
    return ConsumerRecord(
        "t",
        3,
        offset,
        key,
        value,
        timestamp=1_700_000_000_000 + offset,
        timestamp_type=timestamp_type,
        serialized_key_size=-1 if key is None else len(key),
        serialized_value_size=len(value),
        headers=headers,
    )


def _columns(records: list[ConsumerRecord[bytes, bytes]], include_headers: bool = False) -> RecordColumns:
    columns = RecordColumns(include_headers)
    columns.append_records(records)
    return columns


@pytest.mark.parametrize("types", [[CREATE, CREATE, CREATE], [APPEND, APPEND, APPEND], [CREATE, APPEND, CREATE]])
def test_columns(types: list[TimestampType]) -> None:
    records = [_record(10 + i, None if i == 1 else b"k%d" % i, t) for i, t in enumerate(types)]
    batch = to_record_batch("t", 3, _columns(records), 3, include_headers=False)
    assert batch.schema == arrow_schema(False)
    assert batch.to_pydict() == {
        "key": [b"k0", None, b"k2"],
        "value": [b"v10", b"v11", b"v12"],
        "topic": ["t"] * 3,
        "partition": [3] * 3,
        "offset": [10, 11, 12],
        "timestamp": [
            datetime.datetime.fromtimestamp((1_700_000_000_000 + o) / 1000, datetime.UTC) for o in (10, 11, 12)
        ],
        "timestampType": [t.id for t in types],
    }


def test_only_the_first_rows() -> None:
    """Rows past the range's end stay out of the batch."""
    records = [_record(i, b"k", CREATE, RecordHeaders([("h", b"%d" % i)])) for i in range(5)]
    batch = to_record_batch("t", 3, _columns(records, True), 2, include_headers=True)
    assert batch.num_rows == 2
    assert batch.column(4).to_pylist() == [0, 1]
    assert batch.column(7).to_pylist() == [[{"key": "h", "value": b"0"}], [{"key": "h", "value": b"1"}]]


def test_headers() -> None:
    headers = RecordHeaders([("a", b"1"), ("b", None)])
    records = [_record(0, b"k", CREATE, headers), _record(1, b"k", CREATE), _record(2, b"k", CREATE, RecordHeaders())]
    batch = to_record_batch("t", 3, _columns(records, True), 3, include_headers=True)
    assert batch.schema == arrow_schema(True)
    assert batch.column(batch.schema.get_field_index("headers")).to_pylist() == [
        [{"key": "a", "value": b"1"}, {"key": "b", "value": None}],
        None,
        None,
    ]
    without = to_record_batch("t", 3, _columns(records[1:], True), 2, include_headers=True)
    assert without.column(7).to_pylist() == [None, None]


def test_compiled_and_python_columns_give_the_same_batch() -> None:
    """Null and empty keys and values at every bit of the validity bitmaps, several batches in one columns: the
    compiled loop's batch equals the Python path's, and both hold the records."""
    if fetched_batch_decoder._compiled_decode_columns is None:
        pytest.skip("the optional _fetched_batch_decoder extension is not built")
    rnd = random.Random(5)
    compiled, python, expected = RecordColumns(), RecordColumns(), []
    for b in range(10):
        simple = [
            SimpleRecord(
                1_700_000_000_000 + i,
                rnd.choice([None, b"", b"k%d" % i]),
                rnd.choice([None, b"", b"v" * rnd.randrange(300)]),
            )
            for i in range(97)
        ]
        batch = next(iter(MemoryRecords.with_records(CompressionType.NONE, *simple, initial_offset=100 * b).batches()))
        assert isinstance(batch, DefaultRecordBatch)
        assert compiled.decode_batch(batch, 0) == 97
        records = decode_default_batch(batch, "t", 3, 0)[0]
        python.append_records(records)
        expected += records
    n = len(expected)
    batch = to_record_batch("t", 3, compiled, n, include_headers=False)
    assert batch.equals(to_record_batch("t", 3, python, n, include_headers=False))
    assert batch.column(0).to_pylist() == [r.key for r in expected]
    assert batch.column(1).to_pylist() == [r.value for r in expected]
    assert batch.column(4).to_pylist() == [r.offset for r in expected]
