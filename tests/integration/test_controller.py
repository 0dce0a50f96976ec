"""The controller against a real ZooKeeper, talking to fake brokers over real sockets: election and failover,
topic creation, deletion, broker failure and return, controlled shutdown, preferred election and AlterIsr."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from kafka.api.leader_and_isr import LeaderAndIsr
from kafka.common.election_type import ElectionType
from kafka.common.errors import StaleBrokerEpochException
from kafka.common.message import AlterPartitionRequestData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import Uuid
from kafka.common.requests.api_error import ApiError
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import Time
from kafka.controller.kafka_controller import KafkaController
from kafka.server.kafka_config import KafkaConfig
from kafka.zk.kafka_zk_client import KafkaZkClient
from kafka.zk.zk_data import BrokerInfo, ControllerZNode, DeleteTopicsTopicZNode, TopicZNode
from tests.integration.zookeeper import ZooKeeperServer
from tests.unit.kafka.controller.controller_fakes import broker
from tests.unit.kafka.controller.fake_broker import FakeBroker
from tests.utils import wait_until_true

pytestmark = pytest.mark.integration

TIMEOUT = 20.0


class Cluster:
    """ZooKeeper clients, fake brokers and controllers of one test, all closed at the end."""

    def __init__(self, zookeeper: ZooKeeperServer, chroot: str) -> None:
        self.connect = zookeeper.connect_string + chroot
        self._clients: list[KafkaZkClient] = []
        self.brokers: dict[int, FakeBroker] = {}
        self.registrations: dict[int, KafkaZkClient] = {}
        self.controllers: list[tuple[KafkaController, KafkaZkClient]] = []
        KafkaZkClient.create_chroot_path(self.connect, False, 10000, 10000, 10, Time.SYSTEM)
        self.admin = self.zk_client()
        self.admin.create_top_level_paths()

    def zk_client(self) -> KafkaZkClient:
        client = KafkaZkClient.apply(self.connect, False, 10000, 10000, 10, Time.SYSTEM)
        self._clients.append(client)
        return client

    def start_broker(self, broker_id: int) -> FakeBroker:
        fake = FakeBroker(broker_id).start()
        self.brokers[broker_id] = fake
        self.register(broker_id)
        return fake

    def register(self, broker_id: int) -> int:
        """Registers /brokers/ids/N for the fake broker in a session of its own; returns the broker epoch."""
        client = self.zk_client()
        self.registrations[broker_id] = client
        return client.register_broker(BrokerInfo.create(broker(broker_id, self.brokers[broker_id].port), -1))

    def kill_registration(self, broker_id: int) -> None:
        """Ends the broker's ZooKeeper session, so that its ephemeral /brokers/ids/N goes away."""
        self.registrations.pop(broker_id).close()

    def start_controller(self, broker_id: int, **props: Any) -> KafkaController:
        config = KafkaConfig(
            {
                "broker.id": broker_id,
                "zookeeper.connect": self.connect,
                "auto.leader.rebalance.enable": "false",
                **props,
            }
        )
        client = self.zk_client()
        port = self.brokers[broker_id].port if broker_id in self.brokers else 9092
        controller = KafkaController(config, client, Time.SYSTEM, BrokerInfo.create(broker(broker_id, port), -1), 0)
        self.controllers.append((controller, client))
        controller.startup()
        return controller

    def stop_controller(self, controller: KafkaController) -> None:
        for i, (c, client) in enumerate(self.controllers):
            if c is controller:
                del self.controllers[i]
                c.shutdown()
                client.close()
                return

    def create_topic(self, topic: str, assignment: dict[int, list[int]]) -> Uuid:
        topic_id = Uuid.random_uuid()
        self.admin.create_topic_assignment(
            topic, topic_id, {TopicPartition(topic, p): replicas for p, replicas in assignment.items()}
        )
        return topic_id

    def leader_and_isr(self, tp: TopicPartition) -> LeaderAndIsr | None:
        state = self.admin.get_topic_partition_state(tp)
        return None if state is None else state.leader_and_isr

    def wait_for_state(self, tp: TopicPartition, leader: int, isr: tuple[int, ...]) -> LeaderAndIsr:
        found: list[LeaderAndIsr] = []

        def check() -> bool:
            lai = self.leader_and_isr(tp)
            if lai is not None and lai.leader == leader and lai.isr == isr:
                found.append(lai)
                return True
            return False

        wait_until_true(check, f"{tp} to have leader {leader} and isr {isr}", timeout=TIMEOUT)
        return found[0]

    def close(self) -> None:
        for controller, client in reversed(self.controllers):
            controller.shutdown()
            client.close()
        for client in self._clients:
            client.close()
        for fake in self.brokers.values():
            fake.stop()


