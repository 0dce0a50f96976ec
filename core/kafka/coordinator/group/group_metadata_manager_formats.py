"""Port of core/src/main/scala/kafka/coordinator/group/GroupMetadataManager.scala (Kafka 2.8), part 1.

The record formats of `__consumer_offsets`: keys and values of offset commits and of group metadata,
their readers and writers, and the kafka-console-consumer formatters that print them.

Every key and value starts with an int16 version, followed by the fields of that version
(strings: int16 length + UTF-8; nullable strings: length -1 for null; bytes: int32 length):

- offset commit key, versions 0 and 1: group, topic, partition (int32);
- offset commit value, versions 0-3: offset (int64), leader epoch (int32, v3 only), metadata,
  commit timestamp (int64), expire timestamp (int64, v1 only);
- group metadata key, version 2: group;
- group metadata value, versions 0-3: protocol type, generation (int32), protocol (nullable),
  leader (nullable), current state timestamp (int64, v2+), then an int32 count of members, each
  with member id, group instance id (nullable, v3+), client id, client host, rebalance timeout
  (int32, v1+), session timeout (int32), subscription (bytes), assignment (bytes).
"""

# PORT: Kafka keeps these in `object GroupMetadataManager`, the companion of the class that manages
# the offsets topic; that class is ported separately and uses this module. Kafka generates the four
# message classes from JSON schemas (OffsetCommitKey.json and friends); the formats are small and
# fixed, so they are written out here by hand.

from __future__ import annotations

import json
import struct
from collections.abc import Mapping
from dataclasses import dataclass
from typing import IO, Any

from kafka.common.errors import KafkaException
from kafka.common.message import ConsumerProtocolAssignmentData
from kafka.common.protocol.types import (
    INT16,
    INT32,
    INT64,
    Buffer,
    read_bytes,
    read_nullable_string,
    read_string,
    write_bytes,
    write_nullable_string,
    write_string,
)
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import Time
from kafka.coordinator.group.group_metadata import CONSUMER_PROTOCOL_TYPE, Empty, GroupMetadata, Stable
from kafka.coordinator.group.member_metadata import MemberMetadata
from kafka.coordinator.group.offset_and_metadata import OffsetAndMetadata
from kafka.server.kafka_config import KAFKA_0_10_1_IV0, KAFKA_2_1_IV0, KAFKA_2_1_IV1, KAFKA_2_3_IV0, ApiVersion

LATEST_API_VERSION: ApiVersion = ApiVersion.latest_version

OFFSET_COMMIT_KEY_VERSIONS = (0, 1)
OFFSET_COMMIT_KEY_VERSION = 1  # the highest, which Kafka writes
GROUP_METADATA_KEY_VERSION = 2
OFFSET_COMMIT_VALUE_VERSIONS = (0, 3)
GROUP_METADATA_VALUE_VERSIONS = (0, 3)

NO_PARTITION_LEADER_EPOCH = -1  # RecordBatch.NO_PARTITION_LEADER_EPOCH
DEFAULT_TIMESTAMP = -1  # OffsetCommitRequest.DEFAULT_TIMESTAMP


class IllegalStateException(RuntimeError):
    """Java's IllegalStateException, raised (as Kafka does) for an unknown record version or an impossible state.

    # PORT: Java's is a JDK class; the group coordinator's code shares this one."""


# ---- keys -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GroupTopicPartition:
    group: str
    topic_partition: TopicPartition

    def __str__(self) -> str:
        return f"[{self.group},{self.topic_partition.topic},{self.topic_partition.partition}]"


@dataclass(frozen=True, slots=True)
class BaseKey:
    """A decoded key of `__consumer_offsets`."""

    version: int


@dataclass(frozen=True, slots=True)
class OffsetKey(BaseKey):
    key: GroupTopicPartition

    def __str__(self) -> str:
        return str(self.key)


@dataclass(frozen=True, slots=True)
class GroupMetadataKey(BaseKey):
    key: str

    def __str__(self) -> str:
        return self.key


# ---- writers ----------------------------------------------------------------------------------------


