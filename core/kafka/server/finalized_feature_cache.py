"""Port of core/src/main/scala/kafka/server/FinalizedFeatureCache.scala (Kafka 2.8).

The broker's copy of the cluster's finalized features and their epoch (the version of the /feature znode).
It starts empty and is filled by the FinalizedFeatureChangeListener whenever /feature changes; ApiVersions reads
it, and the controller waits on it after writing /feature. Safe to read and update from any thread.

# PORT: Kafka raises scala.concurrent.TimeoutException from `wait_until_epoch_or_throw`; here it is Python's
# TimeoutError, its counterpart. The wait runs against the injected Time (its `wait_object`) rather than
# System.nanoTime, so that tests can drive it with MockTime.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from kafka.common.utils.time import Time
from kafka.server.broker_features import BrokerFeatures, features_to_string
from kafka.utils.logging import Logging

__all__ = ["FeatureCacheUpdateException", "FinalizedFeatureCache", "FinalizedFeaturesAndEpoch"]


class FeatureCacheUpdateException(RuntimeError):
    """An update of the FinalizedFeatureCache was refused (an older epoch, or features this broker cannot
    support); the cache is left as it was."""


@dataclass(frozen=True, slots=True)
class FinalizedFeaturesAndEpoch:
    """Finalized features (name -> (min, max) version level) with the epoch they were read at."""

    features: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    epoch: int = 0

    def __str__(self) -> str:
        return f"FinalizedFeaturesAndEpoch(features={features_to_string(self.features)}, epoch={self.epoch})"


class FinalizedFeatureCache(Logging):
    """See the module docstring."""

    logger_name = "kafka.server.FinalizedFeatureCache"

    def __init__(self, broker_features: BrokerFeatures, time: Time = Time.SYSTEM) -> None:
        self._broker_features = broker_features
        self._time = time
        # Replaced whole under the condition's lock; a plain read elsewhere sees the old or the new value.
        self._features_and_epoch: FinalizedFeaturesAndEpoch | None = None
        # Java's monitor of `this` (synchronized + wait/notifyAll); reentrant as Java's is.
        self._monitor = threading.Condition(threading.RLock())

    def get(self) -> FinalizedFeaturesAndEpoch | None:
        """The latest finalized features and epoch, or None while the cache is empty."""
        return self._features_and_epoch

    @property
    def is_empty(self) -> bool:
        return self._features_and_epoch is None

    def wait_until_epoch_or_throw(self, min_expected_epoch: int, timeout_ms: int) -> None:
        """Blocks up to `timeout_ms` until the cache holds an epoch of at least `min_expected_epoch` (>= 0);
        raises TimeoutError if it does not get there in time."""
        if min_expected_epoch < 0:
            raise ValueError(f"Expected minExpectedEpoch >= 0, but {min_expected_epoch} was provided.")

        def reached() -> bool:
            current = self._features_and_epoch
            return current is not None and current.epoch >= min_expected_epoch

        self._wait_until_condition_or_throw(reached, timeout_ms)

    def clear(self) -> None:
        """Forgets the finalized features and epoch (the cache becomes empty)."""
        with self._monitor:
            self._features_and_epoch = None
            self._monitor.notify_all()
        self.info("Cleared cache")

    def update_or_throw(self, latest_features: Mapping[str, tuple[int, int]], latest_epoch: int) -> None:
        """Replaces the cache's content with these features at this epoch. Raises FeatureCacheUpdateException,
        leaving the cache untouched, if the epoch is older than the cached one or if the broker does not support
        the features."""
        latest = FinalizedFeaturesAndEpoch(dict(latest_features), latest_epoch)
        current = self._features_and_epoch
        existing = "<empty>" if current is None else str(current)
        if current is not None and current.epoch > latest.epoch:
            raise FeatureCacheUpdateException(
                f"FinalizedFeatureCache update failed due to invalid epoch in new {latest}. "
                f"The existing cache contents are {existing}."
            )
        if self._broker_features.incompatible_features(latest.features):
            supported = features_to_string(self._broker_features.supported_features, finalized=False)
            raise FeatureCacheUpdateException(
                "FinalizedFeatureCache update failed since feature compatibility checks failed! "
                f"Supported {supported} has incompatibilities with the latest {latest}."
            )
        log_msg = f"Updated cache from existing {existing} to latest {latest}."
        with self._monitor:
            self._features_and_epoch = latest
            self._monitor.notify_all()
        self.info(log_msg)

    def _wait_until_condition_or_throw(self, wait_condition: Callable[[], bool], timeout_ms: int) -> None:
        """Waits on the cache's monitor, re-checking `wait_condition` under it after every change, for at most
        `timeout_ms`."""
        if timeout_ms < 0:
            raise ValueError(f"Expected timeoutMs >= 0, but {timeout_ms} was provided.")
        deadline_ms = self._time.milliseconds() + timeout_ms
        with self._monitor:
            try:
                self._time.wait_object(self._monitor, wait_condition, deadline_ms)
            except TimeoutError:
                current = self._features_and_epoch
                epoch = "<none>" if current is None else str(current.epoch)
                raise TimeoutError(
                    f"Timed out after waiting for {timeout_ms}ms for required condition to be met. "
                    f"Current epoch: {epoch}."
                ) from None
