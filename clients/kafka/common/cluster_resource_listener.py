"""Port of clients/src/main/java/org/apache/kafka/common/ClusterResourceListener.java (Kafka 3.7).

Implemented by serializers, interceptors and metrics reporters that want the cluster id once metadata
has it.
"""

from __future__ import annotations

import abc

from kafka.common.cluster_resource import ClusterResource

__all__ = ["ClusterResourceListener"]


class ClusterResourceListener(abc.ABC):
    @abc.abstractmethod
    def on_update(self, cluster_resource: ClusterResource) -> None:
        """Called on every metadata update with the cluster id then known."""
