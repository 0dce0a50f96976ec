"""Port of clients/src/main/java/org/apache/kafka/common/requests/UpdateFeaturesRequest.java (Kafka 3.7).

UpdateFeatures: change the finalized version levels of cluster features.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.api_error import ApiError
from kafka.common.requests.update_features_response import UpdateFeaturesResponse


class UpgradeType(enum.IntEnum):
    """Port of org.apache.kafka.clients.admin.FeatureUpdate.UpgradeType (the UpgradeType byte, v1+)."""

    UNKNOWN = 0
    UPGRADE = 1
    SAFE_DOWNGRADE = 2
    UNSAFE_DOWNGRADE = 3

    @classmethod
    def from_code(cls, code: int) -> UpgradeType:
        try:
            return cls(code)
        except ValueError:
            return cls.UNKNOWN


@dataclass(frozen=True, slots=True)
class FeatureUpdateItem:
    feature: str
    version_level: int
    upgrade_type: UpgradeType

    def is_delete_request(self) -> bool:
        return self.version_level < 1 and self.upgrade_type is not UpgradeType.UPGRADE


class UpdateFeaturesRequest(AbstractRequest[UpdateFeaturesResponse]):
    API_KEY = ApiKeys.UPDATE_FEATURES

    def get_feature(self, name: str) -> FeatureUpdateItem:
        """The update of one feature; at v0 the upgrade type follows from AllowDowngrade."""
        update = self._data.feature_updates.find(name)
        if self._version == 0:
            upgrade_type = UpgradeType.SAFE_DOWNGRADE if update.allow_downgrade else UpgradeType.UPGRADE
        else:
            upgrade_type = UpgradeType.from_code(update.upgrade_type)
        return FeatureUpdateItem(update.feature, update.max_version_level, upgrade_type)

    def feature_updates(self) -> list[FeatureUpdateItem]:
        return [self.get_feature(u.feature) for u in self._data.feature_updates]

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> UpdateFeaturesResponse:
        return UpdateFeaturesResponse.create_with_errors(ApiError.from_throwable(e), {}, throttle_time_ms)
