"""SASL (issue 15): SCRAM and PLAIN exchanges, the ZooKeeper credential text, JAAS parsing, and the server and client
authenticators talking over a socket pair."""

from __future__ import annotations

import selectors
import socket

import pytest

from kafka.common.errors import AuthenticationException, KafkaException, SaslAuthenticationException
from kafka.common.network.listener_name import ListenerName
from kafka.common.network.plaintext_transport_layer import PlaintextTransportLayer
from kafka.common.network.sasl_channel_builder import SaslChannelBuilder, check_mechanism_supported
from kafka.common.network.selection_key import SelectionKey
from kafka.common.security.auth.kafka_principal import KafkaPrincipal
from kafka.common.security.auth.security_protocol import SecurityProtocol
from kafka.common.security.authenticator.credential_cache import CredentialCache
from kafka.common.security.authenticator.sasl_client_authenticator import SaslClientAuthenticator
from kafka.common.security.authenticator.sasl_server_authenticator import SaslServerAuthenticator
from kafka.common.security.jaas_config import JaasConfig, parse_jaas_file
from kafka.common.security.jaas_context import JaasContext, java_system_property
from kafka.common.security.plain.internals.plain_sasl_client import PlainSaslClient
from kafka.common.security.plain.internals.plain_sasl_server import PlainSaslServer
from kafka.common.security.plain.internals.plain_server_callback_handler import PlainServerCallbackHandler
from kafka.common.security.sasl import SaslException
from kafka.common.security.scram.internals import scram_credential_utils as scu
from kafka.common.security.scram.internals.scram_formatter import ScramFormatter
from kafka.common.security.scram.internals.scram_mechanism import ScramMechanism
from kafka.common.security.scram.internals.scram_messages import ClientFirstMessage
from kafka.common.security.scram.internals.scram_sasl_client import ScramSaslClient
from kafka.common.security.scram.internals.scram_sasl_server import ScramSaslServer
from kafka.common.security.scram.internals.scram_server_callback_handler import ScramServerCallbackHandler
from kafka.common.security.scram.scram_credential import ScramCredential
from kafka.common.utils.time import Time
from kafka.server.api_version_manager import ApiVersionManager  # noqa: F401 - the broker's supplier type

PLAIN_MODULE = "org.apache.kafka.common.security.plain.PlainLoginModule"


def _scram_cache(mechanism: ScramMechanism, users: dict[str, str]) -> CredentialCache:
    cache = CredentialCache()
    scu.create_cache(cache, [mechanism.mechanism_name])
    c = cache.cache(mechanism.mechanism_name, ScramCredential)
    assert c is not None
    for user, password in users.items():
        c.put(user, ScramFormatter(mechanism).generate_credential(password, 4096))
    return cache


def _exchange(client: ScramSaslClient, server: ScramSaslServer) -> None:
    token = client.evaluate_challenge(b"")
    while not server.is_complete():
        assert token is not None
        challenge = server.evaluate_response(token)
        token = client.evaluate_challenge(challenge or b"")


@pytest.mark.parametrize("mechanism", list(ScramMechanism))
def test_scram_right_password_logs_in_and_wrong_is_refused(mechanism: ScramMechanism) -> None:
    cache = _scram_cache(mechanism, {"alice": "alice-secret"})
    handler = ScramServerCallbackHandler(cache.cache(mechanism.mechanism_name, ScramCredential))
    client = ScramSaslClient(mechanism, "alice", "alice-secret")
    server = ScramSaslServer(mechanism, handler)
    _exchange(client, server)
    assert server.authorization_id() == "alice" and client.is_complete()
    with pytest.raises(SaslException, match="Invalid client credentials"):
        _exchange(ScramSaslClient(mechanism, "alice", "wrong"), ScramSaslServer(mechanism, handler))
    with pytest.raises(SaslAuthenticationException, match="Invalid user credentials"):
        _exchange(ScramSaslClient(mechanism, "bob", "x"), ScramSaslServer(mechanism, handler))


def test_scram_final_message_replayed_on_a_new_exchange_is_refused() -> None:
    mechanism = ScramMechanism.SCRAM_SHA_256
    handler = ScramServerCallbackHandler(
        _scram_cache(mechanism, {"alice": "pw"}).cache(mechanism.mechanism_name, ScramCredential)
    )
    client = ScramSaslClient(mechanism, "alice", "pw")
    server = ScramSaslServer(mechanism, handler)
    first = client.evaluate_challenge(b"")
    assert first is not None
    final = client.evaluate_challenge(server.evaluate_response(first) or b"")
    assert final is not None
    server.evaluate_response(final)
    replay = ScramSaslServer(mechanism, handler)
    replay.evaluate_response(first)  # a fresh server nonce
    with pytest.raises(SaslException, match="nonce"):
        replay.evaluate_response(final)


