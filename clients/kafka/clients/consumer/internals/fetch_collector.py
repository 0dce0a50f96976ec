"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/FetchCollector.java (Kafka 3.7).

Turns buffered fetches into the records of one poll (at most max.poll.records), advancing positions. A
fetch is first checked against the partition's state: stale data (the position moved, the partition was
unassigned) is dropped; errors update metadata, reset or raise (out of range without a reset policy,
authorization). Paused partitions' data waits in the buffer.
Each time records are returned, the partition's lag and lead are recorded (FetchMetricsManager).
"""

from __future__ import annotations

from typing import Generic, TypeVar

from kafka.clients.consumer.internals.completed_fetch import CompletedFetch
from kafka.clients.consumer.internals.consumer_metadata import ConsumerMetadata
from kafka.clients.consumer.internals.deserializers import Deserializers
from kafka.clients.consumer.internals.fetch import Fetch
from kafka.clients.consumer.internals.fetch_buffer import FetchBuffer
from kafka.clients.consumer.internals.fetch_config import FetchConfig
from kafka.clients.consumer.internals.fetch_metrics_manager import FetchMetricsManager
from kafka.clients.consumer.internals.fetch_utils import request_metadata_update
from kafka.clients.consumer.internals.fetched_batch_decoder import RecordColumns
from kafka.clients.consumer.internals.subscription_state import FetchPosition, SubscriptionState
from kafka.clients.consumer.offset_out_of_range_exception import OffsetOutOfRangeException
from kafka.common.errors import KafkaException, RecordTooLargeException, TopicAuthorizationException
from kafka.common.protocol.errors import Errors
from kafka.common.requests.fetch_response import FetchResponse
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import Time

K = TypeVar("K")
V = TypeVar("V")

__all__ = ["FetchCollector"]


class FetchCollector(Generic[K, V]):
    def __init__(
        self,
        log_context: LogContext,
        metadata: ConsumerMetadata,
        subscriptions: SubscriptionState,
        fetch_config: FetchConfig,
        deserializers: Deserializers[K, V],
        time: Time,
        metrics_manager: FetchMetricsManager | None = None,
    ) -> None:
        """# PORT: Java takes the FetchMetricsManager before the Time; here it is trailing and optional."""
        self._log = log_context.logger("org.apache.kafka.clients.consumer.internals.FetchCollector")
        self._metadata = metadata
        self._subscriptions = subscriptions
        self._fetch_config = fetch_config
        self._deserializers = deserializers
        self._time = time
        self._metrics_manager = metrics_manager
        # PORT: KafkaConsumer.poll_columns' target (None: records are collected, as in Java) and its record limit.
        self._columns: RecordColumns | None = None
        self._columns_max_records = 0

    def set_columns(self, columns: RecordColumns | None, max_records: int = 0) -> None:
        """Collects into `columns` (see CompletedFetch.fetch_columns) instead of records until set back to None;
        a collection stops after the batch that reaches `max_records` rows.

        # PORT: no Java counterpart (KafkaConsumer.poll_columns)."""
        self._columns = columns
        self._columns_max_records = max_records

    def collect_fetch(self, fetch_buffer: FetchBuffer) -> Fetch[K, V]:
        """The records available for the application, at most max.poll.records."""
        fetch: Fetch[K, V] = Fetch.empty()
        paused_completed_fetches: list[CompletedFetch] = []
        records_remaining = self._fetch_config.max_poll_records if self._columns is None else self._columns_max_records
        try:
            while records_remaining > 0:
                next_in_line = fetch_buffer.next_in_line_fetch()
                if next_in_line is None or next_in_line.is_consumed():
                    completed_fetch = fetch_buffer.peek()
                    if completed_fetch is None:
                        break
                    if not completed_fetch.is_initialized():
                        try:
                            fetch_buffer.set_next_in_line_fetch(self.initialize(completed_fetch))
                        except Exception:
                            # Dropped if it holds no data and nothing was collected before it, so that the same
                            # error (e.g. authorization) does not come back forever, yet no data is lost.
                            if fetch.is_empty() and FetchResponse.records_size(completed_fetch.partition_data) == 0:
                                fetch_buffer.poll()
                            raise
                    else:
                        fetch_buffer.set_next_in_line_fetch(completed_fetch)
                    fetch_buffer.poll()
                elif self._subscriptions.is_paused(next_in_line.partition):
                    # Kept for a later poll, in case the partition is resumed.
                    self._log.debug(
                        f"Skipping fetching records for assigned partition {next_in_line.partition} because it is "
                        "paused"
                    )
                    paused_completed_fetches.append(next_in_line)
                    fetch_buffer.set_next_in_line_fetch(None)
                else:
                    next_fetch = self._fetch_records(next_in_line, records_remaining)
                    records_remaining -= next_fetch.num_records()
                    fetch.add(next_fetch)
        except KafkaException:
            if fetch.is_empty():
                raise
        finally:
            # Paused partitions' fetches go back to the buffer.
            fetch_buffer.add_all(paused_completed_fetches)
        return fetch

    def _fetch_records(self, next_in_line: CompletedFetch, max_records: int) -> Fetch[K, V]:
        tp = next_in_line.partition
        if not self._subscriptions.is_assigned(tp):
            # A rebalance happened before the records were returned.
            self._log.debug(f"Not returning fetched records for partition {tp} since it is no longer assigned")
        elif not self._subscriptions.is_fetchable(tp):
            # Paused, or being reset, since the fetch was sent.
            self._log.debug(
                f"Not returning fetched records for assigned partition {tp} since it is no longer fetchable"
            )
        else:
            position = self._subscriptions.position(tp)
            if position is None:
                raise RuntimeError(f"Missing position for fetchable partition {tp}")
            if next_in_line.next_fetch_offset() == position.offset:
                columns = self._columns
                if columns is None:
                    part_records = next_in_line.fetch_records(self._fetch_config, self._deserializers, max_records)
                    num_records = len(part_records)
                else:
                    part_records = []
                    num_records = next_in_line.fetch_columns(self._fetch_config, columns, max_records)
                if self._log.is_trace_enabled():
                    self._log.trace(
                        f"Returning {num_records} fetched records at offset {position} for assigned partition {tp}"
                    )
                position_advanced = False
                if next_in_line.next_fetch_offset() > position.offset:
                    next_position = FetchPosition(
                        next_in_line.next_fetch_offset(), next_in_line.last_epoch(), position.current_leader
                    )
                    if self._log.is_trace_enabled():
                        self._log.trace(
                            f"Updating fetch position from {position} to {next_position} for partition {tp} and "
                            f"returning {num_records} records from `poll()`"
                        )
                    self._subscriptions.set_position(tp, next_position)
                    position_advanced = True
                metrics_manager = self._metrics_manager
                if metrics_manager is not None:
                    subscriptions = self._subscriptions
                    metrics_manager.record_partition_lag_and_lead(
                        tp,
                        subscriptions.partition_lag(tp, self._fetch_config.isolation_level),
                        subscriptions.partition_lead(tp),
                    )
                return Fetch({tp: part_records} if part_records else {}, position_advanced, num_records)
            # Not next in line for the position: left over from an obsolete request.
            self._log.debug(
                f"Ignoring fetched records for {tp} at offset {next_in_line.next_fetch_offset()} since the current "
                f"position is {position}"
            )
        if self._log.is_trace_enabled():
            self._log.trace(f"Draining fetched records for partition {tp}")
        next_in_line.drain()
        return Fetch.empty()

    def initialize(self, completed_fetch: CompletedFetch) -> CompletedFetch | None:
        """Checks a fetch against the partition's state; returns it when its records can be read."""
        tp = completed_fetch.partition
        error = Errors.for_code(completed_fetch.partition_data.error_code)
        try:
            if not self._subscriptions.has_valid_position(tp):
                # A rebalance happened while the fetch was in flight.
                self._log.debug(f"Ignoring fetched records for partition {tp} since it no longer has valid position")
                return None
            if error is Errors.NONE:
                return self._handle_initialize_success(completed_fetch)
            self._handle_initialize_errors(completed_fetch, error)
            return None
        finally:
            if error is not Errors.NONE:
                # A partition with an error goes to the end of the fetch order.
                self._subscriptions.move_partition_to_end(tp)

    def _handle_initialize_success(self, completed_fetch: CompletedFetch) -> CompletedFetch | None:
        tp = completed_fetch.partition
        fetch_offset = completed_fetch.next_fetch_offset()
        # Only data at the current position is of interest.
        position = self._subscriptions.position(tp)
        if position is None or position.offset != fetch_offset:
            self._log.debug(
                f"Discarding stale fetch response for partition {tp} since its offset {fetch_offset} does not match "
                f"the expected offset {position}"
            )
            return None
        partition = completed_fetch.partition_data
        if self._log.is_trace_enabled():
            self._log.trace(
                f"Preparing to read {FetchResponse.records_size(partition)} bytes of data for partition {tp} with "
                f"offset {position}"
            )
        batches = iter(FetchResponse.records_or_fail(partition).batches())
        if next(batches, None) is None and FetchResponse.records_size(partition) > 0:
            if completed_fetch.request_version < 3:
                # Before KIP-74 a record larger than the fetch size could never be returned.
                too_large = {tp: fetch_offset}
                e = RecordTooLargeException(
                    f"There are some messages at [Partition=Offset]: {{{tp}={fetch_offset}}} whose size is larger "
                    f"than the fetch size {self._fetch_config.fetch_size} and hence cannot be returned. Please "
                    "considering upgrading your broker to 0.10.1.0 or newer to avoid this issue. Alternately, "
                    "increase the fetch size on the client (using max.partition.fetch.bytes)",
                    record_too_large_partitions=too_large,
                )
                raise e
            # Brokers with KIP-74 always return at least one whole batch.
            raise KafkaException(
                f"Failed to make progress reading messages at {tp}={fetch_offset}. Received a non-empty fetch "
                "response from the server, but no complete records were found."
            )
        if partition.high_watermark >= 0:
            if self._log.is_trace_enabled():
                self._log.trace(f"Updating high watermark for partition {tp} to {partition.high_watermark}")
            self._subscriptions.update_high_watermark(tp, partition.high_watermark)
        if partition.log_start_offset >= 0:
            if self._log.is_trace_enabled():
                self._log.trace(f"Updating log start offset for partition {tp} to {partition.log_start_offset}")
            self._subscriptions.update_log_start_offset(tp, partition.log_start_offset)
        if partition.last_stable_offset >= 0:
            if self._log.is_trace_enabled():
                self._log.trace(f"Updating last stable offset for partition {tp} to {partition.last_stable_offset}")
            self._subscriptions.update_last_stable_offset(tp, partition.last_stable_offset)
        if FetchResponse.is_preferred_replica(partition):

            def expire_time() -> int:
                expire_time_ms = self._time.milliseconds() + self._metadata.metadata_expire_ms()
                self._log.debug(
                    f"Updating preferred read replica for partition {tp} to {partition.preferred_read_replica}, set "
                    f"to expire at {expire_time_ms}"
                )
                return expire_time_ms

            self._subscriptions.update_preferred_read_replica(tp, partition.preferred_read_replica, expire_time)
        completed_fetch.set_initialized()
        return completed_fetch

    def _handle_initialize_errors(self, completed_fetch: CompletedFetch, error: Errors) -> None:
        tp = completed_fetch.partition
        fetch_offset = completed_fetch.next_fetch_offset()
        if error in (
            Errors.NOT_LEADER_OR_FOLLOWER,
            Errors.REPLICA_NOT_AVAILABLE,
            Errors.KAFKA_STORAGE_ERROR,
            Errors.FENCED_LEADER_EPOCH,
            Errors.OFFSET_NOT_AVAILABLE,
        ):
            self._log.debug(f"Error in fetch for partition {tp}: {error.exception_name()}")
            request_metadata_update(self._metadata, self._subscriptions, tp)
        elif error is Errors.UNKNOWN_TOPIC_OR_PARTITION:
            self._log.warn(f"Received unknown topic or partition error in fetch for partition {tp}")
            request_metadata_update(self._metadata, self._subscriptions, tp)
        elif error is Errors.UNKNOWN_TOPIC_ID:
            self._log.warn(f"Received unknown topic ID error in fetch for partition {tp}")
            request_metadata_update(self._metadata, self._subscriptions, tp)
        elif error is Errors.INCONSISTENT_TOPIC_ID:
            self._log.warn(f"Received inconsistent topic ID error in fetch for partition {tp}")
            request_metadata_update(self._metadata, self._subscriptions, tp)
        elif error is Errors.OFFSET_OUT_OF_RANGE:
            cleared_replica_id = self._subscriptions.clear_preferred_read_replica(tp)
            if cleared_replica_id is None:
                # Fetching from the leader: a real out-of-range position.
                position = self._subscriptions.position(tp)
                if position is None or fetch_offset != position.offset:
                    self._log.debug(
                        f"Discarding stale fetch response for partition {tp} since the fetched offset {fetch_offset} "
                        f"does not match the current offset {position}"
                    )
                else:
                    error_message = f"Fetch position {position} is out of range for partition {tp}"
                    if self._subscriptions.has_default_offset_reset_policy():
                        self._log.info(f"{error_message}, resetting offset")
                        self._subscriptions.request_offset_reset(tp)
                    else:
                        self._log.info(
                            f"{error_message}, raising error to the application since no reset policy is configured"
                        )
                        raise OffsetOutOfRangeException(error_message, {tp: position.offset})
            else:
                self._log.debug(
                    f"Unset the preferred read replica {cleared_replica_id} for partition {tp} since we got "
                    f"{error.name} when fetching {fetch_offset}"
                )
        elif error is Errors.TOPIC_AUTHORIZATION_FAILED:
            # The partition, not just the topic, helps with ACL propagation in large clusters.
            self._log.warn(f"Not authorized to read from partition {tp}.")
            raise TopicAuthorizationException.for_topics([tp.topic])
        elif error is Errors.UNKNOWN_LEADER_EPOCH:
            self._log.debug(f"Received unknown leader epoch error in fetch for partition {tp}")
        elif error is Errors.UNKNOWN_SERVER_ERROR:
            self._log.warn(f"Unknown server error while fetching offset {fetch_offset} for topic-partition {tp}")
        elif error is Errors.CORRUPT_MESSAGE:
            raise KafkaException(
                f"Encountered corrupt message when fetching offset {fetch_offset} for topic-partition {tp}"
            )
        else:
            raise RuntimeError(
                f"Unexpected error code {error.code} while fetching at offset {fetch_offset} from topic-partition {tp}"
            )
