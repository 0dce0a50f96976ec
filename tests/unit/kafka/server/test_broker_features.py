"""Tests of kafka.server.broker_features (Kafka 2.8's BrokerFeaturesTest, in our words)."""

from __future__ import annotations

import logging

import pytest

from kafka.server.broker_features import BrokerFeatures, features_to_string


def test_default_broker_supports_no_feature() -> None:
    """A Kafka 2.8 broker supports no feature, so it finalizes none by default."""
    features = BrokerFeatures.create_default()
    assert features.supported_features == {}
    assert features.default_finalized_features() == {}


def test_incompatibilities_due_to_absent_feature(caplog: pytest.LogCaptureFixture) -> None:
    """A finalized feature the broker does not know is incompatible, and the reason is logged."""
    broker_features = BrokerFeatures({"test_feature_1": (1, 4), "test_feature_2": (1, 3)})
    finalized = {"test_feature_1": (2, 3), "test_feature_3": (3, 4)}
    with caplog.at_level(logging.WARNING, logger="kafka.server.BrokerFeatures$"):
        assert broker_features.incompatible_features(finalized) == {"test_feature_3": (3, 4)}
    assert "{feature=test_feature_3, reason='Unsupported feature'}" in caplog.text
    assert BrokerFeatures.has_incompatible_features(broker_features.supported_features, finalized)


def test_incompatibilities_due_to_incompatible_feature(caplog: pytest.LogCaptureFixture) -> None:
    """A finalized range reaching beyond the supported range is incompatible, logged with both ranges."""
    broker_features = BrokerFeatures({"test_feature_1": (1, 4), "test_feature_2": (1, 3)})
    finalized = {"test_feature_1": (2, 3), "test_feature_2": (1, 4)}
    with caplog.at_level(logging.WARNING, logger="kafka.server.BrokerFeatures$"):
        assert broker_features.incompatible_features(finalized) == {"test_feature_2": (1, 4)}
    assert (
        "{feature=test_feature_2, reason='FinalizedVersionRange[min_version_level:1, max_version_level:4] is "
        "incompatible with SupportedVersionRange[min_version:1, max_version:3]'}"
    ) in caplog.text


def test_compatible_features(caplog: pytest.LogCaptureFixture) -> None:
    """Finalized ranges inside the supported ones are compatible, and nothing is logged."""
    broker_features = BrokerFeatures({"test_feature_1": (1, 4), "test_feature_2": (1, 3)})
    finalized = {"test_feature_1": (2, 3), "test_feature_2": (1, 3)}
    with caplog.at_level(logging.WARNING, logger="kafka.server.BrokerFeatures$"):
        assert broker_features.incompatible_features(finalized) == {}
    assert caplog.text == ""
    assert not BrokerFeatures.has_incompatible_features(broker_features.supported_features, finalized)


def test_default_finalized_features_span_the_supported_ranges() -> None:
    """The default finalized features are every supported feature at its whole supported range."""
    broker_features = BrokerFeatures({"test_feature_1": (1, 4), "test_feature_2": (1, 3)})
    assert broker_features.default_finalized_features() == {"test_feature_1": (1, 4), "test_feature_2": (1, 3)}
    broker_features.set_supported_features({"test_feature_3": (3, 7)})
    assert broker_features.default_finalized_features() == {"test_feature_3": (3, 7)}


def test_features_to_string_as_java() -> None:
    """Features render as Java's Features.toString, with the labels of finalized or supported ranges."""
    assert features_to_string({}) == "Features{}"
    assert (
        features_to_string({"a": (1, 2)})
        == "Features{(a -> FinalizedVersionRange[min_version_level:1, max_version_level:2])}"
    )
    assert (
        features_to_string({"a": (1, 2), "b": (3, 3)}, finalized=False)
        == "Features{(a -> SupportedVersionRange[min_version:1, max_version:2]), "
        "(b -> SupportedVersionRange[min_version:3, max_version:3])}"
    )
