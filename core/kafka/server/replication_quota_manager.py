"""Port of core/src/main/scala/kafka/server/ReplicationQuotaManager.scala (Kafka 2.8).

The replication throttle of one direction (leader, follower, or moves between log directories): which partitions
are throttled (`*.replication.throttled.replicas`, set per topic by TopicConfigHandler), the byte rate of their
replication traffic (sensor `LeaderReplication` / `FollowerReplication` / `AlterLogDirsReplication`, metric
`byte-rate` of that group, a SimpleRate over `replication.quota.window.num` windows of
`replication.quota.window.size.seconds`), and the bound it must stay under (`leader.replication.throttled.rate`,
`follower.replication.throttled.rate`, `replica.alter.log.dirs.io.max.bytes.per.second`, set per broker by
BrokerConfigHandler).

Who calls what, as in Kafka:
- leader side: ReplicaManager.read_from_local_log leaves a throttled partition out of a fetch from an out-of-sync
  follower while `is_quota_exceeded()` (`should_leader_throttle`); KafkaApis records the size of the throttled
  partitions of each follower fetch response (`record`);
- follower side: ReplicaFetcherThread leaves a throttled, out-of-sync partition out of its fetch request while the
  quota is exceeded, and records the bytes of every throttled partition it appends;
- ReplicaAlterLogDirsThread fetches nothing while its quota is exceeded and records every append.

# PORT: QuotaType is declared in QuotaFactory.scala in Kafka; it lives here because this module needs it and
# quota_factory imports this module (kafka.server.quota_factory re-exports it).
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Final, Protocol

from kafka.common.metrics.internals.metrics_utils import TimeUnit
from kafka.common.metrics.metric_config import MetricConfig
from kafka.common.metrics.quota_violation_exception import QuotaViolationException
from kafka.common.metrics.stats.simple_rate import SimpleRate
from kafka.server.sensor_access import SensorAccess
from kafka.utils.logging import Logging
from kafka.utils.read_write_lock import ReentrantReadWriteLock

if TYPE_CHECKING:
    from kafka.common.metrics.metrics import Metrics
    from kafka.common.metrics.quota import Quota
    from kafka.common.metrics.sensor import Sensor
    from kafka.common.topic_partition import TopicPartition
    from kafka.common.utils.time import Time

__all__ = [
    "ALL_REPLICAS",
    "QuotaType",
    "ReplicaQuota",
    "ReplicationQuotaManager",
    "ReplicationQuotaManagerConfig",
]

_LONG_MAX: Final = 2**63 - 1

#: kafka.server.Constants.AllReplicas: the partition list meaning "every partition of the topic".
ALL_REPLICAS: Final[tuple[int, ...]] = (-1,)


class QuotaType(enum.Enum):
    """What a quota manager throttles; its name is the sensor name and metric group (`LeaderReplication`, ...)."""

    FETCH = "Fetch"
    PRODUCE = "Produce"
    REQUEST = "Request"
    CONTROLLER_MUTATION = "ControllerMutation"
    LEADER_REPLICATION = "LeaderReplication"
    FOLLOWER_REPLICATION = "FollowerReplication"
    ALTER_LOG_DIRS_REPLICATION = "AlterLogDirsReplication"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class ReplicationQuotaManagerConfig:
    """The default bound (unbounded) and how the rate is sampled: `num_quota_samples` windows of
    `quota_window_size_seconds` (10 whole windows and the current one by default)."""

    #: ReplicationQuotaManagerConfig.QuotaBytesPerSecondDefault
    QUOTA_BYTES_PER_SECOND_DEFAULT: ClassVar[int] = _LONG_MAX
    DEFAULT_NUM_QUOTA_SAMPLES: ClassVar[int] = 11
    DEFAULT_QUOTA_WINDOW_SIZE_SECONDS: ClassVar[int] = 1
    #: A replication sensor that recorded nothing for an hour is removed (and made again when next needed).
    INACTIVE_SENSOR_EXPIRATION_TIME_SECONDS: ClassVar[int] = 3600

    quota_bytes_per_second_default: int = _LONG_MAX
    num_quota_samples: int = 11
    quota_window_size_seconds: int = 1


class ReplicaQuota(Protocol):
    """Kafka's ReplicaQuota trait: what the fetch paths ask of a replication quota."""

    def record(self, value: int) -> None: ...

    def is_throttled(self, topic_partition: TopicPartition) -> bool: ...

    def is_quota_exceeded(self) -> bool: ...


