"""Port of clients/src/main/java/org/apache/kafka/clients/ClusterConnectionStates.java (Kafka 3.7).

The connection state of each node a NetworkClient talks to: when it may connect again (reconnect.backoff.ms
doubling per failure up to reconnect.backoff.max.ms, with 20% jitter), how long a connection attempt may take
(socket.connection.setup.timeout.ms, likewise growing to its maximum), throttling by the broker, the last
authentication error, and which of the host's addresses to try next.
"""

from __future__ import annotations

from kafka.clients import client_utils
from kafka.clients.connection_state import ConnectionState
from kafka.clients.host_resolver import HostResolver
from kafka.common.errors import AuthenticationException
from kafka.common.network.inet_address import InetAddress
from kafka.common.utils.exponential_backoff import ExponentialBackoff
from kafka.common.utils.log_context import KafkaLogger, LogContext

__all__ = ["ClusterConnectionStates"]

_LONG_MAX = 2**63 - 1


class _NodeConnectionState:
    __slots__ = (
        "state",
        "authentication_exception",
        "last_connect_attempt_ms",
        "failed_attempts",
        "failed_connect_attempts",
        "reconnect_backoff_ms",
        "connection_setup_timeout_ms",
        "throttle_until_time_ms",
        "_addresses",
        "_address_index",
        "_host",
        "_host_resolver",
        "_last_attempted_address",
        "_log",
    )

    def __init__(
        self,
        state: ConnectionState,
        last_connect_attempt_ms: int,
        reconnect_backoff_ms: int,
        connection_setup_timeout_ms: int,
        host: str,
        host_resolver: HostResolver,
        log: KafkaLogger,
    ) -> None:
        self.state = state
        self._addresses: list[InetAddress] = []
        self._address_index = -1
        self.authentication_exception: AuthenticationException | None = None
        self.last_connect_attempt_ms = last_connect_attempt_ms
        self.failed_attempts = 0
        self.failed_connect_attempts = 0
        self.reconnect_backoff_ms = reconnect_backoff_ms
        self.connection_setup_timeout_ms = connection_setup_timeout_ms
        self.throttle_until_time_ms = 0  # throttled while now < this
        self._host = host
        self._host_resolver = host_resolver
        self._last_attempted_address: InetAddress | None = None
        self._log = log

    def host(self) -> str:
        return self._host

    def current_address(self) -> InetAddress:
        if not self._addresses:
            self._resolve_addresses()
        # Remembered so that a re-resolution does not try the same address twice in a row.
        current = self._addresses[self._address_index]
        self._last_attempted_address = current
        return current

    def move_to_next_address(self) -> None:
        if not self._addresses:
            return  # resolved on the next current_address()
        self._address_index = (self._address_index + 1) % len(self._addresses)
        if self._address_index == 0:
            self.clear_addresses()  # all tried: resolve again next time

    def _resolve_addresses(self) -> None:
        self._addresses = client_utils.resolve(self._host, self._host_resolver)
        if self._log.is_debug_enabled():
            self._log.debug(f"Resolved host {self._host} to addresses {[str(a) for a in self._addresses]}")
        self._address_index = 0
        # After a disconnect the host is resolved again; skip the address just tried if there is another, in
        # case that address was the problem.
        if len(self._addresses) > 1 and self._addresses[0] == self._last_attempted_address:
            self._address_index += 1

    def clear_addresses(self) -> None:
        self._addresses = []

    def __str__(self) -> str:
        return (
            f"NodeConnectionState(state={self.state}, lastConnectAttemptMs={self.last_connect_attempt_ms}, "
            f"failedAttempts={self.failed_attempts}, failedConnectAttempts={self.failed_connect_attempts}, "
            f"throttleUntilTimeMs={self.throttle_until_time_ms})"
        )


