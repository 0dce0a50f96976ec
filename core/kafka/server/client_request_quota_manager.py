"""Port of core/src/main/scala/kafka/server/ClientRequestQuotaManager.scala (Kafka 2.8).

The `request_percentage` quota: the share of a request handler or network thread's time a client may use, as a
percentage of one thread per second (metric `request-time` of group `Request`). Each request's handler time is
recorded when its response is ready, its network thread time once the response is sent (without a check: it counts
for the client's next request). A throttle is at most one quota window. Requests exempt from the quota (those
between brokers) are still measured, under the `exempt-request-time` metric.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

from kafka.server.client_quota_manager import ClientQuotaManager, ClientQuotaManagerConfig, _client_id_of
from kafka.server.replication_quota_manager import QuotaType
from kafka.utils import quota_utils

if TYPE_CHECKING:
    from kafka.common.metric_name import MetricName
    from kafka.common.metrics.metrics import Metrics
    from kafka.common.metrics.quota_violation_exception import QuotaViolationException
    from kafka.common.metrics.sensor import Sensor
    from kafka.common.utils.time import Time
    from kafka.network.request_channel import Request

__all__ = ["ClientRequestQuotaManager"]


class ClientRequestQuotaManager(ClientQuotaManager):
    """Request-time quotas (see the module docstring)."""

    logger_name = "kafka.server.ClientRequestQuotaManager"

    QUOTA_REQUEST_PERCENT_DEFAULT: Final = float(2**31 - 1)
    NANOS_TO_PERCENTAGE_PER_SECOND: Final = 100.0 / 1_000_000_000
    _EXEMPT_SENSOR_NAME: Final = f"exempt-{QuotaType.REQUEST}"

    def __init__(
        self, config: ClientQuotaManagerConfig, metrics: Metrics, time: Time, thread_name_prefix: str = ""
    ) -> None:
        super().__init__(config, metrics, QuotaType.REQUEST, time, thread_name_prefix)
        self._max_throttle_time_ms = config.quota_window_size_seconds * 1000
        self._exempt_metric_name = metrics.metric_name(
            "exempt-request-time", str(QuotaType.REQUEST), "Tracking exempt-request-time utilization percentage"
        )
        self._exempt_sensor: Sensor | None = None

    @property
    def exempt_sensor(self) -> Sensor:
        sensor = self._exempt_sensor
        if sensor is None:
            sensor = self._exempt_sensor = self.get_or_create_sensor(
                ClientRequestQuotaManager._EXEMPT_SENSOR_NAME, self._exempt_metric_name
            )
        return sensor

    def record_exempt(self, value: float) -> None:
        self.exempt_sensor.record(value)

    def maybe_record_and_get_throttle_time_ms_for_request(self, request: Request, time_ms: int) -> int:
        """Records the request's handler time (and, once sent, its network thread time) against the client's
        quota; the throttle time (ms) if the quota is violated, else 0. (Kafka's two-argument
        maybeRecordAndGetThrottleTimeMs.)"""
        if not self.quotas_enabled:
            return 0
        session = request.session
        client_id = _client_id_of(request.header.client_id)
        request.record_network_thread_time_callback = lambda time_nanos: self.record_no_throttle(
            session, client_id, self._nanos_to_percentage(time_nanos)
        )
        return self.record_and_get_throttle_time_ms(
            session, client_id, self._nanos_to_percentage(request.request_thread_time_nanos()), time_ms
        )

    def maybe_record_exempt(self, request: Request) -> None:
        """Measures an exempt request's thread time under `exempt-request-time`."""
        if self.quotas_enabled:
            request.record_network_thread_time_callback = lambda time_nanos: self.record_exempt(
                self._nanos_to_percentage(time_nanos)
            )
            self.record_exempt(self._nanos_to_percentage(request.request_thread_time_nanos()))

    def throttle_time(self, e: QuotaViolationException, time_ms: int) -> int:
        return quota_utils.bounded_throttle_time(e, self._max_throttle_time_ms, time_ms)

    def client_quota_metric_name(self, quota_metric_tags: Mapping[str, str]) -> MetricName:
        return self.metrics.metric_name(
            "request-time", str(QuotaType.REQUEST), "Tracking request-time per user/client-id", dict(quota_metric_tags)
        )

    @staticmethod
    def _nanos_to_percentage(nanos: int) -> float:
        return nanos * ClientRequestQuotaManager.NANOS_TO_PERCENTAGE_PER_SECOND
