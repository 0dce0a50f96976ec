"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/ConsumerRecord.java (Kafka 3.7).

One record as `KafkaConsumer.poll` hands it out: where it came from (topic, partition, offset), its
timestamp and timestamp type, the deserialized key and value with the sizes of their serialized forms,
its headers and the leader epoch of the batch it was read from.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from kafka.common.header.headers import Headers
from kafka.common.header.internals.record_headers import RecordHeaders
from kafka.common.record.record_batch import NO_TIMESTAMP as _NO_TIMESTAMP
from kafka.common.record.timestamp_type import TimestampType

K = TypeVar("K")
V = TypeVar("V")

__all__ = ["ConsumerRecord"]


class ConsumerRecord(Generic[K, V]):
    """A fetched record; read-only.

    # PORT: Java's accessor methods are read-only attributes here (`record.offset`, `record.key`), as in
    ProducerRecord; the constructor's optional parts are keywords, and `leader_epoch` is None when absent.
    """

    NO_TIMESTAMP = _NO_TIMESTAMP
    NULL_SIZE = -1

    __slots__ = (
        "topic",
        "partition",
        "offset",
        "timestamp",
        "timestamp_type",
        "serialized_key_size",
        "serialized_value_size",
        "headers",
        "key",
        "value",
        "leader_epoch",
    )

    topic: str
    partition: int
    offset: int
    timestamp: int
    timestamp_type: TimestampType
    serialized_key_size: int
    serialized_value_size: int
    headers: Headers
    key: K | None
    value: V | None
    leader_epoch: int | None

    def __init__(
        self,
        topic: str,
        partition: int,
        offset: int,
        key: K | None = None,
        value: V | None = None,
        *,
        timestamp: int = _NO_TIMESTAMP,
        timestamp_type: TimestampType = TimestampType.NO_TIMESTAMP_TYPE,
        serialized_key_size: int = -1,
        serialized_value_size: int = -1,
        headers: Headers | None = None,
        leader_epoch: int | None = None,
    ) -> None:
        if topic is None:
            raise ValueError("Topic cannot be null")
        values = {
            "topic": topic,
            "partition": partition,
            "offset": offset,
            "timestamp": timestamp,
            "timestamp_type": timestamp_type,
            "serialized_key_size": serialized_key_size,
            "serialized_value_size": serialized_value_size,
            "headers": RecordHeaders() if headers is None else headers,
            "key": key,
            "value": value,
            "leader_epoch": leader_epoch,
        }
        for name, v in values.items():
            object.__setattr__(self, name, v)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"ConsumerRecord is immutable: cannot set {name}")

    def __repr__(self) -> str:
        return (
            f"ConsumerRecord(topic = {self.topic}, partition = {self.partition}, leaderEpoch = "
            f"{_null(self.leader_epoch)}, offset = {self.offset}, {self.timestamp_type} = {self.timestamp}, "
            f"serialized key size = {self.serialized_key_size}, serialized value size = "
            f"{self.serialized_value_size}, headers = {self.headers}, key = {_null(self.key)}, value = "
            f"{_null(self.value)})"
        )

    __str__ = __repr__


def _null(value: object) -> str:
    return "null" if value is None else str(value)
