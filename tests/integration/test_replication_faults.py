"""The short version of the cluster soak: an idempotent acks=all producer keeps writing while brokers (leaders,
the controller, followers) are SIGKILLed and restarted or paused past their ZooKeeper session and resumed.
Afterwards every acknowledged record is read back exactly once and in order per key, and every ISR is whole.
The long version is tests/bench/replication_soak.py."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from kafka.common.message import ProduceRequestData
from kafka.common.node import Node
from kafka.common.protocol.errors import Errors
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.simple_record import SimpleRecord
from kafka.common.requests.produce_request import ProduceRequest
from kafka.common.utils.time import Time
from kafka.controller.controller_channel_manager import ControllerBrokerChannel
from tests.integration.cluster import ClusterFactory, ClusterView, KafkaCluster
from tests.integration.fault_workload import FaultWorkload
from tests.utils import wait_until_true

SESSION_TIMEOUT_MS = 6000
FAULTS = 4


@pytest.fixture
def fault_cluster(cluster_factory: ClusterFactory) -> KafkaCluster:
    return cluster_factory({"zookeeper.session.timeout.ms": str(SESSION_TIMEOUT_MS), "replica.lag.time.max.ms": "5000"})


def test_acknowledged_records_survive_kills_and_pauses(fault_cluster: KafkaCluster) -> None:
    workload = FaultWorkload(fault_cluster, "soak", seed=1)
    try:
        workload.create_topic()
        workload.start_producing(rate=200)
        for _ in range(FAULTS):
            workload.inject_fault(session_timeout_ms=SESSION_TIMEOUT_MS)
            workload.wait_for_full_isr(120)
        workload.stop_producing()
        outcome = workload.check()
        workload.wait_for_full_isr(60)
    finally:
        workload.stop_producing()
        workload.close()
    assert outcome.acknowledged > 0
    assert outcome.problems == [], f"after {outcome.faults}: {outcome.problems[:20]}"


def test_paused_leader_does_not_acknowledge_what_it_no_longer_leads(
    fault_cluster: KafkaCluster, cluster_view: ClusterView
) -> None:
    """A leader paused (SIGSTOP) past its ZooKeeper session is replaced; an acks=all Produce that reached its
    socket while it was paused is not acknowledged after SIGCONT (the old leader cannot complete it without
    followers, which now fetch from the new leader) and is nowhere to be read; the old leader truncates whatever it
    appended, follows the new one and ends with a log byte-identical to it, writes taken by the new leader
    included."""
    view = cluster_view
    controller = view.controller()
    old = next(b for b in range(3) if b != controller)
    replicas = [old] + [b for b in range(3) if b != old]
    admin = AdminClient({"bootstrap.servers": fault_cluster.bootstrap})
    topic = NewTopic("paused", 1, replica_assignment=[replicas], config={"min.insync.replicas": "2"})
    admin.create_topics([topic])["paused"].result(30)

    def isr_whole() -> bool:
        return view.isr("paused") == [0, 1, 2]

    wait_until_true(isr_whole, "ISR of three", 60, pause=0.2)
    reports: dict[str, Any] = {}

    def report(err: Any, msg: Any) -> None:
        reports[msg.value().decode()] = err

    producer = Producer({"bootstrap.servers": fault_cluster.bootstrap, "acks": "all", "enable.idempotence": True})
    producer.produce("paused", value=b"before", partition=0, on_delivery=report)
    assert producer.flush(30) == 0 and reports == {"before": None}

    # A connection to the leader made before the pause: what is written to it while the broker is stopped
    # waits in its socket, and the broker reads it when it resumes, before it can know it was replaced.
    channel = ControllerBrokerChannel(
        Node(old, "127.0.0.1", fault_cluster.broker(old).port), "stale-client", Time.SYSTEM, 120_000, ""
    )
    channel.connect(10_000)
    records = MemoryRecords.with_records(CompressionType.NONE, SimpleRecord(0, None, b"stale"))
    produce = ProduceRequestData(acks=-1, timeout_ms=60_000)
    produce.topic_data.append(
        ProduceRequestData.TopicProduceData(
            name="paused", partition_data=[ProduceRequestData.PartitionProduceData(index=0, records=records)]
        )
    )
    answer: dict[str, Any] = {}

    def send_stale() -> None:
        try:
            _, response = channel.send_and_receive(ProduceRequest.for_current_magic(produce))
            answer["error"] = Errors.for_code(response.data.responses[0].partition_responses[0].error_code)
        except Exception as e:  # the connection itself failing is an answer too: not an acknowledgement
            answer["error"] = e

    fault_cluster.pause(old)
    sender = threading.Thread(target=send_stale, name="stale-produce")
    sender.start()
    wait_until_true(
        lambda: view.leader("paused") not in (-1, old),
        "a new leader once the paused broker's session expires",
        60,
        pause=0.2,
    )
    new_leader = view.leader("paused")
    # A fresh producer: one with requests in flight to the paused broker waits for them (socket.timeout.ms).
    others = ",".join(fault_cluster.broker(b).bootstrap for b in range(3) if b != old)
    producer = Producer({"bootstrap.servers": others, "acks": "all", "enable.idempotence": True})
    for i in range(50):
        producer.produce("paused", value=f"new-{i}".encode(), partition=0, on_delivery=report)
    assert producer.flush(60) == 0
    assert all(reports[f"new-{i}"] is None for i in range(50))

    fault_cluster.resume(old)
    sender.join(150)
    channel.close()
    assert "error" in answer, "no answer for the write sent to the paused leader"
    assert answer["error"] is not Errors.NONE, "the deposed leader acknowledged an acks=all write"

    wait_until_true(isr_whole, "the old leader back in the ISR", 120, pause=0.2)
    consumer = Consumer({"bootstrap.servers": fault_cluster.bootstrap, "group.id": "unused"})
    try:
        _, high = consumer.get_watermark_offsets(TopicPartition("paused", 0), timeout=30)
        consumer.assign([TopicPartition("paused", 0, 0)])
        read: list[str] = []
        deadline = time.monotonic() + 60
        while len(read) < high:
            assert time.monotonic() < deadline, f"read {len(read)} of {high}"
            msg = consumer.poll(0.5)
            if msg is not None and msg.error() is None:
                value = msg.value()
                assert value is not None
                read.append(value.decode())
    finally:
        consumer.close()
    assert read == ["before"] + [f"new-{i}" for i in range(50)]

    def same_log() -> bool:
        mine = fault_cluster.broker(old).log_dir / "paused-0"
        theirs = fault_cluster.broker(new_leader).log_dir / "paused-0"
        return all(
            (mine / name).read_bytes() == (theirs / name).read_bytes()
            for name in ("00000000000000000000.log", "leader-epoch-checkpoint")
        )

    wait_until_true(same_log, "the old leader's log byte-identical to the new leader's", 60, pause=0.5)
