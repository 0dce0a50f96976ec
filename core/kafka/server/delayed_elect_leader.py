"""Port of core/src/main/scala/kafka/server/DelayedElectLeader.scala (Kafka 2.8).

An ElectLeaders request whose elections the controller has made waits, in the `ElectLeader` purgatory under its
partitions, until this broker's metadata cache shows each elected leader (UpdateMetadata from the controller), so
that the admin reading metadata next sees the outcome. Partitions still waiting at the deadline are answered
REQUEST_TIMED_OUT; the elections themselves stand.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from kafka.common.protocol.errors import Errors
from kafka.common.requests.api_error import ApiError
from kafka.common.topic_partition import TopicPartition
from kafka.server.delayed_operation import DelayedOperation

if TYPE_CHECKING:
    from kafka.server.replica_manager import ReplicaManager


class DelayedElectLeader(DelayedOperation):
    """Completes when the metadata cache has every expected leader, or at `delay_ms`."""

    logger_name = "kafka.server.DelayedElectLeader"

    def __init__(
        self,
        delay_ms: int,
        expected_leaders: Mapping[TopicPartition, int],
        results: Mapping[TopicPartition, ApiError],
        replica_manager: ReplicaManager,
        response_callback: Callable[[dict[TopicPartition, ApiError]], None],
    ) -> None:
        super().__init__(delay_ms)
        self._waiting_partitions = dict(expected_leaders)
        self._full_results = dict(results)
        self._replica_manager = replica_manager
        self._response_callback = response_callback

    def on_expiration(self) -> None:
        pass

    def on_complete(self) -> None:
        # Also reached by a forced completion at the deadline: whatever still waits has timed out.
        self._update_waiting()
        timed_out = {tp: ApiError(Errors.REQUEST_TIMED_OUT, None) for tp in self._waiting_partitions}
        self._response_callback({**timed_out, **self._full_results})

    def try_complete(self) -> bool:
        self._update_waiting()
        if self.is_debug_enabled():
            self.debug(f"tryComplete() waitingPartitions: {self._waiting_partitions}")
        return not self._waiting_partitions and self.force_complete()

    def _update_waiting(self) -> None:
        metadata_cache = self._replica_manager.metadata_cache
        for tp, leader in list(self._waiting_partitions.items()):
            info = metadata_cache.get_partition_info(tp.topic, tp.partition)
            if info is not None and info.leader == leader:
                del self._waiting_partitions[tp]
                self._full_results[tp] = ApiError.NONE
