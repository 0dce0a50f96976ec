"""Tests of kafka.cluster.partition, after Kafka's PartitionTest: a Partition over a real LogManager on tmp_path,
real purgatories, and ISR changes written through ZkIsrManager to an in-memory versioned store."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest

from kafka.api.leader_and_isr import LeaderAndIsr
from kafka.cluster.partition import (
    CommittedIsr,
    DelayedOperations,
    IsrChangeListener,
    IsrState,
    OngoingReassignmentState,
    Partition,
    PendingExpandIsr,
)
from kafka.common.errors import (
    FencedLeaderEpochException,
    NotEnoughReplicasException,
    NotLeaderOrFollowerException,
    OffsetNotAvailableException,
    OffsetOutOfRangeException,
    UnknownLeaderEpochException,
)
from kafka.common.isolation_level import IsolationLevel
from kafka.common.message import LeaderAndIsrRequestData
from kafka.common.protocol.errors import Errors
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.simple_record import SimpleRecord
from kafka.common.requests.list_offsets_request import LATEST_TIMESTAMP
from kafka.common.topic_partition import TopicPartition
from kafka.log.log_append_info import Increased
from kafka.log.log_validator import Client
from kafka.server.alter_isr_manager import ZkIsrManager
from kafka.server.checkpoints.offset_checkpoint_file import LazyOffsetCheckpoints, OffsetCheckpointFile
from kafka.server.fetch_data_info import FetchHighWatermark, FetchLogEnd, FetchTxnCommitted
from kafka.server.replica_manager import HIGH_WATERMARK_FILENAME
from kafka.zk.zk_data import TopicPartitionStateZNode
from kafka.zookeeper.zookeeper_types import Stat
from tests.unit.kafka.server.test_replica_manager import START_MS, BrokerEnv, TopicConfigs

TP = TopicPartition("p", 0)
LAG_MS = 10_000


class VersionedIsrStore:
    """The partition state znodes as ZooKeeper keeps them: a conditional write succeeds only at the expected
    version and bumps it; ISR change notifications are recorded."""

    def __init__(self) -> None:
        self.states: dict[TopicPartition, tuple[LeaderAndIsr, int, int]] = {}  # (state, controller epoch, version)
        self.notifications: list[set[TopicPartition]] = []

    def conditional_update_path(
        self, path: str, data: bytes, expect_version: int, optional_checker: Any = None
    ) -> tuple[bool, int]:
        """KafkaZkClient's conditional SetData, on /brokers/topics/{topic}/partitions/{p}/state only."""
        parts = path.split("/")
        assert parts[1:3] == ["brokers", "topics"] and parts[4] == "partitions" and parts[6] == "state", path
        topic_partition = TopicPartition(parts[3], int(parts[5]))
        version = self.states[topic_partition][2] if topic_partition in self.states else 0
        if expect_version != version:
            return False, -1
        decoded = TopicPartitionStateZNode.decode(data, Stat(version=version + 1))
        assert decoded is not None
        self.states[topic_partition] = (decoded.leader_and_isr, decoded.controller_epoch, version + 1)
        return True, version + 1

    def get_data_and_stat(self, path: str) -> tuple[bytes | None, Any]:
        raise AssertionError("only reached after a version conflict that the store never reports")

    def propagate_isr_changes(self, isr_change_set: set[TopicPartition]) -> None:
        self.notifications.append(set(isr_change_set))


class CountingListener(IsrChangeListener):
    def __init__(self) -> None:
        self.expands = self.shrinks = self.failures = 0

    def mark_expand(self) -> None:
        self.expands += 1

    def mark_shrink(self) -> None:
        self.shrinks += 1

    def mark_failed(self) -> None:
        self.failures += 1


