"""Port of core/src/main/scala/kafka/zookeeper/ZooKeeperClient.scala (Kafka 2.8).

A ZooKeeper client built for pipelining: callers hand over a batch of requests, all are sent at once (at most
`max_in_flight_requests` unanswered at any time) and the caller waits for the batch of responses, each carrying
a result code rather than raising. Watches are owned by handlers registered per path; a read of a path with a
registered handler sets the watch, and the handler hears of creation, deletion, data and child changes. When
the session expires, a new one is created on the `zk-client-{name}reinit-0` thread, bracketed by the state
change handlers' `before_initializing_session` / `after_initializing_session`.

The async request and response types, the handler traits and the multi operations live in this module, as in
the Scala file.

# PORT: the Java ZooKeeper client is replaced by kazoo. One `_ZooKeeper` object wraps one KazooClient and plays
# the part of one `org.apache.zookeeper.ZooKeeper` handle (one session):
# - After its session expired, a kazoo client quietly opens a new session; a Java handle is dead (CLOSED). The
#   wrapper therefore counts as CLOSED from the expiry on, answers every request with SESSIONEXPIRED, and the
#   reinitialization replaces it, as Kafka replaces its ZooKeeper object.
# - A new Java handle is CONNECTING from its construction on and queues the requests it is given until the session
#   is established. A new kazoo client stays CLOSED until its connection thread begins the first attempt, and
#   refuses requests meanwhile (ConnectionClosedError, i.e. SESSIONEXPIRED). The wrapper therefore holds back the
#   requests made before its session first connects and sends them, in order, once it has; if the handle dies
#   first they fail with its dead code (SESSIONEXPIRED or AUTHFAILED), as Java's queued packets do.
# - On a mere disconnection kazoo forgets every watch; the Java client keeps them and re-sets them on the same
#   session when it reconnects (SetWatches), firing the events missed meanwhile. The wrapper does the same on
#   reconnection: each dropped watch is set again by a read, and the event the server would have fired is
#   delivered when the node changed after the last zxid seen before the disconnection. A watch re-set this way
#   may deliver one event more than Java would; it never misses one.
# - After a session expiry the new session re-sets the watch of every registered handler (Java leaves that to
#   the callers, which all re-read their paths anyway).
# - Responses of a batch come back in request order (Kafka collects them in completion order, which for one
#   ZooKeeper session is request order too).
# - The TLS/SASL client config (ZKClientConfig) is not ported yet.
#
# Metrics (under `metric_group`/`metric_type`, kafka.server:type=SessionExpireListener for the broker's client):
# the ZooKeeper{Disconnects,SyncConnects,AuthFailures,ReadOnlyConnects,SaslAuthentications,Expires}PerSec meters,
# marked on each session state event, and the SessionState gauge; removed at close.
#
# Threads: watch and state events run on the kazoo client's callback thread, responses on its completion thread
# (Java: the EventThread for both); the reinit scheduler thread runs session re-creation.
# Lock order: initialization_lock (read or write) before is_connected_or_expired_lock; a _ZooKeeper's own
# locks are taken last. Its `_lock` is never held while calling out; its `_deferred_lock` is held while the requests
# held back before the first connection are handed to kazoo (which only queues them), never while calling back.
"""

from __future__ import annotations

import functools
import threading
from abc import ABC
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from kazoo.client import KazooClient
from kazoo.exceptions import ZookeeperError
from kazoo.protocol.serialization import CheckVersion, Create, Delete, SetData
from kazoo.protocol.states import Callback, KazooState, WatchedEvent, ZnodeStat
from kazoo.protocol.states import EventType as KazooEventType
from kazoo.protocol.states import KeeperState as KazooKeeperState
from kazoo.retry import KazooRetry

from kafka.common.utils.time import Time
from kafka.metrics.kafka_metrics_group import KafkaMetricsGroup
from kafka.metrics.yammer import Meter
from kafka.utils.count_down_latch import CountDownLatch
from kafka.utils.kafka_scheduler import KafkaScheduler
from kafka.utils.logging import Logging
from kafka.utils.read_write_lock import ReentrantReadWriteLock
from kafka.utils.time_unit import TimeUnit
from kafka.zookeeper.zookeeper_types import (
    ACL,
    CheckResult,
    Code,
    CreateMode,
    CreateResult,
    DeleteResult,
    ErrorResult,
    EventType,
    KeeperException,
    KeeperState,
    OpResult,
    SetDataResult,
    Stat,
    States,
)

__all__ = [
    "RETRY_BACKOFF_MS",
    "AsyncRequest",
    "AsyncResponse",
    "CheckOp",
    "CreateOp",
    "CreateRequest",
    "CreateResponse",
    "DeleteOp",
    "DeleteRequest",
    "DeleteResponse",
    "ExistsRequest",
    "ExistsResponse",
    "GetAclRequest",
    "GetAclResponse",
    "GetChildrenRequest",
    "GetChildrenResponse",
    "GetDataRequest",
    "GetDataResponse",
    "MultiRequest",
    "MultiResponse",
    "ResponseMetadata",
    "SetAclRequest",
    "SetAclResponse",
    "SetDataOp",
    "SetDataRequest",
    "SetDataResponse",
    "StateChangeHandler",
    "ZNodeChangeHandler",
    "ZNodeChildChangeHandler",
    "ZkOp",
    "ZkOpResult",
    "ZooKeeperClient",
    "ZooKeeperClientAuthFailedException",
    "ZooKeeperClientException",
    "ZooKeeperClientExpiredException",
    "ZooKeeperClientTimeoutException",
]

#: Pause between two attempts to re-create a session, and before re-authenticating after an auth failure.
RETRY_BACKOFF_MS = 1000


# ---------------------------------------------------------------------------------------------------------
# Handlers (Scala traits with no-op defaults)
# ---------------------------------------------------------------------------------------------------------


