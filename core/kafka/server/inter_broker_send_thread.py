"""Port of core/src/main/scala/kafka/common/InterBrokerSendThread.scala (Kafka 2.8).

The base of the broker's threads that send requests to other brokers over a non-blocking NetworkClient (the
clients' network layer): the broker-to-controller request thread and the transaction marker sender. A subclass
says what to send next (`generate_requests`); this thread hands the requests to the client as their destinations
become ready, polls it, and completes with a disconnect the requests whose destination failed or that waited
unsent past the request timeout.

# PORT: Kafka keeps this class in the kafka.common package of core. In this port `kafka.common` is the clients'
# package (org.apache.kafka.common), so it lives in kafka.server, next to its users' channel managers. Kafka turns
# an unexpected error into FatalExitError (the broker exits); here the error is logged and re-raised, which ends
# the thread (ShutdownableThread logs it).
"""

from __future__ import annotations

from abc import abstractmethod
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from kafka.clients.client_request import ClientRequest
from kafka.clients.client_response import ClientResponse
from kafka.clients.kafka_client import KafkaClient
from kafka.clients.request_completion_handler import RequestCompletionCallback
from kafka.common.errors import AuthenticationException, DisconnectException
from kafka.common.node import Node
from kafka.common.requests.abstract_request import Builder
from kafka.common.utils.time import Time
from kafka.utils.shutdownable_thread import ShutdownableThread

# Java's Long.MaxValue: no bound on the poll timeout.
_LONG_MAX: Final = 2**63 - 1


@dataclass(frozen=True, slots=True)
class RequestAndCompletionHandler:
    creation_time_ms: int
    destination: Node
    request: Builder[Any]
    handler: RequestCompletionCallback


class _UnsentRequests:
    """Requests generated but not yet handed to the network client, per destination, in order."""

    def __init__(self) -> None:
        self.unsent: dict[Node, deque[ClientRequest]] = {}

    def put(self, node: Node, request: ClientRequest) -> None:
        self.unsent.setdefault(node, deque()).append(request)

    def remove_all_timed_out(self, now: int) -> list[ClientRequest]:
        """At most one expired request per destination (the oldest that has expired), removed."""
        expired_requests: list[ClientRequest] = []
        for requests in self.unsent.values():
            for request in requests:
                elapsed_ms = max(0, now - request.created_time_ms)
                if elapsed_ms > request.request_timeout_ms:
                    expired_requests.append(request)
                    requests.remove(request)
                    break
        return expired_requests

    def clean(self) -> None:
        for node in [n for n, requests in self.unsent.items() if not requests]:
            del self.unsent[node]

    def has_unsent(self) -> bool:
        return any(self.unsent.values())


class InterBrokerSendThread(ShutdownableThread):
    """A thread that sends the requests `generate_requests` produces over a non-blocking NetworkClient and runs
    their handlers as the answers come. Only this thread polls the client; `wakeup` may be called from any."""

    def __init__(
        self, name: str, network_client: KafkaClient, request_timeout_ms: int, time: Time, is_interruptible: bool = True
    ) -> None:
        super().__init__(name, is_interruptible)
        self.network_client = network_client
        self.request_timeout_ms = request_timeout_ms
        self.time = time
        self._unsent_requests = _UnsentRequests()

    @abstractmethod
    def generate_requests(self) -> Iterable[RequestAndCompletionHandler]: ...

    @property
    def has_unsent_requests(self) -> bool:
        return self._unsent_requests.has_unsent()

    def shutdown(self) -> None:
        self.initiate_shutdown()
        self.network_client.initiate_close()
        self.await_shutdown()
        self.network_client.close()

    def _drain_generated_requests(self) -> None:
        for request in self.generate_requests():
            self._unsent_requests.put(
                request.destination,
                self.network_client.new_client_request(
                    request.destination.id_string,
                    request.request,
                    request.creation_time_ms,
                    True,
                    self.request_timeout_ms,
                    request.handler,
                ),
            )

    def poll_once(self, max_timeout_ms: int) -> None:
        try:
            self._drain_generated_requests()
            now = self.time.milliseconds()
            timeout = self._send_requests(now, max_timeout_ms)
            self.network_client.poll(timeout, now)
            now = self.time.milliseconds()
            self._check_disconnects(now)
            self._fail_expired_requests(now)
            self._unsent_requests.clean()
        except DisconnectException:
            if self.network_client.active():
                self.error("unhandled exception caught in InterBrokerSendThread")
                raise
            # Expected once initiate_close has been called.
        except Exception as e:
            # Some requests may have been dropped and the thread cannot know which: it stops (Kafka exits).
            self.error("unhandled exception caught in InterBrokerSendThread", e)
            raise

    def do_work(self) -> None:
        self.poll_once(_LONG_MAX)

    def _send_requests(self, now: int, max_timeout_ms: int) -> int:
        poll_timeout = max_timeout_ms
        for node, requests in self._unsent_requests.unsent.items():
            while requests:
                if self.network_client.ready(node, now):
                    self.network_client.send(requests.popleft(), now)
                else:
                    poll_timeout = min(poll_timeout, self.network_client.connection_delay(node, now))
                    break
        return poll_timeout

    def _check_disconnects(self, now: int) -> None:
        # Requests already sent are failed by the NetworkClient itself when their connection goes; the ones still
        # waiting here are failed with a disconnect once their destination's connection has failed.
        for node in list(self._unsent_requests.unsent):
            requests = self._unsent_requests.unsent[node]
            if requests and self.network_client.connection_failed(node):
                del self._unsent_requests.unsent[node]
                for request in requests:
                    authentication_exception = self.network_client.authentication_exception(node)
                    if authentication_exception is not None:
                        self.error(f"Failed to send the following request due to authentication error: {request}")
                    self.complete_with_disconnect(request, now, authentication_exception)

    def _fail_expired_requests(self, now: int) -> None:
        for request in self._unsent_requests.remove_all_timed_out(now):
            self.debug(f"Failed to send the following request after {request.request_timeout_ms} ms: {request}")
            self.complete_with_disconnect(request, now, None)

    def complete_with_disconnect(
        self, request: ClientRequest, now: int, authentication_exception: AuthenticationException | None
    ) -> None:
        handler = request.callback
        response = ClientResponse(
            request.make_header(request.request_builder.latest_allowed_version),
            handler,
            request.destination,
            now,
            now,
            True,
            None,
            authentication_exception,
            None,
        )
        if handler is not None:
            handler(response)

    def wakeup(self) -> None:
        self.network_client.wakeup()
