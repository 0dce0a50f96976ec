"""Port of clients/src/main/java/org/apache/kafka/clients/producer/internals/ProducerMetadata.java (Kafka 3.7).

The producer's Metadata: it asks only for the topics the producer sends to, fetches newly used topics
at once (a partial update), forgets topics unused for metadata.max.idle.ms, and lets `send` wait for
an update of a topic (wait_on_metadata).
"""

from __future__ import annotations

import threading

from kafka.clients.metadata import Metadata
from kafka.common.cluster import Cluster
from kafka.common.errors import KafkaException, TimeoutException
from kafka.common.internals.cluster_resource_listeners import ClusterResourceListeners
from kafka.common.requests.metadata_request import MetadataRequestBuilder
from kafka.common.requests.metadata_response import MetadataResponse
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import Time

__all__ = ["ProducerMetadata"]

# fetch_for_send's lookups are dropped past this many topics (each is a few objects; a producer may use many topics).
_MAX_SEND_LOOKUPS = 10_000


class ProducerMetadata(Metadata):
    """Metadata for the topics the producer uses; waiting callers are woken by every update."""

    def __init__(
        self,
        refresh_backoff_ms: int,
        refresh_backoff_max_ms: int,
        metadata_expire_ms: int,
        metadata_idle_ms: int,
        log_context: LogContext,
        cluster_resource_listeners: ClusterResourceListeners,
        time: Time,
    ) -> None:
        super().__init__(
            refresh_backoff_ms, refresh_backoff_max_ms, metadata_expire_ms, log_context, cluster_resource_listeners
        )
        self._metadata_idle_ms = metadata_idle_ms
        # Topic -> when it is dropped if not used again.
        self._topics: dict[str, int] = {}
        self._new_topics: set[str] = set()
        self._producer_log = log_context.logger("org.apache.kafka.clients.producer.internals.ProducerMetadata")
        self._time = time
        # Java waits on the Metadata object's monitor; this condition shares Metadata's lock.
        self._update_condition = threading.Condition(self._lock)
        # Topic -> (the snapshot, its cluster, the topic's partition count or None) for fetch_for_send.
        self._send_lookups: dict[str, tuple[object, Cluster, int | None]] = {}

    def new_metadata_request_builder(self) -> MetadataRequestBuilder:
        with self._lock:
            return MetadataRequestBuilder(list(self._topics), True)

    def new_metadata_request_builder_for_new_topics(self) -> MetadataRequestBuilder | None:
        with self._lock:
            return MetadataRequestBuilder(list(self._new_topics), True)

    def add(self, topic: str, now_ms: int) -> None:
        """Keeps `topic` in the metadata for metadata.max.idle.ms more; a new topic is fetched right away."""
        if topic is None:
            raise ValueError("topic cannot be null")
        expire_ms = now_ms + self._metadata_idle_ms
        if self._topics.get(topic) == expire_ms:
            # Already known with this very expiry (send calls this for every record, many in the same ms): the
            # update would change nothing, so the lock is not taken.
            return
        with self._lock:
            previous = self._topics.get(topic)
            self._topics[topic] = expire_ms
            if previous is None:
                self._new_topics.add(topic)
                self.request_update_for_new_topics()

    def fetch_for_send(self, topic: str, now_ms: int) -> tuple[Cluster, int | None]:
        """The cluster and `topic`'s partition count in it (None when the topic is invalid or not known yet), and,
        when known, `add(topic, now_ms)`: send's first step, one call for every record.

        # PORT: the lookups are kept per topic while the metadata snapshot stays the same object (a snapshot and its
        Cluster never change); the same answers as fetch(), invalid_topics and partition_count_for_topic each time.
        The compiled send_common (kafka.common.record._default_record_writer) reads `_metadata_snapshot`,
        `_send_lookups`, `_topics` and `_metadata_idle_ms` to answer as this does when it has nothing to do, and calls
        it otherwise: a change here goes there too.
        """
        snapshot = self._metadata_snapshot
        lookup = self._send_lookups.get(topic)
        if lookup is None or lookup[0] is not snapshot:
            if len(self._send_lookups) > _MAX_SEND_LOOKUPS:
                self._send_lookups.clear()
            cluster = snapshot.cluster()
            count = None if topic in cluster.invalid_topics else cluster.partition_count_for_topic(topic)
            lookup = (snapshot, cluster, count)
            self._send_lookups[topic] = lookup
        if lookup[2] is not None and self._topics.get(topic) != now_ms + self._metadata_idle_ms:
            self.add(topic, now_ms)
        return lookup[1], lookup[2]

    def request_update_for_topic(self, topic: str) -> int:
        """Asks for an update that covers `topic`; returns the version to wait beyond."""
        with self._lock:
            if topic in self._new_topics:
                return self.request_update_for_new_topics()
            return self.request_update(False)

    def topics(self) -> set[str]:
        with self._lock:
            return set(self._topics)

    def new_topics(self) -> set[str]:
        with self._lock:
            return set(self._new_topics)

    def contains_topic(self, topic: str) -> bool:
        with self._lock:
            return topic in self._topics

    def retain_topic(self, topic: str, is_internal: bool, now_ms: int) -> bool:
        with self._lock:
            expire_ms = self._topics.get(topic)
            if expire_ms is None:
                return False
            if topic in self._new_topics:
                return True
            if expire_ms <= now_ms:
                self._producer_log.debug(
                    f"Removing unused topic {topic} from the metadata list, expiryMs {expire_ms} now {now_ms}"
                )
                del self._topics[topic]
                return False
            return True

    def await_update(self, last_version: int, timeout_ms: int) -> None:
        """Waits until an update newer than `last_version` arrives; raises TimeoutException after `timeout_ms`.

        A fatal metadata error (e.g. authentication) is raised at once.
        """
        with self._lock:
            current_time_ms = self._time.milliseconds()
            deadline_ms = current_time_ms + timeout_ms

            def updated() -> bool:
                self.maybe_throw_fatal_exception()
                return self.update_version() > last_version or self.is_closed()

            try:
                self._time.wait_object(self._update_condition, updated, deadline_ms)
            except TimeoutError as e:
                # Time raises the builtin; callers expect Kafka's (retriable) TimeoutException, as Java's waitObject.
                raise TimeoutException(str(e)) from None
            if self.is_closed():
                raise KafkaException("Requested metadata update after close")

    def update(self, request_version: int, response: MetadataResponse, is_partial_update: bool, now_ms: int) -> None:
        with self._lock:
            super().update(request_version, response, is_partial_update, now_ms)
            # A new topic in the response is no longer new; one with an error is retried by full updates.
            if self._new_topics:
                for metadata in response.topic_metadata():
                    self._new_topics.discard(metadata.topic)
            self._update_condition.notify_all()

    def fatal_error(self, exception: KafkaException) -> None:
        with self._lock:
            super().fatal_error(exception)
            self._update_condition.notify_all()

    def close(self) -> None:
        with self._lock:
            super().close()
            self._update_condition.notify_all()