@pytest.fixture
def cluster(zookeeper: ZooKeeperServer, zk_chroot: str) -> Iterator[Cluster]:
    c = Cluster(zookeeper, zk_chroot)
    try:
        yield c
    finally:
        c.close()


class Answer:
    """A callback that keeps the value it is called with, for the test to wait on."""

    def __init__(self) -> None:
        self._called = threading.Event()
        self.value: Any = None

    def __call__(self, value: Any) -> None:
        self.value = value
        self._called.set()

    def get(self) -> Any:
        assert self._called.wait(TIMEOUT), "callback not called"
        return self.value


def alter_isr_request(controller: KafkaController, current: LeaderAndIsr, new_isr: list[int]) -> Any:
    """An AlterIsr from broker 1 for partition c-0, based on `current` (its leader epoch and zk version)."""
    request = AlterPartitionRequestData(
        broker_id=1, broker_epoch=controller.controller_context.live_broker_id_and_epochs[1]
    )
    partition = AlterPartitionRequestData.PartitionData(
        partition_index=0, leader_epoch=current.leader_epoch, new_isr=new_isr, partition_epoch=current.zk_version
    )
    request.topics.append(AlterPartitionRequestData.TopicData(topic_name="c", partitions=[partition]))
    return request


def _has_partition(tp: TopicPartition) -> Callable[[Any], bool]:
    return lambda request: any(
        (s.topic_name, s.partition_index) == (tp.topic, tp.partition) for s in request.partition_states()
    )


def test_controller_election_and_failover(cluster: Cluster) -> None:
    """The first controller writes /controller and bumps /controller_epoch; a second one stays inactive and takes
    over with the next epoch once the first one's session ends."""
    first = cluster.start_controller(1)
    wait_until_true(lambda: first.is_active, "broker 1 to become controller", timeout=TIMEOUT)
    assert cluster.admin.get_controller_id() == 1
    epoch = cluster.admin.get_controller_epoch()
    assert epoch is not None and epoch[0] == 1
    assert first.epoch == 1
    data, _ = cluster.admin.get_data_and_version(ControllerZNode.path)
    assert ControllerZNode.decode(data) == 1

    second = cluster.start_controller(2)
    wait_until_true(lambda: second.active_controller_id == 1, "broker 2 to see controller 1", timeout=TIMEOUT)
    assert not second.is_active

    cluster.stop_controller(first)  # its session ends and /controller goes with it
    wait_until_true(lambda: second.is_active, "broker 2 to take over", timeout=TIMEOUT)
    assert cluster.admin.get_controller_id() == 2
    epoch = cluster.admin.get_controller_epoch()
    assert epoch is not None and epoch[0] == 2
    assert second.epoch == 2


def test_session_expiry_makes_the_controller_resign_and_run_again(cluster: Cluster) -> None:
    """When the controller's ZooKeeper session is replaced it resigns, registers its broker again (new broker
    epoch) and wins the election again with the next controller epoch."""
    fake = FakeBroker(1).start()  # registered below by the controller's own session, as a broker does
    cluster.brokers[1] = fake
    controller = cluster.start_controller(1)
    client = cluster.controllers[-1][1]
    first_broker_epoch = client.register_broker(BrokerInfo.create(broker(1, fake.port), -1))
    wait_until_true(lambda: controller.is_active and controller.epoch == 1, "controller elected", timeout=TIMEOUT)

    client.zoo_keeper_client.force_reinitialize()

    wait_until_true(lambda: controller.is_active and controller.epoch == 2, "controller re-elected", timeout=TIMEOUT)
    assert controller.broker_epoch > first_broker_epoch
    registered = cluster.admin.get_all_broker_and_epochs_in_cluster()
    assert {b.id: e for b, e in registered.items()} == {1: controller.broker_epoch}
    epoch = cluster.admin.get_controller_epoch()
    assert epoch is not None and epoch[0] == 2
    fake.wait_for(ApiKeys.UPDATE_METADATA, lambda r: r.controller_epoch() == 2)


