"""Tests for kafka.coordinator.transaction.transaction_log, after Kafka's TransactionLogTest, plus the bytes of a
key and a value as Kafka 2.8 writes them and kafka-dump-log's --transaction-log-decoder on a real segment."""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import pytest

from kafka.common.errors import KafkaException
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.record import Record
from kafka.common.record.simple_record import SimpleRecord
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import MockTime
from kafka.coordinator.group.group_metadata_manager_formats import IllegalStateException
from kafka.coordinator.transaction import transaction_log
from kafka.coordinator.transaction.transaction_metadata import (
    TransactionMetadata,
    TransactionState,
    TxnTransitMetadata,
)
from kafka.log.log_segment import LogSegment
from kafka.tools import dump_log_segments

PRODUCER_EPOCH = 0
TRANSACTION_TIMEOUT_MS = 1000
TOPIC_PARTITIONS = {
    TopicPartition("topic1", 0),
    TopicPartition("topic1", 1),
    TopicPartition("topic2", 0),
    TopicPartition("topic2", 1),
    TopicPartition("topic2", 2),
}


def metadata(
    transactional_id: str, producer_id: int, state: TransactionState = TransactionState.Empty
) -> TransactionMetadata:
    return TransactionMetadata.create(transactional_id, producer_id, PRODUCER_EPOCH, TRANSACTION_TIMEOUT_MS, 0, state)


def only_record(key: bytes, value: bytes | None) -> Record:
    records = MemoryRecords.with_records(CompressionType.NONE, SimpleRecord(0, key, value))
    return next(iter(records.records()))


# ---- the bytes ------------------------------------------------------------------------------------------------


def test_key_bytes_are_kafkas() -> None:
    """The key is version 0 (int16) and the transactional id as an int16-length string."""
    assert transaction_log.key_to_bytes("id") == bytes.fromhex("0000" + "0002" + "6964")


def test_value_bytes_are_kafkas() -> None:
    """An Ongoing value is version 0, producer id, epoch, timeout, state byte, partitions by topic, then the last
    update and the start timestamps, laid out as TransactionLogValue v0."""
    transit = TxnTransitMetadata(
        producer_id=1334,
        last_producer_id=-1,
        producer_epoch=3,
        last_producer_epoch=-1,
        txn_timeout_ms=1000,
        txn_state=TransactionState.Ongoing,
        topic_partitions=frozenset({TopicPartition("topic", 0)}),
        txn_start_timestamp=5,
        txn_last_update_timestamp=7,
    )
    expected = bytes.fromhex(
        "0000"  # value version 0
        "0000000000000536"  # producer id 1334
        "0003"  # producer epoch
        "000003e8"  # transaction timeout 1000 ms
        "01"  # Ongoing
        "00000001"  # one topic
        "0005" + b"topic".hex() + "00000001"  # the topic, one partition id
        "00000000"  # partition 0
        "0000000000000007"  # last update timestamp
        "0000000000000005"  # start timestamp
    )
    assert transaction_log.value_to_bytes(transit) == expected


def test_empty_value_has_null_partitions() -> None:
    """An Empty state writes the partitions array as null (length -1)."""
    transit = metadata("id", 9).prepare_no_transit()
    expected = bytes.fromhex("000000000000000000090000000003e800ffffffff" + "00" * 16)
    assert transaction_log.value_to_bytes(transit) == expected


def test_should_throw_exception_write_invalid_txn() -> None:
    """An Empty state with partitions cannot be written."""
    txn_metadata = metadata("transactionalId", 23423)
    txn_metadata.add_partitions(TOPIC_PARTITIONS)
    with pytest.raises(IllegalStateException):
        transaction_log.value_to_bytes(txn_metadata.prepare_no_transit())


# ---- reading --------------------------------------------------------------------------------------------------


def test_should_read_write_messages() -> None:
    """Every state written through a record batch reads back with its producer id, epoch, timeout and partitions."""
    pid_mappings = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
    states = {
        0: TransactionState.Empty,
        1: TransactionState.Ongoing,
        2: TransactionState.PrepareCommit,
        3: TransactionState.CompleteCommit,
        4: TransactionState.PrepareAbort,
        5: TransactionState.CompleteAbort,
    }
    txn_records = []
    for transactional_id, producer_id in pid_mappings.items():
        txn_metadata = metadata(transactional_id, producer_id, states[producer_id])
        if txn_metadata.state is not TransactionState.Empty:
            txn_metadata.add_partitions(TOPIC_PARTITIONS)
        key: bytes | None = transaction_log.key_to_bytes(transactional_id)
        value = transaction_log.value_to_bytes(txn_metadata.prepare_no_transit())
        txn_records.append(SimpleRecord(0, key, value))
    records = MemoryRecords.with_records(CompressionType.NONE, *txn_records)

    count = 0
    for record in records.records():
        key = record.key()
        assert key is not None
        txn_key = transaction_log.read_txn_record_key(key)
        assert txn_key.version == 0
        read = transaction_log.read_txn_record_value(txn_key.transactional_id, record.value())
        assert read is not None
        assert read.transactional_id == txn_key.transactional_id
        assert read.producer_id == pid_mappings[txn_key.transactional_id]
        assert read.producer_epoch == PRODUCER_EPOCH
        assert read.txn_timeout_ms == TRANSACTION_TIMEOUT_MS
        assert read.state is states[read.producer_id]
        assert read.last_producer_id == -1 and read.last_producer_epoch == -1
        expected_partitions = set() if read.state is TransactionState.Empty else TOPIC_PARTITIONS
        assert read.topic_partitions == expected_partitions
        count += 1
    assert count == len(pid_mappings)


