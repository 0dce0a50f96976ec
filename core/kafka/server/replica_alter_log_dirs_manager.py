"""Port of core/src/main/scala/kafka/server/ReplicaAlterLogDirsManager.scala (Kafka 2.8).

The ReplicaAlterLogDirsThreads of this broker: `num.replica.alter.log.dirs.threads` of them (by default one per
log directory), each partition being moved between log directories going to one of them by the same hash as the
replica fetchers use. The source broker of every partition is this broker itself (`localhost:-1`), since the copy
is read from the local current log.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from kafka.cluster.broker import BrokerEndPoint
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import Time
from kafka.server.abstract_fetcher_manager import AbstractFetcherManager, InitialFetchState
from kafka.server.kafka_config import KafkaConfig

if TYPE_CHECKING:
    from kafka.server.replica_alter_log_dirs_thread import ReplicaAlterLogDirsThread
    from kafka.server.replica_manager import ReplicaManager
    from kafka.server.replication_quota_manager import ReplicaQuota


# The thread's module is loaded when a replica first moves between log directories.
class ReplicaAlterLogDirsManager(AbstractFetcherManager["ReplicaAlterLogDirsThread"]):
    logger_name = "kafka.server.ReplicaAlterLogDirsManager"

    def __init__(
        self,
        broker_config: KafkaConfig,
        replica_manager: ReplicaManager,
        quota_manager: ReplicaQuota,
        broker_topic_stats: Any,
        time: Time = Time.SYSTEM,
    ) -> None:
        super().__init__(
            f"ReplicaAlterLogDirsManager on broker {broker_config.broker_id}",
            "ReplicaAlterLogDirs",
            broker_config.get_num_replica_alter_log_dirs_threads(),
        )
        self._broker_config = broker_config
        self.replica_manager = replica_manager
        self._quota_manager = quota_manager
        self._broker_topic_stats = broker_topic_stats
        self._time = time

    def create_fetcher_thread(self, fetcher_id: int, source_broker: BrokerEndPoint) -> ReplicaAlterLogDirsThread:
        thread_name = f"ReplicaAlterLogDirsThread-{fetcher_id}"
        from kafka.server.replica_alter_log_dirs_thread import ReplicaAlterLogDirsThread

        return ReplicaAlterLogDirsThread(
            thread_name,
            source_broker,
            self._broker_config,
            self.failed_partitions,
            self.replica_manager,
            self._quota_manager,
            self._broker_topic_stats,
            self._time,
        )

    def add_partitions_to_fetcher_thread(
        self,
        fetcher_thread: ReplicaAlterLogDirsThread,
        initial_offset_and_epochs: Mapping[TopicPartition, InitialFetchState],
    ) -> None:
        added_partitions = fetcher_thread.add_partitions(initial_offset_and_epochs)
        added = {tp: s for tp, s in initial_offset_and_epochs.items() if tp in added_partitions}
        not_added = [tp for tp in initial_offset_and_epochs if tp not in added_partitions]
        if added:
            self.info(
                "Added log dir fetcher for partitions with initial offsets "
                "Map(" + ", ".join(f"{tp} -> {s}" for tp, s in added.items()) + ")"
            )
        if not_added:
            self.info(
                f"Failed to add log dir fetch for partitions Set({', '.join(str(tp) for tp in not_added)}) since the "
                "log dir reassignment has already completed"
            )

    def shutdown(self) -> None:
        self.info("shutting down")
        self.close_all_fetchers()
        self.info("shutdown completed")
