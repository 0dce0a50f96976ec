"""Port of clients/src/main/java/org/apache/kafka/common/requests/DeleteRecordsRequest.java (Kafka 3.7).

DeleteRecords: advance the log start offset of partitions, deleting the records before it.
"""

from __future__ import annotations

from kafka.common.message import DeleteRecordsResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.delete_records_response import INVALID_LOW_WATERMARK, DeleteRecordsResponse

HIGH_WATERMARK = -1
"""The offset that means 'up to the high watermark'."""


class DeleteRecordsRequest(AbstractRequest[DeleteRecordsResponse]):
    API_KEY = ApiKeys.DELETE_RECORDS

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> DeleteRecordsResponse:
        data = DeleteRecordsResponseData(throttle_time_ms=throttle_time_ms)
        error_code = Errors.for_exception(e).code
        for topic in self._data.topics:
            result = DeleteRecordsResponseData.DeleteRecordsTopicResult(name=topic.name)
            data.topics.append(result)
            for partition in topic.partitions:
                result.partitions.append(
                    DeleteRecordsResponseData.DeleteRecordsPartitionResult(
                        partition_index=partition.partition_index,
                        error_code=error_code,
                        low_watermark=INVALID_LOW_WATERMARK,
                    )
                )
        return DeleteRecordsResponse(data)
