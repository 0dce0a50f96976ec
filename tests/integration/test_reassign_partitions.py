"""kafka-reassign-partitions.sh, kafka-log-dirs.sh and the reassignment columns of kafka-topics.sh run as a user
runs them, against three brokers of ours started from the bin scripts (the `cluster` fixture); every outcome is
checked independently with confluent-kafka (librdkafka) where it can be: replicas, leaders, configs, records."""

from __future__ import annotations

import json
import socket
import struct
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import confluent_kafka as ck
import pytest
from confluent_kafka import TopicCollection
from confluent_kafka.admin import AdminClient, ConfigResource, ResourceType

from kafka.clients.admin.admin import Admin
from kafka.clients.admin.new_partition_reassignment import NewPartitionReassignment
from kafka.common.errors import (
    InvalidReplicaAssignmentException,
    NoReassignmentInProgressException,
    UnknownTopicOrPartitionException,
)
from kafka.common.kafka_future import ExecutionException
from kafka.common.message import AlterPartitionReassignmentsRequestData, ListPartitionReassignmentsRequestData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.message import ByteBufferAccessor
from kafka.common.requests.abstract_request import request_class
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.request_header import RequestHeader
from kafka.common.topic_partition import TopicPartition
from tests.integration.cluster import KafkaCluster
from tests.utils import wait_until_true

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
BIN = ROOT / "bin"


@dataclass
class Run:
    status: int
    out: str
    err: str

    @property
    def lines(self) -> list[str]:
        return self.out.splitlines()


def tool(script: str, *args: str, timeout: float = 90) -> Run:
    done = subprocess.run([str(BIN / script), *args], capture_output=True, text=True, timeout=timeout)
    assert "Traceback" not in done.stderr + done.stdout, done.stderr + done.stdout
    return Run(done.returncode, done.stdout, done.stderr)


def reassign(cluster: KafkaCluster, *args: str) -> Run:
    return tool("kafka-reassign-partitions.sh", "--bootstrap-server", cluster.bootstrap, *args)


def reassignment_file(path: Path, parts: dict[tuple[str, int], list[int]]) -> str:
    path.write_text(
        json.dumps(
            {"version": 1, "partitions": [{"topic": t, "partition": p, "replicas": r} for (t, p), r in parts.items()]}
        )
    )
    return str(path)


def describe(admin: Any, topic: str) -> Any:
    return admin.describe_topics(TopicCollection([topic]))[topic].result(30)


def replicas_of(admin: Any, topic: str) -> dict[int, list[int]]:
    return {p.id: [r.id for r in p.replicas] for p in describe(admin, topic).partitions}


def leaders_of(admin: Any, topic: str) -> dict[int, int | None]:
    return {p.id: (p.leader.id if p.leader is not None else None) for p in describe(admin, topic).partitions}


def config_value(admin: Any, resource: ConfigResource, name: str) -> str | None:
    entries = admin.describe_configs([resource])[resource].result(30)
    entry = entries.get(name)
    return None if entry is None else entry.value


def verify_until_complete(cluster: KafkaCluster, path: str, timeout: float = 60) -> Run:
    """Runs --verify until no partition of the file is in progress; returns the last run."""
    last: list[Run] = []

    def complete() -> bool:
        run = reassign(cluster, "--verify", "--reassignment-json-file", path)
        assert run.status == 0, run.out + run.err
        last.append(run)
        return "still in progress" not in run.out

    wait_until_true(complete, "the reassignment to complete", timeout=timeout, pause=0.5)
    return last[-1]


def create_topic(cluster: KafkaCluster, topic: str, assignment: str, *extra: str) -> None:
    run = tool(
        "kafka-topics.sh",
        "--bootstrap-server",
        cluster.bootstrap,
        "--create",
        "--topic",
        topic,
        "--replica-assignment",
        assignment,
        *extra,
    )
    assert run.status == 0, run.out + run.err


