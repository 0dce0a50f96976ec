"""FetchResponse.size_of: the added-up size equals the size of the message its writers give, at every version."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from kafka.common.message import FetchResponseData
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import ZERO_UUID, SchemaException, Uuid
from kafka.common.record.file_records import FileRecords
from kafka.common.requests import fetch_response
from kafka.common.requests.fetch_response import FetchResponse
from kafka.common.topic_id_partition import TopicIdPartition

VERSIONS = range(FetchResponseData.LOWEST_SUPPORTED_VERSION, FetchResponseData.HIGHEST_SUPPORTED_VERSION + 1)


def written_size(version: int, partitions: list[tuple[TopicIdPartition, Any]]) -> int:
    """What the writers make of it, as size_of did before it added sizes up."""
    data = fetch_response._to_message(Errors.NONE, 0, 0, partitions, ())
    return 4 + int(data.size(version))


def random_partitions(rng: random.Random, file_records: FileRecords) -> list[tuple[TopicIdPartition, Any]]:
    topics = [("t", Uuid(1, 2)), ("topic-" + "x" * rng.randrange(200), Uuid(3, 4)), ("tøpic", ZERO_UUID)]
    partitions = []
    with_replicas = rng.random() < 0.3  # a preferred read replica, which versions before 11 cannot carry
    for _ in range(rng.randrange(0, 140)):
        name, topic_id = rng.choice(topics)
        choice = rng.randrange(5)
        records: Any = None
        if choice == 1:
            records = b"r" * rng.choice([0, 1, 126, 127, 128, 16383, 16384, 5000])
        elif choice == 2:
            records = memoryview(bytearray(rng.randrange(300)))
        elif choice >= 3:
            records = file_records.slice(rng.randrange(1000), rng.choice([0, 10, 200_000, 3_000_000]))
        aborted = rng.choice(
            [None, [], [FetchResponseData.AbortedTransaction(producer_id=i, first_offset=i) for i in range(130)]]
        )
        pd = FetchResponseData.PartitionData(
            partition_index=rng.randrange(10),
            error_code=rng.choice([0, 6]),
            high_watermark=rng.randrange(2**40),
            last_stable_offset=rng.randrange(2**40),
            log_start_offset=rng.randrange(2**40),
            aborted_transactions=aborted,
            records=records,
        )
        if with_replicas:
            pd.preferred_read_replica = rng.randrange(-1, 3)
        partitions.append((TopicIdPartition.of(topic_id, rng.randrange(10), name), pd))
    return partitions


@pytest.fixture
def file_records(tmp_path: Path) -> FileRecords:
    path = tmp_path / "00000000000000000000.log"
    path.write_bytes(b"\0" * 4_000_000)
    return FileRecords.open(path)


@pytest.mark.parametrize("version", VERSIONS)
def test_size_of_matches_the_written_size(version: int, file_records: FileRecords) -> None:
    rng = random.Random(version)
    for _ in range(60):
        partitions = random_partitions(rng, file_records)
        try:
            expected: int | Exception = written_size(version, partitions)
        except Exception as e:  # a version that cannot carry a field: size_of raises the same
            expected = e
        if isinstance(expected, Exception):
            with pytest.raises(type(expected)):
                FetchResponse.size_of(version, partitions)
        else:
            assert FetchResponse.size_of(version, partitions) == expected


@pytest.mark.parametrize("version", VERSIONS)
def test_size_of_with_tagged_fields_goes_through_the_writers(version: int, file_records: FileRecords) -> None:
    for change in ("diverging_epoch", "current_leader", "snapshot_id", "unknown_tag", "aborted_unknown_tag"):
        pd = FetchResponseData.PartitionData(
            partition_index=0, high_watermark=5, records=file_records.slice(0, 100), aborted_transactions=[]
        )
        if change == "diverging_epoch":
            pd.diverging_epoch = FetchResponseData.EpochEndOffset(epoch=3, end_offset=10)
        elif change == "current_leader":
            pd.current_leader = FetchResponseData.LeaderIdAndEpoch(leader_id=1, leader_epoch=2)
        elif change == "snapshot_id":
            pd.snapshot_id = FetchResponseData.SnapshotId(end_offset=4, epoch=1)
        elif change == "unknown_tag":
            pd.unknown_tagged_fields().append((9, b"abc"))
        else:
            txn = FetchResponseData.AbortedTransaction(producer_id=1, first_offset=2)
            txn.unknown_tagged_fields().append((7, b"x"))
            pd.aborted_transactions = [txn]
        partitions = [(TopicIdPartition.of(Uuid(1, 2), 0, "t"), pd)]
        assert fetch_response._fast_size_of(version, partitions) == -1
        try:
            expected = written_size(version, partitions)
        except Exception as e:
            with pytest.raises(type(e)):
                FetchResponse.size_of(version, partitions)
        else:
            assert FetchResponse.size_of(version, partitions) == expected


def test_size_of_a_missing_topic_name_raises_as_the_writers_do() -> None:
    pd = FetchResponseData.PartitionData(partition_index=0, records=None)
    partitions = [(TopicIdPartition.of(Uuid(1, 2), 0, None), pd)]
    for version in VERSIONS:
        if version >= 13:
            assert FetchResponse.size_of(version, partitions) == written_size(version, partitions)
        else:
            with pytest.raises(SchemaException):
                written_size(version, partitions)
            with pytest.raises(SchemaException):
                FetchResponse.size_of(version, partitions)
