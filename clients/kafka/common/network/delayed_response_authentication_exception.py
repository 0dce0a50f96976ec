"""Port of clients/src/main/java/org/apache/kafka/common/network/DelayedResponseAuthenticationException.java
(Kafka 3.7).

An authentication failure whose response to the client is held back, with the closing of the connection, until the
Selector's `connection.failed.authentication.delay.ms` has passed (KIP-306); the failure itself is its cause.
"""

from __future__ import annotations

from kafka.common.errors import AuthenticationException

__all__ = ["DelayedResponseAuthenticationException"]


class DelayedResponseAuthenticationException(AuthenticationException):
    def __init__(self, cause: BaseException) -> None:
        super().__init__(str(cause))
        self.__cause__ = cause
