"""Port of clients/src/main/java/org/apache/kafka/common/requests/ElectLeadersRequest.java (Kafka 3.7).

ElectLeaders: run a preferred (or, v1+, unclean) leader election for partitions (all when the list is null).
"""

from __future__ import annotations

from kafka.common.message import ElectLeadersResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.api_error import ApiError
from kafka.common.requests.elect_leaders_response import ElectLeadersResponse


class ElectLeadersRequest(AbstractRequest[ElectLeadersResponse]):
    API_KEY = ApiKeys.ELECT_LEADERS

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> ElectLeadersResponse:
        api_error = ApiError.from_throwable(e)
        results = []
        if self._data.topic_partitions is not None:
            for topic in self._data.topic_partitions:
                results.append(
                    ElectLeadersResponseData.ReplicaElectionResult(
                        topic=topic.topic,
                        partition_result=[
                            ElectLeadersResponseData.PartitionResult(
                                partition_id=p, error_code=api_error.error.code, error_message=api_error.message
                            )
                            for p in topic.partitions
                        ],
                    )
                )
        return ElectLeadersResponse.of(throttle_time_ms, api_error.error.code, results, self._version)
