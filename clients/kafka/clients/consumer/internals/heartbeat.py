"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/Heartbeat.java (Kafka 3.7).

The timers of group membership: when the next heartbeat is due (heartbeat.interval.ms, or an exponential
backoff after a failed one), when the session expires without a successful heartbeat
(session.timeout.ms), and when the application has not polled for too long (max.poll.interval.ms).
Guarded by the coordinator's lock.
"""

from __future__ import annotations

from kafka.clients import common_client_configs
from kafka.clients.group_rebalance_config import GroupRebalanceConfig
from kafka.common.utils.exponential_backoff import ExponentialBackoff
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import Time

__all__ = ["Heartbeat"]


class Heartbeat:
    def __init__(self, config: GroupRebalanceConfig, time: Time) -> None:
        if config.heartbeat_interval_ms >= config.session_timeout_ms:
            raise ValueError("Heartbeat must be set lower than the session timeout")
        self._rebalance_config = config
        self._time = time
        self._heartbeat_timer = time.timer(config.heartbeat_interval_ms)
        self._session_timer = time.timer(config.session_timeout_ms)
        self._max_poll_interval_ms = config.rebalance_timeout_ms
        self._poll_timer = time.timer(self._max_poll_interval_ms)
        self._retry_backoff = ExponentialBackoff(
            config.retry_backoff_ms,
            common_client_configs.RETRY_BACKOFF_EXP_BASE,
            config.retry_backoff_max_ms,
            common_client_configs.RETRY_BACKOFF_JITTER,
        )
        self._log = LogContext(f"[Heartbeat groupID={config.group_id}] ").logger(
            "org.apache.kafka.clients.consumer.internals.Heartbeat"
        )
        self._last_heartbeat_send = 0
        self._heartbeat_in_flight = False
        self._heartbeat_attempts = 0

    def _update(self, now: int) -> None:
        self._heartbeat_timer.update(now)
        self._session_timer.update(now)
        self._poll_timer.update(now)

    def poll(self, now: int) -> None:
        """The application polled: the max.poll.interval.ms timer starts again."""
        self._update(now)
        self._poll_timer.reset(self._max_poll_interval_ms)

    def has_inflight(self) -> bool:
        return self._heartbeat_in_flight

    def sent_heartbeat(self, now: int) -> None:
        self._last_heartbeat_send = now
        self._heartbeat_in_flight = True
        self._update(now)
        self._heartbeat_timer.reset(self._rebalance_config.heartbeat_interval_ms)
        if self._log.is_trace_enabled():
            self._log.trace(
                f"Sending heartbeat request with {self._heartbeat_timer.remaining_ms()}ms remaining on timer"
            )

    def fail_heartbeat(self) -> None:
        self._update(self._time.milliseconds())
        self._heartbeat_in_flight = False
        self._heartbeat_timer.reset(self._retry_backoff.backoff(self._heartbeat_attempts))
        self._heartbeat_attempts += 1
        self._log.trace(f"Heartbeat failed, reset the timer to {self._heartbeat_timer.remaining_ms()}ms remaining")

    def receive_heartbeat(self) -> None:
        self._update(self._time.milliseconds())
        self._heartbeat_in_flight = False
        self._heartbeat_attempts = 0
        self._session_timer.reset(self._rebalance_config.session_timeout_ms)

    def should_heartbeat(self, now: int) -> bool:
        self._update(now)
        return self._heartbeat_timer.is_expired()

    def last_heartbeat_send(self) -> int:
        return self._last_heartbeat_send

    def time_to_next_heartbeat(self, now: int) -> int:
        self._update(now)
        return self._heartbeat_timer.remaining_ms()

    def session_timeout_expired(self, now: int) -> bool:
        self._update(now)
        return self._session_timer.is_expired()

    def reset_timeouts(self) -> None:
        self._update(self._time.milliseconds())
        self._session_timer.reset(self._rebalance_config.session_timeout_ms)
        self._poll_timer.reset(self._max_poll_interval_ms)
        self._heartbeat_timer.reset(self._rebalance_config.heartbeat_interval_ms)

    def reset_session_timeout(self) -> None:
        self._update(self._time.milliseconds())
        self._session_timer.reset(self._rebalance_config.session_timeout_ms)

    def poll_timeout_expired(self, now: int) -> bool:
        self._update(now)
        return self._poll_timer.is_expired()

    def last_poll_time(self) -> int:
        return self._poll_timer.current_time_ms()
