"""Tests for kafka.log.log_validator, after Kafka's LogValidatorTest."""

from __future__ import annotations

import struct

import pytest

from kafka.common.errors import (
    CorruptRecordException,
    InvalidRecordException,
    InvalidTimestampException,
    UnsupportedForMessageFormatException,
)
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.default_record_batch import DefaultRecordBatch
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.memory_records_builder import MemoryRecordsBuilder
from kafka.common.record.record_batch import MAGIC_VALUE_V0, MAGIC_VALUE_V1, MAGIC_VALUE_V2
from kafka.common.record.simple_record import SimpleRecord
from kafka.common.record.timestamp_type import TimestampType
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import MockTime
from kafka.log.log_validator import (
    LONG_MAX_VALUE,
    Client,
    Coordinator,
    LongRef,
    RecordValidationException,
    Replication,
    ValidationAndOffsetAssignResult,
    validate_messages_and_assign_offsets,
)

TP = TopicPartition("topic", 0)
NOW = 1_700_000_000_000


def writable(records: MemoryRecords) -> MemoryRecords:
    """A copy over a bytearray, as a produce request's receive buffer is."""
    return MemoryRecords.readable_records(bytearray(records.buffer()))


def records_of(
    codec: CompressionType = CompressionType.NONE,
    magic: int = MAGIC_VALUE_V2,
    n: int = 3,
    timestamp: int = NOW,
    keys: bool = True,
    **kwargs: object,
) -> MemoryRecords:
    simple = [SimpleRecord(timestamp + i, f"k{i}".encode() if keys else None, f"v{i}".encode()) for i in range(n)]
    return writable(MemoryRecords.with_records(codec, *simple, magic=magic, **kwargs))  # type: ignore[arg-type]


def validate(
    records: MemoryRecords,
    offset: int = 0,
    source: CompressionType = CompressionType.NONE,
    target: CompressionType = CompressionType.NONE,
    compacted: bool = False,
    magic: int = MAGIC_VALUE_V2,
    timestamp_type: TimestampType = TimestampType.CREATE_TIME,
    diff: int = LONG_MAX_VALUE,
    epoch: int = 7,
    origin: object = None,
    counter: LongRef | None = None,
) -> ValidationAndOffsetAssignResult:
    counter = counter if counter is not None else LongRef(offset)
    return validate_messages_and_assign_offsets(
        records,
        TP,
        counter,
        MockTime(start_ms=NOW),
        NOW,
        source,
        target,
        compacted,
        magic,
        timestamp_type,
        diff,
        epoch,
        origin if origin is not None else Client(),  # type: ignore[arg-type]
    )


def test_uncompressed_v2_offsets_are_patched_in_the_receive_buffer() -> None:
    """An uncompressed v2 batch keeps its bytes: base offset and leader epoch are written in place and the CRC holds."""
    records = records_of()
    buffer = records.buffer()
    counter = LongRef(100)
    result = validate(records, counter=counter)
    assert result.validated_records is records
    assert counter.value == 103
    batch = next(iter(result.validated_records.batches()))
    assert isinstance(batch, DefaultRecordBatch)
    assert struct.unpack_from(">q", buffer, 0)[0] == 100
    assert batch.last_offset() == 102
    assert batch.partition_leader_epoch() == 7
    assert batch.is_valid()
    assert [r.offset() for r in batch] == [100, 101, 102]
    assert result.max_timestamp == NOW + 2
    assert not result.message_size_maybe_changed


def test_record_scan_path_reports_exact_offset_of_max_timestamp() -> None:
    """When records are decoded (finite timestamp difference), the offset of the max timestamp is the record's own."""
    simple = [SimpleRecord(NOW + 5, b"a", b"1"), SimpleRecord(NOW + 9, b"b", b"2"), SimpleRecord(NOW, b"c", b"3")]
    records = writable(MemoryRecords.with_records(CompressionType.NONE, *simple))
    result = validate(records, offset=10, diff=60_000)
    assert result.max_timestamp == NOW + 9
    assert result.shallow_offset_of_max_timestamp == 11


def test_log_append_time_rewrites_header_timestamp_and_crc() -> None:
    """A LogAppendTime topic stamps `now` into the batch header, sets the timestamp type and recomputes the CRC."""
    records = records_of(n=2, timestamp=NOW - 100_000)
    result = validate(records, timestamp_type=TimestampType.LOG_APPEND_TIME)
    batch = next(iter(result.validated_records.batches()))
    assert batch.timestamp_type() is TimestampType.LOG_APPEND_TIME
    assert batch.max_timestamp() == NOW
    assert batch.is_valid()
    assert all(r.timestamp() == NOW for r in batch)
    assert result.max_timestamp == NOW
    assert result.shallow_offset_of_max_timestamp == 1


