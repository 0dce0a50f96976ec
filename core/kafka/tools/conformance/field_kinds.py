"""What a field of a message definition is, as far as comparing two brokers' answers goes.

Each rule reads only the definition: the field's name, its type and its entity type (`brokerId`,
`producerId`, `topicName`, ...). The normaliser, the rewriter and the comparer act on the kind, never
on a field's path or on the text of a value:

| kind            | fields                                                           | normalised to         |
|-----------------|------------------------------------------------------------------|-----------------------|
| BROKER_ID       | entity brokerId (NodeId, LeaderId, ControllerId, ReplicaNodes..) | broker_id#n (-1 kept) |
| HOST            | string Host, ClientHost                                          | host#n                |
| PORT            | int32 Port                                                       | port#n                |
| CLUSTER_ID      | string ClusterId                                                 | cluster_id#n          |
| TIMESTAMP       | int64 *Timestamp*, LogAppendTimeMs, *TimestampMs                 | <timestamp> (-1 kept) |
| THROTTLE        | int32 ThrottleTimeMs                                             | <throttle>            |
| ERROR_MESSAGE   | string ErrorMessage, *ErrorMessage                               | <message> (null kept) |
| MEMBER_ID       | string MemberId, and JoinGroup's Leader                          | member_id#n ("" kept) |
| PRODUCER_ID     | entity producerId (int64)                                        | producer_id#n         |
| PRODUCER_EPOCH  | int16/int32 ProducerEpoch                                        | producer_epoch#n      |
| LEADER_EPOCH    | int32 *Epoch but SessionEpoch/ProducerEpoch/MemberEpoch; FinalizedFeaturesEpoch | leader_epoch#n |
| GENERATION_ID   | int32 GenerationId                                               | generation_id#n       |
| FETCH_SESSION_ID| int32 SessionId of Fetch                                         | fetch_session_id#n (0 kept) |
| TOPIC_ID        | uuid TopicId                                                     | topic_id#n (zero kept)|
| OFFSET          | int64 *Offset, *Offsets, HighWatermark, LowWatermark            | minus the partition's base |
| TOPIC_NAME      | entity topicName                                                 | kept (tracks the topic) |
| PARTITION       | int32 PartitionIndex, Partition, PartitionId, Index              | kept (tracks the partition) |

Negative numbers are sentinels ("none", "latest") in every numeric kind and are kept as they are. Error
messages are free text for people: librdkafka, the Java clients, aiokafka and kafka-python log them or put
them into an exception's message and never branch on them, so only their presence is compared. Member ids
are made by the broker (`client-id` + a UUID) and the client only echoes them, so they are compared by
identity (which member is which), not by text.

Not a port of a Kafka class.
"""

from __future__ import annotations

import enum

from kafka.common.message.spec import FieldSpec


class Kind(enum.Enum):
    BROKER_ID = "broker_id"
    HOST = "host"
    PORT = "port"
    CLUSTER_ID = "cluster_id"
    TIMESTAMP = "timestamp"
    THROTTLE = "throttle"
    ERROR_MESSAGE = "error_message"
    MEMBER_ID = "member_id"
    PRODUCER_ID = "producer_id"
    PRODUCER_EPOCH = "producer_epoch"
    LEADER_EPOCH = "leader_epoch"
    GENERATION_ID = "generation_id"
    FETCH_SESSION_ID = "fetch_session_id"
    TOPIC_ID = "topic_id"
    OFFSET = "offset"
    TOPIC_NAME = "topic_name"
    PARTITION = "partition"


# Kinds whose values are replaced by a per-session symbol numbered by first appearance, so that which
# values are equal survives while the values themselves do not matter.
RENAMED = frozenset(
    {
        Kind.BROKER_ID,
        Kind.HOST,
        Kind.PORT,
        Kind.CLUSTER_ID,
        Kind.MEMBER_ID,
        Kind.PRODUCER_ID,
        Kind.PRODUCER_EPOCH,
        Kind.LEADER_EPOCH,
        Kind.GENERATION_ID,
        Kind.FETCH_SESSION_ID,
        Kind.TOPIC_ID,
    }
)

