"""Tests of the consumer's columnar fetch (RecordColumns, CompletedFetch.fetch_columns, Fetcher.set_columns): the
compiled loop and the Python path give byte-identical columns, and a columnar collect returns the rows, moves the
position and raises the errors of a record collect (control records, aborted transactions, records before the
position, malformed records, CRC errors)."""

from __future__ import annotations

import random
import struct
from typing import Any

import pytest

from kafka.clients.consumer.internals import fetched_batch_decoder
from kafka.clients.consumer.internals.fetched_batch_decoder import RecordColumns, decode_default_batch
from kafka.common.errors import KafkaException
from kafka.common.isolation_level import IsolationLevel
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.default_record_batch import DefaultRecordBatch
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.record_header import RecordHeader
from kafka.common.record.simple_record import SimpleRecord
from kafka.common.record.timestamp_type import TimestampType
from tests.unit.kafka.clients.consumer.internals.test_fetcher import (
    TP0,
    _batch_with_bad_third_record,
    _bytes_env,
    _concat,
    _Env,
    _marker,
    _offset,
    _partition_data,
    _records,
    _response,
    _transactional,
)
from tests.utils import compiled_or_python

_COMPILED_COLUMNS = fetched_batch_decoder._compiled_decode_columns


@pytest.fixture(params=["compiled", "python"])
def mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The columnar path: the compiled column loop (skipped where the extension is not built) or Python's."""
    return compiled_or_python(
        request,
        monkeypatch,
        _COMPILED_COLUMNS,
        "_fetched_batch_decoder",
        (fetched_batch_decoder, "_compiled_decode_columns"),
        (fetched_batch_decoder, "_compiled_decode_records"),
    )


def _rows(columns: RecordColumns) -> list[tuple[Any, ...]]:
    """The columns read back as (offset, timestamp, timestamp type id, key, value, headers) rows."""
    n = len(columns)
    assert len(columns.timestamps) == 8 * n and len(columns.timestamp_types) == n
    out = []
    for i in range(n):
        row: list[Any] = [
            struct.unpack_from("<q", columns.offsets, 8 * i)[0],
            struct.unpack_from("<q", columns.timestamps, 8 * i)[0],
            struct.unpack_from("<b", columns.timestamp_types, i)[0],
        ]
        for validity, offsets, data in (
            (columns.key_validity, columns.key_offsets, columns.key_data),
            (columns.value_validity, columns.value_offsets, columns.value_data),
        ):
            start, end = struct.unpack_from("<ii", offsets, 4 * i)
            row.append(bytes(data[start:end]) if validity[i >> 3] & (1 << (i & 7)) else None)
            assert len(validity) == (n + 7) // 8 and len(offsets) == 4 * (n + 1)
        row.append(columns.headers.get(i))
        out.append(tuple(row))
    return out


def _record_rows(batch: DefaultRecordBatch, min_offset: int = 0) -> list[tuple[Any, ...]]:
    records, error = decode_default_batch(batch, "t", 0, min_offset)
    assert error is None
    return [
        (
            r.offset,
            r.timestamp,
            r.timestamp_type.id,
            r.key,
            r.value,
            [(h.key(), h.value()) for h in r.headers] or None,
        )
        for r in records
    ]


def _buffers(columns: RecordColumns) -> list[bytes]:
    return [bytes(b) for b in columns._buffers]


def _only_batch(records: MemoryRecords) -> DefaultRecordBatch:
    (batch,) = list(records.batches())
    assert isinstance(batch, DefaultRecordBatch)
    return batch


def _common_records(n: int, seed: int) -> list[SimpleRecord]:
    rnd = random.Random(seed)
    return [
        SimpleRecord(
            1_700_000_000_000 + i * rnd.choice([0, 1, 90, 20_000, 5_000_000]),
            rnd.choice([None, b"", b"k%d" % i]),
            rnd.choice([None, b"", b"v" * rnd.choice([1, 63, 64, 100, 8192])]),
        )
        for i in range(n)
    ]


@pytest.mark.parametrize("compression", list(CompressionType.values()), ids=lambda c: c.name)
def test_compiled_columns_equal_the_record_path(compression: CompressionType) -> None:
    """Common records of every codec: the compiled loop's buffers are byte for byte those the record path
    appends, and read back as the records."""
    if _COMPILED_COLUMNS is None:
        pytest.skip("the optional _fetched_batch_decoder extension is not built")
    for min_offset in (0, 1000, 1077, 2000):
        batch = _only_batch(MemoryRecords.with_records(compression, *_common_records(150, 3), initial_offset=1000))
        compiled = RecordColumns()
        assert compiled.decode_batch(batch, min_offset) == max(0, min(150, 1150 - min_offset))
        python = RecordColumns()
        python.append_records(decode_default_batch(batch, "t", 0, min_offset)[0])
        assert _buffers(compiled) == _buffers(python)
        assert _rows(compiled) == _record_rows(batch, min_offset)