def offset_commit_key(group_id: str, topic_partition: TopicPartition) -> bytes:
    out = bytearray(INT16.pack(OFFSET_COMMIT_KEY_VERSION))
    write_string(out, group_id)
    write_string(out, topic_partition.topic)
    out += INT32.pack(topic_partition.partition)
    return bytes(out)


def group_metadata_key(group_id: str) -> bytes:
    out = bytearray(INT16.pack(GROUP_METADATA_KEY_VERSION))
    write_string(out, group_id)
    return bytes(out)


def offset_commit_value_version(offset_and_metadata: OffsetAndMetadata, api_version: ApiVersion) -> int:
    """Version 1 before 2.1-IV0 or when the commit carries an explicit expiry, 2 before 2.1-IV1, else 3."""
    if api_version < KAFKA_2_1_IV0 or offset_and_metadata.expire_timestamp is not None:
        return 1
    if api_version < KAFKA_2_1_IV1:
        return 2
    return 3


def offset_commit_value(offset_and_metadata: OffsetAndMetadata, api_version: ApiVersion = LATEST_API_VERSION) -> bytes:
    version = offset_commit_value_version(offset_and_metadata, api_version)
    return _write_offset_commit_value(offset_and_metadata, version)


def _write_offset_commit_value(value: OffsetAndMetadata, version: int) -> bytes:
    out = bytearray(INT16.pack(version))
    out += INT64.pack(value.offset)
    if version >= 3:
        out += INT32.pack(NO_PARTITION_LEADER_EPOCH if value.leader_epoch is None else value.leader_epoch)
    write_string(out, value.metadata)
    out += INT64.pack(value.commit_timestamp)
    if version == 1:
        out += INT64.pack(DEFAULT_TIMESTAMP if value.expire_timestamp is None else value.expire_timestamp)
    return bytes(out)


def group_metadata_value_version(api_version: ApiVersion) -> int:
    if api_version < KAFKA_0_10_1_IV0:
        return 0
    if api_version < KAFKA_2_1_IV0:
        return 1
    if api_version < KAFKA_2_3_IV0:
        return 2
    return 3


def group_metadata_value(
    group: GroupMetadata, assignment: Mapping[str, bytes], api_version: ApiVersion = LATEST_API_VERSION
) -> bytes:
    """The value of a group's metadata record; `assignment` maps every member id to its assignment."""
    version = group_metadata_value_version(api_version)
    out = bytearray(INT16.pack(version))
    write_string(out, group.protocol_type or "")
    out += INT32.pack(group.generation_id)
    write_nullable_string(out, group.protocol_name)
    write_nullable_string(out, group.leader_or_null)
    if version >= 2:
        out += INT64.pack(group.current_state_timestamp_or_default)
    members = group.all_member_metadata
    out += INT32.pack(len(members))
    for member in members:
        if group.protocol_name is None:
            raise IllegalStateException("Attempted to write non-empty group metadata with no defined protocol.")
        subscription = member.metadata(group.protocol_name)
        member_assignment = assignment.get(member.member_id)
        if member_assignment is None:
            raise IllegalStateException(
                f"Attempted to write member {member.member_id} of group {group.group_id} with no assignment."
            )
        write_string(out, member.member_id)
        if version >= 3:
            write_nullable_string(out, member.group_instance_id)
        write_string(out, member.client_id)
        write_string(out, member.client_host)
        if version >= 1:
            out += INT32.pack(member.rebalance_timeout_ms)
        out += INT32.pack(member.session_timeout_ms)
        write_bytes(out, subscription)
        write_bytes(out, member_assignment)
    return bytes(out)


# ---- readers ----------------------------------------------------------------------------------------


def _read_version(buf: Buffer) -> int:
    if len(buf) < INT16.size:
        raise KafkaException(f"Record of {len(buf)} bytes is too short to hold a version")
    version: int = INT16.unpack_from(buf, 0)[0]
    return version


def _malformed(what: str, version: int, e: Exception) -> KafkaException:
    return KafkaException(f"Malformed {what} of version {version}: {e}")


