"""Tests of fetch from a follower (KIP-392) and of the replication quotas in kafka.server.replica_manager, after the
preferred-replica and throttling cases of Kafka's ReplicaManagerTest: `replica.selector.class` built from the
broker's config, the leader naming a preferred read replica for a consumer that sent its client metadata, a
follower serving such a consumer up to its own high watermark, and the quotas handed to the fetch paths."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, ClassVar

import pytest

from kafka.common.message import UpdateMetadataRequestData
from kafka.common.metrics import MetricConfig, Metrics
from kafka.common.protocol.errors import Errors
from kafka.common.replica.client_metadata import ClientMetadata
from kafka.common.replica.partition_view import PartitionView
from kafka.common.replica.replica_selector import ReplicaSelector
from kafka.common.replica.replica_view import ReplicaView
from kafka.common.security.auth.kafka_principal import KafkaPrincipal
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.utils import ClassNotFoundError
from kafka.server import quota_factory
from kafka.server.delayed_operation import DelayedOperationPurgatory
from kafka.server.kafka_config import KafkaConfig
from kafka.server.replica_manager import ReplicaManager
from kafka.utils.atomic import AtomicBoolean
from tests.unit.kafka.server.test_replica_manager import TOPIC, TP0, BrokerEnv, values_of

RACKS = {0: "rack-a", 1: "rack-b", 2: "rack-c"}
RACK_AWARE = "org.apache.kafka.common.replica.RackAwareReplicaSelector"


def consumer(rack: str, listener: str = "PLAINTEXT") -> ClientMetadata:
    return ClientMetadata(rack, "consumer-1", "127.0.0.1", KafkaPrincipal.ANONYMOUS, listener)


def partition_state(replicas: list[int], isr: list[int], leader: int = 0) -> Any:
    return UpdateMetadataRequestData.UpdateMetadataPartitionState(
        topic_name=TOPIC,
        partition_index=0,
        controller_epoch=1,
        leader=leader,
        leader_epoch=1,
        isr=isr,
        zk_version=1,
        replicas=replicas,
        offline_replicas=[],
    )


def lead_with_followers(env: BrokerEnv, isr: list[int], live: list[int] | None = None) -> None:
    """Broker 0 leads TP0 with replicas 0, 1, 2 (racks a, b, c); two records are written and every follower in
    `isr` fetches up to them (so the high watermark is 2 and they are caught up)."""
    env.update_metadata(live if live is not None else [0, 1, 2], [partition_state([0, 1, 2], isr)], racks=RACKS)
    env.leader_and_isr([0], replicas=[0, 1, 2], isr=isr)
    env.produce(TP0, b"a", b"b")
    for follower in isr[1:]:
        env.fetch({TP0: 0}, replica_id=follower)
        env.fetch({TP0: 2}, replica_id=follower, min_bytes=0)


@pytest.fixture
def rack_aware(tmp_path: Path) -> Iterator[BrokerEnv]:
    env = BrokerEnv(tmp_path / "logs", extra_props={"replica.selector.class": RACK_AWARE, "broker.rack": "rack-a"})
    yield env
    env.close()


def test_preferred_replica_as_leader_is_the_in_sync_follower_in_the_consumers_rack(rack_aware: BrokerEnv) -> None:
    """A consumer in rack-b is told to fetch from broker 1: no records, the leader's offsets, and the answer comes
    at once although the fetch could wait for a megabyte."""
    lead_with_followers(rack_aware, isr=[0, 1, 2])
    responses = rack_aware.fetch({TP0: 0}, min_bytes=1 << 20, timeout=500, client_metadata=consumer("rack-b"))
    [[(tp, data)]] = responses
    assert tp == TP0 and data.error == Errors.NONE
    assert data.preferred_read_replica == 1
    assert data.records.size_in_bytes() == 0
    assert (data.high_watermark, data.log_start_offset, data.last_stable_offset) == (2, 0, 2)


def test_consumer_in_the_leaders_rack_or_an_unknown_rack_reads_from_the_leader(rack_aware: BrokerEnv) -> None:
    """The leader's own rack, no rack and a rack without a replica all mean the leader: no preferred replica, and
    the records come from the leader."""
    lead_with_followers(rack_aware, isr=[0, 1, 2])
    for rack in ("rack-a", "", "rack-z"):
        [[(_, data)]] = rack_aware.fetch({TP0: 0}, client_metadata=consumer(rack))
        assert data.preferred_read_replica is None, rack
        assert values_of(data) == [(0, b"a"), (1, b"b")]


def test_follower_out_of_the_isr_is_not_preferred(rack_aware: BrokerEnv) -> None:
    """Follower 1 has every record but is not in the ISR: a rack-b consumer stays on the leader."""
    lead_with_followers(rack_aware, isr=[0, 2])
    rack_aware.fetch({TP0: 0}, replica_id=1)
    rack_aware.fetch({TP0: 2}, replica_id=1, min_bytes=0)
    [[(_, data)]] = rack_aware.fetch({TP0: 0}, client_metadata=consumer("rack-b"))
    assert data.preferred_read_replica is None
    assert values_of(data) == [(0, b"a"), (1, b"b")]


def test_follower_without_the_fetch_offset_is_not_preferred(rack_aware: BrokerEnv) -> None:
    """A follower whose last fetch stopped below the consumer's offset cannot serve it."""
    lead_with_followers(rack_aware, isr=[0, 1, 2])
    rack_aware.produce(TP0, b"c", b"d")
    rack_aware.fetch({TP0: 2}, replica_id=2)
    rack_aware.fetch({TP0: 4}, replica_id=2, min_bytes=0)
    rack_aware.fetch({TP0: 2}, replica_id=1)  # follower 1 has reported log end 2 only
    [[(_, in_rack_c)]] = rack_aware.fetch({TP0: 3}, client_metadata=consumer("rack-c"))
    assert in_rack_c.preferred_read_replica == 2
    [[(_, in_rack_b)]] = rack_aware.fetch({TP0: 3}, client_metadata=consumer("rack-b"))
    assert in_rack_b.preferred_read_replica is None