def test_compiled_columns_append_after_earlier_rows() -> None:
    """Batches appended one after the other (the validity bitmap's bytes shared across them) read back whole."""
    if _COMPILED_COLUMNS is None:
        pytest.skip("the optional _fetched_batch_decoder extension is not built")
    compiled, python, expected = RecordColumns(), RecordColumns(), []
    for i, n in enumerate([3, 5, 13, 1, 8, 30]):
        batch = _only_batch(
            MemoryRecords.with_records(CompressionType.NONE, *_common_records(n, i), initial_offset=100 * i)
        )
        assert compiled.decode_batch(batch, 0) == n
        python.append_records(decode_default_batch(batch, "t", 0, 0)[0])
        expected += _record_rows(batch)
    assert _buffers(compiled) == _buffers(python)
    assert _rows(compiled) == expected


def test_log_append_time_columns() -> None:
    """With LogAppendTime every row has the batch's max timestamp and timestamp type 1."""
    if _COMPILED_COLUMNS is None:
        pytest.skip("the optional _fetched_batch_decoder extension is not built")
    raw = bytearray(bytes(MemoryRecords.with_records(CompressionType.NONE, *_common_records(5, 1)).buffer()))
    struct.pack_into(">h", raw, 21, struct.unpack_from(">h", raw, 21)[0] | 0x08)
    batch = DefaultRecordBatch(bytes(raw))
    assert batch.timestamp_type() is TimestampType.LOG_APPEND_TIME
    columns = RecordColumns()
    assert columns.decode_batch(batch, 0) == 5
    assert _rows(columns) == _record_rows(batch)
    assert {row[1] for row in _rows(columns)} == {batch.max_timestamp()}


def test_batches_with_headers_are_left_to_the_record_path() -> None:
    """A batch with a record of headers is not decoded by the compiled loop (nothing appended); the record
    path's rows carry the headers when they are asked for."""
    if _COMPILED_COLUMNS is None:
        pytest.skip("the optional _fetched_batch_decoder extension is not built")
    records = [
        SimpleRecord(1, None, b"a"),
        SimpleRecord(2, b"k", b"b", [RecordHeader("h", b"x"), RecordHeader("n", None)]),
    ]
    batch = _only_batch(MemoryRecords.with_records(CompressionType.NONE, *records))
    columns = RecordColumns(include_headers=True)
    assert columns.decode_batch(batch, 0) is None
    assert len(columns) == 0 and _buffers(columns) == _buffers(RecordColumns())
    columns.append_records(decode_default_batch(batch, "t", 0, 0)[0])
    assert [row[5] for row in _rows(columns)] == [None, [("h", b"x"), ("n", None)]]


def test_randomly_damaged_batches_give_the_record_path_columns_or_nothing() -> None:
    """Bytes of a batch's record section overwritten at random: the compiled loop either appends nothing or
    exactly the rows the record path decodes without error."""
    if _COMPILED_COLUMNS is None:
        pytest.skip("the optional _fetched_batch_decoder extension is not built")
    rnd = random.Random(5)
    clean = bytes(MemoryRecords.with_records(CompressionType.NONE, *_common_records(40, 9)).buffer())
    decoded_some = 0
    for _ in range(1500):
        raw = bytearray(clean)
        for _ in range(rnd.choice([1, 2, 4])):
            at = rnd.randrange(DefaultRecordBatch.RECORDS_OFFSET, len(raw))
            raw[at] = rnd.choice([0, 1, 0x7F, 0x80, 0xFF, rnd.randrange(256)])
        batch = DefaultRecordBatch(bytes(raw))
        columns = RecordColumns()
        rows = columns.decode_batch(batch, 0)
        if rows is None:
            assert _buffers(columns) == _buffers(RecordColumns())
            continue
        decoded_some += 1
        records, error = decode_default_batch(batch, "t", 0, 0)
        assert error is None
        python = RecordColumns()
        python.append_records(records)
        assert _buffers(columns) == _buffers(python)
    assert decoded_some > 0


def _collect_rows(e: _Env, include_headers: bool = False, max_records: int = 10_000) -> list[tuple[Any, ...]]:
    columns = RecordColumns(include_headers)
    e.fetcher.set_columns(columns, max_records)
    try:
        fetch = e.fetcher.collect_fetch()
    finally:
        e.fetcher.set_columns(None)
    assert fetch.records() == {}
    assert fetch.is_empty() is (len(columns) == 0)
    return _rows(columns)


def _fetch_rows(e: _Env, data: Any, include_headers: bool = False, max_records: int = 10_000) -> list[Any]:
    assert e.send_fetches() == 1
    e.client.prepare_response(_response(TP0, data))
    e.consumer_client.poll(e.time.timer(0))
    return _collect_rows(e, include_headers, max_records)


