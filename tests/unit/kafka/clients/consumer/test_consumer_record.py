"""Tests of ConsumerRecord: its fields are read-only, its headers are its own, and it prints as Java's does."""

from __future__ import annotations

import pickle

import pytest

from kafka.clients.consumer.consumer_record import ConsumerRecord
from kafka.common.header.internals.record_headers import RecordHeaders
from kafka.common.record.record_header import RecordHeader
from kafka.common.record.timestamp_type import TimestampType


def _record() -> ConsumerRecord[bytes, str]:
    return ConsumerRecord(
        "topic",
        2,
        42,
        b"k",
        "v",
        timestamp=1000,
        timestamp_type=TimestampType.CREATE_TIME,
        serialized_key_size=1,
        serialized_value_size=1,
        headers=RecordHeaders([RecordHeader("h", b"1")]),
        leader_epoch=7,
    )


def test_fields_are_read_only() -> None:
    """Assigning a field, or a new attribute, raises AttributeError and leaves the record unchanged."""
    record = _record()
    for name in ("topic", "partition", "offset", "key", "value", "timestamp", "headers", "leader_epoch"):
        with pytest.raises(AttributeError):
            setattr(record, name, None)
    with pytest.raises(AttributeError):
        record.other = 1  # type: ignore[attr-defined]
    assert (record.topic, record.partition, record.offset, record.key, record.value) == ("topic", 2, 42, b"k", "v")
    assert (record.timestamp, record.timestamp_type, record.leader_epoch) == (1000, TimestampType.CREATE_TIME, 7)


def test_defaults_and_fresh_headers() -> None:
    """Without the optional parts a record has no timestamp, sizes of -1, no leader epoch and empty headers of
    its own."""
    first: ConsumerRecord[bytes, bytes] = ConsumerRecord("t", 0, 1)
    second: ConsumerRecord[bytes, bytes] = ConsumerRecord("t", 0, 2)
    assert (first.key, first.value, first.timestamp, first.timestamp_type) == (
        None,
        None,
        ConsumerRecord.NO_TIMESTAMP,
        TimestampType.NO_TIMESTAMP_TYPE,
    )
    assert (first.serialized_key_size, first.serialized_value_size, first.leader_epoch) == (-1, -1, None)
    first.headers.add("a", b"1")
    assert len(first.headers.to_array()) == 1 and second.headers.to_array() == ()


def test_null_topic_is_refused() -> None:
    """A record needs a topic."""
    with pytest.raises(ValueError, match="Topic cannot be null"):
        ConsumerRecord(None, 0, 0)  # type: ignore[arg-type]


def test_repr_is_javas_to_string() -> None:
    """The text form lists the fields as Java's toString does, with null for absent values."""
    assert repr(ConsumerRecord("t", 0, 5)) == (
        "ConsumerRecord(topic = t, partition = 0, leaderEpoch = null, offset = 5, NoTimestampType = -1, serialized "
        f"key size = -1, serialized value size = -1, headers = {RecordHeaders()}, key = null, value = null)"
    )
    assert "leaderEpoch = 7, offset = 42, CreateTime = 1000" in str(_record())


def test_pickles() -> None:
    """A record survives pickling with every field and its headers."""
    record = _record()
    copy = pickle.loads(pickle.dumps(record))
    assert (copy.topic, copy.partition, copy.offset, copy.key, copy.value, copy.timestamp) == (
        "topic",
        2,
        42,
        b"k",
        "v",
        1000,
    )
    assert [(h.key(), h.value()) for h in copy.headers] == [("h", b"1")]
