"""Port of core/src/main/scala/kafka/coordinator/transaction/TransactionLog.scala (Kafka 2.8).

The record formats of `__transaction_state`, the topic in which the transaction coordinator keeps the
state of every transactional id, and the readers used when a partition is loaded, by kafka-dump-log's
`--transaction-log-decoder` and by the console consumer's formatter.

Every key and value starts with an int16 version (strings: int16 length + UTF-8):

- key, version 0: transactional id;
- value, version 0: producer id (int64), producer epoch (int16), transaction timeout ms (int32), state
  id (int8), the transaction's partitions (a nullable int32-counted array, null for Empty, of a topic
  followed by an int32-counted array of int32 partition ids), last update timestamp (int64), start
  timestamp (int64);
- a record without a value (tombstone) deletes the transactional id.
"""

# PORT: Kafka generates TransactionLogKey/TransactionLogValue from JSON schemas; the two formats are small
# and fixed (Kafka 2.8 only has version 0 of each), so they are written out here, as the group
# coordinator's formats are.

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import IO, Final

from kafka.common.errors import KafkaException
from kafka.common.protocol.types import INT16, INT32, Buffer, read_array_length, read_string, write_string
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.record import Record
from kafka.common.record.record_batch import NO_PRODUCER_EPOCH, NO_PRODUCER_ID
from kafka.common.topic_partition import TopicPartition
from kafka.coordinator.group.group_metadata_manager_formats import IllegalStateException
from kafka.coordinator.transaction.transaction_metadata import (
    TransactionMetadata,
    TransactionState,
    TxnTransitMetadata,
)

__all__ = [
    "DEFAULT_LOAD_BUFFER_SIZE",
    "DEFAULT_MIN_IN_SYNC_REPLICAS",
    "DEFAULT_NUM_PARTITIONS",
    "DEFAULT_REPLICATION_FACTOR",
    "DEFAULT_SEGMENT_BYTES",
    "ENFORCED_COMPRESSION_TYPE",
    "ENFORCED_REQUIRED_ACKS",
    "TransactionLogMessageFormatter",
    "TxnKey",
    "format_record_key_and_value",
    "key_to_bytes",
    "read_txn_record_key",
    "read_txn_record_value",
    "value_to_bytes",
]

# Defaults of the transaction.state.log.* broker configs.
DEFAULT_NUM_PARTITIONS: Final = 50
DEFAULT_SEGMENT_BYTES: Final = 100 * 1024 * 1024
DEFAULT_REPLICATION_FACTOR: Final = 3
DEFAULT_MIN_IN_SYNC_REPLICAS: Final = 2
DEFAULT_LOAD_BUFFER_SIZE: Final = 5 * 1024 * 1024

# What every write to the topic uses, whatever the configs say (the topic is also compacted, uncompressed
# and has unclean leader election off: see TransactionStateManager.transaction_topic_configs).
ENFORCED_COMPRESSION_TYPE: Final = CompressionType.NONE
ENFORCED_REQUIRED_ACKS: Final = -1

# The versions of the key and value schemas (TransactionLogKey.json / TransactionLogValue.json, Kafka 2.8).
KEY_VERSION: Final = 0
VALUE_VERSION: Final = 0

# producer id, producer epoch, transaction timeout, state id
_VALUE_HEAD: Final = struct.Struct(">qhib")
# last update timestamp, start timestamp
_VALUE_TAIL: Final = struct.Struct(">qq")


@dataclass(frozen=True, slots=True)
class TxnKey:
    """A decoded key of `__transaction_state`."""

    version: int
    transactional_id: str

    def __str__(self) -> str:
        return self.transactional_id


# ---- writers ----------------------------------------------------------------------------------------


def key_to_bytes(transactional_id: str) -> bytes:
    """The record key of a transactional id."""
    out = bytearray(INT16.pack(KEY_VERSION))
    write_string(out, transactional_id)
    return bytes(out)


def value_to_bytes(txn_metadata: TxnTransitMetadata) -> bytes:
    """The record value of a transition's target state; an Empty state must have no partitions."""
    state = txn_metadata.txn_state
    if state is TransactionState.Empty and txn_metadata.topic_partitions:
        raise IllegalStateException(
            f"Transaction is not expected to have any partitions since its state is {state}: {txn_metadata}"
        )
    out = bytearray(INT16.pack(VALUE_VERSION))
    out += _VALUE_HEAD.pack(
        txn_metadata.producer_id, txn_metadata.producer_epoch, txn_metadata.txn_timeout_ms, state.id
    )
    if state is TransactionState.Empty:
        out += INT32.pack(-1)
    else:
        # PORT: Kafka groups the partitions through Scala hash maps, so its topic and partition order follows
        # their hashing; readers do not depend on the order, and ours is sorted so that the bytes are stable.
        by_topic: dict[str, list[int]] = {}
        for tp in txn_metadata.topic_partitions:
            by_topic.setdefault(tp.topic, []).append(tp.partition)
        out += INT32.pack(len(by_topic))
        for topic in sorted(by_topic):
            write_string(out, topic)
            partition_ids = sorted(by_topic[topic])
            out += INT32.pack(len(partition_ids))
            for partition_id in partition_ids:
                out += INT32.pack(partition_id)
    out += _VALUE_TAIL.pack(txn_metadata.txn_last_update_timestamp, txn_metadata.txn_start_timestamp)
    return bytes(out)