def test_scram_messages_and_names() -> None:
    with pytest.raises(SaslException):
        ClientFirstMessage.parse(b"garbage")
    first = ClientFirstMessage.parse(b"n,,n=us=3Der,r=abc,tokenauth=true")
    assert ScramFormatter.username(first.sasl_name) == "us=er"
    assert first.extensions == {"tokenauth": "true"}
    assert ScramFormatter.sasl_name("a,b=c") == "a=2Cb=3Dc"
    with pytest.raises(ValueError):
        ScramFormatter.username("bad=XX")


def test_credential_text_as_kafka_writes_it() -> None:
    # Kafka 2.8's ScramFormatter: salt "salt", password "password", 4096 iterations (known SCRAM-SHA-256 values).
    credential = ScramFormatter(ScramMechanism.SCRAM_SHA_256).generate_credential("password", 4096, b"salt")
    text = scu.credential_to_string(credential)
    assert text.startswith("salt=c2FsdA==,stored_key=") and text.endswith(",iterations=4096")
    assert scu.credential_from_string(text) == credential
    with pytest.raises(ValueError):
        scu.credential_from_string("salt=c2FsdA==,iterations=4096")
    assert "password" not in repr(credential)


def test_plain_server() -> None:
    handler = PlainServerCallbackHandler()
    entries = JaasConfig("KafkaServer", f'{PLAIN_MODULE} required user_alice="a-pw" user_bob="b-pw";')
    handler.configure("PLAIN", entries.get_app_configuration_entry("KafkaServer") or [])
    server = PlainSaslServer(handler)
    server.evaluate_response(PlainSaslClient("alice", "a-pw").evaluate_challenge(b"") or b"")
    assert server.is_complete() and server.authorization_id() == "alice"
    with pytest.raises(SaslAuthenticationException, match="Invalid username or password"):
        PlainSaslServer(handler).evaluate_response(b"\x00alice\x00b-pw")
    with pytest.raises(SaslAuthenticationException, match="authorization id"):
        PlainSaslServer(handler).evaluate_response(b"bob\x00alice\x00a-pw")
    with pytest.raises(SaslException, match="expected 3 tokens"):
        PlainSaslServer(handler).evaluate_response(b"garbage")


def test_jaas_text_file_and_kafka_opts(tmp_path: object) -> None:
    config = JaasConfig("KafkaClient", f'{PLAIN_MODULE} required username="a b" password="p;w" // c\n;')
    (entry,) = config.get_app_configuration_entry("KafkaClient") or []
    assert entry.options == {"username": "a b", "password": "p;w"}
    assert "p;w" not in repr(entry)
    contexts = parse_jaas_file(
        f'KafkaServer {{ {PLAIN_MODULE} required user_a="x"; }};\nKafkaClient {{ m optional; }};'
    )
    assert set(contexts) == {"KafkaServer", "KafkaClient"}
    with pytest.raises(ValueError):
        JaasConfig("KafkaClient", f"{PLAIN_MODULE} mandatory;")
    assert (
        java_system_property("java.security.auth.login.config", "-Xmx1G -Djava.security.auth.login.config=/x/j.conf")
        == "/x/j.conf"
    )