def test_new_topic_gets_leaders_and_brokers_are_told(cluster: Cluster) -> None:
    """Creating a topic znode makes the controller write each partition's state (first live replica leads, the
    live replicas form the ISR) and send LeaderAndIsr and UpdateMetadata to the brokers."""
    b1 = cluster.start_broker(1)
    b2 = cluster.start_broker(2)
    controller = cluster.start_controller(1)
    wait_until_true(lambda: controller.is_active, "controller elected", timeout=TIMEOUT)
    b1.wait_for(ApiKeys.UPDATE_METADATA)  # the failover's metadata to every live broker

    topic_id = cluster.create_topic("orders", {0: [1, 2], 1: [2, 1], 2: [1, 3]})
    p0, p1, p2 = (TopicPartition("orders", p) for p in range(3))
    cluster.wait_for_state(p0, 1, (1, 2))
    cluster.wait_for_state(p1, 2, (2, 1))
    cluster.wait_for_state(p2, 1, (1,))  # broker 3 is not alive
    state = cluster.admin.get_topic_partition_state(p0)
    assert state is not None and state.controller_epoch == 1 and state.leader_and_isr.leader_epoch == 0

    lai = b1.wait_for(ApiKeys.LEADER_AND_ISR, _has_partition(p2))
    assert lai.version == 5 and lai.controller_id() == 1 and lai.controller_epoch() == 1
    states = {s.partition_index: s for s in lai.partition_states()}
    assert set(states) == {0, 1, 2}
    assert (states[1].leader, states[1].isr, states[1].replicas, states[1].is_new) == (2, [2, 1], [2, 1], True)
    assert lai.topic_ids() == {"orders": topic_id}
    assert {n.broker_id for n in lai.live_leaders()} == {1, 2}
    lai2 = b2.wait_for(ApiKeys.LEADER_AND_ISR, _has_partition(p0))
    assert {s.partition_index for s in lai2.partition_states()} == {0, 1}

    um = b2.wait_for(ApiKeys.UPDATE_METADATA, _has_partition(p2))
    (p2_state,) = [s for s in um.partition_states() if s.partition_index == 2]
    assert (p2_state.leader, p2_state.isr, p2_state.offline_replicas) == (1, [1], [3])
    assert sorted(b.id for b in um.live_brokers()) == [1, 2]
    ports = {b.id: b.endpoints[0].port for b in um.live_brokers()}
    assert ports == {1: b1.port, 2: b2.port}


def test_topic_deletion_stops_replicas_and_removes_znodes(cluster: Cluster) -> None:
    """Marking a topic for deletion sends StopReplica (delete=true) to its replicas and removes its znodes."""
    b1 = cluster.start_broker(1)
    b2 = cluster.start_broker(2)
    controller = cluster.start_controller(1)
    wait_until_true(lambda: controller.is_active, "controller elected", timeout=TIMEOUT)
    cluster.create_topic("doomed", {0: [1, 2], 1: [2]})
    tp0, tp1 = TopicPartition("doomed", 0), TopicPartition("doomed", 1)
    cluster.wait_for_state(tp1, 2, (2,))
    cluster.wait_for_state(tp0, 1, (1, 2))

    cluster.admin.create_delete_topic_path("doomed")

    def deleted_by(fake: FakeBroker) -> set[int]:
        return {
            p.partition_index
            for r in fake.received(ApiKeys.STOP_REPLICA)
            for t in r.request.topic_states()
            for p in t.partition_states
            if p.delete_partition
        }

    wait_until_true(lambda: deleted_by(b1) == {0} and deleted_by(b2) == {0, 1}, "StopReplica with delete")
    wait_until_true(lambda: not cluster.admin.path_exists(TopicZNode.path("doomed")), "topic znode removed")
    wait_until_true(
        lambda: not cluster.admin.path_exists(DeleteTopicsTopicZNode.path("doomed")), "deletion request removed"
    )
    um = b1.wait_for(ApiKeys.UPDATE_METADATA, lambda r: any(s.leader == -2 for s in r.partition_states()))
    assert {s.partition_index for s in um.partition_states() if s.leader == -2} == {0, 1}
    assert "doomed" not in controller.controller_context.all_topics
    assert cluster.admin.get_topic_deletions() == []


