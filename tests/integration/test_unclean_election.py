"""unclean.leader.election.enable on three brokers from the bin scripts. A partition on two replicas loses its
follower (which misses later writes), then its leader, the last member of the ISR: the partition goes offline.
With unclean election off, the out-of-sync replica's return does not bring it back; the ISR member's return does,
with every write kept. Turned on for the topic or for every broker with kafka-configs.sh while the partition is
offline, the surviving replica becomes the leader at once; the writes it missed are lost, and that is visible: the
controller's state-change log names the election of a replica outside the ISR, and the old leader truncates them
away when it comes back."""

from __future__ import annotations

import re
import subprocess
import time
from typing import Any

import pytest
from confluent_kafka import Consumer, KafkaError, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from tests.integration.broker import ROOT, BrokerProcess
from tests.integration.cluster import ClusterFactory, ClusterView, KafkaCluster
from tests.utils import wait_until_true

pytestmark = pytest.mark.integration

TOPIC = "unclean"
SESSION_TIMEOUT_MS = 6000


@pytest.fixture
def unclean_cluster(cluster_factory: ClusterFactory) -> KafkaCluster:
    return cluster_factory({"zookeeper.session.timeout.ms": str(SESSION_TIMEOUT_MS)})


def produce(bootstrap: str, values: list[str]) -> None:
    """Writes `values` to partition 0 with acks=all; every one must be acknowledged."""
    producer = Producer({"bootstrap.servers": bootstrap, "acks": "all", "message.timeout.ms": 60_000})
    errors: list[Any] = []

    def on_delivery(err: KafkaError | None, msg: object) -> None:
        if err:
            errors.append(err)

    for value in values:
        producer.produce(TOPIC, value=value.encode(), partition=0, on_delivery=on_delivery)
    assert producer.flush(90) == 0
    assert errors == []


def read_all(bootstrap: str, timeout: float = 60.0) -> list[str]:
    """Every value of partition 0, from offset 0 to the high watermark."""
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "unused", "enable.auto.commit": False})
    try:
        deadline = time.monotonic() + timeout
        while True:  # a client learns the new leader from metadata a moment after ZooKeeper has it
            try:
                _, high = consumer.get_watermark_offsets(TopicPartition(TOPIC, 0), timeout=10)
                break
            except KafkaException:
                if time.monotonic() > deadline:
                    raise
                # librdkafka answers a topic it has no metadata for yet with UNKNOWN_PARTITION and may not ask for
                # it again soon: ask for the topic's metadata before retrying.
                consumer.list_topics(TOPIC, timeout=10)
                time.sleep(0.5)
        consumer.assign([TopicPartition(TOPIC, 0, 0)])
        out: list[str] = []
        while len(out) < high:
            assert time.monotonic() < deadline, f"read {len(out)} of {high} records"
            msg = consumer.poll(0.5)
            if msg is not None and msg.error() is None:
                value = msg.value()
                assert value is not None
                out.append(value.decode())
        return out
    finally:
        consumer.close()


def state_change_log(cluster: KafkaCluster, broker_id: int) -> str:
    path = cluster.broker(broker_id).app_log_dir / "state-change.log"
    return path.read_text(errors="replace") if path.exists() else ""


def lose_the_isr(
    cluster: KafkaCluster, view: ClusterView, config: dict[str, str] | None = None
) -> tuple[int, int, int]:
    """Creates the topic on the two brokers that are not the controller, writes 100 records, kills the follower,
    writes 100 more (which only the leader has), then kills the leader. Returns (controller, leader, follower)."""
    controller = view.controller()
    leader, follower = [b for b in range(3) if b != controller]
    admin = AdminClient({"bootstrap.servers": cluster.bootstrap})
    new_topic = NewTopic(
        TOPIC,
        num_partitions=1,
        replica_assignment=[[leader, follower]],
        config={"min.insync.replicas": "1", **(config or {})},
    )
    admin.create_topics([new_topic])[TOPIC].result(30)
    wait_until_true(lambda: view.isr(TOPIC) == sorted([leader, follower]), "ISR of two", 30)
    produce(cluster.bootstrap, [f"before-{i}" for i in range(100)])

    cluster.kill(follower)
    wait_until_true(lambda: view.isr(TOPIC) == [leader], f"ISR shrinks to [{leader}]", 60, pause=0.2)
    produce(cluster.broker(leader).bootstrap, [f"leader-only-{i}" for i in range(100)])

    cluster.kill(leader)
    wait_until_true(lambda: view.leader(TOPIC) == -1, "the partition goes offline", 60, pause=0.2)
    # The last member of the ISR stays in it: only it has every acknowledged write.
    assert view.isr(TOPIC) == [leader]
    return controller, leader, follower


