"""Port of clients/src/main/java/org/apache/kafka/common/requests/UpdateMetadataResponse.java (Kafka 3.7).

A single error code.
"""

from __future__ import annotations

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class UpdateMetadataResponse(AbstractResponse):
    API_KEY = ApiKeys.UPDATE_METADATA

    def error(self) -> Errors:
        return Errors.for_code(self._data.error_code)

    def error_counts(self) -> dict[Errors, int]:
        return {self.error(): 1}
