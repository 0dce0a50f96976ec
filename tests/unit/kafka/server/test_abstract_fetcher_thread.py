"""Tests of kafka.server.abstract_fetcher_thread, after Kafka's AbstractFetcherThreadTest: a MockFetcherThread whose
"leader" and "replica" are in-memory logs of batches (offset range and leader epoch), driven one `do_work()` at a
time, with and without truncation on fetch (inter.broker.protocol.version 2.7+ and before)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import pytest

from kafka.cluster.broker import BrokerEndPoint
from kafka.common.errors import FencedLeaderEpochException, UnknownLeaderEpochException
from kafka.common.message import OffsetForLeaderEpochRequestData, OffsetForLeaderEpochResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.record.compression_type import CompressionType
from kafka.common.requests.abstract_request import Builder
from kafka.common.requests.fetch_request import PartitionData
from kafka.common.requests.offsets_for_leader_epoch_response import UNDEFINED_EPOCH, UNDEFINED_EPOCH_OFFSET
from kafka.common.topic_partition import TopicPartition
from kafka.log.log import OffsetAndEpoch
from kafka.log.log_append_info import LogAppendInfo
from kafka.server.abstract_fetcher_manager import FailedPartitions, InitialFetchState
from kafka.server.abstract_fetcher_thread import (
    AbstractFetcherThread,
    Fetching,
    OffsetTruncationState,
    PartitionFetchState,
    ReplicaFetch,
    ResultWithPartitions,
    Truncating,
)
from kafka.server.log_offset_metadata import LogOffsetMetadata

TP = TopicPartition("topic", 0)
LEADER = BrokerEndPoint(1, "localhost", 9093)


@dataclass(frozen=True)
class Batch:
    base_offset: int
    leader_epoch: int
    value: bytes
    count: int = 1

    @property
    def last_offset(self) -> int:
        return self.base_offset + self.count - 1

    @property
    def next_offset(self) -> int:
        return self.base_offset + self.count


def batch(base_offset: int, leader_epoch: int, value: bytes = b"x") -> Batch:
    return Batch(base_offset, leader_epoch, value)


@dataclass
class PartitionState:
    """One side's log of a partition (Kafka's MockFetcherThread.PartitionState)."""

    log: list[Batch]
    leader_epoch: int
    log_start_offset: int
    log_end_offset: int
    high_watermark: int

    @classmethod
    def of(cls, log: list[Batch] | None = None, leader_epoch: int = 0, high_watermark: int = 0) -> PartitionState:
        log = list(log or [])
        start = log[0].base_offset if log else 0
        end = log[-1].next_offset if log else 0
        return cls(log, leader_epoch, start, end, high_watermark)


class FetchBuilder(Builder[Any]):
    """The mock's fetch request: just the partitions' fetch data."""

    def __init__(self, fetch_data: dict[TopicPartition, PartitionData]) -> None:
        super().__init__(ApiKeys.FETCH)
        self.fetch_data = fetch_data

    def _build(self, version: int) -> Any:
        raise NotImplementedError("the mock leader reads the builder's data")


class MockFetcherThread(AbstractFetcherThread):
    def __init__(self, failed_partitions: FailedPartitions, truncate_on_fetch: bool) -> None:
        super().__init__("mock-fetcher", "mock-fetcher", LEADER, failed_partitions)
        self.truncate_on_fetch = truncate_on_fetch
        self.offset_for_leader_epoch_supported = True
        self.replica_states: dict[TopicPartition, PartitionState] = {}
        self.leader_states: dict[TopicPartition, PartitionState] = {}
        self.latest_epoch_default: int | None = 0
        self.truncate_calls = 0
        self.process_calls = 0

    # -- test set-up --------------------------------------------------------------------------------------------

    def add_partitions_forcing(
        self, states: Mapping[TopicPartition, InitialFetchState], force_truncation: bool
    ) -> set[TopicPartition]:
        self.latest_epoch_default = None if force_truncation else 0
        try:
            return self.add_partitions(states)
        finally:
            self.latest_epoch_default = 0

    def verify_last_fetched_epoch(self, tp: TopicPartition, expected_epoch: int | None) -> None:
        if self.truncate_on_fetch:
            state = self.fetch_state(tp)
            assert state is not None and state.state == Fetching()
            assert state.last_fetched_epoch == expected_epoch

    # -- the AbstractFetcherThread callbacks --------------------------------------------------------------------

    @property
    def is_offset_for_leader_epoch_supported(self) -> bool:
        return self.offset_for_leader_epoch_supported

    @property
    def is_truncation_on_fetch_supported(self) -> bool:
        return self.truncate_on_fetch

    def process_partition_data(self, topic_partition: TopicPartition, fetch_offset: int, partition_data: Any) -> Any:
        self.process_calls += 1
        state = self.replica_states[topic_partition]
        diverging = partition_data.diverging_epoch
        assert not (self.truncate_on_fetch and diverging is not None and diverging.epoch >= 0)
        if fetch_offset != state.log_end_offset:
            raise RuntimeError(f"Offset mismatch for {topic_partition}: {fetch_offset} != {state.log_end_offset}")
        batches: list[Batch] = partition_data.records
        last_offset = state.log_end_offset
        last_epoch = None
        for b in batches:
            state.log.append(b)
            state.log_end_offset = b.next_offset
            last_offset = b.last_offset
            last_epoch = b.leader_epoch
        state.log_start_offset = partition_data.log_start_offset
        state.high_watermark = partition_data.high_watermark
        return LogAppendInfo(
            first_offset=LogOffsetMetadata(fetch_offset),
            last_offset=last_offset,
            last_leader_epoch=last_epoch,
            max_timestamp=-1,
            offset_of_max_timestamp=-1,
            log_append_time=-1,
            log_start_offset=state.log_start_offset,
            record_conversion_stats=None,  # type: ignore[arg-type]
            source_codec=CompressionType.NONE,
            target_codec=CompressionType.NONE,
            shallow_count=len(batches),
            valid_bytes=len(batches) * 10,
            offsets_monotonic=True,
            last_offset_of_first_batch=batches[0].last_offset if batches else -1,
        )

    def truncate(self, topic_partition: TopicPartition, truncation_state: OffsetTruncationState) -> None:
        self.truncate_calls += 1
        state = self.replica_states[topic_partition]
        state.log = [b for b in state.log if b.last_offset < truncation_state.offset]
        state.log_end_offset = state.log[-1].last_offset + 1 if state.log else state.log_start_offset
        state.high_watermark = min(state.high_watermark, state.log_end_offset)

    def truncate_fully_and_start_at(self, topic_partition: TopicPartition, offset: int) -> None:
        state = self.replica_states[topic_partition]
        state.log.clear()
        state.log_start_offset = state.log_end_offset = state.high_watermark = offset

    def build_fetch(self, partition_map: Mapping[TopicPartition, PartitionFetchState]) -> Any:
        fetch_data: dict[TopicPartition, PartitionData] = {}
        for tp, state in partition_map.items():
            if state.is_ready_for_fetch:
                replica = self.replica_states[tp]
                last_fetched_epoch = state.last_fetched_epoch if self.truncate_on_fetch else None
                fetch_data[tp] = PartitionData(
                    None,
                    state.fetch_offset,
                    replica.log_start_offset,
                    1024 * 1024,
                    state.current_leader_epoch,
                    last_fetched_epoch,
                )
        return ResultWithPartitions(ReplicaFetch(fetch_data, FetchBuilder(fetch_data)), frozenset())

    def latest_epoch(self, topic_partition: TopicPartition) -> int | None:
        log = self.replica_states[topic_partition].log
        return log[-1].leader_epoch if log else self.latest_epoch_default

    def log_start_offset(self, topic_partition: TopicPartition) -> int:
        return self.replica_states[topic_partition].log_start_offset

    def log_end_offset(self, topic_partition: TopicPartition) -> int:
        return self.replica_states[topic_partition].log_end_offset

    def end_offset_for_epoch(self, topic_partition: TopicPartition, epoch: int) -> OffsetAndEpoch | None:
        data = OffsetForLeaderEpochRequestData.OffsetForLeaderPartition(partition=topic_partition.partition)
        data.leader_epoch = epoch
        result = _lookup_end_offset_for_epoch(topic_partition, data, self.replica_states[topic_partition])
        if result.end_offset == UNDEFINED_EPOCH_OFFSET:
            return None
        return OffsetAndEpoch(result.end_offset, result.leader_epoch)

    def fetch_epoch_end_offsets(self, partitions: Mapping[TopicPartition, Any]) -> dict[TopicPartition, Any]:
        return {tp: _lookup_end_offset_for_epoch(tp, data, self.leader_states[tp]) for tp, data in partitions.items()}

    def _diverging_epoch_and_offset(
        self, tp: TopicPartition, last_fetched_epoch: int | None, fetch_offset: int, leader: PartitionState
    ) -> Any:
        if last_fetched_epoch is None:
            return None
        data = OffsetForLeaderEpochRequestData.OffsetForLeaderPartition(partition=tp.partition)
        data.leader_epoch = last_fetched_epoch
        end = self.fetch_epoch_end_offsets({tp: data})[tp]
        if not leader.log or end.end_offset == UNDEFINED_EPOCH_OFFSET or end.leader_epoch == UNDEFINED_EPOCH:
            return None
        if end.leader_epoch < last_fetched_epoch or end.end_offset < fetch_offset:
            return SimpleNamespace(epoch=end.leader_epoch, end_offset=end.end_offset)
        return None

    def fetch_from_leader(self, fetch_request: Builder[Any]) -> dict[TopicPartition, Any]:
        assert isinstance(fetch_request, FetchBuilder)
        result = {}
        for tp, data in fetch_request.fetch_data.items():
            leader = self.leader_states[tp]
            epoch_error = _check_expected_leader_epoch(data.current_leader_epoch, leader)
            diverging = self._diverging_epoch_and_offset(tp, data.last_fetched_epoch, data.fetch_offset, leader)
            records: list[Batch] = []
            if epoch_error is not None:
                error = epoch_error
            elif data.fetch_offset > leader.log_end_offset or data.fetch_offset < leader.log_start_offset:
                error = Errors.OFFSET_OUT_OF_RANGE
            elif diverging is not None:
                error = Errors.NONE
            else:
                error = Errors.NONE
                # One batch at a time, as Kafka's mock.
                records = [b for b in leader.log if b.base_offset >= data.fetch_offset][:1]
            result[tp] = SimpleNamespace(
                error_code=error.code,
                high_watermark=leader.high_watermark,
                log_start_offset=leader.log_start_offset,
                diverging_epoch=diverging if diverging is not None else SimpleNamespace(epoch=-1, end_offset=-1),
                records=records,
            )
        return result

    def fetch_earliest_offset_from_leader(self, topic_partition: TopicPartition, current_leader_epoch: int) -> int:
        leader = self.leader_states[topic_partition]
        _raise_if_epoch_error(current_leader_epoch, leader)
        return leader.log_start_offset

    def fetch_latest_offset_from_leader(self, topic_partition: TopicPartition, current_leader_epoch: int) -> int:
        leader = self.leader_states[topic_partition]
        _raise_if_epoch_error(current_leader_epoch, leader)
        return leader.log_end_offset


def _check_expected_leader_epoch(expected_epoch: int | None, state: PartitionState) -> Errors | None:
    if expected_epoch is None or expected_epoch < 0:
        return None
    if expected_epoch < state.leader_epoch:
        return Errors.FENCED_LEADER_EPOCH
    if expected_epoch > state.leader_epoch:
        return Errors.UNKNOWN_LEADER_EPOCH
    return None


def _raise_if_epoch_error(expected_epoch: int, state: PartitionState) -> None:
    error = _check_expected_leader_epoch(expected_epoch, state)
    if error is not None:
        exc = error.exception()
        assert exc is not None
        raise exc


def _lookup_end_offset_for_epoch(tp: TopicPartition, epoch_data: Any, state: PartitionState) -> Any:
    error = _check_expected_leader_epoch(epoch_data.current_leader_epoch, state)
    if error is not None:
        return OffsetForLeaderEpochResponseData.EpochEndOffset(partition=tp.partition, error_code=error.code)
    epoch_lower_bound = UNDEFINED_EPOCH
    for b in state.log:
        if b.leader_epoch > epoch_data.leader_epoch:
            found_epoch = b.leader_epoch if epoch_lower_bound == UNDEFINED_EPOCH else epoch_lower_bound
            return OffsetForLeaderEpochResponseData.EpochEndOffset(
                partition=tp.partition, error_code=0, leader_epoch=found_epoch, end_offset=b.base_offset
            )
        epoch_lower_bound = b.leader_epoch
    return OffsetForLeaderEpochResponseData.EpochEndOffset(partition=tp.partition, error_code=0)


def initial_fetch_state(fetch_offset: int, leader_epoch: int = 1) -> InitialFetchState:
    return InitialFetchState(LEADER, leader_epoch, fetch_offset)


@pytest.fixture
def failed() -> FailedPartitions:
    return FailedPartitions()


@pytest.fixture(params=[True, False], ids=["ibp-2.7+", "ibp-2.6"])
def fetcher(request: pytest.FixtureRequest, failed: FailedPartitions) -> MockFetcherThread:
    return MockFetcherThread(failed, truncate_on_fetch=request.param)


def reconcile(fetcher: MockFetcherThread, tp: TopicPartition = TP, rounds: int = 50) -> None:
    """Runs the fetcher until the replica's log equals the leader's (bounded by rounds, not by time)."""
    for _ in range(rounds):
        fetcher.do_work()
        if fetcher.replica_states[tp].log == fetcher.leader_states[tp].log:
            return
    raise AssertionError(
        f"Failed to reconcile leader and follower logs: {fetcher.replica_states[tp].log} vs "
        f"{fetcher.leader_states[tp].log}"
    )


# -- the cases -----------------------------------------------------------------------------------------------------


def test_simple_fetch(fetcher: MockFetcherThread) -> None:
    """A follower at offset 0 fetches the leader's batch and takes on its high watermark."""
    fetcher.replica_states[TP] = PartitionState.of(leader_epoch=0)
    fetcher.add_partitions({TP: initial_fetch_state(0, leader_epoch=0)})
    fetcher.leader_states[TP] = PartitionState.of([Batch(0, 0, b"ab", count=2)], leader_epoch=0, high_watermark=2)
    fetcher.do_work()
    replica = fetcher.replica_states[TP]
    assert (replica.log_end_offset, replica.high_watermark) == (2, 2)


