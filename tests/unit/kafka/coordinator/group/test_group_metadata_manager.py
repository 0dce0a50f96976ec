"""Tests for kafka.coordinator.group.group_metadata_manager, after Kafka's GroupMetadataManagerTest.

The offsets topic is real: a fake ReplicaManager (offsets_topic_fake) keeps each `__consumer_offsets` partition in
a real Log under tmp_path, so stores write real bytes and loads read them back.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kafka.common.errors import UnsupportedForMessageFormatException
from kafka.common.message import ConsumerProtocolSubscriptionData
from kafka.common.protocol.errors import Errors
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.record_batch import CURRENT_MAGIC_VALUE, MAGIC_VALUE_V1
from kafka.common.record.simple_record import SimpleRecord
from kafka.common.record.timestamp_type import TimestampType
from kafka.common.requests.offset_fetch_response import INVALID_OFFSET, PartitionData
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import MockTime
from kafka.common.utils.utils import abs_int32 as utils_abs
from kafka.common.utils.utils import java_string_hash_code
from kafka.coordinator.group import group_metadata_manager_formats as formats
from kafka.coordinator.group.group_metadata import (
    CONSUMER_PROTOCOL_TYPE,
    CompletingRebalance,
    Dead,
    Empty,
    GroupMetadata,
    PreparingRebalance,
    Stable,
)
from kafka.coordinator.group.group_metadata_manager import GroupMetadataManager
from kafka.coordinator.group.member_metadata import MemberMetadata
from kafka.coordinator.group.offset_and_metadata import OffsetAndMetadata
from kafka.coordinator.group.offset_config import OffsetConfig
from kafka.log.log_validator import Coordinator
from kafka.server.kafka_config import (
    KAFKA_0_10_0_IV1,
    KAFKA_0_10_2_IV0,
    KAFKA_2_0_IV0,
    KAFKA_2_1_IV0,
    KAFKA_2_2_IV0,
    ApiVersion,
)
from kafka.utils.mock_scheduler import MockScheduler
from tests.unit.kafka.coordinator.group.offsets_topic_fake import FakeReplicaManager, offsets_tp
from tests.utils import wait_until_true

START_MS = 1_700_000_000_000
NUM_PARTITIONS = 2
GROUP_ID = "foo"  # Java hash 101574: partition 0 of 2
OTHER_GROUP_ID = "bar"  # Java hash 97299: partition 1 of 2
MANAGER_LOGGER = "kafka.coordinator.group.GroupMetadataManager"
RETENTION_MS = OffsetConfig.DEFAULT_OFFSET_RETENTION_MS

TP_FOO0 = TopicPartition("foo", 0)
TP_FOO1 = TopicPartition("foo", 1)
TP_BAR0 = TopicPartition("bar", 0)


class Env:
    """A MockTime, a fake ReplicaManager over real logs, and the managers a test creates."""

    def __init__(self, tmp_path: Path, log_props: dict[str, Any] | None = None) -> None:
        self.time = MockTime(start_ms=START_MS)
        self.scheduler = MockScheduler(self.time)
        self.rm = FakeReplicaManager(tmp_path, self.time, self.scheduler, NUM_PARTITIONS, log_props)
        self.managers: list[GroupMetadataManager] = []
        self.manager = self.new_manager()

    def new_manager(
        self, ibp: ApiVersion = ApiVersion.latest_version, config: OffsetConfig | None = None
    ) -> GroupMetadataManager:
        manager = GroupMetadataManager(
            0, ibp, config or OffsetConfig(), self.rm, None, self.time, scheduler=MockScheduler(self.time)
        )
        manager.startup(lambda: NUM_PARTITIONS, False)
        self.managers.append(manager)
        return manager

    def load(self, manager: GroupMetadataManager, partition: int = 0, epoch: int = 1) -> list[GroupMetadata]:
        """Schedules a load (the MockScheduler runs it at once) and returns the groups passed to the callback."""
        loaded: list[GroupMetadata] = []
        manager.schedule_load_group_and_offsets(partition, epoch, loaded.append)
        return loaded

    def reload(self, partition: int = 0) -> GroupMetadataManager:
        """A fresh manager that has loaded `partition` from the log."""
        manager = self.new_manager()
        self.load(manager, partition)
        return manager

    def commit(
        self,
        group: GroupMetadata,
        offsets: dict[TopicPartition, OffsetAndMetadata],
        producer_id: int = -1,
        producer_epoch: int = -1,
        manager: GroupMetadataManager | None = None,
    ) -> dict[TopicPartition, Errors] | None:
        results: list[dict[TopicPartition, Errors]] = []
        (manager or self.manager).store_offsets(group, "", offsets, results.append, producer_id, producer_epoch)
        return results[-1] if results else None

    def close(self) -> None:
        for manager in self.managers:
            manager.shutdown()
        self.rm.close()


@pytest.fixture
def env(tmp_path: Path) -> Iterator[Env]:
    e = Env(tmp_path)
    yield e
    e.close()


def oam(
    offset: int, time: MockTime, metadata: str = "", expire_after: int | None = None, epoch: int | None = None
) -> OffsetAndMetadata:
    now = time.milliseconds()
    return OffsetAndMetadata(offset, epoch, metadata, now, None if expire_after is None else now + expire_after)


def subscription(*topics: str) -> bytes:
    return b"\x00\x00" + ConsumerProtocolSubscriptionData(topics=list(topics)).write(0)


def member(member_id: str = "m1", instance: str | None = "inst", topics: tuple[str, ...] = ("foo",)) -> MemberMetadata:
    return MemberMetadata(
        member_id,
        instance,
        "clientId",
        "clientHost",
        30000,
        10000,
        CONSUMER_PROTOCOL_TYPE,
        [("range", subscription(*topics))],
    )


def stable_group(time: MockTime, generation: int = 7, group_id: str = GROUP_ID, **member_args: Any) -> GroupMetadata:
    m = member(**member_args)
    return GroupMetadata.load_group(
        group_id, Stable(), generation, CONSUMER_PROTOCOL_TYPE, "range", m.member_id, time.milliseconds(), [m], time
    )


def offset_records(time: MockTime, offsets: dict[TopicPartition, int], group_id: str = GROUP_ID) -> list[SimpleRecord]:
    return [
        SimpleRecord(
            time.milliseconds(),
            formats.offset_commit_key(group_id, tp),
            formats.offset_commit_value(OffsetAndMetadata(offset, None, "", time.milliseconds(), None)),
        )
        for tp, offset in offsets.items()
    ]


def group_record(group: GroupMetadata, assignment: dict[str, bytes] | None = None) -> SimpleRecord:
    return SimpleRecord(
        0, formats.group_metadata_key(group.group_id), formats.group_metadata_value(group, assignment or {})
    )


def append_txn_offsets(env: Env, producer_id: int, producer_epoch: int, offsets: dict[TopicPartition, int]) -> int:
    """Writes a transactional offset commit batch; returns its base offset."""
    base = env.rm.log(0).log_end_offset
    env.rm.append_records_of(
        0,
        *offset_records(env.time, offsets),
        producer_id=producer_id,
        producer_epoch=producer_epoch,
        base_sequence=0,
        is_transactional=True,
    )
    return base


def append_offsets(env: Env, offsets: dict[TopicPartition, int], partition: int = 0, group_id: str = GROUP_ID) -> int:
    base = env.rm.log(partition).log_end_offset
    env.rm.append_records_of(partition, *offset_records(env.time, offsets, group_id))
    return base


def log_entries(env: Env, partition: int = 0) -> list[tuple[formats.BaseKey, bytes | None]]:
    """Every data record of the partition's log, as (decoded key, value)."""
    log = env.rm.log(partition)
    out: list[tuple[formats.BaseKey, bytes | None]] = []
    for segment in log.log_segments():
        for batch in segment.log.batches():
            if batch.is_control_batch():
                continue
            for record in batch:
                key = record.key()
                assert key is not None
                out.append((formats.read_message_key(key), record.value()))
    return out


