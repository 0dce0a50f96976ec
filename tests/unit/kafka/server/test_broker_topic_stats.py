"""Tests of BrokerTopicStats/BrokerTopicMetrics (kafka/server/KafkaRequestHandler.scala)."""

from __future__ import annotations

from kafka.metrics.kafka_yammer_metrics import KafkaYammerMetrics
from kafka.server.kafka_request_handler import BrokerTopicMetrics, BrokerTopicStats


def _registered(mbean_name: str) -> bool:
    return any(n.mbean_name == mbean_name for n in KafkaYammerMetrics.default_registry().all_metrics())


def test_topic_meters_are_created_when_marked_and_removed_with_the_topic() -> None:
    """A topic's meters appear under Kafka's MBean names once marked, and go when the topic's metrics are removed."""
    stats = BrokerTopicStats()
    name = "kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec,topic=bts-topic"
    assert not _registered(name)
    stats.topic_stats("bts-topic").messages_in_rate.mark(5)
    assert _registered(name)
    assert stats.topic_stats("bts-topic").messages_in_rate.count == 5
    assert _registered("kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec")
    assert _registered("kafka.server:type=BrokerTopicMetrics,name=ReplicationBytesInPerSec")
    stats.remove_metrics("bts-topic")
    assert not _registered(name)


def test_bytes_out_of_consumers_and_followers() -> None:
    """A consumer's bytes count for its topic and all topics; a follower's as replication (and reassignment)."""
    stats = BrokerTopicStats()
    all_topics = stats.all_topics_stats
    out_before = all_topics.bytes_out_rate.count
    repl_before = all_topics.meter(BrokerTopicMetrics.REPLICATION_BYTES_OUT_PER_SEC).count
    reassign_before = all_topics.meter(BrokerTopicMetrics.REASSIGNMENT_BYTES_OUT_PER_SEC).count
    stats.update_bytes_out("bts-out", is_follower=False, is_reassignment=False, value=100)
    stats.update_bytes_out("bts-out", is_follower=True, is_reassignment=True, value=7)
    assert stats.topic_stats("bts-out").bytes_out_rate.count == 100
    assert all_topics.bytes_out_rate.count - out_before == 100
    assert all_topics.meter(BrokerTopicMetrics.REPLICATION_BYTES_OUT_PER_SEC).count - repl_before == 7
    assert all_topics.meter(BrokerTopicMetrics.REASSIGNMENT_BYTES_OUT_PER_SEC).count - reassign_before == 7
    stats.remove_old_leader_metrics("bts-out")
    assert _registered("kafka.server:type=BrokerTopicMetrics,name=BytesOutPerSec,topic=bts-out")
    stats.close()
    assert not _registered("kafka.server:type=BrokerTopicMetrics,name=BytesOutPerSec,topic=bts-out")


def test_a_topic_only_followed_loses_its_leader_meters() -> None:
    """ReplicaManager.updateLeaderAndFollowerMetrics: a topic this broker now only follows drops the meters only a
    leader marks (MessagesIn, BytesIn, the produce request and conversion meters) and keeps its BytesOut."""
    stats = BrokerTopicStats()
    topic = stats.topic_stats("bts-follow")
    topic.messages_in_rate.mark(3)
    topic.bytes_in_rate.mark(30)
    topic.total_produce_request_rate.mark()
    topic.produce_message_conversions_rate.mark(3)
    topic.bytes_out_rate.mark(9)
    stats.remove_old_leader_metrics("bts-follow")
    stats.remove_old_follower_metrics("bts-follow")
    prefix = "kafka.server:type=BrokerTopicMetrics,name="
    for name in ("MessagesInPerSec", "BytesInPerSec", "TotalProduceRequestsPerSec", "ProduceMessageConversionsPerSec"):
        assert not _registered(f"{prefix}{name},topic=bts-follow")
    assert _registered(f"{prefix}BytesOutPerSec,topic=bts-follow")
    # Marked again once it leads again.
    stats.topic_stats("bts-follow").messages_in_rate.mark(1)
    assert _registered(f"{prefix}MessagesInPerSec,topic=bts-follow")
    stats.close()


def test_a_closed_meter_is_made_again_when_next_read() -> None:
    """Every meter property gives the registered meter, the same one each time; after close_metric the next read
    makes and registers a new one (as Kafka's lazily created meters)."""
    stats = BrokerTopicStats()
    topic = stats.topic_stats("bts-again")
    names = [n for n in dir(BrokerTopicMetrics) if isinstance(getattr(BrokerTopicMetrics, n), property)]
    meters = [n for n in names if n.endswith("_rate")]
    assert len(meters) == 14
    for n in meters:
        assert getattr(topic, n) is getattr(topic, n)
    messages_in = topic.messages_in_rate
    messages_in.mark(2)
    topic.close_metric(BrokerTopicMetrics.MESSAGES_IN_PER_SEC)
    name = "kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec,topic=bts-again"
    assert not _registered(name)
    again = topic.messages_in_rate
    assert again is not messages_in and again.count == 0 and _registered(name)
    stats.close()
