"""Our clients' metrics() against a broker started with bin/kafka-server-start.sh (issue 16): the producer counts the
records it sent (record-send-total, as Java's producer-metrics), the consumer the records it consumed
(records-consumed-total) with its lag falling to 0 once it has read everything, the admin client reports its
app-info and connections, and bin/kafka-producer-perf-test.sh --print-metrics prints Java's metrics table."""

from __future__ import annotations

import re
import subprocess
import time
import uuid
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka.admin import AdminClient, NewTopic

from kafka.clients.admin.admin import Admin
from kafka.clients.consumer.kafka_consumer import KafkaConsumer
from kafka.clients.producer.kafka_producer import KafkaProducer
from kafka.clients.producer.producer_record import ProducerRecord
from kafka.common.metric import Metric
from kafka.common.metric_name import MetricName
from kafka.common.serialization.byte_array_deserializer import ByteArrayDeserializer
from kafka.common.serialization.byte_array_serializer import ByteArraySerializer
from kafka.common.topic_partition import TopicPartition
from tests.integration.broker import BrokerProcess

pytestmark = pytest.mark.integration

BIN = Path(__file__).resolve().parents[2] / "bin"
N = 500


@pytest.fixture(scope="module")
def broker(zookeeper: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrokerProcess]:
    work = Path(tmp_path_factory.mktemp("client-metrics"))
    b = BrokerProcess(work, zookeeper.connect_string + "/client-metrics-" + work.name)
    b.start()
    yield b
    assert b.stop() == 0, b.console_tail()


def _new_topic(broker: BrokerProcess, partitions: int = 1) -> str:
    name = f"metrics-{uuid.uuid4().hex[:8]}"
    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    admin.create_topics([NewTopic(name, partitions, 1)], operation_timeout=30)[name].result(30)
    return name


def _value(metrics: Mapping[MetricName, Metric], group: str, name: str, **tags: str) -> Any:
    """The value of the one metric of `group` and `name` with exactly these tags."""
    found = [
        metric
        for metric_name, metric in metrics.items()
        if metric_name.group == group and metric_name.name == name and metric_name.tags == tags
    ]
    assert len(found) == 1, f"{group}:{name}:{tags} found {len(found)} times"
    return found[0].metric_value()


