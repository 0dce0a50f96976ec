"""A broker whose ZooKeeper session expires: it registers again on a new session, its controller is elected again,
and clients keep producing to and consuming from a topic created before the expiry.

Name resolution of the ZooKeeper hosts is made slow after the expiry (as with a slow DNS server), so the broker's first
requests on its new session are reliably made before that session starts connecting: they must wait for it."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import confluent_kafka as ck
import pytest
from confluent_kafka.admin import AdminClient, NewTopic
from kazoo.client import KazooClient
from kazoo.protocol.connection import ConnectionHandler

from kafka.server.kafka_config import KafkaConfig
from kafka.server.kafka_server import KafkaServer
from kafka.zookeeper.zoo_keeper_client import ZooKeeperClient
from tests.integration.zookeeper import ZooKeeperServer
from tests.utils import wait_until_true

pytestmark = pytest.mark.integration

TIMEOUT = 30.0
TOPIC = "before-expiry"
RESOLUTION_DELAY_S = 1.0


@pytest.fixture
def slow_resolution(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """Once set, every kazoo connection attempt resolves its hosts `RESOLUTION_DELAY_S` late."""
    slow = threading.Event()
    expand = ConnectionHandler._expand_client_hosts

    def slow_expand(self: ConnectionHandler) -> Any:
        if slow.is_set():
            time.sleep(RESOLUTION_DELAY_S)
        return expand(self)

    monkeypatch.setattr(ConnectionHandler, "_expand_client_hosts", slow_expand)
    return slow


def _expire_session(zookeeper: ZooKeeperServer, zk_client: ZooKeeperClient) -> int:
    """Ends the client's session from a second connection with the same session id and password (the server then
    expires the first one); returns the id of the ended session."""
    zoo_keeper = zk_client.current_zoo_keeper()
    session_id = zoo_keeper.session_id
    assert session_id != 0
    other = KazooClient(hosts=zookeeper.connect_string, client_id=(session_id, zoo_keeper.session_password))
    other.start(timeout=10.0)
    other.stop()
    other.close()
    return session_id


def _produce(bootstrap: str, values: list[bytes]) -> None:
    producer = ck.Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 5})
    delivered: list[bytes] = []
    errors: list[object] = []

    def on_delivery(err: object, msg: Any) -> None:
        if err is None:
            delivered.append(msg.value())
        else:
            errors.append(err)

    for value in values:
        producer.produce(TOPIC, value=value, partition=0, on_delivery=on_delivery)
    assert producer.flush(TIMEOUT) == 0
    assert errors == []
    assert delivered == values


def _consume_all(bootstrap: str, expected: int) -> list[bytes | None]:
    consumer = ck.Consumer({"bootstrap.servers": bootstrap, "group.id": "unused", "enable.auto.commit": False})
    consumer.assign([ck.TopicPartition(TOPIC, 0, 0)])
    got: list[bytes | None] = []
    deadline = time.monotonic() + TIMEOUT
    try:
        while len(got) < expected and time.monotonic() < deadline:
            msg = consumer.poll(0.2)
            if msg is not None and msg.error() is None:
                got.append(msg.value())
    finally:
        consumer.close()
    return got


def test_broker_registers_again_and_serves_clients_after_session_expiry(
    zookeeper: ZooKeeperServer, zk_chroot: str, tmp_path: Path, slow_resolution: threading.Event
) -> None:
    """After its ZooKeeper session expires the broker owns /brokers/ids/0 again on its new session, its controller
    is active again with a higher epoch, and acks=all produce and fetch of an existing topic still work."""
    zk_connect = zookeeper.connect_string + zk_chroot
    config = KafkaConfig.from_props(
        {
            "broker.id": "0",
            "listeners": "PLAINTEXT://127.0.0.1:0",
            "log.dirs": str(tmp_path / "logs"),
            "zookeeper.connect": zk_connect,
            "num.network.threads": "2",
            "num.io.threads": "2",
            "offsets.topic.replication.factor": "1",
        }
    )
    server = KafkaServer(config)
    observer = KazooClient(hosts=zk_connect, timeout=10.0)
    try:
        server.startup()
        observer.start(timeout=10.0)  # once the broker has created the chroot
        controller = server.kafka_controller
        assert controller is not None
        assert server.zk_client is not None
        zk_client = server.zk_client.zoo_keeper_client
        bootstrap = f"127.0.0.1:{server.bound_port('PLAINTEXT')}"
        wait_until_true(lambda: controller.is_active, "the broker to become controller", timeout=TIMEOUT)
        # Clients find the controller through the metadata the controller has sent to the broker.
        metadata_cache = server.metadata_cache  # set once, at startup
        assert metadata_cache is not None
        wait_until_true(lambda: metadata_cache.get_controller_id() == 0, "the broker to learn the controller", TIMEOUT)

        admin = AdminClient({"bootstrap.servers": bootstrap})
        admin.create_topics([NewTopic(TOPIC, 1, 1)], operation_timeout=TIMEOUT)[TOPIC].result(TIMEOUT)
        before = [f"before-{i}".encode() for i in range(50)]
        _produce(bootstrap, before)

        old_epoch = controller.epoch
        old_broker_epoch = controller.broker_epoch
        stat = observer.exists("/brokers/ids/0")
        assert stat is not None and stat.ephemeralOwner == zk_client.session_id()
        slow_resolution.set()
        old_session = _expire_session(zookeeper, zk_client)
        assert stat.ephemeralOwner == old_session

        def registered_on_new_session() -> bool:
            session = zk_client.session_id()
            stat = observer.exists("/brokers/ids/0")
            return session not in (0, old_session) and stat is not None and stat.ephemeralOwner == session

        wait_until_true(registered_on_new_session, "/brokers/ids/0 owned by the new session", timeout=TIMEOUT)
        wait_until_true(
            lambda: controller.is_active and controller.epoch > old_epoch,
            "the controller to be elected again",
            timeout=TIMEOUT,
        )
        assert controller.broker_epoch > old_broker_epoch
        assert observer.exists("/brokers/ids/0").ephemeralOwner == zk_client.session_id()

        after = [f"after-{i}".encode() for i in range(50)]
        _produce(bootstrap, after)
        assert _consume_all(bootstrap, len(before) + len(after)) == before + after
    finally:
        observer.stop()
        observer.close()
        server.shutdown()
        server.await_shutdown(1)
