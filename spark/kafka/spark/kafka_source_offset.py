"""Port of connector/kafka-0-10-sql/src/main/scala/org/apache/spark/sql/kafka010/KafkaSourceOffset.scala (Spark 4).

The offset of the source in a micro-batch: the next offset to read of every partition (one past the last record
read, as KafkaConsumer.position). Spark checkpoints it as JSON, `{"topic": {"0": 42}}`; PySpark hands the
source that JSON as a dict, which `from_dict` reads back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kafka.common.topic_partition import TopicPartition
from kafka.spark.json_utils import partition_offsets, partition_offsets_json, to_offset_dict

__all__ = ["KafkaSourceOffset", "PartitionOffsetMap"]

PartitionOffsetMap = dict[TopicPartition, int]


@dataclass(frozen=True)
class KafkaSourceOffset:
    partition_to_offsets: Mapping[TopicPartition, int] = field(default_factory=dict)

    def json(self) -> str:
        return partition_offsets_json(self.partition_to_offsets)

    def to_dict(self) -> dict[str, dict[str, int]]:
        """The JSON-able dict PySpark checkpoints (topics and partitions sorted)."""
        return to_offset_dict(self.partition_to_offsets)

    @staticmethod
    def from_dict(offset: Mapping[str, Any]) -> KafkaSourceOffset:
        """Reads a checkpointed offset (the dict form of Spark's JSON)."""
        import json

        return KafkaSourceOffset(partition_offsets(json.dumps(offset)))

    @staticmethod
    def from_json(text: str) -> KafkaSourceOffset:
        return KafkaSourceOffset(partition_offsets(text))

    def __str__(self) -> str:
        return self.json()
