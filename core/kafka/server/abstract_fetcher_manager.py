"""Port of core/src/main/scala/kafka/server/AbstractFetcherManager.scala (Kafka 2.8).

The fetcher threads of one kind (replica fetchers, log-dir movers), keyed by (source broker id, fetcher id). A
partition goes to fetcher `hash(partition) % num_fetchers` of its source broker, with the same hash as Kafka's, so
that partitions spread over the fetchers as they do in Kafka. Threads start when they get their first partitions
and stop when they have none left (`shutdown_idle_fetcher_threads`) or at shutdown.

Metrics (kafka.server:type=<the manager's class>,clientId=...): MaxLag (the largest ConsumerLag of the threads'
partitions), MinFetchRate (the smallest one-minute request rate of the threads), FailedPartitionsCount and
DeadThreadCount, as Kafka's gauges.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from kafka.cluster.broker import BrokerEndPoint
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.utils import java_string_hash_code
from kafka.metrics.kafka_metrics_group import KafkaMetricsGroup
from kafka.utils.logging import Logging

if TYPE_CHECKING:
    from kafka.server.abstract_fetcher_thread import AbstractFetcherThread, PartitionFetchState

T = TypeVar("T", bound="AbstractFetcherThread")


@dataclass(frozen=True, slots=True)
class BrokerAndFetcherId:
    broker: BrokerEndPoint
    fetcher_id: int


@dataclass(frozen=True, slots=True)
class InitialFetchState:
    """Where a partition starts being fetched: from which leader, at which leader epoch and offset."""

    leader: BrokerEndPoint
    current_leader_epoch: int
    init_offset: int

    def __str__(self) -> str:
        return f"InitialFetchState({self.leader},{self.current_leader_epoch},{self.init_offset})"


@dataclass(frozen=True, slots=True)
class BrokerIdAndFetcherId:
    broker_id: int
    fetcher_id: int


class FailedPartitions:
    """Partitions whose fetching stopped on a storage error, a fenced epoch or an unexpected error; they stay here
    until the partition is added again or removed (a storage failure takes its log dir offline). Thread-safe."""

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


class AbstractFetcherManager(Logging, KafkaMetricsGroup, ABC, Generic[T]):
    """Fetcher threads by (source broker id, fetcher id). Every method holds `_lock` (Kafka's `lock`); a fetcher
    thread's own partition lock is taken inside it, never the other way round."""

    def __init__(self, name: str, client_id: str, num_fetchers: int) -> None:
        self.name = name
        self.client_id = client_id
        self.fetcher_thread_map: dict[BrokerIdAndFetcherId, T] = {}
        self._lock = threading.RLock()
        self._num_fetchers_per_broker = num_fetchers
        self.failed_partitions = FailedPartitions()
        self.log_ident = f"[{name}] "
        tags = {"clientId": client_id}
        self.new_gauge("MaxLag", self._max_lag, tags)
        self.new_gauge("MinFetchRate", self._min_fetch_rate, tags)
        self.new_gauge("FailedPartitionsCount", lambda: self.failed_partitions.size, tags)
        self.new_gauge("DeadThreadCount", lambda: self.dead_thread_count, tags)

    def _max_lag(self) -> int:
        """The largest lag over every thread's partitions (0 without any)."""
        lags = (m.lag for t in list(self.fetcher_thread_map.values()) for m in t.fetcher_lag_stats.stats.values)
        return max(0, max(lags, default=0))

    def _min_fetch_rate(self) -> float:
        """The smallest one-minute fetch request rate over the threads (0 without any)."""
        return min(
            (t.fetcher_stats.request_rate.one_minute_rate for t in list(self.fetcher_thread_map.values())),
            default=0.0,
        )

    @property
    def dead_thread_count(self) -> int:
        with self._lock:
            return sum(1 for t in self.fetcher_thread_map.values() if t.is_thread_failed)

    def resize_thread_pool(self, new_size: int) -> None:
        """Changes the number of fetchers per source broker, moving every partition to the fetcher the new size
        gives it (keeping its fetch offset and epoch)."""
        with self._lock:
            current_size = self._num_fetchers_per_broker
            self.info(f"Resizing fetcher thread pool size from {current_size} to {new_size}")
            self._num_fetchers_per_broker = new_size
            if new_size != current_size:
                for fetcher_id, thread in list(self.fetcher_thread_map.items()):
                    partition_states = self.remove_fetcher_for_partitions(thread.partitions)
                    if fetcher_id.fetcher_id >= new_size:
                        thread.shutdown()
                    fetch_states = {
                        tp: InitialFetchState(thread.source_broker, state.current_leader_epoch, state.fetch_offset)
                        for tp, state in partition_states.items()
                    }
                    self.add_fetcher_for_partitions(fetch_states)
            self.shutdown_idle_fetcher_threads()

    def get_fetcher(self, topic_partition: TopicPartition) -> T | None:
        """The thread fetching the partition, if any."""
        with self._lock:
            for fetcher_thread in self.fetcher_thread_map.values():
                if fetcher_thread.fetch_state(topic_partition) is not None:
                    return fetcher_thread
            return None

    def get_fetcher_id(self, topic_partition: TopicPartition) -> int:
        """Which fetcher of a source broker serves the partition (Kafka's hash, so the same spread as Kafka's)."""
        with self._lock:
            h = _to_int32(31 * java_string_hash_code(topic_partition.topic) + topic_partition.partition)
            h = 0 if h == -(2**31) else abs(h)  # Utils.abs
            return h % self._num_fetchers_per_broker

    def mark_partitions_for_truncation(
        self, broker_id: int, topic_partition: TopicPartition, truncation_offset: int
    ) -> None:
        with self._lock:
            key = BrokerIdAndFetcherId(broker_id, self.get_fetcher_id(topic_partition))
            thread = self.fetcher_thread_map.get(key)
            if thread is not None:
                thread.mark_partitions_for_truncation(topic_partition, truncation_offset)

    @abstractmethod
    def create_fetcher_thread(self, fetcher_id: int, source_broker: BrokerEndPoint) -> T: ...

    def add_fetcher_for_partitions(self, partition_and_offsets: Mapping[TopicPartition, InitialFetchState]) -> None:
        """Hands each partition to its fetcher, starting the fetcher (or replacing one whose source broker moved to
        another address)."""
        with self._lock:
            partitions_per_fetcher: dict[BrokerAndFetcherId, dict[TopicPartition, InitialFetchState]] = {}
            for tp, state in partition_and_offsets.items():
                key = BrokerAndFetcherId(state.leader, self.get_fetcher_id(tp))
                partitions_per_fetcher.setdefault(key, {})[tp] = state

            def add_and_start_fetcher_thread(
                broker_and_fetcher_id: BrokerAndFetcherId, broker_id_and_fetcher_id: BrokerIdAndFetcherId
            ) -> T:
                fetcher_thread = self.create_fetcher_thread(
                    broker_and_fetcher_id.fetcher_id, broker_and_fetcher_id.broker
                )
                self.fetcher_thread_map[broker_id_and_fetcher_id] = fetcher_thread
                fetcher_thread.start()
                return fetcher_thread

            for broker_and_fetcher_id, initial_fetch_offsets in partitions_per_fetcher.items():
                broker_id_and_fetcher_id = BrokerIdAndFetcherId(
                    broker_and_fetcher_id.broker.id, broker_and_fetcher_id.fetcher_id
                )
                current = self.fetcher_thread_map.get(broker_id_and_fetcher_id)
                if current is not None and current.source_broker == broker_and_fetcher_id.broker:
                    fetcher_thread = current
                else:
                    if current is not None:
                        current.shutdown()
                    fetcher_thread = add_and_start_fetcher_thread(broker_and_fetcher_id, broker_id_and_fetcher_id)
                self.add_partitions_to_fetcher_thread(fetcher_thread, initial_fetch_offsets)

    def add_partitions_to_fetcher_thread(
        self, fetcher_thread: T, initial_offset_and_epochs: Mapping[TopicPartition, InitialFetchState]
    ) -> None:
        fetcher_thread.add_partitions(initial_offset_and_epochs)
        self.info(
            f"Added fetcher to broker {fetcher_thread.source_broker.id} for partitions "
            f"{_states_str(initial_offset_and_epochs)}"
        )

    def remove_fetcher_for_partitions(
        self, partitions: Iterable[TopicPartition]
    ) -> dict[TopicPartition, PartitionFetchState]:
        """Stops fetching the partitions; returns the states they were fetched with."""
        partitions = set(partitions)
        fetch_states: dict[TopicPartition, PartitionFetchState] = {}
        with self._lock:
            for fetcher in self.fetcher_thread_map.values():
                fetch_states.update(fetcher.remove_partitions(partitions))
            self.failed_partitions.remove_all(partitions)
        if partitions:
            self.info(f"Removed fetcher for partitions {_set_str(sorted(partitions, key=str))}")
        return fetch_states

    def shutdown_idle_fetcher_threads(self) -> None:
        with self._lock:
            keys_to_be_removed = []
            for key, fetcher in self.fetcher_thread_map.items():
                if fetcher.partition_count <= 0:
                    fetcher.shutdown()
                    keys_to_be_removed.append(key)
            for key in keys_to_be_removed:
                del self.fetcher_thread_map[key]

    def close_all_fetchers(self) -> None:
        """Stops every thread: all are asked first, then each is awaited."""
        with self._lock:
            for fetcher in self.fetcher_thread_map.values():
                fetcher.initiate_shutdown()
            for fetcher in self.fetcher_thread_map.values():
                fetcher.shutdown()
            self.fetcher_thread_map.clear()


def _set_str(partitions: Iterable[TopicPartition]) -> str:
    return "Set(" + ", ".join(str(tp) for tp in partitions) + ")"


def _states_str(states: Mapping[TopicPartition, InitialFetchState]) -> str:
    return "Map(" + ", ".join(f"{tp} -> {s}" for tp, s in states.items()) + ")"
