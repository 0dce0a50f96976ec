"""Port of connector/kafka-0-10-sql/src/main/scala/org/apache/spark/sql/kafka010/KafkaSourceProvider.scala (Spark 4).

The `kafka-port` data source: PySpark's DataSource for Spark's Kafka source options and schema, on the project's
own clients. It checks the options as Spark's provider does (with Spark's messages), turns the `kafka.`-prefixed
ones into client configs, and builds the batch reader (KafkaBatch) or the micro-batch stream
(KafkaMicroBatchStream).

```
df = (spark.read.format("kafka-port")
      .option("kafka.bootstrap.servers", "localhost:9092")
      .option("subscribe", "events")
      .load())
```

# PORT: the name is `kafka-port`, not `kafka`: Spark reserves `kafka` for its own connector jar and refuses a
Python source of that name. Options arrive lower-cased, as Spark's case-insensitive maps see them. Options are
checked when the reader or stream is made (PySpark has no separate hook for a streaming DataFrame's creation),
the general ones also when the schema is asked for, at `load()`.
"""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Mapping
from typing import Any

from pyspark.sql.datasource import (
    DataSource,
    DataSourceReader,
    DataSourceStreamReader,
    DataSourceStreamWriter,
    DataSourceWriter,
)
from pyspark.sql.types import StructType

from kafka.spark.consumer_strategy import (
    AssignStrategy,
    ConsumerStrategy,
    SubscribePatternStrategy,
    SubscribeStrategy,
)
from kafka.spark.json_utils import partition_offsets, partition_timestamps, partitions
from kafka.spark.kafka_exceptions import IllegalArgumentException
from kafka.spark.kafka_offset_range_limit import (
    EARLIEST,
    LATEST,
    EarliestOffsetRangeLimit,
    GlobalTimestampRangeLimit,
    KafkaOffsetRangeLimit,
    LatestOffsetRangeLimit,
    SpecificOffsetRangeLimit,
    SpecificTimestampRangeLimit,
    StrategyOnNoMatchStartingOffset,
)
from kafka.spark.kafka_record_to_row_converter import kafka_schema

__all__ = ["SHORT_NAME", "KafkaSourceProvider"]

log = logging.getLogger("org.apache.spark.sql.kafka010.KafkaSourceProvider")

SHORT_NAME = "kafka-port"

ASSIGN = "assign"
SUBSCRIBE_PATTERN = "subscribepattern"
SUBSCRIBE = "subscribe"
STRATEGY_OPTION_KEYS = (SUBSCRIBE, SUBSCRIBE_PATTERN, ASSIGN)
STARTING_OFFSETS_OPTION_KEY = "startingoffsets"
ENDING_OFFSETS_OPTION_KEY = "endingoffsets"
STARTING_OFFSETS_BY_TIMESTAMP_OPTION_KEY = "startingoffsetsbytimestamp"
ENDING_OFFSETS_BY_TIMESTAMP_OPTION_KEY = "endingoffsetsbytimestamp"
STARTING_TIMESTAMP_OPTION_KEY = "startingtimestamp"
ENDING_TIMESTAMP_OPTION_KEY = "endingtimestamp"
FAIL_ON_DATA_LOSS_OPTION_KEY = "failondataloss"
MIN_PARTITIONS_OPTION_KEY = "minpartitions"
MAX_RECORDS_PER_PARTITION_OPTION_KEY = "maxrecordsperpartition"
MAX_OFFSET_PER_TRIGGER = "maxoffsetspertrigger"
MIN_OFFSET_PER_TRIGGER = "minoffsetspertrigger"
MAX_TRIGGER_DELAY = "maxtriggerdelay"
DEFAULT_MAX_TRIGGER_DELAY = "15m"
FETCH_OFFSET_NUM_RETRY = "fetchoffset.numretries"
FETCH_OFFSET_RETRY_INTERVAL_MS = "fetchoffset.retryintervalms"
CONSUMER_POLL_TIMEOUT = "kafkaconsumer.polltimeoutms"
STARTING_OFFSETS_BY_TIMESTAMP_STRATEGY_KEY = "startingoffsetsbytimestampstrategy"
GROUP_ID_PREFIX = "groupidprefix"
INCLUDE_HEADERS = "includeheaders"
TOPIC_OPTION_KEY = "topic"
CHECKPOINT_LOCATION = "checkpointlocation"
#: Not Spark's: write each micro-batch in Kafka transactions that a replayed batch does not repeat.
EXACTLY_ONCE_OPTION_KEY = "exactlyonce"
#: Not Spark's: the start of the exactly-once sink's transactional ids (and marker group names).
TRANSACTIONAL_ID_PREFIX_OPTION_KEY = "transactionalidprefix"
DEFAULT_TRANSACTIONAL_ID_PREFIX = "kafka-port-sink"