def test_follower_not_alive_or_without_the_listener_is_not_preferred(rack_aware: BrokerEnv) -> None:
    """A follower missing from the live brokers, or a consumer on a listener the follower lacks, stays on the
    leader."""
    lead_with_followers(rack_aware, isr=[0, 1, 2])
    [[(_, other_listener)]] = rack_aware.fetch({TP0: 0}, client_metadata=consumer("rack-b", listener="INTERNAL"))
    assert other_listener.preferred_read_replica is None
    rack_aware.update_metadata([0, 2], [partition_state([0, 1, 2], [0, 1, 2])], racks=RACKS)
    [[(_, data)]] = rack_aware.fetch({TP0: 0}, client_metadata=consumer("rack-b"))
    assert data.preferred_read_replica is None
    assert values_of(data) == [(0, b"a"), (1, b"b")]


def test_follower_fetches_never_get_a_preferred_replica(rack_aware: BrokerEnv) -> None:
    """A follower's Fetch v11+ carries client metadata too; replication always reads from the leader."""
    lead_with_followers(rack_aware, isr=[0, 1, 2])
    rack_aware.produce(TP0, b"c")
    [[(_, data)]] = rack_aware.fetch({TP0: 2}, replica_id=1, client_metadata=consumer("rack-b"))
    assert data.preferred_read_replica is None
    assert values_of(data) == [(2, b"c")]


def test_without_a_replica_selector_consumers_read_from_the_leader(tmp_path: Path) -> None:
    """With no replica.selector.class (the default) no preferred replica is ever named."""
    env = BrokerEnv(tmp_path / "logs")
    try:
        assert env.replica_manager.replica_selector_opt is None
        lead_with_followers(env, isr=[0, 1, 2])
        [[(_, data)]] = env.fetch({TP0: 0}, client_metadata=consumer("rack-b"))
        assert data.preferred_read_replica is None
        assert values_of(data) == [(0, b"a"), (1, b"b")]
    finally:
        env.close()


class AlwaysBroker2Selector(ReplicaSelector):
    """Picks broker 2 if it is offered, else the leader; remembers how it was configured and closed."""

    configured: ClassVar[list[Mapping[str, Any]]] = []
    closed: ClassVar[int] = 0

    def configure(self, configs: Mapping[str, Any]) -> None:
        AlwaysBroker2Selector.configured.append(dict(configs))

    def select(
        self, topic_partition: TopicPartition, client_metadata: ClientMetadata, partition_view: PartitionView
    ) -> ReplicaView | None:
        for replica in partition_view.replicas:
            if replica.endpoint.id == 2:
                return replica
        return partition_view.leader

    def close(self) -> None:
        AlwaysBroker2Selector.closed += 1


def test_replica_selector_class_is_configured_with_the_originals_and_closed_at_shutdown(tmp_path: Path) -> None:
    """A selector named by its Python path is made once, configured with the broker's original configs, asked for
    each consumer fetch (whatever the consumer's rack), and closed when the ReplicaManager shuts down."""
    AlwaysBroker2Selector.configured.clear()
    AlwaysBroker2Selector.closed = 0
    name = f"{__name__}.AlwaysBroker2Selector"
    env = BrokerEnv(tmp_path / "logs", extra_props={"replica.selector.class": name, "some.custom.key": "x"})
    try:
        assert isinstance(env.replica_manager.replica_selector_opt, AlwaysBroker2Selector)
        [configs] = AlwaysBroker2Selector.configured
        assert configs["replica.selector.class"] == name and configs["some.custom.key"] == "x"
        lead_with_followers(env, isr=[0, 1, 2])
        [[(_, data)]] = env.fetch({TP0: 0}, client_metadata=consumer(""))
        assert data.preferred_read_replica == 2
    finally:
        env.close()
    assert AlwaysBroker2Selector.closed == 1


