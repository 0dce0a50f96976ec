"""Java's `java.util.concurrent.TimeUnit`, for the broker's metrics.

# PORT: one enum serves both metric libraries: the one defined beside the Java-style metrics
# (kafka.common.metrics.internals.metrics_utils), re-exported here where core code looks for it.
"""

from __future__ import annotations

from kafka.common.metrics.internals.metrics_utils import TimeUnit

__all__ = ["TimeUnit"]
