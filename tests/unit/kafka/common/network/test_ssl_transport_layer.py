"""Tests of TLS channels (kafka.common.network.ssl_transport_layer, ssl_channel_builder, channel_builders and
kafka.common.security.ssl) between two real Selectors over a local socket, as Kafka's SslTransportLayerTest and
SslSelectorTest do: handshakes with PKCS12, PEM-file and inline PEM stores, echoes of small and large frames,
refused handshakes (an untrusted CA, a missing client certificate, a host name not in the certificate, plaintext
bytes on a TLS port) ending in AUTHENTICATION_FAILED with SslAuthenticationException, the principal taken from the
client certificate through `ssl.principal.mapping.rules`, JKS stores refused with a clear error, and keystore
reconfiguration."""

from __future__ import annotations

import socket
import struct
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from kafka.common.config.config_exception import ConfigException
from kafka.common.errors import InvalidConfigurationException, SslAuthenticationException
from kafka.common.network.byte_buffer_send import ByteBufferSend
from kafka.common.network.channel_builder import ChannelBuilder
from kafka.common.network.channel_state import ChannelState
from kafka.common.network.inet_address import InetAddress, InetSocketAddress
from kafka.common.network.listener_name import ListenerName
from kafka.common.network.network_send import NetworkSend
from kafka.common.network.selector import Selector
from kafka.common.network.socket_channel import SocketChannel
from kafka.common.network.ssl_channel_builder import SslChannelBuilder
from kafka.common.network.ssl_transport_layer import SslTransportLayer
from kafka.common.security.auth.kafka_principal import KafkaPrincipal
from kafka.common.security.ssl.default_ssl_engine_factory import Mode
from kafka.common.security.ssl.ssl_factory import SslFactory
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import Time
from tests.integration import security_support as ss

BUFFER_SIZE = 64 * 1024


@pytest.fixture(scope="module")
def certs(tmp_path_factory: pytest.TempPathFactory) -> ss.TestCerts:
    return ss.make_certs(tmp_path_factory.mktemp("certs"))


def _server_builder(configs: dict[str, Any]) -> SslChannelBuilder:
    builder = SslChannelBuilder(Mode.SERVER, ListenerName("SSL"), False, LogContext())
    builder.configure(configs)
    return builder


def _client_builder(configs: dict[str, Any]) -> SslChannelBuilder:
    configs = dict(configs)
    configs.pop("security.protocol", None)
    builder = SslChannelBuilder(Mode.CLIENT, None, False, LogContext())
    builder.configure(configs)
    return builder


class Pair:
    """A client Selector connected to a server Selector (one thread polls both); the server echoes each frame."""

    def __init__(self, server_builder: ChannelBuilder, client_builder: ChannelBuilder, host: str = "localhost"):
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(8)
        self.listener.setblocking(False)
        self.port = self.listener.getsockname()[1]
        self.server = Selector(5000, Time.SYSTEM, LogContext(), channel_builder=server_builder)
        self.client = Selector(5000, Time.SYSTEM, LogContext(), channel_builder=client_builder)
        self.server_disconnected: dict[str, ChannelState] = {}
        self.client_disconnected: dict[str, ChannelState] = {}
        self.server_ids: list[str] = []
        self.host = host

    def connect(self, node: str = "0") -> None:
        address = InetSocketAddress(
            InetAddress(self.host if self.host != "127.0.0.1" else None, "127.0.0.1"), self.port
        )
        self.client.connect(node, address, BUFFER_SIZE, BUFFER_SIZE)

    def poll(self) -> list[bytes]:
        """One round: accept, poll both sides, echo what the server received; the frames the client received."""
        try:
            sock, addr = self.listener.accept()
            conn_id = f"server-{len(self.server_ids)}"
            self.server.register(conn_id, SocketChannel(sock, addr[0], addr[1]))
            self.server_ids.append(conn_id)
        except BlockingIOError:
            pass
        self.client.poll(10)
        self.server.poll(10)
        for receive in list(self.server.completed_receives()):
            payload = bytes(receive.payload() or b"")
            self.server.send(NetworkSend(receive.source(), ByteBufferSend.size_prefixed(payload)))
        self.server_disconnected.update(self.server.disconnected())
        self.client_disconnected.update(self.client.disconnected())
        return [bytes(r.payload() or b"") for r in self.client.completed_receives()]

    def poll_until(self, condition: Callable[[], bool], what: str, rounds: int = 1000) -> None:
        for _ in range(rounds):
            self.poll()
            if condition():
                return
        raise AssertionError(f"not after {rounds} rounds: {what}")

    def echo(self, payload: bytes, node: str = "0") -> bytes:
        self.client.send(NetworkSend(node, ByteBufferSend.size_prefixed(payload)))
        for _ in range(2000):
            received = self.poll()
            if received:
                return received[0]
        raise AssertionError("no echo")

    def ready(self, node: str = "0") -> bool:
        return self.client.is_channel_ready(node)

    def close(self) -> None:
        self.client.close()
        self.server.close()
        self.listener.close()


