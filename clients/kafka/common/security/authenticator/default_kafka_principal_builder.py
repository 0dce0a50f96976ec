"""Port of clients/src/main/java/org/apache/kafka/common/security/authenticator/DefaultKafkaPrincipalBuilder.java
(Kafka 3.7).

The principal of a connection: ANONYMOUS over PLAINTEXT; over TLS, `User:` and the peer certificate's subject (RFC
2253, `CN=alice,OU=eng,O=corp`) mapped by `ssl.principal.mapping.rules` (ANONYMOUS when the client sent no
certificate); over SASL, `User:` and the authorization id the SASL server authenticated.

# PORT: Kerberos (GSSAPI) is not ported: a GSSAPI SASL server never exists here, so no KerberosShortNamer either.
# The principal serde (KafkaPrincipalSerde, for KRaft's forwarding) is left out with forwarding.
"""

from __future__ import annotations

import ssl

from kafka.common.errors import KafkaException
from kafka.common.security.auth.authentication_context import (
    AuthenticationContext,
    PlaintextAuthenticationContext,
    SaslAuthenticationContext,
    SslAuthenticationContext,
)
from kafka.common.security.auth.kafka_principal import KafkaPrincipal
from kafka.common.security.auth.kafka_principal_builder import KafkaPrincipalBuilder
from kafka.common.security.ssl.ssl_principal_mapper import SslPrincipalMapper

__all__ = ["DefaultKafkaPrincipalBuilder", "peer_distinguished_name"]


def peer_distinguished_name(session: ssl.SSLObject | ssl.SSLSocket) -> str | None:
    """The subject of the peer's certificate in RFC 2253 form (Java's X500Principal.getName()), or None when the
    peer sent no certificate (Java's SSLPeerUnverifiedException)."""
    der = session.getpeercert(binary_form=True)
    if not der:
        return None
    from cryptography import x509  # only an SSL listener's sessions get here: a PLAINTEXT broker never loads it

    return x509.load_der_x509_certificate(der).subject.rfc4514_string()


class DefaultKafkaPrincipalBuilder(KafkaPrincipalBuilder):
    def __init__(self, kerberos_short_namer: object = None, ssl_principal_mapper: SslPrincipalMapper | None = None):
        del kerberos_short_namer  # PORT: Kerberos is not ported (see the module docstring)
        self._ssl_principal_mapper = ssl_principal_mapper

    def build(self, context: AuthenticationContext) -> KafkaPrincipal:
        if isinstance(context, PlaintextAuthenticationContext):
            return KafkaPrincipal.ANONYMOUS
        if isinstance(context, SslAuthenticationContext):
            name = peer_distinguished_name(context.session())
            if name is None:
                return KafkaPrincipal.ANONYMOUS
            return self._apply_ssl_principal_mapper(name)
        if isinstance(context, SaslAuthenticationContext):
            return KafkaPrincipal(KafkaPrincipal.USER_TYPE, context.server().authorization_id())
        raise ValueError(f"Unhandled authentication context type: {type(context).__name__}")

    def _apply_ssl_principal_mapper(self, distinguished_name: str) -> KafkaPrincipal:
        mapper = self._ssl_principal_mapper
        if mapper is None:
            return KafkaPrincipal(KafkaPrincipal.USER_TYPE, distinguished_name)
        try:
            return KafkaPrincipal(KafkaPrincipal.USER_TYPE, mapper.get_name(distinguished_name))
        except OSError as e:
            raise KafkaException(
                f"Failed to map name for '{distinguished_name}' based on SSL principal mapping rules."
            ) from e
