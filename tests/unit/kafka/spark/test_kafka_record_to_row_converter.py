"""Fetched records become Arrow batches of Spark's Kafka schema: binary key and value (null stays null), the
partition's topic and number on every row, offsets, timestamps in microseconds (UTC) and each record's own
timestamp type id, also when a batch mixes CreateTime and LogAppendTime records. Every test runs with the columns
built by the consumer's optional compiled module and with the Python path."""

from __future__ import annotations

import datetime
import random

import pytest

from kafka.clients.consumer.consumer_record import ConsumerRecord
from kafka.common.header.internals.record_headers import RecordHeaders
from kafka.common.record.timestamp_type import TimestampType
from kafka.spark import kafka_record_to_row_converter
from kafka.spark.kafka_record_to_row_converter import arrow_schema, to_record_batch

pytest.importorskip("pyarrow")

_COMPILED = kafka_record_to_row_converter._RECORD_COLUMNS


@pytest.fixture(autouse=True, params=["compiled", "python"])
def columns(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "compiled" and _COMPILED is None:
        pytest.skip("the optional _fetched_batch_decoder extension is not built")
    monkeypatch.setattr(
        kafka_record_to_row_converter, "_RECORD_COLUMNS", _COMPILED if request.param == "compiled" else None
    )
    return str(request.param)


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


@pytest.mark.parametrize("types", [[CREATE, CREATE, CREATE], [APPEND, APPEND, APPEND], [CREATE, APPEND, CREATE]])
def test_columns(types: list[TimestampType]) -> None:
    records = [_record(10 + i, None if i == 1 else b"k%d" % i, t) for i, t in enumerate(types)]
    batch = to_record_batch("t", 3, records, include_headers=False)
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


def test_headers() -> None:
    headers = RecordHeaders([("a", b"1"), ("b", None)])
    records = [_record(0, b"k", CREATE, headers), _record(1, b"k", CREATE)]
    batch = to_record_batch("t", 3, records, include_headers=True)
    assert batch.schema == arrow_schema(True)
    assert batch.column(batch.schema.get_field_index("headers")).to_pylist() == [
        [{"key": "a", "value": b"1"}, {"key": "b", "value": None}],
        None,
    ]


def test_many_records_with_null_and_empty_keys_and_values(monkeypatch: pytest.MonkeyPatch) -> None:
    """Null and empty keys and values at every bit of the validity bitmaps: both paths give the same batch."""
    rnd = random.Random(5)
    records = []
    for i in range(1000):
        key = rnd.choice([None, b"", b"k%d" % i])
        value = rnd.choice([None, b"", b"v" * rnd.randrange(300)])
        records.append(
            ConsumerRecord(
                "t",
                3,
                5 + 2 * i,
                key,
                value,
                timestamp=-1 if i == 7 else 1_700_000_000_000 + i,
                timestamp_type=CREATE,
                serialized_key_size=-1,
                serialized_value_size=-1,
            )
        )
    batch = to_record_batch("t", 3, records, include_headers=False)
    monkeypatch.setattr(kafka_record_to_row_converter, "_RECORD_COLUMNS", None)
    assert batch.equals(to_record_batch("t", 3, records, include_headers=False))
    assert batch.column(0).to_pylist() == [r.key for r in records]
    assert batch.column(1).to_pylist() == [r.value for r in records]
    assert batch.column(4).to_pylist() == [r.offset for r in records]
