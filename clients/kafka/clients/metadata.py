"""Port of clients/src/main/java/org/apache/kafka/clients/Metadata.java (Kafka 3.7).

A client's view of the cluster, shared between the user's threads and the network thread: the current
MetadataSnapshot, when a refresh is due (metadata.max.age.ms, or requested after an error, with exponential
backoff between failed or unchanged refreshes), the last leader epoch seen per partition (so that stale
metadata never replaces newer), and the topic errors (unauthorized, invalid) to hand to the caller.
The producer and consumer subclass it to choose which topics to ask for.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from kafka.clients import common_client_configs
from kafka.clients.metadata_snapshot import MetadataSnapshot
from kafka.common.cluster import Cluster
from kafka.common.cluster_resource_listener import ClusterResourceListener
from kafka.common.errors import (
    InvalidMetadataException,
    InvalidTopicException,
    KafkaException,
    TopicAuthorizationException,
)
from kafka.common.internals.cluster_resource_listeners import ClusterResourceListeners
from kafka.common.node import Node
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import ZERO_UUID, Uuid
from kafka.common.requests.metadata_request import MetadataRequestBuilder
from kafka.common.requests.metadata_response import MetadataResponse
from kafka.common.requests.request_utils import NO_PARTITION_LEADER_EPOCH
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.exponential_backoff import ExponentialBackoff
from kafka.common.utils.log_context import LogContext

__all__ = ["LeaderAndEpoch", "LeaderIdAndEpoch", "Metadata", "MetadataRequestAndVersion"]


@dataclass(frozen=True, slots=True)
class MetadataRequestAndVersion:
    """A metadata request to send, the request version (topic set) it answers, and whether it is partial."""

    request_builder: MetadataRequestBuilder
    request_version: int
    is_partial_update: bool


@dataclass(frozen=True, slots=True)
class LeaderAndEpoch:
    """A partition's leader node and leader epoch, each None when unknown."""

    leader: Node | None
    epoch: int | None

    @staticmethod
    def no_leader_or_epoch() -> LeaderAndEpoch:
        return _NO_LEADER_OR_EPOCH

    def __str__(self) -> str:
        leader = "Optional.empty" if self.leader is None else f"Optional[{self.leader}]"
        epoch = "absent" if self.epoch is None else str(self.epoch)
        return f"LeaderAndEpoch{{leader={leader}, epoch={epoch}}}"


_NO_LEADER_OR_EPOCH = LeaderAndEpoch(None, None)


@dataclass(frozen=True, slots=True)
class LeaderIdAndEpoch:
    """A partition's leader id and epoch as a fetch or produce response reports them (KIP-951)."""

    leader_id: int | None
    epoch: int | None

    def __str__(self) -> str:
        leader = "absent" if self.leader_id is None else str(self.leader_id)
        epoch = "absent" if self.epoch is None else str(self.epoch)
        return f"LeaderIdAndEpoch{{leaderId={leader}, epoch={epoch}}}"