def test_fenced_truncation(fetcher: MockFetcherThread, failed: FailedPartitions) -> None:
    """A follower whose epoch is older than the leader's is fenced while truncating: no progress, the partition is
    removed from the thread and marked failed until a new LeaderAndIsr."""
    fetcher.replica_states[TP] = PartitionState.of(leader_epoch=0)
    fetcher.add_partitions_forcing({TP: initial_fetch_state(0, leader_epoch=0)}, force_truncation=False)
    fetcher.leader_states[TP] = PartitionState.of([Batch(0, 1, b"ab", count=2)], leader_epoch=1, high_watermark=2)
    # Force the truncating phase (with truncation on fetch a follower with epochs starts fetching at once).
    fetcher.mark_partitions_for_truncation(TP, 0)
    fetcher.do_work()
    replica = fetcher.replica_states[TP]
    assert (replica.log_end_offset, replica.high_watermark) == (0, 0)
    assert fetcher.fetch_state(TP) is None and failed.contains(TP)


def test_fenced_fetch(fetcher: MockFetcherThread, failed: FailedPartitions) -> None:
    """A follower that caught up is fenced when the leader's epoch moves on: the partition is marked failed."""
    fetcher.replica_states[TP] = PartitionState.of(leader_epoch=0)
    fetcher.add_partitions({TP: initial_fetch_state(0, leader_epoch=0)})
    fetcher.leader_states[TP] = PartitionState.of([Batch(0, 0, b"ab", count=2)], leader_epoch=0, high_watermark=2)
    fetcher.do_work()
    assert fetcher.replica_states[TP].log_end_offset == 2
    fetcher.leader_states[TP].leader_epoch += 1
    fetcher.do_work()
    assert fetcher.fetch_state(TP) is None and failed.contains(TP)


