"""Tests of kafka.clients.cluster_connection_states (Kafka's ClusterConnectionStatesTest): state changes, reconnect
backoff growing exponentially with jitter up to its maximum, connection setup timeouts, throttling, and moving
through a host's addresses."""

from __future__ import annotations

import math

import pytest

from kafka.clients import client_utils
from kafka.clients.cluster_connection_states import ClusterConnectionStates
from kafka.clients.connection_state import ConnectionState
from kafka.clients.host_resolver import HostResolver
from kafka.common.errors import AuthenticationException
from kafka.common.network.inet_address import InetAddress
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import MockTime
from tests.unit.kafka.clients.address_change_host_resolver import AddressChangeHostResolver

INITIAL_ADDRESSES = [InetAddress(None, f"10.200.20.{i}") for i in (100, 101, 102)]
NEW_ADDRESSES = [InetAddress(None, f"10.200.20.{i}") for i in (103, 104, 105)]

RECONNECT_BACKOFF_MS = 10 * 1000
RECONNECT_BACKOFF_MAX = 60 * 1000
CONNECTION_SETUP_TIMEOUT_MS = 10 * 1000
CONNECTION_SETUP_TIMEOUT_MAX_MS = 127 * 1000
EXP_BASE = ClusterConnectionStates.RECONNECT_BACKOFF_EXP_BASE
JITTER = ClusterConnectionStates.RECONNECT_BACKOFF_JITTER
SETUP_EXP_BASE = ClusterConnectionStates.CONNECTION_SETUP_TIMEOUT_EXP_BASE
SETUP_JITTER = ClusterConnectionStates.CONNECTION_SETUP_TIMEOUT_JITTER
NODE_1, NODE_2, NODE_3 = "1001", "2002", "3003"
HOST_TWO_IPS = "multiple.ip.address"
LONG_MAX = 2**63 - 1


class _LocalhostResolver(HostResolver):
    def resolve(self, host: str) -> list[InetAddress]:
        assert host == "localhost"
        return [InetAddress("localhost", "127.0.0.1")]


def _states(resolver: HostResolver | None = None) -> ClusterConnectionStates:
    return ClusterConnectionStates(
        RECONNECT_BACKOFF_MS,
        RECONNECT_BACKOFF_MAX,
        CONNECTION_SETUP_TIMEOUT_MS,
        CONNECTION_SETUP_TIMEOUT_MAX_MS,
        LogContext(),
        resolver or _LocalhostResolver(),
    )


@pytest.fixture
def time() -> MockTime:
    return MockTime()


def test_cluster_connection_state_changes(time: MockTime) -> None:
    """CONNECTING -> READY -> DISCONNECTED, with the connection delay each state implies and the backoff after."""
    states = _states()
    assert states.can_connect(NODE_1, time.milliseconds())
    assert states.connection_delay(NODE_1, time.milliseconds()) == 0

    states.connecting(NODE_1, time.milliseconds(), "localhost")
    assert states.connection_state(NODE_1) is ConnectionState.CONNECTING
    assert states.is_connecting(NODE_1)
    assert not states.is_ready(NODE_1, time.milliseconds())
    assert not states.is_blacked_out(NODE_1, time.milliseconds())
    assert not states.has_ready_nodes(time.milliseconds())
    delay = states.connection_delay(NODE_1, time.milliseconds())
    assert delay == pytest.approx(CONNECTION_SETUP_TIMEOUT_MS, abs=CONNECTION_SETUP_TIMEOUT_MS * SETUP_JITTER)

    time.sleep(100)
    states.ready(NODE_1)
    assert states.connection_state(NODE_1) is ConnectionState.READY
    assert states.is_ready(NODE_1, time.milliseconds())
    assert states.has_ready_nodes(time.milliseconds())
    assert not states.is_connecting(NODE_1)
    assert not states.is_blacked_out(NODE_1, time.milliseconds())
    assert states.connection_delay(NODE_1, time.milliseconds()) == LONG_MAX

    time.sleep(15000)
    states.disconnected(NODE_1, time.milliseconds())
    assert states.connection_state(NODE_1) is ConnectionState.DISCONNECTED
    assert states.is_disconnected(NODE_1)
    assert states.is_blacked_out(NODE_1, time.milliseconds())
    assert not states.is_connecting(NODE_1)
    assert not states.has_ready_nodes(time.milliseconds())
    assert not states.can_connect(NODE_1, time.milliseconds())
    backoff = states.connection_delay(NODE_1, time.milliseconds())
    assert backoff == pytest.approx(RECONNECT_BACKOFF_MS, abs=RECONNECT_BACKOFF_MS * JITTER)
    time.sleep(backoff + 1)
    assert states.can_connect(NODE_1, time.milliseconds())