def test_log_append_time_on_compressed_batch_stays_in_place() -> None:
    """A compressed batch on a LogAppendTime topic with the same codec is not recompressed; only its header changes."""
    records = records_of(CompressionType.GZIP, n=4)
    payload_before = bytes(records.buffer()[61:])
    result = validate(
        records,
        offset=5,
        source=CompressionType.GZIP,
        target=CompressionType.GZIP,
        timestamp_type=TimestampType.LOG_APPEND_TIME,
    )
    assert result.validated_records is records
    assert bytes(records.buffer()[61:]) == payload_before
    batch = next(iter(records.batches()))
    assert batch.is_valid()
    assert (batch.base_offset(), batch.last_offset(), batch.max_timestamp()) == (5, 8, NOW)
    assert result.shallow_offset_of_max_timestamp == 8


def test_timestamp_out_of_range_is_rejected_per_record() -> None:
    """Records whose CreateTime is further from now than the allowed difference are named by index."""
    simple = [
        SimpleRecord(NOW, b"a", b"1"),
        SimpleRecord(NOW - 10_000, b"b", b"2"),
        SimpleRecord(NOW + 10_000, b"c", b"3"),
    ]
    records = writable(MemoryRecords.with_records(CompressionType.NONE, *simple))
    with pytest.raises(RecordValidationException) as info:
        validate(records, diff=1_000)
    assert isinstance(info.value.invalid_exception, InvalidTimestampException)
    assert [e.batch_index for e in info.value.record_errors] == [1, 2]


def test_compressed_timestamp_out_of_range_is_rejected() -> None:
    """The timestamp rule also applies inside compressed batches."""
    records = records_of(CompressionType.LZ4, timestamp=NOW - 3_600_000)
    with pytest.raises(RecordValidationException) as info:
        validate(records, source=CompressionType.LZ4, target=CompressionType.LZ4, diff=1_000)
    assert isinstance(info.value.invalid_exception, InvalidTimestampException)
    assert len(info.value.record_errors) == 3


def test_compacted_topic_requires_keys() -> None:
    """A record without a key is rejected on a compacted topic with INVALID_RECORD and its index."""
    simple = [SimpleRecord(NOW, b"a", b"1"), SimpleRecord(NOW, None, b"2")]
    records = writable(MemoryRecords.with_records(CompressionType.NONE, *simple))
    with pytest.raises(RecordValidationException) as info:
        validate(records, compacted=True)
    assert type(info.value.invalid_exception) is InvalidRecordException
    assert [e.batch_index for e in info.value.record_errors] == [1]


def test_compacted_topic_keys_checked_in_compressed_batches() -> None:
    """Keys are checked in compressed batches too (compacted topics must decode)."""
    records = records_of(CompressionType.SNAPPY, keys=False, n=2)
    with pytest.raises(RecordValidationException) as info:
        validate(records, source=CompressionType.SNAPPY, target=CompressionType.SNAPPY, compacted=True)
    assert [e.batch_index for e in info.value.record_errors] == [0, 1]


def test_broker_recompresses_with_topic_codec() -> None:
    """A gzip batch on an lz4 topic is rebuilt with lz4, offsets assigned and records intact."""
    records = records_of(CompressionType.GZIP, n=5)
    result = validate(records, offset=42, source=CompressionType.GZIP, target=CompressionType.LZ4)
    assert result.message_size_maybe_changed
    batch = next(iter(result.validated_records.batches()))
    assert batch.compression_type() is CompressionType.LZ4
    assert batch.partition_leader_epoch() == 7
    assert [(r.offset(), r.key(), r.value()) for r in batch] == [
        (42 + i, f"k{i}".encode(), f"v{i}".encode()) for i in range(5)
    ]
    assert result.record_conversion_stats.num_records_converted() == 5


def test_uncompressed_to_compressed_topic() -> None:
    """An uncompressed batch on a gzip topic is compressed by the broker."""
    records = records_of(n=3)
    result = validate(records, target=CompressionType.GZIP)
    batch = next(iter(result.validated_records.batches()))
    assert batch.compression_type() is CompressionType.GZIP
    assert [r.value() for r in batch] == [b"v0", b"v1", b"v2"]