def test_unknown_leader_epoch_in_truncation(fetcher: MockFetcherThread) -> None:
    """A follower ahead of the leader's epoch keeps truncating (UNKNOWN_LEADER_EPOCH is retried) until the leader
    catches up, then fetches."""
    fetcher.replica_states[TP] = PartitionState.of(leader_epoch=1)
    fetcher.add_partitions_forcing({TP: initial_fetch_state(0, leader_epoch=1)}, force_truncation=True)
    fetcher.leader_states[TP] = PartitionState.of([batch(0, 0)], leader_epoch=0, high_watermark=2)
    fetcher.do_work()
    state = fetcher.fetch_state(TP)
    assert fetcher.replica_states[TP].log_end_offset == 0 and state is not None and state.state == Truncating()
    fetcher.leader_states[TP].leader_epoch += 1
    # The partition was delayed after the error; with no backoff it is due at once.
    fetcher.do_work()
    state = fetcher.fetch_state(TP)
    assert fetcher.replica_states[TP].log_end_offset == 1 and state is not None and state.state == Fetching()


def test_truncation_to_the_epoch_end_offset(fetcher: MockFetcherThread) -> None:
    """A follower whose log diverges from the leader's (epochs 0,2,4 against 1,3,5) truncates by the epochs'
    end offsets and ends up with the leader's log, log start, end and high watermark."""
    fetcher.replica_states[TP] = PartitionState.of([batch(0, 0, b"a"), batch(1, 2, b"b"), batch(2, 4, b"c")], 5, 0)
    fetcher.add_partitions({TP: initial_fetch_state(3, leader_epoch=5)})
    leader = PartitionState.of(
        [batch(0, 1, b"a"), batch(1, 3, b"b"), batch(2, 5, b"c")], leader_epoch=5, high_watermark=2
    )
    fetcher.leader_states[TP] = leader
    reconcile(fetcher)
    replica = fetcher.replica_states[TP]
    assert (replica.log_start_offset, replica.log_end_offset, replica.high_watermark) == (0, 3, 2)