def test_generate_execute_verify_list_and_bad_input(cluster: KafkaCluster, tmp_path: Path) -> None:
    """--generate proposes, --execute moves a topic from replicas 0,1,2 to 2,1,0, --verify sees it complete and
    clears the throttles, --list and kafka-topics.sh agree, the deprecated --zookeeper mode works, and bad input
    gets Kafka's messages and status 1 with nothing changed."""
    admin = AdminClient({"bootstrap.servers": cluster.bootstrap})
    create_topic(cluster, "moves", "0:1:2,0:1:2,0:1:2")
    wait_until_true(lambda: len(leaders_of(admin, "moves")) == 3, "the topic to be known")

    # --generate: the current assignment, and a proposal over the brokers listed; nothing changes
    topics_file = tmp_path / "topics.json"
    topics_file.write_text(json.dumps({"topics": [{"topic": "moves"}], "version": 1}))
    run = reassign(cluster, "--generate", "--topics-to-move-json-file", str(topics_file), "--broker-list", "0,1,2")
    assert run.status == 0, run.out + run.err
    assert run.lines[0] == "Current partition replica assignment"
    assert json.loads(run.lines[1]) == {
        "version": 1,
        "partitions": [
            {"topic": "moves", "partition": p, "replicas": [0, 1, 2], "log_dirs": ["any", "any", "any"]}
            for p in range(3)
        ],
    }
    assert run.lines[2:4] == ["", "Proposed partition reassignment configuration"]
    proposed = json.loads(run.lines[4])
    assert [sorted(p["replicas"]) for p in proposed["partitions"]] == [[0, 1, 2]] * 3
    assert replicas_of(admin, "moves") == {p: [0, 1, 2] for p in range(3)}

    # --execute with a throttle: the throttle configs appear, the reassignment starts
    target = reassignment_file(tmp_path / "target.json", {("moves", p): [2, 1, 0] for p in range(3)})
    run = reassign(cluster, "--execute", "--reassignment-json-file", target, "--throttle", "100000000")
    assert run.status == 0, run.out + run.err
    assert run.lines[:2] == ["Current partition replica assignment", ""]
    assert "Save this to use as the --reassignment-json-file option during rollback" in run.lines
    assert "The inter-broker throttle limit was set to 100000000 B/s" in run.lines
    assert run.lines[-1] == "Successfully started partition reassignments for moves-0,moves-1,moves-2"
    topic_resource = ConfigResource(ResourceType.TOPIC, "moves")
    # the leaders are throttled on every current replica; a reorder has no follower to throttle
    assert config_value(admin, topic_resource, "leader.replication.throttled.replicas") == (
        "0:0,0:1,0:2,1:0,1:1,1:2,2:0,2:1,2:2"
    )
    broker_resource = ConfigResource(ResourceType.BROKER, "0")
    assert config_value(admin, broker_resource, "leader.replication.throttled.rate") == "100000000"

    # --verify: complete; no reassignment left anywhere, so the throttles go
    run = verify_until_complete(cluster, target)
    assert run.lines[:4] == [
        "Status of partition reassignment:",
        "Reassignment of partition moves-0 is complete.",
        "Reassignment of partition moves-1 is complete.",
        "Reassignment of partition moves-2 is complete.",
    ]
    # the brokers print in the order DescribeCluster lists them
    prefix = "Clearing broker-level throttles on brokers "
    assert run.lines[-2].startswith(prefix) and sorted(run.lines[-2][len(prefix) :].split(",")) == ["0", "1", "2"]
    assert run.lines[-1] == "Clearing topic-level throttles on topic moves"
    assert replicas_of(admin, "moves") == {p: [2, 1, 0] for p in range(3)}
    assert config_value(admin, topic_resource, "leader.replication.throttled.replicas") in ("", None)
    assert config_value(admin, broker_resource, "leader.replication.throttled.rate") is None
    assert reassign(cluster, "--list").out == "No partition reassignments found.\n"
    described = tool("kafka-topics.sh", "--bootstrap-server", cluster.bootstrap, "--describe", "--topic", "moves")
    assert "\tTopic: moves\tPartition: 0\t" in described.out and "Replicas: 2,1,0" in described.out
    # the preferred leader is now 2: a preferred election moves the leaders there
    run = tool(
        "kafka-leader-election.sh",
        "--bootstrap-server",
        cluster.bootstrap,
        "--election-type",
        "preferred",
        "--topic",
        "moves",
        "--partition",
        "0",
    )
    assert run.status == 0, run.out + run.err
    wait_until_true(lambda: leaders_of(admin, "moves")[0] == 2, "broker 2 to lead moves-0", timeout=30)

    # the deprecated --zookeeper mode: back to 0,1,2 through /admin/reassign_partitions
    zk = ["--zookeeper", cluster.zk_connect]
    back = reassignment_file(tmp_path / "back.json", {("moves", p): [0, 1, 2] for p in range(3)})
    run = tool("kafka-reassign-partitions.sh", *zk, "--execute", "--reassignment-json-file", back)
    assert run.status == 0, run.out + run.err
    assert run.lines[0] == "Warning: --zookeeper is deprecated, and will be removed in a future version of Kafka."
    assert run.lines[-1] == "Successfully started partition reassignments for moves-0,moves-1,moves-2"
    wait_until_true(
        lambda: replicas_of(admin, "moves") == {p: [0, 1, 2] for p in range(3)}, "the znode reassignment", timeout=60
    )
    run = tool("kafka-reassign-partitions.sh", *zk, "--verify", "--reassignment-json-file", back)
    assert run.status == 0, run.out + run.err
    assert "Reassignment of partition moves-2 is complete." in run.lines

    # bad input: Kafka's message, status 1, nothing changed
    cases = [
        ({("moves", 0): [0, 1, 7]}, "Error: Unknown broker id 7"),
        ({("nosuch", 0): [0]}, "Error: org.apache.kafka.common.errors.UnknownTopicOrPartitionException: "),
        ({("moves", 0): [1, 1, 2]}, "Error: Partition replica lists may not contain duplicate entries: "),
    ]
    for parts, message in cases:
        path = reassignment_file(tmp_path / "bad.json", parts)
        run = reassign(cluster, "--execute", "--reassignment-json-file", path, "--throttle", "1000")
        assert run.status == 1, run.out + run.err
        assert run.lines[0].startswith(message), run.out
    run = reassign(
        cluster, "--execute", "--reassignment-json-file", reassignment_file(tmp_path / "p.json", {("moves", 9): [0]})
    )
    assert run.status == 1
    assert run.lines[-2:] == ["Error reassigning partition(s):", "moves-9: The partition does not exist."]
    malformed = tmp_path / "malformed.json"
    malformed.write_text('{"partitions": [{"topic": "moves", "partition": 0, "replicas": [0, 1')
    run = reassign(cluster, "--execute", "--reassignment-json-file", str(malformed))
    assert run.status == 1 and run.lines[0].startswith("Error: "), run.out
    run = tool(
        "kafka-reassign-partitions.sh",
        *zk,
        "--execute",
        "--reassignment-json-file",
        reassignment_file(tmp_path / "zkbad.json", {("moves", 0): [0, 7]}),
    )
    assert run.status == 1
    assert "Error: The proposed assignment contains non-existent brokerIDs: 7" in run.lines
    run = reassign(cluster, "--list", "--throttle", "5")
    assert run.status == 1 and run.err.startswith('Option "[throttle]" can\'t be used with action "[list]"')
    assert reassign(cluster, "--list").out == "No partition reassignments found.\n"
    assert replicas_of(admin, "moves") == {p: [0, 1, 2] for p in range(3)}
    assert config_value(admin, topic_resource, "leader.replication.throttled.replicas") in ("", None)
    assert config_value(admin, broker_resource, "leader.replication.throttled.rate") is None
    run = reassign(cluster, "--cancel", "--reassignment-json-file", back, "--preserve-throttles")
    assert run.lines == [
        "None of the specified partition reassignments are active.",
        "None of the specified partition moves are active.",
    ]

    # kafka-log-dirs.sh: every broker's log directory with its replicas of the topic
    run = tool("kafka-log-dirs.sh", "--describe", "--bootstrap-server", cluster.bootstrap, "--topic-list", "moves")
    assert run.status == 0, run.out + run.err
    assert run.lines[0] == "Querying brokers for log directories information"
    prefix = "Received log directory information from brokers "  # in the order DescribeCluster lists them
    assert run.lines[1].startswith(prefix) and sorted(run.lines[1][len(prefix) :].split(",")) == ["0", "1", "2"]
    doc = json.loads(run.lines[2])
    assert [b["broker"] for b in doc["brokers"]] == [0, 1, 2]  # a Scala HashMap of small ints iterates in order
    for broker in doc["brokers"]:
        ((log_dir,),) = [broker["logDirs"]]
        assert log_dir["logDir"] == str(cluster.broker(broker["broker"]).log_dir)
        assert log_dir["error"] is None
        assert sorted(p["partition"] for p in log_dir["partitions"]) == ["moves-0", "moves-1", "moves-2"]


