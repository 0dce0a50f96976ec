"""Client quotas that throttle, tried as a user would (issue 15): quotas set with kafka-configs.sh on a running
broker slow down the clients they name and no other, within seconds and without a restart, and lifting them lets
the client go at full speed again; a per-IP connection creation rate refuses the excess connections.

The broker samples rates over `quota.window.num=3` windows of `quota.window.size.seconds=1` (Kafka's keys), so that
a client's first burst (a rate is measured over at least the whole windows) is short. Rates are asserted with
generous bounds on the bytes a client got through in a measured stretch of time: a client held to 1 MB/s stays
well under 3 MB/s, an unthrottled one well above it. These are outcomes, not timings of the broker.
"""

from __future__ import annotations

import socket
import struct
import subprocess
import time
import uuid
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from kafka.clients.producer.kafka_producer import KafkaProducer
from kafka.clients.producer.producer_record import ProducerRecord
from kafka.common.serialization.byte_array_serializer import ByteArraySerializer
from tests.integration.broker import BrokerProcess
from tests.utils import wait_until_true

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
MB = 1024 * 1024
QUOTA = 1048576  # 1 MB/s
VALUE = b"x" * 10_000


@pytest.fixture(scope="module")
def broker(zookeeper: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrokerProcess]:
    work = Path(tmp_path_factory.mktemp("quota-broker"))
    b = BrokerProcess(
        work,
        zookeeper.connect_string + "/throttle-" + work.name,
        overrides={"quota.window.num": "3", "quota.window.size.seconds": "1"},
    )
    b.start()
    yield b
    assert b.stop() == 0, b.console_tail()