class Metadata:
    """Thread-safe: every method that reads or changes more than the snapshot holds the lock (Java's
    synchronized); fetch() reads the current snapshot without it.

    # PORT: Java's nested LeaderAndEpoch, LeaderIdAndEpoch and MetadataRequestAndVersion are classes of this
    module."""

    def __init__(
        self,
        refresh_backoff_ms: int,
        refresh_backoff_max_ms: int,
        metadata_expire_ms: int,
        log_context: LogContext,
        cluster_resource_listeners: ClusterResourceListeners,
    ) -> None:
        self._log = log_context.logger("org.apache.kafka.clients.Metadata")
        self._lock = threading.RLock()
        self._refresh_backoff = ExponentialBackoff(
            refresh_backoff_ms,
            common_client_configs.RETRY_BACKOFF_EXP_BASE,
            refresh_backoff_max_ms,
            common_client_configs.RETRY_BACKOFF_JITTER,
        )
        self._metadata_expire_ms = metadata_expire_ms
        self._update_version = 0  # bumped on every metadata response
        self._request_version = 0  # bumped whenever a new topic is added
        self._last_refresh_ms = 0
        self._last_successful_refresh_ms = 0
        self._attempts = 0
        self._fatal_exception: KafkaException | None = None
        self._invalid_topics: set[str] = set()
        self._unauthorized_topics: set[str] = set()
        self._metadata_snapshot = MetadataSnapshot.empty()
        self._need_full_update = False
        self._need_partial_update = False
        self._equivalent_response_count = 0
        self._cluster_resource_listeners = cluster_resource_listeners
        self._is_closed = False
        self._last_seen_leader_epochs: dict[TopicPartition, int] = {}

    # -- reading --------------------------------------------------------------------------------------------

    def fetch(self) -> Cluster:
        """The current cluster view."""
        return self._metadata_snapshot.cluster()

    def fetch_metadata_snapshot(self) -> MetadataSnapshot:
        return self._metadata_snapshot

    def time_to_allow_update(self, now_ms: int) -> int:
        """How long until backoff allows the next refresh: after failed refreshes, and after refreshes that
        brought nothing new (so a client asking again and again does not hammer the brokers)."""
        with self._lock:
            attempts_backoff = self._refresh_backoff.backoff(self._attempts - 1 if self._attempts > 0 else 0)
            backoff_for_attempts = max(self._last_refresh_ms + attempts_backoff - now_ms, 0)
            # An expiry-driven refresh is not "no progress": forget the equivalent responses.
            if max(self._last_successful_refresh_ms + self._metadata_expire_ms - now_ms, 0) == 0:
                self._equivalent_response_count = 0
            equivalent_backoff = (
                self._refresh_backoff.backoff(self._equivalent_response_count - 1)
                if self._equivalent_response_count > 0
                else 0
            )
            backoff_for_equivalent = max(self._last_refresh_ms + equivalent_backoff - now_ms, 0)
            return max(backoff_for_attempts, backoff_for_equivalent)

    def time_to_next_update(self, now_ms: int) -> int:
        """How long until the next refresh is due: 0 if one was requested (backoff permitting), else when the
        current metadata expires."""
        with self._lock:
            if self.update_requested():
                time_to_expire = 0
            else:
                time_to_expire = max(self._last_successful_refresh_ms + self._metadata_expire_ms - now_ms, 0)
            return max(time_to_expire, self.time_to_allow_update(now_ms))

    def metadata_expire_ms(self) -> int:
        return self._metadata_expire_ms

    # -- requesting updates ---------------------------------------------------------------------------------

    def request_update(self, reset_equivalent_response_backoff: bool) -> int:
        """Asks for a full refresh as soon as backoff allows; returns the current update version (to wait for a
        newer one)."""
        with self._lock:
            self._need_full_update = True
            if reset_equivalent_response_backoff:
                self._equivalent_response_count = 0
            return self._update_version

    def request_update_for_new_topics(self) -> int:
        """Asks for a partial refresh of newly added topics, right away (no backoff)."""
        with self._lock:
            self._last_refresh_ms = 0
            self._need_partial_update = True
            self._equivalent_response_count = 0
            self._request_version += 1
            return self._update_version

    def update_last_seen_epoch_if_newer(self, topic_partition: TopicPartition, leader_epoch: int) -> bool:
        """Records a leader epoch seen elsewhere (e.g. in a fetch response) if it is newer than the known one,
        and then asks for a refresh. Returns whether it was newer."""
        if topic_partition is None:
            raise ValueError("TopicPartition cannot be null")
        if leader_epoch < 0:
            raise ValueError(f"Invalid leader epoch {leader_epoch} (must be non-negative)")
        with self._lock:
            old_epoch = self._last_seen_leader_epochs.get(topic_partition)
            self._log.trace(
                f"Determining if we should replace existing epoch {old_epoch} with new epoch {leader_epoch} "
                f"for partition {topic_partition}"
            )
            if old_epoch is None:
                self._log.debug(
                    f"Not replacing null epoch with new epoch {leader_epoch} for partition {topic_partition}"
                )
                updated = False
            elif leader_epoch > old_epoch:
                self._log.debug(
                    f"Updating last seen epoch from {old_epoch} to {leader_epoch} for partition {topic_partition}"
                )
                self._last_seen_leader_epochs[topic_partition] = leader_epoch
                updated = True
            else:
                self._log.debug(
                    f"Not replacing existing epoch {old_epoch} with new epoch {leader_epoch} "
                    f"for partition {topic_partition}"
                )
                updated = False
            self._need_full_update = self._need_full_update or updated
            return updated

    def last_seen_leader_epoch(self, topic_partition: TopicPartition) -> int | None:
        return self._last_seen_leader_epochs.get(topic_partition)

    def update_requested(self) -> bool:
        with self._lock:
            return self._need_full_update or self._need_partial_update

    def add_cluster_update_listener(self, listener: ClusterResourceListener) -> None:
        with self._lock:
            self._cluster_resource_listeners.maybe_add(listener)

    def partition_metadata_if_current(
        self, topic_partition: TopicPartition
    ) -> MetadataResponse.PartitionMetadata | None:
        """The partition's metadata, unless its leader epoch differs from the last one seen."""
        with self._lock:
            epoch = self._last_seen_leader_epochs.get(topic_partition)
            metadata = self._metadata_snapshot.partition_metadata(topic_partition)
            if epoch is None or metadata is None:
                # No epoch known (an old broker): take the metadata as it is.
                return metadata
            leader_epoch = NO_PARTITION_LEADER_EPOCH if metadata.leader_epoch is None else metadata.leader_epoch
            return metadata if leader_epoch == epoch else None

    def topic_ids(self) -> Mapping[str, Uuid]:
        return self._metadata_snapshot.topic_ids()

    def topic_names(self) -> Mapping[Uuid, str]:
        return self._metadata_snapshot.topic_names()

    def current_leader(self, topic_partition: TopicPartition) -> LeaderAndEpoch:
        """The partition's leader and epoch as far as current metadata knows them."""
        with self._lock:
            metadata = self.partition_metadata_if_current(topic_partition)
            if metadata is None:
                return LeaderAndEpoch(None, self._last_seen_leader_epochs.get(topic_partition))
            leader = None if metadata.leader_id is None else self._metadata_snapshot.node_by_id(metadata.leader_id)
            return LeaderAndEpoch(leader, metadata.leader_epoch)

    def bootstrap(self, addresses: Iterable[tuple[str, int]]) -> None:
        """Starts from the bootstrap servers (as (host, port)) and asks for a full refresh."""
        with self._lock:
            self._need_full_update = True
            self._update_version += 1
            self._metadata_snapshot = MetadataSnapshot.bootstrap(addresses)

    # -- updating -------------------------------------------------------------------------------------------

    def update_with_current_request_version(
        self, response: MetadataResponse, is_partial_update: bool, now_ms: int
    ) -> None:
        with self._lock:
            self.update(self._request_version, response, is_partial_update, now_ms)

    def update(self, request_version: int, response: MetadataResponse, is_partial_update: bool, now_ms: int) -> None:
        """Takes in a metadata response to a request made at `request_version`."""
        if response is None:
            raise ValueError("Metadata response cannot be null")
        with self._lock:
            if self.is_closed():
                raise RuntimeError("Update requested after metadata close")
            # Topics added since the request was made still need a partial update.
            self._need_partial_update = request_version < self._request_version
            self._last_refresh_ms = now_ms
            self._attempts = 0
            self._update_version += 1
            if not is_partial_update:
                self._need_full_update = False
                self._last_successful_refresh_ms = now_ms
            # Reset in _update_latest_metadata when the response turns out to bring something new.
            self._equivalent_response_count += 1

            previous_cluster_id = self._metadata_snapshot.cluster_resource().cluster_id
            self._metadata_snapshot = self._handle_metadata_response(response, is_partial_update, now_ms)
            cluster = self._metadata_snapshot.cluster()
            self._maybe_set_metadata_error(cluster)

            for tp in [tp for tp in self._last_seen_leader_epochs if not self.retain_topic(tp.topic, False, now_ms)]:
                del self._last_seen_leader_epochs[tp]

            new_cluster_id = self._metadata_snapshot.cluster_resource().cluster_id
            if previous_cluster_id != new_cluster_id:
                self._log.info(f"Cluster ID: {new_cluster_id}")
            self._cluster_resource_listeners.on_update(self._metadata_snapshot.cluster_resource())
            self._log.debug(
                f"Updated cluster metadata updateVersion {self._update_version} to {self._metadata_snapshot}"
            )

    def update_partition_leadership(
        self, partition_leaders: Mapping[TopicPartition, LeaderIdAndEpoch], leader_nodes: Iterable[Node]
    ) -> set[TopicPartition]:
        """Applies leader changes reported by fetch/produce responses (KIP-951) to partitions already known,
        where they are newer than what is known and the new leader's node is known. Returns the partitions
        updated."""
        with self._lock:
            new_nodes = {node.id: node for node in leader_nodes}
            for node in self._metadata_snapshot.cluster().nodes:
                new_nodes.setdefault(node.id, node)

            updated: list[MetadataResponse.PartitionMetadata] = []
            for partition, new_leader in partition_leaders.items():
                current = self.current_leader(partition)
                if new_leader.epoch is None or new_leader.leader_id is None:
                    self._log.debug(f"For {partition}, incoming leader information is incomplete {new_leader}")
                    continue
                if current.epoch is not None and new_leader.epoch <= current.epoch:
                    self._log.debug(
                        f"For {partition}, incoming leader({new_leader}) is not-newer than the one in the existing "
                        f"metadata {current}, so ignoring."
                    )
                    continue
                if new_leader.leader_id not in new_nodes:
                    self._log.debug(
                        f"For {partition}, incoming leader({new_leader}), the corresponding node information for "
                        f"node-id {new_leader.leader_id} is missing, so ignoring."
                    )
                    continue
                existing = self._metadata_snapshot.partition_metadata(partition)
                if existing is None:
                    self._log.debug(
                        f"For {partition}, incoming leader({new_leader}), partition metadata is no longer cached, "
                        "ignoring."
                    )
                    continue
                updated.append(
                    MetadataResponse.PartitionMetadata(
                        existing.error,
                        partition,
                        new_leader.leader_id,
                        new_leader.epoch,
                        existing.replica_ids,
                        existing.in_sync_replica_ids,
                        existing.offline_replica_ids,
                    )
                )
                self._last_seen_leader_epochs[partition] = new_leader.epoch

            if not updated:
                self._log.debug("No relevant metadata updates.")
                return set()

            updated_topics = {m.topic for m in updated}
            existing_ids = self._metadata_snapshot.topic_ids()
            ids_for_updated = {t: existing_ids[t] for t in updated_topics if t in existing_ids}
            if self._log.is_debug_enabled():
                for m in updated:
                    self._log.debug(f"For {m.topic_partition} updating leader information, updated metadata is {m}.")
            # A partial update: unchanged partitions are kept, changed ones replaced.
            snapshot = self._metadata_snapshot
            self._metadata_snapshot = snapshot.merge_with(
                snapshot.cluster_resource().cluster_id,
                new_nodes,
                updated,
                (),
                (),
                (),
                snapshot.cluster().controller,
                ids_for_updated,
                lambda topic, is_internal: True,
            )
            self._cluster_resource_listeners.on_update(self._metadata_snapshot.cluster_resource())
            return {m.topic_partition for m in updated}

    def _maybe_set_metadata_error(self, cluster: Cluster) -> None:
        self._clear_recoverable_errors()
        self._check_invalid_topics(cluster)
        self._check_unauthorized_topics(cluster)

    def _check_invalid_topics(self, cluster: Cluster) -> None:
        if cluster.invalid_topics:
            self._log.error(f"Metadata response reported invalid topics {_java_set(cluster.invalid_topics)}")
            self._invalid_topics = set(cluster.invalid_topics)

    def _check_unauthorized_topics(self, cluster: Cluster) -> None:
        if cluster.unauthorized_topics:
            self._log.error(f"Topic authorization failed for topics {_java_set(cluster.unauthorized_topics)}")
            self._unauthorized_topics = set(cluster.unauthorized_topics)

    def _handle_metadata_response(
        self, response: MetadataResponse, is_partial_update: bool, now_ms: int
    ) -> MetadataSnapshot:
        topics: set[str] = set()  # every topic in the response
        internal_topics: set[str] = set()
        unauthorized_topics: set[str] = set()
        invalid_topics: set[str] = set()
        partitions: list[MetadataResponse.PartitionMetadata] = []
        topic_ids: dict[str, Uuid] = {}
        old_topic_ids = self._metadata_snapshot.topic_ids()
        reliable_epochs = response.has_reliable_leader_epochs()
        for metadata in response.topic_metadata():
            topic_name = metadata.topic
            topic_id: Uuid | None = metadata.topic_id
            topics.add(topic_name)
            # A change of topic id means anything only when both ids are real.
            old_topic_id: Uuid | None = None
            if topic_id is not None and topic_id != ZERO_UUID:
                topic_ids[topic_name] = topic_id
                old_topic_id = old_topic_ids.get(topic_name)
            else:
                topic_id = None

            if not self.retain_topic(topic_name, metadata.is_internal, now_ms):
                continue
            if metadata.is_internal:
                internal_topics.add(topic_name)

            if metadata.error is Errors.NONE:
                for partition_metadata in metadata.partition_metadata:
                    # A partition with an error may still carry a newer epoch.
                    latest = self._update_latest_metadata(partition_metadata, reliable_epochs, topic_id, old_topic_id)
                    if latest is not None:
                        partitions.append(latest)
                    if isinstance(partition_metadata.error.exception(), InvalidMetadataException):
                        self._log.debug(
                            f"Requesting metadata update for partition {partition_metadata.topic_partition} due to "
                            f"error {partition_metadata.error.name}"
                        )
                        self.request_update(False)
            else:
                if isinstance(metadata.error.exception(), InvalidMetadataException):
                    self._log.debug(
                        f"Requesting metadata update for topic {topic_name} due to error {metadata.error.name}"
                    )
                    self.request_update(False)
                if metadata.error is Errors.INVALID_TOPIC_EXCEPTION:
                    invalid_topics.add(topic_name)
                elif metadata.error is Errors.TOPIC_AUTHORIZATION_FAILED:
                    unauthorized_topics.add(topic_name)

        nodes = response.brokers_by_id()
        if is_partial_update:
            return self._metadata_snapshot.merge_with(
                response.cluster_id(),
                nodes,
                partitions,
                unauthorized_topics,
                invalid_topics,
                internal_topics,
                response.controller(),
                topic_ids,
                lambda topic, is_internal: topic not in topics and self.retain_topic(topic, is_internal, now_ms),
            )
        return MetadataSnapshot(
            response.cluster_id(),
            nodes,
            partitions,
            unauthorized_topics,
            invalid_topics,
            internal_topics,
            response.controller(),
            topic_ids,
        )

    def _update_latest_metadata(
        self,
        partition_metadata: MetadataResponse.PartitionMetadata,
        has_reliable_leader_epoch: bool,
        topic_id: Uuid | None,
        old_topic_id: Uuid | None,
    ) -> MetadataResponse.PartitionMetadata | None:
        """The metadata to keep for a partition: the response's, unless it carries an older leader epoch than
        already seen (then the cached one)."""
        tp = partition_metadata.topic_partition
        if has_reliable_leader_epoch and partition_metadata.leader_epoch is not None:
            new_epoch = partition_metadata.leader_epoch
            current_epoch = self._last_seen_leader_epochs.get(tp)
            if current_epoch is None:
                self._log.debug(
                    f"Setting the last seen epoch of partition {tp} to {new_epoch} since the last known epoch "
                    "was undefined."
                )
                self._last_seen_leader_epochs[tp] = new_epoch
                self._equivalent_response_count = 0
                return partition_metadata
            if topic_id is not None and topic_id != old_topic_id:
                # The topic was deleted and re-created: its epochs start again.
                self._log.info(
                    f"Resetting the last seen epoch of partition {tp} to {new_epoch} since the associated topicId "
                    f"changed from {old_topic_id} to {topic_id}"
                )
                self._last_seen_leader_epochs[tp] = new_epoch
                self._equivalent_response_count = 0
                return partition_metadata
            if new_epoch >= current_epoch:
                self._log.debug(
                    f"Updating last seen epoch for partition {tp} from {current_epoch} to epoch {new_epoch} from "
                    "new metadata"
                )
                self._last_seen_leader_epochs[tp] = new_epoch
                if new_epoch > current_epoch:
                    self._equivalent_response_count = 0
                return partition_metadata
            self._log.debug(
                f"Got metadata for an older epoch {new_epoch} (current is {current_epoch}) for partition {tp}, "
                "not updating"
            )
            return self._metadata_snapshot.partition_metadata(tp)
        # Old brokers, and partitions with errors, carry no usable epoch.
        self._last_seen_leader_epochs.pop(tp, None)
        self._equivalent_response_count = 0
        return partition_metadata.without_leader_epoch()

    # -- errors ---------------------------------------------------------------------------------------------

    def maybe_throw_any_exception(self) -> None:
        """Raises (once) the fatal error, else a topic authorization or invalid topic error of the last
        update."""
        with self._lock:
            self._clear_errors_and_maybe_throw_exception(self._recoverable_exception())

    def maybe_throw_fatal_exception(self) -> None:
        with self._lock:
            exception = self._fatal_exception
            if exception is not None:
                self._fatal_exception = None
                raise exception

    def maybe_throw_exception_for_topic(self, topic: str) -> None:
        """Like maybe_throw_any_exception, but only a topic error of `topic`."""
        with self._lock:
            self._clear_errors_and_maybe_throw_exception(self._recoverable_exception_for_topic(topic))

    def _clear_errors_and_maybe_throw_exception(self, recoverable: KafkaException | None) -> None:
        exception = self._fatal_exception if self._fatal_exception is not None else recoverable
        self._fatal_exception = None
        self._clear_recoverable_errors()
        if exception is not None:
            raise exception

    def _recoverable_exception(self) -> KafkaException | None:
        # Recoverable: the error goes away once the topic is no longer wanted.
        if self._unauthorized_topics:
            return TopicAuthorizationException.for_topics(self._unauthorized_topics)
        if self._invalid_topics:
            return InvalidTopicException.for_topics(self._invalid_topics)
        return None

    def _recoverable_exception_for_topic(self, topic: str) -> KafkaException | None:
        if topic in self._unauthorized_topics:
            return TopicAuthorizationException.for_topics([topic])
        if topic in self._invalid_topics:
            return InvalidTopicException.for_topics([topic])
        return None

    def _clear_recoverable_errors(self) -> None:
        self._invalid_topics = set()
        self._unauthorized_topics = set()

    def failed_update(self, now: int) -> None:
        """Records a refresh that failed (no response), for the backoff."""
        with self._lock:
            self._last_refresh_ms = now
            self._attempts += 1
            self._equivalent_response_count = 0

    def fatal_error(self, exception: KafkaException) -> None:
        with self._lock:
            self._fatal_exception = exception

    def update_version(self) -> int:
        with self._lock:
            return self._update_version

    def last_successful_update(self) -> int:
        with self._lock:
            return self._last_successful_refresh_ms

    def close(self) -> None:
        with self._lock:
            self._is_closed = True

    def is_closed(self) -> bool:
        with self._lock:
            return self._is_closed

    # -- what to ask for (overridden by ProducerMetadata and ConsumerMetadata) -------------------------------

    def new_metadata_request_and_version(self, now_ms: int) -> MetadataRequestAndVersion:
        """The next metadata request: partial (new topics only) if no full update is wanted and the metadata
        has not expired and the subclass has one, else full."""
        with self._lock:
            request: MetadataRequestBuilder | None = None
            is_partial_update = False
            if not self._need_full_update and self._last_successful_refresh_ms + self._metadata_expire_ms > now_ms:
                request = self.new_metadata_request_builder_for_new_topics()
                is_partial_update = True
            if request is None:
                request = self.new_metadata_request_builder()
                is_partial_update = False
            return MetadataRequestAndVersion(request, self._request_version, is_partial_update)

    def new_metadata_request_builder(self) -> MetadataRequestBuilder:
        """The request of a full update; all topics unless a subclass narrows it."""
        return MetadataRequestBuilder.all_topics()

    def new_metadata_request_builder_for_new_topics(self) -> MetadataRequestBuilder | None:
        """The request of a partial update, or None when the subclass has none."""
        return None

    def retain_topic(self, topic: str, is_internal: bool, now_ms: int) -> bool:
        """Whether a topic's metadata is kept; subclasses drop topics they no longer need."""
        return True


def _java_set(items: Iterable[str]) -> str:
    return "[" + ", ".join(sorted(items)) + "]"