@pytest.fixture
def pairs() -> Iterator[list[Pair]]:
    made: list[Pair] = []
    yield made
    for pair in made:
        pair.close()


def _pair(pairs: list[Pair], server: dict[str, Any], client: dict[str, Any], host: str = "localhost") -> Pair:
    pair = Pair(_server_builder(server), _client_builder(client), host)
    pairs.append(pair)
    pair.connect()
    return pair


@pytest.mark.parametrize("store_type", ["PKCS12", "PEM", "PEM-inline"])
def test_handshake_and_echo_with_each_store_type(certs: ss.TestCerts, pairs: list[Pair], store_type: str) -> None:
    client_store = "PKCS12" if store_type == "PKCS12" else "PEM"
    pair = _pair(pairs, ss.ssl_overrides(certs, store_type), ss.java_ssl_config(certs, store_type=client_store))
    pair.poll_until(pair.ready, "handshake")
    assert pair.echo(b"hello") == b"hello"
    big = bytes(range(256)) * 4096 + b"tail"  # 1 MiB: many TLS records, partial socket writes
    assert pair.echo(big) == big
    server_channel = pair.server.channel(pair.server_ids[0])
    assert server_channel is not None
    assert server_channel.principal() == KafkaPrincipal.ANONYMOUS  # no client certificate asked for


def test_connecting_by_ip_address_checks_the_ip_subject_alternative_name(
    certs: ss.TestCerts, pairs: list[Pair]
) -> None:
    pair = _pair(pairs, ss.ssl_overrides(certs), ss.java_ssl_config(certs), host="127.0.0.1")
    pair.poll_until(pair.ready, "handshake")
    assert pair.echo(b"x") == b"x"


def test_client_trusting_another_ca_is_refused(certs: ss.TestCerts, pairs: list[Pair]) -> None:
    pair = _pair(pairs, ss.ssl_overrides(certs), ss.java_ssl_config(certs, trust="other"))
    pair.poll_until(lambda: "0" in pair.client_disconnected, "client disconnected")
    state = pair.client_disconnected["0"]
    assert state.state() is ChannelState.State.AUTHENTICATION_FAILED
    assert isinstance(state.exception(), SslAuthenticationException)
    assert "certificate verify failed" in str(state.exception()).lower() or "CERTIFICATE_VERIFY_FAILED" in str(
        state.exception()
    )
    # The server sees the alert and closes its side too.
    pair.poll_until(lambda: bool(pair.server_disconnected), "server side closed")


def test_host_name_not_in_certificate_is_refused_unless_identification_is_off(
    certs: ss.TestCerts, pairs: list[Pair], tmp_path: Path
) -> None:
    # The client certificate as the server's: it has no subject alternative names.
    server = ss.ssl_overrides(certs)
    server["ssl.keystore.location"] = str(certs.client.keystore_p12)
    pair = _pair(pairs, server, ss.java_ssl_config(certs))
    pair.poll_until(lambda: "0" in pair.client_disconnected, "refused")
    assert pair.client_disconnected["0"].state() is ChannelState.State.AUTHENTICATION_FAILED
    client = ss.java_ssl_config(certs)
    client["ssl.endpoint.identification.algorithm"] = ""
    pair2 = _pair(pairs, server, client)
    pair2.poll_until(pair2.ready, "handshake without host name check")
    assert pair2.echo(b"ok") == b"ok"


