"""Tests of kafka.server.finalized_feature_cache (Kafka 2.8's FinalizedFeatureCacheTest, in our words)."""

from __future__ import annotations

import threading

import pytest

from kafka.common.utils.time import MockTime
from kafka.server.broker_features import BrokerFeatures
from kafka.server.finalized_feature_cache import (
    FeatureCacheUpdateException,
    FinalizedFeatureCache,
    FinalizedFeaturesAndEpoch,
)

SUPPORTED = {"feature_1": (1, 4)}


def _cache() -> FinalizedFeatureCache:
    return FinalizedFeatureCache(BrokerFeatures(SUPPORTED))


def test_empty() -> None:
    """A new cache holds nothing."""
    cache = FinalizedFeatureCache(BrokerFeatures.create_default())
    assert cache.get() is None
    assert cache.is_empty


def test_update_or_throw_failed_due_to_invalid_epoch() -> None:
    """An update at an older epoch is refused and leaves the cached features and epoch as they were."""
    cache = _cache()
    cache.update_or_throw({"feature_1": (1, 4)}, 10)
    with pytest.raises(FeatureCacheUpdateException, match="invalid epoch"):
        cache.update_or_throw({"feature_1": (1, 3)}, 9)
    assert cache.get() == FinalizedFeaturesAndEpoch({"feature_1": (1, 4)}, 10)


def test_update_or_throw_failed_due_to_invalid_features() -> None:
    """Finalized features the broker cannot support are refused and the cache stays empty."""
    cache = _cache()
    with pytest.raises(FeatureCacheUpdateException, match="feature compatibility checks failed"):
        cache.update_or_throw({"feature_1": (1, 5)}, 12)
    assert cache.is_empty


def test_update_or_throw_success() -> None:
    """A compatible update at a newer (or equal) epoch replaces the cache's content."""
    cache = _cache()
    cache.update_or_throw({"feature_1": (2, 3)}, 12)
    assert cache.get() == FinalizedFeaturesAndEpoch({"feature_1": (2, 3)}, 12)
    cache.update_or_throw({"feature_1": (1, 3)}, 12)
    assert cache.get() == FinalizedFeaturesAndEpoch({"feature_1": (1, 3)}, 12)


def test_update_logs_kafka_wording(caplog: pytest.LogCaptureFixture) -> None:
    """An update is logged as Kafka logs it, with the old and new content."""
    cache = FinalizedFeatureCache(BrokerFeatures.create_default())
    with caplog.at_level("INFO", logger="kafka.server.FinalizedFeatureCache"):
        cache.update_or_throw({}, 0)
    assert (
        "Updated cache from existing <empty> to latest FinalizedFeaturesAndEpoch(features=Features{}, epoch=0)."
        in caplog.text
    )


def test_clear() -> None:
    """Clearing empties a filled cache."""
    cache = _cache()
    cache.update_or_throw({"feature_1": (2, 3)}, 12)
    cache.clear()
    assert cache.is_empty
    assert cache.get() is None


def test_wait_until_epoch_returns_once_an_update_reaches_it() -> None:
    """A waiter is released by an update from another thread that brings the epoch to the expected one."""
    cache = _cache()
    cache.update_or_throw({}, 1)
    cache.wait_until_epoch_or_throw(1, 0)  # already there: returns at once even with no time to wait
    released = threading.Event()
    failure: list[BaseException] = []

    def wait() -> None:
        try:
            cache.wait_until_epoch_or_throw(3, 30_000)
            released.set()
        except BaseException as e:  # reported to the test thread
            failure.append(e)

    waiter = threading.Thread(target=wait, name="test-waiter")
    waiter.start()
    cache.update_or_throw({}, 2)
    cache.update_or_throw({}, 3)
    waiter.join(30)
    assert not failure
    assert released.is_set()


def test_wait_until_epoch_times_out() -> None:
    """A wait for an epoch the cache never reaches fails with a TimeoutError naming the current epoch."""
    time = MockTime()
    cache = FinalizedFeatureCache(BrokerFeatures(SUPPORTED), time)
    cache.update_or_throw({}, 4)

    def advance_clock() -> None:
        time.sleep(100)

    ticker = threading.Timer(0.05, advance_clock)
    ticker.start()
    try:
        with pytest.raises(TimeoutError, match="Current epoch: 4"):
            cache.wait_until_epoch_or_throw(5, 50)
    finally:
        ticker.cancel()
        ticker.join()


def test_wait_until_epoch_rejects_bad_arguments() -> None:
    """A negative epoch or timeout is refused."""
    cache = _cache()
    with pytest.raises(ValueError, match="minExpectedEpoch"):
        cache.wait_until_epoch_or_throw(-1, 10)
    with pytest.raises(ValueError, match="timeoutMs"):
        cache.wait_until_epoch_or_throw(1, -1)
