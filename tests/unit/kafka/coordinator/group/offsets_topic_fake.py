"""A stand-in for the ReplicaManager in the coordinators' unit tests: the partitions of an internal topic
(`__consumer_offsets` by default, `__transaction_state` for the transaction coordinator's tests) are real `Log`s in
a temporary directory, so what a coordinator appends is written as real bytes and read back when a partition is
loaded. Tests can make appends fail, hold their callbacks, or take a partition away."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kafka.common.errors import KafkaException
from kafka.common.internals.topic import Topic
from kafka.common.protocol.errors import Errors
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.control_record_type import ControlRecordType
from kafka.common.record.end_transaction_marker import EndTransactionMarker
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.record_batch import NO_TIMESTAMP
from kafka.common.record.simple_record import SimpleRecord
from kafka.common.requests.produce_response import PartitionResponse
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import MockTime
from kafka.log.log import Log
from kafka.log.log_append_info import LogAppendInfo
from kafka.log.log_config import LogConfig
from kafka.log.log_dir_failure_channel import LogDirFailureChannel
from kafka.log.log_validator import AppendOrigin, Coordinator
from kafka.utils.mock_scheduler import MockScheduler

ResponseCallback = Callable[[dict[TopicPartition, PartitionResponse]], None]


def offsets_tp(partition: int) -> TopicPartition:
    return TopicPartition(Topic.GROUP_METADATA_TOPIC_NAME, partition)


class FakePartition:
    """The leader side of one hosted offsets partition: coordinator appends go straight to its log."""

    def __init__(self, log: Log) -> None:
        self.log = log
        self.fail_with: BaseException | None = None
        self.appended: list[tuple[MemoryRecords, int]] = []

    def append_records_to_leader(
        self, records: MemoryRecords, origin: AppendOrigin, required_acks: int
    ) -> LogAppendInfo:
        """The direct append the coordinator uses for tombstones; kept in `appended` (a copy: the log patches
        offsets into the buffer it is given)."""
        if self.fail_with is not None:
            raise self.fail_with
        self.appended.append((MemoryRecords.readable_records(bytearray(records.buffer())), required_acks))
        return self.write(records, origin)

    def write(self, records: MemoryRecords, origin: AppendOrigin) -> LogAppendInfo:
        info = self.log.append_as_leader(records, 0, origin)
        self.log.update_high_watermark(self.log.log_end_offset)
        return info


@dataclass
class AppendCall:
    """One call of `append_records`, as the fake saw it."""

    timeout: int
    required_acks: int
    internal_topics_allowed: bool
    origin: AppendOrigin
    entries: dict[TopicPartition, MemoryRecords]
    delayed_produce_lock: Any


class FakeReplicaManager:
    """Hosts partitions 0..num_partitions-1 of `topic` as real logs under `log_dir`.

    - `append_error`: answer every append with this error instead of writing.
    - `hold_callbacks`: write (or fail) but keep the response; `release()` delivers the held ones.
    - `unhost(p)`: the broker no longer hosts partition p (no magic, no log, no online partition).
    """

    def __init__(
        self,
        log_dir: Path,
        time: MockTime,
        scheduler: MockScheduler,
        num_partitions: int = 2,
        log_props: Mapping[str, Any] | None = None,
        topic: str = Topic.GROUP_METADATA_TOPIC_NAME,
    ) -> None:
        self.time = time
        self.topic = topic
        self.channel = LogDirFailureChannel(4)
        self.partitions: dict[TopicPartition, FakePartition] = {}
        for p in range(num_partitions):
            tp = self.tp(p)
            log = Log.apply(
                log_dir / str(tp),
                LogConfig(dict(log_props or {})),
                0,
                0,
                scheduler,
                time,
                60 * 60 * 1000,
                10 * 60 * 1000,
                self.channel,
            )
            self.partitions[tp] = FakePartition(log)
        self.hosted: set[TopicPartition] = set(self.partitions)
        self.append_error: Errors | None = None
        self.hold_callbacks = False
        self.held: list[tuple[ResponseCallback, dict[TopicPartition, PartitionResponse]]] = []
        self.calls: list[AppendCall] = []

    def tp(self, partition: int) -> TopicPartition:
        return TopicPartition(self.topic, partition)

    # -- what the coordinators' state managers call

    def get_magic(self, tp: TopicPartition) -> int | None:
        if tp not in self.hosted:
            return None
        return int(self.partitions[tp].log.config.message_format_version.record_version.value)

    def get_log(self, tp: TopicPartition) -> Log | None:
        return self.partitions[tp].log if tp in self.hosted else None

    def get_log_end_offset(self, tp: TopicPartition) -> int | None:
        return self.partitions[tp].log.log_end_offset if tp in self.hosted else None

    def online_partition(self, tp: TopicPartition) -> FakePartition | None:
        return self.partitions[tp] if tp in self.hosted else None

    def get_log_config(self, tp: TopicPartition) -> LogConfig | None:
        return self.partitions[tp].log.config if tp in self.hosted else None

    def append_records(
        self,
        timeout: int,
        required_acks: int,
        internal_topics_allowed: bool,
        origin: AppendOrigin,
        entries_per_partition: Mapping[TopicPartition, MemoryRecords],
        response_callback: ResponseCallback,
        delayed_produce_lock: Any = None,
        record_conversion_stats_callback: Any = None,
    ) -> None:
        self.calls.append(
            AppendCall(
                timeout,
                required_acks,
                internal_topics_allowed,
                origin,
                dict(entries_per_partition),
                delayed_produce_lock,
            )
        )
        responses: dict[TopicPartition, PartitionResponse] = {}
        for tp, records in entries_per_partition.items():
            if self.append_error is not None:
                responses[tp] = PartitionResponse(self.append_error, -1, log_append_time=NO_TIMESTAMP)
                continue
            if tp not in self.hosted:
                responses[tp] = PartitionResponse(Errors.NOT_LEADER_OR_FOLLOWER, -1)
                continue
            try:
                info = self.partitions[tp].write(records, origin)
            except KafkaException as e:
                responses[tp] = PartitionResponse(Errors.for_exception(e), -1)
                continue
            first = info.first_offset.message_offset if info.first_offset is not None else -1
            responses[tp] = PartitionResponse(Errors.NONE, first, log_append_time=info.log_append_time)
        if self.hold_callbacks:
            self.held.append((response_callback, responses))
        else:
            response_callback(responses)

    # -- test controls

    def release(self) -> None:
        held, self.held = self.held, []
        for callback, responses in held:
            callback(responses)

    def unhost(self, partition: int) -> None:
        self.hosted.discard(self.tp(partition))

    def log(self, partition: int) -> Log:
        return self.partitions[self.tp(partition)].log

    def append(self, partition: int, records: MemoryRecords) -> None:
        """Writes records to a partition directly, as another coordinator or a producer would have."""
        self.partitions[self.tp(partition)].write(records, Coordinator())

    def append_records_of(self, partition: int, *records: SimpleRecord, **kwargs: Any) -> None:
        self.append(partition, MemoryRecords.with_records(CompressionType.NONE, *records, **kwargs))

    def append_txn_marker(self, partition: int, producer_id: int, producer_epoch: int, commit: bool) -> None:
        marker = EndTransactionMarker(ControlRecordType.COMMIT if commit else ControlRecordType.ABORT, 0)
        records = MemoryRecords.with_end_transaction_marker(
            producer_id, producer_epoch, marker, timestamp=self.time.milliseconds()
        )
        self.append(partition, records)

    def close(self) -> None:
        for partition in self.partitions.values():
            try:
                partition.log.close()
            except KafkaException:
                pass
