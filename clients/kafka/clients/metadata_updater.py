"""Port of clients/src/main/java/org/apache/kafka/clients/MetadataUpdater.java (Kafka 3.7).

How a NetworkClient keeps cluster metadata current: it asks the updater which nodes exist, lets it send
metadata requests during poll, and tells it of disconnects, failed requests and metadata responses. The
default one (NetworkClient.DefaultMetadataUpdater) works on a Metadata; the admin client brings its own.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence

from kafka.common.errors import AuthenticationException, KafkaException
from kafka.common.node import Node
from kafka.common.requests.metadata_response import MetadataResponse
from kafka.common.requests.request_header import RequestHeader

__all__ = ["MetadataUpdater"]


class MetadataUpdater(abc.ABC):
    @abc.abstractmethod
    def fetch_nodes(self) -> Sequence[Node]:
        """The nodes currently known (bootstrap servers before the first response)."""

    @abc.abstractmethod
    def is_update_due(self, now: int) -> bool:
        """Whether a metadata update is due and none is in flight."""

    @abc.abstractmethod
    def maybe_update(self, now: int) -> int:
        """Starts an update if one is due (connecting to a node first if needed); returns how long poll may block
        before this should be called again."""

    @abc.abstractmethod
    def handle_server_disconnect(
        self, now: int, node_id: str, maybe_auth_exception: AuthenticationException | None
    ) -> None:
        """A connection to `node_id` failed or was lost (with its authentication error, if that was the cause)."""

    @abc.abstractmethod
    def handle_failed_request(self, now: int, maybe_fatal_exception: KafkaException | None) -> None:
        """The metadata request in flight failed (disconnect, timeout, unsupported version)."""

    @abc.abstractmethod
    def handle_successful_response(
        self, request_header: RequestHeader, now: int, metadata_response: MetadataResponse
    ) -> None:
        """A metadata response arrived for the request in flight."""

    @abc.abstractmethod
    def close(self) -> None: ...