_LONG = re.compile(r"[+-]?[0-9]+")

#: spark.network.timeout's default (120 s), the default poll timeout of the executors' consumers.
DEFAULT_POLL_TIMEOUT_MS = 120_000

INSTRUCTION_FOR_FAIL_ON_DATA_LOSS_FALSE = (
    "\nSome data may have been lost because they are not available in Kafka any more; either the\n"
    " data was aged out by Kafka or the topic may have been deleted before all the data in the\n"
    " topic was processed. If you want your streaming query to fail on such cases, set the source\n"
    ' option "failOnDataLoss" to "true".\n'
)

CUSTOM_GROUP_ID_ERROR_MESSAGE = (
    "Kafka option 'kafka.group.id' has been set on this query, it is\n"
    " not recommended to set this option. This option is unsafe to use since multiple concurrent\n"
    " queries or sources using the same group id will interfere with each other as they are part\n"
    " of the same consumer group. Restarted queries may also suffer interference from the\n"
    " previous run having the same group id. The user should have only one query per group id,\n"
    " and/or set the option 'kafka.session.timeout.ms' to be very small so that the Kafka\n"
    " consumers from the previous query are marked dead by the Kafka group coordinator before the\n"
    " restarted query starts running.\n"
)

_AUTO_OFFSET_RESET_MESSAGE = """
Kafka option 'auto.offset.reset' is not supported.
Instead set the source option 'startingoffsets' to 'earliest' or 'latest'
to specify where to start. Structured Streaming manages which offsets are consumed
internally, rather than relying on the kafkaConsumer to do it. This will ensure that no
data is missed when new topics/partitions are dynamically subscribed. Note that
'startingoffsets' only applies when a new Streaming query is started, and
that resuming will always pick up from where the query left off. See the docs for more
details.
"""


def lower_case_options(options: Mapping[str, str]) -> dict[str, str]:
    """The options with lower-case keys (Spark's options are case-insensitive)."""
    return {k.lower(): v for k, v in options.items()}


def _to_boolean(value: str) -> bool:
    # Scala's String.toBoolean: "true" or "false" in any case, nothing else.
    if value.lower() == "true":
        return True
    if value.lower() == "false":
        return False
    raise IllegalArgumentException(f'For input string: "{value}"')


def _to_long(value: str) -> int:
    # Java's Long.parseLong: an optional sign and digits, no spaces or underscores (which Python's int() accepts).
    if not _LONG.fullmatch(value) or not -(2**63) <= int(value) < 2**63:
        raise IllegalArgumentException(f'For input string: "{value}"')
    return int(value)


def _to_int(value: str) -> int:
    number = _to_long(value)
    if not -(2**31) <= number < 2**31:
        raise IllegalArgumentException(f'For input string: "{value}"')
    return number


def option_boolean(params: Mapping[str, str], key: str, default: bool) -> bool:
    value = params.get(key)
    return default if value is None else _to_boolean(value)


def java_string_hash_code(text: str) -> int:
    """Java's String.hashCode (of the UTF-16 code units), a signed 32-bit int."""
    h = 0
    data = text.encode("utf-16-be")
    for i in range(0, len(data), 2):
        h = (31 * h + ((data[i] << 8) | data[i + 1])) & 0xFFFFFFFF
    return h - (1 << 32) if h >= 1 << 31 else h


