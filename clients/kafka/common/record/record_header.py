"""Port of clients/src/main/java/org/apache/kafka/common/header/internals/RecordHeader.java (Kafka 3.7).

A record header: a UTF-8 string key and a nullable byte-array value.

# PORT: Java keeps the Header interface and RecordHeader in org.apache.kafka.common.header; the
record layer is their only user on the broker side, so both live here. The key is kept as the
bytes read from the wire and decoded lazily (replacing malformed UTF-8, as Java's decoder does),
so that re-encoding a header reproduces the original bytes exactly.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable


@runtime_checkable
class Header(Protocol):
    """What the record layer needs of a header: its key and value."""

    def key(self) -> str:
        """The header key."""
        ...

    def value(self) -> bytes | None:
        """The header value, or None."""
        ...


class RecordHeader:
    """A header read from a record or built by a producer."""

    __slots__ = ("_key", "_key_bytes", "_value")

    def __init__(self, key: str | bytes | bytearray | memoryview, value: bytes | bytearray | memoryview | None) -> None:
        if key is None:
            raise ValueError("Null header keys are not permitted")
        if isinstance(key, str):
            self._key: str | None = key
            self._key_bytes: bytes | None = None
        else:
            self._key = None
            self._key_bytes = bytes(key)
        self._value = None if value is None else bytes(value)

    def key(self) -> str:
        """The header key, decoded from UTF-8 on first use."""
        if self._key is None:
            assert self._key_bytes is not None
            self._key = self._key_bytes.decode("utf-8", errors="replace")
        return self._key

    def key_bytes(self) -> bytes:
        """The key as UTF-8 bytes (the bytes read from the wire when the header was decoded)."""
        if self._key_bytes is None:
            assert self._key is not None
            self._key_bytes = self._key.encode("utf-8")
        return self._key_bytes

    def value(self) -> bytes | None:
        """The header value, or None."""
        return self._value

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, RecordHeader):
            return NotImplemented
        return self.key() == other.key() and self._value == other._value

    def __hash__(self) -> int:
        return hash((self.key(), self._value))

    def __repr__(self) -> str:
        return f"RecordHeader(key = {self.key()}, value = {self._value!r})"


def header_key_bytes(header: Header) -> bytes:
    """The UTF-8 bytes of any header's key, without re-encoding a RecordHeader read from the wire."""
    if isinstance(header, RecordHeader):
        return header.key_bytes()
    key = header.key()
    if key is None:
        raise ValueError("Invalid null header key found in headers")
    return key.encode("utf-8")