class PartitionEnv:
    """One Partition of broker 0 with the broker's LogManager, purgatories and a ZkIsrManager."""

    def __init__(self, tmp_path: Path, topic_configs: TopicConfigs | None = None) -> None:
        self.broker = BrokerEnv(tmp_path / "logs", topic_configs)
        self.broker.update_metadata([0, 1, 2])
        self.time = self.broker.time
        self.zk = VersionedIsrStore()
        self.isr_manager = ZkIsrManager(self.broker.scheduler, self.time, self.zk)
        self.listener = CountingListener()
        rm = self.broker.replica_manager
        self.partition = Partition(
            TP,
            replica_lag_time_max_ms=LAG_MS,
            inter_broker_protocol_version=self.broker.config.inter_broker_protocol_version,
            local_broker_id=0,
            time=self.time,
            isr_change_listener=self.listener,
            delayed_operations=DelayedOperations(
                TP, rm.delayed_produce_purgatory, rm.delayed_fetch_purgatory, rm.delayed_delete_records_purgatory
            ),
            metadata_cache=self.broker.metadata_cache,
            log_manager=self.broker.log_manager,
            alter_isr_manager=self.isr_manager,
        )
        log_dir = str(self.broker.log_dir.absolute())
        self.checkpoints = LazyOffsetCheckpoints(
            {log_dir: OffsetCheckpointFile(Path(log_dir) / HIGH_WATERMARK_FILENAME)}
        )

    def state(
        self, leader: int = 0, leader_epoch: int = 1, replicas: list[int] | None = None, isr: list[int] | None = None
    ) -> Any:
        replicas = replicas if replicas is not None else [0]
        return LeaderAndIsrRequestData.LeaderAndIsrPartitionState(
            topic_name=TP.topic,
            partition_index=TP.partition,
            controller_epoch=1,
            leader=leader,
            leader_epoch=leader_epoch,
            isr=isr if isr is not None else list(replicas),
            partition_epoch=0,
            replicas=replicas,
            is_new=True,
        )

    def append(self, *values: bytes, acks: int = 1, timestamp: int = START_MS) -> Any:
        built = MemoryRecords.with_records(CompressionType.NONE, *(SimpleRecord(timestamp, b"k", v) for v in values))
        return self.partition.append_records_to_leader(
            MemoryRecords.readable_records(bytearray(built.buffer())), Client(), acks
        )

    def follower_fetch(self, replica_id: int, offset: int) -> None:
        """Records a follower fetch at `offset` as the ReplicaManager does after reading for it."""
        log = self.partition.local_log_or_exception()
        info = self.partition.read_records(None, offset, None, 1 << 20, FetchLogEnd(), True, True)
        assert self.partition.update_follower_fetch_state(
            replica_id, info.fetched_data.fetch_offset_metadata, 0, self.time.milliseconds(), log.log_end_offset
        )


@pytest.fixture
def env(tmp_path: Path) -> Iterator[PartitionEnv]:
    e = PartitionEnv(tmp_path)
    yield e
    e.broker.close()


def test_make_leader_creates_the_log_and_reports_new_leadership(env: PartitionEnv) -> None:
    """make_leader creates the log, takes epoch, replicas and ISR from the state, and returns True only when the
    leadership is new; the leader epoch starts at the log end offset."""
    p = env.partition
    assert p.make_leader(env.state(replicas=[0, 1, 2], isr=[0, 1]), env.checkpoints)
    assert p.is_leader and p.leader_epoch == 1 and p.leader_replica_id_opt == 0
    assert p.in_sync_replica_ids == frozenset({0, 1})
    assert list(p.assignment_state.replicas) == [0, 1, 2] and p.is_under_replicated
    assert sorted(r.broker_id for r in p.remote_replicas) == [1, 2]
    assert p.log is not None and env.broker.log_manager.get_log(TP) is p.log
    assert not p.make_leader(env.state(leader_epoch=2, replicas=[0, 1, 2], isr=[0, 1]), env.checkpoints)
    assert p.leader_epoch == 2
    assert str(p) == "Topic: p; Partition: 0; Leader: 0; Replicas: 0,1,2; ISR: 0,1"

    reassigning = env.state(leader_epoch=3, replicas=[0, 1, 2], isr=[0, 1])
    reassigning.adding_replicas = [2]
    p.make_leader(reassigning, env.checkpoints)
    assert isinstance(p.assignment_state, OngoingReassignmentState) and p.is_adding_replica(2)
    assert p.assignment_state.replication_factor == 2


def test_append_as_leader_stamps_epoch_and_moves_the_high_watermark(env: PartitionEnv) -> None:
    """With the ISR just the leader, an append stamps the leader epoch on the batch and moves the high watermark
    to the log end (reported as LeaderHwChange Increased)."""
    p = env.partition
    p.make_leader(env.state(leader_epoch=5), env.checkpoints)
    info = env.append(b"a", b"b")
    assert info.first_offset is not None and (info.first_offset.message_offset, info.last_offset) == (0, 1)
    assert isinstance(info.leader_hw_change, Increased)
    log = p.local_log_or_exception()
    assert (log.high_watermark, log.log_end_offset) == (2, 2)
    read = p.read_records(None, 0, 5, 1000, FetchHighWatermark(), True, False)
    batches = list(read.fetched_data.records.batches())
    assert [b.partition_leader_epoch() for b in batches] == [5]
    assert (read.high_watermark, read.log_start_offset, read.log_end_offset) == (2, 0, 2)


