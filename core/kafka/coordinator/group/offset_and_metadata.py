"""Port of core/src/main/scala/kafka/common/OffsetAndMetadata.scala (Kafka 2.8).

A committed offset as the group coordinator keeps it: the offset, the leader epoch the client saw
(if it sent one), free-form metadata, when it was committed and, for commits written by old
clients, an explicit expiry time.
"""

# PORT: Kafka declares this case class in the package `kafka.common` of core. In this port
# `kafka.common` is the clients package (org.apache.kafka.common), so the class lives next to its
# only users, the group coordinator modules.

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from kafka.utils.core_utils import scala_option


def _scala_optional(value: int | None) -> str:
    return "Optional.empty" if value is None else f"Optional[{value}]"


@dataclass(frozen=True, slots=True)
class OffsetAndMetadata:
    """One committed offset; `None` stands for Java's empty Optional / Scala's None."""

    NO_METADATA: ClassVar[str] = ""

    offset: int
    leader_epoch: int | None
    metadata: str
    commit_timestamp: int
    expire_timestamp: int | None

    @classmethod
    def create(
        cls, offset: int, metadata: str, commit_timestamp: int, expire_timestamp: int | None = None
    ) -> OffsetAndMetadata:
        """The companion object's short constructors: no leader epoch, optional expiry."""
        return cls(offset, None, metadata, commit_timestamp, expire_timestamp)

    def __str__(self) -> str:
        # The text kafka-console-consumer prints through OffsetsMessageFormatter.
        return (
            f"OffsetAndMetadata(offset={self.offset}"
            f", leaderEpoch={_scala_optional(self.leader_epoch)}"
            f", metadata={self.metadata}"
            f", commitTimestamp={self.commit_timestamp}"
            f", expireTimestamp={scala_option(self.expire_timestamp)})"
        )