def kafka_configs(cluster: KafkaCluster, *args: str) -> None:
    done = subprocess.run(
        [str(ROOT / "bin" / "kafka-configs.sh"), "--bootstrap-server", cluster.bootstrap, "--alter", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def restart(broker: BrokerProcess) -> None:
    broker.start(timeout=120)


def test_without_unclean_election_the_partition_waits_for_an_isr_member(
    unclean_cluster: KafkaCluster, cluster_view: ClusterView
) -> None:
    """Off (the default): the out-of-sync replica comes back and the partition stays offline (the controller logs
    that no replica could be elected); the ISR member comes back and leads with every write."""
    cluster, view = unclean_cluster, cluster_view
    controller, leader, follower = lose_the_isr(cluster, view)
    marks = len(state_change_log(cluster, controller))

    restart(cluster.broker(follower))
    failed = re.compile(rf"failed to change state for partition {TOPIC}-0 from OfflinePartition to OnlinePartition")
    wait_until_true(
        lambda: failed.search(state_change_log(cluster, controller)[marks:]) is not None,
        "the controller tries and fails to elect a leader once the out-of-sync replica is back",
        60,
        pause=0.2,
    )
    state = view.partition_state(TOPIC)
    assert state["leader"] == -1 and state["isr"] == [leader], state

    restart(cluster.broker(leader))
    wait_until_true(lambda: view.leader(TOPIC) == leader, f"broker {leader} leads again", 60, pause=0.2)
    wait_until_true(lambda: view.isr(TOPIC) == sorted([leader, follower]), "ISR whole", 60)
    expected = [f"before-{i}" for i in range(100)] + [f"leader-only-{i}" for i in range(100)]
    assert read_all(cluster.bootstrap) == expected


def _unclean_election_happened(
    cluster: KafkaCluster, view: ClusterView, controller: int, leader: int, follower: int, marks: int
) -> None:
    wait_until_true(lambda: view.leader(TOPIC) == follower, f"broker {follower} elected", 60, pause=0.2)
    assert view.isr(TOPIC) == [follower]
    # The controller's state-change log shows the election of a replica that was not in the ISR.
    line = re.compile(
        rf"Changed partition {TOPIC}-0 from OfflinePartition to OnlinePartition with state "
        rf"LeaderAndIsr\(leader={follower}, leaderEpoch=\d+, isr=List\({follower}\)"
    )
    assert line.search(state_change_log(cluster, controller)[marks:]), state_change_log(cluster, controller)[-3000:]
    # Only what the new leader had is there; the writes after it fell behind are gone, and new ones go on.
    assert read_all(cluster.bootstrap) == [f"before-{i}" for i in range(100)]
    produce(cluster.bootstrap, [f"after-{i}" for i in range(10)])

    # The old leader comes back as a follower and truncates the writes nobody else has.
    restart(cluster.broker(leader))
    wait_until_true(lambda: view.isr(TOPIC) == sorted([leader, follower]), "ISR whole", 60)
    truncated = re.compile(r"\[Log partition=unclean-0, dir=[^\]]*\] Truncating to offset 100\b")
    assert truncated.search((cluster.broker(leader).app_log_dir / "server.log").read_text(errors="replace"))
    assert read_all(cluster.broker(leader).bootstrap) == [f"before-{i}" for i in range(100)] + [
        f"after-{i}" for i in range(10)
    ]


def test_unclean_election_enabled_for_the_topic_with_kafka_configs(
    unclean_cluster: KafkaCluster, cluster_view: ClusterView
) -> None:
    """Turned on for the topic (kafka-configs.sh --entity-type topics) while its partition is offline with the
    out-of-sync replica alive: that replica leads at once, without the writes it missed."""
    cluster, view = unclean_cluster, cluster_view
    controller, leader, follower = lose_the_isr(cluster, view)
    restart(cluster.broker(follower))
    marks = len(state_change_log(cluster, controller))
    assert view.leader(TOPIC) == -1
    kafka_configs(
        cluster,
        "--entity-type",
        "topics",
        "--entity-name",
        TOPIC,
        "--add-config",
        "unclean.leader.election.enable=true",
    )
    _unclean_election_happened(cluster, view, controller, leader, follower, marks)


def test_unclean_election_enabled_for_every_broker_with_kafka_configs(
    unclean_cluster: KafkaCluster, cluster_view: ClusterView
) -> None:
    """Turned on as the cluster-wide broker default (kafka-configs.sh --entity-type brokers --entity-default): the
    controller elects the out-of-sync replica."""
    cluster, view = unclean_cluster, cluster_view
    controller, leader, follower = lose_the_isr(cluster, view)
    restart(cluster.broker(follower))
    marks = len(state_change_log(cluster, controller))
    assert view.leader(TOPIC) == -1
    kafka_configs(
        cluster, "--entity-type", "brokers", "--entity-default", "--add-config", "unclean.leader.election.enable=true"
    )
    _unclean_election_happened(cluster, view, controller, leader, follower, marks)


def test_unclean_election_set_on_the_topic_at_creation(
    unclean_cluster: KafkaCluster, cluster_view: ClusterView
) -> None:
    """Set on the topic from the start: when the out-of-sync replica returns to an offline partition, the
    controller elects it."""
    cluster, view = unclean_cluster, cluster_view
    controller, leader, follower = lose_the_isr(cluster, view, {"unclean.leader.election.enable": "true"})
    marks = len(state_change_log(cluster, controller))
    restart(cluster.broker(follower))
    _unclean_election_happened(cluster, view, controller, leader, follower, marks)
