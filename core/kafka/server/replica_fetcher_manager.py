"""Port of core/src/main/scala/kafka/server/ReplicaFetcherManager.scala (Kafka 2.8), with the bookkeeping of its
base class AbstractFetcherManager.scala.

Kafka's fetcher manager assigns each followed partition to a fetcher thread, keyed by (leader broker id, fetcher
id), fetcher id = hash of the partition modulo `num.replica.fetchers`. The ReplicaManager adds partitions when this
broker becomes a follower and removes them when it becomes leader, stops or deletes a replica.

# PORT: replication between brokers comes with the replication issue, which brings AbstractFetcherThread and
# ReplicaFetcherThread (threads named `ReplicaFetcherThread-{fetcherId}-{sourceBrokerId}`). Until then this
# manager keeps exactly the bookkeeping AbstractFetcherManager keeps (which partitions would be fetched from which
# broker by which fetcher, and from what offset) and starts no thread: nothing pretends to fetch. A follower whose
# leader is alive is logged with a warning saying it will not replicate. On a one-broker cluster no partition is
# ever added: the broker leads everything it hosts, and a follower whose leader is not alive gets no fetcher in
# Kafka either. `InitialFetchState`, `BrokerIdAndFetcherId` and `FailedPartitions` belong to
# AbstractFetcherManager.scala; they live here until that module exists.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kafka.cluster.broker import BrokerEndPoint
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import Time
from kafka.common.utils.utils import java_string_hash_code
from kafka.utils.logging import Logging

if TYPE_CHECKING:
    from kafka.server.replica_manager import ReplicaManager


@dataclass(frozen=True, slots=True)
class InitialFetchState:
    """Where a follower starts fetching a partition: from which leader, at which leader epoch and offset."""

    leader: BrokerEndPoint
    current_leader_epoch: int
    init_offset: int


@dataclass(frozen=True, slots=True)
class BrokerIdAndFetcherId:
    broker_id: int
    fetcher_id: int


class FailedPartitions:
    """Partitions whose fetching failed (storage error, fenced epoch, unexpected error); thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._failed_partitions_set: set[TopicPartition] = set()

    @property
    def size(self) -> int:
        with self._lock:
            return len(self._failed_partitions_set)

    def add(self, topic_partition: TopicPartition) -> None:
        with self._lock:
            self._failed_partitions_set.add(topic_partition)

    def remove_all(self, topic_partitions: Iterable[TopicPartition]) -> None:
        with self._lock:
            self._failed_partitions_set.difference_update(topic_partitions)

    def contains(self, topic_partition: TopicPartition) -> bool:
        with self._lock:
            return topic_partition in self._failed_partitions_set


def _to_int32(n: int) -> int:
    n &= 0xFFFFFFFF
    return n - (1 << 32) if n >= 1 << 31 else n


