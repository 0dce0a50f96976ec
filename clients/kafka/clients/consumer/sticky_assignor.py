"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/StickyAssignor.java (Kafka 3.7).

The "sticky" assignor (EAGER protocol): balanced assignments that keep partitions where they were. As the
eager protocol revokes everything before joining, each member sends what it owned (and its generation) in
its subscription's user data, in Kafka's sticky-assignor user-data layout (v1: previous assignment and
generation; v0: previous assignment only).
"""

from __future__ import annotations

import struct

from kafka.clients.consumer.consumer_group_metadata import ConsumerGroupMetadata
from kafka.clients.consumer.consumer_partition_assignor import Assignment, Subscription
from kafka.clients.consumer.internals.abstract_sticky_assignor import AbstractStickyAssignor, MemberData
from kafka.common.topic_partition import TopicPartition

__all__ = ["StickyAssignor"]

_INT16 = struct.Struct(">h")
_INT32 = struct.Struct(">i")


class StickyAssignor(AbstractStickyAssignor):
    STICKY_ASSIGNOR_NAME = "sticky"

    def __init__(self) -> None:
        super().__init__()
        self._member_assignment: list[TopicPartition] | None = None
        self._generation = self.DEFAULT_GENERATION

    def name(self) -> str:
        return self.STICKY_ASSIGNOR_NAME

    def on_assignment(self, assignment: Assignment, metadata: ConsumerGroupMetadata) -> None:
        self._member_assignment = list(assignment.partitions)
        self._generation = metadata.generation_id

    def subscription_user_data(self, topics: set[str]) -> bytes | None:
        if self._member_assignment is None:
            return None
        return self.serialize_topic_partition_assignment(MemberData(self._member_assignment, self._generation))

    def member_data(self, subscription: Subscription) -> MemberData:
        # The eager protocol revokes everything before joining: what was owned travels in the user data.
        user_data = subscription.user_data
        if not user_data:
            return MemberData([], None, subscription.rack_id)
        return self._deserialize_topic_partition_assignment(user_data)

    @staticmethod
    def serialize_topic_partition_assignment(member_data: MemberData) -> bytes:
        """The v1 user data: [topic, [partition]] per topic, then the generation."""
        by_topic: dict[str, list[int]] = {}
        for tp in member_data.partitions:
            by_topic.setdefault(tp.topic, []).append(tp.partition)
        out = bytearray(_INT32.pack(len(by_topic)))
        for topic, partitions in by_topic.items():
            encoded = topic.encode("utf-8")
            out += _INT16.pack(len(encoded)) + encoded
            out += _INT32.pack(len(partitions))
            for p in partitions:
                out += _INT32.pack(p)
        if member_data.generation is not None:
            out += _INT32.pack(member_data.generation)
        return bytes(out)

    @staticmethod
    def _deserialize_topic_partition_assignment(buffer: bytes) -> MemberData:
        try:
            partitions, pos = _read_assignment(buffer)
            (generation,) = _INT32.unpack_from(buffer, pos)
            return MemberData(partitions, int(generation))
        except (struct.error, UnicodeDecodeError, ValueError):
            pass
        try:
            # The older (v0) layout has no generation.
            partitions, _ = _read_assignment(buffer)
            return MemberData(partitions, None)
        except (struct.error, UnicodeDecodeError, ValueError):
            # A previous assignment that cannot be read is ignored.
            return MemberData([], StickyAssignor.DEFAULT_GENERATION)


def _read_assignment(buffer: bytes) -> tuple[list[TopicPartition], int]:
    pos = 0
    (num_topics,) = _INT32.unpack_from(buffer, pos)
    pos += 4
    if num_topics < 0:
        raise ValueError("negative topic count")
    partitions: list[TopicPartition] = []
    for _ in range(num_topics):
        (length,) = _INT16.unpack_from(buffer, pos)
        pos += 2
        if length < 0 or pos + length > len(buffer):
            raise ValueError("bad topic length")
        topic = bytes(buffer[pos : pos + length]).decode("utf-8")
        pos += length
        (count,) = _INT32.unpack_from(buffer, pos)
        pos += 4
        if count < 0:
            raise ValueError("negative partition count")
        for _ in range(count):
            (p,) = _INT32.unpack_from(buffer, pos)
            pos += 4
            partitions.append(TopicPartition(topic, p))
    return partitions, pos
