"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/ConsumerNetworkClient.java (Kafka 3.7).

The consumer's wrapper of a KafkaClient, shared by the application thread and the heartbeat thread. `send`
queues a request (from any thread) and returns a RequestFuture; `poll` sends what can be sent, waits on
the network (at most the timer, and not at all once the poll condition is met), completes futures and
fails queued requests whose nodes disconnected or that timed out before they could be sent. Completion
handlers run outside the client lock, so they may take other locks (the coordinator's) without risking a
deadlock. `wakeup` makes the next (or current) poll of the application thread raise WakeupException.

Lock order: a coordinator's lock, then this client's lock, never the reverse.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from kafka.clients.client_request import ClientRequest
from kafka.clients.client_response import ClientResponse
from kafka.clients.consumer.internals.request_future import RequestFuture
from kafka.clients.kafka_client import KafkaClient
from kafka.clients.metadata import Metadata
from kafka.common.errors import DisconnectException, TimeoutException, WakeupException
from kafka.common.node import Node
from kafka.common.requests.abstract_request import Builder
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import Time, Timer

__all__ = ["ConsumerNetworkClient", "PollCondition"]

_LONG_MAX = 2**63 - 1


class PollCondition(Protocol):
    def should_block(self) -> bool: ...


class _FunctionPollCondition:
    __slots__ = ("_fn",)

    def __init__(self, fn: Callable[[], bool]) -> None:
        self._fn = fn

    def should_block(self) -> bool:
        return self._fn()


_get_ident = threading.get_ident


class _FairLock:
    """A reentrant lock granted in arrival order (Java's `new ReentrantLock(true)`).

    # PORT: Python's RLock is not fair; a thread that releases and at once re-acquires it (the application
    thread looping in poll) could starve the heartbeat thread. Waiters queue here and are served in turn."""

    def __init__(self) -> None:
        self._mutex = threading.Lock()
        self._cond = threading.Condition(self._mutex)
        self._owner: int | None = None
        self._count = 0
        self._waiters: deque[object] = deque()

    def acquire(self) -> None:
        me = _get_ident()
        # Read without the mutex: no other thread sets or clears this thread's ownership.
        if self._owner == me:
            self._count += 1
            return
        # The mutex taken without `with` (which binds __enter__/__exit__ on every use): this runs ~10 times a poll.
        mutex = self._mutex
        mutex.acquire()
        try:
            if self._owner is None and not self._waiters:
                self._owner = me
                self._count = 1
                return
            ticket = object()
            self._waiters.append(ticket)
            while self._owner is not None or self._waiters[0] is not ticket:
                self._cond.wait()
            self._waiters.popleft()
            self._owner = me
            self._count = 1
        finally:
            mutex.release()

    def release(self, *_exc: object) -> None:
        """Releases one hold; as __exit__ it ignores the exception details."""
        if self._owner != _get_ident():
            raise RuntimeError("cannot release un-acquired lock")
        if self._count > 1:
            self._count -= 1
            return
        mutex = self._mutex
        mutex.acquire()
        try:
            self._count = 0
            self._owner = None
            if self._waiters:
                self._cond.notify_all()
        finally:
            mutex.release()

    # `with lock:` calls acquire and release directly (no frame in between); nothing uses the `as` value.
    __enter__ = acquire
    __exit__ = release


class _RequestFutureCompletionHandler:
    """The callback of a request sent through this client: it queues itself for completion outside the lock.

    # PORT: once it has fired, the handler lets go of its future and response. The response refers to the handler
    # (its callback) and the future to the response, so holding them made a reference cycle that kept each response,
    # a fetch response's records buffer with it, until a full garbage collection (the JVM's collector does not care).
    """

    __slots__ = ("_client", "_future", "_response", "_e")

    def __init__(self, client: ConsumerNetworkClient, future: RequestFuture[ClientResponse]) -> None:
        self._client = client
        self._future: RequestFuture[ClientResponse] | None = future
        self._response: ClientResponse | None = None
        self._e: BaseException | None = None

    def fire_completion(self) -> None:
        future = self._future
        if future is None:
            return
        response = self._response
        self._future = None
        self._response = None
        if self._e is not None:
            future.raise_(self._e)
            return
        assert response is not None
        if response.authentication_exception is not None:
            future.raise_(response.authentication_exception)
        elif response.was_disconnected:
            self._client.log.debug(
                f"Cancelled request with header {response.request_header} due to node {response.destination} being "
                "disconnected"
            )
            future.raise_(DisconnectException())
        elif response.version_mismatch is not None:
            future.raise_(response.version_mismatch)
        else:
            future.complete(response)

    def on_failure(self, e: BaseException) -> None:
        self._e = e
        self._client._pending_completion.append(self)

    def __call__(self, response: ClientResponse) -> None:
        """Java's onComplete (RequestCompletionHandler)."""
        self._response = response
        self._client._pending_completion.append(self)


class _UnsentRequests:
    """Requests waiting for their node to be ready, per node in arrival order."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._unsent: dict[Node, deque[ClientRequest]] = {}

    def put(self, node: Node, request: ClientRequest) -> None:
        with self._lock:
            self._unsent.setdefault(node, deque()).append(request)

    def request_count(self, node: Node | None = None) -> int:
        with self._lock:
            if node is None:
                return sum(len(q) for q in self._unsent.values())
            q = self._unsent.get(node)
            return 0 if q is None else len(q)

    def has_requests(self, node: Node | None = None) -> bool:
        return self.request_count(node) > 0

    def remove_expired_requests(self, now: int) -> list[ClientRequest]:
        expired: list[ClientRequest] = []
        with self._lock:
            for requests in self._unsent.values():
                while requests:
                    request = requests[0]
                    if max(0, now - request.created_time_ms) > request.request_timeout_ms:
                        expired.append(requests.popleft())
                    else:
                        break
        return expired

    def clean(self) -> None:
        with self._lock:
            for node in [n for n, q in self._unsent.items() if not q]:
                del self._unsent[node]

    def remove(self, node: Node) -> list[ClientRequest]:
        with self._lock:
            q = self._unsent.pop(node, None)
            return [] if q is None else list(q)

    def nodes(self) -> list[Node]:
        with self._lock:
            return list(self._unsent)

    def peek(self, node: Node) -> ClientRequest | None:
        with self._lock:
            q = self._unsent.get(node)
            return q[0] if q else None

    def pop(self, node: Node) -> None:
        with self._lock:
            q = self._unsent.get(node)
            if q:
                q.popleft()


class ConsumerNetworkClient:
    """Thread-safe (see the module docstring)."""

    MAX_POLL_TIMEOUT_MS = 5000

    def __init__(
        self,
        log_context: LogContext,
        client: KafkaClient,
        metadata: Metadata,
        time: Time,
        retry_backoff_ms: int,
        request_timeout_ms: int,
        max_poll_timeout_ms: int,
    ) -> None:
        self.log = log_context.logger("org.apache.kafka.clients.consumer.internals.ConsumerNetworkClient")
        self._client = client
        self._metadata = metadata
        self._time = time
        self._retry_backoff_ms = retry_backoff_ms
        self._max_poll_timeout_ms = min(max_poll_timeout_ms, self.MAX_POLL_TIMEOUT_MS)
        self._request_timeout_ms = request_timeout_ms
        self._unsent = _UnsentRequests()
        self._lock = _FairLock()
        # Handlers of finished requests, run outside the lock; and nodes to disconnect on the next poll.
        self._pending_completion: deque[_RequestFutureCompletionHandler] = deque()
        self._completed_request_count = 0
        self._pending_disconnects: deque[Node] = deque()
        self._wakeup_disabled = False
        self._wakeup = threading.Event()

    def default_request_timeout_ms(self) -> int:
        return self._request_timeout_ms

    def send(
        self, node: Node, request_builder: Builder[Any], request_timeout_ms: int | None = None
    ) -> RequestFuture[ClientResponse]:
        """Queues a request to `node`; it goes out on the next poll. Thread-safe."""
        timeout = self._request_timeout_ms if request_timeout_ms is None else request_timeout_ms
        now = self._time.milliseconds()
        future: RequestFuture[ClientResponse] = RequestFuture()
        handler = _RequestFutureCompletionHandler(self, future)
        client_request = self._client.new_client_request(node.id_string, request_builder, now, True, timeout, handler)
        self._unsent.put(node, client_request)
        # The client may be blocked in poll: wake it so the request goes out.
        self._client.wakeup()
        return future

    def least_loaded_node(self) -> Node | None:
        with self._lock:
            return self._client.least_loaded_node(self._time.milliseconds())

    def has_ready_nodes(self, now: int) -> bool:
        with self._lock:
            return self._client.has_ready_nodes(now)

    def await_metadata_update(self, timer: Timer) -> bool:
        """Asks for a metadata update and polls until it arrives or the timer expires; returns whether it did."""
        version = self._metadata.request_update(False)
        while True:
            self.poll(timer)
            if not (self._metadata.update_version() == version and timer.not_expired()):
                break
        return self._metadata.update_version() > version

    def ensure_fresh_metadata(self, timer: Timer) -> bool:
        if self._metadata.update_requested() or self._metadata.time_to_next_update(timer.current_time_ms()) == 0:
            return self.await_metadata_update(timer)
        return True

    def wakeup(self) -> None:
        """Makes a blocked (or the next) poll raise WakeupException. Callable from any thread."""
        self.log.debug("Received user wakeup")
        self._wakeup.set()
        self._client.wakeup()

    def poll_future(self, future: RequestFuture[Any], timer: Timer | None = None, disable_wakeup: bool = False) -> bool:
        """Polls until `future` is done (or the timer expires); returns whether it is done.

        # PORT: Java's poll(RequestFuture) and poll(RequestFuture, Timer[, boolean]) overloads."""
        if timer is None:
            while not future.is_done():
                self.poll(self._time.timer(_LONG_MAX), future)
            return True
        while True:
            self.poll(timer, future, disable_wakeup)
            if future.is_done() or not timer.not_expired():
                break
        return future.is_done()

    def poll(
        self,
        timer: Timer,
        poll_condition: PollCondition | Callable[[], bool] | None = None,
        disable_wakeup: bool = False,
    ) -> None:
        """One round of network I/O: blocks at most the timer (and not once `poll_condition` says so).

        # PORT: a poll condition may also be a function returning whether to keep blocking."""
        condition: PollCondition | None
        if poll_condition is None or isinstance(poll_condition, (RequestFuture, _FunctionPollCondition)):
            condition = poll_condition
        elif callable(poll_condition):
            condition = _FunctionPollCondition(poll_condition)
        else:
            condition = poll_condition
        # Handlers may be waiting from a previous poll that was woken up.
        self._fire_pending_completed_requests()
        with self._lock:
            # Disconnects asked for by other threads come before any sends.
            self._handle_pending_disconnects()
            poll_delay_ms = self.try_send(timer.current_time_ms())
            # A handler fired meanwhile may satisfy the condition: then do not block.
            if not self._pending_completion and (condition is None or condition.should_block()):
                poll_timeout = min(timer.remaining_ms(), poll_delay_ms)
                if self._client.in_flight_request_count() == 0:
                    poll_timeout = min(poll_timeout, self._retry_backoff_ms)
                self._client.poll(poll_timeout, timer.current_time_ms())
            else:
                self._client.poll(0, timer.current_time_ms())
            timer.update()
            # Checked right after poll: a later ready() would clear the disconnected state.
            self._check_disconnects(timer.current_time_ms())
            if not disable_wakeup:
                self.maybe_trigger_wakeup()
            # PORT: Java also raises InterruptException here if the thread was interrupted; Python threads
            # cannot be interrupted.
            # Space may have been freed or a connection completed: try again.
            self.try_send(timer.current_time_ms())
            self._fail_expired_requests(timer.current_time_ms())
            self._unsent.clean()
        self._fire_pending_completed_requests()
        self._metadata.maybe_throw_any_exception()

    def poll_no_wakeup(self) -> None:
        """Polls once without blocking and without raising WakeupException."""
        self.poll(self._time.timer(0), None, True)

    def transmit_sends(self) -> None:
        """Sends what can be sent, without handling anything else."""
        timer = self._time.timer(0)
        with self._lock:
            self.try_send(timer.current_time_ms())
            self._client.poll(0, timer.current_time_ms())

    def await_pending_requests(self, node: Node, timer: Timer) -> bool:
        while self.has_pending_requests(node) and timer.not_expired():
            self.poll(timer)
        return not self.has_pending_requests(node)

    def pending_request_count(self, node: Node | None = None) -> int:
        with self._lock:
            if node is None:
                return self._unsent.request_count() + self._client.in_flight_request_count()
            return self._unsent.request_count(node) + self._client.in_flight_request_count(node.id_string)

    def has_pending_requests(self, node: Node | None = None) -> bool:
        if self._unsent.has_requests(node):
            return True
        with self._lock:
            return self._client.has_in_flight_requests(None if node is None else node.id_string)

    def completed_request_count(self) -> int:
        """How many request completions this client has fired so far.

        # PORT: no Java counterpart; KafkaConsumer.poll uses it to tell a network poll that only read part of a
        # response from one that completed something."""
        return self._completed_request_count

    def _fire_pending_completed_requests(self) -> None:
        completed_requests_fired = False
        while True:
            try:
                handler = self._pending_completion.popleft()
            except IndexError:
                break
            handler.fire_completion()
            completed_requests_fired = True
            self._completed_request_count += 1
        # A poll blocked waiting for one of these futures must wake up.
        if completed_requests_fired:
            self._client.wakeup()

    def _check_disconnects(self, now: int) -> None:
        # Sent requests on a lost connection are failed by the NetworkClient; here the unsent ones are.
        for node in self._unsent.nodes():
            if self._client.connection_failed(node):
                # Removed first, so that handlers looking at the unsent requests do not see them again.
                requests = self._unsent.remove(node)
                for request in requests:
                    handler = request.callback
                    assert isinstance(handler, _RequestFutureCompletionHandler)
                    authentication_exception = self._client.authentication_exception(node)
                    handler(
                        ClientResponse(
                            request.make_header(request.request_builder.latest_allowed_version),
                            request.callback,
                            request.destination,
                            request.created_time_ms,
                            now,
                            True,
                            None,
                            authentication_exception,
                            None,
                        )
                    )

    def _handle_pending_disconnects(self) -> None:
        with self._lock:
            while True:
                try:
                    node = self._pending_disconnects.popleft()
                except IndexError:
                    break
                self._fail_unsent_requests(node, DisconnectException())
                self._client.disconnect(node.id_string)

    def disconnect_async(self, node: Node) -> None:
        """Disconnects from `node` on the next poll (from any thread)."""
        self._pending_disconnects.append(node)
        self._client.wakeup()

    def _fail_expired_requests(self, now: int) -> None:
        for request in self._unsent.remove_expired_requests(now):
            handler = request.callback
            assert isinstance(handler, _RequestFutureCompletionHandler)
            handler.on_failure(TimeoutException(f"Failed to send request after {request.request_timeout_ms} ms."))

    def _fail_unsent_requests(self, node: Node, e: BaseException) -> None:
        with self._lock:
            for request in self._unsent.remove(node):
                handler = request.callback
                assert isinstance(handler, _RequestFutureCompletionHandler)
                handler.on_failure(e)

    def try_send(self, now: int) -> int:
        """Sends the queued requests whose nodes are ready; returns how long the next poll may block."""
        poll_delay_ms = self._max_poll_timeout_ms
        for node in self._unsent.nodes():
            if self._unsent.peek(node) is not None:
                poll_delay_ms = min(poll_delay_ms, self._client.poll_delay_ms(node, now))
            while (request := self._unsent.peek(node)) is not None:
                if self._client.ready(node, now):
                    self._client.send(request, now)
                    self._unsent.pop(node)
                else:
                    # Not ready: on to the next node.
                    break
        return poll_delay_ms

    def maybe_trigger_wakeup(self) -> None:
        if not self._wakeup_disabled and self._wakeup.is_set():
            self.log.debug("Raising WakeupException in response to user wakeup")
            self._wakeup.clear()
            raise WakeupException()

    def disable_wakeups(self) -> None:
        self._wakeup_disabled = True

    def close(self) -> None:
        with self._lock:
            self._client.close()

    def is_unavailable(self, node: Node) -> bool:
        """Whether the last connection to `node` failed and the reconnect backoff has not passed."""
        with self._lock:
            return (
                self._client.connection_failed(node)
                and self._client.connection_delay(node, self._time.milliseconds()) > 0
            )

    def maybe_throw_auth_failure(self, node: Node) -> None:
        with self._lock:
            exception = self._client.authentication_exception(node)
            if exception is not None:
                raise exception

    def try_connect(self, node: Node) -> None:
        """Starts connecting to `node` if it is not connected (and not backing off)."""
        with self._lock:
            self._client.ready(node, self._time.milliseconds())
