"""Port of clients/src/main/java/org/apache/kafka/common/metrics/KafkaMetricsContext.java (Kafka 2.8)."""

from __future__ import annotations

from collections.abc import Mapping

from kafka.common.metrics.metrics_context import MetricsContext

__all__ = ["KafkaMetricsContext"]


class KafkaMetricsContext(MetricsContext):
    """A MetricsContext with a namespace label and any others given."""

    def __init__(self, namespace: str, context_labels: Mapping[str, object] | None = None) -> None:
        self._context_labels: dict[str, str | None] = {MetricsContext.NAMESPACE: namespace}
        for key, value in (context_labels or {}).items():
            self._context_labels[key] = str(value) if value is not None else None

    def context_labels(self) -> dict[str, str | None]:
        return dict(self._context_labels)
