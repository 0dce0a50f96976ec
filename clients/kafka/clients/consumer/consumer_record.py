"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/ConsumerRecord.java (Kafka 3.7).

One record as `KafkaConsumer.poll` hands it out: where it came from (topic, partition, offset), its
timestamp and timestamp type, the deserialized key and value with the sizes of their serialized forms,
its headers and the leader epoch of the batch it was read from.
"""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, Generic, TypeVar

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
    The fields live in private slots behind read-only properties, so that the fetcher can fill a record with
    plain slot stores (it makes one per fetched record) while applications still cannot change one. A record
    read without headers gets its (empty, mutable) RecordHeaders on first access to `headers`.
    """

    NO_TIMESTAMP = _NO_TIMESTAMP
    NULL_SIZE = -1

    __slots__ = (
        "_topic",
        "_partition",
        "_offset",
        "_timestamp",
        "_timestamp_type",
        "_serialized_key_size",
        "_serialized_value_size",
        "_headers",
        "_key",
        "_value",
        "_leader_epoch",
    )

    _topic: str
    _partition: int
    _offset: int
    _timestamp: int
    _timestamp_type: TimestampType
    _serialized_key_size: int
    _serialized_value_size: int
    _headers: Headers | None
    _key: K | None
    _value: V | None
    _leader_epoch: int | None

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
        self._topic = topic
        self._partition = partition
        self._offset = offset
        self._timestamp = timestamp
        self._timestamp_type = timestamp_type
        self._serialized_key_size = serialized_key_size
        self._serialized_value_size = serialized_value_size
        self._headers = RecordHeaders() if headers is None else headers
        self._key = key
        self._value = value
        self._leader_epoch = leader_epoch

    if TYPE_CHECKING:

        @property
        def topic(self) -> str: ...
        @property
        def partition(self) -> int: ...
        @property
        def offset(self) -> int: ...
        @property
        def timestamp(self) -> int: ...
        @property
        def timestamp_type(self) -> TimestampType: ...
        @property
        def serialized_key_size(self) -> int: ...
        @property
        def serialized_value_size(self) -> int: ...
        @property
        def key(self) -> K | None: ...
        @property
        def value(self) -> V | None: ...
        @property
        def leader_epoch(self) -> int | None: ...

    else:
        # Getters implemented in C (attrgetter): reading a field costs about as much as reading a slot.
        topic = property(attrgetter("_topic"))
        partition = property(attrgetter("_partition"))
        offset = property(attrgetter("_offset"))
        timestamp = property(attrgetter("_timestamp"))
        timestamp_type = property(attrgetter("_timestamp_type"))
        serialized_key_size = property(attrgetter("_serialized_key_size"))
        serialized_value_size = property(attrgetter("_serialized_value_size"))
        key = property(attrgetter("_key"))
        value = property(attrgetter("_value"))
        leader_epoch = property(attrgetter("_leader_epoch"))

    @property
    def headers(self) -> Headers:
        headers = self._headers
        if headers is None:
            headers = self._headers = RecordHeaders()
        return headers

    def __repr__(self) -> str:
        return (
            f"ConsumerRecord(topic = {self._topic}, partition = {self._partition}, leaderEpoch = "
            f"{_null(self._leader_epoch)}, offset = {self._offset}, {self._timestamp_type} = {self._timestamp}, "
            f"serialized key size = {self._serialized_key_size}, serialized value size = "
            f"{self._serialized_value_size}, headers = {self.headers}, key = {_null(self._key)}, value = "
            f"{_null(self._value)})"
        )

    __str__ = __repr__


def _null(value: object) -> str:
    return "null" if value is None else str(value)