def test_mutual_tls_principal_from_the_certificate(certs: ss.TestCerts, pairs: list[Pair]) -> None:
    pair = _pair(pairs, ss.ssl_overrides(certs, client_auth="required"), ss.java_ssl_config(certs, client_cert=True))
    pair.poll_until(pair.ready, "handshake")
    assert pair.echo(b"who") == b"who"
    channel = pair.server.channel(pair.server_ids[0])
    assert channel is not None
    assert str(channel.principal()) == ss.CLIENT_PRINCIPAL


def test_principal_mapping_rules(certs: ss.TestCerts, pairs: list[Pair]) -> None:
    server = ss.ssl_overrides(certs, client_auth="required")
    server["ssl.principal.mapping.rules"] = "RULE:^CN=(.*?),OU=(.*?),O=.*$/$1@$2/U,DEFAULT"
    pair = _pair(pairs, server, ss.java_ssl_config(certs, client_cert=True, store_type="PKCS12"))
    pair.poll_until(pair.ready, "handshake")
    assert pair.echo(b"a") == b"a"
    channel = pair.server.channel(pair.server_ids[0])
    assert channel is not None
    assert channel.principal() == KafkaPrincipal("User", "CLIENT@TEST")


def test_required_client_auth_refuses_a_client_without_certificate(certs: ss.TestCerts, pairs: list[Pair]) -> None:
    pair = _pair(pairs, ss.ssl_overrides(certs, client_auth="required"), ss.java_ssl_config(certs))
    # TLS 1.3: the client finishes first and learns of the refusal when it reads.
    pair.poll_until(lambda: bool(pair.server_disconnected), "server refuses")
    state = next(iter(pair.server_disconnected.values()))
    assert state.state() is ChannelState.State.AUTHENTICATION_FAILED
    pair.poll_until(lambda: "0" in pair.client_disconnected, "client closed")


def test_requested_client_auth_accepts_a_client_without_certificate_as_anonymous(
    certs: ss.TestCerts, pairs: list[Pair]
) -> None:
    pair = _pair(pairs, ss.ssl_overrides(certs, client_auth="requested"), ss.java_ssl_config(certs))
    pair.poll_until(pair.ready, "handshake")
    assert pair.echo(b"anon") == b"anon"
    channel = pair.server.channel(pair.server_ids[0])
    assert channel is not None and channel.principal() == KafkaPrincipal.ANONYMOUS


def test_client_certificate_of_untrusted_ca_is_refused(certs: ss.TestCerts, pairs: list[Pair]) -> None:
    pair = _pair(
        pairs, ss.ssl_overrides(certs, client_auth="required"), ss.java_ssl_config(certs, client_cert="untrusted")
    )
    pair.poll_until(lambda: bool(pair.server_disconnected), "server refuses")
    assert next(iter(pair.server_disconnected.values())).state() is ChannelState.State.AUTHENTICATION_FAILED


def test_plaintext_bytes_on_a_tls_port_fail_the_handshake(certs: ss.TestCerts, pairs: list[Pair]) -> None:
    pair = Pair(_server_builder(ss.ssl_overrides(certs)), _client_builder(ss.java_ssl_config(certs)))
    pairs.append(pair)
    raw = socket.create_connection(("127.0.0.1", pair.port))
    try:
        raw.sendall(struct.pack(">i", 10) + b"\x00\x12\x00\x03\x00\x00\x00\x01\x00\x00")  # an ApiVersions header
        pair.poll_until(lambda: bool(pair.server_disconnected), "server closes")
        state = next(iter(pair.server_disconnected.values()))
        assert state.state() is ChannelState.State.AUTHENTICATION_FAILED
        assert isinstance(state.exception(), SslAuthenticationException)
        raw.settimeout(5)
        data = raw.recv(100)  # a TLS alert (or nothing), then the close
        assert data == b"" or data[0] == 0x15
    finally:
        raw.close()


