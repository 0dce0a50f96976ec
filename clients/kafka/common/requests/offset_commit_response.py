"""Port of clients/src/main/java/org/apache/kafka/common/requests/OffsetCommitResponse.java (Kafka 3.7).

One error per committed partition.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kafka.common.message import OffsetCommitResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import DEFAULT_THROTTLE_TIME, AbstractResponse


class OffsetCommitResponse(AbstractResponse):
    API_KEY = ApiKeys.OFFSET_COMMIT
    CLIENT_THROTTLE_SINCE = 4

    @classmethod
    def of(
        cls, response_data: Mapping[tuple[str, int], Errors], throttle_time_ms: int = DEFAULT_THROTTLE_TIME
    ) -> OffsetCommitResponse:
        """The response for an error per (topic, partition), grouped by topic in first-seen order."""
        topics: dict[str, Any] = {}
        data = OffsetCommitResponseData(throttle_time_ms=throttle_time_ms)
        for (topic, partition), error in response_data.items():
            entry = topics.get(topic)
            if entry is None:
                entry = OffsetCommitResponseData.OffsetCommitResponseTopic(name=topic)
                topics[topic] = entry
                data.topics.append(entry)
            entry.partitions.append(
                OffsetCommitResponseData.OffsetCommitResponsePartition(partition_index=partition, error_code=error.code)
            )
        return cls(data)

    def error_counts(self) -> dict[Errors, int]:
        return self._error_counts_of_codes(p.error_code for t in self._data.topics for p in t.partitions)
