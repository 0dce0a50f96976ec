"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/ConsumerProtocol.java (Kafka 3.7).

The "consumer" protocol type's metadata in JoinGroup and SyncGroup: a member's Subscription and the
leader's Assignment, each written as a 2-byte version followed by a ConsumerProtocolSubscription or
ConsumerProtocolAssignment message (versions 0-3). A newer version than this code knows is read as the
newest known one (later versions only append fields); an older one than 0 is an error.
"""

from __future__ import annotations

import struct

from kafka.clients.consumer.consumer_partition_assignor import Assignment, Subscription
from kafka.common.errors import InvalidRequestException
from kafka.common.message import ConsumerProtocolAssignmentData, ConsumerProtocolSubscriptionData
from kafka.common.protocol.message import ByteBufferAccessor
from kafka.common.protocol.types import Buffer, SchemaException
from kafka.common.topic_partition import TopicPartition

__all__ = [
    "PROTOCOL_TYPE",
    "deserialize_assignment",
    "deserialize_subscription",
    "deserialize_version",
    "serialize_assignment",
    "serialize_subscription",
]

PROTOCOL_TYPE = "consumer"

_INT16 = struct.Struct(">h")

if (
    ConsumerProtocolSubscriptionData.LOWEST_SUPPORTED_VERSION != ConsumerProtocolAssignmentData.LOWEST_SUPPORTED_VERSION
    or ConsumerProtocolSubscriptionData.HIGHEST_SUPPORTED_VERSION
    != ConsumerProtocolAssignmentData.HIGHEST_SUPPORTED_VERSION
):
    raise RuntimeError("Subscription and Assignment schemas must have the same lowest and highest versions")

HIGHEST_SUPPORTED_VERSION: int = ConsumerProtocolSubscriptionData.HIGHEST_SUPPORTED_VERSION


def deserialize_version(buffer: ByteBufferAccessor) -> int:
    """Reads the 2-byte version at the accessor's position and moves past it."""
    if buffer.remaining() < 2:
        raise SchemaException("Buffer underflow while parsing consumer protocol's header")
    (version,) = _INT16.unpack_from(buffer.buffer, buffer.position)
    buffer.position += 2
    return int(version)


def _accessor(buffer: Buffer | ByteBufferAccessor) -> ByteBufferAccessor:
    return buffer if isinstance(buffer, ByteBufferAccessor) else ByteBufferAccessor(buffer)


def serialize_subscription(subscription: Subscription, version: int = HIGHEST_SUPPORTED_VERSION) -> bytes:
    """The version-prefixed subscription; topics and owned partitions are written sorted."""
    version = _check_subscription_version(version)
    data = ConsumerProtocolSubscriptionData()
    data.topics = sorted(subscription.topics)
    data.user_data = subscription.user_data
    partition = None
    for tp in sorted(subscription.owned_partitions):
        if partition is None or partition.topic != tp.topic:
            partition = ConsumerProtocolSubscriptionData.TopicPartition(topic=tp.topic)
            data.owned_partitions.append(partition)
        partition.partitions.append(tp.partition)
    if subscription.rack_id is not None:
        data.rack_id = subscription.rack_id
    data.generation_id = -1 if subscription.generation_id is None else subscription.generation_id
    return _INT16.pack(version) + data.write(version)


def deserialize_subscription(buffer: Buffer | ByteBufferAccessor, version: int | None = None) -> Subscription:
    """A subscription from its bytes; without `version`, the buffer starts with the version."""
    accessor = _accessor(buffer)
    if version is None:
        version = deserialize_version(accessor)
    version = _check_subscription_version(version)
    try:
        data = ConsumerProtocolSubscriptionData().read(accessor, version)
    except InvalidRequestException as e:
        raise SchemaException(f"Buffer underflow while parsing consumer protocol's subscription: {e}") from e
    owned = [TopicPartition(tp.topic, p) for tp in data.owned_partitions for p in tp.partitions]
    user_data = None if data.user_data is None else bytes(data.user_data)
    rack_id = data.rack_id if data.rack_id else None
    return Subscription(list(data.topics), user_data, owned, data.generation_id, rack_id)


def serialize_assignment(assignment: Assignment, version: int = HIGHEST_SUPPORTED_VERSION) -> bytes:
    """The version-prefixed assignment; partitions are grouped by topic in first-seen order."""
    version = _check_assignment_version(version)
    data = ConsumerProtocolAssignmentData()
    data.user_data = assignment.user_data
    for tp in assignment.partitions:
        partition = data.assigned_partitions.find(tp.topic)
        if partition is None:
            partition = ConsumerProtocolAssignmentData.TopicPartition(topic=tp.topic)
            data.assigned_partitions.append(partition)
        partition.partitions.append(tp.partition)
    return _INT16.pack(version) + data.write(version)


def deserialize_assignment(buffer: Buffer | ByteBufferAccessor, version: int | None = None) -> Assignment:
    """An assignment from its bytes; without `version`, the buffer starts with the version."""
    accessor = _accessor(buffer)
    if version is None:
        version = deserialize_version(accessor)
    version = _check_assignment_version(version)
    try:
        data = ConsumerProtocolAssignmentData().read(accessor, version)
    except InvalidRequestException as e:
        raise SchemaException(f"Buffer underflow while parsing consumer protocol's assignment: {e}") from e
    partitions = [TopicPartition(tp.topic, p) for tp in data.assigned_partitions for p in tp.partitions]
    user_data = None if data.user_data is None else bytes(data.user_data)
    return Assignment(partitions, user_data)


def _check_subscription_version(version: int) -> int:
    if version < ConsumerProtocolSubscriptionData.LOWEST_SUPPORTED_VERSION:
        raise SchemaException(f"Unsupported subscription version: {version}")
    return min(version, ConsumerProtocolSubscriptionData.HIGHEST_SUPPORTED_VERSION)


def _check_assignment_version(version: int) -> int:
    if version < ConsumerProtocolAssignmentData.LOWEST_SUPPORTED_VERSION:
        raise SchemaException(f"Unsupported assignment version: {version}")
    return min(version, ConsumerProtocolAssignmentData.HIGHEST_SUPPORTED_VERSION)
