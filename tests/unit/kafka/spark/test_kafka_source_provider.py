"""The Spark source's option handling, offset JSON, range splitting and rate limit, without a Spark session or
broker: the same answers as Spark's KafkaSourceProvider, JsonUtils, KafkaOffsetRangeCalculator and
KafkaMicroBatchStream.rateLimit give."""

from __future__ import annotations

import itertools

import pytest

from kafka.common.topic_partition import TopicPartition
from kafka.spark import json_utils
from kafka.spark.consumer_strategy import AssignStrategy, SubscribePatternStrategy, SubscribeStrategy
from kafka.spark.kafka_exceptions import IllegalArgumentException, KafkaIllegalStateException
from kafka.spark.kafka_micro_batch_stream import KafkaMicroBatchStream, time_string_as_ms
from kafka.spark.kafka_offset_range_calculator import KafkaOffsetRange, KafkaOffsetRangeCalculator
from kafka.spark.kafka_offset_range_limit import (
    EarliestOffsetRangeLimit,
    GlobalTimestampRangeLimit,
    LatestOffsetRangeLimit,
    SpecificOffsetRangeLimit,
    SpecificTimestampRangeLimit,
    StrategyOnNoMatchStartingOffset,
)
from kafka.spark.kafka_source_offset import KafkaSourceOffset
from kafka.spark.kafka_source_provider import (
    check_offset_limit_validity,
    convert_to_specified_params,
    get_kafka_offset_range_limit,
    java_string_hash_code,
    kafka_params_for_executors,
    lower_case_options,
    strategy,
    validate_batch_options,
    validate_stream_options,
)

T0, T1, T2 = TopicPartition("t", 0), TopicPartition("t", 1), TopicPartition("t", 2)


def _starting(params: dict[str, str]) -> object:
    return get_kafka_offset_range_limit(
        lower_case_options(params),
        "startingtimestamp",
        "startingoffsetsbytimestamp",
        "startingoffsets",
        LatestOffsetRangeLimit(),
    )


def test_offset_range_limit_preferences() -> None:
    """A global timestamp wins over per-partition timestamps, which win over offsets; the default applies last."""
    assert _starting({}) == LatestOffsetRangeLimit()
    assert _starting({"startingOffsets": " EARLIEST "}) == EarliestOffsetRangeLimit()
    assert _starting({"startingOffsets": '{"t":{"0":5,"1":-2}}'}) == SpecificOffsetRangeLimit({T0: 5, T1: -2})
    assert _starting(
        {"startingOffsets": "earliest", "startingOffsetsByTimestamp": '{"t":{"0":1000}}'}
    ) == SpecificTimestampRangeLimit({T0: 1000}, StrategyOnNoMatchStartingOffset.ERROR)
    assert _starting(
        {
            "startingTimestamp": "77",
            "startingOffsetsByTimestamp": '{"t":{"0":1000}}',
            "startingOffsetsByTimestampStrategy": "latest",
        }
    ) == GlobalTimestampRangeLimit(77, StrategyOnNoMatchStartingOffset.LATEST)


def test_json_shapes() -> None:
    """Offsets read from and written to Spark's JSON; malformed JSON is Spark's IllegalArgumentException."""
    assert json_utils.partitions('{"a":[0,1],"b":[2]}') == [
        TopicPartition("a", 0),
        TopicPartition("a", 1),
        TopicPartition("b", 2),
    ]
    assert json_utils.partition_offsets_json({T1: 7, TopicPartition("a", 3): -1, T0: 5}) == (
        '{"a":{"3":-1},"t":{"0":5,"1":7}}'
    )
    offset = KafkaSourceOffset({T0: 42})
    assert offset.to_dict() == {"t": {"0": 42}}
    assert KafkaSourceOffset.from_dict({"t": {"0": 42}}) == offset
    for bad in ('{"t":{"x":1}}', '{"t":[0]}', "[]", '{"t":{"0":"1"}}', '{"t":{"0":true}}'):
        with pytest.raises(IllegalArgumentException, match=r"Expected e\.g\."):
            json_utils.partition_offsets(bad)
    with pytest.raises(IllegalArgumentException, match=r'Expected e\.g\. \{"topicA":\[0,1\],"topicB":\[0,1\]\}'):
        json_utils.partitions('{"a":0}')