def test_multiple_node_connection_states(time: MockTime) -> None:
    """Each node has its own state and backoff."""
    states = _states()
    assert states.can_connect(NODE_1, time.milliseconds()) and states.can_connect(NODE_2, time.milliseconds())
    assert not states.has_ready_nodes(time.milliseconds())
    states.connecting(NODE_2, time.milliseconds(), "localhost")
    assert not states.has_ready_nodes(time.milliseconds())
    time.sleep(1000)
    states.ready(NODE_2)
    assert states.has_ready_nodes(time.milliseconds())
    states.connecting(NODE_1, time.milliseconds(), "localhost")
    assert states.has_ready_nodes(time.milliseconds())
    time.sleep(1000)
    states.ready(NODE_1)
    assert states.has_ready_nodes(time.milliseconds())
    time.sleep(12000)
    states.disconnected(NODE_2, time.milliseconds())
    assert states.has_ready_nodes(time.milliseconds())
    assert states.is_blacked_out(NODE_2, time.milliseconds())
    assert not states.is_blacked_out(NODE_1, time.milliseconds())
    time.sleep(states.connection_delay(NODE_2, time.milliseconds()))
    states.disconnected(NODE_1, time.milliseconds() + 1)
    assert states.is_blacked_out(NODE_1, time.milliseconds())
    assert not states.is_blacked_out(NODE_2, time.milliseconds())
    assert not states.has_ready_nodes(time.milliseconds())


def test_authorization_failed(time: MockTime) -> None:
    """A failed authentication is kept (and backs off) until the node becomes ready again."""
    states = _states()
    states.connecting(NODE_1, time.milliseconds(), "localhost")
    time.sleep(100)
    states.authentication_failed(NODE_1, time.milliseconds(), AuthenticationException("No path to CA for certificate!"))
    time.sleep(1000)
    assert states.connection_state(NODE_1) is ConnectionState.AUTHENTICATION_FAILED
    assert states.authentication_exception(NODE_1) is not None
    assert not states.has_ready_nodes(time.milliseconds())
    assert not states.can_connect(NODE_1, time.milliseconds())
    time.sleep(states.connection_delay(NODE_1, time.milliseconds()) + 1)
    assert states.can_connect(NODE_1, time.milliseconds())
    states.ready(NODE_1)
    assert states.authentication_exception(NODE_1) is None


def test_remove_node(time: MockTime) -> None:
    """A removed node can be connected to at once."""
    states = _states()
    states.connecting(NODE_1, time.milliseconds(), "localhost")
    time.sleep(1000)
    states.ready(NODE_1)
    time.sleep(10000)
    states.disconnected(NODE_1, time.milliseconds())
    states.remove(NODE_1)
    assert states.can_connect(NODE_1, time.milliseconds())
    assert not states.is_blacked_out(NODE_1, time.milliseconds())
    assert states.connection_delay(NODE_1, time.milliseconds()) == 0


def test_max_reconnect_backoff(time: MockTime) -> None:
    """However often a connection fails, the backoff stays within the maximum plus jitter."""
    states = _states()
    effective_max = round(RECONNECT_BACKOFF_MAX * (1 + JITTER))
    states.connecting(NODE_1, time.milliseconds(), "localhost")
    time.sleep(1000)
    states.disconnected(NODE_1, time.milliseconds())
    for _ in range(100):
        backoff = states.connection_delay(NODE_1, time.milliseconds())
        assert backoff <= effective_max
        assert not states.can_connect(NODE_1, time.milliseconds())
        time.sleep(backoff + 1)
        assert states.can_connect(NODE_1, time.milliseconds())
        states.connecting(NODE_1, time.milliseconds(), "localhost")
        time.sleep(10)
        states.disconnected(NODE_1, time.milliseconds())