def strategy(params: Mapping[str, str]) -> ConsumerStrategy:
    for key in STRATEGY_OPTION_KEYS:
        if key in params:
            value = params[key]
            if key == ASSIGN:
                return AssignStrategy(tuple(partitions(value)))
            if key == SUBSCRIBE:
                return SubscribeStrategy(tuple(t.strip() for t in value.split(",") if t.strip()))
            return SubscribePatternStrategy(value.strip())
    raise IllegalArgumentException("Unknown option")


def fail_on_data_loss(params: Mapping[str, str]) -> bool:
    return option_boolean(params, FAIL_ON_DATA_LOSS_OPTION_KEY, True)


def validate_general_options(params: Mapping[str, str]) -> None:
    specified = [k for k in STRATEGY_OPTION_KEYS if k in params]
    keys = ", ".join(STRATEGY_OPTION_KEYS)
    if not specified:
        raise IllegalArgumentException(
            f"One of the following options must be specified for Kafka source: {keys}. See the docs for more details."
        )
    if len(specified) > 1:
        raise IllegalArgumentException(
            f"Only one of the following options can be specified for Kafka source: {keys}. See the docs for more "
            "details."
        )
    key = specified[0]
    value = params[key]
    if key == ASSIGN:
        if not value.strip().startswith("{"):
            raise IllegalArgumentException(
                f"No topicpartitions to assign as specified value for option 'assign' is '{value}'"
            )
    elif key == SUBSCRIBE:
        if not [t for t in (t.strip() for t in value.split(",")) if t]:
            raise IllegalArgumentException(
                f"No topics to subscribe to as specified value for option 'subscribe' is '{value}'"
            )
    elif not value.strip():
        raise IllegalArgumentException(
            f"Pattern to subscribe is empty as specified value for option 'subscribePattern' is '{value}'"
        )

    if MIN_PARTITIONS_OPTION_KEY in params and _to_int(params[MIN_PARTITIONS_OPTION_KEY]) <= 0:
        raise IllegalArgumentException("minPartitions must be positive")
    if MAX_RECORDS_PER_PARTITION_OPTION_KEY in params and _to_long(params[MAX_RECORDS_PER_PARTITION_OPTION_KEY]) <= 0:
        raise IllegalArgumentException(f"{MAX_RECORDS_PER_PARTITION_OPTION_KEY} must be positive")

    if "kafka.group.id" in params:
        log.warning(CUSTOM_GROUP_ID_ERROR_MESSAGE)
        if GROUP_ID_PREFIX in params:
            log.warning("Option groupIdPrefix will be ignored as option kafka.group.id has been set.")
    if "kafka.auto.offset.reset" in params:
        raise IllegalArgumentException(_AUTO_OFFSET_RESET_MESSAGE)
    if "kafka.key.deserializer" in params:
        raise IllegalArgumentException(
            "Kafka option 'key.deserializer' is not supported as keys are deserialized as byte arrays with "
            "ByteArrayDeserializer. Use DataFrame operations to explicitly deserialize the keys."
        )
    if "kafka.value.deserializer" in params:
        raise IllegalArgumentException(
            "Kafka option 'value.deserializer' is not supported as values are deserialized as byte arrays with "
            "ByteArrayDeserializer. Use DataFrame operations to explicitly deserialize the values."
        )
    for unsupported in ("enable.auto.commit", "interceptor.classes"):
        if f"kafka.{unsupported}" in params:
            raise IllegalArgumentException(f"Kafka option '{unsupported}' is not supported")
    if "kafka.bootstrap.servers" not in params:
        raise IllegalArgumentException(
            "Option 'kafka.bootstrap.servers' must be specified for configuring Kafka consumer"
        )
    if MIN_OFFSET_PER_TRIGGER in params and MAX_OFFSET_PER_TRIGGER in params:
        min_offsets = _to_long(params[MIN_OFFSET_PER_TRIGGER])
        max_offsets = _to_long(params[MAX_OFFSET_PER_TRIGGER])
        if min_offsets > max_offsets:
            raise IllegalArgumentException(
                f"The value of minOffsetPerTrigger({min_offsets}) is higher than the "
                f"maxOffsetsPerTrigger({max_offsets})."
            )


