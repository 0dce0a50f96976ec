"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/OffsetAndMetadata.java (Kafka 3.7).

An offset to commit (or a committed one): the next offset to read, the leader epoch of the record
before it when known, and free-form metadata.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["OffsetAndMetadata"]

_NO_METADATA = ""


@dataclass(frozen=True, slots=True, init=False)
class OffsetAndMetadata:
    """A committed position. Metadata None is stored as "" (the broker does the same).

    # PORT: Java's Optional leader epoch is `leader_epoch: int | None`; a negative epoch reads as None."""

    offset: int
    metadata: str
    _leader_epoch: int | None

    def __init__(self, offset: int, metadata: str | None = "", leader_epoch: int | None = None) -> None:
        if offset < 0:
            raise ValueError("Invalid negative offset")
        object.__setattr__(self, "offset", offset)
        object.__setattr__(self, "metadata", _NO_METADATA if metadata is None else metadata)
        object.__setattr__(self, "_leader_epoch", leader_epoch)

    @property
    def leader_epoch(self) -> int | None:
        epoch = self._leader_epoch
        return None if epoch is None or epoch < 0 else epoch

    def __repr__(self) -> str:
        epoch = "null" if self._leader_epoch is None else self._leader_epoch
        return f"OffsetAndMetadata{{offset={self.offset}, leaderEpoch={epoch}, metadata='{self.metadata}'}}"
