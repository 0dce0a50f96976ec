"""Port of clients/src/main/java/org/apache/kafka/clients/admin/TopicDescription.java (Kafka 3.7).

What describeTopics says of a topic: name, whether internal, partitions (with leader, replicas and ISR), the
ACL operations the caller may perform (None when not asked for) and the topic id.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from kafka.common.acl.acl_operation import AclOperation
from kafka.common.protocol.types import ZERO_UUID, Uuid
from kafka.common.topic_partition_info import TopicPartitionInfo

__all__ = ["TopicDescription"]


@dataclass(frozen=True, slots=True)
class TopicDescription:
    """Equal by name, internal flag, partitions and authorized operations (not by topic id), as Java's."""

    name: str
    is_internal: bool
    partitions: tuple[TopicPartitionInfo, ...]
    authorized_operations: frozenset[AclOperation] | None = frozenset()
    topic_id: Uuid = field(default=ZERO_UUID, compare=False)

    def __init__(
        self,
        name: str,
        is_internal: bool,
        partitions: Iterable[TopicPartitionInfo],
        authorized_operations: Iterable[AclOperation] | None = frozenset(),
        topic_id: Uuid = ZERO_UUID,
    ) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "is_internal", is_internal)
        object.__setattr__(self, "partitions", tuple(partitions))
        object.__setattr__(
            self, "authorized_operations", None if authorized_operations is None else frozenset(authorized_operations)
        )
        object.__setattr__(self, "topic_id", topic_id)

    def __str__(self) -> str:
        ops = "null" if self.authorized_operations is None else str(sorted(o.name for o in self.authorized_operations))
        return (
            f"(name={self.name}, internal={str(self.is_internal).lower()}, "
            f"partitions={','.join(map(str, self.partitions))}, authorizedOperations={ops})"
        )
