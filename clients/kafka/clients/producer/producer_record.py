"""Port of clients/src/main/java/org/apache/kafka/clients/producer/ProducerRecord.java (Kafka 3.7).

What a caller hands to `KafkaProducer.send`: a topic, an optional partition and timestamp, a key, a
value and headers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar, cast

from kafka.common.header.headers import Header
from kafka.common.header.internals.record_headers import RecordHeaders

K = TypeVar("K")
V = TypeVar("V")

__all__ = ["ProducerRecord", "new_producer_record"]


class ProducerRecord(Generic[K, V]):
    """One record to send.

    # PORT: Java's six constructors become one: the value may be given positionally after the topic (Java's
    `ProducerRecord(topic, value)`), everything else by keyword. Fields are read-only attributes, as are
    Java's accessors. Headers may be given as Header objects or (key, value) pairs.
    """

    __slots__ = ("_headers", "key", "partition", "timestamp", "topic", "value")

    topic: str
    partition: int | None
    _headers: RecordHeaders | None
    key: K | None
    value: V | None
    timestamp: int | None

    def __init__(
        self,
        topic: str,
        value: V | None = None,
        *,
        key: K | None = None,
        partition: int | None = None,
        timestamp: int | None = None,
        headers: Iterable[Header | tuple[str, bytes | None]] | None = None,
    ) -> None:
        if topic is None:
            raise ValueError("Topic cannot be null.")
        if timestamp is not None and timestamp < 0:
            raise ValueError(f"Invalid timestamp: {timestamp}. Timestamp should always be non-negative or null.")
        if partition is not None and partition < 0:
            raise ValueError(f"Invalid partition: {partition}. Partition number should always be non-negative or null.")
        # Without headers, the (empty) RecordHeaders is only made when asked for: most records never are.
        record_headers = None if headers is None else RecordHeaders(headers)
        # The slots set in one call of the compiled module (see _load_set_slots), or by their own setters
        # (__setattr__ refuses; object.__setattr__ looks each name up first): this runs for every record sent.
        if _set_slots is not None:
            _set_slots(self, topic, partition, key, value, timestamp, record_headers)
        else:
            _set_topic(self, topic)
            _set_partition(self, partition)
            _set_key(self, key)
            _set_value(self, value)
            _set_timestamp(self, timestamp)
            _set_headers(self, record_headers)

    @property
    def headers(self) -> RecordHeaders:
        """The record's headers, which `send` makes read-only."""
        headers = self._headers
        if headers is None:
            headers = RecordHeaders()
            _set_headers(self, headers)
        return headers

    def _headers_for_send(self) -> tuple[Header, ...]:
        """Makes the headers read-only and returns them (KafkaProducer.send's use, as Java's setReadOnly and
        toArray). A record whose headers were never asked for gets the shared read-only empty headers."""
        headers = self._headers
        if headers is None:
            _set_headers(self, _SENT_EMPTY_HEADERS)
            return ()
        headers.set_read_only()
        return headers.to_array()

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"ProducerRecord is immutable: cannot set {name}")

    def __repr__(self) -> str:
        return (
            f"ProducerRecord(topic={self.topic}, partition={_null(self.partition)}, headers={self.headers!r}, "
            f"key={_null(self.key)}, value={_null(self.value)}, timestamp={_null(self.timestamp)})"
        )

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, ProducerRecord):
            return NotImplemented
        return (
            self.key == other.key
            and self.partition == other.partition
            and self.topic == other.topic
            and self.headers == other.headers
            and self.value == other.value
            and self.timestamp == other.timestamp
        )

    def __hash__(self) -> int:
        return hash(
            (self.topic, self.partition, self.headers, _hashable(self.key), _hashable(self.value), self.timestamp)
        )


_set_topic = cast(Any, ProducerRecord.__dict__["topic"]).__set__
_set_partition = cast(Any, ProducerRecord.__dict__["partition"]).__set__
_set_key = cast(Any, ProducerRecord.__dict__["key"]).__set__
_set_value = cast(Any, ProducerRecord.__dict__["value"]).__set__
_set_timestamp = cast(Any, ProducerRecord.__dict__["timestamp"]).__set__
_set_headers = cast(Any, ProducerRecord.__dict__["_headers"]).__set__


def _load_set_slots() -> Callable[..., None] | None:
    # PORT: the constructor's six slot assignments in one C call where the optional extension
    # kafka.common.record._default_record_writer is built and not disabled (KAFKA_PORT_PURE_PYTHON_WRITER=1): 100 B
    # records, 0.54 -> 0.30 us per ProducerRecord. The setters above stay for installs without it.
    from kafka.common.record import default_record

    if default_record._compiled_write_record is None:
        return None
    from kafka.common.record import _default_record_writer  # type: ignore[attr-defined]

    module: Any = _default_record_writer
    module.register_producer_record(ProducerRecord)
    set_slots: Callable[..., None] = module.set_record_slots
    return set_slots


_set_slots = _load_set_slots()


def _load_new_producer_record() -> Callable[[str, Any], ProducerRecord[Any, Any]]:
    # PORT: ProducerRecord(topic, value) made by one call of the optional compiled module (its slots set as __init__
    # sets them, without the call) for callers that make one per record (the producer perf tool); the class itself
    # without the extension or with KAFKA_PORT_PURE_PYTHON_WRITER=1.
    if _set_slots is None:
        return ProducerRecord
    from kafka.common.record import _default_record_writer  # type: ignore[attr-defined]

    module: Any = _default_record_writer
    return cast(Callable[[str, Any], ProducerRecord[Any, Any]], module.new_producer_record)


#: new_producer_record(topic, value): the same as ProducerRecord(topic, value).
new_producer_record = _load_new_producer_record()

# The headers of every sent record that had none: empty and read-only, as each record's own would be.
_SENT_EMPTY_HEADERS = RecordHeaders()
_SENT_EMPTY_HEADERS.set_read_only()


def _null(value: object) -> str:
    return "null" if value is None else str(value)


def _hashable(value: object) -> object:
    try:
        hash(value)
    except TypeError:
        return id(value)
    return value
