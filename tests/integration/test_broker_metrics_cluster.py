"""The broker's metrics on a three-broker cluster started from the bin scripts, each serving /metrics on a port of
its own (issue 16): the controller and replication gauges before and after the controller broker is killed and
restarted, the consumer-group lag against kafka-consumer-groups.sh --describe, every metric the Grafana dashboard
(config/grafana/kafka-broker.json) queries, and JmxTool reading the brokers' MBeans."""

from __future__ import annotations

import json
import re
import subprocess
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import confluent_kafka as ck
import pytest
from confluent_kafka.admin import AdminClient, NewTopic

from tests.integration.cluster import TEST_OVERRIDES, KafkaCluster
from tests.integration.zookeeper import ZooKeeperServer, free_port
from tests.utils import wait_until_true

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
DASHBOARD = ROOT / "config" / "grafana" / "kafka-broker.json"

# A sample line of the text format: name, optional {labels}, value.
_SAMPLE = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)")
_LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


@pytest.fixture
def metrics_cluster(zookeeper: ZooKeeperServer, zk_chroot: str, tmp_path: Path) -> Iterator[KafkaCluster]:
    """Three brokers, each with its metrics endpoint on a free port; short ISR and session timeouts so that a dead
    broker leaves the ISR within seconds."""
    overrides = {
        **TEST_OVERRIDES,
        "replica.lag.time.max.ms": "3000",
        "zookeeper.session.timeout.ms": "6000",
        "metrics.prometheus.host": "127.0.0.1",
    }
    cluster = KafkaCluster(tmp_path, zookeeper.connect_string + zk_chroot, overrides=overrides)
    for broker in cluster.brokers:
        broker.overrides["metrics.prometheus.port"] = str(free_port())
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


def metrics_port(cluster: KafkaCluster, broker_id: int) -> int:
    return int(cluster.broker(broker_id).overrides["metrics.prometheus.port"])


def scrape(cluster: KafkaCluster, broker_id: int) -> list[tuple[str, dict[str, str], float]]:
    """The samples a broker's /metrics serves now: (name, labels, value)."""
    url = f"http://127.0.0.1:{metrics_port(cluster, broker_id)}/metrics"
    with urllib.request.urlopen(url, timeout=10) as response:
        text = response.read().decode()
    samples = []
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        m = _SAMPLE.match(line)
        assert m is not None, line
        labels = dict(_LABEL.findall(m.group(2) or ""))
        samples.append((m.group(1), labels, float(m.group(3))))
    return samples


def value(cluster: KafkaCluster, broker_id: int, name: str, **labels: str) -> float | None:
    for sample_name, sample_labels, v in scrape(cluster, broker_id):
        if sample_name == name and all(sample_labels.get(k) == want for k, want in labels.items()):
            return v
    return None


def live(cluster: KafkaCluster) -> list[int]:
    return [b.broker_id for b in cluster.brokers if b.is_running]


def total(cluster: KafkaCluster, name: str) -> float:
    """The sum of a gauge over the running brokers."""
    return sum(value(cluster, i, name) or 0.0 for i in live(cluster))


def create_topic(cluster: KafkaCluster, name: str, partitions: int, replication: int = 3) -> None:
    admin = AdminClient({"bootstrap.servers": cluster.bootstrap})
    admin.create_topics([NewTopic(name, partitions, replication)], operation_timeout=30)[name].result(30)


def produce(cluster: KafkaCluster, topic: str, per_partition: dict[int, int]) -> None:
    producer = ck.Producer({"bootstrap.servers": cluster.bootstrap, "acks": "all"})
    for partition, count in per_partition.items():
        for i in range(count):
            producer.produce(topic, value=b"v%d" % i, partition=partition)
    assert producer.flush(30) == 0


def commit(cluster: KafkaCluster, group: str, topic: str, offsets: dict[int, int]) -> None:
    consumer = ck.Consumer({"bootstrap.servers": cluster.bootstrap, "group.id": group, "enable.auto.commit": False})
    try:
        consumer.commit(offsets=[ck.TopicPartition(topic, p, o) for p, o in offsets.items()], asynchronous=False)
    finally:
        consumer.close()


