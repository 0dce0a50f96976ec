"""Port of core/src/main/scala/kafka/server/ApiVersionManager.scala (Kafka 2.8).

What the broker advertises in ApiVersions. The enabled APIs are exactly the keys KafkaApis has a handler
for, each at every version of the 3.7 protocol (a last version marked unstable only when
`unstable.api.versions.enable` is set), so that nothing is advertised that is not served.

PORT: Kafka's DefaultApiVersionManager also intersects with the controller's versions for forwarded
APIs and adds finalized features; a ZooKeeper-mode broker without forwarding advertises no features,
which is what SimpleApiVersionManager does here.
"""

from __future__ import annotations

from collections.abc import Iterable

from kafka.common.message import ListenerType
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.requests.api_versions_response import ApiVersionsResponse


class ApiVersionManager:
    def __init__(
        self,
        listener_type: ListenerType,
        enabled_apis: Iterable[ApiKeys],
        enable_unstable_last_version: bool = False,
    ) -> None:
        self.listener_type = listener_type
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
        return ApiVersionsResponse.create_api_versions_response(throttle_time_ms, self._api_versions)
