"""Port of clients/src/main/java/org/apache/kafka/clients/ApiVersions.java (Kafka 3.7).

The NodeApiVersions of every connected node, shared between a NetworkClient (which fills it in) and the
producer (which asks for the newest record format all brokers take).
"""

from __future__ import annotations

import threading

from kafka.clients.node_api_versions import NodeApiVersions
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.record.record_batch import CURRENT_MAGIC_VALUE
from kafka.common.requests.produce_request import ProduceRequest

__all__ = ["ApiVersions"]


class ApiVersions:
    """Thread-safe map of node id -> NodeApiVersions."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._node_api_versions: dict[str, NodeApiVersions] = {}
        self._max_usable_produce_magic = CURRENT_MAGIC_VALUE

    def update(self, node_id: str, node_api_versions: NodeApiVersions) -> None:
        with self._lock:
            self._node_api_versions[node_id] = node_api_versions
            self._max_usable_produce_magic = self._compute_max_usable_produce_magic()

    def remove(self, node_id: str) -> None:
        with self._lock:
            self._node_api_versions.pop(node_id, None)
            self._max_usable_produce_magic = self._compute_max_usable_produce_magic()

    def get(self, node_id: str) -> NodeApiVersions | None:
        with self._lock:
            return self._node_api_versions.get(node_id)

    def _compute_max_usable_produce_magic(self) -> int:
        # The lowest magic any known broker needs, so batches are built in a format none has to convert.
        magics = [
            ProduceRequest.required_magic_for_version(v.latest_usable_version(ApiKeys.PRODUCE))
            for v in self._node_api_versions.values()
            if v.api_version(ApiKeys.PRODUCE) is not None  # controllers serve no Produce
        ]
        return min([CURRENT_MAGIC_VALUE, *magics])

    def max_usable_produce_magic(self) -> int:
        with self._lock:
            return self._max_usable_produce_magic
