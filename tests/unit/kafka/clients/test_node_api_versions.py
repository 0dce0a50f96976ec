"""Tests of kafka.clients.node_api_versions and api_versions (Kafka's NodeApiVersionsTest and ApiVersionsTest):
version negotiation and the kafka-broker-api-versions.sh style description of a node's APIs."""

from __future__ import annotations

import pytest

from kafka.clients.api_versions import ApiVersions
from kafka.clients.node_api_versions import NodeApiVersions
from kafka.common.errors import UnsupportedVersionException
from kafka.common.message import ApiVersionsResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.record.record_batch import CURRENT_MAGIC_VALUE
from kafka.common.requests.api_versions_response import ApiVersionsResponse

ApiVersion = ApiVersionsResponseData.ApiVersion


def test_unsupported_versions_to_string() -> None:
    """A node announcing nothing shows every client API as UNSUPPORTED, in api key order."""
    versions = NodeApiVersions([], [], False)
    expected = "(" + ", ".join(f"{k.api_name}({k.id}): UNSUPPORTED" for k in ApiKeys) + ")"
    assert str(versions) == expected


def test_unknown_api_versions_to_string() -> None:
    """An api key this client does not know is shown as UNKNOWN."""
    assert str(NodeApiVersions.create(337, 0, 1)).endswith("UNKNOWN(337): 0 to 1)")


def test_versions_to_string() -> None:
    """Each API shows its range and the version this client would use, or why it cannot use it."""
    version_list = []
    for api_key in ApiKeys:
        if api_key is ApiKeys.DELETE_TOPICS:
            version_list.append(ApiVersion(api_key=api_key.id, min_version=10000, max_version=10001))
        else:
            version_list.append(ApiVersionsResponse.to_api_version(api_key))
    versions = NodeApiVersions(version_list, [], False)
    parts = []
    for api_key in ApiKeys:
        if api_key is ApiKeys.DELETE_TOPICS:
            parts.append("DeleteTopics(20): 10000 to 10001 [unusable: node too new]")
            continue
        lo, hi = api_key.oldest_version, api_key.latest_version()
        span = str(lo) if lo == hi else f"{lo} to {hi}"
        parts.append(f"{api_key.api_name}({api_key.id}): {span} [usable: {hi}]")
    assert str(versions) == "(" + ", ".join(parts) + ")"
    assert versions.to_string(True).startswith("(\n\t") and versions.to_string(True).endswith("\n)")


def test_latest_usable_version() -> None:
    """The newest version within both the node's range and the allowed range."""
    versions = NodeApiVersions.create(ApiKeys.PRODUCE.id, 1, 3)
    assert versions.latest_usable_version(ApiKeys.PRODUCE) == 3
    for lo, hi, expected in [(0, 1, 1), (1, 1, 1), (1, 2, 2), (1, 3, 3), (2, 2, 2), (2, 3, 3), (3, 3, 3), (3, 4, 3)]:
        assert versions.latest_usable_version(ApiKeys.PRODUCE, lo, hi) == expected


@pytest.mark.parametrize(("node_min", "node_max", "lo", "hi"), [(1, 2, 3, 4), (2, 3, 0, 1)])
def test_latest_usable_version_out_of_range(node_min: int, node_max: int, lo: int, hi: int) -> None:
    """No common version is UnsupportedVersionException with both ranges in the message."""
    versions = NodeApiVersions.create(ApiKeys.PRODUCE.id, node_min, node_max)
    with pytest.raises(UnsupportedVersionException, match=rf"range \[{lo},{hi}\]. The supported range is"):
        versions.latest_usable_version(ApiKeys.PRODUCE, lo, hi)


def test_usable_version_calculation_no_known_versions() -> None:
    """An API the node does not list is unsupported."""
    with pytest.raises(UnsupportedVersionException, match="The node does not support FETCH"):
        NodeApiVersions([], [], False).latest_usable_version(ApiKeys.FETCH)


def test_latest_usable_version_out_of_range_high() -> None:
    """A node only newer than this client is unusable."""
    with pytest.raises(UnsupportedVersionException):
        NodeApiVersions.create(ApiKeys.PRODUCE.id, 300, 300).latest_usable_version(ApiKeys.PRODUCE)


def test_usable_version_latest_versions() -> None:
    """Against the broker's default table (plus an unknown API) every API negotiates this client's latest version."""
    version_list = list(ApiVersionsResponse.default_api_versions_response().data.api_keys)
    version_list.append(ApiVersion(api_key=100, min_version=0, max_version=1))
    versions = NodeApiVersions(version_list, [], False)
    for api_key in ApiKeys:
        if versions.api_version(api_key) is not None:
            assert versions.latest_usable_version(api_key) == min(
                api_key.latest_version(), versions.api_version(api_key).max_version
            )


def test_construction_from_api_versions_response() -> None:
    """The node's entries are kept as announced."""
    response = ApiVersionsResponse.default_api_versions_response()
    versions = NodeApiVersions(response.data.api_keys, [], False)
    for entry in response.data.api_keys:
        got = versions.api_version(ApiKeys.for_id(entry.api_key))
        assert (got.api_key, got.min_version, got.max_version) == (entry.api_key, entry.min_version, entry.max_version)


def test_supported_features() -> None:
    """Supported features are kept as version ranges."""
    feature = ApiVersionsResponseData.SupportedFeatureKey(name="metadata.version", min_version=1, max_version=15)
    versions = NodeApiVersions([], [feature], True)
    assert versions.supported_features()["metadata.version"].max == 15
    assert versions.zk_migration_enabled()


def test_max_usable_produce_magic() -> None:
    """ApiVersions tracks the newest record format every known broker takes (ApiVersionsTest)."""
    api_versions = ApiVersions()
    assert api_versions.max_usable_produce_magic() == CURRENT_MAGIC_VALUE
    api_versions.update("0", NodeApiVersions.create())
    assert api_versions.max_usable_produce_magic() == CURRENT_MAGIC_VALUE
    api_versions.update("1", NodeApiVersions.create(ApiKeys.PRODUCE.id, 0, 2))
    assert api_versions.max_usable_produce_magic() == 1
    api_versions.remove("1")
    assert api_versions.max_usable_produce_magic() == CURRENT_MAGIC_VALUE
    assert api_versions.get("1") is None and api_versions.get("0") is not None


def test_max_usable_produce_magic_ignores_controllers() -> None:
    """A node without Produce (a controller) does not lower the magic."""
    api_versions = ApiVersions()
    no_produce = [ApiVersionsResponse.to_api_version(k) for k in ApiKeys if k is not ApiKeys.PRODUCE]
    api_versions.update("2", NodeApiVersions(no_produce, [], False))
    assert api_versions.max_usable_produce_magic() == CURRENT_MAGIC_VALUE
