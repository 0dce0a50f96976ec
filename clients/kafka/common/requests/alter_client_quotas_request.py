"""Port of clients/src/main/java/org/apache/kafka/common/requests/AlterClientQuotasRequest.java (Kafka 3.7).

AlterClientQuotas: set or remove quota values of client entities.
"""

from __future__ import annotations

from collections.abc import Iterable

from kafka.common.message import AlterClientQuotasRequestData, AlterClientQuotasResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.quota.client_quota_alteration import ClientQuotaAlteration
from kafka.common.quota.client_quota_entity import ClientQuotaEntity
from kafka.common.requests.abstract_request import AbstractRequest, DataBuilder
from kafka.common.requests.alter_client_quotas_response import AlterClientQuotasResponse

__all__ = ["AlterClientQuotasRequest", "AlterClientQuotasRequestBuilder"]


class AlterClientQuotasRequest(AbstractRequest[AlterClientQuotasResponse]):
    API_KEY = ApiKeys.ALTER_CLIENT_QUOTAS

    def validate_only(self) -> bool:
        return bool(self._data.validate_only)

    def entries(self) -> list[ClientQuotaAlteration]:
        """The request's alterations as the admin API's value classes (a removal has value None)."""
        return [
            ClientQuotaAlteration(
                ClientQuotaEntity({d.entity_type: d.entity_name for d in entry.entity}),
                [ClientQuotaAlteration.Op(op.key, None if op.remove else op.value) for op in entry.ops],
            )
            for entry in self._data.entries
        ]

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


def AlterClientQuotasRequestBuilder(
    entries: Iterable[ClientQuotaAlteration], validate_only: bool
) -> DataBuilder[AlterClientQuotasRequest]:
    """The request of the alterations: a removal is sent as value 0.0 with remove=true."""
    entry_data = [
        AlterClientQuotasRequestData.EntryData(
            entity=[
                AlterClientQuotasRequestData.EntityData(entity_type=t, entity_name=n)
                for t, n in entry.entity().entries().items()
            ],
            ops=[
                AlterClientQuotasRequestData.OpData(
                    key=op.key(), value=0.0 if op.value() is None else op.value(), remove=op.value() is None
                )
                for op in entry.ops()
            ],
        )
        for entry in entries
    ]
    return DataBuilder(
        AlterClientQuotasRequest, AlterClientQuotasRequestData(entries=entry_data, validate_only=validate_only)
    )