def configs(broker: BrokerProcess, *args: str) -> str:
    done = subprocess.run(
        [str(ROOT / "bin" / "kafka-configs.sh"), "--bootstrap-server", broker.bootstrap, *args],
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def server_log(broker: BrokerProcess) -> str:
    path = broker.app_log_dir / "server.log"
    return path.read_text(errors="replace") if path.exists() else ""


def set_client_quota(broker: BrokerProcess, client_id: str, config: str) -> None:
    """Sets a client-id quota with kafka-configs.sh and waits until the broker has applied it (its log says so)."""
    before = server_log(broker).count(f"quota for client-id {client_id} to")
    configs(broker, "--entity-type", "clients", "--entity-name", client_id, "--alter", "--add-config", config)
    wait_until_true(
        lambda: server_log(broker).count(f"quota for client-id {client_id} to") > before,
        f"the broker applied {config} for {client_id}",
        timeout=30,
    )


def create_topic(broker: BrokerProcess) -> str:
    topic = f"quota-{uuid.uuid4().hex[:8]}"
    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    admin.create_topics([NewTopic(topic, 1, 1)])[topic].result(30)
    return topic


def produce_rate(broker: BrokerProcess, topic: str, client_id: str, seconds: float, warmup: float) -> tuple[float, int]:
    """Produces as fast as the broker lets `client_id` for `warmup + seconds`; returns the bytes per second
    acknowledged after the warm-up and the throttle events librdkafka reported."""
    throttles: list[int] = []
    acked: list[tuple[float, int]] = []
    producer = Producer(
        {
            "bootstrap.servers": broker.bootstrap,
            "client.id": client_id,
            "linger.ms": 5,
            "acks": 1,
            # A small queue, so that the flush after the measured stretch does not wait on megabytes.
            "queue.buffering.max.messages": 200,
            "throttle_cb": lambda event: throttles.append(event.throttle_time),
        }
    )

    def on_delivery(err: Any, msg: Any) -> None:
        if err is None:
            acked.append((time.monotonic(), len(msg.value())))

    start = time.monotonic()
    deadline = start + warmup + seconds
    while time.monotonic() < deadline:
        try:
            producer.produce(topic, VALUE, on_delivery=on_delivery)
        except BufferError:
            producer.poll(0.05)
        producer.poll(0)
    producer.flush(60)
    measured = sum(size for at, size in acked if start + warmup <= at <= deadline)
    return measured / seconds, sum(1 for t in throttles if t > 0)


def check_rates(what: str, slow_rate: float, slow_throttles: int, fast_rate: float) -> None:
    """The client held to 1 MB/s stayed well under 3 MB/s and was told of throttle times; the other one went well
    above 3 MB/s."""
    print(f"{what}: throttled {slow_rate / MB:.2f} MB/s ({slow_throttles} throttles), other {fast_rate / MB:.2f} MB/s")
    assert 0 < slow_rate < 3 * MB, f"{what}: the throttled client got {slow_rate / MB:.2f} MB/s through"
    assert slow_throttles > 0, f"{what}: librdkafka reported no throttle time"
    assert fast_rate > 3 * MB, f"{what}: the other client got only {fast_rate / MB:.2f} MB/s through"


def test_producer_byte_rate_throttles_only_its_client_and_lifts(broker: BrokerProcess) -> None:
    """A client-id with producer_byte_rate=1048576 produces at about 1 MB/s and is told of throttle times, while
    another client on the same broker is not slowed; deleting the quota lets the first one go fast again."""
    topic = create_topic(broker)
    set_client_quota(broker, "slow-producer", f"producer_byte_rate={QUOTA}")

    slow_rate, slow_throttles = produce_rate(broker, topic, "slow-producer", seconds=6, warmup=3)
    fast_rate, _ = produce_rate(broker, topic, "fast-producer", seconds=4, warmup=1)
    check_rates("produce", slow_rate, slow_throttles, fast_rate)
    # The quota change reached the broker through /config/changes without an error.
    assert "Error while processing notification change" not in server_log(broker)
    assert "error processing change notification" not in server_log(broker)

    before = server_log(broker).count("Removing PRODUCE quota for client-id slow-producer")
    configs(
        broker,
        "--entity-type",
        "clients",
        "--entity-name",
        "slow-producer",
        "--alter",
        "--delete-config",
        "producer_byte_rate",
    )
    wait_until_true(
        lambda: server_log(broker).count("Removing PRODUCE quota for client-id slow-producer") > before,
        "the broker removed the quota",
        timeout=30,
    )
    lifted_rate, _ = produce_rate(broker, topic, "slow-producer", seconds=4, warmup=1)
    assert lifted_rate > 3 * MB, f"without its quota the client produced only {lifted_rate / MB:.2f} MB/s"


def _metric_value(metrics: Mapping[Any, Any], group: str, name: str) -> float:
    values = [m.metric_value() for n, m in metrics.items() if n.group == group and n.name == name]
    assert values, f"no {group}:{name} among the client's metrics"
    return float(values[0])


def test_our_producer_throttles_itself_under_producer_byte_rate(broker: BrokerProcess) -> None:
    """Our KafkaProducer under producer_byte_rate=1048576 (KIP-219 on the client side, as Java's NetworkClient):
    it waits out the throttle times the broker sends back before sending to it again, records them in
    produce-throttle-time-avg/max, stays near the quota, and every record it acknowledged is in the log once."""
    topic = create_topic(broker)
    client_id = f"our-slow-producer-{uuid.uuid4().hex[:6]}"
    set_client_quota(broker, client_id, f"producer_byte_rate={QUOTA}")
    acked: list[float] = []
    failed: list[BaseException] = []

    def on_completion(metadata: Any, exception: BaseException | None) -> None:
        if exception is None:
            acked.append(time.monotonic())
        else:
            failed.append(exception)

    producer = KafkaProducer(
        {
            "bootstrap.servers": broker.bootstrap,
            "client.id": client_id,
            "linger.ms": 5,
            "acks": "1",
            # A small buffer, so that send() waits on the throttled connection instead of queueing megabytes.
            "buffer.memory": str(512 * 1024),
            "batch.size": str(64 * 1024),
        },
        ByteArraySerializer(),
        ByteArraySerializer(),
    )
    warmup, seconds = 3.0, 6.0
    sent = 0
    try:
        start = time.monotonic()
        deadline = start + warmup + seconds
        while time.monotonic() < deadline:
            producer.send(ProducerRecord(topic, VALUE), on_completion)
            sent += 1
        producer.flush()
        metrics = producer.metrics()
        throttle_max = _metric_value(metrics, "producer-metrics", "produce-throttle-time-max")
        throttle_avg = _metric_value(metrics, "producer-metrics", "produce-throttle-time-avg")
    finally:
        producer.close()
    rate = sum(1 for at in acked if start + warmup <= at <= deadline) * len(VALUE) / seconds
    print(f"our producer: {rate / MB:.2f} MB/s, throttle time max {throttle_max} ms, avg {throttle_avg:.1f} ms")
    assert not failed, failed[:3]
    assert len(acked) == sent
    assert 0 < rate < 3 * MB, f"the throttled producer got {rate / MB:.2f} MB/s through"
    assert throttle_max > 0 and throttle_avg > 0
    # Correct as well as slow: the log holds each acknowledged record once.
    consumer = Consumer({"bootstrap.servers": broker.bootstrap, "group.id": f"count-{uuid.uuid4().hex[:6]}"})
    try:
        low, high = consumer.get_watermark_offsets(TopicPartition(topic, 0), timeout=30)
    finally:
        consumer.close()
    assert high - low == sent


def consume_rate(broker: BrokerProcess, topic: str, client_id: str, seconds: float, warmup: float) -> tuple[float, int]:
    """Consumes `topic` from the start as `client_id`; the bytes per second received after the warm-up (up to the
    last record received, for a consumer that reads the whole topic sooner), and the throttle events reported."""
    throttles: list[int] = []
    consumer = Consumer(
        {
            "bootstrap.servers": broker.bootstrap,
            "client.id": client_id,
            "group.id": f"{client_id}-{uuid.uuid4().hex[:6]}",
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
            "throttle_cb": lambda event: throttles.append(event.throttle_time),
        }
    )
    consumer.subscribe([topic])
    try:
        # The clock starts with the first record (the group join is not part of the rate).
        first = None
        while first is None:
            msg = consumer.poll(1.0)
            if msg is not None and msg.error() is None:
                first = msg
        start = time.monotonic()
        deadline = start + warmup + seconds
        received = 0
        last_at = deadline
        while (now := time.monotonic()) < deadline:
            msg = consumer.poll(0.2)
            if msg is not None and msg.error() is None and now >= start + warmup:
                value = msg.value()
                assert value is not None
                received += len(value)
                last_at = now
        return received / max(last_at - (start + warmup), 0.1), sum(1 for t in throttles if t > 0)
    finally:
        consumer.close()


def test_consumer_byte_rate_throttles_only_its_client(broker: BrokerProcess) -> None:
    """A client-id with consumer_byte_rate=1048576 reads a large topic at about 1 MB/s and is told of throttle
    times; another consumer of the same topic reads much faster."""
    topic = create_topic(broker)
    producer = Producer({"bootstrap.servers": broker.bootstrap, "linger.ms": 20})
    for _ in range(4000):  # ~40 MB
        while True:
            try:
                producer.produce(topic, VALUE)
                break
            except BufferError:
                producer.poll(0.1)
    assert producer.flush(120) == 0
    set_client_quota(broker, "slow-consumer", f"consumer_byte_rate={QUOTA}")

    slow_rate, slow_throttles = consume_rate(broker, topic, "slow-consumer", seconds=6, warmup=3)
    fast_rate, _ = consume_rate(broker, topic, "fast-consumer", seconds=5, warmup=0)
    check_rates("fetch", slow_rate, slow_throttles, fast_rate)


def _api_versions_request(correlation_id: int) -> bytes:
    client_id = b"conn-rate"
    body = struct.pack(">hhih", 18, 0, correlation_id, len(client_id)) + client_id
    return struct.pack(">i", len(body)) + body


def _served(sock: socket.socket) -> bool:
    """Whether the broker answers an ApiVersions request on this connection (False: it closed it)."""
    try:
        sock.sendall(_api_versions_request(1))
        sock.settimeout(10)
        header = sock.recv(4)
        return len(header) == 4
    except OSError:
        return False


def test_ip_connection_creation_rate_refuses_the_excess_connections(broker: BrokerProcess) -> None:
    """With connection_creation_rate=5 for 127.0.0.1, a burst of 40 connections gets only some served: the others
    are closed by the broker; once the quota is deleted, a new burst is served whole."""
    before = server_log(broker).count("Updating max connection rate override for /127.0.0.1")
    configs(
        broker,
        "--entity-type",
        "ips",
        "--entity-name",
        "127.0.0.1",
        "--alter",
        "--add-config",
        "connection_creation_rate=5",
    )
    wait_until_true(
        lambda: server_log(broker).count("Updating max connection rate override for /127.0.0.1") > before,
        "the broker applied the connection rate",
        timeout=30,
    )

    def burst(n: int) -> int:
        socks = [socket.create_connection(("127.0.0.1", broker.port), timeout=10) for _ in range(n)]
        try:
            return sum(1 for s in socks if _served(s))
        finally:
            for s in socks:
                s.close()

    served = burst(40)
    print(f"connections served under a rate of 5/s: {served} of 40")
    assert 0 < served < 30, f"{served} of 40 connections were served under a rate of 5/s"

    configs(
        broker,
        "--entity-type",
        "ips",
        "--entity-name",
        "127.0.0.1",
        "--alter",
        "--delete-config",
        "connection_creation_rate",
    )
    wait_until_true(
        lambda: "Removing max connection rate override for /127.0.0.1" in server_log(broker),
        "the broker removed the connection rate",
        timeout=30,
    )
    assert burst(40) == 40


def test_controller_mutation_rate_refuses_topic_creation_over_it(broker: BrokerProcess) -> None:
    """controller_mutation_rate=1 for a client id: once its partition budget (11 windows' worth) is spent, our
    admin client's CreateTopics (v6+) is refused with THROTTLING_QUOTA_EXCEEDED and the throttle time, while
    another client id still creates topics."""
    from kafka.clients.admin.admin import Admin
    from kafka.clients.admin.create_topics_options import CreateTopicsOptions
    from kafka.clients.admin.new_topic import NewTopic as OurNewTopic
    from kafka.common.errors import ThrottlingQuotaExceededException
    from kafka.common.kafka_future import ExecutionException

    set_client_quota(broker, "mutator", "controller_mutation_rate=1")
    mutator = Admin.create({"bootstrap.servers": broker.bootstrap, "client.id": "mutator"})
    other = Admin.create({"bootstrap.servers": broker.bootstrap, "client.id": "not-limited"})
    no_retry = CreateTopicsOptions(retry_on_quota_violation=False)
    try:
        prefix = uuid.uuid4().hex[:6]
        # 10 + 10 partitions: the second is accepted while the bucket is not yet empty, and empties it.
        mutator.create_topics([OurNewTopic(f"m-{prefix}-1", 10, 1)], no_retry).all().get(30_000)
        mutator.create_topics([OurNewTopic(f"m-{prefix}-2", 10, 1)], no_retry).all().get(30_000)
        with pytest.raises(ExecutionException) as refused:
            mutator.create_topics([OurNewTopic(f"m-{prefix}-3", 1, 1)], no_retry).all().get(30_000)
        assert isinstance(refused.value.__cause__, ThrottlingQuotaExceededException), refused.value
        assert refused.value.__cause__.throttle_time_ms > 0
        other.create_topics([OurNewTopic(f"m-{prefix}-4", 10, 1)], no_retry).all().get(30_000)
        names = mutator.list_topics().names().get(30_000)
        assert f"m-{prefix}-3" not in names and f"m-{prefix}-4" in names
    finally:
        mutator.close(30_000)
        other.close(30_000)


def test_broker_connection_creation_rate_is_dynamic(broker: BrokerProcess) -> None:
    """max.connection.creation.rate, broker-wide and per listener, changes on a running broker through
    kafka-configs.sh; connections over it wait to be accepted rather than being refused."""
    log_before = server_log(broker)
    configs(
        broker,
        "--entity-type",
        "brokers",
        "--entity-name",
        "0",
        "--alter",
        "--add-config",
        "max.connection.creation.rate=50,listener.name.plaintext.max.connection.creation.rate=40",
    )
    wait_until_true(
        lambda: (
            server_log(broker).count("Updated broker-connection-accept-rate max connection creation rate to 50")
            > log_before.count("Updated broker-connection-accept-rate max connection creation rate to 50")
            and server_log(broker).count("Updated connection-accept-rate max connection creation rate to 40")
            > log_before.count("Updated connection-accept-rate max connection creation rate to 40")
        ),
        "the broker applied the broker-wide and listener connection rates",
        timeout=30,
    )
    socks = [socket.create_connection(("127.0.0.1", broker.port), timeout=10) for _ in range(60)]
    try:
        assert all(_served(s) for s in socks), "a connection over the broker-wide rate was refused"
    finally:
        for s in socks:
            s.close()
    configs(
        broker,
        "--entity-type",
        "brokers",
        "--entity-name",
        "0",
        "--alter",
        "--delete-config",
        "max.connection.creation.rate,listener.name.plaintext.max.connection.creation.rate",
    )


def test_user_quotas_follow_kafkas_precedence(broker: BrokerProcess) -> None:
    """A default user quota (the principal is ANONYMOUS on a PLAINTEXT listener) holds every client to about
    1 MB/s, while a <user, client-id> quota for one client id takes precedence and lets that client go fast."""
    topic = create_topic(broker)
    user_default = ["--entity-type", "users", "--entity-default"]
    vip = ["--entity-type", "users", "--entity-name", "ANONYMOUS", "--entity-type", "clients", "--entity-name", "vip"]
    before = server_log(broker).count("quota for user ANONYMOUS client-id vip to")
    try:
        configs(broker, *user_default, "--alter", "--add-config", f"producer_byte_rate={QUOTA}")
        configs(broker, *vip, "--alter", "--add-config", f"producer_byte_rate={100 * QUOTA}")
        wait_until_true(
            lambda: server_log(broker).count("quota for user ANONYMOUS client-id vip to") > before,
            "the broker applied the <user, client-id> quota",
            timeout=30,
        )
        limited_rate, limited_throttles = produce_rate(broker, topic, "anyone", seconds=6, warmup=3)
        vip_rate, _ = produce_rate(broker, topic, "vip", seconds=4, warmup=1)
        print(f"user quotas: default user {limited_rate / MB:.2f} MB/s, vip {vip_rate / MB:.2f} MB/s")
        assert 0 < limited_rate < 3 * MB, f"under the default user quota a client produced {limited_rate / MB:.2f} MB/s"
        assert limited_throttles > 0
        assert vip_rate > 3 * MB, f"the client with its own quota produced only {vip_rate / MB:.2f} MB/s"
    finally:
        configs(broker, *user_default, "--alter", "--delete-config", "producer_byte_rate")
        configs(broker, *vip, "--alter", "--delete-config", "producer_byte_rate")


def test_request_percentage_throttles_a_busy_client(broker: BrokerProcess) -> None:
    """request_percentage=0.01 (a hundredth of a percent of one thread's time) for a client id: its requests soon
    come back with throttle times, which librdkafka reports; once the quota is removed they come back without."""
    topic = create_topic(broker)
    set_client_quota(broker, "busy", "request_percentage=0.01")
    _, throttles = produce_rate(broker, topic, "busy", seconds=3, warmup=0)
    assert throttles > 0, "no throttle time for a client over its request quota"
    configs(
        broker, "--entity-type", "clients", "--entity-name", "busy", "--alter", "--delete-config", "request_percentage"
    )
    wait_until_true(
        lambda: "Removing REQUEST quota for client-id busy" in server_log(broker), "the quota was removed", timeout=30
    )
    _, throttles_after = produce_rate(broker, topic, "busy", seconds=2, warmup=0)
    assert throttles_after == 0