# ---- partition_for ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "java_hash"),
    [
        ("", 0),
        ("hello", 99162322),
        ("foo", 101574),
        ("my-group", -1906497762),
        ("polygenelubricants", -(2**31)),
        ("\U0001f600", 1772899),  # one code point, two UTF-16 units: 0xD83D * 31 + 0xDE00
        ("groupé", -1237460406),
    ],
)
def test_java_string_hash_code(text: str, java_hash: int) -> None:
    """String hashes equal Java's String.hashCode (values printed by a JVM), including int32 overflow and surrogate
    pairs."""
    assert java_string_hash_code(text) == java_hash


def test_partition_for_uses_kafka_utils_abs(env: Env) -> None:
    """partition_for is Utils.abs(hashCode) % partitions: MIN_VALUE maps to 0 and negatives are negated, not masked."""
    manager = GroupMetadataManager(
        0, ApiVersion.latest_version, OffsetConfig(), env.rm, None, env.time, MockScheduler(env.time)
    )
    manager.startup(lambda: 50, False)
    env.managers.append(manager)
    assert utils_abs(-(2**31)) == 0
    assert manager.partition_for("polygenelubricants") == 0
    # Partitions a JVM computes with Kafka's Utils.abs(hashCode) % 50.
    assert manager.partition_for("my-group") == 12
    assert (-1906497762 & 0x7FFFFFFF) % 50 != 12  # masking the sign bit instead would pick another partition
    assert manager.partition_for("hello") == 22
    assert manager.partition_for("groupé") == 6
    assert manager.partition_for("\U0001f600") == 49
    assert env.manager.partition_for(GROUP_ID) == 0
    assert env.manager.partition_for(OTHER_GROUP_ID) == 1


# ---- ownership and lookup --------------------------------------------------------------------------------------


def test_group_not_exists(env: Env) -> None:
    """A group 'does not exist' only when its partition is owned and the group is missing or Dead."""
    m = env.manager
    assert not m.group_not_exists(GROUP_ID)
    m.add_partition_ownership(0)
    assert m.group_not_exists(GROUP_ID)
    group = GroupMetadata(GROUP_ID, Empty(), env.time)
    m.add_group(group)
    assert not m.group_not_exists(GROUP_ID)
    group.transition_to(Dead())
    assert m.group_not_exists(GROUP_ID)


def test_add_group_and_get_or_maybe_create(env: Env) -> None:
    """add_group keeps the first group of an id; get_or_maybe_create_group creates an Empty group only when asked."""
    m = env.manager
    assert m.get_or_maybe_create_group(GROUP_ID, False) is None
    created = m.get_or_maybe_create_group(GROUP_ID, True)
    assert created is not None and created.is_(Empty())
    assert m.get_or_maybe_create_group(GROUP_ID, True) is created
    other = GroupMetadata(GROUP_ID, Empty(), env.time)
    assert m.add_group(other) is created
    assert m.get_group(GROUP_ID) is created
    assert m.current_groups == [created]


# ---- store and load --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ibp", "group_version", "offset_version"),
    [
        (KAFKA_0_10_0_IV1, 0, 1),
        (KAFKA_2_0_IV0, 1, 1),
        (KAFKA_2_1_IV0, 2, 2),
        (KAFKA_2_2_IV0, 2, 3),
        (ApiVersion.latest_version, 3, 3),
    ],
)
def test_store_then_load_round_trip(env: Env, ibp: ApiVersion, group_version: int, offset_version: int) -> None:
    """A stored group and its offsets, written in the IBP's value versions, load back into a fresh manager."""
    writer = env.new_manager(ibp)
    writer.add_partition_ownership(0)
    group = stable_group(env.time)
    writer.add_group(group)
    errors: list[Errors] = []
    writer.store_group(group, {"m1": b"assignment"}, errors.append)
    assert errors == [Errors.NONE]
    commit = {TP_FOO0: oam(23, env.time, "md", epoch=4), TP_FOO1: oam(455, env.time)}
    assert env.commit(group, commit, manager=writer) == {TP_FOO0: Errors.NONE, TP_FOO1: Errors.NONE}
    assert group.offset(TP_FOO0) == commit[TP_FOO0]

    versions = {type(key).__name__: int.from_bytes(value[:2], "big") for key, value in log_entries(env) if value}
    assert versions == {"GroupMetadataKey": group_version, "OffsetKey": offset_version}

    reader = env.new_manager(ibp)
    loaded = env.load(reader)
    assert [g.group_id for g in loaded] == [GROUP_ID]
    assert reader.is_partition_owned(0) and not reader.is_partition_loading(0)
    g = reader.get_group(GROUP_ID)
    assert g is loaded[0]
    assert g.is_(Stable())
    assert (g.generation_id, g.protocol_type, g.protocol_name, g.leader_or_null) == (7, "consumer", "range", "m1")
    loaded_member = g.get("m1")
    assert loaded_member.assignment == b"assignment"
    assert loaded_member.group_instance_id == ("inst" if group_version >= 3 else None)
    assert loaded_member.rebalance_timeout_ms == (10000 if group_version == 0 else 30000)
    assert g.current_state_timestamp == (START_MS if group_version >= 2 else None)
    loaded_epoch = 4 if offset_version >= 3 else None
    assert g.offset(TP_FOO0) == OffsetAndMetadata(23, loaded_epoch, "md", START_MS, None)
    assert g.offset(TP_FOO1) == commit[TP_FOO1]
    assert g.get_subscribed_topics() == frozenset({"foo"})


def test_store_with_message_format_v1(tmp_path: Path) -> None:
    """On an offsets topic with message format 0.10.2 the manager writes magic 1 records, and they load back."""
    e = Env(tmp_path, {"message.format.version": "0.10.2"})
    try:
        writer = e.new_manager(KAFKA_0_10_2_IV0)
        group = stable_group(e.time)
        writer.add_group(group)
        errors: list[Errors] = []
        writer.store_group(group, {"m1": b"a"}, errors.append)
        assert errors == [Errors.NONE]
        assert e.commit(group, {TP_FOO0: oam(5, e.time)}, manager=writer) == {TP_FOO0: Errors.NONE}
        magics = [b.magic() for s in e.rm.log(0).log_segments() for b in s.log.batches()]
        assert magics == [MAGIC_VALUE_V1, MAGIC_VALUE_V1]
        with pytest.raises(UnsupportedForMessageFormatException):
            e.commit(group, {TP_FOO1: oam(6, e.time)}, producer_id=5, producer_epoch=0, manager=writer)
        reader = e.new_manager(KAFKA_0_10_2_IV0)
        e.load(reader)
        g = reader.get_group(GROUP_ID)
        assert g is not None and g.generation_id == 7
        assert g.offset(TP_FOO0) is not None and g.offset(TP_FOO0).offset == 5  # type: ignore[union-attr]
    finally:
        e.close()


def test_store_uses_coordinator_append_settings(env: Env) -> None:
    """Appends go through the ReplicaManager as Kafka's do: acks and timeout from OffsetConfig, internal topics
    allowed, Coordinator origin, the group's lock for the delayed produce, CREATE_TIME batches."""
    config = OffsetConfig(offset_commit_timeout_ms=1234, offset_commit_required_acks=1)
    m = env.new_manager(config=config)
    group = stable_group(env.time)
    m.add_group(group)
    m.store_group(group, {"m1": b""}, lambda e: None)
    call = env.rm.calls[-1]
    assert (call.timeout, call.required_acks, call.internal_topics_allowed) == (1234, 1, True)
    assert isinstance(call.origin, Coordinator)
    assert call.delayed_produce_lock is group.lock
    assert list(call.entries) == [offsets_tp(0)]
    batch = next(iter(call.entries[offsets_tp(0)].batches()))
    assert batch.timestamp_type() is TimestampType.CREATE_TIME
    assert batch.magic() == CURRENT_MAGIC_VALUE