class ReplicaFetcherManager(Logging):
    """The follower side of replication: which partitions this broker follows, from which leader.

    Thread-safety: every method holds `_lock` (Kafka's `lock`), as AbstractFetcherManager does.
    """

    logger_name = "kafka.server.ReplicaFetcherManager"

    def __init__(
        self,
        broker_config: Any,
        replica_manager: ReplicaManager | None,
        metrics: Any = None,
        time: Time = Time.SYSTEM,
        thread_name_prefix: str | None = None,
        quota_manager: Any = None,
    ) -> None:
        self.name = f"ReplicaFetcherManager on broker {broker_config.broker_id}"
        self.client_id = "Replica"
        self._broker_config = broker_config
        self._replica_manager = replica_manager
        self._time = time
        self._thread_name_prefix = thread_name_prefix
        self._quota_manager = quota_manager
        self._num_fetchers_per_broker: int = broker_config.num_replica_fetchers
        self._lock = threading.RLock()
        # In Kafka: (source broker id, fetcher id) -> fetcher thread, each thread holding its partitions' states.
        self._fetcher_partitions: dict[BrokerIdAndFetcherId, dict[TopicPartition, InitialFetchState]] = {}
        self._fetcher_source_broker: dict[BrokerIdAndFetcherId, BrokerEndPoint] = {}
        self.failed_partitions = FailedPartitions()
        self.log_ident = f"[{self.name}] "

    def get_fetcher_id(self, topic_partition: TopicPartition) -> int:
        """Which fetcher of a source broker serves the partition (Kafka's hash, so the same as Kafka's)."""
        with self._lock:
            h = _to_int32(31 * java_string_hash_code(topic_partition.topic) + topic_partition.partition)
            h = 0 if h == -(2**31) else abs(h)  # Utils.abs
            return h % self._num_fetchers_per_broker

    def fetch_state(self, topic_partition: TopicPartition) -> InitialFetchState | None:
        """The state the partition was added with, if it is being followed."""
        with self._lock:
            for partitions in self._fetcher_partitions.values():
                state = partitions.get(topic_partition)
                if state is not None:
                    return state
            return None

    @property
    def fetcher_count(self) -> int:
        """How many fetchers Kafka would be running (one per (source broker, fetcher id) with partitions)."""
        with self._lock:
            return len(self._fetcher_partitions)

    def add_fetcher_for_partitions(self, partition_and_offsets: Mapping[TopicPartition, InitialFetchState]) -> None:
        with self._lock:
            by_fetcher: dict[BrokerIdAndFetcherId, dict[TopicPartition, InitialFetchState]] = {}
            for tp, state in partition_and_offsets.items():
                key = BrokerIdAndFetcherId(state.leader.id, self.get_fetcher_id(tp))
                by_fetcher.setdefault(key, {})[tp] = state
            for key, initial_fetch_offsets in by_fetcher.items():
                leader = next(iter(initial_fetch_offsets.values())).leader
                current_source = self._fetcher_source_broker.get(key)
                if current_source is not None and current_source != leader:
                    # Kafka shuts the old fetcher down and starts a new one for the new address.
                    self._fetcher_partitions.pop(key, None)
                self._fetcher_source_broker[key] = leader
                self._fetcher_partitions.setdefault(key, {}).update(initial_fetch_offsets)
                self.info(f"Added fetcher to broker {leader.id} for partitions {_states_str(initial_fetch_offsets)}")
                self.warn(
                    f"Replication from other brokers is not implemented yet: partitions "
                    f"{', '.join(str(tp) for tp in initial_fetch_offsets)} will not fetch from broker {leader.id}"
                )

    def remove_fetcher_for_partitions(self, partitions: Iterable[TopicPartition]) -> dict[TopicPartition, Any]:
        """Stops following the partitions; returns the states they were followed with."""
        partitions = set(partitions)
        fetch_states: dict[TopicPartition, Any] = {}
        with self._lock:
            for fetcher_partitions in self._fetcher_partitions.values():
                for tp in partitions:
                    state = fetcher_partitions.pop(tp, None)
                    if state is not None:
                        fetch_states[tp] = state
            self.failed_partitions.remove_all(partitions)
        if partitions:
            self.info(f"Removed fetcher for partitions {','.join(str(tp) for tp in sorted(partitions))}")
        return fetch_states

    def shutdown_idle_fetcher_threads(self) -> None:
        """Forgets fetchers that have no partition left (Kafka shuts their threads down)."""
        with self._lock:
            for key in [k for k, parts in self._fetcher_partitions.items() if not parts]:
                del self._fetcher_partitions[key]
                self._fetcher_source_broker.pop(key, None)

    def close_all_fetchers(self) -> None:
        with self._lock:
            self._fetcher_partitions.clear()
            self._fetcher_source_broker.clear()

    def shutdown(self) -> None:
        self.info("shutting down")
        self.close_all_fetchers()
        self.info("shutdown completed")


def _states_str(states: Mapping[TopicPartition, InitialFetchState]) -> str:
    return (
        "Map("
        + ", ".join(
            f"{tp} -> InitialFetchState({s.leader},{s.current_leader_epoch},{s.init_offset})"
            for tp, s in states.items()
        )
        + ")"
    )