def test_truncate_to_high_watermark_if_leader_epoch_request_not_supported(failed: FailedPartitions) -> None:
    """Before OffsetsForLeaderEpoch (IBP < 0.11) a follower truncates to its high watermark, and never asks the
    leader for epochs."""
    fetcher = MockFetcherThread(failed, truncate_on_fetch=False)
    fetcher.offset_for_leader_epoch_supported = False
    asked: list[Any] = []

    def record_asked(partitions: Mapping[TopicPartition, Any]) -> dict[TopicPartition, Any]:
        asked.append(partitions)
        return {}

    fetcher.fetch_epoch_end_offsets = record_asked  # type: ignore[method-assign]
    fetcher.replica_states[TP] = PartitionState.of([batch(0, 0), batch(1, 2), batch(2, 4)], 5, 2)
    fetcher.add_partitions({TP: initial_fetch_state(2, leader_epoch=5)})
    fetcher.leader_states[TP] = PartitionState.of([batch(0, 0), batch(1, 2)], 5, 2)
    fetcher.do_work()
    state = fetcher.fetch_state(TP)
    assert fetcher.replica_states[TP].log_end_offset == 2 and asked == []
    assert state is not None and state.fetch_offset == 2 and state.is_ready_for_fetch


def test_truncation_skipped_if_no_epoch_change(fetcher: MockFetcherThread) -> None:
    """A partition added again at the same leader epoch keeps its fetch state (no second truncation)."""
    fetcher.replica_states[TP] = PartitionState.of([batch(0, 0), batch(1, 0)], 4, 2)
    fetcher.leader_states[TP] = PartitionState.of([batch(0, 0), batch(1, 0), batch(2, 4)], 4, 3)
    fetcher.add_partitions({TP: initial_fetch_state(2, leader_epoch=4)})
    reconcile(fetcher)
    calls = fetcher.truncate_calls
    before = fetcher.fetch_state(TP)
    fetcher.add_partitions({TP: initial_fetch_state(0, leader_epoch=4)})
    assert fetcher.fetch_state(TP) == before and fetcher.truncate_calls == calls