def test_offsets_topic_compression(tmp_path: Path) -> None:
    """offsets.topic.compression.codec compresses the appended batches, which still load."""
    e = Env(tmp_path)
    try:
        m = e.new_manager(config=OffsetConfig(offsets_topic_compression_codec=CompressionType.GZIP))
        group = GroupMetadata(GROUP_ID, Empty(), e.time)
        m.add_group(group)
        assert e.commit(group, {TP_FOO0: oam(1, e.time), TP_FOO1: oam(2, e.time)}, manager=m) == {
            TP_FOO0: Errors.NONE,
            TP_FOO1: Errors.NONE,
        }
        batch = next(iter(e.rm.calls[-1].entries[offsets_tp(0)].batches()))
        assert batch.compression_type() is CompressionType.GZIP
        g = e.reload().get_group(GROUP_ID)
        assert g is not None and {tp: o.offset for tp, o in g.all_offsets.items()} == {TP_FOO0: 1, TP_FOO1: 2}
    finally:
        e.close()


def test_load_offsets_without_group(env: Env) -> None:
    """Offsets without a group record load as an Empty group holding them."""
    append_offsets(env, {TP_FOO0: 23, TP_FOO1: 455, TP_BAR0: 8992})
    loaded = env.load(env.manager)
    g = env.manager.get_group(GROUP_ID)
    assert loaded == [g]
    assert g is not None and g.is_(Empty()) and g.generation_id == 0
    assert {tp: o.offset for tp, o in g.all_offsets.items()} == {TP_FOO0: 23, TP_FOO1: 455, TP_BAR0: 8992}


def test_load_empty_group_with_offsets(env: Env) -> None:
    """An Empty group record after its offsets loads with its generation and protocol type and no leader."""
    append_offsets(env, {TP_FOO0: 23})
    group = GroupMetadata.load_group(GROUP_ID, Empty(), 15, "consumer", None, None, None, [], env.time)
    env.rm.append_records_of(0, group_record(group))
    env.load(env.manager)
    g = env.manager.get_group(GROUP_ID)
    assert g is not None and g.is_(Empty())
    assert (g.generation_id, g.protocol_type, g.protocol_name, g.leader_or_null) == (15, "consumer", None, None)
    assert g.offset(TP_FOO0) is not None and g.offset(TP_FOO0).offset == 23  # type: ignore[union-attr]


def test_load_offsets_with_tombstones(env: Env) -> None:
    """An offset tombstone removes the offset loaded before it."""
    append_offsets(env, {TP_FOO0: 23, TP_FOO1: 455, TP_BAR0: 8992})
    env.rm.append_records_of(0, SimpleRecord(0, formats.offset_commit_key(GROUP_ID, TP_FOO1), None))
    env.load(env.manager)
    g = env.manager.get_group(GROUP_ID)
    assert g is not None
    assert {tp: o.offset for tp, o in g.all_offsets.items()} == {TP_FOO0: 23, TP_BAR0: 8992}


def test_load_group_with_tombstone(env: Env) -> None:
    """A group followed by its tombstone is not loaded."""
    group = stable_group(env.time)
    env.rm.append_records_of(0, group_record(group, {"m1": b""}))
    env.rm.append_records_of(0, SimpleRecord(0, formats.group_metadata_key(GROUP_ID), None))
    assert env.load(env.manager) == []
    assert env.manager.get_group(GROUP_ID) is None
    assert env.manager.is_partition_owned(0)


def test_offset_write_after_group_removed(env: Env) -> None:
    """Offsets written after the group's tombstone load as an Empty offsets-only group."""
    group = stable_group(env.time, generation=293)
    env.rm.append_records_of(
        0,
        group_record(group, {"m1": b""}),
        SimpleRecord(0, formats.group_metadata_key(GROUP_ID), None),
        *offset_records(env.time, {TP_FOO0: 23, TP_BAR0: 8992}),
    )
    env.load(env.manager)
    g = env.manager.get_group(GROUP_ID)
    assert g is not None and g.is_(Empty()) and g.generation_id == 0
    assert {tp: o.offset for tp, o in g.all_offsets.items()} == {TP_FOO0: 23, TP_BAR0: 8992}


def test_load_groups_of_the_partition_only(env: Env) -> None:
    """Loading a partition loads the groups stored in it and owns only it."""
    append_offsets(env, {TP_FOO0: 1})
    append_offsets(env, {TP_FOO0: 2}, partition=1, group_id=OTHER_GROUP_ID)
    loaded = env.load(env.manager, partition=1)
    assert [g.group_id for g in loaded] == [OTHER_GROUP_ID]
    assert env.manager.get_group(GROUP_ID) is None
    assert env.manager.is_group_local(OTHER_GROUP_ID) and not env.manager.is_group_local(GROUP_ID)


def test_load_from_different_segments_with_small_buffer(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Loading reads segment after segment in offsets.load.buffer.size chunks, growing the buffer (with Kafka's
    warning) for a batch larger than it; the last commit of each partition wins."""
    e = Env(tmp_path, {"segment.bytes": 1024})
    try:
        expected: dict[TopicPartition, int] = {}
        for i in range(30):
            offsets = {TopicPartition("foo", i % 4): i, TopicPartition("bar", i % 3): 100 + i}
            append_offsets(e, offsets)
            expected.update(offsets)
        assert len(e.rm.log(0).log_segments()) > 3
        reader = e.new_manager(config=OffsetConfig(load_buffer_size=50))
        with caplog.at_level(logging.WARNING, logger=MANAGER_LOGGER):
            e.load(reader)
        g = reader.get_group(GROUP_ID)
        assert g is not None
        assert {tp: o.offset for tp, o in g.all_offsets.items()} == expected
        assert any(
            "with buffer larger" in r.getMessage() and "offsets.load.buffer.size (50 bytes)" in r.getMessage()
            for r in caplog.records
        )
    finally:
        e.close()


def test_load_logs_finished_line(env: Env, caplog: pytest.LogCaptureFixture) -> None:
    """A finished load logs Kafka's line with the partition, the time taken and the epoch, and (as 3.7's coordinator
    loader does) how many records and bytes it read."""
    append_offsets(env, {TP_FOO0: 1})
    with caplog.at_level(logging.INFO, logger=MANAGER_LOGGER):
        env.load(env.manager, epoch=3)
    messages = [r.getMessage() for r in caplog.records if r.name == MANAGER_LOGGER]
    assert (
        "[GroupMetadataManager brokerId=0] Scheduling loading of offsets and group metadata from "
        "__consumer_offsets-0 for epoch 3" in messages
    )
    finished = [m for m in messages if "Finished loading" in m]
    assert len(finished) == 1
    match = re.fullmatch(
        r"\[GroupMetadataManager brokerId=0\] Finished loading offsets and group metadata from __consumer_offsets-0 "
        r"in 0 milliseconds for epoch 3, of which 0 milliseconds was spent in the scheduler\. "
        r"Loaded 1 records which total to (\d+) bytes\.",
        finished[0],
    )
    assert match is not None, finished[0]
    # One batch holding the one offset commit: more than the 61-byte v2 batch header.
    assert int(match.group(1)) > 61


def test_load_of_corrupt_partition_still_owns_it(env: Env, caplog: pytest.LogCaptureFixture) -> None:
    """A record that cannot be decoded stops the load with Kafka's error line, and the partition is owned anyway."""
    append_offsets(env, {TP_FOO0: 1})
    env.rm.append_records_of(0, SimpleRecord(0, b"\x00\x09junk", b"value"))
    with caplog.at_level(logging.ERROR, logger=MANAGER_LOGGER):
        loaded = env.load(env.manager)
    assert loaded == []
    assert env.manager.is_partition_owned(0) and not env.manager.is_loading
    assert any("Error loading offsets from __consumer_offsets-0" in r.getMessage() for r in caplog.records)