@pytest.mark.parametrize("enter_checking_api_versions", [False, True])
def test_exponential_reconnect_backoff(time: MockTime, enter_checking_api_versions: bool) -> None:
    """The backoff doubles per failure in a row (within the jitter) until it reaches the maximum."""
    states = _states()
    max_exp = math.log(RECONNECT_BACKOFF_MAX / max(RECONNECT_BACKOFF_MS, 1)) / math.log(EXP_BASE)
    for i in range(10):
        states.connecting(NODE_1, time.milliseconds(), "localhost")
        if enter_checking_api_versions:
            states.checking_api_versions(NODE_1)
        states.disconnected(NODE_1, time.milliseconds())
        expected = round(EXP_BASE ** min(i, max_exp) * RECONNECT_BACKOFF_MS)
        assert states.connection_delay(NODE_1, time.milliseconds()) == pytest.approx(expected, abs=JITTER * expected)
        time.sleep(states.connection_delay(NODE_1, time.milliseconds()) + 1)


def test_throttled(time: MockTime) -> None:
    """A throttle delays polling the node until it ends, and never moves backwards."""
    states = _states()
    states.connecting(NODE_1, time.milliseconds(), "localhost")
    time.sleep(1000)
    states.ready(NODE_1)
    time.sleep(10000)
    assert states.throttle_delay_ms(NODE_1, time.milliseconds()) == 0
    states.throttle(NODE_1, time.milliseconds() + 100)
    assert states.throttle_delay_ms(NODE_1, time.milliseconds()) == 100
    states.throttle(NODE_1, time.milliseconds() + 10)  # an earlier end is ignored
    assert states.throttle_delay_ms(NODE_1, time.milliseconds()) == 100
    assert not states.is_ready(NODE_1, time.milliseconds())
    time.sleep(50)
    assert states.throttle_delay_ms(NODE_1, time.milliseconds()) == 50
    assert states.poll_delay_ms(NODE_1, time.milliseconds()) == 50
    time.sleep(50)
    assert states.throttle_delay_ms(NODE_1, time.milliseconds()) == 0
    assert states.poll_delay_ms(NODE_1, time.milliseconds()) == states.connection_delay(NODE_1, time.milliseconds())
    assert states.is_ready(NODE_1, time.milliseconds())


def test_single_ip(time: MockTime) -> None:
    """With one address, every attempt uses it."""
    states = _states()
    states.connecting(NODE_1, time.milliseconds(), "localhost")
    address = states.current_address(NODE_1)
    states.connecting(NODE_1, time.milliseconds(), "localhost")
    assert states.current_address(NODE_1) == address == InetAddress("localhost", "127.0.0.1")


def test_multiple_ips(time: MockTime) -> None:
    """With several addresses, each new attempt uses the next one."""
    resolver = AddressChangeHostResolver(INITIAL_ADDRESSES, NEW_ADDRESSES)
    states = _states(resolver)
    assert len(client_utils.resolve(HOST_TWO_IPS, resolver)) > 1
    states.connecting(NODE_1, time.milliseconds(), HOST_TWO_IPS)
    addr1 = states.current_address(NODE_1)
    states.connecting(NODE_1, time.milliseconds(), HOST_TWO_IPS)
    addr2 = states.current_address(NODE_1)
    assert addr1 != addr2
    states.connecting(NODE_1, time.milliseconds(), HOST_TWO_IPS)
    addr3 = states.current_address(NODE_1)
    assert addr3 not in (addr1, addr2)


def test_host_resolve_change(time: MockTime) -> None:
    """A node whose host name changes is resolved afresh."""
    resolver = AddressChangeHostResolver(INITIAL_ADDRESSES, NEW_ADDRESSES)
    states = _states(resolver)
    states.connecting(NODE_1, time.milliseconds(), HOST_TWO_IPS)
    addr1 = states.current_address(NODE_1)
    resolver.change_addresses()
    states.connecting(NODE_1, time.milliseconds(), "localhost")
    addr2 = states.current_address(NODE_1)
    assert addr1 in INITIAL_ADDRESSES and addr2 in NEW_ADDRESSES


def test_is_preparing_connection(time: MockTime) -> None:
    """CONNECTING and CHECKING_API_VERSIONS count as preparing a connection; DISCONNECTED does not."""
    states = _states()
    assert not states.is_preparing_connection(NODE_1)
    states.connecting(NODE_1, time.milliseconds(), "localhost")
    assert states.is_preparing_connection(NODE_1)
    states.checking_api_versions(NODE_1)
    assert states.is_preparing_connection(NODE_1)
    states.disconnected(NODE_1, time.milliseconds())
    assert not states.is_preparing_connection(NODE_1)


