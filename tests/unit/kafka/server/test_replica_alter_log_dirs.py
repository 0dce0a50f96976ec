"""Tests of moving replicas between log directories (ReplicaManager.alter_replica_log_dirs, ReplicaAlterLogDirsManager
and ReplicaAlterLogDirsThread, the future-log parts of Partition and LogManager), after Kafka's
ReplicaAlterLogDirsThreadTest and the AlterReplicaLogDirs cases of ReplicaManagerTest: a real LogManager with
several directories, real threads copying, and the errors Kafka answers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from kafka.cluster.broker import BrokerEndPoint
from kafka.common.message import UpdateMetadataRequestData
from kafka.common.protocol.errors import Errors
from kafka.common.requests.offsets_for_leader_epoch_response import UNDEFINED_EPOCH
from kafka.common.topic_partition import TopicPartition
from kafka.server.abstract_fetcher_manager import FailedPartitions
from kafka.server.abstract_fetcher_thread import Fetching, PartitionFetchState
from kafka.server.replica_alter_log_dirs_thread import ReplicaAlterLogDirsThread
from kafka.server.replica_manager import Online
from tests.unit.kafka.server.test_replica_manager import TOPIC, TP0, TP1, BrokerEnv, values_of
from tests.utils import wait_until_true


class SwitchableQuota:
    """The alter_log_dirs quota, exceeded while `exceeded` is set (nothing is copied then)."""

    def __init__(self, exceeded: bool) -> None:
        self.exceeded = exceeded
        self.recorded: list[int] = []

    def is_quota_exceeded(self) -> bool:
        return self.exceeded

    def is_throttled(self, topic_partition: TopicPartition) -> bool:
        return True

    def record(self, value: int) -> None:
        self.recorded.append(value)


def make_env(tmp_path: Path, n_dirs: int = 2, quota: SwitchableQuota | None = None) -> BrokerEnv:
    dirs = [tmp_path / f"d{i}" for i in range(n_dirs)]
    env = BrokerEnv(dirs[0], extra_log_dirs=tuple(dirs[1:]))
    if quota is not None:
        env.replica_manager.replica_alter_log_dirs_manager._quota_manager = quota
    return env


@pytest.fixture
def env(tmp_path: Path) -> Iterator[BrokerEnv]:
    e = make_env(tmp_path)
    yield e
    e.close()


def current_dir(env: BrokerEnv, tp: TopicPartition = TP0) -> str:
    log_dir = env.replica_manager.get_log_dir(tp)
    assert log_dir is not None
    return log_dir


def other_dir(env: BrokerEnv, tp: TopicPartition = TP0) -> str:
    return next(str(d) for d in env.log_manager.live_log_dirs if str(d) != current_dir(env, tp))


def entries(log_dir: str, prefix: str = f"{TOPIC}-0") -> list[str]:
    return sorted(p.name for p in Path(log_dir).iterdir() if p.name.startswith(prefix))


def test_a_replica_with_data_moves_to_the_other_dir(env: BrokerEnv) -> None:
    """The future log is created in the destination, filled by a ReplicaAlterLogDirsThread, and swapped in once
    caught up: the partition's log is then in the destination (same records, offsets, epochs, high watermark), the
    old directory renamed `-delete`, and the thread has nothing left to copy."""
    env.leader_and_isr([0])
    for i in range(20):
        env.produce(TP0, f"v{i}".encode(), f"w{i}".encode())
    source, destination = current_dir(env), other_dir(env)
    partition = env.replica_manager.online_partition(TP0)
    assert partition is not None
    old_log = partition.log
    assert old_log is not None and old_log.high_watermark == 40

    assert env.replica_manager.alter_replica_log_dirs({TP0: destination}) == {TP0: Errors.NONE}
    wait_until_true(lambda: current_dir(env) == destination, "the log to be swapped in", timeout=30)
    assert partition.future_log is None
    log = partition.log
    assert log is not None and log is not old_log
    assert (log.log_end_offset, log.high_watermark, log.latest_epoch()) == (40, 40, 1)
    assert log.topic_id == old_log.topic_id
    assert entries(destination) == [f"{TOPIC}-0"]
    (deleted,) = entries(source)
    assert deleted.endswith("-delete")
    [fetched] = env.fetch({TP0: 0})
    assert values_of(fetched[0][1])[:2] == [(0, b"v0"), (1, b"w0")]
    assert len(values_of(fetched[0][1])) == 40
    manager = env.replica_manager.replica_alter_log_dirs_manager
    wait_until_true(lambda: all(t.partition_count == 0 for t in manager.fetcher_thread_map.values()), "nothing left")
    env.replica_manager.shutdown_idle_replica_alter_log_dirs_thread()
    assert manager.fetcher_thread_map == {}
    # Appends go to the new log.
    assert env.produce(TP0, b"after")[0].base_offset == 40
    assert log.log_end_offset == 41


def test_describe_log_dirs_shows_the_future_replica_while_it_is_copied(tmp_path: Path) -> None:
    """While the quota holds the copy back, DescribeLogDirs reports the current replica in its directory and the
    future one (is_future_key, its lag behind the current log end) in the destination; the move finishes once the
    quota allows it."""
    quota = SwitchableQuota(exceeded=True)
    env = make_env(tmp_path, quota=quota)
    try:
        env.leader_and_isr([0])
        env.produce(TP0, b"a", b"b", b"c")
        source, destination = current_dir(env), other_dir(env)
        assert env.replica_manager.alter_replica_log_dirs({TP0: destination}) == {TP0: Errors.NONE}
        results = {r.log_dir: r for r in env.replica_manager.describe_log_dirs([TP0])}
        [[src]] = [[p for t in results[source].topics for p in t.partitions]]
        [[dst]] = [[p for t in results[destination].topics for p in t.partitions]]
        assert (src.is_future_key, dst.is_future_key) == (False, True)
        assert dst.offset_lag == 3
        assert any(name.endswith("-future") for name in entries(destination))
        # A second request for the same destination changes nothing.
        assert env.replica_manager.alter_replica_log_dirs({TP0: destination}) == {TP0: Errors.NONE}
        assert len(entries(destination)) == 1
        quota.exceeded = False
        wait_until_true(lambda: current_dir(env) == destination, "the log to be swapped in", timeout=30)
        assert sum(quota.recorded) > 0
    finally:
        env.close()


def test_bad_requests_get_kafkas_errors(env: BrokerEnv, tmp_path: Path) -> None:
    """An unknown directory and a relative path are LOG_DIR_NOT_FOUND; a partition of an unknown topic is
    UNKNOWN_TOPIC_OR_PARTITION and one this broker does not host REPLICA_NOT_AVAILABLE, their directory being
    remembered for when the partition is created; the current directory itself starts no move."""
    env.leader_and_isr([0])
    rm = env.replica_manager
    assert rm.alter_replica_log_dirs({TP0: str(tmp_path / "nowhere")}) == {TP0: Errors.LOG_DIR_NOT_FOUND}
    assert rm.alter_replica_log_dirs({TP0: "d1"}) == {TP0: Errors.LOG_DIR_NOT_FOUND}
    assert rm.alter_replica_log_dirs({TP0: current_dir(env)}) == {TP0: Errors.NONE}
    partition = rm.online_partition(TP0)
    assert partition is not None and partition.future_log is None
    unknown = TopicPartition("unknown", 0)
    assert rm.alter_replica_log_dirs({unknown: current_dir(env)}) == {unknown: Errors.UNKNOWN_TOPIC_OR_PARTITION}

    # TP1 is in the metadata, led by another broker, and not hosted here yet.
    state = UpdateMetadataRequestData.UpdateMetadataPartitionState(
        topic_name=TOPIC,
        partition_index=1,
        controller_epoch=1,
        leader=1,
        leader_epoch=1,
        isr=[1],
        zk_version=0,
        replicas=[1, 0],
        offline_replicas=[],
    )
    env.update_metadata([0, 1], states=[state])
    # New partitions go to the emptier directory; ask for the one that already holds TP0.
    wanted = current_dir(env)
    assert rm.alter_replica_log_dirs({TP1: wanted}) == {TP1: Errors.REPLICA_NOT_AVAILABLE}
    env.leader_and_isr([1])
    assert current_dir(env, TP1) == wanted
    assert rm.online_partition(TP1) is not None


def test_an_offline_destination_is_a_storage_error_and_a_failed_future_dir_stops_the_move(tmp_path: Path) -> None:
    """A destination whose directory failed is KAFKA_STORAGE_ERROR. When the directory of a move's future log fails,
    the move stops (the future log is forgotten, its files left in the failed directory) and the partition keeps
    serving from its current log."""
    quota = SwitchableQuota(exceeded=True)
    env = make_env(tmp_path, n_dirs=3, quota=quota)
    try:
        env.leader_and_isr([0])
        env.produce(TP0, b"a")
        rm = env.replica_manager
        source = current_dir(env)
        dest, failing = (str(d) for d in env.log_manager.live_log_dirs if str(d) != source)
        assert rm.alter_replica_log_dirs({TP0: dest}) == {TP0: Errors.NONE}
        partition = rm.online_partition(TP0)
        assert partition is not None and partition.future_log is not None
        rm.handle_log_dir_failure(dest, send_zk_notification=False)
        assert partition.future_log is None
        assert isinstance(rm.get_partition(TP0), Online)
        assert any(name.endswith("-future") for name in entries(dest))
        assert rm.replica_alter_log_dirs_manager.get_fetcher(TP0) is None
        assert env.produce(TP0, b"b")[0].error == Errors.NONE
        assert rm.alter_replica_log_dirs({TP0: dest}) == {TP0: Errors.KAFKA_STORAGE_ERROR}
        # With a log dir offline no future log is created (it could end up in two directories).
        assert rm.alter_replica_log_dirs({TP0: failing}) == {TP0: Errors.KAFKA_STORAGE_ERROR}
        assert partition.future_log is None
    finally:
        env.close()


def test_a_new_destination_replaces_the_move_under_way(tmp_path: Path) -> None:
    """Asking for another destination while a move is under way deletes the first future log and starts over in
    the new directory."""
    quota = SwitchableQuota(exceeded=True)
    env = make_env(tmp_path, n_dirs=3, quota=quota)
    try:
        env.leader_and_isr([0])
        env.produce(TP0, b"a", b"b")
        rm = env.replica_manager
        source = current_dir(env)
        first, second = (str(d) for d in env.log_manager.live_log_dirs if str(d) != source)
        assert rm.alter_replica_log_dirs({TP0: first}) == {TP0: Errors.NONE}
        assert rm.alter_replica_log_dirs({TP0: second}) == {TP0: Errors.NONE}
        partition = rm.online_partition(TP0)
        assert partition is not None and partition.future_log is not None
        assert partition.future_log.parent_dir == second
        (gone,) = entries(first)
        assert gone.endswith("-delete")
        quota.exceeded = False
        wait_until_true(lambda: current_dir(env) == second, "the log to be swapped in", timeout=30)
        log = partition.log
        assert log is not None and log.log_end_offset == 2
    finally:
        env.close()


def test_a_move_resumes_after_a_restart(tmp_path: Path) -> None:
    """A broker stopped during a move finds the `-future` log at startup; the next LeaderAndIsr resumes the copy,
    which completes."""
    quota = SwitchableQuota(exceeded=True)
    env = make_env(tmp_path, quota=quota)
    env.leader_and_isr([0])
    env.produce(TP0, b"a", b"b", b"c")
    destination = other_dir(env)
    assert env.replica_manager.alter_replica_log_dirs({TP0: destination}) == {TP0: Errors.NONE}
    env.close()

    env = make_env(tmp_path)
    try:
        assert env.log_manager.get_log(TP0, is_future=True) is not None
        env.leader_and_isr([0], leader_epoch=2)
        wait_until_true(lambda: current_dir(env) == destination, "the log to be swapped in", timeout=30)
        log = env.replica_manager.local_log(TP0)
        assert log is not None and log.log_end_offset == 3
        assert env.log_manager.get_log(TP0, is_future=True) is None
    finally:
        env.close()


def test_stop_replica_with_delete_stops_the_move_and_deletes_both_logs(tmp_path: Path) -> None:
    """StopReplica with delete during a move stops the copy and deletes the current and the future log."""
    quota = SwitchableQuota(exceeded=True)
    env = make_env(tmp_path, quota=quota)
    try:
        env.leader_and_isr([0])
        env.produce(TP0, b"a")
        source, destination = current_dir(env), other_dir(env)
        assert env.replica_manager.alter_replica_log_dirs({TP0: destination}) == {TP0: Errors.NONE}
        errors = env.replica_manager.stop_partitions({TP0: True})
        assert errors == {}
        assert env.replica_manager.replica_alter_log_dirs_manager.get_fetcher(TP0) is None
        assert all(name.endswith("-delete") for name in entries(source) + entries(destination))
        assert env.log_manager.get_log(TP0, is_future=True) is None
    finally:
        env.close()


def fetch_state(offset: int) -> PartitionFetchState:
    return PartitionFetchState(offset, None, 1, None, Fetching(), None)


def test_thread_copies_one_partition_at_a_time_in_topic_order_and_honours_the_quota(tmp_path: Path) -> None:
    """build_fetch asks for one partition: the one in progress while it is ready, else the first ready one by topic
    then partition; nothing while the quota is exceeded. The fetch reads the current log locally."""
    quota = SwitchableQuota(exceeded=False)
    env = make_env(tmp_path)
    try:
        rm = env.replica_manager
        thread = ReplicaAlterLogDirsThread(
            "ReplicaAlterLogDirsThread-0",
            BrokerEndPoint(0, "localhost", -1),
            env.config,
            FailedPartitions(),
            rm,
            quota,
            None,
            env.time,
        )
        env.leader_and_isr([0, 1])
        env.produce(TP1, b"x", b"y")
        # The partitions need future logs for the fetch to be built.
        for tp in (TP0, TP1):
            partition = rm.online_partition(tp)
            assert partition is not None
            rm.log_manager.maybe_update_preferred_log_dir(tp, other_dir(env, tp))
            # A stand-in for OffsetCheckpoints, with fetch only.
            no_checkpoints = SimpleNamespace(fetch=lambda d, t: None)
            assert partition.maybe_create_future_replica(other_dir(env, tp), no_checkpoints)  # type: ignore[arg-type]
        a_first = TopicPartition("a-first", 0)
        states = {
            TP1: fetch_state(0),
            TP0: fetch_state(0),
            a_first: PartitionFetchState(0, None, 1, None, Fetching(), None),
        }
        states_without_a = {TP1: fetch_state(0), TP0: fetch_state(0)}
        result = thread.build_fetch(states_without_a)
        assert result.result is not None and list(result.result.partition_data) == [TP0]
        # TP0 stays in progress while ready, even with a partition sorting before it.
        result = thread.build_fetch(states)
        assert result.result is not None and list(result.result.partition_data) == [TP0]
        result = thread.build_fetch({TP1: fetch_state(0)})
        assert result.result is not None and list(result.result.partition_data) == [TP1]
        data = thread.fetch_from_leader(result.result.fetch_request)
        assert data[TP1].error_code == Errors.NONE.code and data[TP1].high_watermark == 2
        quota.exceeded = True
        assert thread.build_fetch(states).result is None
        undefined = SimpleNamespace(partition=1, current_leader_epoch=1, leader_epoch=UNDEFINED_EPOCH)
        known = SimpleNamespace(partition=1, current_leader_epoch=1, leader_epoch=1)
        assert thread.fetch_epoch_end_offsets({TP1: undefined})[TP1].end_offset == -1
        assert thread.fetch_epoch_end_offsets({TP1: known})[TP1].end_offset == 2
        stale = SimpleNamespace(partition=1, current_leader_epoch=0, leader_epoch=1)
        assert thread.fetch_epoch_end_offsets({TP1: stale})[TP1].error_code == Errors.FENCED_LEADER_EPOCH.code
    finally:
        env.close()
