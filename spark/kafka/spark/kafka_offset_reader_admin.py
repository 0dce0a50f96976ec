"""Port of connector/kafka-0-10-sql/src/main/scala/org/apache/spark/sql/kafka010/KafkaOffsetReaderAdmin.scala
(Spark 4).

The driver's view of the partitions' offsets, through an admin client (ListOffsets with the query's isolation
level, so that read_committed queries stop at the last stable offset): the earliest, latest and timestamp-based
offsets of the partitions the ConsumerStrategy finds, and the offset ranges of a batch, with the data-loss checks
between two micro-batches (partitions deleted, added partitions not starting at 0, offsets going backwards).
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from kafka.clients.admin.admin import Admin
from kafka.clients.admin.list_offsets_options import ListOffsetsOptions
from kafka.clients.admin.list_offsets_result import ListOffsetsResultInfo
from kafka.clients.admin.offset_spec import OffsetSpec
from kafka.common.isolation_level import IsolationLevel
from kafka.common.topic_partition import TopicPartition
from kafka.spark import kafka_exceptions
from kafka.spark.consumer_strategy import ConsumerStrategy
from kafka.spark.kafka_exceptions import IllegalArgumentException, IllegalStateException
from kafka.spark.kafka_offset_range_calculator import KafkaOffsetRange, KafkaOffsetRangeCalculator
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
from kafka.spark.kafka_source_offset import KafkaSourceOffset, PartitionOffsetMap

__all__ = ["KafkaOffsetReaderAdmin", "ReportDataLoss"]

log = logging.getLogger("org.apache.spark.sql.kafka010.KafkaOffsetReaderAdmin")

#: Called with a warning text and the exception to raise when failOnDataLoss is true.
ReportDataLoss = Callable[[str, Callable[[], BaseException]], None]

T = TypeVar("T")

#: ListOffsets' answer for a timestamp that no record is at or after.
_INVALID_OFFSET = -1


class KafkaOffsetReaderAdmin:
    """Not thread-safe beyond its own lock: one per query (or batch plan), on the driver."""

    def __init__(
        self,
        consumer_strategy: ConsumerStrategy,
        driver_kafka_params: Mapping[str, Any],
        reader_options: Mapping[str, str],
        driver_group_id_prefix: str,
    ) -> None:
        from kafka.spark.kafka_source_provider import (
            FETCH_OFFSET_NUM_RETRY,
            FETCH_OFFSET_RETRY_INTERVAL_MS,
            MAX_RECORDS_PER_PARTITION_OPTION_KEY,
            MIN_PARTITIONS_OPTION_KEY,
        )

        self.consumer_strategy = consumer_strategy
        self.driver_kafka_params = dict(driver_kafka_params)
        self.driver_group_id_prefix = driver_group_id_prefix
        self.max_offset_fetch_attempts = int(reader_options.get(FETCH_OFFSET_NUM_RETRY, "3"))
        self.offset_fetch_attempt_interval_ms = int(reader_options.get(FETCH_OFFSET_RETRY_INTERVAL_MS, "1000"))
        min_partitions = reader_options.get(MIN_PARTITIONS_OPTION_KEY)
        self.min_partitions = None if min_partitions is None else int(min_partitions)
        max_records = reader_options.get(MAX_RECORDS_PER_PARTITION_OPTION_KEY)
        self.range_calculator = KafkaOffsetRangeCalculator(
            self.min_partitions, None if max_records is None else int(max_records)
        )
        isolation = self.driver_kafka_params.get("isolation.level", "read_uncommitted")
        if not isinstance(isolation, str):
            raise IllegalArgumentException("isolation.level must be either not defined or with type String")
        try:
            self.isolation_level = IsolationLevel[isolation.upper()]
        except KeyError:
            raise IllegalArgumentException(
                f"No enum constant org.apache.kafka.common.IsolationLevel.{isolation.upper()}"
            ) from None
        self._list_offsets_options = ListOffsetsOptions(self.isolation_level)
        self._admin: Admin | None = None
        self._lock = threading.RLock()

    # -- the admin client, created on first use and replaced after a failed attempt

    @property
    def admin(self) -> Admin:
        with self._lock:
            if self._admin is None:
                self._admin = self.consumer_strategy.create_admin(self.driver_kafka_params)
            return self._admin

    def _list_offsets(self, params: Mapping[TopicPartition, OffsetSpec]) -> dict[TopicPartition, int]:
        if not params:
            return {}
        result = self.admin.list_offsets(params, self._list_offsets_options).all().get()
        return {tp: info.offset for tp, info in result.items()}

    def _list_offsets_info(self, params: Mapping[TopicPartition, OffsetSpec]) -> dict[TopicPartition, Any]:
        if not params:
            return {}
        return dict(self.admin.list_offsets(params, self._list_offsets_options).all().get())

    def __str__(self) -> str:
        return str(self.consumer_strategy)

    def close(self) -> None:
        self._stop_admin()

    # -- resolving start and end limits

    def fetch_partition_offsets(
        self, offset_range_limit: KafkaOffsetRangeLimit, is_starting_offsets: bool
    ) -> PartitionOffsetMap:
        """The offsets of every assigned partition for a limit, -2/-1 left unresolved for earliest/latest."""
        partitions = self.consumer_strategy.assigned_topic_partitions(self.admin)
        match offset_range_limit:
            case EarliestOffsetRangeLimit():
                return {tp: EARLIEST for tp in partitions}
            case LatestOffsetRangeLimit():
                return {tp: LATEST for tp in partitions}
            case SpecificOffsetRangeLimit(partition_offsets=partition_offsets):
                if partitions != set(partition_offsets):
                    raise kafka_exceptions.start_offset_does_not_match_assigned(partition_offsets, partitions)
                log.debug("Assigned partitions: %s. Seeking to %s", partitions, partition_offsets)
                return dict(partition_offsets)
            case SpecificTimestampRangeLimit(topic_timestamps=timestamps, strategy_on_no_matching_starting_offset=s):
                return dict(
                    self.fetch_specific_timestamp_based_offsets(timestamps, is_starting_offsets, s).partition_to_offsets
                )
            case GlobalTimestampRangeLimit(timestamp=timestamp, strategy_on_no_matching_starting_offset=s):
                return dict(
                    self.fetch_global_timestamp_based_offsets(timestamp, is_starting_offsets, s).partition_to_offsets
                )
        raise IllegalStateException(f"unknown offset range limit {offset_range_limit}")

    def fetch_specific_offsets(
        self, partition_offsets: Mapping[TopicPartition, int], report_data_loss: ReportDataLoss
    ) -> KafkaSourceOffset:
        """The given offsets with -2/-1 resolved to the partitions' earliest/latest offsets."""

        def check(partitions: set[TopicPartition]) -> None:
            if partitions != set(partition_offsets):
                raise kafka_exceptions.start_offset_does_not_match_assigned(partition_offsets, partitions)

        return self._fetch_specific_offsets0(check, lambda _: dict(partition_offsets))

    def fetch_specific_timestamp_based_offsets(
        self,
        partition_timestamps: Mapping[TopicPartition, int],
        is_starting_offsets: bool,
        strategy_on_no_match_starting_offset: StrategyOnNoMatchStartingOffset,
    ) -> KafkaSourceOffset:
        def check(partitions: set[TopicPartition]) -> None:
            if partitions != set(partition_timestamps):
                raise kafka_exceptions.timestamp_offset_does_not_match_assigned(
                    is_starting_offsets, partition_timestamps, partitions
                )

        def retrieve(_: set[TopicPartition]) -> dict[TopicPartition, int]:
            params = {tp: OffsetSpec.for_timestamp(ts) for tp, ts in partition_timestamps.items()}
            return self._read_timestamp_offsets(
                self._list_offsets_info(params),
                is_starting_offsets,
                strategy_on_no_match_starting_offset,
                lambda tp: partition_timestamps[tp],
            )

        return self._fetch_specific_offsets0(check, retrieve)

    def fetch_global_timestamp_based_offsets(
        self,
        timestamp: int,
        is_starting_offsets: bool,
        strategy_on_no_match_starting_offset: StrategyOnNoMatchStartingOffset,
    ) -> KafkaSourceOffset:
        def retrieve(partitions: set[TopicPartition]) -> dict[TopicPartition, int]:
            params = {tp: OffsetSpec.for_timestamp(timestamp) for tp in partitions}
            return self._read_timestamp_offsets(
                self._list_offsets_info(params),
                is_starting_offsets,
                strategy_on_no_match_starting_offset,
                lambda _: timestamp,
            )

        return self._fetch_specific_offsets0(lambda _: None, retrieve)

    def _read_timestamp_offsets(
        self,
        tp_to_offset: Mapping[TopicPartition, ListOffsetsResultInfo],
        is_starting_offsets: bool,
        strategy: StrategyOnNoMatchStartingOffset,
        partition_timestamp: Callable[[TopicPartition], int],
    ) -> dict[TopicPartition, int]:
        result: dict[TopicPartition, int] = {}
        for tp, info in tp_to_offset.items():
            if info.offset == _INVALID_OFFSET:
                if is_starting_offsets and strategy is StrategyOnNoMatchStartingOffset.ERROR:
                    raise IllegalArgumentException(
                        f"No offset matched from request of topic-partition {tp} and timestamp "
                        f"{partition_timestamp(tp)}."
                    )
                result[tp] = LATEST
            else:
                result[tp] = info.offset
        return result

    def _fetch_specific_offsets0(
        self,
        check_partitions: Callable[[set[TopicPartition]], None],
        retrieve_partition_offsets: Callable[[set[TopicPartition]], dict[TopicPartition, int]],
    ) -> KafkaSourceOffset:
        def body(partitions: set[TopicPartition]) -> dict[TopicPartition, int]:
            check_partitions(partitions)
            partition_offsets = retrieve_partition_offsets(partitions)
            to_resolve = {
                tp: (OffsetSpec.latest() if off == LATEST else OffsetSpec.earliest())
                for tp, off in partition_offsets.items()
                if off in (LATEST, EARLIEST)
            }
            resolved = self._list_offsets(to_resolve)
            return {tp: resolved[tp] if off in (LATEST, EARLIEST) else off for tp, off in partition_offsets.items()}

        return KafkaSourceOffset(self._partitions_assigned_to_admin(body))

    def fetch_earliest_offsets(self, new_partitions: list[TopicPartition] | None = None) -> PartitionOffsetMap:
        """The earliest offsets of every assigned partition, or of those of `new_partitions` that still exist."""
        if new_partitions is None:
            return self._partitions_assigned_to_admin(
                lambda partitions: self._list_offsets({tp: OffsetSpec.earliest() for tp in partitions})
            )
        if not new_partitions:
            return {}
        return self._partitions_assigned_to_admin(
            lambda partitions: self._list_offsets(
                {tp: OffsetSpec.earliest() for tp in new_partitions if tp in partitions}
            )
        )

    def fetch_latest_offsets(self, known_offsets: Mapping[TopicPartition, int] | None) -> PartitionOffsetMap:
        """The latest offsets of every assigned partition; fetched again (a few times) while one of them is below
        an offset already known for it, which a lagging broker can answer."""

        def body(partitions: set[TopicPartition]) -> dict[TopicPartition, int]:
            params = {tp: OffsetSpec.latest() for tp in partitions}
            if known_offsets is None:
                return self._list_offsets(params)
            attempt = 0
            while True:
                partition_offsets = self._list_offsets(params)
                attempt += 1
                incorrect = [
                    (tp, known_offsets[tp], offset)
                    for tp, offset in partition_offsets.items()
                    if tp in known_offsets and known_offsets[tp] > offset
                ]
                if not incorrect or attempt >= self.max_offset_fetch_attempts:
                    return partition_offsets
                log.warning(
                    "Found incorrect offsets in some partitions (partition, previous offset, fetched offset): %s",
                    incorrect,
                )
                log.warning("Retrying to fetch latest offsets because of incorrect offsets")
                time.sleep(self.offset_fetch_attempt_interval_ms / 1000)

        return self._partitions_assigned_to_admin(body)

    # -- offset ranges

    def get_offset_ranges_from_unresolved_offsets(
        self, starting_offsets: KafkaOffsetRangeLimit, ending_offsets: KafkaOffsetRangeLimit
    ) -> list[KafkaOffsetRange]:
        """The ranges of a batch query: limits resolved against the partitions as they are now."""
        from_offsets = self.fetch_partition_offsets(starting_offsets, is_starting_offsets=True)
        until_offsets = self.fetch_partition_offsets(ending_offsets, is_starting_offsets=False)
        if set(from_offsets) != set(until_offsets):
            from_topics = ",".join(str(tp) for tp in sorted(from_offsets, key=lambda tp: tp.topic))
            until_topics = ",".join(str(tp) for tp in sorted(until_offsets, key=lambda tp: tp.topic))
            raise IllegalStateException(
                f"different topic partitions for starting offsets topics[{from_topics}] and "
                f"ending offsets topics[{until_topics}]"
            )
        # PORT: Spark resolves -2/-1 only to split ranges for minPartitions and leaves them to the executors
        # otherwise; here they are always resolved on the driver (two ListOffsets calls for all partitions), so
        # that each task gets a definite range and an empty partition is no task at all.
        no_loss: ReportDataLoss = lambda _message, _error: None  # noqa: E731
        resolved_from = self.fetch_specific_offsets(from_offsets, no_loss).partition_to_offsets
        resolved_until = self.fetch_specific_offsets(until_offsets, no_loss).partition_to_offsets
        ranges: list[KafkaOffsetRange] = []
        for tp in sorted(until_offsets):
            start, end = resolved_from[tp], resolved_until[tp]
            if start > end:
                raise kafka_exceptions.resolved_start_offset_greater_than_end_offset(start, end, tp)
            ranges.append(KafkaOffsetRange(tp, start, end))
        return self.range_calculator.get_ranges(ranges)

    def get_offset_ranges_from_resolved_offsets(
        self,
        from_partition_offsets: Mapping[TopicPartition, int],
        until_partition_offsets: Mapping[TopicPartition, int],
        report_data_loss: ReportDataLoss,
    ) -> list[KafkaOffsetRange]:
        """The ranges of a micro-batch between two checkpointed offsets, reporting the data lost between them."""
        new_partitions = set(until_partition_offsets) - set(from_partition_offsets)
        new_partition_initial_offsets = self.fetch_earliest_offsets(sorted(new_partitions))
        if set(new_partition_initial_offsets) != new_partitions:
            deleted = new_partitions - set(new_partition_initial_offsets)
            report_data_loss(
                f"Cannot find earliest offsets of {kafka_exceptions.scala_set(sorted(deleted))}. Some data may have "
                "been missed",
                lambda: kafka_exceptions.initial_offset_not_found_for_partitions(sorted(deleted)),
            )
        if new_partition_initial_offsets:
            log.info("Partitions added: %s", new_partition_initial_offsets)
        for tp, offset in sorted(new_partition_initial_offsets.items()):
            if offset != 0:
                report_data_loss(
                    f"Added partition {tp} starts from {offset} instead of 0. Some data may have been missed",
                    functools.partial(kafka_exceptions.added_partition_does_not_start_from_zero, tp, offset),
                )
        deleted_partitions = set(from_partition_offsets) - set(until_partition_offsets)
        if deleted_partitions:
            shown = kafka_exceptions.scala_set(sorted(deleted_partitions))
            if "group.id" in self.driver_kafka_params:
                from kafka.spark.kafka_source_provider import CUSTOM_GROUP_ID_ERROR_MESSAGE

                message = f"{shown} are gone. {CUSTOM_GROUP_ID_ERROR_MESSAGE}"
            else:
                message = f"{shown} are gone. Some data may have been missed."
            report_data_loss(message, lambda: kafka_exceptions.partitions_deleted(sorted(deleted_partitions)))
        from_offsets = {**from_partition_offsets, **new_partition_initial_offsets}
        ranges: list[KafkaOffsetRange] = []
        for tp in sorted(until_partition_offsets):
            if tp not in from_offsets:
                continue
            from_offset, until_offset = from_offsets[tp], until_partition_offsets[tp]
            if until_offset < from_offset:
                report_data_loss(
                    f"Partition {tp}'s offset was changed from {from_offset} to {until_offset}, some data may have "
                    "been missed",
                    functools.partial(kafka_exceptions.partition_offset_changed, tp, from_offset, until_offset),
                )
            ranges.append(KafkaOffsetRange(tp, from_offset, until_offset))
        return self.range_calculator.get_ranges(ranges)

    # -- retries

    def _partitions_assigned_to_admin(
        self, body: Callable[[set[TopicPartition]], dict[TopicPartition, int]]
    ) -> dict[TopicPartition, int]:
        def attempt() -> dict[TopicPartition, int]:
            partitions = self.consumer_strategy.assigned_topic_partitions(self.admin)
            log.debug("Partitions assigned: %s.", partitions)
            return body(partitions)

        return self._with_retries(attempt)

    def _with_retries(self, body: Callable[[], T]) -> T:
        """Runs `body` up to fetchOffset.numRetries times with a fresh admin client after each failure; the last
        failure is raised."""
        with self._lock:
            attempt = 1
            while True:
                try:
                    return body()
                except (IllegalArgumentException, IllegalStateException):
                    # PORT: Spark retries these too, with the same outcome; a bad option fails at once here.
                    raise
                except Exception as e:
                    log.warning("Error in attempt %d getting Kafka offsets: ", attempt, exc_info=True)
                    if attempt >= self.max_offset_fetch_attempts:
                        raise e
                    attempt += 1
                    time.sleep(self.offset_fetch_attempt_interval_ms / 1000)
                    self._reset_admin()

    def _stop_admin(self) -> None:
        with self._lock:
            if self._admin is not None:
                self._admin.close()

    def _reset_admin(self) -> None:
        with self._lock:
            self._stop_admin()
            self._admin = None
