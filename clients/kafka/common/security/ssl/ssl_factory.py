"""Port of clients/src/main/java/org/apache/kafka/common/security/ssl/SslFactory.java (Kafka 3.7).

The TLS engines of one listener (server mode) or one client (client mode), over a DefaultSslEngineFactory.
Reconfigurable: a broker given a new keystore or truststore through `kafka-configs.sh --entity-type brokers`
(DynamicListenerConfig) validates it here (it must load, and a new keystore must keep the certificate's subject
and subject alternative names, as Kafka checks) and then builds new connections with it; connections already
open keep theirs.

# PORT: Java's validation makes a test handshake between the new engines; here the new context is built (the key
# matching its certificate is checked by OpenSSL while loading) and the subject/SAN rule is checked on the
# certificates themselves.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from kafka.common.config import ssl_configs as sc
from kafka.common.config.config_exception import ConfigException
from kafka.common.errors import KafkaException
from kafka.common.security.ssl.default_ssl_engine_factory import (
    DefaultSslEngineFactory,
    Mode,
    SslEngine,
    config_string,
)

if TYPE_CHECKING:
    from cryptography import x509

__all__ = ["SslFactory"]

_log = logging.getLogger("org.apache.kafka.common.security.ssl.SslFactory")


class SslFactory:
    def __init__(
        self,
        mode: str,
        client_auth_config_override: str | None = None,
        keystore_verifiable_using_truststore: bool = False,
    ) -> None:
        self._mode = mode
        self._client_auth_config_override = client_auth_config_override
        self._keystore_verifiable_using_truststore = keystore_verifiable_using_truststore
        self._endpoint_identification: str | None = None
        self._ssl_engine_factory: DefaultSslEngineFactory | None = None
        self._ssl_engine_factory_config: dict[str, Any] = {}
        self._lock = threading.Lock()

    # -- Reconfigurable -------------------------------------------------------------------------------------

    def configure(self, configs: Mapping[str, Any]) -> None:
        if self._ssl_engine_factory is not None:
            raise RuntimeError("SslFactory was already configured.")
        self._endpoint_identification = config_string(configs, sc.SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG)
        next_configs = dict(configs)
        if self._client_auth_config_override is not None:
            next_configs[sc.SSL_CLIENT_AUTH_CONFIG] = self._client_auth_config_override
        factory = self._instantiate_ssl_engine_factory(next_configs)
        self._ssl_engine_factory = factory
        self._ssl_engine_factory_config = next_configs

    def reconfigurable_configs(self) -> frozenset[str]:
        return sc.RECONFIGURABLE_CONFIGS

    def validate_reconfiguration(self, new_configs: Mapping[str, Any]) -> None:
        self._create_new_ssl_engine_factory(new_configs)

    def reconfigure(self, new_configs: Mapping[str, Any]) -> None:
        new_factory = self._create_new_ssl_engine_factory(new_configs)
        with self._lock:
            if new_factory is not self._ssl_engine_factory:
                old = self._ssl_engine_factory
                self._ssl_engine_factory = new_factory
                self._ssl_engine_factory_config = self._with_override(new_configs)
                _log.info(
                    "Created new %s SSL engine builder with keystore %s truststore %s",
                    self._mode,
                    config_string(new_configs, sc.SSL_KEYSTORE_LOCATION_CONFIG),
                    config_string(new_configs, sc.SSL_TRUSTSTORE_LOCATION_CONFIG),
                )
                if old is not None:
                    old.close()

    def _with_override(self, configs: Mapping[str, Any]) -> dict[str, Any]:
        next_configs = dict(configs)
        if self._client_auth_config_override is not None:
            next_configs[sc.SSL_CLIENT_AUTH_CONFIG] = self._client_auth_config_override
        return next_configs

    def _create_new_ssl_engine_factory(self, new_configs: Mapping[str, Any]) -> DefaultSslEngineFactory:
        current = self._ssl_engine_factory
        if current is None:
            raise RuntimeError("SslFactory has not been configured.")
        next_configs = self._with_override(new_configs)
        if not current.should_be_rebuilt(next_configs):
            return current
        try:
            new_factory = self._instantiate_ssl_engine_factory(next_configs)
        except KafkaException as e:
            raise ConfigException(f"Validation of dynamic config update of SSLFactory failed: {e}") from e
        if self._mode == Mode.SERVER and current is not None:
            self._check_keystore_compatible(self._ssl_engine_factory_config, next_configs)
        return new_factory

    def _check_keystore_compatible(self, old_configs: Mapping[str, Any], new_configs: Mapping[str, Any]) -> None:
        """A new server keystore must keep the subject and the subject alternative names of the old one (Kafka's
        CertificateEntries check), so that clients verifying the broker's name keep connecting."""
        old = _leaf_certificate(old_configs)
        new = _leaf_certificate(new_configs)
        if old is None or new is None:
            return
        if old.subject != new.subject:
            raise ConfigException(
                "Validation of dynamic config update of SSLFactory failed: Keystore DistinguishedName does not "
                f"match: existing={{alias=, DN={old.subject.rfc4514_string()}}}, "
                f"new={{alias=, DN={new.subject.rfc4514_string()}}}"
            )
        if _sans(old) != _sans(new):
            raise ConfigException(
                "Validation of dynamic config update of SSLFactory failed: Keystore SubjectAltNames do not match: "
                f"existing={sorted(_sans(old))}, new={sorted(_sans(new))}"
            )

    def _instantiate_ssl_engine_factory(self, configs: Mapping[str, Any]) -> DefaultSslEngineFactory:
        factory = DefaultSslEngineFactory()
        factory.configure(configs, self._mode)
        return factory

    # -- engines --------------------------------------------------------------------------------------------

    def create_ssl_engine(self, peer_host: str, peer_port: int) -> SslEngine:
        """A new engine for a connection with `peer_host:peer_port` (the host name a client checks)."""
        factory = self._ssl_engine_factory
        if factory is None:
            raise RuntimeError("SslFactory has not been configured.")
        if self._mode == Mode.SERVER:
            return factory.create_server_ssl_engine(peer_host, peer_port)
        return factory.create_client_ssl_engine(peer_host, peer_port, self._endpoint_identification)

    def ssl_engine_factory(self) -> DefaultSslEngineFactory | None:
        return self._ssl_engine_factory

    def close(self) -> None:
        factory = self._ssl_engine_factory
        if factory is not None:
            factory.close()


