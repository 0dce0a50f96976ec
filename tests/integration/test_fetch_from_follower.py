"""Fetch from a follower (KIP-392), tried as a user would: three brokers from the bin scripts, each in its own rack
(`broker.rack`), with `replica.selector.class=org.apache.kafka.common.replica.RackAwareReplicaSelector` as in Kafka's
docs, and a confluent-kafka consumer with `client.rack` set. The leader names the replica in the consumer's rack
as its preferred read replica; the consumer reads every record, and its fetches go to that follower (librdkafka's
statistics: the partition is fetched through the follower's connection, which carries Fetch requests)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from confluent_kafka import Consumer, KafkaError, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from tests.integration.cluster import ClusterFactory, ClusterView, KafkaCluster
from tests.utils import wait_until_true

pytestmark = pytest.mark.integration

TOPIC = "racked"
RACK_AWARE = "org.apache.kafka.common.replica.RackAwareReplicaSelector"
LEADER = 0
NUM_RECORDS = 500


def rack_of(broker_id: int) -> str:
    return f"rack-{'abc'[broker_id]}"


@pytest.fixture
def racked_cluster(cluster_factory: ClusterFactory) -> KafkaCluster:
    """Three brokers (ids 0, 1, 2) in racks rack-a, rack-b, rack-c, with the rack-aware replica selector."""
    return cluster_factory({"replica.selector.class": RACK_AWARE}, racks={b: rack_of(b) for b in range(3)})


def produce(cluster: KafkaCluster, values: list[bytes]) -> None:
    errors: list[KafkaError] = []

    def on_delivery(err: KafkaError | None, msg: object) -> None:
        if err is not None:
            errors.append(err)

    producer = Producer({"bootstrap.servers": cluster.bootstrap, "acks": "all", "linger.ms": 5})
    for value in values:
        producer.produce(TOPIC, value=value, partition=0, on_delivery=on_delivery)
        producer.poll(0)
    assert producer.flush(60) == 0 and errors == [], errors[:5]


class RackConsumer:
    """A confluent-kafka consumer in `rack` reading partition 0 from the start, keeping librdkafka's statistics."""

    def __init__(self, cluster: KafkaCluster, rack: str | None) -> None:
        self.stats: dict[str, Any] = {}
        config: dict[str, Any] = {
            "bootstrap.servers": cluster.bootstrap,
            "group.id": f"rack-reader-{time.monotonic_ns()}",
            "enable.auto.commit": False,
            "statistics.interval.ms": 200,
            "stats_cb": self._on_stats,
        }
        if rack is not None:
            config["client.rack"] = rack
        self.consumer = Consumer(config)
        self.consumer.assign([TopicPartition(TOPIC, 0, 0)])

    def _on_stats(self, stats_json: str) -> None:
        self.stats = json.loads(stats_json)

    def read(self, expected: int) -> list[bytes | None]:
        values: list[bytes | None] = []
        deadline = time.monotonic() + 60
        while len(values) < expected and time.monotonic() < deadline:
            msg = self.consumer.poll(0.2)
            if msg is None:
                continue
            assert msg.error() is None, msg.error()
            values.append(msg.value())
        return values

    def broker_stats(self, broker_id: int) -> dict[str, Any]:
        """The statistics of librdkafka's connection to `broker_id` (named `host:port/id`)."""
        for stats in self.stats.get("brokers", {}).values():
            if stats.get("nodeid") == broker_id:
                return dict(stats)
        return {}

    def fetches_through(self, broker_id: int) -> bool:
        """Whether librdkafka fetches the partition through its connection to `broker_id` and has sent Fetch
        requests there."""
        stats = self.broker_stats(broker_id)
        toppars = stats.get("toppars", {})
        fetching = any(t.get("topic") == TOPIC and t.get("partition") == 0 for t in toppars.values())
        return fetching and int(stats.get("req", {}).get("Fetch", 0)) > 0

    def poll_until(self, condition: Callable[[], bool], what: str) -> None:
        """Keeps polling (so that statistics keep coming) until `condition` holds."""
        deadline = time.monotonic() + 30
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}; statistics: {json.dumps(self.stats)[:3000]}")
            self.consumer.poll(0.2)

    def close(self) -> None:
        self.consumer.close()


def test_consumer_with_client_rack_reads_everything_from_the_follower_in_its_rack(
    racked_cluster: KafkaCluster, cluster_view: ClusterView
) -> None:
    """Brokers register their racks; a consumer in rack-b (follower 1's) reads every record, fetching the
    partition through broker 1, not the leader; a consumer in the leader's rack keeps fetching from the leader."""
    cluster, view = racked_cluster, cluster_view
    for broker in cluster.brokers:
        data, _ = view.zk.get(f"/brokers/ids/{broker.broker_id}")
        assert json.loads(data)["rack"] == rack_of(broker.broker_id)

    admin = AdminClient({"bootstrap.servers": cluster.bootstrap})
    admin.create_topics([NewTopic(TOPIC, num_partitions=1, replica_assignment=[[LEADER, 1, 2]])])[TOPIC].result(30)
    wait_until_true(lambda: view.has_partition_state(TOPIC), "the partition state", timeout=60, pause=0.2)
    wait_until_true(lambda: view.isr(TOPIC) == [0, 1, 2], "the ISR to hold every replica", timeout=60, pause=0.2)
    values = [f"record-{i:05d}".encode() for i in range(NUM_RECORDS)]
    produce(cluster, values)

    in_rack_b = RackConsumer(cluster, rack_of(1))
    try:
        assert in_rack_b.read(NUM_RECORDS) == values
        in_rack_b.poll_until(lambda: in_rack_b.fetches_through(1), "the rack-b consumer to fetch from broker 1")
        assert not in_rack_b.fetches_through(LEADER)
        # Records written now reach the rack-b consumer through the follower as well.
        more = [f"later-{i:05d}".encode() for i in range(50)]
        produce(cluster, more)
        assert in_rack_b.read(len(more)) == more
        assert in_rack_b.fetches_through(1)
    finally:
        in_rack_b.close()

    in_rack_a = RackConsumer(cluster, rack_of(LEADER))
    try:
        assert in_rack_a.read(NUM_RECORDS + 50) == values + more
        in_rack_a.poll_until(lambda: in_rack_a.fetches_through(LEADER), "the rack-a consumer to fetch from the leader")
        assert not in_rack_a.fetches_through(1) and not in_rack_a.fetches_through(2)
    finally:
        in_rack_a.close()