def test_min_insync_replicas_refuses_acks_all(tmp_path: Path) -> None:
    """An acks=-1 append with an ISR smaller than min.insync.replicas raises NotEnoughReplicasException; acks=1
    is accepted."""
    env = PartitionEnv(tmp_path, TopicConfigs({"p": {"min.insync.replicas": "2"}}))
    try:
        env.partition.make_leader(env.state(replicas=[0, 1], isr=[0]), env.checkpoints)
        with pytest.raises(NotEnoughReplicasException):
            env.append(b"a", acks=-1)
        assert env.partition.is_under_min_isr
        env.append(b"a", acks=1)
        assert env.partition.local_log_or_exception().log_end_offset == 1
    finally:
        env.broker.close()


def test_caught_up_follower_joins_the_isr_through_zookeeper(env: PartitionEnv) -> None:
    """A follower that reaches the high watermark is added to the ISR: the change is written to ZooKeeper at the
    partition's version, committed, and announced once the linger time has passed."""
    p = env.partition
    p.make_leader(env.state(replicas=[0, 1], isr=[0]), env.checkpoints)
    env.append(b"a", b"b")
    assert p.local_log_or_exception().high_watermark == 2  # follower 1 is neither in the ISR nor caught up
    env.follower_fetch(1, 1)
    assert p.in_sync_replica_ids == frozenset({0})
    env.follower_fetch(1, 2)
    assert p.isr_state == CommittedIsr(frozenset({0, 1}))
    assert p.get_zk_version() == 1 and env.listener.expands == 1
    written, controller_epoch, _ = env.zk.states[TP]
    assert (written.leader, written.leader_epoch, written.isr, controller_epoch) == (0, 1, (0, 1), 1)

    env.isr_manager.maybe_propagate_isr_changes()
    assert env.zk.notifications == []  # still lingering
    env.time.sleep(ZkIsrManager.DEFAULT_ISR_PROPAGATION_CONFIG.linger_ms + 1)
    env.isr_manager.maybe_propagate_isr_changes()
    assert env.zk.notifications == [{TP}]


def test_lagging_follower_is_removed_from_the_isr_and_hw_moves(env: PartitionEnv) -> None:
    """A follower in the ISR that has not caught up for replica.lag.time.max.ms is shrunk out; with the ISR down
    to the leader the high watermark moves to the log end."""
    p = env.partition
    p.make_leader(env.state(replicas=[0, 1], isr=[0, 1]), env.checkpoints)
    env.append(b"a", b"b", b"c")
    log = p.local_log_or_exception()
    assert log.high_watermark == 0
    assert p.check_enough_replicas_reach_offset(3) == (False, Errors.NONE)
    p.maybe_shrink_isr()
    assert p.in_sync_replica_ids == frozenset({0, 1})  # not lagging long enough yet
    env.time.sleep(LAG_MS + 1)
    p.maybe_shrink_isr()
    assert p.isr_state == CommittedIsr(frozenset({0}))
    assert env.listener.shrinks == 1
    assert log.high_watermark == 3
    assert p.check_enough_replicas_reach_offset(3) == (True, Errors.NONE)


def test_follower_fetches_move_the_high_watermark_for_acks_all(env: PartitionEnv) -> None:
    """With ISR {0, 1}, the high watermark follows the follower's fetch position, and acks=-1 is satisfied once it
    passes the produce's offset."""
    p = env.partition
    p.make_leader(env.state(replicas=[0, 1], isr=[0, 1]), env.checkpoints)
    env.append(b"a", b"b")
    env.follower_fetch(1, 1)
    assert p.local_log_or_exception().high_watermark == 1
    assert p.check_enough_replicas_reach_offset(2) == (False, Errors.NONE)
    env.follower_fetch(1, 2)
    assert p.check_enough_replicas_reach_offset(2) == (True, Errors.NONE)
    replica = p.get_replica(1)
    assert replica is not None and replica.log_end_offset == 2
    assert not p.update_follower_fetch_state(7, p.local_log_or_exception().log_end_offset_metadata, 0, 0, 2)