def test_exponential_connection_setup_timeout(time: MockTime) -> None:
    """The setup timeout doubles per failed attempt up to its maximum and resets once a connection is ready."""
    states = _states()
    n_max = int(math.log(CONNECTION_SETUP_TIMEOUT_MAX_MS / CONNECTION_SETUP_TIMEOUT_MS) / math.log(SETUP_EXP_BASE))
    for n in range(n_max + 1):
        states.connecting(NODE_1, time.milliseconds(), "localhost")
        assert NODE_1 in states.connecting_nodes()
        expected = CONNECTION_SETUP_TIMEOUT_MS * SETUP_EXP_BASE**n
        assert states.connection_setup_timeout_ms(NODE_1) == pytest.approx(expected, abs=expected * SETUP_JITTER)
        states.disconnected(NODE_1, time.milliseconds())
        assert NODE_1 not in states.connecting_nodes()
    states.connecting(NODE_1, time.milliseconds(), "localhost")
    assert states.connection_setup_timeout_ms(NODE_1) == pytest.approx(
        CONNECTION_SETUP_TIMEOUT_MAX_MS, abs=CONNECTION_SETUP_TIMEOUT_MAX_MS * SETUP_JITTER
    )
    states.ready(NODE_1)
    assert states.connection_setup_timeout_ms(NODE_1) == pytest.approx(
        CONNECTION_SETUP_TIMEOUT_MS, abs=CONNECTION_SETUP_TIMEOUT_MS * SETUP_JITTER
    )
    assert NODE_1 not in states.connecting_nodes()
    states.disconnected(NODE_1, time.milliseconds())
    states.connecting(NODE_1, time.milliseconds(), "localhost")
    assert states.connection_setup_timeout_ms(NODE_1) == pytest.approx(
        CONNECTION_SETUP_TIMEOUT_MS, abs=CONNECTION_SETUP_TIMEOUT_MS * SETUP_JITTER
    )


def test_timed_out_connections(time: MockTime) -> None:
    """Connections still being made after their setup timeout are reported, each on its own clock."""
    states = _states()
    states.connecting(NODE_1, time.milliseconds(), "localhost")
    states.connecting(NODE_2, time.milliseconds(), "localhost")
    assert states.nodes_with_connection_setup_timeout(time.milliseconds()) == []
    time.sleep(CONNECTION_SETUP_TIMEOUT_MS // 2)
    states.connecting(NODE_3, time.milliseconds(), "localhost")
    time.sleep(int(CONNECTION_SETUP_TIMEOUT_MS / 2 + CONNECTION_SETUP_TIMEOUT_MS * SETUP_JITTER))
    assert sorted(states.nodes_with_connection_setup_timeout(time.milliseconds())) == [NODE_1, NODE_2]
    states.disconnected(NODE_1, time.milliseconds())
    states.disconnected(NODE_2, time.milliseconds())
    time.sleep(int(CONNECTION_SETUP_TIMEOUT_MS / 2 + CONNECTION_SETUP_TIMEOUT_MS * SETUP_JITTER))
    assert states.nodes_with_connection_setup_timeout(time.milliseconds()) == [NODE_3]
    states.disconnected(NODE_3, time.milliseconds())
    assert states.nodes_with_connection_setup_timeout(time.milliseconds()) == []


def test_skip_last_attempted_ip(time: MockTime) -> None:
    """After a disconnect the host is resolved again, but the address just tried is not tried first."""
    resolver = AddressChangeHostResolver(INITIAL_ADDRESSES, NEW_ADDRESSES)
    states = _states(resolver)
    states.connecting(NODE_1, time.milliseconds(), HOST_TWO_IPS)
    addr1 = states.current_address(NODE_1)
    states.disconnected(NODE_1, time.milliseconds())
    states.connecting(NODE_1, time.milliseconds(), HOST_TWO_IPS)
    assert states.current_address(NODE_1) != addr1


def test_unknown_node_is_an_error() -> None:
    """Asking for the state of a node never seen is an error, as in Java."""
    with pytest.raises(RuntimeError, match="No entry found for connection 9"):
        _states().connection_state("9")
