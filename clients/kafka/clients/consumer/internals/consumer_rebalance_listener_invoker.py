"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/ConsumerRebalanceListenerInvoker.java
(Kafka 3.7).

Calls the user's ConsumerRebalanceListener (if any) for assigned, revoked and lost partitions, logging what
happens. An error from the listener is returned, not raised (except WakeupException and InterruptException),
so that the coordinator can finish its bookkeeping first. The time each callback that returns takes is
recorded in the coordinator's partition-assigned/revoked/lost-latency sensors.
"""

from __future__ import annotations

from collections.abc import Collection

from kafka.clients.consumer.internals.consumer_coordinator_metrics import ConsumerCoordinatorMetrics
from kafka.clients.consumer.internals.subscription_state import SubscriptionState
from kafka.common.errors import InterruptException, WakeupException
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import Time

__all__ = ["ConsumerRebalanceListenerInvoker"]


def _join(partitions: Collection[TopicPartition]) -> str:
    return ", ".join(str(tp) for tp in partitions)


class ConsumerRebalanceListenerInvoker:
    def __init__(
        self,
        log_context: LogContext,
        subscriptions: SubscriptionState,
        time: Time,
        coordinator_metrics: ConsumerCoordinatorMetrics,
    ) -> None:
        self._log = log_context.logger("org.apache.kafka.clients.consumer.internals.ConsumerRebalanceListenerInvoker")
        self._subscriptions = subscriptions
        self._time = time
        self._coordinator_metrics = coordinator_metrics

    def invoke_partitions_assigned(self, assigned_partitions: Collection[TopicPartition]) -> Exception | None:
        self._log.info(f"Adding newly assigned partitions: {_join(assigned_partitions)}")
        listener = self._subscriptions.rebalance_listener()
        if listener is not None:
            try:
                start_ms = self._time.milliseconds()
                listener.on_partitions_assigned(assigned_partitions)
                self._coordinator_metrics.assign_callback_sensor.record(self._time.milliseconds() - start_ms)
            except (WakeupException, InterruptException):
                raise
            except Exception as e:
                self._log.error(
                    f"User provided listener {type(listener).__qualname__} failed on invocation of "
                    f"onPartitionsAssigned for partitions [{_join(assigned_partitions)}]",
                    e,
                )
                return e
        return None

    def invoke_partitions_revoked(self, revoked_partitions: Collection[TopicPartition]) -> Exception | None:
        self._log.info(f"Revoke previously assigned partitions {_join(revoked_partitions)}")
        revoke_paused = sorted(self._subscriptions.paused_partitions() & set(revoked_partitions))
        if revoke_paused:
            self._log.info(f"The pause flag in partitions [{_join(revoke_paused)}] will be removed due to revocation.")
        listener = self._subscriptions.rebalance_listener()
        if listener is not None:
            try:
                start_ms = self._time.milliseconds()
                listener.on_partitions_revoked(revoked_partitions)
                self._coordinator_metrics.revoke_callback_sensor.record(self._time.milliseconds() - start_ms)
            except (WakeupException, InterruptException):
                raise
            except Exception as e:
                self._log.error(
                    f"User provided listener {type(listener).__qualname__} failed on invocation of "
                    f"onPartitionsRevoked for partitions [{_join(revoked_partitions)}]",
                    e,
                )
                return e
        return None

    def invoke_partitions_lost(self, lost_partitions: Collection[TopicPartition]) -> Exception | None:
        self._log.info(f"Lost previously assigned partitions {_join(lost_partitions)}")
        lost_paused = sorted(self._subscriptions.paused_partitions() & set(lost_partitions))
        if lost_paused:
            self._log.info(
                f"The pause flag in partitions [{_join(lost_paused)}] will be removed due to partition lost."
            )
        listener = self._subscriptions.rebalance_listener()
        if listener is not None:
            try:
                start_ms = self._time.milliseconds()
                listener.on_partitions_lost(lost_partitions)
                self._coordinator_metrics.lose_callback_sensor.record(self._time.milliseconds() - start_ms)
            except (WakeupException, InterruptException):
                raise
            except Exception as e:
                self._log.error(
                    f"User provided listener {type(listener).__qualname__} failed on invocation of "
                    f"onPartitionsLost for partitions [{_join(lost_partitions)}]",
                    e,
                )
                return e
        return None
