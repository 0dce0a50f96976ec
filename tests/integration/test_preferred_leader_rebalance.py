"""auto.leader.rebalance.enable on three brokers from the bin scripts: a broker that leads its preferred
partitions is SIGKILLed, the others take its leaderships over; when it is back and in sync again, the controller's
imbalance check (leader.imbalance.check.interval.seconds, leader.imbalance.per.broker.percentage) hands them back
without anyone asking, as Kafka's does. Records written meanwhile are all there."""

from __future__ import annotations

from typing import Any, cast

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from tests.integration.cluster import ClusterFactory, ClusterView, KafkaCluster
from tests.utils import wait_until_true

pytestmark = pytest.mark.integration

TOPIC = "rebalanced"
PARTITIONS = 3


@pytest.fixture
def rebalance_cluster(cluster_factory: ClusterFactory) -> KafkaCluster:
    return cluster_factory(
        {
            "zookeeper.session.timeout.ms": "6000",
            "auto.leader.rebalance.enable": "true",
            "leader.imbalance.check.interval.seconds": "2",
        }
    )


def _states(view: ClusterView) -> dict[int, dict[str, Any]]:
    return {p: view.partition_state(TOPIC, p) for p in range(PARTITIONS)}


def test_leadership_returns_to_the_preferred_replica(
    rebalance_cluster: KafkaCluster, cluster_view: ClusterView
) -> None:
    cluster, view = rebalance_cluster, cluster_view
    admin = AdminClient({"bootstrap.servers": cluster.bootstrap})
    # Each broker is the preferred (first) replica of one partition.
    assignment = [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    admin.create_topics([NewTopic(TOPIC, num_partitions=PARTITIONS, replica_assignment=assignment)])[TOPIC].result(30)
    wait_until_true(
        lambda: all(s["leader"] == assignment[p][0] and len(s["isr"]) == 3 for p, s in _states(view).items()),
        "every partition led by its preferred replica with a full ISR",
        timeout=60,
    )
    producer = Producer({"bootstrap.servers": cluster.bootstrap, "acks": "all", "enable.idempotence": True})
    for i in range(300):
        producer.produce(TOPIC, value=b"before-%d" % i, partition=i % PARTITIONS)
    assert producer.flush(60) == 0

    cluster.kill(0)
    wait_until_true(
        lambda: _states(view)[0]["leader"] in (1, 2), "partition 0 led by another broker after 0 died", timeout=60
    )
    for i in range(300):
        producer.produce(TOPIC, value=b"during-%d" % i, partition=i % PARTITIONS)
    assert producer.flush(60) == 0

    cluster.broker(0).start()
    # Nobody runs an election: the controller's periodic imbalance check moves partition 0 back once broker 0
    # has caught up and rejoined the ISR.
    wait_until_true(
        lambda: all(s["leader"] == assignment[p][0] and len(s["isr"]) == 3 for p, s in _states(view).items()),
        "leadership back on the preferred replicas",
        timeout=90,
        pause=0.5,
    )
    for i in range(300):
        producer.produce(TOPIC, value=b"after-%d" % i, partition=i % PARTITIONS)
    assert producer.flush(60) == 0

    consumer = Consumer({"bootstrap.servers": cluster.bootstrap, "group.id": "check", "enable.auto.commit": False})
    consumer.assign([TopicPartition(TOPIC, p, 0) for p in range(PARTITIONS)])
    values: list[bytes] = []

    def read_more() -> bool:
        # The records written above, none of them null.
        values.extend(cast(bytes, m.value()) for m in consumer.consume(500, 0.5) if m.error() is None)
        return len(values) >= 900

    wait_until_true(
        read_more,
        "every record read back",
        timeout=60,
    )
    consumer.close()
    assert sorted(values) == sorted([b"%s-%d" % (w, i) for w in (b"before", b"during", b"after") for i in range(300)])
