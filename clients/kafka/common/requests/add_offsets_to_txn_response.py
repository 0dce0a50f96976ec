"""Port of clients/src/main/java/org/apache/kafka/common/requests/AddOffsetsToTxnResponse.java (Kafka 3.7).

A single error code.
"""

from __future__ import annotations

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class AddOffsetsToTxnResponse(AbstractResponse):
    API_KEY = ApiKeys.ADD_OFFSETS_TO_TXN
    CLIENT_THROTTLE_SINCE = 1

    def error_counts(self) -> dict[Errors, int]:
        return {Errors.for_code(self._data.error_code): 1}