def _double_to_long(value: float) -> int:
    """Java's `(long) d`: truncation, saturating at the long range, NaN to 0."""
    if math.isnan(value):
        return 0
    if value >= _LONG_MAX:
        return _LONG_MAX
    if value <= -_LONG_MAX - 1:
        return -_LONG_MAX - 1
    return int(value)


class ReplicationQuotaManager(Logging):
    """Tracks the replication byte rate of throttled partitions against a quota (see the module docstring).

    Thread-safety: the throttled partitions are a dict replaced per topic (single atomic operations); the quota is
    read and replaced under `_lock`, which also serializes creating the sensor (SensorAccess).
    """

    logger_name = "kafka.server.ReplicationQuotaManager"

    def __init__(
        self, config: ReplicationQuotaManagerConfig, metrics: Metrics, replication_type: QuotaType, time: Time
    ) -> None:
        self.config = config
        self._metrics = metrics
        self._replication_type = replication_type
        self._time = time
        self._lock = ReentrantReadWriteLock()
        self._throttled_partitions: dict[str, tuple[int, ...] | frozenset[int]] = {}
        self._quota: Quota | None = None
        self._sensor_access = SensorAccess(self._lock, metrics)
        self._rate_metric_name = metrics.metric_name(
            "byte-rate", str(replication_type), f"Tracking byte-rate for {replication_type}"
        )

    def update_quota(self, quota: Quota) -> None:
        """Sets the bound; the rate metric, if it exists, is measured against it from now on."""
        with self._lock.write_lock:
            self._quota = quota
            # The sensor may have expired meanwhile: then its metric is gone, and the next sensor takes the quota.
            metric = self._metrics.metric(self._rate_metric_name)
            if metric is not None:
                metric.config = self._get_quota_metric_config(quota)

    def is_quota_exceeded(self) -> bool:
        """Whether the recorded rate is above the quota now."""
        try:
            self._sensor().check_quotas()
        except QuotaViolationException as qve:
            if self.is_trace_enabled():
                self.trace(
                    f"{self._replication_type}: Quota violated for sensor ({self._sensor().name()}), metric: "
                    f"({qve.metric().metric_name()}), metric-value: ({qve.value()}), bound: ({qve.bound()})"
                )
            return True
        return False

    def is_throttled(self, topic_partition: TopicPartition) -> bool:
        """Whether the partition is in this manager's throttled replica list."""
        partitions = self._throttled_partitions.get(topic_partition.topic)
        if partitions is None:
            return False
        return partitions is ALL_REPLICAS or topic_partition.partition in partitions

    def record(self, value: int) -> None:
        """Adds `value` bytes to the rate, whatever the quota (recording never raises)."""
        self._sensor().record(float(value), self._time.milliseconds(), False)

    def mark_throttled(self, topic: str, partitions: Sequence[int] | None = None) -> None:
        """Replaces the topic's throttled partitions (all of them when `partitions` is None or ALL_REPLICAS)."""
        if partitions is None or partitions is ALL_REPLICAS or tuple(partitions) == ALL_REPLICAS:
            self._throttled_partitions[topic] = ALL_REPLICAS
        else:
            self._throttled_partitions[topic] = frozenset(partitions)

    def remove_throttle(self, topic: str) -> None:
        """No partition of the topic is throttled any more."""
        self._throttled_partitions.pop(topic, None)

    def upper_bound(self) -> int:
        """The quota's bound in bytes/s (Long.MAX_VALUE when there is no quota)."""
        with self._lock.read_lock:
            if self._quota is not None:
                return _double_to_long(self._quota.bound())
            return _LONG_MAX

    def _get_quota_metric_config(self, quota: Quota | None) -> MetricConfig:
        return MetricConfig(quota=quota, samples=self.config.num_quota_samples).time_window(
            self.config.quota_window_size_seconds, TimeUnit.SECONDS
        )

    def _sensor(self) -> Sensor:
        return self._sensor_access.get_or_create(
            str(self._replication_type),
            ReplicationQuotaManagerConfig.INACTIVE_SENSOR_EXPIRATION_TIME_SECONDS,
            lambda sensor: sensor.add(self._rate_metric_name, SimpleRate(), self._get_quota_metric_config(self._quota)),
        )
