"""Port of core/src/main/scala/kafka/log/LogValidator.scala (Kafka 2.8).

Checks the batches of an append and assigns their offsets before they reach a segment. Where the
batches already have the topic's record format and compression, the work happens in place: the
base offset, the partition leader epoch and (for LogAppendTime) the max timestamp and CRC are
patched in the batch header of the receive buffer, which therefore has to be writable (a bytearray
or a memoryview over one). Otherwise the records are decoded and rebuilt with a MemoryRecordsBuilder:
when the record format differs, when the broker's `compression.type` differs from the producer's
codec, or when a magic-0 set needs absolute offsets.

Failures raise Kafka's exceptions: InvalidRecordException for batch-level problems,
CorruptRecordException for bad inner CRCs, UnsupportedForMessageFormatException for idempotent or
transactional batches on an old format, and RecordValidationException (wrapping
InvalidTimestampException or InvalidRecordException) when individual records are rejected, carrying
the index of each rejected record in its batch as ProduceResponse v8+ reports it.

# PORT: Kafka 2.8 decodes every record of an uncompressed batch (and decompresses every compressed
batch that it keeps in place) to check it. Here a magic-2 batch that is kept in place is not
decoded when no record-level rule can fail: the topic is not compacted (no keys to check), the
timestamp rule is off (`message.timestamp.difference.max.ms` at its default of Long.MaxValue, or
the topic uses LogAppendTime), the batch itself does not claim LogAppendTime, and its record count
agrees with its offset range. The batch CRC32C (checked by Log before this runs) covers the records,
so a client's bytes cannot be altered on the way; what is trusted instead of recomputed is the
client's own header (its max timestamp, and that its records are well formed). In that case the
offset of the max timestamp reported for the time index is the batch's last offset, as Kafka
reports it for compressed batches. Every other case decodes exactly as Kafka does.

The all-topics BrokerTopicStats meters Kafka marks on a rejection (InvalidMagicNumber-, InvalidMessageCrc-,
InvalidOffsetOrSequence- and NoKeyCompactedTopicRecordsPerSec) are marked where Kafka marks them, when the caller
gives its `broker_topic_stats`.

# PORT: the interBrokerProtocolVersion argument, which only gates zstd for brokers older than 2.1, is dropped
because this broker always speaks 2.8 or later.
"""

from __future__ import annotations

import logging
from abc import ABC
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from kafka.common.errors import (
    ApiException,
    CorruptRecordException,
    InvalidRecordException,
    InvalidTimestampException,
    UnsupportedCompressionTypeException,
    UnsupportedForMessageFormatException,
)
from kafka.common.protocol.errors import Errors
from kafka.common.record.abstract_records import AbstractRecords
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.default_record_batch import (
    CONTROL_FLAG_MASK,
    TIMESTAMP_TYPE_MASK,
    TRANSACTIONAL_FLAG_MASK,
    DefaultRecordBatch,
)
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.memory_records_builder import MemoryRecordsBuilder
from kafka.common.record.record_batch import (
    MAGIC_VALUE_V0,
    MAGIC_VALUE_V1,
    MAGIC_VALUE_V2,
    NO_PRODUCER_ID,
    NO_TIMESTAMP,
    RecordBatch,
)
from kafka.common.record.record_validation_stats import RecordValidationStats
from kafka.common.record.timestamp_type import TimestampType
from kafka.common.requests.produce_response import RecordError

if TYPE_CHECKING:
    from kafka.common.record.mutable_record_batch import MutableRecordBatch
    from kafka.common.record.record import Record
    from kafka.common.topic_partition import TopicPartition
    from kafka.common.utils.time import Time
    from kafka.server.kafka_request_handler import BrokerTopicStats

_log = logging.getLogger("kafka.log.LogValidator")

#: Kafka's default (and largest) `message.timestamp.difference.max.ms`: no record can be out of range.
LONG_MAX_VALUE: Final = 2**63 - 1

