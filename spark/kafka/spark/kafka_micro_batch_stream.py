"""Port of connector/kafka-0-10-sql/src/main/scala/org/apache/spark/sql/kafka010/KafkaMicroBatchStream.scala
(Spark 4).

A streaming query (`spark.readStream`): its offset is the next offset of every partition (KafkaSourceOffset),
checkpointed by Spark as `{"topic": {"0": 42}}`. Each trigger asks for the latest offsets, bounded by
maxOffsetsPerTrigger (split over the partitions in proportion to their backlog) or held back by
minOffsetsPerTrigger until maxTriggerDelay has passed; Trigger.AvailableNow freezes the latest offsets once, at
the query's start. Between two offsets the ranges are planned with the data-loss checks of failOnDataLoss.

# PORT: PySpark has no composite read limit, and its ReadMinRows carries no delay. getDefaultReadLimit gives
ReadMaxRows when maxOffsetsPerTrigger is set (else ReadMinRows, else ReadAllAvailable), and the minimum and the
delay of the options are applied with any limit but ReadAllAvailable, which, as in Spark, reads everything.
The initial offsets are not written under the checkpoint's source folder (PySpark gives a Python source no
metadata path); they are Spark's batch-0 start, which Spark records itself once batch 0 is planned.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pyspark.sql.datasource import DataSourceStreamReader, InputPartition
from pyspark.sql.streaming.datasource import (
    ReadAllAvailable,
    ReadLimit,
    ReadMaxRows,
    ReadMinRows,
    SupportsTriggerAvailableNow,
)

from kafka.common.topic_partition import TopicPartition
from kafka.spark import kafka_exceptions
from kafka.spark.consumer_strategy import ConsumerStrategy
from kafka.spark.kafka_batch_partition_reader import KafkaBatchInputPartition, KafkaBatchPartitionReader
from kafka.spark.kafka_exceptions import IllegalStateException
from kafka.spark.kafka_offset_range_limit import (
    EarliestOffsetRangeLimit,
    GlobalTimestampRangeLimit,
    KafkaOffsetRangeLimit,
    LatestOffsetRangeLimit,
    SpecificOffsetRangeLimit,
    SpecificTimestampRangeLimit,
)
from kafka.spark.kafka_offset_reader_admin import KafkaOffsetReaderAdmin
from kafka.spark.kafka_source_offset import KafkaSourceOffset, PartitionOffsetMap

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["KafkaMicroBatchStream", "time_string_as_ms"]

log = logging.getLogger("org.apache.spark.sql.kafka010.KafkaMicroBatchStream")

_LONG_MAX = 2**63 - 1

_TIME_SUFFIXES = {
    "us": 0.001,
    "ms": 1,
    "s": 1000,
    "m": 60_000,
    "min": 60_000,
    "h": 3_600_000,
    "d": 86_400_000,
}


def time_string_as_ms(text: str) -> int:
    """Spark's Utils.timeStringAsMs: a number with an optional unit (us, ms, s, m, min, h, d), ms by default."""
    import re

    match = re.fullmatch(r"(-?[0-9]+)([a-z]+)?", text.strip().lower())
    if match is None:
        problem = f"Failed to parse time string: {text}"
    elif match.group(2) is not None and match.group(2) not in _TIME_SUFFIXES:
        problem = f'Invalid suffix: "{match.group(2)}"'
    else:
        return int(int(match.group(1)) * _TIME_SUFFIXES[match.group(2) or "ms"])
    raise kafka_exceptions.IllegalArgumentException(
        "Time must be specified as seconds (s), milliseconds (ms), microseconds (us), minutes (m or min), hour (h), "
        f"or day (d). E.g. 50s, 100ms, or 250us.\n{problem}"
    )


