"""Port of clients/src/main/java/org/apache/kafka/common/requests/DescribeLogDirsResponse.java (Kafka 3.7).

Per log directory: an error, the replicas in it with size, offset lag and whether they are future
replicas, and (v4+) total and usable bytes.
"""

from __future__ import annotations

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse

INVALID_OFFSET_LAG = -1
UNKNOWN_VOLUME_BYTES = -1


class DescribeLogDirsResponse(AbstractResponse):
    API_KEY = ApiKeys.DESCRIBE_LOG_DIRS
    CLIENT_THROTTLE_SINCE = 1

    def error_counts(self) -> dict[Errors, int]:
        counts = {Errors.for_code(self._data.error_code): 1}
        for result in self._data.results:
            self._update_error_counts(counts, Errors.for_code(result.error_code))
        return counts
