"""Port of clients/src/main/java/org/apache/kafka/common/internals/ClusterResourceListeners.java (Kafka 3.7).

The ClusterResourceListeners among a client's plug-ins (serializers, interceptors ...), told of each
metadata update.
"""

from __future__ import annotations

from collections.abc import Iterable

from kafka.common.cluster_resource import ClusterResource
from kafka.common.cluster_resource_listener import ClusterResourceListener

__all__ = ["ClusterResourceListeners"]


class ClusterResourceListeners:
    def __init__(self) -> None:
        self._cluster_resource_listeners: list[ClusterResourceListener] = []

    def maybe_add(self, candidate: object) -> None:
        """Adds `candidate` if it is a ClusterResourceListener; anything else is ignored."""
        if isinstance(candidate, ClusterResourceListener):
            self._cluster_resource_listeners.append(candidate)

    def maybe_add_all(self, candidates: Iterable[object]) -> None:
        for candidate in candidates:
            self.maybe_add(candidate)

    def on_update(self, cluster: ClusterResource) -> None:
        for listener in self._cluster_resource_listeners:
            listener.on_update(cluster)
