"""Tests of kafka.common.topic_id_partition, after Kafka's TopicIdPartitionTest."""

from __future__ import annotations

from kafka.common.protocol.types import ZERO_UUID, Uuid
from kafka.common.topic_id_partition import TopicIdPartition
from kafka.common.topic_partition import TopicPartition

FOO_ID = Uuid(1, 1)


def test_equality_is_on_topic_id_and_topic_partition() -> None:
    """Two TopicIdPartitions are equal, and hash alike, exactly when topic id and TopicPartition both match."""
    a = TopicIdPartition(FOO_ID, TopicPartition("foo", 0))
    assert a == TopicIdPartition.of(FOO_ID, 0, "foo")
    assert hash(a) == hash(TopicIdPartition.of(FOO_ID, 0, "foo"))
    assert a != TopicIdPartition(ZERO_UUID, TopicPartition("foo", 0))
    assert a != TopicIdPartition(FOO_ID, TopicPartition("foo", 1))
    assert a != TopicIdPartition.of(FOO_ID, 0, None)
    assert len({a, TopicIdPartition.of(FOO_ID, 0, "foo"), TopicIdPartition.of(FOO_ID, 0, None)}) == 2


def test_accessors_and_string_form() -> None:
    """The accessors read back what was given, a None topic included, and it prints as id:topic-partition."""
    tp = TopicPartition("foo", 3)
    tip = TopicIdPartition(FOO_ID, tp)
    assert (tip.topic_id, tip.topic_partition, tip.topic, tip.partition) == (FOO_ID, tp, "foo", 3)
    assert str(tip) == f"{FOO_ID}:foo-3"
    unknown = TopicIdPartition.of(FOO_ID, 2, None)
    assert unknown.topic is None and unknown.partition == 2
    assert str(unknown) == f"{FOO_ID}:None-2"
