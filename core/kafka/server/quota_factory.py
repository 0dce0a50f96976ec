"""Port of core/src/main/scala/kafka/server/QuotaFactory.scala (Kafka 2.8).

The broker's quota managers, made once by KafkaServer from its KafkaConfig and shared by the replica manager, the
fetcher managers, KafkaApis and the config handlers: the client quotas `fetch` and `produce` (byte rates),
`request` (request_percentage) and `controller_mutation` (controller_mutation_rate), and the replication quotas
`leader` (replication out of this broker as leader), `follower` (replication into this broker as follower) and
`alter_log_dirs` (moves of replicas between its log directories). `UNBOUNDED_QUOTA` is the replication quota of
every fetch that is not from a follower.

# PORT: the `client.quota.callback.class` plugin (org.apache.kafka.server.quota.ClientQuotaCallback) is not ported:
# `instantiate` refuses a config that names one, rather than ignoring it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from kafka.common.config.config_exception import ConfigException
from kafka.server.client_quota_manager import ClientQuotaManager, ClientQuotaManagerConfig
from kafka.server.client_request_quota_manager import ClientRequestQuotaManager
from kafka.server.controller_mutation_quota_manager import ControllerMutationQuotaManager
from kafka.server.replication_quota_manager import (
    QuotaType,
    ReplicationQuotaManager,
    ReplicationQuotaManagerConfig,
)

if TYPE_CHECKING:
    from kafka.common.metrics.metrics import Metrics
    from kafka.common.topic_partition import TopicPartition
    from kafka.common.utils.time import Time
    from kafka.server.kafka_config import KafkaConfig

__all__ = [
    "UNBOUNDED_QUOTA",
    "QuotaManagers",
    "QuotaType",
    "UnboundedQuota",
    "alter_log_dirs_replication_config",
    "client_controller_mutation_config",
    "client_fetch_config",
    "client_produce_config",
    "client_request_config",
    "instantiate",
    "replication_config",
]


class UnboundedQuota:
    """QuotaFactory.UnboundedQuota: a ReplicaQuota that throttles nothing and records nothing."""

    def is_throttled(self, topic_partition: TopicPartition) -> bool:
        return False

    def is_quota_exceeded(self) -> bool:
        return False

    def record(self, value: int) -> None:
        pass


UNBOUNDED_QUOTA = UnboundedQuota()

_LONG_MAX: Final = 2**63 - 1
_log = logging.getLogger("kafka.server.QuotaFactory$")


@dataclass(frozen=True, slots=True)
class QuotaManagers:
    """The broker's quota managers (see the module docstring)."""

    fetch: ClientQuotaManager
    produce: ClientQuotaManager
    request: ClientRequestQuotaManager
    controller_mutation: ControllerMutationQuotaManager
    leader: ReplicationQuotaManager
    follower: ReplicationQuotaManager
    alter_log_dirs: ReplicationQuotaManager

    def shutdown(self) -> None:
        """Stops the client quota managers' ThrottledChannelReaper threads (the replication quota managers have
        none)."""
        managers = (self.fetch, self.produce, self.request, self.controller_mutation)
        # All stop at once: each reaper may be in a poll of up to a second.
        for manager in managers:
            manager.throttled_channel_reaper.initiate_shutdown()
        for manager in managers:
            manager.shutdown()


