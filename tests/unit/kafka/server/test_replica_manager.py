"""Tests of kafka.server.replica_manager, after Kafka's ReplicaManagerTest: a real LogManager on tmp_path, real
purgatories on a MockTimer, and LeaderAndIsr/UpdateMetadata/StopReplica requests as the controller sends them."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from kafka.cluster.broker import Node
from kafka.common.errors import ControllerMovedException
from kafka.common.isolation_level import IsolationLevel
from kafka.common.message import (
    LeaderAndIsrRequestData,
    OffsetForLeaderEpochRequestData,
    StopReplicaRequestData,
    UpdateMetadataRequestData,
)
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import Uuid
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.file_records import FileRecords
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.simple_record import SimpleRecord
from kafka.common.replica.client_metadata import ClientMetadata
from kafka.common.requests.fetch_request import PartitionData
from kafka.common.requests.leader_and_isr_request import LeaderAndIsrRequestBuilder
from kafka.common.requests.list_offsets_request import (
    EARLIEST_LOCAL_TIMESTAMP,
    EARLIEST_TIMESTAMP,
    LATEST_TIMESTAMP,
    MAX_TIMESTAMP,
)
from kafka.common.requests.produce_response import PartitionResponse
from kafka.common.requests.update_metadata_request import UpdateMetadataRequestBuilder
from kafka.common.security.auth.security_protocol import SecurityProtocol
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import MockTime
from kafka.log.log_dir_failure_channel import LogDirFailureChannel
from kafka.log.log_manager import LogManager
from kafka.log.log_validator import Client
from kafka.server.alter_isr_manager import AlterIsrItem, AlterIsrManager
from kafka.server.checkpoints.offset_checkpoint_file import OffsetCheckpointFile
from kafka.server.delayed_operation import DelayedOperationPurgatory
from kafka.server.kafka_config import KafkaConfig
from kafka.server.metadata_cache import ZkMetadataCache
from kafka.server.replica_manager import (
    HIGH_WATERMARK_FILENAME,
    FetchPartitionData,
    None_,
    Offline,
    Online,
    ReplicaManager,
)
from kafka.utils.atomic import AtomicBoolean
from kafka.utils.mock_scheduler import MockScheduler
from kafka.utils.timer.mock_timer import MockTimer
from tests.utils import wait_until_true

START_MS = 1_700_000_000_000
TOPIC = "t"
TOPIC_ID = Uuid(7, 7)
TP0 = TopicPartition(TOPIC, 0)
TP1 = TopicPartition(TOPIC, 1)
CONSUMER = -1


class TopicConfigs:
    """Topic config overrides as ZooKeeper's /config/topics would hold them (LogManager's ConfigRepository)."""

    def __init__(self, overrides: Mapping[str, Mapping[str, Any]] | None = None) -> None:
        self.overrides = dict(overrides or {})

    def topic_config(self, topic: str) -> Mapping[str, Any]:
        return self.overrides.get(topic, {})


class RecordingAlterIsrManager(AlterIsrManager):
    """Accepts ISR changes and keeps them pending, as a controller that has not answered yet would."""

    def __init__(self) -> None:
        self.items: list[AlterIsrItem] = []

    def submit(self, alter_isr_item: AlterIsrItem) -> bool:
        self.items.append(alter_isr_item)
        return True

    def clear_pending(self, topic_partition: TopicPartition) -> None:
        self.items = [i for i in self.items if i.topic_partition != topic_partition]


class BrokerEnv:
    """Broker 0's replica side: config, MockTime/MockScheduler, LogManager on `log_dir`, metadata cache, purgatories
    on one MockTimer, and the ReplicaManager over them."""

    def __init__(
        self,
        log_dir: Path,
        topic_configs: TopicConfigs | None = None,
        time: MockTime | None = None,
        extra_log_dirs: tuple[Path, ...] = (),
        extra_props: Mapping[str, Any] | None = None,
    ) -> None:
        self.log_dir = log_dir
        self.time = time if time is not None else MockTime(start_ms=START_MS)
        self.scheduler = MockScheduler(self.time)
        self.config = KafkaConfig(
            {
                "zookeeper.connect": "localhost:2181",
                "broker.id": 0,
                "log.dirs": ",".join(str(d) for d in (log_dir, *extra_log_dirs)),
                "log.cleaner.enable": "false",
                **(extra_props or {}),
            }
        )
        self.channel = LogDirFailureChannel(1 + len(extra_log_dirs))
        self.log_manager = LogManager.apply(
            self.config, [], topic_configs or TopicConfigs(), self.scheduler, self.time, self.channel
        )
        self.log_manager.startup([])
        self.metadata_cache = ZkMetadataCache(0)
        self.timer = MockTimer(self.time)
        self.alter_isr_manager = RecordingAlterIsrManager()
        self.replica_manager = ReplicaManager(
            self.config,
            None,
            self.time,
            None,
            self.scheduler,
            self.log_manager,
            AtomicBoolean(False),
            None,
            None,
            self.metadata_cache,
            self.channel,
            self.alter_isr_manager,
            delayed_produce_purgatory=DelayedOperationPurgatory("Produce", self.timer, reaper_enabled=False),
            delayed_fetch_purgatory=DelayedOperationPurgatory("Fetch", self.timer, reaper_enabled=False),
            delayed_delete_records_purgatory=DelayedOperationPurgatory(
                "DeleteRecords", self.timer, reaper_enabled=False
            ),
            delayed_elect_leader_purgatory=DelayedOperationPurgatory("ElectLeader", self.timer, reaper_enabled=False),
        )
        self.update_metadata([0])

    def close(self) -> None:
        self.replica_manager.shutdown(checkpoint_hw=False)
        self.log_manager.shutdown()

    # -- controller requests -----------------------------------------------------------------------------------

    def update_metadata(
        self,
        live_brokers: list[int],
        states: list[Any] | None = None,
        controller_epoch: int = 1,
        racks: Mapping[int, str] | None = None,
    ) -> list[TopicPartition]:
        brokers = [
            UpdateMetadataRequestData.UpdateMetadataBroker(
                id=b,
                endpoints=[
                    UpdateMetadataRequestData.UpdateMetadataEndpoint(
                        host="localhost",
                        port=9092 + b,
                        listener="PLAINTEXT",
                        security_protocol=SecurityProtocol.PLAINTEXT.id,
                    )
                ],
                rack=None if racks is None else racks.get(b),
            )
            for b in live_brokers
        ]
        request = UpdateMetadataRequestBuilder(
            7, 0, controller_epoch, 0, states or [], brokers, {TOPIC: TOPIC_ID}
        ).build()
        return self.replica_manager.maybe_update_metadata_cache(1, request)

    def leader_and_isr(
        self,
        partitions: list[int],
        leader: int = 0,
        leader_epoch: int = 1,
        replicas: list[int] | None = None,
        isr: list[int] | None = None,
        controller_epoch: int = 1,
        version: int = 5,
        changes: list[tuple[list[Any], list[Any]]] | None = None,
    ) -> Any:
        replicas = replicas if replicas is not None else [0]
        states = [
            LeaderAndIsrRequestData.LeaderAndIsrPartitionState(
                topic_name=TOPIC,
                partition_index=p,
                controller_epoch=controller_epoch,
                leader=leader,
                leader_epoch=leader_epoch,
                isr=isr if isr is not None else list(replicas),
                partition_epoch=0,
                replicas=replicas,
                is_new=True,
            )
            for p in partitions
        ]
        request = LeaderAndIsrRequestBuilder(
            version, 0, controller_epoch, 0, states, {TOPIC: TOPIC_ID}, [Node(leader, "localhost", 9092 + leader)]
        ).build()

        def on_change(leaders: Any, followers: Any) -> None:
            if changes is not None:
                changes.append((list(leaders), list(followers)))

        return self.replica_manager.become_leader_or_follower(1, request, on_change)

    # -- client requests ---------------------------------------------------------------------------------------

    def produce(
        self, tp: TopicPartition, *values: bytes, acks: int = 1, timeout: int = 1000, timestamp: int = START_MS
    ) -> list[PartitionResponse]:
        """Appends one batch; returns the list the response callback fills (empty while it waits)."""
        built = MemoryRecords.with_records(CompressionType.NONE, *(SimpleRecord(timestamp, b"k", v) for v in values))
        records = MemoryRecords.readable_records(bytearray(built.buffer()))
        responses: list[PartitionResponse] = []
        self.replica_manager.append_records(
            timeout, acks, False, Client(), {tp: records}, lambda result: responses.append(result[tp])
        )
        # KafkaApis drains the action queue after each request.
        self.replica_manager.try_complete_actions()
        return responses

    def fetch(
        self,
        offsets: Mapping[TopicPartition, int],
        replica_id: int = CONSUMER,
        min_bytes: int = 1,
        max_bytes: int = 1 << 20,
        partition_max_bytes: int = 1 << 20,
        timeout: int = 0,
        hard_max_bytes_limit: bool = False,
        current_leader_epoch: int | None = None,
        isolation: IsolationLevel = IsolationLevel.READ_UNCOMMITTED,
        quota: Any = None,
        client_metadata: ClientMetadata | None = None,
    ) -> list[list[tuple[TopicPartition, FetchPartitionData]]]:
        """Fetches; returns the list the response callback fills (empty while the fetch waits)."""
        infos = [
            (tp, PartitionData(TOPIC_ID, offset, 0, partition_max_bytes, current_leader_epoch))
            for tp, offset in offsets.items()
        ]
        responses: list[list[tuple[TopicPartition, FetchPartitionData]]] = []
        self.replica_manager.fetch_messages(
            timeout,
            replica_id,
            min_bytes,
            max_bytes,
            hard_max_bytes_limit,
            infos,
            quota,
            responses.append,
            isolation,
            client_metadata,
        )
        return responses


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[BrokerEnv]:
    env = BrokerEnv(tmp_path / "logs")
    yield env
    env.close()


def values_of(data: FetchPartitionData) -> list[tuple[int, bytes | None]]:
    return [(r.offset(), r.value()) for r in data.records.records()]


def test_become_leader_then_produce_with_acks_1_and_all_and_read_back(broker: BrokerEnv) -> None:
    """A LeaderAndIsr makes the broker leader; acks=1 and acks=-1 produces (the ISR is just the leader) answer at
    once with their base offsets, and a consumer fetch reads both batches up to the high watermark."""
    changes: list[tuple[list[Any], list[Any]]] = []
    response = broker.leader_and_isr([0], changes=changes)
    assert response.error() == Errors.NONE
    assert response.partition_errors({TOPIC_ID: TOPIC}) == {(TOPIC, 0): Errors.NONE}
    assert [p.topic_partition for p in changes[0][0]] == [TP0] and changes[0][1] == []
    partition = broker.replica_manager.online_partition(TP0)
    assert partition is not None and partition.is_leader and partition.get_leader_epoch() == 1
    assert partition.log is not None and partition.log.topic_id == TOPIC_ID

    r1 = broker.produce(TP0, b"a", b"b", acks=1)
    assert [(r.error, r.base_offset) for r in r1] == [(Errors.NONE, 0)]
    r2 = broker.produce(TP0, b"c", acks=-1)
    assert [(r.error, r.base_offset) for r in r2] == [(Errors.NONE, 2)]

    [fetched] = broker.fetch({TP0: 0})
    [(tp, data)] = fetched
    assert tp == TP0 and data.error == Errors.NONE
    assert (data.high_watermark, data.last_stable_offset, data.log_start_offset) == (3, 3, 0)
    assert values_of(data) == [(0, b"a"), (1, b"b"), (2, b"c")]
    assert isinstance(data.records, FileRecords)  # a zero-copy slice of the segment file


def test_stale_controller_and_leader_epochs_are_rejected(broker: BrokerEnv) -> None:
    """A request from an older controller gets STALE_CONTROLLER_EPOCH at the top level (LeaderAndIsr, StopReplica)
    or ControllerMovedException (UpdateMetadata); a partition state whose leader epoch is not newer gets
    STALE_CONTROLLER_EPOCH for that partition."""
    assert broker.leader_and_isr([0], controller_epoch=5, leader_epoch=3).error() == Errors.NONE
    stale = broker.leader_and_isr([0], controller_epoch=4, leader_epoch=9)
    assert stale.error() == Errors.STALE_CONTROLLER_EPOCH
    same_epoch = broker.leader_and_isr([0], controller_epoch=5, leader_epoch=3)
    assert same_epoch.partition_errors({TOPIC_ID: TOPIC}) == {(TOPIC, 0): Errors.STALE_CONTROLLER_EPOCH}
    older_epoch = broker.leader_and_isr([0], controller_epoch=5, leader_epoch=2, version=4)
    assert older_epoch.partition_errors({}) == {(TOPIC, 0): Errors.STALE_CONTROLLER_EPOCH}
    with pytest.raises(ControllerMovedException):
        broker.update_metadata([0], controller_epoch=4)
    state = StopReplicaRequestData.StopReplicaPartitionState(partition_index=0, leader_epoch=9, delete_partition=False)
    assert broker.replica_manager.stop_replicas(1, 0, 4, 0, {TP0: state}) == ({}, Errors.STALE_CONTROLLER_EPOCH)
    partition = broker.replica_manager.online_partition(TP0)
    assert partition is not None and partition.get_leader_epoch() == 3


def test_not_in_replica_list_and_unknown_partitions(broker: BrokerEnv) -> None:
    """A LeaderAndIsr for a partition this broker is not a replica of answers UNKNOWN_TOPIC_OR_PARTITION; produce
    and fetch to unhosted partitions answer UNKNOWN_TOPIC_OR_PARTITION, or NOT_LEADER_OR_FOLLOWER when the
    metadata cache knows the topic."""
    response = broker.leader_and_isr([0], leader=1, replicas=[1, 2])
    assert response.partition_errors({TOPIC_ID: TOPIC}) == {(TOPIC, 0): Errors.UNKNOWN_TOPIC_OR_PARTITION}
    unknown = TopicPartition("nope", 0)
    assert broker.produce(unknown, b"x")[0].error == Errors.UNKNOWN_TOPIC_OR_PARTITION
    state = UpdateMetadataRequestData.UpdateMetadataPartitionState(
        topic_name="other", partition_index=0, leader=1, leader_epoch=1, isr=[1], replicas=[1]
    )
    broker.update_metadata([0, 1], [state])
    [[(_, data)]] = broker.fetch({TopicPartition("other", 0): 0})
    assert data.error == Errors.NOT_LEADER_OR_FOLLOWER


def test_invalid_acks_and_not_enough_replicas(tmp_path: Path) -> None:
    """acks=2 answers INVALID_REQUIRED_ACKS; acks=-1 with an ISR smaller than min.insync.replicas answers
    NOT_ENOUGH_REPLICAS and appends nothing, while acks=1 still appends."""
    env = BrokerEnv(tmp_path / "logs", TopicConfigs({TOPIC: {"min.insync.replicas": "2"}}))
    try:
        env.leader_and_isr([0])
        assert env.produce(TP0, b"x", acks=2)[0].error == Errors.INVALID_REQUIRED_ACKS
        assert env.produce(TP0, b"x", acks=-1)[0].error == Errors.NOT_ENOUGH_REPLICAS
        assert env.replica_manager.get_log_end_offset(TP0) == 0
        assert env.produce(TP0, b"x", acks=1)[0].error == Errors.NONE
        assert env.replica_manager.get_log_end_offset(TP0) == 1
    finally:
        env.close()


def test_fetch_beyond_log_end_is_offset_out_of_range(broker: BrokerEnv) -> None:
    """A fetch at an offset past the log end answers OFFSET_OUT_OF_RANGE, not empty data, even with a max wait."""
    broker.leader_and_isr([0])
    broker.produce(TP0, b"a")
    [[(_, data)]] = broker.fetch({TP0: 5}, timeout=500)
    assert data.error == Errors.OFFSET_OUT_OF_RANGE
    assert data.high_watermark == -1 and data.last_stable_offset is None
    [[(_, at_end)]] = broker.fetch({TP0: 1}, min_bytes=0)
    assert at_end.error == Errors.NONE and at_end.records.size_in_bytes() == 0


def test_fetch_with_min_bytes_waits_until_a_produce_arrives(broker: BrokerEnv) -> None:
    """A fetch that finds fewer than fetch.min.bytes waits in the Fetch purgatory and completes, with the new
    records, as soon as a produce to the partition is appended."""
    broker.leader_and_isr([0, 1])
    responses = broker.fetch({TP0: 0, TP1: 0}, min_bytes=1, timeout=10_000)
    assert responses == []
    assert broker.replica_manager.delayed_fetch_purgatory.num_delayed == 1

    broker.produce(TP1, b"hello")
    assert len(responses) == 1
    by_tp = dict(responses[0])
    assert values_of(by_tp[TP1]) == [(0, b"hello")]
    assert by_tp[TP0].records.size_in_bytes() == 0


def test_fetch_with_min_bytes_answers_empty_when_max_wait_expires(broker: BrokerEnv) -> None:
    """Without a produce, the waiting fetch answers with no records once its max wait has passed, not before."""
    broker.leader_and_isr([0])
    responses = broker.fetch({TP0: 0}, min_bytes=100, timeout=500)
    broker.timer.advance_clock(499)
    assert responses == []
    broker.timer.advance_clock(2)
    [[(_, data)]] = responses
    assert data.error == Errors.NONE and data.records.size_in_bytes() == 0 and data.high_watermark == 0


def test_max_bytes_returns_first_batch_whole_then_respects_limits(broker: BrokerEnv) -> None:
    """With limits smaller than a batch, the first non-empty partition still returns its first batch whole (so
    consumers progress); later partitions get nothing once the response limit is used; Fetch v0-2's hard limit
    returns no whole batch."""
    broker.leader_and_isr([0, 1])
    big = b"x" * 300
    broker.produce(TP0, big)
    broker.produce(TP0, big)
    broker.produce(TP1, big)
    [fetched] = broker.fetch({TP0: 0, TP1: 0}, max_bytes=100, partition_max_bytes=50)
    by_tp = dict(fetched)
    assert values_of(by_tp[TP0]) == [(0, big)]  # one whole batch, not two
    assert by_tp[TP1].records.size_in_bytes() == 0
    assert by_tp[TP0].records.size_in_bytes() > 100

    [fetched_big] = broker.fetch({TP0: 0, TP1: 0}, max_bytes=10_000, partition_max_bytes=10_000)
    assert [len(values_of(d)) for _, d in fetched_big] == [2, 1]

    [hard] = broker.fetch({TP0: 0}, max_bytes=50, partition_max_bytes=50, hard_max_bytes_limit=True)
    assert values_of(hard[0][1]) == []


def test_acks_all_waits_for_the_follower_and_times_out_without_it(broker: BrokerEnv) -> None:
    """With ISR {0, 1}, an acks=-1 produce waits until follower 1 fetches past its records (moving the high
    watermark), and answers REQUEST_TIMED_OUT if the follower never does."""
    broker.update_metadata([0, 1])
    broker.leader_and_isr([0], replicas=[0, 1], isr=[0, 1])
    waiting = broker.produce(TP0, b"a", b"b", acks=-1, timeout=1000)
    assert waiting == []
    [[(_, data)]] = broker.fetch({TP0: 0}, replica_id=1)
    assert values_of(data) == [(0, b"a"), (1, b"b")] and data.high_watermark == 0
    broker.fetch({TP0: 2}, replica_id=1, min_bytes=0)
    assert [(r.error, r.base_offset) for r in waiting] == [(Errors.NONE, 0)]
    assert broker.replica_manager.local_log_or_exception(TP0).high_watermark == 2

    timed_out = broker.produce(TP0, b"c", acks=-1, timeout=1000)
    broker.timer.advance_clock(1001)
    assert [r.error for r in timed_out] == [Errors.REQUEST_TIMED_OUT]


def test_list_offsets_latest_earliest_by_timestamp_and_max(broker: BrokerEnv) -> None:
    """ListOffsets: latest is the log end offset, earliest the log start, a timestamp the first record at or after
    it, MAX_TIMESTAMP the record holding the largest timestamp; consumers never see past the high watermark."""
    broker.leader_and_isr([0])
    for value, timestamp in ((b"a", 1000), (b"b", 3000), (b"c", 2500), (b"d", 2000)):
        broker.produce(TP0, value, timestamp=timestamp)
    rm = broker.replica_manager

    def lookup(ts: int, isolation: IsolationLevel | None = IsolationLevel.READ_UNCOMMITTED) -> tuple[int, int] | None:
        found = rm.fetch_offset_for_timestamp(TP0, ts, isolation, None, True)
        return None if found is None else (found.timestamp, found.offset)

    assert lookup(LATEST_TIMESTAMP) == (-1, 4)
    assert lookup(EARLIEST_TIMESTAMP) == (-1, 0)
    assert lookup(1500) == (3000, 1)
    assert lookup(MAX_TIMESTAMP) == (3000, 1)
    assert lookup(5000) is None
    assert rm.legacy_fetch_offsets_for_timestamp(TP0, LATEST_TIMESTAMP, 10, True, True) == [4, 0]


def test_stop_replica_with_delete_removes_the_log(broker: BrokerEnv) -> None:
    """StopReplica with delete forgets the partition and deletes its log; without delete only the fetcher stops;
    a lower leader epoch is fenced."""
    broker.leader_and_isr([0, 1], leader_epoch=2)
    broker.produce(TP0, b"a")
    rm = broker.replica_manager
    fenced = StopReplicaRequestData.StopReplicaPartitionState(partition_index=0, leader_epoch=1, delete_partition=True)
    assert rm.stop_replicas(1, 0, 1, 0, {TP0: fenced}) == ({TP0: Errors.FENCED_LEADER_EPOCH}, Errors.NONE)

    delete = StopReplicaRequestData.StopReplicaPartitionState(partition_index=0, leader_epoch=-2, delete_partition=True)
    keep = StopReplicaRequestData.StopReplicaPartitionState(partition_index=1, leader_epoch=3, delete_partition=False)
    errors, top = rm.stop_replicas(2, 0, 1, 0, {TP0: delete, TP1: keep})
    assert (errors, top) == ({TP0: Errors.NONE, TP1: Errors.NONE}, Errors.NONE)
    assert isinstance(rm.get_partition(TP0), None_)
    assert broker.log_manager.get_log(TP0) is None
    assert not (broker.log_dir / "t-0").exists()
    assert isinstance(rm.get_partition(TP1), Online) and broker.log_manager.get_log(TP1) is not None


def test_high_watermark_checkpoint_is_written_and_read_back(tmp_path: Path) -> None:
    """After the first LeaderAndIsr the `highwatermark-checkpoint` task writes each log's high watermark to
    replication-offset-checkpoint; a restarted broker starts the partition at that high watermark."""
    log_dir = tmp_path / "logs"
    env = BrokerEnv(log_dir)
    try:
        env.leader_and_isr([0])
        env.produce(TP0, b"a", b"b", b"c")
        checkpoint = OffsetCheckpointFile(log_dir / HIGH_WATERMARK_FILENAME)
        env.time.sleep(env.config.replica_high_watermark_checkpoint_interval_ms)
        assert checkpoint.read() == {TP0: 3}
        # A follower position that lags is checkpointed as it is.
        log = env.replica_manager.local_log_or_exception(TP0)
        log.update_high_watermark(1)
        env.replica_manager.checkpoint_high_watermarks()
        assert checkpoint.read() == {TP0: 1}
    finally:
        env.close()

    restarted = BrokerEnv(log_dir, time=MockTime(start_ms=START_MS))
    try:
        restarted.leader_and_isr([0], leader=0, replicas=[0, 1], isr=[0, 1])
        log = restarted.replica_manager.local_log_or_exception(TP0)
        assert (log.log_end_offset, log.high_watermark) == (3, 1)
    finally:
        restarted.close()


def test_delete_records_moves_the_log_start_offset(broker: BrokerEnv) -> None:
    """DeleteRecords moves the leader's log start offset (to the high watermark for -1) and answers with the low
    watermark; fetches below it are out of range; internal topics are refused."""
    broker.leader_and_isr([0])
    broker.produce(TP0, b"a", b"b", b"c")
    results: list[dict[TopicPartition, Any]] = []
    broker.replica_manager.delete_records(1000, {TP0: 2}, results.append)
    assert [(r[TP0].error_code, r[TP0].low_watermark) for r in results] == [(0, 2)]
    [[(_, data)]] = broker.fetch({TP0: 0})
    assert data.error == Errors.OFFSET_OUT_OF_RANGE
    for earliest in (EARLIEST_TIMESTAMP, EARLIEST_LOCAL_TIMESTAMP):
        found = broker.replica_manager.fetch_offset_for_timestamp(TP0, earliest, None, None, True)
        assert found is not None and found.offset == 2
    broker.replica_manager.delete_records(1000, {TP0: -1, TopicPartition("__consumer_offsets", 0): 1}, results.append)
    assert results[1][TP0].low_watermark == 3
    assert results[1][TopicPartition("__consumer_offsets", 0)].error_code == Errors.INVALID_TOPIC_EXCEPTION.code


def test_become_follower_of_a_live_leader_starts_a_fetcher(broker: BrokerEnv) -> None:
    """A LeaderAndIsr naming live broker 1 leader makes this broker a follower: produces are refused and a
    ReplicaFetcherThread-0-1 fetches the partition from its log end at the new epoch; becoming leader again
    removes the partition and the idle thread stops."""
    broker.update_metadata([0, 1])
    broker.leader_and_isr([0])
    broker.produce(TP0, b"a")
    changes: list[tuple[list[Any], list[Any]]] = []
    response = broker.leader_and_isr([0], leader=1, leader_epoch=2, replicas=[1, 0], changes=changes)
    assert response.partition_errors({TOPIC_ID: TOPIC}) == {(TOPIC, 0): Errors.NONE}
    assert changes[0][0] == [] and [p.topic_partition for p in changes[0][1]] == [TP0]
    assert broker.produce(TP0, b"b")[0].error == Errors.NOT_LEADER_OR_FOLLOWER
    manager = broker.replica_manager.replica_fetcher_manager
    fetcher = manager.get_fetcher(TP0)
    assert fetcher is not None and fetcher.name == "ReplicaFetcherThread-0-1" and fetcher.is_alive()
    assert fetcher.source_broker.id == 1
    state = fetcher.fetch_state(TP0)
    assert state is not None and (state.current_leader_epoch, state.fetch_offset) == (2, 1)

    # The leader elsewhere moves on; a LeaderAndIsr making this broker leader again stops the fetcher.
    broker.leader_and_isr([0], leader=0, leader_epoch=3, replicas=[1, 0], isr=[0])
    assert manager.get_fetcher(TP0) is None and manager.fetcher_thread_map == {}
    wait_until_true(lambda: not fetcher.is_alive(), "the idle fetcher thread to stop")


def test_describe_log_dirs_and_offsets_for_leader_epoch(broker: BrokerEnv) -> None:
    """DescribeLogDirs lists the asked-for partitions of each log directory with size and lag;
    OffsetsForLeaderEpoch answers the end offset of the requested epoch, or errors for unknown partitions."""
    broker.leader_and_isr([0, 1], leader_epoch=4)
    broker.produce(TP0, b"a", b"b")
    [result] = broker.replica_manager.describe_log_dirs({TP0})
    assert result.log_dir == str(broker.log_dir.absolute()) and result.error_code == 0
    [topic] = result.topics
    [p] = topic.partitions
    assert (topic.name, p.partition_index, p.offset_lag, p.is_future_key) == (TOPIC, 0, 0, False)
    assert p.partition_size == broker.replica_manager.local_log_or_exception(TP0).size > 0

    request = [
        OffsetForLeaderEpochRequestData.OffsetForLeaderTopic(
            topic=TOPIC,
            partitions=[
                OffsetForLeaderEpochRequestData.OffsetForLeaderPartition(partition=0, leader_epoch=4),
                OffsetForLeaderEpochRequestData.OffsetForLeaderPartition(partition=7, leader_epoch=4),
            ],
        )
    ]
    [topic_result] = broker.replica_manager.last_offset_for_leader_epoch(request)
    by_partition = {p.partition: p for p in topic_result.partitions}
    assert (by_partition[0].error_code, by_partition[0].leader_epoch, by_partition[0].end_offset) == (0, 4, 2)
    assert by_partition[7].error_code == Errors.UNKNOWN_TOPIC_OR_PARTITION.code


def test_log_dir_failure_takes_its_partitions_offline(tmp_path: Path) -> None:
    """When a log directory fails, the partitions in it become offline (produce and LeaderAndIsr answer
    KAFKA_STORAGE_ERROR) while partitions in the other directory keep serving."""
    env = BrokerEnv(tmp_path / "a", extra_log_dirs=(tmp_path / "b",))
    try:
        env.leader_and_isr([0, 1])
        rm = env.replica_manager
        failed_dir = rm.get_log_dir(TP0)
        assert failed_dir is not None and rm.get_log_dir(TP1) != failed_dir
        rm.handle_log_dir_failure(failed_dir, send_zk_notification=False)
        assert isinstance(rm.get_partition(TP0), Offline)
        assert env.produce(TP0, b"a")[0].error == Errors.KAFKA_STORAGE_ERROR
        assert env.produce(TP1, b"a")[0].error == Errors.NONE
        response = env.leader_and_isr([0], leader_epoch=2)
        assert response.partition_errors({TOPIC_ID: TOPIC}) == {(TOPIC, 0): Errors.KAFKA_STORAGE_ERROR}
        assert set(rm.high_watermark_checkpoints) == {rm.get_log_dir(TP1)}
    finally:
        env.close()


def test_startup_schedules_isr_expiration_and_shutdown_stops_threads(tmp_path: Path) -> None:
    """startup() schedules `isr-expiration` and starts LogDirFailureHandler; shutdown stops it and the reaper
    threads of purgatories created by the ReplicaManager itself."""
    env = BrokerEnv(tmp_path / "logs")
    rm = ReplicaManager(
        env.config,
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
    )
    try:
        rm.startup()
        names = {t.name for t in threading.enumerate()}
        assert {"LogDirFailureHandler", "ExpirationReaper-0-Produce", "ExpirationReaper-0-Fetch"} <= names
        assert env.scheduler.size >= 1
    finally:
        rm.shutdown()
        env.close()


def test_waiting_fetch_completes_from_a_produce_on_another_thread_with_real_purgatories(tmp_path: Path) -> None:
    """With the ReplicaManager's own purgatories (system timer, reaper threads), a fetch waiting up to 5 minutes is
    answered as soon as a produce from another request thread lands, and one without a produce after its 200 ms."""
    env = BrokerEnv(tmp_path / "logs")
    rm = ReplicaManager(
        env.config,
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
    )
    env.replica_manager.shutdown(checkpoint_hw=False)
    env.replica_manager = rm
    try:
        env.leader_and_isr([0, 1])
        answered = threading.Event()
        responses = env.fetch({TP0: 0}, min_bytes=1, timeout=300_000)  # far beyond the deadlines below
        expiring = env.fetch({TP1: 0}, min_bytes=1, timeout=200)
        assert responses == [] and expiring == []

        def produce_late() -> None:
            env.produce(TP0, b"late")
            answered.set()

        producer = threading.Thread(target=produce_late)
        producer.start()
        producer.join(60)
        wait_until_true(lambda: len(responses) == 1, "the waiting fetch to be answered", timeout=60)
        assert values_of(responses[0][0][1]) == [(0, b"late")]
        wait_until_true(lambda: len(expiring) == 1, "the other fetch to expire", timeout=60)
        assert expiring[0][0][1].records.size_in_bytes() == 0 and answered.is_set()
    finally:
        env.close()


def test_becoming_follower_drops_the_topics_leader_meters(broker: BrokerEnv) -> None:
    """ReplicaManager.updateLeaderAndFollowerMetrics: once this broker only follows the topic, its MessagesIn and
    BytesIn meters (marked while it led) are removed; leading again marks them anew."""
    from kafka.metrics.kafka_yammer_metrics import KafkaYammerMetrics
    from kafka.server.kafka_request_handler import BrokerTopicStats

    def registered(name: str) -> bool:
        mbean = f"kafka.server:type=BrokerTopicMetrics,name={name},topic={TOPIC}"
        return any(n.mbean_name == mbean for n in KafkaYammerMetrics.default_registry().all_metrics())

    stats = BrokerTopicStats()
    broker.replica_manager.broker_topic_stats = stats
    try:
        broker.update_metadata([0, 1])
        broker.leader_and_isr([0])
        broker.produce(TP0, b"a")
        assert registered("MessagesInPerSec") and registered("BytesInPerSec")
        broker.leader_and_isr([0], leader=1, leader_epoch=2, replicas=[1, 0])
        assert not registered("MessagesInPerSec") and not registered("BytesInPerSec")
        broker.leader_and_isr([0], leader=0, leader_epoch=3, replicas=[1, 0], isr=[0])
        broker.produce(TP0, b"b")
        assert stats.topic_stats(TOPIC).messages_in_rate.count == 1
    finally:
        stats.close()


def test_fetches_mark_the_fetch_request_rates_per_partition_read(broker: BrokerEnv) -> None:
    """Every partition a fetch reads counts once in its topic's and all topics' TotalFetchRequestsPerSec, unknown
    partitions included (FailedFetchRequestsPerSec counts only unexpected errors)."""
    from kafka.server.kafka_request_handler import BrokerTopicStats

    stats = BrokerTopicStats()
    broker.replica_manager.broker_topic_stats = stats
    try:
        broker.leader_and_isr([0, 1])
        broker.produce(TP0, b"a")
        topic_rate = stats.topic_stats(TOPIC).total_fetch_request_rate
        other_rate = stats.topic_stats("other").total_fetch_request_rate
        all_rate = stats.all_topics_stats.total_fetch_request_rate
        before = (topic_rate.count, other_rate.count, all_rate.count)
        [[(_, a), (_, b), (_, c)]] = broker.fetch({TP0: 0, TP1: 0, TopicPartition("other", 0): 0})
        assert a.error == Errors.NONE and b.error == Errors.NONE and c.error != Errors.NONE
        assert (topic_rate.count - before[0], other_rate.count - before[1], all_rate.count - before[2]) == (2, 1, 3)
        broker.fetch({TP0: 1, TP1: 0}, min_bytes=0)
        assert (topic_rate.count - before[0], all_rate.count - before[2]) == (4, 5)
    finally:
        stats.close()