def read_message_key(buf: Buffer) -> BaseKey:
    version = _read_version(buf)
    pos = INT16.size
    try:
        if OFFSET_COMMIT_KEY_VERSIONS[0] <= version <= OFFSET_COMMIT_KEY_VERSIONS[1]:
            group, pos = read_string(buf, pos)
            topic, pos = read_string(buf, pos)
            (partition,) = INT32.unpack_from(buf, pos)
            return OffsetKey(version, GroupTopicPartition(group, TopicPartition(topic, partition)))
        if version == GROUP_METADATA_KEY_VERSION:
            group, pos = read_string(buf, pos)
            return GroupMetadataKey(version, group)
    except (KafkaException, struct.error) as e:
        raise _malformed("group metadata message key", version, e) from e
    raise IllegalStateException(f"Unknown group metadata message version: {version}")


def read_offset_message_value(buf: Buffer | None) -> OffsetAndMetadata | None:
    """The offset commit in a value; None for a tombstone (no value)."""
    if buf is None:
        return None
    version = _read_version(buf)
    if not OFFSET_COMMIT_VALUE_VERSIONS[0] <= version <= OFFSET_COMMIT_VALUE_VERSIONS[1]:
        raise IllegalStateException(f"Unknown offset message version: {version}")
    pos = INT16.size
    try:
        (offset,) = INT64.unpack_from(buf, pos)
        pos += 8
        leader_epoch = NO_PARTITION_LEADER_EPOCH
        if version >= 3:
            (leader_epoch,) = INT32.unpack_from(buf, pos)
            pos += 4
        metadata, pos = read_string(buf, pos)
        (commit_timestamp,) = INT64.unpack_from(buf, pos)
        pos += 8
        expire_timestamp = DEFAULT_TIMESTAMP
        if version == 1:
            (expire_timestamp,) = INT64.unpack_from(buf, pos)
    except (KafkaException, struct.error) as e:
        raise _malformed("offset message value", version, e) from e
    return OffsetAndMetadata(
        offset=offset,
        leader_epoch=None if leader_epoch == NO_PARTITION_LEADER_EPOCH else leader_epoch,
        metadata=metadata,
        commit_timestamp=commit_timestamp,
        expire_timestamp=None if expire_timestamp == DEFAULT_TIMESTAMP else expire_timestamp,
    )


def read_group_message_value(group_id: str, buf: Buffer | None, time: Time) -> GroupMetadata | None:
    """The group in a value (Empty without members, else Stable); None for a tombstone."""
    if buf is None:
        return None
    version = _read_version(buf)
    if not GROUP_METADATA_VALUE_VERSIONS[0] <= version <= GROUP_METADATA_VALUE_VERSIONS[1]:
        raise IllegalStateException(f"Unknown group metadata message version: {version}")
    pos = INT16.size
    try:
        protocol_type, pos = read_string(buf, pos)
        (generation,) = INT32.unpack_from(buf, pos)
        pos += 4
        protocol, pos = read_nullable_string(buf, pos)
        leader, pos = read_nullable_string(buf, pos)
        current_state_timestamp = -1
        if version >= 2:
            (current_state_timestamp,) = INT64.unpack_from(buf, pos)
            pos += 8
        (count,) = INT32.unpack_from(buf, pos)
        pos += 4
        if count < 0 or count > len(buf) - pos:
            raise KafkaException(f"invalid member count {count}")
        members: list[MemberMetadata] = []
        for _ in range(count):
            member_id, pos = read_string(buf, pos)
            group_instance_id = None
            if version >= 3:
                group_instance_id, pos = read_nullable_string(buf, pos)
            client_id, pos = read_string(buf, pos)
            client_host, pos = read_string(buf, pos)
            rebalance_timeout = 0
            if version >= 1:
                (rebalance_timeout,) = INT32.unpack_from(buf, pos)
                pos += 4
            (session_timeout,) = INT32.unpack_from(buf, pos)
            pos += 4
            subscription, pos = read_bytes(buf, pos)
            assignment, pos = read_bytes(buf, pos)
            members.append(
                MemberMetadata(
                    member_id=member_id,
                    group_instance_id=group_instance_id,
                    client_id=client_id,
                    client_host=client_host,
                    rebalance_timeout_ms=session_timeout if version == 0 else rebalance_timeout,
                    session_timeout_ms=session_timeout,
                    protocol_type=protocol_type,
                    # PORT: Kafka stores a null protocol name here too; members only exist with one.
                    supported_protocols=[(protocol or "", subscription)],
                    assignment=assignment,
                )
            )
    except (KafkaException, struct.error) as e:
        raise _malformed("group metadata message value", version, e) from e
    return GroupMetadata.load_group(
        group_id=group_id,
        initial_state=Empty() if not members else Stable(),
        generation_id=generation,
        protocol_type=protocol_type,
        protocol_name=protocol,
        leader_id=leader,
        current_state_timestamp=None if current_state_timestamp == -1 else current_state_timestamp,
        members=members,
        time=time,
    )