def validate_stream_options(params: Mapping[str, str]) -> None:
    if ENDING_OFFSETS_OPTION_KEY in params:
        raise IllegalArgumentException("ending offset not valid in streaming queries")
    if ENDING_OFFSETS_BY_TIMESTAMP_OPTION_KEY in params:
        raise IllegalArgumentException("ending timestamp not valid in streaming queries")
    validate_general_options(params)


def validate_batch_options(params: Mapping[str, str]) -> None:
    starting = get_kafka_offset_range_limit(
        params,
        STARTING_TIMESTAMP_OPTION_KEY,
        STARTING_OFFSETS_BY_TIMESTAMP_OPTION_KEY,
        STARTING_OFFSETS_OPTION_KEY,
        EarliestOffsetRangeLimit(),
    )
    if isinstance(starting, LatestOffsetRangeLimit):
        raise IllegalArgumentException("starting offset can't be latest for batch queries on Kafka")
    if isinstance(starting, SpecificOffsetRangeLimit):
        for tp, off in starting.partition_offsets.items():
            if off == LATEST:
                raise IllegalArgumentException(f"startingOffsets for {tp} can't be latest for batch queries on Kafka")
    ending = get_kafka_offset_range_limit(
        params,
        ENDING_TIMESTAMP_OPTION_KEY,
        ENDING_OFFSETS_BY_TIMESTAMP_OPTION_KEY,
        ENDING_OFFSETS_OPTION_KEY,
        LatestOffsetRangeLimit(),
    )
    if isinstance(ending, EarliestOffsetRangeLimit):
        raise IllegalArgumentException("ending offset can't be earliest for batch queries on Kafka")
    if isinstance(ending, SpecificOffsetRangeLimit):
        for tp, off in ending.partition_offsets.items():
            if off == EARLIEST:
                raise IllegalArgumentException(f"ending offset for {tp} can't be earliest for batch queries on Kafka")
    validate_general_options(params)
    for key, name in (
        (MAX_OFFSET_PER_TRIGGER, "maxOffsetsPerTrigger"),
        (MIN_OFFSET_PER_TRIGGER, "minOffsetsPerTrigger"),
        (MAX_TRIGGER_DELAY, "maxTriggerDelay"),
    ):
        if key in params:
            log.warning("%s option ignored in batch queries", name)


def check_offset_limit_validity(start: KafkaOffsetRangeLimit, end: KafkaOffsetRangeLimit) -> None:
    from kafka.spark import kafka_exceptions

    if isinstance(start, SpecificOffsetRangeLimit) and isinstance(end, SpecificOffsetRangeLimit):
        if set(start.partition_offsets) != set(end.partition_offsets):
            raise kafka_exceptions.unmatched_topic_partitions_between_offsets(
                start.partition_offsets, end.partition_offsets
            )
        for tp, start_offset in start.partition_offsets.items():
            end_offset = end.partition_offsets[tp]
            if start_offset > end_offset and start_offset >= 0 and end_offset >= 0:
                raise kafka_exceptions.unresolved_start_offset_greater_than_end_offset(start_offset, end_offset, tp)
    elif isinstance(start, SpecificTimestampRangeLimit) and isinstance(end, SpecificTimestampRangeLimit):
        if set(start.topic_timestamps) != set(end.topic_timestamps):
            raise kafka_exceptions.unmatched_topic_partitions_between_offsets(
                start.topic_timestamps, end.topic_timestamps
            )
        for tp, start_ts in start.topic_timestamps.items():
            end_ts = end.topic_timestamps[tp]
            if start_ts > end_ts and start_ts >= 0 and end_ts >= 0:
                raise kafka_exceptions.unresolved_start_timestamp_greater_than_end_timestamp(start_ts, end_ts, tp)


