"""Port of core/src/main/scala/kafka/log/OffsetMap.scala (Kafka 2.8).

The log cleaner's key => last offset map. SkimpyOffsetMap stores, in one preallocated buffer,
slots of (digest of the key, offset as int64): the digest stands in for the key, so memory per key is
fixed (24 bytes with MD5) whatever the key's size. Collisions are resolved by probing: the first
probes read successive big-endian int32 windows of the digest itself, after which the probe moves
linearly. An all-zero slot is empty. There is no delete.
"""

from __future__ import annotations

import hashlib
import mmap
import struct
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, Final

_INT32: Final = struct.Struct(">i")
_INT64: Final = struct.Struct(">q")
_INT32_MIN: Final = -(2**31)

# Java's MessageDigest algorithm names and the hashlib constructors computing the same digests.
_DIGESTS: Final[dict[str, Callable[..., Any]]] = {
    "MD5": hashlib.md5,
    "SHA-1": hashlib.sha1,
    "SHA1": hashlib.sha1,
    "SHA-224": hashlib.sha224,
    "SHA-256": hashlib.sha256,
    "SHA-384": hashlib.sha384,
    "SHA-512": hashlib.sha512,
}

Buffer = bytes | bytearray | memoryview


def _wrap_int32(value: int) -> int:
    """`value` as Java's 32-bit int arithmetic would leave it."""
    return ((value + 2**31) & 0xFFFFFFFF) - 2**31


def _abs(n: int) -> int:
    """Kafka's Utils.abs: the absolute value, with Integer.MIN_VALUE mapped to 0."""
    return 0 if n == _INT32_MIN else abs(n)


class OffsetMap(ABC):
    """A map from keys to the last offset seen for them."""

    @property
    @abstractmethod
    def slots(self) -> int:
        """How many entries the map can hold."""

    @abstractmethod
    def put(self, key: Buffer, offset: int) -> None:
        """Record `offset` as the latest offset of `key`."""

    @abstractmethod
    def get(self, key: Buffer) -> int:
        """The latest offset of `key`, or -1."""

    @abstractmethod
    def update_latest_offset(self, offset: int) -> None:
        """Set the latest offset the map covers."""

    @abstractmethod
    def clear(self) -> None:
        """Forget every entry."""

    @property
    @abstractmethod
    def size(self) -> int:
        """How many entries were put."""

    @property
    def utilization(self) -> float:
        """Fraction of the slots in use."""
        return self.size / self.slots

    @property
    @abstractmethod
    def latest_offset(self) -> int:
        """The latest offset put into (or declared to) the map."""


class SkimpyOffsetMap(OffsetMap):
    """An open-addressing hash table of (key digest, offset) slots over `memory` bytes. Not thread-safe."""

    def __init__(self, memory: int, hash_algorithm: str = "MD5") -> None:
        digest = _DIGESTS.get(hash_algorithm.upper())
        if digest is None:
            raise ValueError(f"{hash_algorithm} MessageDigest not available")
        self.memory = memory
        self.hash_algorithm = hash_algorithm
        self._digest = digest
        # PORT: Kafka allocates a zeroed heap ByteBuffer; an anonymous mapping is zero-filled too, but its pages only
        # take memory once the cleaner writes to them (the default log.cleaner.dedupe.buffer.size is 128 MB, which a
        # bytearray would make resident at start-up whether or not any compacted log is ever cleaned).
        self._bytes: bytearray | mmap.mmap = (
            mmap.mmap(-1, memory, flags=mmap.MAP_PRIVATE) if memory > 0 else bytearray(memory)
        )
        self._hash_size: int = digest().digest_size
        self._entries = 0
        self._lookups = 0
        self._probes = 0
        self._last_offset = -1
        self.bytes_per_entry = self._hash_size + 8
        self._slots = memory // self.bytes_per_entry
        # An entry is empty when its first 24 bytes are zero, as Kafka checks three longs.
        self._empty_check = bytes(24)

    @property
    def slots(self) -> int:
        """How many entries fit in the memory given."""
        return self._slots

    def _hash(self, key: Buffer) -> bytes:
        digest: bytes = self._digest(key).digest()
        return digest

    def _position_of(self, hash_: bytes, attempt: int) -> int:
        window = min(attempt, self._hash_size - 4)
        probe = _wrap_int32(_INT32.unpack_from(hash_, window)[0] + max(0, attempt - self._hash_size + 4))
        slot = _abs(probe) % self._slots
        self._probes += 1
        return slot * self.bytes_per_entry

    def _is_empty(self, position: int) -> bool:
        return self._bytes[position : position + 24] == self._empty_check

    def put(self, key: Buffer, offset: int) -> None:
        """Store `offset` for `key`, overwriting the offset of the same key."""
        if self._entries >= self._slots:
            raise ValueError("requirement failed: Attempt to add a new entry to a full offset map.")
        self._lookups += 1
        hash1 = self._hash(key)
        hash_size = self._hash_size
        data = self._bytes
        attempt = 0
        position = self._position_of(hash1, attempt)
        while not self._is_empty(position):
            if data[position : position + hash_size] == hash1:
                _INT64.pack_into(data, position + hash_size, offset)
                self._last_offset = offset
                return
            attempt += 1
            position = self._position_of(hash1, attempt)
        data[position : position + hash_size] = hash1
        _INT64.pack_into(data, position + hash_size, offset)
        self._last_offset = offset
        self._entries += 1

    def get(self, key: Buffer) -> int:
        """The offset stored for `key`, or -1."""
        self._lookups += 1
        hash1 = self._hash(key)
        hash_size = self._hash_size
        data = self._bytes
        # A full map would probe forever: stop once the linear phase has visited every slot.
        max_attempts = self._slots + hash_size - 4
        attempt = 0
        while True:
            if attempt >= max_attempts:
                return -1
            position = self._position_of(hash1, attempt)
            if self._is_empty(position):
                return -1
            attempt += 1
            if data[position : position + hash_size] == hash1:
                value: int = _INT64.unpack_from(data, position + hash_size)[0]
                return value

    def clear(self) -> None:
        """Zero the memory and the counters."""
        self._entries = 0
        self._lookups = 0
        self._probes = 0
        self._last_offset = -1
        if isinstance(self._bytes, mmap.mmap) and hasattr(mmap, "MADV_DONTNEED"):
            # Dropping a private anonymous mapping's pages makes them read as zeros again, without touching them.
            self._bytes.madvise(mmap.MADV_DONTNEED)
        else:
            self._bytes[:] = bytes(len(self._bytes))

    @property
    def size(self) -> int:
        """Entries put (keys stored)."""
        return self._entries

    @property
    def collision_rate(self) -> float:
        """Extra probes per lookup."""
        return (self._probes - self._lookups) / self._lookups

    @property
    def latest_offset(self) -> int:
        """The latest offset put or declared."""
        return self._last_offset

    def update_latest_offset(self, offset: int) -> None:
        """Declare the map complete up to `offset`."""
        self._last_offset = offset