def test_tombstone_reads_as_none() -> None:
    assert transaction_log.read_txn_record_value("id", None) is None


def test_unknown_versions_are_refused() -> None:
    """Versions Kafka 2.8 does not know raise IllegalStateException, as Kafka's reader does."""
    with pytest.raises(IllegalStateException, match="Unknown version 1 from the transaction log message"):
        transaction_log.read_txn_record_key(bytes.fromhex("00010002") + b"id")
    value = bytearray(transaction_log.value_to_bytes(metadata("id", 1).prepare_no_transit()))
    value[1] = 7
    with pytest.raises(IllegalStateException, match="Unknown version 7 from the transaction log message value"):
        transaction_log.read_txn_record_value("id", bytes(value))


def test_malformed_values_raise_kafka_exception() -> None:
    """Truncated keys and values, and unknown state bytes, fail with an exception rather than a wrong result."""
    value = transaction_log.value_to_bytes(metadata("id", 1).prepare_no_transit())
    with pytest.raises(KafkaException):
        transaction_log.read_txn_record_value("id", value[:-3])
    with pytest.raises(KafkaException):
        transaction_log.read_txn_record_key(b"\x00\x00\x00\x05id")
    with pytest.raises(KafkaException):
        transaction_log.read_txn_record_key(b"\x00")
    bad_state = bytearray(value)
    bad_state[2 + 8 + 2 + 4] = 9
    with pytest.raises(IllegalStateException, match="Unknown transaction state"):
        transaction_log.read_txn_record_value("id", bytes(bad_state))


# ---- printing -------------------------------------------------------------------------------------------------


def test_transaction_metadata_parsing() -> None:
    """kafka-dump-log's text for a value: producer id and epoch, state, partitions, last update and timeout."""
    txn_metadata = metadata("id", 1334, TransactionState.Ongoing)
    txn_metadata.add_partitions({TopicPartition("topic", 0)})
    record = only_record(
        transaction_log.key_to_bytes("id"), transaction_log.value_to_bytes(txn_metadata.prepare_no_transit())
    )
    key_text, value_text = transaction_log.format_record_key_and_value(record)
    assert key_text == "transaction_metadata::transactionalId=id"
    assert value_text == (
        "producerId:1334,producerEpoch:0,state=Ongoing,partitions=[topic-0],txnLastUpdateTimestamp=0,txnTimeoutMs=1000"
    )


def test_transaction_metadata_tombstone_parsing() -> None:
    record = only_record(transaction_log.key_to_bytes("id"), None)
    key_text, value_text = transaction_log.format_record_key_and_value(record)
    assert key_text == "transaction_metadata::transactionalId=id"
    assert value_text == "<DELETE>"


def test_message_formatter() -> None:
    """The console consumer's formatter prints `id::TransactionMetadata(...)` and `id::NULL` for a tombstone."""
    txn_metadata = metadata("id", 5, TransactionState.CompleteCommit)
    out = io.BytesIO()
    formatter = transaction_log.TransactionLogMessageFormatter()
    formatter.write_to(
        transaction_log.key_to_bytes("id"), transaction_log.value_to_bytes(txn_metadata.prepare_no_transit()), out
    )
    formatter.write_to(transaction_log.key_to_bytes("id"), None, out)
    lines = out.getvalue().decode().splitlines()
    assert lines[0].startswith("id::TransactionMetadata(transactionalId=id, producerId=5, producerEpoch=0,")
    assert "state=CompleteCommit" in lines[0]
    assert lines[1] == "id::NULL"


@dataclass(frozen=True)
class _SegConfig:
    max_index_size: int = 10 * 1024
    index_interval: int = 1
    random_segment_jitter: int = 0


def test_dump_log_transaction_log_decoder(tmp_path: Path) -> None:
    """kafka-dump-log --transaction-log-decoder prints each record of a __transaction_state segment as its
    transactional id and state (tombstones as <DELETE>), and implies --print-data-log."""
    ongoing = metadata("txn-a", 42, TransactionState.Ongoing)
    ongoing.add_partitions({TopicPartition("out", 1), TopicPartition("out", 0)})
    records = MemoryRecords.with_records(
        CompressionType.NONE,
        SimpleRecord(
            10, transaction_log.key_to_bytes("txn-a"), transaction_log.value_to_bytes(ongoing.prepare_no_transit())
        ),
        SimpleRecord(11, transaction_log.key_to_bytes("txn-b"), None),
    )
    segment = LogSegment.open(tmp_path, 0, _SegConfig(), MockTime())
    segment.append(1, 11, 1, records)
    segment.flush()
    segment.close()
    log_file = tmp_path / "00000000000000000000.log"

    out, err = io.StringIO(), io.StringIO()
    status = dump_log_segments.run(["--files", str(log_file), "--transaction-log-decoder"], out, err)
    assert status == 0, err.getvalue()
    record_lines = [line for line in out.getvalue().splitlines() if line.startswith("| offset:")]
    assert len(record_lines) == 2
    assert record_lines[0].endswith(
        " key: transaction_metadata::transactionalId=txn-a payload: producerId:42,producerEpoch:0,state=Ongoing,"
        "partitions=[out-0,out-1],txnLastUpdateTimestamp=0,txnTimeoutMs=1000"
    )
    assert record_lines[1].endswith(" key: transaction_metadata::transactionalId=txn-b payload: <DELETE>")

    # Without the decoder the same records print as text, and only with --print-data-log.
    plain = io.StringIO()
    assert dump_log_segments.run(["--files", str(log_file)], plain, io.StringIO()) == 0
    assert "transaction_metadata::" not in plain.getvalue()
