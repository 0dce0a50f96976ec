"""Tests of kafka.cluster.end_point (and the ListenerName/SecurityProtocol it builds on)."""

from __future__ import annotations

import re

import pytest

from kafka.cluster.end_point import (
    DEFAULT_SECURITY_PROTOCOL_MAP,
    EndPoint,
    create_end_point,
    listener_list_to_end_points,
    parse_csv_list,
    parse_csv_map,
)
from kafka.common.errors import KafkaException
from kafka.common.network.listener_name import ListenerName
from kafka.common.security.auth.security_protocol import SecurityProtocol

PLAINTEXT = ListenerName("PLAINTEXT")


def test_security_protocol_ids_and_names() -> None:
    """SecurityProtocol has Kafka's ids, and for_name ignores case but rejects unknown names."""
    assert [(p.name, p.id) for p in SecurityProtocol] == [
        ("PLAINTEXT", 0),
        ("SSL", 1),
        ("SASL_PLAINTEXT", 2),
        ("SASL_SSL", 3),
    ]
    assert SecurityProtocol.for_name("sasl_ssl") is SecurityProtocol.SASL_SSL
    assert SecurityProtocol.for_id(1) is SecurityProtocol.SSL
    with pytest.raises(ValueError):
        SecurityProtocol.for_name("TLS")


def test_listener_name_normalisation_and_prefixes() -> None:
    """Listener names normalise to upper case and give lower-case config prefixes."""
    assert ListenerName.normalised("internal") == ListenerName("INTERNAL")
    assert ListenerName.for_security_protocol(SecurityProtocol.SSL) == ListenerName("SSL")
    assert ListenerName("Client").config_prefix() == "listener.name.client."
    assert ListenerName("X").sasl_mechanism_config_prefix("PLAIN") == "listener.name.x.plain."


def test_create_end_point_parses_host_port_and_listener() -> None:
    """A listener string yields host, port, normalised listener name and its protocol."""
    ep = create_end_point("plaintext://myhost:9092")
    assert ep == EndPoint("myhost", 9092, PLAINTEXT, SecurityProtocol.PLAINTEXT)
    assert ep.connection_string == "PLAINTEXT://myhost:9092"


def test_create_end_point_empty_host_and_ipv6() -> None:
    """An empty host means all interfaces (None); bracketed IPv6 hosts lose their brackets and regain them."""
    empty = create_end_point("PLAINTEXT://:9092")
    assert empty.host is None
    assert empty.connection_string == "PLAINTEXT://:9092"
    v6 = create_end_point("SSL://[::1]:9093")
    assert v6.host == "::1"
    assert v6.security_protocol is SecurityProtocol.SSL
    assert v6.connection_string == "SSL://[::1]:9093"
    assert create_end_point("PLAINTEXT://localhost:-1").port == -1


def test_create_end_point_with_custom_protocol_map() -> None:
    """Custom listener names resolve through the given map; unmapped ones fail."""
    protocols = {ListenerName("CLIENT"): SecurityProtocol.SASL_SSL}
    ep = create_end_point("client://h:1", protocols)
    assert ep.listener_name == ListenerName("CLIENT")
    assert ep.security_protocol is SecurityProtocol.SASL_SSL
    with pytest.raises(ValueError, match=re.escape("No security protocol defined for listener REPLICATION")):
        create_end_point("REPLICATION://h:2", protocols)


def test_create_end_point_rejects_garbage() -> None:
    """A string that is not LISTENER://host:port raises KafkaException."""
    with pytest.raises(KafkaException, match=re.escape("Unable to parse localhost:9092 to a broker endpoint")):
        create_end_point("localhost:9092")


def test_listener_list_requires_distinct_names_and_ports() -> None:
    """Listener lists must not repeat names, nor ports other than 0 unless allowed."""
    eps = listener_list_to_end_points("PLAINTEXT://:0, SSL://:0", DEFAULT_SECURITY_PROTOCOL_MAP)
    assert [e.listener_name.value for e in eps] == ["PLAINTEXT", "SSL"]
    with pytest.raises(ValueError, match=re.escape("Each listener must have a different name")):
        listener_list_to_end_points("PLAINTEXT://a:1,PLAINTEXT://b:2", DEFAULT_SECURITY_PROTOCOL_MAP)
    with pytest.raises(ValueError, match=re.escape("Each listener must have a different port")):
        listener_list_to_end_points("PLAINTEXT://a:1,SSL://b:1", DEFAULT_SECURITY_PROTOCOL_MAP)
    same_port = listener_list_to_end_points("PLAINTEXT://a:1,SSL://b:1", DEFAULT_SECURITY_PROTOCOL_MAP, False)
    assert [e.port for e in same_port] == [1, 1]
    with pytest.raises(ValueError, match=re.escape("Error creating broker listeners from 'junk'")):
        listener_list_to_end_points("junk", DEFAULT_SECURITY_PROTOCOL_MAP)


def test_csv_helpers() -> None:
    """CSV lists drop empty entries; CSV maps split each entry at its last colon."""
    assert parse_csv_list("a, b,,c") == ["a", "b", "c"]
    assert parse_csv_list(None) == []
    assert parse_csv_map("") == {}
    assert parse_csv_map("A:PLAINTEXT, ::1:5") == {"A": "PLAINTEXT", "::1": "5"}
    with pytest.raises(ValueError):
        parse_csv_map("nocolon")


def test_default_security_protocol_map_names_each_protocol() -> None:
    """The default map has one listener per protocol, named after it."""
    assert {k.value: v for k, v in DEFAULT_SECURITY_PROTOCOL_MAP.items()} == {p.name: p for p in SecurityProtocol}