def test_strategies_and_params() -> None:
    """The three strategies from their options; kafka.-prefixed options become client configs with Spark's
    executor overrides."""
    assert strategy({"subscribe": " a, ,b "}) == SubscribeStrategy(("a", "b"))
    assert strategy({"subscribepattern": " x.* "}) == SubscribePatternStrategy("x.*")
    assert strategy({"assign": '{"t":[1]}'}) == AssignStrategy((T1,))
    params = convert_to_specified_params(
        lower_case_options({"kafka.bootstrap.servers": "h:1", "kafka.isolation.level": "read_committed", "x": "y"})
    )
    assert params == {"bootstrap.servers": "h:1", "isolation.level": "read_committed"}
    executor = kafka_params_for_executors(params, "spark-kafka-source-u")
    assert executor["auto.offset.reset"] == "none"
    assert executor["group.id"] == "spark-kafka-source-u-executor"
    assert executor["enable.auto.commit"] == "false"
    assert kafka_params_for_executors({**params, "group.id": "mine"}, "u")["group.id"] == "mine"
    assert java_string_hash_code("hello") == 99162322
    assert java_string_hash_code("polygenelubricants") == -(2**31)
    assert java_string_hash_code("") == 0


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"subscribe": "a", "maxOffsetsPerTrigger": "5", "minOffsetsPerTrigger": "9"}, "higher than the"),
        ({"subscribe": "a", "kafka.interceptor.classes": "x"}, "Kafka option 'interceptor.classes' is not supported"),
        ({"subscribePattern": " "}, "Pattern to subscribe is empty"),
        ({"subscribe": "a", "minPartitions": "x"}, 'For input string: "x"'),
        ({"subscribe": "a", "startingOffsets": '{"t":{"0":-1}}'}, "startingOffsets for t-0 can't be latest"),
        ({"subscribe": "a", "endingOffsets": '{"t":{"0":-2}}'}, "ending offset for t-0 can't be earliest"),
    ],
)
def test_batch_options_refused(options: dict[str, str], message: str) -> None:
    """Batch options Spark refuses, with its messages."""
    params = lower_case_options({"kafka.bootstrap.servers": "h:1", **options})
    with pytest.raises(IllegalArgumentException, match=message):
        validate_batch_options(params)


def test_stream_options_refused() -> None:
    """Ending offsets and timestamps are refused in streaming queries; the rest passes."""
    base = {"kafka.bootstrap.servers": "h:1", "subscribe": "a"}
    with pytest.raises(IllegalArgumentException, match="ending timestamp not valid in streaming queries"):
        validate_stream_options(lower_case_options({**base, "endingOffsetsByTimestamp": "{}"}))
    validate_stream_options(lower_case_options({**base, "startingOffsets": "latest", "kafka.group.id": "g"}))


def test_start_after_end_refused() -> None:
    """Specific starting offsets past the ending ones (both known) are Spark's UNRESOLVED_START_OFFSET error; the
    partitions of both must be the same."""
    with pytest.raises(KafkaIllegalStateException, match="UNRESOLVED_START_OFFSET_GREATER_THAN_END_OFFSET"):
        check_offset_limit_validity(SpecificOffsetRangeLimit({T0: 9}), SpecificOffsetRangeLimit({T0: 3}))
    check_offset_limit_validity(SpecificOffsetRangeLimit({T0: 9}), SpecificOffsetRangeLimit({T0: -1}))
    with pytest.raises(KafkaIllegalStateException, match="MISMATCHED_TOPIC_PARTITIONS_BETWEEN_START_OFFSET"):
        check_offset_limit_validity(SpecificOffsetRangeLimit({T0: 1}), SpecificOffsetRangeLimit({T1: 3}))