def test_up_conversion_v1_to_v2() -> None:
    """Magic-1 message sets on a v2 topic are converted to one v2 batch with offsets assigned."""
    records = records_of(magic=MAGIC_VALUE_V1, n=3)
    result = validate(records, offset=3)
    batches = list(result.validated_records.batches())
    assert len(batches) == 1 and batches[0].magic() == MAGIC_VALUE_V2
    assert [(r.offset(), r.timestamp()) for r in batches[0]] == [(3, NOW), (4, NOW + 1), (5, NOW + 2)]
    assert result.message_size_maybe_changed


def test_down_conversion_v2_to_v1_on_old_format_topic() -> None:
    """A v2 batch on a topic with message format v1 is converted to magic 1."""
    records = records_of(n=2)
    result = validate(records, magic=MAGIC_VALUE_V1)
    batches = list(result.validated_records.batches())
    assert [b.magic() for b in batches] == [MAGIC_VALUE_V1, MAGIC_VALUE_V1]
    assert [b.last_offset() for b in batches] == [0, 1]


def test_v0_compressed_gets_absolute_offsets() -> None:
    """Magic 0 needs absolute inner offsets, so a compressed v0 set is always rebuilt."""
    records = records_of(CompressionType.GZIP, magic=MAGIC_VALUE_V0, n=3)
    result = validate(
        records, offset=20, source=CompressionType.GZIP, target=CompressionType.GZIP, magic=MAGIC_VALUE_V0
    )
    assert result.validated_records is not records
    assert [r.offset() for r in result.validated_records.records()] == [20, 21, 22]


def test_v1_compressed_with_wrong_inner_offsets_is_rebuilt() -> None:
    """A v1 compressed set whose inner offsets do not start at 0 is rewritten rather than rejected."""
    builder = MemoryRecordsBuilder(magic=MAGIC_VALUE_V1, compression_type=CompressionType.GZIP, base_offset=0)
    for i in range(3):
        builder.append_with_offset(5 + i, NOW, b"k", b"v")
    records = writable(builder.build())
    result = validate(records, offset=0, source=CompressionType.GZIP, target=CompressionType.GZIP, magic=MAGIC_VALUE_V1)
    assert result.message_size_maybe_changed
    assert [r.offset() for r in result.validated_records.records()] == [0, 1, 2]


def test_v1_compressed_in_place() -> None:
    """A well-formed v1 compressed set is kept as is, with the wrapper offset set to the last offset."""
    records = records_of(CompressionType.GZIP, magic=MAGIC_VALUE_V1, n=3)
    result = validate(
        records, offset=50, source=CompressionType.GZIP, target=CompressionType.GZIP, magic=MAGIC_VALUE_V1
    )
    assert result.validated_records is records
    assert [r.offset() for r in records.records()] == [50, 51, 52]


def test_inconsistent_count_is_rejected() -> None:
    """A v2 batch whose record count disagrees with its offset range is an InvalidRecordException."""
    records = records_of(n=3)
    struct.pack_into(">i", records.buffer(), DefaultRecordBatch.RECORDS_COUNT_OFFSET, 2)
    with pytest.raises(InvalidRecordException, match="Inconsistent batch offset range"):
        validate(records)


def test_more_than_one_v2_batch_is_rejected() -> None:
    """Two v2 batches in one append are rejected."""
    a = bytes(records_of(n=1).buffer())
    b = bytes(records_of(n=1).buffer())
    records = MemoryRecords.readable_records(bytearray(a + b))
    with pytest.raises(InvalidRecordException, match="more than one batch"):
        validate(records)


def test_clients_cannot_write_control_batches() -> None:
    """A control batch from a client is an InvalidRecordException; from the coordinator it is accepted."""
    from kafka.common.record.control_record_type import ControlRecordType
    from kafka.common.record.end_transaction_marker import EndTransactionMarker

    def marker() -> MemoryRecords:
        return writable(
            MemoryRecords.with_end_transaction_marker(
                1, 0, EndTransactionMarker(ControlRecordType.COMMIT, 0), timestamp=NOW
            )
        )

    with pytest.raises(InvalidRecordException, match="control records"):
        validate(marker())
    result = validate(marker(), offset=9, origin=Coordinator())
    assert next(iter(result.validated_records.batches())).base_offset() == 9


def test_idempotent_batch_needs_magic_2() -> None:
    """Producer ids cannot be stored in a v1 topic."""
    records = writable(
        MemoryRecords.with_idempotent_records(CompressionType.NONE, 11, 0, 0, SimpleRecord(NOW, b"k", b"v"))
    )
    with pytest.raises(UnsupportedForMessageFormatException):
        validate(records, magic=MAGIC_VALUE_V1)


