"""Port of connector/kafka-0-10-sql/src/main/scala/org/apache/spark/sql/kafka010/JsonUtils.scala (Spark 4).

The JSON shapes of the source's options and offsets: partitions as `{"topicA":[0,1]}`, offsets and timestamps as
`{"topicA":{"0":23,"1":-1}}` (partition numbers are object keys, hence strings).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from kafka.common.topic_partition import TopicPartition

__all__ = [
    "partition_offsets",
    "partition_offsets_json",
    "partition_timestamps",
    "partitions",
    "partitions_json",
    "to_offset_dict",
]


def _is_long(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and -(2**63) <= value < 2**63


def _partition_number(key: Any) -> int:
    # Jackson reads an Int map key from its string form; Python's int() also accepts spaces and underscores,
    # which Jackson does not.
    if not isinstance(key, str) or not key.lstrip("-").isdigit():
        raise ValueError(key)
    number = int(key)
    if not -(2**31) <= number < 2**31:
        raise ValueError(key)
    return number


def partitions(text: str) -> list[TopicPartition]:
    """The partitions of an `assign` option; IllegalArgumentException (ValueError) when the JSON is not that shape."""
    from kafka.spark.kafka_exceptions import IllegalArgumentException

    try:
        parsed = json.loads(text)
        if not isinstance(parsed, dict):
            raise ValueError(parsed)
        result: list[TopicPartition] = []
        for topic, parts in parsed.items():
            if not isinstance(parts, list) or not all(_is_long(p) and -(2**31) <= p < 2**31 for p in parts):
                raise ValueError(parts)
            result.extend(TopicPartition(topic, p) for p in parts)
        return result
    except ValueError:
        raise IllegalArgumentException(f'Expected e.g. {{"topicA":[0,1],"topicB":[0,1]}}, got {text}') from None


def partitions_json(tps: Iterable[TopicPartition]) -> str:
    """The JSON of a set of partitions, `{"topicA":[1,0]}`."""
    result: dict[str, list[int]] = {}
    for tp in tps:
        result.setdefault(tp.topic, []).insert(0, tp.partition)
    return json.dumps(result, separators=(",", ":"))


def _partition_longs(text: str) -> dict[TopicPartition, int]:
    parsed = json.loads(text)
    if not isinstance(parsed, dict):
        raise ValueError(parsed)
    result: dict[TopicPartition, int] = {}
    for topic, part_values in parsed.items():
        if not isinstance(part_values, dict):
            raise ValueError(part_values)
        for part, value in part_values.items():
            if not _is_long(value):
                raise ValueError(value)
            result[TopicPartition(topic, _partition_number(part))] = value
    return result


def partition_offsets(text: str) -> dict[TopicPartition, int]:
    """Offsets per partition from `{"topicA":{"0":23,"1":-1},"topicB":{"0":-2}}`."""
    from kafka.spark.kafka_exceptions import IllegalArgumentException

    try:
        return _partition_longs(text)
    except ValueError:
        raise IllegalArgumentException(
            f'Expected e.g. {{"topicA":{{"0":23,"1":-1}},"topicB":{{"0":-2}}}}, got {text}'
        ) from None


def partition_timestamps(text: str) -> dict[TopicPartition, int]:
    """Timestamps per partition from `{"topicA":{"0":123456789}}`."""
    from kafka.spark.kafka_exceptions import IllegalArgumentException

    try:
        return _partition_longs(text)
    except ValueError:
        raise IllegalArgumentException(
            'Expected e.g. {"topicA": {"0": 123456789, "1": 123456789},\n'
            f'"topicB": {{"0": 123456789, "1": 123456789}}}}, got {text}'
        ) from None


def to_offset_dict(offsets: Mapping[TopicPartition, int]) -> dict[str, dict[str, int]]:
    """Offsets in their JSON-able shape, topics and partitions sorted: `{"t": {"0": 42}}`."""
    result: dict[str, dict[str, int]] = {}
    for tp in sorted(offsets):
        result.setdefault(tp.topic, {})[str(tp.partition)] = offsets[tp]
    return result


def partition_offsets_json(offsets: Mapping[TopicPartition, int]) -> str:
    """Offsets as compact JSON, topics and partitions sorted (the checkpointed form)."""
    return json.dumps(to_offset_dict(offsets), separators=(",", ":"))
