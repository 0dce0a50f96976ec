"""Port of clients/src/main/java/org/apache/kafka/common/requests/AlterClientQuotasResponse.java (Kafka 3.7).

An error and message per entity.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kafka.common.message import AlterClientQuotasResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.quota.client_quota_entity import ClientQuotaEntity
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.api_error import ApiError

__all__ = ["AlterClientQuotasResponse"]


class AlterClientQuotasResponse(AbstractResponse):
    API_KEY = ApiKeys.ALTER_CLIENT_QUOTAS

    def complete(self, futures: Mapping[ClientQuotaEntity, Any]) -> None:
        """Completes each entity's future with its entry's outcome; ValueError for an entity not asked about."""
        for entry_data in self._data.entries:
            entity = ClientQuotaEntity({e.entity_type: e.entity_name for e in entry_data.entity})
            future = futures.get(entity)
            if future is None:
                raise ValueError(f"Future map must contain entity {entity}")
            error = Errors.for_code(entry_data.error_code)
            if error is Errors.NONE:
                future.complete(None)
            else:
                future.complete_exceptionally(error.exception(entry_data.error_message))

    def error_counts(self) -> dict[Errors, int]:
        return self._error_counts_of_codes(e.error_code for e in self._data.entries)

    @staticmethod
    def from_quota_entities(
        result: Mapping[ClientQuotaEntity, ApiError], throttle_time_ms: int
    ) -> AlterClientQuotasResponse:
        entries = [
            AlterClientQuotasResponseData.EntryData(
                error_code=error.error.code,
                error_message=error.message,
                entity=[
                    AlterClientQuotasResponseData.EntityData(entity_type=t, entity_name=n)
                    for t, n in entity.entries().items()
                ],
            )
            for entity, error in result.items()
        ]
        return AlterClientQuotasResponse(
            AlterClientQuotasResponseData(throttle_time_ms=throttle_time_ms, entries=entries)
        )
