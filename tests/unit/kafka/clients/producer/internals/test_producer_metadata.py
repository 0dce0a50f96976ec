"""Tests of ProducerMetadata's topic bookkeeping, after clients/src/test/java/org/apache/kafka/clients/producer/
internals/ProducerMetadataTest.java (Kafka 3.7)."""

from __future__ import annotations

from kafka.clients.producer.internals.producer_metadata import ProducerMetadata
from kafka.common.internals.cluster_resource_listeners import ClusterResourceListeners
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import MockTime
from tests.unit.kafka.common.requests.request_test_utils import metadata_update_with

IDLE_MS = 60_000


def _metadata() -> ProducerMetadata:
    return ProducerMetadata(100, 1000, 300_000, IDLE_MS, LogContext(), ClusterResourceListeners(), MockTime())


def test_a_new_topic_is_fetched_once_and_repeated_adds_change_nothing() -> None:
    """The first add makes the topic new and asks for an update; adds at the same time only keep it."""
    metadata = _metadata()
    metadata.add("t", 1000)
    assert metadata.new_topics() == {"t"} and metadata.update_requested()
    version = metadata.request_update_for_topic("t")
    metadata.add("t", 1000)
    metadata.add("t", 1000)
    assert metadata.topics() == {"t"} and metadata.new_topics() == {"t"}
    assert metadata.request_update_for_topic("t") == version


def test_each_add_moves_the_idle_expiry() -> None:
    """A topic stays while it is used: a later add pushes its expiry to that time plus metadata.max.idle.ms."""
    metadata = _metadata()
    metadata.add("t", 1000)
    metadata._new_topics.clear()  # as after the update that fetched it
    metadata.add("t", 1000)
    metadata.add("t", 5000)
    assert metadata.retain_topic("t", False, 1000 + IDLE_MS)
    assert metadata.retain_topic("t", False, 5000 + IDLE_MS - 1)
    assert not metadata.retain_topic("t", False, 5000 + IDLE_MS)
    assert not metadata.contains_topic("t")


def test_fetch_for_send_follows_each_update_and_adds_only_a_known_topic() -> None:
    """send's one-call lookup: the same cluster and partition count as fetch() and partition_count_for_topic after
    every update (its kept lookups go with the snapshot), and the idle expiry renewed only for a known topic."""
    metadata = _metadata()
    cluster, count = metadata.fetch_for_send("t", 1000)
    assert cluster is metadata.fetch() and count is None and not metadata.contains_topic("t")
    metadata.add("t", 1000)  # as send's wait for the topic does
    metadata.update(metadata.request_update(False), metadata_update_with(1, {"t": 2}), False, 1000)
    cluster, count = metadata.fetch_for_send("t", 1000)
    assert cluster is metadata.fetch() and count == 2 and not metadata.new_topics()
    assert metadata.fetch_for_send("t", 5000) == (cluster, 2)
    assert metadata.retain_topic("t", False, 5000 + IDLE_MS - 1) and not metadata.retain_topic(
        "t", False, 5000 + IDLE_MS
    )
    metadata.add("t", 6000)
    metadata.update(metadata.request_update(False), metadata_update_with(1, {"t": 4}), False, 6000)
    cluster, count = metadata.fetch_for_send("t", 6000)
    assert cluster is metadata.fetch() and count == 4
