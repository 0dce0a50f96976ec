"""Port of clients/src/main/java/org/apache/kafka/common/requests/ListPartitionReassignmentsResponse.java (Kafka 3.7).

The ongoing reassignments (replicas, adding and removing replicas) per partition, or an error.
"""

from __future__ import annotations

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class ListPartitionReassignmentsResponse(AbstractResponse):
    API_KEY = ApiKeys.LIST_PARTITION_REASSIGNMENTS
    CLIENT_THROTTLE_SINCE = 0

    def error_counts(self) -> dict[Errors, int]:
        return {Errors.for_code(self._data.error_code): 1}
