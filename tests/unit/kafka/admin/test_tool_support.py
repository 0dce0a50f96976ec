"""Tests of what the admin tools share: Java's String.split and HashMap order."""

from __future__ import annotations

from kafka.admin import _tool_support as ts
from kafka.common.topic_partition import TopicPartition
from kafka.zk.jvm_json import java_hash_map


def test_java_split_drops_trailing_empty_strings() -> None:
    """String.split keeps inner and leading empty strings and drops trailing ones."""
    assert ts.java_split("a,,b,,", ",") == ["a", "", "b"]
    assert ts.java_split(",a", ",") == ["", "a"]
    assert ts.java_split("", ",") == [""]
    assert ts.java_split(",,", ",") == []


def test_java_hash_map_order() -> None:
    """The default-capacity order agrees with jvm_json's HashMap; a pre-sized map orders by its own table."""
    keys = [f"topic-{i}" for i in range(30)]
    assert ts.java_hash_map_order(keys) == list(java_hash_map((k, None) for k in keys))
    partitions = [TopicPartition("t", p) for p in range(3)]
    assert ts.java_hash_map_order(partitions) == [
        TopicPartition("t", 2),
        TopicPartition("t", 1),
        TopicPartition("t", 0),
    ]
    # "x" and "y" hash to buckets 0 and 1 of an 8-entry table, ahead of the longer names.
    assert ts.java_hash_map_order(["topic-a", "x", "y"], 3)[:2] == ["x", "y"]
