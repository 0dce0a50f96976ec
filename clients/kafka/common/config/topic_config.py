"""Port of clients/src/main/java/org/apache/kafka/common/config/TopicConfig.java (Kafka 2.8).

The names of the topic-level configuration keys, shared by the broker and the admin client.

# PORT: the `*_DOC` strings are not carried over; the keys are.
"""

from __future__ import annotations

from typing import Final

__all__ = ["TopicConfig"]


class TopicConfig:
    """Topic configuration key names (constants only)."""

    SEGMENT_BYTES_CONFIG: Final = "segment.bytes"
    SEGMENT_MS_CONFIG: Final = "segment.ms"
    SEGMENT_JITTER_MS_CONFIG: Final = "segment.jitter.ms"
    SEGMENT_INDEX_BYTES_CONFIG: Final = "segment.index.bytes"
    FLUSH_MESSAGES_INTERVAL_CONFIG: Final = "flush.messages"
    FLUSH_MS_CONFIG: Final = "flush.ms"
    RETENTION_BYTES_CONFIG: Final = "retention.bytes"
    RETENTION_MS_CONFIG: Final = "retention.ms"
    MAX_MESSAGE_BYTES_CONFIG: Final = "max.message.bytes"
    INDEX_INTERVAL_BYTES_CONFIG: Final = "index.interval.bytes"
    FILE_DELETE_DELAY_MS_CONFIG: Final = "file.delete.delay.ms"
    DELETE_RETENTION_MS_CONFIG: Final = "delete.retention.ms"
    MIN_COMPACTION_LAG_MS_CONFIG: Final = "min.compaction.lag.ms"
    MAX_COMPACTION_LAG_MS_CONFIG: Final = "max.compaction.lag.ms"
    MIN_CLEANABLE_DIRTY_RATIO_CONFIG: Final = "min.cleanable.dirty.ratio"
    CLEANUP_POLICY_CONFIG: Final = "cleanup.policy"
    CLEANUP_POLICY_COMPACT: Final = "compact"
    CLEANUP_POLICY_DELETE: Final = "delete"
    UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG: Final = "unclean.leader.election.enable"
    MIN_IN_SYNC_REPLICAS_CONFIG: Final = "min.insync.replicas"
    COMPRESSION_TYPE_CONFIG: Final = "compression.type"
    PREALLOCATE_CONFIG: Final = "preallocate"
    MESSAGE_FORMAT_VERSION_CONFIG: Final = "message.format.version"
    MESSAGE_TIMESTAMP_TYPE_CONFIG: Final = "message.timestamp.type"
    MESSAGE_TIMESTAMP_DIFFERENCE_MAX_MS_CONFIG: Final = "message.timestamp.difference.max.ms"
    MESSAGE_DOWNCONVERSION_ENABLE_CONFIG: Final = "message.downconversion.enable"
