"""The ISR on three brokers from the bin scripts, with ISR changes sent to the controller as AlterIsr (the default
inter.broker.protocol.version): a paused follower leaves the ISR after replica.lag.time.max.ms and comes back after
SIGCONT, both by the leader's AlterIsr (same leader epoch, no election); with two of three replicas gone, acks=all
is refused with NOT_ENOUGH_REPLICAS while acks=1 is still written."""

from __future__ import annotations

import json
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import KafkaError, Producer
from confluent_kafka.admin import AdminClient, NewTopic
from kazoo.client import KazooClient

from tests.integration.cluster import KafkaCluster
from tests.integration.zookeeper import ZooKeeperServer

TOPIC = "isr"
LAG_MS = 3000
SESSION_TIMEOUT_MS = 6000


@pytest.fixture
def isr_cluster(
    request: pytest.FixtureRequest, zk_chroot: str, zookeeper: ZooKeeperServer, tmp_path: Path
) -> Iterator[KafkaCluster]:
    """The `cluster` fixture's three brokers with a short replica.lag.time.max.ms (and a session timeout that lets
    a lost broker be noticed within the test); an indirect parameter sets inter.broker.protocol.version."""
    overrides = {
        "replica.lag.time.max.ms": str(LAG_MS),
        "zookeeper.session.timeout.ms": str(SESSION_TIMEOUT_MS),
    }
    ibp = getattr(request, "param", None)
    if ibp is not None:
        overrides["inter.broker.protocol.version"] = ibp
    cluster = KafkaCluster(tmp_path, zookeeper.connect_string + zk_chroot, overrides=overrides)
    try:
        cluster.start()
        yield cluster
    finally:
        for broker in cluster.brokers:
            if broker.is_running:
                broker.signal(signal.SIGCONT)
        cluster.stop()


@pytest.fixture
def zk(isr_cluster: KafkaCluster) -> Iterator[KazooClient]:
    client = KazooClient(hosts=isr_cluster.zk_connect, timeout=10.0)
    client.start(timeout=10.0)
    try:
        yield client
    finally:
        client.stop()
        client.close()


def wait_for(condition: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.2)


def partition_state(zk: KazooClient) -> dict[str, Any]:
    data, _ = zk.get(f"/brokers/topics/{TOPIC}/partitions/0/state")
    state: dict[str, Any] = json.loads(data)
    return state


def controller_id(zk: KazooClient) -> int:
    data, _ = zk.get("/controller")
    return int(json.loads(data)["brokerid"])


def create_topic(cluster: KafkaCluster, zk: KazooClient) -> dict[str, Any]:
    """RF=3, min.insync.replicas=2; returns the partition state once its ISR is whole."""
    admin = AdminClient({"bootstrap.servers": cluster.bootstrap})
    admin.create_topics([NewTopic(TOPIC, num_partitions=1, replication_factor=3, config={"min.insync.replicas": "2"})])[
        TOPIC
    ].result(30)
    wait_for(lambda: zk.exists(f"/brokers/topics/{TOPIC}/partitions/0/state") is not None, "the partition state")
    wait_for(lambda: sorted(partition_state(zk)["isr"]) == [0, 1, 2], "the whole ISR")
    return partition_state(zk)


def produce_one(bootstrap: str, acks: str, value: bytes) -> KafkaError | None:
    """One record, not retried; the delivery error (None when acknowledged)."""
    producer = Producer(
        {
            "bootstrap.servers": bootstrap,
            "acks": acks,
            "retries": 0,
            "enable.idempotence": False,
            "message.timeout.ms": 10000,
            "request.timeout.ms": 8000,
        }
    )
    outcome: list[KafkaError | None] = []
    producer.produce(TOPIC, value=value, on_delivery=lambda err, _msg: outcome.append(err))
    producer.flush(30)
    assert len(outcome) == 1, "no delivery report"
    return outcome[0]


@pytest.mark.parametrize("isr_cluster", [None, "2.6"], ids=["alter-isr", "ibp-2.6-zookeeper"], indirect=True)
def test_paused_follower_leaves_the_isr_and_rejoins_after_resume(isr_cluster: KafkaCluster, zk: KazooClient) -> None:
    """A follower stopped with SIGSTOP is taken out of the ISR once it has been behind the leader's log end for
    replica.lag.time.max.ms, by the leader (the leader epoch does not change: no election): through AlterIsr to the
    controller by default, written to ZooKeeper by the leader itself with inter.broker.protocol.version 2.6.
    acks=all keeps working with two in-sync replicas; after SIGCONT the follower catches up and the leader adds it
    back the same way."""
    state = create_topic(isr_cluster, zk)
    leader, leader_epoch = state["leader"], state["leader_epoch"]
    followers = [b for b in (0, 1, 2) if b != leader]
    # A follower that is not the controller, if there is one: pausing the controller would add a failover.
    controller = controller_id(zk)
    follower = next((b for b in followers if b != controller), followers[0])
    assert produce_one(isr_cluster.bootstrap, "all", b"before") is None

    isr_cluster.pause(follower)
    try:
        # A follower at the leader's log end is never out of sync: a record it cannot fetch makes it lag.
        assert produce_one(isr_cluster.bootstrap, "1", b"lagging") is None
        wait_for(lambda: follower not in partition_state(zk)["isr"], "the paused follower to leave the ISR")
        shrunk = partition_state(zk)
        assert sorted(shrunk["isr"]) == sorted(b for b in (0, 1, 2) if b != follower)
        assert (shrunk["leader"], shrunk["leader_epoch"]) == (leader, leader_epoch)
        assert produce_one(isr_cluster.bootstrap, "all", b"while-paused") is None
    finally:
        isr_cluster.resume(follower)

    wait_for(lambda: sorted(partition_state(zk)["isr"]) == [0, 1, 2], "the resumed follower to rejoin the ISR")
    rejoined = partition_state(zk)
    assert rejoined["leader"] == leader
    assert produce_one(isr_cluster.bootstrap, "all", b"after") is None


def test_two_replicas_down_refuses_acks_all_and_accepts_acks_1(isr_cluster: KafkaCluster, zk: KazooClient) -> None:
    """With both followers killed the ISR comes down to the leader; acks=all is then answered NOT_ENOUGH_REPLICAS
    (min.insync.replicas=2) while acks=1 is acknowledged."""
    state = create_topic(isr_cluster, zk)
    leader = state["leader"]
    for broker_id in (0, 1, 2):
        if broker_id != leader:
            isr_cluster.kill(broker_id)
    wait_for(lambda: partition_state(zk)["isr"] == [leader], "the ISR to come down to the leader", timeout=90)
    assert partition_state(zk)["leader"] == leader

    bootstrap = isr_cluster.broker(leader).bootstrap
    errors: list[KafkaError | None] = []

    def refused() -> bool:
        errors.append(produce_one(bootstrap, "all", b"acks-all"))
        last = errors[-1]
        return last is not None and last.code() == KafkaError.NOT_ENOUGH_REPLICAS

    # The leader may learn the smaller ISR a moment after ZooKeeper has it: until then acks=all waits and times out.
    wait_for(refused, "acks=all to be refused with NOT_ENOUGH_REPLICAS", timeout=90)
    assert all(e is not None for e in errors), "an acks=all record was acknowledged with one replica"
    assert produce_one(bootstrap, "1", b"acks-1") is None