def get_kafka_offset_range_limit(
    params: Mapping[str, str],
    global_offset_timestamp_option_key: str,
    offset_by_timestamp_option_key: str,
    offset_option_key: str,
    default_offsets: KafkaOffsetRangeLimit,
) -> KafkaOffsetRangeLimit:
    """The limit the options give, in order of preference: one timestamp, timestamps per partition, offsets."""
    strategy_name = params.get(STARTING_OFFSETS_BY_TIMESTAMP_STRATEGY_KEY)
    if strategy_name is None:
        strategy_on_no_match = StrategyOnNoMatchStartingOffset.ERROR
    else:
        try:
            strategy_on_no_match = StrategyOnNoMatchStartingOffset[strategy_name.upper()]
        except KeyError:
            raise IllegalArgumentException(f"No value found for '{strategy_name.upper()}'") from None
    if global_offset_timestamp_option_key in params:
        text = params[global_offset_timestamp_option_key].strip()
        try:
            return GlobalTimestampRangeLimit(int(text), strategy_on_no_match)
        except ValueError:
            raise IllegalArgumentException(f"Expected a single long value, got {text}") from None
    if offset_by_timestamp_option_key in params:
        return SpecificTimestampRangeLimit(
            partition_timestamps(params[offset_by_timestamp_option_key].strip()), strategy_on_no_match
        )
    value = params.get(offset_option_key)
    if value is None:
        return default_offsets
    value = value.strip()
    if value.lower() == "latest":
        return LatestOffsetRangeLimit()
    if value.lower() == "earliest":
        return EarliestOffsetRangeLimit()
    return SpecificOffsetRangeLimit(partition_offsets(value))


def convert_to_specified_params(params: Mapping[str, str]) -> dict[str, str]:
    """The `kafka.`-prefixed options, prefix dropped: the clients' configs."""
    return {k[len("kafka.") :]: v for k, v in params.items() if k.lower().startswith("kafka.")}


def kafka_params_for_driver(specified_kafka_params: Mapping[str, str]) -> dict[str, Any]:
    params: dict[str, Any] = dict(specified_kafka_params)
    params["auto.offset.reset"] = "earliest"
    params["enable.auto.commit"] = "false"
    params["max.poll.records"] = 1
    params.setdefault("receive.buffer.bytes", 65536)
    return params


def kafka_params_for_executors(specified_kafka_params: Mapping[str, str], unique_group_id: str) -> dict[str, Any]:
    params: dict[str, Any] = dict(specified_kafka_params)
    params["auto.offset.reset"] = "none"
    params.setdefault("group.id", f"{unique_group_id}-executor")
    params["enable.auto.commit"] = "false"
    params.setdefault("receive.buffer.bytes", 65536)
    # PORT: Spark keeps the consumer's default (500); a Python poll costs enough per call that larger polls read
    # about a tenth faster. Only the executors' reads see it, and a kafka.max.poll.records option still wins.
    params.setdefault("max.poll.records", 10000)
    return params


def kafka_params_for_producer(params: Mapping[str, str]) -> dict[str, Any]:
    if "kafka.key.serializer" in params:
        raise IllegalArgumentException(
            "Kafka option 'key.serializer' is not supported as keys are serialized with ByteArraySerializer."
        )
    if "kafka.value.serializer" in params:
        raise IllegalArgumentException(
            "Kafka option 'value.serializer' is not supported as value are serialized with ByteArraySerializer."
        )
    return dict(convert_to_specified_params(params))


def batch_unique_group_id(params: Mapping[str, str]) -> str:
    return f"{params.get(GROUP_ID_PREFIX, 'spark-kafka-relation')}-{uuid.uuid4()}"


def streaming_unique_group_id(params: Mapping[str, str], metadata_path: str) -> str:
    prefix = params.get(GROUP_ID_PREFIX, "spark-kafka-source")
    return f"{prefix}-{uuid.uuid4()}-{java_string_hash_code(metadata_path)}"


def poll_timeout_ms(params: Mapping[str, str]) -> int:
    value = params.get(CONSUMER_POLL_TIMEOUT)
    return DEFAULT_POLL_TIMEOUT_MS if value is None else _to_long(value)


