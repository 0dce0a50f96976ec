"""The ISR on three brokers from the bin scripts, with ISR changes sent to the controller as AlterIsr (the default
inter.broker.protocol.version): a paused follower leaves the ISR after replica.lag.time.max.ms and comes back after
SIGCONT, both by the leader's AlterIsr (same leader epoch, no election); with two of three replicas gone, acks=all
is refused with NOT_ENOUGH_REPLICAS while acks=1 is still written."""

from __future__ import annotations

import json
from typing import Any

import pytest
from confluent_kafka import KafkaError, Producer
from confluent_kafka.admin import AdminClient, NewTopic

from kafka.common.message import (
    AlterPartitionRequestData,
    FetchRequestData,
    LeaderAndIsrRequestData,
    StopReplicaRequestData,
)
from kafka.common.node import Node
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import Uuid
from kafka.common.requests.abstract_request import DataBuilder
from kafka.common.requests.alter_partition_request import AlterPartitionRequest
from kafka.common.requests.fetch_request import FetchRequest
from kafka.common.requests.leader_and_isr_request import LeaderAndIsrRequestBuilder
from kafka.common.requests.stop_replica_request import StopReplicaRequestBuilder
from kafka.common.requests.update_metadata_request import UpdateMetadataRequestBuilder
from kafka.common.utils.time import SystemTime
from kafka.controller.controller_channel_manager import ControllerBrokerChannel
from tests.integration.cluster import ClusterFactory, ClusterView, KafkaCluster
from tests.utils import wait_until_true

TOPIC = "isr"
LAG_MS = 3000
SESSION_TIMEOUT_MS = 6000


@pytest.fixture
def isr_cluster(request: pytest.FixtureRequest, cluster_factory: ClusterFactory) -> KafkaCluster:
    """The `cluster` fixture's three brokers with a short replica.lag.time.max.ms (and a session timeout that lets
    a lost broker be noticed within the test); an indirect parameter sets inter.broker.protocol.version."""
    overrides = {
        "replica.lag.time.max.ms": str(LAG_MS),
        "zookeeper.session.timeout.ms": str(SESSION_TIMEOUT_MS),
    }
    ibp = getattr(request, "param", None)
    if ibp is not None:
        overrides["inter.broker.protocol.version"] = ibp
    return cluster_factory(overrides)


def create_topic(cluster: KafkaCluster, view: ClusterView) -> dict[str, Any]:
    """RF=3, min.insync.replicas=2; returns the partition state once its ISR is whole."""
    admin = AdminClient({"bootstrap.servers": cluster.bootstrap})
    admin.create_topics([NewTopic(TOPIC, num_partitions=1, replication_factor=3, config={"min.insync.replicas": "2"})])[
        TOPIC
    ].result(30)
    wait_until_true(lambda: view.has_partition_state(TOPIC), "the partition state", timeout=60)
    wait_until_true(lambda: view.isr(TOPIC) == [0, 1, 2], "the whole ISR", timeout=60)
    return view.partition_state(TOPIC)


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
def test_paused_follower_leaves_the_isr_and_rejoins_after_resume(
    isr_cluster: KafkaCluster, cluster_view: ClusterView
) -> None:
    """A follower stopped with SIGSTOP is taken out of the ISR once it has been behind the leader's log end for
    replica.lag.time.max.ms, by the leader (the leader epoch does not change: no election): through AlterIsr to the
    controller by default, written to ZooKeeper by the leader itself with inter.broker.protocol.version 2.6.
    acks=all keeps working with two in-sync replicas; after SIGCONT the follower catches up and the leader adds it
    back the same way."""
    view = cluster_view
    state = create_topic(isr_cluster, view)
    leader, leader_epoch = state["leader"], state["leader_epoch"]
    followers = [b for b in (0, 1, 2) if b != leader]
    # A follower that is not the controller, if there is one: pausing the controller would add a failover.
    controller = view.controller()
    follower = next((b for b in followers if b != controller), followers[0])
    assert produce_one(isr_cluster.bootstrap, "all", b"before") is None

    isr_cluster.pause(follower)
    try:
        # A follower at the leader's log end is never out of sync: a record it cannot fetch makes it lag.
        assert produce_one(isr_cluster.bootstrap, "1", b"lagging") is None
        wait_until_true(lambda: follower not in view.isr(TOPIC), "the paused follower to leave the ISR", timeout=60)
        shrunk = view.partition_state(TOPIC)
        assert sorted(shrunk["isr"]) == sorted(b for b in (0, 1, 2) if b != follower)
        assert (shrunk["leader"], shrunk["leader_epoch"]) == (leader, leader_epoch)
        assert produce_one(isr_cluster.bootstrap, "all", b"while-paused") is None
    finally:
        isr_cluster.resume(follower)

    wait_until_true(lambda: view.isr(TOPIC) == [0, 1, 2], "the resumed follower to rejoin the ISR", timeout=60)
    rejoined = view.partition_state(TOPIC)
    assert rejoined["leader"] == leader
    assert produce_one(isr_cluster.bootstrap, "all", b"after") is None