#: Kafka 2.8 calls the statistics RecordConversionStats; 3.x renamed the class RecordValidationStats.
RecordConversionStats = RecordValidationStats


# ---- AppendOrigin -------------------------------------------------------------------------------


class AppendOrigin(ABC):  # noqa: B024 - a sealed trait: the subclasses are its only values
    """Where an append comes from, which decides how much of it is validated."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Replication(AppendOrigin):
    """Fetched from the leader: offsets are kept and records are not decoded."""


@dataclass(frozen=True, slots=True)
class Coordinator(AppendOrigin):
    """Written by the group or transaction coordinator: producer epochs and markers are checked."""


@dataclass(frozen=True, slots=True)
class Client(AppendOrigin):
    """A produce request: everything is validated."""


@dataclass(frozen=True, slots=True)
class RaftLeader(AppendOrigin):
    """Written by the Raft leader, which has assigned the offsets already."""


# ---- kafka.common helpers ------------------------------------------------------------------------


class LongRef:
    """A mutable long shared between the log and the validator (the next offset to assign).

    # PORT: Kafka keeps this in core's kafka.common package (LongRef.scala); in this port that package
    name belongs to the client library, so the class lives with its only user.
    """

    __slots__ = ("value",)

    def __init__(self, value: int) -> None:
        self.value = value

    def add_and_get(self, delta: int) -> int:
        """Add `delta` and return the new value."""
        self.value += delta
        return self.value

    def get_and_add(self, delta: int) -> int:
        """Add `delta` and return the old value."""
        old = self.value
        self.value += delta
        return old

    def get_and_increment(self) -> int:
        """Add one and return the old value."""
        old = self.value
        self.value = old + 1
        return old

    def increment_and_get(self) -> int:
        """Add one and return the new value."""
        self.value += 1
        return self.value

    def __repr__(self) -> str:
        return f"LongRef({self.value})"


class RecordValidationException(Exception):
    """Records of an append were rejected one by one.

    `invalid_exception` is the error the whole partition answers with (InvalidTimestampException or
    InvalidRecordException); `record_errors` name each rejected record by its index in its batch.

    # PORT: Kafka keeps this in core's kafka.common package; it lives here with the code raising it.
    """

    def __init__(self, invalid_exception: ApiException, record_errors: list[RecordError]) -> None:
        super().__init__(str(invalid_exception))
        self.invalid_exception = invalid_exception
        self.record_errors = record_errors


@dataclass(frozen=True, slots=True)
class ApiRecordError:
    """The error code and the per-record error of one rejected record."""

    api_error: Errors
    record_error: RecordError


@dataclass(frozen=True, slots=True)
class ValidationAndOffsetAssignResult:
    """What validation produced: the records to append and what the log needs to know about them."""

    validated_records: MemoryRecords
    max_timestamp: int
    shallow_offset_of_max_timestamp: int
    message_size_maybe_changed: bool
    record_conversion_stats: RecordValidationStats


# ---- entry point ---------------------------------------------------------------------------------


def validate_messages_and_assign_offsets(
    records: MemoryRecords,
    topic_partition: TopicPartition,
    offset_counter: LongRef,
    time: Time,
    now: int,
    source_codec: CompressionType,
    target_codec: CompressionType,
    compacted_topic: bool,
    magic: int,
    timestamp_type: TimestampType,
    timestamp_diff_max_ms: int,
    partition_leader_epoch: int,
    origin: AppendOrigin,
    broker_topic_stats: BrokerTopicStats | None = None,
) -> ValidationAndOffsetAssignResult:
    """Validate `records`, assign offsets from `offset_counter` (advanced past them) and convert them
    to `magic` / `target_codec` where they differ, in place where possible."""
    if source_codec is CompressionType.NONE and target_codec is CompressionType.NONE:
        if not records.has_matching_magic(magic):
            return _convert_and_assign_offsets_non_compressed(
                records,
                topic_partition,
                offset_counter,
                compacted_topic,
                time,
                now,
                timestamp_type,
                timestamp_diff_max_ms,
                magic,
                partition_leader_epoch,
                origin,
                broker_topic_stats,
            )
        return assign_offsets_non_compressed(
            records,
            topic_partition,
            offset_counter,
            now,
            compacted_topic,
            timestamp_type,
            timestamp_diff_max_ms,
            partition_leader_epoch,
            origin,
            magic,
            broker_topic_stats,
        )
    return validate_messages_and_assign_offsets_compressed(
        records,
        topic_partition,
        offset_counter,
        time,
        now,
        source_codec,
        target_codec,
        compacted_topic,
        magic,
        timestamp_type,
        timestamp_diff_max_ms,
        partition_leader_epoch,
        origin,
        broker_topic_stats,
    )


def _get_first_batch_and_maybe_validate_no_more_batches(
    records: MemoryRecords, source_codec: CompressionType
) -> MutableRecordBatch:
    batch_iterator = records.batch_iterator()
    batch = next(batch_iterator, None)
    if batch is None:
        raise InvalidRecordException("Record batch has no batches at all")
    # A v2 request, or a compressed one of any magic, must hold exactly one batch.
    if batch.magic() >= MAGIC_VALUE_V2 or source_codec is not CompressionType.NONE:
        if next(batch_iterator, None) is not None:
            raise InvalidRecordException("Compressed outer record has more than one batch")
    return batch


def _validate_batch(
    topic_partition: TopicPartition,
    first_batch: RecordBatch,
    batch: RecordBatch,
    origin: AppendOrigin,
    to_magic: int,
    broker_topic_stats: BrokerTopicStats | None = None,
    header: tuple[int, ...] | None = None,
) -> None:
    """Kafka's batch checks. `header` is a v2 batch's header_fields(), read by the caller (PORT: the checks read
    its fields instead of an accessor each); without it the accessors are read."""
    if header is not None:
        (
            base_offset,
            _,
            _,
            batch_magic,
            _,
            attributes,
            last_offset_delta,
            _,
            _,
            producer_id,
            _,
            base_sequence,
            count_field,
        ) = header
        first_magic = batch_magic if first_batch is batch else first_batch.magic()
        last_offset = base_offset + last_offset_delta
        count: int | None = count_field
        is_control = bool(attributes & CONTROL_FLAG_MASK)
        is_transactional = bool(attributes & TRANSACTIONAL_FLAG_MASK)
        has_producer_id = producer_id > NO_PRODUCER_ID
    else:
        first_magic = first_batch.magic()
        batch_magic = batch.magic()
        if batch_magic >= MAGIC_VALUE_V2:
            base_offset = batch.base_offset()
            last_offset = batch.last_offset()
            count = batch.count_or_null()
        is_control = batch.is_control_batch()
        is_transactional = batch.is_transactional()
        has_producer_id = batch.has_producer_id()
    if first_magic != batch_magic:
        if broker_topic_stats is not None:
            broker_topic_stats.all_topics_stats.invalid_magic_number_records_rate.mark()
        raise InvalidRecordException(
            f"Batch magic {batch_magic} is not the same as the first batch'es magic byte {first_magic} "
            f"in topic partition {topic_partition}."
        )
    if isinstance(origin, Client):
        if batch_magic >= MAGIC_VALUE_V2:
            count_from_offsets = last_offset - base_offset + 1
            if count_from_offsets <= 0:
                _mark_invalid_offset_or_sequence(broker_topic_stats)
                raise InvalidRecordException(
                    f"Batch has an invalid offset range: [{base_offset}, {last_offset}] in topic "
                    f"partition {topic_partition}."
                )
            assert count is not None  # always present from magic 2 on
            if count <= 0:
                _mark_invalid_offset_or_sequence(broker_topic_stats)
                raise InvalidRecordException(
                    f"Invalid reported count for record batch: {count} in topic partition {topic_partition}."
                )
            if count_from_offsets != count:
                _mark_invalid_offset_or_sequence(broker_topic_stats)
                raise InvalidRecordException(
                    f"Inconsistent batch offset range [{base_offset}, {last_offset}] and count of "
                    f"records {count} in topic partition {topic_partition}."
                )
        if is_control:
            _mark_invalid_offset_or_sequence(broker_topic_stats)
            raise InvalidRecordException(
                f"Clients are not allowed to write control records in topic partition {topic_partition}."
            )
        if has_producer_id:
            sequence = base_sequence if header is not None else batch.base_sequence()
            if sequence < 0:
                _mark_invalid_offset_or_sequence(broker_topic_stats)
                raise InvalidRecordException(
                    f"Invalid sequence number {sequence} in record batch with producerId "
                    f"{batch.producer_id()} in topic partition {topic_partition}."
                )
    if is_transactional and to_magic < MAGIC_VALUE_V2:
        raise UnsupportedForMessageFormatException(
            f"Transactional records cannot be used with magic version {to_magic}"
        )
    if has_producer_id and to_magic < MAGIC_VALUE_V2:
        raise UnsupportedForMessageFormatException(f"Idempotent records cannot be used with magic version {to_magic}")


def _mark_invalid_offset_or_sequence(broker_topic_stats: BrokerTopicStats | None) -> None:
    if broker_topic_stats is not None:
        broker_topic_stats.all_topics_stats.invalid_offset_or_sequence_records_rate.mark()


def _validate_record(
    batch: RecordBatch,
    topic_partition: TopicPartition,
    record: Record,
    batch_index: int,
    now: int,
    timestamp_type: TimestampType,
    timestamp_diff_max_ms: int,
    compacted_topic: bool,
    broker_topic_stats: BrokerTopicStats | None = None,
) -> ApiRecordError | None:
    batch_magic = batch.magic()
    if not record.has_magic(batch_magic):
        if broker_topic_stats is not None:
            broker_topic_stats.all_topics_stats.invalid_magic_number_records_rate.mark()
        return ApiRecordError(
            Errors.INVALID_RECORD,
            RecordError(
                batch_index,
                f"Record {record}'s magic does not match outer magic {batch_magic} in topic partition "
                f"{topic_partition}.",
            ),
        )
    # Only the inner messages of a compressed v0/v1 set carry a CRC of their own; the outer CRC of
    # every other batch was checked by the log before validation.
    if batch_magic <= MAGIC_VALUE_V1 and batch.is_compressed():
        try:
            record.ensure_valid()
        except (InvalidRecordException, CorruptRecordException) as e:
            if broker_topic_stats is not None:
                broker_topic_stats.all_topics_stats.invalid_message_crc_records_rate.mark()
            raise CorruptRecordException(f"{e} in topic partition {topic_partition}.") from e
    error = _validate_key(record, batch_index, topic_partition, compacted_topic, broker_topic_stats)
    if error is not None:
        return error
    return _validate_timestamp(batch, record, batch_index, now, timestamp_type, timestamp_diff_max_ms)


def _validate_key(
    record: Record,
    batch_index: int,
    topic_partition: TopicPartition,
    compacted_topic: bool,
    broker_topic_stats: BrokerTopicStats | None = None,
) -> ApiRecordError | None:
    if compacted_topic and not record.has_key():
        if broker_topic_stats is not None:
            broker_topic_stats.all_topics_stats.no_key_compacted_topic_records_rate.mark()
        return ApiRecordError(
            Errors.INVALID_RECORD,
            RecordError(
                batch_index, f"Compacted topic cannot accept message without key in topic partition {topic_partition}."
            ),
        )
    return None


def _validate_timestamp(
    batch: RecordBatch,
    record: Record,
    batch_index: int,
    now: int,
    timestamp_type: TimestampType,
    timestamp_diff_max_ms: int,
) -> ApiRecordError | None:
    timestamp = record.timestamp()
    if (
        timestamp_type is TimestampType.CREATE_TIME
        and timestamp != NO_TIMESTAMP
        and abs(timestamp - now) > timestamp_diff_max_ms
    ):
        return ApiRecordError(
            Errors.INVALID_TIMESTAMP,
            RecordError(
                batch_index,
                f"Timestamp {timestamp} of message with offset {record.offset()} is out of range. The timestamp "
                f"should be within [{now - timestamp_diff_max_ms}, {now + timestamp_diff_max_ms}]",
            ),
        )
    if batch.timestamp_type() is TimestampType.LOG_APPEND_TIME:
        return ApiRecordError(
            Errors.INVALID_TIMESTAMP,
            RecordError(
                batch_index,
                f"Invalid timestamp type in message {record}. Producer should not set timestamp type to LogAppendTime.",
            ),
        )
    return None


def _needs_record_scan(
    batch: RecordBatch,
    compacted_topic: bool,
    timestamp_type: TimestampType,
    timestamp_diff_max_ms: int,
    header: tuple[int, ...] | None = None,
) -> bool:
    """Whether a magic-2 batch kept in place must be decoded for a record-level rule to be checked (`header`: its
    header_fields(), when the caller read them)."""
    if compacted_topic:
        return True
    if timestamp_type is TimestampType.CREATE_TIME and timestamp_diff_max_ms < LONG_MAX_VALUE:
        return True
    if header is not None:
        # Log append time; the count against the offset range (last offset delta + 1).
        return bool(header[5] & TIMESTAMP_TYPE_MASK) or header[12] != header[6] + 1
    if batch.timestamp_type() is TimestampType.LOG_APPEND_TIME:
        return True
    return batch.count_or_null() != batch.last_offset() - batch.base_offset() + 1


def _convert_and_assign_offsets_non_compressed(
    records: MemoryRecords,
    topic_partition: TopicPartition,
    offset_counter: LongRef,
    compacted_topic: bool,
    time: Time,
    now: int,
    timestamp_type: TimestampType,
    timestamp_diff_max_ms: int,
    to_magic_value: int,
    partition_leader_epoch: int,
    origin: AppendOrigin,
    broker_topic_stats: BrokerTopicStats | None = None,
) -> ValidationAndOffsetAssignResult:
    start_nanos = time.nanoseconds()
    first_batch = _get_first_batch_and_maybe_validate_no_more_batches(records, CompressionType.NONE)
    builder = MemoryRecordsBuilder(
        magic=to_magic_value,
        compression_type=CompressionType.NONE,
        timestamp_type=timestamp_type,
        base_offset=offset_counter.value,
        log_append_time=now,
        producer_id=first_batch.producer_id(),
        producer_epoch=first_batch.producer_epoch(),
        base_sequence=first_batch.base_sequence(),
        is_transactional=first_batch.is_transactional(),
        partition_leader_epoch=partition_leader_epoch,
    )
    for batch in records.batches():
        _validate_batch(topic_partition, first_batch, batch, origin, to_magic_value, broker_topic_stats)
        record_errors: list[ApiRecordError] = []
        for batch_index, record in enumerate(batch):
            error = _validate_record(
                batch,
                topic_partition,
                record,
                batch_index,
                now,
                timestamp_type,
                timestamp_diff_max_ms,
                compacted_topic,
                broker_topic_stats,
            )
            if error is not None:
                record_errors.append(error)
            # Once a record failed the batch fails, so nothing more is converted.
            if not record_errors:
                builder.append_record_with_offset(offset_counter.get_and_increment(), record)
        _process_record_errors(record_errors, topic_partition)
    converted_records = builder.build()
    info = builder.info()
    stats = RecordValidationStats(
        builder.uncompressed_bytes_written(), builder.num_records(), time.nanoseconds() - start_nanos
    )
    return ValidationAndOffsetAssignResult(
        validated_records=converted_records,
        max_timestamp=info.max_timestamp,
        shallow_offset_of_max_timestamp=info.shallow_offset_of_max_timestamp,
        message_size_maybe_changed=True,
        record_conversion_stats=stats,
    )


def assign_offsets_non_compressed(
    records: MemoryRecords,
    topic_partition: TopicPartition,
    offset_counter: LongRef,
    now: int,
    compacted_topic: bool,
    timestamp_type: TimestampType,
    timestamp_diff_max_ms: int,
    partition_leader_epoch: int,
    origin: AppendOrigin,
    magic: int,
    broker_topic_stats: BrokerTopicStats | None = None,
) -> ValidationAndOffsetAssignResult:
    """Uncompressed batches already in the topic's format: validate and patch them in place."""
    max_timestamp = NO_TIMESTAMP
    offset_of_max_timestamp = -1
    initial_offset = offset_counter.value
    first_batch = _get_first_batch_and_maybe_validate_no_more_batches(records, CompressionType.NONE)
    for batch in records.batches():
        # PORT: a v2 batch's header is read once for the checks below (header_fields).
        header = batch.header_fields() if isinstance(batch, DefaultRecordBatch) else None
        _validate_batch(topic_partition, first_batch, batch, origin, magic, broker_topic_stats, header)
        batch_magic = batch.magic() if header is None else header[3]
        max_batch_timestamp = NO_TIMESTAMP
        offset_of_max_batch_timestamp = -1
        if batch_magic >= MAGIC_VALUE_V2 and not _needs_record_scan(
            batch, compacted_topic, timestamp_type, timestamp_diff_max_ms, header
        ):
            count = batch.count_or_null() if header is None else header[12]
            assert count is not None
            offset_counter.value += count
            max_batch_timestamp = batch.max_timestamp() if header is None else header[8]
            offset_of_max_batch_timestamp = offset_counter.value - 1
        else:
            record_errors: list[ApiRecordError] = []
            batch_index = 0
            records_iterator = batch.skip_key_value_iterator() if batch_magic >= MAGIC_VALUE_V2 else iter(batch)
            for record in records_iterator:
                error = _validate_record(
                    batch,
                    topic_partition,
                    record,
                    batch_index,
                    now,
                    timestamp_type,
                    timestamp_diff_max_ms,
                    compacted_topic,
                    broker_topic_stats,
                )
                if error is not None:
                    record_errors.append(error)
                offset = offset_counter.get_and_increment()
                timestamp = record.timestamp()
                if batch_magic > MAGIC_VALUE_V0 and timestamp > max_batch_timestamp:
                    max_batch_timestamp = timestamp
                    offset_of_max_batch_timestamp = offset
                batch_index += 1
            _process_record_errors(record_errors, topic_partition)
        if batch_magic > MAGIC_VALUE_V0 and max_batch_timestamp > max_timestamp:
            max_timestamp = max_batch_timestamp
            offset_of_max_timestamp = offset_of_max_batch_timestamp
        batch.set_last_offset(offset_counter.value - 1)
        if batch_magic >= MAGIC_VALUE_V2:
            batch.set_partition_leader_epoch(partition_leader_epoch)
        if batch_magic > MAGIC_VALUE_V0:
            if timestamp_type is TimestampType.LOG_APPEND_TIME:
                batch.set_max_timestamp(TimestampType.LOG_APPEND_TIME, now)
            else:
                batch.set_max_timestamp(timestamp_type, max_batch_timestamp)
    if timestamp_type is TimestampType.LOG_APPEND_TIME:
        max_timestamp = now
        offset_of_max_timestamp = offset_counter.value - 1 if magic >= MAGIC_VALUE_V2 else initial_offset
    return ValidationAndOffsetAssignResult(
        validated_records=records,
        max_timestamp=max_timestamp,
        shallow_offset_of_max_timestamp=offset_of_max_timestamp,
        message_size_maybe_changed=False,
        record_conversion_stats=RecordValidationStats.EMPTY,
    )


