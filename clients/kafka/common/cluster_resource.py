"""Port of clients/src/main/java/org/apache/kafka/common/ClusterResource.java (Kafka 3.7).

The cluster id a client learnt from metadata, handed to ClusterResourceListeners.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ClusterResource"]


@dataclass(frozen=True, slots=True)
class ClusterResource:
    """The id of a cluster (None before it is known or from brokers older than Metadata v2)."""

    cluster_id: str | None

    def __str__(self) -> str:
        return f"ClusterResource(clusterId={self.cluster_id})"