def test_two_replicas_down_refuses_acks_all_and_accepts_acks_1(
    isr_cluster: KafkaCluster, cluster_view: ClusterView
) -> None:
    """With both followers killed the ISR comes down to the leader; acks=all is then answered NOT_ENOUGH_REPLICAS
    (min.insync.replicas=2) while acks=1 is acknowledged."""
    view = cluster_view
    state = create_topic(isr_cluster, view)
    leader = state["leader"]
    for broker_id in (0, 1, 2):
        if broker_id != leader:
            isr_cluster.kill(broker_id)
    wait_until_true(lambda: view.isr(TOPIC) == [leader], "the ISR to come down to the leader", timeout=90)
    assert view.leader(TOPIC) == leader

    bootstrap = isr_cluster.broker(leader).bootstrap
    errors: list[KafkaError | None] = []

    def refused() -> bool:
        errors.append(produce_one(bootstrap, "all", b"acks-all"))
        last = errors[-1]
        return last is not None and last.code() == KafkaError.NOT_ENOUGH_REPLICAS

    # The leader may learn the smaller ISR a moment after ZooKeeper has it: until then acks=all waits and times out.
    wait_until_true(refused, "acks=all to be refused with NOT_ENOUGH_REPLICAS", timeout=90)
    assert all(e is not None for e in errors), "an acks=all record was acknowledged with one replica"
    assert produce_one(bootstrap, "1", b"acks-1") is None


# -- stale epochs over the wire ------------------------------------------------------------------------------------


def _send(cluster: KafkaCluster, broker_id: int, builder: Any) -> Any:
    """One inter-broker request to a broker over a plain connection; its parsed response."""
    broker = cluster.broker(broker_id)
    host, port = broker.bootstrap.rsplit(":", 1)
    channel = ControllerBrokerChannel(Node(broker_id, host, int(port)), "isr-test", SystemTime(), 30000, "")
    try:
        channel.connect(10000)
        _header, response = channel.send_and_receive(builder)
        return response
    finally:
        channel.close_all()


def _broker_epoch(view: ClusterView, broker_id: int) -> int:
    stat = view.zk.exists(f"/brokers/ids/{broker_id}")
    assert stat is not None
    return int(stat.czxid)


def _alter_isr(broker_id: int, broker_epoch: int, leader_epoch: int, isr: list[int], partition_epoch: int) -> Any:
    data = AlterPartitionRequestData(
        broker_id=broker_id,
        broker_epoch=broker_epoch,
        topics=[
            AlterPartitionRequestData.TopicData(
                topic_name=TOPIC,
                partitions=[
                    AlterPartitionRequestData.PartitionData(
                        partition_index=0, leader_epoch=leader_epoch, new_isr=isr, partition_epoch=partition_epoch
                    )
                ],
            )
        ],
    )
    return DataBuilder(AlterPartitionRequest, data, 1, 1)


def test_stale_alter_isr_is_refused_and_changes_nothing(cluster: KafkaCluster, cluster_view: ClusterView) -> None:
    """AlterIsr to the controller with a stale broker epoch (STALE_BROKER_EPOCH), an old leader epoch
    (FENCED_LEADER_EPOCH) or an old partition epoch (INVALID_UPDATE_VERSION), or to a broker that is not the
    controller (NOT_CONTROLLER): Kafka's error codes, and the partition state in ZooKeeper is left as it was."""
    view = cluster_view
    state = create_topic(cluster, view)
    _, stat = view.zk.get(f"/brokers/topics/{TOPIC}/partitions/0/state")
    leader, leader_epoch, version = state["leader"], state["leader_epoch"], stat.version
    controller = view.controller()
    epoch = _broker_epoch(view, leader)

    def partition_error(response: Any) -> int:
        [p] = [p for t in response.data.topics for p in t.partitions]
        return int(p.error_code)

    stale_broker = _send(cluster, controller, _alter_isr(leader, epoch - 1, leader_epoch, [leader], version))
    assert stale_broker.data.error_code == Errors.STALE_BROKER_EPOCH.code
    fenced = _send(cluster, controller, _alter_isr(leader, epoch, leader_epoch - 1, [leader], version))
    assert partition_error(fenced) == Errors.FENCED_LEADER_EPOCH.code
    old_version = _send(cluster, controller, _alter_isr(leader, epoch, leader_epoch, [leader], version - 1))
    assert partition_error(old_version) == Errors.INVALID_UPDATE_VERSION.code
    other = next(b for b in (0, 1, 2) if b != controller)
    not_controller = _send(cluster, other, _alter_isr(leader, epoch, leader_epoch, [leader], version))
    assert not_controller.data.error_code == Errors.NOT_CONTROLLER.code

    after, after_stat = view.zk.get(f"/brokers/topics/{TOPIC}/partitions/0/state")
    assert after_stat.version == version and sorted(json.loads(after)["isr"]) == [0, 1, 2]


