"""Port of clients/src/main/java/org/apache/kafka/common/protocol/{Message,ApiMessage,ByteBufferAccessor}.java.

The base classes of every generated `XxxData` class (see kafka.common.message.generator) and the
buffer-with-a-position that a request header and its body are read from one after the other.

Generated classes keep their per-version readers and writers in `_READERS`/`_WRITERS` tuples indexed
by `version - LOWEST_SUPPORTED_VERSION`. `read` fills the instance in place and returns it, so that
`ApiMessageType.from_api_key(k).new_request().read(buf, v)` works as in Java.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterator
from typing import Any, ClassVar, Self

from kafka.common.errors import InvalidRequestException, UnsupportedVersionException
from kafka.common.protocol.send_builder import SendBuilder
from kafka.common.protocol.types import Buffer, SchemaException

# Exceptions a generated reader can raise on malformed input; all are reported as one typed error.
_DECODE_ERRORS = (struct.error, SchemaException, IndexError, ValueError, OverflowError, UnicodeError, MemoryError)


class ByteBufferAccessor:
    """A read position over a buffer, shared by consecutive reads (header, then body)."""

    __slots__ = ("buffer", "position")

    def __init__(self, buffer: Buffer, position: int = 0) -> None:
        self.buffer = buffer if isinstance(buffer, memoryview) else memoryview(buffer)
        self.position = position

    def remaining(self) -> int:
        return len(self.buffer) - self.position


class Message:
    """A struct of a message definition: generated subclasses add fields as __slots__."""

    __slots__ = ("_unknown_tagged_fields",)

    LOWEST_SUPPORTED_VERSION: ClassVar[int] = 0
    HIGHEST_SUPPORTED_VERSION: ClassVar[int] = -1
    _FIELDS: ClassVar[tuple[str, ...]] = ()
    _READERS: ClassVar[tuple[Callable[[Any, memoryview, int], int], ...]] = ()
    _WRITERS: ClassVar[tuple[Callable[[Any, SendBuilder], None], ...]] = ()

    _unknown_tagged_fields: list[tuple[int, bytes]] | None

    def lowest_supported_version(self) -> int:
        return self.LOWEST_SUPPORTED_VERSION

    def highest_supported_version(self) -> int:
        return self.HIGHEST_SUPPORTED_VERSION

    def unknown_tagged_fields(self) -> list[tuple[int, bytes]]:
        """Tagged fields this version of the code does not know, kept as (tag, raw bytes) and written back."""
        if self._unknown_tagged_fields is None:
            self._unknown_tagged_fields = []
        return self._unknown_tagged_fields

    def _check_version(self, version: int) -> int:
        index = version - self.LOWEST_SUPPORTED_VERSION
        if index < 0 or version > self.HIGHEST_SUPPORTED_VERSION:
            raise UnsupportedVersionException(f"Can't use version {version} of {type(self).__name__}")
        return index

    def read(self, readable: ByteBufferAccessor | Buffer, version: int) -> Self:
        """Fills this object from `readable` at `version` and returns it. A ByteBufferAccessor's position
        moves past what was read; plain bytes are read from their start."""
        index = self._check_version(version)
        if isinstance(readable, ByteBufferAccessor):
            buf, pos = readable.buffer, readable.position
        else:
            buf, pos = (readable if isinstance(readable, memoryview) else memoryview(readable)), 0
        try:
            end = self._READERS[index](self, buf, pos)
        except InvalidRequestException:
            raise
        except _DECODE_ERRORS as e:
            raise InvalidRequestException(f"Error reading {type(self).__name__} version {version}: {e}") from e
        if isinstance(readable, ByteBufferAccessor):
            readable.position = end
        return self

    def write_to(self, builder: SendBuilder, version: int) -> None:
        """Appends this object's encoding at `version` to `builder` (records stay zero-copy parts)."""
        index = self._check_version(version)
        try:
            self._WRITERS[index](self, builder)
        except struct.error as e:
            raise SchemaException(f"Error writing {type(self).__name__} version {version}: {e}") from e

    def write(self, version: int) -> bytes:
        builder = SendBuilder()
        self.write_to(builder, version)
        return builder.to_bytes()

    def size(self, version: int) -> int:
        builder = SendBuilder()
        self.write_to(builder, version)
        return builder.size

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        for name in self._FIELDS:
            if getattr(self, name) != getattr(other, name):
                return False
        return (self._unknown_tagged_fields or []) == (other._unknown_tagged_fields or [])

    __hash__ = None  # type: ignore[assignment]  # mutable, as Java's generated classes are in practice

    def to_dict(self) -> dict[str, Any]:
        """Every field by its snake_case name, nested structs as dicts; uuids as strings, records as bytes."""
        return {name: _plain(getattr(self, name)) for name in self._FIELDS}

    def duplicate(self) -> Self:
        """A deep copy (Java's duplicate())."""
        copy = type(self).__new__(type(self))
        for name in self._FIELDS:
            setattr(copy, name, _dup(getattr(self, name)))
        utf = self._unknown_tagged_fields
        copy._unknown_tagged_fields = None if utf is None else list(utf)
        return copy

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._FIELDS)
        return f"{type(self).__name__}({inner})"


class ApiMessage(Message):
    """A top-level request or response body with an API key."""

    __slots__ = ()

    API_KEY: ClassVar[int] = -1

    def api_key(self) -> int:
        return self.API_KEY


class MessageCollection(list[Any]):
    """Port of the generated XxxCollection classes (ImplicitLinkedHashMultiCollection): a list of structs
    with map-key fields, which can be searched by those keys."""

    KEY_FIELDS: ClassVar[tuple[str, ...]] = ()

    def find(self, *key: Any) -> Any:
        """The first element whose key fields equal `key`, or None."""
        names = self.KEY_FIELDS
        for element in self:
            if all(getattr(element, n) == k for n, k in zip(names, key)):
                return element
        return None

    def find_all(self, *key: Any) -> list[Any]:
        names = self.KEY_FIELDS
        return [e for e in self if all(getattr(e, n) == k for n, k in zip(names, key))]

    def __iter__(self) -> Iterator[Any]:
        return super().__iter__()


def _plain(value: Any) -> Any:
    if isinstance(value, Message):
        return value.to_dict()
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (int, float, str, bool, bytes)):
        return value
    if hasattr(value, "to_bytes"):  # Uuid
        return str(value)
    if hasattr(value, "buffer"):  # MemoryRecords
        return bytes(value.buffer())
    if hasattr(value, "read_bytes"):  # FileRecords
        return value.read_bytes()
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    return value


def _dup(value: Any) -> Any:
    if isinstance(value, Message):
        return value.duplicate()
    if isinstance(value, list):
        return type(value)(_dup(v) for v in value)
    return value
