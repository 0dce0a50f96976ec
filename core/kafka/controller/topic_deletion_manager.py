"""Port of core/src/main/scala/kafka/controller/TopicDeletionManager.scala (Kafka 2.8).

Topic deletion, driven by the controller thread:

1. An admin marks a topic for deletion by creating `/admin/delete_topics/<topic>`; the controller's child
   watch on `/admin/delete_topics` queues the topic here.
2. A queued topic is ineligible for deletion while a broker hosting one of its replicas is down or one of its
   partitions is being reassigned; deletion resumes when that broker returns or the reassignment completes.
3. Deletion moves the topic's partitions to OfflinePartition then NonExistentPartition, tells every broker
   (UpdateMetadata with leader -2), and moves each replica OfflineReplica -> ReplicaDeletionStarted, which sends
   StopReplica with delete=true.
4. StopReplica responses move replicas to ReplicaDeletionSuccessful, or on error to ReplicaDeletionIneligible
   (which marks the topic ineligible until something retries it). A broker failure does the same for replicas
   on that broker.
5. Once every replica is ReplicaDeletionSuccessful, the topic's znodes (`/brokers/topics/<topic>`, its config
   and its `/admin/delete_topics` entry) are deleted and the topic leaves the controller's context.

With `delete.topic.enable=false` nothing is deleted: the entries under `/admin/delete_topics` are removed and
the topics stay.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from kafka.common.topic_partition import TopicPartition
from kafka.controller.controller_context import PartitionAndReplica
from kafka.controller.partition_state_machine import NonExistentPartition, OfflinePartition
from kafka.controller.replica_state_machine import (
    NonExistentReplica,
    OfflineReplica,
    ReplicaDeletionIneligible,
    ReplicaDeletionStarted,
    ReplicaDeletionSuccessful,
)
from kafka.utils.logging import Logging

if TYPE_CHECKING:
    from kafka.controller.controller_context import ControllerContext
    from kafka.controller.kafka_controller import KafkaController
    from kafka.controller.partition_state_machine import PartitionStateMachine
    from kafka.controller.replica_state_machine import ReplicaStateMachine
    from kafka.server.kafka_config import KafkaConfig
    from kafka.zk.kafka_zk_client import KafkaZkClient


class DeletionClient(ABC):
    """What topic deletion needs from outside the state machines (ZooKeeper writes, watches, metadata)."""

    @abstractmethod
    def delete_topic(self, topic: str, epoch_zk_version: int) -> None: ...

    @abstractmethod
    def delete_topic_deletions(self, topics: Sequence[str], epoch_zk_version: int) -> None: ...

    @abstractmethod
    def mute_partition_modifications(self, topic: str) -> None: ...

    @abstractmethod
    def send_metadata_update(self, partitions: Iterable[TopicPartition]) -> None: ...


class ControllerDeletionClient(DeletionClient):
    """The DeletionClient of the real controller."""

    def __init__(self, controller: KafkaController, zk_client: KafkaZkClient) -> None:
        self.controller = controller
        self.zk_client = zk_client

    def delete_topic(self, topic: str, epoch_zk_version: int) -> None:
        self.zk_client.delete_topic_z_node(topic, epoch_zk_version)
        self.zk_client.delete_topic_configs([topic], epoch_zk_version)
        self.zk_client.delete_topic_deletions([topic], epoch_zk_version)

    def delete_topic_deletions(self, topics: Sequence[str], epoch_zk_version: int) -> None:
        self.zk_client.delete_topic_deletions(list(topics), epoch_zk_version)

    def mute_partition_modifications(self, topic: str) -> None:
        self.controller.unregister_partition_modifications_handlers([topic])

    def send_metadata_update(self, partitions: Iterable[TopicPartition]) -> None:
        self.controller.send_update_metadata_request(
            list(self.controller.controller_context.live_or_shutting_down_broker_ids), set(partitions)
        )


class TopicDeletionManager(Logging):
    """Drives topic deletion; see the module docstring. Runs on the controller thread only."""

    logger_name = "kafka.controller.TopicDeletionManager"

    def __init__(
        self,
        config: KafkaConfig,
        controller_context: ControllerContext,
        replica_state_machine: ReplicaStateMachine,
        partition_state_machine: PartitionStateMachine,
        client: DeletionClient,
    ) -> None:
        self.config = config
        self.controller_context = controller_context
        self.replica_state_machine = replica_state_machine
        self.partition_state_machine = partition_state_machine
        self.client = client
        self.log_ident = f"[Topic Deletion Manager {config.broker_id}] "
        self.is_delete_topic_enabled: bool = config.delete_topic_enable

    def init(self, initial_topics_to_be_deleted: set[str], initial_topics_ineligible_for_deletion: set[str]) -> None:
        self.info(
            f"Initializing manager with initial deletions: {_set_str(initial_topics_to_be_deleted)}, "
            f"initial ineligible deletions: {_set_str(initial_topics_ineligible_for_deletion)}"
        )
        ctx = self.controller_context
        if self.is_delete_topic_enabled:
            ctx.queue_topic_deletion(initial_topics_to_be_deleted)
            ctx.topics_ineligible_for_deletion.update(initial_topics_ineligible_for_deletion & ctx.topics_to_be_deleted)
        else:
            # Deletion is disabled: drop the requests under /admin/delete_topics.
            self.info(f"Removing {_set_str(initial_topics_to_be_deleted)} since delete topic is disabled")
            self.client.delete_topic_deletions(sorted(initial_topics_to_be_deleted), ctx.epoch_zk_version)

    def try_topic_deletion(self) -> None:
        if self.is_delete_topic_enabled:
            self._resume_deletions()

    def enqueue_topics_for_deletion(self, topics: set[str]) -> None:
        """Queues `topics` (from the `/admin/delete_topics` watch); they stay queued until fully deleted."""
        if self.is_delete_topic_enabled:
            self.controller_context.queue_topic_deletion(topics)
            self._resume_deletions()

    def resume_deletion_for_topics(self, topics: Iterable[str] = ()) -> None:
        """Lets queued `topics` proceed again: called when a broker starts or a reassignment completes."""
        if self.is_delete_topic_enabled:
            topics_to_resume_deletion = set(topics) & self.controller_context.topics_to_be_deleted
            if topics_to_resume_deletion:
                self.controller_context.topics_ineligible_for_deletion.difference_update(topics_to_resume_deletion)
                self._resume_deletions()

    def fail_replica_deletion(self, replicas: Iterable[PartitionAndReplica]) -> None:
        """Replicas whose deletion failed (StopReplica error) or cannot happen (their broker died) go to
        ReplicaDeletionIneligible, and their topics become ineligible for deletion until retried."""
        if self.is_delete_topic_enabled:
            replicas_that_failed_to_delete = [r for r in replicas if self.is_topic_queued_up_for_deletion(r.topic)]
            if replicas_that_failed_to_delete:
                topics = {r.topic for r in replicas_that_failed_to_delete}
                self.debug(
                    f"Deletion failed for replicas {','.join(map(str, replicas_that_failed_to_delete))}. Halting "
                    f"deletion for topics {_set_str(topics)}"
                )
                self.replica_state_machine.handle_state_changes(
                    replicas_that_failed_to_delete, ReplicaDeletionIneligible()
                )
                self.mark_topic_ineligible_for_deletion(topics, reason="replica deletion failure")
                self._resume_deletions()

    def mark_topic_ineligible_for_deletion(self, topics: Iterable[str], reason: str) -> None:
        """Halts deletion of the queued ones among `topics` (a replica is down, or a reassignment is running)."""
        if self.is_delete_topic_enabled:
            new_topics_to_halt_deletion = self.controller_context.topics_to_be_deleted & set(topics)
            self.controller_context.topics_ineligible_for_deletion.update(new_topics_to_halt_deletion)
            if new_topics_to_halt_deletion:
                self.info(f"Halted deletion of topics {','.join(sorted(new_topics_to_halt_deletion))} due to {reason}")

    def _is_topic_ineligible_for_deletion(self, topic: str) -> bool:
        if self.is_delete_topic_enabled:
            return topic in self.controller_context.topics_ineligible_for_deletion
        return True

    def _is_topic_deletion_in_progress(self, topic: str) -> bool:
        if self.is_delete_topic_enabled:
            return self.controller_context.is_any_replica_in_state(topic, ReplicaDeletionStarted())
        return False

    def is_topic_queued_up_for_deletion(self, topic: str) -> bool:
        if self.is_delete_topic_enabled:
            return self.controller_context.is_topic_queued_up_for_deletion(topic)
        return False

    def complete_replica_deletion(self, replicas: Iterable[PartitionAndReplica]) -> None:
        """Replicas a broker deleted go to ReplicaDeletionSuccessful; a topic with all replicas there is torn
        down."""
        successfully_deleted_replicas = [r for r in replicas if self.is_topic_queued_up_for_deletion(r.topic)]
        self.debug(f"Deletion successfully completed for replicas {','.join(map(str, successfully_deleted_replicas))}")
        self.replica_state_machine.handle_state_changes(successfully_deleted_replicas, ReplicaDeletionSuccessful())
        self._resume_deletions()

    def _is_topic_eligible_for_deletion(self, topic: str) -> bool:
        """Queued, not already in progress, and not marked ineligible."""
        return (
            self.controller_context.is_topic_queued_up_for_deletion(topic)
            and not self._is_topic_deletion_in_progress(topic)
            and not self._is_topic_ineligible_for_deletion(topic)
        )

    def _retry_deletion_for_ineligible_replicas(self, topics: set[str]) -> None:
        """Moves replicas of `topics` back from ReplicaDeletionIneligible to OfflineReplica so deletion can retry."""
        failed_replicas = [
            r for topic in topics for r in self.controller_context.replicas_in_state(topic, ReplicaDeletionIneligible())
        ]
        self.debug(
            f"Retrying deletion of topics {','.join(sorted(topics))} since replicas "
            f"{','.join(map(str, failed_replicas))} were not successfully deleted"
        )
        self.replica_state_machine.handle_state_changes(failed_replicas, OfflineReplica())

    def _complete_delete_topic(self, topic: str) -> None:
        # Stop watching the topic's partitions first, so that a topic re-created right away is seen as new.
        self.client.mute_partition_modifications(topic)
        replicas_for_deleted_topic = list(self.controller_context.replicas_in_state(topic, ReplicaDeletionSuccessful()))
        # The replicas leave the state machine and the assignment.
        self.replica_state_machine.handle_state_changes(replicas_for_deleted_topic, NonExistentReplica())
        self.client.delete_topic(topic, self.controller_context.epoch_zk_version)
        self.controller_context.remove_topic(topic)

    def _on_topic_deletion(self, topics: set[str]) -> None:
        """Starts deleting `topics`: partitions go NonExistent (first time only), brokers learn of the deletion
        through UpdateMetadata (leader -2), and the replicas are deleted."""
        ctx = self.controller_context
        unseen_topics_for_deletion = topics - ctx.topics_with_deletion_started
        if unseen_topics_for_deletion:
            unseen_partitions_for_deletion = [
                p for t in unseen_topics_for_deletion for p in ctx.partitions_for_topic(t)
            ]
            self.partition_state_machine.handle_state_changes(unseen_partitions_for_deletion, OfflinePartition())
            self.partition_state_machine.handle_state_changes(unseen_partitions_for_deletion, NonExistentPartition())
            # Only after the state changes, so that they still count in the offline partition count.
            ctx.begin_topic_deletion(unseen_topics_for_deletion)

        self.client.send_metadata_update({p for t in topics for p in ctx.partitions_for_topic(t)})
        self._on_partition_deletion(topics)

    def _on_partition_deletion(self, topics_to_be_deleted: set[str]) -> None:
        """Replicas on dead brokers go straight to ReplicaDeletionIneligible (and their topics become ineligible);
        the others go OfflineReplica (StopReplica, ISR shrink) then ReplicaDeletionStarted (StopReplica delete)."""
        ctx = self.controller_context
        all_dead_replicas: list[PartitionAndReplica] = []
        all_replicas_for_deletion_retry: list[PartitionAndReplica] = []
        all_topics_ineligible_for_deletion: set[str] = set()

        for topic in topics_to_be_deleted:
            alive_replicas: list[PartitionAndReplica] = []
            dead_replicas: list[PartitionAndReplica] = []
            for r in ctx.replicas_for_topic(topic):
                (alive_replicas if ctx.is_replica_online(r.replica, r.topic_partition) else dead_replicas).append(r)
            successfully_deleted_replicas = ctx.replicas_in_state(topic, ReplicaDeletionSuccessful())
            replicas_for_deletion_retry = [r for r in alive_replicas if r not in successfully_deleted_replicas]
            all_dead_replicas.extend(dead_replicas)
            all_replicas_for_deletion_retry.extend(replicas_for_deletion_retry)
            if dead_replicas:
                self.debug(f"Dead Replicas ({','.join(map(str, dead_replicas))}) found for topic {topic}")
                all_topics_ineligible_for_deletion.add(topic)

        self.replica_state_machine.handle_state_changes(all_dead_replicas, ReplicaDeletionIneligible())
        # StopReplica to the live replicas first, so that followers stop fetching from the leader.
        self.replica_state_machine.handle_state_changes(all_replicas_for_deletion_retry, OfflineReplica())
        self.replica_state_machine.handle_state_changes(all_replicas_for_deletion_retry, ReplicaDeletionStarted())

        if all_topics_ineligible_for_deletion:
            self.mark_topic_ineligible_for_deletion(all_topics_ineligible_for_deletion, reason="offline replicas")

    def _resume_deletions(self) -> None:
        ctx = self.controller_context
        topics_queued_for_deletion = set(ctx.topics_to_be_deleted)
        topics_eligible_for_retry: set[str] = set()
        topics_eligible_for_deletion: set[str] = set()

        if topics_queued_for_deletion:
            self.info(f"Handling deletion for topics {','.join(sorted(topics_queued_for_deletion))}")

        for topic in sorted(topics_queued_for_deletion):
            if ctx.are_all_replicas_in_state(topic, ReplicaDeletionSuccessful()):
                # Every replica is gone: remove the topic from ZooKeeper and the context.
                self._complete_delete_topic(topic)
                self.info(f"Deletion of topic {topic} successfully completed")
            elif not ctx.is_any_replica_in_state(topic, ReplicaDeletionStarted()):
                # Nothing in flight and not all deleted: either deletion has not begun, or some replica failed
                # and the topic should be retried.
                if ctx.is_any_replica_in_state(topic, ReplicaDeletionIneligible()):
                    topics_eligible_for_retry.add(topic)

            if self._is_topic_eligible_for_deletion(topic):
                self.info(f"Deletion of topic {topic} (re)started")
                topics_eligible_for_deletion.add(topic)

        if topics_eligible_for_retry:
            self._retry_deletion_for_ineligible_replicas(topics_eligible_for_retry)
        if topics_eligible_for_deletion:
            self._on_topic_deletion(topics_eligible_for_deletion)


def _set_str(values: Iterable[str]) -> str:
    """Scala's Set toString."""
    return f"Set({', '.join(sorted(values))})"