# ---- readers ----------------------------------------------------------------------------------------


def _read_version(buffer: Buffer, what: str) -> int:
    if len(buffer) < INT16.size:
        raise KafkaException(f"Transaction log message {what} of {len(buffer)} bytes is too short to hold a version")
    version: int = INT16.unpack_from(buffer, 0)[0]
    return version


def read_txn_record_key(buffer: Buffer) -> TxnKey:
    """Decodes a record key; IllegalStateException for a version Kafka 2.8 does not know."""
    version = _read_version(buffer, "key")
    if version != KEY_VERSION:
        raise IllegalStateException(f"Unknown version {version} from the transaction log message")
    try:
        transactional_id, _ = read_string(buffer, INT16.size)
    except (KafkaException, struct.error) as e:
        raise KafkaException(f"Malformed transaction log message key of version {version}: {e}") from e
    return TxnKey(version, transactional_id)


def read_txn_record_value(transactional_id: str, buffer: Buffer | None) -> TransactionMetadata | None:
    """Decodes a record value into the transactional id's metadata; None for a tombstone.

    The previous producer id and epoch are not stored, so they come back as none (-1)."""
    if buffer is None:
        return None
    version = _read_version(buffer, "value")
    if version != VALUE_VERSION:
        raise IllegalStateException(f"Unknown version {version} from the transaction log message value")
    try:
        producer_id, producer_epoch, txn_timeout_ms, state_id = _VALUE_HEAD.unpack_from(buffer, INT16.size)
        pos = INT16.size + _VALUE_HEAD.size
        topic_count, pos = read_array_length(buffer, pos, True, "TransactionPartitions")
        partitions: set[TopicPartition] = set()
        for _ in range(max(topic_count, 0)):
            topic, pos = read_string(buffer, pos)
            id_count, pos = read_array_length(buffer, pos, False, "PartitionIds")
            for _ in range(id_count):
                (partition_id,) = INT32.unpack_from(buffer, pos)
                pos += INT32.size
                partitions.add(TopicPartition(topic, partition_id))
        last_update_timestamp, start_timestamp = _VALUE_TAIL.unpack_from(buffer, pos)
    except (KafkaException, struct.error) as e:
        raise KafkaException(f"Malformed transaction log message value of version {version}: {e}") from e
    state = TransactionState.from_id(state_id)
    return TransactionMetadata(
        transactional_id=transactional_id,
        producer_id=producer_id,
        last_producer_id=NO_PRODUCER_ID,
        producer_epoch=producer_epoch,
        last_producer_epoch=NO_PRODUCER_EPOCH,
        txn_timeout_ms=txn_timeout_ms,
        state=state,
        # An Empty transactional id has no partitions, whatever the value holds.
        topic_partitions=set() if state is TransactionState.Empty else partitions,
        txn_start_timestamp=start_timestamp,
        txn_last_update_timestamp=last_update_timestamp,
    )


# ---- printing ---------------------------------------------------------------------------------------


class TransactionLogMessageFormatter:
    """kafka-console-consumer's formatter for `__transaction_state`: `transactionalId::TransactionMetadata(...)`,
    or `transactionalId::NULL` for a tombstone."""

    def write_to(self, key: bytes | None, value: bytes | None, output: IO[bytes]) -> None:
        if key is None:
            return
        txn_key = read_txn_record_key(key)
        transactional_id = txn_key.transactional_id
        metadata = None if value is None else read_txn_record_value(transactional_id, value)
        output.write(f"{transactional_id}::{'NULL' if metadata is None else metadata}\n".encode())


def format_record_key_and_value(record: Record) -> tuple[str | None, str | None]:
    """The key and value text kafka-dump-log prints for a record of `__transaction_state`."""
    key = record.key()
    if key is None:
        raise KafkaException("Failed to decode message using transaction log decoder (message had a missing key)")
    txn_key = read_txn_record_key(key)
    key_string = f"transaction_metadata::transactionalId={txn_key.transactional_id}"
    txn_metadata = read_txn_record_value(txn_key.transactional_id, record.value())
    if txn_metadata is None:
        value_string = "<DELETE>"
    else:
        # PORT: Kafka prints the partitions in its hash set's order; ours are sorted.
        partitions = ",".join(str(tp) for tp in sorted(txn_metadata.topic_partitions, key=_tp_order))
        value_string = (
            f"producerId:{txn_metadata.producer_id},"
            f"producerEpoch:{txn_metadata.producer_epoch},"
            f"state={txn_metadata.state.name},"
            f"partitions=[{partitions}],"
            f"txnLastUpdateTimestamp={txn_metadata.txn_last_update_timestamp},"
            f"txnTimeoutMs={txn_metadata.txn_timeout_ms}"
        )
    return key_string, value_string


def _tp_order(tp: TopicPartition) -> tuple[str, int]:
    return tp.topic, tp.partition
