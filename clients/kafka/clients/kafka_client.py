"""Port of clients/src/main/java/org/apache/kafka/clients/KafkaClient.java (Kafka 3.7).

The interface through which the producer's Sender, the consumer's ConsumerNetworkClient and the admin
client talk to brokers: connect to nodes, send requests, and poll for the responses. NetworkClient is the
real implementation; tests use MockClient.

# PORT: Java's overloads become optional arguments: `in_flight_request_count(node_id=None)`,
`has_in_flight_requests(node_id=None)`, `close(node_id=None)` (without a node: close the client), and
`new_client_request(..., request_timeout_ms=None, callback=None)` (None: the client's default timeout).
Node ids are the nodes' id strings, as in Java.
"""

from __future__ import annotations

import abc
from typing import Any, Self

from kafka.clients.client_request import ClientRequest
from kafka.clients.client_response import ClientResponse
from kafka.clients.request_completion_handler import RequestCompletionCallback
from kafka.common.errors import AuthenticationException
from kafka.common.node import Node
from kafka.common.requests.abstract_request import Builder

__all__ = ["KafkaClient"]


class KafkaClient(abc.ABC):
    """A client of many brokers: connection management, request sending and response polling."""

    @abc.abstractmethod
    def is_ready(self, node: Node, now: int) -> bool:
        """Whether a request can be sent to `node` right now (connected, not throttled, room in flight)."""

    @abc.abstractmethod
    def ready(self, node: Node, now: int) -> bool:
        """Like is_ready, but starts connecting to `node` when there is no connection yet."""

    @abc.abstractmethod
    def connection_delay(self, node: Node, now: int) -> int:
        """How long to wait before trying `node` again: the reconnect backoff left when disconnected, 0 when a
        connection can be tried now, a large value while connecting or connected."""

    @abc.abstractmethod
    def poll_delay_ms(self, node: Node, now: int) -> int:
        """How long to wait before `node` may be sent to: the connection delay, or the throttle time left."""

    @abc.abstractmethod
    def connection_failed(self, node: Node) -> bool:
        """Whether the last connection attempt to `node` failed."""

    @abc.abstractmethod
    def authentication_exception(self, node: Node) -> AuthenticationException | None:
        """The authentication error that failed the connection to `node`, if any."""

    @abc.abstractmethod
    def send(self, request: ClientRequest, now: int) -> None:
        """Queues `request` for sending; the destination must be ready."""

    @abc.abstractmethod
    def poll(self, timeout_ms: int, now: int) -> list[ClientResponse]:
        """Does the network I/O (waiting at most `timeout_ms`) and returns the responses completed meanwhile,
        whose callbacks have then run."""

    @abc.abstractmethod
    def disconnect(self, node_id: str) -> None:
        """Closes the connection to `node_id`, failing its in-flight requests as disconnected."""

    @abc.abstractmethod
    def close(self, node_id: str | None = None) -> None:
        """With a node: closes the connection to it without any callbacks. Without: closes the client."""

    @abc.abstractmethod
    def least_loaded_node(self, now: int) -> Node | None:
        """The node with the fewest outstanding requests that can take one now or soon (connected, or a
        connection can be tried), or None when there is none."""

    @abc.abstractmethod
    def in_flight_request_count(self, node_id: str | None = None) -> int:
        """Requests sent (or being sent) and not yet answered, to `node_id` or to all nodes."""

    @abc.abstractmethod
    def has_in_flight_requests(self, node_id: str | None = None) -> bool:
        """Whether any request to `node_id` (or to any node) is in flight."""

    @abc.abstractmethod
    def has_ready_nodes(self, now: int) -> bool:
        """Whether some node is ready for a request."""

    @abc.abstractmethod
    def wakeup(self) -> None:
        """Interrupts a poll blocked in network I/O (callable from any thread)."""

    @abc.abstractmethod
    def new_client_request(
        self,
        node_id: str,
        request_builder: Builder[Any],
        created_time_ms: int,
        expect_response: bool,
        request_timeout_ms: int | None = None,
        callback: RequestCompletionCallback | None = None,
    ) -> ClientRequest:
        """A request to `node_id` with the next correlation id; `request_timeout_ms` None is the client's
        default request timeout."""

    @abc.abstractmethod
    def initiate_close(self) -> None:
        """Starts closing: marks the client inactive and wakes a blocked poll (from any thread)."""

    @abc.abstractmethod
    def active(self) -> bool:
        """False once close has begun."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
