"""Port of clients/src/main/java/org/apache/kafka/common/requests/DescribeClusterRequest.java (Kafka 3.7).

DescribeCluster: the cluster id, controller and brokers (for the admin client).
"""

from __future__ import annotations

from kafka.common.message import DescribeClusterResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.api_error import ApiError
from kafka.common.requests.describe_cluster_response import DescribeClusterResponse


class DescribeClusterRequest(AbstractRequest[DescribeClusterResponse]):
    API_KEY = ApiKeys.DESCRIBE_CLUSTER

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> DescribeClusterResponse:
        # PORT: as in Java, the throttle time is not set in this error response.
        api_error = ApiError.from_throwable(e)
        return DescribeClusterResponse(
            DescribeClusterResponseData(error_code=api_error.error.code, error_message=api_error.message)
        )
