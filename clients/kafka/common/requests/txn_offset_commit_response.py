"""Port of clients/src/main/java/org/apache/kafka/common/requests/TxnOffsetCommitResponse.java (Kafka 3.7).

One error per committed partition.
"""

from __future__ import annotations

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class TxnOffsetCommitResponse(AbstractResponse):
    API_KEY = ApiKeys.TXN_OFFSET_COMMIT
    CLIENT_THROTTLE_SINCE = 1

    def errors(self) -> dict[tuple[str, int], Errors]:
        return {
            (topic.name, p.partition_index): Errors.for_code(p.error_code)
            for topic in self._data.topics
            for p in topic.partitions
        }

    def error_counts(self) -> dict[Errors, int]:
        return self._error_counts_of_codes(p.error_code for t in self._data.topics for p in t.partitions)