def validate_messages_and_assign_offsets_compressed(
    records: MemoryRecords,
    topic_partition: TopicPartition,
    offset_counter: LongRef,
    time: Time,
    now: int,
    source_codec: CompressionType,
    target_codec: CompressionType,
    compacted_topic: bool,
    to_magic: int,
    timestamp_type: TimestampType,
    timestamp_diff_max_ms: int,
    partition_leader_epoch: int,
    origin: AppendOrigin,
    broker_topic_stats: BrokerTopicStats | None = None,
) -> ValidationAndOffsetAssignResult:
    """Compressed input or output: keep the batch in place when the codec and format allow it,
    otherwise rebuild it (recompressing with `target_codec`)."""
    if target_codec is CompressionType.ZSTD and to_magic < MAGIC_VALUE_V2:
        raise UnsupportedCompressionTypeException(
            f"ZStandard compression is not supported for message format version {to_magic} in topic partition "
            f"{topic_partition}"
        )
    # Case 1 that forbids in-place assignment: the codec changes.
    in_place_assignment = source_codec is target_codec
    max_timestamp = NO_TIMESTAMP
    expected_inner_offset = 0
    validated_records: list[Record] = []
    uncompressed_size_in_bytes = 0
    partial_records = False

    first_batch = _get_first_batch_and_maybe_validate_no_more_batches(records, source_codec)
    # Cases 2 and 3: the format changes, or magic 0 needs absolute offsets.
    if first_batch.magic() != to_magic or to_magic == MAGIC_VALUE_V0:
        in_place_assignment = False
    # An uncompressed control batch stays uncompressed.
    if source_codec is CompressionType.NONE and first_batch.is_control_batch():
        in_place_assignment = True

    validated_count = 0
    for batch in records.batches():
        _validate_batch(topic_partition, first_batch, batch, origin, to_magic, broker_topic_stats)
        uncompressed_size_in_bytes += AbstractRecords.record_batch_header_size_in_bytes(
            to_magic, batch.compression_type()
        )
        batch_magic = batch.magic()
        if (
            in_place_assignment
            and batch_magic >= MAGIC_VALUE_V2
            and not _needs_record_scan(batch, compacted_topic, timestamp_type, timestamp_diff_max_ms)
        ):
            # Kept as is: the header is patched below without decompressing the records.
            count = batch.count_or_null()
            assert count is not None
            validated_count += count
            expected_inner_offset += count
            uncompressed_size_in_bytes += batch.size_in_bytes()
            if batch.max_timestamp() > max_timestamp:
                max_timestamp = batch.max_timestamp()
            continue
        use_partial = in_place_assignment and first_batch.magic() >= MAGIC_VALUE_V2
        records_iterator: Iterator[Record] = (
            batch.skip_key_value_iterator() if use_partial else batch.streaming_iterator()
        )
        partial_records = partial_records or use_partial
        record_errors: list[ApiRecordError] = []
        batch_index = 0
        for record in records_iterator:
            expected_offset = expected_inner_offset
            expected_inner_offset += 1
            error: ApiRecordError | None
            if source_codec is not CompressionType.NONE and record.is_compressed():
                error = ApiRecordError(
                    Errors.INVALID_RECORD,
                    RecordError(
                        batch_index,
                        "Compressed outer record should not have an inner record with a compression attribute set: "
                        f"{record}",
                    ),
                )
            else:
                error = _validate_record(
                    batch,
                    topic_partition,
                    record,
                    batch_index,
                    now,
                    timestamp_type,
                    timestamp_diff_max_ms,
                    compacted_topic,
                    broker_topic_stats,
                )
                if error is None and batch_magic > MAGIC_VALUE_V0 and to_magic > MAGIC_VALUE_V0:
                    if record.timestamp() > max_timestamp:
                        max_timestamp = record.timestamp()
                    # Some old clients number the inner messages of a v1 set wrongly; Kafka rewrites
                    # such sets instead of rejecting them.
                    if record.offset() != expected_offset:
                        in_place_assignment = False
            if error is not None:
                record_errors.append(error)
            else:
                uncompressed_size_in_bytes += record.size_in_bytes()
                validated_records.append(record)
                validated_count += 1
            batch_index += 1
        _process_record_errors(record_errors, topic_partition)

    if not in_place_assignment:
        if partial_records:
            # The partial records read for an in-place check carry no keys or values; the rebuild needs them.
            validated_records = [record for batch in records.batches() for record in batch.streaming_iterator()]
        return _build_records_and_assign_offsets(
            to_magic,
            offset_counter,
            time,
            timestamp_type,
            target_codec,
            now,
            validated_records,
            first_batch.producer_id(),
            first_batch.producer_epoch(),
            first_batch.base_sequence(),
            first_batch.is_transactional(),
            partition_leader_epoch,
            uncompressed_size_in_bytes,
        )

    # In place: only the header of the (single) batch changes.
    batch = first_batch
    last_offset = offset_counter.add_and_get(validated_count) - 1
    batch.set_last_offset(last_offset)
    if timestamp_type is TimestampType.LOG_APPEND_TIME:
        max_timestamp = now
    if to_magic >= MAGIC_VALUE_V1:
        batch.set_max_timestamp(timestamp_type, max_timestamp)
    if to_magic >= MAGIC_VALUE_V2:
        batch.set_partition_leader_epoch(partition_leader_epoch)
    return ValidationAndOffsetAssignResult(
        validated_records=records,
        max_timestamp=max_timestamp,
        shallow_offset_of_max_timestamp=last_offset,
        message_size_maybe_changed=False,
        record_conversion_stats=RecordValidationStats(uncompressed_size_in_bytes, 0, 0),
    )