def test_client_batch_claiming_log_append_time_is_rejected() -> None:
    """A producer may not set the LogAppendTime flag on a CreateTime topic."""
    records = records_of(n=2, timestamp_type=TimestampType.LOG_APPEND_TIME, log_append_time=NOW)
    with pytest.raises(RecordValidationException) as info:
        validate(records)
    assert isinstance(info.value.invalid_exception, InvalidTimestampException)


def test_replication_origin_skips_client_checks() -> None:
    """Replicated batches are not subject to the client-only checks (here: a control batch)."""
    from kafka.common.record.control_record_type import ControlRecordType
    from kafka.common.record.end_transaction_marker import EndTransactionMarker

    records = writable(
        MemoryRecords.with_end_transaction_marker(1, 0, EndTransactionMarker(ControlRecordType.ABORT, 0), timestamp=NOW)
    )
    result = validate(records, origin=Replication())
    assert next(iter(result.validated_records.batches())).is_control_batch()


def test_corrupt_inner_v1_message_is_corrupt_record() -> None:
    """An inner message of a compressed v1 set with a bad CRC raises CorruptRecordException."""
    inner = MemoryRecordsBuilder(magic=MAGIC_VALUE_V1, base_offset=0)
    inner.append_with_offset(0, NOW, b"k", b"v")
    raw = bytearray(inner.build().buffer())
    raw[-1] ^= 0xFF  # last value byte: the inner CRC no longer matches
    compressed = CompressionType.GZIP.compress(bytes(raw), MAGIC_VALUE_V1)
    from kafka.common.record.legacy_record import LegacyRecord

    wrapper = bytearray()
    body = bytearray()
    LegacyRecord.write(body, MAGIC_VALUE_V1, NOW, None, compressed, CompressionType.GZIP, TimestampType.CREATE_TIME)
    wrapper += struct.pack(">qi", 0, len(body)) + body
    records = MemoryRecords.readable_records(wrapper)
    with pytest.raises(CorruptRecordException, match="topic partition"):
        validate(records, source=CompressionType.GZIP, target=CompressionType.GZIP, magic=MAGIC_VALUE_V1)


def test_no_batches_is_rejected() -> None:
    """An empty record set is an InvalidRecordException."""
    with pytest.raises(InvalidRecordException, match="no batches"):
        validate(MemoryRecords.readable_records(bytearray()))


def test_rejections_mark_the_all_topics_meters_kafka_marks() -> None:
    """With the broker's BrokerTopicStats, a keyless record on a compacted topic marks NoKeyCompactedTopicRecordsPerSec
    (uncompressed and compressed), a client's control batch InvalidOffsetOrSequenceRecordsPerSec, and a batch of
    another magic than the first InvalidMagicNumberRecordsPerSec, as Kafka's LogValidator."""
    from kafka.common.record.control_record_type import ControlRecordType
    from kafka.common.record.end_transaction_marker import EndTransactionMarker
    from kafka.server.kafka_request_handler import BrokerTopicStats

    stats = BrokerTopicStats()
    all_topics = stats.all_topics_stats

    def run(records: MemoryRecords, codec: CompressionType = CompressionType.NONE, compacted: bool = False) -> None:
        validate_messages_and_assign_offsets(
            records,
            TP,
            LongRef(0),
            MockTime(start_ms=NOW),
            NOW,
            codec,
            codec,
            compacted,
            MAGIC_VALUE_V2,
            TimestampType.CREATE_TIME,
            LONG_MAX_VALUE,
            7,
            Client(),
            stats,
        )

    no_key = all_topics.no_key_compacted_topic_records_rate.count
    with pytest.raises(RecordValidationException):
        run(records_of(keys=False, n=2), compacted=True)
    with pytest.raises(RecordValidationException):
        run(records_of(CompressionType.GZIP, keys=False, n=2), CompressionType.GZIP, compacted=True)
    assert all_topics.no_key_compacted_topic_records_rate.count - no_key == 4

    offset_or_sequence = all_topics.invalid_offset_or_sequence_records_rate.count
    marker = MemoryRecords.with_end_transaction_marker(
        1, 0, EndTransactionMarker(ControlRecordType.COMMIT, 0), timestamp=NOW
    )
    with pytest.raises(InvalidRecordException):
        run(writable(marker))
    assert all_topics.invalid_offset_or_sequence_records_rate.count - offset_or_sequence == 1

    magic = all_topics.invalid_magic_number_records_rate.count
    mixed = writable(
        MemoryRecords.readable_records(
            bytearray(records_of(magic=MAGIC_VALUE_V1, n=1).buffer())
            + bytearray(records_of(magic=MAGIC_VALUE_V0, n=1).buffer())
        )
    )
    with pytest.raises(InvalidRecordException):
        run(mixed)
    assert all_topics.invalid_magic_number_records_rate.count - magic == 1
    stats.close()