# Kinds replaced by a fixed placeholder: only whether a value is there is compared.
PLACEHOLDERS = {
    Kind.TIMESTAMP: "<timestamp>",
    Kind.THROTTLE: "<throttle>",
    Kind.ERROR_MESSAGE: "<message>",
}

# Kinds a request takes from an earlier response: the rewriter maps them from recorded to replayed values.
BOUND = frozenset(
    {
        Kind.MEMBER_ID,
        Kind.PRODUCER_ID,
        Kind.PRODUCER_EPOCH,
        Kind.LEADER_EPOCH,
        Kind.GENERATION_ID,
        Kind.FETCH_SESSION_ID,
        Kind.TOPIC_ID,
    }
)

_PARTITION_NAMES = frozenset({"PartitionIndex", "Partition", "PartitionId", "Index"})
_OFFSET_NAMES = frozenset({"HighWatermark", "LowWatermark"})
_NOT_LEADER_EPOCHS = frozenset({"SessionEpoch", "ProducerEpoch", "MemberEpoch", "GroupEpoch"})
_INT_TYPES = frozenset({"int8", "int16", "int32", "int64"})


def classify(message_name: str, f: FieldSpec) -> Kind | None:
    """The kind of field `f` of the message `message_name` (`FetchResponse`), or None for a field compared
    exactly."""
    name = f.name
    t = f.element_type
    entity = f.entity_type
    if entity == "brokerId" and t in _INT_TYPES:
        return Kind.BROKER_ID
    if entity == "producerId" and t == "int64":
        return Kind.PRODUCER_ID
    if entity == "topicName" and t == "string":
        return Kind.TOPIC_NAME
    if t == "string":
        if name in ("Host", "ClientHost"):
            return Kind.HOST
        if name == "ClusterId":
            return Kind.CLUSTER_ID
        if name == "ErrorMessage" or name.endswith("ErrorMessage"):
            return Kind.ERROR_MESSAGE
        if name == "MemberId" or (name == "Leader" and message_name.startswith("JoinGroup")):
            return Kind.MEMBER_ID
        return None
    if t == "uuid":
        return Kind.TOPIC_ID if name == "TopicId" else None
    if t not in _INT_TYPES:
        return None
    if name == "ThrottleTimeMs":
        return Kind.THROTTLE
    if name == "Port" and t == "int32":
        return Kind.PORT
    if name in _PARTITION_NAMES and t == "int32":
        return Kind.PARTITION
    if name == "ProducerEpoch":
        return Kind.PRODUCER_EPOCH
    if name == "GenerationId":
        return Kind.GENERATION_ID
    if name == "SessionId" and message_name.startswith("Fetch"):
        return Kind.FETCH_SESSION_ID
    if t == "int64":
        if "Timestamp" in name or name == "LogAppendTimeMs":
            return Kind.TIMESTAMP
        if name.endswith("Offset") or name.endswith("Offsets") or name in _OFFSET_NAMES:
            return Kind.OFFSET
        if name == "FinalizedFeaturesEpoch":
            return Kind.LEADER_EPOCH
        return None
    if t == "int32" and name.endswith("Epoch") and name not in _NOT_LEADER_EPOCHS:
        return Kind.LEADER_EPOCH
    return None


def is_sentinel(kind: Kind, value: object) -> bool:
    """Values that mean "none" (or "latest", "earliest") and are compared as they are."""
    if value is None:
        return True
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return value < 0 or (value == 0 and kind is Kind.FETCH_SESSION_ID)
    if isinstance(value, str):
        return value == "" and kind is not Kind.ERROR_MESSAGE
    if kind is Kind.TOPIC_ID:
        return str(value) == "AAAAAAAAAAAAAAAAAAAAAA" or _is_zero_uuid(value)
    return False


def _is_zero_uuid(value: object) -> bool:
    to_bytes = getattr(value, "to_bytes", None)
    return bool(to_bytes is not None and to_bytes() == bytes(16))
