"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/ConsumerUtils.java (Kafka 3.7).

Helpers shared by the consumer's parts: building the ConsumerNetworkClient, the log context and the
subscription state from the config, and seeking to committed offsets.

# PORT: no metrics helpers (metrics are not ported).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from kafka.clients import client_utils
from kafka.clients.api_versions import ApiVersions
from kafka.clients.consumer.consumer_config import ConsumerConfig
from kafka.clients.consumer.consumer_interceptor import ConsumerInterceptor
from kafka.clients.consumer.internals.consumer_metadata import ConsumerMetadata
from kafka.clients.consumer.internals.consumer_network_client import ConsumerNetworkClient
from kafka.clients.consumer.internals.subscription_state import FetchPosition, SubscriptionState
from kafka.clients.consumer.offset_and_metadata import OffsetAndMetadata
from kafka.clients.consumer.offset_reset_strategy import OffsetResetStrategy
from kafka.clients.group_rebalance_config import GroupRebalanceConfig
from kafka.clients.metadata import Metadata
from kafka.common.config.abstract_config import AbstractConfig
from kafka.common.isolation_level import IsolationLevel
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import Time

if TYPE_CHECKING:
    from kafka.common.metrics.metrics import Metrics
    from kafka.common.metrics.sensor import Sensor

__all__ = [
    "CONSUMER_MAX_INFLIGHT_REQUESTS_PER_CONNECTION",
    "DEFAULT_CLOSE_TIMEOUT_MS",
    "configured_consumer_interceptors",
    "configured_isolation_level",
    "create_consumer_network_client",
    "create_log_context",
    "create_subscription_state",
    "refresh_committed_offsets",
]

THROW_ON_FETCH_STABLE_OFFSET_UNSUPPORTED = "internal.throw.on.fetch.stable.offset.unsupported"
DEFAULT_CLOSE_TIMEOUT_MS = 30 * 1000
CONSUMER_JMX_PREFIX = "kafka.consumer"
CONSUMER_METRIC_GROUP_PREFIX = "consumer"
CONSUMER_MAX_INFLIGHT_REQUESTS_PER_CONNECTION = 100

_log = logging.getLogger("org.apache.kafka.clients.consumer.internals.ConsumerUtils")


def create_consumer_network_client(
    config: ConsumerConfig,
    log_context: LogContext,
    api_versions: ApiVersions,
    time: Time,
    metadata: Metadata,
    retry_backoff_ms: int,
    metrics: Metrics | None = None,
    throttle_time_sensor: Sensor | None = None,
) -> ConsumerNetworkClient:
    """With `metrics`, the selector's sensors are registered there (group prefix `consumer`) and every response's
    throttle time is recorded in `throttle_time_sensor`."""
    net_client = client_utils.create_network_client(
        config,
        log_context,
        api_versions,
        time,
        CONSUMER_MAX_INFLIGHT_REQUESTS_PER_CONNECTION,
        metadata,
        metrics=metrics,
        metrics_grp_prefix=CONSUMER_METRIC_GROUP_PREFIX,
        throttle_time_sensor=throttle_time_sensor,
        # PORT: Java's selector writes a request in the poll after send(); here send() writes it at once
        # (kafka.common.network.selector's write_on_send). The next Fetch goes out as soon as it is built, before the
        # rest of the poll that transmits it, without registering for writability and back (two epoll_ctl).
        write_on_send=True,
    )
    # Polls block at most a heartbeat interval, so the heartbeat thread is not kept from the client for long.
    heartbeat_interval_ms = config.get_int(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG)
    return ConsumerNetworkClient(
        log_context,
        net_client,
        metadata,
        time,
        retry_backoff_ms,
        config.get_int(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG),
        heartbeat_interval_ms,
    )


def create_log_context(config: ConsumerConfig, group_rebalance_config: GroupRebalanceConfig) -> LogContext:
    group_id = group_rebalance_config.group_id
    client_id = config.get_string(ConsumerConfig.CLIENT_ID_CONFIG)
    group = "null" if group_id is None else group_id
    if group_rebalance_config.group_instance_id is not None:
        return LogContext(
            f"[Consumer instanceId={group_rebalance_config.group_instance_id}, clientId={client_id}, groupId={group}] "
        )
    return LogContext(f"[Consumer clientId={client_id}, groupId={group}] ")


def configured_isolation_level(config: ConsumerConfig) -> IsolationLevel:
    return IsolationLevel[config.get_string(ConsumerConfig.ISOLATION_LEVEL_CONFIG).upper()]


def create_subscription_state(config: ConsumerConfig, log_context: LogContext) -> SubscriptionState:
    strategy = OffsetResetStrategy.for_config(config.get_string(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG))
    return SubscriptionState(log_context, strategy)


def configured_consumer_interceptors(config: ConsumerConfig) -> list[ConsumerInterceptor[Any, Any]]:
    """The instances of interceptor.classes, configured with the consumer's settings."""
    interceptors: list[ConsumerInterceptor[Any, Any]] = []
    client_id = config.get_string(ConsumerConfig.CLIENT_ID_CONFIG)
    configs = config.originals({ConsumerConfig.CLIENT_ID_CONFIG: client_id})
    for klass in config.get_list(ConsumerConfig.INTERCEPTOR_CLASSES_CONFIG):
        interceptors.append(AbstractConfig.configured_instance(klass, ConsumerInterceptor, configs))
    return interceptors


def refresh_committed_offsets(
    offsets_and_metadata: Mapping[TopicPartition, OffsetAndMetadata | None],
    metadata: ConsumerMetadata,
    subscriptions: SubscriptionState,
) -> None:
    """Seeks each still-assigned partition to its committed offset (validated against the current leader)."""
    for tp, offset_and_metadata in offsets_and_metadata.items():
        if offset_and_metadata is None:
            continue
        # The epoch first, so the leader below is current.
        if offset_and_metadata.leader_epoch is not None:
            metadata.update_last_seen_epoch_if_newer(tp, offset_and_metadata.leader_epoch)
        # The partition may have been unassigned while the offsets were being fetched.
        if subscriptions.is_assigned(tp):
            leader_and_epoch = metadata.current_leader(tp)
            position = FetchPosition(offset_and_metadata.offset, offset_and_metadata.leader_epoch, leader_and_epoch)
            subscriptions.seek_unvalidated(tp, position)
            _log.info("Setting offset for partition %s to the committed offset %s", tp, position)
        else:
            _log.info("Ignoring the returned %s since its partition %s is no longer assigned", offset_and_metadata, tp)