def _header_check_shapes() -> list[tuple[str, bytes]]:
    """Uncompressed record sets in place and not, valid and not, for the batch checks."""

    def raw(records: MemoryRecords) -> bytes:
        return bytes(records.buffer())

    def patched(data: bytes, at: int, fmt: str, value: int) -> bytes:
        out = bytearray(data)
        struct.pack_into(fmt, out, at, value)
        return bytes(out)

    plain = raw(records_of())
    idempotent = raw(
        MemoryRecords.with_idempotent_records(CompressionType.NONE, 5, 1, 0, SimpleRecord(NOW, b"k", b"v"))
    )
    transactional = raw(
        MemoryRecords.with_transactional_records(CompressionType.NONE, 5, 1, 3, SimpleRecord(NOW, b"k", b"v"))
    )
    return [
        ("plain", plain),
        ("one record, no key", raw(records_of(n=1, keys=False))),
        ("old timestamps", raw(records_of(timestamp=NOW - 10_000_000))),
        ("log append time", raw(records_of(timestamp_type=TimestampType.LOG_APPEND_TIME, log_append_time=NOW))),
        ("idempotent", idempotent),
        ("transactional", transactional),
        ("negative sequence", patched(idempotent, 53, ">i", -5)),
        ("control bit", patched(plain, 21, ">h", 0x20)),
        ("count 0", patched(plain, 57, ">i", 0)),
        ("count above the range", patched(plain, 57, ">i", 4)),
        ("count below the range", patched(plain, 57, ">i", 2)),
        ("negative last offset delta", patched(plain, 23, ">i", -1)),
        ("two batches", plain + plain),
        ("magic 1", raw(records_of(magic=MAGIC_VALUE_V1))),
        ("magic 0", raw(records_of(magic=MAGIC_VALUE_V0))),
        ("magic 1 then 2", raw(records_of(magic=MAGIC_VALUE_V1, n=1)) + plain),
    ]


@pytest.mark.parametrize("origin", [Client(), Replication(), Coordinator()], ids=type)
def test_batch_checks_read_a_v2_header_once_with_the_same_outcome(
    monkeypatch: pytest.MonkeyPatch, origin: object
) -> None:
    """The in-place checks read a v2 batch's header once (header_fields); every other batch through its accessors.
    Forcing every batch through the accessors gives the same result (offsets, timestamps, the patched bytes) or the
    same exception and message, for each shape, topic format, timestamp rule and compaction."""
    import kafka.log.log_validator as validator_module

    class NoV2Batch:
        pass

    for name, data in _header_check_shapes():
        for magic in (MAGIC_VALUE_V2, MAGIC_VALUE_V1):
            for timestamp_type, diff, compacted in (
                (TimestampType.CREATE_TIME, LONG_MAX_VALUE, False),
                (TimestampType.CREATE_TIME, 1000, False),
                (TimestampType.LOG_APPEND_TIME, LONG_MAX_VALUE, False),
                (TimestampType.CREATE_TIME, LONG_MAX_VALUE, True),
            ):
                outcomes: list[tuple[object, ...]] = []
                for generic in (False, True):
                    if generic:
                        monkeypatch.setattr(validator_module, "DefaultRecordBatch", NoV2Batch)
                    records = MemoryRecords.readable_records(bytearray(data))
                    counter = LongRef(10)
                    try:
                        result = validate(
                            records,
                            compacted=compacted,
                            magic=magic,
                            timestamp_type=timestamp_type,
                            diff=diff,
                            origin=origin,
                            counter=counter,
                        )
                    except Exception as e:
                        outcomes.append((type(e), str(e), counter.value))
                    else:
                        outcomes.append(
                            (
                                result.max_timestamp,
                                result.shallow_offset_of_max_timestamp,
                                result.message_size_maybe_changed,
                                bytes(result.validated_records.buffer()),
                                counter.value,
                            )
                        )
                    monkeypatch.undo()
                assert outcomes[0] == outcomes[1], (name, magic, timestamp_type, diff, compacted)