def test_cipher_suites_and_protocols(certs: ss.TestCerts, pairs: list[Pair]) -> None:
    server: dict[str, Any] = ss.ssl_overrides(certs)
    server["ssl.enabled.protocols"] = ["TLSv1.2"]
    server["ssl.cipher.suites"] = ["TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384"]
    pair = _pair(pairs, server, ss.java_ssl_config(certs))
    pair.poll_until(pair.ready, "handshake")
    channel = pair.server.channel(pair.server_ids[0])
    assert channel is not None
    transport = channel._transport_layer
    assert isinstance(transport, SslTransportLayer)
    session = transport.ssl_session()
    assert session.version() == "TLSv1.2"
    cipher = session.cipher()
    assert cipher is not None and cipher[0] == "ECDHE-RSA-AES256-GCM-SHA384"
    client: dict[str, Any] = ss.java_ssl_config(certs)
    client["ssl.enabled.protocols"] = ["TLSv1.3"]
    pair2 = _pair(pairs, server, client)
    pair2.poll_until(lambda: "0" in pair2.client_disconnected, "no common protocol")
    assert pair2.client_disconnected["0"].state() is ChannelState.State.AUTHENTICATION_FAILED


def test_jks_store_refused_with_an_error_naming_pkcs12_and_pem(certs: ss.TestCerts, tmp_path: Path) -> None:
    jks = tmp_path / "broker.jks"
    jks.write_bytes(b"\xfe\xed\xfe\xed\x00\x00\x00\x02" + b"\x00" * 64)
    configs = ss.ssl_overrides(certs)
    configs.update({"ssl.keystore.type": "JKS", "ssl.keystore.location": str(jks)})
    with pytest.raises(InvalidConfigurationException) as e:
        _server_builder(configs)
    assert "PKCS12" in str(e.value) and "PEM" in str(e.value) and "JKS" in str(e.value)


def test_pkcs12_store_named_jks_is_read(certs: ss.TestCerts, pairs: list[Pair]) -> None:
    configs = ss.ssl_overrides(certs)
    configs["ssl.keystore.type"] = "JKS"  # Kafka's default type; Java reads PKCS12 files under it too
    pair = _pair(pairs, configs, ss.java_ssl_config(certs))
    pair.poll_until(pair.ready, "handshake")


def test_bad_store_configs(certs: ss.TestCerts) -> None:
    configs = ss.ssl_overrides(certs)
    configs["ssl.keystore.password"] = "wrong"
    configs["ssl.key.password"] = "wrong"
    with pytest.raises(Exception, match="wrong password"):
        _server_builder(configs)
    pem = ss.ssl_overrides(certs, "PEM")
    pem["ssl.key.password"] = "wrong"
    with pytest.raises(InvalidConfigurationException, match="private key"):
        _server_builder(pem)
    inline = ss.ssl_overrides(certs, "PEM-inline")
    inline["ssl.keystore.type"] = "PKCS12"
    with pytest.raises(InvalidConfigurationException, match="only for PEM"):
        _server_builder(inline)
    no_keystore = {"ssl.client.auth": "none"}
    with pytest.raises(InvalidConfigurationException, match="key store is not specified"):
        _server_builder(no_keystore)


def test_keystore_reconfiguration(certs: ss.TestCerts, tmp_path: Path) -> None:
    factory = SslFactory(Mode.SERVER)
    base = ss.ssl_overrides(certs)
    factory.configure(base)
    first = factory.ssl_engine_factory()
    # The same subject and names in another format: accepted, a new context is built.
    same = dict(base)
    same.update(
        {
            "ssl.keystore.type": "PEM",
            "ssl.keystore.location": str(certs.broker.keystore_pem),
            "ssl.key.password": "key-secret",
        }
    )
    same.pop("ssl.keystore.password")
    factory.validate_reconfiguration(same)
    factory.reconfigure(same)
    assert factory.ssl_engine_factory() is not first
    # Another subject: refused, the factory keeps its keystore.
    other = dict(base)
    other["ssl.keystore.location"] = str(certs.client.keystore_p12)
    with pytest.raises(ConfigException, match="DistinguishedName does not match"):
        factory.validate_reconfiguration(other)
    # Nothing changed: no new context.
    current = factory.ssl_engine_factory()
    factory.reconfigure(same)
    assert factory.ssl_engine_factory() is current