def test_unknown_replica_selector_class_fails_the_replica_manager(tmp_path: Path) -> None:
    """A replica.selector.class that names no class stops the broker from starting (ClassNotFoundException)."""
    env = BrokerEnv(tmp_path / "logs")
    try:
        props = {
            "zookeeper.connect": "localhost:2181",
            "broker.id": 0,
            "log.dirs": str(env.log_dir),
            "replica.selector.class": "org.apache.kafka.common.replica.NoSuchReplicaSelector",
        }
        with pytest.raises(ClassNotFoundError):
            ReplicaManager(
                KafkaConfig(props),
                None,
                env.time,
                None,
                env.scheduler,
                env.log_manager,
                AtomicBoolean(False),
                None,
                None,
                env.metadata_cache,
                env.channel,
                env.alter_isr_manager,
                delayed_produce_purgatory=DelayedOperationPurgatory("Produce", env.timer, reaper_enabled=False),
                delayed_fetch_purgatory=DelayedOperationPurgatory("Fetch", env.timer, reaper_enabled=False),
            )
    finally:
        env.close()


def test_follower_serves_a_consumer_with_client_metadata_up_to_its_high_watermark(tmp_path: Path) -> None:
    """Once broker 0 follows broker 1, a consumer without client metadata (Fetch v10 and older) gets
    NOT_LEADER_OR_FOLLOWER, and one with client metadata reads up to this replica's high watermark, not its log
    end."""
    env = BrokerEnv(tmp_path / "logs")
    try:
        env.update_metadata([0, 1], [partition_state([0, 1], [0, 1])])
        env.leader_and_isr([0], replicas=[0, 1], isr=[0, 1])
        env.produce(TP0, b"a", b"b")
        env.produce(TP0, b"c")
        env.fetch({TP0: 0}, replica_id=1)
        env.fetch({TP0: 2}, replica_id=1, min_bytes=0)  # follower 1 has 2 of the 3 records: high watermark 2
        env.leader_and_isr([0], leader=1, leader_epoch=2, replicas=[0, 1], isr=[0, 1])
        partition = env.replica_manager.online_partition(TP0)
        assert partition is not None and not partition.is_leader
        assert env.replica_manager.local_log_or_exception(TP0).log_end_offset == 3

        [[(_, old_client)]] = env.fetch({TP0: 0})
        assert old_client.error == Errors.NOT_LEADER_OR_FOLLOWER

        [[(_, data)]] = env.fetch({TP0: 0}, current_leader_epoch=2, client_metadata=consumer("rack-b"))
        assert data.error == Errors.NONE and data.preferred_read_replica is None
        assert values_of(data) == [(0, b"a"), (1, b"b")]
        assert data.high_watermark == 2
        [[(_, at_high_watermark)]] = env.fetch({TP0: 2}, min_bytes=0, client_metadata=consumer("rack-b"))
        assert at_high_watermark.error == Errors.NONE and values_of(at_high_watermark) == []
        [[(_, stale_epoch)]] = env.fetch({TP0: 0}, current_leader_epoch=1, client_metadata=consumer("rack-b"))
        assert stale_epoch.error == Errors.FENCED_LEADER_EPOCH
    finally:
        env.close()


# -- replication quotas --------------------------------------------------------------------------------------------


class RecordingQuota:
    """A ReplicaQuota whose throttled partitions and exceeded state the test sets; keeps what is recorded."""

    def __init__(self, throttled: set[TopicPartition], exceeded: bool) -> None:
        self.throttled = throttled
        self.exceeded = exceeded
        self.recorded: list[int] = []

    def is_throttled(self, topic_partition: TopicPartition) -> bool:
        return topic_partition in self.throttled

    def is_quota_exceeded(self) -> bool:
        return self.exceeded

    def record(self, value: int) -> None:
        self.recorded.append(value)