def test_follower_fetch_out_of_range_high(fetcher: MockFetcherThread) -> None:
    """When the leader's log ends before the follower's (an unclean election), the follower truncates to the
    leader's end offset."""
    log = [batch(0, 0, b"a"), batch(1, 2, b"b"), batch(2, 4, b"c")]
    fetcher.replica_states[TP] = PartitionState.of(list(log), 4, 0)
    fetcher.add_partitions({TP: initial_fetch_state(3, leader_epoch=4)})
    leader = PartitionState.of(list(log), 4, 2)
    fetcher.leader_states[TP] = leader
    fetcher.do_work()
    state = fetcher.fetch_state(TP)
    assert fetcher.replica_states[TP].log_end_offset == 3 and state is not None and state.state == Fetching()
    leader.log.clear()
    leader.log_end_offset = leader.log_start_offset = leader.high_watermark = 0
    fetcher.do_work()
    replica = fetcher.replica_states[TP]
    assert (replica.log_end_offset, replica.log_start_offset, replica.high_watermark) == (0, 0, 0)


def test_follower_fetch_out_of_range_low(fetcher: MockFetcherThread) -> None:
    """A follower whose log ends before the leader's log start starts its log over at the leader's log start
    offset and then catches up."""
    fetcher.replica_states[TP] = PartitionState.of([batch(0, 0, b"a")], 0, 0)
    fetcher.add_partitions({TP: initial_fetch_state(3, leader_epoch=0)})
    leader = PartitionState.of([batch(2, 4, b"c")], leader_epoch=0, high_watermark=2)
    fetcher.leader_states[TP] = leader
    fetcher.do_work()
    if fetcher.truncate_on_fetch:
        fetcher.do_work()  # the first round truncated on the diverging epoch
    state = fetcher.fetch_state(TP)
    assert state is not None and state.state == Fetching()
    assert fetcher.replica_states[TP].log_start_offset == 2 and fetcher.replica_states[TP].log == []
    reconcile(fetcher)
    replica = fetcher.replica_states[TP]
    assert (replica.log_start_offset, replica.log_end_offset, replica.high_watermark) == (2, 3, 2)


