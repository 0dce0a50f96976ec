"""Tests of kafka.cluster.broker."""

from __future__ import annotations

import re

import pytest

from kafka.cluster.broker import Broker, BrokerEndPoint, BrokerEndPointNotAvailableException, Node
from kafka.cluster.end_point import EndPoint
from kafka.common.network.listener_name import ListenerName
from kafka.common.security.auth.security_protocol import SecurityProtocol

PLAIN = ListenerName("PLAINTEXT")
SSL = ListenerName("SSL")


def _broker() -> Broker:
    return Broker(
        3,
        [
            EndPoint("h1", 9092, PLAIN, SecurityProtocol.PLAINTEXT),
            EndPoint("h2", 9093, SSL, SecurityProtocol.SSL),
        ],
        "rack-a",
    )


def test_node_and_broker_endpoint_per_listener() -> None:
    """A broker answers the address of each of its listeners, with its id and rack."""
    b = _broker()
    assert b.node(PLAIN) == Node(3, "h1", 9092, "rack-a")
    assert b.node(SSL) == Node(3, "h2", 9093, "rack-a")
    assert b.broker_endpoint(SSL) == BrokerEndPoint(3, "h2", 9093)
    assert b.broker_endpoint(SSL).connection_string() == "h2:9093"
    assert b.end_point(PLAIN).port == 9092


def test_missing_listener_raises() -> None:
    """Asking for a listener the broker lacks fails with BrokerEndPointNotAvailableException."""
    b = _broker()
    missing = ListenerName("INTERNAL")
    assert b.get_node(missing) is None
    with pytest.raises(BrokerEndPointNotAvailableException, match=re.escape("INTERNAL not found for broker 3")):
        b.node(missing)
    with pytest.raises(BrokerEndPointNotAvailableException):
        b.broker_endpoint(missing)


def test_duplicate_listener_names_rejected() -> None:
    """Two endpoints with the same listener name are refused."""
    with pytest.raises(ValueError, match=re.escape("more than one end point with the same listener name")):
        Broker(
            1,
            [EndPoint("a", 1, PLAIN, SecurityProtocol.PLAINTEXT), EndPoint("b", 2, PLAIN, SecurityProtocol.PLAINTEXT)],
        )


def test_equality_and_string_form() -> None:
    """Brokers compare by id, endpoints and rack, and print as Kafka does."""
    assert _broker() == _broker()
    assert hash(_broker()) == hash(_broker())
    assert _broker() != Broker(3, _broker().end_points, None)
    single = Broker.from_host_port(1, "h", 1, PLAIN, SecurityProtocol.PLAINTEXT)
    assert str(single) == "1 : (EndPoint(h,1,ListenerName(PLAINTEXT),PLAINTEXT)) : null : Features{}"
    assert str(Node(1, "h", 2)) == "h:2 (id: 1 rack: null)"
    assert Node.no_node().is_empty()
