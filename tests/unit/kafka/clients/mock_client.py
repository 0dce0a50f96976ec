"""Port of clients/src/test/java/org/apache/kafka/clients/MockClient.java (Kafka 3.7).

A KafkaClient without a network, for unit tests of the producer, consumer and admin client: connections
become ready when asked, requests queue up in `requests`, and responses are given either in advance
(prepare_response: the next matching request is answered when sent) or afterwards (respond). Metadata
updates are prepared with prepare_metadata_update and applied on poll when the metadata asks for one.

# PORT: Java's ConcurrentLinkedDeques are collections.deque guarded by one RLock, so that a test thread may
inspect or answer requests while another thread polls. Node ids are id strings, as in Java.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from time import monotonic as _monotonic
from typing import Any

from kafka.clients.client_request import ClientRequest
from kafka.clients.client_response import ClientResponse
from kafka.clients.kafka_client import KafkaClient
from kafka.clients.metadata import Metadata
from kafka.clients.node_api_versions import NodeApiVersions
from kafka.clients.request_completion_handler import RequestCompletionCallback
from kafka.common.errors import AuthenticationException, UnsupportedVersionException
from kafka.common.node import Node
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest, Builder
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.metadata_request import MetadataRequestBuilder
from kafka.common.requests.metadata_response import MetadataResponse
from kafka.common.utils.time import Time

__all__ = ["MetadataUpdate", "MockClient", "MockMetadataUpdater", "RequestMatcher"]

RequestMatcher = Callable[[AbstractRequest[Any]], bool]
"""Checks the request a prepared response is about to answer (Java's MockClient.RequestMatcher)."""


def _always_true(body: AbstractRequest[Any]) -> bool:
    return True


_LONG_MAX = 2**63 - 1


@dataclass(frozen=True, slots=True)
class _FutureResponse:
    node: Node | None
    request_matcher: RequestMatcher
    response_body: AbstractResponse | None
    disconnected: bool
    is_unsupported_request: bool


@dataclass(frozen=True, slots=True)
class MetadataUpdate:
    """A prepared metadata response; with `expect_match_refresh_topics` the metadata request must ask for
    exactly its topics."""

    update_response: MetadataResponse
    expect_match_refresh_topics: bool

    def topics(self) -> set[str]:
        return {t.topic for t in self.update_response.topic_metadata()}


class MockMetadataUpdater:
    """What MockClient needs of metadata: the nodes (for least_loaded_node) and whether an update is due.
    The admin client, which keeps no Metadata, brings its own."""

    def fetch_nodes(self) -> Sequence[Node]:
        raise NotImplementedError

    def is_update_needed(self) -> bool:
        raise NotImplementedError

    def update(self, time: Time, update: MetadataUpdate) -> None:
        raise NotImplementedError

    def update_with_current_metadata(self, time: Time) -> None:
        pass

    def close(self) -> None:
        pass


class _NoOpMetadataUpdater(MockMetadataUpdater):
    def fetch_nodes(self) -> Sequence[Node]:
        return []

    def is_update_needed(self) -> bool:
        return False

    def update(self, time: Time, update: MetadataUpdate) -> None:
        raise NotImplementedError("update")


class _StaticMetadataUpdater(_NoOpMetadataUpdater):
    def __init__(self, nodes: Sequence[Node]) -> None:
        self._nodes = list(nodes)

    def fetch_nodes(self) -> Sequence[Node]:
        return self._nodes


class _DefaultMockMetadataUpdater(MockMetadataUpdater):
    def __init__(self, metadata: Metadata) -> None:
        self._metadata = metadata
        self._last_update: MetadataUpdate | None = None

    def fetch_nodes(self) -> Sequence[Node]:
        return self._metadata.fetch().nodes

    def is_update_needed(self) -> bool:
        return self._metadata.update_requested()

    def update_with_current_metadata(self, time: Time) -> None:
        if self._last_update is None:
            raise RuntimeError("No previous metadata update to use")
        self.update(time, self._last_update)

    @staticmethod
    def _maybe_check_expected_topics(update: MetadataUpdate, builder: MetadataRequestBuilder) -> None:
        if update.expect_match_refresh_topics:
            if builder.is_all_topics():
                raise RuntimeError(
                    "The metadata topics does not match expectation. "
                    f"Expected topics: {sorted(update.topics())}, asked topics: ALL"
                )
            requested = set(builder.topics())
            if requested != update.topics():
                raise RuntimeError(
                    "The metadata topics does not match expectation. "
                    f"Expected topics: {sorted(update.topics())}, asked topics: {sorted(requested)}"
                )

    def update(self, time: Time, update: MetadataUpdate) -> None:
        builder = self._metadata.new_metadata_request_builder()
        self._maybe_check_expected_topics(update, builder)
        self._metadata.update_with_current_request_version(update.update_response, False, time.milliseconds())
        self._last_update = update

    def close(self) -> None:
        self._metadata.close()


class _ConnectionState:
    CONNECTING = "CONNECTING"
    CONNECTED = "CONNECTED"
    DISCONNECTED = "DISCONNECTED"

    def __init__(self) -> None:
        self.throttled_until_ms = 0
        self.ready_delayed_until_ms = 0
        self.backing_off_until_ms = 0
        self.unreachable_until_ms = 0
        self.state = self.DISCONNECTED

    def backoff(self, until_ms: int) -> None:
        self.backing_off_until_ms = until_ms

    def throttle(self, until_ms: int) -> None:
        self.throttled_until_ms = until_ms

    def set_unreachable(self, until_ms: int) -> None:
        self.unreachable_until_ms = until_ms

    def set_ready_delayed(self, until_ms: int) -> None:
        self.ready_delayed_until_ms = until_ms

    def is_ready(self, now: int) -> bool:
        return self.state == self.CONNECTED and self.not_throttled(now)

    def is_ready_delayed(self, now: int) -> bool:
        return now < self.ready_delayed_until_ms

    def not_throttled(self, now: int) -> bool:
        return now > self.throttled_until_ms

    def is_backing_off(self, now: int) -> bool:
        return now < self.backing_off_until_ms

    def is_unreachable(self, now: int) -> bool:
        return now < self.unreachable_until_ms

    def disconnect(self) -> None:
        self.state = self.DISCONNECTED

    def connection_delay(self, now: int) -> int:
        if self.state != self.DISCONNECTED:
            return _LONG_MAX
        if self.backing_off_until_ms > now:
            return self.backing_off_until_ms - now
        return 0

    def ready(self, now: int) -> bool:
        if self.state == self.CONNECTED:
            return self.not_throttled(now)
        if self.state == self.CONNECTING:
            if self.is_ready_delayed(now):
                return False
            self.state = self.CONNECTED
            return self.ready(now)
        # DISCONNECTED
        if self.is_backing_off(now):
            return False
        if self.is_unreachable(now):
            self.backing_off_until_ms = now + 100
            return False
        self.state = self.CONNECTING
        return self.ready(now)


class MockClient(KafkaClient):
    """A scriptable KafkaClient for unit tests."""

    ALWAYS_TRUE: RequestMatcher = staticmethod(_always_true)

    def __init__(self, time: Time, metadata: Metadata | MockMetadataUpdater | Sequence[Node] | None = None) -> None:
        """# PORT: Java's four constructors in one: no metadata, a Metadata, a MockMetadataUpdater, or a static
        list of nodes."""
        self._time = time
        if metadata is None:
            self._metadata_updater: MockMetadataUpdater = _NoOpMetadataUpdater()
        elif isinstance(metadata, Metadata):
            self._metadata_updater = _DefaultMockMetadataUpdater(metadata)
        elif isinstance(metadata, MockMetadataUpdater):
            self._metadata_updater = metadata
        else:
            self._metadata_updater = _StaticMetadataUpdater(metadata)
        self._lock = threading.RLock()
        self._wakeup_cond = threading.Condition(self._lock)
        self._correlation = 0
        self._wakeup_hook: Callable[[], None] | None = None
        self._connections: dict[str, _ConnectionState] = {}
        self._pending_authentication_errors: dict[Node, int] = {}
        self._authentication_errors: dict[Node, AuthenticationException] = {}
        self._requests: deque[ClientRequest] = deque()
        self._responses: deque[ClientResponse] = deque()
        self._future_responses: deque[_FutureResponse] = deque()
        self._metadata_updates: deque[MetadataUpdate] = deque()
        self._node_api_versions = NodeApiVersions.create()
        self._num_blocking_wakeups = 0
        self._active = True
        self._disconnect_future: Future[str] | None = None
        self._ready_callback: Callable[[Node], None] | None = None

    # -- connections ----------------------------------------------------------------------------------------

    def is_connected(self, id_string: str) -> bool:
        with self._lock:
            return self._connection_state(id_string).state == _ConnectionState.CONNECTED

    def _connection_state(self, id_string: str) -> _ConnectionState:
        state = self._connections.get(id_string)
        if state is None:
            state = self._connections[id_string] = _ConnectionState()
        return state

    def is_ready(self, node: Node, now: int) -> bool:
        with self._lock:
            return self._connection_state(node.id_string).is_ready(now)

    def ready(self, node: Node, now: int) -> bool:
        callback = self._ready_callback
        if callback is not None:
            callback(node)
        with self._lock:
            return self._connection_state(node.id_string).ready(now)

    def connection_delay(self, node: Node, now: int) -> int:
        with self._lock:
            return self._connection_state(node.id_string).connection_delay(now)

    def poll_delay_ms(self, node: Node, now: int) -> int:
        return self.connection_delay(node, now)

    def backoff(self, node: Node, duration_ms: int) -> None:
        with self._lock:
            self._connection_state(node.id_string).backoff(self._time.milliseconds() + duration_ms)

    def set_unreachable(self, node: Node, duration_ms: int) -> None:
        with self._lock:
            self.disconnect(node.id_string)
            self._connection_state(node.id_string).set_unreachable(self._time.milliseconds() + duration_ms)

    def throttle(self, node: Node, duration_ms: int) -> None:
        with self._lock:
            self._connection_state(node.id_string).throttle(self._time.milliseconds() + duration_ms)

    def delay_ready(self, node: Node, duration_ms: int) -> None:
        with self._lock:
            self._connection_state(node.id_string).set_ready_delayed(self._time.milliseconds() + duration_ms)

    def authentication_failed(self, node: Node, backoff_ms: int) -> None:
        with self._lock:
            self._pending_authentication_errors.pop(node, None)
            error = Errors.SASL_AUTHENTICATION_FAILED.exception()
            assert isinstance(error, AuthenticationException)
            self._authentication_errors[node] = error
            self.disconnect(node.id_string)
            self.backoff(node, backoff_ms)

    def create_pending_authentication_error(self, node: Node, backoff_ms: int) -> None:
        with self._lock:
            self._pending_authentication_errors[node] = backoff_ms

    def connection_failed(self, node: Node) -> bool:
        with self._lock:
            return self._connection_state(node.id_string).is_backing_off(self._time.milliseconds())

    def authentication_exception(self, node: Node) -> AuthenticationException | None:
        with self._lock:
            return self._authentication_errors.get(node)

    def set_ready_callback(self, on_ready_call: Callable[[Node], None] | None) -> None:
        self._ready_callback = on_ready_call

    def set_disconnect_future(self, disconnect_future: Future[str] | None) -> None:
        self._disconnect_future = disconnect_future

    def disconnect(self, node_id: str, allow_late_responses: bool = False) -> None:
        """Fails the requests to `node_id` as disconnected; with `allow_late_responses` they stay queued, so a
        response may still be given for them."""
        with self._lock:
            now = self._time.milliseconds()
            kept: deque[ClientRequest] = deque()
            for request in self._requests:
                if request.destination == node_id:
                    version = request.request_builder.latest_allowed_version
                    self._responses.append(
                        ClientResponse(
                            request.make_header(version),
                            request.callback,
                            request.destination,
                            request.created_time_ms,
                            now,
                            True,
                            None,
                            None,
                            None,
                        )
                    )
                    if not allow_late_responses:
                        continue
                kept.append(request)
            self._requests = kept
            future = self._disconnect_future
            if future is not None and not future.done():
                future.set_result(node_id)
            self._connection_state(node_id).disconnect()

    # -- sending and polling --------------------------------------------------------------------------------

    def send(self, request: ClientRequest, now: int) -> None:
        with self._lock:
            if not self._connection_state(request.destination).is_ready(now):
                raise RuntimeError(f"Cannot send {request} since the destination is not ready")

            # A node with a pending authentication error fails the request and the connection.
            for node, backoff_ms in list(self._pending_authentication_errors.items()):
                if node.id_string == request.destination:
                    del self._pending_authentication_errors[node]
                    self.authentication_failed(node, backoff_ms)
                    builder = request.request_builder
                    version = self._node_api_versions.latest_usable_version(
                        request.api_key, builder.oldest_allowed_version, builder.latest_allowed_version
                    )
                    self._responses.append(
                        ClientResponse(
                            request.make_header(version),
                            request.callback,
                            request.destination,
                            request.created_time_ms,
                            self._time.milliseconds(),
                            True,
                            None,
                            AuthenticationException("Authentication failed"),
                            None,
                        )
                    )
                    return

            for future_resp in list(self._future_responses):
                if future_resp.node is not None and request.destination != future_resp.node.id_string:
                    continue
                builder = request.request_builder
                try:
                    version = self._node_api_versions.latest_usable_version(
                        request.api_key, builder.oldest_allowed_version, builder.latest_allowed_version
                    )
                    unsupported: UnsupportedVersionException | None = None
                    if future_resp.is_unsupported_request:
                        unsupported = UnsupportedVersionException(f"Api {request.api_key.name} with version {version}")
                    else:
                        body = builder.build(version)
                        if not future_resp.request_matcher(body):
                            raise RuntimeError(
                                f"Request matcher did not match next-in-line request {body} with prepared response "
                                f"{future_resp.response_body}"
                            )
                    response = ClientResponse(
                        request.make_header(version),
                        request.callback,
                        request.destination,
                        request.created_time_ms,
                        self._time.milliseconds(),
                        future_resp.disconnected,
                        unsupported,
                        None,
                        future_resp.response_body,
                    )
                except UnsupportedVersionException as e:
                    response = ClientResponse(
                        request.make_header(builder.latest_allowed_version),
                        request.callback,
                        request.destination,
                        request.created_time_ms,
                        self._time.milliseconds(),
                        False,
                        e,
                        None,
                        None,
                    )
                self._responses.append(response)
                self._future_responses.remove(future_resp)
                return

            self._requests.append(request)
            self._wakeup_cond.notify_all()

    def enable_blocking_until_wakeup(self, num_blocking_wakeups: int) -> None:
        """Makes the next `num_blocking_wakeups` polls block until wakeup() is called (at most 5 s each)."""
        with self._lock:
            self._num_blocking_wakeups = num_blocking_wakeups

    def wakeup(self) -> None:
        with self._lock:
            if self._num_blocking_wakeups > 0:
                self._num_blocking_wakeups -= 1
                self._wakeup_cond.notify_all()
            hook = self._wakeup_hook
        if hook is not None:
            hook()

    def _maybe_await_wakeup(self) -> None:
        with self._lock:
            remaining = self._num_blocking_wakeups
            if remaining <= 0:
                return
            if not self._wakeup_cond.wait_for(lambda: self._num_blocking_wakeups < remaining, timeout=5.0):
                raise AssertionError("Failed to receive expected wakeup")

    def poll(self, timeout_ms: int, now: int) -> list[ClientResponse]:
        self._maybe_await_wakeup()
        with self._lock:
            self._check_timeout_of_pending_requests(now)
            # Metadata is not updated while every node is backing off.
            if self._metadata_updater.is_update_needed() and self.least_loaded_node(now) is not None:
                if self._metadata_updates:
                    self._metadata_updater.update(self._time, self._metadata_updates.popleft())
                else:
                    self._metadata_updater.update_with_current_metadata(self._time)
            completed = list(self._responses)
            self._responses.clear()
        # Callbacks run outside the lock: they may call back into the client.
        for response in completed:
            response.on_complete()
        return completed

    def _check_timeout_of_pending_requests(self, now_ms: int) -> None:
        while self._requests:
            request = self._requests[0]
            if max(0, now_ms - request.created_time_ms) < request.request_timeout_ms:
                break
            self.disconnect(request.destination)
            if self._requests and self._requests[0] is request:
                self._requests.popleft()

    # -- scripting ------------------------------------------------------------------------------------------

    @property
    def requests(self) -> deque[ClientRequest]:
        """The requests sent and not yet answered, oldest first."""
        return self._requests

    @property
    def responses(self) -> deque[ClientResponse]:
        """The responses the next poll returns."""
        return self._responses

    @property
    def future_responses(self) -> deque[_FutureResponse]:
        return self._future_responses

    def respond(
        self,
        response_or_matcher: AbstractResponse | RequestMatcher,
        response: AbstractResponse | bool | None = None,
        disconnected: bool = False,
    ) -> None:
        """Answers the oldest request: `respond(response, disconnected=False)` or `respond(matcher, response)`,
        the latter failing if the matcher rejects the request."""
        with self._lock:
            if isinstance(response_or_matcher, AbstractResponse):
                body = response_or_matcher
                if isinstance(response, bool):
                    disconnected = response
            else:
                matcher = response_or_matcher
                assert isinstance(response, AbstractResponse)
                body = response
                if not self._requests:
                    raise RuntimeError("No current requests queued")
                next_request = self._requests[0]
                built = next_request.request_builder.build()
                if not matcher(built):
                    raise RuntimeError(f"Next in line response did not match expected request, request: {built}")
            if not self._requests:
                raise RuntimeError(f"No requests pending for inbound response {body}")
            request = self._requests.popleft()
            version = request.request_builder.latest_allowed_version
            self._responses.append(
                ClientResponse(
                    request.make_header(version),
                    request.callback,
                    request.destination,
                    request.created_time_ms,
                    self._time.milliseconds(),
                    disconnected,
                    None,
                    None,
                    body,
                )
            )

    def respond_to_request(self, client_request: ClientRequest, response: AbstractResponse) -> None:
        """Answers one given request (Java's respondToRequest)."""
        with self._lock:
            self._requests.remove(client_request)
            version = client_request.request_builder.latest_allowed_version
            self._responses.append(
                ClientResponse(
                    client_request.make_header(version),
                    client_request.callback,
                    client_request.destination,
                    client_request.created_time_ms,
                    self._time.milliseconds(),
                    False,
                    None,
                    None,
                    response,
                )
            )

    def respond_from(self, response: AbstractResponse, node: Node, disconnected: bool = False) -> None:
        """Answers the oldest request to `node`."""
        with self._lock:
            for request in self._requests:
                if request.destination == node.id_string:
                    self._requests.remove(request)
                    version = request.request_builder.latest_allowed_version
                    self._responses.append(
                        ClientResponse(
                            request.make_header(version),
                            request.callback,
                            request.destination,
                            request.created_time_ms,
                            self._time.milliseconds(),
                            disconnected,
                            None,
                            None,
                            response,
                        )
                    )
                    return
            raise ValueError(f"No requests available to node {node}")

    def prepare_response(
        self,
        response_or_matcher: AbstractResponse | RequestMatcher | None,
        response: AbstractResponse | bool | None = None,
        disconnected: bool = False,
    ) -> None:
        """Answers the next request sent (to any node) with a response: `prepare_response(response,
        disconnected=False)` or `prepare_response(matcher, response, disconnected=False)`; a request the matcher
        rejects makes send() fail."""
        matcher, body, disconnected = self._split_args(response_or_matcher, response, disconnected)
        self._prepare_response_from(matcher, body, None, disconnected, False)

    def prepare_response_from(
        self,
        response_or_matcher: AbstractResponse | RequestMatcher | None,
        response_or_node: AbstractResponse | Node | None,
        node: Node | bool | None = None,
        disconnected: bool = False,
    ) -> None:
        """Like prepare_response, for the next request to `node`: `prepare_response_from(response, node,
        disconnected=False)` or `prepare_response_from(matcher, response, node, disconnected=False)`."""
        if isinstance(response_or_node, Node):
            # (response, node[, disconnected])
            if isinstance(node, bool):
                disconnected = node
            assert response_or_matcher is None or isinstance(response_or_matcher, AbstractResponse)
            self._prepare_response_from(_always_true, response_or_matcher, response_or_node, disconnected, False)
            return
        assert callable(response_or_matcher) and isinstance(node, Node)
        assert response_or_node is None or isinstance(response_or_node, AbstractResponse)
        self._prepare_response_from(response_or_matcher, response_or_node, node, disconnected, False)

    def prepare_unsupported_version_response(self, matcher: RequestMatcher) -> None:
        """Fails the next request (if the matcher accepts it) with UnsupportedVersionException."""
        self._prepare_response_from(matcher, None, None, False, True)

    @staticmethod
    def _split_args(
        response_or_matcher: AbstractResponse | RequestMatcher | None,
        response: AbstractResponse | bool | None,
        disconnected: bool,
    ) -> tuple[RequestMatcher, AbstractResponse | None, bool]:
        if response_or_matcher is None or isinstance(response_or_matcher, AbstractResponse):
            if isinstance(response, bool):
                disconnected = response
            return _always_true, response_or_matcher, disconnected
        assert response is None or isinstance(response, AbstractResponse)
        return response_or_matcher, response, disconnected

    def _prepare_response_from(
        self,
        matcher: RequestMatcher,
        response: AbstractResponse | None,
        node: Node | None,
        disconnected: bool,
        is_unsupported_version: bool,
    ) -> None:
        with self._lock:
            self._future_responses.append(
                _FutureResponse(node, matcher, response, disconnected, is_unsupported_version)
            )

    def wait_for_requests(self, min_requests: int, max_wait_ms: int) -> None:
        """Waits (bounded) until at least `min_requests` requests are queued."""
        deadline = _monotonic() + max_wait_ms / 1000
        with self._lock:
            while len(self._requests) < min_requests:
                remaining = deadline - _monotonic()
                if remaining <= 0:
                    raise AssertionError("Expected requests have not been sent")
                self._wakeup_cond.wait(min(remaining, 0.05))

    def reset(self) -> None:
        with self._lock:
            self._connections.clear()
            self._requests.clear()
            self._responses.clear()
            self._future_responses.clear()
            self._metadata_updates.clear()
            self._authentication_errors.clear()

    def has_pending_metadata_updates(self) -> bool:
        return bool(self._metadata_updates)

    def num_awaiting_responses(self) -> int:
        return len(self._future_responses)

    def prepare_metadata_update(
        self, update_response: MetadataResponse, expect_match_metadata_topics: bool = False
    ) -> None:
        """Queues a metadata response for the next poll that finds an update needed."""
        with self._lock:
            self._metadata_updates.append(MetadataUpdate(update_response, expect_match_metadata_topics))

    def update_metadata(self, update_response: MetadataResponse) -> None:
        """Applies a metadata response now."""
        with self._lock:
            self._metadata_updater.update(self._time, MetadataUpdate(update_response, False))

    def in_flight_request_count(self, node_id: str | None = None) -> int:
        with self._lock:
            if node_id is None:
                return len(self._requests)
            return sum(1 for r in self._requests if r.destination == node_id)

    def has_in_flight_requests(self, node_id: str | None = None) -> bool:
        return self.in_flight_request_count(node_id) > 0

    def has_pending_responses(self) -> bool:
        with self._lock:
            return bool(self._responses) or bool(self._future_responses)

    def has_ready_nodes(self, now: int) -> bool:
        with self._lock:
            return any(c.is_ready(now) for c in self._connections.values())

    def new_client_request(
        self,
        node_id: str,
        request_builder: Builder[Any],
        created_time_ms: int,
        expect_response: bool,
        request_timeout_ms: int | None = None,
        callback: RequestCompletionCallback | None = None,
    ) -> ClientRequest:
        with self._lock:
            correlation = self._correlation
            self._correlation += 1
        return ClientRequest(
            node_id,
            request_builder,
            correlation,
            "mockClientId",
            created_time_ms,
            expect_response,
            5000 if request_timeout_ms is None else request_timeout_ms,
            callback,
        )

    def initiate_close(self) -> None:
        self.close()

    def active(self) -> bool:
        return self._active

    def close(self, node_id: str | None = None) -> None:
        with self._lock:
            if node_id is not None:
                self._connections.pop(node_id, None)
                return
            self._active = False
            self._metadata_updater.close()

    def least_loaded_node(self, now: int) -> Node | None:
        with self._lock:
            # As NetworkClient: nodes waiting out a reconnect backoff are never chosen.
            for node in self._metadata_updater.fetch_nodes():
                if not self._connection_state(node.id_string).is_backing_off(now):
                    return node
            return None

    def set_wakeup_hook(self, wakeup_hook: Callable[[], None] | None) -> None:
        self._wakeup_hook = wakeup_hook

    def set_node_api_versions(self, node_api_versions: NodeApiVersions) -> None:
        self._node_api_versions = node_api_versions