def _wait_for(condition: Any, message: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(message)
        time.sleep(0.05)


def _produce(broker: BrokerProcess, topic: str) -> None:
    producer = KafkaProducer(
        {"bootstrap.servers": broker.bootstrap, "client.id": "metrics-producer", "linger.ms": 5},
        ByteArraySerializer(),
        ByteArraySerializer(),
    )
    try:
        futures = [producer.send(ProducerRecord(topic, value=f"v{i}".encode())) for i in range(N)]
        producer.flush()
        for future in futures:
            future.get(30)
        metrics = producer.metrics()
        tags = {"client-id": "metrics-producer"}
        assert _value(metrics, "producer-metrics", "record-send-total", **tags) == N
        assert _value(metrics, "producer-topic-metrics", "record-send-total", topic=topic, **tags) == N
        assert _value(metrics, "producer-metrics", "record-error-total", **tags) == 0
        assert _value(metrics, "producer-metrics", "request-latency-avg", **tags) >= 0
        assert _value(metrics, "producer-metrics", "outgoing-byte-total", **tags) > 0
        assert _value(metrics, "producer-metrics", "connection-count", **tags) >= 1
        assert _value(metrics, "producer-metrics", "buffer-total-bytes", **tags) == 32 * 1024 * 1024
        assert _value(metrics, "app-info", "version", **tags)
        node_requests = [
            metric.metric_value()
            for name, metric in metrics.items()
            if name.group == "producer-node-metrics" and name.name == "request-total"
        ]
        assert node_requests and sum(node_requests) > 0
    finally:
        producer.close()


def test_producer_and_consumer_metrics(broker: BrokerProcess) -> None:
    """After N records are produced and consumed, record-send-total and records-consumed-total are N and the
    consumer's records-lag-max is 0 once it is at the end of the partition."""
    topic = _new_topic(broker)
    _produce(broker, topic)
    consumer: KafkaConsumer[bytes, bytes] = KafkaConsumer(
        {"bootstrap.servers": broker.bootstrap, "client.id": "metrics-consumer", "auto.offset.reset": "earliest"},
        ByteArrayDeserializer(),
        ByteArrayDeserializer(),
    )
    try:
        tp = TopicPartition(topic, 0)
        consumer.assign([tp])
        consumed = 0
        deadline = time.monotonic() + 60
        while consumed < N:
            assert time.monotonic() < deadline, f"consumed {consumed} of {N}"
            consumed += consumer.poll(500).count()
        tags = {"client-id": "metrics-consumer"}
        group = "consumer-fetch-manager-metrics"
        # The per-response totals are recorded once every partition of a response is drained: poll until then.
        _wait_for(
            lambda: (consumer.poll(100), _value(consumer.metrics(), group, "records-consumed-total", **tags))[1] == N,
            "records-consumed-total never reached N",
        )
        metrics = consumer.metrics()
        assert _value(metrics, group, "records-consumed-total", topic=topic, **tags) == N
        assert _value(metrics, group, "records-lag", topic=topic, partition="0", **tags) == 0
        assert _value(metrics, group, "records-lead", topic=topic, partition="0", **tags) == N
        assert _value(metrics, group, "records-lag-max", **tags) >= 0
        assert _value(metrics, group, "fetch-total", **tags) > 0
        assert _value(metrics, group, "bytes-consumed-total", **tags) > 0
        assert _value(metrics, "consumer-metrics", "incoming-byte-total", **tags) > 0
        assert _value(metrics, "app-info", "commit-id", **tags) == "unknown"
    finally:
        consumer.close()


def test_records_lag_max_reaches_zero(broker: BrokerProcess) -> None:
    """records-lag-max (the largest lag recorded within the sample window) is above 0 while the consumer catches up
    and reaches 0 once it only gets records at the end of the partition.

    An idle consumer at the end records no lag (an incremental fetch response leaves unchanged partitions out, as
    with Java's consumer, whose records-lag-max is then NaN), so records keep arriving one at a time until a window
    holds only lags of 0."""
    topic = _new_topic(broker)
    _produce(broker, topic)
    consumer: KafkaConsumer[bytes, bytes] = KafkaConsumer(
        {
            "bootstrap.servers": broker.bootstrap,
            "client.id": "lag-consumer",
            "auto.offset.reset": "earliest",
            "metrics.sample.window.ms": "200",
            "max.poll.records": "50",
        },
        ByteArrayDeserializer(),
        ByteArrayDeserializer(),
    )
    producer = KafkaProducer({"bootstrap.servers": broker.bootstrap}, ByteArraySerializer(), ByteArraySerializer())
    tags = {"client-id": "lag-consumer"}
    try:
        consumer.assign([TopicPartition(topic, 0)])
        lags: list[float] = []
        consumed = 0
        deadline = time.monotonic() + 60
        while consumed < N:
            assert time.monotonic() < deadline, f"consumed {consumed} of {N}"
            consumed += consumer.poll(500).count()
            lags.append(_value(consumer.metrics(), "consumer-fetch-manager-metrics", "records-lag-max", **tags))
        assert max(lags) > 0, lags

        def one_more_record_then_lag_max() -> bool:
            producer.send(ProducerRecord(topic, value=b"late")).get(30)
            got = 0
            poll_deadline = time.monotonic() + 30
            while got == 0:
                assert time.monotonic() < poll_deadline, "the late record never came"
                got = consumer.poll(100).count()
            return bool(_value(consumer.metrics(), "consumer-fetch-manager-metrics", "records-lag-max", **tags) == 0)

        _wait_for(one_more_record_then_lag_max, "records-lag-max never reached 0", timeout=60)
    finally:
        producer.close()
        consumer.close()


def test_admin_client_metrics(broker: BrokerProcess) -> None:
    """The admin client's metrics() has its app-info and its connections (admin-client-metrics)."""
    admin = Admin.create({"bootstrap.servers": broker.bootstrap, "client.id": "metrics-admin"})
    try:
        admin.list_topics().names().get(30)
        metrics = admin.metrics()
        assert _value(metrics, "app-info", "start-time-ms", **{"client-id": "metrics-admin"}) > 0
        assert _value(metrics, "admin-client-metrics", "response-total", **{"client-id": "metrics-admin"}) >= 1
    finally:
        admin.close()


def test_producer_perf_test_print_metrics(broker: BrokerProcess) -> None:
    """kafka-producer-perf-test.sh --print-metrics ends with Java's table: `Metric Name` and one sorted
    `group:name:{tags} : value` line per metric, among them record-send-total equal to --num-records."""
    topic = _new_topic(broker)
    done = subprocess.run(
        [
            str(BIN / "kafka-producer-perf-test.sh"),
            "--topic",
            topic,
            "--num-records",
            "200",
            "--record-size",
            "10",
            "--throughput",
            "-1",
            "--producer-props",
            f"bootstrap.servers={broker.bootstrap}",
            "client.id=perf-metrics",
            "--print-metrics",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("Metric Name"))
    rows = lines[header + 1 :]
    assert rows and all(re.fullmatch(r"[a-z-]+:[a-z-]+:\{.*\}\s* : .*", row) for row in rows), rows[:5]
    keys = [row.split(" : ")[0].rstrip() for row in rows]
    assert keys == sorted(keys)
    assert lines[header].index("Value") == len(rows[0].split(" : ")[0]) + 3
    send_total = [row for row in rows if row.startswith("producer-metrics:record-send-total:{client-id=perf-metrics}")]
    assert len(send_total) == 1 and send_total[0].endswith(" : 200.000"), send_total