class StateChangeHandler:
    """Hears of session re-creation and authentication failures; registered under `name`."""

    name: str

    def before_initializing_session(self) -> None:
        """Called on the reinit thread before a new session replaces an expired one."""

    def after_initializing_session(self) -> None:
        """Called on the reinit thread once the new session object exists (it may still be connecting)."""

    def on_auth_failure(self) -> None:
        """Called when the server rejected the client's credentials."""


class ZNodeChangeHandler:
    """Hears of the creation, deletion and data changes of the znode at `path`."""

    path: str

    def handle_creation(self) -> None:
        pass

    def handle_deletion(self) -> None:
        pass

    def handle_data_change(self) -> None:
        pass


class ZNodeChildChangeHandler:
    """Hears of changes to the children of the znode at `path`."""

    path: str

    def handle_child_change(self) -> None:
        pass


# ---------------------------------------------------------------------------------------------------------
# Operations of a multi (thin wrappers of org.apache.zookeeper.Op)
# ---------------------------------------------------------------------------------------------------------


class ZkOp(ABC):
    path: str


@dataclass(frozen=True, slots=True, eq=True)
class CreateOp(ZkOp):
    path: str
    data: bytes | None
    acl: Sequence[ACL]
    create_mode: CreateMode


@dataclass(frozen=True, slots=True)
class DeleteOp(ZkOp):
    path: str
    version: int


@dataclass(frozen=True, slots=True)
class SetDataOp(ZkOp):
    path: str
    data: bytes | None
    version: int


@dataclass(frozen=True, slots=True)
class CheckOp(ZkOp):
    path: str
    version: int


@dataclass(frozen=True, slots=True)
class ZkOpResult:
    zk_op: ZkOp
    raw_op_result: OpResult


# ---------------------------------------------------------------------------------------------------------
# Responses
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ResponseMetadata:
    send_time_ms: int
    received_time_ms: int

    @property
    def response_time_ms(self) -> int:
        return self.received_time_ms - self.send_time_ms


@dataclass(frozen=True, slots=True, kw_only=True)
class AsyncResponse:
    """The outcome of one request: a result code (OK or an error), never an exception."""

    result_code: Code
    path: str | None
    ctx: Any
    metadata: ResponseMetadata

    @property
    def result_exception(self) -> KeeperException | None:
        """None if the result code is OK, else the KeeperException for it."""
        return None if self.result_code == Code.OK else KeeperException.create(self.result_code, self.path)

    def maybe_throw(self) -> None:
        """Raises the KeeperException of a result code other than OK."""
        if self.result_code != Code.OK:
            raise KeeperException.create(self.result_code, self.path)


@dataclass(frozen=True, slots=True, kw_only=True)
class CreateResponse(AsyncResponse):
    name: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class DeleteResponse(AsyncResponse):
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class ExistsResponse(AsyncResponse):
    stat: Stat | None


@dataclass(frozen=True, slots=True, kw_only=True)
class GetDataResponse(AsyncResponse):
    data: bytes | None
    stat: Stat | None


@dataclass(frozen=True, slots=True, kw_only=True)
class SetDataResponse(AsyncResponse):
    stat: Stat | None


@dataclass(frozen=True, slots=True, kw_only=True)
class GetAclResponse(AsyncResponse):
    acl: list[ACL]
    stat: Stat | None


@dataclass(frozen=True, slots=True, kw_only=True)
class SetAclResponse(AsyncResponse):
    stat: Stat | None


@dataclass(frozen=True, slots=True, kw_only=True)
class GetChildrenResponse(AsyncResponse):
    children: list[str]
    stat: Stat | None


@dataclass(frozen=True, slots=True, kw_only=True)
class MultiResponse(AsyncResponse):
    zk_op_results: list[ZkOpResult] | None


# ---------------------------------------------------------------------------------------------------------
# Requests. `AsyncRequest[R]` answers with an R, as Scala's `type Response` member says.
# ---------------------------------------------------------------------------------------------------------

R = TypeVar("R", bound=AsyncResponse, covariant=True)


class AsyncRequest(Generic[R]):
    path: str | None
    ctx: Any


@dataclass(frozen=True, slots=True)
class CreateRequest(AsyncRequest[CreateResponse]):
    path: str
    data: bytes | None
    acl: Sequence[ACL]
    create_mode: CreateMode
    ctx: Any = None


@dataclass(frozen=True, slots=True)
class DeleteRequest(AsyncRequest[DeleteResponse]):
    path: str
    version: int
    ctx: Any = None


@dataclass(frozen=True, slots=True)
class ExistsRequest(AsyncRequest[ExistsResponse]):
    path: str
    ctx: Any = None


@dataclass(frozen=True, slots=True)
class GetDataRequest(AsyncRequest[GetDataResponse]):
    path: str
    ctx: Any = None


@dataclass(frozen=True, slots=True)
class SetDataRequest(AsyncRequest[SetDataResponse]):
    path: str
    data: bytes | None
    version: int
    ctx: Any = None


@dataclass(frozen=True, slots=True)
class GetAclRequest(AsyncRequest[GetAclResponse]):
    path: str
    ctx: Any = None


@dataclass(frozen=True, slots=True)
class SetAclRequest(AsyncRequest[SetAclResponse]):
    path: str
    acl: Sequence[ACL]
    version: int
    ctx: Any = None


@dataclass(frozen=True, slots=True)
class GetChildrenRequest(AsyncRequest[GetChildrenResponse]):
    path: str
    register_watch: bool
    ctx: Any = None


@dataclass(frozen=True, slots=True)
class MultiRequest(AsyncRequest[MultiResponse]):
    zk_ops: Sequence[ZkOp]
    ctx: Any = None
    path: None = field(default=None, init=False)