def raw_request(port: int, api_key: ApiKeys, data: Any) -> Any:
    """Sends one v0 request on a fresh connection and returns the parsed response."""
    header = RequestHeader.of(api_key, 0, "raw-test", 1)
    payload = bytes(request_class(api_key)(data, 0).serialize_with_header(header))
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(struct.pack(">i", len(payload)) + payload)
        size = struct.unpack(">i", sock.recv(4, socket.MSG_WAITALL))[0]
        frame = sock.recv(size, socket.MSG_WAITALL)
    return AbstractResponse.parse_response(ByteBufferAccessor(memoryview(frame)), header)


def test_reassignment_apis_answer_kafkas_errors(cluster: KafkaCluster) -> None:
    """AlterPartitionReassignments and ListPartitionReassignments through our admin client get Kafka's errors per
    partition; a broker that is not the controller answers NOT_CONTROLLER at the top level."""
    admin = AdminClient({"bootstrap.servers": cluster.bootstrap})
    controller = admin.describe_cluster().result(30).controller.id
    create_topic(cluster, "errs", "0:1")
    wait_until_true(lambda: len(leaders_of(admin, "errs")) == 1, "the topic to be known")
    ours = Admin.create({"bootstrap.servers": cluster.bootstrap})
    try:
        tp = TopicPartition("errs", 0)
        cases: list[tuple[Any, type[BaseException], str]] = [
            (None, NoReassignmentInProgressException, ""),
            (NewPartitionReassignment([0, 0]), InvalidReplicaAssignmentException, "Duplicate replica ids"),
            (NewPartitionReassignment([-1]), InvalidReplicaAssignmentException, "Invalid broker id"),
            (NewPartitionReassignment([0, 9]), InvalidReplicaAssignmentException, "brokers that are not alive"),
        ]
        for target, exception, message in cases:
            future = ours.alter_partition_reassignments({tp: target}).values()[tp]
            with pytest.raises(ExecutionException) as info:
                future.get(30_000)
            assert isinstance(info.value.cause, exception), info.value.cause
            assert message in str(info.value.cause)
        result = ours.alter_partition_reassignments({TopicPartition("errs", 5): NewPartitionReassignment([0])})
        with pytest.raises(ExecutionException) as info:
            result.all().get(30_000)
        assert isinstance(info.value.cause, UnknownTopicOrPartitionException)
        assert ours.list_partition_reassignments().reassignments().get(30_000) == {}
    finally:
        ours.close()
    assert replicas_of(admin, "errs") == {0: [0, 1]}

    other = next(b for b in (0, 1, 2) if b != controller)
    port = cluster.broker(other).port
    assert port is not None
    data = AlterPartitionReassignmentsRequestData(
        topics=[
            AlterPartitionReassignmentsRequestData.ReassignableTopic(
                name="errs",
                partitions=[
                    AlterPartitionReassignmentsRequestData.ReassignablePartition(partition_index=0, replicas=[1])
                ],
            )
        ]
    )
    response = raw_request(port, ApiKeys.ALTER_PARTITION_REASSIGNMENTS, data)
    assert response.data.error_code == Errors.NOT_CONTROLLER.code
    response = raw_request(
        port, ApiKeys.LIST_PARTITION_REASSIGNMENTS, ListPartitionReassignmentsRequestData(topics=None)
    )
    assert response.data.error_code == Errors.NOT_CONTROLLER.code
    assert replicas_of(admin, "errs") == {0: [0, 1]}


