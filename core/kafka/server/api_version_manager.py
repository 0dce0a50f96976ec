"""Port of core/src/main/scala/kafka/server/ApiVersionManager.scala (Kafka 2.8).

What the broker advertises in ApiVersions. The enabled APIs are exactly the keys KafkaApis has a handler
for (`KafkaApis.HANDLED_APIS`, taken from its handler table), each at every version of the 3.7 protocol (a
last version marked unstable only when `unstable.api.versions.enable` is set), so that nothing is advertised
that is not served. From v3 the
response also carries, as DefaultApiVersionManager's does, the broker's supported features and the
cluster's finalized features with their epoch, read from the FinalizedFeatureCache at every request: the
epoch is the /feature znode's version, and -1 (no finalized features) while the cache is empty.

# PORT: one class stands for Kafka's trait and its two implementations: built without `broker_features` and
# `feature_cache` it answers as SimpleApiVersionManager (no features, epoch -1), with them as
# DefaultApiVersionManager. A ZooKeeper-mode broker does not forward requests here, so there is no
# controller's version table to intersect with.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from kafka.common.message import ApiVersionsResponseData, ListenerType
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.requests.api_versions_response import UNKNOWN_FINALIZED_FEATURES_EPOCH, ApiVersionsResponse

if TYPE_CHECKING:
    from kafka.server.broker_features import BrokerFeatures
    from kafka.server.finalized_feature_cache import FinalizedFeatureCache


class ApiVersionManager:
    def __init__(
        self,
        listener_type: ListenerType,
        enabled_apis: Iterable[ApiKeys],
        enable_unstable_last_version: bool = False,
        broker_features: BrokerFeatures | None = None,
        feature_cache: FinalizedFeatureCache | None = None,
    ) -> None:
        self.listener_type = listener_type
        self._broker_features = broker_features
        self._feature_cache = feature_cache
        self.enable_unstable_last_version = enable_unstable_last_version
        # An API whose only version is unstable is not enabled unless unstable versions are.
        self.enabled_apis: frozenset[ApiKeys] = frozenset(
            k for k in enabled_apis if k.in_scope(listener_type) and k.has_valid_version(enable_unstable_last_version)
        )
        self._api_versions = ApiVersionsResponse.collect_apis(
            sorted(self.enabled_apis, key=lambda k: k.id), enable_unstable_last_version
        )

    def is_api_enabled(self, api_key: ApiKeys) -> bool:
        return api_key in self.enabled_apis

    def is_version_enabled(self, api_key: ApiKeys, version: int) -> bool:
        """Whether a request of this key and version is served (ApiVersions accepts any version)."""
        return api_key in self.enabled_apis and api_key.is_version_enabled(version, self.enable_unstable_last_version)

    def api_version_response(self, throttle_time_ms: int) -> ApiVersionsResponse:
        # The collection is shared between responses: nothing writes to it after construction.
        supported = {} if self._broker_features is None else self._broker_features.supported_features
        finalized = None if self._feature_cache is None else self._feature_cache.get()
        response = ApiVersionsResponse.create_api_versions_response(
            throttle_time_ms,
            self._api_versions,
            latest_supported_features=supported,
            finalized_features_epoch=UNKNOWN_FINALIZED_FEATURES_EPOCH if finalized is None else finalized.epoch,
        )
        if finalized is not None:
            # Each finalized feature with its (min, max) level range, as Kafka 2.8 writes both levels.
            for name, (min_level, max_level) in finalized.features.items():
                response.data.finalized_features.append(
                    ApiVersionsResponseData.FinalizedFeatureKey(
                        name=name, min_version_level=min_level, max_version_level=max_level
                    )
                )
        return response