# ---------------------------------------------------------------------------------------------------------
# Exceptions
# ---------------------------------------------------------------------------------------------------------


class ZooKeeperClientException(RuntimeError):
    pass


class ZooKeeperClientExpiredException(ZooKeeperClientException):
    pass


class ZooKeeperClientAuthFailedException(ZooKeeperClientException):
    pass


class ZooKeeperClientTimeoutException(ZooKeeperClientException):
    pass


# ---------------------------------------------------------------------------------------------------------
# The client
# ---------------------------------------------------------------------------------------------------------


class ZooKeeperClient(Logging, KafkaMetricsGroup):
    """A pipelining ZooKeeper client with watch handlers per path and session re-creation after expiry.

    Connects in the constructor and raises ZooKeeperClientTimeoutException if that takes longer than
    `connection_timeout_ms` (ZooKeeperClientAuthFailedException / ZooKeeperClientExpiredException if the session
    is refused)."""

    logger_name = "kafka.zookeeper.ZooKeeperClient"

    def __init__(
        self,
        connect_string: str,
        session_timeout_ms: int,
        connection_timeout_ms: int,
        max_in_flight_requests: int,
        time: Time,
        metric_group: str = "kafka.server",
        metric_type: str = "SessionExpireListener",
        name: str | None = None,
    ) -> None:
        self._connect_string = connect_string
        self._session_timeout_ms = session_timeout_ms
        self._time = time
        self.metric_group = metric_group
        self.metric_type = metric_type
        self.name = name
        self.log_ident = f"[ZooKeeperClient {name}] " if name is not None else "[ZooKeeperClient] "
        self._initialization_lock = ReentrantReadWriteLock()
        self._is_connected_or_expired_lock = threading.RLock()
        self._is_connected_or_expired_condition = threading.Condition(self._is_connected_or_expired_lock)
        # PORT: ConcurrentHashMaps -> dicts; single get/put/pop are atomic under the GIL.
        self._z_node_change_handlers: dict[str, ZNodeChangeHandler] = {}
        self._z_node_child_change_handlers: dict[str, ZNodeChildChangeHandler] = {}
        self._state_change_handlers: dict[str, StateChangeHandler] = {}
        self._in_flight_requests = threading.Semaphore(max_in_flight_requests)
        self.reinitialize_scheduler = KafkaScheduler(
            threads=1, thread_name_prefix=f"zk-client-{self._thread_prefix}reinit-"
        )
        self._is_first_connection_established = False
        self._closing = False

        # Kafka's explicit group and type for this client's metrics (the KafkaMetricsGroup attributes).
        self.metrics_group = metric_group
        self.metrics_type_name = metric_type
        self._metric_names: list[str] = []
        # Made before the session: its first state event marks one of these meters.
        self._state_to_meter_map: dict[KeeperState, Meter] = {}
        for state, event_type in (
            (KeeperState.DISCONNECTED, "Disconnects"),
            (KeeperState.SYNC_CONNECTED, "SyncConnects"),
            (KeeperState.AUTH_FAILED, "AuthFailures"),
            (KeeperState.CONNECTED_READ_ONLY, "ReadOnlyConnects"),
            (KeeperState.SASL_AUTHENTICATED, "SaslAuthentications"),
            (KeeperState.EXPIRED, "Expires"),
        ):
            meter_name = f"ZooKeeper{event_type}PerSec"
            self._metric_names.append(meter_name)
            self._state_to_meter_map[state] = self.new_meter(meter_name, event_type.lower(), TimeUnit.SECONDS)

        self.info(f"Initializing a new session to {connect_string}.")
        # Fail fast if the handle cannot be built (a malformed connect string), so not through reinitialize.
        self._zoo_keeper = _ZooKeeper(self, connect_string, session_timeout_ms)
        self.new_gauge("SessionState", lambda: str(self.connection_state))
        self._metric_names.append("SessionState")
        self.reinitialize_scheduler.startup()
        try:
            self._wait_until_connected(connection_timeout_ms)
        except BaseException:
            self.close()
            raise

    @property
    def connection_state(self) -> States:
        """The state of the current session handle."""
        return self._zoo_keeper.state

    # -- requests ----------------------------------------------------------------------------------------

    def handle_request(self, request: AsyncRequest[R]) -> R:
        """Sends one request and waits for its response (see handle_requests)."""
        return self.handle_requests([request])[0]

    def handle_requests(self, requests: Sequence[AsyncRequest[R]]) -> list[R]:
        """Sends the requests pipelined and waits for every response; the responses are in request order.

        A GetData/Exists request sets a watch if a ZNodeChangeHandler is registered for its path, a GetChildren
        request with `register_watch` if a ZNodeChildChangeHandler is."""
        if not requests:
            return []
        count_down_latch = CountDownLatch(len(requests))
        responses: list[Any] = [None] * len(requests)

        def on_response(index: int, response: AsyncResponse) -> None:
            responses[index] = response
            self._in_flight_requests.release()
            count_down_latch.count_down()

        for index, request in enumerate(requests):
            self._in_flight_requests.acquire()
            try:
                with self._initialization_lock.read():
                    self._send(request, functools.partial(on_response, index))
            except BaseException:
                self._in_flight_requests.release()
                raise
        # PORT: Kafka awaits without a bound; every request is answered (at worst with CONNECTIONLOSS or
        # SESSIONEXPIRED when its session goes away), so waiting in slices only keeps the wait interruptible.
        while not count_down_latch.await_(1.0):
            pass
        return responses

    def _send(self, request: AsyncRequest[Any], process_response: Callable[[AsyncResponse], None]) -> None:
        zoo_keeper = self._zoo_keeper
        send_time_ms = self._time.hi_res_clock_ms()

        def response_metadata() -> ResponseMetadata:
            return ResponseMetadata(send_time_ms, received_time_ms=self._time.hi_res_clock_ms())

        match request:
            case ExistsRequest(path=path, ctx=ctx):

                def on_exists(rc: Code, stat: Stat | None) -> None:
                    process_response(
                        ExistsResponse(result_code=rc, path=path, ctx=ctx, stat=stat, metadata=response_metadata())
                    )

                zoo_keeper.exists(path, self._should_watch(request), on_exists)
            case GetDataRequest(path=path, ctx=ctx):

                def on_get_data(rc: Code, data: bytes | None, stat: Stat | None) -> None:
                    process_response(
                        GetDataResponse(
                            result_code=rc, path=path, ctx=ctx, data=data, stat=stat, metadata=response_metadata()
                        )
                    )

                zoo_keeper.get_data(path, self._should_watch(request), on_get_data)
            case GetChildrenRequest(path=path, ctx=ctx):

                def on_get_children(rc: Code, children: list[str], stat: Stat | None) -> None:
                    process_response(
                        GetChildrenResponse(
                            result_code=rc,
                            path=path,
                            ctx=ctx,
                            children=children,
                            stat=stat,
                            metadata=response_metadata(),
                        )
                    )

                zoo_keeper.get_children(path, self._should_watch(request), on_get_children)
            case CreateRequest(path=path, data=data, acl=acl, create_mode=create_mode, ctx=ctx):

                def on_create(rc: Code, name: str | None) -> None:
                    process_response(
                        CreateResponse(result_code=rc, path=path, ctx=ctx, name=name, metadata=response_metadata())
                    )

                zoo_keeper.create(path, data, acl, create_mode, on_create)
            case SetDataRequest(path=path, data=data, version=version, ctx=ctx):

                def on_set_data(rc: Code, stat: Stat | None) -> None:
                    process_response(
                        SetDataResponse(result_code=rc, path=path, ctx=ctx, stat=stat, metadata=response_metadata())
                    )

                zoo_keeper.set_data(path, data, version, on_set_data)
            case DeleteRequest(path=path, version=version, ctx=ctx):

                def on_delete(rc: Code) -> None:
                    process_response(DeleteResponse(result_code=rc, path=path, ctx=ctx, metadata=response_metadata()))

                zoo_keeper.delete(path, version, on_delete)
            case GetAclRequest(path=path, ctx=ctx):

                def on_get_acl(rc: Code, acl: list[ACL], stat: Stat | None) -> None:
                    process_response(
                        GetAclResponse(
                            result_code=rc, path=path, ctx=ctx, acl=acl, stat=stat, metadata=response_metadata()
                        )
                    )

                zoo_keeper.get_acl(path, on_get_acl)
            case SetAclRequest(path=path, acl=acl, version=version, ctx=ctx):

                def on_set_acl(rc: Code, stat: Stat | None) -> None:
                    process_response(
                        SetAclResponse(result_code=rc, path=path, ctx=ctx, stat=stat, metadata=response_metadata())
                    )

                zoo_keeper.set_acl(path, acl, version, on_set_acl)
            case MultiRequest(zk_ops=zk_ops, ctx=ctx):

                def on_multi(rc: Code, op_results: list[OpResult] | None) -> None:
                    results = None if op_results is None else [ZkOpResult(op, r) for op, r in zip(zk_ops, op_results)]
                    process_response(
                        MultiResponse(
                            result_code=rc, path=None, ctx=ctx, zk_op_results=results, metadata=response_metadata()
                        )
                    )

                zoo_keeper.multi(zk_ops, on_multi)
            case _:
                raise ValueError(f"Unknown request {request}")

    # -- connection --------------------------------------------------------------------------------------

    def wait_until_connected(self) -> None:
        """Waits until the session is connected; raises ZooKeeperClientAuthFailedException or
        ZooKeeperClientExpiredException if it failed authentication or expired before or meanwhile."""
        with self._is_connected_or_expired_lock:
            self._wait_until_connected(None)

    def _wait_until_connected(self, timeout_ms: int | None) -> None:
        self.info("Waiting until connected.")
        with self._is_connected_or_expired_lock:
            deadline_ms = None if timeout_ms is None else self._time.hi_res_clock_ms() + timeout_ms
            state = self.connection_state
            while not state.is_connected and state.is_alive:
                wait_s = 1.0  # woken by every state change; the slice only bounds a missed wake-up
                if deadline_ms is not None:
                    remaining_ms = deadline_ms - self._time.hi_res_clock_ms()
                    if remaining_ms <= 0:
                        raise ZooKeeperClientTimeoutException(
                            f"Timed out waiting for connection while in state: {state}"
                        )
                    wait_s = min(wait_s, remaining_ms / 1000)
                self._is_connected_or_expired_condition.wait(wait_s)
                state = self.connection_state
            if state == States.AUTH_FAILED:
                raise ZooKeeperClientAuthFailedException("Auth failed either before or while waiting for connection")
            if state == States.CLOSED:
                raise ZooKeeperClientExpiredException("Session expired either before or while waiting for connection")
            self._is_first_connection_established = True
        self.info("Connected.")

    def _should_watch(self, request: AsyncRequest[Any]) -> bool:
        match request:
            case GetChildrenRequest(path=path, register_watch=register_watch):
                return register_watch and path in self._z_node_child_change_handlers
            case ExistsRequest(path=path) | GetDataRequest(path=path):
                return path in self._z_node_change_handlers
            case _:
                raise ValueError(f"Request {request} is not watchable")

    # -- handlers ----------------------------------------------------------------------------------------

    def register_z_node_change_handler(self, z_node_change_handler: ZNodeChangeHandler) -> None:
        """Registers the handler for its path; the watch itself is set by the next GetData/Exists request of that
        path (only Exists can watch a znode that does not exist yet)."""
        self._z_node_change_handlers[z_node_change_handler.path] = z_node_change_handler

    def unregister_z_node_change_handler(self, path: str) -> None:
        self._z_node_change_handlers.pop(path, None)

    def register_z_node_child_change_handler(self, z_node_child_change_handler: ZNodeChildChangeHandler) -> None:
        """Registers the handler for its path; the watch is set by the next GetChildren request of that path
        asking for one."""
        self._z_node_child_change_handlers[z_node_child_change_handler.path] = z_node_child_change_handler

    def unregister_z_node_child_change_handler(self, path: str) -> None:
        self._z_node_child_change_handlers.pop(path, None)

    def register_state_change_handler(self, state_change_handler: StateChangeHandler | None) -> None:
        with self._initialization_lock.read():
            if state_change_handler is not None:
                self._state_change_handlers[state_change_handler.name] = state_change_handler

    def unregister_state_change_handler(self, name: str) -> None:
        with self._initialization_lock.read():
            self._state_change_handlers.pop(name, None)

    # -- life cycle --------------------------------------------------------------------------------------

    def close(self) -> None:
        """Closes the session and stops every thread of this client (idempotent)."""
        self.info("Closing.")
        self._closing = True
        # The scheduler goes first and outside the lock: a reinitialization waiting for the lock must be able to
        # finish, and no new session may be created once closing started.
        self.reinitialize_scheduler.shutdown()
        with self._initialization_lock.write():
            self._z_node_change_handlers.clear()
            self._z_node_child_change_handlers.clear()
            self._state_change_handlers.clear()
            zoo_keeper = self._zoo_keeper
            zoo_keeper.mark_closed()
            for metric_name in self._metric_names:
                self.remove_metric(metric_name)
        # PORT: the kazoo client is stopped outside the lock: stopping it joins its callback thread, which may be
        # waiting for the lock in a handler.
        zoo_keeper.close()
        self._signal_connected_or_expired()
        self.info("Closed.")

    def session_id(self) -> int:
        """The id of the current session (0 while not connected)."""
        with self._initialization_lock.read():
            return self._zoo_keeper.session_id

    def current_zoo_keeper(self) -> _ZooKeeper:
        """The current session handle (for tests)."""
        with self._initialization_lock.read():
            return self._zoo_keeper

    def _reinitialize(self) -> None:
        # Handlers run outside the lock: they may issue requests, which need the read lock.
        for handler in list(self._state_change_handlers.values()):
            self._call_before_initializing_session(handler)

        replaced: _ZooKeeper | None = None
        with self._initialization_lock.write():
            if not self.connection_state.is_alive:
                if self._closing:
                    return
                replaced = self._zoo_keeper
                replaced.mark_closed()
                self.info(f"Initializing a new session to {self._connect_string}.")
                # Retry until a handle can be built (as Kafka: forever), but give up once close() began.
                while True:
                    try:
                        self._zoo_keeper = _ZooKeeper(self, self._connect_string, self._session_timeout_ms)
                        break
                    except Exception as e:
                        if self._closing:
                            return
                        self.info("Error when recreating ZooKeeper, retrying after a short sleep", e)
                        self._time.sleep(RETRY_BACKOFF_MS)
                zoo_keeper = self._zoo_keeper
                # PORT: set again the watch of every registered handler on the new session.
                for path in list(self._z_node_change_handlers):
                    zoo_keeper.exists(path, True, _ignore_response)
                for path in list(self._z_node_child_change_handlers):
                    zoo_keeper.get_children(path, True, _ignore_response)
        if replaced is not None:
            replaced.close()

        for handler in list(self._state_change_handlers.values()):
            self._call_after_initializing_session(handler)

    def force_reinitialize(self) -> None:
        """Closes the current session and creates a new one (for tests)."""
        self._zoo_keeper.close()
        self._reinitialize()

    def _call_before_initializing_session(self, handler: StateChangeHandler) -> None:
        try:
            handler.before_initializing_session()
        except Exception as e:
            self.error(f"Uncaught error in handler {handler.name}", e)

    def _call_after_initializing_session(self, handler: StateChangeHandler) -> None:
        try:
            handler.after_initializing_session()
        except Exception as e:
            self.error(f"Uncaught error in handler {handler.name}", e)

    def _schedule_reinitialize(self, name: str, message: str, delay_ms: int) -> None:
        def reinitialize() -> None:
            self.info(message)
            self._reinitialize()

        try:
            self.reinitialize_scheduler.schedule(name, reinitialize, delay_ms=delay_ms, period_ms=-1)
        except RuntimeError as e:  # the scheduler is shut down: the client is closing
            self.debug(f"Not scheduling {name}: {e}")

    @property
    def _thread_prefix(self) -> str:
        return "" if self.name is None else "".join(self.name.split()) + "-"

    # -- events (Kafka's ZooKeeperClientWatcher) ---------------------------------------------------------

    def _signal_connected_or_expired(self) -> None:
        with self._is_connected_or_expired_lock:
            self._is_connected_or_expired_condition.notify_all()

    def _process_state_event(self, state: KeeperState) -> None:
        """A change of the session's state (an event without path); runs on the kazoo callback thread."""
        self.debug(f"Received event: WatchedEvent state:{state} type:None path:null")
        meter = self._state_to_meter_map.get(state)
        if meter is not None:
            meter.mark()
        self._signal_connected_or_expired()
        if state == KeeperState.AUTH_FAILED:
            self.error("Auth failed.")
            for handler in list(self._state_change_handlers.values()):
                handler.on_auth_failure()
            # During the first connection, fail fast; later, try again.
            with self._is_connected_or_expired_lock:
                initialized = self._is_first_connection_established
            if initialized:
                self._schedule_reinitialize("auth-failed", "Reinitializing due to auth failure.", RETRY_BACKOFF_MS)
        elif state == KeeperState.EXPIRED:
            self._schedule_reinitialize("session-expired", "Session expired.", 0)

    def _process_watch_event(self, event_type: EventType, path: str) -> None:
        """A watch fired on `path`; runs on the kazoo callback thread."""
        self.debug(f"Received event: WatchedEvent state:SyncConnected type:{event_type} path:{path}")
        match event_type:
            case EventType.NODE_CHILDREN_CHANGED:
                child_handler = self._z_node_child_change_handlers.get(path)
                if child_handler is not None:
                    child_handler.handle_child_change()
            case EventType.NODE_CREATED:
                handler = self._z_node_change_handlers.get(path)
                if handler is not None:
                    handler.handle_creation()
            case EventType.NODE_DELETED:
                handler = self._z_node_change_handlers.get(path)
                if handler is not None:
                    handler.handle_deletion()
            case EventType.NODE_DATA_CHANGED:
                handler = self._z_node_change_handlers.get(path)
                if handler is not None:
                    handler.handle_data_change()