def test_failed_isr_write_stays_pending_until_new_state(env: PartitionEnv) -> None:
    """If ZooKeeper holds a newer version the ISR write fails with INVALID_UPDATE_VERSION: the change stays in
    flight (no further changes) until the next LeaderAndIsr resets the state."""
    p = env.partition
    p.make_leader(env.state(replicas=[0, 1], isr=[0]), env.checkpoints)
    env.zk.states[TP] = (LeaderAndIsr(0, 1, [0], 0), 1, 5)  # the controller moved the node on
    env.follower_fetch(1, 0)
    assert isinstance(p.isr_state, PendingExpandIsr) and p.isr_state.is_inflight
    assert p.isr_state.maximal_isr == frozenset({0, 1}) and p.in_sync_replica_ids == frozenset({0})
    assert env.listener.failures == 1
    p.make_leader(env.state(leader_epoch=2, replicas=[0, 1], isr=[0, 1]), env.checkpoints)
    # make_leader changed it: mypy would keep the isinstance narrowing above.
    assert cast(IsrState, p.isr_state) == CommittedIsr(frozenset({0, 1}))


def test_leader_epoch_fencing_and_follower_reads(env: PartitionEnv) -> None:
    """Reads name the fetcher's view of the leader epoch: an older one is fenced, a newer one unknown; a follower
    refuses fetch-from-leader reads and appends but serves replica reads of its log."""
    p = env.partition
    p.make_leader(env.state(leader_epoch=4), env.checkpoints)
    env.append(b"a")
    with pytest.raises(FencedLeaderEpochException):
        p.read_records(None, 0, 3, 100, FetchHighWatermark(), True, True)
    with pytest.raises(UnknownLeaderEpochException):
        p.fetch_offset_snapshot(5, True)

    assert p.make_follower(env.state(leader=1, leader_epoch=5, replicas=[1, 0]), env.checkpoints)
    assert not p.make_follower(env.state(leader=1, leader_epoch=5, replicas=[1, 0]), env.checkpoints)
    assert p.leader_log_if_local is None and p.in_sync_replica_ids == frozenset()
    with pytest.raises(NotLeaderOrFollowerException):
        p.read_records(None, 0, 5, 100, FetchHighWatermark(), True, True)
    with pytest.raises(NotLeaderOrFollowerException):
        env.append(b"b")
    assert p.check_enough_replicas_reach_offset(1) == (False, Errors.NOT_LEADER_OR_FOLLOWER)
    read = p.read_records(None, 0, 5, 100, FetchLogEnd(), False, True)
    assert read.fetched_data.records.size_in_bytes() > 0


def test_diverging_epoch_and_last_offset_for_leader_epoch(env: PartitionEnv) -> None:
    """OffsetsForLeaderEpoch gives each epoch's end offset; a follower fetching after an epoch this log does not
    have gets no records but the epoch and end offset to truncate to."""
    p = env.partition
    p.make_leader(env.state(leader_epoch=1), env.checkpoints)
    env.append(b"a", b"b")
    p.make_leader(env.state(leader_epoch=3), env.checkpoints)
    env.append(b"c")
    eo = p.last_offset_for_leader_epoch(None, 2, True)
    assert (eo.error_code, eo.leader_epoch, eo.end_offset) == (0, 1, 2)
    eo3 = p.last_offset_for_leader_epoch(3, 3, True)
    assert (eo3.leader_epoch, eo3.end_offset) == (3, 3)
    assert p.last_offset_for_leader_epoch(2, 3, True).error_code == Errors.FENCED_LEADER_EPOCH.code

    read = p.read_records(2, 3, 3, 100, FetchLogEnd(), True, True)
    assert read.diverging_epoch is not None
    assert (read.diverging_epoch.epoch, read.diverging_epoch.end_offset) == (1, 2)
    assert read.fetched_data.records.size_in_bytes() == 0


