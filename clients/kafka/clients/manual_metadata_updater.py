"""Port of clients/src/main/java/org/apache/kafka/clients/ManualMetadataUpdater.java (Kafka 3.7).

A MetadataUpdater with a fixed list of nodes that never sends metadata requests (for clients that talk to
known brokers, such as a broker's own inter-broker clients and tools).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from kafka.clients.metadata_updater import MetadataUpdater
from kafka.common.errors import AuthenticationException, KafkaException
from kafka.common.node import Node
from kafka.common.requests.metadata_response import MetadataResponse
from kafka.common.requests.request_header import RequestHeader

__all__ = ["ManualMetadataUpdater"]

_LONG_MAX = 2**63 - 1


class ManualMetadataUpdater(MetadataUpdater):
    def __init__(self, nodes: Iterable[Node] = ()) -> None:
        self._nodes = list(nodes)

    def set_nodes(self, nodes: Iterable[Node]) -> None:
        self._nodes = list(nodes)

    def fetch_nodes(self) -> Sequence[Node]:
        return list(self._nodes)

    def is_update_due(self, now: int) -> bool:
        return False

    def maybe_update(self, now: int) -> int:
        return _LONG_MAX

    def handle_server_disconnect(
        self, now: int, node_id: str, maybe_auth_exception: AuthenticationException | None
    ) -> None:
        # Failures are not held against a node: the NetworkClient's log says what went wrong.
        pass

    def handle_failed_request(self, now: int, maybe_fatal_exception: KafkaException | None) -> None:
        pass

    def handle_successful_response(
        self, request_header: RequestHeader, now: int, metadata_response: MetadataResponse
    ) -> None:
        pass

    def close(self) -> None:
        pass