def _ignore_response(*_: Any) -> None:
    pass


# ---------------------------------------------------------------------------------------------------------
# One session handle over kazoo (the part of org.apache.zookeeper.ZooKeeper that Kafka uses)
# ---------------------------------------------------------------------------------------------------------

_KAZOO_EVENT_TYPES = {
    KazooEventType.CREATED: EventType.NODE_CREATED,
    KazooEventType.DELETED: EventType.NODE_DELETED,
    KazooEventType.CHANGED: EventType.NODE_DATA_CHANGED,
    KazooEventType.CHILD: EventType.NODE_CHILDREN_CHANGED,
}


class _Watcher:
    """The kazoo watch function of one path and kind (data/exists or children).

    kazoo stores watch functions in a set per path, so reusing one object per path and kind sets each watch once.
    A deletion fires both kinds with the same event object; `_PathWatches.last_event` lets only one deliver it."""

    __slots__ = ("child", "path", "shared", "zoo_keeper")

    def __init__(self, zoo_keeper: _ZooKeeper, path: str, child: bool, shared: _PathWatches) -> None:
        self.zoo_keeper = zoo_keeper
        self.path = path
        self.child = child
        self.shared = shared

    def __call__(self, event: WatchedEvent) -> None:
        self.zoo_keeper._on_watch(self, event)