def test_fenced_offset_reset_after_out_of_range(fetcher: MockFetcherThread, failed: FailedPartitions) -> None:
    """An out-of-range offset whose reset is fenced by the leader marks the partition failed."""
    fetched_earliest: list[bool] = []

    def fenced(topic_partition: TopicPartition, current_leader_epoch: int) -> int:
        fetched_earliest.append(True)
        raise FencedLeaderEpochException(f"Epoch {current_leader_epoch} is fenced")

    fetcher.fetch_earliest_offset_from_leader = fenced  # type: ignore[method-assign]
    fetcher.replica_states[TP] = PartitionState.of([], 4, 0)
    fetcher.add_partitions({TP: initial_fetch_state(0, leader_epoch=4)})
    fetcher.leader_states[TP] = PartitionState.of([batch(1, 2, b"b"), batch(2, 4, b"c")], 4, 2)
    fetcher.do_work()
    assert fetcher.replica_states[TP].log_end_offset == 0 and fetched_earliest
    assert fetcher.fetch_state(TP) is None and failed.contains(TP)


def test_retry_after_unknown_leader_epoch_in_latest_offset_fetch(fetcher: MockFetcherThread) -> None:
    """An UNKNOWN_LEADER_EPOCH while resetting an out-of-range offset is retried later, and the follower then
    catches up."""
    tries: list[int] = []
    real = fetcher.fetch_latest_offset_from_leader

    def flaky(topic_partition: TopicPartition, current_leader_epoch: int) -> int:
        tries.append(1)
        if len(tries) == 1:
            raise UnknownLeaderEpochException("Unexpected leader epoch")
        return real(topic_partition, current_leader_epoch)

    fetcher.fetch_latest_offset_from_leader = flaky  # type: ignore[method-assign]
    fetcher.replica_states[TP] = PartitionState.of([], 0, 0)
    fetcher.add_partitions({TP: initial_fetch_state(0, leader_epoch=0)})
    fetcher.leader_states[TP] = PartitionState.of([batch(1, 0, b"b"), batch(2, 0, b"c")], 0, 3)
    fetcher.do_work()  # out of range; the latest-offset lookup fails
    state = fetcher.fetch_state(TP)
    assert state is not None and state.fetch_offset == 0 and len(tries) == 1
    reconcile(fetcher)
    assert fetcher.replica_states[TP].log_end_offset == 3 and len(tries) == 2


def test_diverging_epochs(failed: FailedPartitions) -> None:
    """From IBP 2.7 a follower starts fetching at its log end with its last epoch; the leader's diverging epoch
    in the response truncates it to the epochs' common end, and it then fetches the leader's batches."""
    fetcher = MockFetcherThread(failed, truncate_on_fetch=True)
    fetcher.replica_states[TP] = PartitionState.of([batch(0, 0, b"a"), batch(1, 2, b"b"), batch(2, 4, b"c")], 5, 0)
    fetcher.add_partitions({TP: initial_fetch_state(3, leader_epoch=5)})
    assert fetcher.replica_states[TP].log_end_offset == 3
    fetcher.verify_last_fetched_epoch(TP, 4)
    fetcher.leader_states[TP] = PartitionState.of([batch(0, 0, b"a"), batch(1, 2, b"b"), batch(2, 5, b"d")], 5, 2)
    fetcher.do_work()
    fetcher.verify_last_fetched_epoch(TP, 2)
    reconcile(fetcher)
    fetcher.verify_last_fetched_epoch(TP, 5)
    assert [b.value for b in fetcher.replica_states[TP].log] == [b"a", b"b", b"d"]