def test_load_without_log_warns(env: Env, caplog: pytest.LogCaptureFixture) -> None:
    """Without a local log the load warns and still marks the partition owned."""
    env.rm.unhost(0)
    with caplog.at_level(logging.WARNING, logger=MANAGER_LOGGER):
        env.load(env.manager)
    assert env.manager.is_partition_owned(0)
    assert any("but found no log" in r.getMessage() for r in caplog.records)


def test_load_when_already_loaded_is_skipped(env: Env) -> None:
    """A second load of an owned partition does nothing, so cached groups are kept as they are."""
    append_offsets(env, {TP_FOO0: 1})
    first = env.load(env.manager)
    append_offsets(env, {TP_FOO0: 2})
    assert env.load(env.manager, epoch=2) == []
    assert env.manager.get_group(GROUP_ID) is first[0]
    assert first[0].offset(TP_FOO0) is not None and first[0].offset(TP_FOO0).offset == 1  # type: ignore[union-attr]


# ---- transactional offsets on load -----------------------------------------------------------------------------


def test_load_committed_transactional_offsets(env: Env) -> None:
    """Transactional offsets followed by a COMMIT marker load as committed offsets."""
    base = append_txn_offsets(env, 1000, 2, {TP_FOO0: 23, TP_FOO1: 455, TP_BAR0: 8992})
    env.rm.append_txn_marker(0, 1000, 2, commit=True)
    env.load(env.manager)
    g = env.manager.get_group(GROUP_ID)
    assert g is not None and g.is_(Empty())
    assert {tp: o.offset for tp, o in g.all_offsets.items()} == {TP_FOO0: 23, TP_FOO1: 455, TP_BAR0: 8992}
    commit = g.offset_with_record_metadata(TP_FOO0)
    assert commit is not None and commit.appended_batch_offset == base
    assert not env.manager.is_group_open_for_producer(1000, GROUP_ID)


def test_load_aborted_transactional_offsets(env: Env) -> None:
    """Transactional offsets followed by an ABORT marker are dropped; with nothing else the group is not loaded."""
    append_txn_offsets(env, 1000, 2, {TP_FOO0: 23, TP_BAR0: 8992})
    env.rm.append_txn_marker(0, 1000, 2, commit=False)
    assert env.load(env.manager) == []
    assert env.manager.get_group(GROUP_ID) is None


def test_load_pending_transactional_offsets(env: Env) -> None:
    """Transactional offsets without a marker load as pending: not readable, UNSTABLE with require_stable, and the
    group is open for the producer until the transaction completes."""
    group = stable_group(env.time)
    env.rm.append_records_of(0, group_record(group, {"m1": b""}))
    append_offsets(env, {TP_BAR0: 5})
    append_txn_offsets(env, 1000, 2, {TP_FOO0: 23})
    env.load(env.manager)
    g = env.manager.get_group(GROUP_ID)
    assert g is not None and g.is_(Stable())
    assert g.has_pending_offset_commits_from_producer(1000)
    assert env.manager.is_group_open_for_producer(1000, GROUP_ID)
    assert env.manager.get_offsets(GROUP_ID, False, [TP_FOO0, TP_BAR0]) == {
        TP_FOO0: PartitionData(INVALID_OFFSET, None, "", Errors.NONE),
        TP_BAR0: PartitionData(5, None, "", Errors.NONE),
    }
    assert env.manager.get_offsets(GROUP_ID, True, [TP_FOO0, TP_BAR0]) == {
        TP_FOO0: PartitionData(INVALID_OFFSET, None, "", Errors.UNSTABLE_OFFSET_COMMIT),
        TP_BAR0: PartitionData(5, None, "", Errors.NONE),
    }

    env.manager.schedule_handle_txn_completion(1000, {0}, is_commit=True)
    assert env.manager.get_offsets(GROUP_ID, True, [TP_FOO0]) == {TP_FOO0: PartitionData(23, None, "", Errors.NONE)}
    assert not env.manager.is_group_open_for_producer(1000, GROUP_ID)


def test_load_committed_aborted_and_pending_transactions(env: Env) -> None:
    """Of three producers' transactions only the committed one's offsets are cached, the pending one stays pending."""
    append_txn_offsets(env, 1000, 2, {TP_FOO0: 23})
    env.rm.append_txn_marker(0, 1000, 2, commit=True)
    append_txn_offsets(env, 1001, 2, {TP_FOO1: 455})
    env.rm.append_txn_marker(0, 1001, 2, commit=False)
    append_txn_offsets(env, 1002, 2, {TP_BAR0: 8992})
    env.load(env.manager)
    g = env.manager.get_group(GROUP_ID)
    assert g is not None
    assert {tp: o.offset for tp, o in g.all_offsets.items()} == {TP_FOO0: 23}
    assert g.active_producers == frozenset({1002})
    assert g.has_pending_offset_commits_for_topic_partition(TP_BAR0)


def test_load_transactions_from_multiple_producers(env: Env) -> None:
    """Committed transactions of two producers both load, each offset tagged with its own batch's offset."""
    first = append_txn_offsets(env, 1000, 2, {TP_FOO0: 23, TP_BAR0: 8992})
    env.rm.append_txn_marker(0, 1000, 2, commit=True)
    second = append_txn_offsets(env, 1001, 3, {TP_FOO1: 231})
    env.rm.append_txn_marker(0, 1001, 3, commit=True)
    env.load(env.manager)
    g = env.manager.get_group(GROUP_ID)
    assert g is not None
    batch_offsets = {tp: g.offset_with_record_metadata(tp).appended_batch_offset for tp in g.all_offsets}  # type: ignore[union-attr]
    assert batch_offsets == {TP_FOO0: first, TP_BAR0: first, TP_FOO1: second}


@pytest.mark.parametrize("consumer_last", [True, False])
def test_load_consumer_and_transactional_commit_of_same_partition(env: Env, consumer_last: bool) -> None:
    """When a plain and a transactional commit of one partition interleave, the one written later in the log wins."""
    if consumer_last:
        append_txn_offsets(env, 1000, 2, {TP_FOO0: 23})
        append_offsets(env, {TP_FOO0: 24})
    else:
        append_offsets(env, {TP_FOO0: 24})
        append_txn_offsets(env, 1000, 2, {TP_FOO0: 23})
    env.rm.append_txn_marker(0, 1000, 2, commit=True)
    env.load(env.manager)
    g = env.manager.get_group(GROUP_ID)
    assert g is not None
    assert not g.has_pending_offset_commits_from_producer(1000)
    assert g.offset(TP_FOO0) is not None
    assert g.offset(TP_FOO0).offset == (24 if consumer_last else 23)  # type: ignore[union-attr]


