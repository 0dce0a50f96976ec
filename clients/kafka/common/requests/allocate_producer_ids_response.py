"""Port of clients/src/main/java/org/apache/kafka/common/requests/AllocateProducerIdsResponse.java (Kafka 3.7).

The first producer id of the block and its length, or an error.
"""

from __future__ import annotations

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class AllocateProducerIdsResponse(AbstractResponse):
    API_KEY = ApiKeys.ALLOCATE_PRODUCER_IDS

    def error(self) -> Errors:
        return Errors.for_code(self._data.error_code)

    def error_counts(self) -> dict[Errors, int]:
        return {self.error(): 1}
