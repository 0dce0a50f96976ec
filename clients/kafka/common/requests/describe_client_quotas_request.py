"""Port of clients/src/main/java/org/apache/kafka/common/requests/DescribeClientQuotasRequest.java (Kafka 3.7).

DescribeClientQuotas: the quotas of the client entities (user, client id, IP) that match a filter.
"""

from __future__ import annotations

from kafka.common.message import DescribeClientQuotasRequestData, DescribeClientQuotasResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.quota.client_quota_filter import ClientQuotaFilter
from kafka.common.quota.client_quota_filter_component import ClientQuotaFilterComponent
from kafka.common.requests.abstract_request import AbstractRequest, DataBuilder
from kafka.common.requests.api_error import ApiError
from kafka.common.requests.describe_client_quotas_response import DescribeClientQuotasResponse

__all__ = [
    "MATCH_TYPE_DEFAULT",
    "MATCH_TYPE_EXACT",
    "MATCH_TYPE_SPECIFIED",
    "DescribeClientQuotasRequest",
    "DescribeClientQuotasRequestBuilder",
]

# Match types of a filter component.
MATCH_TYPE_EXACT = 0
MATCH_TYPE_DEFAULT = 1
MATCH_TYPE_SPECIFIED = 2


class DescribeClientQuotasRequest(AbstractRequest[DescribeClientQuotasResponse]):
    API_KEY = ApiKeys.DESCRIBE_CLIENT_QUOTAS

    def filter(self) -> ClientQuotaFilter:
        """The request's filter as the admin API's value class; IllegalArgumentException-like ValueError for an
        unknown match type."""
        components = []
        for component_data in self._data.components:
            match component_data.match_type:
                case 0:
                    component = ClientQuotaFilterComponent.of_entity(component_data.entity_type, component_data.match)
                case 1:
                    component = ClientQuotaFilterComponent.of_default_entity(component_data.entity_type)
                case 2:
                    component = ClientQuotaFilterComponent.of_entity_type(component_data.entity_type)
                case other:
                    raise ValueError(f"Unexpected match type: {other}")
            components.append(component)
        if self._data.strict:
            return ClientQuotaFilter.contains_only(components)
        return ClientQuotaFilter.contains(components)

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> DescribeClientQuotasResponse:
        error = ApiError.from_throwable(e)
        return DescribeClientQuotasResponse(
            DescribeClientQuotasResponseData(
                throttle_time_ms=throttle_time_ms,
                error_code=error.error.code,
                error_message=error.message,
                entries=None,
            )
        )


def DescribeClientQuotasRequestBuilder(
    quota_filter: ClientQuotaFilter,
) -> DataBuilder[DescribeClientQuotasRequest]:
    """The request of a filter: each component's match becomes EXACT with the name, DEFAULT, or SPECIFIED."""
    component_data = []
    for component in quota_filter.components():
        if component.matches_any():
            match_type, match_name = MATCH_TYPE_SPECIFIED, None
        elif component.match() is None:
            match_type, match_name = MATCH_TYPE_DEFAULT, None
        else:
            match_type, match_name = MATCH_TYPE_EXACT, component.match()
        component_data.append(
            DescribeClientQuotasRequestData.ComponentData(
                entity_type=component.entity_type(), match_type=match_type, match=match_name
            )
        )
    data = DescribeClientQuotasRequestData(components=component_data, strict=quota_filter.strict())
    return DataBuilder(DescribeClientQuotasRequest, data)