def test_list_describe_and_cancel_an_ongoing_reassignment(cluster: KafkaCluster, tmp_path: Path) -> None:
    """A reassignment adding a replica on a paused broker stays in progress: --list and --verify say so,
    kafka-topics.sh --describe prints Kafka's Adding Replicas column, --execute refuses without --additional, and
    --cancel ends it, leaving the partition where it was."""
    admin = AdminClient({"bootstrap.servers": cluster.bootstrap})
    controller = admin.describe_cluster().result(30).controller.id
    paused, keep = [b for b in (0, 1, 2) if b != controller][:2]
    create_topic(cluster, "pending", str(keep))
    wait_until_true(lambda: leaders_of(admin, "pending") == {0: keep}, "the topic to be known")
    path = reassignment_file(tmp_path / "pending.json", {("pending", 0): [keep, paused]})
    # The tools talk to the live brokers; a request that lands on the paused one times out soon and is retried.
    bootstrap = f"{cluster.broker(controller).bootstrap},{cluster.broker(keep).bootstrap}"
    command_config = tmp_path / "admin.properties"
    command_config.write_text("request.timeout.ms=3000\n")
    live = ["--bootstrap-server", bootstrap, "--command-config", str(command_config)]
    cluster.pause(paused)
    try:
        run = tool("kafka-reassign-partitions.sh", *live, "--execute", "--reassignment-json-file", path)
        assert run.status == 0, run.out + run.err
        run = tool("kafka-reassign-partitions.sh", *live, "--list")
        assert run.lines == [
            "Current partition reassignments:",
            f"pending-0: replicas: {keep},{paused}. adding: {paused}.",
        ]
        run = tool("kafka-reassign-partitions.sh", *live, "--verify", "--reassignment-json-file", path)
        assert run.lines[:2] == [
            "Status of partition reassignment:",
            "Reassignment of partition pending-0 is still in progress.",
        ]
        assert "Clearing" not in run.out
        described = tool("kafka-topics.sh", *live, "--describe", "--topic", "pending")
        assert (
            f"\tReplicas: {keep},{paused}\tIsr: {keep}\tAdding Replicas: {paused}\tRemoving Replicas: " in described.out
        ), described.out
        under = tool("kafka-topics.sh", *live, "--describe", "--topic", "pending", "--under-replicated-partitions")
        assert under.out == ""  # the replica being added does not count
        run = tool("kafka-reassign-partitions.sh", *live, "--execute", "--reassignment-json-file", path)
        assert run.status == 1
        assert run.out.startswith("Cannot execute because there is an existing partition assignment.")
        # (broker-level throttles are cleared on each broker, which the paused one cannot answer: kept here)
        run = tool(
            "kafka-reassign-partitions.sh", *live, "--cancel", "--reassignment-json-file", path, "--preserve-throttles"
        )
        assert run.status == 0, run.out + run.err
        assert run.lines[0] == "Successfully cancelled partition reassignment for: pending-0"
        assert tool("kafka-reassign-partitions.sh", *live, "--list").out == "No partition reassignments found.\n"
    finally:
        cluster.resume(paused)
    wait_until_true(lambda: replicas_of(admin, "pending") == {0: [keep]}, "the cancel to restore the replicas")


