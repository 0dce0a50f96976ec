"""Port of clients/src/main/java/org/apache/kafka/common/requests/WriteTxnMarkersResponse.java (Kafka 3.7).

An error per partition for each producer's marker.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kafka.common.message import WriteTxnMarkersResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class WriteTxnMarkersResponse(AbstractResponse):
    API_KEY = ApiKeys.WRITE_TXN_MARKERS

    @classmethod
    def of(cls, errors: Mapping[int, Mapping[tuple[str, int], Errors]]) -> WriteTxnMarkersResponse:
        """The response for errors keyed by producer id, then (topic, partition)."""
        data = WriteTxnMarkersResponseData()
        for producer_id, per_partition in errors.items():
            topics: dict[str, Any] = {}
            for (topic, partition), error in per_partition.items():
                entry = topics.get(topic)
                if entry is None:
                    entry = WriteTxnMarkersResponseData.WritableTxnMarkerTopicResult(name=topic)
                    topics[topic] = entry
                entry.partitions.append(
                    WriteTxnMarkersResponseData.WritableTxnMarkerPartitionResult(
                        error_code=error.code, partition_index=partition
                    )
                )
            data.markers.append(
                WriteTxnMarkersResponseData.WritableTxnMarkerResult(
                    producer_id=producer_id, topics=list(topics.values())
                )
            )
        return cls(data)

    def errors_by_producer_id(self) -> dict[int, dict[tuple[str, int], Errors]]:
        return {
            marker.producer_id: {
                (topic.name, p.partition_index): Errors.for_code(p.error_code)
                for topic in marker.topics
                for p in topic.partitions
            }
            for marker in self._data.markers
        }

    def error_counts(self) -> dict[Errors, int]:
        return self._error_counts_of_codes(
            p.error_code for marker in self._data.markers for topic in marker.topics for p in topic.partitions
        )