def test_transactional_offset_tombstone_in_pending_transaction(env: Env) -> None:
    """A tombstone inside a transaction removes the transaction's own pending offset only."""
    append_offsets(env, {TP_FOO0: 1})
    env.rm.append_records_of(
        0,
        *offset_records(env.time, {TP_FOO0: 50}),
        SimpleRecord(0, formats.offset_commit_key(GROUP_ID, TP_FOO0), None),
        producer_id=1000,
        producer_epoch=0,
        base_sequence=0,
        is_transactional=True,
    )
    env.rm.append_txn_marker(0, 1000, 0, commit=True)
    env.load(env.manager)
    g = env.manager.get_group(GROUP_ID)
    assert g is not None and g.offset(TP_FOO0) is not None
    assert g.offset(TP_FOO0).offset == 1  # type: ignore[union-attr]


# ---- store_group -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("append_error", "expected"),
    [
        (Errors.NONE, Errors.NONE),
        (Errors.UNKNOWN_TOPIC_OR_PARTITION, Errors.COORDINATOR_NOT_AVAILABLE),
        (Errors.NOT_ENOUGH_REPLICAS, Errors.COORDINATOR_NOT_AVAILABLE),
        (Errors.NOT_ENOUGH_REPLICAS_AFTER_APPEND, Errors.COORDINATOR_NOT_AVAILABLE),
        (Errors.NOT_LEADER_OR_FOLLOWER, Errors.NOT_COORDINATOR),
        (Errors.KAFKA_STORAGE_ERROR, Errors.NOT_COORDINATOR),
        (Errors.REQUEST_TIMED_OUT, Errors.REBALANCE_IN_PROGRESS),
        (Errors.MESSAGE_TOO_LARGE, Errors.UNKNOWN_SERVER_ERROR),
        (Errors.RECORD_LIST_TOO_LARGE, Errors.UNKNOWN_SERVER_ERROR),
        (Errors.INVALID_FETCH_SIZE, Errors.UNKNOWN_SERVER_ERROR),
        (Errors.CORRUPT_MESSAGE, Errors.CORRUPT_MESSAGE),
    ],
)
def test_store_group_error_mapping(env: Env, append_error: Errors, expected: Errors) -> None:
    """Append errors of a group write map to the JoinGroup/SyncGroup errors Kafka 2.8 answers."""
    group = GroupMetadata(GROUP_ID, Empty(), env.time)
    env.manager.add_group(group)
    env.rm.append_error = None if append_error is Errors.NONE else append_error
    errors: list[Errors] = []
    env.manager.store_group(group, {}, errors.append)
    assert errors == [expected]


def test_store_group_too_large_for_the_log(tmp_path: Path) -> None:
    """A group record over the offsets topic's max.message.bytes is refused by the real log: UNKNOWN_SERVER_ERROR."""
    e = Env(tmp_path, {"max.message.bytes": 200})
    try:
        group = stable_group(e.time)
        e.manager.add_group(group)
        errors: list[Errors] = []
        e.manager.store_group(group, {"m1": b"x" * 500}, errors.append)
        assert errors == [Errors.UNKNOWN_SERVER_ERROR]
        assert e.rm.log(0).log_end_offset == 0
    finally:
        e.close()


def test_store_group_when_coordinator_has_moved(env: Env) -> None:
    """Without the offsets partition locally a group write answers NOT_COORDINATOR and appends nothing."""
    env.rm.unhost(0)
    group = stable_group(env.time)
    errors: list[Errors] = []
    env.manager.store_group(group, {"m1": b""}, errors.append)
    assert errors == [Errors.NOT_COORDINATOR]
    assert env.rm.calls == []


def test_store_empty_group(env: Env) -> None:
    """An Empty group's record holds its protocol type and generation and no members."""
    group = GroupMetadata(GROUP_ID, Empty(), env.time)
    group.protocol_type = "consumer"
    group.generation_id = 3
    env.manager.add_group(group)
    errors: list[Errors] = []
    env.manager.store_group(group, {}, errors.append)
    assert errors == [Errors.NONE]
    [(key, value)] = log_entries(env)
    assert key == formats.GroupMetadataKey(2, GROUP_ID)
    stored = formats.read_group_message_value(GROUP_ID, value, env.time)
    assert stored is not None and stored.is_(Empty())
    assert (stored.protocol_type, stored.generation_id, stored.all_members) == ("consumer", 3, frozenset())


# ---- store_offsets ---------------------------------------------------------------------------------------------


def test_commit_offset(env: Env) -> None:
    """A commit is cached once appended and read back by get_offsets with its metadata and leader epoch."""
    env.manager.add_partition_ownership(0)
    group = GroupMetadata(GROUP_ID, Empty(), env.time)
    env.manager.add_group(group)
    assert env.commit(group, {TP_FOO0: oam(37, env.time, "meta", epoch=9)}) == {TP_FOO0: Errors.NONE}
    assert group.has_offsets
    assert env.manager.get_offsets(GROUP_ID, False, [TP_FOO0]) == {TP_FOO0: PartitionData(37, 9, "meta", Errors.NONE)}
    commit = group.offset_with_record_metadata(TP_FOO0)
    assert commit is not None and commit.appended_batch_offset == 0


def test_commit_is_pending_until_appended(env: Env) -> None:
    """Until the append answers, a commit is pending: get_offsets with require_stable reports UNSTABLE_OFFSET_COMMIT."""
    group = GroupMetadata(GROUP_ID, Empty(), env.time)
    env.manager.add_group(group)
    env.rm.hold_callbacks = True
    assert env.commit(group, {TP_FOO0: oam(37, env.time)}) is None
    assert env.manager.get_offsets(GROUP_ID, True, [TP_FOO0]) == {
        TP_FOO0: PartitionData(INVALID_OFFSET, None, "", Errors.UNSTABLE_OFFSET_COMMIT)
    }
    assert env.manager.get_offsets(GROUP_ID, False, [TP_FOO0]) == {
        TP_FOO0: PartitionData(INVALID_OFFSET, None, "", Errors.NONE)
    }
    env.rm.release()
    assert env.manager.get_offsets(GROUP_ID, True, [TP_FOO0]) == {TP_FOO0: PartitionData(37, None, "", Errors.NONE)}


@pytest.mark.parametrize(
    ("append_error", "expected"),
    [
        (Errors.UNKNOWN_TOPIC_OR_PARTITION, Errors.COORDINATOR_NOT_AVAILABLE),
        (Errors.NOT_ENOUGH_REPLICAS, Errors.COORDINATOR_NOT_AVAILABLE),
        (Errors.NOT_ENOUGH_REPLICAS_AFTER_APPEND, Errors.COORDINATOR_NOT_AVAILABLE),
        (Errors.NOT_LEADER_OR_FOLLOWER, Errors.NOT_COORDINATOR),
        (Errors.KAFKA_STORAGE_ERROR, Errors.NOT_COORDINATOR),
        (Errors.MESSAGE_TOO_LARGE, Errors.INVALID_COMMIT_OFFSET_SIZE),
        (Errors.RECORD_LIST_TOO_LARGE, Errors.INVALID_COMMIT_OFFSET_SIZE),
        (Errors.INVALID_FETCH_SIZE, Errors.INVALID_COMMIT_OFFSET_SIZE),
        (Errors.REQUEST_TIMED_OUT, Errors.REQUEST_TIMED_OUT),
        (Errors.CORRUPT_MESSAGE, Errors.CORRUPT_MESSAGE),
    ],
)
def test_commit_offset_error_mapping(env: Env, append_error: Errors, expected: Errors) -> None:
    """Append errors of a commit map to Kafka 2.8's OffsetCommit errors, and the failed commit is forgotten."""
    env.manager.add_partition_ownership(0)
    group = GroupMetadata(GROUP_ID, Empty(), env.time)
    env.manager.add_group(group)
    env.rm.append_error = append_error
    assert env.commit(group, {TP_FOO0: oam(37, env.time)}) == {TP_FOO0: expected}
    assert not group.has_offsets
    assert env.manager.get_offsets(GROUP_ID, False, [TP_FOO0]) == {
        TP_FOO0: PartitionData(INVALID_OFFSET, None, "", Errors.NONE)
    }