def test_broker_failure_takes_partitions_offline_and_back(cluster: Cluster) -> None:
    """When a broker's registration vanishes its partitions elect other leaders or go offline (leader -1); when it
    registers again the offline ones come back with it as leader."""
    b1 = cluster.start_broker(1)
    b2 = cluster.start_broker(2)
    controller = cluster.start_controller(1)
    wait_until_true(lambda: controller.is_active, "controller elected", timeout=TIMEOUT)
    cluster.create_topic("t", {0: [2], 1: [2, 1]})
    only_on_2, shared = TopicPartition("t", 0), TopicPartition("t", 1)
    cluster.wait_for_state(only_on_2, 2, (2,))
    cluster.wait_for_state(shared, 2, (2, 1))

    cluster.kill_registration(2)
    offline = cluster.wait_for_state(only_on_2, -1, (2,))
    moved = cluster.wait_for_state(shared, 1, (1,))
    assert offline.leader_epoch == 1 and moved.leader_epoch == 1
    lai = b1.wait_for(
        ApiKeys.LEADER_AND_ISR, lambda r: any(s.leader == 1 and s.partition_index == 1 for s in r.partition_states())
    )
    assert lai.controller_epoch() == 1
    wait_until_true(lambda: controller.offline_partition_count == 1, "one offline partition", timeout=TIMEOUT)

    seen_before = len(b2.received(ApiKeys.LEADER_AND_ISR))
    cluster.register(2)
    back = cluster.wait_for_state(only_on_2, 2, (2,))
    assert back.leader_epoch == 2
    wait_until_true(lambda: len(b2.received(ApiKeys.LEADER_AND_ISR)) > seen_before, "broker 2 told of its replicas")
    wait_until_true(lambda: controller.offline_partition_count == 0, "no offline partitions", timeout=TIMEOUT)
    assert cluster.leader_and_isr(shared) == moved  # still led by broker 1: no automatic rebalance


def test_controlled_shutdown_preferred_election_and_alter_isr(cluster: Cluster) -> None:
    """Controlled shutdown moves leadership off a broker; a preferred election moves it back; an AlterIsr from the
    leader changes the ISR in ZooKeeper with a zk version check."""
    cluster.start_broker(1)
    cluster.start_broker(2)
    controller = cluster.start_controller(1)
    wait_until_true(lambda: controller.is_active, "controller elected", timeout=TIMEOUT)
    cluster.create_topic("c", {0: [2, 1]})
    tp = TopicPartition("c", 0)
    cluster.wait_for_state(tp, 2, (2, 1))
    broker_epoch_2 = controller.controller_context.live_broker_id_and_epochs[2]

    shutdown = Answer()
    controller.controlled_shutdown(2, broker_epoch_2, shutdown)
    assert shutdown.get() == set()  # broker 2 leads nothing any more
    cluster.wait_for_state(tp, 1, (1,))

    stale = Answer()
    controller.controlled_shutdown(2, broker_epoch_2 - 1, stale)
    assert isinstance(stale.get(), StaleBrokerEpochException)

    # Broker 1, now the leader, adds broker 2 back to the ISR (AlterIsr; version 1 names topics).
    lai = cluster.leader_and_isr(tp)
    assert lai is not None
    alter = Answer()
    controller.alter_partitions(alter_isr_request(controller, lai, [1, 2]), alter, 1)
    (topic_resp,) = alter.get().topics
    (part_resp,) = topic_resp.partitions
    assert (topic_resp.topic_name, part_resp.error_code, part_resp.leader_id, part_resp.isr) == ("c", 0, 1, [1, 2])
    assert part_resp.partition_epoch == lai.zk_version + 1
    assert cluster.leader_and_isr(tp) == LeaderAndIsr(1, lai.leader_epoch, (1, 2), lai.zk_version + 1)

    # The same request again finds the partition in that state already and is answered with it.
    again = Answer()
    controller.alter_partitions(alter_isr_request(controller, lai, [1, 2]), again, 1)
    assert again.get().topics[0].partitions[0].error_code == Errors.NONE.code
    # A different ISR based on the old zk version is refused.
    outdated = Answer()
    controller.alter_partitions(alter_isr_request(controller, lai, [1]), outdated, 1)
    assert outdated.get().topics[0].partitions[0].error_code == Errors.INVALID_UPDATE_VERSION.code
    # An old leader epoch is fenced.
    fenced = Answer()
    old_epoch = LeaderAndIsr(1, lai.leader_epoch - 1, lai.isr, lai.zk_version + 1)
    controller.alter_partitions(alter_isr_request(controller, old_epoch, [1]), fenced, 1)
    assert fenced.get().topics[0].partitions[0].error_code == Errors.FENCED_LEADER_EPOCH.code
    cluster.wait_for_state(tp, 1, (1, 2))

    # Broker 2 is still shutting down until it registers again, so it cannot be elected.
    unavailable = Answer()
    controller.elect_leaders([tp], ElectionType.PREFERRED, unavailable)
    result = unavailable.get()[tp]
    assert isinstance(result, ApiError) and result.error == Errors.PREFERRED_LEADER_NOT_AVAILABLE

    # After a restart (a new registration) broker 2 is the preferred leader again.
    cluster.kill_registration(2)
    wait_until_true(lambda: 2 not in controller.controller_context.live_or_shutting_down_broker_ids, "broker 2 gone")
    cluster.register(2)
    wait_until_true(lambda: 2 in controller.controller_context.live_broker_ids, "broker 2 back")
    lai = cluster.wait_for_state(tp, 1, (1,))
    rejoin = Answer()
    controller.alter_partitions(alter_isr_request(controller, lai, [1, 2]), rejoin, 1)
    assert rejoin.get().topics[0].partitions[0].error_code == Errors.NONE.code
    preferred = Answer()
    controller.elect_leaders([tp], ElectionType.PREFERRED, preferred)
    assert preferred.get() == {tp: 2}
    cluster.wait_for_state(tp, 2, (1, 2))
    not_needed = Answer()
    controller.elect_leaders([tp, TopicPartition("c", 9)], ElectionType.PREFERRED, not_needed)
    answers = not_needed.get()
    assert answers[tp].error == Errors.ELECTION_NOT_NEEDED
    assert answers[TopicPartition("c", 9)].error == Errors.UNKNOWN_TOPIC_OR_PARTITION


