"""Port of clients/src/main/java/org/apache/kafka/common/requests/DescribeLogDirsRequest.java (Kafka 3.7).

DescribeLogDirs: the log directories of a broker and the size and lag of the replicas in them (all
partitions when the topic list is null).
"""

from __future__ import annotations

from kafka.common.message import DescribeLogDirsResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.describe_log_dirs_response import DescribeLogDirsResponse


class DescribeLogDirsRequest(AbstractRequest[DescribeLogDirsResponse]):
    API_KEY = ApiKeys.DESCRIBE_LOG_DIRS

    def is_all_topic_partitions(self) -> bool:
        return self._data.topics is None

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> DescribeLogDirsResponse:
        return DescribeLogDirsResponse(
            DescribeLogDirsResponseData(throttle_time_ms=throttle_time_ms, error_code=Errors.for_exception(e).code)
        )
