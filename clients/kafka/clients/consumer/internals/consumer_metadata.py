"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/ConsumerMetadata.java (Kafka 3.7).

The consumer's Metadata: it asks for the topics of the subscription (the group's, when leading), plus
"transient" topics needed for a moment (offsets lookups of unassigned partitions), or for all topics with a
pattern subscription; it keeps only the topics the consumer needs (internal topics only if asked for).
"""

from __future__ import annotations

from collections.abc import Iterable

from kafka.clients.consumer.internals.subscription_state import SubscriptionState
from kafka.clients.metadata import Metadata
from kafka.common.internals.cluster_resource_listeners import ClusterResourceListeners
from kafka.common.requests.metadata_request import MetadataRequestBuilder
from kafka.common.utils.log_context import LogContext

__all__ = ["ConsumerMetadata"]


class ConsumerMetadata(Metadata):
    def __init__(
        self,
        refresh_backoff_ms: int,
        refresh_backoff_max_ms: int,
        metadata_expire_ms: int,
        include_internal_topics: bool,
        allow_auto_topic_creation: bool,
        subscription: SubscriptionState,
        log_context: LogContext,
        cluster_resource_listeners: ClusterResourceListeners,
    ) -> None:
        super().__init__(
            refresh_backoff_ms, refresh_backoff_max_ms, metadata_expire_ms, log_context, cluster_resource_listeners
        )
        self._include_internal_topics = include_internal_topics
        self._allow_auto_topic_creation = allow_auto_topic_creation
        self._subscription = subscription
        self._transient_topics: set[str] = set()

    def allow_auto_topic_creation(self) -> bool:
        return self._allow_auto_topic_creation

    def new_metadata_request_builder(self) -> MetadataRequestBuilder:
        with self._lock:
            if self._subscription.has_pattern_subscription():
                return MetadataRequestBuilder.all_topics()
            topics = list(self._subscription.metadata_topics())
            topics.extend(self._transient_topics)
            return MetadataRequestBuilder(topics, self._allow_auto_topic_creation)

    def add_transient_topics(self, topics: Iterable[str]) -> None:
        with self._lock:
            topic_set = set(topics)
            self._transient_topics.update(topic_set)
            if not set(self.fetch().topics).issuperset(topic_set):
                self.request_update_for_new_topics()

    def clear_transient_topics(self) -> None:
        with self._lock:
            self._transient_topics.clear()

    def retain_topic(self, topic: str, is_internal: bool, now_ms: int) -> bool:
        with self._lock:
            if topic in self._transient_topics or self._subscription.needs_metadata(topic):
                return True
            if is_internal and not self._include_internal_topics:
                return False
            return self._subscription.matches_subscribed_pattern(topic)