def test_requests_of_a_stale_controller_are_refused(cluster: KafkaCluster, cluster_view: ClusterView) -> None:
    """LeaderAndIsr, UpdateMetadata and StopReplica carrying a controller epoch older than the broker knows get
    STALE_CONTROLLER_EPOCH: a follower told by the stale controller to lead does not (it still refuses to serve
    as leader), and a StopReplica with delete keeps the replica's log."""
    view = cluster_view
    state = create_topic(cluster, view)
    data, _ = view.zk.get("/controller_epoch")
    controller_epoch = int(data)
    stale_epoch = controller_epoch - 1
    leader, leader_epoch = state["leader"], state["leader_epoch"]
    follower = next(b for b in (0, 1, 2) if b != leader)
    epoch = _broker_epoch(view, follower)
    topic_id = _topic_id(view)
    wait_until_true(lambda: produce_one(cluster.bootstrap, "all", b"x") is None, "a first record", timeout=60)

    become_leader = LeaderAndIsrRequestData.LeaderAndIsrPartitionState(
        topic_name=TOPIC,
        partition_index=0,
        controller_epoch=stale_epoch,
        leader=follower,
        leader_epoch=leader_epoch + 5,
        isr=[follower],
        partition_epoch=10,
        replicas=[0, 1, 2],
    )
    node = Node(follower, *_host_port(cluster, follower))
    response = _send(
        cluster,
        follower,
        LeaderAndIsrRequestBuilder(5, 0, stale_epoch, epoch, [become_leader], {TOPIC: topic_id}, [node]),
    )
    assert response.error() == Errors.STALE_CONTROLLER_EPOCH

    update = UpdateMetadataRequestBuilder(7, 0, stale_epoch, epoch, [], [], {})
    assert _send(cluster, follower, update).error() == Errors.STALE_CONTROLLER_EPOCH

    stop = StopReplicaRequestBuilder(
        3,
        0,
        stale_epoch,
        epoch,
        False,
        [
            StopReplicaRequestData.StopReplicaTopicState(
                topic_name=TOPIC,
                partition_states=[
                    StopReplicaRequestData.StopReplicaPartitionState(
                        partition_index=0, leader_epoch=leader_epoch + 5, delete_partition=True
                    )
                ],
            )
        ],
    )
    assert _send(cluster, follower, stop).error() == Errors.STALE_CONTROLLER_EPOCH
    assert (cluster.broker(follower).log_dir / f"{TOPIC}-0").is_dir()

    # Still a follower: a consumer's fetch (v10) from it is refused as from a non-leader.
    fetch = _send(cluster, follower, _consumer_fetch())
    [partition] = [p for t in fetch.data.responses for p in t.partitions]
    assert partition.error_code == Errors.NOT_LEADER_OR_FOLLOWER.code
    log = (cluster.broker(follower).app_log_dir / "state-change.log").read_text()
    assert "controller epoch" in log and "is old" in log


def _host_port(cluster: KafkaCluster, broker_id: int) -> tuple[str, int]:
    host, port = cluster.broker(broker_id).bootstrap.rsplit(":", 1)
    return host, int(port)


def _topic_id(view: ClusterView) -> Uuid:
    data, _ = view.zk.get(f"/brokers/topics/{TOPIC}")
    return Uuid.from_string(json.loads(data)["topic_id"])


def _consumer_fetch() -> Any:
    data = FetchRequestData(
        replica_id=-1,
        max_wait_ms=0,
        min_bytes=0,
        topics=[
            FetchRequestData.FetchTopic(
                topic=TOPIC, partitions=[FetchRequestData.FetchPartition(partition=0, partition_max_bytes=1 << 20)]
            )
        ],
    )
    # v10: before fetching from followers (KIP-392, v11), a consumer's fetch is served by the leader only.
    return DataBuilder(FetchRequest, data, 10, 10)
