"""Port of connector/kafka-0-10-sql/src/main/scala/org/apache/spark/sql/kafka010/KafkaExceptions.scala (Spark 4).

The errors the source raises, with the error conditions and message texts of Spark's Kafka connector
(`error/kafka-error-conditions.json`), so that a failed query reads as it would with Spark's own source.

# PORT: Java's IllegalArgumentException and IllegalStateException are Python classes of those names here
(subclasses of ValueError and RuntimeError), so that the class name printed in a failed query's error is
Spark's. Sets and maps in messages are printed as Scala prints them (`Set(t-0, t-1)`, `Map(t-0 -> 5)`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from kafka.common.topic_partition import TopicPartition

__all__ = [
    "IllegalArgumentException",
    "IllegalStateException",
    "KafkaIllegalStateException",
    "SparkException",
    "TimeoutException",
    "scala_map",
    "scala_set",
]


class IllegalArgumentException(ValueError):
    """A bad option or option value (Java's IllegalArgumentException)."""


class IllegalStateException(RuntimeError):
    """A state the query cannot go on from (Java's IllegalStateException)."""


class TimeoutException(RuntimeError):
    """No record arrived within the poll timeout (java.util.concurrent.TimeoutException)."""


class SparkException(RuntimeError):
    """An error of the AvailableNow bookkeeping (Spark's SparkException)."""


def scala_set(tps: Iterable[object]) -> str:
    return f"Set({', '.join(str(tp) for tp in tps)})"


def scala_map(offsets: Mapping[TopicPartition, int]) -> str:
    return f"Map({', '.join(f'{tp} -> {offset}' for tp, offset in offsets.items())})"


_DATA_LOSS = (
    "Some data may have been lost because they are not available in Kafka any more;\n"
    "either the data was aged out by Kafka or the topic may have been deleted before all the data in the\n"
    "topic was processed.\n"
    "If you don't want your streaming query to fail on such cases, set the source option failOnDataLoss to false.\n"
    "Reason:\n"
)

_MESSAGES: dict[str, str] = {
    "MISMATCHED_TOPIC_PARTITIONS_BETWEEN_END_OFFSET_AND_PREFETCHED": (
        "Kafka data source in Trigger.AvailableNow should provide the same topic partitions in pre-fetched offset "
        "to end offset for each microbatch. The error could be transient - restart your query, and report if you "
        "still see the same issue.\n"
        "topic-partitions for pre-fetched offset: <tpsForPrefetched>, topic-partitions for end offset: "
        "<tpsForEndOffset>."
    ),
    "MISMATCHED_TOPIC_PARTITIONS_BETWEEN_START_OFFSET_AND_END_OFFSET": (
        "The specified start offset and end offset should have the same topic-partitions.\n"
        "Topic-partitions for start offset: <tpsForStartOffset>, topic-partitions for end offset: <tpsForEndOffset>."
    ),
    "END_OFFSET_HAS_GREATER_OFFSET_FOR_TOPIC_PARTITION_THAN_PREFETCHED": (
        "For Kafka data source with Trigger.AvailableNow, end offset should have lower or equal offset per each "
        "topic partition than pre-fetched offset. The error could be transient - restart your query, and report if "
        "you still see the same issue.\n"
        "pre-fetched offset: <prefetchedOffset>, end offset: <endOffset>."
    ),
    "LOST_TOPIC_PARTITIONS_IN_END_OFFSET_WITH_TRIGGER_AVAILABLENOW": (
        "Some of partitions in Kafka topic(s) have been lost during running query with Trigger.AvailableNow. The "
        "error could be transient - restart your query, and report if you still see the same issue.\n"
        "topic-partitions for latest offset: <tpsForLatestOffset>, topic-partitions for end offset: <tpsForEndOffset>"
    ),
    "END_OFFSET_HAS_GREATER_OFFSET_FOR_TOPIC_PARTITION_THAN_LATEST_WITH_TRIGGER_AVAILABLENOW": (
        "Some of partitions in Kafka topic(s) report available offset which is less than end offset during running "
        "query with Trigger.AvailableNow. The error could be transient - restart your query, and report if you still "
        "see the same issue.\n"
        "latest offset: <latestOffset>, end offset: <endOffset>"
    ),
    "KAFKA_START_OFFSET_DOES_NOT_MATCH_ASSIGNED": (
        "Partitions specified for Kafka start offsets don't match what are assigned. Maybe topic partitions are "
        "created \nor deleted while the query is running. Use -1 for latest, -2 for earliest.\n"
        "Specified: <specifiedPartitions> Assigned: <assignedPartitions>"
    ),
    "KAFKA_TIMESTAMP_OFFSET_DOES_NOT_MATCH_ASSIGNED": (
        "Partitions specified for Kafka timestamp based <position> offsets don't match what are assigned. Maybe "
        "topic partitions are created \nor deleted while the query is running, or you didn't specify all the "
        "partitions.\nSpecified: <specifiedPartitions> Assigned: <assignedPartitions>"
    ),
    "KAFKA_DATA_LOSS.ADDED_PARTITION_DOES_NOT_START_FROM_OFFSET_ZERO": (
        _DATA_LOSS + "Added partition <topicPartition> starts from <startOffset> instead of 0."
    ),
    "KAFKA_DATA_LOSS.COULD_NOT_READ_OFFSET_RANGE": (
        _DATA_LOSS + "Could not read records in offset [<startOffset>, <endOffset>) for topic partition "
        "<topicPartition>\nwith consumer group <groupId>."
    ),
    "KAFKA_DATA_LOSS.INITIAL_OFFSET_NOT_FOUND_FOR_PARTITIONS": (
        _DATA_LOSS + "Cannot find initial offsets for partitions <partitions>. They may have been deleted."
    ),
    "KAFKA_DATA_LOSS.PARTITIONS_DELETED": _DATA_LOSS + "Partitions <partitions> have been deleted.",
    "KAFKA_DATA_LOSS.PARTITION_OFFSET_CHANGED": (
        _DATA_LOSS + "Partition <topicPartition> offset was changed from <prevOffset> to <newOffset>.\n"
        "This could either be a user error that the start offset is set too high and this is the first batch, or "
        "the kafka topic-partition is broken, and some data may have been missed."
    ),
    "KAFKA_DATA_LOSS.START_OFFSET_RESET": (
        _DATA_LOSS + "Starting offset for <topicPartition> was <offset> but consumer reset to <fetchedOffset>."
    ),
    "KAFKA_NULL_TOPIC_IN_DATA": (
        "The Kafka message data sent to the producer contains a null topic. Use the `topic` option for setting a "
        "default topic."
    ),
    "RESOLVED_START_OFFSET_GREATER_THAN_END_OFFSET": (
        "The resolved start offset <startOffset> is greater than the resolved end offset <endOffset> for topic "
        "<topic> partition <partition>.\n"
        "There may be multiple reasons:\n"
        "1. Start offset is set to too big a value that after resolution, end offset is smaller than it. There are "
        "multiple input cases:\n"
        "  (a) Start offset is set to a timestamp, and the end offset is set to an index.\n"
        "  (b) Start offset is set to an index, and the end offset is set to a timestamp.\n"
        "  (c) Start offset is set, and the end offset is set to latest.\n"
        "2. The Kafka topic partition is broken."
    ),
    "UNRESOLVED_START_OFFSET_GREATER_THAN_END_OFFSET": (
        "The specified start offset <startOffset> is greater than the end offset <endOffset> for topic <topic> "
        "partition <partition>."
    ),
}


def error_message(error_class: str, parameters: Mapping[str, str]) -> str:
    """The message of an error condition, `[CONDITION] text` with its parameters filled in, as Spark prints it."""
    text = _MESSAGES[error_class]
    for name, value in parameters.items():
        text = text.replace(f"<{name}>", value)
    return f"[{error_class}] {text}"


class KafkaIllegalStateException(IllegalStateException):
    """An IllegalStateException with one of the connector's error conditions (`KAFKA_DATA_LOSS.*`, ...)."""

    def __init__(self, error_class: str, parameters: Mapping[str, str]) -> None:
        super().__init__(error_message(error_class, parameters))
        self.error_class = error_class
        self.message_parameters = dict(parameters)

    def get_condition(self) -> str:
        return self.error_class

    def get_sql_state(self) -> str | None:
        return "22000" if self.error_class.startswith("KAFKA_DATA_LOSS") else None


def _spark(error_class: str, parameters: Mapping[str, str]) -> SparkException:
    return SparkException(error_message(error_class, parameters))


def mismatched_topic_partitions_between_end_offset_and_prefetched(
    tps_for_prefetched: Iterable[TopicPartition], tps_for_end_offset: Iterable[TopicPartition]
) -> SparkException:
    return _spark(
        "MISMATCHED_TOPIC_PARTITIONS_BETWEEN_END_OFFSET_AND_PREFETCHED",
        {"tpsForPrefetched": scala_set(tps_for_prefetched), "tpsForEndOffset": scala_set(tps_for_end_offset)},
    )


def end_offset_has_greater_offset_for_topic_partition_than_prefetched(
    prefetched_offset: Mapping[TopicPartition, int], end_offset: Mapping[TopicPartition, int]
) -> SparkException:
    return _spark(
        "END_OFFSET_HAS_GREATER_OFFSET_FOR_TOPIC_PARTITION_THAN_PREFETCHED",
        {"prefetchedOffset": scala_map(prefetched_offset), "endOffset": scala_map(end_offset)},
    )


def lost_topic_partitions_in_end_offset_with_trigger_available_now(
    tps_for_latest_offset: Iterable[TopicPartition], tps_for_end_offset: Iterable[TopicPartition]
) -> SparkException:
    return _spark(
        "LOST_TOPIC_PARTITIONS_IN_END_OFFSET_WITH_TRIGGER_AVAILABLENOW",
        {"tpsForLatestOffset": scala_set(tps_for_latest_offset), "tpsForEndOffset": scala_set(tps_for_end_offset)},
    )


def end_offset_greater_than_latest_with_trigger_available_now(
    latest_offset: Mapping[TopicPartition, int], end_offset: Mapping[TopicPartition, int]
) -> SparkException:
    """Spark's endOffsetHasGreaterOffsetForTopicPartitionThanLatestWithTriggerAvailableNow (name shortened)."""
    return _spark(
        "END_OFFSET_HAS_GREATER_OFFSET_FOR_TOPIC_PARTITION_THAN_LATEST_WITH_TRIGGER_AVAILABLENOW",
        {"latestOffset": scala_map(latest_offset), "endOffset": scala_map(end_offset)},
    )


def could_not_read_offset_range(
    start_offset: int, end_offset: int, topic_partition: TopicPartition, group_id: str | None
) -> KafkaIllegalStateException:
    return KafkaIllegalStateException(
        "KAFKA_DATA_LOSS.COULD_NOT_READ_OFFSET_RANGE",
        {
            "startOffset": str(start_offset),
            "endOffset": str(end_offset),
            "topicPartition": str(topic_partition),
            "groupId": "null" if group_id is None else group_id,
        },
    )


def initial_offset_not_found_for_partitions(partitions: Iterable[TopicPartition]) -> KafkaIllegalStateException:
    return KafkaIllegalStateException(
        "KAFKA_DATA_LOSS.INITIAL_OFFSET_NOT_FOUND_FOR_PARTITIONS", {"partitions": scala_set(partitions)}
    )


def added_partition_does_not_start_from_zero(
    topic_partition: TopicPartition, start_offset: int
) -> KafkaIllegalStateException:
    return KafkaIllegalStateException(
        "KAFKA_DATA_LOSS.ADDED_PARTITION_DOES_NOT_START_FROM_OFFSET_ZERO",
        {"topicPartition": str(topic_partition), "startOffset": str(start_offset)},
    )


def partitions_deleted(partitions: Iterable[TopicPartition]) -> KafkaIllegalStateException:
    return KafkaIllegalStateException("KAFKA_DATA_LOSS.PARTITIONS_DELETED", {"partitions": scala_set(partitions)})


def partition_offset_changed(
    topic_partition: TopicPartition, prev_offset: int, new_offset: int
) -> KafkaIllegalStateException:
    return KafkaIllegalStateException(
        "KAFKA_DATA_LOSS.PARTITION_OFFSET_CHANGED",
        {"topicPartition": str(topic_partition), "prevOffset": str(prev_offset), "newOffset": str(new_offset)},
    )


def start_offset_does_not_match_assigned(
    specified: Iterable[TopicPartition], assigned: Iterable[TopicPartition]
) -> KafkaIllegalStateException:
    return KafkaIllegalStateException(
        "KAFKA_START_OFFSET_DOES_NOT_MATCH_ASSIGNED",
        {"specifiedPartitions": scala_set(specified), "assignedPartitions": scala_set(assigned)},
    )


def timestamp_offset_does_not_match_assigned(
    is_starting_offsets: bool, specified: Iterable[TopicPartition], assigned: Iterable[TopicPartition]
) -> KafkaIllegalStateException:
    return KafkaIllegalStateException(
        "KAFKA_TIMESTAMP_OFFSET_DOES_NOT_MATCH_ASSIGNED",
        {
            "position": "start" if is_starting_offsets else "end",
            "specifiedPartitions": scala_set(specified),
            "assignedPartitions": scala_set(assigned),
        },
    )


def unmatched_topic_partitions_between_offsets(
    start: Iterable[TopicPartition], end: Iterable[TopicPartition]
) -> KafkaIllegalStateException:
    return KafkaIllegalStateException(
        "MISMATCHED_TOPIC_PARTITIONS_BETWEEN_START_OFFSET_AND_END_OFFSET",
        {"tpsForStartOffset": scala_set(start), "tpsForEndOffset": scala_set(end)},
    )


def unresolved_start_offset_greater_than_end_offset(
    start_offset: int, end_offset: int, topic_partition: TopicPartition
) -> KafkaIllegalStateException:
    return KafkaIllegalStateException(
        "UNRESOLVED_START_OFFSET_GREATER_THAN_END_OFFSET",
        {
            "startOffset": str(start_offset),
            "endOffset": str(end_offset),
            "topic": topic_partition.topic,
            "partition": str(topic_partition.partition),
        },
    )


def unresolved_start_timestamp_greater_than_end_timestamp(
    start_timestamp: int, end_timestamp: int, topic_partition: TopicPartition
) -> KafkaIllegalStateException:
    # PORT: reported with the offsets' condition, the timestamps as its parameters.
    return unresolved_start_offset_greater_than_end_offset(start_timestamp, end_timestamp, topic_partition)


def resolved_start_offset_greater_than_end_offset(
    start_offset: int, end_offset: int, topic_partition: TopicPartition
) -> KafkaIllegalStateException:
    return KafkaIllegalStateException(
        "RESOLVED_START_OFFSET_GREATER_THAN_END_OFFSET",
        {
            "startOffset": str(start_offset),
            "endOffset": str(end_offset),
            "topic": topic_partition.topic,
            "partition": str(topic_partition.partition),
        },
    )


def null_topic_in_data() -> KafkaIllegalStateException:
    return KafkaIllegalStateException("KAFKA_NULL_TOPIC_IN_DATA", {})
