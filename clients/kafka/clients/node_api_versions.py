"""Port of clients/src/main/java/org/apache/kafka/clients/NodeApiVersions.java (Kafka 3.7).

The API version ranges one broker announced in its ApiVersions response, and the negotiation: the newest
version of an API within both the broker's range and the range a request builder allows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from kafka.common.errors import UnsupportedVersionException
from kafka.common.message import ApiVersionsResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.requests.api_versions_response import ApiVersionsResponse

__all__ = ["NodeApiVersions", "SupportedVersionRange"]


@dataclass(frozen=True, slots=True)
class SupportedVersionRange:
    """Port of org.apache.kafka.common.feature.SupportedVersionRange: a feature's [min, max] versions."""

    min: int
    max: int

    def __str__(self) -> str:
        return f"SupportedVersionRange[min_version:{self.min}, max_version:{self.max}]"


def _client_apis() -> list[ApiKeys]:
    """ApiKeys.clientApis(): the APIs a broker serves to clients (our ApiKeys holds only those of a
    ZooKeeper-mode broker)."""
    return list(ApiKeys)


class NodeApiVersions:
    """The usable versions of each API of one node; APIs the node has and this client does not know are
    kept for printing only."""

    def __init__(
        self,
        node_api_versions: Iterable[Any],
        node_supported_features: Iterable[Any] = (),
        zk_migration_enabled: bool = False,
    ) -> None:
        """From ApiVersionsResponseData.ApiVersion and SupportedFeatureKey entries."""
        self._supported_versions: dict[ApiKeys, Any] = {}
        self._unknown_apis: list[Any] = []
        for api_version in node_api_versions:
            if ApiKeys.has_id(api_version.api_key):
                self._supported_versions[ApiKeys.for_id(api_version.api_key)] = api_version
            else:
                # A newer broker may serve APIs this client has never heard of.
                self._unknown_apis.append(api_version)
        self._supported_features: Mapping[str, SupportedVersionRange] = {
            f.name: SupportedVersionRange(f.min_version, f.max_version) for f in node_supported_features
        }
        self._zk_migration_enabled = zk_migration_enabled

    @classmethod
    def create(
        cls,
        overrides: Iterable[Any] | int | None = None,
        min_version: int | None = None,
        max_version: int | None = None,
    ) -> NodeApiVersions:
        """A node that serves every client API at this client's full range, except as `overrides` (ApiVersion
        entries) say.

        # PORT: Java's create(apiKey, minVersion, maxVersion) is create(api_key_id, min, max)."""
        if isinstance(overrides, int):
            assert min_version is not None and max_version is not None
            overrides = [
                ApiVersionsResponseData.ApiVersion(api_key=overrides, min_version=min_version, max_version=max_version)
            ]
        api_versions = list(overrides or [])
        present = {v.api_key for v in api_versions}
        for api_key in _client_apis():
            if api_key.id not in present:
                api_versions.append(ApiVersionsResponse.to_api_version(api_key))
        return cls(api_versions, [], False)

    def latest_usable_version(
        self, api_key: ApiKeys, oldest_allowed_version: int | None = None, latest_allowed_version: int | None = None
    ) -> int:
        """The newest version of `api_key` both the node and [oldest_allowed, latest_allowed] (by default this
        client's whole range) contain; UnsupportedVersionException when there is none."""
        if oldest_allowed_version is None:
            oldest_allowed_version = api_key.oldest_version
        if latest_allowed_version is None:
            latest_allowed_version = api_key.latest_version()
        supported = self._supported_versions.get(api_key)
        if supported is None:
            raise UnsupportedVersionException(f"The node does not support {api_key.name}")
        lo = max(supported.min_version, oldest_allowed_version)
        hi = min(supported.max_version, latest_allowed_version)
        if lo <= hi:
            return int(hi)
        raise UnsupportedVersionException(
            f"The node does not support {api_key.name} with version in range [{oldest_allowed_version},"
            f"{latest_allowed_version}]. The supported range is [{supported.min_version},{supported.max_version}]."
        )

    def to_string(self, line_breaks: bool = False) -> str:
        """The node's APIs in api key order, each with its range and whether this client can use it, as
        kafka-broker-api-versions.sh prints them."""
        texts: dict[int, str] = {}
        for supported in self._supported_versions.values():
            texts[supported.api_key] = self._api_version_to_text(supported)
        for api_version in self._unknown_apis:
            texts[api_version.api_key] = self._api_version_to_text(api_version)
        # A node too old to know an API does not list it at all.
        for api_key in _client_apis():
            if api_key.id not in texts:
                texts[api_key.id] = f"{api_key.api_name}({api_key.id}): UNSUPPORTED"
        separator = ",\n\t" if line_breaks else ", "
        body = separator.join(texts[k] for k in sorted(texts))
        return "(" + ("\n\t" if line_breaks else "") + body + ("\n" if line_breaks else "") + ")"

    def __str__(self) -> str:
        return self.to_string(False)

    def _api_version_to_text(self, api_version: Any) -> str:
        api_key: ApiKeys | None = None
        if ApiKeys.has_id(api_version.api_key):
            api_key = ApiKeys.for_id(api_version.api_key)
            text = f"{api_key.api_name}({api_key.id}): "
        else:
            text = f"UNKNOWN({api_version.api_key}): "
        if api_version.min_version == api_version.max_version:
            text += str(api_version.min_version)
        else:
            text += f"{api_version.min_version} to {api_version.max_version}"
        if api_key is not None:
            supported = self._supported_versions[api_key]
            if api_key.latest_version() < supported.min_version:
                text += " [unusable: node too new]"
            elif supported.max_version < api_key.oldest_version:
                text += " [unusable: node too old]"
            else:
                text += f" [usable: {min(api_key.latest_version(), supported.max_version)}]"
        return text

    def api_version(self, api_key: ApiKeys) -> Any:
        """The node's ApiVersion entry of `api_key`, or None."""
        return self._supported_versions.get(api_key)

    def all_supported_api_versions(self) -> Mapping[ApiKeys, Any]:
        return self._supported_versions

    def supported_features(self) -> Mapping[str, SupportedVersionRange]:
        return self._supported_features

    def zk_migration_enabled(self) -> bool:
        return self._zk_migration_enabled
