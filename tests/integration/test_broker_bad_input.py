"""Bad input never hurts other clients: garbage, impossible frame sizes, truncated and broken requests, unknown
API keys, thousands of idle connections and a client that sends one byte at a time, all fired while a real
client produces; the broker answers or closes only the offending connection and loses no record."""

from __future__ import annotations

import resource
import socket
import struct
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import cast

import confluent_kafka as ck
import pytest
from confluent_kafka.admin import AdminClient, NewTopic

from kafka.common.message import MetadataRequestData, RequestHeaderData
from tests.integration.broker import BrokerProcess

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def broker(zookeeper, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrokerProcess]:  # type: ignore[no-untyped-def]
    work = Path(tmp_path_factory.mktemp("badinput"))
    b = BrokerProcess(
        work, zookeeper.connect_string + "/bad-" + work.name, overrides={"connections.max.idle.ms": "600000"}
    )
    b.start()
    yield b
    assert b.stop() == 0, b.console_tail()


def _closed_by_peer(sock: socket.socket, timeout: float = 10.0) -> bool:
    """Whether the broker closed this connection (reads EOF) within `timeout`."""
    sock.settimeout(timeout)
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False


def _frame(header: bytes, body: bytes) -> bytes:
    return struct.pack(">i", len(header) + len(body)) + header + body


def _metadata_request(correlation_id: int) -> bytes:
    header = RequestHeaderData(request_api_key=3, request_api_version=1, correlation_id=correlation_id, client_id="t")
    return _frame(header.write(1), MetadataRequestData(topics=None).write(1))


def _connect(broker: BrokerProcess) -> socket.socket:
    return socket.create_connection(("127.0.0.1", broker.port), timeout=10)


BAD_PAYLOADS = {
    "garbage": b"\x13\x37" * 40,
    "max-frame-size": struct.pack(">i", 2**31 - 1) + b"x" * 100,
    "negative-frame-size": struct.pack(">i", -5) + b"x" * 10,
    "unknown-api-key": _frame(struct.pack(">hhi", 999, 0, 1) + b"\x00\x01t", b""),
    "broken-body": _frame(struct.pack(">hhi", 3, 1, 7) + b"\x00\x01t", b"\x7f\xff\xff\xff\x00"),
}


@pytest.mark.parametrize("name", sorted(BAD_PAYLOADS))
def test_bad_frame_closes_only_that_connection(broker: BrokerProcess, name: str) -> None:
    """Each kind of bad frame closes its own connection while another connection keeps being answered."""
    good = _connect(broker)
    bad = _connect(broker)
    try:
        bad.sendall(BAD_PAYLOADS[name])
        assert _closed_by_peer(bad), f"{name}: the broker kept the connection open"
        good.sendall(_metadata_request(42))
        size = struct.unpack(">i", good.recv(4))[0]
        assert size > 0
    finally:
        good.close()
        bad.close()


def test_truncated_request_does_not_block_others(broker: BrokerProcess) -> None:
    """A frame announced at 100 bytes but stopped after 10 leaves only that connection waiting."""
    stuck = _connect(broker)
    good = _connect(broker)
    try:
        stuck.sendall(struct.pack(">i", 100) + b"0123456789")
        good.sendall(_metadata_request(1))
        assert struct.unpack(">i", good.recv(4))[0] > 0
    finally:
        stuck.close()
        good.close()


def test_producer_survives_abuse(broker: BrokerProcess) -> None:
    """While garbage, impossible frames, 5,000 idle connections and a one-byte-at-a-time client hit the broker,
    a confluent-kafka producer's records are all acknowledged and read back."""
    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    admin.create_topics([NewTopic("abused", 1, 1)], operation_timeout=30)["abused"].result(30)

    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    idle_target = min(5000, max(0, soft - 200))
    idle: list[socket.socket] = []
    stop = threading.Event()
    errors: list[BaseException] = []

    def abuse() -> None:
        try:
            for _ in range(3):
                for payload in BAD_PAYLOADS.values():
                    s = _connect(broker)
                    s.sendall(payload)
                    s.close()
            for _ in range(idle_target):
                idle.append(socket.create_connection(("127.0.0.1", broker.port), timeout=10))
            slow = _connect(broker)
            for b in _metadata_request(5):
                if stop.is_set():
                    break
                slow.sendall(bytes([b]))
                time.sleep(0.02)
            slow.settimeout(10)
            assert struct.unpack(">i", slow.recv(4))[0] > 0, "the slow client is answered too"
            slow.close()
        except BaseException as e:
            errors.append(e)

    abuser = threading.Thread(target=abuse, name="test-abuser")
    abuser.start()
    producer = ck.Producer({"bootstrap.servers": broker.bootstrap, "acks": "all", "linger.ms": 5})
    acked: list[bytes] = []
    values = [f"survivor-{i}".encode() for i in range(2000)]
    for v in values:
        producer.produce(
            "abused",
            value=v,
            partition=0,
            on_delivery=lambda e, m: acked.append(cast(bytes, m.value())) if e is None else None,
        )
        producer.poll(0)
    assert producer.flush(60) == 0
    abuser.join(120)
    stop.set()
    for s in idle:
        s.close()
    assert not errors, errors
    assert not abuser.is_alive()
    assert len(idle) == idle_target
    assert sorted(acked) == sorted(values)

    consumer = ck.Consumer({"bootstrap.servers": broker.bootstrap, "group.id": "unused", "enable.auto.commit": False})
    consumer.assign([ck.TopicPartition("abused", 0, 0)])
    got: list[bytes | None] = []
    deadline = time.monotonic() + 30
    try:
        while len(got) < len(values) and time.monotonic() < deadline:
            msg = consumer.poll(0.2)
            if msg is not None and msg.error() is None:
                got.append(msg.value())
    finally:
        consumer.close()
    assert got == values
