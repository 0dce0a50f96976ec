"""Port of clients/src/main/java/org/apache/kafka/common/security/auth/KafkaPrincipalBuilder.java (Kafka 3.7).

Turns an authenticated connection (its AuthenticationContext) into the KafkaPrincipal that ACLs name. The broker's
`principal.builder.class` names one; DefaultKafkaPrincipalBuilder is the default.
"""

from __future__ import annotations

import abc

from kafka.common.security.auth.authentication_context import AuthenticationContext
from kafka.common.security.auth.kafka_principal import KafkaPrincipal

__all__ = ["KafkaPrincipalBuilder"]


class KafkaPrincipalBuilder(abc.ABC):
    @abc.abstractmethod
    def build(self, context: AuthenticationContext) -> KafkaPrincipal: ...