# ---- formatters for kafka-console-consumer -----------------------------------------------------------


class OffsetsMessageFormatter:
    """Prints offset commit records as `[group,topic,partition]::OffsetAndMetadata(...)` (or `::NULL`)."""

    def write_to(self, key: bytes | None, value: bytes | None, output: IO[bytes]) -> None:
        if key is None:
            return
        base_key = read_message_key(key)
        if not isinstance(base_key, OffsetKey):
            return
        formatted = "NULL" if value is None else str(read_offset_message_value(value))
        output.write(f"{base_key.key}::{formatted}\n".encode())


class GroupMetadataMessageFormatter:
    """Prints group metadata records as `group::GroupMetadata(...)` (or `::NULL`)."""

    def __init__(self, time: Time = Time.SYSTEM) -> None:
        self._time = time

    def write_to(self, key: bytes | None, value: bytes | None, output: IO[bytes]) -> None:
        if key is None:
            return
        base_key = read_message_key(key)
        if not isinstance(base_key, GroupMetadataKey):
            return
        formatted = "NULL" if value is None else str(read_group_message_value(base_key.key, value, self._time))
        output.write(f"{base_key.key}::{formatted}\n".encode())


# ---- DumpLogSegments' decoder --------------------------------------------------------------------------


def _hex(data: bytes) -> str:
    # Kafka prints the bytes as one unsigned big integer in upper-case hex (leading zeros dropped).
    return "" if not data else format(int.from_bytes(data, "big"), "X")


def _assigned_partitions_text(assignment: Any) -> str:
    partitions = [f"{tp.topic}-{p}" for tp in assignment.assigned_partitions for p in tp.partitions]
    return "[" + ", ".join(partitions) + "]"


def format_record_key_and_value(key: Buffer | None, value: Buffer | None, time: Time = Time.SYSTEM) -> tuple[str, str]:
    """The key and value text DumpLogSegments prints for a record of `__consumer_offsets`."""
    if key is None:
        raise KafkaException("Failed to decode message using offset topic decoder (message had a missing key)")
    base_key = read_message_key(key)
    if isinstance(base_key, OffsetKey):
        gtp = base_key.key
        key_text = f"offset_commit::group={gtp.group},partition={gtp.topic_partition}"
        offset = read_offset_message_value(value)
        if offset is None:
            return key_text, "<DELETE>"
        if not offset.metadata:
            return key_text, f"offset={offset.offset}"
        return key_text, f"offset={offset.offset},metadata={offset.metadata}"
    if isinstance(base_key, GroupMetadataKey):
        group_id = base_key.key
        key_text = f"group_metadata::group={group_id}"
        group = read_group_message_value(group_id, value, time)
        if group is None:
            return key_text, "<DELETE>"
        protocol_type = group.protocol_type or ""
        parts = []
        for member in group.all_member_metadata:
            if protocol_type == CONSUMER_PROTOCOL_TYPE:
                data = ConsumerProtocolAssignmentData().read(memoryview(member.assignment)[INT16.size :], 0)
                partitions = _assigned_partitions_text(data)
                user_data = _hex(bytes(data.user_data)) if data.user_data is not None else ""
                parts.append(f"{member.member_id}={partitions}" + (f":{user_data}" if user_data else ""))
            else:
                parts.append(f"{member.member_id}={_hex(member.assignment)}")
        value_text = json.dumps(
            {
                "protocolType": protocol_type,
                "protocol": group.protocol_name,
                "generationId": group.generation_id,
                "assignment": "{" + ",".join(parts) + "}",
            },
            separators=(",", ":"),
        )
        return key_text, value_text
    raise KafkaException("Failed to decode message using offset topic decoder (message had an invalid key)")
