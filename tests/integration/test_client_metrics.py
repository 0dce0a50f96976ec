"""Our clients' metrics() against a broker started with bin/kafka-server-start.sh (issue 16): the producer counts the
records it sent (record-send-total, as Java's producer-metrics), the consumer the records it consumed
(records-consumed-total) with its lag falling to 0 once it has read everything, a consumer in a group counts its joins,
assignment, heartbeats and commits (consumer-coordinator-metrics) and its poll and commit timings, a transactional
producer the time spent in its transaction calls, the admin client reports its app-info and connections, and
bin/kafka-producer-perf-test.sh --print-metrics prints Java's metrics table."""

from __future__ import annotations

import re
import subprocess
import time
import uuid
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, cast

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
from tests.integration.txn_support import ONE_BROKER_OVERRIDES

pytestmark = pytest.mark.integration

BIN = Path(__file__).resolve().parents[2] / "bin"
N = 500


@pytest.fixture(scope="module")
def broker(zookeeper: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrokerProcess]:
    work = Path(tmp_path_factory.mktemp("client-metrics"))
    # One replica for the transaction log too, for the transactional producer.
    b = BrokerProcess(
        work, zookeeper.connect_string + "/client-metrics-" + work.name, overrides=dict(ONE_BROKER_OVERRIDES)
    )
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
            cast(float, metric.metric_value())
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


def test_group_consumer_coordinator_metrics(broker: BrokerProcess) -> None:
    """A consumer in a group has joined (join-total, sync-total, rebalance-total >= 1), has assigned-partitions equal
    to the partitions it was given, heartbeats (heartbeat-total), and its commit-total rises by one with each
    commit_sync, whose time adds to commit-sync-time-ns-total; committed() adds to committed-time-ns-total."""
    topic = _new_topic(broker, partitions=3)
    _produce(broker, topic)
    group_id = f"metrics-group-{uuid.uuid4().hex[:8]}"
    consumer: KafkaConsumer[bytes, bytes] = KafkaConsumer(
        {
            "bootstrap.servers": broker.bootstrap,
            "client.id": "group-consumer",
            "group.id": group_id,
            "auto.offset.reset": "earliest",
            "enable.auto.commit": "false",
            "heartbeat.interval.ms": "200",
        },
        ByteArrayDeserializer(),
        ByteArrayDeserializer(),
    )
    tags = {"client-id": "group-consumer"}
    coordinator_group = "consumer-coordinator-metrics"

    def coordinator_metric(name: str) -> Any:
        return _value(consumer.metrics(), coordinator_group, name, **tags)

    try:
        assert coordinator_metric("assigned-partitions") == 0
        assert coordinator_metric("last-rebalance-seconds-ago") == -1
        consumer.subscribe([topic])
        consumed = 0
        deadline = time.monotonic() + 60
        while consumed < N:
            assert time.monotonic() < deadline, f"consumed {consumed} of {N}"
            consumed += consumer.poll(500).count()
        partitions = {TopicPartition(topic, p) for p in range(3)}
        assert consumer.assignment() == partitions
        assert coordinator_metric("join-total") >= 1
        assert coordinator_metric("sync-total") >= 1
        assert coordinator_metric("rebalance-total") >= 1
        assert coordinator_metric("rebalance-latency-max") >= 0
        assert coordinator_metric("assigned-partitions") == len(partitions)
        assert coordinator_metric("last-rebalance-seconds-ago") >= 0
        assert coordinator_metric("failed-rebalance-total") >= 0
        _wait_for(
            lambda: (consumer.poll(100), coordinator_metric("heartbeat-total"))[1] >= 1,
            "no heartbeat was ever answered",
        )
        assert coordinator_metric("heartbeat-response-time-max") >= 0
        assert coordinator_metric("last-heartbeat-seconds-ago") >= 0
        commits_before = coordinator_metric("commit-total")
        consumer.commit_sync()
        assert coordinator_metric("commit-total") == commits_before + 1
        assert coordinator_metric("commit-latency-max") >= 0
        metrics = consumer.metrics()
        assert _value(metrics, "consumer-metrics", "commit-sync-time-ns-total", **tags) > 0
        assert _value(metrics, "consumer-metrics", "last-poll-seconds-ago", **tags) >= 0
        assert _value(metrics, "consumer-metrics", "time-between-poll-max", **tags) >= 0
        committed = consumer.committed(partitions)
        assert isinstance(committed, dict)
        assert sum(o.offset for o in committed.values() if o is not None) == N
        assert _value(consumer.metrics(), "consumer-metrics", "committed-time-ns-total", **tags) > 0
    finally:
        consumer.close()


def test_transactional_producer_metrics(broker: BrokerProcess) -> None:
    """A transactional producer adds the time of init_transactions, begin_transaction, flush and commit_transaction
    to their *-time-ns-total in producer-metrics, and the wait for the new topic's metadata to
    metadata-wait-time-ns-total."""
    topic = _new_topic(broker)
    producer = KafkaProducer(
        {
            "bootstrap.servers": broker.bootstrap,
            "client.id": "txn-metrics-producer",
            "transactional.id": f"txn-metrics-{uuid.uuid4().hex[:8]}",
            # The first transactional producer waits for __transaction_state to be created and loaded.
            "max.block.ms": "90000",
        },
        ByteArraySerializer(),
        ByteArraySerializer(),
    )
    tags = {"client-id": "txn-metrics-producer"}
    try:
        assert _value(producer.metrics(), "producer-metrics", "txn-commit-time-ns-total", **tags) == 0
        producer.init_transactions()
        producer.begin_transaction()
        future = producer.send(ProducerRecord(topic, value=b"in a transaction"))
        producer.flush()
        producer.commit_transaction()
        assert future.get(30).offset == 0
        metrics = producer.metrics()
        for name in (
            "txn-init-time-ns-total",
            "txn-begin-time-ns-total",
            "flush-time-ns-total",
            "txn-commit-time-ns-total",
            "metadata-wait-time-ns-total",
        ):
            assert _value(metrics, "producer-metrics", name, **tags) > 0, name
        assert _value(metrics, "producer-metrics", "txn-abort-time-ns-total", **tags) == 0
    finally:
        producer.close()


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
