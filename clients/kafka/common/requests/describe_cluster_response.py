"""Port of clients/src/main/java/org/apache/kafka/common/requests/DescribeClusterResponse.java (Kafka 3.7).

The cluster id, controller id, brokers and authorized operations, or an error.
"""

from __future__ import annotations

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class DescribeClusterResponse(AbstractResponse):
    API_KEY = ApiKeys.DESCRIBE_CLUSTER

    def error_counts(self) -> dict[Errors, int]:
        return {Errors.for_code(self._data.error_code): 1}