def test_server_context_from_listener_prefixed_config_and_file(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    listener = ListenerName("SASL_PLAINTEXT")
    ctx = JaasContext.load_server_context(
        listener, "PLAIN", {"plain.sasl.jaas.config": f'{PLAIN_MODULE} required user_a="x";'}
    )
    assert ctx.config_entry_option("user_a") == "x"
    path = tmp_path / "jaas.conf"
    path.write_text(f'sasl_plaintext.KafkaServer {{ {PLAIN_MODULE} required user_b="y"; }};')
    monkeypatch.setenv("KAFKA_OPTS", f"-Djava.security.auth.login.config={path}")
    ctx = JaasContext.load_server_context(listener, "PLAIN", {})
    assert ctx.name() == "sasl_plaintext.KafkaServer" and ctx.config_entry_option("user_b") == "y"
    monkeypatch.delenv("KAFKA_OPTS")
    with pytest.raises(ValueError, match="KafkaServer"):
        JaasContext.load_server_context(listener, "PLAIN", {})


def test_gssapi_and_unknown_mechanisms_refused() -> None:
    with pytest.raises(KafkaException, match="GSSAPI"):
        check_mechanism_supported("GSSAPI")
    with pytest.raises(KafkaException):
        check_mechanism_supported("DIGEST-MD5")


# ---- authenticators over a socket pair ----------------------------------------------------------------------


def _api_versions_response():  # type: ignore[no-untyped-def]
    from kafka.common.message import ApiVersionsResponseData
    from kafka.common.protocol.api_keys import ApiKeys
    from kafka.common.requests.api_versions_response import ApiVersionsResponse

    data = ApiVersionsResponseData(error_code=0)
    for key in (ApiKeys.SASL_HANDSHAKE, ApiKeys.SASL_AUTHENTICATE, ApiKeys.API_VERSIONS):
        data.api_keys.append(
            ApiVersionsResponseData.ApiVersion(
                api_key=key.id, min_version=key.oldest_version, max_version=key.latest_version()
            )
        )
    return ApiVersionsResponse(data)


def _pair(mechanism: str, password: str, reauth_ms: int = 0):  # type: ignore[no-untyped-def]
    a, b = socket.socketpair()
    a.setblocking(False)
    b.setblocking(False)
    sel = selectors.DefaultSelector()
    server_key = SelectionKey(a, sel, SelectionKey.OP_READ)
    client_key = SelectionKey(b, sel, SelectionKey.OP_READ)
    scram = ScramMechanism.SCRAM_SHA_512
    cache = _scram_cache(scram, {"alice": "alice-secret"})
    plain_handler = PlainServerCallbackHandler()
    plain_handler.configure(
        "PLAIN",
        JaasConfig("K", f'{PLAIN_MODULE} required user_alice="alice-secret";').get_app_configuration_entry("K") or [],
    )
    scram_handler = ScramServerCallbackHandler(cache.cache(scram.mechanism_name, ScramCredential))
    server = SaslServerAuthenticator(
        {"sasl.enabled.mechanisms": ["PLAIN", scram.mechanism_name]},
        {
            "PLAIN": lambda: PlainSaslServer(plain_handler),
            scram.mechanism_name: lambda: ScramSaslServer(scram, scram_handler),
        },
        "conn-1",
        ListenerName("SASL_PLAINTEXT"),
        SecurityProtocol.SASL_PLAINTEXT,
        PlaintextTransportLayer(server_key),
        {"PLAIN": reauth_ms, scram.mechanism_name: reauth_ms},
        None,
        Time.SYSTEM,
        _api_versions_response,
    )
    sasl_client = (
        PlainSaslClient("alice", password) if mechanism == "PLAIN" else ScramSaslClient(scram, "alice", password)
    )
    client = SaslClientAuthenticator(
        {}, sasl_client, "node-0", KafkaPrincipal.ANONYMOUS, mechanism, PlaintextTransportLayer(client_key), Time.SYSTEM
    )
    return server, client, (a, b, sel)


def _run(server: SaslServerAuthenticator, client: SaslClientAuthenticator) -> None:
    for _ in range(50):
        if server.complete() and client.complete():
            return
        if not client.complete():
            client.authenticate()
        if not server.complete():
            server.authenticate()
    raise AssertionError("authentication did not finish")


@pytest.mark.parametrize("mechanism", ["PLAIN", "SCRAM-SHA-512"])
def test_authenticators_log_in(mechanism: str) -> None:
    server, client, socks = _pair(mechanism, "alice-secret", reauth_ms=60_000)
    try:
        _run(server, client)
        assert server.principal() == KafkaPrincipal("User", "alice")
        assert server.server_session_expiration_time_nanos() is not None
        assert client.client_session_reauthentication_time_nanos() is not None
    finally:
        for s in socks[:2]:
            s.close()


@pytest.mark.parametrize("mechanism", ["PLAIN", "SCRAM-SHA-512"])
def test_authenticators_wrong_password_is_sasl_authentication_failed(mechanism: str) -> None:
    server, client, socks = _pair(mechanism, "wrong")
    try:
        with pytest.raises(AuthenticationException) as server_error:
            _run(server, client)
        assert isinstance(server_error.value, SaslAuthenticationException)
        server.handle_authentication_failure()  # the Selector has the response written when the delay ends
        with pytest.raises(SaslAuthenticationException):
            for _ in range(10):
                client.authenticate()
    finally:
        for s in socks[:2]:
            s.close()


def test_unsupported_mechanism_is_refused() -> None:
    from kafka.common.errors import UnsupportedSaslMechanismException

    server, client, socks = _pair("PLAIN", "alice-secret")
    client._mechanism = "SCRAM-SHA-256"
    try:
        with pytest.raises(UnsupportedSaslMechanismException):
            _run(server, client)
        server.handle_authentication_failure()
        with pytest.raises(UnsupportedSaslMechanismException, match="not enabled in the server"):
            for _ in range(10):
                client.authenticate()
    finally:
        for s in socks[:2]:
            s.close()


def test_channel_builder_refuses_unsupported_configs() -> None:
    from kafka.common.network.sasl_channel_builder import Mode

    with pytest.raises(KafkaException, match="GSSAPI"):
        SaslChannelBuilder.create(
            Mode.SERVER,
            {"sasl.enabled.mechanisms": ["GSSAPI"]},
            SecurityProtocol.SASL_PLAINTEXT,
            ListenerName("SASL_PLAINTEXT"),
            False,
            None,
        )


# ---- OAUTHBEARER (unsecured JWS) -------------------------------------------------------------------------------


def _oauth_entries(options: str) -> list:
    module = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule"
    return JaasConfig("K", f"{module} required {options};").get_app_configuration_entry("K") or []


def test_oauthbearer_unsecured_login_and_validation() -> None:
    from kafka.common.security.oauthbearer.internals.oauth_bearer_sasl_client import OAuthBearerSaslClient
    from kafka.common.security.oauthbearer.internals.oauth_bearer_sasl_server import OAuthBearerSaslServer
    from kafka.common.security.oauthbearer.internals.unsecured import (
        oauth_bearer_unsecured_login_callback_handler as login_handler,
    )
    from kafka.common.security.oauthbearer.internals.unsecured import (
        oauth_bearer_unsecured_validator_callback_handler as validator_handler,
    )
    from kafka.common.utils.time import MockTime

    OAuthBearerUnsecuredLoginCallbackHandler = login_handler.OAuthBearerUnsecuredLoginCallbackHandler
    OAuthBearerUnsecuredValidatorCallbackHandler = validator_handler.OAuthBearerUnsecuredValidatorCallbackHandler

    time_ = MockTime()
    validator = OAuthBearerUnsecuredValidatorCallbackHandler(time_)
    validator.configure("OAUTHBEARER", _oauth_entries('unsecuredValidatorRequiredScope="kafka"'))

    def login(options: str) -> OAuthBearerSaslClient:
        handler = OAuthBearerUnsecuredLoginCallbackHandler(time_)
        handler.configure("OAUTHBEARER", _oauth_entries(options))
        return OAuthBearerSaslClient(handler.token(), handler.extensions())

    client = login('unsecuredLoginStringClaim_sub="erin" unsecuredLoginListClaim_scope=",kafka,x"')
    server = OAuthBearerSaslServer(validator)
    assert server.evaluate_response(client.evaluate_challenge(b"") or b"") == b""
    assert server.is_complete() and server.authorization_id() == "erin"
    assert server.get_negotiated_property("CREDENTIAL.LIFETIME.MS") == time_.milliseconds() + 3600 * 1000
    assert client.evaluate_challenge(b"") is None and client.is_complete()

    # Without the required scope: a JSON error, the client's 0x01, then the failure.
    client = login('unsecuredLoginStringClaim_sub="erin"')
    server = OAuthBearerSaslServer(validator)
    challenge = server.evaluate_response(client.evaluate_challenge(b"") or b"")
    assert challenge == b'{"status":"insufficient_scope", "scope":"kafka"}'
    ack = client.evaluate_challenge(challenge)
    with pytest.raises(SaslAuthenticationException, match="insufficient_scope"):
        server.evaluate_response(ack or b"")

    # An expired token is an invalid_token.
    client = login(
        'unsecuredLoginStringClaim_sub="erin" unsecuredLoginListClaim_scope=" kafka" unsecuredLoginLifetimeSeconds="1"'
    )
    time_.sleep(2000)
    assert OAuthBearerSaslServer(validator).evaluate_response(client.evaluate_challenge(b"") or b"") == (
        b'{"status":"invalid_token"}'
    )
    with pytest.raises(SaslException):
        OAuthBearerSaslServer(validator).evaluate_response(b"n,,\x01auth=Basic abc\x01\x01")