class KafkaMicroBatchStream(DataSourceStreamReader, SupportsTriggerAvailableNow):
    """Lives in one driver-side Python process per query start; pickled to executors only to `read`, so it holds
    no live client until an offset method runs."""

    def __init__(
        self,
        strategy: ConsumerStrategy,
        driver_kafka_params: Mapping[str, Any],
        executor_kafka_params: Mapping[str, Any],
        options: Mapping[str, str],
        driver_group_id_prefix: str,
        starting_offsets: KafkaOffsetRangeLimit,
        fail_on_data_loss: bool,
    ) -> None:
        from kafka.spark.kafka_source_provider import (
            DEFAULT_MAX_TRIGGER_DELAY,
            INCLUDE_HEADERS,
            MAX_OFFSET_PER_TRIGGER,
            MAX_TRIGGER_DELAY,
            MIN_OFFSET_PER_TRIGGER,
            option_boolean,
            poll_timeout_ms,
        )

        self.strategy = strategy
        self.driver_kafka_params = dict(driver_kafka_params)
        self.executor_kafka_params = dict(executor_kafka_params)
        self.options = dict(options)
        self.driver_group_id_prefix = driver_group_id_prefix
        self.starting_offsets = starting_offsets
        self.fail_on_data_loss = fail_on_data_loss
        self.poll_timeout_ms = poll_timeout_ms(self.options)
        max_offsets = self.options.get(MAX_OFFSET_PER_TRIGGER)
        self.max_offsets_per_trigger = None if max_offsets is None else int(max_offsets)
        min_offsets = self.options.get(MIN_OFFSET_PER_TRIGGER)
        self.min_offset_per_trigger = None if min_offsets is None else int(min_offsets)
        self.max_trigger_delay_ms = time_string_as_ms(self.options.get(MAX_TRIGGER_DELAY, DEFAULT_MAX_TRIGGER_DELAY))
        self.include_headers = option_boolean(self.options, INCLUDE_HEADERS, False)
        self.last_trigger_millis = 0
        self.latest_partition_offsets: PartitionOffsetMap | None = None
        self.all_data_for_trigger_available_now: PartitionOffsetMap | None = None
        self.is_trigger_available_now = False
        self._offset_reader: KafkaOffsetReaderAdmin | None = None
        self._initial_partition_offsets: PartitionOffsetMap | None = None

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_offset_reader"] = None
        return state

    @property
    def kafka_offset_reader(self) -> KafkaOffsetReaderAdmin:
        if self._offset_reader is None:
            from kafka.spark.kafka_offset_reader import build

            self._offset_reader = build(
                self.strategy, self.driver_kafka_params, self.options, self.driver_group_id_prefix
            )
        return self._offset_reader

    # -- offsets

    def initialOffset(self) -> dict[str, Any]:
        # Resolved once per stream, as Spark's lazy initialPartitionOffsets: Spark asks more than once per query.
        if self._initial_partition_offsets is None:
            self._initial_partition_offsets = self._get_or_create_initial_partition_offsets()
        return KafkaSourceOffset(self._initial_partition_offsets).to_dict()

    def getDefaultReadLimit(self) -> ReadLimit:
        if self.max_offsets_per_trigger is not None:
            return ReadMaxRows(self.max_offsets_per_trigger)
        if self.min_offset_per_trigger is not None:
            return ReadMinRows(self.min_offset_per_trigger)
        return ReadAllAvailable()

    def reportLatestOffset(self) -> dict[str, Any] | None:
        if not self.latest_partition_offsets:
            return None
        return KafkaSourceOffset(self.latest_partition_offsets).to_dict()

    def latestOffset(self, start: dict[str, Any], limit: ReadLimit) -> dict[str, Any]:
        start_partition_offsets = dict(KafkaSourceOffset.from_dict(start).partition_to_offsets)
        reader = self.kafka_offset_reader
        if self.is_trigger_available_now:
            if self.all_data_for_trigger_available_now is None:
                self.all_data_for_trigger_available_now = reader.fetch_latest_offsets(start_partition_offsets)
            latest = self.all_data_for_trigger_available_now
        else:
            latest = reader.fetch_latest_offsets(start_partition_offsets)
        self.latest_partition_offsets = latest

        if isinstance(limit, ReadAllAvailable):
            offsets = latest
        else:
            min_rows = limit.min_rows if isinstance(limit, ReadMinRows) else self.min_offset_per_trigger
            max_rows = limit.max_rows if isinstance(limit, ReadMaxRows) else None
            if min_rows is not None and self._delay_batch(min_rows, latest, start_partition_offsets):
                log.debug("Delaying batch as number of records available is less than minOffsetsPerTrigger")
                offsets = start_partition_offsets
            elif max_rows is not None:
                offsets = self._rate_limit(max_rows, start_partition_offsets, latest)
            else:
                offsets = latest
        if not offsets:
            return start
        return KafkaSourceOffset(offsets).to_dict()

    def _delay_batch(
        self,
        min_limit: int,
        latest_offsets: Mapping[TopicPartition, int],
        current_offsets: Mapping[TopicPartition, int],
    ) -> bool:
        """Whether to skip this trigger: fewer than `min_limit` new records and maxTriggerDelay not yet passed."""
        now = int(time.time() * 1000)
        if now - self.last_trigger_millis >= self.max_trigger_delay_ms:
            log.debug("Maximum wait time is passed, triggering batch")
            self.last_trigger_millis = now
            return False
        new_records = sum(offset - current_offsets.get(tp, 0) for tp, offset in latest_offsets.items())
        if new_records < min_limit:
            return True
        self.last_trigger_millis = now
        return False

    def _rate_limit(
        self, limit: int, from_offsets: Mapping[TopicPartition, int], until: Mapping[TopicPartition, int]
    ) -> PartitionOffsetMap:
        """Spreads `limit` offsets over the partitions in proportion to their backlog."""
        new_partitions = sorted(set(until) - set(from_offsets))
        from_new: PartitionOffsetMap | None = None

        def begin_of(tp: TopicPartition) -> int | None:
            nonlocal from_new
            if tp in from_offsets:
                return from_offsets[tp]
            if from_new is None:
                from_new = self.kafka_offset_reader.fetch_earliest_offsets(new_partitions)
            return from_new.get(tp)

        sizes: dict[TopicPartition, int] = {}
        for tp, end in until.items():
            begin = begin_of(tp)
            if begin is not None and end - begin > 0:
                sizes[tp] = end - begin
        total = float(sum(sizes.values()))
        if total < 1:
            return dict(until)
        result: PartitionOffsetMap = {}
        for tp, end in until.items():
            size = sizes.get(tp)
            if size is None:
                result[tp] = end
                continue
            begin = begin_of(tp)
            assert begin is not None
            prorate = limit * (size / total)
            # Small partitions get at least one offset.
            prorate_long = math.ceil(prorate) if prorate < 1 else math.floor(prorate)
            off = _LONG_MAX if prorate_long > _LONG_MAX - begin else begin + prorate_long
            result[tp] = min(end, off)
        return result

    # -- planning and reading

    def partitions(self, start: dict[str, Any], end: dict[str, Any]) -> Sequence[InputPartition]:
        start_partition_offsets = dict(KafkaSourceOffset.from_dict(start).partition_to_offsets)
        end_partition_offsets = dict(KafkaSourceOffset.from_dict(end).partition_to_offsets)
        if self.all_data_for_trigger_available_now is not None:
            self._verify_end_offset_for_trigger_available_now(end_partition_offsets)
        offset_ranges = self.kafka_offset_reader.get_offset_ranges_from_resolved_offsets(
            start_partition_offsets, end_partition_offsets, self._report_data_loss
        )
        return [
            KafkaBatchInputPartition(
                r, self.executor_kafka_params, self.poll_timeout_ms, self.fail_on_data_loss, self.include_headers
            )
            for r in offset_ranges
        ]

    def read(self, partition: InputPartition) -> Iterator[pa.RecordBatch]:
        assert isinstance(partition, KafkaBatchInputPartition)
        return KafkaBatchPartitionReader(partition).batches()

    def commit(self, end: dict[str, Any]) -> None:
        pass

    def stop(self) -> None:
        if self._offset_reader is not None:
            self._offset_reader.close()
            self._offset_reader = None

    def prepareForTriggerAvailableNow(self) -> None:
        self.is_trigger_available_now = True

    def __str__(self) -> str:
        return f"KafkaV2[{self.strategy}]"

    # -- helpers

    def _get_or_create_initial_partition_offsets(self) -> PartitionOffsetMap:
        reader = self.kafka_offset_reader
        match self.starting_offsets:
            case EarliestOffsetRangeLimit():
                offsets = KafkaSourceOffset(reader.fetch_earliest_offsets())
            case LatestOffsetRangeLimit():
                offsets = KafkaSourceOffset(reader.fetch_latest_offsets(None))
            case SpecificOffsetRangeLimit(partition_offsets=p):
                offsets = reader.fetch_specific_offsets(p, self._report_data_loss)
            case SpecificTimestampRangeLimit(topic_timestamps=p, strategy_on_no_matching_starting_offset=s):
                offsets = reader.fetch_specific_timestamp_based_offsets(p, True, s)
            case GlobalTimestampRangeLimit(timestamp=ts, strategy_on_no_matching_starting_offset=s):
                offsets = reader.fetch_global_timestamp_based_offsets(ts, True, s)
            case _:
                raise IllegalStateException(f"unknown starting offsets {self.starting_offsets}")
        log.info("Initial offsets: %s", offsets)
        return dict(offsets.partition_to_offsets)

    def _report_data_loss(self, message: str, get_exception: Any) -> None:
        """With failOnDataLoss, raises the loss's exception; otherwise logs the message."""
        from kafka.spark.kafka_source_provider import INSTRUCTION_FOR_FAIL_ON_DATA_LOSS_FALSE

        if self.fail_on_data_loss:
            raise get_exception()
        log.warning("%s. %s", message, INSTRUCTION_FOR_FAIL_ON_DATA_LOSS_FALSE)

    def _verify_end_offset_for_trigger_available_now(self, end_partition_offsets: PartitionOffsetMap) -> None:
        prefetched = self.all_data_for_trigger_available_now
        assert prefetched is not None
        if set(prefetched) != set(end_partition_offsets):
            raise kafka_exceptions.mismatched_topic_partitions_between_end_offset_and_prefetched(
                sorted(prefetched), sorted(end_partition_offsets)
            )
        if any(end_partition_offsets[tp] > prefetched[tp] for tp in prefetched):
            raise kafka_exceptions.end_offset_has_greater_offset_for_topic_partition_than_prefetched(
                prefetched, end_partition_offsets
            )
        latest = self.kafka_offset_reader.fetch_latest_offsets(end_partition_offsets)
        if not set(end_partition_offsets) <= set(latest):
            raise kafka_exceptions.lost_topic_partitions_in_end_offset_with_trigger_available_now(
                sorted(latest), sorted(end_partition_offsets)
            )
        if any(end_partition_offsets[tp] > latest[tp] for tp in end_partition_offsets):
            raise kafka_exceptions.end_offset_greater_than_latest_with_trigger_available_now(
                latest, end_partition_offsets
            )
