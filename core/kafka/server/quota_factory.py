"""Port of core/src/main/scala/kafka/server/QuotaFactory.scala (Kafka 2.8).

The broker's quota managers, made once by KafkaServer from its KafkaConfig and shared by the replica manager, the
fetcher managers, KafkaApis and the config handlers: `leader` (replication out of this broker as leader),
`follower` (replication into this broker as follower) and `alter_log_dirs` (moves of replicas between its log
directories), each a ReplicationQuotaManager. `UNBOUNDED_QUOTA` is the quota of every fetch that is not from a
follower.

# PORT: Kafka's QuotaManagers also holds the client quota managers (`fetch`, `produce`, `request`,
# `controllerMutation`: ClientQuotaManager, ClientRequestQuotaManager, ControllerMutationQuotaManager) and the
# `client.quota.callback.class` plugin. Those belong to issue 15 and are not ported yet: they are left out here
# (not faked), with QuotaType.to_client_quota_type and the client*Config builders that only they use.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

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


@dataclass(frozen=True, slots=True)
class QuotaManagers:
    """The broker's quota managers (see the module docstring for those not ported)."""

    leader: ReplicationQuotaManager
    follower: ReplicationQuotaManager
    alter_log_dirs: ReplicationQuotaManager

    def shutdown(self) -> None:
        """Kafka shuts the client quota managers down here (their throttled-channel reaper threads); the
        replication quota managers hold no thread or resource, so there is nothing to stop for them."""


def instantiate(cfg: KafkaConfig, metrics: Metrics, time: Time, thread_name_prefix: str = "") -> QuotaManagers:
    """The quota managers of a broker with config `cfg`, their sensors in `metrics`. `thread_name_prefix` names the
    threads of the client quota managers in Kafka (not ported: see the module docstring)."""
    return QuotaManagers(
        leader=ReplicationQuotaManager(replication_config(cfg), metrics, QuotaType.LEADER_REPLICATION, time),
        follower=ReplicationQuotaManager(replication_config(cfg), metrics, QuotaType.FOLLOWER_REPLICATION, time),
        alter_log_dirs=ReplicationQuotaManager(
            alter_log_dirs_replication_config(cfg), metrics, QuotaType.ALTER_LOG_DIRS_REPLICATION, time
        ),
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
