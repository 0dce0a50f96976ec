"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/LegacyKafkaConsumer.java (Kafka 3.7).

The classic consumer (group.protocol=classic), which KafkaConsumer delegates to: everything runs on the
application thread inside `poll` and the other API calls, except the heartbeats (the coordinator's
heartbeat thread). `poll` joins the group when needed, finds positions (committed offsets, then
auto.offset.reset), returns buffered records and sends the next fetches before returning, so that fetching
overlaps with processing.

Not safe for use by several threads at once: a second thread gets ConcurrentModificationException, except
for `wakeup`, which any thread may call.

`metrics()` returns the consumer's metrics as Java's do (consumer-fetch-manager-metrics, consumer-metrics with
KafkaConsumerMetrics' poll and commit timings, consumer-coordinator-metrics, consumer-node-metrics, app-info).

# PORT: no telemetry; no reporters.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Generic, TypeVar

from kafka.clients import client_utils
from kafka.clients.api_versions import ApiVersions
from kafka.clients.consumer.consumer_config import ConsumerConfig
from kafka.clients.consumer.consumer_group_metadata import ConsumerGroupMetadata
from kafka.clients.consumer.consumer_partition_assignor import ConsumerPartitionAssignor, get_assignor_instances
from kafka.clients.consumer.consumer_rebalance_listener import ConsumerRebalanceListener
from kafka.clients.consumer.consumer_records import ConsumerRecords
from kafka.clients.consumer.internals.consumer_coordinator import ConsumerCoordinator
from kafka.clients.consumer.internals.consumer_interceptors import ConsumerInterceptors
from kafka.clients.consumer.internals.consumer_metadata import ConsumerMetadata
from kafka.clients.consumer.internals.consumer_network_client import ConsumerNetworkClient
from kafka.clients.consumer.internals.consumer_utils import (
    CONSUMER_JMX_PREFIX,
    CONSUMER_METRIC_GROUP_PREFIX,
    DEFAULT_CLOSE_TIMEOUT_MS,
    THROW_ON_FETCH_STABLE_OFFSET_UNSUPPORTED,
    configured_consumer_interceptors,
    create_consumer_network_client,
    create_log_context,
    create_subscription_state,
)
from kafka.clients.consumer.internals.deserializers import Deserializers
from kafka.clients.consumer.internals.fetch import Fetch
from kafka.clients.consumer.internals.fetch_config import FetchConfig
from kafka.clients.consumer.internals.fetch_metrics_manager import FetchMetricsManager
from kafka.clients.consumer.internals.fetch_metrics_registry import FetchMetricsRegistry
from kafka.clients.consumer.internals.fetcher import Fetcher
from kafka.clients.consumer.internals.kafka_consumer_metrics import KafkaConsumerMetrics
from kafka.clients.consumer.internals.offset_fetcher import OffsetFetcher
from kafka.clients.consumer.internals.subscription_state import FetchPosition, SubscriptionState
from kafka.clients.consumer.internals.topic_metadata_fetcher import TopicMetadataFetcher
from kafka.clients.consumer.offset_and_metadata import OffsetAndMetadata
from kafka.clients.consumer.offset_and_timestamp import OffsetAndTimestamp
from kafka.clients.consumer.offset_commit_callback import OffsetCommitCallbackLike, as_offset_commit_callback
from kafka.clients.consumer.offset_reset_strategy import OffsetResetStrategy
from kafka.clients.group_rebalance_config import GroupRebalanceConfig, ProtocolType
from kafka.clients.kafka_client import KafkaClient
from kafka.common.errors import InterruptException, InvalidGroupIdException, KafkaException, TimeoutException
from kafka.common.metric import Metric
from kafka.common.metric_name import MetricName
from kafka.common.metrics.metrics import Metrics
from kafka.common.partition_info import PartitionInfo
from kafka.common.serialization.deserializer import Deserializer
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.app_info_parser import register_app_info, unregister_app_info
from kafka.common.utils.log_context import KafkaLogger
from kafka.common.utils.time import Time, Timer

K = TypeVar("K")
V = TypeVar("V")

__all__ = ["ConcurrentModificationException", "LegacyKafkaConsumer"]

_NO_CURRENT_THREAD = -1
_LONG_MAX = 2**63 - 1


class ConcurrentModificationException(RuntimeError):
    """# PORT: java.util.ConcurrentModificationException, raised when a second thread uses the consumer."""


class LegacyKafkaConsumer(Generic[K, V]):
    DEFAULT_REASON = "rebalance enforced by user"

    def __init__(
        self,
        config: ConsumerConfig,
        key_deserializer: Deserializer[K] | None = None,
        value_deserializer: Deserializer[V] | None = None,
        *,
        time: Time = Time.SYSTEM,
        kafka_client: KafkaClient | None = None,
        subscriptions: SubscriptionState | None = None,
        metadata: ConsumerMetadata | None = None,
        assignors: Sequence[ConsumerPartitionAssignor] | None = None,
    ) -> None:
        """Builds the consumer from `config`. `time`, `kafka_client`, `subscriptions`, `metadata` and
        `assignors` are for tests, as in Java's package-private constructor."""
        self._log: KafkaLogger | None = None
        self._coordinator: ConsumerCoordinator | None = None
        self._fetcher: Fetcher[K, V] | None = None
        self._client: ConsumerNetworkClient | None = None
        self._interceptors: ConsumerInterceptors[K, V] | None = None
        self._deserializers: Deserializers[K, V] | None = None
        self._closed = False
        self._time = time
        self._metrics: Metrics | None = None
        self._kafka_consumer_metrics: KafkaConsumerMetrics | None = None
        self._client_id = "unknown"
        self._current_thread = _NO_CURRENT_THREAD
        self._refcount = 0
        self._thread_lock = threading.Lock()
        self._cached_subscription_has_all_fetch_positions = False
        try:
            self._init(
                config, key_deserializer, value_deserializer, time, kafka_client, subscriptions, metadata, assignors
            )
        except BaseException as t:
            # Release what was built (KAFKA-2121); nothing was built without a logger.
            if self._log is not None:
                self._close(0, True)
            raise KafkaException("Failed to construct kafka consumer") from t

    def _init(
        self,
        config: ConsumerConfig,
        key_deserializer: Deserializer[K] | None,
        value_deserializer: Deserializer[V] | None,
        time: Time,
        kafka_client: KafkaClient | None,
        subscriptions: SubscriptionState | None,
        metadata: ConsumerMetadata | None,
        assignors: Sequence[ConsumerPartitionAssignor] | None,
    ) -> None:
        group_rebalance_config = GroupRebalanceConfig.from_config(config, ProtocolType.CONSUMER)
        self._group_id = group_rebalance_config.group_id
        self._client_id = config.get_string(ConsumerConfig.CLIENT_ID_CONFIG)
        log_context = create_log_context(config, group_rebalance_config)
        self._log = log_context.logger("org.apache.kafka.clients.consumer.internals.LegacyKafkaConsumer")
        enable_auto_commit = config.get_boolean(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG)
        if self._group_id == "":
            self._log.warn(
                "Support for using the empty group id by consumers is deprecated and will be removed in the next "
                "major release."
            )
        self._log.debug("Initializing the Kafka consumer")
        self._metrics = client_utils.create_metrics(config, self._client_id, time)
        fetch_metrics_manager = FetchMetricsManager(self._metrics, FetchMetricsRegistry(CONSUMER_METRIC_GROUP_PREFIX))
        self._request_timeout_ms = config.get_int(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG)
        self._default_api_timeout_ms = config.get_int(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG)
        self._retry_backoff_ms = config.get_long(ConsumerConfig.RETRY_BACKOFF_MS_CONFIG)
        self._retry_backoff_max_ms = config.get_long(ConsumerConfig.RETRY_BACKOFF_MAX_MS_CONFIG)
        interceptor_list = configured_consumer_interceptors(config)
        self._interceptors = ConsumerInterceptors(interceptor_list)
        self._deserializers = Deserializers.from_config(config, key_deserializer, value_deserializer)
        self._subscriptions = (
            subscriptions if subscriptions is not None else create_subscription_state(config, log_context)
        )
        cluster_resource_listeners = client_utils.configure_cluster_resource_listeners(
            interceptor_list, [self._deserializers.key_deserializer, self._deserializers.value_deserializer]
        )
        if metadata is not None:
            self._metadata = metadata
        else:
            self._metadata = ConsumerMetadata(
                self._retry_backoff_ms,
                self._retry_backoff_max_ms,
                config.get_long(ConsumerConfig.METADATA_MAX_AGE_CONFIG),
                not config.get_boolean(ConsumerConfig.EXCLUDE_INTERNAL_TOPICS_CONFIG),
                config.get_boolean(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG),
                self._subscriptions,
                log_context,
                cluster_resource_listeners,
            )
            self._metadata.bootstrap(client_utils.parse_and_validate_addresses(config))
        fetch_config = FetchConfig.from_config(config)
        self._isolation_level = fetch_config.isolation_level
        api_versions = ApiVersions()
        if kafka_client is None:
            self._client = create_consumer_network_client(
                config,
                log_context,
                api_versions,
                time,
                self._metadata,
                self._retry_backoff_ms,
                self._metrics,
                fetch_metrics_manager.throttle_time_sensor(),
            )
        else:
            self._client = ConsumerNetworkClient(
                log_context,
                kafka_client,
                self._metadata,
                time,
                self._retry_backoff_ms,
                self._request_timeout_ms,
                config.get_int(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG),
            )
        if assignors is not None:
            self._assignors = list(assignors)
        else:
            self._assignors = get_assignor_instances(
                config.get_list(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG),
                config.originals({ConsumerConfig.CLIENT_ID_CONFIG: self._client_id}),
            )
        # No coordinator without a group id.
        if self._group_id is None:
            config.ignore(ConsumerConfig.AUTO_COMMIT_INTERVAL_MS_CONFIG)
            config.ignore(THROW_ON_FETCH_STABLE_OFFSET_UNSUPPORTED)
            self._coordinator = None
        else:
            self._coordinator = ConsumerCoordinator(
                group_rebalance_config,
                log_context,
                self._client,
                self._assignors,
                self._metadata,
                self._subscriptions,
                self._metrics,
                CONSUMER_METRIC_GROUP_PREFIX,
                time,
                enable_auto_commit,
                config.get_int(ConsumerConfig.AUTO_COMMIT_INTERVAL_MS_CONFIG),
                self._interceptors,
                config.get_boolean(THROW_ON_FETCH_STABLE_OFFSET_UNSUPPORTED),
                config.get_string(ConsumerConfig.CLIENT_RACK_CONFIG),
            )
        self._fetcher = Fetcher(
            log_context,
            self._client,
            self._metadata,
            self._subscriptions,
            fetch_config,
            self._deserializers,
            time,
            api_versions,
            fetch_metrics_manager,
        )
        self._offset_fetcher = OffsetFetcher(
            log_context,
            self._client,
            self._metadata,
            self._subscriptions,
            time,
            self._retry_backoff_ms,
            self._request_timeout_ms,
            self._isolation_level,
            api_versions,
        )
        self._topic_metadata_fetcher = TopicMetadataFetcher(
            log_context, self._client, self._retry_backoff_ms, self._retry_backoff_max_ms
        )
        self._kafka_consumer_metrics = KafkaConsumerMetrics(self._metrics, CONSUMER_METRIC_GROUP_PREFIX)
        config.log_unused()
        register_app_info(CONSUMER_JMX_PREFIX, self._client_id, self._metrics, time.milliseconds())
        self._log.debug("Kafka consumer initialized")

    @property
    def log(self) -> KafkaLogger:
        assert self._log is not None
        return self._log

    def _require_client(self) -> ConsumerNetworkClient:
        assert self._client is not None
        return self._client

    def _require_fetcher(self) -> Fetcher[K, V]:
        assert self._fetcher is not None
        return self._fetcher

    # -- subscription -----------------------------------------------------------------------------------------

    def assignment(self) -> set[TopicPartition]:
        self._acquire_and_ensure_open()
        try:
            return self._subscriptions.assigned_partitions()
        finally:
            self._release()

    def subscription(self) -> set[str]:
        self._acquire_and_ensure_open()
        try:
            return set(self._subscriptions.subscription())
        finally:
            self._release()

    def subscribe(
        self, topics: Collection[str] | re.Pattern[str], listener: ConsumerRebalanceListener | None = None
    ) -> None:
        """# PORT: Java's subscribe(Collection[, listener]) and subscribe(Pattern[, listener])."""
        if isinstance(topics, re.Pattern):
            self._subscribe_pattern(topics, listener)
        else:
            self._subscribe_topics(topics, listener)

    def _subscribe_topics(self, topics: Collection[str], listener: ConsumerRebalanceListener | None) -> None:
        self._acquire_and_ensure_open()
        try:
            self._maybe_throw_invalid_group_id_exception()
            if topics is None:
                raise ValueError("Topic collection to subscribe to cannot be null")
            if isinstance(topics, str):
                raise ValueError("Topic collection to subscribe to must be a collection of topic names, not a string")
            topic_list = list(topics)
            if not topic_list:
                # An empty subscription is an unsubscribe.
                self.unsubscribe()
                return
            for topic in topic_list:
                if topic is None or not topic.strip():
                    raise ValueError("Topic collection to subscribe to cannot contain null or empty topic")
            self._throw_if_no_assignors_configured()
            # Buffered data of topics no longer subscribed to is dropped.
            current_topic_partitions = {
                tp for tp in self._subscriptions.assigned_partitions() if tp.topic in topic_list
            }
            self._require_fetcher().clear_buffered_data_for_unassigned_partitions(current_topic_partitions)
            self.log.info(f"Subscribed to topic(s): {', '.join(topic_list)}")
            if self._subscriptions.subscribe(set(topic_list), listener):
                self._metadata.request_update_for_new_topics()
        finally:
            self._release()

    def _subscribe_pattern(self, pattern: re.Pattern[str], listener: ConsumerRebalanceListener | None) -> None:
        self._maybe_throw_invalid_group_id_exception()
        if pattern is None or pattern.pattern == "":
            raise ValueError(f"Topic pattern to subscribe to cannot be {'null' if pattern is None else 'empty'}")
        self._acquire_and_ensure_open()
        try:
            self._throw_if_no_assignors_configured()
            self.log.info(f"Subscribed to pattern: '{pattern.pattern}'")
            self._subscriptions.subscribe_pattern(pattern, listener)
            assert self._coordinator is not None
            self._coordinator.update_pattern_subscription(self._metadata.fetch())
            self._metadata.request_update_for_new_topics()
        finally:
            self._release()

    def unsubscribe(self) -> None:
        self._acquire_and_ensure_open()
        try:
            self._require_fetcher().clear_buffered_data_for_unassigned_partitions(())
            if self._coordinator is not None:
                self._coordinator.on_leave_prepare()
                self._coordinator.maybe_leave_group("the consumer unsubscribed from all topics")
            self._subscriptions.unsubscribe()
            self.log.info("Unsubscribed all topics or patterns and assigned partitions")
        finally:
            self._release()

    def assign(self, partitions: Collection[TopicPartition]) -> None:
        self._acquire_and_ensure_open()
        try:
            if partitions is None:
                raise ValueError("Topic partition collection to assign to cannot be null")
            partition_list = list(partitions)
            if not partition_list:
                self.unsubscribe()
                return
            for tp in partition_list:
                topic = None if tp is None else tp.topic
                if topic is None or not topic.strip():
                    raise ValueError("Topic partitions to assign to cannot have null or empty topic")
            self._require_fetcher().clear_buffered_data_for_unassigned_partitions(partition_list)
            # No rebalance follows: commit the positions of partitions being given up now.
            if self._coordinator is not None:
                self._coordinator.maybe_auto_commit_offsets_async(self._time.milliseconds())
            self.log.info(f"Assigned to partition(s): {', '.join(str(tp) for tp in partition_list)}")
            if self._subscriptions.assign_from_user(set(partition_list)):
                self._metadata.request_update_for_new_topics()
        finally:
            self._release()

    # -- polling ----------------------------------------------------------------------------------------------

    def poll(self, timeout_ms: int) -> ConsumerRecords[K, V]:
        """Records fetched for the assigned partitions, waiting up to `timeout_ms` for some (group joins and
        position lookups count against it)."""
        if timeout_ms < 0:
            raise ValueError("Timeout must not be negative")
        timer = self._time.timer(timeout_ms)
        client = self._require_client()
        self._acquire_and_ensure_open()
        kafka_consumer_metrics = self._kafka_consumer_metrics
        assert kafka_consumer_metrics is not None
        try:
            kafka_consumer_metrics.record_poll_start(timer.current_time_ms())
            if self._subscriptions.has_no_subscription_or_user_assignment():
                raise RuntimeError("Consumer is not subscribed to any topics or assigned any partitions")
            while True:
                client.maybe_trigger_wakeup()
                # Group and positions, without blocking on the join beyond the timer.
                self.update_assignment_metadata_if_needed(timer, False)
                fetch = self._poll_for_fetches(timer)
                if not fetch.is_empty():
                    # Send the next fetches before returning, so they overlap with processing. Positions have
                    # already moved: nothing may raise (wakeups included) before the records are returned.
                    if self._send_fetches() > 0 or client.has_pending_requests():
                        client.transmit_sends()
                    if not fetch.records():
                        self.log.trace(
                            "Returning empty records from `poll()` since the consumer's position has advanced for at "
                            "least one topic partition"
                        )
                    assert self._interceptors is not None
                    return self._interceptors.on_consume(ConsumerRecords(fetch.records()))
                if not timer.not_expired():
                    break
            return ConsumerRecords.empty()
        finally:
            self._release()
            kafka_consumer_metrics.record_poll_end(timer.current_time_ms())

    def _send_fetches(self) -> int:
        self._offset_fetcher.validate_positions_on_metadata_change()
        return self._require_fetcher().send_fetches()

    def update_assignment_metadata_if_needed(self, timer: Timer, wait_for_join_group: bool = True) -> bool:
        if self._coordinator is not None and not self._coordinator.poll(timer, wait_for_join_group):
            return False
        return self._update_fetch_positions(timer)

    def _poll_for_fetches(self, timer: Timer) -> Fetch[K, V]:
        coordinator = self._coordinator
        if coordinator is None:
            poll_timeout = timer.remaining_ms()
        else:
            poll_timeout = min(coordinator.time_to_next_poll(timer.current_time_ms()), timer.remaining_ms())
        fetcher = self._require_fetcher()
        # Data already there is returned at once.
        fetch = fetcher.collect_fetch()
        if not fetch.is_empty():
            return fetch
        # New fetches (pending ones are not sent again).
        self._send_fetches()
        # With positions missing, do not block: the offset lookup may be backing off after a failure.
        if not self._cached_subscription_has_all_fetch_positions and poll_timeout > self._retry_backoff_ms:
            poll_timeout = self._retry_backoff_ms
        if self.log.is_trace_enabled():
            self.log.trace(f"Polling for fetches with timeout {poll_timeout}")
        poll_timer = self._time.timer(poll_timeout)
        client = self._require_client()

        # A fetch completed on the heartbeat thread ends the wait.
        def condition() -> bool:
            return not fetcher.has_available_fetches()

        completed = client.completed_request_count()
        metadata_version = self._metadata.update_version()
        client.poll(poll_timer, condition)
        # PORT: Java returns after each network poll and runs the loop of poll() again. A fetch response of a few
        # MB arrives over several polls (each reads what the socket holds), and a round of that loop costs Python
        # some 100 us: while a fetch is in flight and a poll completed nothing, the next poll follows at once,
        # within the same time limit. Anything completed (a fetch, a heartbeat, a commit, a metadata update) ends
        # it, as does a wakeup (raised by the poll).
        while (
            client.completed_request_count() == completed
            and self._metadata.update_version() == metadata_version
            and fetcher.nodes_with_pending_fetch_requests
            and self._cached_subscription_has_all_fetch_positions
            and poll_timer.not_expired()
        ):
            client.poll(poll_timer, condition)
        timer.update(poll_timer.current_time_ms())
        return fetcher.collect_fetch()

    # -- commits ----------------------------------------------------------------------------------------------

    def commit_sync(
        self, offsets: Mapping[TopicPartition, OffsetAndMetadata] | None = None, timeout_ms: int | None = None
    ) -> None:
        """Commits `offsets` (by default the positions of all assigned partitions), waiting up to
        `timeout_ms` (default.api.timeout.ms by default).

        # PORT: Java's four commitSync overloads."""
        timeout = self._default_api_timeout_ms if timeout_ms is None else timeout_ms
        self._acquire_and_ensure_open()
        commit_start = self._time.nanoseconds()
        try:
            self._maybe_throw_invalid_group_id_exception()
            if offsets is None:
                offsets = self._subscriptions.all_consumed()
            for tp, offset_and_metadata in offsets.items():
                self._update_last_seen_epoch_if_newer(tp, offset_and_metadata)
            assert self._coordinator is not None
            if not self._coordinator.commit_offsets_sync(dict(offsets), self._time.timer(timeout)):
                raise TimeoutException(
                    f"Timeout of {timeout}ms expired before successfully committing offsets "
                    f"{{{', '.join(f'{tp}={o!r}' for tp, o in offsets.items())}}}"
                )
        finally:
            assert self._kafka_consumer_metrics is not None
            self._kafka_consumer_metrics.record_commit_sync(self._time.nanoseconds() - commit_start)
            self._release()

    def commit_async(
        self,
        offsets: Mapping[TopicPartition, OffsetAndMetadata] | None = None,
        callback: OffsetCommitCallbackLike | None = None,
    ) -> None:
        """Commits without waiting; `callback` (an OffsetCommitCallback or a function (offsets, exception))
        runs in a later poll, commit or close.

        # PORT: Java's three commitAsync overloads."""
        self._acquire_and_ensure_open()
        try:
            self._maybe_throw_invalid_group_id_exception()
            if offsets is None:
                offsets = self._subscriptions.all_consumed()
            self.log.debug(f"Committing offsets: {{{', '.join(f'{tp}={o!r}' for tp, o in offsets.items())}}}")
            for tp, offset_and_metadata in offsets.items():
                self._update_last_seen_epoch_if_newer(tp, offset_and_metadata)
            assert self._coordinator is not None
            self._coordinator.commit_offsets_async(dict(offsets), as_offset_commit_callback(callback))
        finally:
            self._release()

    # -- positions --------------------------------------------------------------------------------------------

    def seek(self, partition: TopicPartition, offset: int | OffsetAndMetadata) -> None:
        """Moves the position of `partition` to `offset` (an offset, or an OffsetAndMetadata whose leader epoch is
        then validated)."""
        if isinstance(offset, OffsetAndMetadata):
            self._seek_offset_and_metadata(partition, offset)
            return
        if offset < 0:
            raise ValueError("seek offset must not be a negative number")
        self._acquire_and_ensure_open()
        try:
            self.log.info(f"Seeking to offset {offset} for partition {partition}")
            # No offset epoch: no validation.
            new_position = FetchPosition(offset, None, self._metadata.current_leader(partition))
            self._subscriptions.seek_unvalidated(partition, new_position)
        finally:
            self._release()

    def _seek_offset_and_metadata(self, partition: TopicPartition, offset_and_metadata: OffsetAndMetadata) -> None:
        offset = offset_and_metadata.offset
        if offset < 0:
            raise ValueError("seek offset must not be a negative number")
        self._acquire_and_ensure_open()
        try:
            if offset_and_metadata.leader_epoch is not None:
                self.log.info(
                    f"Seeking to offset {offset} for partition {partition} with epoch "
                    f"{offset_and_metadata.leader_epoch}"
                )
            else:
                self.log.info(f"Seeking to offset {offset} for partition {partition}")
            current_leader_and_epoch = self._metadata.current_leader(partition)
            new_position = FetchPosition(offset, offset_and_metadata.leader_epoch, current_leader_and_epoch)
            self._update_last_seen_epoch_if_newer(partition, offset_and_metadata)
            self._subscriptions.seek_unvalidated(partition, new_position)
        finally:
            self._release()

    def seek_to_beginning(self, partitions: Collection[TopicPartition]) -> None:
        """Resets the positions of `partitions` (all assigned ones when empty) to the earliest offsets, on the
        next poll or position."""
        self._seek_to(partitions, OffsetResetStrategy.EARLIEST)

    def seek_to_end(self, partitions: Collection[TopicPartition]) -> None:
        self._seek_to(partitions, OffsetResetStrategy.LATEST)

    def _seek_to(self, partitions: Collection[TopicPartition], strategy: OffsetResetStrategy) -> None:
        if partitions is None:
            raise ValueError("Partitions collection cannot be null")
        self._acquire_and_ensure_open()
        try:
            parts = self._subscriptions.assigned_partitions() if len(partitions) == 0 else partitions
            self._subscriptions.request_offset_reset(parts, strategy)
        finally:
            self._release()

    def position(self, partition: TopicPartition, timeout_ms: int | None = None) -> int:
        """The offset of the next record to fetch from `partition`, looking it up if needed."""
        timeout = self._default_api_timeout_ms if timeout_ms is None else timeout_ms
        self._acquire_and_ensure_open()
        try:
            if not self._subscriptions.is_assigned(partition):
                raise RuntimeError("You can only check the position for partitions assigned to this consumer.")
            timer = self._time.timer(timeout)
            while True:
                position = self._subscriptions.valid_position(partition)
                if position is not None:
                    return position.offset
                self._update_fetch_positions(timer)
                self._require_client().poll(timer)
                if not timer.not_expired():
                    break
            raise TimeoutException(
                f"Timeout of {timeout}ms expired before the position for partition {partition} could be determined"
            )
        finally:
            self._release()

    def committed(
        self, partitions: TopicPartition | set[TopicPartition], timeout_ms: int | None = None
    ) -> dict[TopicPartition, OffsetAndMetadata | None] | OffsetAndMetadata | None:
        """The last committed offsets of `partitions` (None for one without a commit); for a single partition,
        its offset (Java's deprecated committed(TopicPartition))."""
        if isinstance(partitions, TopicPartition):
            result = self.committed({partitions}, timeout_ms)
            assert isinstance(result, dict)
            return result.get(partitions)
        timeout = self._default_api_timeout_ms if timeout_ms is None else timeout_ms
        self._acquire_and_ensure_open()
        start = self._time.nanoseconds()
        try:
            self._maybe_throw_invalid_group_id_exception()
            assert self._coordinator is not None
            offsets = self._coordinator.fetch_committed_offsets(set(partitions), self._time.timer(timeout))
            if offsets is None:
                raise TimeoutException(
                    f"Timeout of {timeout}ms expired before the last committed offset for partitions "
                    f"[{', '.join(str(tp) for tp in partitions)}] could be determined. Try tuning "
                    f"{ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG} larger to relax the threshold."
                )
            for tp, offset_and_metadata in offsets.items():
                self._update_last_seen_epoch_if_newer(tp, offset_and_metadata)
            return offsets
        finally:
            assert self._kafka_consumer_metrics is not None
            self._kafka_consumer_metrics.record_committed(self._time.nanoseconds() - start)
            self._release()

    def metrics(self) -> Mapping[MetricName, Metric]:
        """The consumer's metrics by name (a snapshot of the map; each Metric's metric_value() is read live)."""
        return self._metrics.metrics() if self._metrics is not None else {}

    def partitions_for(self, topic: str, timeout_ms: int | None = None) -> list[PartitionInfo]:
        timeout = self._default_api_timeout_ms if timeout_ms is None else timeout_ms
        self._acquire_and_ensure_open()
        try:
            parts = self._metadata.fetch().partitions_for_topic(topic)
            if parts:
                return list(parts)
            timer = self._time.timer(timeout)
            topic_metadata = self._topic_metadata_fetcher.get_topic_metadata(
                topic, self._metadata.allow_auto_topic_creation(), timer
            )
            return topic_metadata if topic_metadata is not None else []
        finally:
            self._release()

    def list_topics(self, timeout_ms: int | None = None) -> dict[str, list[PartitionInfo]]:
        timeout = self._default_api_timeout_ms if timeout_ms is None else timeout_ms
        self._acquire_and_ensure_open()
        try:
            return self._topic_metadata_fetcher.get_all_topic_metadata(self._time.timer(timeout))
        finally:
            self._release()

    def pause(self, partitions: Iterable[TopicPartition]) -> None:
        self._acquire_and_ensure_open()
        try:
            parts = list(partitions)
            self.log.debug(f"Pausing partitions [{', '.join(map(str, parts))}]")
            for partition in parts:
                self._subscriptions.pause(partition)
        finally:
            self._release()

    def resume(self, partitions: Iterable[TopicPartition]) -> None:
        self._acquire_and_ensure_open()
        try:
            parts = list(partitions)
            self.log.debug(f"Resuming partitions [{', '.join(map(str, parts))}]")
            for partition in parts:
                self._subscriptions.resume(partition)
        finally:
            self._release()

    def paused(self) -> set[TopicPartition]:
        self._acquire_and_ensure_open()
        try:
            return self._subscriptions.paused_partitions()
        finally:
            self._release()

    def offsets_for_times(
        self, timestamps_to_search: Mapping[TopicPartition, int], timeout_ms: int | None = None
    ) -> dict[TopicPartition, OffsetAndTimestamp | None]:
        """The earliest offset of each partition whose timestamp is at least the one given (None where there is
        none)."""
        timeout = self._default_api_timeout_ms if timeout_ms is None else timeout_ms
        self._acquire_and_ensure_open()
        try:
            for tp, timestamp in timestamps_to_search.items():
                # EARLIEST/LATEST sentinels are excluded, so the returned timestamps are real.
                if timestamp < 0:
                    raise ValueError(
                        f"The target time for partition {tp} is {timestamp}. The target time cannot be negative."
                    )
            return self._offset_fetcher.offsets_for_times(timestamps_to_search, self._time.timer(timeout))
        finally:
            self._release()

    def beginning_offsets(
        self, partitions: Collection[TopicPartition], timeout_ms: int | None = None
    ) -> dict[TopicPartition, int]:
        timeout = self._default_api_timeout_ms if timeout_ms is None else timeout_ms
        self._acquire_and_ensure_open()
        try:
            return self._offset_fetcher.beginning_offsets(partitions, self._time.timer(timeout))
        finally:
            self._release()

    def end_offsets(
        self, partitions: Collection[TopicPartition], timeout_ms: int | None = None
    ) -> dict[TopicPartition, int]:
        timeout = self._default_api_timeout_ms if timeout_ms is None else timeout_ms
        self._acquire_and_ensure_open()
        try:
            return self._offset_fetcher.end_offsets(partitions, self._time.timer(timeout))
        finally:
            self._release()

    def current_lag(self, topic_partition: TopicPartition) -> int | None:
        """The lag known locally (no round trip); None when unknown, in which case an end offset lookup is
        started for next time."""
        self._acquire_and_ensure_open()
        try:
            lag = self._subscriptions.partition_lag(topic_partition, self._isolation_level)
            if lag is None:
                if self._subscriptions.partition_end_offset(
                    topic_partition, self._isolation_level
                ) is None and not self._subscriptions.partition_end_offset_requested(topic_partition):
                    self.log.info(f"Requesting the log end offset for {topic_partition} in order to compute lag")
                    self._subscriptions.request_partition_end_offset(topic_partition)
                    self._offset_fetcher.end_offsets([topic_partition], self._time.timer(0))
                return None
            return lag
        finally:
            self._release()

    def group_metadata(self) -> ConsumerGroupMetadata:
        self._acquire_and_ensure_open()
        try:
            self._maybe_throw_invalid_group_id_exception()
            assert self._coordinator is not None
            return self._coordinator.group_metadata()
        finally:
            self._release()

    def enforce_rebalance(self, reason: str | None = None) -> None:
        self._acquire_and_ensure_open()
        try:
            if self._coordinator is None:
                raise RuntimeError("Tried to force a rebalance but consumer does not have a group.")
            self._coordinator.request_rejoin(reason if reason else self.DEFAULT_REASON)
        finally:
            self._release()

    def close(self, timeout_ms: int | None = None) -> None:
        """Leaves the group (committing first with auto-commit), closes the fetch sessions and the connections,
        waiting at most `timeout_ms` (30 s by default)."""
        timeout = DEFAULT_CLOSE_TIMEOUT_MS if timeout_ms is None else timeout_ms
        if timeout < 0:
            raise ValueError("The timeout cannot be negative.")
        self._acquire()
        try:
            if not self._closed:
                # Before setting the flag: the rebalance listener may still need the consumer open.
                self._close(timeout, False)
        finally:
            self._closed = True
            self._release()

    def wakeup(self) -> None:
        """Makes a blocked (or the next) poll raise WakeupException. Callable from any thread."""
        if self._client is not None:
            self._client.wakeup()

    def _create_timer_for_request(self, timeout_ms: int) -> Timer:
        return self._time.timer(min(timeout_ms, self._request_timeout_ms))

    def _close(self, timeout_ms: int, swallow_exception: bool) -> None:
        log = self.log
        log.trace("Closing the Kafka consumer")
        first_exception: BaseException | None = None
        close_timer = self._create_timer_for_request(timeout_ms)
        close_timer.update()
        # The coordinator and the fetcher send requests while closing; each is bounded by the close timer.
        if self._coordinator is not None:
            try:
                self._coordinator.close(close_timer)
            except BaseException as e:
                log.error(f"Failed to close coordinator with a timeout(ms)={close_timer.timeout_ms()}", e)
                first_exception = first_exception or e
        if self._fetcher is not None:
            # At most request.timeout.ms for closing the fetch sessions.
            remaining = max(0, timeout_ms - close_timer.elapsed_ms())
            if remaining > 0:
                remaining = min(self._request_timeout_ms, remaining)
            close_timer.reset(remaining)
            try:
                self._fetcher.close(close_timer)
            except BaseException as e:
                log.error(f"Failed to close fetcher with a timeout(ms)={close_timer.timeout_ms()}", e)
                first_exception = first_exception or e
        for name, closeable in (
            ("consumer interceptors", self._interceptors),
            ("kafka consumer metrics", self._kafka_consumer_metrics),
            ("consumer network client", self._client),
            ("consumer deserializers", self._deserializers),
        ):
            if closeable is None:
                continue
            try:
                closeable.close()
            except BaseException as e:
                log.error(f"Failed to close {name}", e)
                first_exception = first_exception or e
        if self._metrics is not None:
            try:
                self._metrics.close()
            except BaseException as e:
                log.error("Failed to close kafka consumer metrics", e)
                first_exception = first_exception or e
        unregister_app_info(CONSUMER_JMX_PREFIX, self._client_id, self._metrics)
        log.debug("Kafka consumer has been closed")
        if first_exception is not None and not swallow_exception:
            if isinstance(first_exception, InterruptException):
                raise first_exception
            raise KafkaException("Failed to close kafka consumer") from first_exception

    def _update_fetch_positions(self, timer: Timer) -> bool:
        # Positions of partitions whose leader changed are validated first.
        self._offset_fetcher.validate_positions_if_needed()
        self._cached_subscription_has_all_fetch_positions = self._subscriptions.has_all_fetch_positions()
        if self._cached_subscription_has_all_fetch_positions:
            return True
        # Partitions without a position (and not awaiting a reset) take their committed offsets; the coordinator
        # is looked up only then, so a manually assigned consumer that seeks itself never needs one.
        if self._coordinator is not None and not self._coordinator.init_with_committed_offsets_if_needed(timer):
            return False
        # The rest are reset with auto.offset.reset (NoOffsetForPartitionException without one) ...
        self._subscriptions.reset_initializing_positions()
        # ... by an asynchronous ListOffsets.
        self._offset_fetcher.reset_positions_if_needed()
        return True

    def _acquire_and_ensure_open(self) -> None:
        self._acquire()
        if self._closed:
            self._release()
            raise RuntimeError("This consumer has already been closed.")

    def _acquire(self) -> None:
        thread = threading.current_thread()
        thread_id = threading.get_ident()
        with self._thread_lock:
            if thread_id != self._current_thread:
                if self._current_thread != _NO_CURRENT_THREAD:
                    raise ConcurrentModificationException(
                        "KafkaConsumer is not safe for multi-threaded access. currentThread(name: "
                        f"{thread.name}, id: {thread_id}) otherThread(id: {self._current_thread})"
                    )
                self._current_thread = thread_id
            self._refcount += 1

    def _release(self) -> None:
        with self._thread_lock:
            self._refcount -= 1
            if self._refcount == 0:
                self._current_thread = _NO_CURRENT_THREAD

    def _throw_if_no_assignors_configured(self) -> None:
        if not self._assignors:
            raise RuntimeError(
                "Must configure at least one partition assigner class name to "
                f"{ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG} configuration property"
            )

    def _maybe_throw_invalid_group_id_exception(self) -> None:
        if self._group_id is None:
            raise InvalidGroupIdException(
                "To use the group management or offset commit APIs, you must provide a valid "
                f"{ConsumerConfig.GROUP_ID_CONFIG} in the consumer configuration."
            )

    def _update_last_seen_epoch_if_newer(
        self, topic_partition: TopicPartition, offset_and_metadata: OffsetAndMetadata | None
    ) -> None:
        if offset_and_metadata is not None and offset_and_metadata.leader_epoch is not None:
            self._metadata.update_last_seen_epoch_if_newer(topic_partition, offset_and_metadata.leader_epoch)

    # -- for tests --------------------------------------------------------------------------------------------

    def client_id(self) -> str:
        return self._client_id

    def coordinator(self) -> ConsumerCoordinator | None:
        return self._coordinator

    def subscription_state(self) -> SubscriptionState:
        return self._subscriptions