class _PathWatches:
    __slots__ = ("child", "data", "existed", "last_event")

    def __init__(self) -> None:
        self.data: _Watcher | None = None
        self.child: _Watcher | None = None
        self.existed = True  # whether the node existed when its data watch was last set (data vs exists watch)
        self.last_event: WatchedEvent | None = None


class _ZooKeeper:
    """One ZooKeeper session over one KazooClient; dead (CLOSED) once closed or expired, as a Java handle."""

    def __init__(self, owner: ZooKeeperClient, connect_string: str, session_timeout_ms: int) -> None:
        self._owner = owner
        self._lock = threading.Lock()
        self._watches: dict[str, _PathWatches] = {}
        self._dropped_data: set[str] = set()
        self._dropped_children: set[str] = set()
        self._relative_zxid: int | None = None
        self._closed = False
        self._expired = False
        self._auth_failed = False
        self._keeper_state = "CONNECTING"
        # Requests made before the session first connected, in order; None from then on (see the module's PORT note).
        self._deferred_lock = threading.Lock()
        self._deferred: list[tuple[Callable[[], Any], Callable[[Any], None], Callable[[Code], None]]] | None = []
        self._kazoo = KazooClient(
            hosts=connect_string,
            timeout=session_timeout_ms / 1000,
            # Reconnect about every second, as the Java client does, and forever.
            connection_retry=KazooRetry(max_tries=-1, delay=0.1, backoff=2, max_delay=1.0),
            logger=owner.logger.getChild("kazoo"),
        )
        self._kazoo.add_listener(self._on_kazoo_state)
        self._kazoo.start_async()

    # -- state -------------------------------------------------------------------------------------------

    @property
    def state(self) -> States:
        if self._closed or self._expired:
            return States.CLOSED
        if self._auth_failed:
            return States.AUTH_FAILED
        match self._keeper_state:
            case "CONNECTED":
                return States.CONNECTED
            case "CONNECTED_RO":
                return States.CONNECTEDREADONLY
            case _:
                return States.CONNECTING

    @property
    def session_id(self) -> int:
        client_id = self._kazoo.client_id
        return 0 if client_id is None or self.state == States.CLOSED else int(client_id[0])

    @property
    def session_password(self) -> bytes:
        client_id = self._kazoo.client_id
        return b"" if client_id is None else bytes(client_id[1])

    @property
    def _dead_code(self) -> Code | None:
        if self._auth_failed:
            return Code.AUTHFAILED
        if self._closed or self._expired:
            return Code.SESSIONEXPIRED
        return None

    def mark_closed(self) -> None:
        """From now on requests fail with SESSIONEXPIRED (the kazoo client may still be stopping)."""
        self._closed = True
        self._end_deferral(Code.SESSIONEXPIRED)

    def close(self) -> None:
        """Closes the session and stops the kazoo client's threads."""
        self._closed = True
        self._end_deferral(Code.SESSIONEXPIRED)
        self._kazoo.stop()
        self._kazoo.close()

    def _on_kazoo_state(self, kazoo_state: str) -> None:
        # Runs on kazoo's connection thread: no blocking here. Java's state event is handed to the callback thread.
        keeper_state = self._kazoo.client_state
        event: KeeperState | None = None
        relative_zxid: int | None = None
        if kazoo_state == KazooState.SUSPENDED:
            with self._lock:
                if self._relative_zxid is None:
                    self._relative_zxid = self._kazoo.last_zxid
            self._keeper_state = "CONNECTING"
            event = KeeperState.DISCONNECTED
        elif kazoo_state == KazooState.CONNECTED:
            if self._closed or self._expired:
                return  # kazoo opened a new session after the expiry; this handle stays dead
            self._keeper_state = str(keeper_state)
            self._end_deferral(None)
            event = (
                KeeperState.CONNECTED_READ_ONLY
                if keeper_state == KazooKeeperState.CONNECTED_RO
                else KeeperState.SYNC_CONNECTED
            )
            with self._lock:
                relative_zxid, self._relative_zxid = self._relative_zxid, None
        elif keeper_state == KazooKeeperState.EXPIRED_SESSION:
            self._expired = True
            event = KeeperState.EXPIRED
        elif keeper_state == KazooKeeperState.AUTH_FAILED:
            self._auth_failed = True
            event = KeeperState.AUTH_FAILED
        else:
            self._closed = True
            event = KeeperState.CLOSED
        dead = self._dead_code
        if dead is not None:
            self._end_deferral(dead)
        self._owner._signal_connected_or_expired()
        self._kazoo.handler.dispatch_callback(Callback("state", self._on_state_event, (event, relative_zxid)))

    def _on_state_event(self, event: KeeperState, relative_zxid: int | None) -> None:
        if event == KeeperState.CLOSED:
            return  # our own close; Java's Closed event reaches no Kafka code
        self._owner._process_state_event(event)
        if event == KeeperState.SYNC_CONNECTED and relative_zxid is not None:
            self._reset_dropped_watches(relative_zxid)

    # -- watches -----------------------------------------------------------------------------------------

    def _watcher(self, path: str, child: bool) -> _Watcher:
        with self._lock:
            watches = self._watches.get(path)
            if watches is None:
                watches = self._watches[path] = _PathWatches()
            if child:
                if watches.child is None:
                    watches.child = _Watcher(self, path, True, watches)
                return watches.child
            if watches.data is None:
                watches.data = _Watcher(self, path, False, watches)
            return watches.data

    def _on_watch(self, watcher: _Watcher, event: WatchedEvent) -> None:
        # Runs on kazoo's callback thread.
        if event.type == KazooEventType.NONE:
            # kazoo dropped the watch: on a disconnection it is set again after reconnecting; after the end of the
            # session it is gone, as in Java.
            if event.state == KazooKeeperState.CONNECTING:
                with self._lock:
                    (self._dropped_children if watcher.child else self._dropped_data).add(watcher.path)
            return
        if event is watcher.shared.last_event:
            return  # a deletion seen by both the data and the child watch of the path
        watcher.shared.last_event = event
        self._owner._process_watch_event(_KAZOO_EVENT_TYPES[event.type], watcher.path)

    def _reset_dropped_watches(self, relative_zxid: int) -> None:
        """Sets again the watches kazoo dropped at the disconnection, and delivers what the server would have
        fired for changes after `relative_zxid` (Java's SetWatches on reconnection)."""
        with self._lock:
            data_paths, self._dropped_data = self._dropped_data, set()
            child_paths, self._dropped_children = self._dropped_children, set()
            existed = {path: self._watches[path].existed for path in data_paths}
        deleted: set[str] = set()

        def deliver(event_type: EventType, path: str) -> None:
            self._kazoo.handler.dispatch_callback(
                Callback("watch", self._owner._process_watch_event, (event_type, path))
            )

        for path in data_paths:

            def on_exists(rc: Code, stat: Stat | None, path: str = path) -> None:
                if existed[path]:
                    if rc == Code.NONODE:
                        deleted.add(path)
                        deliver(EventType.NODE_DELETED, path)
                    elif rc == Code.OK and stat is not None and stat.mzxid > relative_zxid:
                        deliver(EventType.NODE_DATA_CHANGED, path)
                elif rc == Code.OK:
                    deliver(EventType.NODE_CREATED, path)

            self.exists(path, True, on_exists)
        for path in child_paths:

            def on_children(rc: Code, children: list[str], stat: Stat | None, path: str = path) -> None:
                if rc == Code.NONODE:
                    if path not in deleted:  # answered after the data watch's answer: ZooKeeper keeps order
                        deliver(EventType.NODE_DELETED, path)
                elif rc == Code.OK and stat is not None and stat.pzxid > relative_zxid:
                    deliver(EventType.NODE_CHILDREN_CHANGED, path)

            self.get_children(path, True, on_children)

    # -- operations --------------------------------------------------------------------------------------
    # Each completes through its callback with a result code; on a dead handle, at once.

    def _complete(self, async_result: Any, on_value: Callable[[Any], None], on_error: Callable[[Code], None]) -> None:
        if async_result.successful():
            on_value(async_result.value)
            return
        exc = async_result.exception
        if isinstance(exc, ZookeeperError) and getattr(exc, "code", None) is not None:
            code = Code.get(exc.code)
        else:
            self._owner.error(f"Unexpected error from the ZooKeeper client: {exc!r}", exc)
            code = Code.SYSTEMERROR
        if code == Code.CONNECTIONLOSS and self._closed:
            code = Code.SESSIONEXPIRED  # a closed Java handle fails what was in flight this way
        on_error(code)

    def _call(
        self, start: Callable[[], Any], on_value: Callable[[Any], None], on_error: Callable[[Code], None]
    ) -> None:
        dead = self._dead_code
        if dead is not None:
            on_error(dead)
            return
        with self._deferred_lock:
            if self._deferred is not None:
                # The session has not connected yet: kazoo may still refuse requests, a Java handle would queue it.
                self._deferred.append((start, on_value, on_error))
                return
        start().rawlink(lambda result: self._complete(result, on_value, on_error))

    def _end_deferral(self, dead: Code | None) -> None:
        """Sends the requests held back until the first connection (`dead` is None: the session is connected and
        kazoo queues what it is given) or fails them with `dead`; later requests are not held back."""
        with self._deferred_lock:
            deferred, self._deferred = self._deferred, None
            if not deferred:
                return
            if dead is None:
                failed: list[tuple[Callable[[Code], None], Code]] = []
                # Sent under the lock, so that no request made from now on overtakes them.
                for start, on_value, on_error in deferred:
                    try:
                        async_result = start()
                    except Exception as e:  # kazoo's argument checks; a caller on a connected session sees them raised
                        self._owner.error(f"Unexpected error from the ZooKeeper client: {e!r}", e)
                        failed.append((on_error, Code.SYSTEMERROR))
                        continue
                    async_result.rawlink(
                        lambda result, on_value=on_value, on_error=on_error: self._complete(result, on_value, on_error)
                    )
            else:
                failed = [(on_error, dead) for _, _, on_error in deferred]
        for on_error, code in failed:
            on_error(code)

    def exists(self, path: str, watch: bool, cb: Callable[[Code, Stat | None], None]) -> None:
        watcher = self._watcher(path, child=False) if watch else None

        def on_value(stat: ZnodeStat | None) -> None:
            if watcher is not None:
                watcher.shared.existed = stat is not None
            cb(Code.OK if stat is not None else Code.NONODE, None if stat is None else Stat.of(stat))

        self._call(lambda: self._kazoo.exists_async(path, watch=watcher), on_value, lambda rc: cb(rc, None))

    def get_data(self, path: str, watch: bool, cb: Callable[[Code, bytes | None, Stat | None], None]) -> None:
        watcher = self._watcher(path, child=False) if watch else None

        def on_value(value: tuple[bytes | None, ZnodeStat]) -> None:
            if watcher is not None:
                watcher.shared.existed = True
            cb(Code.OK, value[0], Stat.of(value[1]))

        self._call(lambda: self._kazoo.get_async(path, watch=watcher), on_value, lambda rc: cb(rc, None, None))

    def get_children(self, path: str, watch: bool, cb: Callable[[Code, list[str], Stat | None], None]) -> None:
        watcher = self._watcher(path, child=True) if watch else None
        self._call(
            lambda: self._kazoo.get_children_async(path, watch=watcher, include_data=True),
            lambda value: cb(Code.OK, list(value[0]), Stat.of(value[1])),
            lambda rc: cb(rc, [], None),
        )

    def create(
        self,
        path: str,
        data: bytes | None,
        acl: Sequence[ACL],
        create_mode: CreateMode,
        cb: Callable[[Code, str | None], None],
    ) -> None:
        self._call(
            lambda: self._kazoo.create_async(
                path,
                data,
                acl=list(acl),
                ephemeral=create_mode.is_ephemeral,
                sequence=create_mode.is_sequential,
            ),
            lambda name: cb(Code.OK, name),
            lambda rc: cb(rc, None),
        )

    def set_data(self, path: str, data: bytes | None, version: int, cb: Callable[[Code, Stat | None], None]) -> None:
        self._call(
            lambda: self._kazoo.set_async(path, data, version),
            lambda stat: cb(Code.OK, Stat.of(stat)),
            lambda rc: cb(rc, None),
        )

    def delete(self, path: str, version: int, cb: Callable[[Code], None]) -> None:
        self._call(lambda: self._kazoo.delete_async(path, version), lambda _: cb(Code.OK), cb)

    def get_acl(self, path: str, cb: Callable[[Code, list[ACL], Stat | None], None]) -> None:
        self._call(
            lambda: self._kazoo.get_acls_async(path),
            lambda value: cb(Code.OK, list(value[0]), Stat.of(value[1])),
            lambda rc: cb(rc, [], None),
        )

    def set_acl(self, path: str, acl: Sequence[ACL], version: int, cb: Callable[[Code, Stat | None], None]) -> None:
        self._call(
            lambda: self._kazoo.set_acls_async(path, list(acl), version),
            lambda stat: cb(Code.OK, Stat.of(stat)),
            lambda rc: cb(rc, None),
        )

    def multi(self, zk_ops: Sequence[ZkOp], cb: Callable[[Code, list[OpResult] | None], None]) -> None:
        def start() -> Any:
            transaction = self._kazoo.transaction()
            # kazoo's transaction helpers refuse null data, which Kafka writes (a CreateOp whose data is set by a
            # following SetDataOp); the protocol's operation records take it.
            transaction.operations.extend(self._to_kazoo_op(op) for op in zk_ops)
            return transaction.commit_async()

        def on_value(results: list[Any]) -> None:
            op_results: list[OpResult] = []
            rc = Code.OK
            for op, result in zip(zk_ops, results):
                if isinstance(result, Exception):
                    err = int(getattr(result, "code", Code.SYSTEMERROR))
                    op_results.append(ErrorResult(err))
                    if rc == Code.OK and err != Code.OK:
                        rc = Code.get(err)
                elif isinstance(op, CreateOp):
                    op_results.append(CreateResult(result))
                elif isinstance(op, DeleteOp):
                    op_results.append(DeleteResult())
                elif isinstance(op, SetDataOp):
                    op_results.append(SetDataResult(Stat.of(result)))
                else:
                    op_results.append(CheckResult())
            cb(rc, op_results)

        self._call(start, on_value, lambda rc: cb(rc, None))

    def _to_kazoo_op(self, op: ZkOp) -> Any:
        chroot = self._kazoo.chroot
        path = op.path if not chroot else (chroot if op.path == "/" else chroot + op.path)
        match op:
            case CreateOp(data=data, acl=acl, create_mode=create_mode):
                return Create(path, data, list(acl), create_mode.flag)
            case DeleteOp(version=version):
                return Delete(path, version)
            case SetDataOp(data=data, version=version):
                return SetData(path, data, version)
            case CheckOp(version=version):
                return CheckVersion(path, version)
        raise ValueError(f"Unknown operation {op}")
