"""Tests of kafka.server.api_version_manager: the features part of ApiVersions, as Kafka 2.8's
DefaultApiVersionManager builds it."""

from __future__ import annotations

from kafka.common.message import ApiVersionsResponseData, ListenerType
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.message import ByteBufferAccessor
from kafka.server.api_version_manager import ApiVersionManager
from kafka.server.broker_features import BrokerFeatures
from kafka.server.finalized_feature_cache import FinalizedFeatureCache

APIS = [ApiKeys.API_VERSIONS, ApiKeys.METADATA]


def _round_trip(data: ApiVersionsResponseData) -> ApiVersionsResponseData:
    return ApiVersionsResponseData().read(ByteBufferAccessor(data.write(3)), 3)


def test_without_features_epoch_is_unknown() -> None:
    """Built without features, the manager answers no features and epoch -1 (SimpleApiVersionManager)."""
    data = _round_trip(ApiVersionManager(ListenerType.ZK_BROKER, APIS).api_version_response(0).data)
    assert data.finalized_features_epoch == -1
    assert len(data.supported_features) == 0 and len(data.finalized_features) == 0
    assert {k.api_key for k in data.api_keys} == {k.id for k in APIS}


def test_empty_cache_reports_unknown_epoch_and_supported_features() -> None:
    """While the cache is empty (no /feature), the epoch is -1 but the supported features are listed."""
    features = BrokerFeatures({"feature_1": (1, 4)})
    manager = ApiVersionManager(ListenerType.ZK_BROKER, APIS, False, features, FinalizedFeatureCache(features))
    data = _round_trip(manager.api_version_response(0).data)
    assert data.finalized_features_epoch == -1
    assert [(f.name, f.min_version, f.max_version) for f in data.supported_features] == [("feature_1", 1, 4)]
    assert len(data.finalized_features) == 0


def test_new_cluster_reports_epoch_zero() -> None:
    """A Kafka 2.8 broker of a new cluster (no features, /feature at version 0) answers epoch 0 and no features."""
    features = BrokerFeatures.create_default()
    cache = FinalizedFeatureCache(features)
    cache.update_or_throw({}, 0)
    manager = ApiVersionManager(ListenerType.ZK_BROKER, APIS, False, features, cache)
    data = _round_trip(manager.api_version_response(0).data)
    assert data.finalized_features_epoch == 0
    assert len(data.supported_features) == 0 and len(data.finalized_features) == 0


def test_finalized_features_follow_the_cache() -> None:
    """Each response reads the cache: finalized features with both levels and the epoch of the latest update."""
    features = BrokerFeatures({"feature_1": (1, 4)})
    cache = FinalizedFeatureCache(features)
    manager = ApiVersionManager(ListenerType.ZK_BROKER, APIS, False, features, cache)
    cache.update_or_throw({"feature_1": (2, 3)}, 7)
    data = _round_trip(manager.api_version_response(0).data)
    assert data.finalized_features_epoch == 7
    assert [(f.name, f.min_version_level, f.max_version_level) for f in data.finalized_features] == [
        ("feature_1", 2, 3)
    ]
    cache.clear()
    assert _round_trip(manager.api_version_response(0).data).finalized_features_epoch == -1
