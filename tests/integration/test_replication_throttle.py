"""Replication throttles, tried as an operator uses them: three brokers from the bin scripts, a topic on brokers 0
(leader) and 1, a throttle set with kafka-configs.sh (a broker's `follower.replication.throttled.rate` with the
topic's `follower.replication.throttled.replicas`, or the leader's pair), and a follower restarted after it
missed some megabytes. While throttled, the follower catches up at about the throttled rate and stays out of the
ISR; once the throttle is removed it catches up, its log equals the leader's and the ISR is whole again."""

from __future__ import annotations

import subprocess
import time

import pytest
from confluent_kafka import KafkaError, Producer
from confluent_kafka.admin import AdminClient, NewTopic

from tests.integration.broker import ROOT
from tests.integration.cluster import ClusterFactory, ClusterView, KafkaCluster
from tests.utils import wait_until_true

pytestmark = pytest.mark.integration

TOPIC = "throttled"
LEADER, FOLLOWER = 0, 1
RECORD_SIZE = 1000
NUM_RECORDS = 2000  # about 2 MB of record batches
RATE = 50_000  # bytes/s
OBSERVATION_S = 8.0


@pytest.fixture
def small_fetch_cluster(cluster_factory: ClusterFactory) -> KafkaCluster:
    """The `cluster` fixture's three brokers, with followers fetching at most 16 KB per partition per request, so
    that the throttle, which acts between fetches, has many fetches to act on."""
    return cluster_factory({"replica.fetch.max.bytes": "16384", "replica.fetch.response.max.bytes": "16384"})