def describe_group(cluster: KafkaCluster, group: str) -> dict[int, tuple[int, int, int]]:
    """kafka-consumer-groups.sh --describe: partition -> (current offset, log end offset, lag)."""
    done = subprocess.run(
        [
            str(ROOT / "bin" / "kafka-consumer-groups.sh"),
            "--bootstrap-server",
            cluster.bootstrap,
            "--describe",
            "--group",
            group,
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    rows = {}
    for line in done.stdout.splitlines():
        cols = line.split()
        if len(cols) >= 6 and cols[0] == group and cols[2].isdigit():
            rows[int(cols[2])] = (int(cols[3]), int(cols[4]), int(cols[5]))
    return rows


def exported_lag(cluster: KafkaCluster, group: str) -> dict[int, tuple[int, int]]:
    """partition -> (kafka_consumergroup_current_offset, kafka_consumergroup_lag) from whichever broker exports."""
    current: dict[int, int] = {}
    lag: dict[int, int] = {}
    for i in live(cluster):
        for name, labels, v in scrape(cluster, i):
            if labels.get("consumergroup") != group or "partition" not in labels:
                continue
            if name == "kafka_consumergroup_current_offset":
                current[int(labels["partition"])] = int(v)
            elif name == "kafka_consumergroup_lag":
                lag[int(labels["partition"])] = int(v)
    return {p: (current[p], lag[p]) for p in current if p in lag}


def check_exported_lag(cluster: KafkaCluster, group: str, expected: dict[int, tuple[int, int]]) -> None:
    """kafka-consumer-groups.sh --describe shows `expected` (partition -> (current offset, lag)), and the brokers
    export the same."""
    wait_until_true(lambda: len(describe_group(cluster, group)) == len(expected), "the group is described", timeout=60)
    described = {p: (cur, lag) for p, (cur, _, lag) in describe_group(cluster, group).items()}
    assert described == expected
    wait_until_true(
        lambda: exported_lag(cluster, group) == expected,
        f"the exported lag of {group} matches --describe: {exported_lag(cluster, group)} vs {expected}",
        timeout=30,
    )


def dashboard_metric_names() -> set[str]:
    """Every metric name the dashboard's PromQL expressions read (ours all start with kafka_)."""
    dashboard = json.loads(DASHBOARD.read_text())
    exprs = [t["expr"] for p in dashboard["panels"] for t in p.get("targets", [])]
    assert exprs, "the dashboard has no queries"
    names: set[str] = set()
    for expr in exprs:
        stripped = re.sub(r"\{[^}]*\}", " ", expr)  # label matchers
        stripped = re.sub(r"\b(by|without)\s*\([^)]*\)", " ", stripped)  # grouping labels
        names.update(re.findall(r"\bkafka_[a-zA-Z0-9_:]*", stripped))
    return names


def test_dashboard_metrics_group_lag_and_jmx_tool(metrics_cluster: KafkaCluster) -> None:
    """After produce, consume-commit and a replicated topic: every metric of the dashboard is served, the exported
    lag per partition equals kafka-consumer-groups.sh --describe's, and JmxTool prints the MBean values the
    endpoint shows."""
    cluster = metrics_cluster
    topic, group = "lagged", "lag-group"
    create_topic(cluster, topic, 3)
    produce(cluster, topic, {0: 10, 1: 10, 2: 10})
    commit(cluster, group, topic, {0: 3, 1: 5, 2: 7})
    # Fetch and request metrics come with traffic: a consumer reads the topic once.
    consumer = ck.Consumer(
        {"bootstrap.servers": cluster.bootstrap, "group.id": "reader", "auto.offset.reset": "earliest"}
    )
    # Assigned, not subscribed: no group rebalance to wait for.
    consumer.assign([ck.TopicPartition(topic, p, 0) for p in range(3)])
    consumed = [0]

    def drained() -> bool:
        consumed[0] += sum(1 for m in consumer.consume(10, 0.5) if m.error() is None)
        return consumed[0] >= 30

    wait_until_true(drained, "the reader consumed the topic", timeout=60)
    consumer.close()

    # Group lag as kafka-consumer-groups.sh shows it.
    check_exported_lag(cluster, group, {0: (3, 7), 1: (5, 5), 2: (7, 3)})
    # Partitions of a single replica are spread over the brokers: the coordinator asks their leaders.
    create_topic(cluster, "single", 3, replication=1)
    produce(cluster, "single", {0: 4, 1: 6, 2: 8})
    commit(cluster, "single-group", "single", {0: 1, 1: 2, 2: 3})
    check_exported_lag(cluster, "single-group", {0: (1, 3), 1: (2, 4), 2: (3, 5)})

    # Every metric of the dashboard exists on the running brokers.
    wanted = dashboard_metric_names()
    assert "kafka_consumergroup_lag" in wanted and "kafka_server_replicamanager_underreplicatedpartitions" in wanted

    def missing() -> set[str]:
        served = {name for i in live(cluster) for name, _, _ in scrape(cluster, i)}
        return wanted - served

    wait_until_true(lambda: not missing(), f"dashboard metrics not served: {missing()}", timeout=30)

    # ZooKeeper: the session's connect was counted and requests were timed.
    assert (value(cluster, 0, "kafka_server_sessionexpirelistener_zookeepersyncconnects_total") or 0) >= 1
    assert (value(cluster, 0, "kafka_server_zookeeperclientmetrics_zookeeperrequestlatencyms_count") or 0) > 0
    # The log gauges: every replica of the topic holds the ten records of each partition.
    assert all(
        value(cluster, i, "kafka_log_log_logendoffset", topic=topic, partition=str(p)) == 10
        for i in range(3)
        for p in range(3)
    )

    # JmxTool reads the same values through the brokers' /jmx.
    port = metrics_port(cluster, 0)
    done = subprocess.run(
        [
            str(ROOT / "bin" / "kafka-run-class.sh"),
            "kafka.tools.JmxTool",
            "--jmx-url",
            f"http://127.0.0.1:{port}/jmx",
            "--object-name",
            f"kafka.log:type=Log,name=LogEndOffset,topic={topic},*",
            "--one-time",
            "true",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == ",".join(
        ['"time"'] + [f'"kafka.log:type=Log,name=LogEndOffset,topic={topic},partition={p}:Value"' for p in range(3)]
    ), lines
    assert lines[1].split(",")[1:] == ["10", "10", "10"], lines
    assert len(lines) == 2

    # A reporting interval repeats the line; the values are the broker's own PartitionCount.
    printed = _run_for(
        [
            str(ROOT / "bin" / "kafka-run-class.sh"),
            "kafka.tools.JmxTool",
            "--jmx-url",
            f"127.0.0.1:{port}",
            "--object-name",
            "kafka.server:type=ReplicaManager,name=PartitionCount",
            "--reporting-interval",
            "200",
        ],
        lines_wanted=3,
    )
    assert printed[0] == '"time","kafka.server:type=ReplicaManager,name=PartitionCount:Value"', printed
    partition_count = value(cluster, 0, "kafka_server_replicamanager_partitioncount")
    assert partition_count is not None and partition_count >= 3
    assert all(line.split(",")[1] == str(int(partition_count)) for line in printed[1:3]), printed


def _run_for(args: list[str], lines_wanted: int) -> list[str]:
    """Runs a command that prints until stopped; returns its first `lines_wanted` lines, then stops it."""
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        lines: list[str] = []
        while len(lines) < lines_wanted:
            line = process.stdout.readline()
            if not line:
                break
            lines.append(line.rstrip("\n"))
        return lines
    finally:
        process.terminate()
        process.wait(30)


def test_controller_and_replication_gauges_when_the_controller_dies(metrics_cluster: KafkaCluster) -> None:
    """ActiveControllerCount sums to 1 over the live brokers before and after the controller is killed;
    UnderReplicatedPartitions rises while it is down and returns to 0 once it is back; no partition goes offline."""
    cluster = metrics_cluster
    create_topic(cluster, "replicated", 3)
    produce(cluster, "replicated", {0: 5, 1: 5, 2: 5})
    wait_until_true(
        lambda: total(cluster, "kafka_controller_kafkacontroller_activecontrollercount") == 1,
        "one active controller",
        timeout=30,
    )
    wait_until_true(
        lambda: total(cluster, "kafka_server_replicamanager_underreplicatedpartitions") == 0,
        "fully replicated",
        timeout=30,
    )
    assert total(cluster, "kafka_controller_kafkacontroller_offlinepartitionscount") == 0
    assert total(cluster, "kafka_controller_kafkacontroller_globaltopiccount") >= 1
    # Three partitions of three replicas (plus __consumer_offsets) on every broker.
    assert all((value(cluster, i, "kafka_server_replicamanager_partitioncount") or 0) >= 3 for i in range(3))
    controller = next(
        i for i in range(3) if value(cluster, i, "kafka_controller_kafkacontroller_activecontrollercount") == 1
    )

    cluster.kill(controller)
    wait_until_true(
        lambda: total(cluster, "kafka_server_replicamanager_underreplicatedpartitions") > 0,
        "under-replicated partitions once a broker is dead",
        timeout=60,
    )
    wait_until_true(
        lambda: total(cluster, "kafka_controller_kafkacontroller_activecontrollercount") == 1,
        "a new controller among the survivors",
        timeout=60,
    )
    assert total(cluster, "kafka_controller_kafkacontroller_offlinepartitionscount") == 0
    # (IsrShrinksPerSec is not asserted: the leaders' AlterIsr went to the dead controller, and the new controller
    # takes the dead broker out of the ISRs itself, which no leader counts as a shrink, as in Kafka.)

    cluster.broker(controller).start()
    wait_until_true(
        lambda: total(cluster, "kafka_server_replicamanager_underreplicatedpartitions") == 0,
        "fully replicated again after the restart",
        timeout=90,
    )
    wait_until_true(
        lambda: total(cluster, "kafka_controller_kafkacontroller_activecontrollercount") == 1,
        "still one active controller",
        timeout=30,
    )
    # The leaders took the restarted broker back into their ISRs.
    assert sum(value(cluster, i, "kafka_server_replicamanager_isrexpands_total") or 0 for i in range(3)) > 0
