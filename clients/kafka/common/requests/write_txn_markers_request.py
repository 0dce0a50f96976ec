"""Port of clients/src/main/java/org/apache/kafka/common/requests/WriteTxnMarkersRequest.java (Kafka 3.7).

WriteTxnMarkers: the transaction coordinator asks partition leaders to write commit or abort markers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kafka.common.message import WriteTxnMarkersRequestData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest, Builder
from kafka.common.requests.transaction_result import TransactionResult
from kafka.common.requests.write_txn_markers_response import WriteTxnMarkersResponse


@dataclass(frozen=True, slots=True)
class TxnMarkerEntry:
    """One marker to write: producer, epoch, coordinator epoch, outcome and (topic, partition)s."""

    producer_id: int
    producer_epoch: int
    coordinator_epoch: int
    transaction_result: TransactionResult
    partitions: tuple[tuple[str, int], ...]


class WriteTxnMarkersRequest(AbstractRequest[WriteTxnMarkersResponse]):
    API_KEY = ApiKeys.WRITE_TXN_MARKERS

    def markers(self) -> list[TxnMarkerEntry]:
        return [
            TxnMarkerEntry(
                m.producer_id,
                m.producer_epoch,
                m.coordinator_epoch,
                TransactionResult.for_id(bool(m.transaction_result)),
                tuple((t.name, p) for t in m.topics for p in t.partition_indexes),
            )
            for m in self._data.markers
        ]

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> WriteTxnMarkersResponse:
        error = Errors.for_exception(e)
        errors: dict[int, dict[tuple[str, int], Errors]] = {}
        for marker in self._data.markers:
            per_partition: dict[tuple[str, int], Errors] = {}
            for topic in marker.topics:
                for partition in topic.partition_indexes:
                    per_partition[(topic.name, partition)] = error
            errors[marker.producer_id] = per_partition
        return WriteTxnMarkersResponse.of(errors)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, WriteTxnMarkersRequest) and self._data == other._data

    __hash__ = None  # type: ignore[assignment]


class WriteTxnMarkersRequestBuilder(Builder[WriteTxnMarkersRequest]):
    """Port of WriteTxnMarkersRequest.Builder: the request at exactly `version` for `markers`, each marker's
    partitions grouped by topic."""

    def __init__(self, version: int, markers: list[TxnMarkerEntry]) -> None:
        super().__init__(ApiKeys.WRITE_TXN_MARKERS, version)
        data = WriteTxnMarkersRequestData()
        for marker in markers:
            topics: dict[str, WriteTxnMarkersRequestData.WritableTxnMarkerTopic] = {}
            for topic, partition in marker.partitions:
                entry = topics.get(topic)
                if entry is None:
                    entry = topics[topic] = WriteTxnMarkersRequestData.WritableTxnMarkerTopic(name=topic)
                entry.partition_indexes.append(partition)
            data.markers.append(
                WriteTxnMarkersRequestData.WritableTxnMarker(
                    producer_id=marker.producer_id,
                    producer_epoch=marker.producer_epoch,
                    coordinator_epoch=marker.coordinator_epoch,
                    transaction_result=marker.transaction_result.id,
                    topics=list(topics.values()),
                )
            )
        self.data = data

    def _build(self, version: int) -> WriteTxnMarkersRequest:
        return WriteTxnMarkersRequest(self.data, version)

    def __str__(self) -> str:
        return repr(self.data)