def instantiate(cfg: KafkaConfig, metrics: Metrics, time: Time, thread_name_prefix: str = "") -> QuotaManagers:
    """The quota managers of a broker with config `cfg`, their sensors in `metrics`; `thread_name_prefix` prefixes
    the names of the reaper threads. A `client.quota.callback.class` is refused (see the module docstring)."""
    if cfg.client_quota_callback_class:
        raise ConfigException(
            f"client.quota.callback.class={cfg.client_quota_callback_class} is set, but this broker supports only "
            "the default quota callback (quotas set with kafka-configs.sh or AlterClientQuotas)"
        )
    return QuotaManagers(
        fetch=ClientQuotaManager(client_fetch_config(cfg), metrics, QuotaType.FETCH, time, thread_name_prefix),
        produce=ClientQuotaManager(client_produce_config(cfg), metrics, QuotaType.PRODUCE, time, thread_name_prefix),
        request=ClientRequestQuotaManager(client_request_config(cfg), metrics, time, thread_name_prefix),
        controller_mutation=ControllerMutationQuotaManager(
            client_controller_mutation_config(cfg), metrics, time, thread_name_prefix
        ),
        leader=ReplicationQuotaManager(replication_config(cfg), metrics, QuotaType.LEADER_REPLICATION, time),
        follower=ReplicationQuotaManager(replication_config(cfg), metrics, QuotaType.FOLLOWER_REPLICATION, time),
        alter_log_dirs=ReplicationQuotaManager(
            alter_log_dirs_replication_config(cfg), metrics, QuotaType.ALTER_LOG_DIRS_REPLICATION, time
        ),
    )


def client_produce_config(cfg: KafkaConfig) -> ClientQuotaManagerConfig:
    """`quota.producer.default` (deprecated) over `quota.window.num` windows of `quota.window.size.seconds`."""
    if cfg.producer_quota_bytes_per_second_default != _LONG_MAX:
        _log.warning(
            "quota.producer.default has been deprecated in 0.11.0.0 and will be removed in a future release. Use "
            "dynamic quota defaults instead."
        )
    return ClientQuotaManagerConfig(
        quota_default=cfg.producer_quota_bytes_per_second_default,
        num_quota_samples=cfg.num_quota_samples,
        quota_window_size_seconds=cfg.quota_window_size_seconds,
    )


def client_fetch_config(cfg: KafkaConfig) -> ClientQuotaManagerConfig:
    """`quota.consumer.default` (deprecated) over `quota.window.num` windows of `quota.window.size.seconds`."""
    if cfg.consumer_quota_bytes_per_second_default != _LONG_MAX:
        _log.warning(
            "quota.consumer.default has been deprecated in 0.11.0.0 and will be removed in a future release. Use "
            "dynamic quota defaults instead."
        )
    return ClientQuotaManagerConfig(
        quota_default=cfg.consumer_quota_bytes_per_second_default,
        num_quota_samples=cfg.num_quota_samples,
        quota_window_size_seconds=cfg.quota_window_size_seconds,
    )


def client_request_config(cfg: KafkaConfig) -> ClientQuotaManagerConfig:
    return ClientQuotaManagerConfig(
        num_quota_samples=cfg.num_quota_samples, quota_window_size_seconds=cfg.quota_window_size_seconds
    )


def client_controller_mutation_config(cfg: KafkaConfig) -> ClientQuotaManagerConfig:
    """`controller.quota.window.num` windows of `controller.quota.window.size.seconds`."""
    return ClientQuotaManagerConfig(
        num_quota_samples=cfg.num_controller_quota_samples,
        quota_window_size_seconds=cfg.controller_quota_window_size_seconds,
    )


def replication_config(cfg: KafkaConfig) -> ReplicationQuotaManagerConfig:
    """`replication.quota.window.num` windows of `replication.quota.window.size.seconds`."""
    return ReplicationQuotaManagerConfig(
        num_quota_samples=cfg.num_replication_quota_samples,
        quota_window_size_seconds=cfg.replication_quota_window_size_seconds,
    )


def alter_log_dirs_replication_config(cfg: KafkaConfig) -> ReplicationQuotaManagerConfig:
    """`alter.log.dirs.replication.quota.window.num` windows of
    `alter.log.dirs.replication.quota.window.size.seconds`."""
    return ReplicationQuotaManagerConfig(
        num_quota_samples=cfg.num_alter_log_dirs_replication_quota_samples,
        quota_window_size_seconds=cfg.alter_log_dirs_replication_quota_window_size_seconds,
    )