def _build_records_and_assign_offsets(
    magic: int,
    offset_counter: LongRef,
    time: Time,
    timestamp_type: TimestampType,
    compression_type: CompressionType,
    log_append_time: int,
    validated_records: list[Record],
    producer_id: int,
    producer_epoch: int,
    base_sequence: int,
    is_transactional: bool,
    partition_leader_epoch: int,
    uncompressed_size_in_bytes: int,
) -> ValidationAndOffsetAssignResult:
    start_nanos = time.nanoseconds()
    builder = MemoryRecordsBuilder(
        magic=magic,
        compression_type=compression_type,
        timestamp_type=timestamp_type,
        base_offset=offset_counter.value,
        log_append_time=log_append_time,
        producer_id=producer_id,
        producer_epoch=producer_epoch,
        base_sequence=base_sequence,
        is_transactional=is_transactional,
        partition_leader_epoch=partition_leader_epoch,
    )
    for record in validated_records:
        builder.append_record_with_offset(offset_counter.get_and_increment(), record)
    built = builder.build()
    info = builder.info()
    # As in Kafka, this counts every record that could not stay in place, converted or not.
    stats = RecordValidationStats(
        uncompressed_size_in_bytes + builder.uncompressed_bytes_written(),
        builder.num_records(),
        time.nanoseconds() - start_nanos,
    )
    return ValidationAndOffsetAssignResult(
        validated_records=built,
        max_timestamp=info.max_timestamp,
        shallow_offset_of_max_timestamp=info.shallow_offset_of_max_timestamp,
        message_size_maybe_changed=True,
        record_conversion_stats=stats,
    )


def _process_record_errors(record_errors: list[ApiRecordError], topic_partition: TopicPartition) -> None:
    if not record_errors:
        return
    errors = [e.record_error for e in record_errors]
    if _log.isEnabledFor(logging.DEBUG):
        _log.debug("Rejecting %d record(s) appended to %s: %s", len(errors), topic_partition, errors)
    if any(e.api_error is Errors.INVALID_TIMESTAMP for e in record_errors):
        raise RecordValidationException(
            InvalidTimestampException("One or more records have been rejected due to invalid timestamp"), errors
        )
    raise RecordValidationException(InvalidRecordException("One or more records have been rejected"), errors)
