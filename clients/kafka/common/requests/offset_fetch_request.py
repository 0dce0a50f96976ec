"""Port of clients/src/main/java/org/apache/kafka/common/requests/OffsetFetchRequest.java (Kafka 3.7).

OffsetFetch: the committed offsets of a group's partitions (all of them when the topic list is null,
v2+); from v8 several groups in one request.
"""

from __future__ import annotations

from typing import Any

from kafka.common.errors import UnsupportedVersionException
from kafka.common.message import OffsetFetchRequestData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.offset_fetch_response import (
    INVALID_OFFSET,
    NO_METADATA,
    OffsetFetchResponse,
    PartitionData,
)


class NoBatchedOffsetFetchRequestException(UnsupportedVersionException):
    """The broker is too old to fetch the offsets of several groups in one request."""


class OffsetFetchRequest(AbstractRequest[OffsetFetchResponse]):
    API_KEY = ApiKeys.OFFSET_FETCH

    def partitions(self) -> list[tuple[str, int]] | None:
        """The (topic, partition)s asked for before v8; None when all partitions are."""
        if self.is_all_partitions():
            return None
        return [(t.name, p) for t in self._data.topics for p in t.partition_indexes]

    def group_id(self) -> str:
        return str(self._data.group_id)

    def require_stable(self) -> bool:
        return bool(self._data.require_stable)

    def groups(self) -> list[Any]:
        """The groups in the v8+ layout, whatever the version."""
        if self._version >= 8:
            return list(self._data.groups)
        group = OffsetFetchRequestData.OffsetFetchRequestGroup(group_id=self._data.group_id)
        if self._data.topics is None:
            group.topics = None
        else:
            group.topics = [
                OffsetFetchRequestData.OffsetFetchRequestTopics(name=t.name, partition_indexes=t.partition_indexes)
                for t in self._data.topics
            ]
        return [group]

    def group_ids_to_partitions(self) -> dict[str, list[tuple[str, int]] | None]:
        result: dict[str, list[tuple[str, int]] | None] = {}
        for group in self._data.groups:
            if group.topics is None:
                result[group.group_id] = None
            else:
                result[group.group_id] = [(t.name, p) for t in group.topics for p in t.partition_indexes]
        return result

    def group_ids_to_topics(self) -> dict[str, list[Any] | None]:
        return {g.group_id: g.topics for g in self._data.groups}

    def group_ids(self) -> list[str]:
        return [g.group_id for g in self._data.groups]

    def is_all_partitions(self) -> bool:
        return self._data.topics is None

    def is_all_partitions_for_group(self, group_id: str) -> bool:
        group = next(g for g in self._data.groups if g.group_id == group_id)
        return group.topics is None

    def get_error_response_for(self, throttle_time_ms: int, error: Errors) -> OffsetFetchResponse:
        """The error response for `error` (Java's getErrorResponse(int, Errors)). v0-1 have no top-level error,
        so it goes into every partition; v2-7 carry it at the top; v8+ per group."""
        partitions: dict[tuple[str, int], PartitionData] = {}
        if self._version < 2:
            partition_error = PartitionData(INVALID_OFFSET, None, NO_METADATA, error)
            for topic in self._data.topics:
                for index in topic.partition_indexes:
                    partitions[(topic.name, index)] = partition_error
            return OffsetFetchResponse.of(error, partitions)
        if self._version == 2:
            return OffsetFetchResponse.of(error, partitions)
        if self._version < 8:
            return OffsetFetchResponse.of(error, partitions, throttle_time_ms)
        group_ids = self.group_ids()
        return OffsetFetchResponse.of_groups(
            throttle_time_ms, dict.fromkeys(group_ids, error), {g: partitions for g in group_ids}
        )

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> OffsetFetchResponse:
        return self.get_error_response_for(throttle_time_ms, Errors.for_exception(e))
