"""The broker's life as Kafka's: start-up order, Kafka's thread names, the ZooKeeper tree Kafka 2.8 writes,
a clean shutdown that leaves no thread, and restarts after SIGTERM and SIGKILL with every acknowledged
record still there."""

from __future__ import annotations

import json
import signal
import threading
import time
from pathlib import Path
from typing import cast

import confluent_kafka as ck
import pytest
from confluent_kafka.admin import AdminClient, NewTopic
from kazoo.client import KazooClient

from tests.integration.broker import BrokerProcess
from tests.utils import wait_until_true

pytestmark = pytest.mark.integration


def _in_process_config(zk_connect: str, log_dir: Path) -> dict[str, str]:
    return {
        "broker.id": "0",
        "listeners": "PLAINTEXT://127.0.0.1:0",
        "log.dirs": str(log_dir),
        "zookeeper.connect": zk_connect,
        "num.network.threads": "2",
        "num.io.threads": "2",
        "offsets.topic.replication.factor": "1",
    }


def test_startup_order_threads_and_clean_shutdown(zookeeper, zk_chroot: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Components start in the documented order, run on threads named as Kafka names them, and a shutdown
    stops every one of those threads (the autouse leak guard checks that none is left)."""
    from kafka.server.broker_states import BrokerState
    from kafka.server.kafka_config import KafkaConfig
    from kafka.server.kafka_server import KafkaServer

    config = KafkaConfig.from_props(_in_process_config(zookeeper.connect_string + zk_chroot, tmp_path / "logs"))
    server = KafkaServer(config)
    server.startup()
    try:
        assert server.started_steps == [
            "broker-state-starting",
            "kafka-scheduler",
            "zookeeper",
            "feature-change-listener",
            "cluster-id",
            "log-manager",
            "broker-id",
            "socket-server",
            "replica-manager",
            "kafka-healthcheck",
            "token-manager",
            "kafka-controller",
            "coordinators",
            "authorizer",
            "kafka-apis",
            "dynamic-config",
        ]
        assert server.broker_state is BrokerState.RUNNING
        assert server.bound_port("PLAINTEXT") > 0
        names = {t.name for t in threading.enumerate()}
        expected = {
            "kafka-scheduler-0",
            # Named with the configured port, as Kafka's Acceptor is (0 here: an ephemeral port).
            "kafka-socket-acceptor-PLAINTEXT-PLAINTEXT-0",
            "kafka-network-thread-0-PLAINTEXT-PLAINTEXT-0",
            "kafka-network-thread-0-PLAINTEXT-PLAINTEXT-1",
            "kafka-request-handler-0",
            "kafka-request-handler-1",
            "controller-event-thread",
            # Kafka 2.8's FinalizedFeatureChangeListener, started right after the ZooKeeper client.
            "feature-zk-node-event-process-thread",
            "ExpirationReaper-0-Produce",
            "ExpirationReaper-0-Fetch",
            "ExpirationReaper-0-DeleteRecords",
            "ExpirationReaper-0-topic",
            # The group coordinator's purgatories and its manager's scheduler.
            "ExpirationReaper-0-Heartbeat",
            "ExpirationReaper-0-Rebalance",
            "group-metadata-manager-0",
        }
        assert expected <= names, sorted(expected - names)
    finally:
        server.shutdown()
    # shutdown changed it: mypy would keep the narrowing of the check before.
    assert cast(BrokerState, server.broker_state) is BrokerState.NOT_RUNNING
    assert server.await_shutdown(1)


def test_zookeeper_tree_is_kafka_28s(zookeeper, zk_chroot: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """After start-up the chroot holds Kafka 2.8's persistent paths and its broker, controller and cluster JSON."""
    broker = BrokerProcess(tmp_path, zookeeper.connect_string + zk_chroot)
    broker.start()
    zk = KazooClient(hosts=zookeeper.connect_string + zk_chroot, timeout=10.0)
    zk.start(timeout=10.0)
    try:
        # The controller is elected just after the broker registers.
        wait_until_true(lambda: zk.exists("/controller") is not None, "a controller to be elected")
        for path in [
            "/consumers",
            "/admin/delete_topics",
            "/brokers/ids",
            "/brokers/topics",
            "/brokers/seqid",
            "/config/changes",
            "/config/topics",
            "/config/clients",
            "/config/users",
            "/config/brokers",
            "/config/ips",
            "/isr_change_notification",
            "/log_dir_event_notification",
            "/cluster/id",
            "/controller",
            "/controller_epoch",
        ]:
            assert zk.exists(path), path
        # The controller enables feature versioning at fail-over (inter.broker.protocol.version >= 2.7).
        wait_until_true(lambda: zk.exists("/feature") is not None, "the controller to create /feature")
        assert json.loads(zk.get("/feature")[0]) == {"features": {}, "version": 1, "status": 1}
        broker_json = json.loads(zk.get("/brokers/ids/0")[0])
        assert set(broker_json) == {
            "features",
            "listener_security_protocol_map",
            "endpoints",
            "jmx_port",
            "port",
            "host",
            "version",
            "timestamp",
        }
        assert broker_json["version"] == 5  # `rack` is written only when broker.rack is set, as in Kafka
        assert broker_json["endpoints"] == [f"PLAINTEXT://127.0.0.1:{broker.port}"]
        assert broker_json["listener_security_protocol_map"] == {"PLAINTEXT": "PLAINTEXT"}
        assert (broker_json["host"], broker_json["port"]) == ("127.0.0.1", broker.port)
        controller = json.loads(zk.get("/controller")[0])
        assert set(controller) == {"version", "brokerid", "timestamp"} and controller["brokerid"] == 0
        assert int(zk.get("/controller_epoch")[0]) >= 1
        cluster = json.loads(zk.get("/cluster/id")[0])
        assert cluster["version"] == "1" and len(cluster["id"]) == 22
        meta = (tmp_path / "kafka-logs" / "meta.properties").read_text()
        assert f"cluster.id={cluster['id']}" in meta and "broker.id=0" in meta and "version=0" in meta
    finally:
        zk.stop()
        zk.close()
        assert broker.stop() == 0


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "sigkill"])
def test_restart_keeps_every_acknowledged_record(zookeeper, zk_chroot: str, tmp_path: Path, sig: int) -> None:  # type: ignore[no-untyped-def]
    """Records acknowledged with acks=all are all there after the broker is stopped by SIGTERM or killed by SIGKILL
    and started again at once from the bin script. After SIGKILL the old registration lives until its ZooKeeper
    session times out; the restarted broker waits for it to go away (saying so, with the owner session) and then
    registers, where Kafka 2.8's exits with NodeExistsException."""
    broker = BrokerProcess(
        tmp_path, zookeeper.connect_string + zk_chroot, overrides={"zookeeper.session.timeout.ms": "10000"}
    )
    broker.start()
    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    admin.create_topics([NewTopic("durable", 2, 1)], operation_timeout=30)["durable"].result(30)
    producer = ck.Producer({"bootstrap.servers": broker.bootstrap, "acks": "all", "linger.ms": 5})
    acked: list[tuple[int, int, bytes]] = []

    def on_delivery(err, msg) -> None:  # type: ignore[no-untyped-def]
        if err is None:
            acked.append((msg.partition(), msg.offset(), msg.value()))

    for i in range(1500):
        producer.produce("durable", value=f"v{i}".encode(), partition=i % 2, on_delivery=on_delivery)
    assert producer.flush(30) == 0
    assert len(acked) == 1500
    code = broker.stop(sig)
    assert code == (0 if sig == signal.SIGTERM else -signal.SIGKILL)
    if sig == signal.SIGTERM:
        # A clean stop starts with a controlled shutdown through the controller, as Kafka's does.
        assert "Controlled shutdown succeeded" in broker.console_tail(10**7)
    zk = KazooClient(hosts=zookeeper.connect_string + zk_chroot, timeout=10.0)
    zk.start(timeout=10.0)
    try:
        old_registration = zk.exists("/brokers/ids/0")
        # A clean stop closes the session and its registration with it; a killed broker's stays behind.
        assert (old_registration is None) == (sig == signal.SIGTERM)
        broker.start()
        new_registration = zk.exists("/brokers/ids/0")
        assert new_registration is not None
    finally:
        zk.stop()
        zk.close()
    if old_registration is not None:
        owner = old_registration.ephemeralOwner
        assert new_registration.ephemeralOwner != owner
        assert (
            f"Waiting up to 20000 ms for the registration at /brokers/ids/0 to go away: it is held by ZooKeeper "
            f"session 0x{owner:x}" in broker.console_since_start()
        )
    consumer = ck.Consumer({"bootstrap.servers": broker.bootstrap, "group.id": "unused", "enable.auto.commit": False})
    consumer.assign([ck.TopicPartition("durable", p, 0) for p in (0, 1)])
    got: set[tuple[int | None, int | None, bytes | None]] = set()
    deadline = time.monotonic() + 30
    try:
        while len(got) < len(acked) and time.monotonic() < deadline:
            msg = consumer.poll(0.2)
            if msg is not None and msg.error() is None:
                got.add((msg.partition(), msg.offset(), msg.value()))
    finally:
        consumer.close()
        assert broker.stop() == 0
    assert set(acked) <= got
