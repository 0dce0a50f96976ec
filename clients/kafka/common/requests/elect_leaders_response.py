"""Port of clients/src/main/java/org/apache/kafka/common/requests/ElectLeadersResponse.java (Kafka 3.7).

A top-level error (v1+) and an error and message per partition.
"""

from __future__ import annotations

from typing import Any

from kafka.common.message import ElectLeadersResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class ElectLeadersResponse(AbstractResponse):
    API_KEY = ApiKeys.ELECT_LEADERS
    CLIENT_THROTTLE_SINCE = 0

    @classmethod
    def of(
        cls, throttle_time_ms: int, error_code: int, election_results: list[Any], version: int
    ) -> ElectLeadersResponse:
        data = ElectLeadersResponseData(throttle_time_ms=throttle_time_ms, replica_election_results=election_results)
        if version >= 1:
            data.error_code = error_code
        return cls(data)

    def error_counts(self) -> dict[Errors, int]:
        counts = {Errors.for_code(self._data.error_code): 1}
        for result in self._data.replica_election_results:
            for p in result.partition_result:
                self._update_error_counts(counts, Errors.for_code(p.error_code))
        return counts

    def election_results(self) -> dict[tuple[str, int], Errors]:
        """The error of each (topic, partition) (None-free; NONE for a successful election)."""
        return {
            (r.topic, p.partition_id): Errors.for_code(p.error_code)
            for r in self._data.replica_election_results
            for p in r.partition_result
        }