def test_move_with_throttle_while_producing(cluster: KafkaCluster, tmp_path: Path) -> None:
    """With an idempotent acks=all producer running, a throttled reassignment moves one partition to brokers
    that have none of its data (they must catch up by replication) and shrinks another from 3 replicas to 2
    (its leader removed); every acknowledged record is read back afterwards, and --verify clears the throttles."""
    admin = AdminClient({"bootstrap.servers": cluster.bootstrap})
    create_topic(cluster, "grow", "0")
    create_topic(cluster, "shrink", "0:1:2")
    wait_until_true(lambda: leaders_of(admin, "grow") == {0: 0} and leaders_of(admin, "shrink") == {0: 0}, "the topics")
    acked: list[tuple[str, bytes]] = []
    errors: list[Any] = []
    stop = threading.Event()

    def produce() -> None:
        producer = ck.Producer(
            {"bootstrap.servers": cluster.bootstrap, "enable.idempotence": True, "acks": "all", "linger.ms": 5}
        )

        def on_delivery(err: Any, msg: Any) -> None:
            if err is not None:
                errors.append(err)
            else:
                acked.append((msg.topic(), msg.value()))

        i = 0
        while not stop.is_set():
            producer.produce(("grow", "shrink")[i % 2], value=f"record-{i}".encode(), on_delivery=on_delivery)
            producer.poll(0)
            i += 1
            time.sleep(0.002)
        producer.flush(60)

    thread = threading.Thread(target=produce, name="test-producer")
    thread.start()
    topic_resource = ConfigResource(ResourceType.TOPIC, "grow")
    try:
        wait_until_true(lambda: len(acked) > 500, "records to be acknowledged", timeout=30)
        path = reassignment_file(tmp_path / "busy.json", {("grow", 0): [1, 2], ("shrink", 0): [2, 1]})
        run = reassign(cluster, "--execute", "--reassignment-json-file", path, "--throttle", "10000000")
        assert run.status == 0, run.out + run.err
        assert "The inter-broker throttle limit was set to 10000000 B/s" in run.lines
        assert config_value(admin, topic_resource, "follower.replication.throttled.replicas") == "0:1,0:2"
        assert config_value(admin, topic_resource, "leader.replication.throttled.replicas") == "0:0"
        run = verify_until_complete(cluster, path, timeout=120)
        assert "Clearing topic-level throttles on topics grow,shrink" in run.lines
        assert replicas_of(admin, "grow") == {0: [1, 2]} and replicas_of(admin, "shrink") == {0: [2, 1]}
        count = len(acked)
        wait_until_true(lambda: len(acked) > count + 200, "more records after the move", timeout=30)
    finally:
        stop.set()
        thread.join(90)
    assert not errors, errors[:5]
    assert config_value(admin, topic_resource, "follower.replication.throttled.replicas") in ("", None)

    consumer = ck.Consumer(
        {"bootstrap.servers": cluster.bootstrap, "group.id": "busy-check", "auto.offset.reset": "earliest"}
    )
    try:
        consumer.subscribe(["grow", "shrink"])
        seen: list[tuple[str | None, bytes | None]] = []

        def read_all() -> bool:
            for msg in consumer.consume(500, 1.0):
                if msg.error() is None:
                    seen.append((msg.topic(), msg.value()))
            return len(seen) >= len(acked)

        wait_until_true(read_all, "every acknowledged record to be read", timeout=90)
    finally:
        consumer.close()
    assert sorted(seen) == sorted(acked)
