"""Tests for the small record-layer types: timestamp types, control records, headers, estimators."""

from __future__ import annotations

import copy
import pickle

import pytest

from kafka.common.errors import InvalidRecordException
from kafka.common.record.compression_ratio_estimator import CompressionRatioEstimator
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.control_record_type import ControlRecordType
from kafka.common.record.end_transaction_marker import EndTransactionMarker
from kafka.common.record.record_header import RecordHeader
from kafka.common.record.record_version import RecordVersion
from kafka.common.record.simple_record import SimpleRecord
from kafka.common.record.timestamp_type import TimestampType


def test_timestamp_types_have_kafka_ids_and_names() -> None:
    """Ids -1/0/1 and Kafka's names, found by name, printed by name, and kept as singletons."""
    assert [(t.id, t.name) for t in TimestampType.values()] == [
        (-1, "NoTimestampType"),
        (0, "CreateTime"),
        (1, "LogAppendTime"),
    ]
    assert TimestampType.for_name("LogAppendTime") is TimestampType.LOG_APPEND_TIME
    assert str(TimestampType.CREATE_TIME) == "CreateTime"
    assert copy.deepcopy(TimestampType.CREATE_TIME) is TimestampType.CREATE_TIME
    assert pickle.loads(pickle.dumps(CompressionType.LZ4)) is CompressionType.LZ4
    with pytest.raises(ValueError):
        TimestampType.for_name("Nope")


def test_record_versions() -> None:
    """Record versions are the magic values; lookup rejects unknown ones."""
    assert RecordVersion.lookup(1) is RecordVersion.V1
    assert RecordVersion.V0.precedes(RecordVersion.V2) and not RecordVersion.V2.precedes(RecordVersion.V1)
    assert RecordVersion.current() is RecordVersion.V2
    with pytest.raises(ValueError):
        RecordVersion.lookup(3)


def test_control_record_keys() -> None:
    """Control keys are version 0 then the type id; unknown ids map to UNKNOWN; short keys are invalid."""
    assert ControlRecordType.COMMIT.record_key() == b"\x00\x00\x00\x01"
    assert ControlRecordType.parse(b"\x00\x00\x00\x00") is ControlRecordType.ABORT
    assert ControlRecordType.parse(b"\x00\x05\x00\x02\xff") is ControlRecordType.LEADER_CHANGE
    assert ControlRecordType.parse(b"\x00\x00\x00\x63") is ControlRecordType.UNKNOWN
    with pytest.raises(InvalidRecordException, match="at least 4 bytes"):
        ControlRecordType.parse(b"\x00\x00")
    with pytest.raises(InvalidRecordException, match="Invalid version"):
        ControlRecordType.parse(b"\xff\xff\x00\x00")
    with pytest.raises(ValueError):
        ControlRecordType.UNKNOWN.record_key()


def test_end_transaction_marker_value() -> None:
    """The marker value is version 0 then the coordinator epoch; bad values are invalid."""
    marker = EndTransactionMarker(ControlRecordType.ABORT, 258)
    assert marker.serialize_value() == b"\x00\x00\x00\x00\x01\x02"
    assert EndTransactionMarker.deserialize_value(ControlRecordType.ABORT, marker.serialize_value()) == marker
    with pytest.raises(InvalidRecordException, match="at least 6 bytes"):
        EndTransactionMarker.deserialize_value(ControlRecordType.COMMIT, b"\x00\x00")
    with pytest.raises(InvalidRecordException, match="Invalid version"):
        EndTransactionMarker.deserialize_value(ControlRecordType.COMMIT, b"\xff\xff\x00\x00\x00\x01")
    with pytest.raises(ValueError):
        EndTransactionMarker(ControlRecordType.LEADER_CHANGE, 1)
    # length, attributes, two deltas, key (1 + 4), value (1 + 6), header count
    assert EndTransactionMarker.CURRENT_END_TXN_SCHEMA_RECORD_SIZE == 1 + 1 + 1 + 1 + 5 + 7 + 1


def test_record_header_keeps_wire_bytes_and_decodes_like_java() -> None:
    """Headers compare by decoded key and value; malformed UTF-8 is replaced but re-encoded as read."""
    assert RecordHeader("k", b"v") == RecordHeader(b"k", b"v")
    assert RecordHeader("k", None) != RecordHeader("k", b"")
    odd = RecordHeader(b"\xff\xfe", b"x")
    assert odd.key() == "\ufffd\ufffd"
    assert odd.key_bytes() == b"\xff\xfe"
    assert RecordHeader("ключ", None).key_bytes() == "ключ".encode()


def test_simple_record_equality() -> None:
    """SimpleRecords are equal when every field is; bytes-like inputs are copied to bytes."""
    a = SimpleRecord(5, bytearray(b"k"), memoryview(b"v"), [RecordHeader("h", b"1")])
    assert a == SimpleRecord(5, b"k", b"v", (RecordHeader("h", b"1"),))
    assert a != SimpleRecord(6, b"k", b"v")
    assert a.key() == b"k" and isinstance(a.value(), bytes)


def test_compression_ratio_estimator_moves_slowly_down_and_quickly_up() -> None:
    """The estimate falls by at most 0.005 per observation and rises at least 0.05."""
    topic = "estimator-test-topic"
    CompressionRatioEstimator.reset_estimation(topic)
    assert CompressionRatioEstimator.estimation(topic, CompressionType.GZIP) == 1.0
    down = CompressionRatioEstimator.update_estimation(topic, CompressionType.GZIP, 0.2)
    assert down == pytest.approx(0.995)
    CompressionRatioEstimator.set_estimation(topic, CompressionType.GZIP, 0.3)
    up = CompressionRatioEstimator.update_estimation(topic, CompressionType.GZIP, 0.31)
    assert up == pytest.approx(0.35)
    CompressionRatioEstimator.remove_estimation(topic)
    assert CompressionRatioEstimator.estimation(topic, CompressionType.GZIP) == 1.0