def configs(cluster: KafkaCluster, *args: str) -> str:
    done = subprocess.run(
        [str(ROOT / "bin" / "kafka-configs.sh"), "--bootstrap-server", cluster.broker(LEADER).bootstrap, *args],
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stdout + done.stderr
    return done.stdout


def log_size(cluster: KafkaCluster, broker_id: int) -> int:
    partition_dir = cluster.broker(broker_id).log_dir / f"{TOPIC}-0"
    if not partition_dir.exists():
        return 0
    return sum(p.stat().st_size for p in partition_dir.iterdir() if p.suffix == ".log")


def segment_bytes(cluster: KafkaCluster, broker_id: int) -> dict[str, bytes]:
    partition_dir = cluster.broker(broker_id).log_dir / f"{TOPIC}-0"
    return {p.name: p.read_bytes() for p in sorted(partition_dir.iterdir()) if p.suffix == ".log"}


def produce(cluster: KafkaCluster) -> None:
    """NUM_RECORDS records of RECORD_SIZE bytes in batches of at most 16 KB, acknowledged by the leader alone."""
    errors: list[KafkaError] = []

    def on_delivery(err: KafkaError | None, msg: object) -> None:
        if err is not None:
            errors.append(err)

    producer = Producer({"bootstrap.servers": cluster.bootstrap, "acks": "1", "linger.ms": 5, "batch.size": 16384})
    for i in range(NUM_RECORDS):
        producer.produce(TOPIC, value=(b"%06d" % i) * (RECORD_SIZE // 6), on_delivery=on_delivery)
        producer.poll(0)
    assert producer.flush(60) == 0 and errors == [], errors[:5]


@pytest.mark.parametrize(
    ("throttled_broker", "rate_config", "replicas_config", "replicas"),
    [
        (FOLLOWER, "follower.replication.throttled.rate", "follower.replication.throttled.replicas", f"0:{FOLLOWER}"),
        (LEADER, "leader.replication.throttled.rate", "leader.replication.throttled.replicas", f"0:{LEADER}"),
    ],
    ids=["follower-throttle", "leader-throttle"],
)
def test_throttled_follower_catches_up_at_the_throttled_rate_then_fully_once_the_throttle_is_removed(
    small_fetch_cluster: KafkaCluster,
    cluster_view: ClusterView,
    throttled_broker: int,
    rate_config: str,
    replicas_config: str,
    replicas: str,
) -> None:
    """With a 50 KB/s throttle on the follower (or on the leader) for partition 0's replica there, a follower that
    missed 2 MB gets them at about that rate: it makes progress but stays far behind and out of the ISR for
    seconds (unthrottled it would catch up in about one). After kafka-configs.sh --delete-config it catches up:
    its segment files equal the leader's and the ISR is [0, 1] again."""
    cluster, view = small_fetch_cluster, cluster_view
    admin = AdminClient({"bootstrap.servers": cluster.bootstrap})
    admin.create_topics([NewTopic(TOPIC, num_partitions=1, replica_assignment=[[LEADER, FOLLOWER]])])[TOPIC].result(30)
    wait_until_true(lambda: view.has_partition_state(TOPIC), "the partition state", timeout=60, pause=0.2)
    wait_until_true(
        lambda: view.isr(TOPIC) == [LEADER, FOLLOWER], "the ISR to hold both replicas", timeout=60, pause=0.2
    )

    configs(
        cluster,
        "--alter",
        "--entity-type",
        "brokers",
        "--entity-name",
        str(throttled_broker),
        "--add-config",
        f"{rate_config}={RATE}",
    )
    configs(
        cluster,
        "--alter",
        "--entity-type",
        "topics",
        "--entity-name",
        TOPIC,
        "--add-config",
        f"{replicas_config}={replicas}",
    )
    described = configs(cluster, "--describe", "--entity-type", "brokers", "--entity-name", str(throttled_broker))
    assert f"{rate_config}={RATE}" in described

    # The follower misses the writes: stopped (controlled shutdown takes it out of the ISR), then restarted.
    cluster.broker(FOLLOWER).stop()
    wait_until_true(lambda: view.isr(TOPIC) == [LEADER], "the ISR to shrink to the leader", timeout=60, pause=0.2)
    produce(cluster)
    leader_size = log_size(cluster, LEADER)
    assert leader_size >= NUM_RECORDS * RECORD_SIZE
    cluster.broker(FOLLOWER).start()

    # Throttled: the follower replicates, but at about the throttled rate.
    wait_until_true(lambda: log_size(cluster, FOLLOWER) > 0, "the restarted follower to fetch", timeout=60, pause=0.2)
    start_size, start = log_size(cluster, FOLLOWER), time.monotonic()
    samples: list[tuple[float, int, list[int]]] = []
    while time.monotonic() - start < OBSERVATION_S:
        samples.append((time.monotonic() - start, log_size(cluster, FOLLOWER), view.isr(TOPIC)))
        time.sleep(0.5)
    end_elapsed, end_size, _ = samples[-1]
    replicated = end_size - start_size
    assert all(size < leader_size and current_isr == [LEADER] for _, size, current_isr in samples), samples
    assert replicated > 0, f"the throttled follower made no progress in {end_elapsed:.1f} s: {samples}"
    # Unthrottled this would be the whole 2 MB; allow for the first window and one fetch past the bound.
    assert replicated < 3 * RATE * end_elapsed + 2 * 16384, (
        f"{replicated} B in {end_elapsed:.1f} s is well above the {RATE} B/s throttle"
    )
    assert end_size < leader_size // 2

    # The throttle removed, the follower catches up and rejoins the ISR.
    configs(
        cluster,
        "--alter",
        "--entity-type",
        "brokers",
        "--entity-name",
        str(throttled_broker),
        "--delete-config",
        rate_config,
    )
    configs(cluster, "--alter", "--entity-type", "topics", "--entity-name", TOPIC, "--delete-config", replicas_config)
    wait_until_true(
        lambda: view.isr(TOPIC) == [LEADER, FOLLOWER], "the follower to rejoin the ISR", timeout=60, pause=0.2
    )
    wait_until_true(
        lambda: segment_bytes(cluster, FOLLOWER) == segment_bytes(cluster, LEADER),
        "the follower's segments to equal the leader's",
        timeout=60,
        pause=0.2,
    )
    assert log_size(cluster, FOLLOWER) == leader_size