def test_follower_read_checks_divergence_as_offsets_for_leader_epoch_answers(env: PartitionEnv) -> None:
    """A follower read with a last fetched epoch diverges exactly when OffsetsForLeaderEpoch for that epoch answers
    an earlier epoch or an end offset below the fetch offset (read_records asks the log directly): epochs below,
    between, at and above the log's, fetch offsets up to past the log end."""
    p = env.partition
    p.make_leader(env.state(leader_epoch=1), env.checkpoints)
    env.append(b"a", b"b")
    p.make_leader(env.state(leader_epoch=3), env.checkpoints)
    env.append(b"c")
    for last_fetched_epoch in (0, 1, 2, 3, 4):
        for fetch_offset in range(5):
            eo = p.last_offset_for_leader_epoch(3, last_fetched_epoch, False)
            try:
                read = p.read_records(last_fetched_epoch, fetch_offset, 3, 100, FetchLogEnd(), True, True)
            except OffsetOutOfRangeException:
                assert eo.end_offset == -1 or eo.leader_epoch == -1 or fetch_offset > 3, (
                    last_fetched_epoch,
                    fetch_offset,
                )
                continue
            assert eo.end_offset != -1 and eo.leader_epoch != -1
            if eo.leader_epoch < last_fetched_epoch or eo.end_offset < fetch_offset:
                assert read.diverging_epoch is not None
                assert (read.diverging_epoch.epoch, read.diverging_epoch.end_offset) == (eo.leader_epoch, eo.end_offset)
                assert read.fetched_data.records.size_in_bytes() == 0
            else:
                assert read.diverging_epoch is None, (last_fetched_epoch, fetch_offset)


def test_fetch_end_offset_metadata_is_the_snapshots_offset_for_the_isolation(env: PartitionEnv) -> None:
    """What a delayed fetch reads to: the log end, high watermark or last stable offset of the offset snapshot,
    with the snapshot's errors (a fenced epoch here)."""
    p = env.partition
    p.make_leader(env.state(leader_epoch=1, replicas=[0, 1], isr=[0, 1]), env.checkpoints)
    env.append(b"a", b"b")
    env.follower_fetch(1, 1)
    snapshot = p.fetch_offset_snapshot(1, True)
    assert snapshot.log_end_offset.message_offset == 2 and snapshot.high_watermark.message_offset == 1
    assert p.fetch_end_offset_metadata(1, True, FetchLogEnd()) == snapshot.log_end_offset
    assert p.fetch_end_offset_metadata(1, True, FetchHighWatermark()) == snapshot.high_watermark
    assert p.fetch_end_offset_metadata(None, True, FetchTxnCommitted()) == snapshot.last_stable_offset
    with pytest.raises(FencedLeaderEpochException):
        p.fetch_end_offset_metadata(0, True, FetchLogEnd())


def test_list_offsets_not_available_while_high_watermark_lags_the_new_epoch(env: PartitionEnv) -> None:
    """After a leader change, while the high watermark is below the new epoch's start offset, consumers asking
    for the latest offset get OFFSET_NOT_AVAILABLE; replicas (no isolation level) get the log end offset."""
    p = env.partition
    p.make_leader(env.state(leader_epoch=1, replicas=[0, 1], isr=[0, 1]), env.checkpoints)
    env.append(b"a", b"b")
    p.make_leader(env.state(leader_epoch=2, replicas=[0, 1], isr=[0, 1]), env.checkpoints)
    with pytest.raises(OffsetNotAvailableException):
        p.fetch_offset_for_timestamp(LATEST_TIMESTAMP, IsolationLevel.READ_UNCOMMITTED, None, True)
    found = p.fetch_offset_for_timestamp(LATEST_TIMESTAMP, None, None, True)
    assert found is not None and (found.offset, found.leader_epoch) == (2, 2)
    env.follower_fetch(1, 2)
    found = p.fetch_offset_for_timestamp(LATEST_TIMESTAMP, IsolationLevel.READ_UNCOMMITTED, 2, True)
    assert found is not None and found.offset == 2


def test_delete_records_on_leader_and_delete(env: PartitionEnv) -> None:
    """DeleteRecords as leader moves the log start offset (the sentinel -1 meaning the high watermark) and returns
    the low watermark; delete() forgets leadership, replicas and the log."""
    p = env.partition
    p.make_leader(env.state(replicas=[0, 1], isr=[0]), env.checkpoints)
    env.append(b"a", b"b", b"c")
    env.follower_fetch(1, 0)
    result = p.delete_records_on_leader(2)
    # Follower 1 (alive) still starts at 0, so the low watermark stays there.
    assert (result.requested_offset, result.low_watermark) == (2, 0)
    assert p.local_log_or_exception().log_start_offset == 2
    assert p.delete_records_on_leader(-1).requested_offset == 3
    p.delete()
    assert p.log is None and not p.is_leader and list(p.remote_replicas) == []
    assert p.log_start_offset == -1