def test_truncate_on_fetch_does_not_process_partition_data(failed: FailedPartitions) -> None:
    """A response with a diverging epoch truncates the follower once and appends nothing (its watermarks stay),
    the next fetches bring the leader's data and high watermark."""
    fetcher = MockFetcherThread(failed, truncate_on_fetch=True)
    replica_log = [batch(0, 0, b"a"), batch(1, 0, b"b"), batch(2, 2, b"c"), batch(3, 4, b"d")]
    replica_log += [batch(4, 4, b"e"), batch(5, 4, b"f")]
    fetcher.replica_states[TP] = PartitionState.of(replica_log, 5, 1)
    fetcher.add_partitions({TP: initial_fetch_state(3, leader_epoch=5)})
    assert fetcher.replica_states[TP].log_end_offset == 6
    leader_log = [batch(0, 0, b"a"), batch(1, 0, b"b"), batch(2, 2, b"c"), batch(3, 5, b"g"), batch(4, 5, b"h")]
    fetcher.leader_states[TP] = PartitionState.of(leader_log, 5, 4)
    fetcher.do_work()
    replica = fetcher.replica_states[TP]
    assert (fetcher.truncate_calls, fetcher.process_calls) == (1, 0)
    assert (replica.log_end_offset, replica.high_watermark) == (3, 1)
    reconcile(fetcher)
    fetcher.verify_last_fetched_epoch(TP, 5)
    assert fetcher.truncate_calls == 1 and fetcher.process_calls >= 1
    assert (replica.log_end_offset, replica.high_watermark) == (5, 4)


def test_not_leader_or_follower_backs_off(fetcher: MockFetcherThread) -> None:
    """NOT_LEADER_OR_FOLLOWER from the source broker delays the partition by replica.fetch.backoff.ms (it stays
    assigned, unlike a fenced one)."""
    fetcher.fetch_back_off_ms = 60_000
    fetcher.replica_states[TP] = PartitionState.of(leader_epoch=0)
    fetcher.add_partitions({TP: initial_fetch_state(0, leader_epoch=0)})
    fetcher.leader_states[TP] = PartitionState.of([batch(0, 0)], 0, 1)
    real = fetcher.fetch_from_leader

    def not_leader(fetch_request: Builder[Any]) -> dict[TopicPartition, Any]:
        response = real(fetch_request)
        for data in response.values():
            data.error_code = Errors.NOT_LEADER_OR_FOLLOWER.code
            data.records = []
        return response

    fetcher.fetch_from_leader = not_leader  # type: ignore[method-assign]
    fetcher.do_work()
    state = fetcher.fetch_state(TP)
    assert state is not None and state.is_delayed and not state.is_ready_for_fetch
    assert state.delay is not None and state.delay.delay_ms == 60_000


def test_storage_error_during_append_marks_the_partition_failed(
    fetcher: MockFetcherThread, failed: FailedPartitions
) -> None:
    """A storage error while appending stops fetching that partition (marked failed) and not the others."""
    from kafka.common.errors import KafkaStorageException

    other = TopicPartition("topic", 1)
    for tp in (TP, other):
        fetcher.replica_states[tp] = PartitionState.of(leader_epoch=0)
        fetcher.leader_states[tp] = PartitionState.of([batch(0, 0)], 0, 1)
    fetcher.add_partitions({TP: initial_fetch_state(0, 0), other: initial_fetch_state(0, 0)})
    real = fetcher.process_partition_data

    def failing(topic_partition: TopicPartition, fetch_offset: int, partition_data: Any) -> Any:
        if topic_partition == TP:
            raise KafkaStorageException("disk gone")
        return real(topic_partition, fetch_offset, partition_data)

    fetcher.process_partition_data = failing  # type: ignore[method-assign]
    fetcher.do_work()
    assert failed.contains(TP) and fetcher.fetch_state(TP) is None
    assert fetcher.replica_states[other].log_end_offset == 1
