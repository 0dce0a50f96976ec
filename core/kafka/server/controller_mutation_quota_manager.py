"""Port of core/src/main/scala/kafka/server/ControllerMutationQuotaManager.scala (Kafka 2.8).

The `controller_mutation_rate` quota (KIP-599): how many partitions a client may create or delete per second
through CreateTopics, CreatePartitions and DeleteTopics. It is a token bucket (metric `tokens` of group
`ControllerMutation`, burst = samples x window x rate), with the plain rate beside it (`mutation-rate`). A request
asks the manager for a ControllerMutationQuota and records each topic's partitions on it:
- strict (CreateTopics v6+, CreatePartitions v3+, DeleteTopics v5+): once the bucket is empty, topics are refused
  with THROTTLING_QUOTA_EXCEEDED until it refills; a topic is accepted as long as the bucket is not empty before it;
- permissive (older versions, whose clients do not know the error): every topic is accepted, and the response's
  throttle time and the muted connection hold the client back.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

from kafka.common.errors import ThrottlingQuotaExceededException
from kafka.common.metrics.quota_violation_exception import QuotaViolationException
from kafka.common.metrics.stats.rate import Rate
from kafka.common.metrics.stats.token_bucket import TokenBucket
from kafka.common.protocol.errors import Errors
from kafka.server.client_quota_manager import ClientQuotaManager, ClientQuotaManagerConfig, _client_id_of
from kafka.server.replication_quota_manager import QuotaType

if TYPE_CHECKING:
    from kafka.common.metric_name import MetricName
    from kafka.common.metrics.metrics import Metrics
    from kafka.common.metrics.sensor import Sensor
    from kafka.common.utils.time import Time
    from kafka.network.request_channel import Request, Session

__all__ = [
    "UNBOUNDED_CONTROLLER_MUTATION_QUOTA",
    "AbstractControllerMutationQuota",
    "ControllerMutationQuota",
    "ControllerMutationQuotaManager",
    "PermissiveControllerMutationQuota",
    "StrictControllerMutationQuota",
    "UnboundedControllerMutationQuota",
]


class ControllerMutationQuota(ABC):
    """The quota of one client for the time of one request."""

    @property
    @abstractmethod
    def is_exceeded(self) -> bool: ...

    @abstractmethod
    def record(self, permits: float) -> None: ...

    @property
    @abstractmethod
    def throttle_time(self) -> int: ...


class UnboundedControllerMutationQuota(ControllerMutationQuota):
    """The quota while no controller mutation quota is set: never exceeded."""

    @property
    def is_exceeded(self) -> bool:
        return False

    def record(self, permits: float) -> None:
        pass

    @property
    def throttle_time(self) -> int:
        return 0


UNBOUNDED_CONTROLLER_MUTATION_QUOTA: Final = UnboundedControllerMutationQuota()


class AbstractControllerMutationQuota(ControllerMutationQuota):
    def __init__(self, time: Time) -> None:
        self._time = time
        self.last_throttle_time_ms = 0
        self.last_recorded_time_ms = 0

    def _update_throttle_time(self, e: QuotaViolationException, time_ms: int) -> None:
        self.last_throttle_time_ms = ControllerMutationQuotaManager.throttle_time_ms(e, time_ms)
        self.last_recorded_time_ms = time_ms

    @property
    def throttle_time(self) -> int:
        """The throttle time recorded, less what has passed since (a request may wait in a purgatory a while)."""
        delta_time_ms = self._time.milliseconds() - self.last_recorded_time_ms
        return int(max(0, self.last_throttle_time_ms - delta_time_ms))


class StrictControllerMutationQuota(AbstractControllerMutationQuota):
    """Refuses every mutation once the bucket is empty (ThrottlingQuotaExceededException)."""

    def __init__(self, time: Time, quota_sensor: Sensor) -> None:
        super().__init__(time)
        self._quota_sensor = quota_sensor

    @property
    def is_exceeded(self) -> bool:
        return self.last_throttle_time_ms > 0

    def record(self, permits: float) -> None:
        time_ms = self._time.milliseconds()
        try:
            with self._quota_sensor.lock:
                self._quota_sensor.check_quotas(time_ms)
                self._quota_sensor.record(permits, time_ms, False)
        except QuotaViolationException as e:
            self._update_throttle_time(e, time_ms)
            raise ThrottlingQuotaExceededException(
                Errors.THROTTLING_QUOTA_EXCEEDED.message, throttle_time_ms=int(self.last_throttle_time_ms)
            ) from None


class PermissiveControllerMutationQuota(AbstractControllerMutationQuota):
    """Accepts every mutation, remembering the throttle time once the bucket is empty."""

    def __init__(self, time: Time, quota_sensor: Sensor) -> None:
        super().__init__(time)
        self._quota_sensor = quota_sensor

    @property
    def is_exceeded(self) -> bool:
        return False

    def record(self, permits: float) -> None:
        time_ms = self._time.milliseconds()
        try:
            self._quota_sensor.record(permits, time_ms, True)
        except QuotaViolationException as e:
            self._update_throttle_time(e, time_ms)


def _java_round(value: float) -> int:
    return math.floor(value + 0.5)


class ControllerMutationQuotaManager(ClientQuotaManager):
    """Controller mutation quotas (see the module docstring)."""

    logger_name = "kafka.server.ControllerMutationQuotaManager"

    QUOTA_CONTROLLER_MUTATION_DEFAULT: Final = float(2**31 - 1)

    def __init__(
        self, config: ClientQuotaManagerConfig, metrics: Metrics, time: Time, thread_name_prefix: str = ""
    ) -> None:
        super().__init__(config, metrics, QuotaType.CONTROLLER_MUTATION, time, thread_name_prefix)

    @staticmethod
    def throttle_time_ms(e: QuotaViolationException, time_ms: int) -> int:
        """The time the bucket needs to refill from its (negative) credit to zero."""
        measurable = e.metric().measurable()
        if not isinstance(measurable, TokenBucket):
            raise ValueError(f"Metric {e.metric().metric_name()} is not a TokenBucket metric, value {measurable}")
        return _java_round(-e.value() / e.bound() * 1000)

    def client_quota_metric_name(self, quota_metric_tags: Mapping[str, str]) -> MetricName:
        return self.metrics.metric_name(
            "tokens",
            str(QuotaType.CONTROLLER_MUTATION),
            "Tracking remaining tokens in the token bucket per user/client-id",
            dict(quota_metric_tags),
        )

    def _client_rate_metric_name(self, quota_metric_tags: Mapping[str, str]) -> MetricName:
        return self.metrics.metric_name(
            "mutation-rate",
            str(QuotaType.CONTROLLER_MUTATION),
            "Tracking mutation-rate per user/client-id",
            dict(quota_metric_tags),
        )

    def register_quota_metrics(self, metric_tags: Mapping[str, str], sensor: Sensor) -> None:
        sensor.add(self._client_rate_metric_name(metric_tags), Rate())
        sensor.add(self.client_quota_metric_name(metric_tags), TokenBucket(), self.get_quota_metric_config(metric_tags))

    def record_and_get_throttle_time_ms(self, session: Session, client_id: str, value: float, time_ms: int) -> int:
        """Strict recording: nothing is recorded once the bucket is empty; the throttle time then, else 0."""
        client_sensors = self.get_or_create_quota_sensors(session, client_id)
        quota_sensor = client_sensors.quota_sensor
        try:
            with quota_sensor.lock:
                quota_sensor.check_quotas(time_ms)
                quota_sensor.record(value, time_ms, False)
            return 0
        except QuotaViolationException as e:
            throttle_time_ms = ControllerMutationQuotaManager.throttle_time_ms(e, time_ms)
            self.debug(f"Quota violated for sensor ({quota_sensor.name()}). Delay time: ({throttle_time_ms})")
            return throttle_time_ms

    def new_strict_quota_for(self, session: Session, client_id: str) -> ControllerMutationQuota:
        if self.quotas_enabled:
            client_sensors = self.get_or_create_quota_sensors(session, client_id)
            return StrictControllerMutationQuota(self.time, client_sensors.quota_sensor)
        return UNBOUNDED_CONTROLLER_MUTATION_QUOTA

    def new_permissive_quota_for(self, session: Session, client_id: str) -> ControllerMutationQuota:
        if self.quotas_enabled:
            client_sensors = self.get_or_create_quota_sensors(session, client_id)
            return PermissiveControllerMutationQuota(self.time, client_sensors.quota_sensor)
        return UNBOUNDED_CONTROLLER_MUTATION_QUOTA

    def new_quota_for(self, request: Request, strict_since_version: int) -> ControllerMutationQuota:
        """A strict quota for a request of version `strict_since_version` or later, else a permissive one (an
        unbounded one while no quota is set)."""
        client_id = _client_id_of(request.header.client_id)
        if request.header.api_version >= strict_since_version:
            return self.new_strict_quota_for(request.session, client_id)
        return self.new_permissive_quota_for(request.session, client_id)
