"""DelegationTokenCache (Java's DelegationTokenCache): tokens by id and by HMAC, their SCRAM credentials per
mechanism, and removal of all three together; SCRAM token authentication (tokenauth=true) against it."""

from __future__ import annotations

import base64

import pytest

from kafka.common.errors import SaslAuthenticationException
from kafka.common.security.auth.kafka_principal import KafkaPrincipal
from kafka.common.security.authenticator.credential_cache import CredentialCache
from kafka.common.security.authenticator.sasl_server_authenticator import (
    CREDENTIAL_LIFETIME_MS_SASL_NEGOTIATED_PROPERTY_KEY,
)
from kafka.common.security.sasl import SaslException
from kafka.common.security.scram.internals.scram_formatter import ScramFormatter
from kafka.common.security.scram.internals.scram_mechanism import ScramMechanism
from kafka.common.security.scram.internals.scram_sasl_client import ScramSaslClient
from kafka.common.security.scram.internals.scram_sasl_server import TOKEN_AUTH_CONFIG, ScramSaslServer
from kafka.common.security.scram.internals.scram_server_callback_handler import ScramServerCallbackHandler
from kafka.common.security.scram.scram_credential import ScramCredential
from kafka.common.security.token.delegation import DelegationToken, TokenInformation
from kafka.common.security.token.delegation.internals.delegation_token_cache import DelegationTokenCache

ALICE = KafkaPrincipal("User", "alice")
BOB = KafkaPrincipal("User", "bob")


def _token(token_id: str, hmac: bytes) -> DelegationToken:
    return DelegationToken(TokenInformation(token_id, ALICE, [BOB], 1, 100, 50), hmac)


def test_update_and_remove() -> None:
    cache = DelegationTokenCache(["SCRAM-SHA-256"])  # only the mechanisms asked for get a credential cache
    token = _token("t1", b"\x01\x02")
    credential = ScramFormatter(ScramMechanism.SCRAM_SHA_256).generate_credential("pw", 4096)
    cache.update_cache(token, {"SCRAM-SHA-256": credential, "SCRAM-SHA-512": credential})
    assert cache.token("t1") is token.token_info()
    assert cache.owner("t1") == "alice"
    assert cache.owner("nope") is None
    hmac_b64 = base64.b64encode(b"\x01\x02").decode()
    assert cache.token_id_for_hmac(hmac_b64) == "t1"
    assert cache.token_for_hmac(hmac_b64) is token.token_info()
    assert cache.credential("SCRAM-SHA-256", "t1") is credential
    assert cache.credential("SCRAM-SHA-512", "t1") is None
    assert cache.tokens() == [token.token_info()]

    cache.remove_cache("t1")
    assert cache.token("t1") is None
    assert cache.token_for_hmac(hmac_b64) is None
    assert cache.credential("SCRAM-SHA-256", "t1") is None
    assert cache.tokens() == []


def test_token_information_and_token_equality() -> None:
    info = TokenInformation("t1", ALICE, [BOB], 1, 100, 50)
    assert info.owner_or_renewer(ALICE) and info.owner_or_renewer(BOB)
    assert not info.owner_or_renewer(KafkaPrincipal("User", "carol"))
    requested = TokenInformation("t1", ALICE, [], 1, 100, 50, token_requester=KafkaPrincipal("User", "carol"))
    assert requested.owner_or_renewer(KafkaPrincipal("User", "carol"))
    assert info.renewers_as_string() == ["User:bob"]
    same = TokenInformation("t1", ALICE, [BOB], 1, 100, 70)
    assert info == same  # the expiry does not take part, as in Java
    assert DelegationToken(info, b"h") == DelegationToken(same, b"h")
    assert DelegationToken(info, b"h") != DelegationToken(same, b"x")
    assert "hmac=[*******]" in repr(DelegationToken(info, b"secret")) and "secret" not in repr(
        DelegationToken(info, b"secret")
    )


def _exchange(server: ScramSaslServer, client: ScramSaslClient) -> None:
    challenge = client.evaluate_challenge(b"")
    assert challenge is not None
    while not server.is_complete():
        response = server.evaluate_response(challenge)
        assert response is not None
        challenge = client.evaluate_challenge(response) or b""


def test_scram_token_authentication() -> None:
    """tokenauth=true logs in with the token id and base64 HMAC; the authorization id is the token's owner and the
    token's expiry is the session's credential lifetime. Without the extension, or for an unknown token, the same
    credentials are refused."""
    mechanism = ScramMechanism.SCRAM_SHA_512
    cache = DelegationTokenCache(ScramMechanism.mechanism_names())
    token = _token("tok1", b"\x07" * 64)
    password = token.hmac_as_base64_string()
    credential = ScramFormatter(mechanism).generate_credential(password, mechanism.min_iterations)
    cache.update_cache(token, {mechanism.mechanism_name: credential})
    users = CredentialCache().create_cache(mechanism.mechanism_name, ScramCredential)

    def server() -> ScramSaslServer:
        handler = ScramServerCallbackHandler(users, cache)
        handler.configure(mechanism.mechanism_name, [])
        return ScramSaslServer(mechanism, handler)

    ok = server()
    _exchange(ok, ScramSaslClient(mechanism, "tok1", password, {TOKEN_AUTH_CONFIG: "true"}))
    assert ok.authorization_id() == "alice"
    assert ok.get_negotiated_property(TOKEN_AUTH_CONFIG) == "true"
    assert ok.get_negotiated_property(CREDENTIAL_LIFETIME_MS_SASL_NEGOTIATED_PROPERTY_KEY) == 50

    with pytest.raises(SaslAuthenticationException):
        _exchange(server(), ScramSaslClient(mechanism, "tok1", password))  # not a user
    with pytest.raises(SaslException):
        _exchange(server(), ScramSaslClient(mechanism, "unknown", password, {TOKEN_AUTH_CONFIG: "true"}))
    with pytest.raises(SaslException):
        _exchange(server(), ScramSaslClient(mechanism, "tok1", "wrong", {TOKEN_AUTH_CONFIG: "true"}))
