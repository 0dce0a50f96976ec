"""Port of clients/src/main/java/org/apache/kafka/common/requests/ProduceResponse.java (Kafka 3.7).

The outcome of a produce request per partition: error, base offset, log append time, log start offset,
errors of individual records, and (v10+) the current leader when the broker is no longer it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from kafka.common.message import ProduceResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import DEFAULT_THROTTLE_TIME, AbstractResponse

INVALID_OFFSET = -1
NO_TIMESTAMP = -1


@dataclass(frozen=True, slots=True)
class RecordError:
    """The index of a rejected record in its batch, and why."""

    batch_index: int
    message: str | None = None


@dataclass(slots=True)
class PartitionResponse:
    """What the broker reports for one partition (Java's ProduceResponse.PartitionResponse)."""

    error: Errors
    base_offset: int = INVALID_OFFSET
    last_offset: int = INVALID_OFFSET
    log_append_time: int = NO_TIMESTAMP
    log_start_offset: int = INVALID_OFFSET
    record_errors: list[RecordError] = field(default_factory=list)
    error_message: str | None = None
    current_leader: Any = None  # ProduceResponseData.LeaderIdAndEpoch, or None for the default


class ProduceResponse(AbstractResponse):
    API_KEY = ApiKeys.PRODUCE
    CLIENT_THROTTLE_SINCE = 6
    INVALID_OFFSET = INVALID_OFFSET

    @classmethod
    def from_partition_responses(
        cls,
        responses: Mapping[tuple[str, int], PartitionResponse],
        throttle_time_ms: int = DEFAULT_THROTTLE_TIME,
        node_endpoints: Iterable[Any] = (),
    ) -> ProduceResponse:
        """The response for partition results keyed by (topic, partition), grouped by topic in first-seen order;
        `node_endpoints` are Node-like objects (id, host, port, rack)."""
        data = ProduceResponseData(throttle_time_ms=throttle_time_ms)
        for (topic, partition), response in responses.items():
            topic_response = data.responses.find(topic)
            if topic_response is None:
                topic_response = ProduceResponseData.TopicProduceResponse(name=topic)
                data.responses.append(topic_response)
            leader = response.current_leader
            topic_response.partition_responses.append(
                ProduceResponseData.PartitionProduceResponse(
                    index=partition,
                    base_offset=response.base_offset,
                    log_start_offset=response.log_start_offset,
                    log_append_time_ms=response.log_append_time,
                    error_message=response.error_message,
                    error_code=response.error.code,
                    current_leader=leader if leader is not None else ProduceResponseData.LeaderIdAndEpoch(),
                    record_errors=[
                        ProduceResponseData.BatchIndexAndErrorMessage(
                            batch_index=e.batch_index, batch_index_error_message=e.message
                        )
                        for e in response.record_errors
                    ],
                )
            )
        for node in node_endpoints:
            data.node_endpoints.append(
                ProduceResponseData.NodeEndpoint(node_id=node.id, host=node.host, port=node.port, rack=node.rack)
            )
        return cls(data)

    def error_counts(self) -> dict[Errors, int]:
        return self._error_counts_of_codes(p.error_code for t in self._data.responses for p in t.partition_responses)