def test_range_calculator_splits_large_ranges() -> None:
    """With minPartitions above the partition count, large ranges are split in proportion and small ones kept
    whole; empty ranges are dropped."""
    calc = KafkaOffsetRangeCalculator(4)
    ranges = calc.get_ranges([KafkaOffsetRange(T0, 0, 100), KafkaOffsetRange(T1, 0, 1), KafkaOffsetRange(T2, 5, 5)])
    assert ranges == [
        KafkaOffsetRange(T0, 0, 33),
        KafkaOffsetRange(T0, 33, 66),
        KafkaOffsetRange(T0, 66, 100),
        KafkaOffsetRange(T1, 0, 1),
    ]
    assert KafkaOffsetRangeCalculator(None).get_ranges([KafkaOffsetRange(T0, 3, 9)]) == [KafkaOffsetRange(T0, 3, 9)]


def test_range_calculator_max_records_per_partition() -> None:
    """maxRecordsPerPartition cuts ranges into pieces of at most that size; minPartitions then splits further."""
    calc = KafkaOffsetRangeCalculator(None, 40)
    assert calc.get_ranges([KafkaOffsetRange(T0, 0, 100), KafkaOffsetRange(T1, 0, 40)]) == [
        KafkaOffsetRange(T0, 0, 33),
        KafkaOffsetRange(T0, 33, 66),
        KafkaOffsetRange(T0, 66, 100),
        KafkaOffsetRange(T1, 0, 40),
    ]
    both = KafkaOffsetRangeCalculator(6, 50).get_ranges([KafkaOffsetRange(T0, 0, 100)])
    assert len(both) == 6
    assert both[0].from_offset == 0 and both[-1].until_offset == 100
    assert all(a.until_offset == b.from_offset for a, b in itertools.pairwise(both))


def _stream(**options: str) -> KafkaMicroBatchStream:
    return KafkaMicroBatchStream(
        SubscribeStrategy(("t",)),
        {"bootstrap.servers": "h:1"},
        {"bootstrap.servers": "h:1"},
        lower_case_options(options),
        "g-driver",
        LatestOffsetRangeLimit(),
        True,
    )


def test_rate_limit_prorates_by_backlog() -> None:
    """A limit is split over the partitions by backlog, each share rounded down (up when below one)."""
    stream = _stream(maxOffsetsPerTrigger="7000")
    until = {T0: 6667, T1: 6667, T2: 6666}
    start = {T0: 0, T1: 0, T2: 0}
    first = stream._rate_limit(7000, start, until)
    assert first == {T0: 2333, T1: 2333, T2: 2333}
    assert sum(first.values()) == 6999
    assert stream._rate_limit(10, {T0: 0, T1: 0}, {T0: 1000, T1: 1}) == {T0: 9, T1: 1}
    assert stream._rate_limit(10, start, start) == start


def test_read_limits_and_delays() -> None:
    """maxOffsetsPerTrigger gives ReadMaxRows, minOffsetsPerTrigger alone ReadMinRows; maxTriggerDelay reads
    Spark's time strings."""
    from pyspark.sql.streaming.datasource import ReadAllAvailable, ReadMaxRows, ReadMinRows

    assert _stream(maxOffsetsPerTrigger="5", minOffsetsPerTrigger="2").getDefaultReadLimit() == ReadMaxRows(5)
    assert _stream(minOffsetsPerTrigger="2").getDefaultReadLimit() == ReadMinRows(2)
    assert _stream().getDefaultReadLimit() == ReadAllAvailable()
    assert _stream().max_trigger_delay_ms == 15 * 60_000
    assert time_string_as_ms("30s") == 30_000
    assert time_string_as_ms("250") == 250
    with pytest.raises(IllegalArgumentException, match="Invalid suffix"):
        time_string_as_ms("5parsecs")
    with pytest.raises(IllegalArgumentException, match="Failed to parse time string: soon"):
        time_string_as_ms("soon")


def test_min_offsets_delay_batch() -> None:
    """Fewer new records than minOffsetsPerTrigger hold the batch back until maxTriggerDelay has passed."""
    stream = _stream(minOffsetsPerTrigger="100", maxTriggerDelay="1h")
    stream.last_trigger_millis = 1 << 62  # the delay has not passed
    assert stream._delay_batch(100, {T0: 50}, {T0: 0})
    assert not stream._delay_batch(100, {T0: 150}, {T0: 0})
    stream.last_trigger_millis = 0  # long ago: the delay has passed
    assert not stream._delay_batch(100, {T0: 1}, {T0: 0})
