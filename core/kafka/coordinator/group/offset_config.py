"""Port of core/src/main/scala/kafka/coordinator/group/OffsetConfig.scala (Kafka 2.8).

The settings the group coordinator's offset store works with: how large commit metadata may be,
how much of `__consumer_offsets` is read per step when a partition is loaded, how long offsets are
kept and how often that is checked, the layout of the offsets topic, and how commits are written.
"""

# PORT: Kafka's field `offsetsTopicCompressionCodec` is a kafka.message.CompressionCodec; the port
# uses CompressionType, whose ids are the same (KafkaConfig already parses the key into one).

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from kafka.common.record.compression_type import CompressionType


@dataclass(frozen=True, slots=True)
class OffsetConfig:
    """Offset management settings; every field defaults to Kafka's case-class default.

    The defaults are those of the class, which differ from the broker's configuration defaults in one
    place: `offsets_retention_ms` is one day here, while `offsets.retention.minutes` defaults to seven
    days. The coordinator builds this object from the broker's configuration, so the broker uses the
    configuration's values.
    """

    DEFAULT_MAX_METADATA_SIZE: ClassVar[int] = 4096
    DEFAULT_LOAD_BUFFER_SIZE: ClassVar[int] = 5 * 1024 * 1024
    DEFAULT_OFFSET_RETENTION_MS: ClassVar[int] = 24 * 60 * 60 * 1000
    DEFAULT_OFFSETS_RETENTION_CHECK_INTERVAL_MS: ClassVar[int] = 600000
    DEFAULT_OFFSETS_TOPIC_NUM_PARTITIONS: ClassVar[int] = 50
    DEFAULT_OFFSETS_TOPIC_SEGMENT_BYTES: ClassVar[int] = 100 * 1024 * 1024
    DEFAULT_OFFSETS_TOPIC_REPLICATION_FACTOR: ClassVar[int] = 3
    DEFAULT_OFFSETS_TOPIC_COMPRESSION_CODEC: ClassVar[CompressionType] = CompressionType.NONE
    DEFAULT_OFFSET_COMMIT_TIMEOUT_MS: ClassVar[int] = 5000
    DEFAULT_OFFSET_COMMIT_REQUIRED_ACKS: ClassVar[int] = -1

    max_metadata_size: int = DEFAULT_MAX_METADATA_SIZE
    load_buffer_size: int = DEFAULT_LOAD_BUFFER_SIZE
    offsets_retention_ms: int = DEFAULT_OFFSET_RETENTION_MS
    offsets_retention_check_interval_ms: int = DEFAULT_OFFSETS_RETENTION_CHECK_INTERVAL_MS
    offsets_topic_num_partitions: int = DEFAULT_OFFSETS_TOPIC_NUM_PARTITIONS
    offsets_topic_segment_bytes: int = DEFAULT_OFFSETS_TOPIC_SEGMENT_BYTES
    offsets_topic_replication_factor: int = DEFAULT_OFFSETS_TOPIC_REPLICATION_FACTOR
    offsets_topic_compression_codec: CompressionType = DEFAULT_OFFSETS_TOPIC_COMPRESSION_CODEC
    offset_commit_timeout_ms: int = DEFAULT_OFFSET_COMMIT_TIMEOUT_MS
    offset_commit_required_acks: int = DEFAULT_OFFSET_COMMIT_REQUIRED_ACKS
