"""Port of clients/src/main/java/org/apache/kafka/common/requests/UpdateFeaturesResponse.java (Kafka 3.7).

A top-level error and message, and an error and message per feature.
"""

from __future__ import annotations

from collections.abc import Mapping

from kafka.common.message import UpdateFeaturesResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.api_error import ApiError


class UpdateFeaturesResponse(AbstractResponse):
    API_KEY = ApiKeys.UPDATE_FEATURES

    def top_level_error(self) -> ApiError:
        return ApiError(Errors.for_code(self._data.error_code), self._data.error_message)

    def error_counts(self) -> dict[Errors, int]:
        counts = {Errors.for_code(self._data.error_code): 1}
        for result in self._data.results:
            self._update_error_counts(counts, Errors.for_code(result.error_code))
        return counts

    @classmethod
    def create_with_errors(
        cls, top_level_error: ApiError, update_errors: Mapping[str, ApiError], throttle_time_ms: int
    ) -> UpdateFeaturesResponse:
        data = UpdateFeaturesResponseData(
            throttle_time_ms=throttle_time_ms,
            error_code=top_level_error.error.code,
            error_message=top_level_error.message,
        )
        for feature, error in update_errors.items():
            data.results.append(
                UpdateFeaturesResponseData.UpdatableFeatureResult(
                    feature=feature, error_code=error.error.code, error_message=error.message
                )
            )
        return cls(data)
