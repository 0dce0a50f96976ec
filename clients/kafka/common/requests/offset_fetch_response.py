"""Port of clients/src/main/java/org/apache/kafka/common/requests/OffsetFetchResponse.java (Kafka 3.7).

Committed offset, leader epoch and metadata per partition, with a top-level error from v2 and per-group
results from v8. Before v2 a group-level error can only be told from the partition errors.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Self

from kafka.common.errors import UnsupportedVersionException
from kafka.common.message import OffsetFetchResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import DEFAULT_THROTTLE_TIME, AbstractResponse

INVALID_OFFSET = -1
NO_METADATA = ""
NO_PARTITION_LEADER_EPOCH = -1

# Partition errors that do not stand for an error of the whole group (see _top_level_error).
_PARTITION_ERRORS = (Errors.UNKNOWN_TOPIC_OR_PARTITION, Errors.TOPIC_AUTHORIZATION_FAILED)


@dataclass(frozen=True, slots=True)
class PartitionData:
    """The committed offset of one partition (Java's OffsetFetchResponse.PartitionData)."""

    offset: int
    leader_epoch: int | None
    metadata: str | None
    error: Errors

    def has_error(self) -> bool:
        return self.error is not Errors.NONE


UNKNOWN_PARTITION = PartitionData(INVALID_OFFSET, None, NO_METADATA, Errors.UNKNOWN_TOPIC_OR_PARTITION)
UNAUTHORIZED_PARTITION = PartitionData(INVALID_OFFSET, None, NO_METADATA, Errors.TOPIC_AUTHORIZATION_FAILED)


def _leader_epoch(p: PartitionData) -> int:
    return NO_PARTITION_LEADER_EPOCH if p.leader_epoch is None else p.leader_epoch


class OffsetFetchResponse(AbstractResponse):
    API_KEY = ApiKeys.OFFSET_FETCH
    CLIENT_THROTTLE_SINCE = 4

    def __init__(
        self,
        data: Any,
        version: int | None = None,
        *,
        error: Errors | None = None,
        group_level_errors: dict[str, Errors] | None = None,
    ) -> None:
        """Wraps v`version` data, reading the errors from it (Java's OffsetFetchResponse(data, version)); without
        a version, `error` (v0-7) or `group_level_errors` (v8+) are what the response was built with."""
        super().__init__(data)
        self._group_level_errors: dict[str, Errors] = dict(group_level_errors or {})
        self._error = error
        if version is not None:
            if version < 8:
                self._error = Errors.for_code(data.error_code) if version >= 2 else _top_level_error(data)
            else:
                self._error = None
                for group in data.groups:
                    self._group_level_errors[group.group_id] = Errors.for_code(group.error_code)

    @classmethod
    def _from_data(cls, data: Any, version: int) -> Self:
        return cls(data, version)

    @classmethod
    def of(
        cls,
        error: Errors,
        response_data: Mapping[tuple[str, int], PartitionData],
        throttle_time_ms: int = DEFAULT_THROTTLE_TIME,
    ) -> OffsetFetchResponse:
        """A v0-7 response: a top-level error and partition data keyed by (topic, partition)."""
        topics: dict[str, Any] = {}
        data = OffsetFetchResponseData(error_code=error.code, throttle_time_ms=throttle_time_ms)
        for (topic, partition), p in response_data.items():
            entry = topics.get(topic)
            if entry is None:
                entry = OffsetFetchResponseData.OffsetFetchResponseTopic(name=topic)
                topics[topic] = entry
                data.topics.append(entry)
            entry.partitions.append(
                OffsetFetchResponseData.OffsetFetchResponsePartition(
                    partition_index=partition,
                    error_code=p.error.code,
                    committed_offset=p.offset,
                    committed_leader_epoch=_leader_epoch(p),
                    metadata=p.metadata,
                )
            )
        return cls(data, error=error)

    @classmethod
    def of_groups(
        cls,
        throttle_time_ms: int,
        errors: Mapping[str, Errors],
        response_data: Mapping[str, Mapping[tuple[str, int], PartitionData]],
    ) -> OffsetFetchResponse:
        """A v8+ response: per group, an error and partition data keyed by (topic, partition)."""
        data = OffsetFetchResponseData(throttle_time_ms=throttle_time_ms)
        group_errors: dict[str, Errors] = {}
        for group_id, partitions in response_data.items():
            topics: dict[str, Any] = {}
            group = OffsetFetchResponseData.OffsetFetchResponseGroup(
                group_id=group_id, error_code=errors[group_id].code
            )
            for (topic, partition), p in partitions.items():
                entry = topics.get(topic)
                if entry is None:
                    entry = OffsetFetchResponseData.OffsetFetchResponseTopics(name=topic)
                    topics[topic] = entry
                    group.topics.append(entry)
                entry.partitions.append(
                    OffsetFetchResponseData.OffsetFetchResponsePartitions(
                        partition_index=partition,
                        error_code=p.error.code,
                        committed_offset=p.offset,
                        committed_leader_epoch=_leader_epoch(p),
                        metadata=p.metadata,
                    )
                )
            data.groups.append(group)
            group_errors[group_id] = errors[group_id]
        return cls(data, group_level_errors=group_errors)

    @classmethod
    def from_groups(cls, groups: list[Any], version: int) -> OffsetFetchResponse:
        """The response at `version` for v8-layout groups (OffsetFetchResponseGroup); below v8 there must be
        exactly one, and before v2 its error goes into every partition."""
        data = OffsetFetchResponseData()
        if version >= 8:
            data.groups = groups
            return cls(data, version)
        if len(groups) != 1:
            raise UnsupportedVersionException(f"Version {version} of OffsetFetchResponse only supports one group.")
        group = groups[0]
        data.error_code = group.error_code
        for topic in group.topics:
            new_topic = OffsetFetchResponseData.OffsetFetchResponseTopic(name=topic.name)
            data.topics.append(new_topic)
            for p in topic.partitions:
                if version < 2 and group.error_code != Errors.NONE.code:
                    new_partition = OffsetFetchResponseData.OffsetFetchResponsePartition(
                        partition_index=p.partition_index,
                        error_code=group.error_code,
                        committed_offset=INVALID_OFFSET,
                        metadata=NO_METADATA,
                        committed_leader_epoch=NO_PARTITION_LEADER_EPOCH,
                    )
                else:
                    new_partition = OffsetFetchResponseData.OffsetFetchResponsePartition(
                        partition_index=p.partition_index,
                        error_code=p.error_code,
                        committed_offset=p.committed_offset,
                        metadata=p.metadata,
                        committed_leader_epoch=p.committed_leader_epoch,
                    )
                new_topic.partitions.append(new_partition)
        return cls(data, error=Errors.for_code(group.error_code))

    def has_error(self) -> bool:
        return self._error is not Errors.NONE

    def group_has_error(self, group_id: str) -> bool:
        error = self._group_level_errors.get(group_id)
        if error is None:
            return self._error is not None and self._error is not Errors.NONE
        return error is not Errors.NONE

    def error(self) -> Errors | None:
        """The top-level error of a v0-7 response; None for a v8+ one."""
        return self._error

    def group_level_error(self, group_id: str) -> Errors | None:
        if self._error is not None:
            return self._error
        return self._group_level_errors.get(group_id)

    def error_counts(self) -> dict[Errors, int]:
        counts: dict[Errors, int] = {}
        if self._group_level_errors:
            for error in self._group_level_errors.values():
                self._update_error_counts(counts, error)
            for group in self._data.groups:
                for topic in group.topics:
                    for p in topic.partitions:
                        self._update_error_counts(counts, Errors.for_code(p.error_code))
        else:
            if self._error is not None:
                self._update_error_counts(counts, self._error)
            for topic in self._data.topics:
                for p in topic.partitions:
                    self._update_error_counts(counts, Errors.for_code(p.error_code))
        return counts

    def response_data_v0_to_v7(self) -> dict[tuple[str, int], PartitionData]:
        return {
            (topic.name, p.partition_index): PartitionData(
                p.committed_offset,
                None if p.committed_leader_epoch == NO_PARTITION_LEADER_EPOCH else p.committed_leader_epoch,
                p.metadata,
                Errors.for_code(p.error_code),
            )
            for topic in self._data.topics
            for p in topic.partitions
        }

    def partition_data_map(self, group_id: str) -> dict[tuple[str, int], PartitionData]:
        for group in self._data.groups:
            if group.group_id == group_id:
                return {
                    (topic.name, p.partition_index): PartitionData(
                        p.committed_offset,
                        None if p.committed_leader_epoch == NO_PARTITION_LEADER_EPOCH else p.committed_leader_epoch,
                        p.metadata,
                        Errors.for_code(p.error_code),
                    )
                    for topic in group.topics
                    for p in topic.partitions
                }
        return self.response_data_v0_to_v7() if self._error is not None else {}


def _top_level_error(data: Any) -> Errors:
    """A v0-1 response's group error: the first partition error that is not about that partition alone."""
    for topic in data.topics:
        for p in topic.partitions:
            error = Errors.for_code(p.error_code)
            if error is not Errors.NONE and error not in _PARTITION_ERRORS:
                return error
    return Errors.NONE
