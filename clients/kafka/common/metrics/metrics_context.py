"""Port of clients/src/main/java/org/apache/kafka/common/metrics/MetricsContext.java (Kafka 2.8)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar

__all__ = ["MetricsContext"]


class MetricsContext(ABC):
    """Labels describing where metrics come from (the namespace, cluster id, broker id...), given to reporters."""

    NAMESPACE: ClassVar[str] = "_namespace"

    @abstractmethod
    def context_labels(self) -> dict[str, str | None]:
        """The labels (a read-only view in Java: a copy here)."""
