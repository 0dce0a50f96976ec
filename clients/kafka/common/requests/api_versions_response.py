"""Port of clients/src/main/java/org/apache/kafka/common/requests/ApiVersionsResponse.java (Kafka 3.7).

The version range of every API the broker serves on this listener, and (v3+, tagged) its supported and
finalized features. The helpers below build the broker's table from ApiKeys.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Self

from kafka.common.message import ApiVersionsResponseData, ListenerType
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.message import ByteBufferAccessor
from kafka.common.protocol.types import Buffer
from kafka.common.requests.abstract_response import DEFAULT_THROTTLE_TIME, AbstractResponse

UNKNOWN_FINALIZED_FEATURES_EPOCH = -1
_CURRENT_RECORD_VERSION = 2


class ApiVersionsResponse(AbstractResponse):
    API_KEY = ApiKeys.API_VERSIONS
    CLIENT_THROTTLE_SINCE = 2

    def api_version(self, api_key: int) -> Any:
        """The ApiVersion entry of an api key, or None."""
        return self._data.api_keys.find(api_key)

    def error_counts(self) -> dict[Errors, int]:
        return {Errors.for_code(self._data.error_code): 1}

    def zk_migration_ready(self) -> bool:
        return bool(self._data.zk_migration_ready)

    @classmethod
    def parse(cls, buffer: ByteBufferAccessor | Buffer, version: int) -> Self:
        """Reads a response at `version`, falling back to v0: a broker that did not know the version the
        client asked for answers in the v0 layout."""
        accessor = buffer if isinstance(buffer, ByteBufferAccessor) else ByteBufferAccessor(buffer)
        start = accessor.position
        try:
            return cls(ApiVersionsResponseData().read(accessor, version))
        except Exception:
            accessor.position = start
            if version == 0:
                raise
            return cls(ApiVersionsResponseData().read(accessor, 0))

    @staticmethod
    def to_api_version(api_key: ApiKeys, enable_unstable_last_version: bool = True) -> Any:
        """The ApiVersion entry of an API (by default counting an unstable last version, as Java's
        ApiKeys.latestVersion() does)."""
        return ApiVersionsResponseData.ApiVersion(
            api_key=api_key.id,
            min_version=api_key.oldest_version,
            max_version=api_key.latest_version(enable_unstable_last_version),
        )

    @staticmethod
    def _maybe_api_version(api_key: ApiKeys, enable_unstable_last_version: bool) -> Any:
        """ApiKeys.toApiVersion: None for an API that has no released version."""
        if not api_key.has_valid_version(enable_unstable_last_version):
            return None
        return ApiVersionsResponse.to_api_version(api_key, enable_unstable_last_version)

    @staticmethod
    def filter_apis(
        min_record_version: int = _CURRENT_RECORD_VERSION,
        listener_type: ListenerType = ListenerType.ZK_BROKER,
        enable_unstable_last_version: bool = False,
        client_telemetry_enabled: bool = False,
    ) -> Any:
        """The ApiVersion entries of the APIs a listener serves whose inter-broker record format needs are met
        by `min_record_version` (a record batch magic)."""
        api_keys = ApiVersionsResponseData.ApiVersionCollection()
        for api_key in ApiKeys:
            if not api_key.in_scope(listener_type):
                continue
            if api_key.min_required_inter_broker_magic <= min_record_version:
                entry = ApiVersionsResponse._maybe_api_version(api_key, enable_unstable_last_version)
                if entry is not None:
                    api_keys.append(entry)
        # PORT: Java also skips the telemetry APIs unless client_telemetry_enabled; they are not in our ApiKeys.
        del client_telemetry_enabled
        return api_keys

    @staticmethod
    def collect_apis(api_keys: Iterable[ApiKeys], enable_unstable_last_version: bool = False) -> Any:
        result = ApiVersionsResponseData.ApiVersionCollection()
        for api_key in api_keys:
            entry = ApiVersionsResponse._maybe_api_version(api_key, enable_unstable_last_version)
            if entry is not None:
                result.append(entry)
        return result

    @staticmethod
    def intersect_forwardable_apis(
        listener_type: ListenerType,
        min_record_version: int,
        active_controller_api_versions: Mapping[ApiKeys, Any],
        enable_unstable_last_version: bool = False,
        client_telemetry_enabled: bool = False,
    ) -> Any:
        """Like filter_apis, but an API the broker forwards to the controller is limited to the versions the
        controller serves too (and left out if there are none)."""
        del client_telemetry_enabled
        api_keys = ApiVersionsResponseData.ApiVersionCollection()
        for api_key in ApiKeys:
            if not api_key.in_scope(listener_type) or api_key.min_required_inter_broker_magic > min_record_version:
                continue
            broker_version = ApiVersionsResponse._maybe_api_version(api_key, enable_unstable_last_version)
            if broker_version is None:
                continue
            if api_key.forwardable:
                final = ApiVersionsResponse.intersect(broker_version, active_controller_api_versions.get(api_key))
                if final is None:
                    continue
            else:
                final = broker_version
            api_keys.append(final.duplicate())
        return api_keys

    @staticmethod
    def intersect(this_version: Any, other: Any) -> Any:
        """The common range of two ApiVersion entries of the same API, or None."""
        if this_version is None or other is None:
            return None
        if this_version.api_key != other.api_key:
            raise ValueError(
                f"thisVersion.apiKey: {this_version.api_key} must be equal to other.apiKey: {other.api_key}"
            )
        min_version = max(this_version.min_version, other.min_version)
        max_version = min(this_version.max_version, other.max_version)
        if min_version > max_version:
            return None
        return ApiVersionsResponseData.ApiVersion(
            api_key=this_version.api_key, min_version=min_version, max_version=max_version
        )

    @classmethod
    def create_api_versions_response(
        cls,
        throttle_time_ms: int,
        api_versions: Any,
        latest_supported_features: Mapping[str, tuple[int, int]] | None = None,
        finalized_features: Mapping[str, int] | None = None,
        finalized_features_epoch: int = UNKNOWN_FINALIZED_FEATURES_EPOCH,
        zk_migration_enabled: bool = False,
    ) -> ApiVersionsResponse:
        """The response listing `api_versions` (an ApiVersionCollection), with supported features as name ->
        (min, max) and finalized features as name -> version level."""
        data = ApiVersionsResponseData(
            throttle_time_ms=throttle_time_ms,
            error_code=Errors.NONE.code,
            api_keys=api_versions,
            finalized_features_epoch=finalized_features_epoch,
            zk_migration_ready=zk_migration_enabled,
        )
        for name, (lo, hi) in (latest_supported_features or {}).items():
            data.supported_features.append(
                ApiVersionsResponseData.SupportedFeatureKey(name=name, min_version=lo, max_version=hi)
            )
        for name, level in (finalized_features or {}).items():
            data.finalized_features.append(
                ApiVersionsResponseData.FinalizedFeatureKey(name=name, min_version_level=level, max_version_level=level)
            )
        return cls(data)

    @classmethod
    def default_api_versions_response(
        cls,
        throttle_time_ms: int = DEFAULT_THROTTLE_TIME,
        listener_type: ListenerType = ListenerType.ZK_BROKER,
        min_record_version: int = _CURRENT_RECORD_VERSION,
        enable_unstable_last_version: bool = False,
    ) -> ApiVersionsResponse:
        """The response of a broker without features: every API of the listener at its full version range."""
        return cls.create_api_versions_response(
            throttle_time_ms, cls.filter_apis(min_record_version, listener_type, enable_unstable_last_version)
        )