class KafkaSourceProvider(DataSource):
    """The `kafka-port` data source (Spark's `kafka` source, read side)."""

    @classmethod
    def name(cls) -> str:
        return SHORT_NAME

    def __init__(self, options: Mapping[str, str]) -> None:
        super().__init__(dict(options))
        self.params = lower_case_options(options)

    def schema(self) -> StructType:
        validate_general_options(self.params)
        return kafka_schema(option_boolean(self.params, INCLUDE_HEADERS, False))

    def reader(self, schema: StructType) -> DataSourceReader:
        from kafka.spark.kafka_batch import KafkaBatch

        params = self.params
        validate_batch_options(params)
        starting = get_kafka_offset_range_limit(
            params,
            STARTING_TIMESTAMP_OPTION_KEY,
            STARTING_OFFSETS_BY_TIMESTAMP_OPTION_KEY,
            STARTING_OFFSETS_OPTION_KEY,
            EarliestOffsetRangeLimit(),
        )
        ending = get_kafka_offset_range_limit(
            params,
            ENDING_TIMESTAMP_OPTION_KEY,
            ENDING_OFFSETS_BY_TIMESTAMP_OPTION_KEY,
            ENDING_OFFSETS_OPTION_KEY,
            LatestOffsetRangeLimit(),
        )
        check_offset_limit_validity(starting, ending)
        return KafkaBatch(
            strategy(params),
            params,
            convert_to_specified_params(params),
            fail_on_data_loss(params),
            starting,
            ending,
            option_boolean(params, INCLUDE_HEADERS, False),
        )

    def streamReader(self, schema: StructType) -> DataSourceStreamReader:
        from kafka.spark.kafka_micro_batch_stream import KafkaMicroBatchStream

        params = self.params
        validate_stream_options(params)
        metadata_path = params.get(CHECKPOINT_LOCATION, "")
        unique_group_id = streaming_unique_group_id(params, metadata_path)
        specified = convert_to_specified_params(params)
        starting = get_kafka_offset_range_limit(
            params,
            STARTING_TIMESTAMP_OPTION_KEY,
            STARTING_OFFSETS_BY_TIMESTAMP_OPTION_KEY,
            STARTING_OFFSETS_OPTION_KEY,
            LatestOffsetRangeLimit(),
        )
        return KafkaMicroBatchStream(
            strategy(params),
            kafka_params_for_driver(specified),
            kafka_params_for_executors(specified, unique_group_id),
            params,
            f"{unique_group_id}-driver",
            starting,
            fail_on_data_loss(params),
        )

    # -- writing

    def _write_options(self, schema: StructType) -> tuple[str | None, dict[str, Any], bool, str]:
        from kafka.spark.kafka_writer import validate_query

        params = self.params
        topic = params.get(TOPIC_OPTION_KEY)
        topic = None if topic is None else topic.strip()
        producer_params = kafka_params_for_producer(params)
        validate_query(schema, topic)
        exactly_once = option_boolean(params, EXACTLY_ONCE_OPTION_KEY, False)
        prefix = params.get(TRANSACTIONAL_ID_PREFIX_OPTION_KEY, DEFAULT_TRANSACTIONAL_ID_PREFIX)
        return topic, producer_params, exactly_once, prefix

    def writer(self, schema: StructType, overwrite: bool) -> DataSourceWriter:
        from kafka.spark.kafka_batch_write import KafkaBatchWrite
        from kafka.spark.kafka_writer import AnalysisException

        if overwrite:
            raise AnalysisException(
                "Save mode Overwrite not allowed for Kafka. Allowed save modes are Append and ErrorIfExists (default)."
            )
        return KafkaBatchWrite(*self._write_options(schema))

    def streamWriter(self, schema: StructType, overwrite: bool) -> DataSourceStreamWriter:
        from kafka.spark.kafka_streaming_write import KafkaStreamingWrite

        return KafkaStreamingWrite(*self._write_options(schema))
