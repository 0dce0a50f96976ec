"""Port of clients/src/main/java/org/apache/kafka/server/authorizer/AuthorizableRequestContext.java (Kafka 2.8).

What an authorizer may know about the request it is asked about.

# PORT: a Protocol that kafka.common.requests.RequestContext satisfies as it is: the principal and the client's
# address are attributes there (Java's accessor methods), the request's type, version, client id and correlation
# id are methods as in Java. `client_address` is the address as text (Java's InetAddress.getHostAddress()).
"""

from __future__ import annotations

from typing import Protocol

from kafka.common.security.auth.kafka_principal import KafkaPrincipal

__all__ = ["AuthorizableRequestContext"]


class AuthorizableRequestContext(Protocol):
    @property
    def principal(self) -> KafkaPrincipal: ...

    @property
    def client_address(self) -> str | None: ...

    def request_type(self) -> int: ...

    def request_version(self) -> int: ...

    def client_id(self) -> str | None: ...

    def correlation_id(self) -> int: ...