def _leaf_certificate(configs: Mapping[str, Any]) -> x509.Certificate | None:
    """The first certificate of the configured keystore (its leaf), or None when it cannot be read simply."""
    from cryptography import x509

    from kafka.common.security.ssl.default_ssl_engine_factory import _PEM_CERT

    chain = config_string(configs, sc.SSL_KEYSTORE_CERTIFICATE_CHAIN_CONFIG)
    try:
        if chain is not None:
            found = _PEM_CERT.findall(chain.encode())
            return x509.load_pem_x509_certificate(found[0]) if found else None
        location = config_string(configs, sc.SSL_KEYSTORE_LOCATION_CONFIG)
        if location is None:
            return None
        with open(location, "rb") as f:
            data = f.read()
        if (config_string(configs, sc.SSL_KEYSTORE_TYPE_CONFIG) or "").upper() == "PEM":
            found = _PEM_CERT.findall(data)
            return x509.load_pem_x509_certificate(found[0]) if found else None
        from cryptography.hazmat.primitives.serialization import pkcs12

        for password in (
            config_string(configs, sc.SSL_KEYSTORE_PASSWORD_CONFIG),
            config_string(configs, sc.SSL_KEY_PASSWORD_CONFIG),
        ):
            try:
                _, cert, _ = pkcs12.load_key_and_certificates(data, password.encode() if password else None)
                return cert
            except ValueError:
                continue
    except (OSError, ValueError, IndexError):
        return None
    return None


def _sans(cert: x509.Certificate) -> set[str]:
    from cryptography import x509

    try:
        ext = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName)
    except x509.ExtensionNotFound:
        return set()
    return {str(v) for v in ext.value}
