"""Tests of ProducerRecord (after clients/src/test/java/org/apache/kafka/clients/producer/ProducerRecordTest.java,
Kafka 3.7): its checks, equality and immutability, with its slots set by the compiled module (when the optional
extension `_default_record_writer` is built) and by their own setters."""

from __future__ import annotations

from typing import Any

import pytest

from kafka.clients.producer import producer_record
from kafka.clients.producer.producer_record import ProducerRecord
from tests.utils import compiled_or_python

_COMPILED = producer_record._set_slots


@pytest.fixture(autouse=True, params=["compiled", "python"])
def slots(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """ProducerRecord's slots set by the compiled module (skipped where it is not built) or by their setters."""
    return compiled_or_python(
        request, monkeypatch, _COMPILED, "_default_record_writer", (producer_record, "_set_slots")
    )


def _fields(record: ProducerRecord[Any, Any]) -> tuple[Any, ...]:
    return (record.topic, record.partition, record.key, record.value, record.timestamp, list(record.headers))


def test_fields() -> None:
    record: ProducerRecord[bytes, bytes] = ProducerRecord(
        "topic", b"value", key=b"key", partition=3, timestamp=7, headers=[("h", b"1")]
    )
    assert _fields(record)[:5] == ("topic", 3, b"key", b"value", 7)
    assert [(h.key(), h.value()) for h in record.headers] == [("h", b"1")]
    plain: ProducerRecord[bytes, bytes] = ProducerRecord("topic")
    assert _fields(plain) == ("topic", None, None, None, None, [])


def test_equality_and_hash() -> None:
    a: ProducerRecord[bytes, bytes] = ProducerRecord("t", b"v", key=b"k", partition=1, timestamp=2)
    b: ProducerRecord[bytes, bytes] = ProducerRecord("t", b"v", key=b"k", partition=1, timestamp=2)
    assert a == b and hash(a) == hash(b)
    assert a != ProducerRecord("t", b"other", key=b"k", partition=1, timestamp=2)


def test_checks_and_immutability() -> None:
    with pytest.raises(ValueError, match="Topic cannot be null"):
        ProducerRecord(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="Invalid timestamp: -1"):
        ProducerRecord("t", timestamp=-1)
    with pytest.raises(ValueError, match="Invalid partition: -1"):
        ProducerRecord("t", partition=-1)
    record: ProducerRecord[bytes, bytes] = ProducerRecord("t", b"v")
    with pytest.raises(AttributeError, match="immutable"):
        record.value = b"w"


def test_a_subclass_is_built_the_same_way() -> None:
    class Sub(ProducerRecord[bytes, bytes]):
        __slots__ = ("extra",)

    record = Sub("t", b"v", key=b"k")
    assert _fields(record) == ("t", None, b"k", b"v", None, [])


def test_new_producer_record_is_the_constructor() -> None:
    """new_producer_record(topic, value) (the compiled module's, or the class itself without it) makes what
    ProducerRecord(topic, value) makes: same fields, equal, same hash and text, immutable, and a null topic refused."""
    make = producer_record.new_producer_record
    if _COMPILED is None:
        assert make is ProducerRecord
    constructed: ProducerRecord[Any, Any]
    for topic, value in [("topic", b"v"), ("t", None), ("topic", "text"), ("", b"")]:
        made, constructed = make(topic, value), ProducerRecord(topic, value)
        assert type(made) is ProducerRecord
        assert _fields(made) == _fields(constructed)
        assert made == constructed and hash(made) == hash(constructed) and str(made) == str(constructed)
        with pytest.raises(AttributeError):
            made.topic = "other"
    with pytest.raises(ValueError, match=r"Topic cannot be null\."):
        make(None, b"v")  # type: ignore[arg-type]
