"""Tests of ConsumerProtocol (after Java's ConsumerProtocolTest): the bytes of subscriptions and assignments
at every version, ordering, null user data, and reading older and future versions."""

from __future__ import annotations

import struct

import pytest

from kafka.clients.consumer.consumer_partition_assignor import Assignment, Subscription
from kafka.clients.consumer.internals import consumer_protocol
from kafka.common.message import ConsumerProtocolSubscriptionData
from kafka.common.protocol.types import SchemaException
from kafka.common.topic_partition import TopicPartition

TP1, TP2 = TopicPartition("foo", 1), TopicPartition("bar", 2)


@pytest.mark.parametrize("version", [0, 1, 2, 3])
def test_serialize_deserialize_subscription_all_versions(version: int) -> None:
    """Each version keeps what it can carry: owned partitions from v1, generation from v2, rack from v3."""
    subscription = Subscription(["foo", "bar"], b"hello", [TP1, TP2], 3, "rack-a")
    parsed = consumer_protocol.deserialize_subscription(consumer_protocol.serialize_subscription(subscription, version))
    assert sorted(parsed.topics) == ["bar", "foo"]
    assert parsed.user_data == b"hello"
    assert sorted(parsed.owned_partitions) == (sorted([TP1, TP2]) if version >= 1 else [])
    assert parsed.generation_id == (3 if version >= 2 else None)
    assert parsed.rack_id == ("rack-a" if version >= 3 else None)


def test_subscription_bytes() -> None:
    """The v0 subscription is the 2-byte version, the topic array and the nullable user data."""
    data = consumer_protocol.serialize_subscription(Subscription(["t"], None), 0)
    assert data == bytes.fromhex("0000" + "00000001" + "0001" + "74" + "ffffffff")


def test_serialize_subscription_should_order_topics_and_owned_partitions() -> None:
    """Topics and owned partitions are written sorted, so the bytes do not depend on set order."""
    a = consumer_protocol.serialize_subscription(Subscription(["foo", "bar"], None, [TP1, TP2]))
    b = consumer_protocol.serialize_subscription(Subscription(["bar", "foo"], None, [TP2, TP1]))
    assert a == b
    parsed = consumer_protocol.deserialize_subscription(a)
    assert parsed.topics == ["bar", "foo"]
    assert parsed.owned_partitions == [TP2, TP1]


def test_serialize_deserialize_null_subscription_user_data() -> None:
    """Null user data stays null."""
    parsed = consumer_protocol.deserialize_subscription(consumer_protocol.serialize_subscription(Subscription(["foo"])))
    assert parsed.user_data is None


def test_deserialize_new_subscription_with_old_version() -> None:
    """A v3 subscription read as v0 yields what v0 knows."""
    data = consumer_protocol.serialize_subscription(Subscription(["foo"], None, [TP1], 2, "r"), 3)
    parsed = consumer_protocol.deserialize_subscription(data[2:], 0)
    assert parsed.topics == ["foo"]
    assert parsed.owned_partitions == []
    assert parsed.generation_id is None


def test_deserialize_future_subscription_version() -> None:
    """A subscription of a future version (more fields appended) is read as the newest known one."""
    current = ConsumerProtocolSubscriptionData(topics=["topic"], user_data=None, generation_id=5, rack_id="r1")
    current.owned_partitions.append(ConsumerProtocolSubscriptionData.TopicPartition(topic="bar", partitions=[2]))
    body = current.write(3) + struct.pack(">h", 3) + b"bar"  # a field a future version might add
    parsed = consumer_protocol.deserialize_subscription(struct.pack(">h", 100) + body)
    assert parsed.topics == ["topic"]
    assert parsed.owned_partitions == [TP2]
    assert parsed.generation_id == 5
    assert parsed.rack_id == "r1"


def test_deserialize_negative_version_is_an_error() -> None:
    """Versions below 0 are refused."""
    with pytest.raises(SchemaException):
        consumer_protocol.deserialize_subscription(struct.pack(">h", -1) + b"\x00" * 8)


def test_truncated_subscription_is_a_schema_error() -> None:
    """Bytes cut short are a SchemaException."""
    with pytest.raises(SchemaException):
        consumer_protocol.deserialize_subscription(b"\x00")
    with pytest.raises(SchemaException):
        consumer_protocol.deserialize_subscription(b"\x00\x00\x00\x00\x00\x05")


@pytest.mark.parametrize("version", [0, 1, 2, 3])
def test_serialize_deserialize_assignment_all_versions(version: int) -> None:
    """Assignments carry partitions and user data at every version."""
    parsed = consumer_protocol.deserialize_assignment(
        consumer_protocol.serialize_assignment(Assignment([TP1, TP2], b"ud"), version)
    )
    assert sorted(parsed.partitions) == sorted([TP1, TP2])
    assert parsed.user_data == b"ud"


def test_assignment_bytes() -> None:
    """An assignment groups partitions by topic; null user data is -1."""
    data = consumer_protocol.serialize_assignment(Assignment([TopicPartition("t", 1), TopicPartition("t", 0)]), 0)
    assert data == bytes.fromhex(
        "0000" + "00000001" + "0001" + "74" + "00000002" + "00000001" + "00000000" + "ffffffff"
    )


def test_deserialize_null_assignment_user_data() -> None:
    """Null assignment user data stays null."""
    parsed = consumer_protocol.deserialize_assignment(consumer_protocol.serialize_assignment(Assignment([TP1])))
    assert parsed.user_data is None
    assert parsed.partitions == [TP1]


def test_deserialize_future_assignment_version() -> None:
    """An assignment of version 100 with an extra field is still read."""
    body = (
        struct.pack(">i", 1)
        + struct.pack(">h", 3)
        + b"foo"
        + struct.pack(">i", 1)
        + struct.pack(">i", 1)
        + struct.pack(">i", 0)
        + struct.pack(">h", 3)
        + b"bar"
    )
    parsed = consumer_protocol.deserialize_assignment(struct.pack(">h", 100) + body)
    assert parsed.partitions == [TP1]
