"""Port of clients/src/main/java/org/apache/kafka/common/requests/DeleteRecordsResponse.java (Kafka 3.7).

The new low watermark, or an error, per partition.
"""

from __future__ import annotations

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse

INVALID_LOW_WATERMARK = -1


class DeleteRecordsResponse(AbstractResponse):
    API_KEY = ApiKeys.DELETE_RECORDS
    CLIENT_THROTTLE_SINCE = 1
    INVALID_LOW_WATERMARK = INVALID_LOW_WATERMARK

    def error_counts(self) -> dict[Errors, int]:
        return self._error_counts_of_codes(p.error_code for t in self._data.topics for p in t.partitions)
