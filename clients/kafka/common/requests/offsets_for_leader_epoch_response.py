"""Port of clients/src/main/java/org/apache/kafka/common/requests/OffsetsForLeaderEpochResponse.java (Kafka 3.7).

The end offset of the requested leader epoch (or the largest epoch below it) per partition.
"""

from __future__ import annotations

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse

UNDEFINED_EPOCH_OFFSET = -1
UNDEFINED_EPOCH = -1


class OffsetsForLeaderEpochResponse(AbstractResponse):
    API_KEY = ApiKeys.OFFSET_FOR_LEADER_EPOCH

    def error_counts(self) -> dict[Errors, int]:
        return self._error_counts_of_codes(p.error_code for t in self._data.topics for p in t.partitions)
