"""Port of clients/src/main/java/org/apache/kafka/common/record/CompressionRatioEstimator.java (Kafka 3.7).

Per-topic estimates of the compression ratio of each codec, which the producer uses to decide when
a batch being built is full: the estimate falls slowly when batches compress better than expected
and rises quickly when they compress worse.
"""

from __future__ import annotations

import threading
from typing import Final

from kafka.common.record.compression_type import CompressionType

COMPRESSION_RATIO_IMPROVING_STEP: Final = 0.005
COMPRESSION_RATIO_DETERIORATE_STEP: Final = 0.05

_compression_ratio: dict[str, list[float]] = {}
_lock = threading.Lock()


def _initial_compression_ratio() -> list[float]:
    return [t.rate for t in CompressionType.values()]


def _get_and_create_estimation_if_absent(topic: str) -> list[float]:
    ratios = _compression_ratio.get(topic)
    if ratios is None:
        with _lock:
            ratios = _compression_ratio.setdefault(topic, _initial_compression_ratio())
    return ratios


class CompressionRatioEstimator:
    """Static helpers over a process-wide table, as in Java."""

    COMPRESSION_RATIO_IMPROVING_STEP: Final = COMPRESSION_RATIO_IMPROVING_STEP
    COMPRESSION_RATIO_DETERIORATE_STEP: Final = COMPRESSION_RATIO_DETERIORATE_STEP

    @staticmethod
    def update_estimation(topic: str, type_: CompressionType, observed_ratio: float) -> float:
        """Move the estimate toward `observed_ratio` and return the new estimate."""
        ratios = _get_and_create_estimation_if_absent(topic)
        with _lock:
            current = ratios[type_.id]
            if observed_ratio > current:
                ratios[type_.id] = max(current + COMPRESSION_RATIO_DETERIORATE_STEP, observed_ratio)
            elif observed_ratio < current:
                ratios[type_.id] = max(current - COMPRESSION_RATIO_IMPROVING_STEP, observed_ratio)
            return ratios[type_.id]

    @staticmethod
    def estimation(topic: str, type_: CompressionType) -> float:
        """The current estimate."""
        return _get_and_create_estimation_if_absent(topic)[type_.id]

    @staticmethod
    def reset_estimation(topic: str) -> None:
        """Back to each codec's default rate."""
        ratios = _get_and_create_estimation_if_absent(topic)
        with _lock:
            ratios[:] = _initial_compression_ratio()

    @staticmethod
    def remove_estimation(topic: str) -> None:
        """Forget the topic."""
        with _lock:
            _compression_ratio.pop(topic, None)

    @staticmethod
    def set_estimation(topic: str, type_: CompressionType, ratio: float) -> None:
        """Set the estimate."""
        ratios = _get_and_create_estimation_if_absent(topic)
        with _lock:
            ratios[type_.id] = ratio
