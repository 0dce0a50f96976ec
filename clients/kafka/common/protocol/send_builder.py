"""Port of clients/src/main/java/org/apache/kafka/common/protocol/SendBuilder.java.

Collects the encoding of a message as a list of parts: bytes written by the generated code, and
record sets kept as they are (a memoryview of in-memory records, or a FileRecords slice that the
network layer hands to os.sendfile). Nothing large is copied until someone asks for `to_bytes()`.

# PORT: Java's writeRecords adds every FileRecords as its own Send (transferTo). Here a slice under
# FILE_COPY_THRESHOLD is read into the frame instead, as small in-memory records are, while a response's copied slices
# stay within FILE_COPY_BUDGET: a response then goes out in one gathering write, where a slice of its own costs the
# network thread an fstat, a sendfile and a separate write of the bytes after it, and the peer a second wake-up when
# those arrive apart (a follower's fetch of one record, a consumer at the head of the log). The bytes on the wire are
# the same; a fetch over many partitions still sends all but its first few small slices with sendfile.
"""

from __future__ import annotations

from typing import Any

# Records smaller than this are copied into the byte buffer; larger ones become their own part.
ZERO_COPY_THRESHOLD = 4096
# The same for a slice of a log segment, read with one pread: under this, the read and the copy into the frame cost
# less than the system calls and the peer's wake-up they save.
FILE_COPY_THRESHOLD = 16384
# The most bytes of log segments one response reads into its frame, so that the copies stay small beside the
# zero-copy parts (a fetch answer of many partitions can reach fetch.max.bytes).
FILE_COPY_BUDGET = 65536


class SendBuilder:
    __slots__ = ("buf", "parts", "_parts_size", "_file_copy_left")

    def __init__(self) -> None:
        self.buf = bytearray()
        self.parts: list[Any] = []  # bytes, memoryview or FileRecords, in order, before `buf`
        self._parts_size = 0
        self._file_copy_left = FILE_COPY_BUDGET

    @property
    def size(self) -> int:
        return self._parts_size + len(self.buf)

    def _flush(self) -> None:
        if self.buf:
            self.parts.append(bytes(self.buf))
            self._parts_size += len(self.buf)
            self.buf = bytearray()

    def add_records(self, records: Any) -> None:
        """Appends a record set's bytes (the length prefix is the caller's). After this call `buf` may be
        a new bytearray: generated code re-reads it."""
        if isinstance(records, (bytes, bytearray, memoryview)):
            data: Any = records
        elif hasattr(records, "buffer"):
            data = records.buffer()
        else:  # FileRecords: a small slice is read into the frame, a larger one stays a zero-copy part
            size = records.size_in_bytes()
            if size == 0:
                return  # nothing to send (MultiRecordsSend would drop the part)
            if size < FILE_COPY_THRESHOLD and size <= self._file_copy_left:
                try:
                    self.buf += records.read_bytes()
                    self._file_copy_left -= size
                    return
                except (EOFError, OSError):
                    # Cut below the slice, or its file closed: as a part, its send fails where and as it did before
                    # (the network thread closes the connection, as Kafka's failed transferTo does), not in the
                    # thread building this response (a handler, or one completing a delayed fetch for another).
                    pass
            self._flush()
            self.parts.append(records)
            self._parts_size += size
            return
        if len(data) < ZERO_COPY_THRESHOLD:
            self.buf += data
        else:
            self._flush()
            self.parts.append(data)
            self._parts_size += len(data)

    def build(self) -> list[Any]:
        """The parts in order: bytes and memoryviews, and FileRecords to be sent with sendfile."""
        self._flush()
        return self.parts

    def to_bytes(self) -> bytes:
        if not self.parts:
            return bytes(self.buf)
        chunks = [p if isinstance(p, (bytes, bytearray, memoryview)) else p.read_bytes() for p in self.parts]
        chunks.append(self.buf)
        return b"".join(chunks)
