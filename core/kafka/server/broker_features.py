"""Port of core/src/main/scala/kafka/server/BrokerFeatures.scala (Kafka 2.8).

The feature versions this broker supports (KIP-584), and the check of a set of finalized features against them.
A Kafka 2.8 broker supports no feature at all, so a cluster it bootstraps finalizes none.

# PORT: Java's Features[SupportedVersionRange] / Features[FinalizedVersionRange] are plain mappings here,
# feature name -> (min, max) version, as FeatureZNode and BrokerInfo already carry them. `features_to_string`
# renders them as Java's Features.toString does, for the log lines that show them.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

__all__ = ["BrokerFeatures", "features_to_string"]

# The logger of the Scala companion object (its class is `BrokerFeatures$`).
_OBJECT_LOGGER = logging.getLogger("kafka.server.BrokerFeatures$")

_SUPPORTED_LABELS = ("min_version", "max_version")
_FINALIZED_LABELS = ("min_version_level", "max_version_level")


def _range_to_string(version_range: tuple[int, int], finalized: bool) -> str:
    lo_label, hi_label = _FINALIZED_LABELS if finalized else _SUPPORTED_LABELS
    kind = "FinalizedVersionRange" if finalized else "SupportedVersionRange"
    return f"{kind}[{lo_label}:{version_range[0]}, {hi_label}:{version_range[1]}]"


def features_to_string(features: Mapping[str, tuple[int, int]], finalized: bool = True) -> str:
    """`Features{(name -> FinalizedVersionRange[min_version_level:1, max_version_level:2]), ...}`, or with
    SupportedVersionRange and min_version/max_version labels when `finalized` is false."""
    body = ", ".join(f"({name} -> {_range_to_string(rng, finalized)})" for name, rng in features.items())
    return f"Features{{{body}}}"


def _is_incompatible_with(finalized: tuple[int, int], supported: tuple[int, int]) -> bool:
    """A finalized range is out of line with what is supported if it reaches below or above it."""
    return finalized[0] < supported[0] or finalized[1] > supported[1]


class BrokerFeatures:
    """The broker's supported features: fixed in production, replaceable in tests through
    `set_supported_features`."""

    def __init__(self, supported_features: Mapping[str, tuple[int, int]]) -> None:
        # Replaced as a whole, never mutated, so readers on other threads always see a complete mapping.
        self.supported_features: Mapping[str, tuple[int, int]] = dict(supported_features)

    def set_supported_features(self, new_features: Mapping[str, tuple[int, int]]) -> None:
        """For tests only."""
        self.supported_features = dict(new_features)

    def default_finalized_features(self) -> dict[str, tuple[int, int]]:
        """What a new cluster with inter.broker.protocol.version >= 2.7 finalizes at first: every supported
        feature over its whole supported range."""
        return {name: (lo, hi) for name, (lo, hi) in self.supported_features.items()}

    def incompatible_features(self, finalized: Mapping[str, tuple[int, int]]) -> dict[str, tuple[int, int]]:
        """The finalized features this broker cannot work with (unknown to it, or outside its supported range);
        each one is logged as a warning."""
        return BrokerFeatures._incompatible_features(self.supported_features, finalized, log_incompatibilities=True)

    @staticmethod
    def create_default() -> BrokerFeatures:
        """The features of a Kafka 2.8 broker: none."""
        return BrokerFeatures({})

    @staticmethod
    def has_incompatible_features(
        supported_features: Mapping[str, tuple[int, int]], finalized_features: Mapping[str, tuple[int, int]]
    ) -> bool:
        return bool(
            BrokerFeatures._incompatible_features(supported_features, finalized_features, log_incompatibilities=False)
        )

    @staticmethod
    def _incompatible_features(
        supported_features: Mapping[str, tuple[int, int]],
        finalized_features: Mapping[str, tuple[int, int]],
        log_incompatibilities: bool,
    ) -> dict[str, tuple[int, int]]:
        incompatible: dict[str, tuple[int, int]] = {}
        reasons: list[str] = []
        for feature, version_levels in finalized_features.items():
            supported_versions = supported_features.get(feature)
            if supported_versions is None:
                reasons.append(f"{{feature={feature}, reason='Unsupported feature'}}")
            elif _is_incompatible_with(version_levels, supported_versions):
                reasons.append(
                    f"{{feature={feature}, reason='{_range_to_string(version_levels, True)} is incompatible with "
                    f"{_range_to_string(supported_versions, False)}'}}"
                )
            else:
                continue
            incompatible[feature] = version_levels
        if log_incompatibilities and reasons:
            _OBJECT_LOGGER.warning("Feature incompatibilities seen: " + ", ".join(reasons))
        return incompatible
