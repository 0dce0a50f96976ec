"""Port of clients/src/main/java/org/apache/kafka/common/requests/AlterPartitionReassignmentsResponse.java (Kafka 3.7).

A top-level error and an error and message per partition.
"""

from __future__ import annotations

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class AlterPartitionReassignmentsResponse(AbstractResponse):
    API_KEY = ApiKeys.ALTER_PARTITION_REASSIGNMENTS
    CLIENT_THROTTLE_SINCE = 0

    def error_counts(self) -> dict[Errors, int]:
        counts = {Errors.for_code(self._data.error_code): 1}
        for topic in self._data.responses:
            for p in topic.partitions:
                self._update_error_counts(counts, Errors.for_code(p.error_code))
        return counts
