"""Tests of kafka.common.utils.exponential_backoff (Kafka's ExponentialBackoffTest)."""

from __future__ import annotations

from kafka.common.utils.exponential_backoff import ExponentialBackoff


def test_exponential_backoff() -> None:
    """Each attempt doubles (within 20% jitter) up to the maximum, which is never exceeded."""
    scale_factor, ratio, backoff_max, jitter = 100, 2, 2000, 0.2
    backoff = ExponentialBackoff(scale_factor, ratio, backoff_max, jitter)
    for i in range(100):
        expected = min(scale_factor * ratio**i, backoff_max)
        value = backoff.backoff(i)
        if expected < backoff_max:
            assert expected * (1 - jitter) <= value <= expected * (1 + jitter)
        else:
            assert backoff_max * (1 - jitter) <= value <= backoff_max


def test_exponential_backoff_without_jitter() -> None:
    """Without jitter the values are exact."""
    backoff = ExponentialBackoff(100, 2, 400, 0.0)
    assert [backoff.backoff(i) for i in range(4)] == [100, 200, 400, 400]


def test_constant_when_maximum_not_above_initial() -> None:
    """A maximum at or below the initial interval gives a constant backoff: the smaller of the two."""
    assert ExponentialBackoff(100, 2, 100, 0.2).backoff(5) == 100
    assert ExponentialBackoff(500, 2, 100, 0.2).backoff(0) == 100
