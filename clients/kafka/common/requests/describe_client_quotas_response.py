"""Port of clients/src/main/java/org/apache/kafka/common/requests/DescribeClientQuotasResponse.java (Kafka 3.7).

The matching entities with their quota values, or an error (with null entries).
"""

from __future__ import annotations

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class DescribeClientQuotasResponse(AbstractResponse):
    API_KEY = ApiKeys.DESCRIBE_CLIENT_QUOTAS

    def entries(self) -> dict[tuple[tuple[str, str | None], ...], dict[str, float]]:
        """The quota values of each entity, the entity as sorted (entity type, name) pairs."""
        result: dict[tuple[tuple[str, str | None], ...], dict[str, float]] = {}
        for entry in self._data.entries or []:
            entity = tuple(sorted(((e.entity_type, e.entity_name) for e in entry.entity), key=lambda x: x[0]))
            result[entity] = {v.key: v.value for v in entry.values}
        return result

    def error_counts(self) -> dict[Errors, int]:
        return {Errors.for_code(self._data.error_code): 1}
