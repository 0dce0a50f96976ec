"""Port of clients/src/main/java/org/apache/kafka/common/security/auth/AuthenticationContext.java and its three
implementations, PlaintextAuthenticationContext, SslAuthenticationContext and SaslAuthenticationContext (Kafka 3.7).

What a KafkaPrincipalBuilder is told about an authenticated connection: its security protocol, the peer's address
and the listener, and for TLS the session (the peer's certificate), for SASL the server that authenticated it.

# PORT: Java's SSLSession is Python's ssl.SSLObject (its getpeercert gives the peer's certificate); Java's SaslServer
# is whatever S2's SASL server object is, read through its `mechanism_name()` and `authorization_id()`.
"""

from __future__ import annotations

import abc
import ssl
from typing import Any

from kafka.common.security.auth.security_protocol import SecurityProtocol

__all__ = [
    "AuthenticationContext",
    "PlaintextAuthenticationContext",
    "SaslAuthenticationContext",
    "SslAuthenticationContext",
]


class AuthenticationContext(abc.ABC):
    @abc.abstractmethod
    def security_protocol(self) -> SecurityProtocol: ...

    @abc.abstractmethod
    def client_address(self) -> str:
        """The peer's IP address."""

    @abc.abstractmethod
    def listener_name(self) -> str: ...


class PlaintextAuthenticationContext(AuthenticationContext):
    def __init__(self, client_address: str, listener_name: str) -> None:
        self._client_address = client_address
        self._listener_name = listener_name

    def security_protocol(self) -> SecurityProtocol:
        return SecurityProtocol.PLAINTEXT

    def client_address(self) -> str:
        return self._client_address

    def listener_name(self) -> str:
        return self._listener_name


class SslAuthenticationContext(AuthenticationContext):
    def __init__(self, session: ssl.SSLObject, client_address: str, listener_name: str) -> None:
        self._session = session
        self._client_address = client_address
        self._listener_name = listener_name

    def session(self) -> ssl.SSLObject:
        return self._session

    def security_protocol(self) -> SecurityProtocol:
        return SecurityProtocol.SSL

    def client_address(self) -> str:
        return self._client_address

    def listener_name(self) -> str:
        return self._listener_name


class SaslAuthenticationContext(AuthenticationContext):
    def __init__(
        self,
        server: Any,
        security_protocol: SecurityProtocol,
        client_address: str,
        listener_name: str,
        ssl_session: ssl.SSLObject | None = None,
    ) -> None:
        self._server = server
        self._security_protocol = security_protocol
        self._client_address = client_address
        self._listener_name = listener_name
        self._ssl_session = ssl_session

    def server(self) -> Any:
        return self._server

    def ssl_session(self) -> ssl.SSLObject | None:
        """The TLS session under SASL_SSL, None under SASL_PLAINTEXT."""
        return self._ssl_session

    def security_protocol(self) -> SecurityProtocol:
        return self._security_protocol

    def client_address(self) -> str:
        return self._client_address

    def listener_name(self) -> str:
        return self._listener_name
