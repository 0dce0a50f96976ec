"""Port of clients/src/main/java/org/apache/kafka/common/requests/AlterClientQuotasResponse.java (Kafka 3.7).

An error and message per entity.
"""

from __future__ import annotations

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class AlterClientQuotasResponse(AbstractResponse):
    API_KEY = ApiKeys.ALTER_CLIENT_QUOTAS

    def error_counts(self) -> dict[Errors, int]:
        return self._error_counts_of_codes(e.error_code for e in self._data.entries)
