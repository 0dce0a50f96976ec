"""Port of clients/src/main/java/org/apache/kafka/common/requests/AlterClientQuotasRequest.java (Kafka 3.7).

AlterClientQuotas: set or remove quota values of client entities.
"""

from __future__ import annotations

from kafka.common.message import AlterClientQuotasResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.alter_client_quotas_response import AlterClientQuotasResponse


class AlterClientQuotasRequest(AbstractRequest[AlterClientQuotasResponse]):
    API_KEY = ApiKeys.ALTER_CLIENT_QUOTAS

    def validate_only(self) -> bool:
        return bool(self._data.validate_only)

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> AlterClientQuotasResponse:
        error = Errors.for_exception(e)
        entries = [
            AlterClientQuotasResponseData.EntryData(
                entity=[
                    AlterClientQuotasResponseData.EntityData(entity_type=d.entity_type, entity_name=d.entity_name)
                    for d in entry.entity
                ],
                error_code=error.code,
                error_message=error.message,
            )
            for entry in self._data.entries
        ]
        return AlterClientQuotasResponse(
            AlterClientQuotasResponseData(throttle_time_ms=throttle_time_ms, entries=entries)
        )