def test_commit_offset_when_coordinator_has_moved(env: Env) -> None:
    """Without the offsets partition locally every partition of the commit answers NOT_COORDINATOR."""
    env.rm.unhost(0)
    group = GroupMetadata(GROUP_ID, Empty(), env.time)
    assert env.commit(group, {TP_FOO0: oam(1, env.time), TP_FOO1: oam(2, env.time)}) == {
        TP_FOO0: Errors.NOT_COORDINATOR,
        TP_FOO1: Errors.NOT_COORDINATOR,
    }
    assert not group.has_offsets


def test_commit_metadata_too_large(env: Env) -> None:
    """Metadata over offset.metadata.max.bytes (in UTF-16 units, as Java counts) is refused per partition; when
    every partition is refused nothing is appended."""
    m = env.new_manager(config=OffsetConfig(max_metadata_size=4))
    group = GroupMetadata(GROUP_ID, Empty(), env.time)
    m.add_group(group)
    assert env.commit(group, {TP_FOO0: oam(1, env.time, "12345")}, manager=m) == {
        TP_FOO0: Errors.OFFSET_METADATA_TOO_LARGE
    }
    assert env.rm.calls == [] and not group.has_offsets

    # "ab" plus one non-BMP character is 3 code points but 4 UTF-16 units: still fits; one more unit does not.
    fits, too_long = "ab\U0001f600", "abc\U0001f600"
    result = env.commit(group, {TP_FOO0: oam(1, env.time, fits), TP_FOO1: oam(2, env.time, too_long)}, manager=m)
    assert result == {TP_FOO0: Errors.NONE, TP_FOO1: Errors.OFFSET_METADATA_TOO_LARGE}
    assert group.all_offsets.keys() == {TP_FOO0}
    assert [key for key, _ in log_entries(env)] == [
        formats.OffsetKey(1, formats.GroupTopicPartition(GROUP_ID, TP_FOO0))
    ]


def test_commit_for_dead_group_is_not_cached(env: Env) -> None:
    """A commit whose append completes after the group died answers NONE but is not cached."""
    group = GroupMetadata(GROUP_ID, Empty(), env.time)
    env.manager.add_group(group)
    env.rm.hold_callbacks = True
    results: list[dict[TopicPartition, Errors]] = []
    env.manager.store_offsets(group, "", {TP_FOO0: oam(1, env.time)}, results.append)
    group.transition_to(Dead())
    env.rm.release()
    assert results == [{TP_FOO0: Errors.NONE}]
    assert group.all_offsets == {}


@pytest.mark.parametrize("is_commit", [True, False])
def test_transactional_commit_offset_completed(env: Env, is_commit: bool) -> None:
    """A transactional commit stays pending after its append; the transaction's end caches it (commit) or drops it
    (abort), and a reload from the log agrees."""
    env.manager.add_partition_ownership(0)
    group = GroupMetadata(GROUP_ID, Empty(), env.time)
    env.manager.add_group(group)
    offsets = {TP_FOO0: oam(37, env.time)}
    assert env.commit(group, offsets, producer_id=232, producer_epoch=0) == {TP_FOO0: Errors.NONE}
    assert group.has_offsets and group.all_offsets == {}
    assert env.manager.is_group_open_for_producer(232, GROUP_ID)
    batch = next(iter(env.rm.calls[-1].entries[offsets_tp(0)].batches()))
    assert batch.is_transactional() and batch.producer_id() == 232

    env.rm.append_txn_marker(0, 232, 0, commit=is_commit)
    env.manager.schedule_handle_txn_completion(232, {0}, is_commit)
    assert group.all_offsets == (offsets if is_commit else {})
    assert group.has_offsets is is_commit
    assert not env.manager.is_group_open_for_producer(232, GROUP_ID)

    reloaded = env.reload().get_group(GROUP_ID)
    if is_commit:
        assert reloaded is not None and reloaded.all_offsets == offsets
    else:
        assert reloaded is None


def test_transactional_commit_offset_append_failure(env: Env) -> None:
    """A failed transactional append leaves nothing pending for the producer."""
    group = GroupMetadata(GROUP_ID, Empty(), env.time)
    env.manager.add_group(group)
    env.rm.append_error = Errors.NOT_ENOUGH_REPLICAS
    result = env.commit(group, {TP_FOO0: oam(37, env.time)}, producer_id=232, producer_epoch=0)
    assert result == {TP_FOO0: Errors.COORDINATOR_NOT_AVAILABLE}
    assert not group.has_offsets
    env.manager.handle_txn_completion(232, {0}, is_commit=False)
    assert not group.has_offsets and group.all_offsets == {}


def test_txn_completion_for_group_that_moved_away(env: Env, caplog: pytest.LogCaptureFixture) -> None:
    """Unloading forgets the producers' open groups; completing a transaction of a group that left the cache only
    logs that the group moved."""
    group = GroupMetadata(GROUP_ID, Empty(), env.time)
    env.manager.add_group(group)
    env.commit(group, {TP_FOO0: oam(1, env.time)}, producer_id=7, producer_epoch=0)
    assert env.manager.is_group_open_for_producer(7, GROUP_ID)
    env.manager.remove_groups_and_offsets(offsets_tp(0), None, lambda g: None)
    assert not env.manager.is_group_open_for_producer(7, GROUP_ID)

    env.manager.add_group(group)
    env.commit(group, {TP_FOO1: oam(1, env.time)}, producer_id=8, producer_epoch=0)
    env.manager._group_metadata_cache.remove(GROUP_ID)  # the group left without its producers being told
    with caplog.at_level(logging.INFO, logger=MANAGER_LOGGER):
        env.manager.handle_txn_completion(8, {0}, is_commit=True)
    assert any(f"Group {GROUP_ID} has moved away from 0" in r.getMessage() for r in caplog.records)
    assert group.has_pending_offset_commits_from_producer(8)


# ---- get_offsets -----------------------------------------------------------------------------------------------


def test_get_offsets_of_unknown_group_or_partitions(env: Env) -> None:
    """Unknown groups, Dead groups and partitions without a commit give INVALID_OFFSET with no error; asking for all
    partitions of an unknown group gives nothing."""
    m = env.manager
    invalid = PartitionData(INVALID_OFFSET, None, "", Errors.NONE)
    assert m.get_offsets("unknown", False, [TP_FOO0]) == {TP_FOO0: invalid}
    assert m.get_offsets("unknown", True, None) == {}
    group = GroupMetadata(GROUP_ID, Empty(), env.time)
    m.add_group(group)
    env.commit(group, {TP_FOO0: oam(5, env.time)})
    assert m.get_offsets(GROUP_ID, False, [TP_FOO0, TP_BAR0]) == {
        TP_FOO0: PartitionData(5, None, "", Errors.NONE),
        TP_BAR0: invalid,
    }
    assert m.get_offsets(GROUP_ID, False, None) == {TP_FOO0: PartitionData(5, None, "", Errors.NONE)}
    group.transition_to(Dead())
    assert m.get_offsets(GROUP_ID, False, [TP_FOO0]) == {TP_FOO0: invalid}
    assert m.get_offsets(GROUP_ID, False, None) == {}


# ---- unloading and epochs --------------------------------------------------------------------------------------


def _load_group_and_offsets(env: Env, epoch: int) -> GroupMetadata:
    group = stable_group(env.time)
    env.rm.append_records_of(0, group_record(group, {"m1": b"a"}), *offset_records(env.time, {TP_FOO0: 23}))
    env.load(env.manager, epoch=epoch)
    loaded = env.manager.get_group(GROUP_ID)
    assert loaded is not None
    return loaded