def test_leader_throttles_only_out_of_sync_followers_of_throttled_partitions_over_quota(broker: BrokerEnv) -> None:
    """With TP0 throttled and the leader quota exceeded, follower 2 (out of the ISR) gets no records while follower
    1 (in the ISR) gets them all; below the quota, or for an unthrottled partition, follower 2 gets them too."""
    broker.update_metadata([0, 1, 2])
    broker.leader_and_isr([0], replicas=[0, 1, 2], isr=[0, 1])
    broker.produce(TP0, b"a", b"b")
    quota = RecordingQuota({TP0}, exceeded=True)
    [[(_, in_sync)]] = broker.fetch({TP0: 0}, replica_id=1, quota=quota)
    assert values_of(in_sync) == [(0, b"a"), (1, b"b")]
    [[(_, out_of_sync)]] = broker.fetch({TP0: 0}, replica_id=2, quota=quota)
    assert out_of_sync.error == Errors.NONE and values_of(out_of_sync) == []
    quota.exceeded = False
    [[(_, below_quota)]] = broker.fetch({TP0: 0}, replica_id=2, quota=quota)
    assert values_of(below_quota) == [(0, b"a"), (1, b"b")]
    quota.exceeded, quota.throttled = True, set()
    [[(_, unthrottled)]] = broker.fetch({TP0: 0}, replica_id=2, quota=quota)
    assert values_of(unthrottled) == [(0, b"a"), (1, b"b")]


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[BrokerEnv]:
    env = BrokerEnv(tmp_path / "logs")
    yield env
    env.close()


def test_follower_quota_goes_to_the_replica_fetcher_threads(tmp_path: Path) -> None:
    """The ReplicaManager hands the broker's follower quota to its fetcher manager, so the fetcher thread started
    when this broker becomes a follower throttles and records against it."""
    env = BrokerEnv(tmp_path / "logs")
    metrics = Metrics(MetricConfig(), [], env.time)
    quota_managers = quota_factory.instantiate(env.config, metrics, env.time)
    rm = ReplicaManager(
        env.config,
        metrics,
        env.time,
        None,
        env.scheduler,
        env.log_manager,
        AtomicBoolean(False),
        quota_managers,
        None,
        env.metadata_cache,
        env.channel,
        env.alter_isr_manager,
        delayed_produce_purgatory=DelayedOperationPurgatory("Produce", env.timer, reaper_enabled=False),
        delayed_fetch_purgatory=DelayedOperationPurgatory("Fetch", env.timer, reaper_enabled=False),
        delayed_delete_records_purgatory=DelayedOperationPurgatory("DeleteRecords", env.timer, reaper_enabled=False),
        delayed_elect_leader_purgatory=DelayedOperationPurgatory("ElectLeader", env.timer, reaper_enabled=False),
    )
    env.replica_manager.shutdown(checkpoint_hw=False)
    env.replica_manager = rm
    try:
        env.update_metadata([0, 1])
        env.leader_and_isr([0], leader=1, replicas=[1, 0], isr=[1, 0])
        fetcher = rm.replica_fetcher_manager.get_fetcher(TP0)
        assert fetcher is not None
        assert fetcher._quota is quota_managers.follower
    finally:
        env.close()
        quota_managers.shutdown()
        metrics.close()


def _fetch_data(records: Any, high_watermark: int) -> Any:
    from kafka.common.message import FetchResponseData

    return FetchResponseData.PartitionData(
        partition_index=0, high_watermark=high_watermark, log_start_offset=0, records=records
    )


@pytest.mark.parametrize("throttled", [True, False])
def test_follower_records_the_bytes_it_appends_to_throttled_partitions(tmp_path: Path, throttled: bool) -> None:
    """ReplicaFetcherThread.process_partition_data appends the leader's batch, takes on its high watermark, and
    records the batch's size against the follower quota when the partition is throttled (in sync or not)."""
    from kafka.cluster.broker import BrokerEndPoint
    from kafka.common.record.compression_type import CompressionType
    from kafka.common.record.memory_records import MemoryRecords
    from kafka.common.record.simple_record import SimpleRecord
    from kafka.server.abstract_fetcher_manager import FailedPartitions
    from kafka.server.replica_fetcher_thread import ReplicaFetcherThread
    from tests.unit.kafka.server.test_replica_fetcher_thread import RecordingSend

    env = BrokerEnv(tmp_path / "logs")
    try:
        env.update_metadata([0, 1])
        env.leader_and_isr([0], leader=1, replicas=[1, 0], isr=[1, 0])
        quota = RecordingQuota({TP0} if throttled else set(), exceeded=False)
        thread = ReplicaFetcherThread(
            "ReplicaFetcherThread-9-1",
            9,
            BrokerEndPoint(1, "localhost", 9093),
            env.config,
            FailedPartitions(),
            env.replica_manager,
            None,
            env.time,
            quota,
            RecordingSend(),
        )
        built = MemoryRecords.with_records(
            CompressionType.NONE, SimpleRecord(0, b"k", b"v1"), SimpleRecord(0, None, b"v2"), partition_leader_epoch=1
        )
        records = MemoryRecords.readable_records(bytearray(built.buffer()))
        thread.process_partition_data(TP0, 0, _fetch_data(records, high_watermark=1))
        log = env.replica_manager.local_log_or_exception(TP0)
        assert (log.log_end_offset, log.high_watermark) == (2, 1)
        assert quota.recorded == ([records.size_in_bytes()] if throttled else [])
    finally:
        env.close()