def test_partition_reassignment_through_the_api_completes_when_the_isr_catches_up(cluster: Cluster) -> None:
    """An API reassignment from [1] to [2] writes the interim assignment, starts broker 2's replica, and once the
    leader reports broker 2 in the ISR moves leadership to it, deletes the old replica and writes [2]."""
    b1 = cluster.start_broker(1)
    cluster.start_broker(2)
    controller = cluster.start_controller(1)
    wait_until_true(lambda: controller.is_active, "controller elected", timeout=TIMEOUT)
    topic_id = cluster.create_topic("c", {0: [1]})
    tp = TopicPartition("c", 0)
    lai = cluster.wait_for_state(tp, 1, (1,))

    started = Answer()
    controller.alter_partition_reassignments({tp: [2]}, started)
    assert started.get() == {tp: ApiError.NONE}
    interim = cluster.admin.get_full_replica_assignment_for_topics({"c"})[tp]
    assert (tuple(interim.replicas), tuple(interim.adding_replicas), tuple(interim.removing_replicas)) == (
        (2, 1),
        (2,),
        (1,),
    )
    listed = Answer()
    controller.list_partition_reassignments(None, listed)
    assert set(listed.get()) == {tp}
    lai = cluster.wait_for_state(tp, 1, (1,))
    assert lai.leader_epoch == 1  # bumped so that the leader learns of the new replica

    caught_up = Answer()
    controller.alter_partitions(alter_isr_request(controller, lai, [1, 2]), caught_up, 1)
    assert caught_up.get().topics[0].partitions[0].error_code == Errors.NONE.code
    cluster.wait_for_state(tp, 2, (2,))
    wait_until_true(
        lambda: tuple(cluster.admin.get_full_replica_assignment_for_topics({"c"})[tp].replicas) == (2,),
        "assignment [2] written",
        timeout=TIMEOUT,
    )
    assert cluster.admin.get_topic_ids_for_topics({"c"}) == {"c": topic_id}
    stop = b1.wait_for(ApiKeys.STOP_REPLICA, lambda r: any(s.delete_partition for s in r.partition_states().values()))
    assert ("c", 0) in stop.partition_states()
    done = Answer()
    controller.list_partition_reassignments(None, done)
    assert done.get() == {}