@pytest.mark.parametrize("compression", list(CompressionType.values()), ids=lambda c: c.name)
def test_columnar_collect_every_codec_from_inside_a_batch(mode: str, compression: CompressionType) -> None:
    """Rows from the position on (the first batch begins before it), headers when asked, the position after the
    last row; the next collect has nothing."""
    e = _bytes_env()
    try:
        e.assign_and_seek(TP0, 1)
        data = _concat(_records(compression, base=0), _records(compression, base=3))
        rows = _fetch_rows(e, _partition_data(data, hw=6), include_headers=True)
        assert [(r[0], r[1], r[3], r[4], r[5]) for r in rows] == [
            (1, 1001, b"key-1", b"value-1", [("h", b"x")]),
            (2, 1002, b"key-2", b"value-2", [("h", b"x")]),
            (3, 1000, b"key-0", b"value-0", [("h", b"x")]),
            (4, 1001, b"key-1", b"value-1", [("h", b"x")]),
            (5, 1002, b"key-2", b"value-2", [("h", b"x")]),
        ]
        assert _offset(e, TP0) == 6
        assert _collect_rows(e) == []
    finally:
        e.close()


def test_columnar_collect_takes_whole_batches_up_to_max_records(mode: str) -> None:
    """A collect stops after the batch that reaches its limit; the next one goes on from there."""
    e = _bytes_env()
    try:
        e.assign_and_seek(TP0, 0)
        batches = [
            MemoryRecords.with_records(CompressionType.NONE, *_common_records(4, i), initial_offset=4 * i)
            for i in range(3)
        ]
        rows = _fetch_rows(e, _partition_data(_concat(*batches), hw=12), max_records=5)
        assert [r[0] for r in rows] == list(range(8))
        assert _offset(e, TP0) == 8
        assert [r[0] for r in _collect_rows(e, max_records=5)] == [8, 9, 10, 11]
        assert _offset(e, TP0) == 12
    finally:
        e.close()


def test_columnar_collect_read_committed(mode: str) -> None:
    """Aborted transactions and control records are skipped and the position passes the markers, as poll does."""
    e = _Env(IsolationLevel.READ_COMMITTED)
    try:
        e.assign_and_seek(TP0, 0)
        data = _concat(
            _transactional(1, 0, ["a1"]),
            _transactional(1, 1, ["a2"]),
            _marker(1, 2, commit=False),
            _transactional(1, 3, ["c1", "c2"]),
            _marker(1, 5, commit=True),
        )
        rows = _fetch_rows(e, _partition_data(data, hw=6, last_stable_offset=6, aborted=[(1, 0)]))
        assert [(r[0], r[4]) for r in rows] == [(3, b"c1"), (4, b"c2")]
        assert _offset(e, TP0) == 6
    finally:
        e.close()


def test_columnar_collect_only_markers_advance_position(mode: str) -> None:
    e = _Env(IsolationLevel.READ_COMMITTED)
    try:
        e.assign_and_seek(TP0, 0)
        data = _concat(_transactional(1, 0, ["x"]), _marker(1, 1, commit=False))
        assert e.send_fetches() == 1
        e.client.prepare_response(_response(TP0, _partition_data(data, aborted=[(1, 0)])))
        e.consumer_client.poll(e.time.timer(0))
        columns = RecordColumns()
        e.fetcher.set_columns(columns, 100)
        fetch = e.fetcher.collect_fetch()
        e.fetcher.set_columns(None)
        assert len(columns) == 0 and fetch.position_advanced() and not fetch.is_empty()
        assert _offset(e, TP0) == 2
    finally:
        e.close()


def test_columnar_collect_skips_compacted_gaps(mode: str) -> None:
    """Offsets missing inside and after a batch (compaction) are skipped; the position follows the batches."""
    e = _bytes_env()
    try:
        e.assign_and_seek(TP0, 0)
        data = _concat(
            MemoryRecords.with_records(CompressionType.NONE, SimpleRecord(1, None, b"a"), initial_offset=2),
            MemoryRecords.with_records(CompressionType.NONE, SimpleRecord(1, b"k", b"b"), initial_offset=7),
        )
        rows = _fetch_rows(e, _partition_data(data, hw=10))
        assert [(r[0], r[3], r[4]) for r in rows] == [(2, None, b"a"), (7, b"k", b"b")]
        assert _offset(e, TP0) == 8
    finally:
        e.close()


def test_columnar_collect_malformed_record_after_good_ones(mode: str) -> None:
    """The rows before a malformed record come back; the next collects raise until the application seeks."""
    e = _bytes_env()
    try:
        e.assign_and_seek(TP0, 0)
        rows = _fetch_rows(e, _partition_data(_batch_with_bad_third_record()))
        assert [r[0] for r in rows] == [0, 1]
        assert _offset(e, TP0) == 2
        for _ in range(2):
            with pytest.raises(KafkaException, match="fetching the next record from test-0") as err:
                _collect_rows(e)
            assert "Invalid record size" in str(err.value.__cause__)
        assert _offset(e, TP0) == 2
    finally:
        e.close()


def test_columnar_collect_checks_crcs(mode: str) -> None:
    e = _bytes_env()
    try:
        e.assign_and_seek(TP0, 0)
        raw = bytearray(bytes(_records().buffer()))
        raw[-1] ^= 0xFF
        assert e.send_fetches() == 1
        e.client.prepare_response(_response(TP0, _partition_data(MemoryRecords.readable_records(bytes(raw)))))
        e.consumer_client.poll(e.time.timer(0))
        with pytest.raises(KafkaException, match="fetching the next record from test-0"):
            _collect_rows(e)
        assert _offset(e, TP0) == 0
    finally:
        e.close()