class ClusterConnectionStates:
    """Not thread-safe: used by the NetworkClient's thread only."""

    RECONNECT_BACKOFF_EXP_BASE = 2
    RECONNECT_BACKOFF_JITTER = 0.2
    CONNECTION_SETUP_TIMEOUT_EXP_BASE = 2
    CONNECTION_SETUP_TIMEOUT_JITTER = 0.2

    def __init__(
        self,
        reconnect_backoff_ms: int,
        reconnect_backoff_max_ms: int,
        connection_setup_timeout_ms: int,
        connection_setup_timeout_max_ms: int,
        log_context: LogContext,
        host_resolver: HostResolver,
    ) -> None:
        self._log = log_context.logger("org.apache.kafka.clients.ClusterConnectionStates")
        self._reconnect_backoff = ExponentialBackoff(
            reconnect_backoff_ms,
            self.RECONNECT_BACKOFF_EXP_BASE,
            reconnect_backoff_max_ms,
            self.RECONNECT_BACKOFF_JITTER,
        )
        self._connection_setup_timeout = ExponentialBackoff(
            connection_setup_timeout_ms,
            self.CONNECTION_SETUP_TIMEOUT_EXP_BASE,
            connection_setup_timeout_max_ms,
            self.CONNECTION_SETUP_TIMEOUT_JITTER,
        )
        self._node_state: dict[str, _NodeConnectionState] = {}
        self._connecting_nodes: set[str] = set()
        self._host_resolver = host_resolver

    def can_connect(self, id: str, now: int) -> bool:
        """Whether a connection to `id` may be started: never tried, or disconnected and past its backoff."""
        state = self._node_state.get(id)
        if state is None:
            return True
        return state.state.is_disconnected() and now - state.last_connect_attempt_ms >= state.reconnect_backoff_ms

    def is_blacked_out(self, id: str, now: int) -> bool:
        """Whether `id` is disconnected and still within its reconnect backoff."""
        state = self._node_state.get(id)
        return (
            state is not None
            and state.state.is_disconnected()
            and now - state.last_connect_attempt_ms < state.reconnect_backoff_ms
        )

    def connection_delay(self, id: str, now: int) -> int:
        """The backoff left when disconnected, the setup timeout while connecting, "forever" when connected (a
        network event will wake the client)."""
        state = self._node_state.get(id)
        if state is None:
            return 0
        if state.state is ConnectionState.CONNECTING:
            return self.connection_setup_timeout_ms(id)
        if state.state.is_disconnected():
            time_waited = now - state.last_connect_attempt_ms
            return max(state.reconnect_backoff_ms - time_waited, 0)
        return _LONG_MAX

    def is_connecting(self, id: str) -> bool:
        state = self._node_state.get(id)
        return state is not None and state.state is ConnectionState.CONNECTING

    def is_preparing_connection(self, id: str) -> bool:
        state = self._node_state.get(id)
        return state is not None and state.state in (
            ConnectionState.CONNECTING,
            ConnectionState.CHECKING_API_VERSIONS,
        )

    def connecting(self, id: str, now: int, host: str) -> None:
        """Records a connection attempt to `host` for node `id`."""
        state = self._node_state.get(id)
        if state is not None and state.host() == host:
            state.last_connect_attempt_ms = now
            state.state = ConnectionState.CONNECTING
            # The next attempt uses the next address, or resolves the host again when all were tried.
            state.move_to_next_address()
            self._connecting_nodes.add(id)
            return
        if state is not None:
            self._log.info(f"Hostname for node {id} changed from {state.host()} to {host}.")
        # A new node, or one whose host name changed.
        self._node_state[id] = _NodeConnectionState(
            ConnectionState.CONNECTING,
            now,
            self._reconnect_backoff.backoff(0),
            self._connection_setup_timeout.backoff(0),
            host,
            self._host_resolver,
            self._log,
        )
        self._connecting_nodes.add(id)

    def current_address(self, id: str) -> InetAddress:
        """The address to connect to now; OSError if the host does not resolve."""
        return self._get_node_state(id).current_address()

    def disconnected(self, id: str, now: int) -> None:
        """Records that the connection to `id` failed or was lost: the reconnect backoff grows."""
        state = self._get_node_state(id)
        state.last_connect_attempt_ms = now
        self._update_reconnect_backoff(state)
        if state.state is ConnectionState.CONNECTING:
            self._update_connection_setup_timeout(state)
            self._connecting_nodes.discard(id)
        else:
            self._reset_connection_setup_timeout(state)
            if state.state.is_connected():
                # The node may have moved: resolve its host again before reconnecting.
                state.clear_addresses()
        state.state = ConnectionState.DISCONNECTED

    def throttle(self, id: str, throttle_until_time_ms: int) -> None:
        state = self._node_state.get(id)
        # Throttling never moves backwards.
        if state is not None and state.throttle_until_time_ms < throttle_until_time_ms:
            state.throttle_until_time_ms = throttle_until_time_ms

    def throttle_delay_ms(self, id: str, now: int) -> int:
        state = self._node_state.get(id)
        if state is not None and state.throttle_until_time_ms > now:
            return state.throttle_until_time_ms - now
        return 0

    def poll_delay_ms(self, id: str, now: int) -> int:
        throttle_delay_ms = self.throttle_delay_ms(id, now)
        if self.is_connected(id) and throttle_delay_ms > 0:
            return throttle_delay_ms
        return self.connection_delay(id, now)

    def checking_api_versions(self, id: str) -> None:
        state = self._get_node_state(id)
        state.state = ConnectionState.CHECKING_API_VERSIONS
        self._reset_connection_setup_timeout(state)
        self._connecting_nodes.discard(id)

    def ready(self, id: str) -> None:
        state = self._get_node_state(id)
        state.state = ConnectionState.READY
        state.authentication_exception = None
        self._reset_reconnect_backoff(state)
        self._reset_connection_setup_timeout(state)
        self._connecting_nodes.discard(id)

    def authentication_failed(self, id: str, now: int, exception: AuthenticationException | None) -> None:
        state = self._get_node_state(id)
        state.authentication_exception = exception
        state.state = ConnectionState.AUTHENTICATION_FAILED
        state.last_connect_attempt_ms = now
        self._update_reconnect_backoff(state)

    def is_ready(self, id: str, now: int) -> bool:
        return self._is_ready(self._node_state.get(id), now)

    @staticmethod
    def _is_ready(state: _NodeConnectionState | None, now: int) -> bool:
        return state is not None and state.state is ConnectionState.READY and state.throttle_until_time_ms <= now

    def has_ready_nodes(self, now: int) -> bool:
        return any(self._is_ready(state, now) for state in self._node_state.values())

    def is_connected(self, id: str) -> bool:
        state = self._node_state.get(id)
        return state is not None and state.state.is_connected()

    def is_disconnected(self, id: str) -> bool:
        state = self._node_state.get(id)
        return state is not None and state.state.is_disconnected()

    def authentication_exception(self, id: str) -> AuthenticationException | None:
        state = self._node_state.get(id)
        return None if state is None else state.authentication_exception

    def _reset_reconnect_backoff(self, state: _NodeConnectionState) -> None:
        state.failed_attempts = 0
        state.reconnect_backoff_ms = self._reconnect_backoff.backoff(0)

    def _reset_connection_setup_timeout(self, state: _NodeConnectionState) -> None:
        state.failed_connect_attempts = 0
        state.connection_setup_timeout_ms = self._connection_setup_timeout.backoff(0)

    def _update_reconnect_backoff(self, state: _NodeConnectionState) -> None:
        state.reconnect_backoff_ms = self._reconnect_backoff.backoff(state.failed_attempts)
        state.failed_attempts += 1

    def _update_connection_setup_timeout(self, state: _NodeConnectionState) -> None:
        state.failed_connect_attempts += 1
        state.connection_setup_timeout_ms = self._connection_setup_timeout.backoff(state.failed_connect_attempts)

    def remove(self, id: str) -> None:
        self._node_state.pop(id, None)
        self._connecting_nodes.discard(id)

    def connection_state(self, id: str) -> ConnectionState:
        return self._get_node_state(id).state

    def _get_node_state(self, id: str) -> _NodeConnectionState:
        state = self._node_state.get(id)
        if state is None:
            raise RuntimeError(f"No entry found for connection {id}")
        return state

    def connecting_nodes(self) -> set[str]:
        return self._connecting_nodes

    def last_connect_attempt_ms(self, id: str) -> int:
        state = self._node_state.get(id)
        return 0 if state is None else state.last_connect_attempt_ms

    def connection_setup_timeout_ms(self, id: str) -> int:
        return self._get_node_state(id).connection_setup_timeout_ms

    def is_connection_setup_timeout(self, id: str, now: int) -> bool:
        state = self._get_node_state(id)
        if state.state is not ConnectionState.CONNECTING:
            raise RuntimeError(f"Node {id} is not in connecting state")
        return now - self.last_connect_attempt_ms(id) > self.connection_setup_timeout_ms(id)

    def nodes_with_connection_setup_timeout(self, now: int) -> list[str]:
        return [id for id in self._connecting_nodes if self.is_connection_setup_timeout(id, now)]
