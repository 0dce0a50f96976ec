"""Port of clients/src/main/java/org/apache/kafka/common/requests/DescribeClientQuotasResponse.java (Kafka 3.7).

The matching entities with their quota values, or an error (with null entries).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kafka.common.message import DescribeClientQuotasResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.quota.client_quota_entity import ClientQuotaEntity
from kafka.common.requests.abstract_response import AbstractResponse

__all__ = ["DescribeClientQuotasResponse"]


class DescribeClientQuotasResponse(AbstractResponse):
    API_KEY = ApiKeys.DESCRIBE_CLIENT_QUOTAS

    def entries(self) -> dict[ClientQuotaEntity, dict[str, float]]:
        """The quota values of each entity (empty for an error response)."""
        result: dict[ClientQuotaEntity, dict[str, float]] = {}
        for entry in self._data.entries or []:
            entity = ClientQuotaEntity({e.entity_type: e.entity_name for e in entry.entity})
            result[entity] = {v.key: v.value for v in entry.values}
        return result

    def complete(self, future: Any) -> None:
        """Completes the admin client's future with the entities, or exceptionally with the response's error."""
        error = Errors.for_code(self._data.error_code)
        if error is not Errors.NONE:
            future.complete_exceptionally(error.exception(self._data.error_message))
            return
        future.complete(self.entries())

    def error_counts(self) -> dict[Errors, int]:
        return {Errors.for_code(self._data.error_code): 1}

    @staticmethod
    def from_quota_entities(
        entities: Mapping[ClientQuotaEntity, Mapping[str, float]], throttle_time_ms: int
    ) -> DescribeClientQuotasResponse:
        entries = [
            DescribeClientQuotasResponseData.EntryData(
                entity=[
                    DescribeClientQuotasResponseData.EntityData(entity_type=entity_type, entity_name=entity_name)
                    for entity_type, entity_name in entity.entries().items()
                ],
                values=[DescribeClientQuotasResponseData.ValueData(key=k, value=v) for k, v in values.items()],
            )
            for entity, values in entities.items()
        ]
        return DescribeClientQuotasResponse(
            DescribeClientQuotasResponseData(
                throttle_time_ms=throttle_time_ms, error_code=0, error_message=None, entries=entries
            )
        )
