"""Port of clients/src/main/java/org/apache/kafka/common/header/internals/RecordHeaders.java (Kafka 3.7).

The Headers of a ProducerRecord (and of a consumed record): a list that the producer freezes once the
record has been handed to `send`, so that a caller cannot change what is already on its way.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from kafka.common.header.headers import Header, Headers
from kafka.common.record.record_header import RecordHeader

__all__ = ["RecordHeaders"]


class RecordHeaders(Headers):
    """A mutable list of headers that can be made read-only."""

    __slots__ = ("_headers", "_is_read_only")

    def __init__(self, headers: Iterable[Header | tuple[str, bytes | None]] | None = None) -> None:
        if headers is None:
            self._headers: list[Header] = []
        elif isinstance(headers, RecordHeaders):
            self._headers = list(headers._headers)
        else:
            self._headers = []
            for header in headers:
                if header is None:
                    raise ValueError("Header cannot be null.")
                self._headers.append(_as_header(header))
        self._is_read_only = False

    def add(self, header: Header | str, value: bytes | None = None) -> RecordHeaders:
        if header is None:
            raise ValueError("Header cannot be null.")
        self._can_write()
        self._headers.append(RecordHeader(header, value) if isinstance(header, str) else header)
        return self

    def remove(self, key: str) -> RecordHeaders:
        self._can_write()
        _check_key(key)
        self._headers = [h for h in self._headers if h.key() != key]
        return self

    def last_header(self, key: str) -> Header | None:
        _check_key(key)
        for header in reversed(self._headers):
            if header.key() == key:
                return header
        return None

    def headers(self, key: str) -> Iterable[Header]:
        _check_key(key)
        return [h for h in self._headers if h.key() == key]

    def __iter__(self) -> Iterator[Header]:
        return iter(list(self._headers))

    def __len__(self) -> int:
        return len(self._headers)

    def set_read_only(self) -> None:
        """Refuses further changes (the producer calls this when the record is sent)."""
        self._is_read_only = True

    @property
    def is_read_only(self) -> bool:
        return self._is_read_only

    def to_array(self) -> tuple[Header, ...]:
        return tuple(self._headers)

    def _can_write(self) -> None:
        if self._is_read_only:
            raise RuntimeError("RecordHeaders has been closed.")

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, RecordHeaders):
            return NotImplemented
        return self._headers == other._headers

    def __hash__(self) -> int:
        return hash(tuple(self._headers))

    def __repr__(self) -> str:
        inner = ", ".join(repr(h) for h in self._headers)
        return f"RecordHeaders(headers = [{inner}], isReadOnly = {'true' if self._is_read_only else 'false'})"


def _check_key(key: str) -> None:
    if key is None:
        raise ValueError("key cannot be null.")


def _as_header(header: Header | tuple[str, bytes | None]) -> Header:
    # Python callers often write headers as (key, value) pairs, as confluent-kafka and kafka-python take them.
    if isinstance(header, tuple):
        key, value = header
        return RecordHeader(key, value)
    return header