def test_unload_removes_groups_and_calls_back(env: Env) -> None:
    """Unloading a partition drops its groups (calling back for each) and its ownership, and records the epoch."""
    loaded = _load_group_and_offsets(env, epoch=2)
    env.manager.add_group(GroupMetadata(OTHER_GROUP_ID, Empty(), env.time))  # partition 1: stays
    unloaded: list[GroupMetadata] = []
    env.manager.remove_groups_for_partition(0, 2, unloaded.append)
    assert unloaded == [loaded]
    assert env.manager.get_group(GROUP_ID) is None
    assert env.manager.get_group(OTHER_GROUP_ID) is not None
    assert not env.manager.is_partition_owned(0)
    assert env.manager.epoch_for_partition_id[0] == 2


def test_load_ignored_for_older_epoch(env: Env) -> None:
    """After an unload at epoch 2, a load at epoch 1 is ignored."""
    _load_group_and_offsets(env, epoch=2)
    env.manager.remove_groups_and_offsets(offsets_tp(0), 2, lambda g: None)
    assert env.manager.get_group(GROUP_ID) is None
    env.manager.load_groups_and_offsets(offsets_tp(0), 1, lambda g: None, 0)
    assert env.manager.get_group(GROUP_ID) is None
    assert not env.manager.is_partition_owned(0)
    assert env.manager.epoch_for_partition_id[0] == 2


def test_unload_ignored_for_older_epoch(env: Env) -> None:
    """An unload at an older epoch than the load keeps the groups and the ownership."""
    loaded = _load_group_and_offsets(env, epoch=2)
    unloaded: list[GroupMetadata] = []
    env.manager.remove_groups_and_offsets(offsets_tp(0), 1, unloaded.append)
    assert unloaded == []
    assert env.manager.get_group(GROUP_ID) is loaded
    assert env.manager.is_partition_owned(0)
    assert env.manager.epoch_for_partition_id[0] == 2


def test_unload_without_epoch_then_reload(env: Env) -> None:
    """An unload without an epoch (StopReplica) always applies and keeps the epoch; a later load at a newer epoch
    brings back the same group and offsets."""
    initially = _load_group_and_offsets(env, epoch=2)
    env.manager.remove_groups_and_offsets(offsets_tp(0), None, lambda g: None)
    assert env.manager.get_group(GROUP_ID) is None
    assert env.manager.epoch_for_partition_id[0] == 2
    env.load(env.manager, epoch=3)
    g = env.manager.get_group(GROUP_ID)
    assert g is not None and g is not initially
    assert (g.current_state, g.generation_id, g.leader_or_null, g.all_members) == (
        initially.current_state,
        initially.generation_id,
        initially.leader_or_null,
        initially.all_members,
    )
    assert g.all_offsets == initially.all_offsets
    assert env.manager.epoch_for_partition_id[0] == 3


# ---- expiry ----------------------------------------------------------------------------------------------------


def test_expire_offset(env: Env) -> None:
    """Offsets with an explicit expiry in an Empty group expire one by one, each leaving a tombstone in the log."""
    env.manager.add_partition_ownership(0)
    group = GroupMetadata(GROUP_ID, Empty(), env.time)
    env.manager.add_group(group)
    env.commit(group, {TP_FOO0: oam(37, env.time, expire_after=1), TP_FOO1: oam(37, env.time, expire_after=3)})
    env.time.sleep(2)
    assert env.manager.cleanup_group_metadata() == 1
    assert env.manager.get_group(GROUP_ID) is group
    assert group.offset(TP_FOO0) is None
    assert env.manager.get_offsets(GROUP_ID, False, [TP_FOO0, TP_FOO1]) == {
        TP_FOO0: PartitionData(INVALID_OFFSET, None, "", Errors.NONE),
        TP_FOO1: PartitionData(37, None, "", Errors.NONE),
    }
    tombstones = [key for key, value in log_entries(env) if value is None]
    assert tombstones == [formats.OffsetKey(1, formats.GroupTopicPartition(GROUP_ID, TP_FOO0))]
    reloaded = env.reload().get_group(GROUP_ID)
    assert reloaded is not None and reloaded.all_offsets.keys() == {TP_FOO1}


def test_group_metadata_removal(env: Env) -> None:
    """An Empty group without offsets becomes Dead, leaves the cache, and gets a CREATE_TIME group tombstone."""
    env.manager.add_partition_ownership(0)
    group = GroupMetadata(GROUP_ID, Empty(), env.time)
    group.generation_id = 5
    env.manager.add_group(group)
    env.manager.cleanup_group_metadata()
    assert group.is_(Dead())
    assert env.manager.get_group(GROUP_ID) is None
    [(records, acks)] = env.rm.partitions[offsets_tp(0)].appended
    assert acks == 0
    batch = next(iter(records.batches()))
    assert (batch.magic(), batch.timestamp_type()) == (CURRENT_MAGIC_VALUE, TimestampType.CREATE_TIME)
    [record] = list(batch)
    assert record.value() is None and record.timestamp() == START_MS
    assert formats.read_message_key(record.key()) == formats.GroupMetadataKey(2, GROUP_ID)  # type: ignore[arg-type]


def test_group_removal_after_stored_group_survives_reload(env: Env) -> None:
    """Once a stored group is removed by expiry, its tombstone keeps it from loading again."""
    group = stable_group(env.time)
    env.manager.add_group(group)
    env.manager.store_group(group, {"m1": b""}, lambda e: None)
    group.transition_to(PreparingRebalance())
    group.remove("m1")
    group.transition_to(Empty())
    env.manager.cleanup_group_metadata()
    assert group.is_(Dead())
    assert env.reload().get_group(GROUP_ID) is None


def test_expire_group_with_offsets_only(env: Env) -> None:
    """A generation-0 group whose offsets all expire is removed with offset tombstones only (no group tombstone)."""
    env.manager.add_partition_ownership(0)
    group = GroupMetadata(GROUP_ID, Empty(), env.time)
    env.manager.add_group(group)
    env.commit(group, {TP_FOO0: oam(37, env.time, expire_after=1), TP_FOO1: oam(37, env.time, expire_after=3)})
    env.time.sleep(4)
    assert env.manager.cleanup_group_metadata() == 2
    assert env.manager.get_group(GROUP_ID) is None and group.is_(Dead())
    [(records, _)] = env.rm.partitions[offsets_tp(0)].appended
    keys = [formats.read_message_key(r.key()) for r in records.records()]  # type: ignore[arg-type]
    assert sorted(str(k) for k in keys) == [f"[{GROUP_ID},foo,0]", f"[{GROUP_ID},foo,1]"]
    assert all(r.value() is None for r in records.records())
    assert env.manager.get_offsets(GROUP_ID, False, [TP_FOO0]) == {
        TP_FOO0: PartitionData(INVALID_OFFSET, None, "", Errors.NONE)
    }
    assert env.reload().get_group(GROUP_ID) is None


def _consumer_group_at_generation_1(env: Env, topics: tuple[str, ...]) -> tuple[GroupMetadata, MemberMetadata]:
    group = GroupMetadata(GROUP_ID, Empty(), env.time)
    env.manager.add_group(group)
    m = member(topics=topics)
    group.add(m, lambda result: None)
    group.transition_to(PreparingRebalance())
    group.init_next_generation()
    return group, m


