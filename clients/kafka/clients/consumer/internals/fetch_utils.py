"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/FetchUtils.java (Kafka 3.7)."""

from __future__ import annotations

from kafka.clients.consumer.internals.consumer_metadata import ConsumerMetadata
from kafka.clients.consumer.internals.subscription_state import SubscriptionState
from kafka.common.topic_partition import TopicPartition

__all__ = ["request_metadata_update"]


def request_metadata_update(
    metadata: ConsumerMetadata, subscriptions: SubscriptionState, topic_partition: TopicPartition
) -> None:
    """After a fetch error that points at stale metadata: refresh it, and fetch from the leader again."""
    metadata.request_update(False)
    subscriptions.clear_preferred_read_replica(topic_partition)
