"""Port of clients/src/main/java/org/apache/kafka/common/requests/DescribeProducersRequest.java (Kafka 3.7).

DescribeProducers: the active producers of partitions (for hanging-transaction tooling).
"""

from __future__ import annotations

from kafka.common.message import DescribeProducersResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.describe_producers_response import DescribeProducersResponse


class DescribeProducersRequest(AbstractRequest[DescribeProducersResponse]):
    API_KEY = ApiKeys.DESCRIBE_PRODUCERS

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> DescribeProducersResponse:
        # PORT: as in Java, the throttle time is not set in this error response.
        error = Errors.for_exception(e)
        data = DescribeProducersResponseData()
        for topic in self._data.topics:
            data.topics.append(
                DescribeProducersResponseData.TopicResponse(
                    name=topic.name,
                    partitions=[
                        DescribeProducersResponseData.PartitionResponse(partition_index=p, error_code=error.code)
                        for p in topic.partition_indexes
                    ],
                )
            )
        return DescribeProducersResponse(data)
