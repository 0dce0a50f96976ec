"""Port of core/src/main/scala/kafka/server/ReplicaFetcherManager.scala (Kafka 2.8).

The follower side of replication: the ReplicaManager adds a partition here when this broker becomes its follower
(with the leader, leader epoch and offset to start from) and removes it when the broker becomes leader, stops or
deletes the replica. Each partition is fetched by one `ReplicaFetcherThread-{fetcherId}-{leaderId}` of the
`num.replica.fetchers` threads per leader (AbstractFetcherManager spreads them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kafka.cluster.broker import BrokerEndPoint
from kafka.common.utils.time import Time
from kafka.server.abstract_fetcher_manager import AbstractFetcherManager
from kafka.server.kafka_config import KafkaConfig

if TYPE_CHECKING:
    from kafka.server.replica_fetcher_thread import ReplicaFetcherThread
    from kafka.server.replica_manager import ReplicaManager


# The thread's module (and the client request builders it needs) is loaded with the first follower partition.
class ReplicaFetcherManager(AbstractFetcherManager["ReplicaFetcherThread"]):
    logger_name = "kafka.server.ReplicaFetcherManager"

    def __init__(
        self,
        broker_config: KafkaConfig,
        replica_manager: ReplicaManager,
        metrics: Any,
        time: Time,
        thread_name_prefix: str | None = None,
        quota_manager: Any = None,
    ) -> None:
        super().__init__(
            f"ReplicaFetcherManager on broker {broker_config.broker_id}", "Replica", broker_config.num_replica_fetchers
        )
        self._broker_config = broker_config
        self.replica_manager = replica_manager
        self._metrics = metrics
        self._time = time
        self._thread_name_prefix = thread_name_prefix
        self._quota_manager = quota_manager

    def create_fetcher_thread(self, fetcher_id: int, source_broker: BrokerEndPoint) -> ReplicaFetcherThread:
        prefix = "" if self._thread_name_prefix is None else f"{self._thread_name_prefix}:"
        thread_name = f"{prefix}ReplicaFetcherThread-{fetcher_id}-{source_broker.id}"
        from kafka.server.replica_fetcher_thread import ReplicaFetcherThread

        return ReplicaFetcherThread(
            thread_name,
            fetcher_id,
            source_broker,
            self._broker_config,
            self.failed_partitions,
            self.replica_manager,
            self._metrics,
            self._time,
            self._quota_manager,
        )

    def shutdown(self) -> None:
        self.info("shutting down")
        self.close_all_fetchers()
        self.info("shutdown completed")