def test_offset_expiration_semantics(env: Env) -> None:
    """Offsets of a group with members never expire; once Empty, explicit expiries apply first, then the rest expire
    offsets.retention after the group became Empty, and the group dies with its last offset."""
    env.manager.add_partition_ownership(0)
    group, _ = _consumer_group_at_generation_1(env, ("foo",))
    assert group.is_(CompletingRebalance())
    tp3 = TopicPartition("foo", 2)
    tp1_offset, tp2_offset, tp3_offset = (
        oam(37, env.time, expire_after=1),
        oam(37, env.time, expire_after=3),
        oam(37, env.time),
    )
    env.commit(group, {TP_FOO0: tp1_offset, TP_FOO1: tp2_offset, tp3: tp3_offset})

    env.time.sleep(2)
    assert env.manager.cleanup_group_metadata() == 0
    assert group.all_offsets == {TP_FOO0: tp1_offset, TP_FOO1: tp2_offset, tp3: tp3_offset}

    group.transition_to(PreparingRebalance())
    group.transition_to(Empty())
    assert env.manager.cleanup_group_metadata() == 1
    assert group.all_offsets == {TP_FOO1: tp2_offset, tp3: tp3_offset}

    env.time.sleep(2)
    assert env.manager.cleanup_group_metadata() == 1
    assert group.all_offsets == {tp3: tp3_offset}

    assert group.current_state_timestamp is not None
    env.time.sleep(group.current_state_timestamp + RETENTION_MS - env.time.milliseconds() - 1)
    assert env.manager.cleanup_group_metadata() == 0
    assert group.all_offsets == {tp3: tp3_offset}

    env.time.sleep(2)
    assert env.manager.cleanup_group_metadata() == 1
    assert group.all_offsets == {}
    assert group.is_(Dead()) and env.manager.get_group(GROUP_ID) is None
    group_tombstones = [k for k, v in log_entries(env) if v is None and isinstance(k, formats.GroupMetadataKey)]
    assert group_tombstones == [formats.GroupMetadataKey(2, GROUP_ID)]  # generation 1: the group record is deleted


def test_offset_expiration_of_simple_consumer(env: Env) -> None:
    """Offsets of a group without a protocol type expire offsets.retention after their commit."""
    env.manager.add_partition_ownership(0)
    group = GroupMetadata(GROUP_ID, Empty(), env.time)
    env.manager.add_group(group)
    committed = oam(37, env.time)
    env.commit(group, {TP_FOO0: committed})
    env.time.sleep(committed.commit_timestamp + RETENTION_MS - env.time.milliseconds() - 1)
    assert env.manager.cleanup_group_metadata() == 0
    assert group.offset(TP_FOO0) == committed
    env.time.sleep(2)
    assert env.manager.cleanup_group_metadata() == 1
    assert env.manager.get_group(GROUP_ID) is None and group.is_(Dead())


def test_offset_expiration_of_active_group_follows_subscriptions(env: Env) -> None:
    """A Stable consumer group keeps the offsets of subscribed topics past retention; after it stops subscribing to
    a topic, that topic's offsets expire."""
    env.manager.add_partition_ownership(0)
    group, m = _consumer_group_at_generation_1(env, ("foo", "bar"))
    group.transition_to(Stable())
    offsets = {tp: oam(37, env.time) for tp in (TP_FOO0, TP_FOO1, TP_BAR0, TopicPartition("bar", 1))}
    env.commit(group, offsets)
    env.time.sleep(RETENTION_MS + 2)
    assert env.manager.cleanup_group_metadata() == 0
    assert group.all_offsets == offsets

    group.transition_to(PreparingRebalance())
    group.update_member(m, [("range", subscription("foo"))], None)
    group.init_next_generation()
    group.transition_to(Stable())
    assert env.manager.cleanup_group_metadata() == 2
    assert group.all_offsets == {TP_FOO0: offsets[TP_FOO0], TP_FOO1: offsets[TP_FOO1]}
    assert group.is_(Stable()) and env.manager.get_group(GROUP_ID) is group


def test_cleanup_logs_removed_offsets(env: Env, caplog: pytest.LogCaptureFixture) -> None:
    """The periodic cleanup logs Kafka's line only when it removed offsets."""
    group = GroupMetadata(GROUP_ID, Empty(), env.time)
    env.manager.add_group(group)
    env.commit(group, {TP_FOO0: oam(1, env.time, expire_after=1)})
    with caplog.at_level(logging.INFO, logger=MANAGER_LOGGER):
        env.manager.cleanup_group_metadata()
        assert not any("expired offsets" in r.getMessage() for r in caplog.records)
        env.time.sleep(1)
        env.manager.cleanup_group_metadata()
    assert "[GroupMetadataManager brokerId=0] Removed 1 expired offsets in 0 milliseconds." in [
        r.getMessage() for r in caplog.records
    ]


def test_cleanup_with_selector_and_failed_tombstone_append(env: Env, caplog: pytest.LogCaptureFixture) -> None:
    """The two-argument cleanup removes what the selector picks; a failed tombstone append is logged, not counted."""
    group = GroupMetadata(GROUP_ID, Empty(), env.time)
    group.protocol_type = "consumer"
    env.manager.add_group(group)
    env.commit(group, {TP_FOO0: oam(1, env.time), TP_FOO1: oam(2, env.time)})
    assert env.manager.cleanup_group_metadata([group], lambda g: g.remove_offsets([TP_FOO0])) == 1
    assert group.all_offsets.keys() == {TP_FOO1}
    env.rm.partitions[offsets_tp(0)].fail_with = RuntimeError("disk gone")
    with caplog.at_level(logging.ERROR, logger=MANAGER_LOGGER):
        assert env.manager.cleanup_group_metadata_of([group], lambda g: g.remove_all_offsets()) == 0
    assert any("Failed to append 1 tombstones to __consumer_offsets-0" in r.getMessage() for r in caplog.records)
    assert group.is_(Dead())


def test_cleanup_when_no_longer_coordinator(env: Env, caplog: pytest.LogCaptureFixture) -> None:
    """Without the partition locally the cleanup still expires in memory but writes nothing and keeps going."""
    group = GroupMetadata(GROUP_ID, Empty(), env.time)
    env.manager.add_group(group)
    env.rm.unhost(0)
    with caplog.at_level(logging.INFO, logger=MANAGER_LOGGER):
        assert env.manager.cleanup_group_metadata() == 0
    assert group.is_(Dead())
    assert env.manager.get_group(GROUP_ID) is group  # removal from the cache happens only with the append
    assert any("BrokerId 0 is no longer a coordinator for the group foo" in r.getMessage() for r in caplog.records)


# ---- the real scheduler ----------------------------------------------------------------------------------------


def test_own_scheduler_thread_and_periodic_expiry(tmp_path: Path) -> None:
    """Without an injected scheduler the manager runs loads on its own 'group-metadata-manager-0' thread, runs the
    'delete-expired-group-metadata' task from start-up, and stops the thread on shutdown."""
    time = MockTime(start_ms=START_MS)
    rm = FakeReplicaManager(tmp_path, time, MockScheduler(time), NUM_PARTITIONS)
    manager = GroupMetadataManager(0, ApiVersion.latest_version, OffsetConfig(), rm, None, time)
    try:
        manager.add_group(GroupMetadata(GROUP_ID, Empty(), time))
        manager.startup(lambda: NUM_PARTITIONS, True)
        wait_until_true(lambda: manager.get_group(GROUP_ID) is None, "the first expiry run to remove the empty group")
        threads: list[str] = []
        append_offsets_direct = offset_records(time, {TP_FOO0: 3})
        rm.append_records_of(0, *append_offsets_direct)
        manager.schedule_load_group_and_offsets(0, 1, lambda g: threads.append(threading.current_thread().name))
        wait_until_true(lambda: manager.is_partition_owned(0), "partition 0 to load")
        assert threads == ["group-metadata-manager-0"]
    finally:
        manager.shutdown()
        rm.close()
    assert not any(t.name.startswith("group-metadata-manager-") for t in threading.enumerate())
