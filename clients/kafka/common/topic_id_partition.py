"""Port of clients/src/main/java/org/apache/kafka/common/TopicIdPartition.java (Kafka 3.7).

A partition named both by its topic's id and by its TopicPartition: the key of the fetch path from Fetch v13 on,
where requests name topics by id. The topic name may be None, as Java's may be null, when a fetch names a topic
id this side does not know.
"""

from __future__ import annotations

from typing import cast

from kafka.common.protocol.types import Uuid
from kafka.common.topic_partition import TopicPartition

__all__ = ["TopicIdPartition"]


class TopicIdPartition:
    """A topic id with a TopicPartition; equal when both are equal, prints as `id:topic-partition`.

    # PORT: a small class with `__slots__` rather than a frozen dataclass: it is built once per partition of
    # every Fetch request and response, and a plain `__init__` is the cheaper one. The fields are read-only by
    # convention, as Java's are final. Java caches no hash; this one is computed once, since the fetch path keys
    # several dicts by it.
    """

    __slots__ = ("topic_id", "topic_partition", "_hash")

    topic_id: Uuid
    topic_partition: TopicPartition

    def __init__(self, topic_id: Uuid, topic_partition: TopicPartition) -> None:
        self.topic_id = topic_id
        self.topic_partition = topic_partition
        self._hash = hash((topic_id, topic_partition.topic, topic_partition.partition))

    @classmethod
    def of(cls, topic_id: Uuid, partition: int, topic: str | None) -> TopicIdPartition:
        """Java's `TopicIdPartition(Uuid, int, String)`, whose topic name may be null.

        # PORT: our TopicPartition types its topic as str; a None name is carried through it only here, for a
        # topic id the broker does not know, and read back through `topic`, typed `str | None`.
        """
        return cls(topic_id, TopicPartition(cast(str, topic), partition))

    @property
    def topic(self) -> str | None:
        return self.topic_partition.topic

    @property
    def partition(self) -> int:
        return self.topic_partition.partition

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, TopicIdPartition):
            return NotImplemented
        return self.topic_id == other.topic_id and self.topic_partition == other.topic_partition

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        return f"{self.topic_id}:{self.topic_partition.topic}-{self.topic_partition.partition}"

    def __repr__(self) -> str:
        return f"TopicIdPartition({self.topic_id!r}, {self.topic_partition!r})"
